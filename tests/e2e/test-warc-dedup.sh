#!/bin/sh
# `nearcrawl dedup` of nearcrawl's own archive gives the crawl's verdicts,
# errors and redirects included, whatever was archived as a revisit (a
# second copy of a 404 page, of a redirect, of an image); a run over
# several files keeps everything it stored when a later file is gone; and
# a run killed with -9 loses at most what --help says it commits at a
# time (every 2 seconds).
. tests/e2e/lib.sh

S=$E2E_TMP/sites/own.test
mkdir -p "$S" || exit 1
art='<p>The faculty council met on Thursday to discuss the new timetable
for the winter term, the allocation of seminar rooms and the budget for
guest lectures. Several members asked for more evening classes.</p>'
{
	echo '<html><head><title>Home</title></head><body><h1>Home</h1>'
	echo '<p>Welcome to the faculty of sciences, its news and its people.</p>'
	for p in a b c d gone1 gone2 gone3 old1 old2 img1.png img2.png; do
		case $p in *.png) ;; *) p=$p.html ;; esac
		echo "<a href=\"$p\">$p</a>"
	done
	echo '<a href="missing1.html">m1</a> <a href="missing2.html">m2</a>'
	echo '<a href="/__nc/status/500">broken</a>'
	echo '<a href="/__nc/redirect/302?to=/d.html">moved</a>'
	echo '</body></html>'
} >"$S/index.html"
printf '<html><head><title>Council</title></head><body>%s</body></html>\n' \
    "$art" >"$S/a.html"
cp "$S/a.html" "$S/b.html"
printf '<html><head><title>Council</title></head><body>%s<p>Updated on
Friday.</p></body></html>\n' "$art" >"$S/c.html"
printf '<html><head><title>Rooms</title></head><body><p>Seminar rooms are
booked through the office of the dean; the list of free rooms is updated
every Monday morning before nine.</p></body></html>\n' >"$S/d.html"
# Byte-identical error pages and redirects: the archive keeps the second
# and third as revisits of the first.
for p in gone1 gone2 gone3; do
	printf '<html><body><h1>404 Not Found</h1><hr>nginx</body></html>\n' \
	    >"$S/$p.html"
	printf 'Status: 404\n' >"$S/$p.html.headers"
done
for p in old1 old2; do
	printf '<html><body>Moved</body></html>\n' >"$S/$p.html"
	printf 'Status: 301\nLocation: /a.html\n' >"$S/$p.html.headers"
done
printf '\211PNG\r\n\032\n-not-a-real-image-' >"$S/img1.png"
cp "$S/img1.png" "$S/img2.png"
printf 'User-agent: *\nDisallow: /private/\n' >"$S/robots.txt"
e2e_start_server "$E2E_TMP/sites"
R="--resolve own.test:$PORT:127.0.0.1"

# --- 1. the crawl's verdicts, again from its archive -------------------------
# One worker thread, so pages are judged in the order they were fetched and
# archived: with two, b.html (byte-identical to a.html) fetched second can be
# judged first, and the crawl and the archive rightly disagree on which of the
# two is the original.
A=$E2E_TMP/a
"$NEARCRAWL" crawl -d "$A.db" --quiet --delay-ms 0 --threads 1 $R --warc "$A" \
    "http://own.test:$PORT/" 2>"$A.err"
eq "crawl with --warc exits 0" "$?" 0
zcat "$A"/*.warc.gz >"$A.warc"
ok "the archive holds revisits of a 404 page and of a redirect" sh -c "
    test \$(grep -a -c '^WARC-Type: revisit' '$A.warc') -ge 4"
"$NEARCRAWL" dedup -d "$A.re.db" --quiet "$A"/*.warc.gz 2>"$A.re.err"
eq "dedup of the crawl's archive exits 0" "$?" 0
counts() { # DB: verdict=count for every verdict, robots.txt left out
	q "$1" "SELECT verdict || '=' || count(*) FROM pages WHERE url NOT
	    LIKE '%/robots.txt' GROUP BY verdict ORDER BY verdict" | tr '\n' ' '
}
eq "dedup gives the crawl's verdict counts, errors and redirects too" \
    "$(counts "$A.re.db")" "$(counts "$A.db")"
eq "... and each page's verdict and status" \
    "$(q "$A.re.db" "SELECT url || ' ' || verdict || ' ' || status FROM pages
    WHERE url NOT LIKE '%/robots.txt' ORDER BY url")" \
    "$(q "$A.db" "SELECT url || ' ' || verdict || ' ' || status FROM pages
    ORDER BY url")"
eq "a revisit of an image is skipped for the crawl's reason" "$(q "$A.re.db" \
    "SELECT verdict || ' ' || reason FROM pages WHERE url LIKE '%/img2.png'")" \
    "$(q "$A.db" "SELECT verdict || ' ' || reason FROM pages WHERE url LIKE
    '%/img2.png'")"
eq "a revisit of a 404 page is a 404" "$(q "$A.re.db" "SELECT
    group_concat(verdict || ' ' || status, ', ') FROM pages WHERE url LIKE
    '%/gone_.html'")" "error 404, error 404, error 404"

# --- 2. a later file gone midway: what was stored stays ----------------------
M=$E2E_TMP/m
mkdir "$M"
i=0
while [ $i -lt 40 ]; do
	printf 'WARC/1.0\r\nWARC-Type: resource\r\nWARC-Target-URI: http://m.test/%d\r\n' $i
	printf 'WARC-Date: 2024-05-06T07:08:09Z\r\nContent-Type: text/html\r\n'
	body="<html><body><p>Page $i of the test, with words of its own: w$i x$i y$i z$i.</p></body></html>"
	printf 'Content-Length: %d\r\n\r\n%s\r\n\r\n' ${#body} "$body"
	i=$((i + 1))
done >"$M/first.warc"
cp "$M/first.warc" "$M/second.warc"
sed 's/m\.test/n.test/' "$M/first.warc" >"$M/third.warc"
NEARCRAWL_TEST_JUDGE_TICK_MS=50 "$NEARCRAWL" dedup -d "$M.db" \
    "$M/first.warc" "$M/second.warc" "$M/third.warc" 2>"$M.err" &
pid=$!
sleep 1
rm -f "$M/second.warc"
wait $pid
eq "a file gone midway fails the run (exit 1)" "$?" 1
eq "... the files before and after it are stored, the gone one is an error
    row" "$(q "$M.db" "SELECT count(*) FROM pages WHERE url LIKE
    'http://m.test/%'") $(q "$M.db" "SELECT count(*) FROM pages WHERE url LIKE
    'http://n.test/%'") $(q "$M.db" "SELECT url FROM pages WHERE url LIKE
    'warc-unreadable:%'")" "40 40 warc-unreadable:second.warc"
ok "... and says why" grep -q 'could not be read whole' "$M.err"

# --- 3. kill -9: commits come every 2 seconds --------------------------------
K=$E2E_TMP/k
i=0
while [ $i -lt 3000 ]; do
	printf 'WARC/1.0\r\nWARC-Type: resource\r\nWARC-Target-URI: http://k.test/%d\r\n' $i
	printf 'Content-Type: text/html\r\n'
	body="<p>k$i</p>"
	printf 'Content-Length: %d\r\n\r\n%s\r\n\r\n' ${#body} "$body"
	i=$((i + 1))
done >"$K.warc"
NEARCRAWL_TEST_JUDGE_TICK_MS=10 "$NEARCRAWL" dedup -d "$K.db" --quiet \
    "$K.warc" 2>/dev/null &
pid=$!
e2e_watchdog 60 $pid
rows() { q "$K.db" 'SELECT count(*) FROM pages' 2>/dev/null || echo 0; }
# Wait for the first commit, then see that the next comes within 3 s.
n=0
first=0
while [ $n -lt 100 ] && [ "${first:-0}" -eq 0 ]; do
	sleep 0.1
	first=$(rows)
	n=$((n + 1))
done
sleep 3
second=$(rows)
kill -9 $pid 2>/dev/null
wait $pid 2>/dev/null
e2e_watchdog_off
left=$(rows)
ok "rows are committed while the run goes on (well before 2048 of them)" \
    test "${first:-0}" -gt 0 -a "${first:-0}" -lt 2048
ok "... and again within 3 seconds ($first, then $second)" \
    test "${second:-0}" -gt "${first:-0}"
ok "after kill -9 the committed rows stay ($left)" \
    test "${left:-0}" -ge "${second:-0}"

e2e_finish
