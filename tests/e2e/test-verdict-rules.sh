#!/bin/sh
# The verdict rules (docs/dedup.md) on pairs of real fixture pages, each pair
# judged twice: by `nearcrawl compare A B` and by a crawl that fetches A,
# then B. The two must agree (one code path, digest/digest.c), and agree
# with what a person would say: a print view or a mobile copy is near; two
# courses sharing a long regulations paragraph, two branch libraries'
# opening-hour tables, two pages of a news list and two thin contact pages
# are not; and a page below the evidence floor is never near.
. tests/e2e/lib.sh

L=tests/fixtures/sites/www.lab.test
U=tests/fixtures/sites
A=$(ls "$L/print" | head -n 1)
ROOT=$E2E_TMP/root
H=www.pair.test
verdict() { "$NEARCRAWL" compare "$@" | sed -n 's/^verdict: \([a-z]*\).*/\1/p'; }

mkdir -p "$ROOT/$H"
e2e_start_server "$ROOT"

# pair NAME A B EXPECTED: compare and a two-page crawl both say EXPECTED.
n=0
pair() {
	n=$((n + 1))
	d=$ROOT/$H/p$n
	mkdir -p "$d"
	cp "$2" "$d/a.html"
	cp "$3" "$d/b.html"
	printf '<html><body><p><a href="a.html">a</a> <a href="b.html">b</a></p></body></html>\n' \
	    >"$d/index.html"
	eq "$1: compare" "$(verdict "$2" "$3")" "$4"
	db=$E2E_TMP/p$n.db
	"$NEARCRAWL" crawl -d "$db" --quiet --delay-ms 0 --per-host 1 \
	    --concurrency 1 --max-depth 1 --resolve "$H:$PORT:127.0.0.1" \
	    "http://$H:$PORT/p$n/index.html" 2>/dev/null
	eq "$1: the crawl says the same" "$(sqlite3 "$db" \
	    "SELECT verdict FROM pages WHERE url LIKE '%/p$n/b.html'")" "$4"
}

pair "print view of an article" "$L/news/$A" "$L/print/$A" near
pair "mobile copy of an article" "$L/news/$A" "$L/m/$A" near
# Two courses sharing a long regulations paragraph, each with a short
# description of its own. Alone, nothing says the regulations are the
# site's boilerplate, and 18 % of the second's words are new, under the
# share (docs/dedup.md, limit (a)): near. Crawled in a row, the second is
# near the first for the same reason, but it adds more than half the
# share of its own, so it teaches the site's template: the regulations
# are template from then on, and the third and fourth courses, whose own
# words are their descriptions, are new content.
C=$U/cs.uni.test/courses
eq "two courses sharing a regulations paragraph, alone: compare" \
    "$(verdict "$C/cs112.html" "$C/cs115.html")" near
mkdir -p "$ROOT/$H/courses"
set --
for f in cs119 cs123 cs112 cs115; do
	cp "$C/$f.html" "$ROOT/$H/courses/$f.html"
	set -- "$@" "http://$H:$PORT/courses/$f.html"
done
db=$E2E_TMP/courses.db
"$NEARCRAWL" crawl -d "$db" --quiet --delay-ms 0 --per-host 1 \
    --concurrency 1 --max-depth 0 --resolve "$H:$PORT:127.0.0.1" "$@" \
    2>/dev/null
eq "four courses in a row: the second near, then the regulations are template" \
    "$(sqlite3 "$db" "SELECT group_concat(verdict, ' ') FROM (SELECT verdict
        FROM pages WHERE url LIKE '%/courses/cs1%' ORDER BY seq)")" \
    "unique near unique unique"
pair "two branch libraries' opening hours" \
    "$U/lib.uni.test/hours/main-week-47.html" \
    "$U/lib.uni.test/hours/science-week-47.html" unique
pair "pages 2 and 3 of a news list" "$U/www.uni.test/news/page-2.html" \
    "$U/www.uni.test/news/page-3.html" unique
pair "two thin contact pages" "$U/www.uni.test/contact/admissions.html" \
    "$U/www.uni.test/contact/press.html" unique

# The evidence floor: two pages of a dozen words each, one word apart
# (TDW: 100 % alike), are still not near copies.
T=$E2E_TMP/thin
mkdir -p "$T"
for i in 1 2; do
	printf '<html><body><main><h1>News page %s</h1><p>Read the latest ' "$i" >"$T/$i.html"
	printf 'news from the department of physics here.</p></main></body></html>\n' >>"$T/$i.html"
done
"$NEARCRAWL" compare --methods md5,tdw "$T/1.html" "$T/2.html" >"$E2E_TMP/thin.out"
ok "evidence floor: below it a page is not near" \
    grep -q '^verdict: unique (B after A, rule any): too little text to judge near' "$E2E_TMP/thin.out"
eq "evidence floor and share off: the same pages are near" \
    "$(verdict --methods md5,tdw --min-shingles 0 --max-novel-percent 100 \
    "$T/1.html" "$T/2.html")" near
eq "floor off, share on: one new word (the page number) of 13 is a copy" \
    "$(verdict --methods md5,tdw --min-shingles 0 "$T/1.html" "$T/2.html")" near
eq "... but not with a share of 5 %" "$(verdict --methods md5,tdw \
    --min-shingles 0 --max-novel-percent 5 "$T/1.html" "$T/2.html")" unique
# The share of new words (docs/dedup.md, "What near means"): the print
# view of an article of about 850 words, plus a sentence of its own, is
# a copy; plus a paragraph of its own a third as long, it is not.
sed 's|</body>|<p>This edition adds a closing paragraph of twelve words written for it alone.</p></body>|' \
    "$L/print/$A" >"$E2E_TMP/plus.html"
eq "a print view plus a sentence of its own: near" \
    "$(verdict "$L/print/$A" "$E2E_TMP/plus.html")" near
P="Quokkas wander between eucalyptus saplings while kookaburras cackle"
P="$P overhead; wombats excavate burrows beneath sandstone ledges."
EXTRA=""
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18; do EXTRA="$EXTRA $P Variant$i zebra$i."; done
sed "s|</body>|<p>$EXTRA</p></body>|" "$L/print/$A" >"$E2E_TMP/para.html"
eq "a print view plus a paragraph of its own a third as long: not near" \
    "$(verdict "$L/print/$A" "$E2E_TMP/para.html")" unique
"$NEARCRAWL" compare "$L/print/$A" "$E2E_TMP/para.html" >"$E2E_TMP/para.out"
ok "compare says how many of B's words are new, and the rule" sh -c \
    "grep -q '^new:     [0-9]* of B.s [0-9]* words are not in A' '$E2E_TMP/para.out' &&
    grep -q '^rule:    near when at most 25 % of its own words' '$E2E_TMP/para.out'"
eq "--max-novel-percent 30 lets the paragraph pass" \
    "$(verdict --max-novel-percent 30 "$L/print/$A" "$E2E_TMP/para.html")" near
eq "--max-novel-words 5 refuses the sentence" \
    "$(verdict --max-novel-words 5 "$L/print/$A" "$E2E_TMP/plus.html")" unique
e2e_finish
