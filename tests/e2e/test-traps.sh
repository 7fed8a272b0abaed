#!/bin/sh
# Crawler traps played by the test server (tests/server/traps.c and the
# calendar): every crawl ends by itself with a bounded number of pages, and
# the checks say which defence bounded it. The table is in
# docs/robustness.md, "Traps".
. tests/e2e/lib.sh

e2e_start_server tests/fixtures/sites
H=www.trap.test
B="http://$H:$PORT"

# crawl NAME PATH [OPTIONS...]: crawl from $B$PATH into NAME.db, stderr
# in NAME.err; the crawl must end with status 0.
crawl() {
	name=$1
	path=$2
	shift 2
	"$NEARCRAWL" crawl -d "$E2E_TMP/$name.db" --quiet --delay-ms 0 \
	    --resolve "$H:$PORT:127.0.0.1" "$@" "$B$path" \
	    </dev/null 2>"$E2E_TMP/$name.err"
	rc=$?
	# A run cut by --max-pages stops with work left: 3.
	want=0
	case "$* " in *"--max-pages "*) want=3 ;; esac
	eq "$name: crawl exits $want" "$rc" "$want"
}

# count NAME [WHERE]: pages rows of NAME.db.
count() {
	q "$E2E_TMP/$1.db" "SELECT count(*) FROM pages${2:+ WHERE $2}"
}

# queued NAME: frontier entries never fetched.
queued() {
	q "$E2E_TMP/$1.db" "SELECT count(*) FROM frontier WHERE state = 0"
}

# defence NAME WHAT: a figure of the crawl's "trap defences" line: stripped,
# trapped, capped or too_long; 0 when the line is missing.
defence() {
	awk -v what="$2" '/^nearcrawl: trap defences:/ {
		for (i = 1; i <= NF; i++) {
			if ($(i + 1) == "links" && $(i + 2) == "stripped")
				v["stripped"] = $i
			if ($(i + 1) == "with" && $(i + 3) == "trap-like")
				v["trapped"] = $i
			if ($(i + 1) == "over")
				v["capped"] = $i
			if ($(i + 1) == "too")
				v["too_long"] = $i
		}
	} END { print v[what] + 0 }' "$E2E_TMP/$1.err"
}

report() {
	echo "     $1: $(count "$1") pages ($(q "$E2E_TMP/$1.db" "SELECT group_concat(verdict || ' ' || n, ', ') FROM (SELECT verdict, count(*) AS n FROM pages GROUP BY verdict)"))"
}

# Session ids: 8 guides, every link with a new ?sid= or ;jsessionid=.
crawl session /__nc/session/0
report session
eq "session ids: only the near-duplicate stop: 1 + 8 x 16 links" \
    "$(count session)" 129
eq "session ids: every guide once unique, the rest exact" \
    "$(count session "verdict = 'unique'") $(count session "verdict = 'exact'")" \
    "8 121"
eq "session ids: ended by itself" "$(queued session)" 0
crawl session-strip /__nc/session/0 --strip-params sid,jsessionid
report session-strip
eq "session ids stripped: each guide fetched once" \
    "$(count session-strip) $(count session-strip "verdict = 'unique'")" "8 8"
eq "session ids stripped: no id in a fetched URL" \
    "$(count session-strip "url LIKE '%sid%'")" 0
eq "session ids stripped: the defence says so" \
    "$(defence session-strip stripped)" 128
eq "strip list recorded in meta" \
    "$(q "$E2E_TMP/session-strip.db" "SELECT value FROM meta WHERE key = 'strip_params'")" \
    "sid,jsessionid"
crawl session-follow /__nc/session/0 --follow-duplicates --max-pages 100
eq "session ids, duplicates followed: endless, cut by --max-pages" \
    "$(count session-follow)" 100
ok "session ids, duplicates followed: more left in the queue" \
    test "$(queued session-follow)" -gt 100

# The strip list may change on resume: it decides what is queued, not
# verdicts. The change is said and recorded.
"$NEARCRAWL" crawl -d "$E2E_TMP/session-strip.db" --delay-ms 0 \
    --resolve "$H:$PORT:127.0.0.1" --strip-params 'utm_*' \
    </dev/null >/dev/null 2>"$E2E_TMP/resume.err"
eq "resume with another strip list exits 0" "$?" 0
ok "resume says the strip list changed" grep -q \
    "strip-params changes from sid,jsessionid to utm_\*" "$E2E_TMP/resume.err"

# A session id added by redirect: stripping it must not lose the pages.
crawl sessredir /__nc/sessredir/0
report sessredir
eq "redirect session: one redirect, then 4 pages in one session" \
    "$(count sessredir "verdict = 'redirect'") $(count sessredir "verdict = 'unique'")" \
    "1 4"
crawl sessredir-strip /__nc/sessredir/0 --strip-params jsessionid
report sessredir-strip
eq "redirect session stripped: every page still fetched, once" \
    "$(count sessredir-strip "verdict = 'redirect'") $(count sessredir-strip "verdict = 'unique'")" \
    "4 4"
eq "redirect session stripped: pages fetched under their redirect's URL" \
    "$(count sessredir-strip "verdict = 'unique' AND url LIKE '%;jsessionid=%'")" 4

# Pagination: 4 pages of results, then "no more results" forever.
crawl pager /__nc/pager
report pager
ok "pager: near-duplicate stop ends it within 10 pages" \
    test "$(count pager)" -le 10
eq "pager: stopped by a near duplicate" \
    "$(q "$E2E_TMP/pager.db" "SELECT verdict FROM pages ORDER BY seq DESC LIMIT 1")" near
eq "pager: ended by itself" "$(queued pager)" 0
crawl pager-cap /__nc/pager --max-query-variants 3
report pager-cap
eq "pager capped: the seed and 3 queries" "$(count pager-cap)" 4
eq "pager capped: the defence says so" "$(defence pager-cap capped)" 1
crawl pager-follow /__nc/pager --follow-duplicates --max-pages 60
eq "pager, duplicates followed: endless, cut by --max-pages" \
    "$(count pager-follow)" 60

# Faceted navigation: 5 colours x 4 sizes x 3 orders x 2 views. Filters
# change the content, so to SimHash and ssdeep the near-duplicate stop does
# not bound it; only the grid being finite does. A filtered listing shows
# a selection of the products of the listing that linked to it (its
# linker): by docs/dedup.md it holds nothing new, so it is near that one
# once the linker is a candidate (the default); without it, the sketches
# see no resemblance between a listing and a fifth of it.
crawl facets-nolinker /__nc/facets --methods md5,simhash,ssdeep --linker no
ok "facets, --linker no: at most the 120 combinations and the seed" \
    test "$(count facets-nolinker)" -le 121
ok "facets, --linker no: more unique pages than the 20 real listings" \
    test "$(count facets-nolinker "verdict = 'unique'")" -gt 20
crawl facets /__nc/facets --methods md5,simhash,ssdeep
report facets
ok "facets: at most the 120 combinations and the seed" \
    test "$(count facets)" -le 121
ok "facets: a filtered listing is near the wider one that links to it" \
    test "$(q "$E2E_TMP/facets.db" "SELECT count(*) FROM duplicates
    WHERE method = 'linker'")" -gt 0
ok "facets: fewer unique pages than without the linker" \
    test "$(count facets "verdict = 'unique'")" -lt \
    "$(count facets-nolinker "verdict = 'unique'")"
# MinHash (on by default) sees a narrower filter's listing as a near copy
# of the wider one it shares most products with, so fewer pages are
# unique; with --dup-hops 0 their links are not followed, and the crawl
# ends sooner. By default near copies' links are followed two duplicate
# hops on, so the grid's end bounds it again.
crawl facets-minhash /__nc/facets --dup-hops 0
ok "facets, MinHash, --dup-hops 0: fewer pages than without" \
    test "$(count facets-minhash)" -lt "$(count facets)"
ok "facets, MinHash, --dup-hops 0: fewer unique pages than without" \
    test "$(count facets-minhash "verdict = 'unique'")" -lt \
    "$(count facets-nolinker "verdict = 'unique'")"
crawl facets-default /__nc/facets
report facets-default
ok "facets, defaults: at most the 120 combinations and the seed" \
    test "$(count facets-default)" -le 121
eq "facets, defaults: ended by itself" "$(queued facets-default)" 0
crawl facets-cap /__nc/facets --max-query-variants 20
report facets-cap
eq "facets capped: the seed and 20 queries" "$(count facets-cap)" 21
ok "facets capped: the defence says so" \
    test "$(defence facets-cap capped)" -gt 0
crawl facets-strip /__nc/facets --strip-params sort,view
report facets-strip
eq "facets without sort and view: 20 listings and the seed" \
    "$(count facets-strip)" 21
# The unfiltered listing links to every filter and shows every product:
# each filtered listing is a selection of it, near it.
eq "facets without sort and view: the unfiltered listing unique" \
    "$(count facets-strip "verdict = 'unique'")" 1
eq "facets without sort and view: each filtered one near it" \
    "$(q "$E2E_TMP/facets-strip.db" "SELECT count(*) FROM pages
    WHERE verdict = 'near' AND url LIKE '%color=%'")" \
    "$(q "$E2E_TMP/facets-strip.db" "SELECT count(*) FROM pages
    WHERE verdict <> 'unique' AND verdict <> 'exact' AND url LIKE '%color=%'")"

# Ever-deeper relative links; every page has prose of its own, so only
# the URL defences can stop them.
crawl repeat /__nc/deeper/repeat/
eq "a/b/ repeated: stopped at the third run" "$(count repeat)" 3
eq "a/b/ repeated: by the repeated-segment check" \
    "$(defence repeat trapped)" 1
crawl grow /__nc/deeper/grow/
eq "ever more segments: up to 32" "$(count grow)" 30
eq "ever more segments: the deepest has 32" \
    "$(q "$E2E_TMP/grow.db" "SELECT max(length(url) - length(replace(url, '/', ''))) - 3 FROM pages")" 32
eq "ever more segments: by the segment cap" "$(defence grow trapped)" 1
crawl long /__nc/deeper/long/
base=$(printf '%s' "$B/__nc/deeper/long/" | wc -c)
eq "ever longer URLs: up to 2048 bytes" "$(count long)" \
    $(((2048 - base) / 100 + 1))
ok "ever longer URLs: none over 2048 bytes" test \
    "$(q "$E2E_TMP/long.db" "SELECT max(length(url)) FROM pages")" -le 2048
eq "ever longer URLs: by the length cap" "$(defence long too_long)" 1

# The endless calendar: near duplicates, or the per-host cap when they are
# followed anyway. By default a near copy's links are followed two
# duplicate hops past new content: three months past the last unique one,
# each way.
crawl calendar /__nc/calendar/2026/11
report calendar
ok "calendar: near-duplicate stop ends it within 15 pages" \
    test "$(count calendar "url LIKE '%calendar%'")" -le 15
eq "calendar: no month more than three past a unique one" \
    "$(q "$E2E_TMP/calendar.db" "WITH m AS (SELECT verdict,
        CAST(substr(url, -7, 4) AS INTEGER) * 12 +
        CAST(substr(url, -2) AS INTEGER) AS k FROM pages
        WHERE url LIKE '%/__nc/calendar/%')
        SELECT max((SELECT min(abs(a.k - u.k)) FROM m u
        WHERE u.verdict = 'unique')) FROM m a")" 3
eq "calendar: ended by itself" "$(queued calendar)" 0
crawl calendar-cap /__nc/calendar/2026/11 --follow-duplicates \
    --max-pages-per-host 40
eq "calendar, duplicates followed: cut by the per-host cap" \
    "$(count calendar-cap "host = '$H'")" 40

# The suggested strip list on the labelled site: the tracking and session
# URLs are never fetched, and no unique content is lost.
L=www.lab.test
"$NEARCRAWL" crawl -d "$E2E_TMP/lab.db" --quiet --delay-ms 0 \
    --resolve "$L:$PORT:127.0.0.1" \
    --strip-params 'utm_*,sessionid,jsessionid,phpsessid,sid,fbclid,gclid' \
    "http://$L:$PORT/" </dev/null 2>"$E2E_TMP/lab.err"
eq "labelled site, suggested strip list: crawl exits 0" "$?" 0
report lab
eq "labelled site, suggested strip list: no query left" \
    "$(count lab "url LIKE '%?%'")" 0
eq "labelled site, suggested strip list: the 327 groups all unique" \
    "$(count lab "verdict = 'unique'")" 327
eq "labelled site, suggested strip list: 130 tracking URLs not fetched" \
    "$(defence lab stripped)" 130
e2e_finish
