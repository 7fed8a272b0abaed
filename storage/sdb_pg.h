/*
 * sdb_pg: the PostgreSQL side of storage/sdb.h, over libpq. Internal to
 * storage/: only sdb.c calls these; each does what the sdb_ function of
 * the same name does (sdb_pg_ping: sdb_server_ready). Implemented in
 * sdb_pg.c and sdb_pg_conn.c (storage/sdb_pg_int.h).
 */
#ifndef NC_SDB_PG_H
#define NC_SDB_PG_H

#include <stddef.h>
#include <stdint.h>

struct sdb_pg;
struct sdb_pgstmt;

struct sdb_pg *sdb_pg_connect(const char *conninfo, long lock_ms, char *err,
    size_t errsz);
void sdb_pg_close(struct sdb_pg *pg);
int sdb_pg_exec(struct sdb_pg *pg, const char *sql);
int sdb_pg_prepare(struct sdb_pg *pg, const char *sql,
    struct sdb_pgstmt **out);
void sdb_pg_finalize(struct sdb_pgstmt *st);
int sdb_pg_bind_int64(struct sdb_pgstmt *st, int idx, int64_t v);
int sdb_pg_bind_double(struct sdb_pgstmt *st, int idx, double v);
/* v NULL binds NULL; binary: a blob of len bytes, else NUL-terminated. */
int sdb_pg_bind(struct sdb_pgstmt *st, int idx, const void *v, size_t len,
    int binary);
int sdb_pg_step(struct sdb_pgstmt *st);
int sdb_pg_later(struct sdb_pgstmt *st);
int sdb_pg_ahead(struct sdb_pgstmt *st);
int sdb_pg_pipeline(struct sdb_pg *pg, int on);
int sdb_pg_flush(struct sdb_pg *pg);
int sdb_pg_send(struct sdb_pg *pg);
void sdb_pg_reset(struct sdb_pgstmt *st);
void sdb_pg_clear(struct sdb_pgstmt *st);
int sdb_pg_column_type(struct sdb_pgstmt *st, int col);
int64_t sdb_pg_column_int64(struct sdb_pgstmt *st, int col);
double sdb_pg_column_double(struct sdb_pgstmt *st, int col);
const char *sdb_pg_column_text(struct sdb_pgstmt *st, int col);
/* The decoded bytes of a bytea column; *len (when not NULL) their count. */
const void *sdb_pg_column_blob(struct sdb_pgstmt *st, int col, size_t *len);
int64_t sdb_pg_changes(struct sdb_pg *pg);
int sdb_pg_autocommit(struct sdb_pg *pg);
int sdb_pg_lost(struct sdb_pg *pg);
int sdb_pg_ping(const char *conninfo);
const char *sdb_pg_errmsg(struct sdb_pg *pg);
int sdb_pg_errcode(struct sdb_pg *pg);
const char *sdb_pg_sqlstate(struct sdb_pg *pg);

#endif
