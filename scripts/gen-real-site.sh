#!/bin/sh
# gen-real-site.sh -- build, at test time, a labelled static site from the
# real pages of the shared corpus (never from pages kept in this repository).
#
#   scripts/gen-real-site.sh OUTDIR [PORT]
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
# nytimes.real.test). Per page: /a/NAME.html (as captured) and, by the page's
# place in the sorted list, some of /alias/NAME.html (the same bytes),
# /print/NAME.html (the reference article in a bare wrapper),
# /v/NAME.html (the capture with another banner, menu, advertisement,
# timestamp and counter) and /a/NAME.html?utm_... (tracking). Per host a
# front page and /list/page-K.html; www.real.test links every host.
# tests/fixtures/README.md ("Real pages") describes the classes.
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
here=$(cd "$(dirname "$0")" && pwd)
corpus=${REAL_CORPUS:-$(dirname "$here")/../shared/corpus/readability}
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

# The group of a page: its own name, except for captures of one article.
# The corpus README: lifehacker-working and lifehacker-post-comment-load are
# two captures of the same article.
group_of() {
	case $1 in
	lifehacker-working | lifehacker-post-comment-load) echo article-lifehacker ;;
	*) echo "article-$1" ;;
	esac
}

# The first <title> of a page, tags and white space squeezed, at most 14
# words (cut at spaces, so no UTF-8 sequence is split); NAME if none.
title_of() {
	gzip -dc "$1" | "$AWK" -v name="$2" '
	{ s = s " " $0; if ($0 ~ /<\/[Tt][Ii][Tt][Ll][Ee]/) exit }
	END {
		if (!match(s, /<[Tt][Ii][Tt][Ll][Ee][^>]*>/)) { print name; exit }
		s = substr(s, RSTART + RLENGTH)
		if (match(s, /<\/[Tt][Ii][Tt][Ll][Ee]/)) s = substr(s, 1, RSTART - 1)
		gsub(/<[^>]*>/, " ", s)
		gsub(/[ \t\r\n]+/, " ", s)
		n = split(s, w, " ")
		t = ""
		for (i = 1; i <= n && i <= 14; i++) t = t (i > 1 ? " " : "") w[i]
		print (t == "" ? name : t)
	}'
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

# Which derived URLs page number i (0-based, sorted) has, and the tracking
# query: every kind appears with and without the others.
kinds_of() {
	case $(($1 % 6)) in
	0) echo "alias print variant track1" ;;
	1) echo "alias variant" ;;
	2) echo "print track2" ;;
	3) echo "alias print variant" ;;
	4) echo "print variant track1" ;;
	5) echo "alias print" ;;
	esac
}

# The manifest: host, name, kind, path, group, class, title; one line per
# labelled URL, in the order the listings link them.
manifest=$tmp/manifest
: >"$manifest"
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
	host=$(echo "$name" | sed 's/-[0-9][0-9]*$//').real.test
	group=$(group_of "$name")
	title=$(title_of "$dir/source.html.gz" "$name" | tr '\t' ' ')
	h=$out/$host
	mkdir -p "$h/a"
	gzip -dc "$dir/source.html.gz" >"$h/a/$name.html"
	lines="a /a/$name.html article"
	for k in $(kinds_of "$i"); do
		case $k in
		alias)
			mkdir -p "$h/alias"
			ln "$h/a/$name.html" "$h/alias/$name.html" 2>/dev/null ||
			    cp "$h/a/$name.html" "$h/alias/$name.html"
			lines="$lines
alias /alias/$name.html alias" ;;
		print)
			mkdir -p "$h/print"
			{
				printf '<!DOCTYPE html>\n<html><head><meta charset="utf-8">'
				printf '<title>%s</title></head>\n<body>\n' "$title"
				gzip -dc "$dir/expected.html.gz"
				printf '\n</body></html>\n'
			} >"$h/print/$name.html"
			lines="$lines
print /print/$name.html print" ;;
		variant)
			mkdir -p "$h/v"
			variant_of "$h/a/$name.html" "$i" "$host" >"$h/v/$name.html"
			lines="$lines
variant /v/$name.html variant" ;;
		track1)
			lines="$lines
tracking /a/$name.html?utm_source=x tracking" ;;
		track2)
			lines="$lines
tracking /a/$name.html?utm_source=newsletter&utm_medium=email tracking" ;;
		esac
	done
	# Rotate the links so that the article is not always linked first.
	echo "$lines" | TITLE=$title "$AWK" -v r="$i" -v host="$host" \
	    -v name="$name" -v group="$group" '
	{ k[NR] = $1; p[NR] = $2; c[NR] = $3 }
	END {
		for (j = 0; j < NR; j++) {
			x = 1 + (j + r) % NR
			printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", host, name, k[x], p[x],
			    group, c[x], ENVIRON["TITLE"]
		}
	}' >>"$manifest"
	i=$((i + 1))
done
[ "$i" -gt 0 ] || { echo "$me: no pages in $corpus/pages" >&2; exit 2; }

# Front pages, listings, the hub and the labels, from the manifest.
"$AWK" -F '\t' -v out="$out" -v port="$port" '
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
{
	if (!($1 in HN)) { nh++; H[nh] = $1; HN[$1] = 0 }
	n = ++HN[$1]
	P[$1, n] = $4; K[$1, n] = $3; G[$1, n] = $5; C[$1, n] = $6; T[$1, n] = $7
	if (!(($1, $2) in SEEN)) {                 # first link of each article
		SEEN[$1, $2] = 1
		na = ++NA[$1]
		AP[$1, na] = $4; AT[$1, na] = $7
	}
}
END {
	labels = out "/labels.tsv"
	printf "path\tgroup\tclass\n" > labels
	label("www.real.test", "/", "hub", "listing")
	hub = out "/www.real.test/index.html"
	system("mkdir -p \"" out "/www.real.test\"")
	printf "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">" \
	    "<title>Real pages: every site</title></head>\n<body>\n" \
	    "<h1>Real pages: every site</h1>\n<ul>\n" > hub
	for (h = 1; h <= nh; h++) {
		host = H[h]; n = HN[host]
		short = host; sub(/\.real\.test$/, "", short)
		np = int((n + 4) / 5)               # pages of 3 to 5 links
		printf "<li><a href=\"http://%s:%s/\">%s</a>: %d stories " \
		    "(<a href=\"http://%s:%s/list/page-1.html\">list</a>)</li>\n",
		    host, port, host, NA[host], host, port > hub
		system("mkdir -p \"" out "/" host "/list\"")
		f = out "/" host "/index.html"
		top(f, "Front page - " host, host)
		printf "<h1>Front page</h1>\n<ul>\n" > f
		for (j = 1; j <= NA[host]; j++)
			printf "<li><a href=\"%s\">%s</a></li>\n", esc(AP[host, j]),
			    AT[host, j] > f
		printf "</ul>\n<p>Stories:" > f
		for (k = 1; k <= np; k++)
			printf " <a href=\"/list/page-%d.html\">page %d</a>", k, k > f
		printf "</p>\n" > f
		bottom(f)
		label(host, "/", "home-" short, "listing")
		x = 0
		for (k = 1; k <= np; k++) {
			size = int(n / np) + (k <= n % np)
			f = out "/" host "/list/page-" k ".html"
			top(f, "Stories, page " k " - " host, host)
			printf "<h1>Stories, page %d of %d</h1>\n<ul>\n", k, np > f
			for (j = 1; j <= size; j++) {
				x++
				printf "<li><a href=\"%s\">%s</a></li>\n", esc(P[host, x]),
				    text_for(K[host, x], T[host, x]) > f
				label(host, P[host, x], G[host, x], C[host, x])
			}
			printf "</ul>\n<p>Pages:" > f
			for (j = 1; j <= np; j++)
				printf " <a href=\"/list/page-%d.html\">%d</a>", j, j > f
			printf "</p>\n" > f
			bottom(f)
			label(host, "/list/page-" k ".html", "list-" short "-" k, "listing")
		}
	}
	printf "</ul>\n</body></html>\n" > hub
	close(hub)
	close(labels)
}' "$manifest"
