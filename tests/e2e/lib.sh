# Shared helpers for the end-to-end tests (sourced, POSIX sh).
#
# Each test script: . tests/e2e/lib.sh; e2e_start_server ROOT; crawl ...;
# check ...; e2e_finish. It prints one line per check and closes with
# "N passed, N failed"; its exit status is 0 only when nothing failed.
# A test of the PostgreSQL backend also calls e2e_start_pg and crawls into
# "$PG_URI" (scripts/lib/pg-server.sh: pg_sql, pg_new_db).

NEARCRAWL=${NEARCRAWL:-./nearcrawl}
NCSERVER=${NCSERVER:-build/plain/ncserver}
E2E_PASSED=0
E2E_FAILED=0
E2E_TMP=$(mktemp -d "${TMPDIR:-/tmp}/nearcrawl-e2e.XXXXXX")
E2E_SERVER_PID=""
E2E_PG=""
. scripts/lib/fixture-server.sh
. scripts/lib/pg-server.sh

e2e_cleanup() {
	if [ -n "$E2E_SERVER_PID" ]; then
		kill "$E2E_SERVER_PID" 2>/dev/null
		wait "$E2E_SERVER_PID" 2>/dev/null
	fi
	[ -z "$E2E_PG" ] || pg_server_stop
	[ -n "${E2E_KEEP:-}" ] || rm -rf "$E2E_TMP"
}
# A test cut short (a signal, a reader of its output that went away) must
# not leave its servers running: exit, and the EXIT trap cleans up.
trap e2e_cleanup EXIT
trap 'exit 1' INT TERM HUP PIPE

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

# e2e_start_lab_uni: serve the labelled fixture site www.lab.test and the
# five labelled *.uni.test hosts (their links name the port: a copy with
# it filled in), six hosts for crawls shared by several processes. Sets
# what e2e_start_server sets, plus LAB_UNI_OPTS (scope and --resolve for
# every host), LAB_UNI_SEEDS (the six home pages) and LAB_UNI_LABELS (one
# label file for both: the lab's plain /path labels get //www.lab.test).
e2e_start_lab_uni() {
	_lu_hosts="www.lab.test www.uni.test cs.uni.test lib.uni.test
	    events.uni.test sport.uni.test"
	mkdir "$E2E_TMP/sites"
	e2e_start_server "$E2E_TMP/sites"
	LAB_UNI_OPTS="--allow-domain www.lab.test --allow-domain uni.test"
	LAB_UNI_SEEDS=""
	for _lu_h in $_lu_hosts; do
		cp -R "tests/fixtures/sites/$_lu_h" "$E2E_TMP/sites/" || return 1
		LAB_UNI_OPTS="$LAB_UNI_OPTS --resolve $_lu_h:$PORT:127.0.0.1"
		LAB_UNI_SEEDS="$LAB_UNI_SEEDS http://$_lu_h:$PORT/"
	done
	grep -rlZ NCPORT "$E2E_TMP/sites" |
	    xargs -0 sed -i "s/:NCPORT\//:$PORT\//g" || return 1
	LAB_UNI_LABELS="$E2E_TMP/lab-uni.tsv"
	{
		head -n 1 tests/fixtures/labelled.tsv
		awk 'NR > 1 { print "//www.lab.test" $0 }' tests/fixtures/labelled.tsv
		tail -n +2 tests/fixtures/labelled-uni.tsv
	} >"$LAB_UNI_LABELS"
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

# e2e_watchdog SECONDS PID...: kill -9 the PIDs (crawls run in the
# background) if they are still running after SECONDS, leaving the file
# $E2E_TMP/timed-out; sets E2E_WATCHDOG. Once the PIDs are waited for,
# e2e_watchdog_off. A hung crawl then fails the test instead of hanging it.
e2e_watchdog() {
	_wd_secs=$1
	shift
	rm -f "$E2E_TMP/timed-out"
	(
		# Not the test's traps: stopped by e2e_watchdog_off, this
		# subshell must not clean up the test's files on its way out.
		trap - EXIT
		trap 'exit 0' INT TERM HUP PIPE
		sleep "$_wd_secs" &
		wait $!
		touch "$E2E_TMP/timed-out"
		kill -9 "$@" 2>/dev/null
	) >/dev/null 2>&1 &
	E2E_WATCHDOG=$!
}

e2e_watchdog_off() {
	kill "$E2E_WATCHDOG" 2>/dev/null
	wait "$E2E_WATCHDOG" 2>/dev/null
	E2E_WATCHDOG=""
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

# scores_at_least LINE MIN_P MIN_R: an evaluation's machine-readable last
# line (precision=P recall=R coverage=C ...) holds precision >= MIN_P,
# recall >= MIN_R and coverage 1.000 (three checks).
scores_at_least() {
	_sc_p=$(echo "$1" | tr ' ' '\n' | sed -n 's/^precision=//p')
	_sc_r=$(echo "$1" | tr ' ' '\n' | sed -n 's/^recall=//p')
	ok "precision >= $2" awk "BEGIN { exit !($_sc_p >= $2) }"
	ok "recall >= $3" awk "BEGIN { exit !($_sc_r >= $3) }"
	eq "coverage" "$(echo "$1" | tr ' ' '\n' | sed -n 's/^coverage=//p')" 1.000
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
