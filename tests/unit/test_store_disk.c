/*
 * The store's writes reaching the disk (storage/store_disk.c): the room
 * check before a crawl fetches, checkpoints that report a file refusing
 * writes, and a new file's first failure not claiming anything kept; the
 * file layer that gathers a WAL's writes (storage/store_vfs.c) against
 * SQLite's own.
 */
#include "check.h"
#include "storage/store.h"
#include "storage/store_int.h"

#include <sys/stat.h>
#include <sys/wait.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef __linux__
#include <linux/fs.h>
#include <sys/ioctl.h>
#endif

static char ddir[64];   /* this test's mkdtemp() directory */
static char dpath[128]; /* ddir/disk.db */

static void
disk_setup(void)
{
	snprintf(ddir, sizeof(ddir), "/tmp/nc_disk_XXXXXX");
	if (mkdtemp(ddir) == NULL) {
		perror("mkdtemp");
		abort();
	}
	snprintf(dpath, sizeof(dpath), "%s/disk.db", ddir);
}

static void
disk_teardown(void)
{
	static const char *const suffix[] = { "", "-wal", "-shm" };
	char p[192];
	size_t i;

	for (i = 0; i < sizeof(suffix) / sizeof(suffix[0]); i++) {
		snprintf(p, sizeof(p), "%s%s", dpath, suffix[i]);
		unlink(p);
	}
	rmdir(ddir);
}

static long long
file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? (long long)st.st_size : -1;
}

/* A page row of seq with a text of len bytes (0: none). */
static int64_t
add_page(struct store *s, int64_t seq, size_t len)
{
	struct store_page p;
	char url[64], *text = NULL;
	int64_t id;

	memset(&p, 0, sizeof(p));
	snprintf(url, sizeof(url), "http://a.example/%lld", (long long)seq);
	p.url = url;
	p.host = "a.example";
	p.verdict = STORE_VERDICT_UNIQUE;
	p.status = 200;
	p.seq = seq;
	p.fetched_at = 1700000000.5;
	if (len > 0 && (text = malloc(len + 1)) != NULL) {
		memset(text, 'x', len);
		text[len] = '\0';
		p.text = text;
	}
	id = store_page_add(s, &p);
	free(text);
	return id;
}

/* Make path immutable (on) or not, as chattr does: 0, or -1 when the
 * system or the file system cannot (not root, not Linux, tmpfs). */
static int
immutable(const char *path, int on)
{
#ifdef __linux__
	int fd = open(path, O_RDONLY), flags, rc = -1;

	if (fd == -1)
		return -1;
	if (ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0) {
		flags = on ? flags | FS_IMMUTABLE_FL : flags & ~FS_IMMUTABLE_FL;
		rc = ioctl(fd, FS_IOC_SETFLAGS, &flags);
	}
	close(fd);
	return rc;
#else
	(void)path;
	(void)on;
	return -1;
#endif
}

/* The room check writes into DB-wal and rolls back: the database file and
 * its rows stay as they were; a page-count limit below what it writes
 * fails it with the full disk's message, and the store works on. */
static void
test_room(void)
{
	char err[256];
	struct store_counts n;
	struct store *s;
	int64_t bytes = 0, seq;
	long long size;

	disk_setup();
	s = store_open(dpath, STORE_CREATE, err, sizeof(err));
	CHECK(s != NULL);
	if (s == NULL)
		goto out;
	CHECK_INT(store_begin(s), 0);
	for (seq = 1; seq <= 20; seq++)
		CHECK(add_page(s, seq, 2000) > 0);
	CHECK_INT(store_commit(s), 0);
	CHECK_INT(store_checkpoint(s), 0);
	size = file_size(dpath);
	CHECK_INT(store_room(s, 20, 2048, &bytes), 0);
	/* Each page takes over 2 KB: 2048 of them past the 1 MiB floor. */
	CHECK(bytes > 4 * 1024 * 1024 && bytes <= 64 * 1024 * 1024);
	CHECK(file_size(dpath) == size);
	CHECK_INT(store_room(s, 20, 1, &bytes), 0);
	CHECK_INT(bytes, 1024 * 1024);
	CHECK_INT(store_limit_pages(s, 1), 0); /* = the current size */
	CHECK_INT(store_room(s, 20, 2048, &bytes), -1);
	CHECK(strstr(store_errmsg(s), "database or disk is full (what was "
	    "committed is kept)") != NULL);
	CHECK_INT(store_counts(s, &n), 0);
	CHECK_INT(n.pages, 20);
	CHECK_INT(store_begin(s), 0);
	CHECK_INT(store_meta_set(s, "k", "v"), 0);
	CHECK_INT(store_commit(s), 0);
	store_close(s);
out:
	disk_teardown();
}

/* A new file whose first page cannot be stored says nothing was; once a
 * page is committed, the advice says what was committed is kept. */
static void
test_nothing_kept_yet(void)
{
	char err[256];
	struct store *s;

	disk_setup();
	s = store_open(dpath, STORE_CREATE, err, sizeof(err));
	CHECK(s != NULL);
	if (s == NULL)
		goto out;
	CHECK_INT(store_limit_pages(s, 1), 0);
	CHECK_INT(store_begin(s), 0);
	CHECK_INT(add_page(s, 1, 200000), -1);
	CHECK(strstr(store_errmsg(s), "full (no page was stored yet)") !=
	    NULL);
	store_rollback(s);
	CHECK_INT(store_limit_pages(s, 100000), 0);
	CHECK_INT(store_begin(s), 0);
	CHECK(add_page(s, 1, 10) > 0);
	CHECK_INT(store_commit(s), 0);
	CHECK_INT(store_limit_pages(s, 1), 0);
	CHECK_INT(store_begin(s), 0);
	CHECK_INT(add_page(s, 2, 200000), -1);
	CHECK(strstr(store_errmsg(s), "full (what was committed is kept)") !=
	    NULL);
	store_rollback(s);
	store_close(s);
out:
	disk_teardown();
}

/* A database file made immutable under an open store: commits still go
 * to DB-wal, but a checkpoint, the periodic one in a COMMIT or the one
 * asked for at the end, fails and says so; writable again, nothing is
 * lost. Needs root and a file system with attributes; elsewhere the
 * checks after the first are left out. */
static void
test_checkpoint_refused(void)
{
	char err[256];
	struct store_counts n;
	struct store *s;

	disk_setup();
	s = store_open(dpath, STORE_CREATE, err, sizeof(err));
	CHECK(s != NULL);
	if (s == NULL)
		goto out;
	/* A checkpoint at every commit of 4 KiB or more of log. */
	CHECK_INT(store__checkpoint_every(s, 4096), SDB_OK);
	CHECK_INT(store_begin(s), 0);
	CHECK(add_page(s, 1, 10000) > 0);
	CHECK_INT(store_commit(s), 0);
	if (immutable(dpath, 1) != 0) {
		store_close(s);
		goto out;
	}
	CHECK_INT(store_begin(s), 0);
	CHECK(add_page(s, 2, 10000) > 0);
	CHECK_INT(store_commit(s), -1);
	CHECK(strncmp(store_errmsg(s), "cannot copy the write-ahead log into "
	    "the database file: disk I/O error (Operation not permitted; what "
	    "was committed is kept in the -wal file", 110) == 0);
	/* The commit stood: the page is there. */
	CHECK_INT(store_counts(s, &n), 0);
	CHECK_INT(n.pages, 2);
	CHECK_INT(store_checkpoint(s), -1);
	CHECK(strncmp(store_errmsg(s), "cannot copy the write-ahead log", 31) ==
	    0);
	/* Once said, the next failure is the next statement's own. */
	CHECK_INT(store_begin(s), 0);
	CHECK_INT(store_meta_set(s, "k", "v"), 0);
	CHECK_INT(store_rollback(s), 0);
	CHECK_INT(immutable(dpath, 0), 0);
	CHECK_INT(store_checkpoint(s), 0);
	store_close(s);
	s = store_open(dpath, 0, err, sizeof(err));
	CHECK(s != NULL);
	if (s != NULL) {
		CHECK_INT(store_counts(s, &n), 0);
		CHECK_INT(n.pages, 2);
	}
	store_close(s);
out:
	immutable(dpath, 0);
	disk_teardown();
}

/* Open path through vfs (NULL: SQLite's default layer) in WAL mode with
 * a cache small enough for a big transaction to spill into the WAL. */
static sqlite3 *
vfs_open(const char *path, const char *vfs)
{
	sqlite3 *h = NULL;

	if (sqlite3_open_v2(path, &h, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_CREATE, vfs) != SQLITE_OK || sqlite3_exec(h,
	    "PRAGMA page_size = 1024; PRAGMA journal_mode = WAL; "
	    "PRAGMA synchronous = NORMAL; PRAGMA cache_size = 16; "
	    "CREATE TABLE IF NOT EXISTS t (k INTEGER PRIMARY KEY, v BLOB)",
	    NULL, NULL, NULL) != SQLITE_OK) {
		sqlite3_close(h);
		return NULL;
	}
	return h;
}

/* Transaction n of the same series on h: small ones, one that spills and
 * rewrites pages it spilled, and a rolled-back one. 0, or -1. */
static int
vfs_step(sqlite3 *h, int n)
{
	char sql[256];
	int rows = n % 5 == 4 ? 400 : 3;

	snprintf(sql, sizeof(sql), "BEGIN; WITH RECURSIVE s(i) AS (SELECT 1 "
	    "UNION ALL SELECT i + 1 FROM s WHERE i < %d) INSERT INTO t (v) "
	    "SELECT zeroblob(700 + i %% 900) FROM s; UPDATE t SET v = "
	    "zeroblob(300) WHERE k %% 7 = %d; %s", rows, n % 7, n % 6 == 5 ?
	    "ROLLBACK" : "COMMIT");
	return sqlite3_exec(h, sql, NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
}

/* The one integer sql gives on h, or -1. */
static long long
vfs_int(sqlite3 *h, const char *sql)
{
	sqlite3_stmt *st = NULL;
	long long v = -1;

	if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

/*
 * The same transactions through the gathering layer and SQLite's own give
 * the same rows; another connection sees each commit at once (nothing of
 * it left in a buffer); a process that ends without closing (as a kill
 * does) loses only what it had not committed.
 */
static void
test_wal_gathered(void)
{
	const char *vfs = store__vfs();
	char plain[160];
	sqlite3 *a = NULL, *b = NULL, *r = NULL;
	long long sa, sb;
	int n, seen = 0, status;
	pid_t pid;

	CHECK(vfs != NULL);
	disk_setup();
	snprintf(plain, sizeof(plain), "%s/plain.db", ddir);
	a = vfs_open(dpath, vfs);
	b = vfs_open(plain, NULL);
	r = vfs_open(dpath, NULL);
	CHECK(a != NULL && b != NULL && r != NULL);
	if (a == NULL || b == NULL || r == NULL)
		goto out;
	for (n = 0; n < 40; n++) {
		CHECK_INT(vfs_step(a, n), 0);
		CHECK_INT(vfs_step(b, n), 0);
		if (vfs_int(r, "SELECT count(*) FROM t") ==
		    vfs_int(b, "SELECT count(*) FROM t"))
			seen++;
	}
	CHECK_INT(seen, 40);
	sa = vfs_int(a, "SELECT sum(k * length(v)) FROM t");
	sb = vfs_int(b, "SELECT sum(k * length(v)) FROM t");
	CHECK(sa > 0 && sa == sb);
	sqlite3_close(r);
	sqlite3_close(a);
	r = a = NULL;

	/* A child commits, then spills a transaction it never ends. */
	if ((pid = fork()) == 0) {
		a = vfs_open(dpath, vfs);
		if (a == NULL || sqlite3_exec(a, "INSERT INTO t (v) VALUES "
		    "(zeroblob(5)); BEGIN; WITH RECURSIVE s(i) AS (SELECT 1 "
		    "UNION ALL SELECT i + 1 FROM s WHERE i < 300) INSERT INTO "
		    "t (v) SELECT zeroblob(333) FROM s", NULL, NULL, NULL) !=
		    SQLITE_OK)
			_exit(1);
		_exit(0);
	}
	CHECK(pid > 0 && waitpid(pid, &status, 0) == pid &&
	    WIFEXITED(status) && WEXITSTATUS(status) == 0);
	a = vfs_open(dpath, vfs);
	CHECK(a != NULL);
	if (a == NULL)
		goto out;
	CHECK(vfs_int(a, "SELECT count(*) FROM t WHERE length(v) = 5") == 1);
	CHECK(vfs_int(a, "SELECT count(*) FROM t WHERE length(v) = 333") == 0);
	CHECK(vfs_int(a, "SELECT sum(k * length(v)) FROM t "
	    "WHERE length(v) <> 5") == sb);
	CHECK(vfs_int(a, "SELECT count(*) FROM pragma_integrity_check "
	    "WHERE integrity_check <> 'ok'") == 0);
out:
	sqlite3_close(r);
	sqlite3_close(a);
	sqlite3_close(b);
	unlink(plain);
	snprintf(plain, sizeof(plain), "%s/plain.db-wal", ddir);
	unlink(plain);
	snprintf(plain, sizeof(plain), "%s/plain.db-shm", ddir);
	unlink(plain);
	disk_teardown();
}

void
suite_store_disk(void)
{
	RUN(test_room);
	RUN(test_nothing_kept_yet);
	RUN(test_checkpoint_refused);
	RUN(test_wal_gathered);
}
