#!/bin/sh
# A PostgreSQL connection's faults: the unit suite pg_conn
# (tests/unit/test_pg_conn.c) run alone against a throwaway server -- a
# connection the server terminates is found lost at once, libpq out of
# step with the server's answers is no reason to spin, a database marked
# by a newer nearcrawl is refused, a host whose last URL its owner left in
# flight is claimed again.
. tests/e2e/lib.sh

UNIT=${UNIT:-build/san/unit}
e2e_start_pg

ok "the unit binary is built" test -x "$UNIT"
NC_UNIT_ONLY=pg_conn NC_TEST_PG=$PG_URI "$UNIT" >"$E2E_TMP/unit.out" 2>&1
status=$?
sed 's/^/    /' "$E2E_TMP/unit.out"
eq "the unit suite pg_conn: its five tests ran and passed ($status)" \
    "$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$E2E_TMP/unit.out" | tail -n 1)" \
    "5 passed, 0 failed"
e2e_finish
