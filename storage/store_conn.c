/*
 * store_conn: a command's own connection to a checked database
 * (storage/query.h): opening it, its one transaction, its errors, and the
 * helpers the row functions of store_report.c, store_rank.c and
 * store_eval.c run their statements with.
 */
#include "storage/query.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "storage/store_int.h"
#include "storage/store_searchw.h"
#include "util/err.h"

/* The exit status for h's last error, by the rule of store_conn_fail. */
static int
conn_code(struct sdb *h, int runtime, int baddb)
{
	switch (sdb_errcode(h) & 0xff) {
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
	case SQLITE_NOMEM:
	case SQLITE_IOERR:
	case SQLITE_FULL:
	case SQLITE_READONLY:
	case SQLITE_CORRUPT:
		return runtime;
	default:
		return baddb;
	}
}

int
store__conn_fail(struct sdb *h, const char *path, char *err, size_t errsz,
    int runtime, int baddb)
{
	char why[400];

	store__why_failed(h, why, sizeof(why));
	return err_set(err, errsz, conn_code(h, runtime, baddb), "%s: %s",
	    store__target_name(path), why);
}

int
store__conn_attach_search(struct store_conn *c)
{
	struct sdb_stmt *st = NULL;
	char *side;
	int rc = -1;

	c->side = 0;
	if (sdb_is_pg(c->db))
		return 0;
	if ((side = store_searchw_path(c->path)) == NULL)
		return -1;
	if (access(side, F_OK) != 0) {
		free(side);
		return 0;
	}
	/* The main file's open flags are the attached one's: read-only for
	 * a reader. */
	if (sdb_prepare(c->db, "ATTACH DATABASE ?1 AS search", &st) ==
	    SDB_OK && sdb_bind_text(st, 1, side) == SDB_OK &&
	    sdb_step(st) == SDB_DONE) {
		c->side = 1;
		rc = 0;
	}
	sdb_finalize(st);
	free(side);
	return rc;
}

int
store_conn_open(const char *path, enum store_conn_mode mode,
    struct store_conn **c, char *err, size_t errsz, int runtime, int baddb)
{
	struct store_conn *n;
	char why[320];
	sqlite3 *h = NULL;
	int rc, code;

	*c = NULL;
	if ((n = calloc(1, sizeof(*n))) == NULL ||
	    (n->path = strdup(path)) == NULL) {
		free(n);
		return err_set(err, errsz, runtime, "%s: out of memory", path);
	}
	n->mode = mode;
	if (sdb_target_is_pg(path)) {
		if ((n->db = sdb_open_pg(path, 0, why, sizeof(why))) != NULL) {
			*c = n;
			return 0;
		}
		code = err_set(err, errsz, runtime, "%s: %s",
		    store__target_name(path), why);
		store_conn_close(n);
		return code;
	}
	if (mode == STORE_CONN_READ)
		rc = store__open_reader(path, &h);
	else
		rc = sqlite3_open_v2(path, &h, SQLITE_OPEN_READWRITE, NULL);
	if (h != NULL && (n->db = sdb_of_sqlite(h)) == NULL)
		sqlite3_close(h);
	if (rc == SDB_OK && n->db != NULL) {
		sqlite3_busy_timeout(h, STORE_BUSY_MS);
		/* The full-text index is a file of its own, read with the
		 * rest in one snapshot. A failure leaves it out: a damaged
		 * main file fails here too, and is the caller's to report
		 * (nearcrawl check says how); the index is then missing. */
		(void)store__conn_attach_search(n);
		*c = n;
		return 0;
	}
	if (n->db == NULL)
		code = err_set(err, errsz, runtime, "%s: out of memory", path);
	else if (mode == STORE_CONN_READ) {
		store__why_failed(n->db, why, sizeof(why));
		code = err_set(err, errsz, conn_code(n->db, runtime, baddb),
		    "%s: %s", path, why);
	} else
		code = store__conn_fail(n->db, path, err, errsz, runtime,
		    baddb);
	store_conn_close(n);
	return code;
}

void
store_conn_close(struct store_conn *c)
{
	if (c == NULL)
		return;
	sdb_finalize(c->page_url);
	sdb_finalize(c->rank_put);
	if (c->db != NULL && !sdb_autocommit(c->db))
		sdb_exec(c->db, "ROLLBACK");
	sdb_close(c->db);
	free(c->path);
	free(c->url);
	free(c);
}

/* A statement that returns no rows (or whose rows do not matter). */
static int
conn_exec(struct store_conn *c, const char *sql)
{
	struct sdb_stmt *st = NULL;
	int rc;

	if (sdb_prepare(c->db, sql, &st) != SDB_OK)
		return -1;
	rc = sdb_step(st);
	sdb_finalize(st);
	return rc == SDB_DONE || rc == SDB_ROW ? 0 : -1;
}

int
store_conn_begin(struct store_conn *c)
{
	/* A writer takes the lock at once, as store_begin does. A reader
	 * on PostgreSQL asks for one snapshot for the whole transaction, as
	 * SQLite gives: by default each statement there sees its own, and
	 * the files of a report would disagree while a crawl writes. */
	if (sdb_is_pg(c->db))
		return conn_exec(c, c->mode == STORE_CONN_WRITE ? "BEGIN" :
		    "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
	return conn_exec(c, c->mode == STORE_CONN_WRITE ?
	    "BEGIN IMMEDIATE" : "BEGIN");
}

int
store_conn_commit(struct store_conn *c)
{
	return conn_exec(c, "COMMIT");
}

int
store_conn_fail(struct store_conn *c, char *err, size_t errsz, int runtime,
    int baddb)
{
	return store__conn_fail(c->db, c->path, err, errsz, runtime, baddb);
}

int
store__conn_each(struct store_conn *c, const char *sql,
    int (*row)(struct sdb_stmt *st, void *ctx), void *ctx)
{
	return store__conn_each_bound(c, sql, NULL, 0, row, ctx);
}

int
store__conn_each_bound(struct store_conn *c, const char *sql,
    const struct store__param *p, int n,
    int (*row)(struct sdb_stmt *st, void *ctx), void *ctx)
{
	struct sdb_stmt *st = NULL;
	int i, rc, ret = 0;

	if (sdb_prepare(c->db, sql, &st) != SDB_OK)
		return -1;
	for (i = 0; i < n; i++)
		if ((p[i].s != NULL ? sdb_bind_text(st, i + 1, p[i].s) :
		    sdb_bind_int64(st, i + 1, p[i].i)) != SDB_OK) {
			sdb_finalize(st);
			return -1;
		}
	while ((rc = sdb_step(st)) == SDB_ROW)
		if (row != NULL && (ret = row(st, ctx)) != 0)
			break;
	if (ret == 0 && rc != SDB_DONE)
		ret = -1;
	sdb_finalize(st);
	return ret;
}

int
store__conn_int(struct store_conn *c, const char *sql, int64_t *v)
{
	struct sdb_stmt *st = NULL;
	int rc;

	if (sdb_prepare(c->db, sql, &st) != SDB_OK)
		return -1;
	rc = sdb_step(st);
	if (rc == SDB_ROW)
		*v = sdb_column_int64(st, 0);
	sdb_finalize(st);
	return rc == SDB_ROW ? 0 : -1;
}

int
store_conn_page_count(struct store_conn *c, int64_t *n)
{
	return store__conn_int(c, "SELECT count(*) FROM pages", n);
}

const char *
store_conn_page_url(struct store_conn *c, int64_t id)
{
	const char *url;
	size_t len;
	char *p;

	if (c->page_url == NULL && sdb_prepare(c->db,
	    "SELECT url FROM pages WHERE id = ?", &c->page_url) != SDB_OK)
		return NULL;
	sdb_bind_int64(c->page_url, 1, id);
	url = sdb_step(c->page_url) == SDB_ROW ?
	    (const char *)sdb_column_text(c->page_url, 0) : NULL;
	if (url != NULL) {
		len = strlen(url) + 1;
		if (len > c->urlcap) {
			if ((p = realloc(c->url, len)) == NULL)
				url = NULL;
			else {
				c->url = p;
				c->urlcap = len;
			}
		}
		if (url != NULL)
			memcpy(c->url, url, len);
	}
	sdb_reset(c->page_url);
	return url != NULL ? c->url : NULL;
}
