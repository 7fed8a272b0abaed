#!/bin/sh
# Three processes started at once on one PostgreSQL database crawl the
# labelled sites together and end where one process on SQLite ends: the
# same number of pages, the same scores, every URL fetched once, every
# process judging pages, seq 1..N without gaps or repeats.
# The labelled lab site is one host; with the five *.uni.test hosts beside
# it every process can hold host leases of its own.
. tests/e2e/lib.sh

e2e_start_lab_uni
e2e_start_pg
LABELS=$LAB_UNI_LABELS
# shellcheck disable=SC2086 # options and seeds are split on purpose
set -- --quiet --delay-ms 0 --per-host 1 --max-pages 5000 $LAB_UNI_OPTS \
    $LAB_UNI_SEEDS
WORKERS=3
# One value of one query, or the error's first line.
val() { pg_sql "$1" 2>&1 | head -n 1; }
# GET requests for pages (not robots.txt) in the server log after line $1:
# "requests refetches".
gets() {
	tail -n +$(($1 + 1)) "$SERVER_LOG" |
	    awk '$3 == "GET" && $4 != "/robots.txt" { n[$2 " " $4]++; all++ }
		END { for (u in n) if (n[u] > 1) s += n[u] - 1; print all + 0, s + 0 }'
}

# The reference: one process on SQLite.
"$NEARCRAWL" crawl -d "$E2E_TMP/one.db" "$@" 2>"$E2E_TMP/one.err"
eq "SQLite crawl exits 0" "$?" 0
one_pages=$(q "$E2E_TMP/one.db" 'SELECT count(*) FROM pages')
"$NEARCRAWL" eval -d "$E2E_TMP/one.db" --groups "$LABELS" >"$E2E_TMP/one.eval" 2>&1
one=$(tail -n 1 "$E2E_TMP/one.eval")
echo "     SQLite, 1 process: pages=$one_pages $one"
eq "SQLite crawl reaches every labelled group" \
    "$(echo "$one" | tr ' ' '\n' | sed -n 's/^coverage=//p')" 1.000
mark=$(wc -l <"$SERVER_LOG")
one_gets=$(gets 0)
eq "SQLite crawl fetches no URL twice" "${one_gets#* }" 0

# Three processes on PostgreSQL, released at the same moment.
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
e2e_watchdog 45 $pids
w=0
for pid in $pids; do
	w=$((w + 1))
	wait "$pid"
	rc=$?
	eq "PostgreSQL process $w exits 0" "$rc" 0
	[ "$rc" -eq 0 ] || sed -n '1,5s/^/     /p' "$E2E_TMP/pg$w.err"
done
e2e_watchdog_off
ok "the processes finished within 45 s" test ! -e "$E2E_TMP/timed-out"

pg_pages=$(val 'SELECT count(*) FROM pages')
eq "as many pages as the SQLite crawl" "$pg_pages" "$one_pages"
"$NEARCRAWL" eval -d "$PG_URI" --groups "$LABELS" >"$E2E_TMP/pg.eval" 2>&1
pg=$(tail -n 1 "$E2E_TMP/pg.eval")
echo "     PostgreSQL, $WORKERS processes: pages=$pg_pages $pg"
for m in precision recall coverage; do
	a=$(echo "$one" | tr ' ' '\n' | sed -n "s/^$m=//p")
	b=$(echo "$pg" | tr ' ' '\n' | sed -n "s/^$m=//p")
	ok "$m ${b:-missing} within 0.01 of SQLite's ${a:-missing}" awk -v a="$a" \
	    -v b="$b" 'BEGIN { d = a - b; exit !(a != "" && b != "" && d <= 0.01 && d >= -0.01) }'
done

# Each page asked for once over all processes (robots.txt is fetched by
# each process that crawls a host).
pg_gets=$(gets "$mark")
eq "no URL fetched twice" "${pg_gets#* }" 0
eq "as many requests as the SQLite crawl" "${pg_gets% *}" "${one_gets% *}"
eq "every process judged pages" \
    "$(val "SELECT count(DISTINCT worker) FROM pages
        WHERE verdict IN ('unique', 'exact', 'near')")" $WORKERS
pg_sql 'SELECT worker, count(*) FROM pages GROUP BY worker ORDER BY worker' \
    2>/dev/null | sed 's/^/     worker|pages: /'
eq "seq is 1..N without gaps or repeats" \
    "$(val 'SELECT min(seq) = 1 AND max(seq) = count(*) AND
        count(DISTINCT seq) = count(*) FROM pages')" t
eq "no URL stored twice" \
    "$(val 'SELECT count(*) - count(DISTINCT url) FROM pages')" 0
e2e_finish
