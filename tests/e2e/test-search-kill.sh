#!/bin/sh
# The full-text index of an SQLite crawl, in its file DB-search written by
# a thread of its own, across kill -9: after each kill the index holds
# every page the database committed (search finds the last one judged);
# entries of pages the database never committed -- a kill between the
# index's commit and the database's leaves them -- are deleted by the next
# writer open, before their ids are drawn again; and the resumed crawl
# ends with exactly the judged pages indexed, which `nearcrawl index`
# confirms. serve's search reads the index while the crawl writes it.
. tests/e2e/lib.sh

e2e_start_server tests/fixtures/sites
H=www.lab.test
SEED="http://$H:$PORT/"
DB="$E2E_TMP/kill.db"
KILLS=6

crawl() {
	exec "$NEARCRAWL" crawl -d "$DB" --quiet --delay-ms 0 --concurrency 2 \
	    --batch-pages 8 --resolve "$H:$PORT:127.0.0.1" "$SEED"
}
judged() {
	q "$DB" "SELECT count(*) FROM pages WHERE verdict IN
	    ('unique', 'exact', 'near')"
}
# Judged pages the index lacks, and entries of no judged page.
lacking() {
	q "$DB" "ATTACH '$DB-search' AS s; SELECT count(*) FROM pages p
	    WHERE verdict IN ('unique', 'exact', 'near') AND NOT EXISTS
	    (SELECT 1 FROM s.search_text t WHERE t.rowid = p.id)"
}
extra() {
	q "$DB" "ATTACH '$DB-search' AS s; SELECT count(*) FROM
	    s.search_text t WHERE NOT EXISTS (SELECT 1 FROM pages p
	    WHERE p.id = t.rowid AND verdict IN ('unique', 'exact', 'near'))"
}

# Short runs: the whole crawl takes about 1.5 s with the ASan build, and a
# run that ends by itself ends the kills.
kills=0 runs=0 bad=0 searched=0 delay=0.1
while [ $kills -lt $KILLS ] && [ $runs -lt 30 ]; do
	crawl 2>"$E2E_TMP/run.err" &
	pid=$!
	runs=$((runs + 1))
	sleep $delay
	kill -9 $pid 2>/dev/null
	wait $pid 2>/dev/null
	[ $? -eq 137 ] || break
	kills=$((kills + 1))
	n=$(judged)
	[ "$n" -gt 0 ] || { delay=0.3; continue; }
	# Every committed page is indexed; more entries may be there.
	[ "$(lacking)" = 0 ] || bad=$((bad + 1))
	# The last page judged: search finds it (the index file is read,
	# uncommitted entries and all, by a reader that never writes).
	last=$(q "$DB" "SELECT url FROM pages WHERE verdict IN
	    ('unique', 'exact', 'near') ORDER BY id DESC LIMIT 1")
	title=$(q "$DB" "SELECT replace(title, '\"', '') FROM pages WHERE
	    url = '$last'")
	if [ -n "$title" ] && "$NEARCRAWL" search -d "$DB" --all \
	    --limit 100 --top 10000 "title:\"$title\"" 2>/dev/null |
	    grep -qF "$last"; then
		searched=$((searched + 1))
	fi
done
ok "at least 3 kills in before the crawl ended ($kills)" test $kills -ge 3
eq "after each kill the index held every committed page" $bad 0
ok "and search found the last page judged ($searched times)" \
    test $searched -ge 1

# Entries of pages never committed, as a kill between the two commits
# leaves them, with a word no page has: the next open deletes them. The
# last kill may have left such entries already, past the last page: two
# more go past those.
before=$(extra)
top=$(q "$DB" "ATTACH '$DB-search' AS s; SELECT max((SELECT max(id) FROM
    pages), coalesce((SELECT max(rowid) FROM s.search_text), 0))")
q "$DB-search" "INSERT INTO search_text (rowid, title, body) VALUES
    ($top + 1, 'zyzzogeton', 'zyzzogeton'),
    ($top + 2, 'zyzzogeton', 'zyzzogeton')"
eq "entries of no page planted" "$(extra)" $((before + 2))
(crawl) 2>"$E2E_TMP/last.err"
eq "the resumed crawl ends by itself" "$?" 0
eq "it reaches the whole site" "$(q "$DB" "SELECT count(*) FROM pages")" 624
eq "no judged page lacks its entry" "$(lacking)" 0
eq "no entry without its judged page" "$(extra)" 0
eq "the planted word is found nowhere" "$("$NEARCRAWL" search -d "$DB" \
    zyzzogeton 2>/dev/null | grep -c http)" 0
"$NEARCRAWL" index -d "$DB" 2>"$E2E_TMP/ix.err"
eq "index has nothing to do" "$?:$(cat "$E2E_TMP/ix.err")" \
    "0:nearcrawl: index: $(judged) judged pages, $(judged) indexed, 0 to index"

# serve's search while a crawl writes the index: a new crawl of the site
# into another database, searched from the web view until it ends.
DB2="$E2E_TMP/live.db"
"$NEARCRAWL" crawl -d "$DB2" --quiet --delay-ms 0 --concurrency 1 \
    --per-host 1 --max-pages 5 --resolve "$H:$PORT:127.0.0.1" "$SEED" \
    2>/dev/null
eq "a first batch crawled (exit 3: --max-pages)" "$?" 3
serve_up "$NEARCRAWL" "$DB2" "$E2E_TMP"
spid=$SERVE_PID
SV=$SERVE_URL
ok "serve starts" test -n "$SV"
"$NEARCRAWL" crawl -d "$DB2" --quiet --delay-ms 20 --concurrency 1 \
    --per-host 1 --max-pages 150 --resolve "$H:$PORT:127.0.0.1" "$SEED" \
    2>/dev/null &
cpid=$!
fails=0 asked=0
while kill -0 $cpid 2>/dev/null; do
	code=$(curl -s -o "$E2E_TMP/s.html" -w '%{http_code}' \
	    "$SV/search?q=the")
	asked=$((asked + 1))
	[ "$code" = 200 ] || fails=$((fails + 1))
	sleep 0.1
done
wait $cpid
eq "the crawl beside serve ends at --max-pages (exit 3)" "$?" 3
ok "serve was asked while it ran ($asked)" test $asked -ge 2
eq "and answered every search" $fails 0
curl -s "$SV/search?q=the&all=1" >"$E2E_TMP/s.html"
ok "and finds pages the crawl added meanwhile" test \
    "$(grep -o "$H:$PORT/[^\"<]*" "$E2E_TMP/s.html" | sort -u | wc -l)" -gt 5
kill $spid
wait $spid 2>/dev/null

e2e_finish
