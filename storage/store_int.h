/*
 * store_int: what the files of storage/ share. Internal: only the files
 * of storage/ (and the unit tests) include it; the rest of the program
 * sees storage/store.h, the headers of its parts beside it
 * (store_frontier.h, store_pages.h, store_share.h ...) and storage/query.h.
 */
#ifndef NC_STORE_INT_H
#define NC_STORE_INT_H

#include <sys/types.h>

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <sqlite3.h>

#include "storage/sdb.h"

#include "storage/query.h"
#include "storage/store.h"

#define STORE_BUSY_MS 5000 /* store_hint says "5 s" */

/* --- store_open.c --- */

/*
 * Open path read-only, as a STORE_READONLY store does: a WAL database in a
 * directory that may not be written is read as immutable when no -wal or
 * -journal file is beside it. Returns an SQLite result code; *db, even on
 * failure, is the caller's to close.
 */
int store__open_reader(const char *path, sqlite3 **db);

/* --- store_vfs.c --- */

/* The name of SQLite's file layer with a WAL's writes gathered into few
 * system calls (store_vfs.c), for sqlite3_open_v2; registered at the
 * first call. NULL (SQLite's default layer) when it could not be. */
const char *store__vfs(void);

/* --- store_pg.c --- */

/* store_open for a PostgreSQL target. */
struct store *store__open_pg(const char *target, unsigned flags, char *err,
    size_t errsz);

/* sql, in schema.sql's dialect, in PostgreSQL's types; malloc'd, or NULL
 * when out of memory. */
char *store__schema_pg(const char *sql);

/* sql, in schema.sql's dialect, as SQLite runs it: the statements marked
 * "-- [sqlite]" unmarked (store_schema.c); malloc'd, or NULL when out of
 * memory. */
char *store__schema_sqlite(const char *sql);

/* The writer's statements and settings: prepare every statement of
 * store__stmt_def (the pg text where one is given). 0, or -1 with err. */
int store__prepare_all(struct store *s, const char *path, int readonly,
    char *err, size_t errsz);

/* Free s and everything it holds. */
void store__release(struct store *s);

/* --- store_err.c (with store_hint) --- */

/* SQLite's message for db's last failure into out, with the system's
 * reason for an I/O error and store_hint's advice in parentheses. */
void store__why_failed(struct sdb *db, char *out, size_t outsz);

/* store__why_failed where kept says whether anything the user asked for
 * was stored: when not (a new file's first writes), a full disk's advice
 * does not say that what was committed is kept. */
void store__why_failed_kept(struct sdb *db, int kept, char *out,
    size_t outsz);

/* store_hint's advice, for kept as store__why_failed_kept's. */
const char *store__hint_kept(int code, int kept);

/* --- store_disk.c --- */

/*
 * Checkpoint the WAL every bytes (in pages of the file's size) from the
 * commit that passes it, as PRAGMA wal_autocheckpoint does, but report a
 * checkpoint that fails: the COMMIT then fails (though it committed), and
 * store__checkpoint_report says why. Nothing on PostgreSQL. An SQLite
 * result code.
 */
int store__checkpoint_every(struct store *s, long bytes);

/* When the last commit's checkpoint failed: s->err says so, and 1; else
 * 0. Reports each failure once. */
int store__checkpoint_report(struct store *s);

/* target for messages: a PostgreSQL URI loses its password. */
const char *store__target_name(const char *target);

/* --- store_conn.c --- */

/* store_conn_fail for a bare handle h of path. */
int store__conn_fail(struct sdb *h, const char *path, char *err, size_t errsz,
    int runtime, int baddb);

enum stmt_id {
	ST_BEGIN,
	ST_COMMIT,
	ST_ROLLBACK,
	ST_META_SET,
	ST_META_GET,
	ST_FRONTIER_ADD,
	ST_FRONTIER_TAKE,
	ST_FRONTIER_MARK,
	ST_FRONTIER_TAKE_MARK,
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
	ST_SEQ_NEXT,
	ST_PAGE_ADD_ID,
	ST_PAGE_IDS,
	ST_CLOCK_GET,
	ST_BEAT,
	ST_LIVE,
	ST_LEASE_NOTE,
	ST_LEASE_CLAIM,
	ST_LEASE_TAKE,
	ST_LEASE_RENEW,
	ST_LEASE_OWNED,
	ST_LEASE_RELEASE,
	ST_LEASE_RELEASE_ALL,
	ST_WORK_HOSTS,
	ST_IN_FLIGHT_ANY,
	ST_HOST_RECLAIM,
	ST_HOST_QUEUE,
	ST_KEYS_LOCK,
	ST_KEYS_ADVISORY,
	ST_PAYLOAD_FIND,
	ST_PAYLOAD_ADD,
	ST_PAYLOAD_WHERE,
	ST_EARLIER_ADD,
	ST_PAGE_URL,
	ST_PAGE_BY_URL,
	ST_RECRAWL_REQUEUE,
	ST_PAGE_PRIOR,
	ST_VISIT_ADD,
	ST_PAGE_VALIDATORS,
	ST_FRONTIER_HOPS,
	ST_AHEAD_RETURN,
	ST_FRONTIER_URLS,
	ST_FRONTIER_URL_OF,
	ST_FRONTIER_LOWER_ID,
	ST_SEARCH_ADD,
	ST_SEARCH_SET,
	ST_SEARCH_DROP,
	ST_NUM
};

/* URLs a shared store may hold taken ahead at once. */
#define STORE_AHEADS 64

struct store__ahead;
struct binder;
struct store_item; /* storage/store_frontier.h */

struct store {
	struct sdb *db;              /* the connection */
	struct sdb_stmt *st[ST_NUM];    /* prepared statements, by stmt_id */
	int lockfd;                  /* holds the writer flock; -1 read-only */
	dev_t dev;                   /* identity of the locked file ... */
	ino_t ino;                   /* ... to spot a second open in-process */
	struct store *next_writer;   /* writers list link (store_open.c) */
	int created;                 /* this open made the file */
	unsigned char *links;        /* store_links_put's blob buffer */
	size_t links_cap;            /* its bytes */
	char err[512];               /* last error message */
	char *worker;                /* pages.worker of this process's rows */
	int64_t added;               /* pages added since the open */
	int64_t ids[64];             /* shared: page ids drawn ahead */
	int nids;                    /* ... how many are left */
	int64_t begun;               /* sdb_runs at the last BEGIN */
	struct store__ahead *ahead;  /* shared: hosts' next URLs taken ahead
	                                (store_ahead.c), STORE_AHEADS slots */
	struct sdb_stmt *ahead_st[STORE_AHEADS]; /* ... each slot's take */
	uint64_t ahead_sent;         /* ... takes sent ahead so far */
	int ahead_depth;             /* ... most held for one host */
	struct store__urls *urls;    /* not shared: the frontier's URLs in
	                                memory (store_urls.c), NULL until
	                                first used */
	int ckpt_pages;              /* SQLite: checkpoint once the WAL has
	                                this many pages (store_disk.c) */
	int ckpt_rc;                 /* ... the failure of the last one, 0
	                                when none is unreported */
	int64_t committed;           /* pages added when the last commit
	                                succeeded (of added) */
	struct store_searchw *sw;    /* SQLite: the full-text index's writer
	                                (store_searchw.h), started by the
	                                first entry; NULL before, and where the
	                                index is in the database itself */
};

/*
 * Takes ahead (store_ahead.c), for a shared store's store_frontier_take.
 * _init prepares them (before the pipeline starts; nothing for a store
 * that is not shared): 0, or -1; store__release frees them.
 * _send takes host's next due URL (now: the time it is due by) without
 * waiting, when a slot is free: 0, or -1. _take hands out host's URL
 * taken ahead, waiting for its answer: 1 with *it set, 0 when none was
 * taken ahead or none was due, -1. _lowered remembers that the queued
 * copy of url was lowered, for a held URL of host.
 */
int store__ahead_init(struct store *s);
/* Step st, a take's statement (bound through b, or sent ahead with b
 * NULL), and read its row (id, url, depth, parent_id, tries, dup_hops)
 * into *it, zeroed first: 1 with a URL, 0 without, -1 on a failure. st is
 * reset either way. */
int store__take_row(struct store *s, struct sdb_stmt *st, struct binder *b,
    struct store_item *it);
int store__ahead_send(struct store *s, const char *host, double now);
int store__ahead_take(struct store *s, const char *host, struct store_item *it);
void store__ahead_lowered(struct store *s, const char *host, const char *url,
    int dup_hops, int64_t parent);

/*
 * The frontier's URLs in memory, for a store that is not shared
 * (store_urls.c); built from the frontier table at the first call.
 * _find: whether url is queued (any state), 1 with *id its row, 0, or
 * -1. _note: url was just queued as row id (call _find first, so the set
 * is built before the insert): 0, or -1 when out of memory. _variants:
 * queued URLs sharing url's part up to its '?', at most cap; -1 on a
 * failure. _drop: forget them all (after a rollback, at release); the next
 * call builds them again from the file.
 */
int store__urls_find(struct store *s, const char *url, int64_t *id);
int store__urls_note(struct store *s, const char *url, int64_t id);
int64_t store__urls_variants(struct store *s, const char *url, int64_t cap);
void store__urls_drop(struct store *s);

/* Binds parameters left to right and remembers the first failure. */
struct binder {
	struct sdb_stmt *st; /* statement being bound */
	int idx;          /* last parameter bound */
	int rc;           /* first bind error, or SDB_OK */
};

static inline uint64_t
store__u64_of_i64(int64_t v)
{
	uint64_t u;

	memcpy(&u, &v, sizeof(u));
	return u;
}

static inline int64_t
store__i64_of_u64(uint64_t u)
{
	int64_t v;

	memcpy(&v, &u, sizeof(v));
	return v;
}

/* What store_open prepares. */
struct store__stmt_def {
	const char *name; /* for store_explain */
	const char *sql;  /* prepared once at open */
	const char *table; /* a later table (schema.sql's "[later]" part) it
	                      needs, else NULL */
	const char *column; /* an added column (store_schema.c) it needs,
	                       else NULL */
	const char *pg;     /* PostgreSQL's own text, when sql will not do;
	                       with sql NULL, a statement only shared crawls
	                       (PostgreSQL) prepare */
};

extern const struct store__stmt_def store__stmt_def[ST_NUM];

/* --- store_stmt.c: statements, binding, failures --- */

/* The formatted message into s->err (util/err.h's err_set); returns -1. */
int store__fail(struct store *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Record db's last failure (or out of memory) in s->err; return -1. */
int store__db_fail(struct store *s);
int store__oom_fail(struct store *s);

/* Reset st and clear its bindings, whatever happened. */
void store__stmt_done(struct sdb_stmt *st);

/* Bind parameters left to right; the first failure is kept in b->rc. A
 * text or blob is not copied: the caller steps before it can change. */
void store__bind_start(struct binder *b, struct sdb_stmt *st);
void store__bind_rc(struct binder *b, int rc); /* a bind done by hand */
void store__bind_text(struct binder *b, const char *v);
void store__bind_int(struct binder *b, int64_t v);
void store__bind_ref(struct binder *b, int64_t v); /* 0 binds NULL */
void store__bind_double(struct binder *b, double v);
void store__bind_blob(struct binder *b, const void *v, size_t len);
int store__bind_fail(struct store *s, struct binder *b);

/* Step a statement that returns no rows (b, when not NULL, bound); reset
 * it whatever happens. 0, or -1 with s->err set. */
int store__exec_stmt(struct store *s, struct sdb_stmt *st, struct binder *b);

/* store__exec_stmt for a write whose outcome nothing waits for: on a
 * pipelined PostgreSQL store it is sent at once and its failure reported
 * by the next statement that waits (storage/sdb.h's sdb_step_later). */
int store__exec_later(struct store *s, struct sdb_stmt *st, struct binder *b);

/* The one integer of a one-row statement (b, when not NULL, bound) into
 * *v; reset it whatever happens. 0, or -1 with s->err set (a missing row
 * too). */
int store__one_int(struct store *s, struct sdb_stmt *st, struct binder *b,
    int64_t *v);

/* Step a statement (b, when not NULL, bound) through all its rows, which
 * are dropped; reset it whatever happens. 0, or -1 with s->err set. */
int store__exec_rows(struct store *s, struct sdb_stmt *st, struct binder *b);

/* Step a bound statement (b checked first) once: 1 with a row to read, 0
 * when there is none, -1 with s->err set. The caller resets st with
 * store__stmt_done in every case. */
int store__step_row(struct store *s, struct sdb_stmt *st, struct binder *b);

/* Bind key to st's one parameter and step once: 1 with a row, 0 without,
 * -1 on an error. The caller resets st with store__stmt_done. */
int store__step_by_key(struct store *s, struct sdb_stmt *st, const char *key);

/* A write to a table, or a statement naming a column, that a read-only
 * open found missing: the message, and -1. */
int store__no_table(struct store *s, int id);
int store__no_column(struct store *s, int id);

/* --- build/gen/storage/schema_sql.c, made from storage/schema.sql --- */

/* The file's text. */
extern const char store_schema_sql[];

/* A column marked "-- [added]": older databases lack it. */
struct store__added {
	const char *table;  /* existing table */
	const char *column; /* column name */
	const char *decl;   /* its type and constraints */
};

/* In the file's order, closed by an entry with a NULL table. */
extern const struct store__added store__added_columns[];

/* --- store_schema.c: the schema and its upgrades --- */

/* The part of store_schema_sql from the "-- [later]" line on (the tables
 * an older database may lack), or NULL if the mark is missing. */
const char *store__schema_later(void);

/* Give a fresh file the schema and mark it ours, in one transaction. */
int store__create_schema(struct store *s, const char *path, char *err,
    size_t errsz);

/* Give an older schema-1 database the later tables and columns. */
int store__upgrade_schema(struct store *s, const char *path, char *err,
    size_t errsz);

/* Sets *exists to whether table has a column called name. Returns an
 * SQLite result code. */
int store__column_exists(struct sdb *db, const char *table, const char *name,
    int *exists);

/* Sets *exists to whether the main database has a table called name.
 * Returns an SQLite result code. */
int store__table_exists(struct sdb *db, const char *name, int *exists);

/* The table of an added column ("pages" for any other name). */
const char *store__column_table(const char *column);

/* --- store_search.c: the full-text index (storage/store_search.h) --- */

/* Characters of a page's text PostgreSQL makes its tsvector of
 * (storage/store_search.h). */
#define STORE__SEARCH_PG_TEXT_MAX 262144

#define STORE__STR(x) #x
#define STORE__XSTR(x) STORE__STR(x) /* a macro's value as a string */

/* A page's entry, as the crawl writes it (ST_SEARCH_ADD) and `nearcrawl
 * index` does: ?1 the page's id, ?2 its title, ?3 its text. PostgreSQL's
 * tsvector reads at most STORE__SEARCH_PG_TEXT_MAX characters of it. */
#define STORE__SEARCH_ADD \
	"INSERT INTO search_text (rowid, title, body) VALUES (?1, ?2, ?3)"
#define STORE__SEARCH_ADD_PG \
	"INSERT INTO search_text (page_id, title, body, doc) VALUES " \
	"(?1, ?2, ?3, setweight(to_tsvector('simple', coalesce(?2, '')), " \
	"'A') || setweight(to_tsvector('simple', left(?3, " \
	STORE__XSTR(STORE__SEARCH_PG_TEXT_MAX) ")), 'D')) " \
	"ON CONFLICT (page_id) DO NOTHING"

/* The entry a recrawl writes over a page's earlier one (ST_SEARCH_SET),
 * and the removal of a gone page's (ST_SEARCH_DROP): ?1 its id. */
#define STORE__SEARCH_SET \
	"INSERT OR REPLACE INTO search_text (rowid, title, body) " \
	"VALUES (?1, ?2, ?3)"
#define STORE__SEARCH_SET_PG \
	"INSERT INTO search_text (page_id, title, body, doc) VALUES " \
	"(?1, ?2, ?3, setweight(to_tsvector('simple', coalesce(?2, '')), " \
	"'A') || setweight(to_tsvector('simple', left(?3, " \
	STORE__XSTR(STORE__SEARCH_PG_TEXT_MAX) ")), 'D')) " \
	"ON CONFLICT (page_id) DO UPDATE SET title = excluded.title, " \
	"body = excluded.body, doc = excluded.doc"
#define STORE__SEARCH_DROP "DELETE FROM search_text WHERE rowid = ?1"
#define STORE__SEARCH_DROP_PG "DELETE FROM search_text WHERE page_id = ?1"

/* Attach the index file of c's SQLite database, if it is there, as
 * schema "search" (c->side). 0, or -1 on a database error. */
int store__conn_attach_search(struct store_conn *c);

/* A command's connection (storage/query.h). */
struct store_conn {
	struct sdb *db;
	char *path;               /* for messages */
	enum store_conn_mode mode;
	int side;                 /* SQLite: the index file is attached as
	                             schema "search" (store_search.c) */
	struct sdb_stmt *page_url;   /* store_conn_page_url's, prepared once */
	struct sdb_stmt *rank_put;   /* store_rank_put's, prepared once */
	char *url;                /* store_conn_page_url's copy */
	size_t urlcap;
};

/* A row function's callback (cast to void *) and its argument, for the
 * row readers store__conn_each calls. */
struct store__each {
	void *fn;
	void *arg;
};

/*
 * Run sql on c (no parameters) and call row(st, ctx) for each row until it
 * returns non-zero, which is then returned (row NULL: the rows are read
 * and dropped). Returns 0, row's value, or -1 on a database error, whose
 * message and SQLSTATE stay on c.
 */
int store__conn_each(struct store_conn *c, const char *sql,
    int (*row)(struct sdb_stmt *st, void *ctx), void *ctx);

/* A parameter of a statement: text when s is set, else the integer i. */
struct store__param {
	const char *s;
	int64_t i;
};

/* store__conn_each with sql's n parameters bound from p[0..n). */
int store__conn_each_bound(struct store_conn *c, const char *sql,
    const struct store__param *p, int n,
    int (*row)(struct sdb_stmt *st, void *ctx), void *ctx);

/* The first column of a one-row query on c. 0, or -1. */
int store__conn_int(struct store_conn *c, const char *sql, int64_t *v);

#endif
