#!/bin/sh
# `nearcrawl search` and `nearcrawl index` on the labelled site: a title
# search finds the article once, its labelled copies folded under it
# ("N similar pages omitted", --all lists them, each a member of the
# article's labelled group); --k folds more; csv and jsonl carry the same
# groups; a bad query exits 2; rank makes PageRank choose, and the
# canonical site's declarations choose before it. `index` rebuilds the
# entries of a crawl that lost them -- from its WARC files, or its stored
# text -- and indexes a dedup database's revisit records, with the same
# results as the crawl's own index. Then the same on PostgreSQL, whose
# groups match SQLite's.
. tests/e2e/lib.sh

e2e_start_server tests/fixtures/sites
H=www.lab.test
DB=$E2E_TMP/lab.db
# crawl_to DB [OPTIONS...]: the lab site into DB, one transfer at a time
# (the same order on both engines).
crawl_to() {
	_db=$1
	shift
	"$NEARCRAWL" crawl -d "$_db" --quiet --delay-ms 0 --concurrency 1 \
	    --per-host 1 --resolve "$H:$PORT:127.0.0.1" "$@" \
	    "http://$H:$PORT/" 2>"$E2E_TMP/err"
}
search() {
	"$NEARCRAWL" search "$@" 2>"$E2E_TMP/serr"
}
# qs DB SQL: SQL on DB's index file (DB-search), where SQLite's index is.
qs() {
	q "$1-search" "$2"
}
# cpdb FROM TO: a crawl's database with its index file.
cpdb() {
	cp "$1" "$2" && cp "$1-search" "$2-search"
}
crawl_to "$DB" --store-text --warc "$E2E_TMP/warc"
eq "lab crawl exits 0" "$?" 0
eq "every judged page is indexed" \
    "$(qs "$DB" "SELECT count(*) FROM search_text")" \
    "$(q "$DB" "SELECT count(*) FROM pages WHERE verdict IN
        ('unique', 'exact', 'near')")"

# The article of group article-001 and its four labelled copies.
A=expedition-team-hosts-crowded-exhibition-in-the-rare-curriculum.html
T='"Expedition Team Hosts Crowded Exhibition"'
search -d "$DB" --limit 1 "title:$T" >"$E2E_TMP/out"
eq "search exits 0" "$?" 0
ok "the article's group comes first" grep -q "^   http.*/$A" "$E2E_TMP/out"
ok "its four copies are folded under it" \
    grep -q '4 similar pages omitted (shown: first seen)' "$E2E_TMP/out"
search -d "$DB" --limit 1 "$T" >"$E2E_TMP/out"
ok "the matched words are marked" \
    grep -q '\[Expedition Team Hosts Crowded Exhibition\]' "$E2E_TMP/out"
ok "no PageRank yet: said on stderr" grep -q 'nearcrawl rank' \
    "$E2E_TMP/serr"
search -d "$DB" --all --limit 1 "title:$T" >"$E2E_TMP/all"
# The shown URL and the members' (lines "     - URL  ..."), as paths.
grep -o "$H:$PORT/[^ ]*" "$E2E_TMP/all" | sed "s|^$H:$PORT||" |
    sort >"$E2E_TMP/got"
awk -F '\t' '$2 == "article-001" { print $1 }' tests/fixtures/labelled.tsv |
    sort >"$E2E_TMP/want"
eq "--all: the group is the article's labelled group" \
    "$(diff "$E2E_TMP/got" "$E2E_TMP/want" && echo same)" same
eq "--all: four member lines" "$(grep -c '^     - ' "$E2E_TMP/all")" 4

# Every result of a broad query, folded by the crawl's verdicts, then
# by SimHash too: within 3 bits never more groups; within 64 bits (any
# two hashes) one. (The crawl's verdicts fold every copy of this site a
# SimHash within a few bits finds: the unit tests check which pairs.)
groups_of() {
	search -d "$DB" --top 100000 --limit 10000 --format csv "$@" team |
	    grep -c ',shown,'
}
n0=$(groups_of)
n3=$(groups_of --k 3)
ok "--k 3 folds at least as much ($n3 groups against $n0)" \
    test "$n3" -le "$n0" -a "$n3" -gt 1
eq "--k 64 folds every match into one group" "$(groups_of --k 64)" 1
search -d "$DB" --all --format csv --limit 3 "title:$T" >"$E2E_TMP/g.csv"
eq "csv: a header and the group's five rows" \
    "$(sed -n 1p "$E2E_TMP/g.csv"; grep -c "$A" "$E2E_TMP/g.csv")" \
    "rank,role,url,title,verdict,score,pagerank,seq,omitted,shown_by,fold,bits,snippet
5"
search -d "$DB" --all --format jsonl --limit 3 "title:$T" >"$E2E_TMP/g.jsonl"
eq "jsonl: one valid object a group, the first with four members" \
    "$(python3 -c 'import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
print(len(rows) >= 1, rows[0]["omitted"], len(rows[0]["members"]),
      rows[0]["members"][0]["fold"])' "$E2E_TMP/g.jsonl")" "True 4 4 cluster"

# Bad queries and usage: exit 2, FTS5's reason.
search -d "$DB" 'lake AND' >/dev/null
eq "a bad query exits 2" "$?" 2
ok "and says why" grep -q 'bad query: fts5: syntax error' "$E2E_TMP/serr"
search -d "$DB" 'url:lake' >/dev/null
eq "an unknown column exits 2" "$?" 2
search -d "$DB" --limit 0 lake >/dev/null
eq "--limit 0 exits 2" "$?" 2
search -d "$DB" >/dev/null
eq "no query exits 2" "$?" 2
search -d "$DB" zyzzyvaqq >"$E2E_TMP/out"
eq "no match: exit 0, said" "$?:$(cat "$E2E_TMP/out")" "0:no page matches"

# rank: PageRank chooses (the best-linked copy, the ?sessionid= one the
# home page links).
"$NEARCRAWL" rank -d "$DB" --quiet
search -d "$DB" --limit 1 "title:$T" >"$E2E_TMP/out"
ok "after rank, PageRank chooses" grep -q '(shown: pagerank)' \
    "$E2E_TMP/out"
eq "and nothing is said about rank" "$(cat "$E2E_TMP/serr")" ""

# Declared canonicals choose first (www.canon.test: the article is
# reached as ?sessionid=abc123 first; both copies declare article.html).
C=www.canon.test
"$NEARCRAWL" crawl -d "$E2E_TMP/canon.db" --quiet --delay-ms 0 \
    --resolve "$C:$PORT:127.0.0.1" "http://$C:$PORT/" 2>/dev/null
search -d "$E2E_TMP/canon.db" --limit 1 '"reading room reopens"' \
    >"$E2E_TMP/out"
eq "the declared canonical is shown" "$(sed -n 2p "$E2E_TMP/out")" \
    "   http://$C:$PORT/article.html"
ok "and said to be" grep -q '(shown: declared canonical)' "$E2E_TMP/out"

# A crawl told not to index (--search-index no): nothing indexed, search
# says so, index makes it from the stored text.
"$NEARCRAWL" crawl -d "$E2E_TMP/noix.db" --quiet --delay-ms 0 \
    --search-index no --store-text --text body \
    --resolve "$C:$PORT:127.0.0.1" "http://$C:$PORT/" 2>/dev/null
eq "--search-index no: no index file made" \
    "$(test -e "$E2E_TMP/noix.db-search" && echo made)" ""
search -d "$E2E_TMP/noix.db" library >"$E2E_TMP/out"
ok "search says the index lacks pages" grep -q 'nearcrawl index' \
    "$E2E_TMP/serr"
"$NEARCRAWL" index -d "$E2E_TMP/noix.db" 2>"$E2E_TMP/ierr"
ok "index takes the stored text (the near text of --text body)" grep -Eq \
    'indexed now: 0 from WARC records, [1-9][0-9]* from stored text' \
    "$E2E_TMP/ierr"
ok "and does not call it a superset" sh -c \
    "! grep -q 'superset' '$E2E_TMP/ierr'"
search -d "$E2E_TMP/noix.db" library >"$E2E_TMP/out"
eq "then search finds the guide" "$(sed -n 2p "$E2E_TMP/out")" \
    "   http://$C:$PORT/guide.html"
ok "and says nothing of the index" sh -c \
    "! grep -q 'nearcrawl index' '$E2E_TMP/serr'"

# ---- index: a crawl's lost entries, from WARC files or stored text ----
search -d "$DB" --all --format csv --limit 10000 --top 100000 'lake OR team' \
    >"$E2E_TMP/before.csv"
cpdb "$DB" "$E2E_TMP/lost.db"
qs "$E2E_TMP/lost.db" "DELETE FROM search_text"
search -d "$E2E_TMP/lost.db" lake >/dev/null
ok "an index that lacks pages is said to" grep -q 'nearcrawl index' \
    "$E2E_TMP/serr"
"$NEARCRAWL" index -d "$E2E_TMP/lost.db" 2>"$E2E_TMP/ierr"
eq "index exits 0" "$?" 0
ok "index: from the WARC records and their revisits" grep -Eq \
    'indexed now: [1-9][0-9]* from WARC records, 0 from stored text, [1-9][0-9]* as the original' \
    "$E2E_TMP/ierr"
search -d "$E2E_TMP/lost.db" --all --format csv --limit 10000 --top 100000 \
    'lake OR team' >"$E2E_TMP/after.csv"
eq "the rebuilt index gives the same results" \
    "$(cmp -s "$E2E_TMP/before.csv" "$E2E_TMP/after.csv" && echo same)" same
"$NEARCRAWL" index -d "$E2E_TMP/lost.db" 2>"$E2E_TMP/ierr"
eq "a rerun has nothing to do" "$?:$(cat "$E2E_TMP/ierr")" \
    "0:nearcrawl: index: 624 judged pages, 624 indexed, 0 to index"
# The index file lost: told to run index, which makes it again.
cp "$DB" "$E2E_TMP/gone.db"
search -d "$E2E_TMP/gone.db" lake >/dev/null
eq "search without the index file exits 2" "$?" 2
ok "and says to run nearcrawl index" grep -q 'nearcrawl index -d' \
    "$E2E_TMP/serr"
"$NEARCRAWL" index -d "$E2E_TMP/gone.db" 2>"$E2E_TMP/ierr"
eq "index makes the file again" "$?:$(test -f "$E2E_TMP/gone.db-search" &&
    echo made)" 0:made
search -d "$E2E_TMP/gone.db" --all --format csv --limit 10000 --top 100000 \
    'lake OR team' >"$E2E_TMP/after.csv"
eq "with the same results" \
    "$(cmp -s "$E2E_TMP/before.csv" "$E2E_TMP/after.csv" && echo same)" same
# A database of an earlier nearcrawl, whose index is a table of its own:
# read there, and index does not move it.
cp "$DB" "$E2E_TMP/old.db"
q "$E2E_TMP/old.db" "ATTACH '$DB-search' AS s;
    CREATE VIRTUAL TABLE main.search_text USING fts5(title, body,
        tokenize = 'unicode61 remove_diacritics 2');
    INSERT INTO main.search_text (rowid, title, body)
        SELECT rowid, title, body FROM s.search_text"
search -d "$E2E_TMP/old.db" --all --format csv --limit 10000 --top 100000 \
    'lake OR team' >"$E2E_TMP/after.csv"
eq "an earlier version's index is read" \
    "$(cmp -s "$E2E_TMP/before.csv" "$E2E_TMP/after.csv" && echo same)" same
"$NEARCRAWL" index -d "$E2E_TMP/old.db" 2>"$E2E_TMP/ierr"
eq "and index finds it complete, making no file" \
    "$?:$(test -e "$E2E_TMP/old.db-search" && echo made)" 0:
# Without the archive, the stored (body) text: said to be a superset.
cpdb "$DB" "$E2E_TMP/text.db"
qs "$E2E_TMP/text.db" "DELETE FROM search_text WHERE rowid % 2 = 0"
q "$E2E_TMP/text.db" "DELETE FROM meta WHERE key = 'warc_dir'"
mv "$E2E_TMP/warc" "$E2E_TMP/warc.away"
"$NEARCRAWL" index -d "$E2E_TMP/text.db" 2>"$E2E_TMP/ierr"
eq "index from stored text exits 0" "$?" 0
ok "the stored body text is used, and said to be" grep -q \
    'indexed with their stored body text' "$E2E_TMP/ierr"
eq "every judged page indexed" \
    "$(qs "$E2E_TMP/text.db" "SELECT count(*) FROM search_text")" 624
# Neither: counted and named.
cpdb "$DB" "$E2E_TMP/none.db"
qs "$E2E_TMP/none.db" "DELETE FROM search_text WHERE rowid <= 10"
q "$E2E_TMP/none.db" "UPDATE pages SET text = NULL"
"$NEARCRAWL" index -d "$E2E_TMP/none.db" 2>"$E2E_TMP/ierr"
eq "index without a source exits 0" "$?" 0
ok "and says what cannot be indexed" grep -q \
    '^nearcrawl: index: 10 pages cannot be indexed' "$E2E_TMP/ierr"
mv "$E2E_TMP/warc.away" "$E2E_TMP/warc"
# A dedup database: its pages indexed as read, its revisit records by
# index.
"$NEARCRAWL" dedup -d "$E2E_TMP/dedup.db" --quiet "$E2E_TMP"/warc/*.warc.gz \
    2>/dev/null
eq "dedup exits 0" "$?" 0
search -d "$E2E_TMP/dedup.db" --limit 1 "title:$T" >"$E2E_TMP/out"
eq "search on a dedup database exits 0" "$?" 0
ok "and finds the article" grep -q "^   http.*/$A" "$E2E_TMP/out"
"$NEARCRAWL" index -d "$E2E_TMP/dedup.db" 2>"$E2E_TMP/ierr"
ok "index adds dedup's revisit records" grep -Eq \
    '[1-9][0-9]* as the original of their revisit record' "$E2E_TMP/ierr"
eq "every judged page of the dedup database indexed" \
    "$(qs "$E2E_TMP/dedup.db" "SELECT count(*) FROM search_text")" \
    "$(q "$E2E_TMP/dedup.db" "SELECT count(*) FROM pages WHERE verdict IN
        ('unique', 'exact', 'near')")"

# ---- the paper's experiment ----
printf '9\t"expedition team"\n8\tlake\n7\tteam\n' >"$E2E_TMP/q.tsv"
search -d "$DB" --queries "$E2E_TMP/q.tsv" -o "$E2E_TMP/rep" \
    >"$E2E_TMP/out"
eq "--queries exits 0" "$?" 0
eq "--queries: a CSV row per k and group" \
    "$(awk -F , 'NR > 1 { print $1, $2, $5 }' "$E2E_TMP/rep/queries.csv" |
        tr '\n' ';')" "0 1-100 3;1 1-100 3;2 1-100 3;3 1-100 3;"
ok "--queries: removes duplicates, more as k grows" awk -F , '
    NR > 1 { r[$1] = $7 } END { exit !(r[0] > 0 && r[3] >= r[0]) }' \
    "$E2E_TMP/rep/queries.csv"
ok "--queries: the plot" test -s "$E2E_TMP/rep/queries.gp"
printf '9\tlake AND\n' >"$E2E_TMP/bad.tsv"
search -d "$DB" --queries "$E2E_TMP/bad.tsv" -o "$E2E_TMP/rep" >/dev/null
eq "--queries: a bad query exits 2" "$?" 2
ok "and names its line" grep -q 'bad.tsv:1: bad query' "$E2E_TMP/serr"

# ---- PostgreSQL: the same groups, and index ----
[ -n "${PG_URI:-}" ] || e2e_start_pg
if [ -z "${PG_URI:-}" ]; then
	eq "a PostgreSQL server to test on (PG_URI)" "" "set"
	e2e_finish
fi
PGDB=ncsearch_$$
psql -X -q "$PG_URI" -c "CREATE DATABASE $PGDB"
PG=$(printf '%s\n' "$PG_URI" | sed "s|^\(postgres[a-z]*://[^/?]*/\)[^?]*|\1$PGDB|")
crawl_to "$PG" --store-text
eq "crawl into PostgreSQL exits 0" "$?" 0
# The groups of every match, as sets of URLs, sorted: the engines rank
# differently but fold alike.
groups() {
	"$NEARCRAWL" search -d "$1" --all --format csv --limit 10000 \
	    --top 100000 "$2" 2>/dev/null | python3 -c 'import csv, sys
groups = {}
for r in list(csv.DictReader(sys.stdin)):
    groups.setdefault(r["rank"], []).append(r["url"])
for g in sorted(" ".join(sorted(m)) for m in groups.values()):
    print(g)'
}
# A fresh SQLite crawl, one transfer at a time as the PostgreSQL one.
crawl_to "$E2E_TMP/one.db" --store-text
for query in lake "title:$T" '"open day" OR harbour' 'exhib*'; do
	groups "$E2E_TMP/one.db" "$query" >"$E2E_TMP/g.sq"
	groups "$PG" "$query" >"$E2E_TMP/g.pg"
	eq "PostgreSQL: the same groups as SQLite for $query" \
	    "$(test -s "$E2E_TMP/g.sq" && cmp -s "$E2E_TMP/g.sq" "$E2E_TMP/g.pg" &&
	        echo same)" same
done
search -d "$PG" --limit 1 "$T" >"$E2E_TMP/out"
ok "PostgreSQL: the article's group first" grep -q "^   http.*/$A" \
    "$E2E_TMP/out"
ok "PostgreSQL: its words marked" \
    grep -q '\[Expedition Team Hosts Crowded Exhibition\]' "$E2E_TMP/out"
search -d "$PG" 'lake AND' >/dev/null
eq "PostgreSQL: a bad query exits 2" "$?" 2
ok "PostgreSQL: with FTS5's words" grep -q 'bad query: fts5: syntax error' \
    "$E2E_TMP/serr"
psql -X -q "$PG" -c "DELETE FROM search_text WHERE page_id % 3 = 0"
"$NEARCRAWL" index -d "$PG" 2>"$E2E_TMP/ierr"
eq "PostgreSQL: index exits 0" "$?" 0
eq "PostgreSQL: every judged page indexed again" \
    "$(psql -X -q -A -t "$PG" -c "SELECT count(*) FROM search_text")" 624
psql -X -q "$PG_URI" -c "DROP DATABASE $PGDB" >/dev/null 2>&1
e2e_finish
