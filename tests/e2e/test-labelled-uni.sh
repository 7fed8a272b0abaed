#!/bin/sh
# The multi-host labelled fixture *.uni.test (scripts/gen/gen-uni-site.py,
# tests/fixtures/README.md) is what its generator writes, its labels match
# its files, and a crawl of all five hosts with the default dedup settings
# reaches every host and scores at least what the code scored when the
# fixture came in. The thresholds below are those measured scores, a
# little lower; raise them as the dedup fixes land.
. tests/e2e/lib.sh

F=tests/fixtures
LABELS=$F/labelled-uni.tsv
HOSTS="www.uni.test cs.uni.test lib.uni.test events.uni.test sport.uni.test"

# The committed fixture is exactly what the generator writes
# (scripts/make/install-deps.sh installs python3).
python3 scripts/gen/gen-uni-site.py "$E2E_TMP/gen" >/dev/null 2>&1
eq "generator ran" "$?" 0
same=1
for h in $HOSTS; do
	diff -r "$F/sites/$h" "$E2E_TMP/gen/sites/$h" >/dev/null 2>&1 ||
	    same=0
done
cmp -s "$LABELS" "$E2E_TMP/gen/labelled-uni.tsv" || same=0
eq "fixture and labels are what gen-uni-site.py writes" "$same" 1

# Every label is a pattern or names a file: //host/path?query is served by
# sites/host/path?query when that file exists (search results), else by
# sites/host/path (index.html for a path ending in "/").
awk -F '\t' 'NR > 1 && $1 !~ /\*$/ && $1 != "" {
	h = substr($1, 3); p = index(h, "/")
	host = substr(h, 1, p - 1); rest = substr(h, p)
	q = index(rest, "?")
	path = q ? substr(rest, 1, q - 1) : rest
	query = q ? substr(rest, q) : ""
	if (path ~ /\/$/) path = path "index.html"
	print host path query "\t" host path
}' "$LABELS" >"$E2E_TMP/label-files"
# getline fails (-1) on a file that cannot be opened.
missing=$(awk -F '\t' -v root="$F/sites/" '
	function exists(f,   r, l) { r = (getline l < f); close(f); return r >= 0 }
	!exists(root $1) && !exists(root $2) {
		n++
		if (n <= 5) print "no file for label: " $1 > "/dev/stderr"
	}
	END { print n + 0 }' "$E2E_TMP/label-files")
eq "every labelled URL has a file" "$missing" 0
# ... and every file has a label.
# shellcheck disable=SC2086 # one word per host
(cd "$F/sites" && find $HOSTS -type f) | sort >"$E2E_TMP/files"
awk -F '\t' '{ print $1; print $2 }' "$E2E_TMP/label-files" | sort -u \
    >"$E2E_TMP/named"
eq "every file of the fixture is labelled" \
    "$(comm -23 "$E2E_TMP/files" "$E2E_TMP/named" | wc -l | tr -d ' ')" 0

# The crawl.
scripts/eval/eval-uni.sh --nearcrawl "$NEARCRAWL" --keep "$E2E_TMP/keep" \
    >"$E2E_TMP/eval" 2>&1
eq "crawl and evaluation ran" "$?" 0
last=$(tail -n 1 "$E2E_TMP/eval")
echo "     $last"
eq "nearcrawl eval --groups reads //host labels as eval-labels.sh does" \
    "$("$NEARCRAWL" eval -d "$E2E_TMP/keep/uni.db" --groups "$LABELS" | tail -n 1)" \
    "$(echo "$last" | cut -d' ' -f1-3)"
for h in $HOSTS; do
	n=$(awk -v h="$h" '$1 == h && $3 == "of" { print $2 }' "$E2E_TMP/eval")
	ok "host $h crawled" test "${n:-0}" -ge 20
done
eq "no page outside the labels" \
    "$(grep -c 'unlabelled: 0$' "$E2E_TMP/eval")" 1
eq "no error and no redirect" \
    "$(q "$E2E_TMP/keep/uni.db" \
        "SELECT count(*) FROM pages WHERE verdict IN ('error', 'redirect')")" 0

# Measured when the fixture came in (defaults: precision 0.800, recall
# 0.961, coverage 0.884; --text body: 0.746, 0.724, 0.903); with the
# confirmation step, the new extractor and the link rule: 1.000, 0.988,
# 1.000. The targets those rules were made to meet:
scores_at_least "$last" 0.99 0.97
e2e_finish
