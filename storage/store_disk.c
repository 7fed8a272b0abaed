/*
 * store_disk: writes reaching the disk on SQLite -- the checkpoints that
 * copy the write-ahead log into the database file, whose failures SQLite
 * would keep to itself, and the check that a database has room for a
 * batch before a crawl fetches one (store_checkpoint, store_room).
 *
 * A commit writes only to DB-wal; the database file itself is written by
 * checkpoints, automatic ones every WAL_CHECKPOINT_BYTES (store_open.c)
 * and the one at close. When the file refuses writes (made immutable,
 * a read-only remount, a full disk) SQLite's checkpoints fail silently:
 * every page stays in DB-wal, which grows without end, and a crawl ends
 * as if nothing were wrong. Here both kinds of checkpoint report.
 */
#include "storage/store_int.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "util/err.h"

/* Cache pages while the room check writes: few, so that its write spills
 * into DB-wal at once rather than waiting in memory for a commit. */
#define ROOM_CACHE_PAGES 64
/* What one page of a crawl takes in a database that has none to tell. */
#define ROOM_PAGE_GUESS 4096
/* The room check writes at least this ... */
#define ROOM_MIN_BYTES ((int64_t)1 << 20)
/* ... and at most this: the size SQLite cuts DB-wal back to (store_open.c),
 * so that the check leaves no larger log than a crawl does. */
#define ROOM_MAX_BYTES ((int64_t)64 << 20)

/*
 * s->err for a checkpoint that failed with rc: what SQLite says, the
 * system's reason, and where the pages are.
 */
static int
checkpoint_failed(struct store *s, int rc)
{
	sqlite3 *h = sdb_sqlite(s->db);
	int e = sqlite3_system_errno(h);

	if ((rc & 0xff) != SQLITE_IOERR)
		e = 0;
	return err_set(s->err, sizeof(s->err), -1, "cannot copy the "
	    "write-ahead log into the database file: %s (%s%swhat was "
	    "committed is kept in the -wal file beside it, and goes into the "
	    "database once the file can be written again and it is opened)",
	    sqlite3_errstr(rc), e != 0 ? strerror(e) : "", e != 0 ? "; " : "");
}

/*
 * SQLite's WAL hook, called after each commit with the log's size in
 * pages: a checkpoint every s->ckpt_pages, as PRAGMA wal_autocheckpoint
 * would run, but its failure is returned -- the commit stands, and the
 * COMMIT reports the error (store__db_fail then says it was the
 * checkpoint). A checkpoint kept from finishing by a reader is no failure.
 */
static int
on_wal(void *arg, sqlite3 *h, const char *name, int pages)
{
	struct store *s = arg;
	int rc;

	if (s->ckpt_pages <= 0 || pages < s->ckpt_pages)
		return SQLITE_OK;
	rc = sqlite3_wal_checkpoint_v2(h, name, SQLITE_CHECKPOINT_PASSIVE,
	    NULL, NULL);
	if (rc == SQLITE_OK || rc == SQLITE_BUSY || rc == SQLITE_LOCKED)
		return SQLITE_OK;
	s->ckpt_rc = rc;
	return rc;
}

int
store__checkpoint_every(struct store *s, long bytes)
{
	struct sdb_stmt *st;
	sqlite3 *h = sdb_sqlite(s->db);
	long page = 4096;
	int rc;

	if (h == NULL)
		return SDB_OK;
	if ((rc = sdb_prepare(s->db, "PRAGMA page_size", &st)) != SDB_OK)
		return rc;
	if (sdb_step(st) == SDB_ROW && sdb_column_int64(st, 0) > 0)
		page = (long)sdb_column_int64(st, 0);
	sdb_finalize(st);
	s->ckpt_pages = (int)(bytes / page);
	/* Replaces SQLite's own automatic checkpoints. */
	sqlite3_wal_hook(h, on_wal, s);
	return SDB_OK;
}

int
store__checkpoint_report(struct store *s)
{
	int rc = s->ckpt_rc;

	if (rc == 0)
		return 0;
	s->ckpt_rc = 0;
	checkpoint_failed(s, rc);
	return 1;
}

int
store_checkpoint(struct store *s)
{
	sqlite3 *h = sdb_sqlite(s->db);
	int rc;

	if (h == NULL)
		return 0;
	rc = sqlite3_wal_checkpoint_v2(h, "main", SQLITE_CHECKPOINT_PASSIVE,
	    NULL, NULL);
	if (rc == SQLITE_OK || rc == SQLITE_BUSY || rc == SQLITE_LOCKED)
		return 0;
	return checkpoint_failed(s, rc);
}

/* s->err for the last statement's failure; -1. (Not store__db_fail,
 * which asks this file whether a checkpoint failed: the room check runs
 * on a database opened before, whose commits are kept.) */
static int
disk_fail(struct store *s)
{
	store__why_failed(s->db, s->err, sizeof(s->err));
	return -1;
}

/* The first column of a one-row query, or -1. */
static int64_t
pragma_int(struct store *s, const char *sql)
{
	struct sdb_stmt *st = NULL;
	int64_t v = -1;

	if (sdb_prepare(s->db, sql, &st) == SDB_OK && sdb_step(st) == SDB_ROW)
		v = sdb_column_int64(st, 0);
	sdb_finalize(st);
	return v;
}

int
store_room(struct store *s, int64_t pages, int64_t batch, int64_t *bytes)
{
	struct sdb_stmt *st = NULL;
	int64_t per = ROOM_PAGE_GUESS, size, cache;
	char sql[64];
	int rc, ret = -1;

	*bytes = 0;
	if (sdb_sqlite(s->db) == NULL || batch <= 0)
		return 0;
	size = pragma_int(s, "PRAGMA page_count") *
	    pragma_int(s, "PRAGMA page_size");
	if (pages > 0 && size > 0 && size / pages > per)
		per = size / pages;
	*bytes = per * batch;
	if (*bytes < ROOM_MIN_BYTES)
		*bytes = ROOM_MIN_BYTES;
	if (*bytes > ROOM_MAX_BYTES)
		*bytes = ROOM_MAX_BYTES;
	if ((cache = pragma_int(s, "PRAGMA cache_size")) == -1)
		return disk_fail(s);
	snprintf(sql, sizeof(sql), "PRAGMA cache_size = %d", ROOM_CACHE_PAGES);
	/* Not store_begin and store_rollback: nothing of the store's own
	 * state is in this transaction, and a rollback there would drop the
	 * frontier's URLs it keeps in memory. */
	if (sdb_exec(s->db, sql) != SDB_OK ||
	    sdb_exec(s->db, "BEGIN IMMEDIATE") != SDB_OK)
		return disk_fail(s);
	/* Rolled back below: meta's key is never there for anyone to read,
	 * and the database file is not touched. */
	rc = sdb_prepare(s->db, "INSERT INTO meta (key, value) "
	    "VALUES ('room check', zeroblob(?))", &st);
	if (rc == SDB_OK)
		rc = sdb_bind_int64(st, 1, *bytes);
	if (rc == SDB_OK)
		rc = sdb_step(st);
	if (rc == SDB_DONE)
		ret = 0;
	else
		disk_fail(s);
	sdb_finalize(st);
	if (sdb_exec(s->db, "ROLLBACK") != SDB_OK && ret == 0)
		ret = disk_fail(s);
	snprintf(sql, sizeof(sql), "PRAGMA cache_size = %lld",
	    (long long)cache);
	if (sdb_exec(s->db, sql) != SDB_OK && ret == 0)
		ret = disk_fail(s);
	return ret;
}
