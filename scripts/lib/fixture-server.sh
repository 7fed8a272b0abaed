# Start the loopback test server (sourced by the demo, the evaluation and
# the end-to-end tests, POSIX sh).
#
#   fixture_server_start ROOT DIR [LOG]
#
# Serves ROOT on 127.0.0.1 on a free port, writing its port file into DIR
# (and one line per request into LOG). Sets FIXTURE_PORT and FIXTURE_PID;
# returns 1 when the server does not come up within five seconds. The
# caller stops it (kill "$FIXTURE_PID").
fixture_server_start() {
	rm -f "$2/port"
	"${NCSERVER:-build/plain/ncserver}" --root "$1" --addr 127.0.0.1 \
	    --port 0 --port-file "$2/port" ${3:+--log "$3"} --quiet &
	FIXTURE_PID=$!
	_fs_i=0
	while [ ! -s "$2/port" ]; do
		_fs_i=$((_fs_i + 1))
		if [ "$_fs_i" -gt 100 ]; then
			echo "the test server did not start" >&2
			return 1
		fi
		sleep 0.05
	done
	FIXTURE_PORT=$(cat "$2/port")
}
