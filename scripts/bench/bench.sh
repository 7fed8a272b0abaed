#!/bin/sh
# Speed benchmark: nearcrawl with its default dedup methods on, nearcrawl
# with MD5 only, wget2, and a plain load generator (wrk), all against the
# same test server serving a generated CMS-like site on loopback: how
# nearcrawl compares with wget2, and how much of the server's ceiling the
# fetch engine reaches.
#
#   scripts/bench/bench.sh [--runs N] [--pages P] [--cache] [--nearcrawl BIN]
#                    [--methods LIST] [--disk]
#
# --runs N: rounds of the four (default 3); --pages P: size of the site
# (default 12000, see scripts/gen/gen-bench-site.sh); --cache: generate the
# site into build/bench-site (reused by later runs with the same P) instead
# of a temporary directory; --nearcrawl BIN: the binary (default ./nearcrawl);
# --methods LIST: nearcrawl's --methods (default md5,simhash,minhash,
# its defaults; md5,simhash,ssdeep,minhash,tdw for all five).
# An existing build/bench-site with the same P is always reused.
# The crawlers write (nearcrawl's databases, wget2's mirror of one file a
# page) to tmpfs, /dev/shm, so that the figures compare the work and not the
# file system: on disk wget2's thousands of small files cost it seconds of
# system time. --disk writes them under TMPDIR (default /tmp) instead, as a
# user's crawl would.
#
# Each run measures, against http://127.0.0.1:PORT/ and each from scratch,
# in turn (odd runs in this order, even runs in the reverse order):
#   nearcrawl  nearcrawl crawl -d FRESH.db --quiet --delay-ms 0 --per-host 8
#                  --concurrency 8 --methods LIST
#   nc-md5     the same with --methods md5: fetch, extract, store and the
#                  exact-duplicate check, no near-duplicate method
#   wget2      wget2 --no-config --no-hsts -r -l inf --max-threads=8 -nv
#                  -P FRESH_DIR
#   wrk        wrk -t1 -c8 -d 300s --timeout 30s -s scripts/lib/wrk-urls.lua
#                  URL -- PATHS COUNT
# PATHS are the request-targets of run 1's nearcrawl crawl (robots.txt and
# every page, in the crawl's order; run 1 starts with nearcrawl), COUNT
# their number: wrk asks for the same pages over 8 connections on one
# thread, as many as the crawl asked for, with no parsing, storing or
# politeness: the ceiling of this server on this machine.
# The crawlers read robots.txt; wget2 saves every page, nearcrawl stores
# every page and its fingerprints in SQLite. Wall time is date +%s.%N
# around the command; peak RSS and CPU time come from /usr/bin/time
# (package `time`), or, without it, from polling VmHWM in /proc/PID/status
# every 20 ms (no CPU time then); user and system time are kept apart.
# Requests are counted in the test server's
# access log, so all four are counted the same way (wrk's count includes
# the up to 7 requests in flight when it stops); pages/s = requests / wall
# time.
# Prints a table of the runs, the medians, and medians of per-run ratios:
# time nearcrawl/wget2 (below 1: nearcrawl is faster); pages/s of
# nearcrawl, nc-md5 and wget2 over wrk's requests/s (their share of the
# ceiling); nearcrawl over nc-md5 (what the near-duplicate methods leave
# of the MD5-only rate). Then the summary line of the last crawl of each
# nearcrawl and the median of its per-stage times (ms per page, from its
# end-of-crawl line), the median CPU seconds of its loop thread, its worker
# threads and the rest (its "cpu s:" line, read from /proc/self/task/*/stat:
# a loop thread busy for most of the wall time while the workers are not is
# the serial part), and the bytes a page of each nearcrawl's database
# and of its search index (docs/search.md). Needs wget2, wrk and sqlite3
# (Debian packages of
# those names). No assertion on the figures: exit 0 when it ran, 1 when
# something failed to run, 2 for bad usage or a missing tool.
set -u
cd "$(dirname "$0")/../.." || exit 1

BIN=./nearcrawl
RUNS=3
PAGES=12000
CACHE=""
METHODS=md5,simhash,minhash
DISK=""
usage() {
	echo "usage: $0 [--runs N] [--pages P] [--cache] [--nearcrawl BIN]" \
	    "[--methods LIST] [--disk]" >&2
	exit 2
}
while [ $# -gt 0 ]; do
	case $1 in
	--runs) [ $# -ge 2 ] || usage; RUNS=$2; shift 2 ;;
	--pages) [ $# -ge 2 ] || usage; PAGES=$2; shift 2 ;;
	--cache) CACHE=1; shift ;;
	--nearcrawl) [ $# -ge 2 ] || usage; BIN=$2; shift 2 ;;
	--methods) [ $# -ge 2 ] || usage; METHODS=$2; shift 2 ;;
	--disk) DISK=1; shift ;;
	# The header, down to its first line that is not a comment.
	-h|--help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) usage ;;
	esac
done
# The closing figures this script reads come with -v (binaries before it
# printed them always).
VERBOSE=$("$BIN" crawl --help 2>/dev/null | grep -q -- '--verbose' && echo -v)
case $RUNS in ''|*[!0-9]*|0) echo "bench: bad --runs" >&2; exit 2 ;; esac
case $PAGES in ''|*[!0-9]*) echo "bench: bad --pages" >&2; exit 2 ;; esac
SERVER=${NCSERVER:-build/plain/ncserver}
for f in "$BIN" "$SERVER"; do
	[ -x "$f" ] || {
		echo "bench: $f missing: run make nearcrawl build/plain/ncserver" >&2
		exit 2
	}
done
command -v wget2 >/dev/null 2>&1 || {
	echo "bench: wget2 missing; install it with: apt-get install -y wget2" >&2
	exit 2
}
command -v wrk >/dev/null 2>&1 || {
	echo "bench: wrk missing; install it with: apt-get install -y wrk" >&2
	exit 2
}
command -v sqlite3 >/dev/null 2>&1 || {
	echo "bench: sqlite3 missing; install it with: apt-get install -y sqlite3" >&2
	exit 2
}
TIMEBIN=""
[ -x /usr/bin/time ] && /usr/bin/time -f %M true >/dev/null 2>&1 &&
    TIMEBIN=/usr/bin/time

. scripts/lib/fixture-server.sh

WHERE=${TMPDIR:-/tmp}
if [ -z "$DISK" ]; then
	if [ -d /dev/shm ] && [ -w /dev/shm ]; then
		WHERE=/dev/shm
	else
		echo "bench: no writable /dev/shm: writing to $WHERE" >&2
	fi
fi
T=$(mktemp -d "$WHERE/nc-bench.XXXXXX") || exit 1
FIXTURE_PID=""
cleanup() {
	[ -n "$FIXTURE_PID" ] && kill "$FIXTURE_PID" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# The site: the cache when it holds P pages, else generate it.
CACHEDIR=build/bench-site
if [ -f "$CACHEDIR/www.bench.test.manifest" ] &&
    grep -q "^pages=$PAGES " "$CACHEDIR/www.bench.test.manifest"; then
	SITE=$CACHEDIR
	echo "bench: reusing the site in $SITE"
else
	if [ -n "$CACHE" ]; then SITE=$CACHEDIR; else SITE=$T/site; fi
	g0=$(date +%s.%N)
	scripts/gen/gen-bench-site.sh "$SITE" "$PAGES" >/dev/null || {
		echo "bench: generating the site failed" >&2
		exit 1
	}
	g1=$(date +%s.%N)
	echo "bench: generated the site in $SITE in $(echo "$g0 $g1" |
	    awk '{printf "%.1f", $2 - $1}') s"
fi
echo "bench: site: $(cat "$SITE/www.bench.test.manifest")"
echo "bench: nearcrawl --methods $METHODS; nc-md5: nearcrawl --methods md5"
echo "bench: crawls write to $T ($(df -P "$T" | awk 'NR == 2 {print $1}'))"
echo "bench: load average before: $(cut -d' ' -f1-3 /proc/loadavg)"

LOG=$T/access.log
: >"$LOG"
fixture_server_start "$SITE/www.bench.test" "$T" "$LOG" || exit 1
URL=http://127.0.0.1:$FIXTURE_PORT/

# measure OUT CMD...: run CMD, write "wall rss_kb user_s sys_s" to OUT
# (user_s and sys_s are "-" without /usr/bin/time). Returns CMD's status.
measure() {
	_out=$1
	shift
	_t0=$(date +%s.%N)
	if [ -n "$TIMEBIN" ]; then
		"$TIMEBIN" -f "%M %U %S" -o "$T/time" "$@"
		_rc=$?
		_t1=$(date +%s.%N)
		read -r _rss _u _s <"$T/time"
	else
		"$@" &
		_pid=$!
		_rss=0
		while kill -0 "$_pid" 2>/dev/null; do
			_h=$(awk '/^VmHWM:/ {print $2}' "/proc/$_pid/status" 2>/dev/null)
			[ -n "$_h" ] && [ "$_h" -gt "$_rss" ] && _rss=$_h
			sleep 0.02
		done
		wait "$_pid"
		_rc=$?
		_t1=$(date +%s.%N)
		_u=-
		_s=-
	fi
	echo "$(echo "$_t0 $_t1" | awk '{printf "%.3f", $2 - $1}') $_rss $_u $_s" >"$_out"
	return "$_rc"
}

requests() { wc -l <"$LOG" | tr -d ' '; }

# run_nearcrawl RUN TOOL METHODS: one crawl, a row for TOOL in results.
run_nearcrawl() {
	_db=$T/$2-$1.db
	_r0=$(requests)
	measure "$T/m" "$BIN" crawl $VERBOSE -d "$_db" --quiet --delay-ms 0 --per-host 8 \
	    --concurrency 8 --methods "$3" "$URL" 2>"$T/$2.err" || {
		echo "bench: nearcrawl --methods $3 failed:" >&2
		cat "$T/$2.err" >&2
		exit 1
	}
	_req=$(($(requests) - _r0))
	# wrk's list: what the first crawl asked for, in its order.
	[ -s "$T/paths" ] || tail -n "+$((_r0 + 1))" "$LOG" |
	    awk '{print $4}' >"$T/paths"
	_pages=$(sqlite3 "$_db" "SELECT count(*) FROM pages")
	# The search index's bytes and the whole crawl's (dbstat: every
	# table's pages): the index is the file DB-search beside the database
	# (docs/search.md), or, for a binary before it had a file of its own,
	# the search_text tables inside the database.
	_ix=0
	[ -f "$_db-search" ] &&
	    _ix=$(sqlite3 "$_db-search" "SELECT sum(pgsize) FROM dbstat" 2>/dev/null)
	sqlite3 "$_db" "SELECT (SELECT coalesce(sum(pgsize), 0) FROM dbstat
	    WHERE name LIKE 'search\_text%' ESCAPE '\') + ${_ix:-0},
	    (SELECT sum(pgsize) FROM dbstat) + ${_ix:-0}, $_pages" 2>/dev/null |
	    tr '|' ' ' >>"$T/$2.bytes"
	grep -E '^nearcrawl: (done|stopped|failed|saturated):' "$T/$2.err" |
	    tail -1 >"$T/$2.summary"
	grep '^nearcrawl: ms per page:' "$T/$2.err" >>"$T/$2.stages"
	grep '^nearcrawl: cpu s:' "$T/$2.err" >>"$T/$2.cpu"
	rm -f "$_db" "$_db-wal" "$_db-shm" "$_db-search" "$_db-search-wal" \
	    "$_db-search-shm"
	read -r _w _m _u _s <"$T/m"
	echo "$1 $2 $_w $_req $_pages $_m $_u $_s" >>"$T/results"
}

run_wget2() {
	_dir=$T/wget2-$1
	_r0=$(requests)
	# wget2 exits 8 when some request got an HTTP error (the 404s of the
	# stylesheet and script): that is a finished crawl too.
	measure "$T/m" wget2 --no-config --no-hsts -r -l inf --max-threads=8 \
	    -nv -P "$_dir" "$URL" >/dev/null 2>"$T/wget2.err"
	_rc=$?
	if [ "$_rc" -ne 0 ] && [ "$_rc" -ne 8 ]; then
		echo "bench: wget2 failed with status $_rc:" >&2
		tail -5 "$T/wget2.err" >&2
		exit 1
	fi
	_req=$(($(requests) - _r0))
	_pages=$(find "$_dir" -type f | wc -l | tr -d ' ')
	rm -rf "$_dir"
	read -r _w _m _u _s <"$T/m"
	echo "$1 wget2 $_w $_req $_pages $_m $_u $_s" >>"$T/results"
}

# run_wrk RUN: wrk asks for what the first crawl asked for, as many times.
run_wrk() {
	_r0=$(requests)
	_n=$(wc -l <"$T/paths" | tr -d ' ')
	measure "$T/m" wrk -t1 -c8 -d 300s --timeout 30s \
	    -s scripts/lib/wrk-urls.lua "$URL" -- "$T/paths" "$_n" \
	    >"$T/wrk.out" 2>&1 || {
		echo "bench: wrk failed:" >&2
		cat "$T/wrk.out" >&2
		exit 1
	}
	# wrk-urls.lua ends wrk at the last response, before wrk prints its
	# summary: a summary means -d ran out first, and the rate is not ours.
	if grep -q 'requests in' "$T/wrk.out"; then
		echo "bench: wrk did not get $_n responses in 300 s:" >&2
		cat "$T/wrk.out" >&2
		exit 1
	fi
	_req=$(($(requests) - _r0))
	read -r _w _m _u _s <"$T/m"
	echo "$1 wrk $_w $_req - $_m $_u $_s" >>"$T/results"
}

: >"$T/results"
: >"$T/nearcrawl.stages"
: >"$T/nc-md5.stages"
: >"$T/nearcrawl.cpu"
: >"$T/nc-md5.cpu"
i=1
while [ "$i" -le "$RUNS" ]; do
	if [ $((i % 2)) -eq 1 ]; then
		run_nearcrawl "$i" nearcrawl "$METHODS"
		run_nearcrawl "$i" nc-md5 md5
		run_wget2 "$i"
		run_wrk "$i"
	else
		run_wrk "$i"
		run_wget2 "$i"
		run_nearcrawl "$i" nc-md5 md5
		run_nearcrawl "$i" nearcrawl "$METHODS"
	fi
	i=$((i + 1))
done
echo "bench: load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

echo
echo "nproc $(nproc), $(awk -F': ' '/^model name/ {print $2; exit}' /proc/cpuinfo), \
peak RSS and CPU from ${TIMEBIN:-polling VmHWM (no CPU time)}"
awk -v runs="$RUNS" '
function median(a, n,   i, j, t) {
	for (i = 2; i <= n; i++)	# insertion sort: n is small
		for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
			t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
		}
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
# ratio(A, B): median over the runs of A s pages/s over B s.
function ratio(a, b,   i, q) {
	for (i = 1; i <= runs; i++)
		q[i] = P[i, a] / P[i, b]
	return median(q, runs)
}
BEGIN {
	printf "%-4s %-10s %9s %9s %9s %10s %12s %7s %7s\n", "run", "tool",
	    "wall s", "requests", "pages", "pages/s", "peak RSS MB", "user s",
	    "sys s"
}
{
	printf "%-4s %-10s %9.2f %9d %9s %10.0f %12.1f %7s %7s\n", $1, $2, $3,
	    $4, $5, $4 / $3, $6 / 1024, $7, $8
	k = $2; n[k]++
	W[k, n[k]] = $3; R[k, n[k]] = $4 / $3; M[k, n[k]] = $6 / 1024
	U[k, n[k]] = $7; S[k, n[k]] = $8; T[$1, k] = $3; P[$1, k] = $4 / $3
}
END {
	print ""
	printf "median of %d runs (wrk: requests/s as pages/s):\n", runs
	printf "%-10s %9s %10s %12s %7s %7s\n", "tool", "wall s", "pages/s",
	    "peak RSS MB", "user s", "sys s"
	split("nearcrawl nc-md5 wget2 wrk", tools, " ")
	for (t = 1; t <= 4; t++) {
		k = tools[t]
		for (i = 1; i <= n[k]; i++) {
			w[i] = W[k, i]; r[i] = R[k, i]; m[i] = M[k, i]
			u[i] = U[k, i]; y[i] = S[k, i]
		}
		printf "%-10s %9.2f %10.0f %12.1f %7s %7s\n", k, median(w, n[k]),
		    median(r, n[k]), median(m, n[k]),
		    u[1] == "-" ? "-" : sprintf("%.2f", median(u, n[k])),
		    y[1] == "-" ? "-" : sprintf("%.2f", median(y, n[k]))
	}
	for (i = 1; i <= runs; i++)
		q[i] = T[i, "nearcrawl"] / T[i, "wget2"]
	printf "\ntime ratio nearcrawl/wget2, median of per-run ratios: %.2f", median(q, runs)
	printf " (%s)\n", median(q, runs) <= 1 ? "nearcrawl faster" : "nearcrawl slower"
	print "pages/s ratios, median of per-run ratios:"
	printf "  nearcrawl / wrk (share of the ceiling):     %.2f\n",
	    ratio("nearcrawl", "wrk")
	printf "  nc-md5 / wrk (the fetch engine'"'"'s share):    %.2f\n",
	    ratio("nc-md5", "wrk")
	printf "  wget2 / wrk:                                %.2f\n",
	    ratio("wget2", "wrk")
	printf "  nearcrawl / nc-md5 (near-duplicate methods): %.2f\n",
	    ratio("nearcrawl", "nc-md5")
}' "$T/results"
echo
echo "last nearcrawl run: $(cat "$T/nearcrawl.summary")"
echo "last nc-md5 run: $(cat "$T/nc-md5.summary")"
# stages FILE LABEL: each per-stage time, the median over the runs: where
# nearcrawl's time goes (transfers overlap the rest; workers run beside the
# loop).
stages() {
	awk -v label="$2" '{
		for (i = 1; i <= NF; i++) {
			w = $i; sub(/,$/, "", w)
			if ($(i + 1) ~ /^[0-9.]+,?$/ && w ~ /^(transfer|extract|fingerprints|lookups|queueing)$/) {
				v = $(i + 1); sub(/,$/, "", v); n[w]++; x[w, n[w]] = v
			}
		}
	}
	function med(k,    i, j, t, m) {
		m = n[k]
		for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++)
			if (x[k, j] < x[k, i]) { t = x[k, i]; x[k, i] = x[k, j]; x[k, j] = t }
		return m % 2 ? x[k, (m + 1) / 2] : (x[k, m / 2] + x[k, m / 2 + 1]) / 2
	}
	END {
		if (n["extract"] == 0) exit
		printf "%s ms per page, median of %d runs: transfer %.2f (overlapped) | " \
		    "workers: parse+extract %.3f, hashing %.3f | loop: index lookups %.3f, " \
		    "SQLite+queueing %.3f\n", label, n["extract"], med("transfer"),
		    med("extract"), med("fingerprints"), med("lookups"), med("queueing")
	}' "$1"
}
stages "$T/nearcrawl.stages" nearcrawl
stages "$T/nc-md5.stages" nc-md5
# threads FILE LABEL: the median CPU seconds of each thread group of the
# "cpu s:" lines (loop user, loop sys, workers user, workers sys, other).
threads() {
	awk -v label="$2" '{
		n++
		for (i = 1; i <= NF; i++)
			if ($i ~ /^[0-9.]+$/ && ($(i + 1) == "user" || $(i + 1) == "sys"))
				v[++f[n], n] = $i
		if ($0 ~ /workers \(/) { w = $0; sub(/.*workers \(/, "", w); sub(/\).*/, "", w) }
	}
	function med(k,    i, j, t, m, a) {
		for (i = 1; i <= n; i++) a[i] = v[k, i]
		for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
			if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	END {
		if (n == 0) exit
		printf "%s CPU s by thread, median of %d runs: loop %.2f user %.2f sys | " \
		    "workers (%s) %.2f user %.2f sys | other %.2f user %.2f sys\n",
		    label, n, med(1), med(2), w, med(3), med(4), med(5), med(6)
	}' "$1"
}
threads "$T/nearcrawl.cpu" nearcrawl
threads "$T/nc-md5.cpu" nc-md5
# The search index's share of the database (docs/search.md), the median
# of the runs: bytes a page.
for tool in nearcrawl nc-md5; do
	[ -s "$T/$tool.bytes" ] || continue
	sort -n "$T/$tool.bytes" | awk -v t="$tool" '
	    { ix[NR] = $1; db[NR] = $2; p = $3 }
	    END { m = int((NR + 1) / 2); if (p == 0) exit
		printf "%s database: %.0f bytes a page, of which the search " \
		    "index %.0f (%.0f %%), median of %d runs\n", t,
		    db[m] / p, ix[m] / p, (db[m] > 0 ? 100 * ix[m] / db[m] : 0),
		    NR }'
done
exit 0
