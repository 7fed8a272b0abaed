#!/bin/sh
# The PostgreSQL test harness itself (scripts/lib/pg-server.sh, e2e_start_pg):
# a server starts in the test's directory, listens only on its Unix socket
# with the test settings, answers queries, keeps a table, reports SQL
# errors, and stops. As root the server must run as an unprivileged user,
# and the same start/query/stop is repeated by an unprivileged caller.
. tests/e2e/lib.sh

e2e_start_pg
eq "PG_DIR is the test's pg directory" "$PG_DIR" "$(cd "$E2E_TMP/pg" && pwd)"
case $PG_URI in
"postgresql:///nearcrawl?host=$PG_DIR&port="*"&user=nearcrawl") uri=1 ;;
*) uri=0 ;;
esac
eq "PG_URI names the socket directory and database nearcrawl" "$uri" 1
port=$(echo "$PG_URI" | sed -n 's/.*[?&]port=\([0-9]*\).*/\1/p')
ok "socket in PG_DIR" test -S "$PG_DIR/.s.PGSQL.$port"

eq "SELECT 1" "$(pg_sql 'SELECT 1')" 1
eq "database and user" "$(pg_sql 'SELECT current_database(), current_user')" \
    "nearcrawl|nearcrawl"
eq "no TCP listener" "$(pg_sql 'SHOW listen_addresses')" ""
eq "test settings" \
    "$(pg_sql "SELECT string_agg(name || '=' || setting, ' ' ORDER BY name)
        FROM pg_settings WHERE name IN ('fsync', 'synchronous_commit',
        'full_page_writes', 'max_connections', 'shared_buffers')")" \
    "fsync=off full_page_writes=off max_connections=60 shared_buffers=8192 synchronous_commit=off"
eq "UTF8 encoding" "$(pg_sql 'SHOW server_encoding')" UTF8

pg_sql "CREATE TABLE t(id serial PRIMARY KEY, s text);
    INSERT INTO t(s) VALUES ('a'), ('é'), ('c')" >/dev/null 2>&1
eq "create a table and insert" "$?" 0
eq "rows read back" "$(pg_sql 'SELECT string_agg(s, $$,$$ ORDER BY id) FROM t')" "a,é,c"
ok "an SQL error is an error" test "$(pg_sql 'SELECT no_such_column FROM t' \
    >/dev/null 2>&1; echo $?)" -ne 0
pg_sql "INSERT INTO t(s) VALUES ('d'); SELECT 1/0; INSERT INTO t(s) VALUES ('e')" \
    >/dev/null 2>&1
eq "nothing after the first error runs" "$(pg_sql 'SELECT count(*) FROM t')" 3

uri2=$(pg_new_db second 2>/dev/null)
eq "pg_new_db: a second database" \
    "$(psql -X -At -d "$uri2" -c 'SELECT current_database()' 2>&1)" second

pid=$(head -n 1 "$PG_DIR/data/postmaster.pid")
user=$(ps -o user= -p "$pid" | tr -d ' ')
if [ "$(id -u)" -eq 0 ]; then
	ok "as root, the server runs as an unprivileged user ($user)" \
	    test -n "$user" -a "$user" != root
else
	eq "the server runs as the caller" "$user" "$(id -un)"
fi

ok "a second start in the same directory is refused" \
    test "$(pg_server_start "$E2E_TMP/pg" >/dev/null 2>&1; echo $?)" -ne 0
# That refusal must leave the running server alone.
PG_DIR=$(cd "$E2E_TMP/pg" && pwd)
PG_URI="postgresql:///nearcrawl?host=$PG_DIR&port=$port&user=nearcrawl"
eq "the server still answers" "$(pg_sql 'SELECT count(*) FROM t')" 3

pg_server_stop
eq "stop" "$?" 0
E2E_PG=""
# A zombie counts as gone: the postmaster, orphaned by pg_ctl, is reaped by
# whatever adopted it, which may take a moment.
ok "the server process is gone" test -z "$(ps -o stat= -p "$pid" | grep -v Z)"
ok "no query after the stop" test "$(pg_sql 'SELECT 1' >/dev/null 2>&1; echo $?)" -ne 0
ok "the data directory is left for the caller" test -d "$PG_DIR/data"

# As root, the whole cycle once more by an unprivileged caller, with the
# helper read from a copy in a directory of its own.
if [ "$(id -u)" -eq 0 ]; then
	as=nobody
	mkdir "$E2E_TMP/$as"
	cp scripts/lib/pg-server.sh "$E2E_TMP/$as/"
	chown -R "$as" "$E2E_TMP/$as"
	chmod o+x "$E2E_TMP"
	# shellcheck disable=SC2016 # expanded by the inner shell
	out=$(cd "$E2E_TMP/$as" && runuser -u "$as" -- sh -c '
		. ./pg-server.sh
		pg_server_start "$PWD/pg" || exit 1
		pg_sql "SELECT current_user, 1; CREATE TABLE t(x int);
		    INSERT INTO t VALUES (7); SELECT x FROM t; SHOW fsync"
		pid=$(head -n 1 "$PG_DIR/data/postmaster.pid")
		echo "$(ps -o user= -p "$pid" | tr -d " ")"
		pg_server_stop || echo "stop failed"
		ps -o stat= -p "$pid" | grep -qv Z && echo "still running"
		exit 0' 2>&1)
	eq "as $as: start, query, table, stop" "$(echo "$out" | tr '\n' ' ')" \
	    "nearcrawl|1 7 off $as "
else
	echo "     (run as uid $(id -u): the root path, an unprivileged server" \
	    "user, is tested when run as root)"
fi
e2e_finish
