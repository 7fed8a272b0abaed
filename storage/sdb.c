/*
 * sdb: one SQL interface over SQLite and PostgreSQL (storage/sdb.h). The
 * SQLite side hands every call straight through; the PostgreSQL side is in
 * sdb_pg.c and reached through the same functions.
 */
#include "storage/sdb.h"
#include "storage/sdb_pg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct sdb {
	sqlite3 *lite;      /* the SQLite connection, or NULL */
	struct sdb_pg *pg;  /* the PostgreSQL one, or NULL */
	int64_t runs;       /* statements run so far */
};

struct sdb_stmt {
	struct sdb *db;         /* its connection */
	sqlite3_stmt *lite;     /* SQLite's statement, or NULL */
	struct sdb_pgstmt *pg;  /* PostgreSQL's, or NULL */
	int running;            /* stepped since the last reset */
};

struct sdb *
sdb_of_sqlite(sqlite3 *h)
{
	struct sdb *db = calloc(1, sizeof(*db));

	if (db != NULL)
		db->lite = h;
	return db;
}

struct sdb *
sdb_open_pg(const char *conninfo, long lock_ms, char *err, size_t errsz)
{
	struct sdb *db = calloc(1, sizeof(*db));

	if (db == NULL) {
		snprintf(err, errsz, "out of memory");
		return NULL;
	}
	if ((db->pg = sdb_pg_connect(conninfo, lock_ms, err, errsz)) == NULL) {
		free(db);
		return NULL;
	}
	return db;
}

int
sdb_server_ready(const char *conninfo)
{
	return sdb_pg_ping(conninfo);
}

int
sdb_target_is_pg(const char *t)
{
	return t != NULL && (strncmp(t, "postgresql://", 13) == 0 ||
	    strncmp(t, "postgres://", 11) == 0 ||
	    (strchr(t, '=') != NULL && (strstr(t, "dbname=") != NULL ||
	    strstr(t, "host=") != NULL)));
}

void
sdb_close(struct sdb *db)
{
	if (db == NULL)
		return;
	if (db->lite != NULL)
		sqlite3_close(db->lite);
	sdb_pg_close(db->pg);
	free(db);
}

int
sdb_is_pg(const struct sdb *db)
{
	return db->pg != NULL;
}

int
sdb_lost(struct sdb *db)
{
	return db->pg != NULL && sdb_pg_lost(db->pg);
}

sqlite3 *
sdb_sqlite(struct sdb *db)
{
	return db->lite;
}

int64_t
sdb_runs(const struct sdb *db)
{
	return db->runs;
}

int
sdb_exec(struct sdb *db, const char *sql)
{
	db->runs++;
	if (db->lite != NULL)
		return sqlite3_exec(db->lite, sql, NULL, NULL, NULL);
	return sdb_pg_exec(db->pg, sql);
}

int
sdb_prepare(struct sdb *db, const char *sql, struct sdb_stmt **out)
{
	struct sdb_stmt *st;
	int rc;

	*out = NULL;
	if ((st = calloc(1, sizeof(*st))) == NULL)
		return SDB_NOMEM;
	st->db = db;
	if (db->lite != NULL)
		rc = sqlite3_prepare_v3(db->lite, sql, -1,
		    SQLITE_PREPARE_PERSISTENT, &st->lite, NULL);
	else
		rc = sdb_pg_prepare(db->pg, sql, &st->pg);
	if (rc != SDB_OK) {
		sdb_finalize(st);
		return rc;
	}
	*out = st;
	return SDB_OK;
}

void
sdb_finalize(struct sdb_stmt *st)
{
	if (st == NULL)
		return;
	if (st->lite != NULL)
		sqlite3_finalize(st->lite);
	sdb_pg_finalize(st->pg);
	free(st);
}

int
sdb_bind_int64(struct sdb_stmt *st, int idx, int64_t v)
{
	if (st->lite != NULL)
		return sqlite3_bind_int64(st->lite, idx, v);
	return sdb_pg_bind_int64(st->pg, idx, v);
}

int
sdb_bind_double(struct sdb_stmt *st, int idx, double v)
{
	if (st->lite != NULL)
		return sqlite3_bind_double(st->lite, idx, v);
	return sdb_pg_bind_double(st->pg, idx, v);
}

int
sdb_bind_text(struct sdb_stmt *st, int idx, const char *v)
{
	if (v == NULL)
		return sdb_bind_null(st, idx);
	if (st->lite != NULL)
		return sqlite3_bind_text(st->lite, idx, v, -1, SQLITE_STATIC);
	return sdb_pg_bind(st->pg, idx, v, 0, 0);
}

int
sdb_bind_blob(struct sdb_stmt *st, int idx, const void *v, size_t len)
{
	static const char empty[1];

	if (v == NULL)
		v = empty; /* an empty blob is not NULL */
	if (st->lite != NULL)
		return sqlite3_bind_blob64(st->lite, idx, v, len, SQLITE_STATIC);
	return sdb_pg_bind(st->pg, idx, v, len, 1);
}

int
sdb_bind_null(struct sdb_stmt *st, int idx)
{
	if (st->lite != NULL)
		return sqlite3_bind_null(st->lite, idx);
	return sdb_pg_bind(st->pg, idx, NULL, 0, 0);
}

int
sdb_step(struct sdb_stmt *st)
{
	if (!st->running) {
		st->running = 1;
		st->db->runs++;
	}
	if (st->lite != NULL)
		return sqlite3_step(st->lite);
	return sdb_pg_step(st->pg);
}

int
sdb_step_later(struct sdb_stmt *st)
{
	int rc;

	if (st->lite != NULL) {
		rc = sdb_step(st);
		return rc == SDB_ROW ? SDB_DONE : rc;
	}
	st->db->runs++;
	return sdb_pg_later(st->pg);
}

int
sdb_step_ahead(struct sdb_stmt *st)
{
	if (st->lite != NULL)
		return SDB_OK;
	st->running = 1;
	st->db->runs++;
	return sdb_pg_ahead(st->pg);
}

int
sdb_pipeline(struct sdb *db, int on)
{
	return db->pg != NULL ? sdb_pg_pipeline(db->pg, on) : 0;
}

int
sdb_send(struct sdb *db)
{
	return db->pg != NULL ? sdb_pg_send(db->pg) : SDB_OK;
}

int
sdb_flush(struct sdb *db)
{
	return db->pg != NULL ? sdb_pg_flush(db->pg) : SDB_OK;
}

void
sdb_reset(struct sdb_stmt *st)
{
	st->running = 0;
	if (st->lite != NULL)
		sqlite3_reset(st->lite);
	else
		sdb_pg_reset(st->pg);
}

void
sdb_clear_bindings(struct sdb_stmt *st)
{
	if (st->lite != NULL)
		sqlite3_clear_bindings(st->lite);
	else
		sdb_pg_clear(st->pg);
}

int
sdb_column_type(struct sdb_stmt *st, int col)
{
	if (st->lite != NULL)
		return sqlite3_column_type(st->lite, col);
	return sdb_pg_column_type(st->pg, col);
}

int64_t
sdb_column_int64(struct sdb_stmt *st, int col)
{
	if (st->lite != NULL)
		return sqlite3_column_int64(st->lite, col);
	return sdb_pg_column_int64(st->pg, col);
}

int
sdb_column_int(struct sdb_stmt *st, int col)
{
	return (int)sdb_column_int64(st, col);
}

double
sdb_column_double(struct sdb_stmt *st, int col)
{
	if (st->lite != NULL)
		return sqlite3_column_double(st->lite, col);
	return sdb_pg_column_double(st->pg, col);
}

const char *
sdb_column_text(struct sdb_stmt *st, int col)
{
	if (st->lite != NULL)
		return (const char *)sqlite3_column_text(st->lite, col);
	return sdb_pg_column_text(st->pg, col);
}

const void *
sdb_column_blob(struct sdb_stmt *st, int col)
{
	if (st->lite != NULL)
		return sqlite3_column_blob(st->lite, col);
	return sdb_pg_column_blob(st->pg, col, NULL);
}

int
sdb_column_bytes(struct sdb_stmt *st, int col)
{
	size_t n = 0;

	if (st->lite != NULL)
		return sqlite3_column_bytes(st->lite, col);
	if (sdb_pg_column_type(st->pg, col) == SDB_BLOB)
		sdb_pg_column_blob(st->pg, col, &n);
	else if (sdb_pg_column_text(st->pg, col) != NULL)
		n = strlen(sdb_pg_column_text(st->pg, col));
	return (int)n;
}

int64_t
sdb_changes(struct sdb *db)
{
	if (db->lite != NULL)
		return sqlite3_changes64(db->lite);
	return sdb_pg_changes(db->pg);
}

int64_t
sdb_last_insert_id(struct sdb *db)
{
	return db->lite != NULL ? sqlite3_last_insert_rowid(db->lite) : 0;
}

int
sdb_autocommit(struct sdb *db)
{
	if (db->lite != NULL)
		return sqlite3_get_autocommit(db->lite);
	return sdb_pg_autocommit(db->pg);
}

const char *
sdb_errmsg(struct sdb *db)
{
	if (db->lite != NULL)
		return sqlite3_errmsg(db->lite);
	return sdb_pg_errmsg(db->pg);
}

int
sdb_errcode(struct sdb *db)
{
	if (db->lite != NULL)
		return sqlite3_extended_errcode(db->lite);
	return sdb_pg_errcode(db->pg);
}

const char *
sdb_sqlstate(struct sdb *db)
{
	if (db->lite != NULL)
		return "";
	return sdb_pg_sqlstate(db->pg);
}
