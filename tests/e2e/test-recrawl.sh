#!/bin/sh
# Recrawls (docs/archives.md): `nearcrawl crawl --recrawl -d DB` visits
# every page of an earlier crawl again with If-None-Match /
# If-Modified-Since, and records per page what it found -- unchanged (304,
# or the same text), changed (judged again: did its verdict change?),
# gone, moved -- crawls what changed pages newly link to, and `report`
# shows it per visit.
. tests/e2e/lib.sh

SITE="$E2E_TMP/site"
H=www.re.test
D="$SITE/$H"
mkdir -p "$D" || exit 1
# One paragraph of words of its own per (topic, n): pages made of
# different ones share no more than a template would.
para() {
	awk -v topic="$1" -v dept="$2" -v day="$3" -v n="$4" 'BEGIN {
		split("river mountain lantern copper violin harbour meadow " \
		    "glacier orchard compass falcon theatre quarry beacon " \
		    "canyon willow", w, " ")
		s = n * 7 + length(topic) * 3 + length(dept)
		printf "<p>%s of the department of %s on %s:", topic, dept, day
		for (i = 0; i < 40; i++) {
			s = (s * 1103515245 + 12345) % 2147483648
			printf " %s%d", w[1 + s % 16], (s / 16) % 97
		}
		printf ".</p>\n"
	}'
}
page() { # FILE TITLE BODY...
	f=$1 t=$2
	shift 2
	{
		printf '<html><head><title>%s</title></head><body><h1>%s</h1>\n' \
		    "$t" "$t"
		printf '%s\n' "$@"
		printf '</body></html>\n'
	} >"$D/$f"
}
page index.html Home '<a href="a.html">a</a> <a href="b.html">b</a>
<a href="c.html">c</a> <a href="d.html">d</a> <a href="f.html">f</a>
<a href="h.html">h</a>' "$(para News history Mondays 1)"
page a.html A "$(para Events physics Tuesdays 2)" "$(para Talks physics Fridays 12)"
page b.html B "$(para Events chemistry Wednesdays 3)"
page c.html C "$(para Events biology Thursdays 4)"
page d.html D "$(para Events geology Fridays 5)"
page f.html F "$(para Events astronomy Saturdays 6)"
page h.html H "$(para Events music Sundays 7)"
e2e_start_server "$SITE"
DB="$E2E_TMP/re.db"
OPTS="--quiet --delay-ms 0 --resolve $H:$PORT:127.0.0.1"

"$NEARCRAWL" crawl -d "$DB" $OPTS "http://$H:$PORT/" 2>"$E2E_TMP/c1.err"
eq "first crawl exits 0" "$?" 0
eq "first crawl: 7 pages, all unique" "$(q "$DB" "SELECT count(*) || ' ' ||
    sum(verdict = 'unique') FROM pages")" "7 7"
ok "ETags were kept" test "$(q "$DB" "SELECT count(*) FROM pages WHERE etag
    IS NOT NULL AND last_modified IS NOT NULL")" -eq 7

# found: whether `nearcrawl search QUERY` lists the page FILE.
found() {
	"$NEARCRAWL" search -d "$DB" --all --limit 100 "$1" 2>/dev/null |
	    grep -q "/$2\$" && echo yes || echo no
}
eq "search finds b by its text" "$(found '"Events of the department of
    chemistry"' b.html)" yes
eq "and c by its" "$(found biology c.html)" yes

# The site changes: b's text (and a new link), c goes, d moves to e, f
# becomes a near copy of a, h is touched but the same.
sleep 1.1
page b.html B "$(para Lectures chemistry Wednesdays 30)" '<a href="g.html">g</a>'
page g.html G "$(para Events linguistics Mondays 8)"
rm "$D/c.html"
printf 'Status: 301\nLocation: http://%s:%s/e.html\n' "$H" "$PORT" \
    >"$D/d.html.headers"
page e.html E "$(para Events geology Fridays 5)" "$(para Moved geology Fridays 50)"
page f.html A "$(para Events physics Tuesdays 2)" "$(para Talks physics Fridays 12)" \
    '<p>Updated.</p>'
touch "$D/h.html"
before=$(wc -l <"$SERVER_LOG")

"$NEARCRAWL" crawl -d "$DB" --recrawl $OPTS 2>"$E2E_TMP/c2.err"
eq "the recrawl exits 0" "$?" 0
ok "it says it is visit 2" grep -q "visit 2" "$E2E_TMP/c2.err"
eq "meta's visit is 2" "$(q "$DB" "SELECT value FROM meta WHERE key =
    'visit'")" 2
outcome() {
	q "$DB" "SELECT v.outcome FROM visits v JOIN pages p ON p.id =
	    v.page_id WHERE v.visit = 2 AND p.url LIKE '%/$1'"
}
# The index follows: b's entry holds its new text, gone c has none, and
# index has nothing to bring back.
eq "search finds b by its new text" "$(found Lectures b.html)" yes
eq "and no more by its old" "$(found '"Events of the department of
    chemistry"' b.html)" no
eq "gone c is not found" "$(found biology c.html)" no
eq "moved d is not found" "$(found geology d.html)" no
eq "e, where d went, is" "$(found geology e.html)" yes
"$NEARCRAWL" index -d "$DB" 2>"$E2E_TMP/ix.err"
eq "index has nothing to do" "$?:$(cat "$E2E_TMP/ix.err")" \
    "0:nearcrawl: index: 7 judged pages, 7 indexed, 0 to index"
eq "a: unchanged (304)" "$(outcome a.html)" unchanged
eq "index: unchanged" "$(outcome "")" unchanged
ok "unchanged pages were answered 304, on condition" test "$(tail -n +$((before + 1)) \
    "$SERVER_LOG" | awk '$5 == 304' | wc -l)" -ge 2
eq "h (touched, same text): unchanged" "$(outcome h.html)" unchanged
eq "b: changed" "$(outcome b.html)" changed
eq "c: gone" "$(outcome c.html)" gone
eq "d: moved" "$(outcome d.html)" moved
ok "d: to e.html" test "$(q "$DB" "SELECT v.location FROM visits v JOIN
    pages p ON p.id = v.page_id WHERE p.url LIKE '%/d.html'")" = \
    "http://$H:$PORT/e.html"
eq "f: changed, and now a near copy of a" "$(q "$DB" "SELECT v.outcome ||
    ' ' || v.was || ' ' || v.verdict FROM visits v JOIN pages p ON p.id =
    v.page_id WHERE p.url LIKE '%/f.html'")" "changed unique near"
eq "b: changed, still unique" "$(q "$DB" "SELECT v.was || ' ' || v.verdict
    FROM visits v JOIN pages p ON p.id = v.page_id WHERE p.url LIKE
    '%/b.html'")" "unique unique"
eq "g (linked from changed b): new, crawled" "$(outcome g.html)" new
eq "e (where d went): new, crawled" "$(outcome e.html)" new
eq "every old page visited once" "$(q "$DB" "SELECT count(*) FROM visits
    WHERE visit = 2 AND outcome <> 'new'")" 7
eq "no page row added for a revisit" "$(q "$DB" 'SELECT count(*) FROM
    pages')" 9
ok "the summary counts the visit" grep -q \
    "visit 2, this run: unchanged 3, changed 2 (1 with another verdict), gone 1, moved 1, error 0, new 2" \
    "$E2E_TMP/c2.err"

"$NEARCRAWL" report -d "$DB" -o "$E2E_TMP/rep" --quiet
eq "report exits 0" "$?" 0
ok "visits.csv: visit 2's counts" grep -qx "2,3,2,1,1,0,2,1" "$E2E_TMP/rep/visits.csv"
ok "visit-moves.csv: unique -> near" grep -qx "2,unique,near,1" \
    "$E2E_TMP/rep/visit-moves.csv"
ok "summary.txt tells the visit" grep -q "visit 2: 7 pages visited again" \
    "$E2E_TMP/rep/summary.txt"
# Each figure of the line its own (two once shared one buffer).
ok "summary.txt: 1 changed page with another verdict, 2 new pages" \
    grep -q "; 1 changed pages have another verdict; 2 new pages" \
    "$E2E_TMP/rep/summary.txt"
ok "index.html has the recrawls table" grep -q 'id="visits"' \
    "$E2E_TMP/rep/index.html"

# A plain resume after it has nothing to do; a third visit sees no change.
"$NEARCRAWL" crawl -d "$DB" $OPTS 2>/dev/null
eq "a resume after the recrawl exits 0" "$?" 0
eq "... and visits nothing" "$(q "$DB" 'SELECT count(*) FROM visits')" 9
"$NEARCRAWL" crawl -d "$DB" --recrawl $OPTS 2>/dev/null
eq "visit 3 exits 0" "$?" 0
eq "visit 3: nothing changed" "$(q "$DB" "SELECT group_concat(outcome || '='
    || n, ' ') FROM (SELECT outcome, count(*) AS n FROM visits WHERE visit
    = 3 GROUP BY outcome ORDER BY outcome)")" "gone=1 moved=1 unchanged=7"

# A report of a crawl never recrawled has no recrawl files.
"$NEARCRAWL" report -d "$E2E_TMP/none.db" -o "$E2E_TMP/rep0" --quiet \
    2>/dev/null
"$NEARCRAWL" crawl -d "$E2E_TMP/one.db" $OPTS "http://$H:$PORT/a.html" \
    2>/dev/null
"$NEARCRAWL" report -d "$E2E_TMP/one.db" -o "$E2E_TMP/rep1" --quiet 2>/dev/null
ok "no visits.csv without a recrawl" test ! -e "$E2E_TMP/rep1/visits.csv"
"$NEARCRAWL" crawl -d "$E2E_TMP/empty.db" --recrawl $OPTS \
    "http://127.0.0.1:1/" 2>"$E2E_TMP/empty.err"
eq "--recrawl of a new database is refused (exit 2)" "$?" 2

# On PostgreSQL: the same visit, the settings (--resolve among them) taken
# from the database by a resume that names none.
e2e_start_pg
PDB=$(pg_new_db recrawl)
"$NEARCRAWL" crawl -d "$PDB" $OPTS "http://$H:$PORT/" 2>/dev/null
eq "PostgreSQL: first crawl exits 0" "$?" 0
"$NEARCRAWL" crawl -d "$PDB" --recrawl --quiet 2>"$E2E_TMP/pg.err"
eq "PostgreSQL: the recrawl, given no other option, exits 0" "$?" 0
PSQL_OUT=$(psql "$PDB" -Atc "SELECT outcome || '=' || count(*) FROM visits
    WHERE visit = 2 GROUP BY outcome ORDER BY outcome" | tr '\n' ' ')
eq "PostgreSQL: every page visited again, found as it was" "$PSQL_OUT" \
    "gone=1 moved=1 unchanged=7 "

e2e_finish
