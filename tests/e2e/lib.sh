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
. scripts/lib/serve-up.sh
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

# e2e_check_dbs: `nearcrawl check` passes on every crawl database the
# test made: the SQLite files in $E2E_TMP and the directories right below
# it, and, when the test started a PostgreSQL server, each of its
# databases that holds a crawl; a check line each (e2e_finish calls it).
# E2E_CHECK_SKIP holds shell patterns of file (or PostgreSQL database)
# names left out: databases a test damages, spoils or makes foreign on
# purpose, each test saying why. A file that is not SQLite is never a
# crawl's. E2E_CHECK=no leaves everything out.
e2e_check_dbs() {
	[ "${E2E_CHECK:-yes}" = no ] && return 0
	for _ck_db in "$E2E_TMP"/*.db "$E2E_TMP"/*/*.db; do
		[ -f "$_ck_db" ] && ! _e2e_check_skipped "${_ck_db##*/}" &&
		    [ "$(head -c 15 "$_ck_db" 2>/dev/null)" = "SQLite format 3" ] ||
		    continue
		e2e_check_db "$_ck_db" "${_ck_db#"$E2E_TMP"/}"
	done
	[ -n "$E2E_PG" ] && [ -n "${PG_URI:-}" ] || return 0
	for _ck_name in $(pg_sql "SELECT datname FROM pg_database
	    WHERE NOT datistemplate AND datname <> 'postgres'
	    ORDER BY datname" 2>/dev/null); do
		_e2e_check_skipped "$_ck_name" && continue
		_ck_uri=$(echo "$PG_URI" |
		    sed "s|^postgresql:///nearcrawl?|postgresql:///$_ck_name?|")
		[ "$(_pg_psql "$_ck_uri" -At -c \
		    "SELECT to_regclass('meta') IS NOT NULL" 2>/dev/null)" = t ] ||
		    continue
		e2e_check_db "$_ck_uri" "PostgreSQL database $_ck_name"
	done
}

# Whether name matches a pattern of E2E_CHECK_SKIP.
_e2e_check_skipped() {
	for _ck_pat in ${E2E_CHECK_SKIP:-}; do
		# shellcheck disable=SC2254 # a pattern on purpose
		case $1 in $_ck_pat) return 0 ;; esac
	done
	return 1
}

# e2e_check_db DB NAME: a check line saying that `nearcrawl check` passes
# on DB, with what check said when it does not.
e2e_check_db() {
	if "$NEARCRAWL" check -d "$1" >"$E2E_TMP/check.out" 2>&1; then
		E2E_PASSED=$((E2E_PASSED + 1))
		echo "ok   nearcrawl check passes on $2"
	else
		E2E_FAILED=$((E2E_FAILED + 1))
		echo "FAIL nearcrawl check passes on $2"
		sed -n '1,8s/^/     /p' "$E2E_TMP/check.out"
	fi
}

e2e_finish() {
	e2e_check_dbs
	echo "$E2E_PASSED passed, $E2E_FAILED failed"
	[ "$E2E_FAILED" -eq 0 ] && exit 0
	exit 1
}
