/*
 * sdb_codes: the result codes and column types of storage/sdb.h, apart so
 * that both of its sides (sdb.c, sdb_pg.c) can use them.
 */
#ifndef NC_SDB_CODES_H
#define NC_SDB_CODES_H

#include <sqlite3.h>

/* Result codes: SQLite's numbers, so an SQLite code passes through. */
enum {
	SDB_OK = SQLITE_OK,
	SDB_ERROR = SQLITE_ERROR,
	SDB_BUSY = SQLITE_BUSY,         /* PG: lock timeout, deadlock, serialisation */
	SDB_NOMEM = SQLITE_NOMEM,
	SDB_READONLY = SQLITE_READONLY, /* PG: read-only transaction or server */
	SDB_IOERR = SQLITE_IOERR,       /* PG: the connection failed */
	SDB_CORRUPT = SQLITE_CORRUPT,   /* PG: data corrupted (XX001, XX002) */
	SDB_FULL = SQLITE_FULL,         /* PG: disk full (53100) */
	SDB_CANTOPEN = SQLITE_CANTOPEN, /* PG: could not connect */
	SDB_CONSTRAINT = SQLITE_CONSTRAINT, /* PG: integrity class 23 */
	SDB_ROW = SQLITE_ROW,
	SDB_DONE = SQLITE_DONE,
};

/* Column types as sdb_column_type reports them (SQLite's numbers). */
enum { SDB_INTEGER = SQLITE_INTEGER, SDB_FLOAT = SQLITE_FLOAT,
	SDB_TEXT = SQLITE_TEXT, SDB_BLOB = SQLITE_BLOB, SDB_NULL = SQLITE_NULL };

#endif
