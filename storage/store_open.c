/*
 * store_open: opening and closing a database -- the writer lock, the checks
 * that the file is ours, the connection settings, the prepared statements
 * -- and the transactions of a batch. The rest of storage/store.h and of
 * the headers of its parts is implemented by job:
 *
 *   store_err.c       what a failure means (store_hint)
 *   store_disk.c      checkpoints that report, the room check (store_room)
 *   store_verdict.c   the verdicts' words
 *   store_schema.c    the schema and its upgrades
 *   store_stmt.c      the statements, store_explain
 *   store_pg.c        opening on PostgreSQL
 *   store_frontier.c  meta, frontier, robots and hosts (store_frontier.h)
 *   store_urls.c      the frontier's URLs in memory, on SQLite
 *   store_settings.c  given-up hosts retried (store_frontier.h)
 *   store_pages.c     pages, duplicates, links, counts (store_pages.h)
 *   store_resume.c    what a resumed crawl loads (store_resume.h)
 *   store_visits.c    recrawls (store_visits.h)
 *   store_archive.c   what a crawl writing WARC files keeps (store_archive.h)
 *   store_share.c     a crawl shared by several processes (store_share.h)
 *   store_ahead.c     a shared store's takes sent ahead (store_share.h)
 *   store_search.c    the full-text index (store_search.h), and
 *   store_search_ts.c an FTS5 query as a tsquery, and
 *   store_searchw.c   SQLite's index file and its writer thread
 *
 * The commands' rows are in store_conn.c and store_report.c, store_rank.c,
 * store_eval.c and store_export.c (storage/query.h).
 */
#include "storage/store.h"
#include "storage/store_int.h"
#include "storage/store_searchw.h"

#include <sys/file.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/err.h"

/*
 * Writer stores open in this process. A second writer open of the same file
 * is refused from this list instead of by flock: probing with flock means
 * opening and closing another descriptor of the file, and closing any
 * descriptor drops every POSIX lock this process's SQLite holds on it.
 */
static struct store *writers;

/* err = "PATH: " and why db failed. */
static void
open_msg(struct sdb *db, const char *path, char *err, size_t errsz)
{
	char why[320];

	store__why_failed(db, why, sizeof(why));
	err_set(err, errsz, -1, "%s: %s", path, why);
}

/* The first column of a one-row query run once, as at open. */
static int
query_int(struct sdb *db, const char *sql, int64_t *v)
{
	struct sdb_stmt *st = NULL;
	int rc;

	rc = sdb_prepare(db, sql, &st);
	if (rc != SDB_OK)
		goto out;
	rc = sdb_step(st);
	if (rc == SDB_ROW) {
		*v = sdb_column_int64(st, 0);
		rc = SDB_OK;
	} else if (rc == SDB_DONE)
		rc = SQLITE_ERROR;
out:
	sdb_finalize(st);
	return rc;
}

/*
 * Take the writer lock on a descriptor of path itself, creating an empty
 * file when allowed. The descriptor must outlive the SQLite connection.
 */
static int
lock_file(struct store *s, const char *path, unsigned flags, int *created,
    char *err, size_t errsz)
{
	struct stat st;
	struct store *w;
	int fd;

	if (stat(path, &st) == 0)
		for (w = writers; w != NULL; w = w->next_writer)
			if (w->dev == st.st_dev && w->ino == st.st_ino)
				goto busy;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd == -1 && errno == ENOENT && (flags & STORE_CREATE)) {
		fd = open(path, O_RDONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		if (fd != -1)
			*created = 1;
		else if (errno == ENOENT)
			return err_set(err, errsz, -1, "%s: its directory does "
			    "not exist (create it first)", path);
	}
	if (fd == -1) {
		err_set(err, errsz, -1, "%s: %s", path,
		    errno == ENOENT ? "no such file" : strerror(errno));
		return -1;
	}
	s->lockfd = fd;
	if (fstat(fd, &st) == -1) {
		err_set(err, errsz, -1, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		err_set(err, errsz, -1, "%s: not a regular file", path);
		return -1;
	}
	s->dev = st.st_dev;
	s->ino = st.st_ino;
	if (flock(fd, LOCK_EX | LOCK_NB) == -1) {
		if (errno == EWOULDBLOCK)
			goto busy;
		err_set(err, errsz, -1, "%s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
busy:
	err_set(err, errsz, -1, "%s: in use by another nearcrawl process", path);
	return -1;
}

/*
 * Decide, by reading only, whether the open file is ours (*fresh = 0) or an
 * empty database we may initialise (*fresh = 1).
 */
static int
check_file(struct store *s, const char *path, int *fresh, char *err,
    size_t errsz)
{
	int64_t appid = 0, version = 0, objects = 0;
	int rc;

	rc = query_int(s->db, "PRAGMA application_id", &appid);
	if (rc == SDB_OK)
		rc = query_int(s->db, "PRAGMA user_version", &version);
	if (rc == SDB_OK)
		rc = query_int(s->db, "SELECT count(*) FROM sqlite_master",
		    &objects);
	if ((rc & 0xff) == SQLITE_NOTADB) {
		err_set(err, errsz, -1, "%s: not an SQLite database", path);
		return -1;
	}
	if (rc != SDB_OK) {
		open_msg(s->db, path, err, errsz);
		return -1;
	}
	*fresh = 0;
	if (appid == 0 && objects == 0)
		*fresh = 1;
	else if (appid != STORE_APPLICATION_ID || version < 1) {
		err_set(err, errsz, -1, "%s: not a nearcrawl database", path);
		return -1;
	} else if (version > STORE_SCHEMA_VERSION) {
		err_set(err, errsz, -1, "%s: made by a newer nearcrawl (schema %lld)",
		    path, (long long)version);
		return -1;
	}
	return 0;
}

/* Bytes of WAL between two automatic checkpoints (store_disk.c). */
#define WAL_CHECKPOINT_BYTES (256 << 20)

/* The connection settings; only a writer may change the journal mode. */
static int
configure(struct store *s, const char *path, int readonly, char *err,
    size_t errsz)
{
	const char *sql;

	/*
	 * New databases get 1 KiB pages, not 4: most bytes a crawl writes
	 * are B-tree leaves of the URL indexes (the frontier's alone took 64%
	 * of the WAL at 100,000 pages), each insert at a random key
	 * rewriting a whole leaf into the WAL, so a smaller page writes less
	 * for the same insert (512-byte pages wrote more again). A
	 * checkpoint every 256 MiB of WAL, not SQLite's 4 MiB: a page a crawl
	 * rewrites many times reaches the database once per checkpoint (the
	 * interval is set in pages below, once the page size is known; an
	 * older database keeps its page size). With 2048-page batches the
	 * bytes written at 100,000 pages fell from 41 to 21 KB a page
	 * (docs/performance.md). The WAL file is cut back to 64 MiB after a
	 * checkpoint, so a reader that held one off leaves no huge file.
	 * SQLite's page cache is 2,000 pages by default, 2 MiB of 1 KiB
	 * pages: the URL indexes' leaves were read back from the file
	 * at almost every insert. 64 MiB of cache keeps the upper levels
	 * and the recent leaves; at 100,000 pages the crawl took 62 s
	 * instead of 81 s and wrote as much (docs/performance.md).
	 */
	sql = readonly ? "PRAGMA foreign_keys = ON" :
	    "PRAGMA cache_size = -65536; PRAGMA page_size = 1024; "
	    "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; "
	    "PRAGMA journal_size_limit = 67108864; PRAGMA foreign_keys = ON";
	if (sdb_exec(s->db, sql) != SDB_OK ||
	    (!readonly &&
	    store__checkpoint_every(s, WAL_CHECKPOINT_BYTES) != 0)) {
		open_msg(s->db, path, err, errsz);
		return -1;
	}
	return 0;
}

/*
 * path as an SQLite URI that opens it immutable: "%", "?" and "#" are
 * escaped, and an absolute path gets an empty authority, so "//x" stays a
 * path. Returns a malloc'd string, or NULL when out of memory.
 */
static char *
immutable_uri(const char *path)
{
	static const char tail[] = "?immutable=1";
	size_t len = strlen(path), o;
	const char *p;
	char *uri;

	if ((uri = malloc(3 * len + sizeof("file://") + sizeof(tail))) == NULL)
		return NULL;
	o = (size_t)sprintf(uri, "%s", path[0] == '/' ? "file://" : "file:");
	for (p = path; *p != '\0'; p++) {
		if (*p == '%' || *p == '?' || *p == '#')
			o += (size_t)sprintf(
			    uri + o, "%%%02x", (unsigned char)*p);
		else
			uri[o++] = *p;
	}
	memcpy(uri + o, tail, sizeof(tail));
	return uri;
}

/* Whether the file path + suffix surely does not exist. */
static int
absent(const char *path, const char *suffix)
{
	struct stat st;
	char *name;
	int gone;

	if ((name = sqlite3_mprintf("%s%s", path, suffix)) == NULL)
		return 0;
	gone = stat(name, &st) == -1 && errno == ENOENT;
	sqlite3_free(name);
	return gone;
}

/*
 * Open path read-only. A database in WAL mode is read through its -shm
 * file, which SQLite creates when it is missing -- impossible in a
 * directory we may not write (a read-only mount, someone else's
 * directory). Without a -wal file there are no writes still to merge and
 * no writer at work (a writer keeps its -wal while open), so the file is
 * then read as immutable, needing neither -- unless a -journal (a file
 * switched out of WAL mode, with a transaction to roll back) is there.
 */
int
store__open_reader(const char *path, sqlite3 **db)
{
	char *uri;
	int rc, code;

	rc = sqlite3_open_v2(path, db, SQLITE_OPEN_READONLY, NULL);
	if (rc != SDB_OK)
		return rc;
	sqlite3_busy_timeout(*db, STORE_BUSY_MS);
	if (sqlite3_exec(*db, "SELECT count(*) FROM sqlite_master", NULL, NULL,
	        NULL) == SDB_OK)
		return SDB_OK;
	/* A read that needs to write: the -wal or -shm cannot be made. */
	code = sqlite3_errcode(*db);
	if (code != SQLITE_READONLY && code != SQLITE_CANTOPEN)
		return SDB_OK; /* the caller's queries meet it again */
	if (!absent(path, "-wal") || !absent(path, "-journal") ||
	    (uri = immutable_uri(path)) == NULL)
		return SDB_OK;
	sqlite3_close(*db);
	rc = sqlite3_open_v2(
	    uri, db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL);
	free(uri);
	if (rc == SDB_OK)
		sqlite3_busy_timeout(*db, STORE_BUSY_MS);
	return rc;
}

int
store_limit_pages(struct store *s, int64_t pages)
{
	struct sdb_stmt *st = NULL;
	char sql[64];
	int rc;

	if (pages < 1)
		return store__fail(s, "page limit %lld is not positive",
		    (long long)pages);
	if (sdb_is_pg(s->db))
		return 0; /* the server's own limits apply */
	/* A pragma takes no parameters; a number formatted here is no
	 * outside text. */
	snprintf(
	    sql, sizeof(sql), "PRAGMA max_page_count = %lld", (long long)pages);
	if (sdb_prepare(s->db, sql, &st) != SDB_OK)
		return store__db_fail(s);
	rc = sdb_step(st);
	if (rc != SDB_ROW && rc != SDB_DONE) {
		store__db_fail(s);
		sdb_finalize(st);
		return -1;
	}
	sdb_finalize(st);
	return 0;
}

/*
 * Remove a database file this open made, with the -wal and -shm files a
 * failed first write can leave (SQLite deletes them only when it could
 * checkpoint). Nobody else knew the new file while we held it.
 */
static void
remove_created(const char *path)
{
	static const char *const suffix[] = {"-wal", "-shm"};
	char *name;
	size_t i;

	unlink(path);
	for (i = 0; i < sizeof(suffix) / sizeof(suffix[0]); i++)
		if ((name = sqlite3_mprintf("%s%s", path, suffix[i])) != NULL) {
			unlink(name);
			sqlite3_free(name);
		}
}

/*
 * A writer open of an SQLite database: delete the entries of its index
 * file (store_searchw.h) whose pages were never committed. 0, or -1 with
 * err set.
 */
static int
search_trim(struct store *s, const char *path, char *err,
    size_t errsz)
{
	struct sdb_stmt *st = NULL;
	int64_t maxid, dropped;
	char *side;
	int rc;

	if (sdb_is_pg(s->db))
		return 0;
	if (sdb_prepare(s->db, "SELECT coalesce(max(id), 0) FROM pages",
	    &st) != SDB_OK)
		return err_set(err, errsz, -1, "%s: %s", path,
		    sdb_errmsg(s->db));
	rc = store__one_int(s, st, NULL, &maxid);
	sdb_finalize(st);
	if (rc != 0)
		return err_set(err, errsz, -1, "%s: %s", path, s->err);
	if ((side = store_searchw_path(path)) == NULL)
		return err_set(err, errsz, -1, "%s: out of memory", path);
	rc = store_searchw_trim(side, maxid, &dropped, err, errsz);
	free(side);
	return rc;
}

struct store *
store_open(const char *path, unsigned flags, char *err, size_t errsz)
{
	struct store *s;
	struct stat st;
	int readonly = (flags & STORE_READONLY) != 0;
	int created = 0, fresh = 0, rc;
	sqlite3 *h = NULL;

	if (sdb_target_is_pg(path))
		return store__open_pg(path, flags, err, errsz);
	err_set(err, errsz, -1, "%s", "");
	s = calloc(1, sizeof(*s));
	if (s == NULL) {
		err_set(err, errsz, -1, "%s: out of memory", path);
		return NULL;
	}
	s->lockfd = -1;
	if (readonly) {
		if (stat(path, &st) == -1) {
			err_set(err, errsz, -1, "%s: %s", path, errno == ENOENT ?
			    "no such file" : strerror(errno));
			goto fail;
		}
	} else if (lock_file(s, path, flags, &created, err, errsz) == -1)
		goto fail;
	/* A store is used by one thread at a time (store.h): SQLite's
	 * mutexes around each of its calls would guard nothing. */
	rc = readonly ? store__open_reader(path, &h)
	              : sqlite3_open_v2(path, &h, SQLITE_OPEN_READWRITE |
	                    SQLITE_OPEN_NOMUTEX, store__vfs());
	if (h != NULL && (s->db = sdb_of_sqlite(h)) == NULL)
		sqlite3_close(h);
	if (rc != SDB_OK || s->db == NULL) {
		if (s->db == NULL)
			err_set(err, errsz, -1, "%s: out of memory", path);
		else
			open_msg(s->db, path, err, errsz);
		goto fail;
	}
	/* Before the first read: another writer may be committing. */
	sqlite3_busy_timeout(h, STORE_BUSY_MS);
	if (check_file(s, path, &fresh, err, errsz) == -1)
		goto fail;
	if (fresh && (readonly || !(flags & STORE_CREATE))) {
		err_set(err, errsz, -1, "%s: not a nearcrawl database (empty)",
		    path);
		goto fail;
	}
	if (!readonly && sqlite3_db_readonly(h, "main") == 1) {
		err_set(err, errsz, -1, "%s: file is read-only", path);
		goto fail;
	}
	if (configure(s, path, readonly, err, errsz) == -1)
		goto fail;
	if (fresh && store__create_schema(s, path, err, errsz) == -1)
		goto fail;
	if (!fresh && !readonly && store__upgrade_schema(s, path, err, errsz) == -1)
		goto fail;
	if (store__prepare_all(s, path, readonly, err, errsz) == -1)
		goto fail;
	/* Before a page id can be drawn again: a kill between the index's
	 * commit and the database's left entries of pages never kept. */
	if (!readonly && search_trim(s, path, err, errsz) == -1)
		goto fail;
	if (!readonly) {
		s->next_writer = writers;
		writers = s;
	}
	s->created = created;
	err_set(s->err, sizeof(s->err), 0, "no error");
	return s;
fail:
	store__release(s);
	if (created)
		remove_created(path);
	return NULL;
}

int
store_in_use(const char *path)
{
	int fd, busy;

	if (sdb_target_is_pg(path))
		return 0;
	if ((fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)) ==
	    -1)
		return -1;
	/* Shared, and given back at once: a writer starting meanwhile
	 * would take it for another writer. */
	busy = flock(fd, LOCK_SH | LOCK_NB) == -1 && errno == EWOULDBLOCK;
	if (!busy)
		flock(fd, LOCK_UN);
	close(fd);
	return busy;
}

void
store_close(struct store *s)
{
	struct store **pp;

	if (s == NULL)
		return;
	for (pp = &writers; *pp != NULL; pp = &(*pp)->next_writer)
		if (*pp == s) {
			*pp = s->next_writer;
			break;
		}
	store__urls_drop(s);
	store__release(s);
}

int
store_created(const struct store *s)
{
	return s != NULL && s->created;
}

const char *
store_errmsg(const struct store *s)
{
	return s == NULL ? "no database" : s->err;
}

int
store_begin(struct store *s)
{
	int rc = store__exec_stmt(s, s->st[ST_BEGIN], NULL);

	s->begun = sdb_runs(s->db);
	return rc;
}

int
store_commit(struct store *s)
{
	/* The index first: it then holds every page committed, and a kill
	 * between the two leaves only entries the next open deletes. */
	if (s->sw != NULL && store_searchw_commit(s->sw) != 0)
		return store__fail(s, "the search index: %s",
		    store_searchw_errmsg(s->sw));
	if (store__exec_stmt(s, s->st[ST_COMMIT], NULL) != 0)
		return -1;
	s->committed = s->added;
	return 0;
}

int
store_renew(struct store *s)
{
	/* BEGIN is the last statement run: the open transaction is empty. */
	if (sdb_runs(s->db) == s->begun)
		return 0;
	if (sdb_is_pg(s->db)) {
		/* Sent without waiting: a failed COMMIT is reported by the
		 * next statement that waits, and aborts what follows it. */
		if (store__exec_later(s, s->st[ST_COMMIT], NULL) != 0 ||
		    store__exec_later(s, s->st[ST_BEGIN], NULL) != 0)
			return -1;
		/* The commit runs now, letting go of the verdict locks, and
		 * the pages are there for the other processes to read. */
		if (sdb_send(s->db) != SDB_OK)
			return store__db_fail(s);
		s->committed = s->added;
	} else if (store_commit(s) != 0 || store_begin(s) != 0)
		return -1;
	s->begun = sdb_runs(s->db);
	return 0;
}

int
store_rollback(struct store *s)
{
	/* What memory knew of the frontier may be gone from the file. */
	store__urls_drop(s);
	/* The entries handed over since the commit go with the pages. */
	if (s->sw != NULL && store_searchw_rollback(s->sw) != 0)
		store__fail(s, "the search index: %s",
		    store_searchw_errmsg(s->sw));
	return store__exec_stmt(s, s->st[ST_ROLLBACK], NULL);
}
