#!/bin/sh
# Scale benchmark: crawl PAGES pages of ncserver's endless procedural site
# (hosts proc.*, see tests/server/README.md) with the default dedup methods
# on and politeness off, and watch nearcrawl's memory while the store and
# the frontier grow.
#
#   scripts/bench/bench-scale.sh [--every N] [--keep DIR] [--nearcrawl BIN]
#                          [--methods LIST] [--search-index yes|no]
#                          [--resume] [PAGES]
#
# PAGES defaults to 1000000, --every to 100000 (a line every N pages),
# --nearcrawl to ./nearcrawl, --methods to md5,simhash,minhash (the defaults).
# --keep DIR puts the database and logs in DIR and leaves them there
# (default: a temporary directory, removed). --search-index is passed to
# the crawl (its default: yes). --resume (needs --keep) goes on with the
# crawl kept in DIR by an earlier run that was stopped or killed: the
# server listens on the port it had (the frontier's URLs name it), and the
# elapsed seconds and bytes written go on from the earlier runs' last
# sample (a run's time between its last sample and its end is lost, at
# most a second); RSS and peak RSS are this run's process's. The crawl is
#   nearcrawl crawl -d DB --delay-ms 0 --per-host 8 --concurrency 8
#       --methods LIST --max-pages PAGES
#       --resolve proc.test:PORT:127.0.0.1 http://proc.test:PORT/
# without --quiet: its progress line (every 5 s) gives the queued count.
# Once a second the script reads VmRSS and VmHWM from /proc/PID/status and
# the pages stored (SELECT max(seq) FROM pages, through the sqlite3 shell
# on the WAL database, read-only); at every N pages it prints
#   pages, elapsed s, pages/s over the interval, RSS and peak RSS (MiB),
#   frontier rows (every URL ever queued), queued, database size (MiB:
#   the database, its search index file DB-search and their WALs),
#   bytes nearcrawl has written to disk so far (MiB, write_bytes of
#   /proc/PID/io: the database, its WAL and journal, and logs) and per
#   page stored
# and at the end nearcrawl's summary, its index bytes per page, how much
# RSS grew from the first line to the last against how much the frontier
# and the indexes grew, and the bytes written against the database's
# size (write amplification; up to the last sample, so the final
# checkpoint is not counted). Needs sqlite3 (package sqlite3). Exit 0
# when it ran, 1 when something failed, 2 for bad usage. Timings are noisy
# on a shared two-core machine (server and crawler share it).
set -u
cd "$(dirname "$0")/../.." || exit 1

BIN=./nearcrawl
SRV=build/plain/ncserver
EVERY=100000
PAGES=1000000
KEEP=""
METHODS=md5,simhash,minhash
SIDX=""
RESUME=0
usage() {
	echo "usage: $0 [--every N] [--keep DIR] [--nearcrawl BIN]" \
	    "[--methods LIST] [--search-index yes|no] [--resume] [PAGES]" >&2
	exit 2
}
isnum() {
	case $1 in '' | *[!0-9]*) return 1 ;; esac
	[ "$1" -gt 0 ]
}
while [ $# -gt 0 ]; do
	case $1 in
	--every) [ $# -ge 2 ] && isnum "$2" || usage; EVERY=$2; shift 2 ;;
	--keep) [ $# -ge 2 ] || usage; KEEP=$2; shift 2 ;;
	--nearcrawl) [ $# -ge 2 ] || usage; BIN=$2; shift 2 ;;
	--methods) [ $# -ge 2 ] || usage; METHODS=$2; shift 2 ;;
	--search-index)
		case ${2:-} in yes | no) SIDX=$2 ;; *) usage ;; esac
		shift 2 ;;
	--resume) RESUME=1; shift ;;
	-*) usage ;;
	*) isnum "$1" || usage; PAGES=$1; shift ;;
	esac
done
# The closing figures this script reads come with -v (binaries before it
# printed them always).
VERBOSE=$("$BIN" crawl --help 2>/dev/null | grep -q -- '--verbose' && echo -v)
for f in "$BIN" "$SRV"; do
	[ -x "$f" ] || {
		echo "bench-scale: $f missing: make nearcrawl $SRV" >&2
		exit 2
	}
done
command -v sqlite3 >/dev/null || {
	echo "bench-scale: needs the sqlite3 shell (apt-get install sqlite3)" >&2
	exit 2
}

[ "$RESUME" -eq 0 ] || [ -n "$KEEP" ] || {
	echo "bench-scale: --resume needs --keep DIR" >&2
	exit 2
}
PORT_ARG=""
BASE_ELAPSED=0
BASE_WROTE=0
if [ "$RESUME" -eq 1 ]; then
	T=$(cd "$KEEP" 2>/dev/null && pwd) || T=""
	[ -n "$T" ] && [ -s "$T/scale.db" ] && [ -s "$T/port" ] || {
		echo "bench-scale: --resume: no crawl kept in $KEEP" >&2
		exit 2
	}
	PORT_ARG="--port $(cat "$T/port")"
	rm -f "$T/port.new"
	if [ -s "$T/state" ]; then
		read -r BASE_ELAPSED BASE_WROTE <"$T/state"
	fi
	[ -f "$T/crawl.log" ] && cat "$T/crawl.log" >>"$T/crawl.earlier.log"
elif [ -n "$KEEP" ]; then
	mkdir -p "$KEEP" || exit 1
	T=$(cd "$KEEP" && pwd) || exit 1
	rm -f "$T/state" "$T/crawl.earlier.log" \ "$T/scale.db" "$T/scale.db-wal" "$T/scale.db-shm" \
	    "$T/scale.db-search" "$T/scale.db-search-wal" \
	    "$T/scale.db-search-shm" "$T/port"
else
	T=$(mktemp -d "${TMPDIR:-/tmp}/nearcrawl-scale.XXXXXX") || exit 1
fi
SRV_PID=
NC_PID=
# shellcheck disable=SC2317 # called through trap
cleanup() {
	[ -n "$NC_PID" ] && kill -TERM "$NC_PID" 2>/dev/null && wait "$NC_PID"
	[ -n "$SRV_PID" ] && kill -TERM "$SRV_PID" 2>/dev/null &&
	    wait "$SRV_PID"
	[ -n "$KEEP" ] || rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

mkdir -p "$T/root"
# shellcheck disable=SC2086 # PORT_ARG is empty or two words
"$SRV" --root "$T/root" $PORT_ARG --port-file "$T/port.new" --quiet &
SRV_PID=$!
i=0
while [ ! -s "$T/port.new" ] && [ $i -lt 100 ]; do
	sleep 0.05
	i=$((i + 1))
done
[ -s "$T/port.new" ] || {
	echo "bench-scale: ncserver did not start" >&2
	exit 1
}
mv "$T/port.new" "$T/port"
PORT=$(cat "$T/port")
DB=$T/scale.db
URL=http://proc.test:$PORT/

# Elapsed seconds since the start, from /proc/uptime (no GNU date needed).
now() { cut -d' ' -f1 /proc/uptime; }
# A /proc/PID/status field in KiB, or 0 once the process is gone.
status_kb() {
	awk -v k="$2:" '$1 == k { print $2; f = 1 } END { if (!f) print 0 }' \
	    "/proc/$1/status" 2>/dev/null || echo 0
}
# A /proc/PID/io field in bytes, or 0 once the process is gone.
io_bytes() {
	awk -v k="$2:" '$1 == k { print $2; f = 1 } END { if (!f) print 0 }' \
	    "/proc/$1/io" 2>/dev/null || echo 0
}
q() { sqlite3 -readonly "$DB" "$1" 2>/dev/null || echo 0; }
mib() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }
db_mib() {
	# shellcheck disable=SC2012 # sizes of known files: the database and
	# its search index (DB-search), each with its WAL
	ls -l "$DB" "$DB-wal" "$DB-search" "$DB-search-wal" 2>/dev/null |
	    awk '{ s += $5 } END { printf "%.0f", s / 1048576 }'
}
# The queued count of nearcrawl's latest progress line.
queued() {
	grep ' queued' "$T/crawl.log" 2>/dev/null | tail -n 1 |
	    sed -n 's/.*| \([0-9]*\) queued.*/\1/p'
}

what=""
[ "$RESUME" -eq 1 ] && what=" (resumed after ${BASE_ELAPSED%.*} s)"
echo "bench-scale: $PAGES pages of $URL, a line every $EVERY, --methods" \
    "$METHODS${SIDX:+, --search-index $SIDX}; files in $T$what"
# start is where elapsed time 0 would have been, had the earlier runs
# been one
start=$(echo "$(now) $BASE_ELAPSED" | awk '{ print $1 - $2 }')
# shellcheck disable=SC2046 # an option and its value, or nothing
"$BIN" crawl $VERBOSE -d "$DB" --delay-ms 0 --per-host 8 --concurrency 8 \
    --methods "$METHODS" --max-pages "$PAGES" \
    $([ -n "$SIDX" ] && echo "--search-index $SIDX") \
    --user-agent "nearcrawl-bench (loopback scale benchmark)" \
    --resolve "proc.test:$PORT:127.0.0.1" "$URL" 2>"$T/crawl.log" &
NC_PID=$!

printf '%9s %8s %8s %8s %8s %10s %10s %8s %9s %8s\n' pages elapsed \
    pages/s RSS_MiB peak_MiB frontier queued DB_MiB wrote_MiB B/page
last_p=$(q "SELECT coalesce(max(seq), 0) FROM pages")
[ -n "$last_p" ] || last_p=0
mark=$(((last_p / EVERY + 1) * EVERY))
last_t=$(now)
first_rss="" first_front="" first_p=""
rss=0 hwm=0 front=0 wrote=$BASE_WROTE
while kill -0 "$NC_PID" 2>/dev/null; do
	sleep 1
	r=$(status_kb "$NC_PID" VmRSS)
	h=$(status_kb "$NC_PID" VmHWM)
	[ "$r" -gt 0 ] && rss=$r
	[ "$h" -gt 0 ] && hwm=$h
	w=$(io_bytes "$NC_PID" write_bytes)
	[ "$w" -gt 0 ] && wrote=$((BASE_WROTE + w))
	echo "$(now) $start $wrote" |
	    awk '{ printf "%.1f %.0f\n", $1 - $2, $3 }' >"$T/state.new" &&
	    mv "$T/state.new" "$T/state"
	p=$(q "SELECT coalesce(max(seq), 0) FROM pages")
	[ -n "$p" ] || p=0
	while [ "$p" -ge "$mark" ] || { [ "$p" -ge "$PAGES" ] &&
	    [ "$last_p" -lt "$PAGES" ]; }; do
		t=$(now)
		front=$(q "SELECT coalesce(max(id), 0) FROM frontier")
		printf '%9d %8.0f %8.0f %8s %8s %10d %10s %8s %9.0f %8.0f\n' \
		    "$p" "$(echo "$t $start" | awk '{ print $1 - $2 }')" \
		    "$(echo "$p $last_p $t $last_t" |
		    awk '{ d = $3 - $4; print (d > 0 ? ($1 - $2) / d : 0) }')" \
		    "$(mib "$rss")" "$(mib "$hwm")" "$front" "$(queued)" \
		    "$(db_mib)" "$(echo "$wrote" | awk '{ print $1 / 1048576 }')" \
		    "$(echo "$wrote $p" | awk '{ print ($2 > 0 ? $1 / $2 : 0) }')"
		if [ -z "$first_rss" ]; then
			first_rss=$rss first_front=$front first_p=$p
		fi
		last_rss=$rss last_front=$front
		last_t=$t
		last_p=$p
		mark=$(((p / EVERY + 1) * EVERY))
	done
done
wait "$NC_PID"
rc=$?
NC_PID=
end=$(now)

grep -E '^nearcrawl: (done|stopped|failed|saturated|index bytes|this run)' \
    "$T/crawl.log"
# 3: stopped at --max-pages with work left, as asked.
[ "$rc" -eq 0 ] || [ "$rc" -eq 3 ] ||
    { echo "bench-scale: nearcrawl exited $rc" >&2; exit 1; }
total=$(q "SELECT count(*) FROM pages")
front=$(q "SELECT coalesce(max(id), 0) FROM frontier")
bpp=$(sed -n 's/.*index bytes: .*(\([0-9]*\) bytes\/page).*/\1/p' \
    "$T/crawl.log")
ixb=$(sed -n 's/.*index bytes: \([0-9]*\) for.*/\1/p' "$T/crawl.log")
echo "$start $end $total $hwm $front $(db_mib)" | awk '{
	printf "total: %d pages in %.0f s (%.0f pages/s), peak RSS %.1f MiB, " \
	    "frontier %d rows, database %d MiB\n", $3, $2 - $1,
	    ($2 > $1 ? $3 / ($2 - $1) : 0), $4 / 1024, $5, $6 }'
[ -n "$bpp" ] && echo "index bytes per page: $bpp"
echo "$wrote $total $(db_mib)" | awk '{
	printf "bytes written: %.0f MiB, %.0f per page, %.1f times the " \
	    "database size (%d MiB)\n", $1 / 1048576,
	    ($2 > 0 ? $1 / $2 : 0), ($3 > 0 ? $1 / 1048576 / $3 : 0), $3 }' 
if [ -n "$first_rss" ] && [ "$last_p" -gt "$first_p" ]; then
	# The indexes grow with the pages judged (exact copies add nothing),
	# in doubling steps: their share of the interval is an estimate.
	echo "$first_p $last_p $first_rss $last_rss $first_front $last_front \
${ixb:-0} $total" | awk '{
	    dp = $2 - $1; dr = ($4 - $3) * 1024; df = $6 - $5
	    ix = $8 > 0 ? $7 * dp / $8 : 0
	    printf "RSS growth from %d to %d pages: %.1f MiB; the indexes " \
	        "account for about %.1f MiB of it; the frontier grew by " \
	        "%d rows: %.1f bytes of RSS per frontier row beyond the " \
	        "indexes\n", $1, $2, dr / 1048576, ix / 1048576, df,
	        (df > 0 ? (dr - ix) / df : 0) }'
fi
exit 0
