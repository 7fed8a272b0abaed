#!/bin/sh
# WARC archives (docs/archives.md): a crawl with --warc writes WARC 1.1
# files that an independent reader (warcio.js) accepts with every digest
# right, with request/response pairs, revisit records for repeated
# payloads, metadata records for duplicates, a CDXJ index per file,
# rotation, content-coding kept; a crawl killed with -9 leaves its
# complete records readable and a resume adds new files; `nearcrawl
# dedup` reads ours and GNU wget's files, gives a crawl's verdicts, turns
# damaged records into error rows and goes on, and resumes after kill -9.
. tests/e2e/lib.sh

CHECK="node tests/tools/warc-check.mjs"
SITE="$E2E_TMP/sites"
W=www.warc.test
mkdir -p "$SITE/$W" || exit 1
cp -R tests/fixtures/sites/www.lab.test "$SITE/" || exit 1

# A small site with every case: identical bytes (revisit), the same text
# in other markup (an exact duplicate whose bytes differ: a response),
# a near copy, a gzip-coded page, a chunked page.
art='<p>The senate approved the revised study regulations for the
master programmes on Tuesday after a long debate about examination
periods, credit transfer and the recognition of courses taken abroad.
Students will be able to register for resits online from next term,
and the faculty offices will publish the new deadlines in the spring.</p>'
cat >"$SITE/$W/index.html" <<EOF
<html><head><title>Warc test</title></head><body><h1>Home</h1>
<p>Welcome to the archive test site of the faculty of letters.</p>
<a href="a.html">a</a> <a href="b.html">b</a> <a href="c.html">c</a>
<a href="d.html">d</a> <a href="z.html">z</a>
<a href="/__nc/big/30000?chunked=1">chunked</a></body></html>
EOF
printf '<html><head><title>Rules</title></head><body>%s</body></html>\n' \
    "$art" >"$SITE/$W/a.html"
cp "$SITE/$W/a.html" "$SITE/$W/b.html"
printf '<html>\n<head><title>Rules</title></head>\n<body>\n<div>%s</div>\n</body></html>\n' \
    "$art" >"$SITE/$W/c.html"
printf '<html><head><title>Rules</title></head><body>%s<p>Updated.</p></body></html>\n' \
    "$art" >"$SITE/$W/d.html"
printf '<html><head><title>Zipped</title></head><body><p>%s</p><p>%s</p></body></html>\n' \
    "This page travels gzip-coded, and the archive keeps it so." \
    "Its payload digest is the digest of the gzip bytes." | gzip -9n \
    >"$SITE/$W/z.html"
printf 'Content-Encoding: gzip\n' >"$SITE/$W/z.html.headers"
e2e_start_server "$SITE"
R="--resolve $W:$PORT:127.0.0.1 --resolve www.lab.test:$PORT:127.0.0.1"

ok "node and warcio.js are installed (scripts/make/install-deps.sh)" \
    test -d tests/tools/node_modules/warcio

# --- 1. the small site -----------------------------------------------------
A="$E2E_TMP/a"
"$NEARCRAWL" crawl -d "$A.db" --quiet --delay-ms 0 $R --warc "$A" \
    "http://$W:$PORT/" 2>"$A.err"
eq "crawl with --warc exits 0" "$?" 0
set -- "$A"/nearcrawl-*-00001.warc.gz
F=$1
ok "one WARC file named PREFIX-TIMESTAMP-SERIAL.warc.gz" test -f "$F"
ok "with its CDXJ index" test -s "${F%.warc.gz}.cdxj"
$CHECK "$F" >"$A.check" 2>&1
eq "warcio.js reads it, every digest right" "$?" 0
types() { awk -F '\t' -v t="$1" '$1 == t' "$2" | wc -l | tr -d ' '; }
eq "the file opens with warcinfo" "$(head -n 1 "$A.check" | cut -f 1)" warcinfo
fetched=$(grep -c " $W " "$SERVER_LOG")
eq "a request record per fetch" "$(types request "$A.check")" "$fetched"
eq "a response or revisit per fetch" \
    $(($(types response "$A.check") + $(types revisit "$A.check"))) "$fetched"
rev=$(awk -F '\t' '$1 == "revisit" { print $2 }' "$A.check")
# The later fetch, as the server saw them (pages.seq is the order pages
# are stored, which two workers may swap).
later=$(grep -o " GET /[ab]\.html " "$SERVER_LOG" | tail -n 1 | tr -d ' ' |
    sed 's/GET\///')
eq "identical bytes: the later fetch is a revisit" \
    "$(echo "$rev" | sed 's/.*\///')" "$later"
zcat "$F" >"$A.warc"
ok "the revisit names its original and the profile" grep -q \
    'WARC-Profile: http://netpreserve.org/warc/1.1/revisit/identical-payload-digest' "$A.warc"
ok "... with WARC-Refers-To-Target-URI and -Date" \
    grep -q '^WARC-Refers-To-Date: ' "$A.warc"
eq "c.html (same text, other bytes) is an exact duplicate" \
    "$(q "$A.db" "SELECT verdict FROM pages WHERE url LIKE '%/c.html'")" exact
ok "... and keeps its response record" \
    sh -c "awk -F '\t' '\$1 == \"response\" && \$2 ~ /c.html\$/' '$A.check' | grep -q ."
dups=$(q "$A.db" "SELECT count(*) FROM pages WHERE verdict IN ('exact', 'near')")
eq "a metadata record per duplicate page" "$(types metadata "$A.check")" "$dups"
ok "metadata names the original, method and similarity" sh -c \
    "grep -a -q '^duplicate-of: http://$W:$PORT/' '$A.warc' &&
     grep -a -q '^duplicate-method: ' '$A.warc' &&
     grep -a -q '^duplicate-similarity: ' '$A.warc'"
# The gzip-coded page: its payload is the gzip file's bytes.
zd="sha1:$(openssl sha1 -binary "$SITE/$W/z.html" | base32)"
ok "a coded body is archived as sent (payload digest of the gzip bytes)" \
    grep -q "WARC-Payload-Digest: $zd" "$A.warc"
ok "... and its text was read" test "$(q "$A.db" "SELECT text_bytes FROM
    pages WHERE url LIKE '%/z.html'")" -gt 50
ok "a chunked body: the header is renamed, the length given" sh -c \
    "grep -a -q '^X-Crawler-Transfer-Encoding: chunked' '$A.warc'"
ok "the CDXJ index is sorted, one line per response and revisit" sh -c "
    LC_ALL=C sort -c '${F%.warc.gz}.cdxj' &&
    test \$(wc -l <'${F%.warc.gz}.cdxj') -eq $(($(types response "$A.check") + $(types revisit "$A.check")))"
ok "CDXJ keys are SURTs" grep -q "^test,warc:$PORT)/a.html " "${F%.warc.gz}.cdxj"
if $CHECK --cdxj "$F" >"$A.theirs" 2>/dev/null && [ -s "$A.theirs" ]; then
	cut -d ' ' -f 1 "${F%.warc.gz}.cdxj" | LC_ALL=C sort >"$A.k1"
	cut -d ' ' -f 1 "$A.theirs" | LC_ALL=C sort >"$A.k2"
	ok "warcio.js's own index has the same keys" cmp -s "$A.k1" "$A.k2"
fi

# --- 2. rotation, a crawl killed, a resume -----------------------------------
B="$E2E_TMP/b"
"$NEARCRAWL" crawl -d "$B.db" --quiet --delay-ms 0 $R --warc "$B" \
    --warc-max-bytes 100000 "http://www.lab.test:$PORT/" 2>"$B.err"
eq "lab crawl with rotation exits 0" "$?" 0
n=$(ls "$B"/*.warc.gz | wc -l)
ok "rotation at --warc-max-bytes makes several files" test "$n" -gt 3
ok "every file at most the size asked (or one record)" sh -c \
    "for f in '$B'/*.warc.gz; do s=\$(wc -c <\"\$f\"); [ \$s -le 120000 ] || exit 1; done"
ok "every file has an index" sh -c \
    "for f in '$B'/*.warc.gz; do test -f \"\${f%.warc.gz}.cdxj\" || exit 1; done"
$CHECK "$B"/*.warc.gz >"$B.check" 2>&1
eq "warcio.js reads them all, every digest right" "$?" 0
eq "each file opens with warcinfo" "$(types warcinfo "$B.check")" "$n"

K="$E2E_TMP/k"
"$NEARCRAWL" crawl -d "$K.db" --quiet --delay-ms 30 $R --warc "$K" \
    "http://www.lab.test:$PORT/" 2>"$K.err" &
pid=$!
sleep 2
kill -9 $pid 2>/dev/null
wait $pid 2>/dev/null
eq "the crawl was killed" "$?" 137
killed=$(ls "$K"/*.warc.gz)
"$NEARCRAWL" dedup -d "$K.read.db" --quiet $killed 2>"$K.read.err"
eq "the killed run's file reads (dedup exits 0)" "$?" 0
ok "... at most its last record cut short" test "$(q "$K.read.db" \
    "SELECT count(*) FROM pages WHERE reason LIKE 'damaged WARC%'")" -le 1
ok "... and holds pages" test "$(q "$K.read.db" "SELECT count(*) FROM pages
    WHERE verdict IN ('unique', 'exact', 'near')")" -gt 10
"$NEARCRAWL" crawl -d "$K.db" --quiet --delay-ms 0 2>"$K.err2"
eq "the resumed crawl exits 0 (--warc kept with the crawl)" "$?" 0
ok "the resume wrote new files beside the old" test \
    "$(ls "$K"/*.warc.gz | wc -l)" -gt "$(echo "$killed" | wc -l)"
ok "the killed run's file got its index at the resume" test -f \
    "${killed%.warc.gz}.cdxj"
$CHECK $(ls "$K"/*.warc.gz | grep -v -F "$killed") >/dev/null 2>&1
eq "the resumed run's files are whole" "$?" 0

# --- 3. nearcrawl dedup of our own files ---------------------------------------
"$NEARCRAWL" dedup -d "$B.re.db" --quiet "$B"/*.warc.gz 2>"$B.re.err"
eq "dedup of the crawl's files exits 0" "$?" 0
verdicts() {
	q "$1" "SELECT verdict || '=' || count(*) FROM pages WHERE verdict IN
	    ('unique', 'exact', 'near') GROUP BY verdict ORDER BY verdict" |
	    tr '\n' ' '
}
eq "dedup gives the crawl's verdict counts" "$(verdicts "$B.re.db")" \
    "$(verdicts "$B.db")"
eq "seq is the record order, 1..N" "$(q "$B.re.db" "SELECT min(seq) || ' '
    || max(seq) || ' ' || count(*) FROM pages")" \
    "1 $(q "$B.re.db" 'SELECT count(*) FROM pages') $(q "$B.re.db" 'SELECT count(*) FROM pages')"
ok "report works on it" "$NEARCRAWL" report -d "$B.re.db" -o "$E2E_TMP/rep" --quiet
ok "export works on it" sh -c "'$NEARCRAWL' export -d '$B.re.db' >'$E2E_TMP/exp.csv'"
"$NEARCRAWL" dedup -d "$B.re.db" --quiet "$B"/*.warc.gz 2>/dev/null
eq "a second run adds nothing" "$(q "$B.re.db" 'SELECT count(*) FROM pages')" \
    "$(q "$B.re.db" 'SELECT max(seq) FROM pages')"
# The archive holds robots.txt too: a row the crawl did not make.
eq "... and stores no page twice" "$(q "$B.re.db" "SELECT count(*) FROM pages
    WHERE url NOT LIKE '%/robots.txt'")" "$(q "$B.db" 'SELECT count(*) FROM pages')"

eq "a revisit record is an exact duplicate of the page it refers to" \
    "$(q "$B.re.db" "SELECT count(*) FROM duplicates WHERE method =
    'revisit' AND percentage = 100")" "$(types revisit "$B.check")"

# --- 3b. a WET file: conversion records read as plain text --------------------
wet_record() { # URI TEXT
	printf 'WARC/1.0\r\nWARC-Type: conversion\r\nWARC-Target-URI: %s\r\n' "$1"
	printf 'WARC-Date: 2024-01-01T00:00:00Z\r\n'
	printf 'WARC-Record-ID: <urn:uuid:%s>\r\n' "$(cat /proc/sys/kernel/random/uuid)"
	printf 'Content-Type: text/plain\r\nContent-Length: %s\r\n\r\n%s\r\n\r\n' \
	    "$(printf '%s' "$2" | wc -c)" "$2"
}
t1=$(awk 'BEGIN { for (i = 0; i < 120; i++) printf "w%d%s", (i * 37) % 101, (i % 12 == 11) ? "\n" : " " }')
t2=$(awk 'BEGIN { for (i = 0; i < 120; i++) printf "v%d%s", (i * 53) % 103, (i % 12 == 11) ? "\n" : " " }')
{
	wet_record "http://wet.test/a" "$t1"
	wet_record "http://wet.test/b" "$t2"
	wet_record "http://wet.test/c" "$t1"
	wet_record "http://wet.test/d" "$t1 extra"
} >"$E2E_TMP/x.warc.wet"
"$NEARCRAWL" dedup -d "$E2E_TMP/wet.db" --quiet "$E2E_TMP/x.warc.wet" \
    2>"$E2E_TMP/wet.err"
eq "dedup of a WET file exits 0" "$?" 0
eq "WET conversion records: unique, unique, exact, near" "$(q "$E2E_TMP/wet.db" \
    "SELECT group_concat(verdict, ' ') FROM (SELECT verdict FROM pages
    ORDER BY seq)")" "unique unique exact near"

# --- 4. damaged records --------------------------------------------------------
D="$E2E_TMP/d"
mkdir "$D"
set -- "$B"/*.warc.gz
cp "$2" "$D/bad.warc.gz"
size=$(wc -c <"$D/bad.warc.gz")
# Garble bytes in the middle, and cut the last record short.
printf 'GARBAGE-GARBAGE-GARBAGE-GARBAGE' | dd of="$D/bad.warc.gz" bs=1 \
    seek=$((size / 2)) conv=notrunc 2>/dev/null
truncate -s $((size - 200)) "$D/bad.warc.gz"
whole=$($CHECK "$2" | awk -F '\t' '$1 == "response" || $1 == "revisit"' | wc -l)
"$NEARCRAWL" dedup -d "$D.db" --quiet "$D/bad.warc.gz" 2>"$D.err"
eq "dedup of a damaged file exits 0" "$?" 0
bad=$(q "$D.db" "SELECT count(*) FROM pages WHERE reason LIKE
    'damaged WARC record at offset %'")
ok "damaged records are error rows with their offset" test "$bad" -ge 2
ok "the records after the damage are read" test \
    "$(q "$D.db" "SELECT count(*) FROM pages WHERE reason IS NULL OR
    reason NOT LIKE 'damaged%'")" -ge $((whole - 4))

# --- 5. GNU wget's WARC --------------------------------------------------------
G="$E2E_TMP/g"
mkdir "$G"
# The lab site's generated trap (/__nc/) is endless: wget is kept out.
(cd "$G" && wget -q -r -l 6 --reject-regex '/__nc/' --delete-after \
    --warc-file=lab --no-warc-keep-log "http://127.0.0.1:$PORT/index.html" \
    --header "Host: www.lab.test:$PORT") 2>/dev/null
ok "wget wrote a WARC file" test -s "$G/lab.warc.gz"
"$NEARCRAWL" dedup -d "$G.db" --quiet "$G/lab.warc.gz" 2>"$G.err"
eq "dedup of wget's WARC exits 0" "$?" 0
html=$($CHECK "$G/lab.warc.gz" | awk -F '\t' '$1 == "response" && $5 == 200' | wc -l)
judged=$(q "$G.db" "SELECT count(*) FROM pages WHERE verdict IN
    ('unique', 'exact', 'near', 'skipped')")
eq "every 200 response of wget's is a page" "$judged" "$html"
ok "wget's pages hold exact and near duplicates" test "$(q "$G.db" \
    "SELECT count(DISTINCT verdict) FROM pages WHERE verdict IN
    ('unique', 'exact', 'near')")" -eq 3

# --- 6. dedup killed with -9 and run again -------------------------------------
R9="$E2E_TMP/r9"
NEARCRAWL_TEST_JUDGE_TICK_MS=10 "$NEARCRAWL" dedup -d "$R9.db" --quiet \
    "$B"/*.warc.gz 2>/dev/null &
pid=$!
sleep 1.5
kill -9 $pid 2>/dev/null
wait $pid 2>/dev/null
eq "dedup killed with -9" "$?" 137
part=$(q "$R9.db" 'SELECT count(*) FROM pages')
"$NEARCRAWL" dedup -d "$R9.db" --quiet "$B"/*.warc.gz 2>"$R9.err"
eq "the rerun exits 0" "$?" 0
ok "the kill came mid-run" test "${part:-0}" -lt "$(q "$B.re.db" 'SELECT count(*) FROM pages')"
eq "the rerun ends with the whole run's pages" \
    "$(q "$R9.db" 'SELECT url || verdict FROM pages ORDER BY seq' | md5sum)" \
    "$(q "$B.re.db" 'SELECT url || verdict FROM pages ORDER BY seq' | md5sum)"

e2e_finish
