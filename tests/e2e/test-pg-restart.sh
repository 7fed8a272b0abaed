#!/bin/sh
# The PostgreSQL server goes away under a crawl. First the unit suite
# pg_conn (tests/unit/test_pg_conn.c) runs alone against a throwaway
# server: a connection the server terminates is found lost at once, libpq
# out of step with the server's answers is no reason to spin, a database
# marked by a newer nearcrawl is refused, a host whose last URL its owner
# left in flight is claimed again. Then the server is stopped at once
# (pg_ctl -m immediate) under a crawl, which ends at once, saying why on
# one line and how to resume; the resume, once the server is back,
# finishes it.
. tests/e2e/lib.sh

UNIT=${UNIT:-build/san/unit}
e2e_start_lab_uni
e2e_start_pg
# A gap per host keeps each crawl going for some seconds (the lab host's
# 486 pages take 10 s at least).
# shellcheck disable=SC2086 # options and seeds are split on purpose
set -- --quiet --delay-ms 20 --per-host 1 --max-pages 5000 $LAB_UNI_OPTS \
    $LAB_UNI_SEEDS
pg_sql_db() { psql -X -q -At -d "$DB" -c "$1"; }
# wait_pages N: until the crawl in database $DB has N pages (at most 15 s).
wait_pages() {
	_i=0
	while [ "$(pg_sql_db 'SELECT count(*) FROM pages' 2>/dev/null || echo 0)" \
	    -lt "$1" ] && [ $_i -lt 300 ]; do
		sleep 0.05
		_i=$((_i + 1))
	done
}

ok "the unit binary is built" test -x "$UNIT"
NC_UNIT_ONLY=pg_conn NC_TEST_PG=$PG_URI "$UNIT" >"$E2E_TMP/unit.out" 2>&1
status=$?
sed 's/^/    /' "$E2E_TMP/unit.out"
eq "the unit suite pg_conn: its five tests ran and passed ($status)" \
    "$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$E2E_TMP/unit.out" | tail -n 1)" \
    "5 passed, 0 failed"

# The undisturbed crawl's pages.
"$NEARCRAWL" crawl -d "$E2E_TMP/one.db" "$@" --delay-ms 0 2>"$E2E_TMP/one.err"
eq "SQLite crawl exits 0" "$?" 0
one_pages=$(q "$E2E_TMP/one.db" 'SELECT count(*) FROM pages')

DB=$(pg_new_db stop0)
"$NEARCRAWL" crawl -d "$DB" "$@" 2>"$E2E_TMP/stop0.err" &
pid=$!
e2e_watchdog 60 $pid
wait_pages 150
pg_server_stop
wait $pid
eq "the server stopped: the crawl exits 1" "$?" 1
e2e_watchdog_off
ok "it says it lost the connection" \
    grep -q "server closed the connection unexpectedly" "$E2E_TMP/stop0.err"
ok "it says how to resume" \
    grep -q "^nearcrawl: resume with: nearcrawl crawl -d " "$E2E_TMP/stop0.err"
eq "no raw libpq line (server notices, line breaks)" \
    "$(grep -c -e '^WARNING' -e 'message type' -e 'x0a' -e '^[^n]' \
        "$E2E_TMP/stop0.err")" 0
ok "the server starts again" pg_server_restart
"$NEARCRAWL" crawl -d "$DB" "$@" 2>"$E2E_TMP/resume0.err"
eq "the resume exits 0" "$?" 0
eq "the resume finishes the crawl" \
    "$(pg_sql_db 'SELECT count(*) FROM pages' 2>&1)" "$one_pages"
eq "nothing left queued or in flight" \
    "$(pg_sql_db 'SELECT count(*) FROM frontier WHERE state <> 2' 2>&1)" 0
e2e_finish
