#!/bin/sh
# Hostile and broken responses end as error rows with a reason; the crawl
# goes on and finishes.
. tests/e2e/lib.sh

e2e_start_server tests/fixtures/sites
DB="$E2E_TMP/bad.db"
H=www.bad.test
U="http://$H:$PORT"
"$NEARCRAWL" crawl -d "$DB" --quiet --delay-ms 0 --per-host 4 \
    --max-body-bytes 100000 --timeout-ms 1500 --low-speed-secs 0 \
    --retry-base-ms 100 \
    --max-pages 40 --resolve "$H:$PORT:127.0.0.1" \
    "$U/__nc/big/200000" "$U/__nc/gzip/50000000" "$U/__nc/slow/100?rate=1" \
    "$U/__nc/silent" "$U/__nc/endless" "$U/__nc/binary" "$U/__nc/loop/0" \
    "$U/__nc/headers/300000" "$U/__nc/big/5000" "$U/__nc/status/503" \
    "$U/__nc/gzip/20000000" \
    2>"$E2E_TMP/err"
eq "crawl exits 0" "$?" 0
reason() { q "$DB" "SELECT verdict || ': ' || coalesce(reason, '') FROM pages WHERE url = '$U$1'"; }
eq "body over the cap" "$(reason /__nc/big/200000)" "error: body larger than 100000 bytes"
eq "declared length over the cap" "$(reason /__nc/gzip/50000000)" "error: body larger than 100000 bytes"
eq "gzip bomb stopped at the cap after decompression" \
    "$(reason /__nc/gzip/20000000)" "error: body larger than 100000 bytes"
eq "gzip bomb's compressed size was under the cap" \
    "$(awk '$4 ~ /gzip\/20000000/ { print ($6 < 100000) }' "$SERVER_LOG")" 1
eq "endless body stopped at the cap" "$(reason /__nc/endless)" "error: body larger than 100000 bytes"
case $(reason '/__nc/slow/100?rate=1') in
"error: body not done in time: Operation timed out"*) r=timeout ;; *) r=$(reason '/__nc/slow/100?rate=1') ;;
esac
eq "slow drip times out" "$r" timeout
case $(reason /__nc/silent) in
"error: no response in time: Operation timed out"*) r=timeout ;; *) r=$(reason /__nc/silent) ;;
esac
eq "silent server times out" "$r" timeout
eq "huge headers stopped at the header cap" "$(reason /__nc/headers/300000)" \
    "error: headers larger than 262144 bytes"
eq "binary text/html is an error" "$(reason /__nc/binary)" \
    "error: binary body labelled as HTML"
eq "503 is an error" "$(reason /__nc/status/503)" "error: HTTP status 503"
eq "ordinary page crawled" "$(reason /__nc/big/5000)" "unique: "
eq "redirect loop followed for 20 redirects" \
    "$(q "$DB" "SELECT count(*) FROM pages WHERE verdict = 'redirect'")" 20
eq "then given up" "$(reason /__nc/loop/20)" \
    "error: more than 20 redirects in a row"
eq "every seed has a row" \
    "$(q "$DB" "SELECT count(*) FROM pages WHERE url NOT LIKE '%/loop/%'")" 10
ok "stored titles are valid UTF-8" sh -c \
    "sqlite3 '$DB' 'SELECT title FROM pages' | iconv -f UTF-8 -t UTF-8"
e2e_finish
