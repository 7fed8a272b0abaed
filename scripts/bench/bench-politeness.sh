#!/bin/sh
# Politeness benchmark: crawl 150 small loopback sites at once and check,
# from the test server's own access log, that the crawler kept its per-host
# gap and obeyed robots.txt, and how close it came to the fastest polite
# crawl.
#
#   scripts/bench/bench-politeness.sh [--delay-ms D] [--nearcrawl BIN]
#       [--keep DIR] [--hosts] [--database URI] [--processes N]
#
# --delay-ms D: the crawl's --delay-ms (default 200); --nearcrawl BIN: the
# binary to measure (default ./nearcrawl); --keep DIR: copy the sites, logs
# and database there; --hosts: also list the requests of every host;
# --database URI: crawl into URI (an empty PostgreSQL database, see
# scripts/lib/pg-server.sh) instead of a fresh SQLite file; --processes N: N
# processes started at the same moment share the crawl (default 1; more
# than one needs --database), and the wall time runs to the last exit.
#
# Sites h001.bench.test .. h150.bench.test, host N on 127.0.1.N, are
# generated into a temporary directory (the same every run):
#   - 5 to 40 pages each (h001: 60, the busiest; h003: 5), every page's text
#     unique; the index links to page 1 (a chain p1 -> p2 -> ...) and to a
#     listing page that links to every page;
#   - N divisible by 3: robots.txt "User-agent: *" + "Disallow: /private/",
#     three /private/ pages linked from the index;
#   - N divisible by 30: also a "User-agent: nearcrawl" group disallowing
#     /nc-only/ and /private/, two /nc-only/ pages linked from the index;
#   - h002: robots.txt answers 503, so nothing else may be fetched there;
#   - h003: "Crawl-delay: 1", so its gap is max(D, 1000 ms);
#   - all other hosts: no robots.txt (404).
# ncserver takes at most 16 addresses, so ten servers of 15 addresses serve
# them, all on one port when it is free on every address.
# The last line is machine-readable:
#   violations=V forbidden=F efficiency=E requests=R seconds=S
# The script makes no assertion on the figures: it exits 0 when it ran,
# 1 when something failed to run, 2 for bad usage.
set -u
cd "$(dirname "$0")/../.." || exit 1

BIN=./nearcrawl
DELAY=200
KEEP=""
LIST=""
HOSTS=150
DB=""
PROCS=1
TOL=5		# ms of timer jitter forgiven on every gap
usage() {
	echo "usage: $0 [--delay-ms D] [--nearcrawl BIN] [--keep DIR] [--hosts]" \
	    "[--database URI] [--processes N]" >&2
	exit 2
}
while [ $# -gt 0 ]; do
	case $1 in
	--delay-ms) [ $# -ge 2 ] || usage; DELAY=$2; shift 2 ;;
	--nearcrawl) [ $# -ge 2 ] || usage; BIN=$2; shift 2 ;;
	--keep) [ $# -ge 2 ] || usage; KEEP=$2; shift 2 ;;
	--hosts) LIST=1; shift ;;
	--database) [ $# -ge 2 ] || usage; DB=$2; shift 2 ;;
	--processes) [ $# -ge 2 ] || usage; PROCS=$2; shift 2 ;;
	-h|--help) sed -n '2,35s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) usage ;;
	esac
done
case $DELAY in ''|*[!0-9]*) echo "bench-politeness: bad --delay-ms" >&2; exit 2 ;; esac
case $PROCS in ''|*[!0-9]*|0) echo "bench-politeness: bad --processes" >&2; exit 2 ;; esac
case $DB in
'') [ "$PROCS" -eq 1 ] || {
	echo "bench-politeness: --processes $PROCS needs --database" >&2
	exit 2
    } ;;
postgresql://* | postgres://*)
	command -v psql >/dev/null 2>&1 ||
	    { echo "bench-politeness: psql missing" >&2; exit 2; } ;;
*) echo "bench-politeness: --database takes a postgresql:// URI" >&2; exit 2 ;;
esac
SERVER=${NCSERVER:-build/plain/ncserver}
for f in "$BIN" "$SERVER"; do
	[ -x "$f" ] || { echo "bench-politeness: $f missing: run make first" >&2; exit 2; }
done

TMP=$(mktemp -d "${TMPDIR:-/tmp}/nearcrawl-polite.XXXXXX") || exit 1
PIDS=""
CRAWL=""		# the crawling processes' pids
stop_servers() {
	for p in $PIDS; do kill "$p" 2>/dev/null; done
	for p in $PIDS; do wait "$p" 2>/dev/null; done
	PIDS=""
}
cleanup() {
	if [ -n "$CRAWL" ]; then
		for p in $CRAWL; do kill "$p" 2>/dev/null; done
		for p in $CRAWL; do wait "$p" 2>/dev/null; done
	fi
	stop_servers
	if [ -n "$KEEP" ] && [ -d "$TMP" ]; then
		mkdir -p "$KEEP" && cp -R "$TMP/." "$KEEP/"
	fi
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# Seconds since the epoch with a fraction when date(1) can give one.
now() {
	_t=$(date +%s.%N)
	case $_t in *N) date +%s ;; *) echo "$_t" ;; esac
}

# ---- the sites -------------------------------------------------------------
# One awk run writes every file. Words come from a Park-Miller generator
# (products stay below 2^53, so every awk gives the same bytes).
ROOT=$TMP/sites
mkdir -p "$ROOT" || exit 1
awk -v hosts="$HOSTS" -v root="$ROOT" '
function rnd() { seed = (seed * 16807) % 2147483647; return seed }
function word(   w, n, i) {
	n = 2 + rnd() % 2
	w = ""
	for (i = 0; i < n; i++)
		w = w syl[rnd() % nsyl + 1]
	return w
}
function sentence(tag,   s, n, i) {
	n = 9 + rnd() % 7
	s = toupper(substr(tag, 1, 1)) substr(tag, 2)
	for (i = 0; i < n; i++)
		s = s " " word()
	return s "."
}
function text(tag,   t, i) {
	t = ""
	for (i = 0; i < 3; i++)
		t = t "<p>" sentence(tag) " " sentence(tag) "</p>\n"
	return t
}
function page(file, title, tag, links) {
	printf "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">" \
	    "<title>%s</title></head>\n<body>\n<h1>%s</h1>\n%s%s</body></html>\n",
	    title, title, text(tag), links > file
	close(file)
}
BEGIN {
	nsyl = split("ka lo mi nu re sa ti vo be da fe gi ho ju le ma ne po " \
	    "qui ra so tu ve wa xi yo ze bra cle dro fla gri plo stu tre vin", syl)
	seed = 20240601
	for (n = 1; n <= hosts; n++) {
		h = sprintf("h%03d", n)
		dir = root "/" h ".bench.test"
		pages = (n == 1) ? 60 : (n == 3) ? 5 : 5 + (n * 17) % 36
		rules = (n % 3 == 0)
		agent = (n % 30 == 0)
		system("mkdir -p " dir (rules ? " " dir "/private" : "") \
		    (agent ? " " dir "/nc-only" : ""))
		links = "<ul>\n<li><a href=\"/listing.html\">all pages of " h \
		    "</a></li>\n<li><a href=\"/p1.html\">first page of " h \
		    "</a></li>\n"
		if (rules)
			for (i = 1; i <= 3; i++)
				links = links "<li><a href=\"/private/s" i \
				    ".html\">private " h " " i "</a></li>\n"
		if (agent)
			for (i = 1; i <= 2; i++)
				links = links "<li><a href=\"/nc-only/n" i \
				    ".html\">reserved " h " " i "</a></li>\n"
		page(dir "/index.html", "Home of " h, "home of " h,
		    links "</ul>\n")
		links = "<ul>\n"
		for (i = 1; i <= pages; i++)
			links = links "<li><a href=\"/p" i ".html\">" h \
			    " page " i "</a></li>\n"
		page(dir "/listing.html", "All pages of " h, "listing of " h,
		    links "</ul>\n")
		for (i = 1; i <= pages; i++) {
			links = "<p><a href=\"/\">home</a>"
			if (i < pages)
				links = links " <a href=\"/p" (i + 1) \
				    ".html\">next</a>"
			page(dir "/p" i ".html", h " page " i,
			    h " page " i, links "</p>\n")
		}
		if (rules)
			for (i = 1; i <= 3; i++)
				page(dir "/private/s" i ".html",
				    h " private " i, h " private " i, "")
		if (agent)
			for (i = 1; i <= 2; i++)
				page(dir "/nc-only/n" i ".html",
				    h " reserved " i, h " reserved " i, "")
		robots = dir "/robots.txt"
		if (n == 2) {
			print "User-agent: *\nDisallow:" > robots
			close(robots)
			print "Status: 503" > (robots ".headers")
			close(robots ".headers")
		} else if (rules) {
			if (agent)
				printf "User-agent: nearcrawl\n" \
				    "Disallow: /nc-only/\nDisallow: /private/\n\n" > robots
			printf "User-agent: *\n%sDisallow: /private/\n",
			    (n == 3) ? "Crawl-delay: 1\n" : "" > robots
			close(robots)
		}
	}
}' || { echo "bench-politeness: cannot generate the sites" >&2; exit 1; }

# ---- the servers -------------------------------------------------------------
# ncserver listens on at most 16 addresses, so GROUP addresses per server.
# Every server asks for the first one's port and falls back to a free port
# of its own if that one is taken; PORT_g is the port of group g.
GROUP=15
# start_server G FIRST LAST WANT: addresses 127.0.1.FIRST..LAST on port
# WANT (0: any); sets PORT_G, returns 1 when it does not come up.
start_server() {
	set -- "$1" "$2" "$3" "$4" --root "$ROOT" --port "$4" \
	    --port-file "$TMP/port.$1" --log "$TMP/log.$1" --quiet
	_a=$2
	while [ "$_a" -le "$3" ]; do
		set -- "$@" --addr "127.0.1.$_a"
		_a=$((_a + 1))
	done
	_g=$1
	shift 4
	"$SERVER" "$@" &
	_p=$!
	PIDS="$PIDS $_p"
	_i=0
	while [ ! -s "$TMP/port.$_g" ]; do
		_i=$((_i + 1))
		if [ "$_i" -gt 100 ] || ! kill -0 "$_p" 2>/dev/null; then
			return 1
		fi
		sleep 0.05
	done
	eval "PORT_$_g=\$(cat \"\$TMP/port.\$_g\")"
}
PIDS=""
PORT=0
g=0
while [ $((g * GROUP)) -lt "$HOSTS" ]; do
	first=$((g * GROUP + 1))
	last=$((first + GROUP - 1))
	[ "$last" -le "$HOSTS" ] || last=$HOSTS
	if ! start_server "$g" "$first" "$last" "$PORT" &&
	    ! { [ "$PORT" != 0 ] && start_server "$g" "$first" "$last" 0; }; then
		echo "bench-politeness: the test server did not start" >&2
		exit 1
	fi
	[ "$g" -gt 0 ] || PORT=$PORT_0
	g=$((g + 1))
done

# ---- the crawl ---------------------------------------------------------------
set --
n=1
while [ "$n" -le "$HOSTS" ]; do
	h=$(printf 'h%03d.bench.test' "$n")
	eval "p=\$PORT_$(((n - 1) / GROUP))"
	set -- "$@" --resolve "$h:$p:127.0.1.$n" "http://$h:$p/"
	n=$((n + 1))
done
# In the background, so that a signal reaches the trap at once. The 503
# robots.txt host is retried after 1, 2 and 4 s and then given up, well
# within the busiest host's time (the default back-off starts at 30 s).
# Several processes wait for one file, so that they start together; the
# clock starts when it appears and stops at the last exit.
[ -n "$DB" ] || DB=$TMP/bench.db
k=1
while [ "$k" -le "$PROCS" ]; do
	if [ "$PROCS" -eq 1 ]; then
		start=$(now)
		"$BIN" crawl -d "$DB" --quiet --delay-ms "$DELAY" --concurrency 64 \
		    --retry-base-ms 1000 --allow-domain bench.test "$@" \
		    2>"$TMP/crawl.err" &
	else
		(
			while [ ! -e "$TMP/go" ]; do sleep 0.01; done
			exec "$BIN" crawl -d "$DB" --worker "p$k" --quiet \
			    --delay-ms "$DELAY" --concurrency 64 \
			    --retry-base-ms 1000 --allow-domain bench.test "$@" \
			    2>"$TMP/crawl$k.err"
		) &
	fi
	CRAWL="$CRAWL $!"
	k=$((k + 1))
done
if [ "$PROCS" -gt 1 ]; then
	start=$(now)
	: >"$TMP/go"
fi
failed=""
k=0
for p in $CRAWL; do
	k=$((k + 1))
	wait "$p" || failed="$failed $k"
done
end=$(now)
CRAWL=""
if [ -n "$failed" ]; then
	for k in $failed; do
		if [ "$PROCS" -eq 1 ]; then
			cat "$TMP/crawl.err" >&2
		else
			echo "bench-politeness: process $k:" >&2
			cat "$TMP/crawl$k.err" >&2
		fi
	done
	echo "bench-politeness: the crawl failed" >&2
	exit 1
fi
if [ "$PROCS" -eq 1 ]; then
	tail -n 1 "$TMP/crawl.err"
else
	k=1
	while [ "$k" -le "$PROCS" ]; do
		echo "process $k: $(tail -n 1 "$TMP/crawl$k.err")"
		k=$((k + 1))
	done
fi
stop_servers
cat "$TMP"/log.* >"$TMP/log" 2>/dev/null
QUERY="SELECT count(*) FROM pages WHERE verdict <> 'skipped'"
case $DB in
postgresql://* | postgres://*)
	PAGES=$(psql -X -q -At -v ON_ERROR_STOP=1 -d "$DB" -c "$QUERY") || exit 1
	if [ "$PROCS" -gt 1 ]; then
		echo "pages per process: $(psql -X -q -At -F ' ' -d "$DB" -c \
		    "SELECT worker, count(*) FROM pages WHERE verdict <> 'skipped'
		     GROUP BY worker ORDER BY worker" | tr '\n' ' ')"
	fi ;;
*) PAGES=$(sqlite3 "$DB" "$QUERY") || exit 1 ;;
esac
[ -s "$TMP/log" ] || { echo "bench-politeness: empty server log" >&2; exit 1; }

# ---- the figures -------------------------------------------------------------
# Log fields: arrival time, host, method, path+query, status, bytes. Lines
# are written when a response ends, so sort by arrival first.
sort -n -k1,1 "$TMP/log" | awk -v delay="$DELAY" -v tol="$TOL" \
    -v wall="$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }')" \
    -v pages="$PAGES" -v worst="$TMP/worst" '
function gap_of(n) { return (n == 3 && delay < 1000) ? 1000 : delay }
{
	h = $2
	if (h !~ /^h[0-9][0-9][0-9]\.bench\.test$/) { other++; next }
	n = substr(h, 2, 3) + 0
	t = $1 * 1000
	if (total == 0 || t < first) first = t
	if (t > last) last = t
	total++
	req[h]++
	path = $4
	sub(/[?#].*/, "", path)
	if (n == 2 && path != "/robots.txt") bad = 1
	else if (n % 3 == 0 && index(path, "/private/") == 1) bad = 1
	else if (n % 30 == 0 && index(path, "/nc-only/") == 1) bad = 1
	else bad = 0
	if (bad) { forbidden++; fh[h]++ }
	if (h in prev) {
		g = t - prev[h]
		if (g < gap_of(n) - tol) {
			viol++
			printf "%-16s %8.0f %8d %8.0f\n", h, g, gap_of(n),
			    gap_of(n) - g > worst
		}
	}
	prev[h] = t
}
END {
	close(worst)
	busiest = ""
	for (h in req)
		if (busiest == "" || req[h] > req[busiest] ||
		    (req[h] == req[busiest] && h < busiest))
			busiest = h
	if (busiest == "") { print "no requests in the log" > "/dev/stderr"; exit 1 }
	bn = substr(busiest, 2, 3) + 0
	ideal = (req[busiest] - 1) * gap_of(bn) / 1000
	actual = (last - first) / 1000
	eff = actual > 0 ? ideal / actual : 0
	nh = 0
	for (h in req) nh++
	fhosts = 0
	for (h in fh) fhosts++
	printf "%-34s %s\n", "delay (ms)", delay
	printf "%-34s %d\n", "hosts requested", nh
	printf "%-34s %d\n", "requests (server log)", total
	printf "%-34s %d\n", "pages in the crawl database", pages
	printf "%-34s %s (%d requests, gap %d ms)\n", "busiest host", busiest,
	    req[busiest], gap_of(bn)
	printf "%-34s %d (tolerance %d ms)\n", "gap violations", viol, tol
	printf "%-34s %d on %d hosts\n", "forbidden fetches", forbidden, fhosts
	printf "%-34s %.3f s\n", "ideal (busiest host)", ideal
	printf "%-34s %.3f s\n", "actual (first to last request)", actual
	printf "%-34s %.3f\n", "efficiency (ideal / actual)", eff
	printf "%-34s %.3f s\n", "wall time with start-up", wall
	printf "%-34s %.1f\n", "pages per second", (wall > 0) ? pages / wall : 0
	printf "%-34s %.1f\n", "requests per second", (wall > 0) ? total / wall : 0
	if (other) printf "%-34s %d\n", "requests to other hosts", other
	printf "summary violations=%d forbidden=%d efficiency=%.3f " \
	    "requests=%d seconds=%.3f\n", viol, forbidden, eff, total, wall
}' >"$TMP/figures" || { echo "bench-politeness: cannot read the log" >&2; exit 1; }

grep -v '^summary ' "$TMP/figures"
if [ -s "$TMP/worst" ]; then
	echo
	echo "worst gaps:"
	printf '%-16s %8s %8s %8s\n' host "gap ms" "need ms" "short"
	sort -k4,4nr "$TMP/worst" | head -n 5
fi
awk '{ n[$2]++ } END { for (h in n) print h, n[h] }' "$TMP/log" | sort >"$TMP/perhost"
sort -k2,2n "$TMP/perhost" | awk '{ v[NR] = $2 }
	END { printf "%-34s min %d, median %d, max %d\n", "requests per host",
	    v[1], v[int((NR + 1) / 2)], v[NR] }'
if [ -n "$LIST" ]; then
	echo
	echo "requests per host:"
	awk '{ printf "  %s %3d%s", substr($1, 1, 4), $2, (NR % 6) ? "" : "\n" }
	    END { if (NR % 6) print "" }' "$TMP/perhost"
fi
echo
sed -n 's/^summary //p' "$TMP/figures"
