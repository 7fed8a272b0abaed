/*
 * store_schema: the schema, a fresh file's creation, and the upgrade that
 * gives an older schema-1 database the tables and columns added since.
 *
 * storage/schema.sql is the only copy of the schema: the build compiles it
 * in as store_schema_sql, with the columns marked "-- [added]" listed in
 * store__added_columns (scripts/make/schema-to-c.awk). A fresh file runs the
 * whole text. An older one runs the part from the "-- [later]" line on
 * (its tables say IF NOT EXISTS) and an ALTER TABLE ... ADD COLUMN for
 * each added column its table lacks; schema 1 was never released without
 * them, so this is not worth a version bump.
 */
#include "storage/store_int.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/err.h"

/* The line that starts the later tables. */
#define LATER_MARK "\n-- [later]"
/* A comment to SQLite, a statement to PostgreSQL. */
#define PG_MARK "-- [pg] "
/* A statement to SQLite once store__schema_sqlite drops the mark, a
 * comment to PostgreSQL. */
#define SQLITE_MARK "-- [sqlite] "

static char *pg_guard_indexes(const char *sql);

/*
 * Run the SQL scripts a and b (b may be NULL) in one transaction: all of
 * it or none. On failure err says "PATH: cannot WHAT: why", where why
 * does not claim that anything committed is kept unless kept. An empty b
 * (an upgrade with no column to add) is not sent: PostgreSQL calls an
 * empty query a failure, and gives no reason for it.
 */
static int
exec_atomic(struct store *s, const char *a, const char *b, const char *path,
    const char *what, int kept, char *err, size_t errsz)
{
	int pg = sdb_is_pg(s->db), ret = 0;
	char *pa = NULL, *pb = NULL;

	/* PostgreSQL reads the same text in its own types; SQLite reads its
	 * own statements out of their comments. */
	if ((pa = pg ? store__schema_pg(a) : store__schema_sqlite(a)) ==
	    NULL || (b != NULL && (pb = pg ? store__schema_pg(b) :
	    store__schema_sqlite(b)) == NULL)) {
		free(pa);
		return err_set(err, errsz, -1, "%s: out of memory", path);
	}
	if (pg) {
		char *g = pg_guard_indexes(pa);

		free(pa);
		if ((pa = g) == NULL) {
			free(pb);
			return err_set(err, errsz, -1, "%s: out of memory",
			    path);
		}
	}
	if (sdb_exec(s->db, pg ? "BEGIN" : "BEGIN IMMEDIATE") != SDB_OK ||
	    sdb_exec(s->db, pa) != SDB_OK ||
	    (pb != NULL && *pb != '\0' && sdb_exec(s->db, pb) != SDB_OK) ||
	    sdb_exec(s->db, "COMMIT") != SDB_OK) {
		char why[320];

		store__why_failed_kept(s->db, kept, why, sizeof(why));
		err_set(err, errsz, -1, "%s: cannot %s: %s", path, what, why);
		if (!sdb_autocommit(s->db))
			sdb_exec(s->db, "ROLLBACK");
		ret = -1;
	}
	free(pa);
	free(pb);
	return ret;
}

int
store__create_schema(struct store *s, const char *path, char *err,
    size_t errsz)
{
	char sql[128];

	snprintf(sql, sizeof(sql),
	    "PRAGMA application_id = %d; PRAGMA user_version = %d",
	    STORE_APPLICATION_ID, STORE_SCHEMA_VERSION);
	/* One transaction: the file is marked ours only with its schema.
	 * A new file keeps nothing when it fails (and is removed). */
	return exec_atomic(s, store_schema_sql, sql, path, "create schema", 0,
	    err, errsz);
}

/*
 * Sets *exists to whether the query sql, with text parameters a and (when
 * not NULL) b, returns a row. Returns an SQLite result code.
 */
static int
row_exists(struct sdb *db, const char *sql, const char *a, const char *b,
    int *exists)
{
	struct sdb_stmt *st = NULL;
	int rc;

	rc = sdb_prepare(db, sql, &st);
	if (rc == SDB_OK)
		rc = sdb_bind_text(st, 1, a);
	if (rc == SDB_OK && b != NULL)
		rc = sdb_bind_text(st, 2, b);
	if (rc == SDB_OK) {
		rc = sdb_step(st);
		*exists = rc == SDB_ROW;
		if (rc == SDB_ROW || rc == SDB_DONE)
			rc = SDB_OK;
	}
	sdb_finalize(st);
	return rc;
}

/* Sets *exists to whether table has a column called name. */
int
store__column_exists(struct sdb *db, const char *table, const char *name,
    int *exists)
{
	if (sdb_is_pg(db))
		return row_exists(db, "SELECT 1 FROM information_schema.columns "
		    "WHERE table_schema = current_schema() AND table_name = ? "
		    "AND column_name = ?", table, name, exists);
	return row_exists(db, "SELECT 1 FROM pragma_table_info(?) "
	    "WHERE name = ?", table, name, exists);
}

/* The later tables' part of the schema, or NULL if the mark is gone. */
const char *
store__schema_later(void)
{
	const char *p = strstr(store_schema_sql, LATER_MARK);

	return p != NULL ? p + 1 : NULL;
}

/*
 * The ALTER TABLE statements for the added columns db lacks, one after
 * the other after head: sqlite3_malloc'd, or NULL with err set.
 */
static char *
missing_columns(struct sdb *db, const char *head, const char *path, char *err,
    size_t errsz)
{
	const struct store__added *c;
	char *sql, *more;
	int table, exists;

	if ((sql = sqlite3_mprintf("%s", head)) == NULL)
		goto oom;
	for (c = store__added_columns; c->table != NULL; c++) {
		/* A later table still missing is made whole by the later
		 * part, added columns and all. */
		if (store__table_exists(db, c->table, &table) != SDB_OK ||
		    (table && store__column_exists(db, c->table, c->column,
		    &exists) != SDB_OK)) {
			err_set(err, errsz, -1, "%s: %s", path,
			    sdb_errmsg(db));
			sqlite3_free(sql);
			return NULL;
		}
		if (!table || exists)
			continue;
		more = sqlite3_mprintf("%sALTER TABLE %s ADD COLUMN %s %s;\n",
		    sql, c->table, c->column, c->decl);
		sqlite3_free(sql);
		if ((sql = more) == NULL)
			goto oom;
	}
	return sql;
oom:
	err_set(err, errsz, -1, "%s: out of memory", path);
	return NULL;
}

/*
 * Give a database made before the later tables those tables, and before
 * the added columns those columns. Nothing happens once they exist, and
 * tables and columns come in one transaction, all or none.
 */
int
store__upgrade_schema(struct store *s, const char *path, char *err,
    size_t errsz)
{
	const char *later = store__schema_later();
	char *alter;
	int rc;

	if (later == NULL)
		return err_set(err, errsz, -1, "%s: the compiled-in schema has "
		    "no later tables", path);
	/* The later tables first, then whichever columns are missing. */
	if ((alter = missing_columns(s->db, "", path, err, errsz)) == NULL)
		return -1;
	rc = exec_atomic(s, later, alter, path, "write", 1, err, errsz);
	sqlite3_free(alter);
	return rc;
}

/* Sets *exists to whether the main database has a table called name. */
int
store__table_exists(struct sdb *db, const char *name, int *exists)
{
	if (sdb_is_pg(db))
		return row_exists(db, "SELECT 1 FROM information_schema.tables "
		    "WHERE table_schema = current_schema() AND table_name = ?",
		    name, NULL, exists);
	return row_exists(db, "SELECT 1 FROM sqlite_master "
	    "WHERE type = 'table' AND name = ?", name, NULL, exists);
}

/* The table of an added column. */
const char *
store__column_table(const char *column)
{
	const struct store__added *c;

	for (c = store__added_columns; c->table != NULL; c++)
		if (strcmp(c->column, column) == 0)
			return c->table;
	return "pages";
}

static int
is_word(int c)
{
	return isalnum(c) || c == '_';
}

/* An index statement of the schema, as schema.sql writes it. */
#define INDEX_IF "CREATE INDEX IF NOT EXISTS "

/*
 * sql (PostgreSQL's text) with each "CREATE INDEX IF NOT EXISTS NAME ON
 * ...;" made to run only when no relation NAME exists. PostgreSQL takes
 * the table's SHARE lock before it looks for the index, and holds it to
 * the end of the upgrade's transaction: a process reopening a shared
 * crawl (a reconnect) then waits for the crawlers' writes to one table
 * while holding another they write, a deadlock. Returns a malloc'd
 * string, or NULL when out of memory.
 */
static char *
pg_guard_indexes(const char *sql)
{
	static const char pre[] = "DO $nc$ BEGIN IF to_regclass('";
	static const char mid[] = "') IS NULL THEN CREATE INDEX ";
	static const char post[] = " END IF; END $nc$;";
	size_t n = 0, cap, len, o = 0;
	const char *p, *at, *end;
	char *out;

	for (p = sql; (p = strstr(p, INDEX_IF)) != NULL; p += strlen(INDEX_IF))
		n++;
	cap = strlen(sql) + n * (sizeof(pre) + sizeof(mid) + sizeof(post) +
	    64) + 1;
	if ((out = malloc(cap)) == NULL)
		return NULL;
	for (p = sql; (at = strstr(p, INDEX_IF)) != NULL &&
	    (end = strchr(at, ';')) != NULL; p = end + 1) {
		const char *name = at + strlen(INDEX_IF), *ne = name;

		while (is_word((unsigned char)*ne))
			ne++;
		/* A name longer than the room counted is left as written. */
		if (ne == name || ne - name > 63) {
			len = (size_t)(end + 1 - p);
			memcpy(out + o, p, len);
			o += len;
			continue;
		}
		len = (size_t)(at - p);
		memcpy(out + o, p, len);
		o += len;
		o += (size_t)sprintf(out + o, "%s%.*s%s", pre, (int)(ne - name),
		    name, mid);
		len = (size_t)(end + 1 - name);
		memcpy(out + o, name, len);
		o += len;
		memcpy(out + o, post, sizeof(post) - 1);
		o += sizeof(post) - 1;
	}
	strcpy(out + o, p);
	return out;
}

/*
 * sql (schema.sql's dialect) in PostgreSQL's types: comments dropped, but
 * a line "-- [pg] STATEMENT" is PostgreSQL's alone and kept without its
 * mark,
 * "id INTEGER PRIMARY KEY" an identity column, INTEGER a BIGINT (SimHash
 * needs 64 bits), REAL a DOUBLE PRECISION, BLOB a BYTEA. Returns a malloc'd
 * string, or NULL when out of memory.
 */
char *
store__schema_pg(const char *sql)
{
	static const char ident[] = "BIGINT GENERATED BY DEFAULT AS IDENTITY";
	size_t cap = strlen(sql) * 3 + 1, o = 0, n;
	const char *p = sql, *w, *prev = NULL, *with;
	size_t prevlen = 0;
	char *out = malloc(cap);

	if (out == NULL)
		return NULL;
	while (*p != '\0') {
		if (*p == '\'') {
			w = strchr(p + 1, '\'');
			n = w != NULL ? (size_t)(w - p) + 1 : strlen(p);
			memcpy(out + o, p, n);
			o += n;
			p += n;
		} else if (strncmp(p, PG_MARK, sizeof(PG_MARK) - 1) == 0) {
			p += sizeof(PG_MARK) - 1;
		} else if (p[0] == '-' && p[1] == '-') {
			while (*p != '\0' && *p != '\n')
				p++;
		} else if (is_word((unsigned char)*p)) {
			for (w = p; is_word((unsigned char)*w); w++)
				;
			n = (size_t)(w - p);
			with = NULL;
			if (n == 7 && strncmp(p, "INTEGER", 7) == 0)
				with = prev != NULL && prevlen == 2 &&
				    strncmp(prev, "id", 2) == 0 &&
				    strncmp(w, " PRIMARY KEY", 12) == 0 ?
				    ident : "BIGINT";
			else if (n == 4 && strncmp(p, "REAL", 4) == 0)
				with = "DOUBLE PRECISION";
			else if (n == 4 && strncmp(p, "BLOB", 4) == 0)
				with = "BYTEA";
			if (with != NULL) {
				memcpy(out + o, with, strlen(with));
				o += strlen(with);
			} else {
				memcpy(out + o, p, n);
				o += n;
			}
			prev = p;
			prevlen = n;
			p = w;
		} else
			out[o++] = *p++;
	}
	out[o] = '\0';
	return out;
}

/*
 * sql with every "-- [sqlite] " mark dropped, so that the lines it marks
 * are statements to SQLite. Returns a malloc'd string, or NULL when out of
 * memory.
 */
char *
store__schema_sqlite(const char *sql)
{
	size_t n = strlen(sql), mark = sizeof(SQLITE_MARK) - 1, o = 0;
	const char *p = sql, *hit;
	char *out = malloc(n + 1);

	if (out == NULL)
		return NULL;
	while ((hit = strstr(p, SQLITE_MARK)) != NULL) {
		memcpy(out + o, p, (size_t)(hit - p));
		o += (size_t)(hit - p);
		p = hit + mark;
	}
	memcpy(out + o, p, strlen(p) + 1);
	return out;
}

const char *
store_schema(void)
{
	return store_schema_sql;
}
