#!/bin/sh
# Lookup micro-benchmark: SimHash and ssdeep index lookups against a
# brute-force scan, at growing numbers of stored pages (see
# tests/bench/bench_lookup.c for what is generated and measured).
#
#   scripts/bench/bench-lookup.sh [--rev REV] [BENCH OPTIONS] [N...]
#
# N defaults to 10000 100000 1000000. BENCH OPTIONS go to bench_lookup
# (-q QUERIES, -b / -B brute-force samples, -r RUNS, -k K, -t T, -s SEED).
# --rev REV measures the indexes of another commit: the benchmark of the
# working tree is compiled with dedup/simindex, ssdeep and topk as they
# were at REV (git show), e.g. to compare before and after a change. The
# ssdeep texts take a while to hash (about 25 s per 100,000 on one core);
# the brute-force ssdeep sample at 1,000,000 takes a minute or two.
# Prints bench_lookup's table; exit status is bench_lookup's (1 when an
# index answer differs from brute force).
set -eu
cd "$(dirname "$0")/../.."

REV=""
if [ "${1:-}" = "--rev" ]; then
	[ $# -ge 2 ] || { echo "usage: $0 [--rev REV] [OPTIONS] [N...]" >&2; exit 2; }
	REV=$2
	shift 2
fi
# Options first, then sizes; no size given: 10k, 100k and 1M, the sizes
# docs/performance.md reports.
has_n=0
for a in "$@"; do
	case $a in [0-9]*) has_n=1 ;; esac
done
[ "$has_n" -eq 1 ] || set -- "$@" 10000 100000 1000000

if [ -z "$REV" ]; then
	make --no-print-directory build/plain/bench_lookup >/dev/null
	BIN=build/plain/bench_lookup
	echo "bench-lookup: indexes of the working tree"
else
	T=$(mktemp -d "${TMPDIR:-/tmp}/nearcrawl-lookup.XXXXXX")
	trap 'rm -rf "$T"' EXIT INT TERM
	# The index modules and what they include, as they were at REV.
	git archive "$REV" dedup util | tar -x -C "$T" || exit 1
	extra=""
	for f in util/tagtab.c util/chunks.c dedup/idcol.c; do
		[ -f "$T/$f" ] && extra="$extra $T/$f"
	done
	cc -O2 -D_GNU_SOURCE -I"$T" -I"$T/dedup" -o "$T/bench_lookup" \
	    tests/bench/bench_lookup.c "$T/dedup/simindex.c" \
	    "$T/dedup/ssdeep.c" "$T/dedup/topk.c" $extra -lfuzzy -lm || exit 1
	BIN=$T/bench_lookup
	echo "bench-lookup: indexes of $REV ($(git log -1 --format=%h "$REV"))"
fi
"$BIN" "$@"
