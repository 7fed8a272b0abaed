#!/bin/sh
# Containment (docs/dedup.md, "What near means"): a print view inside an
# original three times its length is near it, found through the page that
# linked to it (the linker), which the sketches do not propose; a page is
# never near a listing that shows it whole under an item leading to it;
# and a crawl recorded before the linker resumes without it.
. tests/e2e/lib.sh

L=tests/fixtures/sites/www.lab.test
A=$(ls "$L/print" | head -n 1)
B=$(ls "$L/print" | sed -n 2p)
C=$(ls "$L/print" | sed -n 3p)
ROOT=$E2E_TMP/root
H=www.contain.test
mkdir -p "$ROOT/$H/news" "$ROOT/$H/print" "$ROOT/$H/events"

# The original: the article, then two other articles' paragraphs as
# readers' comments inside it, so that its main text is three times the
# print view's. Its "Print this article" link leads to the print view.
paras() { sed -n 's|^\(<p>[A-Z].*</p>\)$|\1|p' "$1"; }
{
	sed -n '1,/<\/article>/p' "$L/news/$A" | sed '$d' |
	    sed 's|href="[^"]*"|href="#"|g'
	paras "$L/print/$B" | sed 's|^<p>|<p>Comment by a reader: |'
	paras "$L/print/$C" | sed 's|^<p>|<p>Comment by a reader: |'
	echo '</article>'
	echo "<p><a href=\"../print/$A\">Print this article</a></p>"
	echo '</main></body></html>'
} >"$ROOT/$H/news/$A"
cp "$L/print/$A" "$ROOT/$H/print/$A"

# A listing that shows each event whole under a link with its title, and
# the events, whose title is their heading.
{
	echo '<html><head><title>Events</title></head><body><main>'
	echo '<h1>Upcoming events</h1>'
	for i in 1 2 3; do
		f=$(ls "$L/print" | sed -n "$((i + 3))p")
		t=$(sed -n 's|^<h1>\(.*\)</h1>$|\1|p' "$L/print/$f")
		echo "<div class=\"card\"><h3><a href=\"e$i.html\">$t</a></h3>"
		paras "$L/print/$f" | head -n 2
		echo '</div>'
		{
			echo "<html><head><title>$t - Lakeside Events</title>"
			echo "</head><body><main><h1>$t</h1>"
			paras "$L/print/$f" | head -n 2
			echo '<p>Free and open to all.</p></main></body></html>'
		} >"$ROOT/$H/events/e$i.html"
	done
	echo '</main></body></html>'
} >"$ROOT/$H/events/list.html"
printf '<html><body><p><a href="news/%s">News</a> <a href="events/list.html">Events</a></p></body></html>\n' \
    "$A" >"$ROOT/$H/index.html"
e2e_start_server "$ROOT"

R="--resolve $H:$PORT:127.0.0.1"
U=http://$H:$PORT
crawl() {
	cdb=$1
	shift
	"$NEARCRAWL" crawl -d "$cdb" --quiet --delay-ms 0 --per-host 1 \
	    --concurrency 1 $R "$@" 2>>"$E2E_TMP/err"
}
v() { sqlite3 "$1" "SELECT verdict FROM pages WHERE url = '$U/$2'"; }

# The sketches do not propose the original: the pair alone is unique.
"$NEARCRAWL" compare "$ROOT/$H/news/$A" "$ROOT/$H/print/$A" >"$E2E_TMP/files.out"
eq "print view inside a 3x longer original, two files: not proposed" \
    "$(sed -n 's/^verdict: \([a-z]*\).*/\1/p' "$E2E_TMP/files.out")" unique
# Given as URLs, compare knows A links to B: the linker proposes it.
"$NEARCRAWL" compare $R "$U/news/$A" "$U/print/$A" >"$E2E_TMP/urls.out"
eq "... as URLs: near" \
    "$(sed -n 's/^verdict: \([a-z]*\).*/\1/p' "$E2E_TMP/urls.out")" near
ok "compare names the linker as the candidate's source" \
    grep -q '^candidate: .*linker (A links to B)' "$E2E_TMP/urls.out"

db=$E2E_TMP/c.db
crawl "$db" "$U/index.html"
eq "crawl: print view near its original" "$(v "$db" "print/$A")" near
eq "crawl: found by the linker" "$(sqlite3 "$db" "SELECT d.method FROM
    duplicates d JOIN pages p ON p.id = d.page_id
    WHERE p.url = '$U/print/$A'")" linker
eq "crawl: the original is unique" "$(v "$db" "news/$A")" unique
for i in 1 2 3; do
	eq "crawl: event $i, shown whole by its listing, unique" \
	    "$(v "$db" "events/e$i.html")" unique
done
ok "the reason says the listing lists it" test "$(sqlite3 "$db" \
    "SELECT count(*) FROM pages WHERE url LIKE '%/events/e_.html'
     AND reason LIKE '%it lists this page%'")" -ge 1
eq "the setting is recorded" \
    "$(sqlite3 "$db" "SELECT value FROM meta WHERE key = 'linker'")" yes

# --linker no: the print view is not proposed, and an event copied whole
# from its listing would be near it if proposed: neither happens here.
db=$E2E_TMP/off.db
crawl "$db" --linker no "$U/index.html"
eq "--linker no: the print view unique" "$(v "$db" "print/$A")" unique

# A crawl recorded before the setting existed resumes with it off.
db=$E2E_TMP/old.db
crawl "$db" --max-pages 2 "$U/index.html"
sqlite3 "$db" "DELETE FROM meta WHERE key = 'linker'"
crawl "$db" --max-pages 0 "$U/index.html"
eq "an older crawl resumes without the linker" "$(v "$db" "print/$A")" unique
eq "... and says so in meta" \
    "$(sqlite3 "$db" "SELECT value FROM meta WHERE key = 'linker'")" no
ok "no errors" sh -c "! grep -qi 'warning\\|failed\\|cannot\\|error:' '$E2E_TMP/err'"

e2e_finish
