#!/bin/sh
# Every setting of a crawl is stored with it: `nearcrawl crawl -d DB`
# alone resumes with the User-Agent, the --resolve entries and the rest;
# a setting given again wins and is said; verdict settings must still
# match; --proxy is stored without credentials; --retry-given-up gives
# the hosts given up another chance.
. tests/e2e/lib.sh

e2e_start_server tests/fixtures/sites
H=www.small.test
SEED="http://$H:$PORT/"
UA="uni-study (mailto:a@b.example)"
UA_LOGGED="uni-study%20(mailto:a@b.example)"
DB="$E2E_TMP/s.db"

"$NEARCRAWL" crawl -d "$DB" --max-pages 3 --delay-ms 0 --user-agent "$UA" \
    --resolve "$H:$PORT:127.0.0.1" "$SEED" 2>"$E2E_TMP/first.err"
eq "first run: stopped at --max-pages, exits 3" "$?" 3
eq "first run stopped at 3 pages" "$(q "$DB" 'SELECT count(*) FROM pages')" 3
eq "user agent stored" "$(q "$DB" "SELECT value FROM meta WHERE key = 'user_agent'")" "$UA"
eq "resolve entry stored" "$(q "$DB" "SELECT value FROM meta WHERE key = 'resolve'")" \
    "$H:$PORT:127.0.0.1"
eq "--max-pages stored" \
    "$(q "$DB" "SELECT value FROM meta WHERE key = 'max_pages'")" 3
eq "per-run options not stored" \
    "$(q "$DB" "SELECT count(*) FROM meta WHERE key IN ('quiet', 'db', 'force_settings')")" 0
ok "the resume hint names the way past the limit" grep -q \
    "resume with: nearcrawl crawl -d .* --max-pages N (more than 3; 0 for no limit)" \
    "$E2E_TMP/first.err"
requests=$(wc -l <"$SERVER_LOG")

# The limit holds on a resume alone, and says so.
"$NEARCRAWL" crawl -d "$DB" 2>"$E2E_TMP/limit.err"
eq "resume alone at the limit: exits 3 (work left)" "$?" 3
eq "resume alone at the limit: nothing fetched" \
    "$(q "$DB" 'SELECT count(*) FROM pages')" 3
ok "resume alone at the limit: says why and how to go on" grep -q \
    "has 3 pages, the --max-pages limit: nothing to fetch; give a larger --max-pages, or --max-pages 0 for none" \
    "$E2E_TMP/limit.err"
eq "resume alone at the limit: no request" "$(wc -l <"$SERVER_LOG")" "$requests"

"$NEARCRAWL" crawl -d "$DB" --max-pages 0 2>"$E2E_TMP/resume.err"
eq "resume with the limit lifted exits 0" "$?" 0
eq "resume fetched the rest" \
    "$(q "$DB" 'SELECT count(*) > 3 FROM pages WHERE status = 200')" 1
eq "nothing left queued" "$(q "$DB" 'SELECT count(*) FROM frontier WHERE state = 0')" 0
eq "resume sent requests" "$(($(wc -l <"$SERVER_LOG") > requests))" 1
eq "every request (both runs) carried the agent" \
    "$(awk -v ua="$UA_LOGGED" '$NF != ua' "$SERVER_LOG" | wc -l | tr -d ' ')" 0
eq "no unknown host errors" \
    "$(q "$DB" "SELECT count(*) FROM pages WHERE reason LIKE '%unknown host%' OR reason LIKE '%resolve%'")" 0
ok "resume names the stored settings" grep -q \
    "with its stored settings: .*--user-agent uni-study (mailto:a@b.example)" \
    "$E2E_TMP/resume.err"
ok "resume: the lifted limit said" grep -qx \
    "nearcrawl: --max-pages 0 (was 3)" "$E2E_TMP/resume.err"
ok "resume: no other setting said changed" \
    sh -c "test \$(grep -c '(was' '$E2E_TMP/resume.err') = 1"
ok "resume: no warning about the default User-Agent" \
    sh -c "! grep -q 'please set --user-agent' '$E2E_TMP/resume.err'"

"$NEARCRAWL" crawl -d "$DB" --delay-ms 0 2>"$E2E_TMP/same.err"
eq "same value given again: exits 0" "$?" 0
ok "same value given again: no changed line" \
    sh -c "! grep -q '(was' '$E2E_TMP/same.err'"
"$NEARCRAWL" crawl -d "$DB" --delay-ms 5 --per-host 2 --quiet 2>"$E2E_TMP/changed.err"
eq "changed settings: exits 0" "$?" 0
ok "changed --delay-ms said" grep -qx "nearcrawl: --delay-ms 5 (was 0)" \
    "$E2E_TMP/changed.err"
ok "changed --per-host said" grep -qx "nearcrawl: --per-host 2 (was 1)" \
    "$E2E_TMP/changed.err"
eq "changed value stored" "$(q "$DB" "SELECT value FROM meta WHERE key = 'delay_ms'")" 5
"$NEARCRAWL" crawl -d "$DB" --delay-ms 0 2>"$E2E_TMP/back.err"
ok "changed back: said again" grep -qx "nearcrawl: --delay-ms 0 (was 5)" \
    "$E2E_TMP/back.err"

"$NEARCRAWL" crawl -d "$DB" --simhash-k 5 2>"$E2E_TMP/verdict.err"
eq "verdict setting changed: refused" "$?" 2
ok "verdict refusal explained" grep -q "would mix verdicts" "$E2E_TMP/verdict.err"
eq "verdict setting unchanged" "$(q "$DB" "SELECT value FROM meta WHERE key = 'simhash_k'")" 3
# How shared crawls serialise verdicts: every process must agree.
"$NEARCRAWL" crawl -d "$DB" --row-locks 2>"$E2E_TMP/locks.err"
eq "--row-locks on a crawl recorded without: refused" "$?" 2
ok "--row-locks refusal explained" grep -q "would mix verdicts" "$E2E_TMP/locks.err"

# --proxy: stored without its credentials, and a resume says so. The
# proxy is a dead loopback port: nothing is fetched through it.
P="$E2E_TMP/p.db"
DEAD=$(python3 -c 'import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])')
# Short back-off (stored too), so that giving the host up takes no time.
"$NEARCRAWL" crawl -d "$P" --quiet --max-pages 1 --user-agent "$UA" \
    --retry-base-ms 50 --max-retries 0 --host-max-failures 1 \
    --proxy "http://alice:s3cret@127.0.0.1:$DEAD" \
    --resolve "$H:$PORT:127.0.0.1" "$SEED" 2>/dev/null
eq "proxy stored without credentials" \
    "$(q "$P" "SELECT value FROM meta WHERE key = 'proxy'")" "http://127.0.0.1:$DEAD"
eq "no secret in the database" "$(grep -c s3cret "$P")" 0
"$NEARCRAWL" crawl -d "$P" --max-pages 1 2>"$E2E_TMP/proxy.err"
ok "resume says the credentials must be given again" grep -q \
    "proxy URL is stored without its user name and password" "$E2E_TMP/proxy.err"
ok "the secret is never printed" sh -c "! grep -q s3cret '$E2E_TMP/proxy.err'"

# --retry-given-up: a host resolved to an address where nothing listens
# (127.0.0.2: the server listens on 127.0.0.1 only) is given up; resumed
# with --retry-given-up and --resolve pointing at the server, its pages
# are fetched.
G="$E2E_TMP/g.db"
"$NEARCRAWL" crawl -d "$G" --delay-ms 0 --user-agent "$UA" --max-retries 0 \
    --retry-base-ms 10 --host-max-failures 1 \
    --resolve "$H:$PORT:127.0.0.2" "$SEED" 2>"$E2E_TMP/dead.err"
eq "dead address: nothing fetched, exits 1" "$?" 1
eq "dead address: host given up" \
    "$(q "$G" "SELECT count(*) FROM hosts WHERE gave_up IS NOT NULL")" 1
"$NEARCRAWL" crawl -d "$G" --resolve "$H:$PORT:127.0.0.1" 2>"$E2E_TMP/noretry.err"
eq "resume without --retry-given-up: host stays given up" \
    "$(q "$G" "SELECT count(*) FROM pages WHERE status = 200")" 0
ok "the new --resolve is said" grep -qx \
    "nearcrawl: --resolve $H:$PORT:127.0.0.1 (was $H:$PORT:127.0.0.2)" \
    "$E2E_TMP/noretry.err"
"$NEARCRAWL" crawl -d "$G" --retry-given-up 2>"$E2E_TMP/retry.err"
eq "--retry-given-up: exits 0" "$?" 0
ok "--retry-given-up: says how many hosts" grep -q \
    -- "--retry-given-up: 1 host given up before gets another chance" \
    "$E2E_TMP/retry.err"
eq "--retry-given-up: the host's pages fetched" \
    "$(q "$G" "SELECT count(*) > 3 FROM pages WHERE status = 200")" 1
eq "--retry-given-up: the mark cleared" \
    "$(q "$G" "SELECT count(*) FROM hosts WHERE gave_up IS NOT NULL")" 0
eq "--retry-given-up is per run: not stored" \
    "$(q "$G" "SELECT count(*) FROM meta WHERE key = 'retry_given_up'")" 0
# A crawl from before --novelty (own words, docs/dedup.md) measured new
# words over all of a page's words, with the absolute cap it was crawled
# with: resumed, it keeps judging so, and a new crawl measures own words.
eq "a new crawl: novelty own" \
    "$(q "$DB" "SELECT value FROM meta WHERE key = 'novelty'")" own
OLD="$E2E_TMP/old.db"
cp "$DB" "$OLD"
q "$OLD" "DELETE FROM meta WHERE key = 'novelty'" >/dev/null
q "$OLD" "UPDATE meta SET value = '12' WHERE key = 'max_novel_words'" >/dev/null
"$NEARCRAWL" crawl -d "$OLD" --max-pages 5 2>"$E2E_TMP/old.err"
eq "an older crawl resumes: exits 0" "$?" 0
eq "... with novelty all" \
    "$(q "$OLD" "SELECT value FROM meta WHERE key = 'novelty'")" all
eq "... and its cap of 12 new words" \
    "$(q "$OLD" "SELECT value FROM meta WHERE key = 'max_novel_words'")" 12
"$NEARCRAWL" crawl -d "$OLD" --max-pages 6 --novelty own 2>"$E2E_TMP/old2.err"
eq "--novelty own on an older crawl: refused, it would mix verdicts" "$?" 2
e2e_finish
