#!/bin/sh
# `nearcrawl serve` in a real browser: headless Chromium (Debian's
# chromium, driven by playwright-core from tests/tools) opens the view of
# a crawl of the labelled site and www.inject.test, looks at the overview
# and its plots, opens the largest cluster from the clusters page, a near
# page beside its original (its new words marked, the verdict said) and a
# page titled with markup (shown as text; no dialog fires), runs a search
# when the view has one and opens its omitted pages, and sees no console
# error and nothing loaded from elsewhere. The screenshots stay in
# $E2E_TMP/shots (E2E_KEEP=1 keeps them). Chromium or playwright-core
# missing is a failure, not a skip (scripts/make/install-deps.sh installs
# both).
. tests/e2e/lib.sh

CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
export CHROMIUM
if ! [ -x "$CHROMIUM" ] ||
    ! [ -f tests/tools/node_modules/playwright-core/package.json ]; then
	echo "FAIL chromium or playwright-core is missing (run" \
	    "scripts/make/install-deps.sh)"
	E2E_FAILED=$((E2E_FAILED + 1))
	e2e_finish
fi

e2e_start_server tests/fixtures/sites
LAB=http://www.lab.test:$PORT/
INJ=http://www.inject.test:$PORT/
DB=$E2E_TMP/lab.db
"$NEARCRAWL" crawl -d "$DB" --quiet --delay-ms 0 --warc "$E2E_TMP/warc" \
    --resolve "www.lab.test:$PORT:127.0.0.1" \
    --resolve "www.inject.test:$PORT:127.0.0.1" "$LAB" "$INJ" 2>/dev/null
eq "crawl exits 0" "$?" 0
"$NEARCRAWL" rank -d "$DB" --quiet
eq "rank exits 0" "$?" 0

serve_up "$NEARCRAWL" "$DB" "$E2E_TMP"
SV_PID=$SERVE_PID
SV=$SERVE_URL
ok "serve starts" test -n "$SV"

NEAR=$(q "$DB" "SELECT id FROM pages WHERE url = '${INJ}article-print.html'")
HOSTILE=$(q "$DB" "SELECT id FROM pages WHERE url = '$INJ'")
QUERY=""
if curl -s "$SV/" | grep -q 'name="q"'; then
	QUERY="calendar"
fi
timeout 180 node tests/tools/serve-browser.mjs "$SV" "$E2E_TMP/shots" \
    "$NEAR" "$HOSTILE" $QUERY >"$E2E_TMP/browser" 2>&1
rc=$?
cat "$E2E_TMP/browser"
E2E_PASSED=$((E2E_PASSED + $(grep -c '^ok ' "$E2E_TMP/browser")))
E2E_FAILED=$((E2E_FAILED + $(grep -c '^FAIL ' "$E2E_TMP/browser")))
eq "the browser run ends well" "$rc" 0
for s in overview cluster page hostile; do
	eq "screenshot $s.png is a PNG" "$(head -c 8 "$E2E_TMP/shots/$s.png" |
	    od -An -tx1 | tr -d ' \n')" 89504e470d0a1a0a
done

kill -TERM "$SV_PID"
wait "$SV_PID"
eq "serve stops on SIGTERM with 0" "$?" 0
e2e_finish
