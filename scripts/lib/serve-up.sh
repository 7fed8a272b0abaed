# Start `nearcrawl serve` in the background on a free loopback port and
# learn its address (sourced by the web view's tests and benchmark, POSIX
# sh).
#
#   serve_up BIN DB DIR [SERVE OPTIONS...]
#
# Runs BIN serve -d DB --port 0 OPTIONS with TMPDIR=DIR/svtmp and stderr
# into DIR/serve.log; sets SERVE_PID, and SERVE_URL to the base URL
# (http://127.0.0.1:PORT, no trailing slash) read from the first line of
# the log. Returns 1 when that line has not come within ten seconds (the
# process is left to the caller, who stops it: kill -TERM "$SERVE_PID").
serve_up() {
	_sv_bin=$1 _sv_db=$2 _sv_dir=$3
	shift 3
	mkdir -p "$_sv_dir/svtmp"
	TMPDIR=$_sv_dir/svtmp "$_sv_bin" serve -d "$_sv_db" --port 0 "$@" \
	    2>"$_sv_dir/serve.log" &
	SERVE_PID=$!
	SERVE_URL=""
	_sv_i=0
	while [ $_sv_i -lt 100 ]; do
		SERVE_URL=$(sed -n 's|.* at \(http://[^ ]*\)/ (read-only.*|\1|p' \
		    "$_sv_dir/serve.log")
		[ -n "$SERVE_URL" ] && return 0
		_sv_i=$((_sv_i + 1))
		sleep 0.1
	done
	return 1
}
