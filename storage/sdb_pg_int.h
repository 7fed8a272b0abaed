/*
 * sdb_pg_int: what the two files of the PostgreSQL side of storage/sdb.h
 * share. Internal: only storage/sdb_pg.c, storage/sdb_pg_conn.c and the
 * unit tests include it.
 *
 *   sdb_pg.c       statements: prepare, run, the pipeline, rows
 *   sdb_pg_conn.c  the connection: opening it, waiting for answers,
 *                  finding it broken, the server's notices
 */
#ifndef NC_SDB_PG_INT_H
#define NC_SDB_PG_INT_H

#include <stddef.h>
#include <stdint.h>

#include <libpq-fe.h>

/* Statements sent ahead (sdb_pg_ahead) whose rows may wait unread. */
#define MAX_AHEAD 32

struct sdb_pgstmt;

struct sdb_pg {
	PGconn *conn;
	int pipeline;           /* in libpq's pipeline mode */
	int pending;            /* statements sent since the last sync */
	struct sdb_pgstmt *ahead[MAX_AHEAD]; /* sent ahead, unread, oldest
	                                      * first: a sync follows each */
	int nahead;             /* ... how many */
	int deferred;           /* a failure read where nobody waited */
	unsigned next_name;     /* the next statement's number */
	int64_t changes;        /* rows the last write changed */
	int lost;               /* the connection is gone: every call fails */
	int code;               /* last failure, SDB_* */
	char state[6];          /* its SQLSTATE, "" when none */
	char msg[512];          /* its message */
	char notice[256];       /* the server's last notice, one line */
};

/*
 * Connect pg->conn to conninfo, with a connect that gives up and TCP
 * keepalives unless conninfo says otherwise, and the server's notices
 * kept in pg->notice instead of printed. 0, or -1 with "cannot connect:
 * why" in err (pg->conn may then be set, the caller's to finish).
 */
int sdb_pg__dial(struct sdb_pg *pg, const char *conninfo, char *err,
    size_t errsz);

/*
 * The connection is gone; why says how (NULL: libpq's words). Records it
 * with the server's last notice, which says why it closed the connection
 * ("terminating connection due to immediate shutdown command"), and every
 * later call fails at once. Returns SDB_IOERR.
 */
int sdb_pg__lose(struct sdb_pg *pg, const char *why);

/*
 * Wait until libpq has a result to hand without blocking, reading what
 * the server sends meanwhile and looking at the connection every second:
 * SDB_OK, or SDB_IOERR (sdb_pg__lose'd) when the connection broke.
 */
int sdb_pg__await(struct sdb_pg *pg);

/* libpq's text m as one line into out (outsz bytes, at least 1). */
void sdb_pg__one_line(char *out, size_t outsz, const char *m);

#endif
