# A throwaway PostgreSQL server for the tests (sourced, POSIX sh), the
# PostgreSQL counterpart of scripts/lib/fixture-server.sh.
#
#   pg_server_start DIR   initdb into DIR/data and start a server that
#                         listens only on a Unix socket in DIR; sets PG_URI
#                         (a libpq URI for database nearcrawl, user
#                         nearcrawl, no password) and PG_DIR. Returns 1 with
#                         a message and the server log's tail on stderr when
#                         the server cannot be set up.
#   pg_server_stop        stops it at once (pg_ctl -m immediate); removes
#                         nothing: DIR is the caller's to delete.
#   pg_server_restart     starts it again after pg_server_stop, on the same
#                         data, socket and port (a server that restarts).
#   pg_sql SQL            runs SQL against PG_URI, stops at the first error,
#                         prints rows unaligned, '|' between columns.
#   pg_new_db NAME        creates database NAME on the server and prints its
#                         URI (a fresh crawl next to PG_URI's).
#
# The binaries come from the highest /usr/lib/postgresql/*/bin (Debian's
# layout), else from PATH. The server is tuned for tests, not for keeping
# data: fsync, synchronous_commit and full_page_writes are off.
#
# initdb and postgres refuse to run as root, so as root they run as the
# user "postgres" (created by Debian's postgresql package), else "nobody":
# DIR is given to that user, and every directory above DIR must let it
# through (a temporary directory owned by root gets o+x; anything else is
# reported, not changed). Clients (psql, nearcrawl) run as the caller.
#
# One server per shell: a second pg_server_start forgets the first.

PG_URI=""
PG_DIR=""
_PG_BIN=""
_PG_USER=""

# Directory holding initdb, pg_ctl and postgres; empty when none is found.
_pg_find_bin() {
	_pg_b=$(for _pg_d in /usr/lib/postgresql/*/bin; do
		[ -x "$_pg_d/initdb" ] && [ -x "$_pg_d/pg_ctl" ] && echo "$_pg_d"
	done | sort -t/ -k5,5n | tail -n 1)
	if [ -z "$_pg_b" ] && command -v initdb >/dev/null 2>&1; then
		_pg_b=$(dirname "$(command -v initdb)")
	fi
	if [ -n "$_pg_b" ] && [ -x "$_pg_b/pg_ctl" ] && [ -x "$_pg_b/postgres" ]; then
		echo "$_pg_b"
	fi
}

# _pg_run_as USER CMD ARGS...: run CMD as USER (root only).
_pg_run_as() {
	_pg_u=$1
	shift
	if command -v runuser >/dev/null 2>&1; then
		runuser -u "$_pg_u" -- "$@"
	else
		# shellcheck disable=SC2016 # expanded by the shell su starts
		su -s /bin/sh -c 'exec "$0" "$@"' "$_pg_u" "$@"
	fi
}

# _pg_as CMD ARGS...: run CMD as the server's user (the caller unless root),
# from DIR so that no unreadable working directory is inherited.
_pg_as() {
	if [ -z "$_PG_USER" ]; then
		(cd "$PG_DIR" && "$@")
	else
		(cd "$PG_DIR" && _pg_run_as "$_PG_USER" "$@")
	fi
}

# _pg_reachable USER DIR: USER can enter DIR and every directory above it;
# root-owned temporary directories on the way are opened with o+x. Asking
# as USER costs a runuser each (slow), so the directories are judged by
# their modes and USER is asked once, at the end.
_pg_reachable() {
	_pg_p=$(dirname "$2")
	while [ "$_pg_p" != / ]; do
		if [ -z "$(find "$_pg_p" -maxdepth 0 -perm -o=x)" ]; then
			case $_pg_p in
			"${TMPDIR:-/tmp}"/* | /tmp/*)
				chmod o+x "$_pg_p" 2>/dev/null ;;
			esac
		fi
		_pg_p=$(dirname "$_pg_p")
	done
	if ! _pg_run_as "$1" test -x "$2" 2>/dev/null; then
		echo "pg-server: user $1 cannot enter $2;" \
		    "put the server's directory under /tmp" >&2
		return 1
	fi
}

# A port number no server on this machine is using. The server listens on
# none (only on DIR/.s.PGSQL.PORT) but takes its shared memory key from it.
_pg_free_port() {
	_pg_used=$( (ss -Hltn 2>/dev/null || netstat -ltn 2>/dev/null) |
	    awk '{ n = split($4, a, ":"); print a[n] }')
	_pg_now=$(date +%s)
	_pg_n=0
	while [ $_pg_n -lt 50 ]; do
		_pg_seed=$((($$ * 131 + _pg_n * 7919 + _pg_now) % 2147483647))
		_pg_port=$(awk -v s="$_pg_seed" 'BEGIN { srand(s)
			printf "%d", 20000 + int(rand() * 40000) }')
		if ! echo "$_pg_used" | grep -qx "$_pg_port" &&
		    ! ls /tmp/.s.PGSQL."$_pg_port" /var/run/postgresql/.s.PGSQL."$_pg_port" \
		    >/dev/null 2>&1; then
			echo "$_pg_port"
			return 0
		fi
		_pg_n=$((_pg_n + 1))
	done
	echo 54329
}

_pg_fail() {
	echo "pg-server: $*" >&2
	if [ -s "$PG_DIR/server.log" ]; then
		echo "pg-server: last lines of $PG_DIR/server.log:" >&2
		tail -n 15 "$PG_DIR/server.log" | sed 's/^/    /' >&2
	fi
	return 1
}

pg_server_start() {
	if [ $# -ne 1 ] || [ -z "$1" ]; then
		echo "usage: pg_server_start DIR" >&2
		return 2
	fi
	mkdir -p "$1" || return 1
	PG_DIR=$(cd "$1" && pwd) || return 1
	PG_URI=""
	_PG_BIN=$(_pg_find_bin)
	if [ -z "$_PG_BIN" ]; then
		_pg_fail "no PostgreSQL server found (initdb, pg_ctl, postgres)" \
		    "in /usr/lib/postgresql/*/bin or PATH:" \
		    "run scripts/make/install-deps.sh"
		return 1
	fi
	if ! command -v psql >/dev/null 2>&1 && [ ! -x "$_PG_BIN/psql" ]; then
		_pg_fail "psql not found"
		return 1
	fi
	# sun_path holds 108 bytes: DIR/.s.PGSQL.NNNNN and its lock file.
	if [ ${#PG_DIR} -gt 80 ]; then
		_pg_fail "$PG_DIR is too long for a Unix socket path; use a shorter TMPDIR"
		return 1
	fi
	_PG_USER=""
	if [ "$(id -u)" -eq 0 ]; then
		if id postgres >/dev/null 2>&1; then
			_PG_USER=postgres
		else
			_PG_USER=nobody
		fi
		chown "$_PG_USER" "$PG_DIR" || { _pg_fail "cannot chown $PG_DIR"; return 1; }
		chmod 755 "$PG_DIR"
		_pg_reachable "$_PG_USER" "$PG_DIR" || return 1
	fi
	if [ -e "$PG_DIR/data" ]; then
		_pg_fail "$PG_DIR/data exists already"
		return 1
	fi

	if ! _pg_as "$_PG_BIN/initdb" -D "$PG_DIR/data" --auth=trust -U nearcrawl \
	    --encoding=UTF8 --no-locale --no-sync >"$PG_DIR/initdb.log" 2>&1; then
		tail -n 15 "$PG_DIR/initdb.log" | sed 's/^/    /' >&2
		_pg_fail "initdb failed${_PG_USER:+ (as user $_PG_USER)}"
		return 1
	fi
	_pg_port=$(_pg_free_port)
	cat >>"$PG_DIR/data/postgresql.conf" <<EOF

# scripts/lib/pg-server.sh: a throwaway server for the tests
listen_addresses = ''
unix_socket_directories = '$PG_DIR'
port = $_pg_port
fsync = off
synchronous_commit = off
full_page_writes = off
max_connections = 60
shared_buffers = 64MB
EOF
	if ! _pg_as "$_PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" \
	    -w -t 30 start >"$PG_DIR/pg_ctl.log" 2>&1; then
		sed 's/^/    /' "$PG_DIR/pg_ctl.log" >&2
		_pg_fail "the server did not start within 30 s${_PG_USER:+ (as user $_PG_USER)}"
		_pg_as "$_PG_BIN/pg_ctl" -D "$PG_DIR/data" -m immediate stop \
		    >/dev/null 2>&1
		return 1
	fi
	PG_URI="postgresql:///nearcrawl?host=$PG_DIR&port=$_pg_port&user=nearcrawl"
	if ! _pg_psql "postgresql:///postgres?host=$PG_DIR&port=$_pg_port&user=nearcrawl" \
	    -c 'CREATE DATABASE nearcrawl' >"$PG_DIR/createdb.log" 2>&1; then
		sed 's/^/    /' "$PG_DIR/createdb.log" >&2
		_pg_fail "cannot create database nearcrawl"
		pg_server_stop
		PG_URI=""
		return 1
	fi
	return 0
}

pg_server_stop() {
	[ -n "$PG_DIR" ] && [ -n "$_PG_BIN" ] && [ -f "$PG_DIR/data/postmaster.pid" ] ||
	    return 0
	_pg_as "$_PG_BIN/pg_ctl" -D "$PG_DIR/data" -m immediate -w -t 30 stop \
	    >/dev/null 2>&1
}

pg_server_restart() {
	if [ -z "$PG_DIR" ] || [ -z "$_PG_BIN" ]; then
		echo "pg_server_restart: no server: call pg_server_start first" >&2
		return 1
	fi
	if ! _pg_as "$_PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" \
	    -w -t 30 start >"$PG_DIR/pg_ctl.log" 2>&1; then
		sed 's/^/    /' "$PG_DIR/pg_ctl.log" >&2
		_pg_fail "the server did not start again within 30 s"
		return 1
	fi
}

# _pg_psql URI ARGS...: psql without ~/.psqlrc, stopping at the first error.
_pg_psql() {
	_pg_uri=$1
	shift
	if command -v psql >/dev/null 2>&1; then
		psql -X -q -v ON_ERROR_STOP=1 -d "$_pg_uri" "$@"
	else
		"$_PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -d "$_pg_uri" "$@"
	fi
}

pg_sql() {
	if [ -z "$PG_URI" ]; then
		echo "pg_sql: no server: call pg_server_start first" >&2
		return 1
	fi
	_pg_psql "$PG_URI" -At -c "$1"
}

pg_new_db() {
	pg_sql "CREATE DATABASE \"$1\"" || return 1
	echo "$PG_URI" | sed "s|^postgresql:///nearcrawl?|postgresql:///$1?|"
}
