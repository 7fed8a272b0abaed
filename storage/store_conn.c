/*
 * store_conn: a command's own connection to a checked database
 * (storage/query.h): opening it, its one transaction, its errors, and the
 * helpers the row functions of store_report.c, store_rank.c and
 * store_eval.c run their statements with.
 */
#include "storage/query.h"

#include <stdlib.h>
#include <string.h>

#include "storage/store_int.h"
#include "util/err.h"

/* The exit status for h's last error, by the rule of store_conn_fail. */
static int
conn_code(sqlite3 *h, int runtime, int baddb)
{
	switch (sqlite3_errcode(h) & 0xff) {
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
store__conn_fail(sqlite3 *h, const char *path, char *err, size_t errsz,
    int runtime, int baddb)
{
	const char *hint = store_hint(sqlite3_extended_errcode(h));

	return err_set(err, errsz, conn_code(h, runtime, baddb),
	    "%s: %s%s%s%s", path, sqlite3_errmsg(h), hint != NULL ? " (" : "",
	    hint != NULL ? hint : "", hint != NULL ? ")" : "");
}

int
store_conn_open(const char *path, enum store_conn_mode mode,
    struct store_conn **c, char *err, size_t errsz, int runtime, int baddb)
{
	struct store_conn *n;
	char why[320];
	int rc, code;

	*c = NULL;
	if ((n = calloc(1, sizeof(*n))) == NULL ||
	    (n->path = strdup(path)) == NULL) {
		free(n);
		return err_set(err, errsz, runtime, "%s: out of memory", path);
	}
	n->mode = mode;
	if (mode == STORE_CONN_READ)
		rc = store__open_reader(path, &n->db);
	else
		rc = sqlite3_open_v2(path, &n->db, SQLITE_OPEN_READWRITE, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_busy_timeout(n->db, STORE_BUSY_MS);
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
	sqlite3_finalize(c->page_url);
	sqlite3_finalize(c->rank_put);
	if (c->db != NULL && !sqlite3_get_autocommit(c->db))
		sqlite3_exec(c->db, "ROLLBACK", NULL, NULL, NULL);
	sqlite3_close_v2(c->db);
	free(c->path);
	free(c->url);
	free(c);
}

/* A statement that returns no rows (or whose rows do not matter). */
static int
conn_exec(struct store_conn *c, const char *sql)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (sqlite3_prepare_v2(c->db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE || rc == SQLITE_ROW ? 0 : -1;
}

int
store_conn_begin(struct store_conn *c)
{
	/* A writer takes the lock at once, as store_begin does. */
	return conn_exec(c, c->mode == STORE_CONN_WRITE ? "BEGIN IMMEDIATE" :
	    "BEGIN");
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
    int (*row)(sqlite3_stmt *st, void *ctx), void *ctx)
{
	sqlite3_stmt *st = NULL;
	int rc, ret = 0;

	if (sqlite3_prepare_v2(c->db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if ((ret = row(st, ctx)) != 0)
			break;
	if (ret == 0 && rc != SQLITE_DONE)
		ret = -1;
	sqlite3_finalize(st);
	return ret;
}

int
store__conn_int(struct store_conn *c, const char *sql, int64_t *v)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (sqlite3_prepare_v2(c->db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : -1;
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

	if (c->page_url == NULL && sqlite3_prepare_v2(c->db,
	    "SELECT url FROM pages WHERE id = ?", -1, &c->page_url, NULL) !=
	    SQLITE_OK)
		return NULL;
	sqlite3_bind_int64(c->page_url, 1, id);
	url = sqlite3_step(c->page_url) == SQLITE_ROW ?
	    (const char *)sqlite3_column_text(c->page_url, 0) : NULL;
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
	sqlite3_reset(c->page_url);
	return url != NULL ? c->url : NULL;
}
