#include "storage/store.h"
#include "storage/store_int.h"

#include <sys/file.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>


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

enum stmt_id {
	ST_BEGIN,
	ST_COMMIT,
	ST_ROLLBACK,
	ST_META_SET,
	ST_META_GET,
	ST_FRONTIER_ADD,
	ST_FRONTIER_TAKE,
	ST_FRONTIER_MARK,
	ST_FRONTIER_DONE,
	ST_FRONTIER_REQUEUE,
	ST_FRONTIER_REQUEUE_INFLIGHT,
	ST_FRONTIER_HOSTS,
	ST_PAGE_ADD,
	ST_DUPLICATE_ADD,
	ST_COUNT_VERDICTS,
	ST_COUNT_DUPLICATES,
	ST_COUNT_FRONTIER,
	ST_MAX_SEQ,
	ST_FINGERPRINTS,
	ST_FRONTIER_UNTAKE,
	ST_HOST_PAGES,
	ST_ROBOTS_PUT,
	ST_ROBOTS_GET,
	ST_HOST_PUT,
	ST_HOST_GET,
	ST_REDIRECT_CHAIN,
	ST_FRONTIER_VARIANTS,
	ST_FRONTIER_KNOWN,
	ST_LINKS_PUT,
	ST_TDW_ADD,
	ST_TDW_LOAD,
	ST_SHINGLES_ADD,
	ST_SHINGLES_GET,
	ST_SHINGLES_LOAD,
	ST_FRONTIER_LOWER,
	ST_FRUITFUL_ADD,
	ST_LINEAGE,
	ST_NUM
};

static const struct {
	const char *name; /* for store_explain */
	const char *sql;  /* prepared once at open */
	const char *table; /* a later table (POLITENESS_SQL, GRAPH_SQL,
	                      TDW_SQL, SHINGLES_SQL, FRUITFUL_SQL) it needs,
	                      else NULL */
	const char *column; /* an added_columns column it needs, else NULL */
} stmt_def[ST_NUM] = {
	/* A writer takes the write lock at once: waiting for it inside a
	 * batch would risk a deadlock with a reader upgrading. */
	[ST_BEGIN] = { "begin", "BEGIN IMMEDIATE" },
	[ST_COMMIT] = { "commit", "COMMIT" },
	[ST_ROLLBACK] = { "rollback", "ROLLBACK" },
	[ST_META_SET] = { "meta_set",
	    "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)" },
	[ST_META_GET] = { "meta_get", "SELECT value FROM meta WHERE key = ?" },
	[ST_FRONTIER_ADD] = { "frontier_add",
	    "INSERT OR IGNORE INTO frontier (url, host, depth, parent_id, "
	    "dup_hops) VALUES (?, ?, ?, ?, ?)", NULL, "dup_hops" },
	/* The unary + keeps the planner on frontier_take, whose (host,
	 * state) entries are already in id order; a range on not_before
	 * would make it sort every due entry of the host. */
	[ST_FRONTIER_TAKE] = { "frontier_take",
	    "SELECT id, url, depth, parent_id, tries, dup_hops FROM frontier "
	    "WHERE host = ? AND state = 0 AND +not_before <= ? "
	    "ORDER BY id LIMIT 1", NULL, "dup_hops" },
	[ST_FRONTIER_MARK] = { "frontier_mark",
	    "UPDATE frontier SET state = 1 WHERE id = ?" },
	[ST_FRONTIER_DONE] = { "frontier_done",
	    "UPDATE frontier SET state = 2 WHERE id = ?" },
	[ST_FRONTIER_REQUEUE] = { "frontier_requeue",
	    "UPDATE frontier SET state = 0, not_before = ?, tries = tries + 1 "
	    "WHERE id = ?" },
	[ST_FRONTIER_REQUEUE_INFLIGHT] = { "frontier_requeue_inflight",
	    "UPDATE frontier SET state = 0 WHERE state = 1" },
	[ST_FRONTIER_HOSTS] = { "frontier_hosts",
	    "SELECT host, count(*), min(not_before) FROM frontier "
	    "WHERE state = 0 GROUP BY host" },
	[ST_PAGE_ADD] = { "page_add",
	    "INSERT INTO pages (url, host, simhash, md5, ssdeep, verdict, "
	    "reason, status, content_type, depth, seq, fetched_at, parent_id, "
	    "location, title, headings, description, keywords, charset, "
	    "body_bytes, text_bytes, links, elapsed_ms, text, minhash) VALUES "
	    "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
	    "?, ?, ?)", NULL, "minhash" },
	[ST_DUPLICATE_ADD] = { "duplicate_add",
	    "INSERT INTO duplicates (page_id, original_id, method, percentage) "
	    "VALUES (?, ?, ?, ?)" },
	[ST_COUNT_VERDICTS] = { "count_verdicts",
	    "SELECT verdict, count(*) FROM pages GROUP BY verdict" },
	[ST_COUNT_DUPLICATES] = { "count_duplicates",
	    "SELECT count(*) FROM duplicates" },
	[ST_COUNT_FRONTIER] = { "count_frontier",
	    "SELECT state, count(*) FROM frontier GROUP BY state" },
	[ST_MAX_SEQ] = { "max_seq", "SELECT coalesce(max(seq), 0) FROM pages" },
	[ST_FINGERPRINTS] = { "fingerprints",
	    "SELECT id, md5, simhash, ssdeep, minhash FROM pages "
	    "WHERE verdict IN ('unique', 'exact', 'near') ORDER BY seq", NULL,
	    "minhash" },
	/* Only in-flight entries: a stray id must not revive a done one. */
	[ST_FRONTIER_UNTAKE] = { "frontier_untake",
	    "UPDATE frontier SET state = 0 WHERE id = ? AND state = 1" },
	[ST_HOST_PAGES] = { "host_pages",
	    "SELECT host, count(*) FROM pages GROUP BY host" },
	[ST_ROBOTS_PUT] = { "robots_put",
	    "INSERT OR REPLACE INTO robots (origin, status, body, fetched_at, "
	    "expires_at, failures) VALUES (?, ?, ?, ?, ?, ?)", "robots" },
	[ST_ROBOTS_GET] = { "robots_get",
	    "SELECT status, body, fetched_at, expires_at, failures FROM robots "
	    "WHERE origin = ?", "robots" },
	[ST_HOST_PUT] = { "host_put",
	    "INSERT OR REPLACE INTO hosts (host, not_before, backoff_ms, "
	    "failures, gave_up) VALUES (?, ?, ?, ?, ?)", "hosts" },
	[ST_HOST_GET] = { "host_get",
	    "SELECT not_before, backoff_ms, failures, gave_up FROM hosts "
	    "WHERE host = ?", "hosts" },
	/* Up the parent_id links while the rows are redirects, at most ?2
	 * of them: each step is a primary-key look-up. */
	[ST_REDIRECT_CHAIN] = { "redirect_chain",
	    "WITH RECURSIVE up(id, parent, url, n) AS ("
	    "SELECT id, parent_id, url, 1 FROM pages "
	    "WHERE id = ?1 AND verdict = 'redirect' "
	    "UNION ALL SELECT p.id, p.parent_id, p.url, up.n + 1 "
	    "FROM pages p JOIN up ON p.id = up.parent "
	    "WHERE p.verdict = 'redirect' AND up.n < ?2) "
	    "SELECT coalesce(max(n), 0), coalesce(max(url = ?3), 0) FROM up" },
	/* A range of the url index, read no further than the cap: the
	 * URLs that start with "...path?" lie between it and "...path@". */
	[ST_FRONTIER_VARIANTS] = { "frontier_variants",
	    "SELECT count(*) FROM (SELECT 1 FROM frontier "
	    "WHERE url >= ? AND url < ? LIMIT ?)" },
	[ST_FRONTIER_KNOWN] = { "frontier_known",
	    "SELECT 1 FROM frontier WHERE url = ?" },
	/* REPLACE: a page's links are written with its row, once; a replay
	 * after a crash must not fail on the key. */
	[ST_LINKS_PUT] = { "links_put",
	    "INSERT OR REPLACE INTO links (page_id, targets) VALUES (?, ?)",
	    "links" },
	[ST_TDW_ADD] = { "tdw_add",
	    "INSERT OR REPLACE INTO page_tdw (page_id, vec) VALUES (?, ?)",
	    "page_tdw" },
	/* page_id order is fetch order: ids are given as pages are added. */
	[ST_TDW_LOAD] = { "tdw_load",
	    "SELECT page_id, vec FROM page_tdw ORDER BY page_id", "page_tdw" },
	[ST_SHINGLES_ADD] = { "shingles_add",
	    "INSERT OR REPLACE INTO page_shingles (page_id, shingles) "
	    "VALUES (?, ?)", "page_shingles" },
	[ST_SHINGLES_GET] = { "shingles_get",
	    "SELECT shingles FROM page_shingles WHERE page_id = ?",
	    "page_shingles" },
	[ST_SHINGLES_LOAD] = { "shingles_load",
	    "SELECT p.host, s.shingles FROM page_shingles s "
	    "JOIN pages p ON p.id = s.page_id ORDER BY p.seq",
	    "page_shingles" },
	/* A queued URL offered again by a page fewer duplicates behind
	 * takes that page's count and becomes its child. */
	[ST_FRONTIER_LOWER] = { "frontier_lower",
	    "UPDATE frontier SET dup_hops = ?1, parent_id = ?2 "
	    "WHERE url = ?3 AND state = 0 AND dup_hops > ?1", NULL,
	    "dup_hops" },
	[ST_FRUITFUL_ADD] = { "fruitful_add",
	    "INSERT OR IGNORE INTO fruitful (page_id) VALUES (?)",
	    "fruitful" },
	[ST_LINEAGE] = { "lineage",
	    "SELECT coalesce(parent_id, 0), verdict, EXISTS (SELECT 1 FROM "
	    "fruitful WHERE page_id = pages.id) FROM pages WHERE id = ?",
	    "fruitful" },
};

struct store {
	sqlite3 *db;                 /* the connection */
	sqlite3_stmt *st[ST_NUM];    /* prepared statements, by stmt_id */
	int lockfd;                  /* holds the writer flock; -1 read-only */
	dev_t dev;                   /* identity of the locked file ... */
	ino_t ino;                   /* ... to spot a second open in-process */
	struct store *next_writer;   /* writers list link */
	int created;                 /* this open made the file */
	unsigned char *links;        /* store_links_put's blob buffer */
	size_t links_cap;            /* its bytes */
	char err[512];               /* last error message */
};

/*
 * Writer stores open in this process. A second writer open of the same file
 * is refused from this list instead of by flock: probing with flock means
 * opening and closing another descriptor of the file, and closing any
 * descriptor drops every POSIX lock this process's SQLite holds on it.
 */
static struct store *writers;

/* Binds parameters left to right and remembers the first failure. */
struct binder {
	sqlite3_stmt *st; /* statement being bound */
	int idx;          /* last parameter bound */
	int rc;           /* first bind error, or SQLITE_OK */
};

static void
set_msg(char *err, size_t errsz, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
set_msg(char *err, size_t errsz, const char *fmt, ...)
{
	va_list ap;

	if (err == NULL || errsz == 0)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errsz, fmt, ap);
	va_end(ap);
}

const char *
store_hint(int code)
{
	switch (code) {
	case SQLITE_IOERR_WRITE:
	case SQLITE_IOERR_FSYNC:
	case SQLITE_IOERR_TRUNCATE:
	case SQLITE_IOERR_SHMSIZE:
		return "a write failed: a full disk, a file size limit or a "
		       "failing disk; what was committed is kept";
	default:
		break;
	}
	switch (code & 0xff) {
	case SQLITE_FULL:
		return "what was committed is kept";
	case SQLITE_CORRUPT:
		return "the file is damaged; PRAGMA integrity_check in "
		       "sqlite3 shows where";
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		return "another process holds it; gave up after 5 s";
	case SQLITE_READONLY:
		return "the file or its directory is read-only";
	case SQLITE_CANTOPEN:
		return "the file, or the -wal and -shm files beside it, cannot "
		       "be opened or made";
	default:
		return NULL;
	}
}

/*
 * SQLite's message for db's last failure into out, with the system's
 * reason for an I/O error and store_hint's advice in parentheses.
 */
void
store__why_failed(sqlite3 *db, char *out, size_t outsz)
{
	int code = sqlite3_extended_errcode(db);
	int e = sqlite3_system_errno(db);
	const char *hint = store_hint(code);

	/* SQLite keeps errno only for some failures; 0 is unknown. */
	if ((code & 0xff) != SQLITE_IOERR)
		e = 0;
	if (e == 0 && hint == NULL)
		snprintf(out, outsz, "%s", sqlite3_errmsg(db));
	else
		snprintf(out, outsz, "%s (%s%s%s)", sqlite3_errmsg(db),
		    e != 0 ? strerror(e) : "",
		    e != 0 && hint != NULL ? "; " : "",
		    hint != NULL ? hint : "");
}

/* err = "PATH: " and why db failed. */
static void
open_msg(sqlite3 *db, const char *path, char *err, size_t errsz)
{
	char why[320];

	store__why_failed(db, why, sizeof(why));
	set_msg(err, errsz, "%s: %s", path, why);
}

static int
db_fail(struct store *s)
{
	store__why_failed(s->db, s->err, sizeof(s->err));
	return -1;
}

static int
oom_fail(struct store *s)
{
	snprintf(s->err, sizeof(s->err), "out of memory");
	return -1;
}

static void
stmt_done(sqlite3_stmt *st)
{
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
}

static void
bind_start(struct binder *b, sqlite3_stmt *st)
{
	b->st = st;
	b->idx = 0;
	b->rc = SQLITE_OK;
}

static void
bind_rc(struct binder *b, int rc)
{
	if (b->rc == SQLITE_OK)
		b->rc = rc;
}

/* The caller steps before the strings can change, so SQLite need not copy. */
static void
bind_text(struct binder *b, const char *v)
{
	b->idx++;
	bind_rc(b, v == NULL ? sqlite3_bind_null(b->st, b->idx) :
	    sqlite3_bind_text(b->st, b->idx, v, -1, SQLITE_STATIC));
}

static void
bind_int(struct binder *b, int64_t v)
{
	b->idx++;
	bind_rc(b, sqlite3_bind_int64(b->st, b->idx, v));
}

/* Row ids of other rows, where 0 means none (a foreign key must be NULL). */
static void
bind_ref(struct binder *b, int64_t v)
{
	if (v == 0) {
		b->idx++;
		bind_rc(b, sqlite3_bind_null(b->st, b->idx));
	} else
		bind_int(b, v);
}

static void
bind_double(struct binder *b, double v)
{
	b->idx++;
	bind_rc(b, sqlite3_bind_double(b->st, b->idx, v));
}

/* An empty blob rather than NULL for len 0, so "" round-trips as itself. */
static void
bind_blob(struct binder *b, const void *v, size_t len)
{
	b->idx++;
	bind_rc(b, len == 0 ? sqlite3_bind_zeroblob(b->st, b->idx, 0) :
	    sqlite3_bind_blob64(b->st, b->idx, v, len, SQLITE_STATIC));
}

static int
bind_fail(struct store *s, struct binder *b)
{
	snprintf(s->err, sizeof(s->err), "cannot bind parameter %d: %s",
	    b->idx, sqlite3_errstr(b->rc));
	return -1;
}

/* Step a statement that returns no rows; reset it whatever happens. */
static int
exec_stmt(struct store *s, sqlite3_stmt *st, struct binder *b)
{
	int ret = -1;

	if (b != NULL && b->rc != SQLITE_OK) {
		bind_fail(s, b);
		goto out;
	}
	if (sqlite3_step(st) != SQLITE_DONE) {
		db_fail(s);
		goto out;
	}
	ret = 0;
out:
	stmt_done(st);
	return ret;
}

/* The first column of a one-row query run once, as at open. */
static int
query_int(sqlite3 *db, const char *sql, int64_t *v)
{
	sqlite3_stmt *st = NULL;
	int rc;

	rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
	if (rc != SQLITE_OK)
		goto out;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*v = sqlite3_column_int64(st, 0);
		rc = SQLITE_OK;
	} else if (rc == SQLITE_DONE)
		rc = SQLITE_ERROR;
out:
	sqlite3_finalize(st);
	return rc;
}

static uint64_t
u64_of_i64(int64_t v)
{
	uint64_t u;

	memcpy(&u, &v, sizeof(u));
	return u;
}

static int64_t
i64_of_u64(uint64_t u)
{
	int64_t v;

	memcpy(&v, &u, sizeof(v));
	return v;
}

/*
 * Take the writer lock on a descriptor of path itself, creating an empty
 * file when allowed. The descriptor must outlive the SQLite connection.
 */
static int
lock_file(struct store *s, const char *path, unsigned flags, int *created,
    char *err, size_t errsz)
{
	struct stat st;
	struct store *w;
	int fd;

	if (stat(path, &st) == 0)
		for (w = writers; w != NULL; w = w->next_writer)
			if (w->dev == st.st_dev && w->ino == st.st_ino)
				goto busy;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd == -1 && errno == ENOENT && (flags & STORE_CREATE)) {
		fd = open(path, O_RDONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		if (fd != -1)
			*created = 1;
	}
	if (fd == -1) {
		set_msg(err, errsz, "%s: %s", path,
		    errno == ENOENT ? "no such file" : strerror(errno));
		return -1;
	}
	s->lockfd = fd;
	if (fstat(fd, &st) == -1) {
		set_msg(err, errsz, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		set_msg(err, errsz, "%s: not a regular file", path);
		return -1;
	}
	s->dev = st.st_dev;
	s->ino = st.st_ino;
	if (flock(fd, LOCK_EX | LOCK_NB) == -1) {
		if (errno == EWOULDBLOCK)
			goto busy;
		set_msg(err, errsz, "%s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
busy:
	set_msg(err, errsz, "%s: in use by another nearcrawl process", path);
	return -1;
}

/*
 * Decide, by reading only, whether the open file is ours (*fresh = 0) or an
 * empty database we may initialise (*fresh = 1).
 */
static int
check_file(struct store *s, const char *path, int *fresh, char *err,
    size_t errsz)
{
	int64_t appid = 0, version = 0, objects = 0;
	int rc;

	rc = query_int(s->db, "PRAGMA application_id", &appid);
	if (rc == SQLITE_OK)
		rc = query_int(s->db, "PRAGMA user_version", &version);
	if (rc == SQLITE_OK)
		rc = query_int(s->db, "SELECT count(*) FROM sqlite_master",
		    &objects);
	if ((rc & 0xff) == SQLITE_NOTADB) {
		set_msg(err, errsz, "%s: not an SQLite database", path);
		return -1;
	}
	if (rc != SQLITE_OK) {
		open_msg(s->db, path, err, errsz);
		return -1;
	}
	*fresh = 0;
	if (appid == 0 && objects == 0)
		*fresh = 1;
	else if (appid != STORE_APPLICATION_ID || version < 1) {
		set_msg(err, errsz, "%s: not a nearcrawl database", path);
		return -1;
	} else if (version > STORE_SCHEMA_VERSION) {
		set_msg(err, errsz, "%s: made by a newer nearcrawl (schema %lld)",
		    path, (long long)version);
		return -1;
	}
	return 0;
}

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
		set_msg(err, errsz, "%s: cannot %s: %s", path, what, why);
		if (!sqlite3_get_autocommit(s->db))
			sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
		return -1;
	}
	return 0;
}

static int
create_schema(struct store *s, const char *path, char *err, size_t errsz)
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
static int
column_exists(sqlite3 *db, const char *table, const char *name, int *exists)
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
static int
upgrade_schema(struct store *s, const char *path, char *err, size_t errsz)
{
	char *alter, *more;
	size_t i;
	int exists, rc;

	/* The later tables first, then whichever columns are missing. */
	if ((alter = sqlite3_mprintf("%s%s%s%s", GRAPH_SQL, TDW_SQL,
	    SHINGLES_SQL, FRUITFUL_SQL)) == NULL) {
		set_msg(err, errsz, "%s: out of memory", path);
		return -1;
	}
	for (i = 0; i < NADDED; i++) {
		if (column_exists(s->db, added_columns[i].table,
		    added_columns[i].column, &exists) != SQLITE_OK) {
			set_msg(err, errsz, "%s: %s", path,
			    sqlite3_errmsg(s->db));
			goto fail;
		}
		if (exists)
			continue;
		more = sqlite3_mprintf("%sALTER TABLE %s ADD COLUMN %s %s;\n",
		    alter, added_columns[i].table,
		    added_columns[i].column, added_columns[i].decl);
		if (more == NULL) {
			set_msg(err, errsz, "%s: out of memory", path);
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

/* The connection settings; only a writer may change the journal mode. */
static int
configure(struct store *s, const char *path, int readonly, char *err,
    size_t errsz)
{
	const char *sql;

	sql = readonly ? "PRAGMA foreign_keys = ON" :
	    "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; "
	    "PRAGMA foreign_keys = ON";
	if (sqlite3_exec(s->db, sql, NULL, NULL, NULL) != SQLITE_OK) {
		open_msg(s->db, path, err, errsz);
		return -1;
	}
	return 0;
}

/* The table of an added_columns column. */
static const char *
column_table(const char *column)
{
	size_t i;

	for (i = 0; i < NADDED; i++)
		if (strcmp(added_columns[i].column, column) == 0)
			return added_columns[i].table;
	return "pages";
}

static int
prepare_all(struct store *s, const char *path, int readonly, char *err,
    size_t errsz)
{
	const char *sql;
	int i, exists;

	for (i = 0; i < ST_NUM; i++) {
		sql = stmt_def[i].sql;
		/*
		 * A reader may not add the tables an older database lacks;
		 * its statement stays NULL and the function finds nothing.
		 */
		if (readonly && stmt_def[i].table != NULL) {
			if (store__table_exists(s->db, stmt_def[i].table, &exists) !=
			    SQLITE_OK) {
				open_msg(s->db, path, err, errsz);
				return -1;
			}
			if (!exists)
				continue;
		}
		/* Nor the columns: the statements naming one stay NULL. */
		if (readonly && stmt_def[i].column != NULL) {
			if (column_exists(s->db, column_table(stmt_def[i].column),
			    stmt_def[i].column, &exists) != SQLITE_OK) {
				set_msg(err, errsz, "%s: %s", path,
				    sqlite3_errmsg(s->db));
				return -1;
			}
			if (!exists)
				continue;
		}
		/* A reader's batch is a snapshot and must not ask to write. */
		if (i == ST_BEGIN && readonly)
			sql = "BEGIN";
		if (sqlite3_prepare_v3(s->db, sql, -1,
		    SQLITE_PREPARE_PERSISTENT, &s->st[i], NULL) != SQLITE_OK) {
			open_msg(s->db, path, err, errsz);
			return -1;
		}
	}
	return 0;
}

/*
 * path as an SQLite URI that opens it immutable: "%", "?" and "#" are
 * escaped, and an absolute path gets an empty authority, so "//x" stays a
 * path. Returns a malloc'd string, or NULL when out of memory.
 */
static char *
immutable_uri(const char *path)
{
	static const char tail[] = "?immutable=1";
	size_t len = strlen(path), o;
	const char *p;
	char *uri;

	if ((uri = malloc(3 * len + sizeof("file://") + sizeof(tail))) == NULL)
		return NULL;
	o = (size_t)sprintf(uri, "%s", path[0] == '/' ? "file://" : "file:");
	for (p = path; *p != '\0'; p++) {
		if (*p == '%' || *p == '?' || *p == '#')
			o += (size_t)sprintf(
			    uri + o, "%%%02x", (unsigned char)*p);
		else
			uri[o++] = *p;
	}
	memcpy(uri + o, tail, sizeof(tail));
	return uri;
}

/* Whether the file path + suffix surely does not exist. */
static int
absent(const char *path, const char *suffix)
{
	struct stat st;
	char *name;
	int gone;

	if ((name = sqlite3_mprintf("%s%s", path, suffix)) == NULL)
		return 0;
	gone = stat(name, &st) == -1 && errno == ENOENT;
	sqlite3_free(name);
	return gone;
}

/*
 * Open path read-only. A database in WAL mode is read through its -shm
 * file, which SQLite creates when it is missing -- impossible in a
 * directory we may not write (a read-only mount, someone else's
 * directory). Without a -wal file there are no writes still to merge and
 * no writer at work (a writer keeps its -wal while open), so the file is
 * then read as immutable, needing neither -- unless a -journal (a file
 * switched out of WAL mode, with a transaction to roll back) is there.
 */
int
store__open_reader(const char *path, sqlite3 **db)
{
	char *uri;
	int rc, code;

	rc = sqlite3_open_v2(path, db, SQLITE_OPEN_READONLY, NULL);
	if (rc != SQLITE_OK)
		return rc;
	sqlite3_busy_timeout(*db, STORE_BUSY_MS);
	if (sqlite3_exec(*db, "SELECT count(*) FROM sqlite_master", NULL, NULL,
	        NULL) == SQLITE_OK)
		return SQLITE_OK;
	/* A read that needs to write: the -wal or -shm cannot be made. */
	code = sqlite3_errcode(*db);
	if (code != SQLITE_READONLY && code != SQLITE_CANTOPEN)
		return SQLITE_OK; /* the caller's queries meet it again */
	if (!absent(path, "-wal") || !absent(path, "-journal") ||
	    (uri = immutable_uri(path)) == NULL)
		return SQLITE_OK;
	sqlite3_close(*db);
	rc = sqlite3_open_v2(
	    uri, db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL);
	free(uri);
	if (rc == SQLITE_OK)
		sqlite3_busy_timeout(*db, STORE_BUSY_MS);
	return rc;
}

int
store_limit_pages(struct store *s, int64_t pages)
{
	sqlite3_stmt *st = NULL;
	char sql[64];
	int rc;

	if (pages < 1) {
		snprintf(s->err, sizeof(s->err),
		    "page limit %lld is not "
		    "positive",
		    (long long)pages);
		return -1;
	}
	/* A pragma takes no parameters; a number formatted here is no
	 * outside text. */
	snprintf(
	    sql, sizeof(sql), "PRAGMA max_page_count = %lld", (long long)pages);
	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK)
		return db_fail(s);
	rc = sqlite3_step(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		db_fail(s);
		sqlite3_finalize(st);
		return -1;
	}
	sqlite3_finalize(st);
	return 0;
}

/*
 * Remove a database file this open made, with the -wal and -shm files a
 * failed first write can leave (SQLite deletes them only when it could
 * checkpoint). Nobody else knew the new file while we held it.
 */
static void
remove_created(const char *path)
{
	static const char *const suffix[] = {"-wal", "-shm"};
	char *name;
	size_t i;

	unlink(path);
	for (i = 0; i < sizeof(suffix) / sizeof(suffix[0]); i++)
		if ((name = sqlite3_mprintf("%s%s", path, suffix[i])) != NULL) {
			unlink(name);
			sqlite3_free(name);
		}
}

static void
release(struct store *s)
{
	int i;

	for (i = 0; i < ST_NUM; i++)
		sqlite3_finalize(s->st[i]);
	/* Closing before SQLite would drop its POSIX locks on the file. */
	sqlite3_close(s->db);
	if (s->lockfd != -1)
		close(s->lockfd);
	free(s->links);
	free(s);
}

struct store *
store_open(const char *path, unsigned flags, char *err, size_t errsz)
{
	struct store *s;
	struct stat st;
	int readonly = (flags & STORE_READONLY) != 0;
	int created = 0, fresh = 0;

	set_msg(err, errsz, "%s", "");
	s = calloc(1, sizeof(*s));
	if (s == NULL) {
		set_msg(err, errsz, "%s: out of memory", path);
		return NULL;
	}
	s->lockfd = -1;
	if (readonly) {
		if (stat(path, &st) == -1) {
			set_msg(err, errsz, "%s: %s", path, errno == ENOENT ?
			    "no such file" : strerror(errno));
			goto fail;
		}
	} else if (lock_file(s, path, flags, &created, err, errsz) == -1)
		goto fail;
	if ((readonly ? store__open_reader(path, &s->db)
	              : sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READWRITE,
	                    NULL)) != SQLITE_OK) {
		if (s->db == NULL)
			set_msg(err, errsz, "%s: out of memory", path);
		else
			open_msg(s->db, path, err, errsz);
		goto fail;
	}
	/* Before the first read: another writer may be committing. */
	sqlite3_busy_timeout(s->db, STORE_BUSY_MS);
	if (check_file(s, path, &fresh, err, errsz) == -1)
		goto fail;
	if (fresh && (readonly || !(flags & STORE_CREATE))) {
		set_msg(err, errsz, "%s: not a nearcrawl database (empty)",
		    path);
		goto fail;
	}
	if (!readonly && sqlite3_db_readonly(s->db, "main") == 1) {
		set_msg(err, errsz, "%s: file is read-only", path);
		goto fail;
	}
	if (configure(s, path, readonly, err, errsz) == -1)
		goto fail;
	if (fresh && create_schema(s, path, err, errsz) == -1)
		goto fail;
	if (!fresh && !readonly && upgrade_schema(s, path, err, errsz) == -1)
		goto fail;
	if (prepare_all(s, path, readonly, err, errsz) == -1)
		goto fail;
	if (!readonly) {
		s->next_writer = writers;
		writers = s;
	}
	s->created = created;
	snprintf(s->err, sizeof(s->err), "no error");
	return s;
fail:
	release(s);
	if (created)
		remove_created(path);
	return NULL;
}

void
store_close(struct store *s)
{
	struct store **pp;

	if (s == NULL)
		return;
	for (pp = &writers; *pp != NULL; pp = &(*pp)->next_writer)
		if (*pp == s) {
			*pp = s->next_writer;
			break;
		}
	release(s);
}

int
store_created(const struct store *s)
{
	return s != NULL && s->created;
}

const char *
store_errmsg(const struct store *s)
{
	return s == NULL ? "no database" : s->err;
}

int
store_begin(struct store *s)
{
	return exec_stmt(s, s->st[ST_BEGIN], NULL);
}

int
store_commit(struct store *s)
{
	return exec_stmt(s, s->st[ST_COMMIT], NULL);
}

int
store_rollback(struct store *s)
{
	return exec_stmt(s, s->st[ST_ROLLBACK], NULL);
}

int
store_meta_set(struct store *s, const char *key, const char *value)
{
	struct binder b;

	bind_start(&b, s->st[ST_META_SET]);
	bind_text(&b, key);
	bind_text(&b, value);
	return exec_stmt(s, b.st, &b);
}

/*
 * Bind key to st's one parameter and step once. Returns 1 with a row to
 * read, 0 when there is none, -1 on an error (recorded in s). The caller
 * resets st with stmt_done in every case.
 */
static int
step_by_key(struct store *s, sqlite3_stmt *st, const char *key)
{
	struct binder b;
	int rc;

	bind_start(&b, st);
	bind_text(&b, key);
	if (b.rc != SQLITE_OK) {
		bind_fail(s, &b);
		return -1;
	}
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		return 1;
	if (rc == SQLITE_DONE)
		return 0;
	db_fail(s);
	return -1;
}

char *
store_meta_get(struct store *s, const char *key, int *err)
{
	sqlite3_stmt *st = s->st[ST_META_GET];
	char *value = NULL;
	const char *v;
	int rc, failed = 1;

	rc = step_by_key(s, st, key);
	if (rc < 0)
		goto out;
	if (rc == 1) {
		/* value is NOT NULL: a NULL here is SQLite out of memory. */
		v = (const char *)sqlite3_column_text(st, 0);
		if (v == NULL || (value = strdup(v)) == NULL) {
			oom_fail(s);
			goto out;
		}
	}
	failed = 0;
out:
	stmt_done(st);
	if (err != NULL)
		*err = failed ? -1 : 0;
	return value;
}

static int no_table(struct store *s, int id);
static int no_column(struct store *s, int id);

int
store_frontier_add(struct store *s, const char *url, const char *host,
    int depth, int64_t parent, int dup_hops)
{
	struct binder b;

	if (s->st[ST_FRONTIER_ADD] == NULL || s->st[ST_FRONTIER_LOWER] == NULL)
		return no_column(s, ST_FRONTIER_ADD);
	bind_start(&b, s->st[ST_FRONTIER_ADD]);
	bind_text(&b, url);
	bind_text(&b, host);
	bind_int(&b, depth);
	bind_ref(&b, parent);
	bind_int(&b, dup_hops);
	if (exec_stmt(s, b.st, &b) == -1)
		return -1;
	if (sqlite3_changes(s->db) == 1)
		return 1;
	bind_start(&b, s->st[ST_FRONTIER_LOWER]);
	bind_int(&b, dup_hops);
	bind_ref(&b, parent);
	bind_text(&b, url);
	return exec_stmt(s, b.st, &b) == -1 ? -1 : 0;
}

int64_t
store_frontier_variants(struct store *s, const char *url, int64_t cap)
{
	sqlite3_stmt *st = s->st[ST_FRONTIER_VARIANTS];
	const char *q = strchr(url, '?');
	struct binder b;
	char *upper;
	size_t n;
	int64_t count = -1;

	if (q == NULL || cap <= 0)
		return 0;
	n = (size_t)(q - url) + 1;
	if (n > INT_MAX) {
		snprintf(s->err, sizeof(s->err), "URL too long");
		return -1;
	}
	if ((upper = malloc(n + 1)) == NULL)
		return oom_fail(s);
	memcpy(upper, url, n);
	upper[n - 1] = '?' + 1;
	upper[n] = '\0';
	bind_start(&b, st);
	b.idx++;
	bind_rc(&b, sqlite3_bind_text(st, b.idx, url, (int)n, SQLITE_STATIC));
	bind_text(&b, upper);
	bind_int(&b, cap);
	if (b.rc != SQLITE_OK) {
		bind_fail(s, &b);
		goto out;
	}
	if (sqlite3_step(st) != SQLITE_ROW) {
		db_fail(s);
		goto out;
	}
	count = sqlite3_column_int64(st, 0);
out:
	stmt_done(st);
	free(upper);
	return count;
}

int
store_frontier_known(struct store *s, const char *url)
{
	sqlite3_stmt *st = s->st[ST_FRONTIER_KNOWN];
	struct binder b;
	int rc, ret = -1;

	bind_start(&b, st);
	bind_text(&b, url);
	if (b.rc != SQLITE_OK) {
		bind_fail(s, &b);
		goto out;
	}
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW || rc == SQLITE_DONE)
		ret = rc == SQLITE_ROW;
	else
		db_fail(s);
out:
	stmt_done(st);
	return ret;
}

int
store_frontier_take(struct store *s, const char *host, double now,
    struct store_item *it)
{
	sqlite3_stmt *st = s->st[ST_FRONTIER_TAKE];
	struct binder b;
	const char *url;
	char *copy = NULL;
	int64_t id = 0;
	int depth = 0, tries = 0, hops = 0, rc, ret = -1;
	int64_t parent = 0;

	if (st == NULL)
		return no_column(s, ST_FRONTIER_TAKE);
	bind_start(&b, st);
	bind_text(&b, host);
	bind_double(&b, now);
	if (b.rc != SQLITE_OK) {
		bind_fail(s, &b);
		goto out;
	}
	rc = sqlite3_step(st);
	if (rc == SQLITE_DONE) {
		ret = 0;
		goto out;
	}
	if (rc != SQLITE_ROW) {
		db_fail(s);
		goto out;
	}
	id = sqlite3_column_int64(st, 0);
	url = (const char *)sqlite3_column_text(st, 1);
	if (url == NULL || (copy = strdup(url)) == NULL) {
		oom_fail(s);
		goto out;
	}
	depth = sqlite3_column_int(st, 2);
	parent = sqlite3_column_int64(st, 3);
	tries = sqlite3_column_int(st, 4);
	hops = sqlite3_column_int(st, 5);
	stmt_done(st);

	bind_start(&b, s->st[ST_FRONTIER_MARK]);
	bind_int(&b, id);
	if (exec_stmt(s, b.st, &b) == -1) {
		free(copy);
		return -1;
	}
	it->id = id;
	it->url = copy;
	it->depth = depth;
	it->parent = parent;
	it->tries = tries;
	it->dup_hops = hops;
	return 1;
out:
	stmt_done(st);
	return ret;
}

int
store_frontier_done(struct store *s, int64_t id)
{
	struct binder b;

	bind_start(&b, s->st[ST_FRONTIER_DONE]);
	bind_int(&b, id);
	return exec_stmt(s, b.st, &b);
}

int
store_frontier_requeue(struct store *s, int64_t id, double not_before)
{
	struct binder b;

	bind_start(&b, s->st[ST_FRONTIER_REQUEUE]);
	bind_double(&b, not_before);
	bind_int(&b, id);
	return exec_stmt(s, b.st, &b);
}

int
store_frontier_untake(struct store *s, int64_t id)
{
	struct binder b;

	bind_start(&b, s->st[ST_FRONTIER_UNTAKE]);
	bind_int(&b, id);
	return exec_stmt(s, b.st, &b);
}

int64_t
store_frontier_requeue_inflight(struct store *s)
{
	if (exec_stmt(s, s->st[ST_FRONTIER_REQUEUE_INFLIGHT], NULL) == -1)
		return -1;
	return sqlite3_changes64(s->db);
}

int
store_frontier_hosts(struct store *s,
    int (*fn)(const char *host, int64_t queued, double not_before, void *arg),
    void *arg)
{
	sqlite3_stmt *st = s->st[ST_FRONTIER_HOSTS];
	const char *host;
	int rc, ret = 0;

	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		host = (const char *)sqlite3_column_text(st, 0);
		if (host == NULL) {
			ret = oom_fail(s);
			goto out;
		}
		ret = fn(host, sqlite3_column_int64(st, 1),
		    sqlite3_column_double(st, 2), arg);
		if (ret != 0)
			goto out;
	}
	if (rc != SQLITE_DONE)
		ret = db_fail(s);
out:
	stmt_done(st);
	return ret;
}

void
store_item_clear(struct store_item *it)
{
	if (it == NULL)
		return;
	free(it->url);
	memset(it, 0, sizeof(*it));
}

/* A write to a table a read-only open found missing. */
static int
no_table(struct store *s, int id)
{
	snprintf(s->err, sizeof(s->err), "no %s table (read-only open of an "
	    "older database)", stmt_def[id].table);
	return -1;
}

/* A statement naming a column a read-only open found missing. */
static int
no_column(struct store *s, int id)
{
	snprintf(s->err, sizeof(s->err), "no %s.%s column (read-only open "
	    "of an older database)", column_table(stmt_def[id].column),
	    stmt_def[id].column);
	return -1;
}

int64_t
store_page_add(struct store *s, const struct store_page *p)
{
	struct binder b;

	if (s->st[ST_PAGE_ADD] == NULL)
		return no_column(s, ST_PAGE_ADD);

	bind_start(&b, s->st[ST_PAGE_ADD]);
	bind_text(&b, p->url);
	bind_text(&b, p->host);
	if (p->has_simhash)
		bind_int(&b, i64_of_u64(p->simhash));
	else
		bind_text(&b, NULL);
	bind_text(&b, p->md5);
	bind_text(&b, p->ssdeep);
	bind_text(&b, p->verdict);
	bind_text(&b, p->reason);
	bind_int(&b, p->status);
	bind_text(&b, p->content_type);
	bind_int(&b, p->depth);
	bind_int(&b, p->seq);
	bind_double(&b, p->fetched_at);
	bind_ref(&b, p->parent);
	bind_text(&b, p->location);
	bind_text(&b, p->title);
	bind_text(&b, p->headings);
	bind_text(&b, p->description);
	bind_text(&b, p->keywords);
	bind_text(&b, p->charset);
	bind_int(&b, p->body_bytes);
	bind_int(&b, p->text_bytes);
	bind_int(&b, p->links);
	bind_double(&b, p->elapsed_ms);
	bind_text(&b, p->text);
	if (p->minhash != NULL)
		bind_blob(&b, p->minhash, p->minhash_len);
	else
		bind_text(&b, NULL);
	if (exec_stmt(s, b.st, &b) == -1)
		return -1;
	return sqlite3_last_insert_rowid(s->db);
}

int
store_duplicate_add(struct store *s, int64_t page_id, int64_t original_id,
    const char *method, double percentage)
{
	struct binder b;

	bind_start(&b, s->st[ST_DUPLICATE_ADD]);
	bind_int(&b, page_id);
	bind_int(&b, original_id);
	bind_text(&b, method);
	bind_double(&b, percentage);
	return exec_stmt(s, b.st, &b);
}

int
store_load_fingerprints(struct store *s,
    int (*fn)(const struct store_fingerprints *f, void *arg), void *arg)
{
	sqlite3_stmt *st = s->st[ST_FINGERPRINTS];
	struct store_fingerprints f;
	int rc, ret = 0;

	if (st == NULL)
		return no_column(s, ST_FINGERPRINTS);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		memset(&f, 0, sizeof(f));
		f.id = sqlite3_column_int64(st, 0);
		f.md5 = (const char *)sqlite3_column_text(st, 1);
		f.has_simhash = sqlite3_column_type(st, 2) != SQLITE_NULL;
		if (f.has_simhash)
			f.simhash = u64_of_i64(sqlite3_column_int64(st, 2));
		f.ssdeep = (const char *)sqlite3_column_text(st, 3);
		/* Blob before bytes: the size is of the value as returned. */
		if (sqlite3_column_type(st, 4) == SQLITE_BLOB) {
			f.minhash = sqlite3_column_blob(st, 4);
			f.minhash_len = (size_t)sqlite3_column_bytes(st, 4);
		}
		ret = fn(&f, arg);
		if (ret != 0)
			goto out;
	}
	if (rc != SQLITE_DONE)
		ret = db_fail(s);
out:
	stmt_done(st);
	return ret;
}

int
store_host_pages(struct store *s,
    int (*fn)(const char *host, int64_t pages, void *arg), void *arg)
{
	sqlite3_stmt *st = s->st[ST_HOST_PAGES];
	const char *host;
	int rc, ret = 0;

	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		host = (const char *)sqlite3_column_text(st, 0);
		if (host == NULL) {
			ret = oom_fail(s);
			goto out;
		}
		ret = fn(host, sqlite3_column_int64(st, 1), arg);
		if (ret != 0)
			goto out;
	}
	if (rc != SQLITE_DONE)
		ret = db_fail(s);
out:
	stmt_done(st);
	return ret;
}


int
store_fruitful_add(struct store *s, int64_t page_id)
{
	struct binder b;

	if (s->st[ST_FRUITFUL_ADD] == NULL)
		return no_table(s, ST_FRUITFUL_ADD);
	bind_start(&b, s->st[ST_FRUITFUL_ADD]);
	bind_int(&b, page_id);
	return exec_stmt(s, b.st, &b);
}

int
store_page_lineage(struct store *s, int64_t page_id, struct store_lineage *l)
{
	sqlite3_stmt *st = s->st[ST_LINEAGE];
	struct binder b;
	const char *v;
	int rc, ret = -1;

	memset(l, 0, sizeof(*l));
	if (st == NULL)
		return no_table(s, ST_LINEAGE);
	bind_start(&b, st);
	bind_int(&b, page_id);
	if (b.rc != SQLITE_OK) {
		bind_fail(s, &b);
		goto out;
	}
	rc = sqlite3_step(st);
	if (rc == SQLITE_DONE) {
		ret = 0;
		goto out;
	}
	if (rc != SQLITE_ROW) {
		db_fail(s);
		goto out;
	}
	l->parent = sqlite3_column_int64(st, 0);
	v = (const char *)sqlite3_column_text(st, 1);
	if (v == NULL) {
		oom_fail(s);
		goto out;
	}
	l->unique = strcmp(v, "unique") == 0;
	l->duplicate = strcmp(v, "exact") == 0 || strcmp(v, "near") == 0;
	l->redirect = strcmp(v, "redirect") == 0;
	l->fruitful = sqlite3_column_int(st, 2) != 0;
	ret = 1;
out:
	stmt_done(st);
	return ret;
}

int
store_tdw_add(struct store *s, int64_t page_id, const void *vec, size_t len)
{
	struct binder b;

	if (s->st[ST_TDW_ADD] == NULL)
		return no_table(s, ST_TDW_ADD);
	if (vec == NULL || len == 0) {
		snprintf(s->err, sizeof(s->err), "empty TDW vector");
		return -1;
	}
	bind_start(&b, s->st[ST_TDW_ADD]);
	bind_int(&b, page_id);
	bind_blob(&b, vec, len);
	return exec_stmt(s, b.st, &b);
}

int
store_load_tdw(struct store *s,
    int (*fn)(int64_t id, const void *vec, size_t len, void *arg), void *arg)
{
	sqlite3_stmt *st = s->st[ST_TDW_LOAD];
	const void *vec;
	size_t len;
	int rc, ret = 0;

	if (st == NULL)
		return 0;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		/* Blob before bytes; a NULL with bytes is SQLite's OOM. */
		vec = sqlite3_column_blob(st, 1);
		len = (size_t)sqlite3_column_bytes(st, 1);
		if (vec == NULL && len > 0) {
			ret = oom_fail(s);
			goto out;
		}
		ret = fn(sqlite3_column_int64(st, 0), vec, len, arg);
		if (ret != 0)
			goto out;
	}
	if (rc != SQLITE_DONE)
		ret = db_fail(s);
out:
	stmt_done(st);
	return ret;
}

int
store_shingles_add(struct store *s, int64_t page_id, const void *blob,
    size_t len)
{
	struct binder b;

	if (s->st[ST_SHINGLES_ADD] == NULL)
		return no_table(s, ST_SHINGLES_ADD);
	bind_start(&b, s->st[ST_SHINGLES_ADD]);
	bind_int(&b, page_id);
	bind_blob(&b, blob, len);
	return exec_stmt(s, b.st, &b);
}

int
store_shingles_get(struct store *s, int64_t page_id, void **blob,
    size_t *len)
{
	sqlite3_stmt *st = s->st[ST_SHINGLES_GET];
	const void *v;
	int rc, ret = 0;

	*blob = NULL;
	*len = 0;
	if (st == NULL)
		return 0;
	if (sqlite3_bind_int64(st, 1, page_id) != SQLITE_OK) {
		ret = db_fail(s);
		goto out;
	}
	if ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		v = sqlite3_column_blob(st, 0);
		*len = (size_t)sqlite3_column_bytes(st, 0);
		if (v == NULL && *len > 0) {
			ret = oom_fail(s);
			goto out;
		}
		if (*len > 0 && (*blob = malloc(*len)) == NULL) {
			*len = 0;
			ret = oom_fail(s);
			goto out;
		}
		if (*len > 0)
			memcpy(*blob, v, *len);
	} else if (rc != SQLITE_DONE) {
		ret = db_fail(s);
	}
out:
	stmt_done(st);
	return ret;
}

int
store_load_blocks(struct store *s,
    int (*fn)(const char *host, const void *blob, size_t len, void *arg),
    void *arg)
{
	sqlite3_stmt *st = s->st[ST_SHINGLES_LOAD];
	const unsigned char *host;
	const void *blob;
	size_t len;
	int rc, ret = 0;

	if (st == NULL)
		return 0;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		host = sqlite3_column_text(st, 0);
		blob = sqlite3_column_blob(st, 1);
		len = (size_t)sqlite3_column_bytes(st, 1);
		if (blob == NULL && len > 0) {
			ret = oom_fail(s);
			goto out;
		}
		ret = fn(host != NULL ? (const char *)host : "", blob, len,
		    arg);
		if (ret != 0)
			goto out;
	}
	if (rc != SQLITE_DONE)
		ret = db_fail(s);
out:
	stmt_done(st);
	return ret;
}

int
store_robots_put(struct store *s, const char *origin, int status,
    const char *body, size_t len, double fetched_at, double expires_at,
    int failures)
{
	struct binder b;

	if (s->st[ST_ROBOTS_PUT] == NULL)
		return no_table(s, ST_ROBOTS_PUT);
	if (body == NULL && len > 0) {
		snprintf(s->err, sizeof(s->err), "robots body is NULL");
		return -1;
	}
	bind_start(&b, s->st[ST_ROBOTS_PUT]);
	bind_text(&b, origin);
	bind_int(&b, status);
	bind_blob(&b, body, len);
	bind_double(&b, fetched_at);
	bind_double(&b, expires_at);
	bind_int(&b, failures);
	return exec_stmt(s, b.st, &b);
}

int
store_robots_get(struct store *s, const char *origin,
    struct store_robots *out)
{
	sqlite3_stmt *st = s->st[ST_ROBOTS_GET];
	const void *body;
	char *copy = NULL;
	size_t len;
	int rc, ret = -1;

	memset(out, 0, sizeof(*out));
	if (st == NULL)
		return 0;
	if ((rc = step_by_key(s, st, origin)) != 1) {
		ret = rc;
		goto out;
	}
	/* Blob before bytes: the size is of the value as returned. An
	 * empty blob comes back as NULL, so only NULL with bytes is OOM. */
	body = sqlite3_column_blob(st, 1);
	len = (size_t)sqlite3_column_bytes(st, 1);
	if ((body == NULL && len > 0) || (copy = malloc(len + 1)) == NULL) {
		oom_fail(s);
		goto out;
	}
	if (len > 0)
		memcpy(copy, body, len);
	copy[len] = '\0';
	out->status = sqlite3_column_int(st, 0);
	out->body = copy;
	out->len = len;
	out->fetched_at = sqlite3_column_double(st, 2);
	out->expires_at = sqlite3_column_double(st, 3);
	out->failures = sqlite3_column_int(st, 4);
	ret = 1;
out:
	stmt_done(st);
	return ret;
}

void
store_robots_clear(struct store_robots *r)
{
	if (r == NULL)
		return;
	free(r->body);
	memset(r, 0, sizeof(*r));
}

int
store_host_put(struct store *s, const char *host, const struct store_host *h)
{
	struct binder b;

	if (s->st[ST_HOST_PUT] == NULL)
		return no_table(s, ST_HOST_PUT);
	bind_start(&b, s->st[ST_HOST_PUT]);
	bind_text(&b, host);
	bind_double(&b, h->not_before);
	bind_int(&b, h->backoff_ms);
	bind_int(&b, h->failures);
	bind_text(&b, h->gave_up);
	return exec_stmt(s, b.st, &b);
}

int
store_host_get(struct store *s, const char *host, struct store_host *out)
{
	sqlite3_stmt *st = s->st[ST_HOST_GET];
	const char *gave_up;
	char *copy = NULL;
	int rc, ret = -1;

	memset(out, 0, sizeof(*out));
	if (st == NULL)
		return 0;
	if ((rc = step_by_key(s, st, host)) != 1) {
		ret = rc;
		goto out;
	}
	if (sqlite3_column_type(st, 3) != SQLITE_NULL) {
		gave_up = (const char *)sqlite3_column_text(st, 3);
		if (gave_up == NULL || (copy = strdup(gave_up)) == NULL) {
			oom_fail(s);
			goto out;
		}
	}
	out->not_before = sqlite3_column_double(st, 0);
	out->backoff_ms = (long)sqlite3_column_int64(st, 1);
	out->failures = sqlite3_column_int(st, 2);
	out->gave_up = copy;
	ret = 1;
out:
	stmt_done(st);
	return ret;
}

void
store_host_clear(struct store_host *h)
{
	if (h == NULL)
		return;
	free(h->gave_up);
	memset(h, 0, sizeof(*h));
}

int
store_redirect_chain(struct store *s, int64_t id, const char *url, int max,
    int *hops, int *seen)
{
	sqlite3_stmt *st = s->st[ST_REDIRECT_CHAIN];
	struct binder b;
	int ret = -1;

	*hops = 0;
	*seen = 0;
	bind_start(&b, st);
	bind_int(&b, id);
	bind_int(&b, max);
	bind_text(&b, url);
	if (b.rc != SQLITE_OK) {
		bind_fail(s, &b);
		goto out;
	}
	if (sqlite3_step(st) != SQLITE_ROW) {
		db_fail(s);
		goto out;
	}
	*hops = sqlite3_column_int(st, 0);
	*seen = sqlite3_column_int(st, 1);
	ret = 0;
out:
	stmt_done(st);
	return ret;
}

uint64_t
store_url_hash(const char *url)
{
	const unsigned char *p;
	uint64_t h = 0xcbf29ce484222325ULL;

	/* FNV-1a, then splitmix64's finaliser so every byte reaches every
	 * bit: fixed by the stored graph, never to change. */
	for (p = (const unsigned char *)url; *p != '\0'; p++) {
		h ^= *p;
		h *= 0x100000001b3ULL;
	}
	h ^= h >> 30;
	h *= 0xbf58476d1ce4e5b9ULL;
	h ^= h >> 27;
	h *= 0x94d049bb133111ebULL;
	h ^= h >> 31;
	return h;
}

int
store_links_put(struct store *s, int64_t page_id, char *const *urls,
    size_t n)
{
	struct binder b;
	unsigned char *p;
	uint64_t h;
	size_t i, need;
	int k;

	if (s->st[ST_LINKS_PUT] == NULL)
		return no_table(s, ST_LINKS_PUT);
	if (n == 0)
		return 0;
	if (n > STORE_LINKS_MAX) {
		snprintf(s->err, sizeof(s->err), "%zu links: more than %d",
		    n, STORE_LINKS_MAX);
		return -1;
	}
	need = n * 8;
	if (need > s->links_cap) {
		if ((p = realloc(s->links, need)) == NULL)
			return oom_fail(s);
		s->links = p;
		s->links_cap = need;
	}
	/* Little-endian whatever the machine, so the file travels. */
	for (i = 0, p = s->links; i < n; i++)
		for (h = store_url_hash(urls[i]), k = 0; k < 8; k++, h >>= 8)
			*p++ = (unsigned char)(h & 0xff);
	bind_start(&b, s->st[ST_LINKS_PUT]);
	bind_int(&b, page_id);
	bind_blob(&b, s->links, need);
	return exec_stmt(s, b.st, &b);
}

/* Run a one-row, one-integer statement. */
static int
count_one(struct store *s, sqlite3_stmt *st, int64_t *v)
{
	int ret = -1;

	if (sqlite3_step(st) != SQLITE_ROW) {
		db_fail(s);
		goto out;
	}
	*v = sqlite3_column_int64(st, 0);
	ret = 0;
out:
	stmt_done(st);
	return ret;
}

static int64_t *
verdict_slot(struct store_counts *c, const char *verdict)
{
	static const struct {
		const char *name;
		size_t off;
	} slots[] = {
		{ "unique", offsetof(struct store_counts, unique) },
		{ "exact", offsetof(struct store_counts, exact) },
		{ "near", offsetof(struct store_counts, near) },
		{ "redirect", offsetof(struct store_counts, redirect) },
		{ "error", offsetof(struct store_counts, error) },
		{ "skipped", offsetof(struct store_counts, skipped) },
	};
	size_t i;

	if (verdict == NULL)
		return NULL;
	for (i = 0; i < sizeof(slots) / sizeof(slots[0]); i++)
		if (strcmp(verdict, slots[i].name) == 0)
			return (int64_t *)((char *)c + slots[i].off);
	return NULL;
}

int
store_counts(struct store *s, struct store_counts *c)
{
	sqlite3_stmt *st;
	int64_t n, *slot;
	int rc, ret = -1;

	memset(c, 0, sizeof(*c));
	st = s->st[ST_COUNT_VERDICTS];
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		n = sqlite3_column_int64(st, 1);
		c->pages += n;
		slot = verdict_slot(c,
		    (const char *)sqlite3_column_text(st, 0));
		if (slot != NULL)
			*slot = n;
	}
	if (rc != SQLITE_DONE) {
		db_fail(s);
		goto out;
	}
	stmt_done(st);

	st = s->st[ST_COUNT_FRONTIER];
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		n = sqlite3_column_int64(st, 1);
		switch (sqlite3_column_int(st, 0)) {
		case FRONTIER_QUEUED:
			c->queued = n;
			break;
		case FRONTIER_INFLIGHT:
			c->inflight = n;
			break;
		case FRONTIER_DONE:
			c->done = n;
			break;
		default:
			break;
		}
	}
	if (rc != SQLITE_DONE) {
		db_fail(s);
		goto out;
	}
	stmt_done(st);

	st = NULL;
	if (count_one(s, s->st[ST_COUNT_DUPLICATES], &c->duplicates) == -1 ||
	    count_one(s, s->st[ST_MAX_SEQ], &c->max_seq) == -1)
		goto out;
	ret = 0;
out:
	if (st != NULL)
		stmt_done(st);
	return ret;
}

const char *
store_schema(void)
{
	return schema_sql;
}

int
store_explain(struct store *s, const char *name, char *out, size_t outsz)
{
	sqlite3_stmt *st = NULL;
	char *sql = NULL;
	const char *detail;
	size_t len = 0, n;
	int i, rc, ret = -1;

	if (outsz > 0)
		out[0] = '\0';
	for (i = 0; i < ST_NUM; i++)
		if (strcmp(stmt_def[i].name, name) == 0)
			break;
	if (i == ST_NUM) {
		snprintf(s->err, sizeof(s->err), "no statement named %s",
		    name);
		return -1;
	}
	sql = sqlite3_mprintf("EXPLAIN QUERY PLAN %s", stmt_def[i].sql);
	if (sql == NULL) {
		oom_fail(s);
		goto out;
	}
	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK) {
		db_fail(s);
		goto out;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		detail = (const char *)sqlite3_column_text(st, 3);
		if (detail == NULL)
			continue;
		n = strlen(detail);
		if (len + n + 2 > outsz) {
			snprintf(s->err, sizeof(s->err), "plan too long");
			goto out;
		}
		memcpy(out + len, detail, n);
		len += n;
		out[len++] = '\n';
		out[len] = '\0';
	}
	if (rc != SQLITE_DONE) {
		db_fail(s);
		goto out;
	}
	ret = 0;
out:
	sqlite3_finalize(st);
	sqlite3_free(sql);
	return ret;
}
