/*
 * store_schema: the schema, a fresh file's creation, and the upgrade that
 * gives an older schema-1 database the tables and columns added since.
 *
 * storage/schema.sql is the only copy of the schema: the build compiles it
 * in as store_schema_sql, with the columns marked "-- [added]" listed in
 * store__added_columns (scripts/schema-to-c.awk). A fresh file runs the
 * whole text. An older one runs the part from the "-- [later]" line on
 * (its tables say IF NOT EXISTS) and an ALTER TABLE ... ADD COLUMN for
 * each added column its table lacks; schema 1 was never released without
 * them, so this is not worth a version bump.
 */
#include "storage/store_int.h"

#include <stdio.h>
#include <string.h>

#include "util/err.h"

/* The line that starts the later tables. */
#define LATER_MARK "\n-- [later]"

/*
 * Run the SQL scripts a and b (b may be NULL) in one transaction: all of
 * it or none. On failure err says "PATH: cannot WHAT: why".
 */
static int
exec_atomic(struct store *s, const char *a, const char *b, const char *path,
    const char *what, char *err, size_t errsz)
{
	if (sqlite3_exec(s->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) !=
	        SQLITE_OK ||
	    sqlite3_exec(s->db, a, NULL, NULL, NULL) != SQLITE_OK ||
	    (b != NULL && sqlite3_exec(s->db, b, NULL, NULL, NULL) !=
	        SQLITE_OK) ||
	    sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
		char why[320];

		store__why_failed(s->db, why, sizeof(why));
		err_set(err, errsz, -1, "%s: cannot %s: %s", path, what, why);
		if (!sqlite3_get_autocommit(s->db))
			sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
		return -1;
	}
	return 0;
}

int
store__create_schema(struct store *s, const char *path, char *err,
    size_t errsz)
{
	char sql[128];

	snprintf(sql, sizeof(sql),
	    "PRAGMA application_id = %d; PRAGMA user_version = %d",
	    STORE_APPLICATION_ID, STORE_SCHEMA_VERSION);
	/* One transaction: the file is marked ours only with its schema. */
	return exec_atomic(s, store_schema_sql, sql, path, "create schema",
	    err, errsz);
}

/*
 * Sets *exists to whether the query sql, with text parameters a and (when
 * not NULL) b, returns a row. Returns an SQLite result code.
 */
static int
row_exists(sqlite3 *db, const char *sql, const char *a, const char *b,
    int *exists)
{
	sqlite3_stmt *st = NULL;
	int rc;

	rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_text(st, 1, a, -1, SQLITE_STATIC);
	if (rc == SQLITE_OK && b != NULL)
		rc = sqlite3_bind_text(st, 2, b, -1, SQLITE_STATIC);
	if (rc == SQLITE_OK) {
		rc = sqlite3_step(st);
		*exists = rc == SQLITE_ROW;
		if (rc == SQLITE_ROW || rc == SQLITE_DONE)
			rc = SQLITE_OK;
	}
	sqlite3_finalize(st);
	return rc;
}

/* Sets *exists to whether table has a column called name. */
int
store__column_exists(sqlite3 *db, const char *table, const char *name,
    int *exists)
{
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
missing_columns(sqlite3 *db, const char *head, const char *path, char *err,
    size_t errsz)
{
	const struct store__added *c;
	char *sql, *more;
	int exists;

	if ((sql = sqlite3_mprintf("%s", head)) == NULL)
		goto oom;
	for (c = store__added_columns; c->table != NULL; c++) {
		if (store__column_exists(db, c->table, c->column, &exists) !=
		    SQLITE_OK) {
			err_set(err, errsz, -1, "%s: %s", path,
			    sqlite3_errmsg(db));
			sqlite3_free(sql);
			return NULL;
		}
		if (exists)
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
	rc = exec_atomic(s, later, alter, path, "write", err, errsz);
	sqlite3_free(alter);
	return rc;
}

/* Sets *exists to whether the main database has a table called name. */
int
store__table_exists(sqlite3 *db, const char *name, int *exists)
{
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

const char *
store_schema(void)
{
	return store_schema_sql;
}
