#!/bin/sh
# gen-real-site.sh -- build, at test time, a labelled static site from the
# real pages of the shared corpus (never from pages kept in this repository).
#
#   scripts/gen/gen-real-site.sh OUTDIR [PORT]
#
# Reads ../shared/corpus/readability/pages/NAME/{source,expected}.html.gz
# relative to the project root (REAL_CORPUS overrides the readability
# folder) and writes, from scratch:
#   OUTDIR/<host>/**     the site, served as ROOT/<Host header>/<path>
#   OUTDIR/labels.tsv    path<TAB>group<TAB>class, paths as //host/path?query
# PORT (default 80) is the port the test server listens on: links from one
# host to another are absolute and must carry it. Links inside a host are
# absolute paths.
#
# One host per publisher: NAME less a trailing -N (nytimes-1..5 are
# nytimes.real.test; the two lifehacker captures share one). Per page:
# /a/NAME.html (as captured) and, by the page's place in the sorted list,
# some of /alias/NAME.html (the same bytes), /print/NAME.html (the reference
# article in a bare wrapper), /v/NAME.html (the capture with another banner,
# menu, advertisement, timestamp and counter) and /a/NAME.html?utm_...
# (tracking). Per host a front page and /list/page-K.html; www.real.test
# links every host and listing. Every file is also labelled as PATH?*: the
# server ignores queries. tests/fixtures/README.md ("Real pages") describes
# the classes.
#
# Deterministic: sorted names (LC_ALL=C), no clocks, no random numbers.
# Needs only POSIX sh, awk, gzip. Exit status: 0 written, 2 bad usage or no
# corpus, 1 anything else.
set -eu
LC_ALL=C
export LC_ALL
me=gen-real-site

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
	echo "usage: $0 OUTDIR [PORT]" >&2
	exit 2
fi
out=$1
port=${2:-80}
case $port in
'' | *[!0-9]*) echo "$me: bad port: $port" >&2; exit 2 ;;
esac
top=$(cd "$(dirname "$0")/../.." && pwd)
corpus=${REAL_CORPUS:-$top/../shared/corpus/readability}
if [ ! -d "$corpus/pages" ]; then
	echo "$me: the real-page corpus is missing: no $corpus/pages" >&2
	echo "$me: (it lives outside the repository, in ../shared/corpus/)" >&2
	exit 2
fi
AWK=${AWK:-awk}

mkdir -p "$out"
out=$(cd "$out" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gen-real.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
# Only what this script writes is removed: OUTDIR may be a server's root.
rm -rf "$out"/*.real.test "$out/labels.tsv"

# The group and host of a page: its own name, and the name less a trailing
# -N, except for two captures of one article (the corpus README):
# lifehacker-working and lifehacker-post-comment-load are one group on one
# host, as a site that serves a story twice.
set_names() {
	group=article-$1
	suffix=${1##*-}
	case $1 in
	lifehacker-working | lifehacker-post-comment-load)
		group=article-lifehacker host=lifehacker.real.test ;;
	*-*) case $suffix in
		*[!0-9]*) host=$1.real.test ;;
		*) host=${1%-*}.real.test ;;
		esac ;;
	*) host=$1.real.test ;;
	esac
}

# TITLE<TAB>TEASER of a page. TITLE: the first <title> of the capture FILE,
# tags and white space squeezed, at most 14 words (cut at spaces, so no
# UTF-8 sequence is split), NAME if none. TEASER: the "excerpt" of the
# metadata JSON, escapes undone, < and > escaped, at most 40 words; empty if
# none.
meta_of() {
	"$AWK" -v name="$2" -v json="$3" '
	function words(s, max,   w, n, i, t) {
		gsub(/[ \t\r\n]+/, " ", s)
		n = split(s, w, " ")
		t = ""
		for (i = 1; i <= n && i <= max; i++) t = t (i > 1 ? " " : "") w[i]
		return t
	}
	{ s = s " " $0; if ($0 ~ /<\/[Tt][Ii][Tt][Ll][Ee]/) exit }
	END {
		t = ""
		if (match(s, /<[Tt][Ii][Tt][Ll][Ee][^>]*>/)) {
			s = substr(s, RSTART + RLENGTH)
			if (match(s, /<\/[Tt][Ii][Tt][Ll][Ee]/)) s = substr(s, 1, RSTART - 1)
			gsub(/<[^>]*>/, " ", s)
			t = words(s, 14)
		}
		r = ""
		while ((getline l < json) > 0) {
			if (!match(l, /"excerpt"[ \t]*:[ \t]*"/)) continue
			l = substr(l, RSTART + RLENGTH)
			for (i = 1; i <= length(l); i++) {
				c = substr(l, i, 1)
				if (c == "\"") break
				if (c == "\\") {
					c = substr(l, ++i, 1)
					if (c == "n" || c == "t" || c == "r") c = " "
				}
				r = r c
			}
			break
		}
		gsub(/</, "\\&lt;", r); gsub(/>/, "\\&gt;", r)
		printf "%s\t%s\n", (t == "" ? name : t), words(r, 40)
	}' "$1"
}

# The re-templated variant: another edition banner and menu in place of the
# capture's first small <nav> (or after <body>), and another advertisement,
# timestamp and visitor counter before the last </body>.
variant_of() {
	"$AWK" -v i="$2" -v host="$3" '
	{ L[NR] = $0 "\n" }
	END {
		# Pairwise joins: appending line by line is quadratic in mawk.
		for (n = NR; n > 1; n = m)
			for (m = 0; 2 * m < n; m++)
				L[m + 1] = (2 * m + 2 <= n) ? L[2 * m + 1] L[2 * m + 2] : L[2 * m + 1]
		s = L[1]
		split("You are reading the mobile edition of this story.|" \
		    "Lite edition: fewer images, faster pages.|" \
		    "Partner edition, republished with permission.|" \
		    "Syndicated copy from our news service.", ban, "|")
		split("Advertisement: garden chairs and tables, forty per cent off this weekend.|" \
		    "Advertisement: learn to sail on the lake, beginner courses every Saturday.|" \
		    "Advertisement: fresh coffee beans delivered to your door each month.|" \
		    "Advertisement: winter tyres fitted while you wait, book a slot online.", ad, "|")
		head = "<div class=\"edition\"><p>" ban[1 + i % 4] "</p>" \
		    "<nav><a href=\"/\">" host "</a> <a href=\"/list/page-1.html\">" \
		    "Latest</a> <a href=\"/\">Sections</a></nav></div>\n"
		foot = "<div class=\"edition-foot\"><p>" ad[1 + (i + 1) % 4] "</p>" \
		    sprintf("<p>Last updated 2026-0%d-%02d %02d:%02d UTC</p>", \
		    1 + i % 9, 1 + i % 28, i % 24, (i * 7) % 60) \
		    sprintf("<p>Visitors: %d</p></div>\n", 1000 + (i * 7919) % 90000)
		t = tolower(s)
		b = 1
		if (match(t, /<body([ \t\r\n][^>]*)?>/)) b = RSTART + RLENGTH
		n = index(substr(t, b), "<nav")
		e = n ? index(substr(t, b + n - 1), "</nav>") : 0
		if (n && e && e < 20000) {
			s = substr(s, 1, b + n - 2) head substr(s, b + n - 1 + e + 5)
			t = tolower(s)
		} else
			s = substr(s, 1, b - 1) head substr(s, b)
		t = tolower(s)
		last = 0
		while ((k = index(substr(t, last + 1), "</body")) > 0) last += k
		if (last) s = substr(s, 1, last - 1) foot substr(s, last)
		else s = s foot
		printf "%s", s
	}' "$1"
}

# Which derived URLs page number i (0-based, sorted) has: every kind
# appears with and without the others.
set_kinds() {
	case $(($1 % 6)) in
	0) kinds="alias print variant track1" ;;
	1) kinds="alias variant" ;;
	2) kinds="print track2" ;;
	3) kinds="alias print variant" ;;
	4) kinds="print variant track1" ;;
	5) kinds="alias print" ;;
	esac
}

# The manifest: host, name, kind, path, group, class, title, teaser, i; one
# line per labelled URL. Few processes per page: forks are most of the time.
manifest=$tmp/manifest
: >"$manifest"
tab=$(printf '\t')
# row KIND PATH CLASS: one manifest line for the current page.
row() {
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\n' "$host" "$name" "$1" \
	    "$2" "$group" "$3" "$title" "$teaser" "$i" >>"$manifest"
}
i=0
for dir in "$corpus"/pages/*/; do
	dir=${dir%/}
	name=${dir##*/}
	case $name in
	*[!a-z0-9-]* | -*) echo "$me: skipped $name: not a host name" >&2; continue ;;
	esac
	[ -f "$dir/source.html.gz" ] && [ -f "$dir/expected.html.gz" ] || {
		echo "$me: skipped $name: no source.html.gz or expected.html.gz" >&2
		continue
	}
	set_names "$name"
	h=$out/$host
	[ -d "$h/v" ] || mkdir -p "$h/a" "$h/alias" "$h/print" "$h/v" "$h/list"
	gzip -dc "$dir/source.html.gz" >"$h/a/$name.html"
	meta=$(meta_of "$h/a/$name.html" "$name" "$dir/expected-metadata.json")
	title=${meta%%"$tab"*}
	teaser=${meta#*"$tab"}
	row a "/a/$name.html" article
	set_kinds "$i"
	for k in $kinds; do
		case $k in
		alias)
			ln "$h/a/$name.html" "$h/alias/$name.html" 2>/dev/null ||
			    cp "$h/a/$name.html" "$h/alias/$name.html"
			row alias "/alias/$name.html" alias ;;
		print)
			{
				printf '<!DOCTYPE html>\n<html><head><meta charset="utf-8">'
				printf '<title>%s</title></head>\n<body>\n' "$title"
				gzip -dc "$dir/expected.html.gz"
				printf '\n</body></html>\n'
			} >"$h/print/$name.html"
			row print "/print/$name.html" print ;;
		variant)
			variant_of "$h/a/$name.html" "$i" "$host" >"$h/v/$name.html"
			row variant "/v/$name.html" variant ;;
		track1) row tracking "/a/$name.html?utm_source=x" tracking ;;
		track2)
			row tracking "/a/$name.html?utm_source=newsletter&utm_medium=email" \
			    tracking ;;
		esac
	done
	i=$((i + 1))
done
# Each host got every folder; the ones its pages did not use go.
rmdir "$out"/*.real.test/* 2>/dev/null || :
[ "$i" -gt 0 ] || { echo "$me: no pages in $corpus/pages" >&2; exit 2; }

# Front pages, listings, the hub and the labels, from the manifest.
"$AWK" -F "$tab" -v out="$out" -v port="$port" '
function esc(s) { gsub(/&/, "\\&amp;", s); gsub(/"/, "\\&quot;", s); return s }
function text_for(kind, title) {
	if (kind == "alias") return title " (permalink)"
	if (kind == "print") return "Print: " title
	if (kind == "variant") return title " (mobile edition)"
	if (kind == "tracking") return "Share: " title
	return title
}
function top(f, title, host) {
	printf "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">" \
	    "<title>%s</title></head>\n<body>\n<header><p><a href=\"/\">%s</a></p>\n" \
	    "<nav><a href=\"/\">Front page</a> | <a href=\"/list/page-1.html\">" \
	    "Stories</a> | <a href=\"http://www.real.test:%s/\">All sites</a></nav>" \
	    "</header>\n<main>\n", title, host, port > f
}
function bottom(f) {
	printf "</main>\n<footer><p>A test site for nearcrawl, built from pages " \
	    "captured from their publishers; copies for testing only.</p></footer>\n" \
	    "</body></html>\n" > f
	close(f)
}
function label(host, path, group, class) {
	printf "//%s%s\t%s\t%s\n", host, path, group, class > labels
}
# The server ignores queries, and captured pages link their own with
# queries (?page=2, ?country=us): every file also answers PATH?anything.
function served(host, path, group, class) {
	label(host, path, group, class)
	label(host, path "?*", group, "query")
	if (path == "/") served(host, "/index.html", group, "alias")
}
# The links of a page, rotated by its number so that the article is not always
# linked first.
function flush(   j, x) {
	for (j = 0; j < nq; j++) {
		x = 1 + (j + Q[1, 9]) % nq
		take(Q[x, 1], Q[x, 2], Q[x, 3], Q[x, 4], Q[x, 5], Q[x, 6], Q[x, 7], Q[x, 8])
	}
	nq = 0
}
{
	if (nq && $2 != Q[1, 2]) flush()
	nq++
	for (j = 1; j <= 9; j++) Q[nq, j] = $j
}
# One link: host, article name, kind, path, group, class, title, teaser.
function take(h, a, k, p, g, c, t, x,   n, na) {
	if (!(h in HN)) { nh++; H[nh] = h; HN[h] = 0 }
	n = ++HN[h]
	P[h, n] = p; K[h, n] = k; G[h, n] = g; C[h, n] = c; T[h, n] = t
	X[h, n] = x; A[h, n] = a
	if (!((h, a) in SEEN)) {                   # first link of each article
		SEEN[h, a] = 1
		na = ++NA[h]
		AP[h, na] = p; AT[h, na] = t; AX[h, na] = x
	}
}
END {
	if (nq) flush()
	labels = out "/labels.tsv"
	printf "path\tgroup\tclass\n" > labels
	served("www.real.test", "/", "hub", "listing")
	hub = out "/www.real.test/index.html"
	system("mkdir -p \"" out "/www.real.test\"")
	printf "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">" \
	    "<title>Real pages: every site</title></head>\n<body>\n" \
	    "<h1>Real pages: every site</h1>\n<ul>\n" > hub
	for (h = 1; h <= nh; h++) {
		host = H[h]; n = HN[host]
		short = host; sub(/\.real\.test$/, "", short)
		np = int((n + 4) / 5)               # pages of 3 to 5 links
		# Every listing page from the hub too: all stories within two
		# hops, so a crawl may stop there (--max-depth 2) and skip the
		# links of the captured pages, which 404 here.
		printf "<li><a href=\"http://%s:%s/\">%s</a>: %d stories, pages",
		    host, port, host, NA[host] > hub
		for (k = 1; k <= np; k++)
			printf " <a href=\"http://%s:%s/list/page-%d.html\">%d</a>",
			    host, port, k, k > hub
		printf "</li>\n" > hub
		system("mkdir -p \"" out "/" host "/list\"")
		f = out "/" host "/index.html"
		top(f, "Front page - " host, host)
		printf "<h1>%s: front page</h1>\n", host > f
		printf "<p>Stories from %s, %d in all.</p>\n<ul>\n", short, NA[host] > f
		for (j = 1; j <= NA[host]; j++)
			printf "<li><a href=\"%s\">%s</a></li>\n", esc(AP[host, j]),
			    AT[host, j] > f
		printf "</ul>\n<p>Stories:" > f
		for (k = 1; k <= np; k++)
			printf " <a href=\"/list/page-%d.html\">page %d</a>", k, k > f
		printf "</p>\n" > f
		bottom(f)
		served(host, "/", "home-" short, "listing")
		x = 0
		for (k = 1; k <= np; k++) {
			size = int(n / np) + (k <= n % np)
			f = out "/" host "/list/page-" k ".html"
			top(f, "Stories, page " k " - " host, host)
			printf "<h1>%s stories, page %d of %d</h1>\n<ul>\n", host, k,
			    np > f
			for (j = 1; j <= size; j++) {
				x++
				printf "<li><a href=\"%s\">%s</a>", esc(P[host, x]),
				    text_for(K[host, x], T[host, x]) > f
				# The teaser once per story and page, as listings do.
				if (X[host, x] != "" && !((k, A[host, x]) in TOLD)) {
					TOLD[k, A[host, x]] = 1
					printf "<p>%s</p>", X[host, x] > f
				}
				printf "</li>\n" > f
				if (index(P[host, x], "?")) label(host, P[host, x], G[host, x], C[host, x])
				else served(host, P[host, x], G[host, x], C[host, x])
			}
			printf "</ul>\n<p>Pages:" > f
			for (j = 1; j <= np; j++)
				printf " <a href=\"/list/page-%d.html\">%d</a>", j, j > f
			printf "</p>\n" > f
			bottom(f)
			served(host, "/list/page-" k ".html", "list-" short "-" k, "listing")
		}
	}
	printf "</ul>\n</body></html>\n" > hub
	close(hub)
	close(labels)
}' "$manifest"
