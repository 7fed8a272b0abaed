#!/bin/sh
# Main-content extraction on real pages (the shared corpus, read in place)
# and the `nearcrawl text` command.
. tests/e2e/lib.sh

CORPUS=${CORPUS:-../shared/corpus/readability/pages}

# --- nearcrawl text ---
cat >"$E2E_TMP/page.html" <<'HTML'
<html><head><title>T</title></head><body>
<nav><a href="/">Home</a> <a href="/news">News</a></nav>
<h1>Lab   news</h1>
<p>The new lab opened
   on Monday.<br>Second line.</p>
<ul><li>first item</li><li>second <b>item</b></li></ul>
</body></html>
HTML
"$NEARCRAWL" text --help >"$E2E_TMP/help" 2>&1
eq "text --help exits 0" "$?" 0
ok "text --help names --main and --body" grep -q -- '--body' "$E2E_TMP/help"
"$NEARCRAWL" text >/dev/null 2>&1
eq "text without a document: bad usage" "$?" 2
"$NEARCRAWL" text --bogus "$E2E_TMP/page.html" >/dev/null 2>&1
eq "text with an unknown option: bad usage" "$?" 2
"$NEARCRAWL" text "$E2E_TMP/page.html" "$E2E_TMP/page.html" >/dev/null 2>&1
eq "text with two documents: bad usage" "$?" 2
"$NEARCRAWL" text "$E2E_TMP/none.html" >/dev/null 2>"$E2E_TMP/err"
eq "text of a missing file fails" "$?" 1
ok "... saying why it cannot read it" grep -q 'none.html: No such file or directory' "$E2E_TMP/err"
printf 'Home News\nLab news\nThe new lab opened on Monday.\nSecond line.\nfirst item\nsecond item\n' >"$E2E_TMP/want-body"
"$NEARCRAWL" text --body "$E2E_TMP/page.html" >"$E2E_TMP/body"
ok "text --body: one block a line" cmp -s "$E2E_TMP/body" "$E2E_TMP/want-body"
sed 1d "$E2E_TMP/want-body" >"$E2E_TMP/want-main"
"$NEARCRAWL" text --min-shingles 0 "$E2E_TMP/page.html" >"$E2E_TMP/main"
ok "text (main by default): the menu left out" cmp -s "$E2E_TMP/main" "$E2E_TMP/want-main"
# Under the evidence floor the near methods still read the main text,
# too little to judge a page near: text prints it and says so. A crawl
# made before --novelty own fell back to the body text there, and still
# does.
"$NEARCRAWL" text "$E2E_TMP/page.html" >"$E2E_TMP/main" 2>"$E2E_TMP/err"
ok "text: a main text under the evidence floor is still the main text" \
    cmp -s "$E2E_TMP/main" "$E2E_TMP/want-main"
ok "... and says it is too little to judge near" \
    grep -q 'under the evidence floor of 20.*too little to judge near' "$E2E_TMP/err"
"$NEARCRAWL" text --novelty all "$E2E_TMP/page.html" >"$E2E_TMP/main-all" \
    2>"$E2E_TMP/err"
ok "text --novelty all: the body text, as before" \
    cmp -s "$E2E_TMP/main-all" "$E2E_TMP/want-body"
ok "... and says so" grep -q 'the near methods read the body text' "$E2E_TMP/err"
"$NEARCRAWL" text --main "$E2E_TMP/page.html" >"$E2E_TMP/main2"
ok "text --main is the default" cmp -s "$E2E_TMP/main" "$E2E_TMP/main2"

# --- the corpus ---
if [ ! -d "$CORPUS" ]; then
	echo "FAIL corpus missing: $CORPUS (see ../shared/corpus/README.md)"
	E2E_FAILED=$((E2E_FAILED + 1))
	e2e_finish
fi
scripts/eval/eval-extract.sh --nearcrawl "$NEARCRAWL" --corpus "$CORPUS" \
    >"$E2E_TMP/eval" 2>&1
eq "eval-extract.sh runs over the corpus" "$?" 0
last=$(tail -n 1 "$E2E_TMP/eval")
echo "     $last"
mean=$(echo "$last" | sed -n 's/.*mean_f1=\([0-9.]*\).*/\1/p')
min=$(echo "$last" | sed -n 's/.*min_f1=\([0-9.]*\).*/\1/p')
under=$(echo "$last" | sed -n 's/.*under_0_5=\([0-9]*\).*/\1/p')
pages=$(echo "$last" | sed -n 's/.*pages=\([0-9]*\).*/\1/p')
eq "every corpus page measured" "$pages" 93
ok "mean token F1 >= 0.98 (reached 0.992)" awk -v v="$mean" 'BEGIN { exit !(v != "" && v >= 0.98) }'
ok "min token F1 >= 0.80 (reached 0.825)" awk -v v="$min" 'BEGIN { exit !(v != "" && v >= 0.80) }'
eq "no page under F1 0.5" "$under" 0
e2e_finish
