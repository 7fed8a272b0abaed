#!/bin/sh
# Self-test of the test server: start ncserver on a temporary fixture root,
# probe its routes with curl, stop it with SIGTERM. Builds nothing.
#
#   tests/server/smoke.sh [path/to/ncserver]     (default build/plain/ncserver)
#
# The last line is "N passed, N failed"; the exit status is 0 only if every
# check passed.

BIN=${1:-build/plain/ncserver}
PASS=0
FAIL=0
SRV_PID=
TMP=$(mktemp -d "${TMPDIR:-/tmp}/ncsmoke.XXXXXX") || exit 1

# shellcheck disable=SC2317 # called through trap
cleanup() {
	# Never leave a server behind, whatever happened above.
	if [ -n "$SRV_PID" ] && kill -0 "$SRV_PID" 2>/dev/null; then
		kill -TERM "$SRV_PID" 2>/dev/null
		sleep 0.2
		kill -KILL "$SRV_PID" 2>/dev/null
	fi
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

ok() {
	PASS=$((PASS + 1))
	echo "ok   $1"
}

bad() {
	FAIL=$((FAIL + 1))
	echo "FAIL $1${2:+: $2}"
}

# expect NAME GOT WANT
expect() {
	if [ "$2" = "$3" ]; then ok "$1"; else bad "$1" "got '$2', want '$3'"; fi
}

# expect_match NAME TEXT EXTENDED-REGEX
expect_match() {
	if printf '%s\n' "$2" | grep -Eq -- "$3"; then
		ok "$1"
	else
		bad "$1" "'$(printf '%s' "$2" | head -c 200)' does not match /$3/"
	fi
}

finish() {
	echo "$PASS passed, $FAIL failed"
	[ "$FAIL" -eq 0 ]
	exit $?
}

if [ ! -x "$BIN" ]; then
	bad "server binary $BIN exists" "build it with: make build/plain/ncserver"
	finish
fi

# Fixture root: two virtual hosts and a shared root index.
ROOT=$TMP/root
mkdir -p "$ROOT/site-a.test/docs" "$ROOT/site-b.test"
printf '<html><body><p>shared root</p></body></html>\n' >"$ROOT/index.html"
printf '<html><body><p>site A home</p></body></html>\n' \
    >"$ROOT/site-a.test/index.html"
printf '<html><body><p>site A docs</p></body></html>\n' \
    >"$ROOT/site-a.test/docs/index.html"
printf '<html><body><p>caf\351 latin-1</p></body></html>\n' \
    >"$ROOT/site-a.test/latin.html"
printf 'Content-Type: text/html; charset=iso-8859-1\nX-Robots-Tag: nofollow\n' \
    >"$ROOT/site-a.test/latin.html.headers"
printf '<html><body><p>site B home</p></body></html>\n' \
    >"$ROOT/site-b.test/index.html"
printf '<html><body><p>results for thesis</p></body></html>\n' \
    >"$ROOT/site-a.test/docs/index.html?q=thesis"
printf 'User-agent: *\nDisallow: /private/\n' >"$ROOT/site-b.test/robots.txt"
printf 'secret\n' >"$TMP/outside.txt"
# A .route file makes a fixed path play a scripted route.
printf '/__nc/big/600000?as=robots\n' >"$ROOT/site-b.test/big-robots.txt.route"
printf '/__nc/status/418\n' >"$ROOT/site-b.test/teapot.html.route"
printf 'not a route\n' >"$ROOT/site-b.test/bad.html.route"
# Validators: a plain file with a known mtime, one whose .headers sets its
# own, one whose .headers removes them, one whose .headers makes it a 410.
printf '<html><body><p>version one</p></body></html>\n' \
    >"$ROOT/site-a.test/cond.html"
touch -d @1700000000 "$ROOT/site-a.test/cond.html"
printf 'x\n' >"$ROOT/site-a.test/own-tag.html"
printf 'ETag: "fixture-v1"\nLast-Modified: Mon, 01 Jan 2001 00:00:00 GMT\n' \
    >"$ROOT/site-a.test/own-tag.html.headers"
printf 'x\n' >"$ROOT/site-a.test/no-tag.html"
printf 'ETag:\nLast-Modified:\n' >"$ROOT/site-a.test/no-tag.html.headers"
printf 'x\n' >"$ROOT/site-a.test/gone.html"
printf 'Status: 410\n' >"$ROOT/site-a.test/gone.html.headers"

# Refuses to listen outside loopback.
"$BIN" --root "$ROOT" --addr 192.0.2.1 --quiet 2>/dev/null
expect "refuses a non-loopback --addr (exit 2)" "$?" 2
"$BIN" --root "$TMP/missing" --quiet 2>/dev/null
expect "refuses a missing --root (exit 2)" "$?" 2

"$BIN" --root "$ROOT" --port 0 --port-file "$TMP/port" --log "$TMP/log" \
    --quiet &
SRV_PID=$!
i=0
while [ ! -s "$TMP/port" ] && [ $i -lt 100 ]; do
	sleep 0.05
	i=$((i + 1))
done
if [ ! -s "$TMP/port" ]; then
	bad "server writes its port file"
	finish
fi
PORT=$(cat "$TMP/port")
expect_match "port file holds a port number" "$PORT" '^[0-9]+$'

A=http://site-a.test:$PORT
B=http://site-b.test:$PORT
L=http://127.0.0.1:$PORT
C="curl -s --max-time 10 --resolve site-a.test:$PORT:127.0.0.1 \
    --resolve site-b.test:$PORT:127.0.0.1"

# Static files by Host header.
expect_match "site A index" "$($C "$A/")" "site A home"
expect_match "site B index" "$($C "$B/")" "site B home"
expect_match "no host directory: shared root" "$($C "$L/")" "shared root"
expect_match "host header with upper case and port" \
    "$($C -H "Host: SITE-B.test:$PORT" "$L/")" "site B home"
expect_match "robots.txt is text/plain" \
    "$($C -o /dev/null -w '%{content_type}' "$B/robots.txt")" '^text/plain'
expect "index.html is text/html; charset=utf-8" \
    "$($C -o /dev/null -w '%{content_type}' "$A/")" "text/html; charset=utf-8"
expect "directory without slash redirects" \
    "$($C -o /dev/null -w '%{http_code} %{redirect_url}' "$A/docs")" \
    "301 $A/docs/"

# The query string never changes a static file.
plain=$($C "$A/docs/" | cksum)
tracked=$($C "$A/docs/?utm_source=x&sessionid=42" | cksum)
expect "query string ignored" "$tracked" "$plain"
# ... unless a file is named for that exact query.
expect_match "a file named for the query answers it" \
    "$($C "$A/docs/?q=thesis")" "results for thesis"
expect "the query file keeps its path's type" \
    "$($C -o /dev/null -w '%{content_type}' "$A/docs/?q=thesis")" \
    "text/html; charset=utf-8"
expect "another query gets the plain file" \
    "$($C "$A/docs/?q=thesis&page=2" | cksum)" "$plain"

# A .headers file overrides response headers.
hdrs=$($C -D - -o /dev/null "$A/latin.html" | tr -d '\r')
expect_match ".headers sets Content-Type" "$hdrs" \
    '^Content-Type: text/html; charset=iso-8859-1$'
expect_match ".headers adds X-Robots-Tag" "$hdrs" '^X-Robots-Tag: nofollow$'
expect "the .headers file itself is not served" \
    "$($C -o /dev/null -w '%{http_code}' "$A/latin.html.headers")" 404

# Validators and conditional GET (cond.c).
CF=$ROOT/site-a.test/cond.html
hdr() { # hdr NAME CURL-ARGS...: the value of response header NAME
	_h=$1
	shift
	$C -D - -o /dev/null "$@" | tr -d '\r' |
	    sed -n "s/^$_h: //Ip" | head -n 1
}
tag=$(hdr ETag "$A/cond.html")
expect_match "a static file has a strong ETag (size-mtime.nsec-inode)" \
    "$tag" '^"[0-9a-f]+-[0-9a-f]+\.[0-9a-f]+-[0-9a-f]+"$'
expect "the ETag starts with the size and mtime in hex" \
    "$(printf '%s' "$tag" | cut -d. -f1)" \
    "\"$(printf '%x-%x' "$(wc -c <"$CF")" 1700000000)"
expect "Last-Modified is the mtime as an IMF-fixdate" \
    "$(hdr Last-Modified "$A/cond.html")" "Tue, 14 Nov 2023 22:13:20 GMT"
expect "If-None-Match with the ETag: 304, no body" \
    "$($C -o /dev/null -w '%{http_code} %{size_download}' \
    -H "If-None-Match: $tag" "$A/cond.html")" "304 0"
nm=$($C -D - -o /dev/null -H "If-None-Match: $tag" "$A/cond.html" | tr -d '\r')
expect_match "the 304 keeps the ETag" "$nm" "^ETag: $tag\$"
expect_match "the 304 keeps Last-Modified" "$nm" \
    '^Last-Modified: Tue, 14 Nov 2023 22:13:20 GMT$'
expect "the 304 has no Content-Type" \
    "$(printf '%s\n' "$nm" | grep -ci '^content-type:')" 0
expect "HEAD with If-None-Match: 304" "$($C -I -o /dev/null \
    -w '%{http_code}' -H "If-None-Match: $tag" "$A/cond.html")" 304
expect "If-None-Match list, weak prefix: 304" "$($C -o /dev/null \
    -w '%{http_code}' -H "If-None-Match: \"other\", W/$tag" \
    "$A/cond.html")" 304
expect "If-None-Match: * matches any file" "$($C -o /dev/null \
    -w '%{http_code}' -H 'If-None-Match: *' "$A/cond.html")" 304
expect "If-None-Match with another tag: 200 and the body" \
    "$($C -o /dev/null -w '%{http_code} %{size_download}' \
    -H 'If-None-Match: "other"' "$A/cond.html")" "200 $(wc -c <"$CF")"
ims() { # ims DATE [CURL-ARGS...]: status for an If-Modified-Since request
	_d=$1
	shift
	$C -o /dev/null -w '%{http_code}' -H "If-Modified-Since: $_d" "$@" \
	    "$A/cond.html"
}
expect "If-Modified-Since = mtime: 304" \
    "$(ims 'Tue, 14 Nov 2023 22:13:20 GMT')" 304
expect "If-Modified-Since after mtime: 304" \
    "$(ims 'Wed, 15 Nov 2023 00:00:00 GMT')" 304
expect "If-Modified-Since in RFC 850 and asctime form: 304 304" \
    "$(ims 'Tuesday, 14-Nov-23 22:13:20 GMT') $(ims 'Tue Nov 14 22:13:20 2023')" \
    "304 304"
expect "If-Modified-Since a second before mtime: 200" \
    "$(ims 'Tue, 14 Nov 2023 22:13:19 GMT')" 200
expect "If-Modified-Since not a date: 200" "$(ims 'yesterday')" 200
expect "If-None-Match wins over If-Modified-Since" \
    "$(ims 'Wed, 15 Nov 2023 00:00:00 GMT' -H 'If-None-Match: "other"')" 200
# A new mtime, even in the same second, or new bytes: a new ETag.
touch -d @1700000000.5 "$CF"
tag2=$(hdr ETag "$A/cond.html")
expect "a touch within the same second changes the ETag" \
    "$([ -n "$tag2" ] && [ "$tag2" != "$tag" ] && echo changed)" changed
expect "the old ETag after a touch: 200" "$($C -o /dev/null -w '%{http_code}' \
    -H "If-None-Match: $tag" "$A/cond.html")" 200
expect "the new ETag after a touch: 304" "$($C -o /dev/null \
    -w '%{http_code}' -H "If-None-Match: $tag2" "$A/cond.html")" 304
printf '<html><body><p>version two</p></body></html>\n' >"$CF"
expect "rewritten file, old ETag: 200 and the new bytes" \
    "$($C -H "If-None-Match: $tag2" "$A/cond.html")" \
    '<html><body><p>version two</p></body></html>'
expect "rewritten file, old If-Modified-Since: 200" \
    "$(ims 'Tue, 14 Nov 2023 22:13:20 GMT')" 200
# .headers may set the validators or drop them (an empty value).
expect ".headers sets the ETag" "$(hdr ETag "$A/own-tag.html")" '"fixture-v1"'
expect ".headers ETag is what If-None-Match compares" "$($C -o /dev/null \
    -w '%{http_code}' -H 'If-None-Match: "fixture-v1"' "$A/own-tag.html")" 304
expect ".headers Last-Modified is what If-Modified-Since compares" \
    "$($C -o /dev/null -w '%{http_code}' \
    -H 'If-Modified-Since: Mon, 01 Jan 2001 00:00:00 GMT' \
    "$A/own-tag.html")" 304
nt=$($C -D - -o /dev/null "$A/no-tag.html" | tr -d '\r')
expect "an empty value in .headers removes ETag and Last-Modified" \
    "$(printf '%s\n' "$nt" | grep -ci '^etag:\|^last-modified:')" 0
expect "no Last-Modified: If-Modified-Since is ignored" "$($C -o /dev/null \
    -w '%{http_code}' -H 'If-Modified-Since: Fri, 01 Jan 9999 00:00:00 GMT' \
    "$A/no-tag.html")" 200
expect "no 304 for a file whose .headers makes it a 410" "$($C -o /dev/null \
    -w '%{http_code}' -H 'If-None-Match: *' "$A/gone.html")" 410

# Errors.
expect "missing file is 404" \
    "$($C -o /dev/null -w '%{http_code}' "$A/nope.html")" 404
expect_match "404 has an HTML body" "$($C "$A/nope.html")" '<h1>Not Found</h1>'
expect "dot-dot is 403" "$($C --path-as-is -o /dev/null -w '%{http_code}' \
    "$L/../outside.txt")" 403
expect "encoded dot-dot is 403" \
    "$($C -o /dev/null -w '%{http_code}' "$L/%2e%2e/outside.txt")" 403

# Scripted routes.
expect "status/503" \
    "$($C -o /dev/null -w '%{http_code}' "$A/__nc/status/503")" 503
expect "status/404" \
    "$($C -o /dev/null -w '%{http_code}' "$B/__nc/status/404")" 404
expect "redirect/301 Location is decoded" "$($C -o /dev/null \
    -w '%{http_code} %{redirect_url}' \
    "$A/__nc/redirect/301?to=http%3A%2F%2Fsite-b.test%3A$PORT%2Fx%3Fa%3D1")" \
    "301 http://site-b.test:$PORT/x?a=1"
expect "redirect/308" \
    "$($C -o /dev/null -w '%{http_code}' "$A/__nc/redirect/308?to=/")" 308
expect "loop/3 goes to loop/4" \
    "$($C -o /dev/null -w '%{redirect_url}' "$A/__nc/loop/3")" \
    "$A/__nc/loop/4"
retry=$($C -D - -o /dev/null "$A/__nc/retry/7" | tr -d '\r')
expect_match "retry answers 503" "$retry" '^HTTP/1.1 503'
expect_match "retry sends Retry-After" "$retry" '^Retry-After: 7$'

cal=$($C "$A/__nc/calendar/2024/12")
expect_match "calendar title" "$cal" '<title>Events calendar 2024-12</title>'
expect_match "calendar sentence" "$cal" \
    'No events are scheduled for December 2024\.'
expect_match "calendar links to previous month" "$cal" \
    'href="/__nc/calendar/2024/11"'
expect_match "calendar links to next month" "$cal" \
    'href="/__nc/calendar/2025/01"'
expect_match "calendar links home" "$cal" 'href="/"'
expect_match "calendar has day 31" "$cal" '<td>31</td>'
expect "calendar is deterministic" \
    "$($C "$A/__nc/calendar/2024/12" | cksum)" "$(printf '%s\n' "$cal" | cksum)"
expect "calendar month 13 is 404" \
    "$($C -o /dev/null -w '%{http_code}' "$A/__nc/calendar/2024/13")" 404

# Traps (traps.c).
s1=$($C "$A/__nc/session/3?sid=1")
expect_match "session page" "$s1" '<h1>Library guide 3</h1>'
expect_match "session links carry ?sid=" "$s1" \
    'href="/__nc/session/7\?sid=[0-9A-F]{16}"'
expect_match "session links carry ;jsessionid=" "$s1" \
    'href="/__nc/session/0;jsessionid=[0-9A-F]{16}"'
expect "session text does not depend on the id" \
    "$($C "$A/__nc/session/3;jsessionid=X" | sed 's/=[0-9A-F]*"/"/g' | cksum)" \
    "$(printf '%s\n' "$s1" | sed 's/=[0-9A-F]*"/"/g' | cksum)"
expect "session 8 is 404" \
    "$($C -o /dev/null -w '%{http_code}' "$A/__nc/session/8")" 404
expect_match "sessredir adds a session by redirect" \
    "$($C -o /dev/null -w '%{http_code} %{redirect_url}' "$A/__nc/sessredir/2")" \
    "^302 $A/__nc/sessredir/2;jsessionid=[0-9A-F]{16}\$"
expect_match "sessredir keeps the session in its links" \
    "$($C "$A/__nc/sessredir/2;jsessionid=AB12")" \
    'href="/__nc/sessredir/3;jsessionid=AB12"'
pg=$($C "$A/__nc/pager?page=9")
expect_match "pager says there is nothing more" "$pg" 'no more results'
expect_match "pager links to the next page" "$pg" \
    'href="/__nc/pager\?page=10"'
expect_match "pager page 2 has results" "$($C "$A/__nc/pager?page=2")" \
    '<h2>Result 11</h2>'
expect "pager page 0 is 404" \
    "$($C -o /dev/null -w '%{http_code}' "$A/__nc/pager?page=0")" 404
fc=$($C "$A/__nc/facets?color=red&size=m&sort=price&view=grid")
expect_match "facets filter" "$fc" 'red, size m, 51 euros'
expect "facets show only the matching products" \
    "$(printf '%s\n' "$fc" | grep -c 'red, size m,')" 3
expect_match "facets link to other values" "$fc" \
    'href="/__nc/facets\?color=red&amp;size=m&amp;sort=new&amp;view=grid"'
expect_match "deeper/repeat links a/b/" \
    "$($C "$A/__nc/deeper/repeat/a/b/")" 'href="a/b/"'
expect_match "deeper/grow links one number deeper" \
    "$($C "$A/__nc/deeper/grow/1/2/")" 'href="3/"'
expect_match "deeper/long adds 100 bytes a level" \
    "$($C "$A/__nc/deeper/long/")" 'href="01-x{96}/"'
expect "deeper/other is 404" \
    "$($C -o /dev/null -w '%{http_code}' "$A/__nc/deeper/other/")" 404

expect "big/123457 is exactly that long" \
    "$($C -o /dev/null -w '%{size_download}' "$A/__nc/big/123457")" 123457
expect "gzip/2000000 inflates to exactly that" \
    "$($C --compressed "$A/__nc/gzip/2000000" | wc -c | tr -d ' ')" 2000000
gzraw=$($C -o /dev/null -w '%{size_download}' "$A/__nc/gzip/2000000")
if [ "$gzraw" -gt 0 ] && [ "$gzraw" -lt 100000 ]; then
	ok "gzip/2000000 is small on the wire ($gzraw bytes)"
else
	bad "gzip/2000000 is small on the wire" "$gzraw bytes"
fi
expect "slow/4?rate=20 sends 4 bytes" \
    "$($C -o /dev/null -w '%{size_download}' "$A/__nc/slow/4?rate=20")" 4
expect "binary is deterministic" "$($C "$A/__nc/binary" | cksum)" \
    "$($C "$B/__nc/binary" | cksum)"
hsize=$($C -o /dev/null -w '%{size_header}' "$A/__nc/headers/20000")
if [ "$hsize" -ge 20000 ]; then ok "headers/20000 sends big headers"
else bad "headers/20000 sends big headers" "$hsize bytes"; fi
expect "endless keeps sending" \
    "$($C "$A/__nc/endless" 2>/dev/null | head -c 1000000 | wc -c | tr -d ' ')" \
    1000000
$C --max-time 1 -o /dev/null "$A/__nc/silent"
expect "silent never answers (curl times out)" "$?" 28
expect "server still answers after silent/endless" \
    "$($C -o /dev/null -w '%{http_code}' "$B/")" 200

# Routes behind .route files.
rb=$($C "$B/big-robots.txt")
expect "a .route file answers for its path" \
    "$($C -o /dev/null -w '%{http_code} %{size_download} %{content_type}' \
    "$B/big-robots.txt")" "200 600000 text/plain; charset=utf-8"
expect "big robots.txt starts with its rule" "$(printf '%s\n' "$rb" | head -n 2)" \
    "$(printf 'User-agent: *\nDisallow: /private/')"
expect "big robots.txt ends with the late rule" \
    "$(printf '%s\n' "$rb" | tail -n 1)" "Disallow: /late/"
expect "a .route file with a status route" \
    "$($C -o /dev/null -w '%{http_code}' "$B/teapot.html")" 418
expect "a .route file naming no route is 404" \
    "$($C -o /dev/null -w '%{http_code}' "$B/bad.html")" 404
expect "the .route file itself is not served" \
    "$($C -o /dev/null -w '%{http_code}' "$B/teapot.html.route")" 404

# Hostile endings and generated pages.
expect "chain/3: three redirects to chain/0" \
    "$($C -L -o /dev/null -w '%{num_redirects} %{http_code} %{url_effective}' \
    "$A/__nc/chain/3")" "3 200 $A/__nc/chain/0"
expect "length/20000/5000: 5000 bytes, then closed (curl 18)" \
    "$($C -o /dev/null -w '%{size_download}' "$A/__nc/length/20000/5000"; \
    echo " $?")" "5000 18"
expect "length/5000/20000: curl takes the declared 5000" \
    "$($C -o /dev/null -w '%{size_download}' "$A/__nc/length/5000/20000"; \
    echo " $?")" "5000 0"
expect "reset/5000: reset mid-body (curl 56)" \
    "$($C -o /dev/null -w '%{size_download}' "$A/__nc/reset/5000"; \
    echo " $?")" "5000 56"
tr=$($C -D - -o /dev/null "$A/__nc/truncated/5000"; echo "exit $?")
expect_match "truncated/5000 is chunked" "$(printf '%s' "$tr" | tr -d '\r')" \
    '^Transfer-Encoding: chunked$'
expect_match "truncated/5000 ends without its last chunk (curl 18)" "$tr" \
    'exit 18$'
expect "big/300000?chunked=1 is chunked and exactly that long" \
    "$($C -D "$TMP/h" -o /dev/null -w '%{size_download}' \
    "$A/__nc/big/300000?chunked=1") $(grep -ci '^transfer-encoding: chunked' \
    "$TMP/h")" "300000 1"
expect "links/100000 has 100000 links" \
    "$($C "$A/__nc/links/100000" | grep -c '<li><a href="/link/[0-9]*">')" \
    100000
expect_match "links/3?base= prefixes each href" \
    "$($C "$A/__nc/links/3?base=http%3A%2F%2Fx.test%2Fp")" \
    '<a href="http://x.test/p3">Link 3</a>'
expect "links with a quote in base is 400" \
    "$($C -o /dev/null -w '%{http_code}' "$A/__nc/links/3?base=%22")" 400
expect_match "nested/3 nests three deep" "$($C "$A/__nc/nested/3")" \
    '<div><div><div><p>At the bottom of 3 nested elements.</p></div></div></div>'
expect "nested/100000 opens and closes 100000 elements" \
    "$($C "$A/__nc/nested/100000" | grep -o '<div>\|</div>' | sort | uniq -c \
    | awk '{ printf "%s ", $1 }')" "100000 100000 "
$C -D "$TMP/eh" "$A/__nc/endless?as=robots" 2>/dev/null | head -c 1000000 \
    >"$TMP/er"
expect "endless?as=robots is text/plain and keeps sending" \
    "$(grep -i '^content-type:' "$TMP/eh" | tr -d '\r') $(wc -c <"$TMP/er" \
    | tr -d ' ')" "Content-Type: text/plain; charset=utf-8 1000000"
expect "endless?as=robots starts with its rule" \
    "$(head -n 2 "$TMP/er" | tr '\n' ' ')" "User-agent: * Disallow: /private/ "

# The procedural site on hosts proc.*: generated, deterministic, endless.
PR=http://proc.test:$PORT
PC="$C --resolve proc.test:$PORT:127.0.0.1"
expect_match "proc robots.txt" "$($PC "$PR/robots.txt")" '^Disallow: /search$'
home=$($PC "$PR/")
expect_match "proc home links to a section" "$home" 'href="/news/"'
first=$(printf '%s\n' "$home" | grep -o 'href="/[a-z]*/1-[a-z-]*\.html"' |
    head -n 1 | cut -d'"' -f2)
expect_match "proc home links to article 1" "$first" '^/[a-z]+/1-[a-z-]+\.html$'
art=$($PC "$PR$first")
expect_match "proc article has a heading" "$art" '^<h1>[A-Z][a-z ]+</h1>$'
expect_match "proc article has prose" "$art" '^<p>[A-Z][a-z]+ [a-z]'
expect "proc article is deterministic" "$($PC "$PR$first" | cksum)" \
    "$(printf '%s\n' "$art" | cksum)"
expect "proc ignores the query" "$($PC "$PR$first?utm_source=x" | cksum)" \
    "$(printf '%s\n' "$art" | cksum)"
words=$(printf '%s\n' "$art" | grep '^<p>[A-Z]' | wc -w)
if [ "$words" -ge 250 ]; then ok "proc article has hundreds of words ($words)"
else bad "proc article has hundreds of words" "$words"; fi
links=$(printf '%s\n' "$art" | grep -c 'href="/[a-z]*/[0-9]*-')
if [ "$links" -ge 10 ] && [ "$links" -le 20 ]; then
	ok "proc article links to 10-20 articles ($links)"
else
	bad "proc article links to 10-20 articles" "$links"
fi
expect "proc wrong slug is 404" "$($PC -o /dev/null -w '%{http_code}' \
    "${PR}${first%%-*}-no-such-slug.html")" 404
expect "proc wrong section is 404" "$($PC -o /dev/null -w '%{http_code}' \
    "$PR/sport/1-${first#*-}")" 404
expect "proc unknown path is 404" \
    "$($PC -o /dev/null -w '%{http_code}' "$PR/nope.html")" 404
far=$(printf '%s\n' "$art" | sed -n '/More stories/,/<\/ul>/p' |
    grep -o 'href="/[^"]*"' | head -n 1 | cut -d'"' -f2)
expect "proc 'more stories' link far away is served" \
    "$($PC -o /dev/null -w '%{http_code}' "$PR$far")" 200
expect_match "proc listings never end" \
    "$($PC "$PR/news/page/1000000.html")" 'href="/news/page/1000001.html"'
# Articles 1..20 (group 0 and the first of group 1) hold copies: same title, same bytes (exact)
# or other bytes (one sentence and the footer changed: near).
printf '%s\n' "$home" | grep -o 'href="/[a-z]*/[0-9]*-[a-z-]*\.html">[^<]*' |
    sed 's/^href="//; s/">/ /' >"$TMP/proc-teasers"
: >"$TMP/proc-sums"
while read -r url title; do
	printf '%s %s\n' "$($PC "$PR$url" | cksum | cut -d' ' -f1)" "$title" \
	    >>"$TMP/proc-sums"
done <"$TMP/proc-teasers"
same=$(sort "$TMP/proc-sums" | uniq -d | wc -l)
titles=$(cut -d' ' -f2- "$TMP/proc-sums" | sort | uniq -d | wc -l)
expect "proc group of 20 has exact copies" "$same" 2
expect "proc group of 20 has near copies (same title, other bytes)" \
    "$((titles - same))" 2

# The access log: one line per request, host lowercased without port,
# the User-Agent last, percent-encoded.
$C -A 'agent (x 100%)' -o /dev/null http://site-a.test:$PORT/agent.html
sleep 0.2
expect_match "log line format" "$(head -n 1 "$TMP/log")" \
    '^[0-9]+\.[0-9]{3} site-a\.test GET / 200 [0-9]+ curl/[^ ]+$'
expect_match "log User-Agent percent-encoded" "$(cat "$TMP/log")" \
    ' GET /agent\.html 404 [0-9]+ agent%20\(x%20100%25\)$'
expect_match "log host lowercased, port cut" "$(cat "$TMP/log")" \
    ' site-b\.test GET / 200 '
expect_match "log keeps the query" "$(cat "$TMP/log")" \
    ' GET /docs/\?utm_source=x&sessionid=42 200 '
expect_match "log records the silent request" "$(cat "$TMP/log")" \
    ' GET /__nc/silent 0 0 curl/[^ ]+$'
expect_match "log counts body bytes" "$(cat "$TMP/log")" \
    ' GET /__nc/big/123457 200 123457 curl/[^ ]+$'
expect_match "log keeps the path a .route file answered" "$(cat "$TMP/log")" \
    ' site-b\.test GET /teapot\.html 418 '
expect_match "log records a 304 with 0 bytes" "$(cat "$TMP/log")" \
    ' site-a\.test GET /cond\.html 304 0 curl/[^ ]+$'
expect_match "log records a 304 to HEAD" "$(cat "$TMP/log")" \
    ' site-a\.test HEAD /cond\.html 304 0 curl/[^ ]+$'
expect_match "log records a reset body as cut short" "$(cat "$TMP/log")" \
    ' GET /__nc/reset/5000 200 5000 curl/[^ ]+$'

# SIGTERM stops it cleanly.
kill -TERM "$SRV_PID"
i=0
while kill -0 "$SRV_PID" 2>/dev/null && [ $i -lt 100 ]; do
	sleep 0.05
	i=$((i + 1))
done
if kill -0 "$SRV_PID" 2>/dev/null; then
	bad "SIGTERM stops the server"
else
	wait "$SRV_PID"
	expect "SIGTERM exits with status 0" "$?" 0
	SRV_PID=
fi

finish
