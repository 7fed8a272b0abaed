#!/bin/sh
# --sitemaps: the sitemaps robots.txt names (plain, index, gzip) seed the
# frontier; without the option they are not read.
. tests/e2e/lib.sh

ROOT="$E2E_TMP/root"
H=www.sitemap.test
mkdir -p "$ROOT/$H/hidden"
e2e_start_server "$ROOT"
U="http://$H:$PORT"
# The sitemaps need absolute URLs, so the site is written once the port is
# known (the server reads files per request).
printf 'User-agent: *\nDisallow: /hidden/forbidden.html\nSitemap: %s/sitemap-index.xml\n' "$U" >"$ROOT/$H/robots.txt"
printf '<html><body><p>Home page that links nowhere.</p></body></html>\n' >"$ROOT/$H/index.html"
cat >"$ROOT/$H/sitemap-index.xml" <<XML
<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sitemap><loc>$U/pages.xml</loc></sitemap>
  <sitemap><loc>$U/more.xml.gz</loc></sitemap>
  <sitemap><loc>http://www.elsewhere.test/out-of-scope.xml</loc></sitemap>
</sitemapindex>
XML
cat >"$ROOT/$H/pages.xml" <<XML
<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc> $U/hidden/a.html </loc></url>
  <url><loc>$U/hidden/forbidden.html</loc></url>
</urlset>
XML
printf '%s/hidden/b.html\n' "$U" | gzip -c >"$ROOT/$H/more.xml.gz"
# Texts of their own: one word apart, such short pages would be near
# duplicates of each other.
for p in "a:apples ripen slowly in northern orchards" \
    "b:barges carry coal along quiet canals" \
    "forbidden:fences guard the private garden beyond"; do
	printf '<html><body><p>Known only from the sitemap: %s.</p></body></html>\n' \
	    "${p#*:}" >"$ROOT/$H/hidden/${p%%:*}.html"
done

"$NEARCRAWL" crawl -d "$E2E_TMP/no.db" --quiet --delay-ms 0 \
    --resolve "$H:$PORT:127.0.0.1" "$U/" 2>/dev/null
eq "without --sitemaps: only the home page" "$(q "$E2E_TMP/no.db" 'SELECT count(*) FROM pages')" 1
"$NEARCRAWL" crawl -d "$E2E_TMP/yes.db" --quiet --delay-ms 0 --sitemaps \
    --resolve "$H:$PORT:127.0.0.1" "$U/" 2>/dev/null
eq "with --sitemaps exits 0" "$?" 0
v() { q "$E2E_TMP/yes.db" "SELECT verdict FROM pages WHERE url = '$U$1'"; }
eq "page from a sitemap crawled" "$(v /hidden/a.html)" unique
eq "page from a gzip sitemap crawled" "$(v /hidden/b.html)" unique
eq "robots.txt still applies to sitemap pages" "$(v /hidden/forbidden.html)" skipped
eq "sitemap files are not pages" \
    "$(q "$E2E_TMP/yes.db" "SELECT count(*) FROM pages WHERE url LIKE '%.xml%'")" 0
eq "out-of-scope sitemap not asked" "$(grep -c elsewhere "$SERVER_LOG")" 0

# A sitemap given as a seed (without --sitemaps) seeds its URLs: a file,
# an index, a gzip file.
for s in pages.xml sitemap-index.xml more.xml.gz; do
	db=$E2E_TMP/seed-$s.db
	"$NEARCRAWL" crawl -d "$db" --quiet --delay-ms 0 \
	    --resolve "$H:$PORT:127.0.0.1" "$U/$s" 2>/dev/null
	eq "$s as a seed: exits 0" "$?" 0
	w() { q "$db" "SELECT verdict FROM pages WHERE url = '$U$1'"; }
	case $s in
	pages.xml) eq "$s as a seed: its page crawled" "$(w /hidden/a.html)" unique ;;
	more.xml.gz) eq "$s as a seed: its page crawled" "$(w /hidden/b.html)" unique ;;
	*) eq "$s as a seed: the pages of its sitemaps crawled" \
	    "$(w /hidden/a.html) $(w /hidden/b.html)" "unique unique" ;;
	esac
	ok "$s as a seed: its row says what it seeded" test "$(q "$db" \
	    "SELECT count(*) FROM pages WHERE url = '$U/$s' AND verdict =
	    'skipped' AND reason LIKE 'sitemap: % URLs queued as seeds, %'")" = 1
done
# A non-HTML seed that is no sitemap stays what it was.
printf 'just some text\n' >"$ROOT/$H/notes.txt"
"$NEARCRAWL" crawl -d "$E2E_TMP/txt.db" --quiet --delay-ms 0 \
    --resolve "$H:$PORT:127.0.0.1" "$U/notes.txt" 2>/dev/null
eq "a text seed that names no URL: skipped, not HTML" "$(q "$E2E_TMP/txt.db" \
    "SELECT verdict || ' ' || substr(reason, 1, 8) FROM pages")" "skipped not HTML"
e2e_finish
