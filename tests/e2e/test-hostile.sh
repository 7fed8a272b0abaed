#!/bin/sh
# One crawl over a site whose ordinary pages link to every hostile server
# behaviour the test server plays (tests/fixtures/sites/*hostile.test), plus
# four hosts with hostile robots.txt files. The crawl must end by itself
# within a bound set by its timeouts, fetch every ordinary page, and leave
# for each hostile URL the row and the reason docs/robustness.md lists.
. tests/e2e/lib.sh

e2e_start_server tests/fixtures/sites

# Short limits, so the slow and silent cases end quickly. One connection
# per host (the default): the crawler parses a page on its event loop, and
# a 7 MB page with 100,000 links keeps it busy for seconds under the
# sanitizers; a second transfer of the same host in flight meanwhile would
# wait out its timeout for the crawler, not for the server.
TIMEOUT_MS=3000
LOW_SPEED_S=1
MAX_RETRIES=1
CAP=10485760
# Hang check, not a speed check: the slow drip and the silent page wait at
# most a timeout each, the silent robots.txt one per try; 30 s more covers
# everything else (10 MiB bodies, a 7 MB page) however slow the machine.
BOUND_S=$(((2 + MAX_RETRIES + 1) * TIMEOUT_MS / 1000 + 30))

H=www.hostile.test
U="http://$H:$PORT"
R="--resolve www.elsewhere.example:$PORT:127.0.0.1"
for h in $H robots-binary.hostile.test robots-big.hostile.test \
    robots-endless.hostile.test robots-silent.hostile.test; do
	R="$R --resolve $h:$PORT:127.0.0.1"
done
DB="$E2E_TMP/hostile.db"
started=$(date +%s)
# shellcheck disable=SC2086
"$NEARCRAWL" crawl -d "$DB" --quiet --delay-ms 0 --store-text \
    --timeout-ms $TIMEOUT_MS --connect-timeout-ms 1000 \
    --low-speed-bytes 100 --low-speed-secs $LOW_SPEED_S \
    --retry-base-ms 100 --max-retries $MAX_RETRIES \
    --max-body-bytes $CAP --max-links 5000 --allow-domain hostile.test $R \
    "$U/" "http://robots-binary.hostile.test:$PORT/" \
    "http://robots-big.hostile.test:$PORT/" \
    "http://robots-endless.hostile.test:$PORT/" \
    "http://robots-silent.hostile.test:$PORT/" 2>"$E2E_TMP/err"
eq "crawl exits 0" "$?" 0
took=$(($(date +%s) - started))
ok "crawl ended by itself within $BOUND_S s (took $took s)" \
    test "$took" -le "$BOUND_S"
ok "the server survived" kill -0 "$E2E_SERVER_PID"

# row URL: "verdict: reason" of the pages row of URL.
row() {
	q "$DB" "SELECT verdict || ': ' || coalesce(reason, '') FROM pages \
	    WHERE url = '$1'"
}
# like NAME URL PATTERN: URL's "verdict: reason" matches the LIKE pattern.
like() {
	eq "$1" "$(q "$DB" "SELECT count(*) FROM pages WHERE url = '$2' AND \
	    verdict || ': ' || coalesce(reason, '') LIKE '$3'")" 1
	[ "$(q "$DB" "SELECT count(*) FROM pages WHERE url = '$2'")" = 1 ] ||
	    echo "     (row: '$(row "$2")')"
}
asked() {
	grep -c " $1 GET $2 " "$SERVER_LOG"
}
col() {
	q "$DB" "SELECT $2 FROM pages WHERE url = '$1'"
}

# Every ordinary page is fetched and judged.
for u in "$U/" "$U/about.html" "$U/news.html" "$U/contact.html" \
    "$U/__nc/chain/0" \
    "http://robots-binary.hostile.test:$PORT/" \
    "http://robots-binary.hostile.test:$PORT/private/page.html" \
    "http://robots-big.hostile.test:$PORT/" \
    "http://robots-big.hostile.test:$PORT/late/page.html" \
    "http://robots-endless.hostile.test:$PORT/" \
    "http://robots-endless.hostile.test:$PORT/public.html"; do
	eq "ordinary page fetched: ${u#http://}" "$(col "$u" \
	    "verdict IN ('unique', 'exact', 'near')")" 1
done
eq "five redirects lead to their page" \
    "$(q "$DB" "SELECT count(*) FROM pages WHERE url LIKE '$U/__nc/chain/_' \
    AND verdict = 'redirect'")" 5

# Slow and silent: each ends at the low-speed limit.
like "slow drip: body too slow" "$U/__nc/slow/100?rate=1" \
    "error: body too slow: %"
like "never answers: no response in time" "$U/__nc/silent" \
    "error: no response in time: %"

# Too much: every cap holds.
like "endless body stopped at the cap" "$U/__nc/endless" \
    "error: body larger than $CAP bytes"
like "gzip bomb stopped at the cap after inflating" \
    "$U/__nc/gzip/1073741824" "error: body larger than $CAP bytes"
like "50 MB page refused on its Content-Length" "$U/__nc/big/52428800" \
    "error: body larger than $CAP bytes"
eq "... before reading any of it" "$(col "$U/__nc/big/52428800" body_bytes)" 0
like "50 MB page without a length stopped at the cap" \
    "$U/__nc/big/52428800?chunked=1" "error: body larger than $CAP bytes"
eq "no body kept over the cap" \
    "$(q "$DB" "SELECT count(*) FROM pages WHERE body_bytes > $CAP")" 0
like "400 kB of headers stopped at the header cap" "$U/__nc/headers/400000" \
    "error: headers larger than 262144 bytes"

# A page with 100,000 links is a page: judged, links cut at the cap.
L="$U/__nc/links/100000?base=http%3A%2F%2Fwww.elsewhere.example%2Fl%2F"
like "100,000 links: a page whose links are cut" "$L" \
    "unique: links cut at 5000"
eq "... at 5000" "$(col "$L" links)" 5000
# Deep nesting parses whole: the text after 100,000 levels is there.
N="$U/__nc/nested/100000"
like "100,000 nested elements: a page" "$N" "unique: "
# (Blocks are lines; read as spaces they are the text as it always was.)
eq "... read to the bottom and back" \
    "$(col "$N" "replace(text, char(10), ' ')")" "Before the nesting. \
At the bottom of 100000 nested elements. After the nesting."

# Redirects: runs end, loops close, bad targets are never queued.
eq "endless redirect chain: 20 redirects" \
    "$(q "$DB" "SELECT count(*) FROM pages WHERE url LIKE '$U/__nc/loop/%' \
    AND verdict = 'redirect'")" 20
like "... then the 21st is an error" "$U/__nc/loop/20" \
    "error: more than 20 redirects in a row"
eq "... and its target never asked" "$(asked $H /__nc/loop/21)" 0
like "chain of 50: the 21st redirect is an error" "$U/__nc/chain/30" \
    "error: more than 20 redirects in a row"
eq "... the rest of the chain never asked" "$(asked $H /__nc/chain/29)" 0
like "two pages redirecting to each other: the first a redirect" \
    "$U/loop-a.html" "redirect: "
like "... the second closes the loop" "$U/loop-b.html" "error: redirect loop"
eq "... each asked once" "$(asked $H /loop-a.html) $(asked $H /loop-b.html)" \
    "1 1"
like "redirect out of scope: not followed" \
    "$U/__nc/redirect/302?to=http%3A%2F%2Fwww.elsewhere.example%2F" \
    "redirect: target not followed: host out of scope"
eq "... its target recorded" "$(col \
    "$U/__nc/redirect/302?to=http%3A%2F%2Fwww.elsewhere.example%2F" location)" \
    "http://www.elsewhere.example/"
like "redirect to ftp: not followed" \
    "$U/__nc/redirect/301?to=ftp%3A%2F%2Fftp.hostile.test%2Ffile.txt" \
    "redirect: target not followed: not http(s)"
like "redirect to mailto: not followed" \
    "$U/__nc/redirect/302?to=mailto%3Awebmaster%40hostile.test" \
    "redirect: target not followed: not http(s)"
like "redirect to javascript: not followed" \
    "$U/__nc/redirect/302?to=javascript%3Aalert(1)" \
    "redirect: target not followed: not http(s)"
like "redirect to file: not followed" \
    "$U/__nc/redirect/302?to=file%3A%2F%2F%2Fetc%2Fpasswd" \
    "redirect: target not followed: not http(s)"
eq "no out-of-scope host ever asked" \
    "$(grep -c ' www.elsewhere.example ' "$SERVER_LOG")" 0
eq "no out-of-scope URL ever queued" "$(q "$DB" "SELECT count(*) FROM \
    frontier WHERE host NOT LIKE '%hostile.test'")" 0
eq "nothing but http(s) ever queued" "$(q "$DB" "SELECT count(*) FROM \
    frontier WHERE url NOT LIKE 'http://%' AND url NOT LIKE 'https://%'")" 0

# Broken bodies.
like "connection reset mid-body" "$U/__nc/reset/20000" \
    "error: connection reset: %"
like "chunked body without its last chunk" "$U/__nc/truncated/20000" \
    "error: chunked body cut short: %"
like "body shorter than its Content-Length" "$U/__nc/length/20000/5000" \
    "error: body shorter than its Content-Length: %"
# Nothing tells a body longer than declared from a page that ends there;
# the page is what the header says, and the extra bytes harm nothing.
like "body longer than its Content-Length: the declared part is a page" \
    "$U/__nc/length/5000/20000" "unique: "
eq "... of the declared length" "$(col "$U/__nc/length/5000/20000" \
    body_bytes)" 5000
like "binary labelled text/html" "$U/__nc/binary" \
    "error: binary body labelled as HTML"

# Charsets: every page decodes, as a browser would, to valid UTF-8.
C="$U/charset"
V="verdict || ' ' || charset || ' ' || title"
eq "unknown charset: the bytes decide (UTF-8)" \
    "$(col "$C/unknown.html" "$V")" \
    "unique utf-8 Café with an unknown charset"
eq "Latin-1 labelled UTF-8: the header wins, bad bytes become U+FFFD" \
    "$(col "$C/latin1-as-utf8.html" "$V")" \
    "unique utf-8 Caf� labelled UTF-8"
eq "UTF-8 labelled Latin-1: the header wins" \
    "$(col "$C/utf8-as-latin1.html" "$V")" \
    "unique windows-1252 CafÃ© labelled Latin-1"
eq "unknown meta charset: Windows-1252 is the last resort" \
    "$(col "$C/bad-meta.html" "$V")" \
    "unique windows-1252 Café with a meta charset nobody knows"
eq "ASCII labelled UTF-16: decoded as labelled, into text" \
    "$(col "$C/ascii-as-utf16.html" "verdict || ' ' || charset || ' ' || \
    (text_bytes > 0)")" "unique utf-16le 1"
ok "every stored title and text is valid UTF-8" sh -c \
    "sqlite3 '$DB' 'SELECT title, text FROM pages' | iconv -f UTF-8 -t UTF-8"

# robots.txt: binary, 5 MB, endless, silent.
RB="http://robots-binary.hostile.test:$PORT"
RG="http://robots-big.hostile.test:$PORT"
RE="http://robots-endless.hostile.test:$PORT"
robots_len() {
	q "$DB" "SELECT status || ' ' || length(body) FROM robots \
	    WHERE origin = '$1'"
}
eq "binary robots.txt asked once" \
    "$(asked robots-binary.hostile.test /robots.txt)" 1
eq "... holds no rules: the private page was fetched" \
    "$(asked robots-binary.hostile.test /private/page.html)" 1
eq "5 MB robots.txt asked once" "$(asked robots-big.hostile.test /robots.txt)" 1
eq "... its first 500 KiB kept" "$(robots_len "$RG")" "200 512000"
like "... its first rule obeyed" "$RG/private/page.html" \
    "skipped: disallowed by robots.txt"
eq "... the forbidden page never asked" \
    "$(asked robots-big.hostile.test /private/page.html)" 0
eq "... a rule past 500 KiB ignored" \
    "$(asked robots-big.hostile.test /late/page.html)" 1
eq "endless robots.txt asked once" \
    "$(asked robots-endless.hostile.test /robots.txt)" 1
eq "... its first 500 KiB kept" "$(robots_len "$RE")" "200 512000"
like "... its first rule obeyed" "$RE/private/page.html" \
    "skipped: disallowed by robots.txt"
eq "silent robots.txt asked once and retried $MAX_RETRIES time(s)" \
    "$(asked robots-silent.hostile.test /robots.txt)" $((MAX_RETRIES + 1))
eq "... nothing else asked of that host" \
    "$(grep ' robots-silent.hostile.test ' "$SERVER_LOG" |
    grep -vc ' /robots.txt ')" 0
eq "... the host given up, with the reason" \
    "$(q "$DB" "SELECT gave_up LIKE \
    'robots.txt unreachable: no response in time: %' \
    FROM hosts WHERE host = 'robots-silent.hostile.test'")" 1
eq "... its seed stays queued for a later run" \
    "$(q "$DB" "SELECT count(*) FROM frontier WHERE host = \
    'robots-silent.hostile.test' AND state = 0")" 1
e2e_finish
