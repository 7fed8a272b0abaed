#!/bin/sh
# Three processes share a crawl on one PostgreSQL database; one is killed
# with SIGKILL mid-crawl. The other two finish it: nothing is left queued
# or in flight (the dead process's leases and claims go back), every URL
# that one SQLite process reaches is stored, none twice. A fourth process
# run afterwards (a resume) finds nothing to do.
. tests/e2e/lib.sh

e2e_start_lab_uni
e2e_start_pg
# A gap per host keeps the shared crawl going for some seconds, long enough
# to kill a process in the middle of it.
DELAY=10
# shellcheck disable=SC2086 # options and seeds are split on purpose
set -- --quiet --delay-ms $DELAY --per-host 1 --max-pages 5000 \
    $LAB_UNI_OPTS $LAB_UNI_SEEDS
WORKERS=3
val() { pg_sql "$1" 2>&1 | head -n 1; }
running() { ps -o stat= -p "$1" 2>/dev/null | grep -qv Z; }

# The reference: the URLs one process on SQLite reaches (without the gap).
"$NEARCRAWL" crawl -d "$E2E_TMP/one.db" "$@" --delay-ms 0 2>"$E2E_TMP/one.err"
eq "SQLite crawl exits 0" "$?" 0
one_pages=$(q "$E2E_TMP/one.db" 'SELECT count(*) FROM pages')
q "$E2E_TMP/one.db" 'SELECT url FROM pages ORDER BY url' >"$E2E_TMP/one.urls"

pids=""
for w in $(seq $WORKERS); do
	(
		while [ ! -e "$E2E_TMP/go" ]; do sleep 0.01; done
		exec "$NEARCRAWL" crawl -d "$PG_URI" "$@" 2>"$E2E_TMP/pg$w.err"
	) &
	pids="$pids $!"
done
touch "$E2E_TMP/go"
# shellcheck disable=SC2086 # one word per pid
e2e_watchdog 50 $pids

# Kill one once a fifth of the site is stored: the process that judged the
# latest page when its worker name holds its pid, else the first.
victim="" at_kill=""
i=0
while [ $i -lt 200 ]; do
	n=$(pg_sql 'SELECT count(*) FROM pages' 2>/dev/null)
	if [ "${n:-0}" -ge $((one_pages / 5)) ]; then
		last=$(pg_sql 'SELECT worker FROM pages ORDER BY seq DESC LIMIT 1' 2>/dev/null)
		for pid in $pids; do
			echo "$last" | grep -Eq "(^|[^0-9])$pid([^0-9]|$)" && victim=$pid
		done
		[ -n "$victim" ] || victim=${pids%% *}
		victim=${victim# }
		kill -9 "$victim"
		at_kill=$n
		break
	fi
	alive=0
	for pid in $pids; do running "$pid" && alive=1; done
	[ $alive -eq 1 ] || break
	sleep 0.1
	i=$((i + 1))
done
ok "one process killed after $((one_pages / 5)) pages (at ${at_kill:-none})" \
    test -n "$victim"

w=0
for pid in $pids; do
	w=$((w + 1))
	wait "$pid"
	rc=$?
	if [ "$pid" = "$victim" ]; then
		eq "process $w killed mid-crawl" "$rc" 137
		continue
	fi
	eq "process $w exits 0" "$rc" 0
	[ "$rc" -eq 0 ] || sed -n '1,5s/^/     /p' "$E2E_TMP/pg$w.err"
done
e2e_watchdog_off
ok "the others finished within 50 s" test ! -e "$E2E_TMP/timed-out"
ok "the crawl was unfinished at the kill (${at_kill:-?} of $one_pages pages)" \
    test "${at_kill:-$one_pages}" -lt "$one_pages"

eq "nothing left queued or in flight" \
    "$(val 'SELECT count(*) FROM frontier WHERE state <> 2')" 0
pg_sql 'SELECT url FROM pages ORDER BY url' 2>/dev/null | LC_ALL=C sort \
    >"$E2E_TMP/pg.urls"
LC_ALL=C sort "$E2E_TMP/one.urls" >"$E2E_TMP/one.sorted"
missing=$(LC_ALL=C comm -23 "$E2E_TMP/one.sorted" "$E2E_TMP/pg.urls")
eq "every URL the SQLite crawl reaches is stored" \
    "$(echo "$missing" | grep -c .)" 0
echo "$missing" | sed -n '1,3s/^./     missing: &/p'
eq "no URL stored twice" \
    "$(val 'SELECT count(*) - count(DISTINCT url) FROM pages')" 0
eq "no seq given twice" \
    "$(val 'SELECT count(*) - count(DISTINCT seq) FROM pages')" 0
pages=$(val 'SELECT count(*) FROM pages')
case $pages in "" | *[!0-9]*) pages=unknown ;; esac
echo "     pages: SQLite $one_pages, shared crawl $pages, killed at $at_kill"

# The resume: a fourth process on the finished crawl.
mark=$(wc -l <"$SERVER_LOG")
"$NEARCRAWL" crawl -d "$PG_URI" "$@" 2>"$E2E_TMP/resume.err" &
pid=$!
e2e_watchdog 20 $pid
wait $pid
eq "a fourth process exits 0" "$?" 0
e2e_watchdog_off
eq "it stores nothing" "$(val 'SELECT count(*) FROM pages')" "$pages"
eq "it fetches no page" \
    "$(tail -n +$((mark + 1)) "$SERVER_LOG" |
        awk '$4 != "/robots.txt"' | wc -l | tr -d ' ')" 0
eq "still nothing queued" \
    "$(val 'SELECT count(*) FROM frontier WHERE state <> 2')" 0
e2e_finish
