#!/bin/sh
# The PostgreSQL server goes away under a crawl. First the unit suite
# pg_conn (tests/unit/test_pg_conn.c) runs alone against a throwaway
# server: a connection the server terminates is found lost at once, libpq
# out of step with the server's answers is no reason to spin, a database
# marked by a newer nearcrawl is refused, a host whose last URL its owner
# left in flight is claimed again. With --db-retry-s 0 a crawl ends at
# once when the server stops, with --db-retry-s 2 two seconds later,
# saying why on one line and how to resume.
# Then the server restarts under crawls: stopped at once (pg_ctl -m
# immediate) while one process, then three sharing a crawl, are at work,
# kept down 20 s, started again. Every process waits without spinning,
# answers SIGTERM within 2 s while the server is down (exit 1, with the
# resume line), or reconnects by itself once it is back; the crawl ends
# with the pages, verdicts and scores of a crawl never disturbed (one
# SQLite process), and nothing left queued or in flight.
. tests/e2e/lib.sh

UNIT=${UNIT:-build/san/unit}
DOWN=20
# Left out of nearcrawl check at the end: the unit tests' database marked
# by a newer nearcrawl, and the crawls that end when the server stops
# (stop0), which leave URLs in flight for a resume, as a killed crawl does.
E2E_CHECK_SKIP="schema_t stop0"
e2e_start_lab_uni
e2e_start_pg
LABELS=$LAB_UNI_LABELS
# A gap per host keeps each crawl going for some seconds past the outage's
# start (the lab host's 486 pages take 10 s at least).
# shellcheck disable=SC2086 # options and seeds are split on purpose
set -- --delay-ms 20 --per-host 1 --max-pages 5000 $LAB_UNI_OPTS \
    $LAB_UNI_SEEDS
running() { ps -o stat= -p "$1" 2>/dev/null | grep -qv Z; }
# pg_sql on database $DB.
pg_sql_db() { psql -X -q -At -d "$DB" -c "$1"; }
# wait_rows TABLE N S: until TABLE of database $DB has N rows (at most S
# seconds).
wait_rows() {
	_i=0
	while [ "$(pg_sql_db "SELECT count(*) FROM $1" 2>/dev/null || echo 0)" \
	    -lt "$2" ] && [ $_i -lt $(($3 * 20)) ]; do
		sleep 0.05
		_i=$((_i + 1))
	done
}
# wait_pages N: until the crawl in database $DB has N pages (at most 15 s).
wait_pages() { wait_rows pages "$1" 15; }
# wait_workers N: until N processes have joined the crawl in $DB (at most
# 60 s): each beats once its database is open, and from then on a lost
# connection is waited out; one still opening when the server goes would
# fail to open instead, which is not what the outage is about.
wait_workers() { wait_rows workers "$1" 60; }
ms() { date +%s%N | cut -c1-13; }
# CPU seconds a process has used (user + system).
cpu() {
	awk -v t="$(getconf CLK_TCK)" '{ sub(/.*\) /, ""); printf "%.2f", ($12 + $13) / t }' \
	    "/proc/$1/stat" 2>/dev/null
}
metric() { echo "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"; }
# within NAME GOT WANT D: numbers GOT and WANT differ by at most D.
within() {
	ok "$1 ${2:-missing} within $4 of ${3:-missing}" awk -v a="$2" -v b="$3" \
	    -v d="$4" 'BEGIN { exit !(a != "" && b != "" && a - b <= d && b - a <= d) }'
}

ok "the unit binary is built" test -x "$UNIT"
NC_UNIT_ONLY=pg_conn NC_TEST_PG=$PG_URI "$UNIT" >"$E2E_TMP/unit.out" 2>&1
status=$?
sed 's/^/    /' "$E2E_TMP/unit.out"
eq "the unit suite pg_conn: its five tests ran and passed ($status)" \
    "$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$E2E_TMP/unit.out" | tail -n 1)" \
    "5 passed, 0 failed"

# The undisturbed crawl.
"$NEARCRAWL" crawl -d "$E2E_TMP/one.db" --quiet "$@" --delay-ms 0 \
    2>"$E2E_TMP/one.err"
eq "SQLite crawl exits 0" "$?" 0
one_pages=$(q "$E2E_TMP/one.db" 'SELECT count(*) FROM pages')
one_verdicts=$(q "$E2E_TMP/one.db" "SELECT group_concat(v, ' ') FROM (SELECT
    verdict || '=' || count(*) AS v FROM pages GROUP BY verdict ORDER BY verdict)")
q "$E2E_TMP/one.db" 'SELECT url FROM pages' | LC_ALL=C sort >"$E2E_TMP/one.urls"
q "$E2E_TMP/one.db" "SELECT url || ' ' || verdict FROM pages" | LC_ALL=C sort \
    >"$E2E_TMP/one.verdicts"
one=$("$NEARCRAWL" eval -d "$E2E_TMP/one.db" --groups "$LABELS" 2>&1 | tail -n 1)
echo "     undisturbed: pages=$one_pages $one_verdicts; $one"

# outage NAME PIDS: once every process of PIDS has joined the crawl in
# database $DB and it has 150 pages, stop the
# server; run $EARLY (a function of the test) a second later; measure the
# processes' CPU time over 10 s of the outage (a process spinning would
# take seconds); run $LATE then; start the server again $DOWN s after the
# stop.
outage() {
	_name=$1
	shift
	wait_workers $#
	wait_pages 150
	at_stop=$(pg_sql_db 'SELECT count(*) FROM pages' 2>/dev/null)
	pg_server_stop
	sleep 1
	$EARLY
	sleep 2
	for _p in "$@"; do cpu "$_p" >"$E2E_TMP/cpu.$_p"; done
	sleep 10
	_spun=0
	for _p in "$@"; do
		running "$_p" && awk -v a="$(cpu "$_p")" \
		    -v b="$(cat "$E2E_TMP/cpu.$_p")" \
		    'BEGIN { exit !(a != "" && b != "" && a - b > 1) }' &&
		    _spun=$((_spun + 1))
	done
	eq "$_name: no process spins while the server is down (CPU in 10 s)" \
	    "$_spun" 0
	$LATE
	sleep $((DOWN - 13))
	ok "$_name: the server starts again" pg_server_restart
}

# same NAME: database $DB holds what the undisturbed crawl holds.
same() {
	_pages=$(pg_sql_db 'SELECT count(*) FROM pages' 2>&1)
	eq "$1: as many pages as the undisturbed crawl" "$_pages" "$one_pages"
	pg_sql_db 'SELECT url FROM pages' 2>/dev/null | LC_ALL=C sort \
	    >"$E2E_TMP/pg.urls"
	eq "$1: the same URLs" \
	    "$(LC_ALL=C comm -3 "$E2E_TMP/one.urls" "$E2E_TMP/pg.urls" | wc -l | tr -d ' ')" 0
	# Exact copies are so whatever the order; which of two near copies
	# came first depends on the order the hosts were fetched in, which
	# moves one page between near and unique from one undisturbed crawl
	# to the next.
	pg_sql_db "SELECT url || ' ' || verdict FROM pages" 2>/dev/null |
	    LC_ALL=C sort >"$E2E_TMP/pg.verdicts"
	for _v in exact near unique; do
		_a=$(metric "$one_verdicts" $_v)
		_b=$(pg_sql_db "SELECT count(*) FROM pages WHERE verdict = '$_v'")
		if [ $_v = exact ]; then
			eq "$1: $_v pages as undisturbed" "$_b" "$_a"
		else
			within "$1: $_v pages" "$_b" "$_a" 2
		fi
	done
	echo "     $1: verdicts of $(LC_ALL=C comm -23 "$E2E_TMP/pg.verdicts" \
	    "$E2E_TMP/one.verdicts" | wc -l | tr -d ' ') URLs differ"
	eq "$1: nothing left queued or in flight" \
	    "$(pg_sql_db 'SELECT count(*) FROM frontier WHERE state <> 2' 2>&1)" 0
	eq "$1: no URL stored twice, seq 1..N without gaps" \
	    "$(pg_sql_db 'SELECT count(*) = count(DISTINCT url) AND min(seq) = 1
	        AND max(seq) = count(*) AND count(DISTINCT seq) = count(*)
	        FROM pages' 2>&1)" t
	_pg=$("$NEARCRAWL" eval -d "$DB" --groups "$LABELS" 2>&1 | tail -n 1)
	echo "     $1: pages=$_pages (at the stop: $at_stop); $_pg"
	for _m in precision recall coverage; do
		within "$1: $_m" "$(metric "$_pg" $_m)" "$(metric "$one" $_m)" 0.01
	done
}

# clean NAME FILE [early]: what the process said is nearcrawl's own lines
# only, and that it lost the connection (unless sent a signal early, maybe
# before it knew).
clean() {
	[ -n "${3:-}" ] || ok "$1: said it lost the connection" \
	    grep -q "^nearcrawl: lost the connection to the database: " "$2"
	eq "$1: no raw libpq line (server notices, line breaks)" \
	    "$(grep -c -e '^WARNING' -e 'message type' -e 'x0a' -e '^[^n]' "$2")" 0
}

# 0. The bound: with --db-retry-s 0 a crawl ends as soon as it finds the
# connection lost, with --db-retry-s 2 two seconds later.
DB=$(pg_new_db stop0)
for r in 0 2; do
	"$NEARCRAWL" crawl -d "$DB" --db-retry-s $r --quiet "$@" \
	    2>"$E2E_TMP/stop$r.err" &
	eval "pid$r=\$!"
done
# shellcheck disable=SC2154 # set by the eval above
e2e_watchdog 60 "$pid0" "$pid2"
# Both open first: one still opening when the server goes fails to open
# (exit 2), which is not the outage this is about.
wait_workers 2
wait_pages 150
pg_server_stop
t0=$(ms)
wait "$pid0"
eq "--db-retry-s 0: the crawl exits 1 when the server stops" "$?" 1
took0=$(($(ms) - t0))
wait "$pid2"
eq "--db-retry-s 2: the crawl exits 1 when the server stays away" "$?" 1
took2=$(($(ms) - t0))
e2e_watchdog_off
# Counted from the end of the stop: the processes may find the connection
# lost while the server is going down.
ok "--db-retry-s 0: at once, --db-retry-s 2: 2 s later (${took0}, ${took2} ms)" \
    test "$took0" -lt 3000 -a "$took2" -ge 1500 -a "$took2" -lt 8000
ok "--db-retry-s 0: it says why" \
    grep -q "server closed the connection unexpectedly" "$E2E_TMP/stop0.err"
ok "--db-retry-s 2: it says it gave up" \
    grep -q "the database did not come back within 2 s (--db-retry-s)" \
    "$E2E_TMP/stop2.err"
for r in 0 2; do
	ok "--db-retry-s $r: it says how to resume" \
	    grep -q "^nearcrawl: resume with: nearcrawl crawl -d " \
	    "$E2E_TMP/stop$r.err"
	eq "--db-retry-s $r: no raw libpq line (server notices, line breaks)" \
	    "$(grep -c -e '^WARNING' -e 'message type' -e 'x0a' -e '^[^n]' \
	        "$E2E_TMP/stop$r.err")" 0
done
ok "the server starts again" pg_server_restart

# 1. One process, its progress line on.
DB=$(pg_new_db restart1)
"$NEARCRAWL" crawl -d "$DB" "$@" 2>"$E2E_TMP/a.err" &
pid=$!
e2e_watchdog 120 $pid
EARLY=:
LATE=:
outage "1 process" $pid
wait $pid
eq "1 process: rides through and exits 0" "$?" 0
e2e_watchdog_off
ok "1 process: finished in time" test ! -e "$E2E_TMP/timed-out"
clean "1 process" "$E2E_TMP/a.err"
ok "1 process: its progress line said it waited for the database" \
    grep -q "waiting for the database: connection lost" "$E2E_TMP/a.err"
ok "1 process: said it was connected again" \
    grep -q "^nearcrawl: connected to the database again after" "$E2E_TMP/a.err"
same "1 process"

# 2. Three processes sharing a crawl, and two more that are sent SIGTERM
# while the server is down, one a second after the stop, one 13 s after;
# two more join once it is back.
DB=$(pg_new_db restart3)
pids=""
for w in 1 2 3 4 5; do
	"$NEARCRAWL" crawl -d "$DB" --quiet "$@" 2>"$E2E_TMP/b$w.err" &
	pids="$pids $!"
done
early=$(echo "$pids" | awk '{ print $4 }')
late=$(echo "$pids" | awk '{ print $5 }')
# shellcheck disable=SC2086 # one word per pid
e2e_watchdog 120 $pids
# term NAME PID: SIGTERM to PID, which must end within 2 s, exit 1 and
# say how to resume.
term() {
	_t0=$(ms)
	kill -TERM "$2"
	wait "$2"
	_rc=$?
	_took=$(($(ms) - _t0))
	eq "3 processes: SIGTERM $1 in the outage: exit 1" "$_rc" 1
	[ "$_rc" -eq 1 ] || sed -n '1,5s/^/     /p' "$3"
	ok "3 processes: SIGTERM $1 answered within 2 s (${_took} ms)" \
	    test "$_took" -le 2000
}
EARLY="term early $early $E2E_TMP/b4.err"
LATE="term late $late $E2E_TMP/b5.err"
# shellcheck disable=SC2086 # one word per pid
outage "3 processes" $pids
for w in 4 5; do
	ok "3 processes: process $w, stopped, says how to resume" \
	    grep -q "^nearcrawl: resume with: nearcrawl crawl -d " \
	    "$E2E_TMP/b$w.err"
done
for w in 6 7; do
	"$NEARCRAWL" crawl -d "$DB" --quiet "$@" 2>"$E2E_TMP/b$w.err" &
	pids="$pids $!"
done
e2e_watchdog_off
# shellcheck disable=SC2086 # one word per pid
e2e_watchdog 90 $pids
w=0
for pid in $pids; do
	w=$((w + 1))
	[ "$pid" = "$early" ] || [ "$pid" = "$late" ] && continue
	wait "$pid"
	rc=$?
	eq "3 processes: process $w exits 0" "$rc" 0
	[ "$rc" -eq 0 ] || sed -n '1,5s/^/     /p' "$E2E_TMP/b$w.err"
done
e2e_watchdog_off
ok "3 processes: finished in time" test ! -e "$E2E_TMP/timed-out"
for w in 1 2 3 5; do
	clean "3 processes, process $w" "$E2E_TMP/b$w.err"
done
clean "3 processes, process 4" "$E2E_TMP/b4.err" early
left=0
for pid in $pids; do running "$pid" && left=$((left + 1)); done
eq "no process left running" "$left" 0
same "3 processes"
e2e_finish
