#!/bin/sh
# SIGINT stops a crawl gracefully: exit 0 soon, a consistent database that
# says how to resume, and a resumed crawl that ends like an uninterrupted
# one. A second SIGINT stops at once, without the grace period; without it
# a transfer that does not end is given up after the grace period (5 s).
. tests/e2e/lib.sh

e2e_start_server tests/fixtures/sites
H=www.lab.test
S=www.small.test
R="--resolve $H:$PORT:127.0.0.1 --resolve $S:$PORT:127.0.0.1"
SEED="http://$H:$PORT/"
# 100 kB at 1 kB/s: still running whenever the crawl is stopped.
SLOW="http://$S:$PORT/__nc/slow/100000?rate=1000"

now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'; }
# start DB DELAY_MS SEED...: a crawl in the background; sets pid. Returns
# about a second later, once the crawl has made requests: the signal
# handlers are in place only when the event loop is (a SIGINT before that
# is ignored by a background job of a non-interactive shell).
start() {
	db=$1 delay=$2
	shift 2
	before=$(wc -l <"$SERVER_LOG")
	"$NEARCRAWL" crawl -d "$db" --delay-ms "$delay" $R "$@" \
	    2>"$db.err" &
	pid=$!
	sleep 1
	i=0
	while [ $(($(wc -l <"$SERVER_LOG") - before)) -lt 5 ] &&
	    [ $i -lt 100 ]; do
		sleep 0.05
		i=$((i + 1))
	done
}
# finish SECONDS: wait up to SECONDS for pid to end; sets rc (137 when it
# had to be killed) and took (seconds since the last signal).
finish() {
	i=0 limit=$(awk -v s="$1" 'BEGIN { print int(s * 20) }')
	while kill -0 $pid 2>/dev/null && [ $i -lt $limit ]; do
		# a zombie counts as gone
		ps -o stat= -p $pid 2>/dev/null | grep -q Z && break
		sleep 0.05
		i=$((i + 1))
	done
	kill -9 $pid 2>/dev/null
	wait $pid 2>/dev/null
	rc=$?
	took=$(since "$signalled")
}
consistent() { # NAME DB
	eq "$1: integrity" "$(q "$2" 'PRAGMA integrity_check')" ok
	eq "$1: no frontier entry left in flight" \
	    "$(q "$2" 'SELECT count(*) FROM frontier WHERE state = 1')" 0
	eq "$1: seq is 1..N" \
	    "$(q "$2" 'SELECT count(*) = 0 OR (min(seq) = 1 AND
	        max(seq) = count(*)) FROM pages')" 1
}
counts() {
	q "$1" "SELECT verdict || '=' || count(*) FROM pages GROUP BY verdict
	    ORDER BY verdict" | tr '\n' ' '
}
WHOLE_COUNTS="exact=171 near=126 unique=327 "

# 1. One SIGINT, about a second in: a graceful stop.
A="$E2E_TMP/a.db"
start "$A" 20 "$SEED"
signalled=$(now)
kill -INT $pid
finish 8
eq "SIGINT: exit status 3 (work left, saved)" $rc 3
ok "SIGINT: stopped within 6 s (took $took s)" \
    awk "BEGIN { exit !($took < 6) }"
ok "SIGINT: stderr tells how to resume" grep -q resume "$A.err"
ok "SIGINT: stderr says stopped" grep -q 'nearcrawl: stopped' "$A.err"
consistent "SIGINT" "$A"
part=$(q "$A" 'SELECT count(*) FROM pages')
ok "SIGINT: stopped part-way ($part pages)" test "$part" -gt 0 -a "$part" -lt 624
ok "SIGINT: something left queued" \
    test "$(q "$A" 'SELECT count(*) FROM frontier WHERE state = 0')" -gt 0
"$NEARCRAWL" crawl -d "$A" --quiet --delay-ms 0 $R 2>"$A.err2"
eq "SIGINT: resumed crawl exits 0" $? 0
eq "SIGINT: resumed crawl finished" \
    "$(q "$A" 'SELECT count(*) FROM frontier WHERE state <> 2')" 0
eq "SIGINT: resumed crawl has the whole site" \
    "$(q "$A" 'SELECT count(*) FROM pages')" 624
eq "SIGINT: same verdict counts as an uninterrupted crawl" \
    "$(counts "$A")" "$WHOLE_COUNTS"
consistent "SIGINT resumed" "$A"

# 2. Two SIGINTs while a transfer that does not end is in flight: the
# second one stops at once instead of after the grace period.
B="$E2E_TMP/b.db"
start "$B" 20 "$SEED" "$SLOW"
signalled=$(now)
kill -INT $pid
sleep 0.2
signalled=$(now)
kill -INT $pid
finish 8
eq "second SIGINT: exit status 3" $rc 3
ok "second SIGINT: stopped within 1.5 s (took $took s)" \
    awk "BEGIN { exit !($took < 1.5) }"
ok "second SIGINT: a transfer was in flight" \
    grep -q 'waiting for [1-9]' "$B.err"
ok "second SIGINT: stderr tells how to resume" grep -q resume "$B.err"
consistent "second SIGINT" "$B"
eq "second SIGINT: the cut transfer is queued again" \
    "$(q "$B" "SELECT state FROM frontier WHERE url LIKE '%/__nc/slow/%'")" 0
eq "second SIGINT: the cut transfer is not stored" \
    "$(q "$B" "SELECT count(*) FROM pages WHERE url LIKE '%/__nc/slow/%'")" 0

# 3. One SIGINT with that transfer in flight: the crawl waits the grace
# period (5 s), then gives the transfer up and exits 0.
C="$E2E_TMP/c.db"
start "$C" 20 "$SEED" "$SLOW"
signalled=$(now)
kill -INT $pid
finish 10
eq "grace over: exit status 3" $rc 3
ok "grace over: waited for the transfer, 4.5 to 7 s (took $took s)" \
    awk "BEGIN { exit !($took >= 4.5 && $took < 7) }"
consistent "grace over" "$C"
eq "grace over: the cut transfer is queued again" \
    "$(q "$C" "SELECT state FROM frontier WHERE url LIKE '%/__nc/slow/%'")" 0

echo "    one SIGINT: $part pages before the stop; resumed: $(counts "$A")"
e2e_finish
