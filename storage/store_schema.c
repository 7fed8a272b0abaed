/*
 * store_schema: the schema compiled into the binary, a fresh file's
 * creation, and the upgrade that gives an older schema-1 database the
 * tables and columns added since.
 */
#include "storage/store_int.h"

#include <stdio.h>
#include <string.h>

#include "util/err.h"

/*
 * The tail of storage/schema.sql: tables added after databases of schema 1
 * existed. Kept apart so a writer open can run it alone on such a database.
 */
#define POLITENESS_SQL \
	"-- Politeness state a resumed crawl must keep. Added after the first\n" \
	"-- databases were made, with no version change: store_open runs these two\n" \
	"-- statements again on every writer open, so they say IF NOT EXISTS.\n" \
	"-- The robots.txt cache, one row per authority \"scheme://host[:port]\".\n" \
	"CREATE TABLE IF NOT EXISTS robots (\n" \
	"\torigin TEXT NOT NULL PRIMARY KEY, -- NOT NULL: SQLite allows NULL keys\n" \
	"\tstatus INTEGER NOT NULL, -- HTTP status of the fetch, 0 network error\n" \
	"\tbody BLOB, -- as received, capped by the crawler\n" \
	"\tfetched_at REAL NOT NULL, -- Unix time, seconds\n" \
	"\texpires_at REAL NOT NULL, -- Unix time to fetch it again\n" \
	"\tfailures INTEGER NOT NULL DEFAULT 0 -- consecutive failed fetches\n" \
	");\n" \
	"-- Per-host back-off.\n" \
	"CREATE TABLE IF NOT EXISTS hosts (\n" \
	"\thost TEXT NOT NULL PRIMARY KEY,\n" \
	"\tnot_before REAL NOT NULL DEFAULT 0, -- Unix time of the next request\n" \
	"\tbackoff_ms INTEGER NOT NULL DEFAULT 0, -- current back-off\n" \
	"\tfailures INTEGER NOT NULL DEFAULT 0, -- consecutive failures\n" \
	"\tgave_up TEXT -- why the host was given up, NULL while crawled\n" \
	");\n"

/* The link graph tables: the same story as POLITENESS_SQL. */
#define GRAPH_SQL \
	"-- The link graph and what `nearcrawl rank` makes of it: added like the\n" \
	"-- politeness tables, and run again on every writer open as well.\n" \
	"-- The links of each judged page that has any, followed or not, nofollow\n" \
	"-- ones left out; a redirect's is its target. 8 bytes per link: the URL's\n" \
	"-- store_url_hash, little-endian, in document order. One row per page keeps\n" \
	"-- the write to one statement and the graph to 8 bytes a link.\n" \
	"CREATE TABLE IF NOT EXISTS links (\n" \
	"\tpage_id INTEGER PRIMARY KEY REFERENCES pages(id),\n" \
	"\ttargets BLOB NOT NULL -- 8 bytes per link\n" \
	");\n" \
	"-- Each page's PageRank and the canonical page of its duplicate cluster;\n" \
	"-- every `nearcrawl rank` writes the table afresh.\n" \
	"CREATE TABLE IF NOT EXISTS ranks (\n" \
	"\tpage_id INTEGER PRIMARY KEY REFERENCES pages(id),\n" \
	"\tpagerank REAL NOT NULL, -- share of the whole: all pages sum to 1\n" \
	"\tcanonical_id INTEGER REFERENCES pages(id) -- NULL: in no cluster\n" \
	");\n"

/*
 * Added later still, the same way: the TDW vectors (dedup/tdw.h) a resumed
 * crawl rebuilds its tdw index from. A table of its own rather than a pages
 * column: it needs no change to the pages statements, and a read-only open
 * of an older database just finds no vectors.
 */
#define TDW_SQL \
	"-- TDW vectors of the pages the tdw method indexed (every page it judged\n" \
	"-- but the exact copies), for resuming; added like the tables above.\n" \
	"CREATE TABLE IF NOT EXISTS page_tdw (\n" \
	"\tpage_id INTEGER PRIMARY KEY REFERENCES pages(id),\n" \
	"\tvec BLOB NOT NULL -- version byte 1, then per token: id (4 bytes),\n" \
	"\t-- weight (2 bytes), little-endian, ids increasing, weights summing\n" \
	"\t-- to 65535\n" \
	");\n"

/*
 * And the word-shingle sets (dedup/shingles.h) that confirm a near verdict
 * against its original, in a table of their own for the same reasons.
 */
#define SHINGLES_SQL \
	"-- Word 3-shingle sets of the pages a near verdict may point at (every\n" \
	"-- judged page but the exact copies): a later page is confirmed near only\n" \
	"-- when few of its words are missing from its original's set.\n" \
	"CREATE TABLE IF NOT EXISTS page_shingles (\n" \
	"\tpage_id INTEGER PRIMARY KEY REFERENCES pages(id),\n" \
	"\tshingles BLOB NOT NULL -- version byte 1, the count, then the sorted\n" \
	"\t-- 32-bit hashes as LEB128 varint differences\n" \
	");\n"

/*
 * The link rule's memory (crawler/crawl_page.c): the duplicates that led
 * to new content. Added like TDW_SQL, for the same reasons.
 */
#define FRUITFUL_SQL \
	"-- Duplicate pages one of whose links led to a unique page: the link rule\n" \
	"-- counts them as new content (crawler/crawl_page.c); added like the\n" \
	"-- tables above.\n" \
	"CREATE TABLE IF NOT EXISTS fruitful (\n" \
	"\tpage_id INTEGER PRIMARY KEY REFERENCES pages(id)\n" \
	");\n"

/* storage/schema.sql, verbatim (tests/unit/test_store.c compares them). */
static const char schema_sql[] =
	"-- nearcrawl database, schema version 1 (PRAGMA user_version).\n"
	"-- storage/store.c compiles in this exact text; a unit test keeps them equal.\n"
	"\n"
	"-- Settings and counters that define and continue a crawl.\n"
	"CREATE TABLE meta (\n"
	"\tkey TEXT PRIMARY KEY,\n"
	"\tvalue TEXT NOT NULL\n"
	");\n"
	"\n"
	"-- One row per URL fetched: the research's \"Simhash Values\" table.\n"
	"CREATE TABLE pages (\n"
	"\tid INTEGER PRIMARY KEY, -- ID\n"
	"\turl TEXT NOT NULL UNIQUE, -- Actual_URL: the URL requested\n"
	"\thost TEXT NOT NULL,\n"
	"\tsimhash INTEGER, -- Hash_value: 64 bits stored as signed int64\n"
	"\tmd5 TEXT, -- hex MD5 of the extracted text\n"
	"\tssdeep TEXT, -- ssdeep of the extracted text\n"
	"\tverdict TEXT NOT NULL CHECK (verdict IN\n"
	"\t    ('unique', 'exact', 'near', 'redirect', 'error', 'skipped')),\n"
	"\treason TEXT, -- why error, skipped or redirect\n"
	"\tstatus INTEGER, -- HTTP status, 0 when none\n"
	"\tcontent_type TEXT,\n"
	"\tdepth INTEGER NOT NULL, -- links followed from a seed\n"
	"\tseq INTEGER NOT NULL UNIQUE, -- fetch order: 1, 2, 3 ...\n"
	"\tfetched_at REAL NOT NULL, -- Unix time, seconds\n"
	"\tparent_id INTEGER REFERENCES pages(id), -- linking page, NULL for seeds\n"
	"\tlocation TEXT, -- redirect target\n"
	"\ttitle TEXT,\n"
	"\theadings TEXT,\n"
	"\tdescription TEXT,\n"
	"\tkeywords TEXT,\n"
	"\tcharset TEXT,\n"
	"\tbody_bytes INTEGER, -- after content decoding\n"
	"\ttext_bytes INTEGER, -- of the extracted text\n"
	"\tlinks INTEGER, -- links found on the page\n"
	"\telapsed_ms REAL, -- transfer time\n"
	"\ttext TEXT, -- extracted text, when kept\n"
	"\tminhash BLOB -- MinHash signature: k 32-bit minima, little-endian\n"
	");\n"
	"CREATE INDEX pages_host ON pages (host);\n"
	"\n"
	"-- One row per (later page, earlier page, method): the research's\n"
	"-- \"Duplicate Value\" table; a page can repeat several earlier ones.\n"
	"CREATE TABLE duplicates (\n"
	"\tid INTEGER PRIMARY KEY,\n"
	"\tpage_id INTEGER NOT NULL REFERENCES pages(id), -- Actual_Hash_ID: later\n"
	"\toriginal_id INTEGER NOT NULL REFERENCES pages(id), -- Duplicate_Hash_ID\n"
	"\tmethod TEXT NOT NULL, -- md5, simhash, ssdeep ...\n"
	"\tpercentage REAL NOT NULL -- similarity in percent, 100 for exact\n"
	");\n"
	"CREATE INDEX duplicates_page ON duplicates (page_id);\n"
	"CREATE INDEX duplicates_original ON duplicates (original_id);\n"
	"\n"
	"-- The crawl's queue. Every URL ever queued stays, so a URL is queued once.\n"
	"CREATE TABLE frontier (\n"
	"\tid INTEGER PRIMARY KEY, -- queue order\n"
	"\turl TEXT NOT NULL UNIQUE, -- normalised\n"
	"\thost TEXT NOT NULL,\n"
	"\tdepth INTEGER NOT NULL,\n"
	"\tstate INTEGER NOT NULL DEFAULT 0, -- 0 queued, 1 in flight, 2 done\n"
	"\tnot_before REAL NOT NULL DEFAULT 0, -- Unix time it may be taken\n"
	"\ttries INTEGER NOT NULL DEFAULT 0, -- earlier attempts requeued\n"
	"\tparent_id INTEGER, -- pages.id of the linking page, NULL for seeds\n"
	"\tdup_hops INTEGER NOT NULL DEFAULT 0 -- duplicates in a row behind it\n"
	");\n"
	"-- Taking a host's oldest entry: entries of (host, state) are in id order\n"
	"-- in this index, so the first due one is found without sorting.\n"
	"CREATE INDEX frontier_take ON frontier (host, state);\n"
	"-- Per-host summaries and state counts read only this index.\n"
	"CREATE INDEX frontier_queued ON frontier (state, host, not_before);\n"
	"\n"
	POLITENESS_SQL
	"\n"
	GRAPH_SQL
	TDW_SQL
	SHINGLES_SQL
	FRUITFUL_SQL;

/*
 * Columns added to schema-1 tables after databases existed, as they are
 * declared in storage/schema.sql. A writer open appends the ones a table
 * lacks (ADD COLUMN puts them last, where a new database has them too); a
 * read-only open leaves the file alone and does not prepare the statements
 * that name them.
 */
static const struct {
	const char *table;  /* existing table */
	const char *column; /* column name */
	const char *decl;   /* its type and constraints */
} added_columns[] = {
	{ "pages", "minhash", "BLOB" },
	{ "frontier", "dup_hops", "INTEGER NOT NULL DEFAULT 0" },
};

#define NADDED (sizeof(added_columns) / sizeof(added_columns[0]))

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
store__create_schema(struct store *s, const char *path, char *err, size_t errsz)
{
	char sql[128];

	snprintf(sql, sizeof(sql),
	    "PRAGMA application_id = %d; PRAGMA user_version = %d",
	    STORE_APPLICATION_ID, STORE_SCHEMA_VERSION);
	/* One transaction: the file is marked ours only with its schema. */
	return exec_atomic(s, schema_sql, sql, path, "create schema", err,
	    errsz);
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
store__column_exists(sqlite3 *db, const char *table, const char *name, int *exists)
{
	return row_exists(db, "SELECT 1 FROM pragma_table_info(?) "
	    "WHERE name = ?", table, name, exists);
}

/*
 * Give a database made before POLITENESS_SQL, GRAPH_SQL or TDW_SQL their
 * tables, and before added_columns its columns. Schema 1 was never released
 * without them, so this is not worth a version bump; nothing happens once
 * they exist, and tables and columns come in one transaction, all or none.
 */
int
store__upgrade_schema(struct store *s, const char *path, char *err, size_t errsz)
{
	char *alter, *more;
	size_t i;
	int exists, rc;

	/* The later tables first, then whichever columns are missing. */
	if ((alter = sqlite3_mprintf("%s%s%s%s", GRAPH_SQL, TDW_SQL,
	    SHINGLES_SQL, FRUITFUL_SQL)) == NULL) {
		err_set(err, errsz, -1, "%s: out of memory", path);
		return -1;
	}
	for (i = 0; i < NADDED; i++) {
		if (store__column_exists(s->db, added_columns[i].table,
		    added_columns[i].column, &exists) != SQLITE_OK) {
			err_set(err, errsz, -1, "%s: %s", path,
			    sqlite3_errmsg(s->db));
			goto fail;
		}
		if (exists)
			continue;
		more = sqlite3_mprintf("%sALTER TABLE %s ADD COLUMN %s %s;\n",
		    alter, added_columns[i].table,
		    added_columns[i].column, added_columns[i].decl);
		if (more == NULL) {
			err_set(err, errsz, -1, "%s: out of memory", path);
			goto fail;
		}
		sqlite3_free(alter);
		alter = more;
	}
	rc = exec_atomic(s, POLITENESS_SQL, alter, path, "write",
	    err, errsz);
	sqlite3_free(alter);
	return rc;
fail:
	sqlite3_free(alter);
	return -1;
}

/* Sets *exists to whether the main database has a table called name. */
int
store__table_exists(sqlite3 *db, const char *name, int *exists)
{
	return row_exists(db, "SELECT 1 FROM sqlite_master "
	    "WHERE type = 'table' AND name = ?", name, NULL, exists);
}

/* The table of an added_columns column. */
const char *
store__column_table(const char *column)
{
	size_t i;

	for (i = 0; i < NADDED; i++)
		if (strcmp(added_columns[i].column, column) == 0)
			return added_columns[i].table;
	return "pages";
}

const char *
store_schema(void)
{
	return schema_sql;
}
