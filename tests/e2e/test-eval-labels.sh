#!/bin/sh
# eval-labels-selftest.sh -- check scripts/eval/eval-labels.sh on small
# hand-made databases whose scores are worked out by hand below. Needs
# sqlite3.
# Last line: "N passed, N failed"; exit 0 iff nothing failed.
set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$(dirname "$here")")
EVAL=${EVAL:-$top/scripts/eval/eval-labels.sh}
pass=0
fail=0

if ! command -v sqlite3 >/dev/null 2>&1; then
	echo "eval-labels-selftest: sqlite3 is not installed"
	echo "0 passed, 1 failed"
	exit 1
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/eval-selftest.XXXXXX") || exit 1
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

ok() { pass=$((pass + 1)); echo "ok   $1"; }
ko() { fail=$((fail + 1)); echo "FAIL $1"; }

# newdb NAME SQL: a database with the columns the evaluation reads.
newdb() {
	sqlite3 -batch "$tmp/$1" "
	CREATE TABLE pages(id INTEGER PRIMARY KEY, url TEXT UNIQUE, simhash INTEGER,
	    md5 TEXT, verdict TEXT, status INTEGER, seq INTEGER);
	CREATE TABLE duplicates(id INTEGER PRIMARY KEY, page_id INTEGER,
	    original_id INTEGER, method TEXT, percentage REAL);
	$2"
}

# expect NAME DB LABELS WANTED_LAST_LINE [WANTED_LINE...]: run the
# evaluation; the last line must equal the wanted one exactly and every
# further wanted line must appear as a whole line.
expect() {
	name=$1 db=$2 lab=$3 want=$4
	shift 4
	if ! "$EVAL" "$tmp/$db" "$tmp/$lab" >"$tmp/out" 2>"$tmp/err"; then
		ko "$name: exit status $?"
		sed 's/^/     /' "$tmp/err"
		return
	fi
	got=$(tail -n 1 "$tmp/out")
	if [ "$got" != "$want" ]; then
		ko "$name: last line '$got', wanted '$want'"
		sed 's/^/     /' "$tmp/out"
		return
	fi
	for line in "$@"; do
		if ! grep -qxF -- "$line" "$tmp/out"; then
			ko "$name: no line '$line'"
			sed 's/^/     /' "$tmp/out"
			return
		fi
	done
	ok "$name"
}

# status NAME WANTED ARGS...: the evaluation must exit with WANTED.
status() {
	name=$1 want=$2
	shift 2
	"$EVAL" "$@" >/dev/null 2>&1
	got=$?
	if [ "$got" -eq "$want" ]; then ok "$name"; else ko "$name: exit $got, wanted $want"; fi
}

# ---- 1. the worked example ---------------------------------------------
# groups: home A B P1 P2 P3 calendar N (8); label lines: 14
#   /               unique 1   home first
#   /index.html     exact  2   expected, predicted          TP  (alias)
#   /news/a.html    unique 3   A first
#   a.html?utm...   exact  4   expected, predicted          TP  (tracking)
#   /archive/a.html exact  5   expected, predicted          TP  (alias)
#   /print/a.html   unique 6   expected, missed             FN  (print)
#   /m/a.html       near   7   expected, predicted          TP  (variant)
#   /news/b.html    unique 8   B first
#   p1              unique 9
#   p2              near  10   own group: predicted only    FP  (bait), original p1
#   p3              unique 11
#   calendar 2026/11 unique 12  calendar first
#   calendar 2026/12 near  13   TP
#   calendar 2027/01 unique 14  FN
#   /unknown.html   near  15   unlabelled, own group        FP, original /
#   /gone.html      error 16   not judged
#   b.html?utm...   unique 17  FN (tracking)
# TP 5, FP 2, FN 3: precision 5/7 = 0.714, recall 5/8 = 0.625;
# groups reached 7 of 8 = 0.875; labelled paths reached 13 of 14.
printf 'path\tgroup\tclass\n' >"$tmp/l1"
cat >>"$tmp/l1" <<'EOF'
/	home	listing
/index.html	home	alias
/news/a.html	A	article
/archive/a.html	A	alias
/print/a.html	A	print
/news/a.html?utm_source=x&utm_medium=email	A	tracking
/m/a.html	A	variant
/news/b.html	B	article
/news/b.html?utm_source=y	B	tracking
/people/p1.html	P1	bait
/people/p2.html	P2	bait
/people/p3.html	P3	bait
/__nc/calendar/*	calendar	calendar
/never.html	N	article
EOF
H=http://www.lab.test:43211
newdb d1 "
INSERT INTO pages(id, url, verdict, seq) VALUES
 (1, '$H/', 'unique', 1),
 (2, '$H/index.html', 'exact', 2),
 (3, '$H/news/a.html', 'unique', 3),
 (4, '$H/news/a.html?utm_source=x&utm_medium=email', 'exact', 4),
 (5, '$H/archive/a.html', 'exact', 5),
 (6, '$H/print/a.html', 'unique', 6),
 (7, '$H/m/a.html', 'near', 7),
 (8, '$H/news/b.html', 'unique', 8),
 (9, '$H/people/p1.html', 'unique', 9),
 (10, '$H/people/p2.html', 'near', 10),
 (11, '$H/people/p3.html', 'unique', 11),
 (12, '$H/__nc/calendar/2026/11', 'unique', 12),
 (13, '$H/__nc/calendar/2026/12', 'near', 13),
 (14, '$H/__nc/calendar/2027/01', 'unique', 14),
 (15, '$H/unknown.html', 'near', 15),
 (16, '$H/gone.html', 'error', 16),
 (17, '$H/news/b.html?utm_source=y', 'unique', 17);
INSERT INTO duplicates(page_id, original_id, method, percentage) VALUES
 (2, 1, 'md5', 100), (4, 3, 'md5', 100), (5, 3, 'md5', 100),
 (7, 3, 'simhash', 93.75), (10, 9, 'simhash', 90.6), (13, 12, 'ssdeep', 88),
 (15, 1, 'simhash', 87.5);"
expect "worked example" d1 l1 "precision=0.714 recall=0.625 coverage=0.875" \
	"distinct pages reached: 13 of 14" \
	"groups reached: 7 of 8" \
	"predicted duplicates whose original is in another group: 2" \
	"judged pages: 16 (unique 9, exact 3, near 4), unlabelled: 1" \
	"calendar          3        2         1      1      0      1" \
	"bait              3        0         1      0      1      0" \
	"unlabelled        1        0         1      0      1      0" \
	"total            16        8         7      5      2      3" \
	"  $H/people/p2.html  near  original=$H/people/p1.html" \
	"  $H/print/a.html  unique  earlier=$H/news/a.html"

# ---- 2. seq order, not id order, decides which page is the original ----
# /x.html?s=1 (id 1) was fetched after /x.html (id 2): the duplicate is id 1.
# A NULL seq sorts last. Both duplicates found. /y.html and /y.html?a=1
# share a seq: neither is earlier, so neither is an expected duplicate.
# Precision 1, recall 1.
printf 'path\tgroup\tclass\n/x.html\tX\tarticle\n/x.html?s=1\tX\ttracking\n/x.html?s=2\tX\ttracking\n/y.html\tY\tarticle\n/y.html?a=1\tY\ttracking\n' >"$tmp/l2"
newdb d2 "
INSERT INTO pages(id, url, verdict, seq) VALUES
 (1, 'https://WWW.lab.test/x.html?s=1', 'exact', 7),
 (2, 'http://www.lab.test/x.html', 'unique', 3),
 (3, 'http://www.lab.test/x.html?s=2', 'exact', NULL),
 (4, 'http://www.lab.test/y.html', 'unique', 5),
 (5, 'http://www.lab.test/y.html?a=1', 'unique', 5);"
expect "seq order and NULL seq" d2 l2 "precision=1.000 recall=1.000 coverage=1.000" \
	"distinct pages reached: 5 of 5"

# ---- 3. nothing predicted, nothing expected: zero denominators ----------
printf 'path\tgroup\tclass\n/a\tA\tbait\n/b\tB\tbait\n' >"$tmp/l3"
newdb d3 "INSERT INTO pages(id, url, verdict, seq) VALUES (1, 'http://h/a', 'unique', 1);"
expect "zero denominators" d3 l3 "precision=1.000 recall=1.000 coverage=0.500" \
	"distinct pages reached: 1 of 2"

# ---- 4. empty crawl, labels with a header only --------------------------
printf 'path\tgroup\tclass\n' >"$tmp/l4"
newdb d4 ""
expect "empty crawl and labels" d4 l4 "precision=1.000 recall=1.000 coverage=1.000" \
	"distinct pages reached: 0 of 0"

# ---- 5. longest "*" prefix wins; a URL without a path is "/" ------------
# /__nc/other falls under /__nc/* (group X, first: unique expected) but is
# predicted near: FP. /__nc/calendar/2 joins group cal after /__nc/calendar/1:
# TP. http://h (no path) is "/", labelled home; http://h/?q=1 is unlabelled.
printf 'path\tgroup\tclass\n/__nc/*\tX\tcalendar\n/__nc/calendar/*\tcal\tcalendar\n/\thome\tlisting\n' >"$tmp/l5"
newdb d5 "
INSERT INTO pages(id, url, verdict, seq) VALUES
 (1, 'http://h', 'unique', 1),
 (2, 'http://h/__nc/calendar/1', 'unique', 2),
 (3, 'http://h/__nc/other', 'near', 3),
 (4, 'http://h/__nc/calendar/2', 'near', 4),
 (5, 'http://h/?q=1', 'unique', 5),
 (6, 'http://h/skipped', 'skipped', 6);"
expect "longest prefix and bare host" d5 l5 "precision=0.500 recall=1.000 coverage=1.000" \
	"distinct pages reached: 3 of 3" \
	"  unlabelled: http://h/?q=1"

# ---- 6. the committed fixture labels scored against an oracle crawl -----
# Every labelled path fetched in file order; the first of each group unique,
# the rest near: precision 1, recall 1; only the calendar group (a "*"
# pattern, not fetched here) is missing from coverage.
fix=$top/tests/fixtures/labelled.tsv
if [ -f "$fix" ]; then
	awk -F '\t' -v q="'" '
	NR == 1 || $1 ~ /\*$/ { next }
	{
		v = ($2 in seen) ? "near" : "unique"; seen[$2] = 1; n++
		u = $1; gsub(q, q q, u)
		printf "INSERT INTO pages(id, url, verdict, seq) VALUES (%d, %shttp://www.lab.test:8080%s%s, %s%s%s, %d);\n", n, q, u, q, q, v, q, n
	}' "$fix" >"$tmp/oracle.sql"
	groups=$(awk -F '\t' 'NR > 1 && !($2 in g) { g[$2] = 1; n++ } END { print n }' "$fix")
	cov=$(awk -v g="$groups" 'BEGIN { printf "%.3f", (g - 1) / g }')
	newdb d6 "BEGIN; $(cat "$tmp/oracle.sql") COMMIT;"
	cp "$fix" "$tmp/fix.tsv"
	expect "fixture labels, oracle crawl" d6 fix.tsv \
		"precision=1.000 recall=1.000 coverage=$cov"
else
	ko "fixture labels missing: $fix"
fi

# ---- 6b. labels of several hosts: "//host/path" ------------------------
# Matched against the URL without scheme and port; an exact host label
# beats an exact plain one; plain labels match on any host.
#   a/        unique 1  HA           b/        unique 2  HB
#   a/x.html  unique 3  X first      b/x.html  near   4  X: TP (mirror)
#   a/y.html  unique 5  Y (plain)    b/y.html  near   6  YB (host label): FP
#   a/cal/1   unique 7  CA (host *)  b/cal/1   unique 8  C (plain *)
#   b/cal/2   near   9  C: TP
#   c/z.html  unique 10, d/w.html near 11: unlabelled, a group each: FP
#   (an unlabelled page's group is its path, whatever the host, as before)
# TP 2, FP 2, FN 0: precision 0.500, recall 1.000; 7 of 7 groups; 8 of 8.
printf 'path\tgroup\tclass\n' >"$tmp/l6b"
cat >>"$tmp/l6b" <<'EOF'
//a.test/	HA	listing
//b.test/	HB	listing
//a.test/x.html	X	article
//b.test/x.html	X	mirror
/y.html	Y	article
//b.test/y.html	YB	article
//a.test/cal/*	CA	calendar
/cal/*	C	calendar
EOF
newdb d6b "
INSERT INTO pages(id, url, verdict, seq) VALUES
 (1, 'http://a.test:81/', 'unique', 1),
 (2, 'http://b.test:82/', 'unique', 2),
 (3, 'http://a.test:81/x.html', 'unique', 3),
 (4, 'https://b.test/x.html', 'near', 4),
 (5, 'http://a.test:81/y.html', 'unique', 5),
 (6, 'http://b.test:82/y.html', 'near', 6),
 (7, 'http://a.test:81/cal/1', 'unique', 7),
 (8, 'http://b.test:82/cal/1', 'unique', 8),
 (9, 'http://b.test:82/cal/2', 'near', 9),
 (10, 'http://c.test/z.html', 'unique', 10),
 (11, 'http://d.test/w.html', 'near', 11);
INSERT INTO duplicates(page_id, original_id, method, percentage) VALUES
 (4, 3, 'simhash', 95), (6, 5, 'simhash', 95), (9, 8, 'ssdeep', 90),
 (11, 10, 'simhash', 95);"
expect "host labels" d6b l6b "precision=0.500 recall=1.000 coverage=1.000" \
	"distinct pages reached: 8 of 8" \
	"groups reached: 7 of 7" \
	"mirror            1        1         1      1      0      0" \
	"predicted duplicates whose original is in another group: 2"
"$EVAL" --failures "$tmp/d6b" "$tmp/l6b" >"$tmp/out6b" 2>&1
if grep -qx "  article <- article                 1" "$tmp/out6b" &&
    grep -qx "  unlabelled <- unlabelled           1" "$tmp/out6b" &&
    grep -qx "groups not reached (0, first 20):" "$tmp/out6b" &&
    [ "$(tail -n 1 "$tmp/out6b")" = "precision=0.500 recall=1.000 coverage=1.000" ]; then
	ok "--failures: false positives by class"
else
	ko "--failures: false positives by class"
	sed 's/^/     /' "$tmp/out6b"
fi
# A group never reached is named with its class and first label.
newdb d6c "INSERT INTO pages(id, url, verdict, seq) VALUES (1, 'http://a.test/', 'unique', 1);"
"$EVAL" --failures "$tmp/d6c" "$tmp/l6b" >"$tmp/out6c" 2>&1
if grep -qx "  calendar                           2" "$tmp/out6c" &&
    grep -qx "  X  (article)  //a.test/x.html" "$tmp/out6c"; then
	ok "--failures: groups not reached by class"
else
	ko "--failures: groups not reached by class"
	sed 's/^/     /' "$tmp/out6c"
fi

# ---- 6c. the multi-host fixture's labels against an oracle crawl --------
# Every labelled URL, "http:" and a port in front, fetched in file order;
# the first of each group unique, the rest near: all 1.000.
fix=$top/tests/fixtures/labelled-uni.tsv
if [ -f "$fix" ]; then
	awk -F '\t' -v q="'" '
	NR == 1 { next }
	{
		v = ($2 in seen) ? "near" : "unique"; seen[$2] = 1; n++
		u = $1; gsub(q, q q, u)
		h = substr(u, 3); p = index(h, "/")
		u = "http://" substr(h, 1, p - 1) ":8080" substr(h, p)
		printf "INSERT INTO pages(id, url, verdict, seq) VALUES (%d, %s%s%s, %s%s%s, %d);\n", n, q, u, q, q, v, q, n
	}' "$fix" >"$tmp/oracle-uni.sql"
	newdb d6u ""
	# On stdin: the statements are longer than one argument may be.
	{ echo "BEGIN;"; cat "$tmp/oracle-uni.sql"; echo "COMMIT;"; } |
	    sqlite3 -batch "$tmp/d6u"
	cp "$fix" "$tmp/fix-uni.tsv"
	lines=$(awk 'END { print NR - 1 }' "$fix")
	expect "multi-host fixture labels, oracle crawl" d6u fix-uni.tsv \
		"precision=1.000 recall=1.000 coverage=1.000" \
		"distinct pages reached: $lines of $lines"
else
	ko "fixture labels missing: $fix"
fi

# ---- 7. usage and missing files ------------------------------------------
status "no arguments: exit 2" 2
status "one argument: exit 2" 2 "$tmp/d1"
status "three arguments: exit 2" 2 "$tmp/d1" "$tmp/l1" extra
status "--failures and one argument: exit 2" 2 --failures "$tmp/d1"
status "missing database: exit 2" 2 "$tmp/none.db" "$tmp/l1"
status "missing labels: exit 2" 2 "$tmp/d1" "$tmp/none.tsv"
printf 'not a database at all, just text\n' >"$tmp/bogus.db"
status "unreadable database: exit 1" 1 "$tmp/bogus.db" "$tmp/l1"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
