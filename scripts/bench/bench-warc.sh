#!/bin/sh
# Archive benchmark: what --warc costs a crawl, how GNU wget's own WARC
# writing compares, and how fast `nearcrawl dedup` reads archives.
#
#   scripts/bench/bench-warc.sh [--runs N] [--pages P] [--nearcrawl BIN]
#
# --runs N: runs of each configuration (default 3), medians reported;
# --pages P: the bench site's size (default 12000,
# scripts/gen/gen-bench-site.sh, reused from build/bench-site when it has
# that size); --nearcrawl BIN: the binary (default ./nearcrawl).
#
# On the bench site (one host, http://127.0.0.1:PORT/), each run, from
# scratch, in turn:
#   plain:  nearcrawl crawl --quiet --delay-ms 0 --per-host 8 --concurrency 8
#   warc:   the same with --warc DIR
#   wget:   wget -r -l inf --warc-file=F --delete-after (GNU wget 1.x: one
#           connection; its WARC writing is the peer)
#   dedup:  nearcrawl dedup of the warc run's files into a fresh database
#   dedup-wget: nearcrawl dedup of wget's WARC file
# and prints wall seconds, pages/s (rows or requests per second), archive
# bytes, the ratios warc/plain (the cost of archiving) and the verdict
# counts of every nearcrawl database, so a speed-up that changes verdicts
# shows. No assertion on the figures: exit 0 when it ran, 1 when something
# failed to run, 2 for bad usage or a missing tool.
set -u
cd "$(dirname "$0")/../.." || exit 1

BIN=./nearcrawl
RUNS=3
PAGES=12000
usage() {
	echo "usage: $0 [--runs N] [--pages P] [--nearcrawl BIN]" >&2
	exit 2
}
while [ $# -gt 0 ]; do
	case $1 in
	--runs) [ $# -ge 2 ] || usage; RUNS=$2; shift 2 ;;
	--pages) [ $# -ge 2 ] || usage; PAGES=$2; shift 2 ;;
	--nearcrawl) [ $# -ge 2 ] || usage; BIN=$2; shift 2 ;;
	-h|--help) sed -n '2,24s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) usage ;;
	esac
done
# The closing figures this script reads come with -v (binaries before it
# printed them always).
VERBOSE=$("$BIN" crawl --help 2>/dev/null | grep -q -- '--verbose' && echo -v)
case $RUNS in ''|*[!0-9]*|0) echo "bench-warc: bad --runs" >&2; exit 2 ;; esac
case $PAGES in ''|*[!0-9]*) echo "bench-warc: bad --pages" >&2; exit 2 ;; esac
SERVER=${NCSERVER:-build/plain/ncserver}
for f in "$BIN" "$SERVER"; do
	[ -x "$f" ] || {
		echo "bench-warc: $f missing: run make nearcrawl build/plain/ncserver" >&2
		exit 2
	}
done
wget --version 2>/dev/null | grep -q "GNU Wget" || {
	echo "bench-warc: GNU wget missing: apt-get install -y wget" >&2
	exit 2
}
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac

T=$(mktemp -d "${TMPDIR:-/tmp}/nearcrawl-bench-warc.XXXXXX")
FIXTURE_PID=""
cleanup() {
	[ -z "$FIXTURE_PID" ] || kill "$FIXTURE_PID" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
die() { echo "bench-warc: $*" >&2; exit 1; }
. scripts/lib/fixture-server.sh

SITE=build/bench-site
if ! grep -q "^pages=$PAGES " "$SITE/www.bench.test.manifest" 2>/dev/null; then
	SITE=$T/site
	scripts/gen/gen-bench-site.sh "$SITE" "$PAGES" >/dev/null ||
	    die "generating the bench site failed"
fi
LOG=$T/access.log
fixture_server_start "$SITE/www.bench.test" "$T" "$LOG" || exit 1
URL=http://127.0.0.1:$FIXTURE_PORT/
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }'; }
rows() { sqlite3 "$1" 'SELECT count(*) FROM pages'; }
verdicts() {
	sqlite3 "$1" "SELECT verdict || '=' || count(*) FROM pages GROUP BY
	    verdict ORDER BY verdict" | tr '\n' ' '
}
OPTS="--quiet --delay-ms 0 --per-host 8 --concurrency 8"

echo "bench-warc: $(nproc) cores; the test server and the tools share them"
echo "site: $(cat "$SITE/www.bench.test.manifest")"
: >"$T/runs"
r=1
while [ "$r" -le "$RUNS" ]; do
	d=$T/run$r
	mkdir -p "$d/wget"
	t0=$(now)
	# shellcheck disable=SC2086
	"$BIN" crawl $VERBOSE -d "$d/plain.db" $OPTS "$URL" 2>"$d/plain.err" ||
	    die "plain crawl failed"
	echo "$r plain $(since "$t0") $(rows "$d/plain.db") 0" >>"$T/runs"
	t0=$(now)
	# shellcheck disable=SC2086
	"$BIN" crawl $VERBOSE -d "$d/warc.db" $OPTS --warc "$d/warc" "$URL" \
	    2>"$d/warc.err" || die "warc crawl failed"
	echo "$r warc $(since "$t0") $(rows "$d/warc.db") $(cat "$d"/warc/*.warc.gz | wc -c)" >>"$T/runs"
	req0=$(wc -l <"$LOG")
	t0=$(now)
	(cd "$d/wget" && wget -q -r -l inf --delete-after --warc-file=site \
	    --no-warc-keep-log "$URL") 2>/dev/null
	rc=$?
	[ $rc -eq 0 ] || [ $rc -eq 8 ] || die "wget failed ($rc)"
	echo "$r wget $(since "$t0") $(($(wc -l <"$LOG") - req0)) $(wc -c <"$d/wget/site.warc.gz")" >>"$T/runs"
	t0=$(now)
	"$BIN" dedup -d "$d/dedup.db" --quiet "$d"/warc/*.warc.gz \
	    2>"$d/dedup.err" || die "dedup failed"
	echo "$r dedup $(since "$t0") $(rows "$d/dedup.db") 0" >>"$T/runs"
	t0=$(now)
	"$BIN" dedup -d "$d/dedupw.db" --quiet "$d/wget/site.warc.gz" \
	    2>"$d/dedupw.err" || die "dedup of wget's WARC failed"
	echo "$r dedup-wget $(since "$t0") $(rows "$d/dedupw.db") 0" >>"$T/runs"
	r=$((r + 1))
done

printf '%-4s %-11s %8s %7s %9s %12s\n' run config "wall s" rows "rows/s" \
    "WARC bytes"
awk '{ printf "%-4s %-11s %8.2f %7d %9.1f %12s\n", $1, $2, $3, $4,
    $4 / $3, ($5 > 0) ? $5 : "-" }' "$T/runs"
median() {
	sort -n | awk '{ v[NR] = $1 } END { if (NR == 0) print 0;
	    else if (NR % 2) print v[(NR + 1) / 2];
	    else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
med() { awk -v c="$1" '$2 == c { print $3 }' "$T/runs" | median; }
rate() { awk -v c="$1" '$2 == c { print $4 / $3 }' "$T/runs" | median; }
echo
echo "median of $RUNS run(s):"
for c in plain warc wget dedup dedup-wget; do
	printf '  %-11s %8.2f s %9.1f rows/s\n' "$c" "$(med "$c")" "$(rate "$c")"
done
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0) ? a / b : 0 }'; }
echo
echo "ratio warc / plain crawl (wall):            $(ratio "$(med warc)" "$(med plain)")"
echo "ratio nearcrawl --warc / wget --warc-file:  $(ratio "$(med warc)" "$(med wget)")"
echo "ratio dedup pages/s / crawl --warc pages/s: $(ratio "$(rate dedup)" "$(rate warc)")"
d=$T/run$RUNS
echo
echo "verdicts, last run:"
for db in plain warc dedup dedupw; do
	printf '  %-7s %s\n' "$db" "$(verdicts "$d/$db.db")"
done
echo "records in the last run's archive:"
zcat "$d"/warc/*.warc.gz | grep -a '^WARC-Type: ' | sort | uniq -c |
    sed 's/^/  /'
grep -h '^nearcrawl: ms per page' "$d/dedup.err" | sed 's/^/  dedup: /'
