#!/bin/sh
# `nearcrawl export` and declared canonicals: a small site whose article is
# reached first under a ?sessionid= address and declares its canonical in
# HTML, and a print view whose Link header names the guide it copies. The
# export parses as CSV and as JSON Lines with one row per page, --clusters
# lists the clusters, rank prefers the declared canonical to PageRank's
# choice, web text is escaped, and memory does not grow with the rows.
. tests/e2e/lib.sh

e2e_start_server tests/fixtures/sites
H=www.canon.test
B="http://$H:$PORT"
DB=$E2E_TMP/canon.db
# One page at a time: with two in the worker pool, whichever finishes
# first queues its links first, and the guide / print view tie that rank
# breaks by fetch order would fall either way.
"$NEARCRAWL" crawl -d "$DB" --quiet --delay-ms 0 --concurrency 1 \
    --resolve "$H:$PORT:127.0.0.1" "$B/" 2>/dev/null
eq "crawl exits 0" "$?" 0
eq "verdicts" "$(q "$DB" "SELECT group_concat(verdict || ':' || n) FROM
    (SELECT verdict, count(*) AS n FROM pages GROUP BY verdict
     ORDER BY verdict)")" "exact:2,unique:4"
eq "the sessionid copy was fetched first" \
    "$(q "$DB" "SELECT url FROM pages WHERE url LIKE '%article%'
        ORDER BY seq LIMIT 1")" "$B/article.html?sessionid=abc123"
eq "HTML rel=canonical stored, resolved" \
    "$(q "$DB" "SELECT canonical FROM pages
        WHERE url = '$B/article.html?sessionid=abc123'")" "$B/article.html"
eq "the Link header wins over the page's own" \
    "$(q "$DB" "SELECT canonical FROM pages WHERE url = '$B/print.html'")" \
    "$B/guide.html"
eq "pages without one store NULL" \
    "$(q "$DB" "SELECT count(*) FROM pages WHERE canonical IS NULL")" 2

# ---- export before rank ---------------------------------------------------
"$NEARCRAWL" export -d "$DB" >"$E2E_TMP/pages.csv" 2>"$E2E_TMP/err"
eq "export exits 0" "$?" 0
eq "export: nothing on stderr" "$(cat "$E2E_TMP/err")" ""
check_csv() {
	python3 - "$1" "$B" "$2" <<'PY'
import csv, sys
path, base, ranked = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
with open(path, newline="", encoding="utf-8") as f:
    rows = list(csv.DictReader(f))
assert len(rows) == 6, len(rows)
assert list(rows[0].keys()) == ["url", "host", "seq", "fetched_at",
    "status", "verdict", "reason", "original", "method", "percentage",
    "canonical", "declared_canonical"], list(rows[0].keys())
v = {}
for r in rows:
    v[r["verdict"]] = v.get(r["verdict"], 0) + 1
assert v == {"unique": 4, "exact": 2}, v
assert [int(r["seq"]) for r in rows] == sorted(int(r["seq"]) for r in rows)
by = {r["url"]: r for r in rows}
a = by[base + "/article.html"]
assert a["original"] == base + "/article.html?sessionid=abc123", a
assert a["method"] == "md5" and a["percentage"] == "100.00", a
assert a["declared_canonical"] == base + "/article.html", a
assert by[base + "/"]["original"] == "" and by[base + "/"]["method"] == ""
assert by[base + "/print.html"]["declared_canonical"] == base + "/guide.html"
assert rows[0]["fetched_at"].endswith("Z") and rows[0]["status"] == "200"
for r in rows:
    if ranked and r["verdict"] == "exact":
        want = base + ("/article.html" if "article" in r["url"]
                       else "/guide.html")
        assert r["canonical"] == want, r
    if not ranked:
        assert r["canonical"] == "", r
PY
}
ok "csv parses: 6 rows, verdicts, original, declared" \
    check_csv "$E2E_TMP/pages.csv" 0
ok "csv lines end in CRLF" grep -q "$(printf '\r')\$" "$E2E_TMP/pages.csv"

"$NEARCRAWL" export -d "$DB" --format jsonl -o "$E2E_TMP/pages.jsonl"
eq "jsonl export to a file exits 0" "$?" 0
check_jsonl() {
	python3 - "$1" <<'PY'
import json, sys
n, v = 0, {}
for line in open(sys.argv[1], encoding="utf-8"):
    r = json.loads(line)
    n += 1
    v[r["verdict"]] = v.get(r["verdict"], 0) + 1
    assert isinstance(r["seq"], int) and isinstance(r["status"], int)
    assert (r["original"] is None) == (r["verdict"] == "unique"), r
    assert r["percentage"] is None or r["percentage"] == 100.0, r
assert n == 6 and v == {"unique": 4, "exact": 2}, (n, v)
PY
}
ok "jsonl parses line by line: 6 rows, verdicts" \
    check_jsonl "$E2E_TMP/pages.jsonl"

"$NEARCRAWL" export -d "$DB" --clusters >/dev/null 2>"$E2E_TMP/err"
eq "--clusters before rank: exit 2" "$?" 2
ok "--clusters before rank: says to run rank" grep -q "run .nearcrawl rank" \
    "$E2E_TMP/err"

# ---- rank: the declared canonical wins --------------------------------
"$NEARCRAWL" rank -d "$DB" >"$E2E_TMP/out" 2>"$E2E_TMP/err"
eq "rank exits 0" "$?" 0
ok "rank reports the declared canonicals" grep -q "^declared canonical: 2 \
clusters declare one of their members, 1 agree with PageRank's choice, 1 \
override it, 0 disagree among themselves" "$E2E_TMP/out"
eq "the better-linked sessionid copy outscores the article" \
    "$(q "$DB" "SELECT s.pagerank > a.pagerank FROM ranks s, ranks a
        WHERE s.page_id = (SELECT id FROM pages WHERE url LIKE '%sessionid%')
        AND a.page_id = (SELECT id FROM pages
                         WHERE url = '$B/article.html')")" 1
eq "rank picks the declared canonical, not the ?sessionid= URL" \
    "$(q "$DB" "SELECT DISTINCT c.url FROM ranks k
        JOIN pages p ON p.id = k.page_id JOIN pages c ON c.id = k.canonical_id
        WHERE p.url LIKE '%article%'")" "$B/article.html"
eq "the print view's cluster keeps the guide" \
    "$(q "$DB" "SELECT c.url FROM ranks k JOIN pages p ON p.id = k.page_id
        JOIN pages c ON c.id = k.canonical_id
        WHERE p.url = '$B/print.html'")" "$B/guide.html"

"$NEARCRAWL" report -d "$DB" -o "$E2E_TMP/report" >/dev/null 2>&1
ok "report: how the declared canonicals stand against the crawl's choice" \
    grep -q "^Declared canonicals: 2 duplicate clusters declare one of \
their own pages canonical (rel=canonical): in 2 the declared page is the \
one the crawl keeps, in 0 it is not.$" "$E2E_TMP/report/summary.txt"
ok "report: ... in index.html too" grep -q "<p>Declared canonicals: 2 \
duplicate clusters" "$E2E_TMP/report/index.html"
"$NEARCRAWL" export -d "$DB" >"$E2E_TMP/pages.csv"
ok "csv after rank: canonical column filled" check_csv "$E2E_TMP/pages.csv" 1
"$NEARCRAWL" export -d "$DB" --clusters >"$E2E_TMP/clusters.csv"
eq "--clusters exits 0" "$?" 0
check_clusters() {
	python3 - "$1" "$B" <<'PY'
import csv, sys
base = sys.argv[2]
rows = list(csv.DictReader(open(sys.argv[1], newline="", encoding="utf-8")))
assert len(rows) == 2, rows
got = sorted((r["canonical"], int(r["size"]), r["members"]) for r in rows)
assert got == [
    (base + "/article.html", 2,
     base + "/article.html?sessionid=abc123 " + base + "/article.html"),
    (base + "/guide.html", 2, base + "/guide.html " + base + "/print.html"),
], got
PY
}
ok "--clusters csv: two clusters, canonical, size, members" \
    check_clusters "$E2E_TMP/clusters.csv"
"$NEARCRAWL" export -d "$DB" --clusters --members 1 --format jsonl \
    >"$E2E_TMP/clusters.jsonl"
ok "--clusters jsonl: first member only, size kept" python3 -c '
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
assert len(rows) == 2 and all(r["size"] == 2 and len(r["members"]) == 1
                              for r in rows), rows
' "$E2E_TMP/clusters.jsonl"

# ---- usage and errors -------------------------------------------------
"$NEARCRAWL" export --help >"$E2E_TMP/out" 2>"$E2E_TMP/err"
eq "--help exits 0" "$?" 0
ok "--help on stdout" grep -q "^usage: nearcrawl export" "$E2E_TMP/out"
eq "--help: nothing on stderr" "$(cat "$E2E_TMP/err")" ""
"$NEARCRAWL" export -d "$DB" --format xml >"$E2E_TMP/out" 2>"$E2E_TMP/err"
eq "bad format: exit 2" "$?" 2
eq "bad usage: nothing on stdout" "$(cat "$E2E_TMP/out")" ""
ok "bad usage: usage on stderr" grep -q "^usage: nearcrawl export" \
    "$E2E_TMP/err"
"$NEARCRAWL" export >/dev/null 2>&1
eq "no -d: exit 2" "$?" 2
"$NEARCRAWL" export -d "$E2E_TMP/none.db" >/dev/null 2>"$E2E_TMP/err"
eq "missing database: exit 2" "$?" 2
ok "missing database: not created" test ! -e "$E2E_TMP/none.db"
echo "plain text" >"$E2E_TMP/text.db"
"$NEARCRAWL" export -d "$E2E_TMP/text.db" -o "$E2E_TMP/x.csv" 2>/dev/null
eq "not a database: exit 2" "$?" 2
ok "not a database: no output file left" test ! -e "$E2E_TMP/x.csv"

# ---- escaping of web text ---------------------------------------------
ESC=$E2E_TMP/esc.db
cp "$DB" "$ESC"
q "$ESC" "UPDATE pages SET reason = CAST(X'612c2262220d0a09ff5c01' AS TEXT),
    canonical = CAST(X'687474703a2f2f782fc3a9' AS TEXT) WHERE url = '$B/'"
"$NEARCRAWL" export -d "$ESC" -o "$E2E_TMP/esc.csv"
"$NEARCRAWL" export -d "$ESC" --format jsonl -o "$E2E_TMP/esc.jsonl"
ok "csv: quotes, comma, CR LF, invalid UTF-8 round-trip" python3 -c '
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="", encoding="utf-8")))
r = [x for x in rows if x["url"] == sys.argv[2] + "/"][0]
assert r["reason"] == "a,\"b\"\r\n\t\ufffd\\\x01", repr(r["reason"])
assert r["declared_canonical"] == "http://x/\u00e9", r
assert len(rows) == 6
' "$E2E_TMP/esc.csv" "$B"
ok "jsonl: control characters and invalid UTF-8 escaped" python3 -c '
import json, sys
raw = open(sys.argv[1], "rb").read()
assert b"\xff" not in raw and b"\x01" not in raw and b"\t" not in raw
rows = [json.loads(l) for l in raw.decode("utf-8").splitlines()]
r = [x for x in rows if x["url"] == sys.argv[2] + "/"][0]
assert r["reason"] == "a,\"b\"\r\n\t\ufffd\\\x01", repr(r["reason"])
' "$E2E_TMP/esc.jsonl" "$B"

# ---- memory: 2,000 and 20,000 rows ------------------------------------
# Synthetic pages with 500-byte reasons: holding the rows would cost about
# 10 MB more for the larger database; streaming costs nothing.
grow() {
	cp "$DB" "$2"
	# seq goes on from the crawl's, as a longer crawl's would.
	_last=$(q "$2" 'SELECT max(seq) FROM pages')
	q "$2" "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n
	    WHERE i < $1) INSERT INTO pages (url, host, verdict, reason, status,
	    depth, seq, fetched_at) SELECT 'http://syn.test/page/' || i ||
	    '?' || hex(randomblob(40)), 'syn.test', 'error', hex(randomblob(250)),
	    404, 1, $_last + i, 1700000000 + i FROM n"
}
max_rss() {
	python3 -c '
import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
' env ASAN_OPTIONS=detect_leaks=0:quarantine_size_mb=1 "$NEARCRAWL" \
	    export -d "$1" --format "$2"
}
grow 2000 "$E2E_TMP/small.db"
grow 20000 "$E2E_TMP/big.db"
eq "20,000 synthetic rows exported" \
    "$("$NEARCRAWL" export -d "$E2E_TMP/big.db" --format jsonl | wc -l |
        tr -d ' ')" 20006
for f in csv jsonl; do
	small=$(max_rss "$E2E_TMP/small.db" $f)
	big=$(max_rss "$E2E_TMP/big.db" $f)
	echo "     $f max RSS: 2,000 rows ${small} KiB, 20,000 rows ${big} KiB"
	ok "$f: memory flat from 2,000 to 20,000 rows (< 4 MiB more)" \
	    test "$big" -lt $((small + 4096))
done

e2e_finish
