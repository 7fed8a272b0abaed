#!/bin/sh
# Every labelled fixture crawled with each method alone and with the
# defaults, on main and on body text: the table docs/methods.md keeps.
#
#   scripts/eval/eval-all.sh [--nearcrawl BIN] [EXTRA CRAWL OPTIONS...]
#
# Fixtures: www.lab.test (scripts/eval/eval-fixture.sh), the five uni.test hosts
# (scripts/eval/eval-uni.sh), labelled site uni2 of ../shared/sites
# (scripts/eval/eval-uni2.sh, another generator's) and the site built from the
# real pages of ../shared/corpus (scripts/eval/eval-real.sh). Prints one
# Markdown row per method set and text: precision / recall / coverage on
# each fixture, and the worst of each over the four. EXTRA options go to
# every crawl (e.g. --max-novel-percent 20). About 60 crawls: a few
# minutes.
set -u
cd "$(dirname "$0")/../.."
BIN=./nearcrawl
if [ "${1:-}" = "--nearcrawl" ]; then
	BIN=$2
	shift 2
fi

score() { # SCRIPT OPTIONS...: "P R C" from the script's last line
	s=$1
	shift
	"$s" --nearcrawl "$BIN" "$@" 2>/dev/null | tail -n 1 |
	    sed -n 's/^precision=\([0-9.]*\) recall=\([0-9.]*\) coverage=\([0-9.]*\).*/\1 \2 \3/p'
}

echo "| methods | text | lab P / R / C | uni P / R / C | uni2 P / R / C | real P / R / C | worst P / R / C |"
echo "|---|---|---|---|---|---|---|"
for set in "defaults" "md5,simhash,ssdeep,minhash" "md5,simhash" "md5,ssdeep" \
    "md5,minhash" "md5,tdw" \
    "md5,simhash,ssdeep,minhash,tdw"; do
	if [ "$set" = defaults ]; then m=""; else m="--methods $set"; fi
	for text in main body; do
		# shellcheck disable=SC2086 # $m is empty or two words
		lab=$(score scripts/eval/eval-fixture.sh $m --text "$text" "$@")
		# shellcheck disable=SC2086
		uni=$(score scripts/eval/eval-uni.sh $m --text "$text" "$@")
		# shellcheck disable=SC2086
		uni2=$(score scripts/eval/eval-uni2.sh $m --text "$text" "$@")
		# shellcheck disable=SC2086
		real=$(score scripts/eval/eval-real.sh $m --text "$text" "$@")
		echo "$set $text ${lab:-? ? ?} ${uni:-? ? ?} ${uni2:-? ? ?} ${real:-? ? ?}" | awk '
		function min(a, b) { return (a == "?" || b + 0 < a + 0) ? b : a }
		{
			wp = min(min(min($3, $6), $9), $12)
			wr = min(min(min($4, $7), $10), $13)
			wc = min(min(min($5, $8), $11), $14)
			printf "| %s | %s | %s / %s / %s | %s / %s / %s | %s / %s / %s | %s / %s / %s | %s / %s / %s |\n",
			    $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, wp, wr, wc
		}'
	done
done
