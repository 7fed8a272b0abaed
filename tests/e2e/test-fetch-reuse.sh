#!/bin/sh
# A transfer's libcurl handle goes on to the next transfer (web/fetch.c):
# nothing of one response may stay with the next. One transfer at a time,
# so every page after the redirect below is fetched on its handle: none
# may show its ETag, Last-Modified, canonical Link, X-Robots-Tag nofollow
# or Location, and each must stay a page of its own (the pages two and
# three links deep come after it whatever the order within a depth).
. tests/e2e/lib.sh

SITE="$E2E_TMP/site"
H=www.reuse.test
D="$SITE/$H"
mkdir -p "$D" || exit 1
# Words of their own per page, so that every page is unique.
page() { # FILE TITLE SEED LINKS
	awk -v t="$2" -v s="$3" -v links="$4" 'BEGIN {
		split("river mountain lantern copper violin harbour meadow " \
		    "glacier orchard compass falcon theatre quarry beacon " \
		    "canyon willow", w, " ")
		printf "<html><head><title>%s</title></head><body>", t
		printf "<h1>%s</h1>%s<p>", t, links
		for (i = 0; i < 60; i++) {
			s = (s * 1103515245 + 12345) % 2147483648
			printf " %s%d", w[1 + s % 16], (s / 16) % 97
		}
		printf ".</p></body></html>\n"
	}' >"$D/$1"
	# No validators but the redirect's.
	printf 'ETag:\nLast-Modified:\n' >"$D/$1.headers"
}
page index.html Home 1 '<a href="r.html">r</a> <a href="b1.html">b1</a>
<a href="b2.html">b2</a> <a href="b3.html">b3</a>'
page r.html R 2 ''
page b1.html B1 3 '<a href="c1.html">c1</a>'
page b2.html B2 4 '<a href="c2.html">c2</a>'
page b3.html B3 5 '<a href="c3.html">c3</a>'
page c1.html C1 6 '<a href="d1.html">d1</a>'
page c2.html C2 7 ''
page c3.html C3 8 ''
page d1.html D1 9 ''
e2e_start_server "$SITE"
cat >"$D/r.html.headers" <<EOF
Status: 301
Location: http://$H:$PORT/b1.html
ETag: "r-etag"
Last-Modified: Tue, 01 Oct 2024 10:00:00 GMT
Link: <http://$H:$PORT/elsewhere.html>; rel=canonical
X-Robots-Tag: nofollow
EOF
DB="$E2E_TMP/reuse.db"
"$NEARCRAWL" crawl -d "$DB" --quiet --delay-ms 0 --concurrency 1 \
    --per-host 1 --resolve "$H:$PORT:127.0.0.1" "http://$H:$PORT/" \
    2>"$E2E_TMP/crawl.err"
eq "the crawl exits 0" "$?" 0
eq "the redirect is one" "$(q "$DB" "SELECT verdict || ' ' || etag FROM pages
    WHERE url LIKE '%/r.html'")" 'redirect "r-etag"'
eq "every other page is unique, none behind it lost" "$(q "$DB" "SELECT
    count(*) FROM pages WHERE url NOT LIKE '%/r.html' AND verdict =
    'unique'")" 8
eq "... and keeps nothing of the redirect's answer" "$(q "$DB" "SELECT
    count(*) FROM pages WHERE url NOT LIKE '%/r.html' AND (etag IS NOT NULL
    OR last_modified IS NOT NULL OR canonical IS NOT NULL)")" 0
e2e_finish
