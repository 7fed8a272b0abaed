#!/bin/sh
# robots.txt as RFC 9309 wants it, checked from the server's log: asked
# first, rules obeyed, 4xx allows all, 5xx blocks the host; Retry-After
# obeyed; per-host page cap.
. tests/e2e/lib.sh

e2e_start_server tests/fixtures/sites
R=""
for h in www.robots.test www.blocked.test www.norobots.test www.small.test; do
	R="$R --resolve $h:$PORT:127.0.0.1"
done
DB="$E2E_TMP/r.db"
# shellcheck disable=SC2086
"$NEARCRAWL" crawl -d "$DB" --quiet --delay-ms 50 --retry-base-ms 200 \
    --max-retries 2 $R "http://www.robots.test:$PORT/" \
    "http://www.blocked.test:$PORT/" "http://www.norobots.test:$PORT/" \
    2>"$E2E_TMP/err"
eq "crawl exits 0" "$?" 0
asked() { grep -c " $1 GET $2 " "$SERVER_LOG"; }
eq "robots.txt asked once per host" "$(asked www.robots.test /robots.txt)" 1
eq "robots.txt asked before anything else" \
    "$(sort -n "$SERVER_LOG" | awk '$2 == "www.robots.test" { print $4; exit }')" /robots.txt
eq "forbidden page never asked" "$(asked www.robots.test /private/secret.html)" 0
eq "forbidden page recorded as skipped" \
    "$(q "$DB" "SELECT verdict || ': ' || reason FROM pages WHERE url LIKE '%secret.html'")" \
    "skipped: disallowed by robots.txt"
eq "allow line wins" "$(asked www.robots.test /private/open.html)" 1
eq "public page crawled" "$(asked www.robots.test /public.html)" 1
eq "404 robots.txt allows all" "$(asked www.norobots.test /a.html)" 1
eq "503 robots.txt: nothing else asked" \
    "$(grep ' www.blocked.test ' "$SERVER_LOG" | grep -vc ' /robots.txt ')" 0
eq "503 robots.txt retried, then the host given up" \
    "$(asked www.blocked.test /robots.txt)" 3
eq "the reason is recorded" \
    "$(q "$DB" "SELECT gave_up FROM hosts WHERE host = 'www.blocked.test'")" \
    "robots.txt answers HTTP 503"
eq "its seed stays queued" \
    "$(q "$DB" "SELECT count(*) FROM frontier WHERE host = 'www.blocked.test' AND state = 0")" 1

# Retry-After on 503: the URL is asked again no sooner, then recorded.
DB2="$E2E_TMP/retry.db"
: >"$E2E_TMP/mark"
before=$(wc -l <"$SERVER_LOG")
# shellcheck disable=SC2086
"$NEARCRAWL" crawl -d "$DB2" --quiet --delay-ms 0 --max-retries 2 $R \
    "http://www.small.test:$PORT/__nc/retry/1" 2>/dev/null
eq "retry crawl: its one page an error, so it exits 1" "$?" 1
tail -n +$((before + 1)) "$SERVER_LOG" | grep '/__nc/retry/1' | sort -n \
    >"$E2E_TMP/retries"
eq "asked three times (two retries)" "$(wc -l <"$E2E_TMP/retries" | tr -d ' ')" 3
eq "Retry-After: 1 obeyed between tries" \
    "$(awk 'NR > 1 && ($1 - last) < 0.995 { bad++ } { last = $1 } END { print bad + 0 }' "$E2E_TMP/retries")" 0
eq "then recorded as an error" \
    "$(q "$DB2" "SELECT verdict || ': ' || reason FROM pages")" "error: HTTP status 503"

# A Retry-After still running when the crawl stops holds after a resume.
DB5="$E2E_TMP/hold.db"
before=$(wc -l <"$SERVER_LOG")
# shellcheck disable=SC2086
"$NEARCRAWL" crawl -d "$DB5" --quiet --delay-ms 0 --max-retries 5 $R \
    "http://www.small.test:$PORT/__nc/retry/3" 2>/dev/null &
pid=$!
i=0
while [ "$i" -lt 100 ] && [ "$(tail -n +$((before + 1)) "$SERVER_LOG" | grep -c '/__nc/retry/3')" -lt 1 ]; do
	i=$((i + 1)); sleep 0.05
done
kill -INT "$pid"
wait "$pid"
eq "stopped during the Retry-After: exits 3 (work left)" "$?" 3
# shellcheck disable=SC2086
"$NEARCRAWL" crawl -d "$DB5" --quiet --delay-ms 0 --max-retries 1 $R \
    2>/dev/null
eq "resumed crawl: its one page an error, so it exits 1" "$?" 1
tail -n +$((before + 1)) "$SERVER_LOG" | grep '/__nc/retry/3' | sort -n \
    >"$E2E_TMP/held"
eq "asked twice over the two runs" "$(wc -l <"$E2E_TMP/held" | tr -d ' ')" 2
eq "the resumed run waited out Retry-After: 3" \
    "$(awk 'NR == 2 { print ($1 - last >= 2.99) } { last = $1 }' "$E2E_TMP/held")" 1

# Per-host page cap: the rest stays queued for a later run.
DB3="$E2E_TMP/cap.db"
# shellcheck disable=SC2086
"$NEARCRAWL" crawl -d "$DB3" --quiet --delay-ms 0 --max-pages-per-host 3 $R \
    "http://www.small.test:$PORT/" 2>/dev/null
eq "cap crawl exits 0" "$?" 0
eq "three pages from the host" "$(q "$DB3" 'SELECT count(*) FROM pages')" 3
ok "the rest stays queued" test "$(q "$DB3" 'SELECT count(*) FROM frontier WHERE state = 0')" -gt 0

# A host that refuses connections from the start is given up at once, with
# the reason (the back-off is for hosts that answered before).
DB4="$E2E_TMP/dead.db"
"$NEARCRAWL" crawl -d "$DB4" --quiet --delay-ms 0 --retry-base-ms 50 \
    --max-retries 10 --host-max-failures 3 \
    --resolve "www.dead.test:1:127.0.0.1" "http://www.dead.test:1/" \
    2>/dev/null
eq "dead host crawl: nothing fetched, so it exits 1" "$?" 1
case $(q "$DB4" "SELECT gave_up FROM hosts WHERE host = 'www.dead.test'") in
"no answer on first contact: "*) r=given-up ;;
*) r=$(q "$DB4" "SELECT gave_up FROM hosts") ;;
esac
eq "dead host, never answered, given up on first contact" "$r" given-up
e2e_finish
