/*
 * store: nearcrawl's database, an SQLite file or a PostgreSQL database
 * (which several processes can share) holding the same tables -- pages,
 * duplicates, frontier, meta, the politeness state a resumed crawl must
 * keep (robots, hosts), and the link graph with what `nearcrawl rank`
 * makes of it (links, ranks), the TDW vectors its tdw index is rebuilt
 * from (page_tdw), the duplicates the link rule counts as new content
 * (fruitful), and the full-text index `nearcrawl search` reads
 * (search_text: on SQLite in a file of its own beside the database,
 * DB-search, which a thread of the crawl writes -- store_search.h).
 *
 * The schema (storage/schema.sql, compiled in) mirrors the research's two
 * tables: pages ("Simhash Values") and duplicates ("Duplicate Value"), plus
 * the crawl's own frontier and a key/value meta table. The file is marked
 * with PRAGMA application_id so a database that is not ours is refused, and
 * PRAGMA user_version carries the schema version. The robots, hosts, links,
 * ranks, page_tdw and fruitful tables came after the first schema-1
 * databases: a writer open adds them to such a database; a STORE_READONLY
 * open cannot, and the robots, host, links, TDW and link-rule functions
 * then find nothing (and refuse to write). So did the pages.minhash and
 * frontier.dup_hops columns: a writer open appends them (dup_hops as 0 for
 * the URLs already queued); on a STORE_READONLY open of a database without
 * them, store_page_add and store_load_fingerprints, or store_frontier_add
 * and store_frontier_take, fail.
 *
 * On SQLite a WAL journal, synchronous=NORMAL; prepared statements only,
 * on either. Writes happen inside batches (store_begin .. store_commit)
 * chosen by the caller; a crash loses at most the uncommitted batch, never
 * consistency. A store is used by one thread at a time (the crawl's event
 * loop, a command's main thread); threads that read a crawl open their
 * own.
 *
 * Every function returning int returns 0 (or a documented count) on success
 * and -1 on a database error; store_errmsg then says what went wrong.
 *
 * This header is the core every user of the store needs: opening and
 * closing, transactions, errors, the meta table, the verdicts, the pages
 * row and the counts. The rest is in one header per job:
 *
 *   storage/store_frontier.h  the queue, the robots.txt cache, host back-off
 *   storage/store_pages.h     a page's duplicates, lineage, redirects, links
 *   storage/store_resume.h    what a resumed crawl loads back, TDW, shingles
 *   storage/store_visits.h    recrawls: visits and a page's earlier state
 *   storage/store_archive.h   what a crawl writing WARC files keeps
 *   storage/store_share.h     a crawl shared by several processes
 *   storage/store_search.h    the full-text index, written and searched
 *                             (storage/store_searchw.h: SQLite's index
 *                             file and its writer thread, internal)
 *
 * The functions are implemented by job in storage/store_*.c (store_open.c
 * lists them); the commands' own reads are in storage/query.h.
 */
#ifndef NC_STORE_H
#define NC_STORE_H

#include <stddef.h>
#include <stdint.h>

#define STORE_APPLICATION_ID 0x4e43524c /* "NCRL" */
/* Schema 2: the frontier's url is no longer UNIQUE on SQLite (the URLs
 * are kept in memory, storage/store_urls.c), so a nearcrawl that knows
 * only schema 1, and would queue a URL twice there, refuses the file.
 * Schema-1 files are opened as they are (their index does no harm). */
#define STORE_SCHEMA_VERSION 2

struct store;

enum store_open_flags {
	STORE_CREATE = 1 << 0,   /* create the file and schema if missing */
	STORE_READONLY = 1 << 1, /* reports: open read-only, take no lock */
};

/*
 * What pages.verdict holds, as the read side sees it. The schema's CHECK
 * allows exactly these six words; STORE_VERDICT_UNKNOWN stands for anything
 * else a damaged or tampered file could hold, and is never written. Code
 * passes the enum; the word exists only in SQL and in what is printed.
 */
enum store_verdict {
	STORE_VERDICT_UNKNOWN = 0,
	STORE_VERDICT_UNIQUE,   /* new content */
	STORE_VERDICT_EXACT,    /* the same text as an earlier page */
	STORE_VERDICT_NEAR,     /* nearly the same text as an earlier page */
	STORE_VERDICT_REDIRECT, /* a 3xx: its target was queued */
	STORE_VERDICT_ERROR,    /* no page: network or HTTP error */
	STORE_VERDICT_SKIPPED,  /* fetched but not judged (type, size, ...) */
	STORE_VERDICT_COUNT
};

/* The word stored for v ("unique" ...), or NULL for UNKNOWN or out of
 * range. */
const char *store_verdict_name(enum store_verdict v);

/* The verdict the stored word s names; UNKNOWN for NULL or another word. */
enum store_verdict store_verdict_parse(const char *s);

struct store_page {
	const char *url;          /* the URL requested (frontier URL) */
	const char *host;         /* its host */
	enum store_verdict verdict; /* stored as its word */
	const char *reason;       /* why error/skipped/redirect, or NULL */
	int status;               /* HTTP status, 0 when none */
	const char *content_type; /* or NULL */
	int depth;
	int64_t seq;              /* fetch order, 1, 2, 3 ... */
	double fetched_at;        /* Unix time, seconds */
	int64_t parent;           /* pages.id of the linking page, 0 if seed */
	const char *location;     /* redirect target, or NULL */
	const char *md5;          /* hex, or NULL when no text */
	int has_simhash;          /* simhash is set */
	uint64_t simhash;         /* stored as signed int64 */
	const char *ssdeep;       /* or NULL */
	const char *title, *headings, *description, *keywords, *charset;
	int64_t body_bytes;       /* bytes received after decoding */
	int64_t text_bytes;       /* bytes of extracted text */
	int64_t links;            /* links found on the page */
	double elapsed_ms;        /* transfer time */
	const char *text;         /* extracted text to keep, or NULL */
	const void *minhash;      /* MinHash signature blob, or NULL */
	size_t minhash_len;       /* its bytes */
	const char *canonical;    /* declared canonical URL, or NULL */
	const char *etag;         /* the response's ETag, or NULL */
	const char *last_modified; /* its Last-Modified, or NULL */
};

struct store_counts {
	int64_t pages;      /* rows in pages */
	int64_t unique;     /* verdict unique */
	int64_t exact;      /* verdict exact */
	int64_t near;       /* verdict near */
	int64_t redirect;   /* verdict redirect */
	int64_t error;      /* verdict error */
	int64_t skipped;    /* verdict skipped */
	int64_t duplicates; /* rows in duplicates */
	int64_t queued;     /* frontier entries queued */
	int64_t inflight;   /* frontier entries in flight */
	int64_t done;       /* frontier entries done */
	int64_t max_seq;    /* largest seq in pages, 0 when empty */
};

/* Whether target names a database server (a PostgreSQL URI or key=value
 * string) rather than an SQLite file. */
int store_is_server(const char *target);

/*
 * Whether the server of target (store_is_server) accepts connections now:
 * 1, 0 when it does not answer or turns connections away for a while
 * (starting up, shutting down, in recovery): worth waiting for; -1 when
 * target cannot be used. Waits at most 2 s unless target sets its own
 * connect_timeout.
 */
int store_server_ready(const char *target);

/*
 * Whether s's connection to its database server is gone (the server
 * restarted, the network failed): every call fails from then on, and what
 * the server had not committed is rolled back there. A new store_open of
 * the same target goes on from what was committed. 0 on SQLite.
 */
int store_lost(const struct store *s);

/*
 * Open (and with STORE_CREATE, create) the database at path. Refuses, with a
 * message in err naming the file: a file that is not an SQLite database, an
 * SQLite database that is not nearcrawl's (foreign tables or application_id),
 * a newer schema version, and -- unless STORE_READONLY -- a database another
 * process holds open for writing (an advisory lock on path). A refused file
 * is left untouched. Returns NULL on failure.
 */
struct store *store_open(const char *path, unsigned flags, char *err,
    size_t errsz);

/*
 * Whether a writer (a crawl, nearcrawl dedup) has the SQLite file at path
 * open now: 1, 0, or -1 when the file cannot be opened. The writer lock
 * is probed with a descriptor of its own, taken and let go at once, so
 * call it before this process opens the file: closing a descriptor of a
 * file drops every POSIX lock the process's SQLite holds on it. 0 for a
 * PostgreSQL target (store_check_live tells there).
 */
int store_in_use(const char *path);

/* Commit nothing, finalise statements, release the lock, close. NULL ok. */
void store_close(struct store *s);

/* Whether this open made the file (STORE_CREATE on a path that did not
 * exist), so a caller that gives up at once may remove it. */
int store_created(const struct store *s);

/*
 * Let the database grow to at most pages pages (PRAGMA max_page_count): a
 * write that needs more fails as on a full disk, with the transaction
 * rolled back and every committed one kept. Below the current size the
 * limit is the current size. Meant for tests of a full disk
 * (NEARCRAWL_TEST_MAX_PAGE_COUNT, util/testhook.h) and for quotas.
 * Returns 0, or -1 (pages < 1, or a database error).
 */
int store_limit_pages(struct store *s, int64_t pages);

/*
 * Copy what the write-ahead log holds into the database file (SQLite; on
 * PostgreSQL nothing), as SQLite does silently at close: call it at the
 * end of a run, outside a transaction, so that a file that refuses
 * writes (immutable, remounted read-only, a full disk) is said rather
 * than leaving every page in DB-wal unnoticed. A checkpoint held back by
 * a reader is no failure. Returns 0, or -1 with store_errmsg saying why;
 * nothing is lost either way.
 */
int store_checkpoint(struct store *s);

/*
 * Whether the database has room for about batch more pages, pages being
 * the pages rows it holds (their share of the file sizes each new one):
 * that many bytes, at least 1 MiB and at most 64 MiB (set in *bytes), are
 * written in a transaction that spills into DB-wal, then rolled back.
 * A full disk, a quota, a file size limit or the page-count limit
 * (store_limit_pages) then fails here, before anything is fetched, rather
 * than at the first commit; the database file is not touched, and the
 * room the log took stays its own for the commits to come. Nothing on
 * PostgreSQL, whose disk is the server's. Call it outside a transaction.
 * Returns 0, or -1 with store_errmsg saying why.
 */
int store_room(struct store *s, int64_t pages, int64_t batch, int64_t *bytes);

/*
 * What a user can do about an SQLite result code (extended, or primary):
 * a short phrase such as "what was committed is kept" for SQLITE_FULL or
 * "the file is damaged: ..." for SQLITE_CORRUPT, or NULL when there is
 * nothing to add. Store messages already carry it, and so do
 * store_conn_fail's (storage/query.h).
 */
const char *store_hint(int code);

/* The last error's message (never NULL). */
const char *store_errmsg(const struct store *s);

/* Start / commit a write batch. store_rollback abandons it. */
int store_begin(struct store *s);
int store_commit(struct store *s);

/* Commit the open transaction and begin the next, in one round trip on
 * PostgreSQL; nothing when nothing ran since the BEGIN. 0, or -1 (the
 * transaction is then rolled back or still open: store_rollback). */
int store_renew(struct store *s);
int store_rollback(struct store *s);

/* meta table: settings and counters that define and continue the crawl.
 * store_meta_get returns a malloc'd copy, or NULL when absent (and sets
 * *err to -1 on a database error if err is not NULL). */
int store_meta_set(struct store *s, const char *key, const char *value);
char *store_meta_get(struct store *s, const char *key, int *err);

/* Insert a pages row. Returns its id (> 0), or -1 on error (as on a
 * read-only open of a database older than the minhash column). */
int64_t store_page_add(struct store *s, const struct store_page *p);

/* Fill c with the current counts. */
int store_counts(struct store *s, struct store_counts *c);

/* Diagnostics. The compiled-in schema: the text of storage/schema.sql. */
const char *store_schema(void);

/*
 * Diagnostics: EXPLAIN QUERY PLAN of the prepared statement called name
 * ("frontier_take", "frontier_hosts", "fingerprints", ...), one detail line
 * each ending in '\n', into out. Returns 0, or -1 for an unknown name, an
 * out too small, or a database error.
 */
int store_explain(struct store *s, const char *name, char *out,
    size_t outsz);

#endif
