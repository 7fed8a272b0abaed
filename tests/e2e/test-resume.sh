#!/bin/sh
# A crawl stopped by --max-pages and resumed ends with the same verdicts as
# one uninterrupted crawl: frontier, fingerprints and seq carry over.
. tests/e2e/lib.sh

e2e_start_server tests/fixtures/sites
H=www.lab.test
R="--resolve $H:$PORT:127.0.0.1"
SEED="http://$H:$PORT/"
counts() {
	q "$1" "SELECT verdict || '=' || count(*) FROM pages GROUP BY verdict ORDER BY verdict" | tr '\n' ' '
}
"$NEARCRAWL" crawl -d "$E2E_TMP/whole.db" --quiet --delay-ms 0 $R "$SEED" 2>/dev/null
eq "uninterrupted crawl exits 0" "$?" 0
whole_requests=$(wc -l <"$SERVER_LOG")
for limit in 50 200 400; do
	"$NEARCRAWL" crawl -d "$E2E_TMP/parts.db" --quiet --delay-ms 0 \
	    --max-pages $limit $R "$SEED" 2>/dev/null
	eq "part up to $limit exits 3 (work left)" "$?" 3
	eq "part up to $limit stopped there" \
	    "$(q "$E2E_TMP/parts.db" 'SELECT count(*) FROM pages')" $limit
done
# Three URLs left in flight, as by a crawl killed between a take and its
# page: the resume queues them again and says how many.
q "$E2E_TMP/parts.db" "UPDATE frontier SET state = 1 WHERE id IN
    (SELECT id FROM frontier WHERE state = 0 ORDER BY id LIMIT 3)"
# The limit is stored with the crawl: the last part lifts it.
"$NEARCRAWL" crawl -d "$E2E_TMP/parts.db" --delay-ms 0 --max-pages 0 \
    $R 2>"$E2E_TMP/err"
eq "last part exits 0" "$?" 0
ok "last part says it queued the 3 URLs in flight again" \
    grep -q "^nearcrawl: resuming .*, 3 URLs in flight queued again\$" "$E2E_TMP/err"
eq "same verdict counts" "$(counts "$E2E_TMP/parts.db")" "$(counts "$E2E_TMP/whole.db")"
eq "same URLs" \
    "$(q "$E2E_TMP/parts.db" 'SELECT url FROM pages ORDER BY url' | md5sum)" \
    "$(q "$E2E_TMP/whole.db" 'SELECT url FROM pages ORDER BY url' | md5sum)"
eq "seq continues without gaps" \
    "$(q "$E2E_TMP/parts.db" 'SELECT max(seq) = count(*) AND min(seq) = 1 FROM pages')" 1
eq "no URL fetched twice" \
    "$(tail -n +$((whole_requests + 1)) "$SERVER_LOG" | awk '{ print $4 }' |
        sort | uniq -d | wc -l | tr -d ' ')" 0
eq "integrity" "$(q "$E2E_TMP/parts.db" 'PRAGMA integrity_check')" ok
e2e_finish
