#!/bin/sh
# --stop-when-saturated W:R ends a crawl whose tail is all duplicates,
# without losing the unique pages found before; bad values are refused.
. tests/e2e/lib.sh

e2e_start_server tests/fixtures/sites
H=www.lab.test
R="--resolve $H:$PORT:127.0.0.1"
"$NEARCRAWL" crawl -d "$E2E_TMP/full.db" --quiet --delay-ms 0 $R \
    "http://$H:$PORT/" 2>/dev/null
"$NEARCRAWL" crawl -d "$E2E_TMP/sat.db" --delay-ms 0 \
    --stop-when-saturated 40:0.05 $R "http://$H:$PORT/" 2>"$E2E_TMP/err" </dev/null
eq "saturated crawl exits 3 (stopped with work left)" "$?" 3
ok "says it saturated" grep -q "saturated: [0-9]* of the last 40 pages were unique" "$E2E_TMP/err"
ok "summary says saturated" grep -q "nearcrawl: saturated:" "$E2E_TMP/err"
full=$(q "$E2E_TMP/full.db" 'SELECT count(*) FROM pages')
sat=$(q "$E2E_TMP/sat.db" 'SELECT count(*) FROM pages')
echo "    full crawl $full pages, saturated crawl $sat pages"
ok "stopped early" test "$sat" -lt "$full"
eq "no unique page lost" \
    "$(q "$E2E_TMP/sat.db" "SELECT count(*) FROM pages WHERE verdict = 'unique'")" \
    "$(q "$E2E_TMP/full.db" "SELECT count(*) FROM pages WHERE verdict = 'unique'")"
# The last 40 judged pages hold fewer than 2 unique ones.
eq "the window really was saturated" \
    "$(q "$E2E_TMP/sat.db" "SELECT sum(verdict = 'unique') < 2 FROM (SELECT verdict FROM pages WHERE verdict IN ('unique','exact','near') ORDER BY seq DESC LIMIT 40)")" 1
"$NEARCRAWL" crawl -d "$E2E_TMP/x.db" --stop-when-saturated 40 $R \
    "http://$H:$PORT/" >/dev/null 2>&1
eq "malformed W:R is bad usage" "$?" 2
e2e_finish
