#!/bin/sh
# Leave one labelled set out: the thresholds of the near definition chosen
# on three labelled sets and scored on the fourth, for each of the four
# (docs/methods.md keeps the table).
#
#   scripts/eval/eval-loso.sh [--nearcrawl BIN] [--grid "P1 P2 ..."]
#       [--mh "T1 ..."]
#
# Sets: lab (scripts/eval/eval-fixture.sh), uni (scripts/eval/eval-uni.sh),
# uni2 (scripts/eval/eval-uni2.sh, another generator's) and real
# (scripts/eval/eval-real.sh, real pages). The grid: --max-novel-percent P
# (default 5 10 15 20 25 30) times --minhash-threshold T (default 60 70 80),
# every other setting at its default. Every grid point crawls every set
# once and is scored by F1 = 2PR / (P + R). For a left-out set, the point
# chosen is the one whose worst F1 over the other three is best (ties: the
# better mean); its F1 on the left-out set is what the rule would score on a
# site it was not tuned on.
# The defaults to take are the chosen point whose worst F1 over all four
# sets is best. Prints the grid, then the leave-one-out table, then a line
#   loso_worst_f1=F defaults=P,T
# About 4 crawls a grid point: a few minutes for the default grid.
set -u
cd "$(dirname "$0")/../.." || exit 2

BIN=./nearcrawl
GRID="5 10 15 20 25 30"
MH="60 70 80"
while [ $# -gt 0 ]; do
	case $1 in
	--nearcrawl) BIN=$2; shift 2 ;;
	--grid) GRID=$2; shift 2 ;;
	--mh) MH=$2; shift 2 ;;
	*) echo "usage: scripts/eval/eval-loso.sh [--nearcrawl BIN]" \
	       "[--grid \"P ...\"] [--mh \"T ...\"]" >&2
	   exit 2 ;;
	esac
done

TMP=$(mktemp -d "${TMPDIR:-/tmp}/nearcrawl-loso.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

# score SCRIPT OPTIONS...: "P R" from the script's last line, or "0 0".
score() {
	s=$1
	shift
	r=$("$s" --nearcrawl "$BIN" "$@" 2>/dev/null | tail -n 1 |
	    sed -n 's/^precision=\([0-9.]*\) recall=\([0-9.]*\).*/\1 \2/p')
	echo "${r:-0 0}"
}

echo "| --max-novel-percent | --minhash-threshold | lab P / R | uni P / R | uni2 P / R | real P / R |"
echo "|---|---|---|---|---|---|"
for p in $GRID; do
	for t in $MH; do
		o="--max-novel-percent $p --minhash-threshold $t"
		# shellcheck disable=SC2086 # o is split on purpose
		{
			echo "$p $t lab $(score scripts/eval/eval-fixture.sh $o)"
			echo "$p $t uni $(score scripts/eval/eval-uni.sh $o)"
			echo "$p $t uni2 $(score scripts/eval/eval-uni2.sh $o)"
			echo "$p $t real $(score scripts/eval/eval-real.sh $o)"
		} >>"$TMP/grid"
		awk -v p="$p" -v t="$t" '$1 == p && $2 == t { s[$3] = $4 " / " $5 }
		    END { printf "| %s | %s | %s | %s | %s | %s |\n", p, t,
		        s["lab"], s["uni"], s["uni2"], s["real"] }' "$TMP/grid"
	done
done

echo
echo "| left out | chosen on the other three (P, T) | their worst F1 | left-out P / R | left-out F1 |"
echo "|---|---|---|---|---|"
awk '
function f1(p, r) { return p + r > 0 ? 2 * p * r / (p + r) : 0 }
{
	k = $1 "," $2; f[k, $3] = f1($4, $5); pr[k, $3] = $4 " / " $5
	if (!(k in seen)) { seen[k] = 1; keys[++nk] = k }
}
END {
	split("lab uni uni2 real", sets, " ")
	best_all = -1
	for (i = 1; i <= 4; i++) {
		out = sets[i]; bw = -1; bm = -1; bk = ""
		for (j = 1; j <= nk; j++) {
			k = keys[j]; w = 2; m = 0
			for (s = 1; s <= 4; s++) {
				if (s == i) continue
				v = f[k, sets[s]]; m += v / 3
				if (v < w) w = v
			}
			if (w > bw + 1e-9 || (w > bw - 1e-9 && m > bm)) {
				bw = w; bm = m; bk = k
			}
		}
		printf "| %s | %s | %.3f | %s | %.3f |\n", out, bk, bw,
		    pr[bk, out], f[bk, out]
		if (f[bk, out] < worst || i == 1) worst = f[bk, out]
		# The chosen point, over all four sets.
		w4 = 2
		for (s = 1; s <= 4; s++) if (f[bk, sets[s]] < w4) w4 = f[bk, sets[s]]
		if (w4 > best_all) { best_all = w4; defaults = bk }
	}
	printf "\nloso_worst_f1=%.3f defaults=%s\n", worst, defaults
}' "$TMP/grid"
