# Shared helpers for the end-to-end tests (sourced, POSIX sh).
#
# Each test script: . tests/e2e/lib.sh; e2e_start_server ROOT; crawl ...;
# check ...; e2e_finish. It prints one line per check and closes with
# "N passed, N failed"; its exit status is 0 only when nothing failed.
# A test of the PostgreSQL backend also calls e2e_start_pg and crawls into
# "$PG_URI" (scripts/pg-server.sh: pg_sql, pg_new_db).

NEARCRAWL=${NEARCRAWL:-./nearcrawl}
NCSERVER=${NCSERVER:-build/plain/ncserver}
E2E_PASSED=0
E2E_FAILED=0
E2E_TMP=$(mktemp -d "${TMPDIR:-/tmp}/nearcrawl-e2e.XXXXXX")
E2E_SERVER_PID=""
E2E_PG=""
. scripts/fixture-server.sh
. scripts/pg-server.sh

e2e_cleanup() {
	if [ -n "$E2E_SERVER_PID" ]; then
		kill "$E2E_SERVER_PID" 2>/dev/null
		wait "$E2E_SERVER_PID" 2>/dev/null
	fi
	[ -z "$E2E_PG" ] || pg_server_stop
	[ -n "${E2E_KEEP:-}" ] || rm -rf "$E2E_TMP"
}
trap e2e_cleanup EXIT INT TERM

# e2e_start_server ROOT: serve ROOT on a free loopback port; sets PORT and
# SERVER_LOG (one line per request: time host method path status bytes).
e2e_start_server() {
	SERVER_LOG="$E2E_TMP/server.log"
	if ! fixture_server_start "$1" "$E2E_TMP" "$SERVER_LOG"; then
		echo "FAIL: test server did not start"
		E2E_FAILED=$((E2E_FAILED + 1))
		e2e_finish
	fi
	E2E_SERVER_PID=$FIXTURE_PID
	PORT=$FIXTURE_PORT
}

# e2e_start_pg: a throwaway PostgreSQL server in $E2E_TMP/pg, stopped by
# e2e_cleanup; sets PG_URI (database nearcrawl) and PG_DIR. The test fails
# and ends here when the server does not start.
e2e_start_pg() {
	if ! pg_server_start "$E2E_TMP/pg"; then
		echo "FAIL: PostgreSQL test server did not start"
		E2E_FAILED=$((E2E_FAILED + 1))
		e2e_finish
	fi
	E2E_PG=1
}

# ok NAME COMMAND...: the command succeeds.
ok() {
	name=$1
	shift
	if "$@" >/dev/null 2>&1; then
		E2E_PASSED=$((E2E_PASSED + 1))
		echo "ok   $name"
	else
		E2E_FAILED=$((E2E_FAILED + 1))
		echo "FAIL $name"
	fi
}

# eq NAME ACTUAL EXPECTED
eq() {
	if [ "$2" = "$3" ]; then
		E2E_PASSED=$((E2E_PASSED + 1))
		echo "ok   $1"
	else
		E2E_FAILED=$((E2E_FAILED + 1))
		echo "FAIL $1: got '$2', expected '$3'"
	fi
}

# q DB SQL: one query's output.
q() {
	sqlite3 -batch -noheader "$1" "$2"
}

e2e_finish() {
	echo "$E2E_PASSED passed, $E2E_FAILED failed"
	[ "$E2E_FAILED" -eq 0 ] && exit 0
	exit 1
}
