#!/bin/sh
# Faults: databases that are read-only, damaged, not ours or locked; a full
# disk; no memory for one page; garbage on the command line and in config
# files. Each gives a clear message and its exit status (docs/robustness.md),
# and the database stays sound and resumable. Root ignores file modes, so
# the read-only cases then run nearcrawl as nobody.
. tests/e2e/lib.sh

LOCK_PID=""
faults_cleanup() {
	if [ -n "$LOCK_PID" ]; then
		kill "$LOCK_PID" 2>/dev/null
		wait "$LOCK_PID" 2>/dev/null
	fi
	chmod -R u+w "$E2E_TMP" 2>/dev/null
	chattr -i "$E2E_TMP/imm.db" 2>/dev/null
	e2e_cleanup
}
trap faults_cleanup EXIT INT TERM
# Damaged, foreign and newer on purpose: what nearcrawl check says of such
# files is tests/e2e/test-check.sh's.
E2E_CHECK_SKIP="app.db head.db idx.db mid.db newer.db"

# A site of 41 pages with text of their own, big enough (with --store-text)
# to cross a small size limit part way.
SITES="$E2E_TMP/sites"
mkdir -p "$SITES/www.full.test"
cp -R tests/fixtures/sites/www.small.test "$SITES/"
(
	cd "$SITES/www.full.test" || exit 1
	i=1
	{
		echo '<html><head><title>Index</title></head><body><ul>'
		while [ "$i" -le 40 ]; do
			echo "<li><a href=\"/p$i.html\">page $i</a></li>"
			i=$((i + 1))
		done
		echo '</ul></body></html>'
	} >index.html
	i=1
	while [ "$i" -le 40 ]; do
		awk -v i="$i" 'BEGIN {
			printf "<html><head><title>Page %d</title></head><body>", i
			srand(i)
			for (p = 0; p < 30; p++) {
				printf "<p>"
				for (w = 0; w < 12; w++)
					printf "w%d ", int(rand() * 100000)
				printf "</p>\n"
			}
			print "</body></html>"
		}' >"p$i.html"
		i=$((i + 1))
	done
)
e2e_start_server "$SITES"
F=www.full.test
RF="--resolve $F:$PORT:127.0.0.1"
SEED="http://$F:$PORT/"
OPTS="--quiet --delay-ms 0 --store-text --batch-pages 4"

# urls DB: the sorted URLs of its pages.
urls() {
	q "$1" 'SELECT url FROM pages ORDER BY url'
}

# damage DB PAGE: overwrite the b-tree header of page PAGE (from 1) with
# bytes no page type has; SQLite reads it as corrupt.
damage() {
	size=$(q "$1" 'PRAGMA page_size')
	off=$((($2 - 1) * size))
	[ "$2" -eq 1 ] && off=100 # page 1 starts with the file header
	printf '\377\377\377\377\377\377\377\377\377\377\377\377' |
	    dd of="$1" bs=1 seek="$off" conv=notrunc 2>/dev/null
}

# The uninterrupted crawl everything is compared with.
"$NEARCRAWL" crawl -d "$E2E_TMP/ref.db" $OPTS $RF "$SEED" 2>/dev/null
eq "reference crawl exits 0" "$?" 0
eq "reference crawl has every page" \
    "$(q "$E2E_TMP/ref.db" 'SELECT count(*) FROM pages')" 41

# ---- A full disk: the size limit hook, then a real file size limit.
"$NEARCRAWL" crawl -d "$E2E_TMP/one.db" $OPTS --max-pages 1 $RF "$SEED" \
    2>/dev/null
small=$(q "$E2E_TMP/one.db" 'PRAGMA page_count')
large=$(q "$E2E_TMP/ref.db" 'PRAGMA page_count')
DB="$E2E_TMP/full.db"
LIMIT=$(((small + large) / 2))
NEARCRAWL_TEST_MAX_PAGE_COUNT=$LIMIT \
    "$NEARCRAWL" crawl -d "$DB" $OPTS $RF "$SEED" 2>"$E2E_TMP/err"
eq "full database: exits 1" "$?" 1
# The page's write, or the commit, where the search index writes what
# it gathered in the batch.
ok "full database: says so" grep -Eq "cannot (store a page|commit to the database): database or disk is full \(what was committed is kept\)" "$E2E_TMP/err"
ok "full database: the hook is announced" grep -q "test hook" "$E2E_TMP/err"
ok "full database: says how to resume" grep -q "resume with: nearcrawl crawl -d" "$E2E_TMP/err"
eq "full database: passes integrity_check" "$(q "$DB" 'PRAGMA integrity_check')" ok
eq "full database: stopped part way" \
    "$(q "$DB" 'SELECT count(*) > 0 AND count(*) < 41 FROM pages')" 1
eq "full database: a row for every URL marked done, no more" \
    "$(q "$DB" 'SELECT count(*) FROM pages')" \
    "$(q "$DB" 'SELECT count(*) FROM frontier WHERE state = 2')"
# Resumed on a disk still full: refused before anything is fetched, where
# a batch's worth of pages was fetched only to fail at its commit.
had=$(urls "$DB")
asked=$(wc -l <"$SERVER_LOG")
NEARCRAWL_TEST_MAX_PAGE_COUNT=$LIMIT \
    "$NEARCRAWL" crawl -d "$DB" $OPTS $RF 2>"$E2E_TMP/err"
eq "still full: resume exits 1" "$?" 1
ok "still full: says there is no room" grep -q "full.db: no room for the next batch of pages (about [0-9.]* MiB): database or disk is full (what was committed is kept); free some space, then resume" "$E2E_TMP/err"
eq "still full: nothing fetched" "$(wc -l <"$SERVER_LOG")" "$asked"
eq "still full: the pages as they were" "$(urls "$DB")" "$had"
eq "still full: passes integrity_check" "$(q "$DB" 'PRAGMA integrity_check')" ok
"$NEARCRAWL" crawl -d "$DB" $OPTS $RF 2>/dev/null
eq "full database: resumed without the limit, exits 0" "$?" 0
eq "full database: resumed crawl has the same pages" "$(urls "$DB")" \
    "$(urls "$E2E_TMP/ref.db")"
eq "full database: still sound" "$(q "$DB" 'PRAGMA integrity_check')" ok

# A file size limit (ulimit -f, in blocks of 512 or 1024 bytes by shell):
# writes past it fail with EFBIG once SIGXFSZ is ignored. The limit leaves
# room for the schema and the first batches (the links and ranks tables
# made 200 blocks too few to start), and is far below the whole crawl's.
DB="$E2E_TMP/fsize.db"
sh -c 'trap "" XFSZ; ulimit -f 400 && exec "$@"' sh \
    "$NEARCRAWL" crawl -d "$DB" $OPTS $RF "$SEED" 2>"$E2E_TMP/err"
eq "file size limit: exits 1" "$?" 1
ok "file size limit: says a write failed" grep -q "disk I/O error (a write failed" "$E2E_TMP/err"
eq "file size limit: passes integrity_check" "$(q "$DB" 'PRAGMA integrity_check')" ok
asked=$(wc -l <"$SERVER_LOG")
sh -c 'trap "" XFSZ; ulimit -f 400 && exec "$@"' sh \
    "$NEARCRAWL" crawl -d "$DB" $OPTS $RF 2>"$E2E_TMP/err"
eq "file size limit still there: resume exits 1" "$?" 1
ok "file size limit still there: says there is no room" \
    grep -q "fsize.db: no room for the next batch of pages (about [0-9.]* MiB): disk I/O error (File too large; a write failed" "$E2E_TMP/err"
eq "file size limit still there: nothing fetched" \
    "$(wc -l <"$SERVER_LOG")" "$asked"
"$NEARCRAWL" crawl -d "$DB" $OPTS $RF 2>/dev/null
eq "file size limit: resumed, exits 0" "$?" 0
eq "file size limit: resumed crawl has the same pages" "$(urls "$DB")" \
    "$(urls "$E2E_TMP/ref.db")"
# A file that refuses writes while a crawl runs (made immutable): the
# commits go to DB-wal all the same, but the checkpoint that copies them
# into the file fails. SQLite keeps that to itself at close; the crawl
# says it. Needs root and a file system with attributes (not tmpfs).
DB="$E2E_TMP/imm.db"
if : >"$DB" && chattr +i "$DB" 2>/dev/null && chattr -i "$DB"; then
	rm -f "$DB"
	"$NEARCRAWL" crawl -d "$DB" --quiet --delay-ms 100 --store-text \
	    --batch-pages 4 $RF "$SEED" 2>"$E2E_TMP/err" &
	pid=$!
	# Read beside the crawl: its first batches are committed.
	i=0
	while [ "$i" -lt 300 ] &&
	    [ "$(q "$DB" 'SELECT count(*) FROM pages' 2>/dev/null)" != 8 ]; do
		i=$((i + 1))
		sleep 0.02
	done
	chattr +i "$DB"
	wait "$pid"
	rc=$?
	eq "immutable file: crawl exits 1" "$rc" 1
	ok "immutable file: says the pages are only in the -wal file" \
	    grep -q "imm.db: cannot copy the write-ahead log into the database file: disk I/O error (Operation not permitted; what was committed is kept in the -wal file" "$E2E_TMP/err"
	ok "immutable file: its -wal is there" test -s "$DB-wal"
	chattr -i "$DB"
	"$NEARCRAWL" crawl -d "$DB" --quiet $RF 2>/dev/null
	eq "immutable file: writable again, resumed, exits 0" "$?" 0
	eq "immutable file: resumed crawl has the same pages" "$(urls "$DB")" \
	    "$(urls "$E2E_TMP/ref.db")"
	eq "immutable file: passes integrity_check" \
	    "$(q "$DB" 'PRAGMA integrity_check')" ok
	ok "immutable file: the -wal merged and gone" test ! -e "$DB-wal"
else
	echo "skip immutable file: chattr +i is not supported here (root" \
	    "and a file system with attributes are needed)"
fi

# Full before a new database has its schema: refused, nothing left.
mkdir "$E2E_TMP/tiny"
sh -c 'trap "" XFSZ; ulimit -f 20 && exec "$@"' sh \
    "$NEARCRAWL" crawl -d "$E2E_TMP/tiny/new.db" $OPTS $RF "$SEED" \
    2>"$E2E_TMP/err"
eq "no room for a new database: exits 2" "$?" 2
ok "no room for a new database: says so" grep -q "new.db: cannot create schema: disk I/O error" "$E2E_TMP/err"
ok "no room for a new database: claims nothing kept" \
    grep -q "new.db: cannot create schema: .*; no page was stored yet)" "$E2E_TMP/err"
eq "no room for a new database: no file left" "$(ls -A "$E2E_TMP/tiny")" ""
NEARCRAWL_TEST_MAX_PAGE_COUNT=lots "$NEARCRAWL" crawl -d "$E2E_TMP/x.db" \
    $OPTS $RF "$SEED" 2>"$E2E_TMP/err"
eq "malformed size hook: exits 2" "$?" 2
ok "malformed size hook: explained" grep -q "NEARCRAWL_TEST_MAX_PAGE_COUNT: expected" "$E2E_TMP/err"

# ---- No memory for one page: that page is an error row, the crawl goes on.
S=www.small.test
DB="$E2E_TMP/oom.db"
NEARCRAWL_TEST_FAIL_ALLOC="1:http://$S:$PORT/seminars.html" \
    "$NEARCRAWL" crawl -d "$DB" --quiet --delay-ms 0 \
    --resolve "$S:$PORT:127.0.0.1" "http://$S:$PORT/" 2>"$E2E_TMP/err"
eq "out of memory on a page: crawl exits 0" "$?" 0
eq "out of memory on a page: its row says so" \
    "$(q "$DB" "SELECT verdict || ': ' || reason FROM pages WHERE url LIKE '%/seminars.html'")" \
    "error: out of memory"
eq "out of memory on a page: the others are fine" \
    "$(q "$DB" "SELECT count(*) > 5 FROM pages WHERE verdict IN ('unique', 'exact', 'near')")" 1
eq "out of memory on a page: passes integrity_check" "$(q "$DB" 'PRAGMA integrity_check')" ok
NEARCRAWL_TEST_FAIL_ALLOC=1 "$NEARCRAWL" crawl -d "$E2E_TMP/x.db" $OPTS \
    $RF "$SEED" 2>"$E2E_TMP/err"
eq "malformed allocation hook: exits 2" "$?" 2

# ---- Damaged databases.
cp "$E2E_TMP/ref.db" "$E2E_TMP/mid.db"
page=$(q "$E2E_TMP/mid.db" "SELECT pageno FROM dbstat WHERE name = 'pages' AND pagetype = 'leaf' ORDER BY pageno LIMIT 1 OFFSET 5")
damage "$E2E_TMP/mid.db" "$page"
cp "$E2E_TMP/mid.db" "$E2E_TMP/mid.orig"
"$NEARCRAWL" crawl -d "$E2E_TMP/mid.db" $OPTS $RF 2>"$E2E_TMP/err"
eq "damaged page in the middle: resume exits 1" "$?" 1
ok "damaged page in the middle: says the file is damaged" \
    grep -q "mid.db: database disk image is malformed (the file is damaged; PRAGMA integrity_check" "$E2E_TMP/err"
ok "damaged page in the middle: no false page count" \
    grep -q "failed: 0 pages fetched in [0-9.]* s\$" "$E2E_TMP/err"
ok "damaged page in the middle: file untouched" cmp "$E2E_TMP/mid.db" "$E2E_TMP/mid.orig"
"$NEARCRAWL" report -d "$E2E_TMP/mid.db" -o "$E2E_TMP/mid-report" \
    2>"$E2E_TMP/err" >/dev/null
eq "damaged page in the middle: report exits 1" "$?" 1
ok "damaged page in the middle: report says why" grep -q "malformed (the file is damaged" "$E2E_TMP/err"
"$NEARCRAWL" rank -d "$E2E_TMP/mid.db" --quiet 2>"$E2E_TMP/err"
eq "damaged page in the middle: rank exits 1" "$?" 1
ok "damaged page in the middle: rank says why" grep -q "malformed (the file is damaged" "$E2E_TMP/err"
ok "damaged page in the middle: rank leaves it as it was" cmp "$E2E_TMP/mid.db" "$E2E_TMP/mid.orig"

# An index page read only when a page is stored: found mid-crawl.
DB="$E2E_TMP/idx.db"
"$NEARCRAWL" crawl -d "$DB" $OPTS --max-pages 10 $RF "$SEED" 2>/dev/null
# The limit is stored with the crawl; lifted here, so that the resume
# below goes on without writing a changed setting first.
q "$DB" "UPDATE meta SET value = '0' WHERE key = 'max_pages'"
damage "$DB" "$(q "$DB" "SELECT pageno FROM dbstat WHERE name = 'sqlite_autoindex_pages_1'")"
cp "$DB" "$E2E_TMP/idx.orig"
"$NEARCRAWL" crawl -d "$DB" $OPTS $RF 2>"$E2E_TMP/err"
eq "damaged index met mid-crawl: exits 1" "$?" 1
ok "damaged index met mid-crawl: says so" \
    grep -q "cannot store a page: database disk image is malformed" "$E2E_TMP/err"
ok "damaged index met mid-crawl: file untouched" cmp "$DB" "$E2E_TMP/idx.orig"

# The first page holds the schema: refused at open, like a file not ours.
cp "$E2E_TMP/ref.db" "$E2E_TMP/head.db"
damage "$E2E_TMP/head.db" 1
cp "$E2E_TMP/head.db" "$E2E_TMP/head.orig"
"$NEARCRAWL" crawl -d "$E2E_TMP/head.db" $OPTS $RF 2>"$E2E_TMP/err"
eq "damaged schema page: exits 2" "$?" 2
ok "damaged schema page: says so" grep -q "malformed" "$E2E_TMP/err"
ok "damaged schema page: file untouched" cmp "$E2E_TMP/head.db" "$E2E_TMP/head.orig"
dd if=/dev/urandom of="$E2E_TMP/noise.db" bs=1024 count=64 2>/dev/null
cp "$E2E_TMP/noise.db" "$E2E_TMP/noise.orig"
"$NEARCRAWL" crawl -d "$E2E_TMP/noise.db" $OPTS $RF "$SEED" 2>"$E2E_TMP/err"
eq "random bytes: exits 2" "$?" 2
ok "random bytes: not an SQLite database" grep -q "noise.db: not an SQLite database" "$E2E_TMP/err"
ok "random bytes: file untouched" cmp "$E2E_TMP/noise.db" "$E2E_TMP/noise.orig"

# ---- Databases that are not ours (foreign tables: test-cli-and-db.sh).
sqlite3 "$E2E_TMP/app.db" 'PRAGMA application_id = 1234'
cp "$E2E_TMP/app.db" "$E2E_TMP/app.orig"
"$NEARCRAWL" crawl -d "$E2E_TMP/app.db" $OPTS $RF "$SEED" 2>"$E2E_TMP/err"
eq "another application's empty database: exits 2" "$?" 2
ok "another application's empty database: named" grep -q "app.db: not a nearcrawl database" "$E2E_TMP/err"
ok "another application's empty database: untouched" cmp "$E2E_TMP/app.db" "$E2E_TMP/app.orig"
"$NEARCRAWL" report -d "$E2E_TMP/app.db" -o "$E2E_TMP/app-report" 2>/dev/null
eq "another application's database: report exits 2" "$?" 2
cp "$E2E_TMP/ref.db" "$E2E_TMP/newer.db"
sqlite3 "$E2E_TMP/newer.db" 'PRAGMA user_version = 99'
cp "$E2E_TMP/newer.db" "$E2E_TMP/newer.orig"
"$NEARCRAWL" crawl -d "$E2E_TMP/newer.db" $OPTS $RF 2>"$E2E_TMP/err"
eq "newer schema: exits 2" "$?" 2
ok "newer schema: says so" grep -q "made by a newer nearcrawl (schema 99)" "$E2E_TMP/err"
ok "newer schema: untouched" cmp "$E2E_TMP/newer.db" "$E2E_TMP/newer.orig"

# ---- Locked: another process (not nearcrawl: that is test-cli-and-db.sh)
# holds a write transaction open through a FIFO.
DB="$E2E_TMP/locked.db"
cp "$E2E_TMP/ref.db" "$DB"
mkfifo "$E2E_TMP/fifo"
sqlite3 "$DB" <"$E2E_TMP/fifo" >/dev/null 2>&1 &
LOCK_PID=$!
exec 3>"$E2E_TMP/fifo"
# The holder waits for the lock rather than failing at once: the probe below
# takes the same lock for an instant, and a holder that met it without a busy
# timeout would give up its transaction and hold nothing.
echo ".timeout 20000" >&3
echo "BEGIN EXCLUSIVE; INSERT INTO meta VALUES ('held', 'by sqlite3');" >&3
i=0
while [ "$i" -lt 200 ] && sqlite3 "$DB" 'BEGIN IMMEDIATE; ROLLBACK' \
    >/dev/null 2>&1; do
	i=$((i + 1))
	sleep 0.05
done
eq "locked by another process: the holder took the lock" "$((i < 200))" 1
start=$(date +%s)
"$NEARCRAWL" crawl -d "$DB" $OPTS $RF 2>"$E2E_TMP/err"
eq "locked by another process: exits 2" "$?" 2
eq "locked by another process: gave up within the busy timeout" \
    "$(($(date +%s) - start <= 15))" 1
ok "locked by another process: says so" \
    grep -q "locked.db: cannot write: database is locked (another process holds it; gave up after 5 s)" "$E2E_TMP/err"
"$NEARCRAWL" report -d "$DB" -o "$E2E_TMP/locked-report" --quiet 2>/dev/null
eq "locked by another process: report still reads" "$?" 0
echo "ROLLBACK;" >&3
exec 3>&-
wait "$LOCK_PID"
LOCK_PID=""
eq "locked by another process: nothing written" \
    "$(q "$DB" "PRAGMA integrity_check; SELECT count(*) FROM meta WHERE key = 'held'")" \
    "ok
0"

# ---- Read-only. As root, nearcrawl runs as nobody, from a copy it can
# read; the databases live in directories nobody can reach.
AS=""
if [ "$(id -u)" -eq 0 ]; then
	AS="setpriv --reuid=65534 --regid=65534 --clear-groups"
	chmod 711 "$E2E_TMP"
	mkdir -m 755 "$E2E_TMP/bin"
	cp "$NEARCRAWL" "$E2E_TMP/bin/nearcrawl"
	RO_NC="$E2E_TMP/bin/nearcrawl"
else
	RO_NC=$NEARCRAWL
fi
RO="$E2E_TMP/ro"
# A name SQLite's URIs would misread unless escaped.
RODIR="$RO/dir ?#%41"
mkdir -p "$RO/file" "$RODIR" "$RO/out"
chmod 755 "$RO"
chmod 777 "$RO/file" "$RO/out"
cp "$E2E_TMP/ref.db" "$RO/file/ro.db"
chmod 444 "$RO/file/ro.db"
cp "$E2E_TMP/ref.db" "$RODIR/ro.db"
chmod 666 "$RODIR/ro.db"
chmod 555 "$RODIR"
$AS "$RO_NC" crawl -d "$RO/file/ro.db" $OPTS $RF 2>"$E2E_TMP/err"
eq "read-only file: crawl exits 2" "$?" 2
ok "read-only file: says so" grep -q "ro.db: file is read-only" "$E2E_TMP/err"
ok "read-only file: untouched" cmp "$RO/file/ro.db" "$E2E_TMP/ref.db"
$AS "$RO_NC" report -d "$RO/file/ro.db" -o "$RO/out/a" --quiet 2>"$E2E_TMP/err"
eq "read-only file: report exits 0" "$?" 0
ok "read-only file: report written" test -s "$RO/out/a/summary.txt"
$AS "$RO_NC" crawl -d "$RODIR/ro.db" $OPTS $RF 2>"$E2E_TMP/err"
eq "read-only directory: crawl exits 2" "$?" 2
ok "read-only directory: says so" \
    grep -q "readonly database (the file or its directory is read-only)" "$E2E_TMP/err"
$AS "$RO_NC" report -d "$RODIR/ro.db" -o "$RO/out/b" --quiet 2>"$E2E_TMP/err"
eq "read-only directory: report exits 0" "$?" 0
eq "read-only directory: report has every page" \
    "$(tail -n 1 "$RO/out/b/growth.csv" | cut -d, -f1)" 41
eq "read-only directory: nothing added to it" "$(ls "$RODIR")" ro.db
ok "read-only directory: file untouched" cmp "$RODIR/ro.db" "$E2E_TMP/ref.db"
# A -wal left there may hold writes: not read as if it were not.
chmod 755 "$RODIR"
: >"$RODIR/ro.db-wal"
chmod 555 "$RODIR"
$AS "$RO_NC" report -d "$RODIR/ro.db" -o "$RO/out/c" --quiet 2>"$E2E_TMP/err"
eq "read-only directory with a -wal: report exits 2" "$?" 2
ok "read-only directory with a -wal: says why" \
    grep -q "unable to open database file (the file, or the -wal and -shm files beside it" "$E2E_TMP/err"
chmod 755 "$RODIR"

# ---- Garbage on the command line and in config files: exit 2, a message.
garbage() {
	name=$1
	shift
	"$NEARCRAWL" "$@" >/dev/null 2>"$E2E_TMP/err"
	eq "$name: exits 2" "$?" 2
	ok "$name: a message" test -s "$E2E_TMP/err"
}
garbage "missing argument" crawl --max-pages
garbage "non-numeric value" crawl --max-pages many "$SEED"
garbage "negative value" crawl --delay-ms=-5 "$SEED"
garbage "flag with a value" crawl --quiet=yes "$SEED"
garbage "-c without a file" crawl -c
garbage "config file is a directory" crawl -c "$E2E_TMP" "$SEED"
printf '[nope]\nx = 1\n' >"$E2E_TMP/section.ini"
garbage "unknown INI section" crawl -c "$E2E_TMP/section.ini" "$SEED"
printf '[crawl]\nthis line has no equals sign\n' >"$E2E_TMP/line.ini"
garbage "malformed INI line" crawl -c "$E2E_TMP/line.ini" "$SEED"
ok "malformed INI line: names the line" grep -q "line.ini:2: syntax error" "$E2E_TMP/err"
dd if=/dev/urandom of="$E2E_TMP/binary.ini" bs=1024 count=4 2>/dev/null
printf '\000' >>"$E2E_TMP/binary.ini"
garbage "binary config file" crawl -c "$E2E_TMP/binary.ini" "$SEED"
garbage "report without -d" report -o "$E2E_TMP/r"
garbage "report with an extra argument" report -d "$E2E_TMP/ref.db" -o \
    "$E2E_TMP/r" extra
garbage "robots with two arguments" robots "$E2E_TMP/ref.db" nearcrawl
garbage "compare with one document" compare "$E2E_TMP/ref.db"
garbage "new database without seeds" crawl -d "$E2E_TMP/new.db"
ok "new database without seeds: no file left" test ! -e "$E2E_TMP/new.db"
garbage "seed outside the domains" crawl -d "$E2E_TMP/new.db" \
    --allow-domain elsewhere.test "$SEED"
ok "seed outside the domains: no file left" test ! -e "$E2E_TMP/new.db"
garbage "empty command" ""
"$NEARCRAWL" >/dev/null 2>&1
eq "no command: exits 2" "$?" 2
e2e_finish
