#!/bin/sh
# `nearcrawl dedup` over archives written by other tools
# (../shared/corpus/warc: real WARC, ARC and WET files from public WARC
# libraries' tests, expect.tsv the records an independent reader counts in
# each): every file that is not deliberately damaged is read whole -- as
# many records as that reader counts, no damaged record -- and a damaged
# one is read past its damage, one error row for each damaged record at
# its offset. Then files made here for what the corpus lacks: header lines
# in CR CR LF with an empty reason phrase, a Content-Encoding header on a
# body stored decoded, a WET file in LF line ends, a file gzipped whole
# with damaged records and a wrong check.
. tests/e2e/lib.sh

CORPUS=../shared/corpus/warc
if [ ! -f "$CORPUS/expect.tsv" ]; then
	echo "FAIL: $CORPUS/expect.tsv is missing (the shared corpus)"
	E2E_FAILED=$((E2E_FAILED + 1))
	e2e_finish
fi
T=$E2E_TMP

# run FILE...: nearcrawl dedup into a new database $T/db; sets RC and READ
# (the records the summary line says were read).
run() {
	rm -f "$T/db" "$T/db-wal" "$T/db-shm"
	"$NEARCRAWL" dedup -d "$T/db" --quiet "$@" 2>"$T/err"
	RC=$?
	READ=$(sed -n 's/.* \([0-9][0-9]*\) records read.*/\1/p' "$T/err" |
	    tail -n 1)
}
# Rows that report damage: named after it, or a page's record damaged.
damage_rows() {
	q "$T/db" "SELECT count(*) FROM pages WHERE url LIKE 'warc-damaged:%'
	    OR reason LIKE 'damaged WARC record%'"
}

# --- every file of the corpus ------------------------------------------------
TAB=$(printf '\t')
whole=0
broken=0
while IFS="$TAB" read -r file want rest; do
	case $file in '#'* | '') continue ;; esac
	run "$CORPUS/files/$file"
	if [ "$want" = broken ]; then
		broken=$((broken + 1))
		eq "$file (damaged on purpose): dedup goes on past it, exit 0" \
		    "$RC" 0
		# Its only fault for warcio is to be gzipped whole, which
		# is no damage here: all of it reads.
		if [ "$file" = warcio__example-bad.warc.gz.bad ]; then
			eq "$file: gzipped whole, 6 records, no damage" \
			    "$READ $(damage_rows)" "6 0"
			continue
		fi
		ok "$file: its damage is reported, with where it is" test \
		    "$(q "$T/db" "SELECT count(*) FROM pages WHERE reason LIKE
		    '%WARC record%offset%'")" -ge 1
		continue
	fi
	whole=$((whole + 1))
	eq "$file: exit 0, $want records read" "$RC $READ" "0 $want"
	eq "$file: no damaged record" "$(damage_rows)" 0
done <"$CORPUS/expect.tsv"
ok "the corpus holds files read whole and damaged ones" \
    test "$whole" -ge 20 -a "$broken" -ge 5

# --- what those files hold ---------------------------------------------------
F=$CORPUS/files
run "$F/solrwayback__IAH-20080430204825-00000-blackbook.warc.gz"
ok "WARC/0.17 (Heritrix 1.x): its pages are judged" test "$(q "$T/db" \
    "SELECT count(*) FROM pages WHERE verdict IN ('unique', 'exact', 'near')")" \
    -ge 50
for f in solrwayback__transfer_compression_brotli.warc \
    solrwayback__transfer_compression_brotli.warc.gz; do
	run "$F/$f"
	eq "$f: the brotli-coded page is decoded and judged" "$(q "$T/db" \
	    "SELECT verdict || ' ' || status || ' ' || coalesce(reason, '-')
	    FROM pages")" "unique 200 -"
done
run "$F/webarchive-commons__link-extraction-test.warc"
eq "records followed by one LF, none, LF CRLF CRLF: every page read (the
    last response names no URL)" "$(q "$T/db" "SELECT count(*) FROM pages
    WHERE verdict IN ('unique', 'exact', 'near', 'skipped')")" 6
run "$F/warcio__example.arc.gz"
eq "an ARC file: its page is judged" "$(q "$T/db" \
    "SELECT url || ' ' || verdict || ' ' || status FROM pages")" \
    "http://example.com/ unique 200"
run "$F/warcio__example.warc"
eq "a revisit of a 200 page: exact, status 200, its original named" \
    "$(q "$T/db" "SELECT p.verdict || ' ' || p.status || ' ' || o.url FROM
    pages p JOIN duplicates d ON d.page_id = p.id JOIN pages o ON o.id =
    d.original_id WHERE d.method = 'revisit'")" \
    "exact 200 http://example.com/"
run "$F/solrwayback__Evil-Warc-Headers.warc"
eq "a record the file ends inside (Content-Length 6000 of a 1258-byte file):
    an error under its URL, said to be cut short" "$(q "$T/db" \
    "SELECT url || ' ' || verdict FROM pages WHERE reason LIKE
    'WARC record cut short at the end of the file%'")" \
    "http://www.archive.org/robots.txt error"

# Damaged on purpose: one row for each damaged record, at its offset.
run "$F/warciojs__example-bad-length.warc"
eq "Content-Length one short, and two long: a row each, at 1197 and 3370" \
    "$(q "$T/db" "SELECT group_concat(substr(reason, 24, instr(reason, ' of ')
    - 24), '|') FROM (SELECT reason FROM pages WHERE reason LIKE 'damaged%'
    ORDER BY seq)")" "offset 1197|offset 3370"
eq "... and 6 records read, as warcio counts" "$READ" 6
run "$F/warcio__example-bad-non-chunked.warc.gz"
eq "gzipped whole, a revisit's digest wrong: one error row, at its
    uncompressed offset, not judged besides" "$(q "$T/db" "SELECT verdict ||
    ' ' || (coalesce(reason, '') LIKE
    'damaged WARC record at uncompressed offset 3370 of %') FROM pages
    ORDER BY seq")" "unique 0
error 1"
eq "... 6 records read" "$READ" 6
run "$F/warcio__bad.arc"
eq "an ARC file with bad lengths: a row for each, at its offset" \
    "$(q "$T/db" "SELECT group_concat(url, ' ') FROM (SELECT url FROM pages
    WHERE url LIKE 'warc-damaged:%' ORDER BY seq)")" \
    "warc-damaged:warcio__bad.arc:0 warc-damaged:warcio__bad.arc:134 warc-damaged:warcio__bad.arc:262"

# --- files made here ---------------------------------------------------------
# rec TYPE URI CONTENT-TYPE BLOCK-FILE EOL [SEP]: a WARC/1.0 record, header
# lines ending in EOL, SEP (default CRLF CRLF) after the block.
rec() {
	printf 'WARC/1.0%sWARC-Type: %s%sWARC-Target-URI: %s%s' "$5" "$1" "$5" \
	    "$2" "$5"
	printf 'WARC-Date: 2024-05-06T07:08:09Z%sContent-Type: %s%s' "$5" \
	    "$3" "$5"
	printf 'Content-Length: %s%s%s' "$(wc -c <"$4" | tr -d ' ')" "$5" "$5"
	cat "$4"
	if [ $# -ge 6 ]; then
		printf '%s' "$6"
	else
		printf '\r\n\r\n'
	fi
}
H=application/http
CR=$(printf '\r')
text="<html><body><p>The library opens at nine on weekdays and at ten on
Saturdays; the reading rooms close an hour before the building.</p>
<p>Members may borrow twelve books at a time for four weeks.</p></body></html>"

# A writer that put a CR before each CRLF, and a reason phrase left empty.
printf 'HTTP/1.0 302 \r\r\nLocation: /new\r\r\nContent-Length: 0\r\r\n\r\r\n' \
    >"$T/302.blk"
printf 'HTTP/1.0 200 OK\r\r\nContent-Type: text/html\r\r\n\r\r\n%s' "$text" \
    >"$T/200.blk"
{
	rec response http://odd.test/old "$H" "$T/302.blk" "$CR$CR
"
	rec response http://odd.test/new "$H" "$T/200.blk" "$CR$CR
"
} >"$T/crcrlf.warc"
run "$T/crcrlf.warc"
eq "header lines in CR CR LF, 'HTTP/1.0 302 ': a redirect, then a page" \
    "$(q "$T/db" "SELECT group_concat(verdict || ' ' || status || ' ' ||
    coalesce(location, '-'), ', ') FROM (SELECT * FROM pages ORDER BY
    seq)")" "redirect 302 http://odd.test/new, unique 200 -"
eq "... no damage" "$RC $READ $(damage_rows)" "0 2 0"

# A body stored decoded under its Content-Encoding header; and one that
# really is gzip-coded.
printf 'HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\n\r\n%s' \
    "$text" >"$T/decoded.blk"
{
	printf 'HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\n\r\n'
	printf '%s' "$text" | gzip -n
} >"$T/coded.blk"
{
	rec response http://cc.test/a "$H" "$T/decoded.blk" "$CR
"
	rec response http://cc.test/b "$H" "$T/coded.blk" "$CR
"
} >"$T/cc.warc"
run "$T/cc.warc"
eq "Content-Encoding on a decoded body: judged, the reason says so; the
    coded one decoded" "$(q "$T/db" "SELECT group_concat(verdict || ' ' ||
    coalesce(reason, '-'), ', ') FROM (SELECT * FROM pages ORDER BY seq)")" \
    "unique Content-Encoding does not decode: the body was taken as stored, exact -"

# A WET file in LF line ends, its records one LF apart.
printf '%s' "$text" | sed 's/<[^>]*>//g' >"$T/a.txt"
printf 'Another page altogether, about the sports centre and its pool.' \
    >"$T/b.txt"
{
	rec conversion http://wet.test/a text/plain "$T/a.txt" "
" "
"
	rec conversion http://wet.test/b text/plain "$T/b.txt" "
" "
"
	rec conversion http://wet.test/c text/plain "$T/a.txt" "
" "
"
} >"$T/lf.warc.wet"
run "$T/lf.warc.wet"
eq "a WET file in LF line ends: unique, unique, exact" "$(q "$T/db" \
    "SELECT group_concat(verdict, ' ') FROM (SELECT verdict FROM pages ORDER
    BY seq)")" "unique unique exact"
eq "... 3 records read, no damage" "$RC $READ $(damage_rows)" "0 3 0"

# Gzipped whole: two records with a Content-Length too long, the check
# (CRC-32) wrong at the end.
printf '%s' "$text" >"$T/page.html"
printf 'HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n%s' "$text" \
    >"$T/page.blk"
{
	rec response http://gz.test/1 "$H" "$T/page.blk" "$CR
"
	rec response http://gz.test/2 "$H" "$T/page.blk" "$CR
" "$CR
"
	rec response http://gz.test/3 "$H" "$T/page.blk" "$CR
"
	rec response http://gz.test/4 "$H" "$T/page.blk" "$CR
" "$CR
"
	rec response http://gz.test/5 "$H" "$T/page.blk" "$CR
"
} >"$T/whole.warc"
# Records 2 and 4 claim 7 bytes more than they have: each swallows the
# start of the record after it.
awk -v RS='\n' '
	/^WARC-Target-URI: http:\/\/gz.test\/[24]/ { grow = 1 }
	grow && /^Content-Length: / { sub(/[0-9]+/, $2 + 7); grow = 0 }
	{ printf "%s\n", $0 }' "$T/whole.warc" >"$T/whole2.warc"
off2=$(grep -a -b -o 'WARC/1.0' "$T/whole2.warc" | sed -n '2s/:.*//p')
off4=$(grep -a -b -o 'WARC/1.0' "$T/whole2.warc" | sed -n '4s/:.*//p')
gzip -n -c "$T/whole2.warc" >"$T/whole.warc.gz"
size=$(wc -c <"$T/whole.warc.gz" | tr -d ' ')
# The CRC-32 is the 8th to 5th bytes from the end.
printf 'XXXX' | dd of="$T/whole.warc.gz" bs=1 seek=$((size - 8)) \
    conv=notrunc 2>/dev/null
run "$T/whole.warc.gz"
eq "gzipped whole: each damaged record its own row, at its uncompressed
    offset" "$(q "$T/db" "SELECT group_concat(url || ' ' || verdict, ', ')
    FROM (SELECT * FROM pages WHERE
    reason LIKE 'damaged WARC record at uncompressed offset%'
    AND url LIKE 'http%' ORDER BY seq)")" \
    "http://gz.test/2 error, http://gz.test/4 error"
ok "... the reasons give the offsets" sh -c "
    q() { sqlite3 -batch -noheader \"\$1\" \"\$2\"; }
    test \"\$(q '$T/db' \"SELECT count(*) FROM pages WHERE reason LIKE
    'damaged WARC record at uncompressed offset $off2 %' OR reason LIKE
    'damaged WARC record at uncompressed offset $off4 %'\")\" -eq 2"
eq "... the wrong check is a row of its own, at the end of the data" \
    "$(q "$T/db" "SELECT url FROM pages WHERE url LIKE 'warc-damaged:%'")" \
    "warc-damaged:whole.warc.gz:uncompressed:$(wc -c <"$T/whole2.warc" | tr -d ' ')"
eq "... the record before the damage is judged; 3 and 5, swallowed, are
    lost with it; 3 records read" "$(q "$T/db" "SELECT group_concat(url ||
    ' ' || verdict, ', ') FROM pages WHERE verdict IN ('unique', 'exact')")
    $READ" "http://gz.test/1 unique
    3"

e2e_finish
