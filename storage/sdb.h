/*
 * sdb: the one SQL interface the files of storage/ speak, over SQLite
 * (embedded, the default) or PostgreSQL (libpq, for a crawl many
 * processes share). Internal to storage/.
 *
 * It follows SQLite's own C API closely -- prepare, bind, step, column,
 * reset -- so the store's code reads the same over both, and result codes
 * are SQLite's numbers (SDB_ROW == SQLITE_ROW ...). Statements are written
 * once, in the SQL both engines accept (upserts with ON CONFLICT, RETURNING,
 * CASE instead of SQLite's scalar max()); parameters are "?" or "?N", which
 * the PostgreSQL side renumbers as "$N".
 *
 * On PostgreSQL a statement's whole result is fetched when it is first
 * stepped, so another statement may run while its rows are read (as on
 * SQLite); a query meant to return millions of rows should page itself.
 * Values travel as text, blobs as binary; the server infers each
 * parameter's type from where it stands, so a parameter whose type the
 * statement leaves open needs a CAST.
 */
#ifndef NC_SDB_H
#define NC_SDB_H

#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

#include "storage/sdb_codes.h"

struct sdb;
struct sdb_stmt;

/* Wrap an open SQLite handle; the sdb owns it from here on (sdb_close
 * closes it). NULL when out of memory (h is then still the caller's). */
struct sdb *sdb_of_sqlite(sqlite3 *h);

/*
 * Connect to PostgreSQL with a libpq URI or key=value string. Returns the
 * connection, or NULL with the reason in err (errsz bytes). The session
 * is set to UTF-8, to errors without notices, and to a lock wait no longer
 * than lock_ms (0: wait as long as it takes).
 */
struct sdb *sdb_open_pg(const char *conninfo, long lock_ms, char *err,
    size_t errsz);

/*
 * Whether the PostgreSQL server of conninfo accepts connections: 1, 0 when
 * it does not answer or turns connections away for now (starting up,
 * shutting down, in recovery), -1 when conninfo is unusable. Waits at most
 * a connect's timeout: 2 s unless conninfo sets connect_timeout.
 */
int sdb_server_ready(const char *conninfo);

/* Whether target names a PostgreSQL database ("postgresql://",
 * "postgres://", or a libpq "key=value" string with host or dbname). */
int sdb_target_is_pg(const char *target);

/* Close db and everything it prepared that is still open; NULL is fine. */
void sdb_close(struct sdb *db);

/* Whether db is PostgreSQL. */
int sdb_is_pg(const struct sdb *db);

/*
 * Whether db's connection to its server is gone (the server restarted or
 * went away, the network failed): every call on it fails at once with
 * SDB_IOERR from then on, and only a new connection goes on. What the
 * server had not committed is rolled back there. 0 on SQLite.
 */
int sdb_lost(struct sdb *db);

/* The SQLite handle under db, or NULL on PostgreSQL. */
sqlite3 *sdb_sqlite(struct sdb *db);

/* Statements run on db so far (sdb_exec calls and first steps): equal
 * numbers mean nothing ran in between. */
int64_t sdb_runs(const struct sdb *db);

/* Run sql, which may be several statements, without parameters; rows are
 * dropped. SDB_OK or an error code (sdb_errmsg says why). */
int sdb_exec(struct sdb *db, const char *sql);

/* Prepare one statement. SDB_OK with *out set, else an error code and
 * *out NULL. The statement is the caller's to sdb_finalize. */
int sdb_prepare(struct sdb *db, const char *sql, struct sdb_stmt **out);

/* Free a statement; NULL is fine. */
void sdb_finalize(struct sdb_stmt *st);

/* Parameters, numbered from 1. A text (NUL-terminated) or blob is not
 * copied: it must stay as it is until the statement is stepped. */
int sdb_bind_int64(struct sdb_stmt *st, int idx, int64_t v);
int sdb_bind_double(struct sdb_stmt *st, int idx, double v);
int sdb_bind_text(struct sdb_stmt *st, int idx, const char *v);
int sdb_bind_blob(struct sdb_stmt *st, int idx, const void *v, size_t len);
int sdb_bind_null(struct sdb_stmt *st, int idx);

/* Run the statement (first call) or move to its next row: SDB_ROW,
 * SDB_DONE, or an error code. */
int sdb_step(struct sdb_stmt *st);

/*
 * Run a statement whose rows and count do not matter, when convenient: on
 * PostgreSQL in pipeline mode it is sent without waiting, and its failure
 * is returned by the next statement that waits (sdb_step, sdb_flush, ...),
 * which runs after it. Elsewhere it runs now. SDB_DONE, or an error code.
 * The statement may be bound and run again at once.
 */
int sdb_step_later(struct sdb_stmt *st);

/*
 * Start a statement whose rows are wanted later: on PostgreSQL in pipeline
 * mode it is sent now, with a sync of its own, and the first sdb_step of
 * st reads its rows, waiting only for what was sent before it -- not for
 * what is sent after. Elsewhere nothing happens until that sdb_step. SDB_OK
 * or an error code. Until stepped or reset, st must not be bound or run
 * again; a failure among the statements sent before it is returned by
 * whichever statement waits first (its own step, or another's).
 */
int sdb_step_ahead(struct sdb_stmt *st);

/* PostgreSQL: send statements without waiting for each result (libpq's
 * pipeline mode) when on, or as they come. 0, or -1. Nothing on SQLite. */
int sdb_pipeline(struct sdb *db, int on);

/* Send what sdb_step_later queued, so that the server runs it now, without
 * waiting for the results (a later statement that waits reads them).
 * SDB_OK, or an error code. */
int sdb_send(struct sdb *db);

/* Wait for every statement sent without waiting: SDB_OK, or the first
 * one's failure. */
int sdb_flush(struct sdb *db);

/* Ready to run again (bindings kept), and clear the bindings. */
void sdb_reset(struct sdb_stmt *st);
void sdb_clear_bindings(struct sdb_stmt *st);

/* The current row's columns, numbered from 0. Text and blobs stay valid
 * until the next step, reset or finalize. A NULL reads as 0 or NULL. */
int sdb_column_type(struct sdb_stmt *st, int col);
int64_t sdb_column_int64(struct sdb_stmt *st, int col);
int sdb_column_int(struct sdb_stmt *st, int col);
double sdb_column_double(struct sdb_stmt *st, int col);
const char *sdb_column_text(struct sdb_stmt *st, int col);
const void *sdb_column_blob(struct sdb_stmt *st, int col);
int sdb_column_bytes(struct sdb_stmt *st, int col);

/* Rows the last INSERT, UPDATE or DELETE changed. */
int64_t sdb_changes(struct sdb *db);

/* The rowid of the last row inserted through db on SQLite; 0 on
 * PostgreSQL, whose statements say RETURNING instead. */
int64_t sdb_last_insert_id(struct sdb *db);

/* Whether no transaction is open. */
int sdb_autocommit(struct sdb *db);

/* The last failure: its message, its code (SDB_*; SQLite's extended code
 * on SQLite) and, on PostgreSQL, its SQLSTATE ("" when none). */
const char *sdb_errmsg(struct sdb *db);
int sdb_errcode(struct sdb *db);
const char *sdb_sqlstate(struct sdb *db);

#endif
