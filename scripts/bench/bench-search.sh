#!/bin/sh
# The query-biased paper's experiment (Pi et al., section III, Table I) on
# a real crawl: the Python, PostgreSQL and Apache HTTP Server manuals of
# Debian's doc packages, served on loopback by the test server, crawled,
# ranked, then `nearcrawl search --queries` with the manuals' own index
# terms as the queries (docs/search.md shows the table it printed).
#
#   scripts/bench/bench-search.sh [--nearcrawl BIN] [--keep DIR]
#                                 [--queries N] [--top N]
#
# Needs the packages python3-doc, postgresql-doc and apache2-doc (as root:
# apt-get install -y python3-doc postgresql-doc apache2-doc) and sqlite3.
# The manuals are copied as three hosts -- docs.python.test (the Python
# manual), www.postgresql.test (PostgreSQL's), httpd.apache.test (Apache's
# manual in all its languages: pages not translated are the English text
# in the language's frame, real near copies) -- and crawled from their
# home pages with --delay-ms 0 into one SQLite database, then ranked.
#
# The queries: every index term of the three manuals (Python's
# genindex-*.html entries, the qualifier in parentheses and a trailing
# "()" dropped; PostgreSQL's bookindex.html entries; Apache's directive
# index, mod/directives.html), terms the index cannot tell apart ("IN",
# "in") taken once, each as an FTS5 phrase, ranked by the
# number of crawled pages it occurs in (an FTS5 count on the crawl's
# index), most first, ties by the term; the first N (default 2000, as the
# paper) written as `count<TAB>"term"`, the frequency a search log would
# give. --top N: results taken per query (default 1000, as the paper).
# Prints the crawl's summary, the index's size, how the query file was
# made, the table, then `queries=N top=N removed_k0=R seconds_k0=S ...`
# for k = 0..3; the CSV and the plot go to DIR/report (DIR: --keep, else a
# temporary directory, removed). Exit 0 when it ran, 1 when something
# failed, 2 for bad usage or a missing package.
set -u
cd "$(dirname "$0")/../.." || exit 1

BIN=./nearcrawl
KEEP=""
NQ=2000
TOP=1000
usage() {
	echo "usage: $0 [--nearcrawl BIN] [--keep DIR] [--queries N]" \
	    "[--top N]" >&2
	exit 2
}
while [ $# -gt 0 ]; do
	case $1 in
	--nearcrawl) [ $# -ge 2 ] || usage; BIN=$2; shift 2 ;;
	--keep) [ $# -ge 2 ] || usage; KEEP=$2; shift 2 ;;
	--queries) [ $# -ge 2 ] || usage; NQ=$2; shift 2 ;;
	--top) [ $# -ge 2 ] || usage; TOP=$2; shift 2 ;;
	-h|--help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) usage ;;
	esac
done
PY=/usr/share/doc/python3-doc/html
PGD=$(ls -d /usr/share/doc/postgresql-doc-*/html 2>/dev/null | tail -n 1)
AP=/usr/share/doc/apache2-doc/manual
for d in "$PY" "$PGD" "$AP"; do
	if [ ! -d "$d" ]; then
		echo "bench-search: ${d:-postgresql-doc} missing; as root:" \
		    "apt-get install -y python3-doc postgresql-doc apache2-doc" >&2
		exit 2
	fi
done
command -v sqlite3 >/dev/null 2>&1 || {
	echo "bench-search: sqlite3 missing: apt-get install -y sqlite3" >&2
	exit 2
}
[ -x "$BIN" ] || { echo "bench-search: $BIN: no such binary" >&2; exit 2; }

if [ -n "$KEEP" ]; then
	T=$KEEP
	mkdir -p "$T" || exit 1
else
	T=$(mktemp -d "${TMPDIR:-/tmp}/nearcrawl-search.XXXXXX") || exit 1
fi
SRV=""
cleanup() {
	[ -z "$SRV" ] || kill "$SRV" 2>/dev/null
	[ -n "$KEEP" ] || rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

rm -rf "$T/sites" "$T/crawl.db" "$T/crawl.db-wal" "$T/crawl.db-shm" \
    "$T/report"
mkdir -p "$T/sites" || exit 1
# Copies, symbolic links followed: the server serves only what is under
# its root.
cp -RL "$PY" "$T/sites/docs.python.test" &&
    cp -RL "$PGD" "$T/sites/www.postgresql.test" &&
    cp -RL "$AP" "$T/sites/httpd.apache.test" || exit 1
. scripts/lib/fixture-server.sh
fixture_server_start "$T/sites" "$T" "$T/server.log" || exit 1
SRV=$FIXTURE_PID
P=$FIXTURE_PORT
set --
SEEDS=""
for h in docs.python.test www.postgresql.test httpd.apache.test; do
	set -- "$@" --resolve "$h:$P:127.0.0.1" --allow-domain "$h"
	SEEDS="$SEEDS http://$h:$P/index.html"
done
t0=$(date +%s.%N)
# shellcheck disable=SC2086 # the seeds are words
"$BIN" crawl -d "$T/crawl.db" --quiet --delay-ms 0 --per-host 4 "$@" \
    $SEEDS 2>"$T/crawl.err"
rc=$?
t1=$(date +%s.%N)
if [ $rc -ne 0 ] && [ $rc -ne 3 ]; then
	echo "bench-search: the crawl failed:" >&2
	cat "$T/crawl.err" >&2
	exit 1
fi
grep -E '^nearcrawl: (done|stopped)' "$T/crawl.err"
echo "crawl: $(echo "$t0 $t1" | awk '{printf "%.1f", $2 - $1}') s"
sqlite3 "$T/crawl.db" "SELECT 'pages by host and verdict: ' ||
    group_concat(h || ' ' || v || ' ' || n, ', ') FROM (SELECT host AS h,
    verdict AS v, count(*) AS n FROM pages GROUP BY 1, 2)"
sqlite3 "$T/crawl.db" "SELECT 'search index: ' ||
    (SELECT sum(pgsize) FROM dbstat WHERE name LIKE 'search\_text%'
    ESCAPE '\') || ' bytes of ' || (SELECT sum(pgsize) FROM dbstat) ||
    ' in the database, for ' || (SELECT count(*) FROM search_text) ||
    ' pages'"
"$BIN" rank -d "$T/crawl.db" --quiet || exit 1

# The query file: the manuals' index terms by the pages they occur in.
python3 - "$T/sites" "$T/crawl.db" "$NQ" >"$T/queries.tsv" \
    2>"$T/queries.err" <<'EOF' || { cat "$T/queries.err" >&2; exit 1; }
import glob, html, re, sqlite3, sys

sites, db, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
terms = set()

def add(t):
    t = re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]*>", "", t)))
    t = t.strip()
    t = re.sub(r"\s+\(.*\)$", "", t)      # "A (in module re)" -> "A"
    t = re.sub(r"\(\)$", "", t).strip()   # "abs()" -> "abs"
    if len(t) >= 2 and re.search(r"\w", t):
        terms.add(t)

for f in glob.glob(sites + "/docs.python.test/genindex-*.html"):
    if f.endswith("genindex-all.html"):
        continue
    for m in re.finditer(r'<li><a href="[^"]*">(.*?)</a>',
                         open(f, encoding="utf-8").read()):
        add(m.group(1))
book = open(sites + "/www.postgresql.test/bookindex.html",
            encoding="utf-8").read()
for m in re.finditer(r"<dt[^>]*>([^<,]+)", book):
    add(m.group(1))
for m in re.finditer(r'<li><a href="[^"]*#[^"]*">(.*?)</a>',
                     open(sites + "/httpd.apache.test/en/mod/directives.html",
                          encoding="utf-8").read()):
    add(m.group(1))

# One query for terms the index cannot tell apart ("IN", "in"): the
# same words, lower-cased, in the same order.
def key(t):
    return " ".join(re.findall(r"[^\W_]+", t.lower()))

first = {}
for t in sorted(terms):
    if key(t) and key(t) not in first:
        first[key(t)] = t

con = sqlite3.connect(db)
counted = []
for t in sorted(first.values()):
    phrase = '"' + t.replace('"', '""') + '"'
    try:
        c = con.execute("SELECT count(*) FROM search_text "
                        "WHERE search_text MATCH ?", (phrase,)).fetchone()[0]
    except sqlite3.OperationalError:
        continue
    if c > 0:
        counted.append((c, t, phrase))
counted.sort(key=lambda x: (-x[0], x[1]))
for c, t, phrase in counted[:n]:
    print("%d\t%s" % (c, phrase))
print("%d index terms, %d distinct to the index, %d occur in a page, %d "
      "kept" % (len(terms), len(first), len(counted), min(n, len(counted))),
      file=sys.stderr)
EOF
echo "queries: $(cat "$T/queries.err"); the most frequent:" \
    "$(head -n 5 "$T/queries.tsv" | awk -F '\t' '{printf "%s%s (%s)",
    (NR > 1 ? ", " : ""), $2, $1}')"
"$BIN" search -d "$T/crawl.db" --queries "$T/queries.tsv" --top "$TOP" \
    -o "$T/report" || exit 1
# The machine-readable line: duplicates removed in all, per k.
awk -F , -v q="$(wc -l <"$T/queries.tsv" | tr -d ' ')" -v top="$TOP" '
    NR > 1 { r[$1] += $7; s[$1] += $8 }
    END { printf "queries=%d top=%d", q, top
	for (k = 0; k <= 3; k++) printf " removed_k%d=%d seconds_k%d=%.2f", k,
	    r[k], k, s[k]
	printf "\n" }' "$T/report/queries.csv"
exit 0
