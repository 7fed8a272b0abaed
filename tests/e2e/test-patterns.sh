#!/bin/sh
# URL patterns (--accept-regex, --reject-regex, as wget2's): POSIX
# extended regular expressions matched anywhere in the normalised URL; a
# link is followed when it matches an accept pattern (or there is none)
# and no reject pattern. Seeds are fetched whatever they say. Stored with
# the crawl; a resume may add or change them, and the queued URLs they
# now exclude are settled as skipped, with the reason, and counted.
. tests/e2e/lib.sh

e2e_start_server tests/fixtures/sites
H=www.lab.test
R="--resolve $H:$PORT:127.0.0.1"
B="http://$H:$PORT"
crawl() {
	cdb=$1
	shift
	"$NEARCRAWL" crawl -d "$E2E_TMP/$cdb.db" --quiet --delay-ms 0 $R "$@" \
	    2>"$E2E_TMP/$cdb.err"
}
n() { q "$E2E_TMP/$1.db" "SELECT count(*) FROM pages WHERE $2"; }

crawl all "$B/"
eq "no patterns: exits 0" "$?" 0
ok "no patterns: print views fetched" test "$(n all "url LIKE '%/print/%'")" -gt 0

crawl rej --reject-regex '/(print|m)/' --reject-regex '[?&]utm_' "$B/"
eq "--reject-regex: exits 0" "$?" 0
eq "--reject-regex: no print view or mobile page fetched" \
    "$(n rej "url LIKE '%/print/%' OR url LIKE '%/m/%'")" 0
eq "--reject-regex: no utm_ URL" "$(n rej "url LIKE '%utm_%'")" 0
ok "--reject-regex: the rest fetched" test "$(n rej "url LIKE '%/news/%'")" -eq \
    "$(n all "url LIKE '%/news/%' AND url NOT LIKE '%utm_%'")"
ok "--reject-regex: the crawl says how many links it left out" grep -q \
    "^nearcrawl: --accept-regex/--reject-regex: [1-9][0-9]* links left out, 0 queued" \
    "$E2E_TMP/rej.err"
eq "--reject-regex: stored, one a line" "$(q "$E2E_TMP/rej.db" \
    "SELECT replace(value, char(10), ' ') FROM meta WHERE key = 'reject_regex'")" \
    "/(print|m)/ [?&]utm_"

# Accept: only the seed and the news.
crawl acc --accept-regex "^http://$H:[0-9]+/news/" "$B/"
eq "--accept-regex: exits 0" "$?" 0
eq "--accept-regex: the seed and news pages only" \
    "$(n acc "url <> '$B/' AND url NOT LIKE '$B/news/%'")" 0
ok "--accept-regex: news pages fetched" test "$(n acc "url LIKE '%/news/%'")" -gt 10

# A seed is fetched whatever the patterns say.
crawl seed --reject-regex 'lab' "$B/"
eq "a rejected seed is still fetched" "$(n seed "url = '$B/'")" 1
eq "... and nothing else" "$(n seed "1")" 1

# A resume may add a pattern: what is queued and now excluded is settled
# as skipped with the reason, and said.
crawl res --max-pages 5 "$B/"
eq "part: stopped with work left" "$?" 3
crawl res --reject-regex '/news/' --max-pages 0
eq "resume with a new --reject-regex: exits 0" "$?" 0
ok "... says it" grep -q "reject_regex\|reject-regex" "$E2E_TMP/res.err"
ok "... queued news pages dropped, counted" grep -q \
    "^nearcrawl: --accept-regex/--reject-regex: [0-9]* links left out, [1-9][0-9]* queued URLs dropped" \
    "$E2E_TMP/res.err"
eq "... settled as skipped with the reason" "$(n res "url LIKE '%/news/%'
    AND verdict <> 'skipped' AND seq > 5")" 0
ok "... the reason" test "$(n res "verdict = 'skipped' AND reason =
    'excluded by --accept-regex/--reject-regex'")" -gt 0
# A resume without it keeps the stored pattern.
"$NEARCRAWL" crawl -d "$E2E_TMP/res.db" --quiet $R 2>/dev/null
eq "a plain resume keeps it" "$(q "$E2E_TMP/res.db" \
    "SELECT value FROM meta WHERE key = 'reject_regex'")" "/news/"

# A pattern that does not compile: exit 2, named, nothing created.
crawl bad --reject-regex '(print' "$B/"
eq "a bad pattern exits 2" "$?" 2
ok "... named with the library's reason" grep -q \
    "^nearcrawl: --reject-regex: not a regular expression: " "$E2E_TMP/bad.err"
ok "... nothing created" test ! -e "$E2E_TMP/bad.db"
ok "--help lists both" sh -c "'$NEARCRAWL' crawl --help | grep -q -- '--accept-regex RE' &&
    '$NEARCRAWL' crawl --help | grep -q -- '--reject-regex RE'"

e2e_finish
