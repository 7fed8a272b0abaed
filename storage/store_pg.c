/*
 * store_pg: opening a store on PostgreSQL -- the schema in PostgreSQL's
 * types, made once however many processes start together, and the
 * session's settings. Everything after the open is the same code as on
 * SQLite, over storage/sdb.h.
 */
#include "storage/store_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/err.h"

/* The advisory lock every opener holds while it looks at or makes the
 * schema, so that processes starting together make it once. */
#define SCHEMA_LOCK "4663294957121175297"

/*
 * The mark of a nearcrawl database, on its meta table: "nearcrawl schema
 * N", N the schema's version as SQLite's user_version holds it. Schema 2
 * changed nothing here (the frontier's url stays UNIQUE on PostgreSQL), so
 * a new database is still marked 1, which every nearcrawl reads; one
 * marked above STORE_SCHEMA_VERSION was made by a newer nearcrawl.
 */
#define SCHEMA_MARK_WORDS "nearcrawl schema "
#define SCHEMA_MARK SCHEMA_MARK_WORDS "1"

/* How long a statement waits for a row lock before failing: long enough
 * for any other process's page, short enough to notice a stuck one. */
#define LOCK_MS 60000

/* Run sql on db; on failure err says "TARGET: cannot WHAT: why". */
static int
run(struct store *s, const char *sql, const char *target, const char *what,
    char *err, size_t errsz)
{
	char why[400];

	if (sdb_exec(s->db, sql) == SDB_OK)
		return 0;
	store__why_failed(s->db, why, sizeof(why));
	return err_set(err, errsz, -1, "%s: cannot %s: %s",
	    store__target_name(target), what, why);
}

/* The schema version a meta table's mark says, or 0 when it is not our
 * mark. */
static long
mark_version(const char *mark)
{
	size_t n = sizeof(SCHEMA_MARK_WORDS) - 1;
	char *end;
	long v;

	if (mark == NULL || strncmp(mark, SCHEMA_MARK_WORDS, n) != 0 ||
	    mark[n] < '0' || mark[n] > '9')
		return 0;
	errno = 0;
	v = strtol(mark + n, &end, 10);
	return *end == '\0' && errno == 0 ? v : 0;
}

/*
 * Whether the database holds a nearcrawl schema (1), nothing of ours (0),
 * or something else, a newer schema too (-1 with err set).
 */
static int
schema_state(struct store *s, const char *target, char *err, size_t errsz)
{
	struct sdb_stmt *st = NULL;
	char why[400];
	long version;
	int rc, state = -1;

	if (sdb_prepare(s->db, "SELECT obj_description(c.oid, 'pg_class') "
	    "FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
	    "WHERE c.relname = 'meta' AND n.nspname = current_schema()",
	    &st) != SDB_OK)
		goto dberr;
	rc = sdb_step(st);
	if (rc == SDB_DONE)
		state = 0;
	else if (rc != SDB_ROW)
		goto dberr;
	else if ((version = mark_version(sdb_column_text(st, 0))) < 1)
		err_set(err, errsz, -1, "%s: not a nearcrawl database (it has "
		    "a meta table of its own)", store__target_name(target));
	else if (version > STORE_SCHEMA_VERSION)
		/* The words of store_open's check of an SQLite file. */
		err_set(err, errsz, -1, "%s: made by a newer nearcrawl (schema "
		    "%ld)", store__target_name(target), version);
	else
		state = 1;
	sdb_finalize(st);
	return state;
dberr:
	store__why_failed(s->db, why, sizeof(why));
	err_set(err, errsz, -1, "%s: cannot read the schema: %s",
	    store__target_name(target), why);
	sdb_finalize(st);
	return -1;
}

/* Make the schema in one transaction, marked ours only with it. */
static int
create_schema(struct store *s, const char *target, char *err, size_t errsz)
{
	char *sql = store__schema_pg(store_schema());

	if (sql == NULL)
		return err_set(err, errsz, -1, "out of memory");
	if (run(s, "BEGIN", target, "create schema", err, errsz) != 0 ||
	    run(s, sql, target, "create schema", err, errsz) != 0 ||
	    run(s, "COMMENT ON TABLE meta IS '" SCHEMA_MARK "'", target,
	    "create schema", err, errsz) != 0 ||
	    run(s, "COMMIT", target, "create schema", err, errsz) != 0) {
		sdb_exec(s->db, "ROLLBACK");
		free(sql);
		return -1;
	}
	free(sql);
	return 0;
}

struct store *
store__open_pg(const char *target, unsigned flags, char *err, size_t errsz)
{
	int readonly = (flags & STORE_READONLY) != 0;
	const char *name = store__target_name(target);
	struct store *s;
	char why[400];
	int state;

	err_set(err, errsz, -1, "%s", "");
	if ((s = calloc(1, sizeof(*s))) == NULL) {
		err_set(err, errsz, -1, "%s: out of memory", name);
		return NULL;
	}
	s->lockfd = -1;
	if ((s->db = sdb_open_pg(target, LOCK_MS, why, sizeof(why))) == NULL) {
		err_set(err, errsz, -1, "%s: %s", name, why);
		goto fail;
	}
	if (run(s, "SELECT pg_advisory_lock(" SCHEMA_LOCK ")", target,
	    "lock the schema", err, errsz) != 0)
		goto fail;
	if ((state = schema_state(s, target, err, errsz)) < 0)
		goto unlock;
	if (state == 0 && (readonly || !(flags & STORE_CREATE))) {
		err_set(err, errsz, -1, "%s: not a nearcrawl database (empty)",
		    name);
		goto unlock;
	}
	if (state == 0) {
		if (create_schema(s, target, err, errsz) != 0)
			goto unlock;
		s->created = 1;
	} else if (!readonly &&
	    store__upgrade_schema(s, name, err, errsz) != 0)
		goto unlock;
	/* A host's oldest queued entry without sorting them all: SQLite's
	 * frontier_take index holds the rowid (id) after its columns, a
	 * PostgreSQL one only what it names. The narrower index goes: the
	 * planner preferred it and sorted every queued entry of the host on
	 * each take (0.9 ms at 5,500 queued, against 0.06), and every state
	 * change wrote both. */
	if (!readonly && (run(s, "CREATE INDEX IF NOT EXISTS frontier_take_id "
	    "ON frontier (host, state, id)", target, "index the frontier", err,
	    errsz) != 0 || run(s, "DROP INDEX IF EXISTS frontier_take", target,
	    "index the frontier", err, errsz) != 0))
		goto unlock;
	/* The clock starts where an older crawl's pages end. */
	if (!readonly && run(s, "INSERT INTO clock (id, seq) SELECT 1, "
	    "coalesce(max(seq), 0) FROM pages ON CONFLICT (id) DO NOTHING",
	    target, "start the clock", err, errsz) != 0)
		goto unlock;
	if (run(s, "SELECT pg_advisory_unlock(" SCHEMA_LOCK ")", target,
	    "unlock the schema", err, errsz) != 0)
		goto fail;
	/* A commit waits for no disk: a crawler killed at any moment loses
	 * nothing the server acknowledged, and a server crash loses at most
	 * its last fraction of a second, consistently (see docs/scale-out.md). */
	if (!readonly && run(s, "SET synchronous_commit = off", target,
	    "configure the session", err, errsz) != 0)
		goto fail;
	if (store__prepare_all(s, name, readonly, err, errsz) != 0)
		goto fail;
	if (!readonly && store__ahead_init(s) != 0) {
		err_set(err, errsz, -1, "%s: %s", name, s->err);
		goto fail;
	}
	/* Writes nothing waits for go without a round trip each. */
	if (!readonly && sdb_pipeline(s->db, 1) != 0) {
		err_set(err, errsz, -1, "%s: cannot use libpq's pipeline mode",
		    name);
		goto fail;
	}
	err_set(s->err, sizeof(s->err), 0, "no error");
	return s;
unlock:
	sdb_exec(s->db, "SELECT pg_advisory_unlock(" SCHEMA_LOCK ")");
fail:
	store__release(s);
	return NULL;
}

int
store_server_ready(const char *target)
{
	return sdb_server_ready(target);
}

int
store_lost(const struct store *s)
{
	return s != NULL && s->db != NULL && sdb_lost(s->db);
}
