#!/bin/sh
# gen-bench-site.sh -- generate the CMS-like site the speed benchmark crawls.
#
#   scripts/gen/gen-bench-site.sh DIR [PAGES]
#
# Writes DIR/www.bench.test/ from scratch: PAGES crawlable URLs (default
# 12000, at least 100) plus robots.txt, and DIR/www.bench.test.manifest
# with the counts. Serve it with `ncserver --root DIR/www.bench.test`: a
# request for any host without a directory of its own (127.0.0.1 included)
# falls back to that root, so http://127.0.0.1:PORT/ is the home page.
#
# The site is a university news CMS:
#   /                          home: latest articles with teasers, sections
#   /about.html /contact.html /privacy.html
#   /SECTION/                  listing page 1 of a section (12 sections),
#   /SECTION/page/K.html       pages 2.. (24 teasers each, pagination links)
#   /SECTION/NNNNN-slug.html   an article: 150-900 words of prose, 3-5
#                              related links, a "most read" sidebar, an ad,
#                              a view counter and a generation timestamp
# and about 20% duplicate URLs, a quarter of each kind, linked from the
# article they repeat:
#   /node/NNNNN.html           byte-identical alias ("short link")
#   /print/SECTION/NNNNN.html  print view: same body, no site template
#   /amp/SECTION/NNNNN-slug.html  variant: other ad, counter and timestamp
#   /SECTION/NNNNN-slug.html?utm_source=...  tracking-parameter link (the
#                              server ignores the query: the same bytes)
# Every link on a duplicate also appears on a unique page, so a crawler
# that follows links only from new content reaches the same URLs as one
# that follows every link.
#
# Deterministic: a fixed seed and a Park-Miller generator written out in
# awk (mawk's and gawk's rand() differ), no "for (k in a)" loops, so every
# run with any POSIX awk writes the same bytes. One awk process writes all
# files; 12000 pages take a few seconds.
set -eu

[ $# -ge 1 ] && [ $# -le 2 ] || {
	echo "usage: $0 DIR [PAGES]" >&2
	exit 2
}
dir=$1
pages=${2:-12000}
case $pages in ''|*[!0-9]*) echo "gen-bench-site: bad PAGES" >&2; exit 2 ;; esac
[ "$pages" -ge 100 ] || { echo "gen-bench-site: PAGES must be >= 100" >&2; exit 2; }
AWK=${AWK:-awk}

site=$dir/www.bench.test
rm -rf "$site"
mkdir -p "$site/node" "$site/print" "$site/amp"
secs="news research teaching campus events library alumni sport culture health science business"
for s in $secs; do
	mkdir -p "$site/$s/page" "$site/print/$s" "$site/amp/$s"
done

printf 'User-agent: *\nDisallow: /admin/\nDisallow: /search\n' >"$site/robots.txt"

"$AWK" -v site="$site" -v P="$pages" -v secs="$secs" \
    -v manifest="$dir/www.bench.test.manifest" '
function rnd(n) {		# 0 .. n-1; 16807 * seed stays below 2^53
	seed = (seed * 16807) % 2147483647
	return int(seed / 2147483647 * n)
}
function cap(s) { return toupper(substr(s, 1, 1)) substr(s, 2) }
function pad(n) { return sprintf("%05d", n) }
function sentence(   n, i, s) {
	n = 6 + rnd(15)
	s = cap(V[1 + rnd(NV)])
	for (i = 2; i <= n; i++)
		s = s " " V[1 + rnd(NV)]
	nw += n
	return s (rnd(8) == 0 ? "?" : ".")
}
# Paragraphs of prose until at least want words are written.
function prose(want,   s, p, k) {
	nw = 0
	s = ""
	while (nw < want) {
		p = ""
		for (k = 2 + rnd(5); k > 0 && nw < want; k--)
			p = p (p == "" ? "" : " ") sentence()
		s = s "<p>" p "</p>\n"
	}
	return s
}
function teaser(   i, s, n) {
	n = 18 + rnd(14)
	s = cap(V[1 + rnd(NV)])
	for (i = 2; i <= n; i++)
		s = s " " V[1 + rnd(NV)]
	return s "."
}
function url(a) { return "/" SEC[ASEC[a]] "/" pad(a) "-" SLUG[a] ".html" }
function stamp(   d, h) {
	d = 1 + rnd(28); h = rnd(24)
	return sprintf("2024-%02d-%02d %02d:%02d:%02d", 1 + rnd(12), d, h, rnd(60), rnd(60))
}
function head(title,   s, i) {
	s = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n" \
	    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n" \
	    "<title>" title " | Bench University</title>\n" \
	    "<link rel=\"stylesheet\" href=\"/static/site.css\">\n" \
	    "<script>window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments)}</script>\n" \
	    "</head>\n<body class=\"page has-sidebar\">\n" \
	    "<header class=\"site-header\" role=\"banner\">\n" \
	    "<a class=\"logo\" href=\"/\">Bench University</a>\n" \
	    "<form class=\"search\" action=\"/search\" method=\"get\"><input name=\"q\" placeholder=\"Search\"><button>Go</button></form>\n" \
	    "</header>\n<nav class=\"main-nav\" role=\"navigation\"><ul>\n<li><a href=\"/\">Home</a></li>\n"
	for (i = 1; i <= NS; i++)
		s = s "<li><a href=\"/" SEC[i] "/\">" cap(SEC[i]) "</a></li>\n"
	return s "<li><a href=\"/about.html\">About</a></li>\n<li><a href=\"/contact.html\">Contact</a></li>\n</ul></nav>\n"
}
function sidebar(   s, i, a) {
	s = "<aside class=\"sidebar\" role=\"complementary\">\n<h2>Most read</h2>\n<ul>\n"
	for (i = 0; i < 5; i++) {
		a = 1 + rnd(U)
		s = s "<li><a href=\"" url(a) "\">" TITLE[a] "</a></li>\n"
	}
	return s "</ul>\n<div class=\"ad\">Advertisement: " AD[1 + rnd(NA)] "</div>\n</aside>\n"
}
function footer(   s) {
	return "<footer class=\"site-footer\" role=\"contentinfo\">\n" \
	    "<p>&copy; 2024 Bench University. <a href=\"/about.html\">About</a> \
<a href=\"/contact.html\">Contact</a> <a href=\"/privacy.html\">Privacy</a></p>\n" \
	    "<p class=\"counter\">Visitors today: " (1000 + rnd(90000)) \
	    ". Page generated " stamp() " in " (20 + rnd(400)) " ms.</p>\n" \
	    "</footer>\n<script src=\"/static/analytics.js\"></script>\n</body>\n</html>\n"
}
function emit(path, text) {
	printf "%s", text > (site path)
	close(site path)
	files++
}
# An article page. kind: "" plain, "amp" the variant (same article,
# other sidebar, ad, counter and timestamp).
function article(a, kind,   s, i, n, r) {
	s = head(TITLE[a]) "<main id=\"content\">\n" \
	    "<nav class=\"breadcrumb\"><a href=\"/\">Home</a> &rsaquo; <a href=\"/" SEC[ASEC[a]] "/\">" \
	    cap(SEC[ASEC[a]]) "</a></nav>\n<article>\n<h1>" TITLE[a] "</h1>\n" \
	    "<p class=\"byline\">By " AUTHOR[a] ", " DATE[a] "</p>\n" BODY[a]
	s = s "<p class=\"tools\">"
	if (DUP[a] == "alias")
		s = s "<a href=\"/node/" pad(a) ".html\">Short link</a> "
	if (DUP[a] == "print")
		s = s "<a href=\"/print/" SEC[ASEC[a]] "/" pad(a) ".html\">Print</a> "
	if (DUP[a] == "amp")
		s = s "<a href=\"/amp/" SEC[ASEC[a]] "/" pad(a) "-" SLUG[a] ".html\">Mobile</a> "
	if (DUP[a] == "utm")
		s = s "<a href=\"" url(a) "?utm_source=newsletter&amp;utm_medium=email&amp;utm_campaign=week" (1 + a % 52) "\">Share by e-mail</a> "
	s = s "</p>\n</article>\n<section class=\"related\">\n<h2>Related</h2>\n<ul>\n"
	n = split(REL[a], r, " ")
	for (i = 1; i <= n; i++)
		s = s "<li><a href=\"" url(r[i]) "\">" TITLE[r[i]] "</a></li>\n"
	return s "</ul>\n</section>\n</main>\n" sidebar() footer()
}
function printview(a) {
	return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" \
	    TITLE[a] " (print)</title>\n<meta name=\"robots\" content=\"noindex\">\n</head>\n" \
	    "<body class=\"print\">\n<article>\n<h1>" TITLE[a] "</h1>\n<p class=\"byline\">By " \
	    AUTHOR[a] ", " DATE[a] "</p>\n" BODY[a] "</article>\n<p class=\"source\">Printed " \
	    stamp() " from <a href=\"" url(a) "\">" url(a) "</a></p>\n</body>\n</html>\n"
}
function listing(sec, k, npg,   s, i, j, first, last, a, lo, hi) {
	s = head(cap(SEC[sec]) (k > 1 ? " - page " k : "")) "<main id=\"content\">\n<h1>" \
	    cap(SEC[sec]) "</h1>\n<p class=\"intro\">" INTRO[sec] "</p>\n"
	first = (k - 1) * PER + 1
	last = k * PER
	if (last > NSA[sec])
		last = NSA[sec]
	for (i = first; i <= last; i++) {
		a = SA[sec, i]
		s = s "<div class=\"teaser\">\n<h2><a href=\"" url(a) "\">" TITLE[a] "</a></h2>\n" \
		    "<p>" DATE[a] ". " TEAS[a] "</p>\n</div>\n"
	}
	s = s "<nav class=\"pager\">"
	if (k > 1)
		s = s "<a href=\"" lurl(sec, 1) "\">First</a> <a href=\"" lurl(sec, k - 1) "\">Previous</a> "
	lo = k - 2; if (lo < 1) lo = 1
	hi = k + 2; if (hi > npg) hi = npg
	for (j = lo; j <= hi; j++)
		s = s (j == k ? "<span>" j "</span> " : "<a href=\"" lurl(sec, j) "\">" j "</a> ")
	if (k < npg)
		s = s "<a href=\"" lurl(sec, k + 1) "\">Next</a> <a href=\"" lurl(sec, npg) "\">Last</a>"
	return s "</nav>\n</main>\n" sidebar() footer()
}
function lurl(sec, k) { return "/" SEC[sec] "/" (k > 1 ? "page/" k ".html" : "") }
function staticpage(title, text) {
	return head(title) "<main id=\"content\">\n<article>\n<h1>" title "</h1>\n" text \
	    "</article>\n</main>\n" sidebar() footer()
}
BEGIN {
	seed = 20240611
	NV = split("the of and to in a is that for on with as by at from this are was be \
university students research faculty campus program study department course \
lecture professor laboratory science data analysis project team library \
semester graduate undergraduate community public results report funding grant \
center institute policy network system model energy climate health medical \
clinical patient biology chemistry physics mathematics engineering computer \
software history language literature music art culture society economy market \
water city region national international global local new first annual recent \
important several many new open early major public early final early future \
support develop improve present discuss announce publish describe explore \
measure compare observe design build test launch award invite welcome host \
collaboration partnership initiative workshop conference seminar symposium \
exhibition performance festival season competition championship match coach \
player athlete alumni donor volunteer staff member committee board council \
students researchers scientists engineers artists scholars teachers leaders \
year month week day morning evening today tomorrow spring summer autumn winter \
building hall room garden museum archive collection catalogue journal article \
book chapter paper thesis dissertation experiment survey interview method \
evidence theory practice approach framework question answer problem solution \
challenge opportunity change growth impact effect outcome benefit risk cost \
quality access equity diversity inclusion safety security privacy ethics \
digital online virtual hybrid mobile remote physical social economic political \
environmental sustainable renewable efficient innovative creative critical \
careful detailed broad deep long short large small high low strong clear \
because while although since however therefore moreover also only often \
together across through between during after before around within without \
will can may should must could would might has have had does did not more most", V, " ")
	NA = split("Summer school applications open now|Visit the campus bookshop sale|\
New MBA evening programme|Alumni travel: spring tours|Support the scholarship fund|\
Concert tickets at the box office|Library late opening this week|Join the sports centre today", AD, "|")
	NS = split(secs, SEC, " ")
	PER = 24
	D = int(P / 5)
	# Solve U + listing pages + D + 4 = P (home, about, contact, privacy).
	U = P - D - 4
	for (it = 0; it < 6; it++) {
		L = 0
		for (s = 1; s <= NS; s++) {
			n = int(U / NS) + (s <= U % NS ? 1 : 0)
			L += int((n + PER - 1) / PER)
		}
		U = P - D - 4 - L
	}
	L = 0
	for (s = 1; s <= NS; s++) {
		n = int(U / NS) + (s <= U % NS ? 1 : 0)
		L += int((n + PER - 1) / PER)
	}
	D = P - U - L - 4
	# Articles: section, slug, title, date, author, body, teaser, related.
	for (a = 1; a <= U; a++) {
		s = 1 + (a - 1) % NS
		ASEC[a] = s
		SA[s, ++NSA[s]] = a
		n = 3 + rnd(3)
		t = ""; g = ""
		for (i = 1; i <= n; i++) {
			w = V[1 + rnd(NV)]
			t = t (i > 1 ? " " : "") (i == 1 ? cap(w) : w)
			g = g (i > 1 ? "-" : "") w
		}
		TITLE[a] = t
		SLUG[a] = g
		DATE[a] = sprintf("2024-%02d-%02d", 1 + rnd(12), 1 + rnd(28))
		AUTHOR[a] = cap(V[1 + rnd(NV)]) " " cap(V[1 + rnd(NV)]) "son"
		TEAS[a] = teaser()
	}
	for (a = 1; a <= U; a++) {
		n = 3 + rnd(3)
		r = ""
		for (i = 1; i <= n; i++)
			r = r (i > 1 ? " " : "") (1 + rnd(U))
		REL[a] = r
	}
	for (s = 1; s <= NS; s++)
		INTRO[s] = teaser() " " teaser()
	# Duplicates: one per chosen article, spread evenly, kinds in turn.
	split("alias print amp utm", KIND, " ")
	for (k = 0; k < D; k++) {
		a = 1 + int(k * U / D)
		DUP[a] = KIND[1 + k % 4]
		nd[DUP[a]]++
	}
	files = 0
	for (a = 1; a <= U; a++) {
		BODY[a] = prose(150 + rnd(751))
		page = article(a, "")
		emit(url(a), page)
		if (DUP[a] == "alias")
			emit("/node/" pad(a) ".html", page)
		else if (DUP[a] == "print")
			emit("/print/" SEC[ASEC[a]] "/" pad(a) ".html", printview(a))
		else if (DUP[a] == "amp")
			emit("/amp/" SEC[ASEC[a]] "/" pad(a) "-" SLUG[a] ".html", article(a, "amp"))
		delete BODY[a]
	}
	for (s = 1; s <= NS; s++) {
		npg = int((NSA[s] + PER - 1) / PER)
		for (k = 1; k <= npg; k++)
			emit(lurl(s, k) (k == 1 ? "index.html" : ""), listing(s, k, npg))
	}
	# Home: the newest article of every section, then the sections.
	h = head("Home") "<main id=\"content\">\n<h1>Welcome to Bench University</h1>\n<p class=\"intro\">" \
	    teaser() " " teaser() "</p>\n"
	for (i = 0; i < 2 * NS && i < U; i++) {
		a = U - i
		h = h "<div class=\"teaser\">\n<h2><a href=\"" url(a) "\">" TITLE[a] "</a></h2>\n<p>" \
		    DATE[a] ". " TEAS[a] "</p>\n</div>\n"
	}
	emit("/index.html", h "</main>\n" sidebar() footer())
	emit("/about.html", staticpage("About the university", prose(300)))
	emit("/contact.html", staticpage("Contact", prose(160)))
	emit("/privacy.html", staticpage("Privacy notice", prose(400)))
	printf "pages=%d articles=%d listings=%d duplicates=%d alias=%d print=%d amp=%d utm=%d files=%d\n", \
	    U + L + D + 4, U, L, D, nd["alias"], nd["print"], nd["amp"], nd["utm"], files > manifest
	close(manifest)
}'
cat "$dir/www.bench.test.manifest"
