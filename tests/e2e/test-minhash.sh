#!/bin/sh
# MinHash on the labelled site: a crawl with --methods md5,minhash finds the
# near duplicates, stores a signature per judged page, and a crawl cut by
# --max-pages and resumed (the buckets rebuilt from the stored signatures)
# ends with the same verdicts as an uninterrupted one.
. tests/e2e/lib.sh

e2e_start_server tests/fixtures/sites
H=www.lab.test
R="--resolve $H:$PORT:127.0.0.1"
SEED="http://$H:$PORT/"
M="--methods md5,minhash"
counts() {
	q "$1" "SELECT verdict || '=' || count(*) FROM pages GROUP BY verdict ORDER BY verdict" | tr '\n' ' '
}
# Matches per method, the calendar's left out: its last months, one each
# way, are fetched back to back and the worker threads may judge them in
# either order, so the one judged second finds one earlier month more.
methods() {
	q "$1" "SELECT method || '=' || count(*) FROM duplicates d JOIN pages p
	    ON p.id = d.page_id WHERE p.url NOT LIKE '%/__nc/calendar/%'
	    GROUP BY method ORDER BY method" | tr '\n' ' '
}

"$NEARCRAWL" crawl -d "$E2E_TMP/whole.db" --quiet --delay-ms 0 $M $R "$SEED" 2>/dev/null
eq "uninterrupted crawl exits 0" "$?" 0
W="$E2E_TMP/whole.db"
ok "near duplicates found" test "$(q "$W" "SELECT count(*) FROM pages WHERE verdict = 'near'")" -gt 100
eq "every near page has a minhash match" \
    "$(q "$W" "SELECT count(*) FROM pages p WHERE verdict = 'near' AND NOT EXISTS
        (SELECT 1 FROM duplicates d WHERE d.page_id = p.id AND d.method = 'minhash')")" 0
eq "minhash percentages within the threshold" \
    "$(q "$W" "SELECT count(*) FROM duplicates WHERE method = 'minhash' AND
        (percentage < 70 OR percentage > 100)")" 0
eq "no other near method ran" \
    "$(q "$W" "SELECT count(*) FROM duplicates WHERE method NOT IN ('md5', 'minhash')")" 0
eq "a 512-byte signature on every unique and near page" \
    "$(q "$W" "SELECT count(*) FROM pages WHERE verdict IN ('unique', 'near') AND
        (minhash IS NULL OR length(minhash) <> 512)")" 0
eq "no signature on pages without text" \
    "$(q "$W" "SELECT count(*) FROM pages WHERE verdict NOT IN ('unique', 'exact', 'near')
        AND minhash IS NOT NULL")" 0
eq "settings recorded" \
    "$(q "$W" "SELECT group_concat(key || '=' || value, ' ') FROM (SELECT * FROM meta
        WHERE key LIKE 'minhash%' ORDER BY key)")" \
    "minhash_bands=32 minhash_features=2 minhash_perms=128 minhash_shingle=3 minhash_threshold=60"

for limit in 50 200 400; do
	"$NEARCRAWL" crawl -d "$E2E_TMP/parts.db" --quiet --delay-ms 0 $M \
	    --max-pages $limit $R "$SEED" 2>/dev/null
	eq "part up to $limit exits 3 (work left)" "$?" 3
done
P="$E2E_TMP/parts.db"
"$NEARCRAWL" crawl -d "$P" --quiet --delay-ms 0 $M --minhash-bands 16 $R \
    2>"$E2E_TMP/err"
eq "other bands on resume refused" "$?" 2
ok "the message names the option" grep -q -- '--minhash-bands 32' "$E2E_TMP/err"
"$NEARCRAWL" crawl -d "$P" --quiet --delay-ms 0 --methods md5,minhash,simhash \
    $R 2>/dev/null
eq "another method set on resume refused" "$?" 2
"$NEARCRAWL" crawl -d "$P" --quiet --delay-ms 0 --max-pages 0 $M $R \
    2>/dev/null
eq "last part exits 0" "$?" 0
eq "same verdict counts" "$(counts "$P")" "$(counts "$W")"
eq "same matches per method" "$(methods "$P")" "$(methods "$W")"
ok "resumed parts matched pages of earlier parts" test "$(q "$P" \
    "SELECT count(*) FROM duplicates d JOIN pages p ON p.id = d.page_id
       JOIN pages o ON o.id = d.original_id
      WHERE d.method = 'minhash' AND o.seq <= 400 AND p.seq > 400")" -gt 0
eq "integrity" "$(q "$P" 'PRAGMA integrity_check')" ok

scripts/eval/eval-fixture.sh --nearcrawl "$NEARCRAWL" $M >"$E2E_TMP/eval" 2>&1
eq "evaluation ran" "$?" 0
last=$(tail -n 1 "$E2E_TMP/eval")
echo "     $last"
scores_at_least "$last" 0.98 0.95
e2e_finish
