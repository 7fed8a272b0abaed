#!/bin/sh
# Valgrind's view of a fixture crawl, a resume, a rank, a report, a compare
# and both evaluations with the optimised binary (the rest of the suite runs
# under ASan+UBSan): no invalid access, no use of uninitialised memory, no
# leak.
. tests/e2e/lib.sh

PLAIN=./nearcrawl
# The optimised binary allocates through jemalloc: the synonym makes
# valgrind replace jemalloc's malloc and free with its own, as it does
# libc's, so leaks and invalid frees are still seen.
VG="valgrind -q --soname-synonyms=somalloc=*jemalloc* --leak-check=full --errors-for-leak-kinds=definite,indirect --error-exitcode=99"
e2e_start_server tests/fixtures/sites
R="--resolve www.small.test:$PORT:127.0.0.1 --resolve www.lab.test:$PORT:127.0.0.1"
DB="$E2E_TMP/vg.db"
# shellcheck disable=SC2086
$VG "$PLAIN" crawl -d "$DB" --quiet --delay-ms 0 --max-pages 60 $R \
    "http://www.small.test:$PORT/" "http://www.lab.test:$PORT/" \
    2>"$E2E_TMP/vg1"
rc=$?
# 0 done or 3 stopped at --max-pages with work left; 99 is valgrind's.
ok "crawl clean under valgrind (status $rc)" test "$rc" = 0 -o "$rc" = 3
# shellcheck disable=SC2086
$VG "$PLAIN" crawl -d "$DB" --quiet --delay-ms 0 --max-pages 90 $R \
    2>"$E2E_TMP/vg2"
rc=$?
# 0 done or 3 stopped at --max-pages with work left; 99 is valgrind's.
ok "resume clean under valgrind (status $rc)" test "$rc" = 0 -o "$rc" = 3
$VG "$PLAIN" rank -d "$DB" --quiet 2>"$E2E_TMP/vg5"
eq "rank clean under valgrind" "$?" 0
$VG "$PLAIN" report -d "$DB" -o "$E2E_TMP/rep" --quiet 2>"$E2E_TMP/vg3"
eq "report clean under valgrind" "$?" 0
S=tests/fixtures/sites/www.small.test
$VG "$PLAIN" compare --methods md5,simhash,ssdeep,tdw "$S/seminars.html" \
    "$S/seminars-print.html" >/dev/null 2>"$E2E_TMP/vg4"
eq "compare clean under valgrind" "$?" 0
P=tests/fixtures/pairs
head -n 40 $P/pairs.txt >"$E2E_TMP/pairs40"
$VG "$PLAIN" eval --docs $P/docs --pairs "$E2E_TMP/pairs40" --repeat 1 \
    >/dev/null 2>"$E2E_TMP/vg6"
eq "eval of pairs clean under valgrind" "$?" 0
$VG "$PLAIN" eval -d "$DB" --groups tests/fixtures/labelled.tsv \
    >/dev/null 2>"$E2E_TMP/vg7"
eq "eval of a crawl clean under valgrind" "$?" 0
# TDW's vectors, index, stored vectors and their reload.
T="--methods md5,tdw --tdw-stopwords --tdw-stem"
# shellcheck disable=SC2086
$VG "$PLAIN" crawl -d "$E2E_TMP/tdw.db" --quiet --delay-ms 0 --max-pages 60 \
    $T $R "http://www.lab.test:$PORT/" 2>"$E2E_TMP/vg8"
rc=$?
# 0 done or 3 stopped at --max-pages with work left; 99 is valgrind's.
ok "tdw crawl clean under valgrind (status $rc)" test "$rc" = 0 -o "$rc" = 3
# shellcheck disable=SC2086
$VG "$PLAIN" crawl -d "$E2E_TMP/tdw.db" --quiet --delay-ms 0 --max-pages 90 \
    $T $R 2>"$E2E_TMP/vg9"
rc=$?
ok "tdw resume clean under valgrind (status $rc)" test "$rc" = 0 -o "$rc" = 3
for f in vg1 vg2 vg3 vg4 vg5 vg6 vg7 vg8 vg9; do
	grep -q '==[0-9]*==' "$E2E_TMP/$f" && sed -n '1,30p' "$E2E_TMP/$f"
done
e2e_finish
