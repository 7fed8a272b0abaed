/*
 * The store's writes reaching the disk (storage/store_disk.c): the room
 * check before a crawl fetches, checkpoints that report a file refusing
 * writes, and a new file's first failure not claiming anything kept.
 */
#include "check.h"
#include "storage/store.h"
#include "storage/store_int.h"

#include <sys/stat.h>

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

void
suite_store_disk(void)
{
	RUN(test_room);
	RUN(test_nothing_kept_yet);
	RUN(test_checkpoint_refused);
}
