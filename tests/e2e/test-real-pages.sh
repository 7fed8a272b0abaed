#!/bin/sh
# A crawl of real pages: the site scripts/gen/gen-real-site.sh builds from the
# corpus in ../shared/corpus/readability (captures from BBC, NYTimes,
# Wikipedia, ...; never copied into the repository), one host per
# publisher, crawled with the default dedup settings. Checks that the crawl
# stays on loopback and in real.test, reaches every host and every story,
# and scores at least what the current code scores.
# --max-pages-per-host 150 only trims the 404s the captured pages' own
# links cause (thousands on one host); every labelled URL is two hops from
# the seed and comes first in its host's queue, and the scores match those
# of an unlimited crawl.
. tests/e2e/lib.sh

corpus=../shared/corpus/readability
if [ ! -d "$corpus/pages" ]; then
	echo "FAIL the real-page corpus is missing: no $corpus/pages"
	echo "     (the tests read it from ../shared/corpus/ beside the project;"
	echo "     see tests/fixtures/README.md, \"Real pages\")"
	E2E_FAILED=$((E2E_FAILED + 1))
	e2e_finish
fi

K=$E2E_TMP/keep
scripts/eval/eval-real.sh --nearcrawl "$NEARCRAWL" --keep "$K" \
    --max-pages-per-host 150 >"$E2E_TMP/eval" 2>&1
eq "evaluation ran" "$?" 0
last=$(tail -n 1 "$E2E_TMP/eval")
echo "     $last"
DB=$K/real.db

# Nothing but real.test, and only through the loopback test server: the
# captured pages link the real internet, absolute and protocol-relative.
eq "server saw requests" "$(awk 'END { print (NR > 500) }' "$K/server.log" 2>/dev/null)" 1
eq "every request was for a real.test host" \
    "$(awk '$2 !~ /\.real\.test$/' "$K/server.log" | wc -l | tr -d ' ')" 0
eq "no page outside real.test in the database" \
    "$(q "$DB" "SELECT count(*) FROM pages WHERE host NOT LIKE '%.real.test'
        OR substr(url, 1, length(host) + 8) <> 'http://' || host || ':'")" 0

# Every host of the labels crawled, every story's captured page fetched.
hosts=$(sed -n 's|^//\([^/]*\)/.*|\1|p' "$K/labels.tsv" | sort -u)
eq "hosts in the labels" "$(echo "$hosts" | wc -l | tr -d ' ')" 75
eq "every host crawled" "$(q "$DB" "SELECT count(DISTINCT host) FROM pages
    WHERE verdict IN ('unique', 'exact', 'near')")" 75
q "$DB" "SELECT url FROM pages WHERE status = 200" |
    sed 's|^http://\([^/:]*\):[0-9]*|//\1|' | sort -u >"$E2E_TMP/fetched"
awk -F '\t' '$3 == "article" { print $1 }' "$K/labels.tsv" | sort -u \
    >"$E2E_TMP/articles"
eq "stories in the labels" "$(wc -l <"$E2E_TMP/articles" | tr -d ' ')" 93
missing=$(comm -23 "$E2E_TMP/articles" "$E2E_TMP/fetched" | wc -l | tr -d ' ')
eq "every story's captured page fetched" "$missing" 0

# Measured 1.000 / 0.723 / 1.000 when the site came in (variants never
# found: the old extractor kept their banner and advertisement); with the
# Readability-style extractor and the defaults chosen over all fixtures,
# 1.000 / 0.970 / 1.000. The targets the verdict rules (docs/dedup.md) were
# made to meet, recall with a margin of one page (the misses are print
# views whose source keeps a few lines Readability drops):
scores_at_least "$last" 0.99 0.96
[ "$E2E_FAILED" -eq 0 ] || sed -n '/^false positives, every one/,$p' \
    "$E2E_TMP/eval"
e2e_finish
