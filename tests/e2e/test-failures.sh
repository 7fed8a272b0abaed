#!/bin/sh
# Failures a user must see while they happen, and that must not cost more
# than they should:
#  - a URL that answers too slowly or not at all is that URL's error; the
#    host's other pages go on without a pause (no hold, no back-off);
#  - a host that cannot be reached is held back, and the log says for how
#    long, until when and why; a crawl that could fetch nothing exits 1
#    and names the reasons;
#  - a Retry-After hold shows in the progress line ("backing off");
#  - every bad seed is named; a seed without a scheme is read as http://.
. tests/e2e/lib.sh

ROOT=$E2E_TMP/root
H=www.mixed.test
mkdir -p "$ROOT/$H"
{
	echo '<html><body><h1>Mixed host</h1><ul>'
	echo '<li><a href="/__nc/silent">silent</a></li>'
	echo '<li><a href="/__nc/slow/4000?rate=20">slow</a></li>'
	i=1
	while [ $i -le 6 ]; do
		echo "<li><a href=\"page$i.html\">page $i</a></li>"
		i=$((i + 1))
	done
	echo '</ul></body></html>'
} >"$ROOT/$H/index.html"
W=www.wait.test
mkdir -p "$ROOT/$W"
echo '<html><body><p>Come back later: <a href="/__nc/retry/8?code=429">busy</a></p></body></html>' \
    >"$ROOT/$W/index.html"
i=1
while [ $i -le 6 ]; do
	printf '<html><body><h1>Page %s</h1><p>Ordinary page number %s of the mixed host, with words of its own: %s.</p></body></html>\n' \
	    $i $i "$(echo "alpha$i beta$i gamma$i delta$i epsilon$i zeta$i")" \
	    >"$ROOT/$H/page$i.html"
	i=$((i + 1))
done
e2e_start_server "$ROOT"
R="--resolve $H:$PORT:127.0.0.1"

# 1. Per-URL trouble does not pause the host. --per-host 1: the silent
# page holds the host's one connection until its timeout, then the rest
# must follow at once.
DB=$E2E_TMP/mixed.db
# shellcheck disable=SC2086
"$NEARCRAWL" crawl -d "$DB" --delay-ms 0 --per-host 1 --timeout-ms 2000 \
    --low-speed-bytes 100 --low-speed-secs 1 --retry-base-ms 5000 \
    $R "http://$H:$PORT/" 2>"$E2E_TMP/mixed.err"
eq "mixed host: the crawl ends well" "$?" 0
eq "mixed host: every ordinary page fetched" "$(sqlite3 "$DB" \
    "SELECT count(*) FROM pages WHERE url LIKE '%/page_.html' AND verdict = 'unique'")" 6
eq "mixed host: the silent page is its own error" "$(sqlite3 "$DB" \
    "SELECT verdict FROM pages WHERE url LIKE '%/__nc/silent'")" error
eq "mixed host: so is the slow one" "$(sqlite3 "$DB" \
    "SELECT verdict FROM pages WHERE url LIKE '%/__nc/slow/%'")" error
eq "mixed host: no hold for per-URL trouble" \
    "$(grep -c 'holding back' "$E2E_TMP/mixed.err")" 0
eq "mixed host: no back-off stored" "$(sqlite3 "$DB" \
    "SELECT count(*) FROM hosts WHERE failures > 0 OR backoff_ms > 0")" 0

# 2. A seed whose host refuses connections on first contact: given up at
# once with the reason (as curl and wget fail at once; the back-off of
# 30, 60, 120, 240 s is for hosts that worked before), and the crawl
# fails with the reasons. With the default back-off, a hold would outlast
# the timeout.
DOWN=$(python3 -c 'import socket
s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
DB=$E2E_TMP/down.db
timeout 20 "$NEARCRAWL" crawl -d "$DB" --delay-ms 0 \
    --resolve "down.test:$DOWN:127.0.0.1" \
    "http://down.test:$DOWN/" 2>"$E2E_TMP/down.err"
eq "unreachable seed: exit 1, at once" "$?" 1
ok "unreachable seed: given up on first contact, with the reason" \
    grep -q "^nearcrawl: giving up down.test: no answer on first contact: cannot connect" \
    "$E2E_TMP/down.err"
eq "unreachable seed: no hold" "$(grep -c 'holding back' "$E2E_TMP/down.err")" 0
ok "unreachable seed: the crawl says nothing could be fetched" \
    grep -q '^nearcrawl: nothing could be fetched:' "$E2E_TMP/down.err"
ok "unreachable seed: ... and why, by host" \
    grep -q '^  down.test: .*cannot connect' "$E2E_TMP/down.err"
ok "unreachable seed: the closing line says failed" \
    grep -q '^nearcrawl: failed: ' "$E2E_TMP/down.err"

# 3. A Retry-After hold shows in the progress line (a plain line every
# 5 s when stderr is not a terminal), and so does the time left under
# --max-pages.
DB=$E2E_TMP/wait.db
"$NEARCRAWL" crawl -d "$DB" --delay-ms 0 --max-retries 1 --max-pages 50 \
    --resolve "$W:$PORT:127.0.0.1" "http://$W:$PORT/" 2>"$E2E_TMP/wait.err"
eq "Retry-After: the crawl ends" "$?" 0
ok "Retry-After: the hold is logged" \
    grep -q "^nearcrawl: $W: holding back 8.0 s, until [0-9:]*: HTTP 429, as Retry-After asks" \
    "$E2E_TMP/wait.err"
ok "Retry-After: the progress line says what the crawl waits for" \
    grep -q '^nearcrawl: [0-9-]* [0-9:]* 1 pages (1 this run) | .* | waiting: 1 host backing off or held by Retry-After$' \
    "$E2E_TMP/wait.err"
ok "--max-pages: the progress line gives the time left" \
    grep -q '^nearcrawl: [0-9-]* [0-9:]* 1 pages .* pages/s, [0-9]* s | [0-9]* queued, [0-9.]* \(s\|min\|h\) at this rate' \
    "$E2E_TMP/wait.err"

# 4. Seeds: every bad one named, none crawled, no database left behind.
DB=$E2E_TMP/bad.db
"$NEARCRAWL" crawl -d "$DB" 'http://[oops' 'ftp://files.test/' \
    "http://$H:$PORT/" 2>"$E2E_TMP/bad.err"
eq "bad seeds: usage error" "$?" 2
ok "bad seeds: the malformed one is named" \
    grep -q '^nearcrawl: bad seed http://\[oops: ' "$E2E_TMP/bad.err"
ok "bad seeds: the ftp one is named" \
    grep -q '^nearcrawl: bad seed ftp://files.test/: ' "$E2E_TMP/bad.err"
ok "bad seeds: counted" grep -q '2 of 3 seeds are bad' "$E2E_TMP/bad.err"
ok "bad seeds: no database made" test ! -e "$DB"
"$NEARCRAWL" crawl -d "$DB" 'http://[oops' 2>"$E2E_TMP/lone.err"
eq "a lone malformed seed: usage error" "$?" 2
ok "a lone malformed seed: named, not 'needs a seed'" \
    grep -q '^nearcrawl: bad seed http://\[oops' "$E2E_TMP/lone.err"

# 5. A seed without a scheme is read as http://, and the crawl says so.
DB=$E2E_TMP/noscheme.db
"$NEARCRAWL" crawl -d "$DB" --max-depth 0 $R "$H:$PORT/page1.html" \
    2>"$E2E_TMP/noscheme.err"
eq "no scheme: the crawl ends well" "$?" 0
ok "no scheme: the crawl says how it read the seed" \
    grep -q "^nearcrawl: seed $H:$PORT/page1.html has no scheme: taken as http://$H:$PORT/page1.html" \
    "$E2E_TMP/noscheme.err"
eq "no scheme: the page is fetched" "$(sqlite3 "$DB" \
    "SELECT verdict FROM pages WHERE url = 'http://$H:$PORT/page1.html'")" unique

e2e_finish
