/*
 * store_int: what the files of storage/ share. Internal: only the files
 * of storage/ (and the unit tests) include it; the rest of the program
 * sees storage/store.h and storage/query.h.
 */
#ifndef NC_STORE_INT_H
#define NC_STORE_INT_H

#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

#include "storage/query.h"
#include "storage/store.h"

#define STORE_BUSY_MS 5000 /* store_hint says "5 s" */

/*
 * Open path read-only, as a STORE_READONLY store does: a WAL database in a
 * directory that may not be written is read as immutable when no -wal or
 * -journal file is beside it. Returns an SQLite result code; *db, even on
 * failure, is the caller's to close.
 */
int store__open_reader(const char *path, sqlite3 **db);

/* SQLite's message for db's last failure into out, with the system's
 * reason for an I/O error and store_hint's advice in parentheses. */
void store__why_failed(sqlite3 *db, char *out, size_t outsz);

/* Sets *exists to whether the main database has a table called name.
 * Returns an SQLite result code. */
int store__table_exists(sqlite3 *db, const char *name, int *exists);

/* store_conn_fail for a bare handle h of path. */
int store__conn_fail(sqlite3 *h, const char *path, char *err, size_t errsz,
    int runtime, int baddb);

/* A command's connection (storage/query.h). */
struct store_conn {
	sqlite3 *db;
	char *path;               /* for messages */
	enum store_conn_mode mode;
	sqlite3_stmt *page_url;   /* store_conn_page_url's, prepared once */
	sqlite3_stmt *rank_put;   /* store_rank_put's, prepared once */
	char *url;                /* store_conn_page_url's copy */
	size_t urlcap;
};

/* A row function's callback (cast to void *) and its argument, for the
 * row readers store__conn_each calls. */
struct store__each {
	void *fn;
	void *arg;
};

/*
 * Run sql on c (no parameters) and call row(st, ctx) for each row until it
 * returns non-zero, which is then returned. Returns 0, row's value, or -1
 * on a database error.
 */
int store__conn_each(struct store_conn *c, const char *sql,
    int (*row)(sqlite3_stmt *st, void *ctx), void *ctx);

/* The first column of a one-row query on c. 0, or -1. */
int store__conn_int(struct store_conn *c, const char *sql, int64_t *v);

#endif
