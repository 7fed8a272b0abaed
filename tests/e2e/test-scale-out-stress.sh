#!/bin/sh
# Near duplicates that reach two processes of a shared PostgreSQL crawl at
# the same instant: hosts a.test and b.test each serve 150 group pages, and
# group g on a is group g on b with three of its 300 words changed (groups
# share nothing). Two processes, one host each, fetch the pair of a group
# at about the same moment, 150 times; verdicts are serialised across
# processes, so for every group at most one page of the pair is unique,
# as many pages are unique as when one process on SQLite crawls, and a
# duplicate's original was always judged before it. Three runs, each on a
# fresh database.
. tests/e2e/lib.sh

NGROUPS=150
WORDS=300
RUNS=3
SITE="$E2E_TMP/sites"

# The site: pseudo-random words made of syllables, one seed per page set
# (awk's srand: one LCG stepped from nearby seeds gave overlapping streams,
# hence groups sharing their text).
awk -v groups=$NGROUPS -v words=$WORDS -v root="$SITE" '
function rnd() {
	return rand()
}
function word(   n, w, i) {
	n = 2 + int(rnd() * 3)
	w = ""
	for (i = 0; i < n; i++) w = w syl[1 + int(rnd() * nsyl)]
	return w
}
function page(file, title, body) {
	printf "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">" \
	    "<title>%s</title></head>\n<body>\n<h1>%s</h1>\n%s</body></html>\n",
	    title, title, body > file
	close(file)
}
BEGIN {
	nsyl = split("ka lo mi ne ru sa ti vo pe da gu fi ho ja ke li mo nu pa re" \
	    " si to ve wa ze bo ce du fa gi", syl, " ")
	for (h = 1; h <= 2; h++) {
		host = h == 1 ? "a.test" : "b.test"
		system("mkdir -p \"" root "/" host "\"")
		srand(100000 + h)
		body = "<p>Index of " host ": " word() " " word() " " word() ".</p>\n<ul>\n"
		for (g = 1; g <= groups; g++)
			body = body sprintf("<li><a href=\"/g%03d.html\">%s %s %s</a></li>\n",
			    g, word(), word(), word())
		page(root "/" host "/index.html", "Index " word() " " word(), body "</ul>\n")
	}
	for (g = 1; g <= groups; g++) {
		srand(g)
		title = word() " " word() " " word()
		for (i = 1; i <= words; i++) w[i] = word()
		for (h = 1; h <= 2; h++) {
			host = h == 1 ? "a.test" : "b.test"
			if (h == 2)     # three words changed, spread over the text
				for (k = 0; k < 3; k++) w[1 + int(rnd() * words)] = word()
			body = ""
			for (i = 1; i <= words; i++) {
				if (i % 60 == 1) body = body "<p>"
				body = body w[i] (i % 12 == 0 ? ". " : " ")
				if (i % 60 == 0) body = body "</p>\n"
			}
			page(sprintf("%s/%s/g%03d.html", root, host, g), title, body)
		}
	}
}'
eq "site generated" "$(find "$SITE" -name 'g*.html' | wc -l | tr -d ' ')" \
    $((2 * NGROUPS))

e2e_start_server "$SITE"
e2e_start_pg
set -- --quiet --delay-ms 0 --per-host 1 --max-pages 5000 \
    --resolve "a.test:$PORT:127.0.0.1" --resolve "b.test:$PORT:127.0.0.1" \
    "http://a.test:$PORT/" "http://b.test:$PORT/"
GROUP_RE='/g[0-9]+[.]html$'
val() { pg_sql "$1" 2>&1 | head -n 1; }

# The reference: one process on SQLite.
"$NEARCRAWL" crawl -d "$E2E_TMP/one.db" "$@" 2>"$E2E_TMP/one.err"
eq "SQLite crawl exits 0" "$?" 0
one_unique=$(q "$E2E_TMP/one.db" "SELECT count(*) FROM pages WHERE verdict = 'unique'")
one_pages=$(q "$E2E_TMP/one.db" 'SELECT count(*) FROM pages')
echo "     SQLite: $(q "$E2E_TMP/one.db" "SELECT group_concat(v, ' ') FROM
    (SELECT verdict || '=' || count(*) AS v FROM pages GROUP BY verdict ORDER BY verdict)")"
# The site is what it should be: each pair is one unique and one near.
eq "SQLite: every pair is one unique and one duplicate" \
    "$(q "$E2E_TMP/one.db" "SELECT count(*) FROM pages WHERE verdict = 'unique'
        AND url LIKE '%/g%.html'")|$(q "$E2E_TMP/one.db" "SELECT count(*) FROM pages
        WHERE verdict IN ('near', 'exact') AND url LIKE '%/g%.html'")" "$NGROUPS|$NGROUPS"

run=0
while [ $run -lt $RUNS ]; do
	run=$((run + 1))
	# The last run locks rows of verdict_keys, the others advisory locks.
	locks=""
	[ $run -eq $RUNS ] && locks=--row-locks
	uri=$(pg_new_db "run$run" 2>&1)
	PG_URI_RUN=$uri
	mark=$(wc -l <"$SERVER_LOG")
	rm -f "$E2E_TMP/go"
	pids=""
	for w in 1 2; do
		(
			while [ ! -e "$E2E_TMP/go" ]; do sleep 0.01; done
			# shellcheck disable=SC2086 # empty or one option
			# Verdicts on 50 ms ticks: the two processes judge
			# the two pages of a pair at the same moment, so that a
			# verdict not serialised shows.
			NEARCRAWL_TEST_JUDGE_TICK_MS=50 \
			    exec "$NEARCRAWL" crawl -d "$PG_URI_RUN" "$@" $locks \
			    2>"$E2E_TMP/run$run.$w.err"
		) &
		pids="$pids $!"
	done
	touch "$E2E_TMP/go"
	# shellcheck disable=SC2086 # one word per pid
	e2e_watchdog 30 $pids
	w=0
	for pid in $pids; do
		w=$((w + 1))
		wait "$pid"
		rc=$?
		eq "run $run: process $w exits 0" "$rc" 0
		[ "$rc" -eq 0 ] || sed -n '1,5s/^/     /p' "$E2E_TMP/run$run.$w.err"
	done
	e2e_watchdog_off
	ok "run $run: finished within 30 s" test ! -e "$E2E_TMP/timed-out"

	PG_URI_SAVED=$PG_URI
	PG_URI=$PG_URI_RUN
	eq "run $run: every page judged" \
	    "$(val "SELECT count(*) FROM pages WHERE verdict IN ('unique', 'exact', 'near')")" \
	    "$one_pages"
	eq "run $run: no group with two unique pages" \
	    "$(val "SELECT count(*) FROM (SELECT 1 FROM pages WHERE verdict = 'unique'
	        AND url ~ '$GROUP_RE' GROUP BY substring(url from '$GROUP_RE')
	        HAVING count(*) > 1) AS twice")" 0
	eq "run $run: as many unique pages as one SQLite process" \
	    "$(val "SELECT count(*) FROM pages WHERE verdict = 'unique'")" "$one_unique"
	eq "run $run: every duplicate's original judged before it" \
	    "$(val "SELECT count(*) FROM pages p WHERE verdict IN ('near', 'exact')
	        AND NOT EXISTS (SELECT 1 FROM duplicates d JOIN pages o
	        ON o.id = d.original_id WHERE d.page_id = p.id AND o.seq < p.seq)")" 0
	eq "run $run: both processes judged pages" \
	    "$(val "SELECT count(DISTINCT worker) FROM pages
	        WHERE verdict IN ('unique', 'exact', 'near')")" 2
	PG_URI=$PG_URI_SAVED
	# The race is only tested if the hosts were crawled side by side.
	eq "run $run: both hosts fetched at once" \
	    "$(tail -n +$((mark + 1)) "$SERVER_LOG" | sort -n |
	        awk '$4 ~ /^\/g/' | head -n 40 | awk '{ print $2 }' | sort -u |
	        wc -l | tr -d ' ')" 2
done
e2e_finish
