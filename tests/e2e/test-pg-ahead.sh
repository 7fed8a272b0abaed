#!/bin/sh
# Statements sent ahead on libpq's pipeline and URLs of a shared crawl
# taken ahead (storage/sdb_pg.c, storage/store_ahead.c): the unit suite
# sdb_pg (tests/unit/test_sdb_pg.c) run alone against a throwaway
# PostgreSQL server. Its five tests must all run and pass.
. tests/e2e/lib.sh

UNIT=${UNIT:-build/san/unit}
# The unit tests' database holds URLs taken ahead by a store they close
# without giving them back: no crawl for nearcrawl check.
E2E_CHECK_SKIP="ahead_t"
ok "the unit binary is built" test -x "$UNIT"
e2e_start_pg
NC_UNIT_ONLY=sdb_pg NC_TEST_PG=$PG_URI "$UNIT" >"$E2E_TMP/unit.out" 2>&1
status=$?
sed 's/^/    /' "$E2E_TMP/unit.out"
eq "the suite exits 0" "$status" 0
eq "its five tests ran and passed" \
    "$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$E2E_TMP/unit.out" | tail -n 1)" \
    "5 passed, 0 failed"
e2e_finish
