#!/bin/sh
# A crawl killed with SIGKILL again and again, at pseudo-random moments, and
# resumed each time with the same command ends like one uninterrupted crawl:
# same URLs, same verdict counts, seq without gaps, the full-text index
# holding exactly the judged pages, nothing fetched twice but the pages of
# the open transaction and the pages in flight (fetching,
# or fetched and waiting for a worker thread).
. tests/e2e/lib.sh

e2e_start_server tests/fixtures/sites
H=www.lab.test
SEED="http://$H:$PORT/"
WHOLE="$E2E_TMP/whole.db"
PARTS="$E2E_TMP/parts.db"
BATCH=8
IN_FLIGHT=2         # --concurrency: pages fetching or being parsed
MIN_KILLS=20
MAX_ROUNDS=60
SEED_RNG=${KILL_SEED:-20240607}

# exec: in the background, $! must be nearcrawl itself, not a subshell.
crawl() {
	exec "$NEARCRAWL" crawl -d "$1" --quiet --delay-ms 0 \
	    --concurrency $IN_FLIGHT --batch-pages $BATCH --resolve "$H:$PORT:127.0.0.1" "$SEED"
}
counts() {
	q "$1" "SELECT verdict || '=' || count(*) FROM pages GROUP BY verdict
	    ORDER BY verdict" | tr '\n' ' '
}
now() { date +%s.%N; }

# 1. The reference: one uninterrupted crawl, timed.
t0=$(now)
(crawl "$WHOLE") 2>"$E2E_TMP/whole.err"
eq "uninterrupted crawl exits 0" "$?" 0
T=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }')
whole_pages=$(q "$WHOLE" 'SELECT count(*) FROM pages')
eq "uninterrupted crawl reaches the whole site" "$whole_pages" 624
whole_lines=$(wc -l <"$SERVER_LOG")

# 2. The same crawl into parts.db, killed until a run ends by itself.
# Delays come from an LCG (deterministic seed) and are scaled by T, the
# uninterrupted crawl's time: the shortest is T/40 (about 0.05 s for the
# ASan build; a run then stores at most ~1/40 of the site), so the plain
# build too gets MIN_KILLS kills in before the crawl ends. Until then a
# delay adds at most the estimated time left split over the kills still
# wanted; after that delays spread over T/40 .. T and the crawl finishes.
rng=$SEED_RNG
rand() { # sets r: 0 <= r < 1
	rng=$(((rng * 1103515245 + 12345) % 2147483648))
	r=$(awk -v x="$rng" 'BEGIN { printf "%.6f", x / 2147483648 }')
}
kills=0 runs=0 finished=0 at_min=- bad_exit=0 robots_allowed=0 delays=""
while [ $runs -lt $MAX_ROUNDS ]; do
	have=$(q "$PARTS" 'SELECT count(*) FROM pages' 2>/dev/null)
	cached=$(q "$PARTS" 'SELECT count(*) FROM robots' 2>/dev/null)
	[ "${cached:-0}" -gt 0 ] || robots_allowed=$((robots_allowed + 1))
	rand
	if [ $kills -lt $MIN_KILLS ]; then
		delay=$(awk -v r="$r" -v T="$T" -v have="${have:-0}" \
		    -v all="$whole_pages" -v left=$((MIN_KILLS - kills)) 'BEGIN {
			cap = T * (all - have) / all / (left + 2)
			printf "%.3f", T / 40 + r * cap }')
	else
		delay=$(awk -v r="$r" -v T="$T" \
		    'BEGIN { printf "%.3f", T / 40 + r * (T - T / 40) }')
	fi
	crawl "$PARTS" 2>"$E2E_TMP/run.err" &
	pid=$!
	runs=$((runs + 1))
	sleep "$delay"
	kill -9 $pid 2>/dev/null
	wait $pid 2>/dev/null
	rc=$?
	if [ $rc -eq 137 ]; then
		kills=$((kills + 1))
		delays="$delays $delay"
		[ $kills -eq $MIN_KILLS ] &&
		    at_min=$(q "$PARTS" 'SELECT count(*) FROM pages')
	elif [ $rc -eq 0 ]; then
		finished=1
		break
	else
		bad_exit=$((bad_exit + 1))
		echo "    run $runs exited $rc:"
		sed 's/^/    /' "$E2E_TMP/run.err"
	fi
done
# Responses to killed clients are logged when the server notices.
sleep 0.2

eq "every resumed run exits 0 or is killed" $bad_exit 0
eq "a run finished by itself within $MAX_ROUNDS rounds" $finished 1
ok "at least $MIN_KILLS kills" test $kills -ge $MIN_KILLS
eq "nothing left queued" \
    "$(q "$PARTS" 'SELECT count(*) FROM frontier WHERE state <> 2')" 0

# 3. Compare with the uninterrupted crawl.
eq "same verdict counts" "$(counts "$PARTS")" "$(counts "$WHOLE")"
eq "same URLs" \
    "$(q "$PARTS" 'SELECT url FROM pages ORDER BY url' | md5sum)" \
    "$(q "$WHOLE" 'SELECT url FROM pages ORDER BY url' | md5sum)"
eq "no URL stored twice" \
    "$(q "$PARTS" 'SELECT count(*) - count(DISTINCT url) FROM pages')" 0
eq "integrity" "$(q "$PARTS" 'PRAGMA integrity_check')" ok
# The full-text index (its own file, written by its own thread): exactly
# the judged pages, whatever moment each kill fell on.
eq "the index holds exactly the judged pages" \
    "$(q "$PARTS" "ATTACH '$PARTS-search' AS s; SELECT (SELECT count(*)
        FROM s.search_text) || ' ' || (SELECT count(*) FROM pages p WHERE
        verdict IN ('unique', 'exact', 'near') AND EXISTS (SELECT 1 FROM
        s.search_text t WHERE t.rowid = p.id))")" \
    "$(q "$PARTS" "SELECT count(*) || ' ' || count(*) FROM pages WHERE
        verdict IN ('unique', 'exact', 'near')")"
eq "no frontier entry left in flight" \
    "$(q "$PARTS" 'SELECT count(*) FROM frontier WHERE state = 1')" 0
eq "seq is 1..N without gaps or repeats" \
    "$(q "$PARTS" 'SELECT min(seq) = 1 AND max(seq) = count(*) AND
        count(DISTINCT seq) = count(*) FROM pages')" 1
eq "every original was fetched before its duplicate" \
    "$(q "$PARTS" 'SELECT count(*) FROM duplicates d
        JOIN pages p ON p.id = d.page_id JOIN pages o ON o.id = d.original_id
        WHERE o.seq >= p.seq')" 0
eq "every duplicate page has its duplicates rows" \
    "$(q "$PARTS" "SELECT count(*) FROM pages WHERE verdict IN
        ('exact', 'near') AND id NOT IN (SELECT page_id FROM duplicates)")" 0
eq "no duplicates row without its page" \
    "$(q "$PARTS" 'SELECT count(*) FROM duplicates WHERE page_id NOT IN
        (SELECT id FROM pages) OR original_id NOT IN (SELECT id FROM pages)')" 0
# The calendar's rows are left out: its last months, one each way, are
# fetched back to back, and the one judged second finds one earlier month
# more.
not_calendar="SELECT count(*) FROM duplicates d JOIN pages p ON p.id = d.page_id
    WHERE p.url NOT LIKE '%/__nc/calendar/%'"
eq "same number of duplicates rows" \
    "$(q "$PARTS" "$not_calendar")" "$(q "$WHOLE" "$not_calendar")"

# Requests of the killed and resumed runs, in time order.
tail -n +$((whole_lines + 1)) "$SERVER_LOG" | sort -n -k1,1 >"$E2E_TMP/parts.log"
robots=$(awk '$4 == "/robots.txt"' "$E2E_TMP/parts.log" | wc -l | tr -d ' ')
refetched=$(awk '$4 != "/robots.txt" { n[$4]++ }
    END { for (u in n) if (n[u] > 1) s += n[u] - 1; print s + 0 }' \
    "$E2E_TMP/parts.log")
bound=$((kills * (BATCH + IN_FLIGHT)))
ok "refetches ($refetched) <= kills x $((BATCH + IN_FLIGHT)) ($bound)" \
    test "$refetched" -le $bound
ok "robots.txt ($robots) only by runs that had none cached ($robots_allowed)" \
    test "$robots" -ge 1 -a "$robots" -le $robots_allowed
# A page once committed is never asked for again: no request for a stored
# URL after the run that stored it (its fetched_at; the log time is when
# the response ended, just before).
q "$PARTS" "SELECT substr(url, length('http://$H:$PORT') + 1), fetched_at
    FROM pages" | tr '|' ' ' >"$E2E_TMP/stored"
eq "no committed page fetched again" \
    "$(awk 'NR == FNR { at[$1] = $2; next }
        ($4 in at) && $1 > at[$4] + 0.02 { n++ } END { print n + 0 }' \
        "$E2E_TMP/stored" "$E2E_TMP/parts.log")" 0

# 4. Figures.
echo "    full crawl ${T}s; kills $kills, runs $runs, refetched $refetched" \
    "(bound $bound), robots.txt requests $robots;" \
    "$at_min pages stored after kill $MIN_KILLS"
echo "    kill delays (s):$delays"
echo "    parts: $(counts "$PARTS")"
echo "    whole: $(counts "$WHOLE")"
e2e_finish
