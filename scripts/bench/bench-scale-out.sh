#!/bin/sh
# Scale-out benchmark: what sharing one crawl among processes on PostgreSQL
# costs and gains against one process on SQLite.
#
#   scripts/bench/bench-scale-out.sh [--runs N] [--quick] [--nearcrawl BIN]
#                              [--pages P]
#
# --runs N: runs of every configuration (default 1), medians reported;
# --quick: a smoke run, a 1000-page site and no part 3; --nearcrawl BIN:
# the binary (default ./nearcrawl); --pages P: the bench site's size
# (default 12000, as scripts/bench/bench.sh).
#
# 1. Throughput: the bench site of scripts/bench/bench.sh (one host,
#    http://127.0.0.1:PORT/) crawled with bench.sh's options
#      --quiet --delay-ms 0 --per-host 8 --concurrency 8
#      --methods md5,simhash,minhash
#    by 1 process on SQLite, then 1, 2 and 3 processes on PostgreSQL
#    (advisory verdict locks, the default), then 1 and 3 with --row-locks
#    (rows of verdict_keys); every
#    PostgreSQL run on a fresh database, its processes released at the same
#    moment, wall time from the release to the last exit; pages/s = rows of
#    pages / wall time. Verdicts and pages per worker come from the database.
# 2. Quality: the labelled lab + uni sites (as tests/e2e/test-scale-out.sh
#    builds them), 1 process on SQLite against 3 on PostgreSQL, scored by
#    nearcrawl eval --groups.
# 3. Politeness: scripts/bench/bench-politeness.sh (150 hosts, its delay and
#    robots.txt settings and its figures from the server log) with 1 process
#    on SQLite and with --processes 3 on one PostgreSQL database. Over
#    several runs violations and forbidden fetches are the worst run's,
#    efficiency the median.
#
# The PostgreSQL server (scripts/lib/pg-server.sh) runs on the same machine and
# shares its cores with the crawlers and the test server. No assertion on
# the figures: exit 0 when it ran, 1 when something failed to run, 2 for bad
# usage or a missing tool.
set -u
cd "$(dirname "$0")/../.." || exit 1

BIN=./nearcrawl
RUNS=1
QUICK=""
PAGES=12000
METHODS=md5,simhash,minhash
usage() {
	echo "usage: $0 [--runs N] [--quick] [--nearcrawl BIN] [--pages P]" >&2
	exit 2
}
while [ $# -gt 0 ]; do
	case $1 in
	--runs) [ $# -ge 2 ] || usage; RUNS=$2; shift 2 ;;
	--quick) QUICK=1; PAGES=1000; shift ;;
	--nearcrawl) [ $# -ge 2 ] || usage; BIN=$2; shift 2 ;;
	--pages) [ $# -ge 2 ] || usage; PAGES=$2; shift 2 ;;
	-h|--help) sed -n '2,35s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) usage ;;
	esac
done
# The closing figures this script reads come with -v (binaries before it
# printed them always).
VERBOSE=$("$BIN" crawl --help 2>/dev/null | grep -q -- '--verbose' && echo -v)
case $RUNS in ''|*[!0-9]*|0) echo "bench-scale-out: bad --runs" >&2; exit 2 ;; esac
case $PAGES in ''|*[!0-9]*) echo "bench-scale-out: bad --pages" >&2; exit 2 ;; esac
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
SERVER=${NCSERVER:-build/plain/ncserver}
for f in "$BIN" "$SERVER"; do
	[ -x "$f" ] || {
		echo "bench-scale-out: $f missing: run make nearcrawl build/plain/ncserver" >&2
		exit 2
	}
done
for t in sqlite3 psql; do
	command -v "$t" >/dev/null 2>&1 ||
	    { echo "bench-scale-out: $t missing:" \
	    "run scripts/make/install-deps.sh" >&2; exit 2; }
done

. scripts/lib/fixture-server.sh
. scripts/lib/pg-server.sh

# Only this run's directory is ever removed.
T=$(mktemp -d "${TMPDIR:-/tmp}/nc-scale.XXXXXX") || exit 1
FIXTURE_PID=""
CRAWLS=""
PG_UP=""
# shellcheck disable=SC2317 # called by the trap
cleanup() {
	for p in $CRAWLS; do kill "$p" 2>/dev/null; done
	for p in $CRAWLS; do wait "$p" 2>/dev/null; done
	[ -z "$FIXTURE_PID" ] || { kill "$FIXTURE_PID" 2>/dev/null; wait "$FIXTURE_PID" 2>/dev/null; }
	[ -z "$PG_UP" ] || pg_server_stop
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

die() { echo "bench-scale-out: $*" >&2; exit 1; }
# psql on one database: unaligned rows, ' ' between columns.
pgq() { psql -X -q -At -F ' ' -v ON_ERROR_STOP=1 -d "$1" -c "$2"; }
# dbq DB SQL: the same on SQLite or PostgreSQL.
dbq() {
	case $1 in
	postgresql://*) pgq "$1" "$2" ;;
	*) sqlite3 -batch -noheader -separator ' ' "$1" "$2" ;;
	esac
}
now() { date +%s.%N; }
# median of the numbers on stdin
median() {
	sort -n | awk '{ v[NR] = $1 } END { if (NR == 0) print "nan";
	    else if (NR % 2) print v[(NR + 1) / 2];
	    else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
max() { sort -n | tail -n 1; }

# crawl_together N DB ERRPREFIX ARGS...: N processes of nearcrawl crawl -d
# DB ARGS, workers w1..wN, released together; writes the wall time (release
# to last exit) to $T/wall. Returns 1 when one of them failed (its stderr
# shown).
crawl_together() {
	_n=$1 _db=$2 _err=$3
	shift 3
	rm -f "$T/go"
	CRAWLS=""
	_k=1
	while [ "$_k" -le "$_n" ]; do
		(
			while [ ! -e "$T/go" ]; do sleep 0.01; done
			exec "$BIN" crawl $VERBOSE -d "$_db" --worker "w$_k" "$@" \
			    2>"$_err$_k.err"
		) &
		CRAWLS="$CRAWLS $!"
		_k=$((_k + 1))
	done
	_t0=$(now)
	: >"$T/go"
	_bad=0
	_k=0
	for _p in $CRAWLS; do
		_k=$((_k + 1))
		# 3: stopped at --max-pages with work left, as asked.
		wait "$_p"
		_rc=$?
		if [ "$_rc" -ne 0 ] && [ "$_rc" -ne 3 ]; then
			echo "bench-scale-out: process $_k of $_n failed:" >&2
			tail -n 5 "$_err$_k.err" >&2
			_bad=1
		fi
	done
	_t1=$(now)
	CRAWLS=""
	echo "$_t0 $_t1" | awk '{ printf "%.3f\n", $2 - $1 }' >"$T/wall"
	return $_bad
}

echo "bench-scale-out: $(nproc) cores ($(awk -F': ' '/^model name/ {print $2; exit}' \
    /proc/cpuinfo)); the PostgreSQL server, the test server and every crawler" \
    "process share them"
pg_server_start "$T/pg" >/dev/null || die "the PostgreSQL server did not start"
PG_UP=1
echo "bench-scale-out: PostgreSQL $(pg_sql 'SHOW server_version'), a throwaway" \
    "server on a Unix socket (fsync off), runs: $RUNS"

# ---- 1. throughput ----------------------------------------------------------
CACHEDIR=build/bench-site
if [ -f "$CACHEDIR/www.bench.test.manifest" ] &&
    grep -q "^pages=$PAGES " "$CACHEDIR/www.bench.test.manifest"; then
	SITE=$CACHEDIR
else
	SITE=$T/site
	scripts/gen/gen-bench-site.sh "$SITE" "$PAGES" >/dev/null ||
	    die "generating the bench site failed"
fi
LOG=$T/access.log
: >"$LOG"
fixture_server_start "$SITE/www.bench.test" "$T" "$LOG" || exit 1
URL=http://127.0.0.1:$FIXTURE_PORT/
echo
echo "== 1. throughput: $(cat "$SITE/www.bench.test.manifest")"
echo "   options: --quiet --delay-ms 0 --per-host 8 --concurrency 8 --methods $METHODS"

# The configurations: name, processes, backend, extra option.
CONFIGS="sqlite-1:1:sqlite: pg-1:1:pg: pg-2:2:pg: pg-3:3:pg:
    pg-rows-1:1:pg:--row-locks pg-rows-3:3:pg:--row-locks"
: >"$T/thr"
r=1
while [ "$r" -le "$RUNS" ]; do
	for c in $CONFIGS; do
		IFS=: read -r name n backend extra <<EOF
$c
EOF
		if [ "$backend" = sqlite ]; then
			db=$T/thr-$name-$r.db
		else
			db=$(pg_new_db "thr_$(echo "$name" | tr - _)_$r") ||
			    die "cannot create a database"
		fi
		req0=$(wc -l <"$LOG")
		# shellcheck disable=SC2086 # $extra: no option or one
		crawl_together "$n" "$db" "$T/thr-$name-$r-" --quiet \
		    --delay-ms 0 --per-host 8 --concurrency 8 \
		    --methods "$METHODS" $extra "$URL" || die "a crawl failed"
		req=$(($(wc -l <"$LOG") - req0))
		wall=$(cat "$T/wall")
		# shellcheck disable=SC2046 # four numbers
		set -- $(dbq "$db" "SELECT count(*),
		    sum(CASE WHEN verdict = 'unique' THEN 1 ELSE 0 END),
		    sum(CASE WHEN verdict = 'exact' THEN 1 ELSE 0 END),
		    sum(CASE WHEN verdict = 'near' THEN 1 ELSE 0 END) FROM pages")
		workers=$(dbq "$db" "SELECT coalesce(worker, 'unnamed'), count(*)
		    FROM pages GROUP BY worker ORDER BY worker" |
		    awk '{ printf "%s%s:%s", (NR > 1) ? " " : "", $1, $2 }')
		echo "$r $name $wall $1 $2 $3 $4 $req $workers" >>"$T/thr"
		rm -f "$db" "$db-wal" "$db-shm"
		[ "$backend" = sqlite ] || pg_sql "DROP DATABASE \"thr_$(echo "$name" | tr - _)_$r\"" ||
		    true
	done
	r=$((r + 1))
done

printf '%-4s %-9s %8s %7s %8s %7s %6s %6s %6s  %s\n' run config "wall s" pages \
    pages/s unique exact near other "pages per worker"
awk '{ w = ""; for (i = 9; i <= NF; i++) w = w " " $i
	printf "%-4s %-9s %8.2f %7d %8.1f %7d %6d %6d %6d %s\n", $1, $2, $3, $4,
	    $4 / $3, $5, $6, $7, $4 - $5 - $6 - $7, w }' "$T/thr"
# Medians per configuration.
for c in $CONFIGS; do
	name=${c%%:*}
	w=$(awk -v n="$name" '$2 == n { print $3 }' "$T/thr" | median)
	p=$(awk -v n="$name" '$2 == n { print $4 / $3 }' "$T/thr" | median)
	echo "$name $w $p"
done >"$T/thr.med"
echo
echo "median of $RUNS run(s):"
printf '%-9s %8s %8s\n' config "wall s" pages/s
awk '{ printf "%-9s %8.2f %8.1f\n", $1, $2, $3 }' "$T/thr.med"
rate() { awk -v n="$1" '$1 == n { print $3 }' "$T/thr.med"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0) ? a / b : 0 }'; }
echo
R=$(ratio "$(rate pg-1)" "$(rate sqlite-1)")
echo "ratio PG 1 process / SQLite 1 process (pages/s): $R" \
    "($(awk -v r="$R" 'BEGIN { print (r >= 0.5) ? "meets" : "BELOW" }') the required 0.5)"
echo "ratio PG 2 processes / PG 1 process:             $(ratio "$(rate pg-2)" "$(rate pg-1)")"
echo "ratio PG 3 processes / PG 1 process:             $(ratio "$(rate pg-3)" "$(rate pg-1)")"
echo "ratio row locks / advisory locks, 1 process:     $(ratio "$(rate pg-rows-1)" "$(rate pg-1)")"
echo "ratio row locks / advisory locks, 3 processes:   $(ratio "$(rate pg-rows-3)" "$(rate pg-3)")"
echo "(the bench site is one host and a host is leased to one process at a time)"
echo
echo "where the time goes, run $RUNS, each process's end-of-crawl lines:"
for c in $CONFIGS; do
	name=${c%%:*}
	for f in "$T/thr-$name-$RUNS-"*.err; do
		k=${f##*-}
		grep -E '^nearcrawl: (done|ms per page):' "$f" |
		    sed "s/^nearcrawl: /  $name w${k%.err}: /"
	done
done
kill "$FIXTURE_PID" 2>/dev/null
wait "$FIXTURE_PID" 2>/dev/null
FIXTURE_PID=""

# ---- 2. quality -------------------------------------------------------------
# The lab site and the five uni hosts on one server, their links pointing
# at its port, and one label file for all (as tests/e2e/lib.sh does).
echo
echo "== 2. quality: labelled www.lab.test + 5 *.uni.test hosts, nearcrawl eval --groups"
mkdir "$T/lab" || exit 1
: >"$T/lab.log"
fixture_server_start "$T/lab" "$T" "$T/lab.log" || exit 1
LAB_OPTS="--allow-domain www.lab.test --allow-domain uni.test"
SEEDS=""
for h in www.lab.test www.uni.test cs.uni.test lib.uni.test events.uni.test \
    sport.uni.test; do
	cp -R "tests/fixtures/sites/$h" "$T/lab/" || die "cannot copy $h"
	LAB_OPTS="$LAB_OPTS --resolve $h:$FIXTURE_PORT:127.0.0.1"
	SEEDS="$SEEDS http://$h:$FIXTURE_PORT/"
done
grep -rlZ NCPORT "$T/lab" | xargs -0 sed -i "s/:NCPORT\//:$FIXTURE_PORT\//g" ||
    die "cannot set the port in the labelled sites"
LABELS=$T/lab-uni.tsv
{
	head -n 1 tests/fixtures/labelled.tsv
	awk 'NR > 1 { print "//www.lab.test" $0 }' tests/fixtures/labelled.tsv
	tail -n +2 tests/fixtures/labelled-uni.tsv
} >"$LABELS"
: >"$T/qual"
r=1
while [ "$r" -le "$RUNS" ]; do
	for c in sqlite-1:1 pg-3:3; do
		name=${c%:*} n=${c#*:}
		if [ "$name" = sqlite-1 ]; then
			db=$T/qual-$r.db
		else
			db=$(pg_new_db "qual_$r") || die "cannot create a database"
		fi
		# shellcheck disable=SC2086 # options and seeds are split on purpose
		crawl_together "$n" "$db" "$T/qual-$name-$r-" --quiet --delay-ms 0 \
		    --per-host 1 --max-pages 5000 $LAB_OPTS $SEEDS || die "a crawl failed"
		"$BIN" eval -d "$db" --groups "$LABELS" >"$T/eval" 2>&1 ||
		    { cat "$T/eval" >&2; die "nearcrawl eval failed"; }
		# shellcheck disable=SC2046 # four numbers
		set -- $(dbq "$db" "SELECT count(*),
		    sum(CASE WHEN verdict = 'unique' THEN 1 ELSE 0 END),
		    sum(CASE WHEN verdict = 'exact' THEN 1 ELSE 0 END),
		    sum(CASE WHEN verdict = 'near' THEN 1 ELSE 0 END) FROM pages")
		echo "$r $name $(cat "$T/wall") $1 $2 $3 $4 $(tail -n 1 "$T/eval" |
		    tr ' ' '\n' | sed -n 's/^\(precision\|recall\|coverage\)=//p' |
		    tr '\n' ' ')" >>"$T/qual"
	done
	r=$((r + 1))
done
printf '%-4s %-9s %7s %6s %7s %6s %6s %10s %8s %9s\n' run config "wall s" pages \
    unique exact near precision recall coverage
awk '{ printf "%-4s %-9s %7.2f %6d %7d %6d %6d %10s %8s %9s\n", $1, $2, $3, $4,
    $5, $6, $7, $8, $9, $10 }' "$T/qual"
for m in precision:8 recall:9 coverage:10; do
	f=${m#*:}
	a=$(awk -v f="$f" '$2 == "sqlite-1" { print $f }' "$T/qual" | median)
	b=$(awk -v f="$f" '$2 == "pg-3" { print $f }' "$T/qual" | median)
	awk -v m="${m%:*}" -v a="$a" -v b="$b" -v runs="$RUNS" 'BEGIN {
	    printf "%-9s SQLite 1 process %s, PG 3 processes %s, difference %+.3f" \
	        " (median of %d)\n", m, a, b, b - a, runs }'
done
kill "$FIXTURE_PID" 2>/dev/null
wait "$FIXTURE_PID" 2>/dev/null
FIXTURE_PID=""

# ---- 3. politeness ----------------------------------------------------------
if [ -n "$QUICK" ]; then
	echo
	echo "== 3. politeness: skipped (--quick)"
	exit 0
fi
echo
echo "== 3. politeness: scripts/bench/bench-politeness.sh, 150 hosts," \
    "1 process on SQLite and 3 on PostgreSQL"
: >"$T/pol"
r=1
while [ "$r" -le "$RUNS" ]; do
	for c in sqlite-1 pg-3; do
		if [ "$c" = sqlite-1 ]; then
			set --
		else
			db=$(pg_new_db "polite_$r") || die "cannot create a database"
			set -- --database "$db" --processes 3
		fi
		scripts/bench/bench-politeness.sh --nearcrawl "$BIN" "$@" \
		    >"$T/pol-$c-$r.out" ||
		    { cat "$T/pol-$c-$r.out" >&2; die "bench-politeness.sh failed"; }
		{
			printf '%s %s ' "$r" "$c"
			awk '/^pages in the crawl database/ { printf "pages=%s ", $NF }
			    /^pages per process:/ { w = ""
			        for (i = 4; i < NF; i += 2)
			            w = w (w == "" ? "" : ",") $i ":" $(i + 1)
			        printf "workers=%s ", w }' \
			    "$T/pol-$c-$r.out"
			tail -n 1 "$T/pol-$c-$r.out"
		} >>"$T/pol"
		if grep -q '^worst gaps:' "$T/pol-$c-$r.out"; then
			echo "run $r, $c: worst gaps:"
			sed -n '/^worst gaps:/,/^requests per host/p' "$T/pol-$c-$r.out" |
			    sed '1d;$d'
		fi
	done
	r=$((r + 1))
done
# Every field as key=value: run config pages= [workers=] violations= ...
awk '{ for (i = 3; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
	printf "%-4s %-9s %10s %9s %10s %8s %8s %7s  %s\n", $1, $2, v["violations"],
	    v["forbidden"], v["efficiency"], v["requests"], v["pages"], v["seconds"],
	    ("workers" in v) ? v["workers"] : "-"
	delete v }' "$T/pol" >"$T/pol.rows"
printf '%-4s %-9s %10s %9s %10s %8s %8s %7s  %s\n' run config violations forbidden \
    efficiency requests pages "wall s" "pages per process"
cat "$T/pol.rows"
for c in sqlite-1 pg-3; do
	v=$(awk -v c="$c" '$2 == c { print $3 }' "$T/pol.rows" | max)
	f=$(awk -v c="$c" '$2 == c { print $4 }' "$T/pol.rows" | max)
	e=$(awk -v c="$c" '$2 == c { print $5 }' "$T/pol.rows" | median)
	echo "$c: gap violations $v, forbidden fetches $f (worst of $RUNS)," \
	    "efficiency $e (median)"
done
exit 0
