#!/bin/sh
# Main-content extraction against a reference: for every page folder of the
# corpus (source.html.gz, expected.html.gz), the tokens of
# `nearcrawl text --main` of the source against those of
# `nearcrawl text --body` of the expected article (Mozilla Readability's
# extraction). Tokens are lowercase runs of Unicode letters and digits; the
# overlap is of multisets. Prints one line per page, worst F1 first, then
# the mean, median and minimum F1 and the pages under 0.5, and last a
# machine-readable line:
#   mean_f1=0.xxxx min_f1=0.xxxx under_0_5=N pages=N
#
# usage: scripts/eval/eval-extract.sh [--nearcrawl BIN] [--corpus DIR]
#   BIN defaults to $NEARCRAWL or ./nearcrawl; DIR to
#   ../shared/corpus/readability/pages (from the repository root).
# The corpus is read in place: each page is unpacked to a temporary folder.
# Its files are UTF-8 whatever their <meta> says (corpus README), so they
# are read with --charset utf-8, as a server saying so would have them.
# Needs perl (tokens) and gzip. Exit 0, 1 when a page cannot be processed
# or the corpus is missing, 2 on bad usage.
set -u

bin=${NEARCRAWL:-./nearcrawl}
corpus=../shared/corpus/readability/pages
while [ $# -gt 0 ]; do
	case $1 in
	--nearcrawl) [ $# -ge 2 ] || { echo "--nearcrawl needs a value" >&2; exit 2; }
		bin=$2; shift 2 ;;
	--corpus) [ $# -ge 2 ] || { echo "--corpus needs a value" >&2; exit 2; }
		corpus=$2; shift 2 ;;
	-h|--help) sed -n '2,/^set -u/p' "$0" | sed -e '/^set -u/d' -e 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "eval-extract: unknown argument $1" >&2; exit 2 ;;
	esac
done
if [ ! -d "$corpus" ]; then
	echo "eval-extract: no corpus at $corpus" >&2
	exit 1
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/eval-extract.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

n=0
for d in "$corpus"/*/; do
	[ -f "$d/source.html.gz" ] && [ -f "$d/expected.html.gz" ] || continue
	name=$(basename "$d")
	gzip -dc "$d/source.html.gz" >"$tmp/source.html" &&
	gzip -dc "$d/expected.html.gz" >"$tmp/expected.html" || {
		echo "eval-extract: $name: cannot unpack" >&2; exit 1; }
	# --min-shingles 0: the extractor's main text itself, never the body
	# text the digest falls back to under the evidence floor.
	"$bin" text --main --min-shingles 0 --charset utf-8 "$tmp/source.html" \
	    >"$tmp/got.txt" &&
	"$bin" text --body --charset utf-8 "$tmp/expected.html" >"$tmp/want.txt" || {
		echo "eval-extract: $name: nearcrawl text failed" >&2; exit 1; }
	perl -CSD -e '
		sub toks {
			my ($f) = @_; my %h; my $n = 0;
			open(my $fh, "<:encoding(UTF-8)", $f) or die "$f: $!";
			while (<$fh>) {
				for my $t (split /[^\p{L}\p{N}]+/, lc) {
					next if $t eq ""; $h{$t}++; $n++;
				}
			}
			return (\%h, $n);
		}
		my ($g, $ng) = toks($ARGV[0]); my ($w, $nw) = toks($ARGV[1]);
		my $common = 0;
		for my $t (keys %$g) {
			next unless exists $w->{$t};
			$common += $g->{$t} < $w->{$t} ? $g->{$t} : $w->{$t};
		}
		my ($p, $r, $f);
		if ($ng == 0 && $nw == 0) { ($p, $r, $f) = (1, 1, 1); }
		else {
			$p = $ng ? $common / $ng : 0; $r = $nw ? $common / $nw : 0;
			$f = $p + $r > 0 ? 2 * $p * $r / ($p + $r) : 0;
		}
		printf "%.4f %.4f %.4f %s\n", $f, $p, $r, $ARGV[2];
	' "$tmp/got.txt" "$tmp/want.txt" "$name" >>"$tmp/scores" || exit 1
	n=$((n + 1))
done
if [ "$n" -eq 0 ]; then
	echo "eval-extract: no pages under $corpus" >&2
	exit 1
fi
echo "f1     prec   recall page"
sort -n "$tmp/scores"
sort -n "$tmp/scores" | awk '
	{ f[NR] = $1; s += $1; if ($1 < 0.5) u++ }
	END {
		med = NR % 2 ? f[(NR + 1) / 2] : (f[NR / 2] + f[NR / 2 + 1]) / 2
		printf "mean F1 %.4f, median %.4f, min %.4f, under 0.5: %d of %d\n",
		    s / NR, med, f[1], u, NR
		printf "mean_f1=%.4f min_f1=%.4f under_0_5=%d pages=%d\n",
		    s / NR, f[1], u + 0, NR
	}'
