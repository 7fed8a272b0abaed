#!/bin/sh
# `nearcrawl report`: the tables agree with the database, the plots are real
# SVG and PNG files, bad databases are refused, and a report can be made
# while a crawl holds the database.
. tests/e2e/lib.sh

e2e_start_server tests/fixtures/sites
H=www.lab.test
R="--resolve $H:$PORT:127.0.0.1"
DB=$E2E_TMP/lab.db
OUT="$E2E_TMP/out dir"
"$NEARCRAWL" crawl -d "$DB" --quiet --delay-ms 0 $R "http://$H:$PORT/" \
    2>/dev/null
eq "crawl exits 0" "$?" 0

"$NEARCRAWL" report -d "$DB" -o "$OUT" >"$E2E_TMP/stdout" 2>"$E2E_TMP/err"
eq "report exits 0" "$?" 0
eq "nothing on stderr" "$(cat "$E2E_TMP/err")" ""

pages=$(q "$DB" 'SELECT count(*) FROM pages')
counts=$(q "$DB" "SELECT count(*) || ',' || sum(verdict = 'unique') || ',' ||
    sum(verdict = 'exact') || ',' || sum(verdict = 'near') FROM pages")
pairs=$(q "$DB" 'SELECT count(*) FROM duplicates')

# growth.csv
eq "growth.csv header" "$(head -n 1 "$OUT/growth.csv")" \
    "fetched,unique,exact,near"
eq "growth.csv rows never go down" "$(awk -F, 'NR > 2 {
	for (i = 1; i <= 4; i++) if ($i < last[i]) bad++ }
    NR > 1 { for (i = 1; i <= 4; i++) last[i] = $i }
    END { print bad + 0 }' "$OUT/growth.csv")" 0
eq "growth.csv ends at the database's counts" \
    "$(tail -n 1 "$OUT/growth.csv")" "$counts"
eq "growth.csv starts at the first page" \
    "$(sed -n 2p "$OUT/growth.csv" | cut -d, -f1)" 1

# hosts.csv, clusters.csv, similarity.csv
eq "hosts.csv header" "$(head -n 1 "$OUT/hosts.csv")" \
    "host,pages,unique,exact,near,duplicate_share"
eq "hosts.csv totals equal the database" "$(awk -F, 'NR > 1 {
	for (i = 2; i <= 5; i++) s[i] += $i }
    END { print s[2] "," s[3] "," s[4] "," s[5] }' "$OUT/hosts.csv")" \
    "$counts"
eq "clusters.csv header" "$(head -n 1 "$OUT/clusters.csv")" \
    "original_url,duplicate_url,method,percentage,canonical_url"
eq "no canonical before nearcrawl rank" \
    "$(awk -F, 'NR > 1 && $5 != "" { n++ } END { print n + 0 }' \
        "$OUT/clusters.csv")" 0
eq "clusters.csv has one row per duplicates row" \
    "$(($(wc -l <"$OUT/clusters.csv") - 1))" "$pairs"
eq "similarity.csv header" "$(head -n 1 "$OUT/similarity.csv")" \
    "method,bucket,pages"
eq "similarity.csv counts sum to the duplicates rows" \
    "$(awk -F, 'NR > 1 { s += $3 } END { print s + 0 }' \
        "$OUT/similarity.csv")" "$pairs"
eq "md5 pairs are all in the 100 bucket" \
    "$(awk -F, '$1 == "md5" && $2 != 100 { s += $3 } END { print s + 0 }' \
        "$OUT/similarity.csv")" 0

# The plots.
for p in growth similarity; do
	ok "$p.svg is an SVG file" sh -c \
	    'head -c 5 "$1" | grep -q "^<?xml" && grep -q "<svg" "$1"' \
	    sh "$OUT/$p.svg"
	eq "$p.png is a PNG file" \
	    "$(head -c 8 "$OUT/$p.png" | od -An -tx1 | tr -d ' \n')" \
	    89504e470d0a1a0a
	ok "$p.gp is kept" test -s "$OUT/$p.gp"
done

# summary.txt and the terminal.
pages_grouped=$(printf '%s' "$pages" | sed -e ':a' \
    -e 's/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/' -e 'ta')
ok "summary.txt gives the page count" \
    grep -q "Pages fetched: *$pages_grouped\$" "$OUT/summary.txt"
ok "summary printed unless --quiet" grep -q "Pages fetched" "$E2E_TMP/stdout"
eq "only the report's files in DIR" "$(LC_ALL=C ls "$OUT" | tr '\n' ' ')" \
    "clusters.csv growth-time.csv growth-time.gp growth-time.png growth-time.svg growth.csv \
growth.gp growth.png growth.svg hosts.csv hosts.gp hosts.png hosts.svg \
index.html share.csv share.gp share.png share.svg similarity.csv similarity.gp similarity.png similarity.svg \
summary.txt "
"$NEARCRAWL" report -d "$DB" -o "$OUT" --quiet >"$E2E_TMP/stdout" 2>&1
eq "again with --quiet: exits 0" "$?" 0
eq "again with --quiet: prints nothing" "$(cat "$E2E_TMP/stdout")" ""

# Refusals.
echo "not a database" >"$E2E_TMP/text.db"
"$NEARCRAWL" report -d "$E2E_TMP/text.db" -o "$E2E_TMP/r1" 2>"$E2E_TMP/err"
eq "non-database exits 2" "$?" 2
ok "non-database named" grep -q "text.db" "$E2E_TMP/err"
ok "no directory made for a bad database" test ! -e "$E2E_TMP/r1"
# Another program's database: no crawl of ours for nearcrawl check.
E2E_CHECK_SKIP="other.db"
sqlite3 "$E2E_TMP/other.db" 'CREATE TABLE t (x)'
"$NEARCRAWL" report -d "$E2E_TMP/other.db" -o "$E2E_TMP/r2" 2>/dev/null
eq "foreign SQLite database exits 2" "$?" 2
"$NEARCRAWL" report -d "$E2E_TMP/none.db" -o "$E2E_TMP/r3" 2>/dev/null
eq "missing database exits 2" "$?" 2
: >"$E2E_TMP/plain-file"
"$NEARCRAWL" report -d "$DB" -o "$E2E_TMP/plain-file" 2>/dev/null
eq "DIR that is a file exits 2 (refused before anything is written)" "$?" 2
ok "that file is left alone" test ! -s "$E2E_TMP/plain-file"
"$NEARCRAWL" report -d "$DB" -o "$E2E_TMP/plain-file/sub" 2>"$E2E_TMP/err"
eq "DIR under a file exits 2, as crawl's -d would" "$?" 2
ok "... saying why" grep -q "plain-file/sub: cannot create: Not a directory" \
    "$E2E_TMP/err"
# -q is --quiet, and quiet means nothing on either stream.
"$NEARCRAWL" report -q -d "$DB" >"$E2E_TMP/q.out" 2>"$E2E_TMP/q.err"
eq "report -q exits 0" "$?" 0
ok "report -q prints nothing" test ! -s "$E2E_TMP/q.out" -a ! -s "$E2E_TMP/q.err"

# While another process holds the database for writing (a resumed crawl
# waiting on a silent URL), the read-only report still works.
"$NEARCRAWL" crawl -d "$DB" --quiet --timeout-ms 20000 --low-speed-secs 0 \
    $R "http://$H:$PORT/__nc/silent" 2>/dev/null &
writer=$!
# Wait for its flock to show (Linux lists it in /proc/locks by inode);
# probing with a second crawl instead could take the lock first.
inode=$(stat -c %i "$DB")
i=0
while [ "$i" -lt 100 ] &&
    ! grep -q "FLOCK.* [0-9a-f]*:[0-9a-f]*:$inode " /proc/locks 2>/dev/null; do
	i=$((i + 1))
	sleep 0.05
done
"$NEARCRAWL" crawl -d "$DB" --quiet $R 2>"$E2E_TMP/err" >/dev/null
ok "the database is held by a crawl" \
    grep -q "in use by another nearcrawl process" "$E2E_TMP/err"
"$NEARCRAWL" report -d "$DB" -o "$E2E_TMP/busy" --quiet 2>"$E2E_TMP/err"
eq "report while a crawl writes exits 0" "$?" 0
eq "its growth.csv ends at the database's counts" \
    "$(tail -n 1 "$E2E_TMP/busy/growth.csv")" \
    "$(q "$DB" "SELECT count(*) || ',' || sum(verdict = 'unique') || ',' ||
        sum(verdict = 'exact') || ',' || sum(verdict = 'near') FROM pages")"
kill -INT "$writer"
wait "$writer"
# A resumed crawl: the time plot marks where a new process took over
# (pages.worker), and growth-time.csv holds the series.
"$NEARCRAWL" crawl -d "$E2E_TMP/res.db" --quiet --delay-ms 0 --max-pages 20 $R \
    "http://$H:$PORT/" 2>/dev/null
"$NEARCRAWL" crawl -d "$E2E_TMP/res.db" --quiet --max-pages 40 2>/dev/null
"$NEARCRAWL" report -q -d "$E2E_TMP/res.db" -o "$E2E_TMP/res-rep"
eq "a resumed crawl's report exits 0" "$?" 0
eq "the time plot marks the resume" "$(grep -c '^set arrow from .* nohead dashtype 2' \
    "$E2E_TMP/res-rep/growth-time.gp")" 1
ok "... labelled" grep -q "^set label 'resumed'" "$E2E_TMP/res-rep/growth-time.gp"
eq "growth-time.csv: 40 pages, a row each" "$(tail -n +2 "$E2E_TMP/res-rep/growth-time.csv" | wc -l | tr -d ' ')" 40
e2e_finish
