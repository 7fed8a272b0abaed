#!/bin/sh
# Load benchmark of `nearcrawl serve`: wrk against the view of a crawl,
# with the server's memory sampled every second.
#
#   scripts/bench/bench-serve.sh [--seconds S] [--connections C]
#                                [--nearcrawl BIN] [--db DB]
#
# --seconds S: the load's length (default 30); --connections C: wrk's
# connections (default 64); --nearcrawl BIN: the binary (default
# ./nearcrawl, make's optimised build); --db DB: serve this crawl instead
# of one made here (of the labelled fixture site and www.inject.test, with
# --warc, so page views read the archive and digest both texts).
#
# The requests go round the view's pages: the overview, the pages by
# verdict, the clusters, the largest cluster, page views of near and
# unique pages (each a WARC read, two digests and the measure), two
# searches (one listing the folded pages), the hosts, a host, a report
# plot. Prints wrk's summary (requests/s,
# latency, socket errors, non-2xx answers) and the server's RSS after a
# warm-up, at its highest and at the end: flat memory means the end is
# about the warm-up's. No assertion on the figures: exit 0 when it ran,
# 1 when something failed to run, 2 for bad usage or a missing tool.
set -u
cd "$(dirname "$0")/../.." || exit 1

BIN=./nearcrawl
SECS=30
CONNS=64
DB=""
usage() {
	echo "usage: $0 [--seconds S] [--connections C] [--nearcrawl BIN]" \
	    "[--db DB]" >&2
	exit 2
}
while [ $# -gt 0 ]; do
	case $1 in
	--seconds) [ $# -ge 2 ] || usage; SECS=$2; shift 2 ;;
	--connections) [ $# -ge 2 ] || usage; CONNS=$2; shift 2 ;;
	--nearcrawl) [ $# -ge 2 ] || usage; BIN=$2; shift 2 ;;
	--db) [ $# -ge 2 ] || usage; DB=$2; shift 2 ;;
	-h|--help) sed -n '2,22s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) usage ;;
	esac
done
for tool in wrk curl sqlite3; do
	command -v $tool >/dev/null 2>&1 || {
		echo "$0: $tool is missing (scripts/make/install-deps.sh)" >&2
		exit 2
	}
done
[ -x "$BIN" ] || { echo "$0: $BIN: build it first (make)" >&2; exit 2; }

T=$(mktemp -d "${TMPDIR:-/tmp}/nearcrawl-bench-serve.XXXXXX")
SRV=""
SERVE_PID=""
cleanup() {
	[ -z "$SERVE_PID" ] || kill "$SERVE_PID" 2>/dev/null
	[ -z "$SRV" ] || kill "$SRV" 2>/dev/null
	wait 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

if [ -z "$DB" ]; then
	. scripts/lib/fixture-server.sh
	fixture_server_start tests/fixtures/sites "$T" || exit 1
	SRV=$FIXTURE_PID
	P=$FIXTURE_PORT
	DB=$T/lab.db
	"$BIN" crawl -d "$DB" --quiet --delay-ms 0 --warc "$T/warc" \
	    --resolve "www.lab.test:$P:127.0.0.1" \
	    --resolve "www.inject.test:$P:127.0.0.1" \
	    "http://www.lab.test:$P/" "http://www.inject.test:$P/" ||
	    { echo "$0: the crawl failed" >&2; exit 1; }
fi

. scripts/lib/serve-up.sh
serve_up "$BIN" "$DB" "$T"
_up=$?
BASE=$SERVE_URL
[ "$_up" -eq 0 ] || { echo "$0: serve did not start" >&2; exit 1; }

# The paths wrk goes round: every kind of page, page views of the first
# near and unique pages and of a few more of each.
{
	echo /
	echo /pages
	echo '/pages?verdict=near'
	echo /clusters
	echo /hosts
	echo /report/growth.svg
	echo '/search?q=calendar'
	echo '/search?q=library+OR+admissions&all=1'
	sqlite3 "$DB" "SELECT '/host?name=' || host FROM pages
	    GROUP BY host ORDER BY count(*) DESC LIMIT 1"
	sqlite3 "$DB" "SELECT '/cluster/' || original_id FROM duplicates
	    GROUP BY original_id ORDER BY count(*) DESC LIMIT 3"
	sqlite3 "$DB" "SELECT '/page/' || id FROM pages
	    WHERE verdict IN ('near', 'unique', 'exact') ORDER BY seq LIMIT 20"
} >"$T/paths"
cat >"$T/round.lua" <<'LUA'
local paths = {}
for line in io.lines(os.getenv("PATHS")) do
	paths[#paths + 1] = line
end
local i = 0
request = function()
	i = i % #paths + 1
	return wrk.format("GET", paths[i])
end
LUA

rss() {
	awk '/^VmRSS/ { print $2 }' "/proc/$SERVE_PID/status" 2>/dev/null
}

# Warm-up: every path once, and the report made.
while read -r p; do
	curl -s -o /dev/null "$BASE$p"
done <"$T/paths"
sleep 3
PATHS=$T/paths wrk -t2 -c"$CONNS" -d5s -s "$T/round.lua" "$BASE" \
    >/dev/null 2>&1
warm=$(rss)
(
	while kill -0 "$SERVE_PID" 2>/dev/null; do
		rss
		sleep 1
	done
) >"$T/rss" &
SAMPLER=$!
PATHS=$T/paths wrk -t2 -c"$CONNS" -d"${SECS}s" --latency \
    -s "$T/round.lua" "$BASE" >"$T/wrk" 2>&1
rc=$?
end=$(rss)
kill "$SAMPLER" 2>/dev/null
wait "$SAMPLER" 2>/dev/null
[ $rc -eq 0 ] || { cat "$T/wrk"; echo "$0: wrk failed" >&2; exit 1; }

echo "nearcrawl serve under wrk: $CONNS connections, $SECS s, $(wc -l \
    <"$T/paths") paths in turn, database $(sqlite3 "$DB" \
    'SELECT count(*) FROM pages') pages"
cat "$T/wrk"
max=$(sort -n "$T/rss" | tail -n 1)
echo "RSS (KiB): after warm-up $warm, highest $max, at the end $end"
echo "errors: $(grep -c 'Socket errors' "$T/wrk") lines of socket" \
    "errors, $(grep -c 'Non-2xx' "$T/wrk") lines of non-2xx answers"
kill -TERM "$SERVE_PID"
wait "$SERVE_PID"
echo "serve exit status after SIGTERM: $?"
SERVE_PID=""
