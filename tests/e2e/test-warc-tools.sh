#!/bin/sh
# The tests' own WARC tools work on this machine: tests/tools/warc-check.mjs
# (warcio.js from npm reads the records, the digests are recomputed) reads
# hand-made WARC files right, finds wrong digests and broken files, and
# reads what GNU wget writes with --warc-file from the test server; its
# --cdxj index agrees with wget's own CDX. The crawler's WARC tests lean on
# both tools (scripts/make/install-deps.sh installs them).
. tests/e2e/lib.sh

CHECK="node tests/tools/warc-check.mjs"
W=$E2E_TMP/warc
mkdir "$W"

# chk ARG...: run the checker, its lines to $W/out, its stderr to $W/err;
# prints its exit status.
chk() {
	$CHECK "$@" >"$W/out" 2>"$W/err"
	echo "$?"
}

# cdxj_fields [FIELD...] <CDXJ: for each line, the SURT key, the time and
# the named fields of its JSON ("-" for a field it lacks).
cdxj_fields() {
	node -e '
	const want = process.argv.slice(1);
	const text = require("fs").readFileSync(0, "utf8").trim();
	for (const line of text ? text.split("\n") : []) {
		const [key, ts, ...rest] = line.split(" ");
		const j = JSON.parse(rest.join(" "));
		console.log([key, ts, ...want.map((f) => j[f] ?? "-")].join(" "));
	}' "$@"
}

ok "node runs" node --version
ok "warcio.js is installed in tests/tools" \
    test -f tests/tools/node_modules/warcio/package.json
eq "the installed warcio.js is the pinned version" \
    "$(node -p 'require("./tests/tools/node_modules/warcio/package.json").version' 2>&1)" \
    "$(node -p 'require("./tests/tools/package.json").dependencies.warcio' 2>&1)"
ok "GNU wget is installed" sh -c 'wget --version | grep -q "^GNU Wget"'

# --- Hand-made WARC/1.1 records, digests made with openssl -------------

sha1b32() {
	openssl dgst -sha1 -binary "$1" | base32
}

# record OUT TYPE URI CONTENT-TYPE BLOCK [PAYLOAD-DIGEST [EXTRA-HEADER]]:
# write one record, its block the file BLOCK, with a right block digest.
NREC=0
record() {
	NREC=$((NREC + 1))
	{
		printf 'WARC/1.1\r\nWARC-Type: %s\r\n' "$2"
		[ -z "$3" ] || printf 'WARC-Target-URI: %s\r\n' "$3"
		printf 'WARC-Date: 2024-05-06T07:08:09Z\r\n'
		printf 'WARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-%012d>\r\n' \
		    "$NREC"
		printf 'Content-Type: %s\r\n' "$4"
		printf 'WARC-Block-Digest: sha1:%s\r\n' "$(sha1b32 "$5")"
		[ -z "${6:-}" ] || printf 'WARC-Payload-Digest: %s\r\n' "$6"
		[ -z "${7:-}" ] || printf '%s\r\n' "$7"
		printf 'Content-Length: %s\r\n\r\n' "$(wc -c <"$5" | tr -d ' ')"
		cat "$5"
		printf '\r\n\r\n'
	} >"$1"
}

H=application/http
printf 'software: test-warc-tools.sh\r\nformat: WARC File Format 1.1\r\n' \
    >"$W/info.blk"
printf 'GET /page HTTP/1.1\r\nHost: a.test\r\n\r\n' >"$W/req.blk"
# A chunked response: its payload is the body with the chunking undone.
printf 'Hello, WARC world!\n' >"$W/page.body"
printf '7\r\nHello, \r\nc;ext=1\r\nWARC world!\n\r\n0\r\n\r\n' >"$W/page.raw"
{
	printf 'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n'
	printf 'Transfer-Encoding: chunked\r\n\r\n'
	cat "$W/page.raw"
} >"$W/page.blk"
PAGE_DIGEST="sha1:$(sha1b32 "$W/page.body")"
OTHER_DIGEST="sha1:$(sha1b32 "$W/info.blk")"
printf '<p>gone</p>\n' >"$W/missing.body"
{
	printf 'HTTP/1.1 404 Not Found\r\nContent-Type: text/html\r\n'
	printf 'Content-Length: 12\r\n\r\n'
	cat "$W/missing.body"
} >"$W/missing.blk"
printf 'A note, served as it is.\n' >"$W/note.blk"
printf 'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\n' >"$W/revisit.blk"
printf 'via: hand\r\n' >"$W/meta.blk"

record "$W/r1" warcinfo "" application/warc-fields "$W/info.blk"
record "$W/r2" request http://a.test/page "$H;msgtype=request" "$W/req.blk"
record "$W/r3" response http://a.test/page "$H;msgtype=response" \
    "$W/page.blk" "$PAGE_DIGEST"
record "$W/r4" response http://a.test/missing "$H;msgtype=response" \
    "$W/missing.blk" "sha1:$(sha1b32 "$W/missing.body")"
record "$W/r5" resource http://a.test/note.txt text/plain "$W/note.blk" \
    "sha1:$(sha1b32 "$W/note.blk")"
record "$W/r6" revisit http://a.test/page "$H;msgtype=response" \
    "$W/revisit.blk" "$PAGE_DIGEST" \
    'WARC-Profile: http://netpreserve.org/warc/1.1/revisit/identical-payload-digest'
record "$W/r7" metadata http://a.test/page application/warc-fields \
    "$W/meta.blk"
sed '/^WARC-Block-Digest/d' "$W/r7" >"$W/r7.nodigest"
mv "$W/r7.nodigest" "$W/r7"

TAB=$(printf '\t')
EXPECTED=$(printf '%s\n' \
    "warcinfo$TAB-$TAB-${TAB}ok$TAB-" \
    "request${TAB}http://a.test/page$TAB-${TAB}ok$TAB-" \
    "response${TAB}http://a.test/page${TAB}ok${TAB}ok${TAB}200" \
    "response${TAB}http://a.test/missing${TAB}ok${TAB}ok${TAB}404" \
    "resource${TAB}http://a.test/note.txt${TAB}ok${TAB}ok$TAB-" \
    "revisit${TAB}http://a.test/page$TAB-${TAB}ok${TAB}200" \
    "metadata${TAB}http://a.test/page$TAB-$TAB-$TAB-")

# gz: each record a gzip member of its own; plain: the records as they are.
gzwarc() {
	_out=$1
	shift
	for _r in "$@"; do
		gzip -n -c "$_r"
	done >"$_out"
}
gzwarc "$W/hand.warc.gz" "$W"/r1 "$W"/r2 "$W"/r3 "$W"/r4 "$W"/r5 "$W"/r6 \
    "$W"/r7
cat "$W"/r1 "$W"/r2 "$W"/r3 "$W"/r4 "$W"/r5 "$W"/r6 "$W"/r7 >"$W/hand.warc"

eq "hand-made gzip WARC: exit 0" "$(chk "$W/hand.warc.gz")" 0
eq "hand-made gzip WARC: one line per record, every digest right" \
    "$(cat "$W/out")" "$EXPECTED"
eq "hand-made gzip WARC: nothing on stderr" "$(cat "$W/err")" ""
eq "hand-made plain WARC: exit 0" "$(chk "$W/hand.warc")" 0
eq "hand-made plain WARC: the same lines" "$(cat "$W/out")" "$EXPECTED"
eq "two files: exit 0, the lines of both" \
    "$(chk "$W/hand.warc" "$W/hand.warc.gz") $(wc -l <"$W/out" | tr -d ' ')" \
    "0 14"

# A wrong payload digest, a wrong block digest: "bad", exit 1, the other
# records still listed.
sed "s/^WARC-Payload-Digest: .*/WARC-Payload-Digest: $OTHER_DIGEST\r/" \
    "$W/r4" >"$W/r4.bad"
gzwarc "$W/bad-payload.warc.gz" "$W"/r1 "$W"/r3 "$W"/r4.bad "$W"/r5
eq "wrong payload digest: exit 1" "$(chk "$W/bad-payload.warc.gz")" 1
eq "wrong payload digest: bad in its column, the rest ok" \
    "$(cut -f 3,4 "$W/out" | tr '\t\n' '  ')" "- ok ok ok bad ok ok ok "
ok "wrong payload digest: said on stderr" \
    grep -q 'record 3 .*Payload-Digest does not match' "$W/err"
sed "s/^WARC-Block-Digest: .*/WARC-Block-Digest: $OTHER_DIGEST\r/" \
    "$W/r5" >"$W/r5.bad"
gzwarc "$W/bad-block.warc.gz" "$W"/r3 "$W"/r5.bad
eq "wrong block digest: exit 1" "$(chk "$W/bad-block.warc.gz")" 1
eq "wrong block digest: bad in its column" \
    "$(cut -f 3,4 "$W/out" | tr '\t\n' '  ')" "ok ok ok bad "
# One byte of a body changed, the digests kept: both go bad.
sed 's/WARC world/WARC World/' "$W/r3" >"$W/r3.bad"
gzwarc "$W/bad-body.warc.gz" "$W"/r3.bad
eq "a changed body: exit 1" "$(chk "$W/bad-body.warc.gz")" 1
eq "a changed body: both digests bad" "$(cut -f 3,4 "$W/out")" "bad${TAB}bad"
# A payload digest over the chunked body as sent is not the payload's.
record "$W/r3.raw" response http://a.test/page "$H;msgtype=response" \
    "$W/page.blk" "sha1:$(sha1b32 "$W/page.raw")"
gzwarc "$W/raw-chunked.warc.gz" "$W"/r3.raw
eq "payload digest of the still-chunked body: exit 1" \
    "$(chk "$W/raw-chunked.warc.gz")" 1
eq "payload digest of the still-chunked body: 'chunked'" \
    "$(cut -f 3 "$W/out")" chunked
eq "... exit 0 with --accept-chunked-digest" \
    "$(chk --accept-chunked-digest "$W/raw-chunked.warc.gz")" 0

# Broken files: cut short, one gzip member for all, not a WARC, empty.
size=$(wc -c <"$W/hand.warc.gz" | tr -d ' ')
head -c $((size - 30)) "$W/hand.warc.gz" >"$W/cut.warc.gz"
eq "a gzip WARC cut short: exit 1" "$(chk "$W/cut.warc.gz")" 1
size=$(wc -c <"$W/hand.warc" | tr -d ' ')
head -c $((size - 10)) "$W/hand.warc" >"$W/cut.warc"
eq "a plain WARC cut short: exit 1" "$(chk "$W/cut.warc")" 1
ok "... said on stderr" grep -q 'Content-Length says' "$W/err"
gzip -n -c "$W/hand.warc" >"$W/one-member.warc.gz"
eq "one gzip member around every record: exit 1" \
    "$(chk "$W/one-member.warc.gz")" 1
{ cat "$W/hand.warc.gz"; printf 'junk\n'; } >"$W/junk.warc.gz"
eq "bytes after the last gzip member: exit 1" "$(chk "$W/junk.warc.gz")" 1
printf '<html>not a WARC</html>\n' >"$W/page.html"
eq "not a WARC: exit 1" "$(chk "$W/page.html")" 1
: >"$W/empty.warc"
eq "an empty file: exit 1" "$(chk "$W/empty.warc")" 1
eq "a missing file: exit 1" "$(chk "$W/nope.warc")" 1
eq "no file: usage, exit 2" "$(chk)" 2

# warcio's CDXJ index of the hand-made file: the two captures of /page
# (response, revisit) and /missing and the resource; the request and
# warcinfo are not indexed.
eq "--cdxj: exit 0" "$(chk --cdxj "$W/hand.warc.gz")" 0
eq "--cdxj: SURT key, time, url, mime, status, digest of each capture" \
    "$(cdxj_fields url mime status digest filename <"$W/out")" \
    "test,a)/page 20240506070809 http://a.test/page text/plain 200 ${PAGE_DIGEST#sha1:} hand.warc.gz
test,a)/missing 20240506070809 http://a.test/missing text/html 404 $(sha1b32 "$W/missing.body") hand.warc.gz
test,a)/note.txt 20240506070809 http://a.test/note.txt text/plain - $(sha1b32 "$W/note.blk") hand.warc.gz
test,a)/page 20240506070809 http://a.test/page warc/revisit 200 ${PAGE_DIGEST#sha1:} hand.warc.gz"

# --- GNU wget's WARC of a small site on the test server --------------------

mkdir "$E2E_TMP/site"
S=$E2E_TMP/site
printf 'User-agent: *\nDisallow: /private/\n' >"$S/robots.txt"
printf '<html><body><p>home</p><a href="a.html">a</a> <a href="b.html">b</a>
<a href="missing.html">gone</a> <a href="/__nc/big/3000?chunked=1">big</a>
</body></html>\n' >"$S/index.html"
printf '<html><body><p>page a</p><a href="b.html">b</a></body></html>\n' \
    >"$S/a.html"
printf '<html><body><p>page b</p><a href="/">home</a></body></html>\n' \
    >"$S/b.html"
e2e_start_server "$S"
U=http://127.0.0.1:$PORT
WGET="wget --no-config --no-proxy --quiet --timeout=10 --tries=1"

(cd "$E2E_TMP" && $WGET --recursive --level=2 --directory-prefix=mirror \
    --warc-file=wget --warc-cdx --no-warc-keep-log "$U/")
eq "wget -r exits 8 (the link to a missing page)" "$?" 8
ok "wget wrote a gzip WARC" test -s "$E2E_TMP/wget.warc.gz"

eq "wget's WARC: exit 1 (its payload digest of a chunked body)" \
    "$(chk "$E2E_TMP/wget.warc.gz")" 1
eq "wget's WARC: only the chunked response is held against it" \
    "$(awk -F '\t' '$3 != "ok" && $3 != "-" || $4 != "ok"' "$W/out")" \
    "response${TAB}$U/__nc/big/3000?chunked=1${TAB}chunked${TAB}ok${TAB}200"
eq "wget's WARC with --accept-chunked-digest: exit 0" \
    "$(chk --accept-chunked-digest "$E2E_TMP/wget.warc.gz")" 0
eq "wget's WARC: nothing on stderr" "$(cat "$W/err")" ""
out=$(cat "$W/out")
eq "wget's WARC: a response record per request the server logged" \
    "$(printf '%s\n' "$out" | grep -c "^response$TAB")" \
    "$(wc -l <"$SERVER_LOG" | tr -d ' ')"
eq "wget's WARC: a request record per response" \
    "$(printf '%s\n' "$out" | grep -c "^request$TAB")" \
    "$(printf '%s\n' "$out" | grep -c "^response$TAB")"
for want in "$U/ ok ok 200" "$U/robots.txt ok ok 200" "$U/a.html ok ok 200" \
    "$U/b.html ok ok 200" "$U/missing.html ok ok 404"; do
	eq "wget's WARC: response $want" "$(printf '%s\n' "$out" |
	    awk -F '\t' -v u="${want%% *}" '$1 == "response" && $2 == u {
	    print $2, $3, $4, $5 }')" "$want"
done
eq "wget's WARC opens with its warcinfo record" \
    "$(printf '%s\n' "$out" | head -n 1)" "warcinfo$TAB-$TAB-${TAB}ok$TAB-"

# warcio's index and wget's own CDX name the same captures: URL, status,
# payload digest and the offset of the request record each capture starts at.
eq "--cdxj of wget's WARC: exit 0" "$(chk --cdxj "$E2E_TMP/wget.warc.gz")" 0
cdxj_fields url status digest offset <"$W/out" |
    awk '$4 != "-" { print $3, $4, $5, $6 }' | sort >"$W/warcio.idx"
awk 'NR > 1 { print $3, $5, $6, $9 }' "$E2E_TMP/wget.cdx" | sort >"$W/wget.idx"
eq "--cdxj agrees with wget's CDX on url, status, digest, offset" \
    "$(diff "$W/warcio.idx" "$W/wget.idx" && wc -l <"$W/wget.idx" | tr -d ' ')" 6

(cd "$E2E_TMP" && $WGET --no-warc-compression --warc-file=plain \
    --no-warc-keep-log --output-document=/dev/null "$U/a.html")
eq "wget --no-warc-compression exits 0" "$?" 0
eq "wget's plain WARC: exit 0" "$(chk "$E2E_TMP/plain.warc")" 0
eq "wget's plain WARC: its response read, digests right" \
    "$(grep "^response$TAB" "$W/out")" \
    "response$TAB$U/a.html${TAB}ok${TAB}ok${TAB}200"

e2e_finish
