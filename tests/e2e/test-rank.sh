#!/bin/sh
# `nearcrawl rank`: the crawl records its link graph; PageRank on a
# three-page site matches the hand-computed scores and picks the better
# linked copy as canonical; on the labelled site every duplicate cluster
# gets one canonical, its best-scored member, and clusters.csv names it.
. tests/e2e/lib.sh

e2e_start_server tests/fixtures/sites
# near: a score within 1e-6 of a fraction.
near() {
	awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; exit !(d < 1e-6 && d > -1e-6) }'
}

# ---- www.rank.test: / -> a, b; a -> b; b -> /; b is a's exact copy ----
# R = 0.05 + 0.85 b, a = 0.05 + 0.85 R / 2, b = a + 0.85 a (d = 0.85):
# R = 686/1769, a = 380/1769, b = 703/1769.
H=www.rank.test
DB=$E2E_TMP/rank.db
"$NEARCRAWL" crawl -d "$DB" --quiet --delay-ms 0 \
    --resolve "$H:$PORT:127.0.0.1" "http://$H:$PORT/" 2>/dev/null
eq "small crawl exits 0" "$?" 0
eq "links rows: one per page with links" \
    "$(q "$DB" 'SELECT count(*), sum(length(targets)) / 8 FROM links')" "3|4"
"$NEARCRAWL" rank -d "$DB" --epsilon 1e-12 --iterations 1000 \
    >"$E2E_TMP/out" 2>"$E2E_TMP/err"
eq "rank exits 0" "$?" 0
eq "rank: nothing on stderr" "$(cat "$E2E_TMP/err")" ""
ok "rank: summary counts the links" \
    grep -q '^pages: 3, links between them: 4 ' "$E2E_TMP/out"
score() {
	q "$DB" "SELECT printf('%.9f', r.pagerank) FROM ranks r JOIN pages p
	    ON p.id = r.page_id WHERE p.url LIKE '%$1'"
}
ok "home scores 686/1769" near "$(score ':'"$PORT"'/')" "$(awk 'BEGIN { print 686/1769 }')"
ok "a scores 380/1769" near "$(score /a.html)" "$(awk 'BEGIN { print 380/1769 }')"
ok "b scores 703/1769" near "$(score /b.html)" "$(awk 'BEGIN { print 703/1769 }')"
eq "the better-linked copy is canonical" \
    "$(q "$DB" "SELECT p.url FROM ranks r JOIN pages p ON p.id = r.page_id
        WHERE r.canonical_id = r.page_id")" "http://$H:$PORT/b.html"
eq "both copies point at it, the home page at none" \
    "$(q "$DB" "SELECT count(*), count(canonical_id) FROM ranks")" "3|2"

# ---- the labelled site ------------------------------------------------
H=www.lab.test
DB=$E2E_TMP/lab.db
"$NEARCRAWL" crawl -d "$DB" --quiet --delay-ms 0 --per-host 1 \
    --resolve "$H:$PORT:127.0.0.1" "http://$H:$PORT/" 2>/dev/null
eq "lab crawl exits 0" "$?" 0
eq "every judged page but the print views (no links) has links" \
    "$(q "$DB" "SELECT count(*) FROM pages p LEFT JOIN links l
        ON l.page_id = p.id WHERE l.page_id IS NULL
        AND p.url NOT LIKE '%/print/%'")" 0
"$NEARCRAWL" rank -d "$DB" >"$E2E_TMP/out" 2>"$E2E_TMP/err"
eq "lab rank exits 0" "$?" 0
ok "lab rank converged" grep -q '(converged)$' "$E2E_TMP/out"
eq "one ranks row per page" \
    "$(q "$DB" 'SELECT (SELECT count(*) FROM ranks) = count(*) FROM pages')" 1
ok "scores sum to 1" near "$(q "$DB" 'SELECT sum(pagerank) FROM ranks')" 1
eq "pages in a duplicates row have a canonical, the others none" \
    "$(q "$DB" "SELECT count(*) FROM ranks r WHERE (r.canonical_id IS NULL)
        = EXISTS (SELECT 1 FROM duplicates d WHERE d.page_id = r.page_id
                  OR d.original_id = r.page_id)")" 0
eq "both ends of a duplicates row share the canonical" \
    "$(q "$DB" "SELECT count(*) FROM duplicates d
        JOIN ranks a ON a.page_id = d.page_id
        JOIN ranks b ON b.page_id = d.original_id
        WHERE a.canonical_id IS NOT b.canonical_id")" 0
eq "a canonical is its own canonical" \
    "$(q "$DB" "SELECT count(*) FROM ranks r JOIN ranks c
        ON c.page_id = r.canonical_id WHERE c.canonical_id <> c.page_id")" 0
eq "no member outscores its canonical" \
    "$(q "$DB" "SELECT count(*) FROM ranks r JOIN ranks c
        ON c.page_id = r.canonical_id
        WHERE r.pagerank > c.pagerank * (1 + 1e-9)")" 0
clusters=$(q "$DB" 'SELECT count(DISTINCT canonical_id) FROM ranks')
ok "summary counts the clusters" \
    grep -q "^duplicate clusters: $clusters with " "$E2E_TMP/out"
eq "the home page outscores every article" \
    "$(q "$DB" "SELECT count(*) FROM ranks a JOIN pages p ON p.id = a.page_id
        WHERE p.url LIKE '%/news/%.html' AND a.pagerank >=
        (SELECT r.pagerank FROM ranks r JOIN pages h ON h.id = r.page_id
         WHERE h.url = 'http://$H:$PORT/')")" 0
q "$DB" 'SELECT page_id, pagerank, canonical_id FROM ranks' >"$E2E_TMP/r1"
"$NEARCRAWL" rank -d "$DB" --quiet >"$E2E_TMP/out" 2>&1
eq "again with --quiet: exits 0, prints nothing" "$?:$(cat "$E2E_TMP/out")" 0:
q "$DB" 'SELECT page_id, pagerank, canonical_id FROM ranks' >"$E2E_TMP/r2"
ok "again: the same ranks" cmp -s "$E2E_TMP/r1" "$E2E_TMP/r2"

"$NEARCRAWL" report -d "$DB" -o "$E2E_TMP/rep" --quiet 2>/dev/null
eq "report exits 0" "$?" 0
eq "clusters.csv names each row's canonical" \
    "$(awk -F, 'NR > 1 && $5 == "" { n++ } END { print n + 0 }' \
        "$E2E_TMP/rep/clusters.csv")" 0
eq "clusters.csv canonicals are the ranks table's" \
    "$(awk -F, 'NR > 1 { print $5 }' "$E2E_TMP/rep/clusters.csv" |
        sort -u | wc -l | tr -d ' ')" "$clusters"

# ---- a database from before the link graph: tables added, no links ----
q "$DB" 'DROP TABLE links; DROP TABLE ranks'
"$NEARCRAWL" rank -d "$DB" >"$E2E_TMP/out" 2>&1
eq "old database: rank exits 0" "$?" 0
ok "old database: says there are no links" grep -q '^no links between' \
    "$E2E_TMP/out"
eq "old database: the first-fetched page stays canonical" \
    "$(q "$DB" "SELECT count(*) FROM ranks r JOIN pages p
        ON p.id = r.page_id JOIN pages c ON c.id = r.canonical_id
        WHERE p.seq < c.seq")" 0

# ---- usage and bad databases -------------------------------------------
"$NEARCRAWL" rank >/dev/null 2>&1
eq "no -d: exit 2" "$?" 2
"$NEARCRAWL" rank -d "$DB" --damping 1 >/dev/null 2>&1
eq "damping 1: exit 2" "$?" 2
"$NEARCRAWL" rank -d "$DB" --iterations 0 >/dev/null 2>&1
eq "iterations 0: exit 2" "$?" 2
"$NEARCRAWL" rank -d "$DB" --bogus >/dev/null 2>&1
eq "unknown option: exit 2" "$?" 2
"$NEARCRAWL" rank --help >"$E2E_TMP/out" 2>&1
eq "--help: exit 0" "$?" 0
ok "--help names the options" grep -q -- '--damping' "$E2E_TMP/out"
"$NEARCRAWL" rank -d "$E2E_TMP/none.db" >/dev/null 2>&1
eq "missing database: exit 2" "$?" 2
ok "missing database: not created" test ! -e "$E2E_TMP/none.db"
printf 'not a database\n' >"$E2E_TMP/bogus.db"
"$NEARCRAWL" rank -d "$E2E_TMP/bogus.db" >/dev/null 2>&1
eq "not a database: exit 2" "$?" 2
e2e_finish
