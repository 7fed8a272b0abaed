#!/bin/sh
# The labelled fixture site crawled with the default dedup settings must
# reach every page and meet the quality targets: precision >= 0.98,
# recall >= 0.95, coverage 1.
. tests/e2e/lib.sh

scripts/eval/eval-fixture.sh --nearcrawl "$NEARCRAWL" >"$E2E_TMP/eval" 2>&1
eq "evaluation ran" "$?" 0
last=$(tail -n 1 "$E2E_TMP/eval")
echo "     $last"
scores_at_least "$last" 0.98 0.95
eq "every labelled page reached" \
    "$(grep -c '^distinct pages reached: 618 of 618' "$E2E_TMP/eval")" 1
eq "calendar trap dried up" \
    "$(awk '$1 == "calendar" { print ($2 <= 15) }' "$E2E_TMP/eval")" 1
e2e_finish
