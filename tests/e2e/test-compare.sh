#!/bin/sh
# nearcrawl compare on identical, near and different documents, from files
# and from URLs.
. tests/e2e/lib.sh

S=tests/fixtures/sites/www.lab.test
A=$(ls "$S/print" | head -n 1)
verdict() { "$NEARCRAWL" compare "$@" | sed -n 's/^verdict: \([a-z]*\).*/\1/p'; }
eq "same text, other markup: exact" \
    "$(verdict tests/fixtures/sites/www.small.test/seminars.html tests/fixtures/sites/www.small.test/seminars-copy.html)" exact
eq "print view of an article: near" "$(verdict "$S/news/$A" "$S/print/$A")" near
eq "print view on body text, SimHash and ssdeep: not near (the research's blind spot)" \
    "$(verdict --text body --methods md5,simhash,ssdeep "$S/news/$A" "$S/print/$A")" unique
eq "print view on body text with the defaults: MinHash finds it" \
    "$(verdict --text body "$S/news/$A" "$S/print/$A")" near
eq "two staff pages: unique" \
    "$(verdict "$S/people/amir-berg.html" "$S/people/amir-brennan.html")" unique
"$NEARCRAWL" compare --methods md5,simhash,ssdeep "$S/news/$A" "$S/print/$A" >"$E2E_TMP/out"
ok "prints the SimHash distance" grep -q '^simhash: distance [0-9]* of 64 bits' "$E2E_TMP/out"
ok "says which methods propose A" grep -q '^candidate: proposed by [a-z, ]*' "$E2E_TMP/out"
ok "prints the new words and the rule" sh -c "grep -q '^new:     [0-9]* of B.s [0-9]* words are not in A' '$E2E_TMP/out' &&
    grep -q '^rule:    near when at most [0-9]* % of its own words' '$E2E_TMP/out'"
ok "prints the ssdeep score" grep -q '^ssdeep:  score [0-9]*' "$E2E_TMP/out"
ok "prints the MinHash estimate, even when not in --methods" \
    grep -q '^minhash: [0-9]* of 128 positions agree, Jaccard ~[0-9.]* %, [0-9]* of 32 bands equal (not in --methods' "$E2E_TMP/out"
ok "prints the TDW overlap, even when not in --methods" \
    grep -q '^tdw:     weighted overlap [0-9.]* % of [0-9]* and [0-9]* tokens (not in --methods' "$E2E_TMP/out"
eq "print view by MinHash alone: near" \
    "$(verdict --methods md5,minhash "$S/news/$A" "$S/print/$A")" near
eq "two staff pages by MinHash alone: unique" \
    "$(verdict --methods md5,minhash "$S/people/amir-berg.html" "$S/people/amir-brennan.html")" unique
"$NEARCRAWL" compare "$S/news/$A" >/dev/null 2>&1
eq "one document is bad usage" "$?" 2
"$NEARCRAWL" compare "$S/news/$A" "$E2E_TMP/none.html" >/dev/null 2>&1
eq "missing file fails" "$?" 1

e2e_start_server tests/fixtures/sites
U="http://www.lab.test:$PORT"
eq "URLs: article and its mobile variant are near" \
    "$(verdict --resolve "www.lab.test:$PORT:127.0.0.1" "$U/news/$A" "$U/m/$A")" near
eq "URL against its file: exact" \
    "$(verdict --resolve "www.lab.test:$PORT:127.0.0.1" "$U/news/$A" "$S/news/$A")" exact
e2e_finish
