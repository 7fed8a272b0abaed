#!/bin/sh
# Security: only http and https are ever fetched or queued, whatever a page,
# a redirect, robots.txt or a sitemap says; text that came from outside
# (pages, servers, databases, files, arguments) never reaches a terminal
# with its control bytes raw; and a crawl and a report write nothing but
# the database and the report directory.
. tests/e2e/lib.sh

ESC=$(printf '\033')
# esc_bytes FILE...: how many ESC bytes the files hold.
esc_bytes() {
	cat "$@" | tr -dc "$ESC" | wc -c | tr -d ' '
}

SITES="$E2E_TMP/sites"
H=www.hostile.test
mkdir -p "$SITES/$H" "$SITES/www.robofile.test" "$SITES/www.sitefile.test"
# Escapes every way a page can hold them, and links of every other scheme.
printf '%s\n' '<html><head><title>Bell&#7; and &#27;[2J&#x9b;clear</title>' \
    '</head><body><h1>Hostile &#27;]0;retitled&#7;</h1>' \
    '<p>Text &#27;[31m in red, &#155; and &#x85; too.</p>' \
    '<a href="/pct%1b%5b2J.html">percent</a>' \
    "<a href=\"/raw${ESC}[2J.html\">raw</a>" \
    '<a href="/ct.html">odd type</a>' \
    '<a href="/__nc/redirect/302?to=/x%1b%5b31m">escape redirect</a>' \
    '<a href="/__nc/redirect/302?to=file:///etc/passwd">file redirect</a>' \
    '<a href="/__nc/redirect/301?to=ftp://www.hostile.test/f">ftp redirect</a>' \
    '<a href="file:///etc/passwd">file</a>' \
    '<a href="FILE:///etc/shadow">FILE</a>' \
    '<a href=" file:///etc/group">file after a space</a>' \
    '<a href="ftp://www.hostile.test/x">ftp</a>' \
    '<a href="data:text/html,hello">data</a>' \
    '<a href="javascript:alert(1)">javascript</a>' \
    '<a href="gopher://www.hostile.test/">gopher</a>' \
    '<a href="view-source:http://www.hostile.test/">view-source</a>' \
    '</body></html>' >"$SITES/$H/index.html"
printf '<html><body><p>a page of an odd type</p></body></html>' \
    >"$SITES/$H/ct.html"
printf 'Content-Type: text/x-%s[31mred%s[0m\n' "$ESC" "$ESC" \
    >"$SITES/$H/ct.html.headers"
# robots.txt that redirects to a local file: never read, the host is not
# crawled (an unreachable robots.txt forbids everything).
printf 'User-agent: *\nAllow: /\n' >"$SITES/www.robofile.test/robots.txt"
printf 'Status: 302\nLocation: file:///etc/passwd\n' \
    >"$SITES/www.robofile.test/robots.txt.headers"
printf '<html><body><p>robofile</p></body></html>' \
    >"$SITES/www.robofile.test/index.html"
# Sitemaps of other schemes: never fetched.
printf 'User-agent: *\nAllow: /\nSitemap: file:///etc/passwd\nSitemap: ftp://www.sitefile.test/s.xml\n' \
    >"$SITES/www.sitefile.test/robots.txt"
printf '<html><body><p>sitefile</p></body></html>' \
    >"$SITES/www.sitefile.test/index.html"
e2e_start_server "$SITES"
R="--resolve $H:$PORT:127.0.0.1 --resolve www.robofile.test:$PORT:127.0.0.1
    --resolve www.sitefile.test:$PORT:127.0.0.1"

# The crawl runs with an empty working directory, TMPDIR and HOME, which
# must stay empty: it writes its database and nothing else.
mkdir "$E2E_TMP/cwd" "$E2E_TMP/tmp" "$E2E_TMP/home" "$E2E_TMP/db"
DB="$E2E_TMP/db/hostile.db"
OUT="$E2E_TMP/out"
NC=$(cd "$(dirname "$NEARCRAWL")" && pwd)/$(basename "$NEARCRAWL")
(
	cd "$E2E_TMP/cwd" || exit 99
	export TMPDIR="$E2E_TMP/tmp" HOME="$E2E_TMP/home"
	"$NC" crawl -d "$DB" --delay-ms 0 --sitemaps --retry-base-ms 50 \
	    --host-max-failures 2 $R "http://$H:$PORT/" \
	    "http://www.robofile.test:$PORT/" "http://www.sitefile.test:$PORT/" \
	    2>"$E2E_TMP/crawl.err" &&
	    "$NC" report -d "$DB" -o "$OUT" >"$E2E_TMP/report.out" \
	    2>"$E2E_TMP/report.err"
)
eq "crawl and report exit 0" "$?" 0

# ---- Schemes.
eq "only http(s) URLs queued" \
    "$(q "$DB" "SELECT count(*) FROM frontier WHERE url NOT LIKE 'http://%' AND url NOT LIKE 'https://%'")" 0
eq "only http(s) URLs fetched" \
    "$(q "$DB" "SELECT count(*) FROM pages WHERE url NOT LIKE 'http://%' AND url NOT LIKE 'https://%'")" 0
eq "redirect to file: is a row, not a fetch" \
    "$(q "$DB" "SELECT verdict || ': ' || reason FROM pages WHERE url LIKE '%to=file:%'")" \
    "redirect: target not followed: not http(s)"
eq "redirect to ftp: is a row, not a fetch" \
    "$(q "$DB" "SELECT verdict || ': ' || reason FROM pages WHERE url LIKE '%to=ftp:%'")" \
    "redirect: target not followed: not http(s)"
eq "robots.txt redirected to file: keeps its host out" \
    "$(grep -c 'www.robofile.test GET / ' "$SERVER_LOG")" 0
eq "the host was given up for it" \
    "$(q "$DB" "SELECT gave_up LIKE 'robots.txt unreachable%' FROM hosts WHERE host = 'www.robofile.test'")" 1
eq "sitemaps of other schemes: only the page was asked for" \
    "$(grep -c 'www.sitefile.test GET' "$SERVER_LOG")" 2
eq "every request was for a path on a test host" \
    "$(awk '($2 != "www.hostile.test" && $2 != "www.robofile.test" &&
        $2 != "www.sitefile.test") || $4 !~ /^\// { n++ }
        END { print n + 0 }' "$SERVER_LOG")" 0

# ---- Nothing written outside the database and report directories.
eq "working directory still empty" "$(ls -A "$E2E_TMP/cwd")" ""
eq "TMPDIR still empty" "$(ls -A "$E2E_TMP/tmp")" ""
eq "HOME still empty" "$(ls -A "$E2E_TMP/home")" ""
eq "database directory: the database, its index file and SQLite's own files" \
    "$(ls -A "$E2E_TMP/db" |
        grep -v '^hostile\.db\(-search\)\{0,1\}\(-wal\|-shm\)\{0,1\}$')" ""
eq "report directory: the report's files" \
    "$(ls -A "$OUT" |
        grep -v '^\(growth\|similarity\|growth-time\|hosts\|share\)\.\(csv\|gp\|svg\|png\)$' |
        grep -v '^clusters\.csv$' | grep -v '^\(summary\.txt\|index\.html\)$')" ""

# ---- Terminal escapes: none raw in anything printed or written.
eq "the crawl kept the server's raw bytes as data" \
    "$(q "$DB" "SELECT count(*) FROM pages WHERE instr(content_type, char(27)) > 0")" 1
eq "crawl: no ESC on stderr" "$(esc_bytes "$E2E_TMP/crawl.err")" 0
eq "report: no ESC on stdout or stderr" \
    "$(esc_bytes "$E2E_TMP/report.out" "$E2E_TMP/report.err")" 0
# Text files only: a PNG may hold the byte by chance.
eq "report: no ESC in its files" \
    "$(esc_bytes "$OUT"/*.csv "$OUT"/*.gp "$OUT"/*.svg "$OUT"/*.txt)" 0

# A tampered database: escapes in URLs, a host, a method and a setting.
T="$E2E_TMP/tampered.db"
cp "$DB" "$T"
sqlite3 "$T" "UPDATE pages SET url = url || char(27) || '[2J' || char(10) || 'forged line', host = host || char(27) || ']0;t' || char(7) WHERE seq = 2;
    INSERT INTO duplicates (page_id, original_id, method, percentage)
        SELECT p.id, o.id, 'md5' || char(27) || '[5m' || char(155), 100
        FROM pages p, pages o WHERE p.seq = 3 AND o.seq = 2;
    UPDATE meta SET value = value || char(27) || '[31m' WHERE key = 'methods';"
"$NEARCRAWL" report -d "$T" -o "$E2E_TMP/tampered" >"$E2E_TMP/t.out" \
    2>"$E2E_TMP/t.err"
eq "tampered database: report exits 0" "$?" 0
eq "tampered database: no ESC on stdout" "$(esc_bytes "$E2E_TMP/t.out")" 0
eq "tampered database: no ESC in the report's files" \
    "$(esc_bytes "$E2E_TMP/tampered"/*.csv "$E2E_TMP/tampered"/*.gp \
        "$E2E_TMP/tampered"/*.svg "$E2E_TMP/tampered"/*.txt)" 0
ok "tampered database: the URL shown escaped" \
    grep -q 'Busiest original: http://.*\\x1b\[2J\\x0aforged line' \
    "$E2E_TMP/tampered/summary.txt"
ok "tampered database: the method (C1 too) shown escaped" \
    grep -q '^  md5\\x1b\[5m\\xc2\\x9b: 1$' "$E2E_TMP/tampered/summary.txt"
ok "tampered database: escaped in the CSV files too" \
    grep -q 'x1b\]0;t\\x07' "$E2E_TMP/tampered/hosts.csv"
"$NEARCRAWL" crawl -d "$T" --force-settings $R 2>"$E2E_TMP/t.err"
eq "tampered setting: resume exits 0" "$?" 0
eq "tampered setting: no ESC on stderr" "$(esc_bytes "$E2E_TMP/t.err")" 0
ok "tampered setting: the old value shown escaped" \
    grep -q 'changes from md5,simhash,minhash\\x1b\[31m to' "$E2E_TMP/t.err"

# Arguments and files echoed in messages.
echoes() {
	name=$1
	shift
	"$NEARCRAWL" "$@" >"$E2E_TMP/e.out" 2>"$E2E_TMP/e.err"
	eq "$name: no ESC printed" "$(esc_bytes "$E2E_TMP/e.out" "$E2E_TMP/e.err")" 0
	ok "$name: shown escaped" grep -q '\\x1b' "$E2E_TMP/e.err"
}
echoes "unknown command" "frob${ESC}[2J"
echoes "bad seed" crawl -d "$E2E_TMP/x.db" "http://x.test/${ESC}[2J"
echoes "unknown option" crawl "--${ESC}[2J"
printf '[crawl]\n%s]0;retitled\007 = 1\n' "$ESC" >"$E2E_TMP/esc.ini"
echoes "config file line" crawl -c "$E2E_TMP/esc.ini"
echoes "config file name" crawl -c "$E2E_TMP/${ESC}[2J.ini"
echoes "robots URL" robots "$SITES/www.sitefile.test/robots.txt" nearcrawl \
    "http://x.test${ESC}[2J/"
echoes "robots file" robots "$E2E_TMP/${ESC}[2J" nearcrawl http://x.test/
echoes "compare file" compare "$E2E_TMP/${ESC}[2J" "$SITES/$H/ct.html"
echoes "report database" report -d "$E2E_TMP/${ESC}[2J.db" -o "$E2E_TMP/r"
e2e_finish
