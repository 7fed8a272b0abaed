#!/bin/sh
# scripts/make/fuzz.sh [SECONDS] [TARGET...]
#
# Build every libFuzzer target of tests/fuzz/ with clang (ASan + UBSan)
# into build/fuzz/, then run each for SECONDS (default 30) on a copy of its
# seed corpus in a temporary directory, so the committed corpus under
# tests/fuzz/corpus/ is never written to. With TARGET names (extract, url,
# ...) only those are built and run. Prints per target the executions, the
# coverage and whether anything was found; crashing inputs are kept in
# build/fuzz/findings/TARGET/. Exit status: 0 nothing found, 1 a target
# crashed (or failed to run), 2 a build failed or clang lacks libFuzzer.
#
# Environment: CC (default clang), FUZZ_FLAGS (extra libFuzzer flags, e.g.
# "-jobs=2 -workers=2" or "-max_len=65536"), FUZZ_KEEP=1 keeps the
# temporary directory (logs, grown corpora) and prints its path.
set -u

cd "$(dirname "$0")/../.." || exit 2

SECS=${1:-30}
[ $# -gt 0 ] && shift
case $SECS in
*[!0-9]* | '')
	echo "usage: scripts/make/fuzz.sh [SECONDS] [TARGET...]" >&2
	exit 2 ;;
esac

ALL="extract extract_chunks url robots sitemap ini simhash_ssdeep minhash tdw
shingles warcread"
TARGETS=${*:-$ALL}
CC=${CC:-clang}
# `make` exports CC=cc; libFuzzer needs clang.
case $CC in cc | gcc* | */gcc*) CC=clang ;; esac
OUT=build/fuzz
PKGS="libcurl libevent libxml-2.0 sqlite3 inih libcrypto zlib libbrotlidec"

# Each target links the layers its code lives in (whole folders, so that
# splitting a file never breaks the fuzz build).
sources() {
	case $1 in
	extract | extract_chunks | url | robots | sitemap) ls util/*.c web/*.c ;;
	ini) ls util/*.c web/*.c dedup/*.c config/*.c ;;
	simhash_ssdeep | minhash | tdw | shingles) ls util/*.c dedup/*.c ;;
	warcread) ls util/*.c archive/*.c ;;
	*) return 1 ;;
	esac
}

if ! command -v "$CC" >/dev/null 2>&1; then
	echo "fuzz: $CC not found (libFuzzer needs clang)" >&2
	exit 2
fi
if ! PKG_CFLAGS=$(pkg-config --cflags $PKGS) ||
    ! PKG_LIBS=$(pkg-config --libs $PKGS); then
	echo "fuzz: libraries missing: run scripts/make/install-deps.sh" >&2
	exit 2
fi
mkdir -p "$OUT" || exit 2

CFLAGS="-g -O1 -fno-omit-frame-pointer -fsanitize=fuzzer,address,undefined"
CFLAGS="$CFLAGS -fno-sanitize-recover=undefined"
CPPFLAGS="-pthread -D_GNU_SOURCE -I."

for t in $TARGETS; do
	if ! src=$(sources "$t"); then
		echo "fuzz: unknown target $t (targets: $ALL)" >&2
		exit 2
	fi
	# Build under a temporary name and rename, so two runs at once
	# never execute a half-written binary.
	echo "fuzz: building $OUT/fuzz_$t"
	# shellcheck disable=SC2086 # word splitting of flag lists is wanted
	if ! $CC $CPPFLAGS $PKG_CFLAGS $CFLAGS -o "$OUT/fuzz_$t.tmp.$$" \
	    "tests/fuzz/fuzz_$t.c" $src $PKG_LIBS -lfuzzy -lm -pthread; then
		rm -f "$OUT/fuzz_$t.tmp.$$"
		echo "fuzz: building $t failed" >&2
		exit 2
	fi
	mv -f "$OUT/fuzz_$t.tmp.$$" "$OUT/fuzz_$t" || exit 2
done

[ "$SECS" -eq 0 ] && exit 0

TMP=$(mktemp -d "${TMPDIR:-/tmp}/nearcrawl-fuzz.XXXXXX") || exit 2
if [ "${FUZZ_KEEP:-0}" = 1 ]; then
	echo "fuzz: working directory $TMP"
else
	trap 'rm -rf "$TMP"' EXIT
fi
trap 'exit 130' INT TERM

failed=0
printf '%-16s %12s %8s %8s  %s\n' target execs cov secs result
for t in $TARGETS; do
	w=$TMP/$t
	mkdir -p "$w/corpus" "$w/artifacts" || exit 2
	if [ -d "tests/fuzz/corpus/$t" ]; then
		cp -R "tests/fuzz/corpus/$t/." "$w/corpus/" || exit 2
	fi
	dict=
	[ -f "tests/fuzz/dict/$t.dict" ] && dict=-dict=tests/fuzz/dict/$t.dict
	start=$(date +%s)
	# shellcheck disable=SC2086
	"$OUT/fuzz_$t" -max_total_time="$SECS" -rss_limit_mb=2048 \
	    -timeout=10 -print_final_stats=1 -artifact_prefix="$w/artifacts/" \
	    $dict ${FUZZ_FLAGS:-} "$w/corpus" >"$w/log" 2>&1
	rc=$?
	secs=$(($(date +%s) - start))
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$w/log" |
	    tail -n 1)
	cov=$(grep -o 'cov: [0-9]*' "$w/log" | tail -n 1 | sed 's/cov: //')
	found=$(find "$w/artifacts" -type f | wc -l)
	if [ "$rc" -eq 0 ] && [ "$found" -eq 0 ]; then
		result="nothing found"
	else
		failed=1
		mkdir -p "$OUT/findings/$t"
		cp "$w"/artifacts/* "$OUT/findings/$t/" 2>/dev/null
		cp "$w/log" "$OUT/findings/$t/log"
		result="FOUND $found input(s), exit $rc: $OUT/findings/$t/"
	fi
	printf '%-16s %12s %8s %8s  %s\n' "$t" "${execs:-?}" "${cov:-?}" \
	    "$secs" "$result"
	if [ "$result" != "nothing found" ]; then
		grep -a -m 3 -E 'ERROR: |fuzz check failed|runtime error' \
		    "$w/log" | sed 's/^/    /'
	fi
done
exit $failed
