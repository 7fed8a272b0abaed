/*
 * sdb_pg: storage/sdb.h over PostgreSQL's libpq.
 *
 * Statements are prepared on the server under names of their own and run
 * with PQexecPrepared; the whole result is kept until the next run, reset
 * or finalize, and stepping walks its rows. Parameters go as text (numbers
 * formatted here) or, for blobs, as binary; results come back as text, and
 * bytea columns are decoded from their hex form on first read.
 *
 * A connection that breaks (the server restarted, the network failed) is
 * marked lost: every later call fails at once with SDB_IOERR, and the
 * caller opens a new one (sdb_lost). Waits for answers poll the socket, so
 * that a dead connection is found rather than waited on, and the server's
 * notices are kept, not printed (libpq's default writes them on stderr).
 */
#include "storage/sdb_pg.h"
#include "storage/sdb_pg_int.h"

#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "storage/sdb_codes.h"

/* Type oids of the built-in types read here (catalog/pg_type.dat). */
#define OID_BOOL 16
#define OID_BYTEA 17
#define OID_INT8 20
#define OID_INT2 21
#define OID_INT4 23
#define OID_FLOAT4 700
#define OID_FLOAT8 701
#define OID_NUMERIC 1700

#define MAX_PARAMS 64
struct param {
	const char *val;  /* text, number buffer or blob; NULL binds NULL */
	int len;          /* a blob's bytes */
	int binary;       /* 1 for a blob */
	char num[32];     /* a number bound, formatted */
};

struct sdb_pgstmt {
	struct sdb_pg *pg;
	char name[16];              /* its name on the server */
	int nparams;                /* highest $N in the statement */
	struct param p[MAX_PARAMS]; /* bound values, by number - 1 */
	PGresult *res;              /* the last run's rows, or NULL */
	int row;                    /* current row, -1 before the first */
	unsigned char **blob;       /* per column: decoded bytea, or NULL */
	size_t *bloblen;            /* their lengths */
	int nblob;                  /* columns these arrays hold */
	int ahead;                  /* sent ahead, its rows not yet read */
	int ahead_rc;               /* reading them gave this (SDB_OK) */
};

static int drain(struct sdb_pg *pg);
static int keep_result(struct sdb_pgstmt *st);
static void cancel_ahead(struct sdb_pgstmt *st);

/* Record the failure of res (or of the connection when res is NULL). */
static int
fail(struct sdb_pg *pg, const PGresult *res, int code)
{
	const char *st = res != NULL ?
	    PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;
	const char *m = res != NULL ? PQresultErrorMessage(res) : "";
	size_t n;

	/* Lost already: what broke it is the message worth keeping. */
	if (pg->lost)
		return sdb_pg__lose(pg, NULL);
	if (res != NULL &&
	    PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY) != NULL)
		m = PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY);
	if (m == NULL || *m == '\0')
		m = PQerrorMessage(pg->conn);
	snprintf(pg->state, sizeof(pg->state), "%s", st != NULL ? st : "");
	/* The first line: the rest (LINE, HINT) is for psql's screen. */
	snprintf(pg->msg, sizeof(pg->msg), "%.*s", (int)strcspn(m, "\n"), m);
	n = strlen(pg->msg);
	while (n > 0 && (pg->msg[n - 1] == '\n' || pg->msg[n - 1] == ' '))
		pg->msg[--n] = '\0';
	if (strncmp(pg->msg, "ERROR:  ", 8) == 0)
		memmove(pg->msg, pg->msg + 8, strlen(pg->msg + 8) + 1);
	/* A broken connection, or the server closing it: an administrator's
	 * or a shutdown's termination (57P01, 57P02), class 08. */
	if (PQstatus(pg->conn) == CONNECTION_BAD ||
	    strncmp(pg->state, "08", 2) == 0 ||
	    strcmp(pg->state, "57P01") == 0 || strcmp(pg->state, "57P02") == 0)
		return sdb_pg__lose(pg, pg->msg[0] != '\0' ? pg->msg : NULL);
	if (code != SDB_ERROR)
		pg->code = code;
	else if (strcmp(pg->state, "53100") == 0)
		pg->code = SDB_FULL;
	else if (strcmp(pg->state, "53200") == 0)
		pg->code = SDB_NOMEM;
	else if (strcmp(pg->state, "40P01") == 0 ||
	    strcmp(pg->state, "40001") == 0 ||
	    strcmp(pg->state, "55P03") == 0)
		pg->code = SDB_BUSY;
	else if (strcmp(pg->state, "25006") == 0)
		pg->code = SDB_READONLY;
	else if (strncmp(pg->state, "23", 2) == 0)
		pg->code = SDB_CONSTRAINT;
	else if (strcmp(pg->state, "XX001") == 0 ||
	    strcmp(pg->state, "XX002") == 0)
		pg->code = SDB_CORRUPT;
	else if (strncmp(pg->state, "08", 2) == 0 ||
	    strncmp(pg->state, "57P", 3) == 0)
		pg->code = SDB_IOERR;
	else
		pg->code = SDB_ERROR;
	return pg->code;
}

struct sdb_pg *
sdb_pg_connect(const char *conninfo, long lock_ms, char *err, size_t errsz)
{
	struct sdb_pg *pg;
	char sql[160];

	if ((pg = calloc(1, sizeof(*pg))) == NULL) {
		snprintf(err, errsz, "out of memory");
		return NULL;
	}
	if (sdb_pg__dial(pg, conninfo, err, errsz) != 0) {
		sdb_pg_close(pg);
		return NULL;
	}
	snprintf(sql, sizeof(sql),
	    "SET client_encoding = 'UTF8'; SET client_min_messages = warning; "
	    "SET lock_timeout = %ld", lock_ms < 0 ? 0 : lock_ms);
	if (sdb_pg_exec(pg, sql) != SDB_OK) {
		snprintf(err, errsz, "%s", pg->msg);
		sdb_pg_close(pg);
		return NULL;
	}
	return pg;
}

void
sdb_pg_close(struct sdb_pg *pg)
{
	if (pg == NULL)
		return;
	if (pg->pipeline)
		drain(pg);
	if (pg->conn != NULL)
		PQfinish(pg->conn);
	free(pg);
}

/* The status of a command's result: SDB_OK, or the failure recorded. */
static int
command_rc(struct sdb_pg *pg, PGresult *res)
{
	ExecStatusType s = res != NULL ? PQresultStatus(res) : PGRES_FATAL_ERROR;
	const char *n;

	if (s == PGRES_COMMAND_OK || s == PGRES_TUPLES_OK ||
	    s == PGRES_EMPTY_QUERY) {
		n = PQcmdTuples(res);
		pg->changes = n != NULL && *n != '\0' ? strtoll(n, NULL, 10) : 0;
		return SDB_OK;
	}
	return fail(pg, res, SDB_ERROR);
}

int
sdb_pg_exec(struct sdb_pg *pg, const char *sql)
{
	PGresult *res;
	int rc, was = pg->pipeline;

	if (pg->lost)
		return sdb_pg__lose(pg, NULL);
	/* Text of several statements runs outside the pipeline. */
	if (was && ((rc = drain(pg)) != SDB_OK || sdb_pg_pipeline(pg, 0) != 0))
		return was && rc != SDB_OK ? rc : fail(pg, NULL, SDB_ERROR);
	res = PQexec(pg->conn, sql);
	rc = command_rc(pg, res);
	PQclear(res);
	if (was && sdb_pg_pipeline(pg, 1) != 0 && rc == SDB_OK)
		rc = fail(pg, NULL, SDB_ERROR);
	return rc;
}

int
sdb_pg_pipeline(struct sdb_pg *pg, int on)
{
	if (on == pg->pipeline)
		return 0;
	if (pg->lost)
		return -1;
	if (on ? PQenterPipelineMode(pg->conn) != 1 :
	    (drain(pg) != SDB_OK || PQexitPipelineMode(pg->conn) != 1))
		return -1;
	pg->pipeline = on;
	return 0;
}

/*
 * Read the results of the statements sent before a sync and the sync's
 * own: the first failure among them is recorded and returned. When keep is
 * not NULL, the last statement's result is handed there (the caller's).
 */
static int
read_to_sync(struct sdb_pg *pg, PGresult **keep)
{
	PGresult *res, *last = NULL;
	ExecStatusType s;
	int rc = SDB_OK, ended = 0;

	if (pg->lost)
		return sdb_pg__lose(pg, NULL);
	for (;;) {
		if (sdb_pg__await(pg) != SDB_OK) {
			rc = SDB_IOERR;
			break;
		}
		/* NULL ends one statement's results; the sync ends them all.
		 * A second NULL in a row: libpq expects nothing more, so the
		 * sync will never come (the connection broke, or libpq lost
		 * count of the answers); waiting for it would spin. */
		if ((res = PQgetResult(pg->conn)) == NULL) {
			if (PQstatus(pg->conn) == CONNECTION_BAD || ended++) {
				rc = sdb_pg__lose(pg, PQstatus(pg->conn) ==
				    CONNECTION_BAD ? NULL : "lost count of the "
				    "server's answers");
				break;
			}
			continue;
		}
		ended = 0;
		s = PQresultStatus(res);
		if (s == PGRES_PIPELINE_SYNC) {
			PQclear(res);
			break;
		}
		if (s == PGRES_FATAL_ERROR && rc == SDB_OK)
			rc = fail(pg, res, SDB_ERROR);
		else if (s == PGRES_PIPELINE_ABORTED && rc == SDB_OK)
			rc = fail(pg, res, SDB_ERROR);
		if (s == PGRES_COMMAND_OK || s == PGRES_TUPLES_OK) {
			PQclear(last);
			last = res;
		} else
			PQclear(res);
	}
	if (keep != NULL && rc == SDB_OK && last != NULL) {
		*keep = last;
		return command_rc(pg, last);
	}
	PQclear(last);
	return rc;
}

/* Read the rows of the oldest statement sent ahead into its result. */
static int
read_ahead(struct sdb_pg *pg)
{
	struct sdb_pgstmt *st = pg->ahead[0];
	int rc;

	assert(pg->nahead > 0 && st->ahead);
	pg->nahead--;
	memmove(pg->ahead, pg->ahead + 1, (size_t)pg->nahead * sizeof(*pg->ahead));
	st->ahead = 0;
	rc = read_to_sync(pg, &st->res);
	if (rc == SDB_OK && (rc = keep_result(st)) == SDB_OK && st->res == NULL)
		rc = fail(pg, NULL, SDB_ERROR);
	st->ahead_rc = rc;
	return rc;
}

/* Read every statement sent ahead, up to st's when st is not NULL (then
 * st's own failure is left for its step). The first failure of another,
 * or SDB_OK. */
static int
read_aheads(struct sdb_pg *pg, const struct sdb_pgstmt *st)
{
	struct sdb_pgstmt *head;
	int rc = SDB_OK, r;

	while (pg->nahead > 0 && (st == NULL || st->ahead)) {
		head = pg->ahead[0];
		if ((r = read_ahead(pg)) != SDB_OK && head != st && rc == SDB_OK)
			rc = r;
	}
	/* A statement sent ahead is in the list, so its rows are read. */
	assert(st == NULL || !st->ahead);
	return rc;
}

/* A failure read earlier where nobody waited (a statement sent ahead and
 * then dropped), handed to the first caller who waits. */
static int
take_deferred(struct sdb_pg *pg)
{
	int rc = pg->deferred;

	pg->deferred = SDB_OK;
	return rc;
}

/* Read what the statements sent without waiting returned. */
static int
drain(struct sdb_pg *pg)
{
	int rc = read_aheads(pg, NULL), r = take_deferred(pg);

	if (rc == SDB_OK)
		rc = r;
	if (pg->lost) {
		pg->pending = 0;
		return sdb_pg__lose(pg, NULL);
	}
	if (pg->pending == 0)
		return rc;
	pg->pending = 0;
	if (PQpipelineSync(pg->conn) != 1)
		return fail(pg, NULL, SDB_IOERR);
	r = read_to_sync(pg, NULL);
	return rc != SDB_OK ? rc : r;
}

/*
 * sql with "?N" as "$N" and each bare "?" as the next number, outside
 * quotes; *nparams gets the highest number. NULL when out of memory or a
 * number is out of range.
 */
static char *
renumber(const char *sql, int *nparams)
{
	size_t len = strlen(sql);
	char *out = malloc(len * 2 + 1), *o;
	const char *p;
	int next = 0, n, quote = 0;

	if (out == NULL)
		return NULL;
	*nparams = 0;
	for (p = sql, o = out; *p != '\0'; p++) {
		if (*p == '\'')
			quote = !quote;
		if (quote || *p != '?') {
			*o++ = *p;
			continue;
		}
		if (p[1] >= '0' && p[1] <= '9') {
			n = (int)strtol(p + 1, (char **)&p, 10);
			p--;
		} else
			n = ++next;
		if (n < 1 || n > MAX_PARAMS) {
			free(out);
			return NULL;
		}
		if (n > *nparams)
			*nparams = n;
		o += sprintf(o, "$%d", n);
	}
	*o = '\0';
	return out;
}

int
sdb_pg_prepare(struct sdb_pg *pg, const char *sql, struct sdb_pgstmt **out)
{
	struct sdb_pgstmt *st;
	PGresult *res;
	char *text;
	int rc;

	*out = NULL;
	if (pg->lost)
		return sdb_pg__lose(pg, NULL);
	if ((st = calloc(1, sizeof(*st))) == NULL)
		return SDB_NOMEM;
	if ((text = renumber(sql, &st->nparams)) == NULL) {
		free(st);
		snprintf(pg->msg, sizeof(pg->msg), "too many parameters");
		return pg->code = SDB_ERROR;
	}
	st->pg = pg;
	st->row = -1;
	snprintf(st->name, sizeof(st->name), "nc%u", ++pg->next_name);
	res = PQprepare(pg->conn, st->name, text, 0, NULL);
	free(text);
	rc = command_rc(pg, res);
	PQclear(res);
	if (rc != SDB_OK) {
		st->name[0] = '\0'; /* nothing to deallocate */
		sdb_pg_finalize(st);
		return rc;
	}
	*out = st;
	return SDB_OK;
}

static void
drop_result(struct sdb_pgstmt *st)
{
	int i;

	for (i = 0; i < st->nblob; i++) {
		if (st->blob[i] != NULL)
			PQfreemem(st->blob[i]);
		st->blob[i] = NULL;
	}
	PQclear(st->res);
	st->res = NULL;
	st->row = -1;
}

void
sdb_pg_finalize(struct sdb_pgstmt *st)
{
	char sql[40];
	PGresult *res;

	if (st == NULL)
		return;
	cancel_ahead(st);
	drop_result(st);
	if (st->name[0] != '\0' && !st->pg->pipeline && !st->pg->lost &&
	    PQstatus(st->pg->conn) == CONNECTION_OK &&
	    PQtransactionStatus(st->pg->conn) != PQTRANS_INERROR) {
		snprintf(sql, sizeof(sql), "DEALLOCATE %s", st->name);
		res = PQexec(st->pg->conn, sql);
		PQclear(res);
	}
	free(st->blob);
	free(st->bloblen);
	free(st);
}

static struct param *
param_at(struct sdb_pgstmt *st, int idx)
{
	return idx >= 1 && idx <= st->nparams ? &st->p[idx - 1] : NULL;
}

int
sdb_pg_bind_int64(struct sdb_pgstmt *st, int idx, int64_t v)
{
	struct param *p = param_at(st, idx);

	if (p == NULL)
		return SDB_ERROR;
	snprintf(p->num, sizeof(p->num), "%" PRId64, v);
	p->val = p->num;
	p->binary = 0;
	return SDB_OK;
}

int
sdb_pg_bind_double(struct sdb_pgstmt *st, int idx, double v)
{
	struct param *p = param_at(st, idx);

	if (p == NULL)
		return SDB_ERROR;
	snprintf(p->num, sizeof(p->num), "%.17g", v);
	p->val = p->num;
	p->binary = 0;
	return SDB_OK;
}

int
sdb_pg_bind(struct sdb_pgstmt *st, int idx, const void *v, size_t len,
    int binary)
{
	struct param *p = param_at(st, idx);

	if (p == NULL || len > INT32_MAX)
		return SDB_ERROR;
	p->val = v;
	p->len = (int)len;
	p->binary = binary;
	return SDB_OK;
}

/* Room for st's result's bytea columns: SDB_OK, or SDB_NOMEM (the result
 * dropped). */
static int
keep_result(struct sdb_pgstmt *st)
{
	if (st->res == NULL || PQresultStatus(st->res) != PGRES_TUPLES_OK ||
	    PQnfields(st->res) <= st->nblob)
		return SDB_OK;
	free(st->blob);
	free(st->bloblen);
	st->nblob = 0;
	st->blob = calloc((size_t)PQnfields(st->res), sizeof(*st->blob));
	st->bloblen = calloc((size_t)PQnfields(st->res), sizeof(*st->bloblen));
	if (st->blob == NULL || st->bloblen == NULL) {
		drop_result(st);
		snprintf(st->pg->msg, sizeof(st->pg->msg), "out of memory");
		return st->pg->code = SDB_NOMEM;
	}
	st->nblob = PQnfields(st->res);
	return SDB_OK;
}

/* st's bound values as libpq takes them. */
static void
params_of(const struct sdb_pgstmt *st, const char **vals, int *lens,
    int *fmts)
{
	int i;

	for (i = 0; i < st->nparams; i++) {
		vals[i] = st->p[i].val;
		lens[i] = st->p[i].len;
		fmts[i] = st->p[i].binary;
	}
}

/* Send st with its bound values. 1, or 0 when libpq failed. */
static int
send_prepared(struct sdb_pgstmt *st)
{
	const char *vals[MAX_PARAMS];
	int lens[MAX_PARAMS], fmts[MAX_PARAMS];

	params_of(st, vals, lens, fmts);
	/* libpq copies the values into its buffer: the caller may rebind. */
	return PQsendQueryPrepared(st->pg->conn, st->name, st->nparams, vals,
	    lens, fmts, 0) == 1;
}

/* What st was sent ahead for, read (with those sent before it) if it was
 * not yet: SDB_OK with its rows in st->res, or the first failure among
 * them. Its own failure is then forgotten. */
static int
collect_ahead(struct sdb_pgstmt *st)
{
	int rc = SDB_OK;

	if (st->ahead)
		rc = read_aheads(st->pg, st);
	if (rc == SDB_OK)
		rc = st->ahead_rc;
	st->ahead_rc = SDB_OK;
	return rc;
}

/* Forget what st was sent ahead for: its rows are read and dropped, a
 * failure kept for the next caller who waits. */
static void
cancel_ahead(struct sdb_pgstmt *st)
{
	int rc = collect_ahead(st);

	if (rc != SDB_OK && st->pg->deferred == SDB_OK)
		st->pg->deferred = rc;
}

static int
run(struct sdb_pgstmt *st)
{
	const char *vals[MAX_PARAMS];
	int lens[MAX_PARAMS], fmts[MAX_PARAMS], rc;

	drop_result(st);
	if (st->pg->lost)
		return sdb_pg__lose(st->pg, NULL);
	if (st->pg->pipeline) {
		/* Behind the statements sent ahead, whose syncs come first. */
		if ((rc = read_aheads(st->pg, NULL)) != SDB_OK ||
		    (rc = take_deferred(st->pg)) != SDB_OK)
			return rc;
		/* Sent behind whatever waits unsent, read after their results. */
		if (!send_prepared(st) || PQpipelineSync(st->pg->conn) != 1)
			return fail(st->pg, NULL, SDB_IOERR);
		st->pg->pending = 0;
		rc = read_to_sync(st->pg, &st->res);
	} else {
		params_of(st, vals, lens, fmts);
		st->res = PQexecPrepared(st->pg->conn, st->name, st->nparams,
		    vals, lens, fmts, 0);
		rc = command_rc(st->pg, st->res);
	}
	if (rc != SDB_OK) {
		drop_result(st);
		return rc;
	}
	return keep_result(st);
}

int
sdb_pg_step(struct sdb_pgstmt *st)
{
	int rc, i;

	if (st->ahead || st->ahead_rc != SDB_OK) {
		/* Sent ahead: its rows, after those of the ones before it. */
		if ((rc = collect_ahead(st)) != SDB_OK) {
			drop_result(st);
			return rc;
		}
	}
	if (st->res == NULL) {
		if ((rc = run(st)) != SDB_OK)
			return rc;
	} else
		for (i = 0; i < st->nblob; i++)
			if (st->blob[i] != NULL) {
				PQfreemem(st->blob[i]);
				st->blob[i] = NULL;
			}
	if (PQresultStatus(st->res) != PGRES_TUPLES_OK)
		return SDB_DONE;
	if (st->row + 1 >= PQntuples(st->res)) {
		st->row = PQntuples(st->res);
		return SDB_DONE;
	}
	st->row++;
	return SDB_ROW;
}

int
sdb_pg_later(struct sdb_pgstmt *st)
{
	int rc;

	if (!st->pg->pipeline) {
		rc = sdb_pg_step(st);
		return rc == SDB_ROW ? SDB_DONE : rc;
	}
	cancel_ahead(st);
	if (st->pg->lost)
		return sdb_pg__lose(st->pg, NULL);
	if (!send_prepared(st))
		return fail(st->pg, NULL, SDB_IOERR);
	st->pg->pending++;
	return SDB_DONE;
}

int
sdb_pg_ahead(struct sdb_pgstmt *st)
{
	struct sdb_pg *pg = st->pg;
	int rc;

	/* Outside a pipeline the step runs it, as any statement. */
	if (!pg->pipeline)
		return SDB_OK;
	cancel_ahead(st);
	drop_result(st);
	if (pg->nahead == MAX_AHEAD && (rc = read_ahead(pg)) != SDB_OK &&
	    pg->deferred == SDB_OK)
		pg->deferred = rc;
	if (pg->lost)
		return sdb_pg__lose(pg, NULL);
	if (!send_prepared(st) || PQpipelineSync(pg->conn) != 1)
		return fail(pg, NULL, SDB_IOERR);
	pg->pending = 0;
	/* cancel_ahead took st out of the list, and a full list lost its
	 * oldest above. */
	assert(!st->ahead && pg->nahead < MAX_AHEAD);
	st->ahead = 1;
	st->ahead_rc = SDB_OK;
	pg->ahead[pg->nahead++] = st;
	return SDB_OK;
}

void
sdb_pg_reset(struct sdb_pgstmt *st)
{
	cancel_ahead(st);
	drop_result(st);
}

void
sdb_pg_clear(struct sdb_pgstmt *st)
{
	memset(st->p, 0, sizeof(st->p));
}

/* The current row's value of col, or NULL when it is NULL or absent. */
static const char *
value(struct sdb_pgstmt *st, int col)
{
	if (st->res == NULL || st->row < 0 || st->row >= PQntuples(st->res) ||
	    col < 0 || col >= PQnfields(st->res) ||
	    PQgetisnull(st->res, st->row, col))
		return NULL;
	return PQgetvalue(st->res, st->row, col);
}

int
sdb_pg_column_type(struct sdb_pgstmt *st, int col)
{
	if (value(st, col) == NULL)
		return SDB_NULL;
	switch (PQftype(st->res, col)) {
	case OID_BOOL:
	case OID_INT2:
	case OID_INT4:
	case OID_INT8:
		return SDB_INTEGER;
	case OID_FLOAT4:
	case OID_FLOAT8:
	case OID_NUMERIC:
		return SDB_FLOAT;
	case OID_BYTEA:
		return SDB_BLOB;
	default:
		return SDB_TEXT;
	}
}

int64_t
sdb_pg_column_int64(struct sdb_pgstmt *st, int col)
{
	const char *v = value(st, col);

	if (v == NULL)
		return 0;
	if (PQftype(st->res, col) == OID_BOOL)
		return v[0] == 't';
	if (sdb_pg_column_type(st, col) == SDB_FLOAT)
		return (int64_t)strtod(v, NULL);
	return strtoll(v, NULL, 10);
}

double
sdb_pg_column_double(struct sdb_pgstmt *st, int col)
{
	const char *v = value(st, col);

	if (v == NULL)
		return 0;
	if (PQftype(st->res, col) == OID_BOOL)
		return v[0] == 't';
	return strtod(v, NULL);
}

const char *
sdb_pg_column_text(struct sdb_pgstmt *st, int col)
{
	return value(st, col);
}

const void *
sdb_pg_column_blob(struct sdb_pgstmt *st, int col, size_t *len)
{
	const char *v = value(st, col);
	size_t n = 0;

	if (len != NULL)
		*len = 0;
	if (v == NULL)
		return NULL;
	if (PQftype(st->res, col) != OID_BYTEA) {
		if (len != NULL)
			*len = strlen(v);
		return v;
	}
	if (st->blob[col] == NULL) {
		st->blob[col] = PQunescapeBytea((const unsigned char *)v, &n);
		if (st->blob[col] == NULL)
			return NULL;
		st->bloblen[col] = n;
	}
	if (len != NULL)
		*len = st->bloblen[col];
	return st->blob[col];
}

int64_t
sdb_pg_changes(struct sdb_pg *pg)
{
	return pg->changes;
}

int
sdb_pg_autocommit(struct sdb_pg *pg)
{
	if (drain(pg) != SDB_OK)
		return 0;
	return PQtransactionStatus(pg->conn) == PQTRANS_IDLE;
}

int
sdb_pg_flush(struct sdb_pg *pg)
{
	return drain(pg);
}

int
sdb_pg_send(struct sdb_pg *pg)
{
	if (pg->lost)
		return sdb_pg__lose(pg, NULL);
	/* The server runs what it receives; the results wait for a sync. */
	if (pg->pipeline && pg->pending > 0 && PQflush(pg->conn) != 0)
		return fail(pg, NULL, SDB_IOERR);
	return SDB_OK;
}

const char *
sdb_pg_errmsg(struct sdb_pg *pg)
{
	return pg->msg;
}

int
sdb_pg_errcode(struct sdb_pg *pg)
{
	return pg->code;
}

const char *
sdb_pg_sqlstate(struct sdb_pg *pg)
{
	return pg->state;
}
