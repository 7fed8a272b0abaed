#!/bin/sh
# Usage errors, configuration files, and databases that cannot be used:
# exit 2 with a clear message, files untouched.
. tests/e2e/lib.sh

e2e_start_server tests/fixtures/sites
H=www.small.test
R="--resolve $H:$PORT:127.0.0.1"
SEED="http://$H:$PORT/"

"$NEARCRAWL" crawl --bogus-option >/dev/null 2>"$E2E_TMP/err"
eq "unknown option exits 2" "$?" 2
ok "unknown option named" grep -q -- "--bogus-option" "$E2E_TMP/err"
"$NEARCRAWL" crawl --simhash-k 99 "$SEED" >/dev/null 2>"$E2E_TMP/err"
eq "out-of-range value exits 2" "$?" 2
"$NEARCRAWL" frobnicate >/dev/null 2>&1
eq "unknown command exits 2" "$?" 2
"$NEARCRAWL" crawl --help >"$E2E_TMP/help"
eq "crawl --help exits 0" "$?" 0
for o in max-pages max-depth delay-ms concurrency per-host allow-domain \
    user-agent methods simhash-k ssdeep-threshold follow-duplicates resolve \
    quiet; do
	ok "--help lists --$o" grep -q -- "--$o" "$E2E_TMP/help"
done

printf '[dedup]\nsimhash_k = 4\n[crawl]\nspeed = fast\n' >"$E2E_TMP/bad.ini"
"$NEARCRAWL" crawl -c "$E2E_TMP/bad.ini" "$SEED" >/dev/null 2>"$E2E_TMP/err"
eq "unknown INI key exits 2" "$?" 2
ok "message names file, line and key" \
    grep -q "bad.ini:4: unknown key \[crawl\] speed" "$E2E_TMP/err"
"$NEARCRAWL" crawl -c "$E2E_TMP/none.ini" "$SEED" >/dev/null 2>"$E2E_TMP/err"
eq "missing config file exits 2" "$?" 2

# An INI file sets what the command line does not; the command line wins.
printf '[politeness]\ndelay_ms = 5\n[crawl]\nmax_pages = 3\n' >"$E2E_TMP/ok.ini"
"$NEARCRAWL" crawl -c "$E2E_TMP/ok.ini" -d "$E2E_TMP/ini.db" --max-pages 4 \
    --quiet $R "$SEED" 2>/dev/null
eq "crawl with INI: stopped at --max-pages with work left, exits 3" "$?" 3
eq "command line wins over INI" "$(q "$E2E_TMP/ini.db" 'SELECT count(*) FROM pages')" 4

# Databases that are not ours are refused and left untouched.
printf 'just some text, not a database\n' >"$E2E_TMP/text.db"
cp "$E2E_TMP/text.db" "$E2E_TMP/text.orig"
"$NEARCRAWL" crawl -d "$E2E_TMP/text.db" --quiet $R "$SEED" 2>"$E2E_TMP/err"
eq "non-SQLite file exits 2" "$?" 2
ok "non-SQLite file untouched" cmp "$E2E_TMP/text.db" "$E2E_TMP/text.orig"
ok "message says why" grep -q "not an SQLite database" "$E2E_TMP/err"
# Another program's database: no crawl of ours for nearcrawl check.
E2E_CHECK_SKIP="other.db"
sqlite3 "$E2E_TMP/other.db" 'CREATE TABLE invoices(id INTEGER, total REAL)'
cp "$E2E_TMP/other.db" "$E2E_TMP/other.orig"
"$NEARCRAWL" crawl -d "$E2E_TMP/other.db" --quiet $R "$SEED" 2>"$E2E_TMP/err"
eq "foreign SQLite database exits 2" "$?" 2
ok "foreign database untouched" cmp "$E2E_TMP/other.db" "$E2E_TMP/other.orig"

# Resuming with settings that decide verdicts differently is refused.
"$NEARCRAWL" crawl -d "$E2E_TMP/ini.db" --simhash-k 5 --quiet $R \
    2>"$E2E_TMP/err"
eq "conflicting resume exits 2" "$?" 2
ok "conflict explained" grep -q "simhash-k 3" "$E2E_TMP/err"
"$NEARCRAWL" crawl -d "$E2E_TMP/ini.db" --simhash-k 5 --force-settings \
    --quiet $R 2>"$E2E_TMP/err"
eq "--force-settings resumes anyway (to the stored --max-pages: 3)" "$?" 3
eq "and records the new setting" \
    "$(q "$E2E_TMP/ini.db" "SELECT value FROM meta WHERE key = 'simhash_k'")" 5

# A resume without dedup options keeps the database's, whatever today's
# defaults are; the user is told which differ from the defaults.
"$NEARCRAWL" crawl -d "$E2E_TMP/old.db" --quiet --max-pages 3 \
    --methods md5,simhash --simhash-k 4 $R "$SEED" 2>/dev/null
eq "older settings: first part exits 3 (work left)" "$?" 3
"$NEARCRAWL" crawl -d "$E2E_TMP/old.db" --max-pages 6 $R 2>"$E2E_TMP/err"
eq "older settings: resumed without options, exits 3 (work left)" "$?" 3
ok "older settings: says which it kept" grep -q \
    "resuming .*old.db with the settings it was crawled with, not today's defaults: --methods md5,simhash; --simhash-k 4\$" \
    "$E2E_TMP/err"
eq "older settings: kept, no method added" \
    "$(q "$E2E_TMP/old.db" "SELECT group_concat(key || '=' || value, ' ') FROM
        (SELECT * FROM meta WHERE key IN ('methods', 'simhash_k') ORDER BY key);
        SELECT count(*) FROM pages WHERE minhash IS NOT NULL OR ssdeep IS NOT NULL")" \
    "methods=md5,simhash simhash_k=4
0"
eq "older settings: the resume went on" \
    "$(q "$E2E_TMP/old.db" "SELECT count(*) FROM pages")" 6
printf '[dedup]\nmethods = md5,simhash,ssdeep\n' >"$E2E_TMP/m.ini"
"$NEARCRAWL" crawl -d "$E2E_TMP/old.db" -c "$E2E_TMP/m.ini" --quiet \
    --max-pages 8 $R 2>"$E2E_TMP/err"
eq "older settings: a config file's value counts as given: refused" "$?" 2
ok "older settings: refusal explained" grep -q \
    "crawled with --methods md5,simhash; resuming with md5,simhash,ssdeep would mix" \
    "$E2E_TMP/err"
sqlite3 "$E2E_TMP/old.db" "UPDATE meta SET value = 'md5,winnow' WHERE key = 'methods'"
"$NEARCRAWL" crawl -d "$E2E_TMP/old.db" --quiet --max-pages 8 $R \
    2>"$E2E_TMP/err"
eq "older settings: a stored value we cannot read: exits 2" "$?" 2
ok "older settings: names it" grep -q \
    "old.db: stored setting methods: unknown method \"winnow\"" "$E2E_TMP/err"

# Two crawls never write one database.
"$NEARCRAWL" crawl -d "$E2E_TMP/busy.db" --quiet --timeout-ms 20000 \
    --low-speed-secs 0 $R "http://$H:$PORT/__nc/silent" 2>/dev/null &
first=$!
# Wait until the first crawl has queued its seed (the silent request is
# logged only when it ends, so the log cannot tell), then a little more for
# it to take the URL; up to 20 s on a slow machine.
i=0
# (No query before the file exists: sqlite3 would make an empty one.)
while [ "$i" -lt 400 ] && ! { [ -s "$E2E_TMP/busy.db" ] && [ "$(q \
    "$E2E_TMP/busy.db" 'SELECT count(*) FROM frontier' 2>/dev/null)" = 1 ]; }; do
	i=$((i + 1)); sleep 0.05
done
sleep 0.5
"$NEARCRAWL" crawl -d "$E2E_TMP/busy.db" --quiet $R "$SEED" 2>"$E2E_TMP/err"
eq "locked database exits 2" "$?" 2
ok "lock explained" grep -q "in use by another nearcrawl process" "$E2E_TMP/err"
kill -INT "$first"
wait "$first"
eq "interrupted crawl exits 3 (work left)" "$?" 3

# The robots subcommand.
printf 'User-agent: *\nDisallow: /private/\nAllow: /private/open\n' >"$E2E_TMP/robots.txt"
"$NEARCRAWL" robots "$E2E_TMP/robots.txt" nearcrawl "http://x.test/private/a" >"$E2E_TMP/out"
eq "robots: disallowed exits 1" "$?" 1
eq "robots: prints disallowed" "$(cat "$E2E_TMP/out")" disallowed
"$NEARCRAWL" robots "$E2E_TMP/robots.txt" nearcrawl "http://x.test/private/open" >"$E2E_TMP/out"
eq "robots: allowed exits 0" "$?" 0
eq "robots: prints allowed" "$(cat "$E2E_TMP/out")" allowed

# No option is taken for a prefix of another: "--delay-m 10" once set
# --delay-ms silently. Refused, with the option meant.
"$NEARCRAWL" crawl -d "$E2E_TMP/pre.db" --delay-m 10 $R "$SEED" \
    2>"$E2E_TMP/err"
eq "an abbreviated option exits 2" "$?" 2
ok "... named, with the whole one" grep -q \
    "unknown option --delay-m (options are never abbreviated: --delay-ms?)" \
    "$E2E_TMP/err"
ok "... and nothing created" test ! -e "$E2E_TMP/pre.db"
"$NEARCRAWL" crawl -d "$E2E_TMP/pre.db" --max-p 1 $R "$SEED" 2>"$E2E_TMP/err"
eq "--max-p exits 2" "$?" 2
# An argument that looks like an option is an argument.
"$NEARCRAWL" crawl -d "$E2E_TMP/ua.db" --quiet --max-pages 1 --delay 0 \
    --user-agent "--bot (+mailto:x@y.test)" $R "$SEED" 2>"$E2E_TMP/err"
eq "an option's argument may start with --" "$?" 3
# --delay is in seconds, as wget's --wait; units are accepted.
for d in 2:2000 0.5:500 500ms:500 1m:60000 0:0; do
	rm -f "$E2E_TMP/d.db"
	"$NEARCRAWL" crawl -d "$E2E_TMP/d.db" --quiet --max-pages 1 \
	    --delay "${d%%:*}" $R "$SEED" 2>/dev/null
	eq "--delay ${d%%:*}: stored as delay_ms ${d#*:}" "$(q "$E2E_TMP/d.db" \
	    "SELECT value FROM meta WHERE key = 'delay_ms'")" "${d#*:}"
done
"$NEARCRAWL" crawl -d "$E2E_TMP/d2.db" --delay 2x $R "$SEED" 2>"$E2E_TMP/err"
eq "--delay 2x exits 2" "$?" 2
ok "... the unit named" grep -q 'unknown unit "x"' "$E2E_TMP/err"
ok "--help shows --delay" sh -c "'$NEARCRAWL' crawl --help | grep -q -- '--delay DURATION'"

# The exit status tells finished from stopped: 0 with nothing left, 3
# with work left (--max-pages here; signals and saturation have their
# tests), so a script can resume while it is 3.
rm -f "$E2E_TMP/x.db"
"$NEARCRAWL" crawl -d "$E2E_TMP/x.db" --quiet --delay-ms 0 --max-pages 2 $R \
    "$SEED" 2>/dev/null
eq "stopped by --max-pages with work left: 3" "$?" 3
n=0
while "$NEARCRAWL" crawl -d "$E2E_TMP/x.db" --quiet --max-pages \
    $(( $(q "$E2E_TMP/x.db" 'SELECT count(*) FROM pages') + 2 )) 2>/dev/null
    [ $? = 3 ] && [ $n -lt 50 ]; do
	n=$((n + 1))
done
eq "a resume loop on 3 ends with 0" "$("$NEARCRAWL" crawl -d "$E2E_TMP/x.db" \
    --quiet 2>/dev/null; echo $?)" 0
eq "... with nothing queued" "$(q "$E2E_TMP/x.db" \
    'SELECT count(*) FROM frontier WHERE state = 0')" 0

# install-deps.sh run (make demo) asks for what running needs, not the
# test tools; test (make test) for both. Seen as a user with nothing
# installed: stubs of dpkg-query and id, the apt-get line printed.
mkdir -p "$E2E_TMP/stub"
printf '#!/bin/sh\nexit 1\n' >"$E2E_TMP/stub/dpkg-query"
printf '#!/bin/sh\necho 1000\n' >"$E2E_TMP/stub/id"
chmod +x "$E2E_TMP/stub/dpkg-query" "$E2E_TMP/stub/id"
PATH="$E2E_TMP/stub:$PATH" sh scripts/make/install-deps.sh run \
    2>"$E2E_TMP/deps-run"
eq "install-deps.sh run, nothing installed: exit 1 with the line" "$?" 1
ok "... the libraries and gnuplot" grep -q "apt-get install -y.* libcurl4-openssl-dev.* gnuplot-nox" "$E2E_TMP/deps-run"
ok "... no test tools" sh -c "! grep -Eq 'chromium|postgresql|valgrind|wrk|nginx' '$E2E_TMP/deps-run'"
PATH="$E2E_TMP/stub:$PATH" sh scripts/make/install-deps.sh test \
    2>"$E2E_TMP/deps-test"
ok "install-deps.sh test asks for the test tools too" grep -q \
    "apt-get install -y.* chromium.* nginx-light" "$E2E_TMP/deps-test"

# Help: `help COMMAND` is `COMMAND --help`; every line fits 80 columns;
# dedup and compare list the options that matter to them only.
eq "help crawl is crawl --help" "$("$NEARCRAWL" help crawl | md5sum)" \
    "$("$NEARCRAWL" crawl --help | md5sum)"
for c in crawl dedup compare report; do
	eq "$c --help: no line over 80 columns" \
	    "$("$NEARCRAWL" $c --help | awk 'length > 80' | wc -l | tr -d ' ')" 0
done
ok "dedup --help: [dedup] and [storage], not politeness or proxy" sh -c \
    "'$NEARCRAWL' dedup --help | grep -q '^\[dedup\]' &&
    '$NEARCRAWL' dedup --help | grep -q '^\[storage\]' &&
    ! '$NEARCRAWL' dedup --help | grep -q -- '--proxy\|^\[politeness\]'"
ok "compare --help: what it prints and its options" sh -c \
    "'$NEARCRAWL' compare --help | grep -q 'linker' &&
    '$NEARCRAWL' compare --help | grep -q -- '--max-novel-percent'"

# Small errors, said precisely.
"$NEARCRAWL" crawl -d "$E2E_TMP/nodir/sub/c.db" $R "$SEED" 2>"$E2E_TMP/err"
eq "-d in a missing directory exits 2" "$?" 2
ok "... and says the directory is missing" grep -q \
    "nodir/sub/c.db: its directory does not exist" "$E2E_TMP/err"
printf '<html><body><p>Not an archive.</p></body></html>\n' >"$E2E_TMP/p.html"
"$NEARCRAWL" dedup -d "$E2E_TMP/h.db" "$E2E_TMP/p.html" 2>"$E2E_TMP/err"
eq "dedup of an HTML file exits 2" "$?" 2
ok "... saying it is not a WARC file" grep -q \
    'p.html: not a WARC or ARC file (it starts with "<html><body><p>N")' \
    "$E2E_TMP/err"
ok "... and stores nothing" test ! -e "$E2E_TMP/h.db"
"$NEARCRAWL" dedup -d "$E2E_TMP/h.db" "$E2E_TMP/none.warc" 2>"$E2E_TMP/err"
eq "dedup of a missing file exits 2" "$?" 2
ok "... with the reason" grep -q "none.warc: No such file or directory" \
    "$E2E_TMP/err"
e2e_finish
