#!/bin/sh
# `nearcrawl report`'s index.html in a real browser: headless Chromium
# (Debian package chromium, which scripts/make/install-deps.sh installs) opens
# it from the report folder with the network off, and it must show the
# summary, host and cluster tables, load every plot and log nothing on
# its console. Untrusted text from a tampered database stays text, and
# `report -d DB` without -o writes DB.report. Chromium missing is a
# failure, not a skip.
. tests/e2e/lib.sh

CHROMIUM=${CHROMIUM:-chromium}
if ! command -v "$CHROMIUM" >/dev/null 2>&1; then
	echo "FAIL chromium is not installed (scripts/make/install-deps.sh" \
	    "installs the Debian package chromium)"
	E2E_FAILED=$((E2E_FAILED + 1))
	e2e_finish
fi

# browse URL OUT: the DOM after load in OUT.dom, the browser's log in
# OUT.log. A proxy that does not exist keeps everything off the network;
# the page needs none.
browse() {
	timeout 60 "$CHROMIUM" --headless --no-sandbox --disable-gpu \
	    --no-first-run --disable-extensions --disable-sync \
	    --proxy-server=127.0.0.1:9 --user-data-dir="$E2E_TMP/profile" \
	    --enable-logging=stderr --v=0 --dump-dom "$1" \
	    >"$2.dom" 2>"$2.log"
}

# A page's console output (errors, uncaught exceptions, console.log) is
# logged as ...:CONSOLE(...)] lines: none is allowed.
console_lines() {
	grep -c -e ':CONSOLE' -e 'Uncaught' "$1" || :
}

# The check itself must see a failure: a page with a script error and a
# missing image is caught by both checks.
cat >"$E2E_TMP/bad.html" <<'HTML'
<!DOCTYPE html><html><body><img src="missing.svg">
<script>
window.addEventListener('load', function () {
	var im = document.images;
	document.body.setAttribute('data-images',
	    (im[0].naturalWidth > 0 ? 1 : 0) + '/' + im.length);
});
no_such_function();
</script></body></html>
HTML
browse "file://$E2E_TMP/bad.html" "$E2E_TMP/bad"
ok "the console check sees a script error" \
    test "$(console_lines "$E2E_TMP/bad.log")" -gt 0
ok "the image check sees a missing image" \
    grep -q 'data-images="0/1"' "$E2E_TMP/bad.dom"

# A crawl of four hosts, one of them with duplicates of every kind.
e2e_start_server tests/fixtures/sites
R=""
SEEDS=""
for h in www.lab.test www.small.test www.rank.test www.pages.test; do
	R="$R --resolve $h:$PORT:127.0.0.1"
	SEEDS="$SEEDS http://$h:$PORT/"
done
DB=$E2E_TMP/lab.db
# shellcheck disable=SC2086 # options and seeds are split on purpose
"$NEARCRAWL" crawl -d "$DB" --quiet --delay-ms 0 $R $SEEDS 2>/dev/null
eq "crawl exits 0" "$?" 0
hosts=$(q "$DB" 'SELECT count(DISTINCT host) FROM pages')
ok "the crawl reached several hosts ($hosts)" test "$hosts" -ge 3

# Untrusted text, as a tampered database (or a hostile site's title)
# could hold: a title with markup, a member URL that is a script.
orig=$(q "$DB" 'SELECT original_id FROM duplicates GROUP BY original_id
    ORDER BY count(DISTINCT page_id) DESC LIMIT 1')
memb=$(q "$DB" "SELECT page_id FROM duplicates WHERE original_id = $orig
    LIMIT 1")
q "$DB" "UPDATE pages SET title = '<script>document.title=\"owned\"'
    || '</script> & \"quotes\" ''too''' WHERE id = $orig;
    UPDATE pages SET url = 'javascript:alert(1)//' WHERE id = $memb"

OUT="$E2E_TMP/report dir"
"$NEARCRAWL" report -d "$DB" -o "$OUT" --hosts 3 --quiet 2>"$E2E_TMP/err"
eq "report exits 0" "$?" 0
eq "nothing on stderr" "$(cat "$E2E_TMP/err")" ""
ok "index.html written" test -s "$OUT/index.html"

# The page stands alone: nothing it loads comes from elsewhere.
eq "no http(s) resource in src=, no stylesheet link" \
    "$(grep -c -i -e 'src="http' -e '<link' "$OUT/index.html")" 0
ok "the title's markup is escaped" \
    grep -q '&lt;script&gt;document.title=&quot;owned&quot;&lt;/script&gt; &amp; &quot;quotes&quot; &#39;too&#39;' \
    "$OUT/index.html"
eq "the script URL is not a link" \
    "$(grep -c -i 'href="javascript' "$OUT/index.html")" 0
ok "the script URL is shown as text" \
    grep -q 'javascript:alert(1)//' "$OUT/index.html"

browse "file://$OUT/index.html" "$E2E_TMP/index"
eq "chromium exits 0" "$?" 0
ok "the DOM holds the summary table" \
    grep -q '<table id="summary">' "$E2E_TMP/index.dom"
ok "the DOM holds the host table" \
    grep -q '<table id="hosts">' "$E2E_TMP/index.dom"
ok "the DOM holds the cluster table" \
    grep -q '<table id="clusters">' "$E2E_TMP/index.dom"
eq "the five plots load" \
    "$(grep -o 'data-images="[^"]*"' "$E2E_TMP/index.dom")" \
    'data-images="5/5"'
eq "no console message or uncaught error" \
    "$(console_lines "$E2E_TMP/index.log")" 0
eq "the title did not run" \
    "$(grep -c '<title>owned' "$E2E_TMP/index.dom")" 0
pages=$(q "$DB" 'SELECT count(*) FROM pages')
ok "the summary gives the page count" grep -q \
    "<th>pages fetched</th><td class=\"n\">$(printf '%s' "$pages" |
        sed -e ':a' -e 's/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/' \
        -e 'ta')</td>" "$E2E_TMP/index.dom"
eq "one row per host in the host table (up to 100)" \
    "$(sed -n '/<table id="hosts">/,/<\/table>/p' "$E2E_TMP/index.dom" |
        grep -c '<tr><td>')" "$hosts"
clusters=$(q "$DB" 'SELECT min(20, count(DISTINCT original_id))
    FROM duplicates')
eq "the largest clusters are listed ($clusters)" \
    "$(grep -c '<tr class="orig">' "$E2E_TMP/index.dom")" "$clusters"
ok "members carry their method and percentage" \
    grep -q -E '<td>(md5|simhash|ssdeep|minhash) [0-9]+\.[0-9] %' \
    "$E2E_TMP/index.dom"
eq "hosts.gp draws --hosts 3 hosts" \
    "$(grep -c '^\$h[0-9]* << EOD' "$OUT/hosts.gp")" 3

# A screenshot, for people to look at (E2E_KEEP=1 keeps it).
timeout 60 "$CHROMIUM" --headless --no-sandbox --disable-gpu --no-first-run \
    --proxy-server=127.0.0.1:9 --user-data-dir="$E2E_TMP/profile" \
    --window-size=1200,2000 --screenshot="$E2E_TMP/index.png" \
    "file://$OUT/index.html" >/dev/null 2>&1
eq "the screenshot is a PNG file" \
    "$(head -c 8 "$E2E_TMP/index.png" | od -An -tx1 | tr -d ' \n')" \
    89504e470d0a1a0a

# The similarity chart spans its populated buckets only.
lo=$(awk -F, 'NR > 1 && $3 > 0 { b = $2 + 0; if (m == "" || b < m) m = b }
    END { print m }' "$OUT/similarity.csv")
eq "similarity.gp starts at the lowest populated bucket ($lo)" \
    "$(sed -n '/^\$similarity << EOD/{n;p;}' "$OUT/similarity.gp" |
        cut -d' ' -f1)" "$lo"

# Plots to publish from: the similarity histogram on a log scale (1,432
# md5 pairs must not hide 2 minhash pairs), the axes drawn behind the
# curves (a curve at zero stays visible), the per-host panels with axis
# titles; cluster URLs break after a slash, not in a word.
ok "similarity plot: log scale" grep -q '^set logscale y' "$OUT/similarity.gp"
ok "growth plot: axes behind the curves" grep -q '^set border back' "$OUT/growth.gp"
ok "growth plot: its x axis says what it counts" grep -q \
    "^set xlabel 'pages fetched (errors, redirects and skipped pages included)'" \
    "$OUT/growth.gp"
ok "per-host panels: axis titles" grep -q "set xlabel 'pages fetched on the host'" \
    "$OUT/hosts.gp"
ok "cluster URLs break after a slash" grep -q 'class="url"><a [^>]*>http://<wbr>' \
    "$OUT/index.html"
ok "... never inside a word" sh -c "! grep -q 'break-all' '$OUT/index.html'"
# The time series as CSV, and the duplicate share of a sliding window
# (what a saturation argument reads), drawn and on the page.
ok "growth-time.csv: a row per growth.csv row" test \
    "$(wc -l <"$OUT/growth-time.csv")" -eq "$(wc -l <"$OUT/growth.csv")"
ok "share.csv: shares between 0 and 100" awk -F, \
    'NR > 1 { n++; if ($2 < 0 || $2 > 100) bad = 1 } END { exit bad || n == 0 }' \
    "$OUT/share.csv"
ok "share.svg drawn" test -s "$OUT/share.svg"
ok "index.html shows it" grep -q 'src="share.svg"' "$OUT/index.html"
ok "index.html says whether growth.csv is thinned" grep -q \
    'growth.csv \(keeps [0-9,]* of the [0-9,]* pages\|has a row a page\)' \
    "$OUT/index.html"

# Without -o: next to the database, said on stderr (unless --quiet).
"$NEARCRAWL" report -d "$DB" >/dev/null 2>"$E2E_TMP/err"
eq "report without -o exits 0" "$?" 0
ok "it writes DB.report/index.html" test -s "$DB.report/index.html"
ok "it says where on stderr" grep -q "lab.db.report" "$E2E_TMP/err"

# --help on stdout with status 0; bad usage on stderr with status 2.
for c in report robots compare text rank eval crawl; do
	"$NEARCRAWL" $c --help >"$E2E_TMP/out" 2>"$E2E_TMP/err"
	eq "$c --help exits 0" "$?" 0
	ok "$c --help prints usage on stdout" grep -q 'usage' "$E2E_TMP/out"
	eq "$c --help prints nothing on stderr" "$(cat "$E2E_TMP/err")" ""
done
"$NEARCRAWL" report --hosts 0 -d "$DB" >"$E2E_TMP/out" 2>"$E2E_TMP/err"
eq "report --hosts 0 exits 2" "$?" 2
ok "its usage goes to stderr" grep -q usage "$E2E_TMP/err"
eq "and nothing to stdout" "$(cat "$E2E_TMP/out")" ""
"$NEARCRAWL" robots >"$E2E_TMP/out" 2>"$E2E_TMP/err"
eq "robots without arguments exits 2" "$?" 2
ok "its usage goes to stderr" grep -q usage "$E2E_TMP/err"
e2e_finish
