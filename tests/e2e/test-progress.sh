#!/bin/sh
# What a user sees while a crawl runs and when it ends: on a terminal of 80
# columns the progress line fits, the pages, verdicts, rate and time kept;
# written to a file, each progress line carries the time of day; the
# closing lines lead with pages, verdicts, HTTP status classes and bytes,
# and the developers' figures (time per stage, index memory) come with -v.
. tests/e2e/lib.sh

e2e_start_server tests/fixtures/sites
H=www.lab.test
R="--resolve $H:$PORT:127.0.0.1"
U="http://$H:$PORT/"

# A terminal of 80 columns, under script(1).
script -qec "stty cols 80 rows 24; '$NEARCRAWL' crawl -d '$E2E_TMP/tty.db' \
    --delay-ms 200 --max-pages 12 $R $U" "$E2E_TMP/typescript" \
    >/dev/null 2>&1
tr '\r' '\n' <"$E2E_TMP/typescript" | sed 's/\x1b\[K//g' |
    grep ' pages (' >"$E2E_TMP/lines"
ok "on a terminal: progress lines shown" test -s "$E2E_TMP/lines"
eq "on a terminal of 80 columns: none wider than 79" \
    "$(awk 'length > 79' "$E2E_TMP/lines" | wc -l | tr -d ' ')" 0
ok "... the pages, the verdicts, the rate and the time kept" grep -q \
    '^[0-9]* pages ([0-9]* this run) | unique [0-9]*, exact [0-9]*, near [0-9]*, other [0-9]* | [0-9.]* pages/s, [0-9]* s' \
    "$E2E_TMP/lines"

# Not a terminal: a whole line every 5 s, the time of day first.
"$NEARCRAWL" crawl -d "$E2E_TMP/log.db" --delay-ms 700 --max-pages 9 $R "$U" \
    2>"$E2E_TMP/log.err"
eq "to a file: exits 3 (stopped at --max-pages)" "$?" 3
ok "to a file: each progress line has the date and time" grep -q \
    '^nearcrawl: 20[0-9][0-9]-[01][0-9]-[0-3][0-9] [0-2][0-9]:[0-5][0-9]:[0-5][0-9] [0-9]* pages (' \
    "$E2E_TMP/log.err"
ok "... and, being whole, the queue and the hosts" grep -q \
    ' | [0-9]* queued.* | \(hosts: \|waiting: \)' "$E2E_TMP/log.err"

# The closing lines.
ok "closing: how it ended, pages and verdicts" grep -q \
    '^nearcrawl: stopped at --max-pages: 9 pages fetched in [0-9.]* s (.*); database has 9 pages: unique [0-9]*, exact' \
    "$E2E_TMP/log.err"
ok "closing: HTTP status classes and bytes" grep -q \
    '^nearcrawl: this run: HTTP 2xx [0-9]*, 3xx [0-9]*, 4xx [0-9]*, 5xx [0-9]*, no answer [0-9]*; [0-9.]* MB downloaded$' \
    "$E2E_TMP/log.err"
ok "closing: no developers' figures without -v" sh -c \
    "! grep -q 'ms per page\|index bytes' '$E2E_TMP/log.err'"
"$NEARCRAWL" crawl -d "$E2E_TMP/v.db" -v --quiet --delay-ms 0 --max-pages 5 \
    $R "$U" 2>"$E2E_TMP/v.err"
ok "-v: time per stage" grep -q '^nearcrawl: ms per page: ' "$E2E_TMP/v.err"
ok "-v: index memory" grep -q '^nearcrawl: index bytes: ' "$E2E_TMP/v.err"
ok "--quiet: no progress line" sh -c \
    "! grep -q '^nearcrawl: [0-9-]* [0-9:]* [0-9]* pages (' '$E2E_TMP/v.err'"

e2e_finish
