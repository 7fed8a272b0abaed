#!/bin/sh
# Few file descriptors: with `ulimit -n 64` and --concurrency 1000 a crawl
# of the labelled sites (six hosts, 16 connections each) caps its
# transfers to what the descriptors allow and says so; with the cap lifted
# by a test hook it runs out of them for real, and each URL that met it is
# fetched again later: neither leaves an error row or a host backed off,
# and both end with the pages and verdicts of a crawl without the limit.
# The crawls run in parallel, so which copy of a page comes first, and so
# a few verdicts, vary from run to run: the verdicts are compared by the
# labels' scores, as tests/e2e/test-scale-out.sh does.
. tests/e2e/lib.sh

e2e_start_lab_uni
# shellcheck disable=SC2086 # options and seeds are split on purpose
set -- --delay-ms 0 --concurrency 1000 --per-host 16 $LAB_UNI_OPTS \
    $LAB_UNI_SEEDS

# pages DB: each page's URL and text MD5, in URL order.
pages() {
	q "$1" "SELECT url, md5 FROM pages ORDER BY url"
}

# score DB NAME: the labels' precision and recall within 0.01 of the
# reference's, full coverage (three checks).
score() {
	"$NEARCRAWL" eval -d "$1" --groups "$LAB_UNI_LABELS" \
	    >"$E2E_TMP/eval" 2>&1
	s=$(tail -n 1 "$E2E_TMP/eval")
	for m in precision recall; do
		a=$(echo "$REF" | tr ' ' '\n' | sed -n "s/^$m=//p")
		b=$(echo "$s" | tr ' ' '\n' | sed -n "s/^$m=//p")
		ok "$2: $m ${b:-missing} within 0.01 of ${a:-missing}" \
		    awk -v a="$a" -v b="$b" 'BEGIN { d = a - b;
			exit !(a != "" && b != "" && d <= 0.01 && d >= -0.01) }'
	done
	eq "$2: every labelled group reached" \
	    "$(echo "$s" | tr ' ' '\n' | sed -n 's/^coverage=//p')" 1.000
}

# same DB NAME: what every crawl here must show against the reference.
same() {
	eq "$2: no error rows" \
	    "$(q "$1" "SELECT count(*) FROM pages WHERE verdict = 'error'")" 0
	eq "$2: no host backed off or given up" \
	    "$(q "$1" "SELECT count(*) FROM hosts
	        WHERE failures > 0 OR gave_up IS NOT NULL")" 0
	eq "$2: nothing left queued" \
	    "$(q "$1" "SELECT count(*) FROM frontier WHERE state <> 2")" 0
	ok "$2: the reference's pages, with the same texts" \
	    test "$(pages "$1")" = "$(pages "$E2E_TMP/ref.db")"
	score "$1" "$2"
}

"$NEARCRAWL" crawl -d "$E2E_TMP/ref.db" --quiet "$@" 2>"$E2E_TMP/err"
eq "reference crawl exits 0" "$?" 0
"$NEARCRAWL" eval -d "$E2E_TMP/ref.db" --groups "$LAB_UNI_LABELS" \
    >"$E2E_TMP/eval" 2>&1
REF=$(tail -n 1 "$E2E_TMP/eval")
echo "     reference: pages=$(q "$E2E_TMP/ref.db" 'SELECT count(*) FROM pages') $REF"
eq "reference crawl has no error rows" \
    "$(q "$E2E_TMP/ref.db" "SELECT count(*) FROM pages WHERE verdict = 'error'")" 0

# 64 descriptors in all (soft and hard): the transfers are capped.
(
	ulimit -n 64 || exit 99
	exec "$NEARCRAWL" crawl -d "$E2E_TMP/cap.db" "$@"
) 2>"$E2E_TMP/err"
eq "ulimit -n 64: exits 0" "$?" 0
ok "ulimit -n 64: says how many transfers it runs at once" \
    grep -q "^nearcrawl: --concurrency 1000: at most [0-9]* transfers at once: the process may open 64 file descriptors" "$E2E_TMP/err"
ok "ulimit -n 64: never runs out of them" \
    sh -c "! grep -q 'out of file descriptors' '$E2E_TMP/err'"
same "$E2E_TMP/cap.db" "ulimit -n 64"

# The cap lifted: sockets fail with EMFILE, and each URL is asked again.
(
	ulimit -n 64 || exit 99
	NEARCRAWL_TEST_MAX_TRANSFERS=1000 exec "$NEARCRAWL" crawl \
	    -d "$E2E_TMP/out.db" "$@"
) 2>"$E2E_TMP/err"
eq "out of descriptors: exits 0" "$?" 0
ok "out of descriptors: met, and said once" \
    test "$(grep -c '^nearcrawl: out of file descriptors with [0-9]* transfers open: at most [0-9]* at once' "$E2E_TMP/err")" = 1
ok "out of descriptors: no host held back" \
    sh -c "! grep -q 'holding back\|giving up' '$E2E_TMP/err'"
same "$E2E_TMP/out.db" "out of descriptors"
e2e_finish
