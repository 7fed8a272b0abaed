#!/bin/sh
# `nearcrawl eval`: the labelled pairs give known counts per method and
# threshold; a crawl of the labelled site scores exactly as
# scripts/eval/eval-labels.sh scores it, also after its verdicts are spoilt;
# bad input is refused with exit 2.
. tests/e2e/lib.sh

P=tests/fixtures/pairs
OUT=$E2E_TMP/out
# row TEXT METHOD THRESHOLD: "TP FP FN TN" of that row of $OUT.
row() {
	awk -v t="$1" -v m="$2" -v h="$3" \
	    '$1 == t && $2 == m && $3 == h { print $4, $5, $6, $7 }' "$OUT"
}

# ---- the pairs set ------------------------------------------------------
"$NEARCRAWL" eval --docs $P/docs --pairs $P/pairs.txt --repeat 1 \
    >"$OUT" 2>"$E2E_TMP/err"
eq "pairs: exits 0" "$?" 0
eq "pairs: nothing on stderr" "$(cat "$E2E_TMP/err")" ""
ok "pairs: counts the set" grep -q \
    '^360 documents, 450 pairs (270 dup or near, 180 distinct)' "$OUT"
# md5 finds exactly the 30 byte-identical and 30 re-marked-up copies.
eq "md5, main" "$(row main md5 -)" "60 0 210 180"
eq "md5, body" "$(row body md5 -)" "60 0 210 180"
# Numbers are words as they are (--numbers keep): a little less recall
# than folding them, and number tables no longer look alike.
eq "simhash k=3, main" "$(row main simhash k=3)" "195 0 75 180"
eq "simhash k=3, body" "$(row body simhash k=3)" "94 0 176 180"
eq "ssdeep T=90, main" "$(row main ssdeep T=90)" "216 0 54 180"
eq "ssdeep T=50, body: the template makes distinct pages alike" \
    "$(row body ssdeep T=50)" "270 73 0 107"
# The crawl's rule confirms near verdicts: the partial80 pages (a fifth
# of them their own paragraphs) are under the share of 25 % new words,
# near as labelled, but for 5 whose sketches do not propose the base.
eq "the crawl's defaults, main" "$(row main crawl any)" "265 0 5 180"
eq "minhash T=70, main" "$(row main minhash T=70)" "254 0 16 180"
eq "every row sums to the 450 pairs" "$(awk 'NR > 1 && NF == 13 &&
    $4 + $5 + $6 + $7 != 450 { n++ } END { print n + 0 }' "$OUT")" 0
eq "precision, recall and F1 as defined" "$(awk 'NR > 1 && NF == 13 {
	p = ($4 + $5) ? $4 / ($4 + $5) : 1; r = ($4 + $6) ? $4 / ($4 + $6) : 1
	f = (p + r) ? 2 * p * r / (p + r) : 0
	if (sprintf("%.3f %.3f %.3f", p, r, f) != $8 " " $9 " " $10) n++ }
    END { print n + 0 }' "$OUT")" 0
eq "tdw T=75, main" "$(row main tdw T=75)" "268 0 2 180"
# Per text: md5 1, simhash 9, ssdeep 7, minhash 5 and tdw 6 thresholds, and
# the crawl's row.
eq "one row per text, method and default threshold, and the crawl's" \
    "$(awk 'NR > 1 && NF == 13' "$OUT" | wc -l | tr -d ' ')" 58

"$NEARCRAWL" eval --docs $P/docs --pairs $P/pairs.txt --text main --csv \
    --methods simhash --thresholds simhash=3,6 --repeat 1 >"$OUT" 2>&1
eq "csv: exits 0" "$?" 0
eq "csv: header" "$(head -n 1 "$OUT")" \
    "text,method,threshold,tp,fp,fn,tn,precision,recall,f1,fingerprint_us,lookup_us,index_bytes"
eq "csv: md5, the chosen thresholds and the crawl row" \
    "$(cut -d, -f1-7 "$OUT" | sed 1d | tr '\n' ' ')" \
    "main,md5,-,60,0,210,180 main,simhash,k=3,195,0,75,180 main,simhash,k=6,237,0,33,180 main,crawl,any,265,0,5,180 "

"$NEARCRAWL" eval --docs $P/docs --pairs $P/pairs.txt --text main --by-class \
    --methods simhash --thresholds simhash=3 --repeat 1 >"$OUT" 2>&1
eq "by class: exits 0" "$?" 0
cls() {
	awk -v m="$1" -v c="$2" '$2 == m && $4 == c { print $6, $7 }' "$OUT"
}
eq "by class: md5 finds every exact copy" "$(cls md5 exact)" "30 30"
eq "by class: md5 finds no print view" "$(cls md5 print)" "30 0"
eq "by class: simhash finds every other template" "$(cls simhash template)" \
    "30 30"
eq "by class: no half copy is called a duplicate" "$(cls simhash partial50)" \
    "30 0"

# ---- a hand-made set: labels, classes, the min-text rule --------------
D=$E2E_TMP/docs
mkdir -p "$D/sub"
printf '<html><body><main><p>%s</p></main></body></html>\n' \
    "one two three four five six seven eight nine ten" >"$D/a.html"
cp "$D/a.html" "$D/sub/b.html"
printf 'Plain text is its own text, one two three.\n' >"$D/c.txt"
printf '# a comment, then a blank line\n\na.html sub/b.html dup\n' >"$D/p1"
printf 'a.html c.txt distinct other\n' >>"$D/p1"
"$NEARCRAWL" eval --docs "$D" --pairs "$D/p1" --methods md5 --text body \
    --repeat 1 >"$OUT" 2>&1
eq "small set: exits 0" "$?" 0
eq "small set: md5" "$(row body md5 -)" "1 0 0 1"
"$NEARCRAWL" eval --docs "$D" --pairs "$D/p1" --methods simhash --text body \
    --thresholds simhash=0 --min-text-bytes 1000 --repeat 1 >"$OUT" 2>&1
eq "min-text rule: near methods skip short texts" \
    "$(row body simhash k=0)" "0 0 1 1"

# ---- refusals -----------------------------------------------------------
refused() {
	name=$1
	shift
	"$NEARCRAWL" eval "$@" >/dev/null 2>"$E2E_TMP/err"
	eq "$name: exit 2" "$?" 2
}
refused "no arguments"
refused "pairs without docs" --pairs "$D/p1"
refused "both kinds at once" --docs "$D" --pairs "$D/p1" -d x --groups y
refused "unknown method" --docs "$D" --pairs "$D/p1" --methods md5,nope
refused "threshold out of range" --docs "$D" --pairs "$D/p1" \
    --thresholds simhash=99
refused "md5 has no threshold" --docs "$D" --pairs "$D/p1" \
    --thresholds md5=1
refused "missing pairs file" --docs "$D" --pairs "$D/none"
printf 'a.html sub/b.html same\n' >"$D/p2"
refused "bad label" --docs "$D" --pairs "$D/p2"
ok "bad label: says where" grep -q 'p2:1: label must be dup, near or distinct' \
    "$E2E_TMP/err"
printf 'a.html missing.html near\n' >"$D/p3"
refused "missing document" --docs "$D" --pairs "$D/p3"
printf 'a.html ../a.html near\n' >"$D/p4"
refused "a document outside the directory" --docs "$D" --pairs "$D/p4"
printf 'a.html sub/b.html dup x\na.html c.txt distinct x\n' >"$D/p5"
refused "a class both dup and distinct" --docs "$D" --pairs "$D/p5"
"$NEARCRAWL" eval --help >"$OUT" 2>&1
eq "--help: exit 0" "$?" 0
ok "--help lists every method" sh -c \
    'grep -q "^  md5 " "$1" && grep -q "^  simhash " "$1" &&
     grep -q "^  ssdeep " "$1"' sh "$OUT"

# ---- a crawled database against the group file -------------------------
e2e_start_server tests/fixtures/sites
H=www.lab.test
DB=$E2E_TMP/lab.db
L=tests/fixtures/labelled.tsv
"$NEARCRAWL" crawl -d "$DB" --quiet --delay-ms 0 --per-host 1 \
    --resolve "$H:$PORT:127.0.0.1" "http://$H:$PORT/" 2>/dev/null
eq "lab crawl exits 0" "$?" 0
"$NEARCRAWL" eval -d "$DB" --groups $L >"$OUT" 2>"$E2E_TMP/err"
eq "groups: exits 0" "$?" 0
eq "groups: the labelled site is scored perfect" \
    "$(tail -n 1 "$OUT")" "precision=1.000 recall=1.000 coverage=1.000"
eq "groups: a row for the crawl and each method" \
    "$(awk 'NR > 1 && NF == 13 { printf "%s ", $2 }' "$OUT")" \
    "crawl md5 simhash minhash "
# Same figures as the script, line for line, on this crawl and on the
# crawl spoilt: print views missed, staff pages called duplicates, a page
# with no label, a judged page turned into an error.
same_as_script() {
	scripts/eval/eval-labels.sh "$DB" $L >"$E2E_TMP/script" 2>/dev/null
	"$NEARCRAWL" eval -d "$DB" --groups $L >"$OUT" 2>/dev/null
	for pat in '^precision=' '^distinct pages reached' '^groups reached' \
	    '^judged pages'; do
		eq "$1: $pat as the script" "$(grep "$pat" "$OUT")" \
		    "$(grep "$pat" "$E2E_TMP/script")"
	done
}
same_as_script "as crawled"
# Spoilt below on purpose (near pages without their duplicates rows):
# checked as crawled, and left out of the checks at the end.
e2e_check_db "$DB" "the lab crawl, before it is spoilt"
E2E_CHECK_SKIP="${DB##*/}"
q "$DB" "UPDATE pages SET verdict = 'unique' WHERE url LIKE '%/print/%';
    UPDATE pages SET verdict = 'near' WHERE url LIKE '%/people/%'
        AND id % 5 = 0;
    UPDATE pages SET verdict = 'error' WHERE url LIKE '%/m/%' AND id % 3 = 0;
    INSERT INTO pages (url, host, verdict, depth, seq, fetched_at)
        VALUES ('http://$H:$PORT/nowhere.html#x', '$H', 'near', 1, 99999, 0),
               ('http://other.test/nowhere.html', 'other.test', 'unique', 1,
                100000, 0);"
same_as_script "spoilt"
ok "spoilt: not perfect any more" sh -c \
    '! grep -q "^precision=1.000 recall=1.000" "$1"' sh "$OUT"
"$NEARCRAWL" eval -d "$DB" --groups $L --csv >"$OUT" 2>&1
eq "groups csv: four rows and a header" "$(wc -l <"$OUT" | tr -d ' ')" 5
refused "missing database" -d "$E2E_TMP/none.db" --groups $L
ok "missing database: not created" test ! -e "$E2E_TMP/none.db"
refused "not a nearcrawl database" -d $L --groups $L
refused "missing group file" -d "$DB" --groups "$E2E_TMP/none.tsv"
e2e_finish
