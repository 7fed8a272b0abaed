#!/bin/sh
# The link rule for duplicates (docs/dedup.md, "Links of duplicates"): a
# wrong near verdict must not cut off what only that page links to, and
# a run of duplicates that yields nothing new must still end.
#
# www.pages.test (tests/fixtures/README.md): /news/ and page-2 .. page-8,
# each listing five articles no other page links to, each linking only its
# neighbours. 50 pages, 40 articles. The extractor once reduced such pages
# to their heading and called them near copies; it keeps their item titles
# now, and the confirmation step would refuse the verdict anyway. So the
# wrong verdict the rule must survive is made on purpose: $WRONG is a near
# rule (TDW at 58 %, no confirmation) that calls every listing a near copy
# of the first. The trap crawls run with the defaults.
. tests/e2e/lib.sh

e2e_start_server tests/fixtures/sites
H=www.pages.test
B="http://$H:$PORT"
R="--resolve $H:$PORT:127.0.0.1"
WRONG="--methods md5,tdw --tdw-threshold 58 --max-novel-percent 100"

# crawl NAME [OPTIONS...] [SEED]: crawl into NAME.db, stderr in NAME.err;
# the crawl must end with status 0. Without a URL among the options the
# seed is the site's root.
crawl() {
	name=$1
	shift
	case "$*" in
	*/__nc/*) ;;
	*http://*) set -- $WRONG "$@" ;;
	*) set -- $WRONG "$@" "$B/" ;;
	esac
	"$NEARCRAWL" crawl -d "$E2E_TMP/$name.db" --quiet --delay-ms 0 $R \
	    "$@" </dev/null 2>"$E2E_TMP/$name.err"
	rc=$?
	# A run cut by --max-pages stops with work left: 3.
	want=0
	case "$* " in *"--max-pages "*) want=3 ;; esac
	eq "$name: crawl exits $want" "$rc" "$want"
}

# count NAME [WHERE]: pages rows of NAME.db.
count() {
	q "$E2E_TMP/$1.db" "SELECT count(*) FROM pages${2:+ WHERE $2}"
}
articles() {
	count "$1" "url LIKE '%/news/a__.html'"
}
listings() {
	count "$1" "url LIKE '%/news/' OR url LIKE '%/news/page-_.html'"
}

# 1. With $WRONG the listings are near copies: the case this rule is for;
# with the defaults they are not.
ok "page 3 of the news is a near copy of page 1 to compare (\$WRONG)" sh -c \
    "'$NEARCRAWL' compare $WRONG tests/fixtures/sites/$H/news/index.html \
    tests/fixtures/sites/$H/news/page-3.html | grep -q '^verdict: near'"
ok "... and unique with the defaults" sh -c \
    "'$NEARCRAWL' compare tests/fixtures/sites/$H/news/index.html \
    tests/fixtures/sites/$H/news/page-3.html | grep -q '^verdict: unique'"

# 2. The old rule, links of unique pages only: page 2 is judged near and
# the 35 articles behind pages 2..8 are lost.
crawl old --dup-hops 0
eq "--dup-hops 0: 9 pages, 5 of 40 articles" \
    "$(count old) $(articles old)" "9 5"
eq "--dup-hops 0: page 2 reached, judged near; its links not followed" \
    "$(q "$E2E_TMP/old.db" "SELECT verdict FROM pages WHERE url = '$B/news/page-2.html'") $(listings old)" \
    "near 2"

# 3. The default: every listing and every article, though page 8 is six
# near copies away from page 1: each listing led to unique articles, so
# each counts as new content (fruitful) and the run starts again.
lines=$(wc -l <"$SERVER_LOG")
crawl default
eq "default: all 50 pages, all 40 articles" \
    "$(count default) $(articles default)" "50 40"
eq "default: the 7 listings after the first judged near all the same" \
    "$(count default "verdict = 'near' AND url LIKE '%/news/page-_.html'")" 7
eq "default: each near listing marked as having led to new content" \
    "$(q "$E2E_TMP/default.db" "SELECT count(*) FROM fruitful JOIN pages ON pages.id = page_id WHERE url LIKE '%/news/page-_.html'")" 7
eq "default: the budget is recorded with the crawl" \
    "$(q "$E2E_TMP/default.db" "SELECT value FROM meta WHERE key = 'dup_hops'")" 2
eq "default: no URL fetched twice" \
    "$(tail -n +$((lines + 1)) "$SERVER_LOG" | awk '{ print $4 }' | sort |
        uniq -d | wc -l | tr -d ' ')" 0

# The same from an INI file, and --follow-duplicates still follows every
# duplicate's links whatever the budget.
printf '[crawl]\ndup_hops = 0\n' >"$E2E_TMP/zero.ini"
crawl ini -c "$E2E_TMP/zero.ini"
eq "[crawl] dup_hops = 0: as --dup-hops 0" "$(count ini)" 9
crawl follow --follow-duplicates --dup-hops 0
eq "--follow-duplicates --dup-hops 0: every page" "$(articles follow)" 40

# 4. Traps still dry up. The endless calendar yields nothing new: a
# budget of N follows links N months past the last unique month and
# fetches N + 1, then the crawl ends by itself.
# past NAME: the most months any calendar page is from a unique one.
past() {
	q "$E2E_TMP/$1.db" "WITH m AS (SELECT verdict,
	    CAST(substr(url, -7, 4) AS INTEGER) * 12 +
	    CAST(substr(url, -2) AS INTEGER) AS k FROM pages
	    WHERE url LIKE '%/__nc/calendar/%')
	    SELECT max((SELECT min(abs(a.k - u.k)) FROM m u
	    WHERE u.verdict = 'unique')) FROM m a"
}
for n in 0 1 2; do
	crawl "calendar-$n" --dup-hops $n "$B/__nc/calendar/2026/11"
	eq "calendar, --dup-hops $n: $((n + 1)) months past a unique one, then stops" \
	    "$(past "calendar-$n") $(q "$E2E_TMP/calendar-$n.db" "SELECT count(*) FROM frontier WHERE state = 0")" \
	    "$((n + 1)) 0"
done
ok "calendar, default: a bounded crawl" \
    test "$(count calendar-2 "url LIKE '%calendar%'")" -le 15
# Exact copies' links are not followed: every session-id copy of a guide
# links to more new session ids, as many as before the rule.
crawl session "$B/__nc/session/0"
eq "session ids, default: 129 pages as with links of unique pages only" \
    "$(count session) $(count session "verdict = 'exact'")" "129 121"

# 5. The count is the frontier's: a crawl stopped part-way keeps it.
crawl part --max-pages 14
eq "stopped at 14 pages" "$(count part)" 14
ok "stopped with URLs queued behind duplicates" test \
    "$(q "$E2E_TMP/part.db" "SELECT count(*) FROM frontier WHERE state = 0 AND dup_hops > 0")" -gt 0
"$NEARCRAWL" crawl -d "$E2E_TMP/part.db" --quiet --delay-ms 0 --max-pages 0 \
    $R </dev/null 2>"$E2E_TMP/part2.err"
eq "resumed: exits 0" "$?" 0
eq "resumed: all 50 pages, all 40 articles" \
    "$(count part) $(articles part)" "50 40"

# ... and so does a crawl killed with SIGKILL while URLs wait behind
# duplicates; the counts it had stay as they were.
K="$E2E_TMP/kill.db"
"$NEARCRAWL" crawl -d "$K" --quiet --delay-ms 40 --batch-pages 1 $R $WRONG "$B/" \
    </dev/null 2>"$E2E_TMP/kill.err" &
pid=$!
i=0
while [ $i -lt 200 ]; do
	n=$(q "$K" "SELECT count(*) FROM frontier WHERE state = 0 AND dup_hops > 0" 2>/dev/null)
	[ "${n:-0}" -gt 0 ] && break
	sleep 0.05
	i=$((i + 1))
done
kill -9 $pid 2>/dev/null
wait $pid 2>/dev/null
eq "killed with SIGKILL" "$?" 137
before=$(q "$K" "SELECT url || ' ' || dup_hops FROM frontier WHERE state = 0 AND dup_hops > 0 ORDER BY url")
ok "killed with URLs queued behind duplicates" test -n "$before"
ok "killed part-way" test "$(count kill)" -lt 50
"$NEARCRAWL" crawl -d "$K" --quiet --delay-ms 0 $R </dev/null \
    2>"$E2E_TMP/kill2.err"
eq "after SIGKILL, resumed: exits 0" "$?" 0
eq "after SIGKILL, resumed: all 50 pages, all 40 articles" \
    "$(q "$K" 'SELECT count(*) FROM pages') $(q "$K" "SELECT count(*) FROM pages WHERE url LIKE '%/news/a__.html'")" \
    "50 40"
eq "after SIGKILL, resumed: the counts queued before are kept" \
    "$(echo "$before" | while read -r u h; do
	q "$K" "SELECT url || ' ' || dup_hops FROM frontier WHERE url = '$u'"
    done)" "$before"

# 6. A database from before the rule (no frontier.dup_hops, no fruitful
# table) resumes: what it had queued counts as linked from new content.
crawl older --max-pages 6
q "$E2E_TMP/older.db" "BEGIN; ALTER TABLE frontier RENAME TO newer;
    CREATE TABLE frontier (id INTEGER PRIMARY KEY, url TEXT NOT NULL UNIQUE,
    host TEXT NOT NULL, depth INTEGER NOT NULL,
    state INTEGER NOT NULL DEFAULT 0, not_before REAL NOT NULL DEFAULT 0,
    tries INTEGER NOT NULL DEFAULT 0, parent_id INTEGER);
    INSERT INTO frontier SELECT id, url, host, depth, state, not_before,
    tries, parent_id FROM newer; DROP TABLE newer;
    CREATE INDEX frontier_take ON frontier (host, state);
    CREATE INDEX frontier_queued ON frontier (state, host, not_before);
    DROP TABLE fruitful; COMMIT"
ok "older database made" test -z \
    "$(q "$E2E_TMP/older.db" "SELECT 1 FROM pragma_table_info('frontier') WHERE name = 'dup_hops'")"
"$NEARCRAWL" crawl -d "$E2E_TMP/older.db" --quiet --delay-ms 0 --max-pages 0 \
    $R </dev/null 2>"$E2E_TMP/older2.err"
eq "older database resumed: exits 0" "$?" 0
eq "older database resumed: all 50 pages, all 40 articles" \
    "$(count older) $(articles older)" "50 40"
eq "older database resumed: the column is back" \
    "$(q "$E2E_TMP/older.db" "SELECT count(*) FROM pragma_table_info('frontier') WHERE name = 'dup_hops'")" 1
e2e_finish
