#!/bin/sh
# nearcrawl check: a crawl's database and archive pass as made, and each
# fault planted in a copy is found, said in its line and counted in the
# exit status -- a duplicates row deleted, a page deleted, a repeated seq,
# a URL left in flight, a byte flipped inside an SQLite page, a damaged
# first page, an index entry of no judged page; a CDXJ line taken out, a
# WARC record damaged, a file cut short, an index gone -- on SQLite and on PostgreSQL (amcheck where it is
# installed); report and export point at check when they meet such a
# page. Every other test's databases are checked by e2e_finish
# (tests/e2e/lib.sh).
. tests/e2e/lib.sh

# Planted faults, on purpose: left out of the checks at the end.
E2E_CHECK_SKIP="dup.db page.db seq.db flight.db flip.db head.db many.db
    search.db planted"
e2e_start_server tests/fixtures/sites
H=www.lab.test
R="--resolve $H:$PORT:127.0.0.1"
SEED="http://$H:$PORT/"
REF="$E2E_TMP/ref.db"
WARC="$E2E_TMP/warc"

# check NAME DB [ARGS]: run check into $E2E_TMP/out; the exit status in
# $rc.
check() {
	_name=$1
	shift
	"$NEARCRAWL" check -d "$@" >"$E2E_TMP/out" 2>"$E2E_TMP/err"
	rc=$?
}

# has NAME PATTERN: check's output has a line matching PATTERN (grep -E).
has() {
	ok "$1" grep -Eq "$2" "$E2E_TMP/out"
}

# copy NAME: a copy of the reference crawl (with its index file), its
# path in $DB.
copy() {
	DB="$E2E_TMP/$1.db"
	cp "$REF" "$DB"
	cp "$REF-search" "$DB-search"
}

"$NEARCRAWL" crawl -d "$REF" --quiet --delay-ms 0 --warc "$WARC" $R \
    "$SEED" 2>/dev/null
eq "reference crawl exits 0" "$?" 0
check sound "$REF"
eq "sound: exits 0" "$rc" 0
has "sound: says so, with the archive" \
    "ref.db: sound: integrity ok, 624 pages, seq 1 to 624, nothing in flight unattended, 1 WARC files with [0-9]+ responses and revisits agreeing with their CDXJ indexes and the pages$"
eq "sound: one line" "$(wc -l <"$E2E_TMP/out" | tr -d ' ')" 1
check "sound, archive left out" "$REF" --warc none
has "archive left out: not said" "sound: integrity ok, 624 pages, seq 1 to 624, nothing in flight unattended$"

# ---- Usage and databases that are not a crawl's: 2.
"$NEARCRAWL" check >/dev/null 2>"$E2E_TMP/err"
eq "no -d: exits 2" "$?" 2
ok "no -d: says so" grep -q "check: -d DB is required" "$E2E_TMP/err"
"$NEARCRAWL" check -d "$REF" --bogus >/dev/null 2>&1
eq "unknown argument: exits 2" "$?" 2
"$NEARCRAWL" check --help >"$E2E_TMP/out"
eq "--help: exits 0" "$?" 0
has "--help: the usage" "^usage: nearcrawl check -d DB"
check missing "$E2E_TMP/none.db"
eq "missing file: exits 2" "$rc" 2
ok "missing file: says so" grep -q "none.db: no such file" "$E2E_TMP/err"
ok "missing file: not made" test ! -e "$E2E_TMP/none.db"
echo "not a database" >"$E2E_TMP/text.db"
check text "$E2E_TMP/text.db"
eq "not SQLite: exits 2" "$rc" 2
ok "not SQLite: says so" grep -q "text.db: not an SQLite database" "$E2E_TMP/err"
sqlite3 "$E2E_TMP/other.db" 'CREATE TABLE invoices (id INTEGER)'
check other "$E2E_TMP/other.db"
eq "another program's database: exits 2" "$rc" 2
ok "another program's database: says so" \
    grep -q "other.db: not a nearcrawl database" "$E2E_TMP/err"
E2E_CHECK_SKIP="$E2E_CHECK_SKIP other.db"

# ---- Planted faults, each in a copy.
copy dup
url=$(q "$DB" "SELECT url FROM pages WHERE id = (SELECT page_id FROM
    duplicates ORDER BY id LIMIT 1)")
seq=$(q "$DB" "SELECT seq FROM pages WHERE url = '$url'")
verdict=$(q "$DB" "SELECT verdict FROM pages WHERE url = '$url'")
q "$DB" "DELETE FROM duplicates WHERE page_id =
    (SELECT id FROM pages WHERE url = '$url')"
check "deleted duplicates row" "$DB" --warc none
eq "deleted duplicates row: exits 1" "$rc" 1
has "deleted duplicates row: the page named" \
    "^duplicates: $verdict page $url \\(seq $seq\\) has no duplicates row naming its original$"
has "deleted duplicates row: counted" "dup.db: 1 problem: duplicates 1$"
"$NEARCRAWL" export -d "$DB" >/dev/null 2>"$E2E_TMP/err"
ok "deleted duplicates row: export points at check" \
    grep -q "export: 1 near or exact pages have no original: .*nearcrawl check -d .*dup.db" "$E2E_TMP/err"

copy page
orig=$(q "$DB" "SELECT d.original_id FROM duplicates d
    JOIN pages p ON p.id = d.original_id WHERE p.verdict = 'unique'
    ORDER BY d.id LIMIT 1")
oseq=$(q "$DB" "SELECT seq FROM pages WHERE id = $orig")
n=$(q "$DB" "SELECT count(*) FROM duplicates WHERE original_id = $orig")
q "$DB" "DELETE FROM pages WHERE id = $orig"
check "deleted original" "$DB" --warc none
eq "deleted original: exits 1" "$rc" 1
has "deleted original: its duplicates rows named" \
    "^duplicates: row [0-9]+ \\([a-z0-9]+\\) of http.* names original $orig, which is not in pages$"
has "deleted original: its seq missing" "^seq: $oseq missing$"
has "deleted original: counted, its index entry too" "page.db: $((n + 2)) problems: duplicates $n, seq 1, search 1$"
"$NEARCRAWL" report -d "$DB" -o "$E2E_TMP/page-report" --quiet \
    2>"$E2E_TMP/err" >/dev/null
ok "deleted original: report points at check" \
    grep -q "report: $n duplicates rows name a page that is not stored .*nearcrawl check -d .*page.db" "$E2E_TMP/err"

# A repeated seq: the schema's UNIQUE taken away (as if its index were
# lost; VACUUM rebuilds the file without it), then a page given its
# neighbour's seq. (The second of pages' UNIQUE columns is seq.)
copy seq
q "$DB" "PRAGMA writable_schema = ON;
    UPDATE sqlite_master SET sql = replace(sql, 'seq INTEGER NOT NULL UNIQUE',
        'seq INTEGER NOT NULL') WHERE name = 'pages';
    DELETE FROM sqlite_master WHERE name = 'sqlite_autoindex_pages_2';"
q "$DB" "VACUUM; UPDATE pages SET seq = 100 WHERE seq = 101"
eq "repeated seq: integrity_check still ok" "$(q "$DB" 'PRAGMA integrity_check')" ok
check "repeated seq" "$DB" --warc none
eq "repeated seq: exits 1" "$rc" 1
has "repeated seq: said" "^seq: 100 repeated \\(2 pages\\)$"
has "repeated seq: the gap it leaves" "^seq: 101 missing$"
has "repeated seq: nothing else" "seq.db: 2 problems: seq 2$"

# A URL in flight with no crawl at work (as a crawl killed between taking
# it and settling it leaves it): found; a resume queues it again, says so,
# and the database is sound again.
copy flight
q "$DB" "INSERT INTO frontier (url, host, depth, state)
    VALUES ('http://$H:$PORT/left-in-flight.html', '$H', 1, 1)"
check "in flight" "$DB" --warc none
eq "in flight: exits 1" "$rc" 1
has "in flight: the URL named" \
    "^frontier: http://$H:$PORT/left-in-flight.html in flight, and no crawl is at work on the database$"
has "in flight: what to do" "^note: frontier: a resume queues URLs in flight again"
"$NEARCRAWL" crawl -d "$DB" --delay-ms 0 --warc none 2>"$E2E_TMP/err"
ok "in flight: the resume says it queued it again" \
    grep -q "1 URLs in flight queued again" "$E2E_TMP/err"
check "in flight, resumed" "$DB" --warc none
eq "in flight, resumed: sound" "$rc" 0
E2E_CHECK_SKIP="$E2E_CHECK_SKIP flight.db"

# A flipped byte inside a page of the pages table (a letter of a URL): the
# row no longer matches its index, which the integrity check sees.
copy flip
size=$(q "$DB" 'PRAGMA page_size')
page=$(q "$DB" "SELECT pageno FROM dbstat WHERE name = 'pages' AND
    pagetype = 'leaf' ORDER BY pageno LIMIT 1 OFFSET 3")
off=$(dd if="$DB" bs="$size" skip=$((page - 1)) count=1 2>/dev/null |
    grep -obUa "www.lab.test" | head -n 1 | cut -d: -f1)
printf 'W' | dd of="$DB" bs=1 seek=$(((page - 1) * size + off)) \
    conv=notrunc 2>/dev/null
check "flipped byte" "$DB" --warc none
eq "flipped byte: exits 1" "$rc" 1
has "flipped byte: the integrity check finds it" \
    "^integrity: (row [0-9]+ missing from index|wrong # of entries in index)"
has "flipped byte: counted" "flip.db: [0-9]+ problems?: integrity [0-9]+"

# The first page (the schema) damaged: nothing else can be read.
copy head
printf '\377\377\377\377\377\377\377\377\377\377\377\377' |
    dd of="$DB" bs=1 seek=100 conv=notrunc 2>/dev/null
check "damaged schema page" "$DB"
eq "damaged schema page: exits 1" "$rc" 1
has "damaged schema page: said" \
    "head.db: 1 problem: integrity 1 \\(the file is damaged: nothing else could be checked\\)$"

# The full-text index (its file DB-search): an entry of a page that is
# not judged is a problem; entries above the largest page id, as a crawl
# killed between the index's commit and the database's leaves them, are a
# note (the next writer open deletes them), as is no index file at all.
copy search
rid=$(q "$DB" "SELECT min(id) FROM pages WHERE verdict = 'unique' AND id
    NOT IN (SELECT original_id FROM duplicates)")
q "$DB" "UPDATE pages SET verdict = 'skipped' WHERE id = $rid"
top=$(q "$DB" "SELECT max(id) FROM pages")
q "$DB-search" "INSERT INTO search_text (rowid, title, body) VALUES
    ($top + 1, 'y', 'left'), ($top + 2, 'z', 'left')"
check "index entries" "$DB" --warc none
eq "index entries: exits 1" "$rc" 1
has "index entries: the stray one named" "^search: index entry $rid is no judged page's$"
has "index entries: the killed crawl's noted" \
    "^note: search: 2 index entries of pages a crawl killed meanwhile never committed"
has "index entries: counted" "search.db: 1 problem: search 1$"
copy noindex
rm "$DB-search"
check "no index file" "$DB" --warc none
eq "no index file: exits 0" "$rc" 0
has "no index file: noted" "^note: search: no full-text index .*nearcrawl index -d DB"

# Many problems of one kind: 20 lines, then how many more.
copy many
total=$(q "$DB" "SELECT count(DISTINCT page_id) FROM duplicates")
q "$DB" "DELETE FROM duplicates"
check "many problems" "$DB" --warc none
eq "many problems: exits 1" "$rc" 1
eq "many problems: 20 lines of them" \
    "$(grep -c '^duplicates: .* has no duplicates row' "$E2E_TMP/out")" 20
has "many problems: then how many more" "^duplicates: \\.\\.\\. and $((total - 20)) more$"
has "many problems: all counted" "many.db: $total problems: duplicates $total$"

# ---- The archive, damaged in copies of its directory.
cdxj=$(ls "$WARC"/*.cdxj)
file=$(ls "$WARC"/*.warc.gz)
wfile=${file##*/}
warc_copy() {
	rm -rf "$E2E_TMP/w"
	cp -R "$WARC" "$E2E_TMP/w"
}
warc_copy
sed -i '5d' "$E2E_TMP/w/${cdxj##*/}"
check "CDXJ line taken out" "$REF" --warc "$E2E_TMP/w"
eq "CDXJ line taken out: exits 1" "$rc" 1
has "CDXJ line taken out: the record without it named" \
    "^cdxj: $wfile: the record at offset [0-9]+ has no line in ${cdxj##*/}$"
warc_copy
# Inside the response the index's tenth line names, half way through.
at=$(sed -n '10s/.*"length": "\([0-9]*\)", "offset": "\([0-9]*\)".*/\2 \1/p' \
    "$cdxj")
printf '\377\377\377\377' | dd of="$E2E_TMP/w/$wfile" bs=1 \
    seek=$((${at% *} + ${at#* } / 2)) conv=notrunc 2>/dev/null
check "damaged record" "$REF" --warc "$E2E_TMP/w"
eq "damaged record: exits 1" "$rc" 1
has "damaged record: said" "^warc: $wfile: damaged record at offset [0-9]+: "
has "damaged record: its page has no record left" \
    "^warc: page http.* has no response or revisit record$"
has "damaged record: its index line points at nothing" \
    "^cdxj: .*: no response or revisit record starts at offset [0-9]+ of $wfile$"
warc_copy
# The end of the last record cut off, as by a crawl killed mid-write: a
# note, not a problem of the file (the page it held then has none).
truncate -s $(($(wc -c <"$file") - 200)) "$E2E_TMP/w/$wfile"
check "file cut short" "$REF" --warc "$E2E_TMP/w"
has "file cut short: noted" \
    "^note: warc: $wfile ends in a record cut short at offset [0-9]+ \\(a crawl killed"
ok "file cut short: no damage counted" sh -c "! grep -q '^warc: $wfile: damaged' '$E2E_TMP/out'"
warc_copy
rm "$E2E_TMP/w/${cdxj##*/}"
check "index gone" "$REF" --warc "$E2E_TMP/w"
eq "index gone: exits 1" "$rc" 1
has "index gone: said" "^cdxj: $wfile has no index ${cdxj##*/}$"
check "archive elsewhere" "$REF" --warc "$E2E_TMP/nowhere"
eq "archive not found: no problem" "$rc" 0
has "archive not found: noted" "^note: warc: the crawl's WARC files are not in .*nowhere"

# ---- While a crawl runs: its URLs in flight and its archive are its own.
"$NEARCRAWL" crawl -d "$E2E_TMP/busy.db" --quiet --delay-ms 300 \
    --warc "$E2E_TMP/busy-warc" $R "$SEED" 2>/dev/null &
pid=$!
i=0
n=0
while [ "$i" -lt 200 ] && [ "${n:-0}" -lt 1 ]; do
	i=$((i + 1))
	sleep 0.05
	n=$(q "$E2E_TMP/busy.db" 'SELECT count(*) FROM pages' 2>/dev/null)
done
check "beside a crawl" "$E2E_TMP/busy.db"
eq "beside a crawl: exits 0" "$rc" 0
has "beside a crawl: its URLs in flight not checked" \
    "^note: frontier: a crawl is at work on the database"
has "beside a crawl: nor its archive" "^note: warc: a crawl is at work"
kill "$pid"
wait "$pid"

# ---- PostgreSQL: the same checks; the file's integrity by amcheck.
e2e_start_pg
"$NEARCRAWL" crawl -d "$PG_URI" --quiet --delay-ms 0 $R "$SEED" 2>/dev/null
eq "PostgreSQL crawl exits 0" "$?" 0
check "PostgreSQL" "$PG_URI"
eq "PostgreSQL without amcheck: exits 0" "$rc" 0
has "PostgreSQL without amcheck: says so" \
    "^note: integrity: not checked: the amcheck extension is not installed"
has "PostgreSQL without amcheck: the rest sound" \
    "sound: integrity not checked, 624 pages, seq 1 to 624"
pg_sql "CREATE EXTENSION amcheck" >/dev/null 2>&1
check "PostgreSQL with amcheck" "$PG_URI"
eq "PostgreSQL with amcheck: exits 0" "$rc" 0
has "PostgreSQL with amcheck: integrity ok" "sound: integrity ok, 624 pages"
ok "PostgreSQL: no password in what it says" \
    sh -c "! grep -q 'password' '$E2E_TMP/out'"
# Faults planted in a crawl of its own, beside the sound one.
PLANTED=$(pg_new_db planted)
"$NEARCRAWL" crawl -d "$PLANTED" --quiet --delay-ms 0 $R "$SEED" 2>/dev/null
pg() { _pg_psql "$PLANTED" -At -c "$1"; }
pg "DELETE FROM duplicates WHERE page_id = (SELECT page_id FROM duplicates
    ORDER BY id LIMIT 1)"
pg "ALTER TABLE pages DROP CONSTRAINT pages_seq_key;
    UPDATE pages SET seq = 100 WHERE seq = 101"
# As a process killed mid-fetch of its host's last URL leaves it: the URL
# in flight, its lease on the host run out.
pg "INSERT INTO frontier (url, host, depth, state)
    VALUES ('http://$H:$PORT/left-in-flight.html', '$H', 1, 1);
    UPDATE leases SET owner = 'killed:1', expires = 1 WHERE host = '$H'"
check "PostgreSQL, planted" "$PLANTED"
eq "PostgreSQL, planted: exits 1" "$rc" 1
has "PostgreSQL, planted: the duplicates row" "^duplicates: .* has no duplicates row"
has "PostgreSQL, planted: the repeated seq" "^seq: 100 repeated \\(2 pages\\)$"
has "PostgreSQL, planted: the URL in flight" \
    "^frontier: http://$H:$PORT/left-in-flight.html in flight, and no process holds a lease on its host $H$"
has "PostgreSQL, planted: counted" ": 4 problems: duplicates 1, seq 2, frontier 1$"
# A process joining the crawl says how many URLs are in flight in it, and
# the one left is queued again when the host is leased.
"$NEARCRAWL" crawl -d "$PLANTED" --delay-ms 0 2>"$E2E_TMP/err" &
pid=$!
e2e_watchdog 60 "$pid"
wait "$pid"
e2e_watchdog_off
ok "PostgreSQL, a process joining ends" test ! -e "$E2E_TMP/timed-out"
ok "PostgreSQL, a process joining says what is in flight" \
    grep -q "1 URLs in flight (in other processes, or queued again as their hosts are leased)" "$E2E_TMP/err"
check "PostgreSQL, joined" "$PLANTED"
ok "PostgreSQL, joined: nothing in flight left" \
    sh -c "! grep -q '^frontier:' '$E2E_TMP/out'"
e2e_finish
