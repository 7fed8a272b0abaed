#!/bin/sh
# `nearcrawl serve`: the web view of a crawl of the labelled fixture site
# and of www.inject.test (a site whose titles and text are markup), on
# SQLite and on PostgreSQL. Every page answers with what it should show,
# search with copies folded too; requests it cannot serve get a 4xx; everything from the web stays text;
# the database is not changed by a byte; a crawl writes the same database
# while the view reads it; a short load leaves no error; SIGTERM stops it.
. tests/e2e/lib.sh

e2e_start_server tests/fixtures/sites
R="--resolve www.lab.test:$PORT:127.0.0.1"
R="$R --resolve www.inject.test:$PORT:127.0.0.1"
R="$R --resolve www.small.test:$PORT:127.0.0.1"
LAB=http://www.lab.test:$PORT/
INJ=http://www.inject.test:$PORT/
DB=$E2E_TMP/lab.db
# shellcheck disable=SC2086 # options are split on purpose
# The crawl stops short (exit 3), to be resumed while the view reads.
"$NEARCRAWL" crawl -d "$DB" --quiet --delay-ms 0 --warc "$E2E_TMP/warc" \
    --max-pages 400 $R "$LAB" "$INJ" 2>"$E2E_TMP/err"
eq "crawl with --warc stops at --max-pages" "$?" 3

SV_PID=""
# serve_start DB [OPTIONS]: start the view on a free port; sets SV (its
# base URL) and SV_PID. The port is read from its first line.
serve_start() {
	_db=$1
	shift
	serve_up "$NEARCRAWL" "$_db" "$E2E_TMP" "$@"
	SV_PID=$SERVE_PID
	SV=$SERVE_URL
	ok "serve starts and says where" test -n "$SV"
}

serve_stop() {
	kill -TERM "$SV_PID" 2>/dev/null
	wait "$SV_PID"
	_rc=$?
	SV_PID=""
	return $_rc
}

# get PATH: the body into $E2E_TMP/body, the status printed.
get() {
	curl -s -o "$E2E_TMP/body" -w '%{http_code}' "$SV$1"
}

# status METHOD PATH: the status of a request.
status() {
	curl -s -o /dev/null -w '%{http_code}' -X "$1" "$SV$2"
}

md5_before=$(md5sum <"$DB")
dump_before=$(sqlite3 "$DB" .dump | md5sum)
serve_start "$DB"

# The overview: the live counts.
pages=$(q "$DB" 'SELECT count(*) FROM pages')
eq "overview answers 200" "$(get /)" 200
ok "overview shows the page count ($pages)" \
    grep -q "<div id=\"n-pages\">$pages<span>" "$E2E_TMP/body"

# Pages by verdict.
eq "pages answers 200" "$(get '/pages?verdict=near')" 200
near=$(q "$DB" "SELECT count(*) FROM pages WHERE verdict = 'near'")
shown=$(grep -c '<span class="v v-near">near</span>' "$E2E_TMP/body")
eq "the near pages listed ($near, 200 a page at most)" "$shown" \
    "$(awk -v n="$near" 'BEGIN { print (n < 200 ? n : 200) }')"
eq "and no other verdict" \
    "$(grep -c 'class="v v-\(unique\|exact\)"' "$E2E_TMP/body")" 0

# The inject site's pages, by their URLs.
id_of() {
	q "$DB" "SELECT id FROM pages WHERE url = '$INJ$1'"
}
HOME_ID=$(id_of '')
ART=$(id_of article.html)
PRINT=$(id_of article-print.html)
eq "the print view is a near copy of the article" \
    "$(q "$DB" "SELECT verdict FROM pages WHERE id = $PRINT")" near

# A cluster: every member, with verdict, method and percentage.
orig=$(q "$DB" 'SELECT original_id FROM duplicates GROUP BY original_id
    ORDER BY count(DISTINCT page_id) DESC LIMIT 1')
members=$(q "$DB" "SELECT count(DISTINCT page_id) FROM duplicates
    WHERE original_id = $orig")
eq "the clusters page answers 200" "$(get /clusters)" 200
ok "it links the largest cluster" grep -q "href=\"/cluster/$orig\"" \
    "$E2E_TMP/body"
eq "a cluster answers 200" "$(get "/cluster/$orig")" 200
eq "every member listed ($members, and the original)" \
    "$(grep -c '^<tr><td class="n">' "$E2E_TMP/body")" \
    "$(awk -v n="$members" 'BEGIN { print (n < 200 ? n : 200) }')"
ok "the count is said" grep -q "<p id=\"count\">$members duplicate page" \
    "$E2E_TMP/body"
ok "members carry a method and a percentage" grep -q -E \
    '(md5|simhash|ssdeep|minhash|tdw) [0-9]+\.[0-9] %' "$E2E_TMP/body"
ok "and their fetch time" grep -q -E \
    '<td>20[0-9][0-9]-[0-9][0-9]-[0-9][0-9] [0-9:]{8}</td>' "$E2E_TMP/body"

# A page view: the print view beside its article, from the WARC files.
eq "the page view answers 200" "$(get "/page/$PRINT")" 200
ok "its original is named" grep -q "<a href=\"/page/$ART\">" \
    "$E2E_TMP/body"
ok "the text comes from the archive" grep -q 'archived in the crawl' \
    "$E2E_TMP/body"
ok "the changed word is marked" grep -q '<mark>fortnight</mark>' \
    "$E2E_TMP/body"
ok "the added line's words are marked" grep -q '<mark>Printed</mark>' \
    "$E2E_TMP/body"
eq "nothing else is marked (6 new words, and the legend's mark)" \
    "$(grep -o '<mark>' "$E2E_TMP/body" | wc -l)" 7
ok "the figures say it is near" grep -q '<b id="holds">near</b>' \
    "$E2E_TMP/body"
ok "the new words are counted" grep -q \
    '<li id="new"><b>6</b> new words' "$E2E_TMP/body"
eq "the article view lists the print view as a copy" \
    "$(get "/page/$ART" && grep -c "<p id=\"copies\">1 page repeat" \
    "$E2E_TMP/body")" "2001"
ok "and the links it queued" grep -q "href=\"/page/$PRINT\"" \
    "$E2E_TMP/body"

# Hosts, back-off, robots.txt as fetched.
eq "hosts answers 200" "$(get /hosts)" 200
eq "a row per host" "$(grep -c 'href="/host?name=' "$E2E_TMP/body")" \
    "$(q "$DB" 'SELECT count(DISTINCT host) FROM pages')"
eq "a host answers 200" "$(get '/host?name=www.lab.test')" 200
robots_status=$(q "$DB" "SELECT status FROM robots
    WHERE origin LIKE 'http://www.lab.test:%'")
ok "its robots.txt fetch is shown (status $robots_status)" grep -q \
    "<p>status $robots_status" "$E2E_TMP/body"

# The report: made apart, then its files.
i=0
while [ "$(get /report/)" = 200 ] && ! grep -q 'id="summary"' \
    "$E2E_TMP/body" && [ $i -lt 100 ]; do
	sleep 0.2
	i=$((i + 1))
done
ok "the report's index.html is served" grep -q '<table id="summary">' \
    "$E2E_TMP/body"
eq "its growth plot is served" "$(get /report/growth.svg)" 200
ok "as SVG" grep -q '<svg' "$E2E_TMP/body"
eq "the overview shows the report's summary" \
    "$(get / && grep -c '<pre id="summary">' "$E2E_TMP/body")" "2001"
ok "and its plots" grep -q '<img src="/report/growth.svg"' "$E2E_TMP/body"

# Requests it cannot serve: a clean 4xx each.
eq "unknown path: 404" "$(status GET /nope)" 404
eq "page 0: 404" "$(status GET /page/0)" 404
eq "page not a number: 404" "$(status GET /page/abc)" 404
eq "no such page: 404" "$(status GET /page/99999999)" 404
eq "no such cluster: 404" "$(status GET /cluster/99999999)" 404
eq "a host without a name: 400" "$(status GET /host)" 400
eq "an unknown host: 404" "$(status GET '/host?name=nowhere.test')" 404
eq "a bad verdict: 400" "$(status GET '/pages?verdict=maybe')" 400
eq "a bad seq: 400" "$(status GET '/pages?after=-1')" 400
eq "a report file that is not one: 404" \
    "$(status GET /report/evil.sh)" 404
eq "a report path out of its folder: 404" \
    "$(status GET '/report/..%2f..%2fetc%2fpasswd')" 404
eq "a NUL in the path: 400" "$(status GET '/page%00/1')" 400
eq "POST /: 405" "$(status POST /)" 405
eq "DELETE a page: 405" "$(status DELETE "/page/$ART")" 405
eq "PUT: 405" "$(status PUT /pages)" 405
eq "GET of the fetch action: 405" "$(status GET "/page/$ART/fetch")" 405
long=$(awk 'BEGIN { while (n++ < 5000) printf "a" }')
eq "a 5000-byte target: 414" "$(status GET "/pages?x=$long")" 414
eq "another Host (DNS rebinding): 400" "$(curl -s -o /dev/null \
    -w '%{http_code}' -H 'Host: evil.example' "$SV/")" 400
eq "localhost is this machine: 200" "$(curl -s -o /dev/null \
    -w '%{http_code}' -H 'Host: localhost' "$SV/")" 200
eq "/report without its slash: 301" "$(status GET /report)" 301
eq "HEAD: 200" "$(curl -s -o /dev/null -w '%{http_code}' -I "$SV/")" 200
ok "pages say that no script may run" sh -c \
    "curl -s -D - -o /dev/null '$SV/' | grep -qi \"^content-security-policy: default-src 'none'\""

# Escaping: titles, URLs and text of the inject site stay text.
for p in / /pages "/pages?host=www.inject.test" /clusters \
    "/cluster/$ART" "/page/$HOME_ID" "/page/$ART" "/page/$PRINT" \
    /hosts "/host?name=www.inject.test"; do
	get "$p" >/dev/null
	cat "$E2E_TMP/body" >>"$E2E_TMP/all"
done
eq "no <script> element on any page of the view" \
    "$(grep -c -i '<script' "$E2E_TMP/all")" 0
ok "the markup title is shown as text" grep -q \
    '&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quotes&quot; &#39;too&#39;' \
    "$E2E_TMP/all"
ok "markup in a text is shown as text" grep -q \
    '&lt;img src=x onerror=alert(2)&gt;' "$E2E_TMP/all"
ok "a URL whose query is markup is shown as text" grep -q \
    'q?x=%22%3E%3Cscript%3Ealert(6)%3C/script%3E' "$E2E_TMP/all"
eq "no element of a page's text is written raw" \
    "$(grep -c -i '<img src=x\|<b>copy\|<textarea\| onmouseover="' \
    "$E2E_TMP/all")" 0

# A short load: no error, no non-2xx answer.
if command -v wrk >/dev/null 2>&1; then
	wrk -t2 -c16 -d2s "$SV/page/$PRINT" >"$E2E_TMP/wrk" 2>&1
	ok "wrk ran" grep -q 'requests in' "$E2E_TMP/wrk"
	eq "no socket error under load" \
	    "$(grep -c 'Socket errors' "$E2E_TMP/wrk")" 0
	eq "no non-2xx answer under load" \
	    "$(grep -c 'Non-2xx' "$E2E_TMP/wrk")" 0
else
	eq "wrk is installed (scripts/make/install-deps.sh)" no yes
fi

# Read-only: the database is the same, byte for byte.
eq "the database file is unchanged" "$(md5sum <"$DB")" "$md5_before"
eq "its data is unchanged" "$(sqlite3 "$DB" .dump | md5sum)" \
    "$dump_before"

# A crawl writes the same database while the view reads it: the resume.
# shellcheck disable=SC2086
"$NEARCRAWL" crawl -d "$DB" --quiet --delay-ms 10 --max-pages 0 $R \
    2>"$E2E_TMP/err2" &
crawl=$!
bad=0
n=0
while kill -0 "$crawl" 2>/dev/null && [ $n -lt 200 ]; do
	[ "$(get /)" = 200 ] || bad=$((bad + 1))
	[ "$(get "/page/$PRINT")" = 200 ] || bad=$((bad + 1))
	n=$((n + 1))
done
wait "$crawl"
eq "the crawl beside the view exits 0" "$?" 0
eq "every request during the crawl answered 200 ($n rounds)" "$bad" 0
after=$(q "$DB" 'SELECT count(*) FROM pages')
ok "the crawl added pages ($pages -> $after)" test "$after" -gt "$pages"
get / >/dev/null
ok "the overview shows them" grep -q "<div id=\"n-pages\">$after<span>" \
    "$E2E_TMP/body"

# Search, once the crawl is whole (it indexed each page as it stored it):
# results with duplicates folded, the omitted pages on request.
eq "search answers 200" "$(get '/search?q=calendar')" 200
ok "it finds results" grep -q '<div class="hit"' "$E2E_TMP/body"
ok "their snippets mark the matched word" grep -q -i \
    '<mark>calendar</mark>' "$E2E_TMP/body"
folded=$(sed -n 's|.*>\([0-9]*\) similar pages* omitted</a>.*|\1|p' \
    "$E2E_TMP/body" | head -n 1)
ok "copies are folded under a result ($folded omitted)" \
    test "${folded:-0}" -gt 0
eq "all=1 lists them" "$(get '/search?q=calendar&all=1')" 200
ok "every omitted page is listed" test \
    "$(grep -c '<li class="member">' "$E2E_TMP/body")" -ge "${folded:-1}"
eq "search without a query: 200" "$(status GET /search)" 200
eq "a malformed query: 400" "$(status GET '/search?q=%22open')" 400
eq "a bad k: 400" "$(status GET '/search?q=calendar&k=99')" 400
get '/search?q=%3Cscript%3Ealert(9)%3C%2Fscript%3E' >/dev/null
eq "a query of markup is echoed as text" \
    "$(grep -c -i '<script' "$E2E_TMP/body")" 0
get '/search?q=alert' >/dev/null
eq "no <script> element in the results" \
    "$(grep -c -i '<script' "$E2E_TMP/body")" 0
ok "snippets of markup stay text" grep -q 'onerror=<mark>alert</mark>' \
    "$E2E_TMP/body"


serve_stop
eq "SIGTERM: serve exits 0" "$?" 0
ok "it says it stopped" grep -q 'serve stopped' "$E2E_TMP/serve.log"
eq "its temporary report directory is gone" \
    "$(ls -A "$E2E_TMP/svtmp")" ""

# Without an archive: the stored text, else a fetch on request.
ST=$E2E_TMP/stored.db
# shellcheck disable=SC2086
"$NEARCRAWL" crawl -d "$ST" --quiet --delay-ms 0 --store-text $R "$INJ" \
    2>/dev/null
eq "crawl with --store-text exits 0" "$?" 0
NT=$E2E_TMP/bare.db
# shellcheck disable=SC2086
"$NEARCRAWL" crawl -d "$NT" --quiet --delay-ms 0 $R "$INJ" 2>/dev/null
eq "crawl without text exits 0" "$?" 0
serve_start "$ST"
p=$(q "$ST" "SELECT id FROM pages WHERE url = '${INJ}article-print.html'")
eq "stored text: the page view answers 200" "$(get "/page/$p")" 200
ok "it reads the stored text" grep -q 'the body text the crawl stored' \
    "$E2E_TMP/body"
ok "and marks the changed word" grep -q '<mark>fortnight</mark>' \
    "$E2E_TMP/body"
serve_stop
serve_start "$NT"
p=$(q "$NT" "SELECT id FROM pages WHERE url = '${INJ}article-print.html'")
eq "no text: the page view answers 200" "$(get "/page/$p")" 200
ok "it offers to fetch" grep -q '<button id="fetch">' "$E2E_TMP/body"
before=$(grep -c "article-print" "$SERVER_LOG")
cp "$SERVER_LOG" "$SERVER_LOG.before"
get "/page/$p" >/dev/null
eq "and fetches nothing by itself" "$(grep -c "article-print" \
    "$SERVER_LOG")" "$before"
eq "the fetch answers 200" "$(curl -s -o "$E2E_TMP/body" -w '%{http_code}' \
    -X POST "$SV/page/$p/fetch")" 200
ok "with the page fetched now" grep -q 'fetched from its URL just now' \
    "$E2E_TMP/body"
eq "fetched once, with its original" "$(grep -c "article" "$SERVER_LOG")" \
    "$(($(grep -c "article" "$SERVER_LOG.before") + 2))"
ok "and the changed word marked" grep -q '<mark>fortnight</mark>' \
    "$E2E_TMP/body"
serve_stop

# A dedup database: its pages read back from the WARC files it read.
DD=$E2E_TMP/dedup.db
"$NEARCRAWL" dedup -d "$DD" --quiet "$E2E_TMP"/warc/*.warc.gz 2>/dev/null
eq "nearcrawl dedup of the crawl's archive exits 0" "$?" 0
serve_start "$DD"
p=$(q "$DD" "SELECT id FROM pages WHERE url = '${INJ}article-print.html'")
eq "dedup database: the page view answers 200" "$(get "/page/$p")" 200
ok "it reads the archive dedup read" grep -q 'archived in the crawl' \
    "$E2E_TMP/body"
ok "and marks the changed word" grep -q '<mark>fortnight</mark>' \
    "$E2E_TMP/body"
eq "dedup database: search answers 200" "$(get '/search?q=calendar')" 200
serve_stop

# Bad usage and a database that is not one.
"$NEARCRAWL" serve >/dev/null 2>"$E2E_TMP/err"
eq "serve without -d exits 2" "$?" 2
ok "and says how to get help" grep -q 'nearcrawl serve --help' \
    "$E2E_TMP/err"
"$NEARCRAWL" serve -d "$E2E_TMP/none.db" --port 0 2>"$E2E_TMP/err"
eq "serve of a missing database exits 2" "$?" 2
"$NEARCRAWL" serve --help >"$E2E_TMP/out"
eq "serve --help exits 0" "$?" 0
ok "and prints its usage" grep -q 'usage: nearcrawl serve' "$E2E_TMP/out"
ok "nearcrawl help lists serve" sh -c "'$NEARCRAWL' help | grep -q '^  serve '"
ok "so does the man page, with serve's options" sh -c \
    "'$NEARCRAWL' man | grep -q 'remake the report'"
ok "the completion offers serve's options" bash -c \
    ". completion/nearcrawl.bash; COMP_WORDS=('$NEARCRAWL' serve --ref);
    COMP_CWORD=2; _nearcrawl; [ \"\${COMPREPLY[*]}\" = --refresh ]"

# PostgreSQL: the same view of the same crawl.
e2e_start_pg
# shellcheck disable=SC2086
"$NEARCRAWL" crawl -d "$PG_URI" --quiet --delay-ms 0 --warc \
    "$E2E_TMP/pgwarc" $R "$LAB" "$INJ" 2>"$E2E_TMP/err"
eq "crawl into PostgreSQL exits 0" "$?" 0
serve_start "$PG_URI"
pgq() {
	psql -X -q -A -t "$PG_URI" -c "$1"
}
pgpages=$(pgq 'SELECT count(*) FROM pages')
eq "PostgreSQL: overview answers 200" "$(get /)" 200
ok "PostgreSQL: it shows the page count ($pgpages)" \
    grep -q "<div id=\"n-pages\">$pgpages<span>" "$E2E_TMP/body"
p=$(pgq "SELECT id FROM pages WHERE url = '${INJ}article-print.html'")
eq "PostgreSQL: the page view answers 200" "$(get "/page/$p")" 200
ok "PostgreSQL: the changed word is marked" grep -q \
    '<mark>fortnight</mark>' "$E2E_TMP/body"
o=$(pgq "SELECT original_id FROM duplicates WHERE page_id = $p LIMIT 1")
eq "PostgreSQL: its cluster answers 200" "$(get "/cluster/$o")" 200
eq "PostgreSQL: hosts answer 200" "$(get /hosts)" 200
eq "PostgreSQL: a host answers 200" "$(get '/host?name=www.lab.test')" 200
ok "PostgreSQL: with its robots.txt" grep -q '<h2>robots.txt of' \
    "$E2E_TMP/body"
eq "PostgreSQL: near pages answer 200" "$(get '/pages?verdict=near')" 200
eq "PostgreSQL: search answers 200" "$(get '/search?q=calendar')" 200
ok "PostgreSQL: it finds results" grep -q '<div class="hit"' "$E2E_TMP/body"
ok "PostgreSQL: and folds copies" grep -q 'similar pages* omitted' \
    "$E2E_TMP/body"
eq "PostgreSQL: no such page: 404" "$(status GET /page/99999999)" 404
get "/page/$(pgq "SELECT id FROM pages WHERE url = '$INJ'")" >/dev/null
ok "PostgreSQL: the markup title is shown as text" grep -q \
    '&lt;script&gt;alert(1)&lt;/script&gt;' "$E2E_TMP/body"
serve_stop
eq "PostgreSQL: SIGTERM: serve exits 0" "$?" 0
e2e_finish
