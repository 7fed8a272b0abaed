#!/bin/sh
# End to end on a small hand-made site: every verdict class, both tables,
# link following (unique pages and near copies, not exact copies), scope,
# nofollow, bad pages.
. tests/e2e/lib.sh

e2e_start_server tests/fixtures/sites
DB="$E2E_TMP/small.db"
H=www.small.test
"$NEARCRAWL" crawl -d "$DB" --quiet --delay-ms 20 \
    --resolve "$H:$PORT:127.0.0.1" "http://$H:$PORT/" 2>"$E2E_TMP/err"
eq "crawl exits 0" "$?" 0

verdict() {
	q "$DB" "SELECT verdict FROM pages WHERE url = 'http://$H:$PORT$1'"
}
eq "pages in total" "$(q "$DB" 'SELECT count(*) FROM pages')" 15
eq "unique pages" "$(q "$DB" "SELECT count(*) FROM pages WHERE verdict='unique'")" 7
eq "exact pages" "$(q "$DB" "SELECT count(*) FROM pages WHERE verdict='exact'")" 2
eq "near pages" "$(q "$DB" "SELECT count(*) FROM pages WHERE verdict='near'")" 1
eq "seed is unique" "$(verdict /)" unique
eq "copy with other markup is exact" "$(verdict /seminars-copy.html)" exact
eq "print view is near" "$(verdict /seminars-print.html)" near
eq "tracking URL is exact" "$(verdict '/docs/programme.html?utm_source=docs')" exact
eq "404 is an error" "$(verdict /missing.html)" error
eq "404 reason" "$(q "$DB" "SELECT reason FROM pages WHERE url LIKE '%missing.html'")" "HTTP status 404"
eq "500 is an error" "$(verdict /__nc/status/500)" error
eq "PDF is skipped" "$(verdict /report.pdf)" skipped
eq "empty body is skipped" "$(verdict /empty.html)" skipped
eq "redirect row" "$(verdict '/__nc/redirect/301?to=/moved.html')" redirect
eq "redirect target recorded" \
    "$(q "$DB" "SELECT location FROM pages WHERE verdict='redirect'")" \
    "http://$H:$PORT/moved.html"
eq "redirect target crawled as a link" "$(verdict /moved.html)" unique
eq "latin-1 page decoded to UTF-8" \
    "$(q "$DB" "SELECT title FROM pages WHERE url LIKE '%latin1.html'")" "Café"
eq "fragment dropped from URL" "$(verdict /seminars-print.html)" near
eq "seq is 1..N" "$(q "$DB" 'SELECT min(seq)||","||max(seq)||","||count(DISTINCT seq) FROM pages')" "1,15,15"

# Duplicates table: exact rows point at the earlier original, 100 %.
eq "exact duplicate row" \
    "$(q "$DB" "SELECT o.url, d.method, d.percentage FROM duplicates d JOIN pages p ON p.id=d.page_id JOIN pages o ON o.id=d.original_id WHERE p.url LIKE '%seminars-copy.html'")" \
    "http://$H:$PORT/seminars.html|md5|100.0"
eq "near duplicate rows point at the original" \
    "$(q "$DB" "SELECT DISTINCT o.url FROM duplicates d JOIN pages p ON p.id=d.page_id JOIN pages o ON o.id=d.original_id WHERE p.url LIKE '%seminars-print.html'")" \
    "http://$H:$PORT/seminars.html"
eq "originals come earlier" \
    "$(q "$DB" 'SELECT count(*) FROM duplicates d JOIN pages p ON p.id=d.page_id JOIN pages o ON o.id=d.original_id WHERE o.seq >= p.seq')" 0
eq "near percentages in range" \
    "$(q "$DB" "SELECT count(*) FROM duplicates WHERE method <> 'md5' AND (percentage <= 0 OR percentage > 100)")" 0

# Never asked: nofollow, links of exact copies, other hosts, other
# schemes. A near copy's links are followed (--dup-hops, default 2): the
# page only the print view links to is fetched, and it is new content.
eq "nofollow link not fetched" "$(grep -c 'secret.html' "$SERVER_LOG")" 0
eq "links of exact copies not followed" \
    "$(grep -c 'hidden-behind-copy' "$SERVER_LOG")" 0
eq "links of the near copy followed" \
    "$(grep -c 'hidden-behind-print' "$SERVER_LOG") $(verdict /docs/hidden-behind-print.html)" \
    "1 unique"
eq "other host not fetched" "$(grep -c 'elsewhere' "$SERVER_LOG")" 0
eq "every page request is a page row" "$(grep -vc ' /robots.txt ' "$SERVER_LOG")" 15
eq "robots.txt asked once, first" "$(sort -n "$SERVER_LOG" | awk 'NR == 1 { print $4 } ' )$(grep -c ' /robots.txt ' "$SERVER_LOG")" /robots.txt1
eq "frontier drained" "$(q "$DB" 'SELECT count(*) FROM frontier WHERE state <> 2')" 0

# Re-running on the finished database fetches nothing more.
"$NEARCRAWL" crawl -d "$DB" --quiet --resolve "$H:$PORT:127.0.0.1" 2>/dev/null
eq "resume of a finished crawl exits 0" "$?" 0
eq "resume fetched nothing, robots.txt cached" "$(wc -l <"$SERVER_LOG" | tr -d ' ')" 16

e2e_finish
