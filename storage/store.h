/*
 * store: nearcrawl's SQLite database -- pages, duplicates, frontier, meta,
 * the politeness state a resumed crawl must keep (robots, hosts), and the
 * link graph with what `nearcrawl rank` makes of it (links, ranks), the
 * TDW vectors its tdw index is rebuilt from (page_tdw), and the duplicates
 * the link rule counts as new content (fruitful).
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
 * WAL journal, synchronous=NORMAL, prepared statements only. Writes happen
 * inside batches (store_begin .. store_commit) chosen by the caller; a crash
 * loses at most the uncommitted batch, never consistency.
 *
 * Every function returning int returns 0 (or a documented count) on success
 * and -1 on a database error; store_errmsg then says what went wrong.
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

/* Frontier states. */
enum { FRONTIER_QUEUED = 0, FRONTIER_INFLIGHT = 1, FRONTIER_DONE = 2 };

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

struct store_item {
	int64_t id;       /* frontier row id */
	char *url;        /* normalised URL (malloc'd; free with store_item_clear) */
	int depth;        /* links followed from a seed (seeds: 0) */
	int64_t parent;   /* pages.id of the page linking here, 0 for seeds */
	int tries;        /* earlier attempts that were requeued */
	int dup_hops;     /* duplicate pages in a row on the way here (the
	                     link rule, crawler/linkrule.c); seeds: 0 */
};

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

/* One page's stored fingerprints; pointers valid during the callback. */
struct store_fingerprints {
	int64_t id;           /* pages.id */
	const char *md5;      /* hex, or NULL */
	int has_simhash;      /* simhash is set */
	uint64_t simhash;     /* stored as signed int64 */
	const char *ssdeep;   /* or NULL */
	const void *minhash;  /* signature blob, or NULL */
	size_t minhash_len;   /* bytes of minhash */
	int64_t seq;          /* pages.seq */
};

/* Which pages a load reads: seq in (after, upto], none judged by the
 * worker named skip ("" skips none). */
struct store_span {
	int64_t after; /* seq after which to start */
	int64_t upto;  /* last seq to read */
	const char *skip; /* pages.worker to leave out, "" for none */
};

/* Every page. */
extern const struct store_span store_span_all;

struct store_robots {
	int status;        /* HTTP status of the fetch, 0 for a network error */
	char *body;        /* as received (malloc'd, NUL added; may hold NULs) */
	size_t len;        /* bytes of body, without the added NUL */
	double fetched_at; /* Unix time, seconds */
	double expires_at; /* Unix time the entry should be fetched again */
	int failures;      /* consecutive failed fetches */
};

struct store_host {
	double not_before; /* Unix time of the earliest next request */
	long backoff_ms;   /* current back-off */
	int failures;      /* consecutive failures */
	char *gave_up;     /* why the host was given up (malloc'd), or NULL */
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
 * Open (and with STORE_CREATE, create) the database at path. Refuses, with a
 * message in err naming the file: a file that is not an SQLite database, an
 * SQLite database that is not nearcrawl's (foreign tables or application_id),
 * a newer schema version, and -- unless STORE_READONLY -- a database another
 * process holds open for writing (an advisory lock on path). A refused file
 * is left untouched. Returns NULL on failure.
 */
struct store *store_open(const char *path, unsigned flags, char *err,
    size_t errsz);

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

/*
 * Queue url (normalised) of host at depth, linked from page parent (0 for a
 * seed), dup_hops duplicates behind the last new content. A URL already
 * known keeps its row, except that one still queued with a larger dup_hops
 * takes this dup_hops and parent. Returns 1 when newly queued, 0 when the
 * URL was already known (in any state), -1 on error. A shared store does
 * not wait to learn which: it returns 2, "queued, or known before", and
 * reports a failure with the next statement that waits.
 */
int store_frontier_add(struct store *s, const char *url, const char *host,
    int depth, int64_t parent, int dup_hops);

/*
 * How many frontier URLs (in any state) share url's part up to and with its
 * '?' -- the same scheme, host, port and path with some query -- counting no
 * further than cap, so the cost stays an index range of at most cap rows.
 * Returns 0 when url has no query or cap <= 0, -1 on error.
 */
int64_t store_frontier_variants(struct store *s, const char *url, int64_t cap);

/* Whether url is in the frontier, in any state: 1, 0, or -1 on error. */
int store_frontier_known(struct store *s, const char *url);

/*
 * Take the oldest queued entry of host whose not_before is <= now (Unix
 * seconds) and mark it in flight. Returns 1 and fills it (clear with
 * store_item_clear), 0 when host has nothing due, -1 on error.
 */
int store_frontier_take(struct store *s, const char *host, double now,
    struct store_item *it);

/* Mark a frontier entry done. */
int store_frontier_done(struct store *s, int64_t id);

/* Put an entry back in the queue, not to be taken before not_before;
 * counts a try. */
int store_frontier_requeue(struct store *s, int64_t id, double not_before);

/*
 * Put an in-flight entry back in the queue as if it had never been taken:
 * no try is counted and not_before is unchanged, so it is the host's next
 * entry again (for when the crawler must first fetch robots.txt). An entry
 * not in flight is left as it is. Returns 0, or -1 on error.
 */
int store_frontier_untake(struct store *s, int64_t id);

/* Resume: put every in-flight entry back in the queue. Returns how many, or
 * -1 on error. */
int64_t store_frontier_requeue_inflight(struct store *s);

/*
 * Call fn(host, queued, earliest_not_before, arg) for every host that has
 * queued entries. fn returns 0 to go on, non-zero to stop (which is then
 * returned). Returns 0 or -1 on error.
 */
int store_frontier_hosts(struct store *s,
    int (*fn)(const char *host, int64_t queued, double not_before, void *arg),
    void *arg);

/* Free what store_frontier_take put in it. */
void store_item_clear(struct store_item *it);

/* Insert a pages row. Returns its id (> 0), or -1 on error (as on a
 * read-only open of a database older than the minhash column). */
int64_t store_page_add(struct store *s, const struct store_page *p);

/* What the link rule asks about a pages row. */
struct store_lineage {
	int64_t parent; /* pages.id of its linking page, 0 for a seed */
	enum store_verdict verdict; /* the row's verdict */
	int unique;     /* verdict unique */
	int duplicate;  /* verdict exact or near */
	int redirect;   /* verdict redirect */
	int fruitful;   /* marked by store_fruitful_add */
};

/*
 * Archives: the first response archived with payload digest (a WARC
 * "sha1:..." digest): *url and *date (its WARC-Target-URI and WARC-Date)
 * are set to copies the caller frees. 1 found, 0 not (*url, *date NULL),
 * -1 on error.
 */
int store_payload_find(struct store *s, const char *digest, char **url,
    char **date);

/* Page id's URL (a copy the caller frees) and fetch time. 1 found, 0
 * not (*url NULL), -1 on error. */
int store_page_url(struct store *s, int64_t id, char **url,
    double *fetched_at);

/* --- recrawls (storage/store_visits.c) --- */

/* What a page was at its last visit, for the next (store_page_prior). */
struct store_prior {
	int64_t id;                 /* pages.id, 0 when the URL has no row */
	char md5[33];               /* its text MD5, "" when none */
	enum store_verdict verdict; /* its verdict */
	char etag[256];             /* validators for a conditional request, */
	char last_modified[64];     /* "" when none (or too long to keep) */
};

/*
 * Start visit number visit of the crawl: every URL the frontier had
 * settled is queued again and meta's "visit" set. Returns the URLs queued,
 * or -1 on error.
 */
int64_t store_recrawl_start(struct store *s, int visit);

/* url's page row as it was (p->id 0 when there is none): its text MD5
 * and verdict as the last visit that read them found them, its latest
 * validators. 1 found, 0 not, -1 on error. */
int store_page_prior(struct store *s, const char *url, struct store_prior *p);

/* What one visit found at one page: a visits row. */
enum store_outcome {
	STORE_OUTCOME_UNCHANGED, /* 304, or the same text MD5 */
	STORE_OUTCOME_CHANGED,   /* other text */
	STORE_OUTCOME_GONE,      /* 4xx, 410 */
	STORE_OUTCOME_MOVED,     /* 3xx */
	STORE_OUTCOME_ERROR,     /* 5xx, a failed transfer, a bad page */
	STORE_OUTCOME_NEW        /* first seen in this visit */
};
struct store_visit {
	int visit;                  /* 2, 3 ... */
	int64_t page_id;            /* the page */
	double fetched_at;          /* Unix time */
	int status;                 /* HTTP status, 0 when none */
	enum store_outcome outcome;
	const char *md5;            /* text MD5 now, or NULL */
	int has_verdict;            /* verdict is set (changed, new) */
	enum store_verdict verdict; /* the verdict now */
	int has_was;                /* was is set */
	enum store_verdict was;     /* the verdict before */
	const char *location;       /* moved: where to, or NULL */
	const char *reason;         /* or NULL */
};

/* Page id's validators are now etag and last_modified (NULL: none), for
 * the next visit's conditional request. 0, or -1. */
int store_page_validators(struct store *s, int64_t id, const char *etag,
    const char *last_modified);

/* The word of an outcome, as stored. */
const char *store_outcome_name(enum store_outcome o);

/* Add a visits row (sent with the open transaction). 0, or -1. */
int store_visit_add(struct store *s, const struct store_visit *v);

/* The pages.id of url, 0 when it has no row, -1 on error. */
int64_t store_page_by_url(struct store *s, const char *url);

/* Remember that the response of url archived at date had payload digest
 * (the first one stays). Sent with the open transaction. 0, or -1. */
int store_payload_add(struct store *s, const char *digest, const char *url,
    const char *date);

/* Mark duplicate page_id as one whose links led to a unique page; marking
 * it again does nothing. 0, or -1 on error. */
int store_fruitful_add(struct store *s, int64_t page_id);

/* Fill l for pages row page_id. Returns 1, 0 when there is no such row
 * (l zeroed), -1 on error. */
int store_page_lineage(struct store *s, int64_t page_id,
    struct store_lineage *l);

/* Insert a duplicates row. */
int store_duplicate_add(struct store *s, int64_t page_id, int64_t original_id,
    const char *method, double percentage);

/*
 * Resume: call fn for every page that carries fingerprints (verdict unique,
 * exact or near), in seq order. fn returns 0 to go on, non-zero to stop
 * (returned). Returns -1 on a database error, as on a read-only open of a
 * database older than the minhash column.
 */
int store_load_fingerprints(struct store *s,
    int (*fn)(const struct store_fingerprints *f, void *arg), void *arg);

/* The same for the pages in sp only (a shared crawl's catch-up). */
int store_load_fingerprints_in(struct store *s, const struct store_span *sp,
    int (*fn)(const struct store_fingerprints *f, void *arg), void *arg);

/*
 * Keep page page_id's TDW vector: len bytes of tdw_pack's output (vec not
 * NULL, len > 0; replaces an earlier one). The caller keeps vec. Returns 0,
 * or -1 on error (as on a read-only open of a database without the table).
 */
int store_tdw_add(struct store *s, int64_t page_id, const void *vec,
    size_t len);

/*
 * Resume: call fn(page_id, vec, len, arg) for every stored TDW vector, in
 * fetch order; vec is valid during the call only. fn returns 0 to go on,
 * non-zero to stop (which is then returned). A read-only open of a database
 * without the table finds none. Returns 0 or -1 on error.
 */
int store_load_tdw(struct store *s,
    int (*fn)(int64_t id, const void *vec, size_t len, void *arg),
    void *arg);

/* The same for the pages in sp only (a shared crawl's catch-up). */
int store_load_tdw_in(struct store *s, const struct store_span *sp,
    int (*fn)(int64_t id, const void *vec, size_t len, void *arg),
    void *arg);

/*
 * Keep page page_id's shingle set: len bytes of shingles_encode's output
 * (replaces an earlier one). The caller keeps blob. Returns 0, or -1 on
 * error (as on a read-only open of a database without the table).
 */
int store_shingles_add(struct store *s, int64_t page_id, const void *blob,
    size_t len);

/*
 * Page page_id's stored shingle set: *blob malloc'd (the caller frees it)
 * with *len bytes, or NULL with *len 0 when none is stored (or the
 * database has no such table). Returns 0, or -1 on error.
 */
int store_shingles_get(struct store *s, int64_t page_id, void **blob,
    size_t *len);

/*
 * Resume: call fn(host, verdict, blob, len, arg) for every stored shingle
 * set, with its page's host and verdict, in fetch order; blob is valid
 * during the call only. fn
 * returns 0 to go on, non-zero to stop (which is then returned). A
 * database without the table finds none. Returns 0 or -1 on error.
 */
int store_load_blocks(struct store *s,
    int (*fn)(const char *host, const char *verdict, const void *blob,
    size_t len, void *arg),
    void *arg);

/* The same for the pages in sp only (a shared crawl's catch-up). */
int store_load_blocks_in(struct store *s, const struct store_span *sp,
    int (*fn)(const char *host, const char *verdict, const void *blob,
    size_t len, void *arg),
    void *arg);

/*
 * Resume: call fn(host, pages, arg) with the number of pages rows of every
 * host that has any, for per-host page caps. fn returns 0 to go on, non-zero
 * to stop (which is then returned). Returns 0 or -1 on error.
 */
int store_host_pages(struct store *s,
    int (*fn)(const char *host, int64_t pages, void *arg), void *arg);

/*
 * Insert or replace the cached robots.txt of origin ("scheme://host[:port]"):
 * len bytes of body (which the caller caps; NULL only with len 0), as one
 * blob, so NUL bytes are kept. The caller keeps body. Returns 0, or -1 on
 * error (as on a read-only open of a database without the table).
 */
int store_robots_put(struct store *s, const char *origin, int status,
    const char *body, size_t len, double fetched_at, double expires_at,
    int failures);

/*
 * Look up origin's cached robots.txt. Returns 1 with out filled (free with
 * store_robots_clear; body is never NULL), 0 when absent, -1 on error; on 0
 * and -1 out is zeroed and owns nothing.
 */
int store_robots_get(struct store *s, const char *origin,
    struct store_robots *out);

/* Free what store_robots_get put in r and zero it. NULL ok. */
void store_robots_clear(struct store_robots *r);

/*
 * Insert or replace host's back-off state. The caller keeps h. Returns 0, or
 * -1 on error (as on a read-only open of a database without the table).
 */
int store_host_put(struct store *s, const char *host,
    const struct store_host *h);

/*
 * Look up host's back-off state. Returns 1 with out filled (free with
 * store_host_clear), 0 when absent, -1 on error; on 0 and -1 out is zeroed
 * and owns nothing.
 */
int store_host_get(struct store *s, const char *host, struct store_host *out);

/* Free what store_host_get put in h and zero it. NULL ok. */
void store_host_clear(struct store_host *h);

/*
 * Give every host given up another chance: its gave_up mark, failures in
 * a row and back-off cleared, so its queued URLs are scheduled again.
 * Returns how many hosts, or -1 on error (store_errmsg).
 */
int64_t store_hosts_retry_given_up(struct store *s);

/*
 * The run of redirects that ends at pages row id: how many rows in a row,
 * following parent_id up from id, have verdict redirect (*hops, counted
 * up to max; 0 when id is no redirect or 0), and whether one of them was
 * for url (*seen: the chain would loop). Returns 0, or -1 on error (then
 * both are 0).
 */
int store_redirect_chain(struct store *s, int64_t id, const char *url,
    int max, int *hops, int *seen);

/* Most links store_links_put takes for one page (the crawl caps a page's
 * links well below this). */
#define STORE_LINKS_MAX 1000000

/*
 * The 64-bit hash the links table keeps of a normalised URL: FNV-1a 64 of
 * its bytes, then splitmix64's finaliser. Part of the file format: a rank
 * finds a link's page by hashing pages.url the same way. Two URLs share a
 * hash with odds of about n * n / 2^65 for n URLs. Cannot fail.
 */
uint64_t store_url_hash(const char *url);

/*
 * Record the n outgoing links of page_id (normalised URLs, kept by the
 * caller) as one links row of their hashes, replacing an earlier row of the
 * page. n == 0 writes nothing. Returns 0, or -1 on error: more than
 * STORE_LINKS_MAX links, out of memory, a database error, or a read-only
 * open of a database without the table.
 */
int store_links_put(struct store *s, int64_t page_id, char *const *urls,
    size_t n);

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

/*
 * A shared crawl: several processes, one PostgreSQL database (store_share.c,
 * docs/scale-out.md). Every function below but store_shared,
 * store_set_worker and store_pages_added is for a shared store only. Each
 * returns -1 on a database error (store_errmsg says why).
 */

/* Verdict lock keys fold into this many rows of verdict_keys. */
#define STORE_LOCK_SLOTS 1048576u

/* Whether s is shared: other processes may crawl it at the same time. */
int store_shared(const struct store *s);

/* The name pages.worker gets for this process's rows (copied); 0, or -1
 * when out of memory. */
int store_set_worker(struct store *s, const char *name);

/* Pages this store added since it was opened. */
int64_t store_pages_added(const struct store *s);

/* *seq = the last seq given out in the whole crawl. Every page up to it
 * is committed and visible. 0, or -1. */
int store_clock(struct store *s, int64_t *seq);

/* This worker is alive now (the server's clock); *live = the workers
 * whose heartbeat is at most window seconds old, this one included. 0, or
 * -1. */
int store_worker_beat(struct store *s, double window, int64_t *live);

/* Make host leasable (a leases row): 1 when the row is new, 0 when it
 * was there, -1 on error. */
int store_lease_note(struct store *s, const char *host);

/* A lease just taken. */
struct store_lease {
	const char *host;  /* valid during the call */
	double not_before; /* Unix time its last owner left for the next
	                      request to it, 0 when none */
	const char *was;   /* the owner whose lease had run out, or NULL for a
	                      free host */
};

/* Called per lease taken; non-zero stops (and is returned). */
typedef int (*store_lease_fn)(const struct store_lease *l, void *arg);

/*
 * Lease up to max free hosts with queued URLs (not given up, and with
 * fewer than cap pages when cap > 0: --max-pages-per-host), the first by
 * name, until expires (Unix time); a host whose lease ran out by now is
 * free. fn for each, in no set order. Hosts another process is claiming at
 * the same moment are skipped. Returns the hosts claimed, fn's value, or
 * -1.
 */
int store_lease_claim(struct store *s, double now, double expires, int max,
    int64_t cap, store_lease_fn fn, void *arg);

/* Lease host until expires if it is free (fn then called once). Returns 1,
 * 0 when another process holds it, fn's value, or -1. */
int store_lease_take(struct store *s, const char *host, double expires,
    store_lease_fn fn, void *arg);

/* Renew every lease this worker holds until expires; returns how many, or
 * -1. Fewer than held: one ran out and another process took it. */
int64_t store_lease_renew(struct store *s, double expires);

/* fn(host, arg) for every host this worker holds; fn returns non-zero to
 * stop (returned). 0, or -1. */
int store_lease_owned(struct store *s, int (*fn)(const char *host, void *arg),
    void *arg);

/* Give host back; its next request no sooner than not_before (Unix). */
int store_lease_release(struct store *s, const char *host, double not_before);

/* Give every lease of this worker back (a clean exit). 0, or -1. */
int store_lease_release_all(struct store *s);

/* Hosts with URLs queued or in flight (taken ahead included: a host
 * whose last URLs are held is still being crawled), not given up, with
 * fewer than cap pages when cap > 0, whoever holds them; or -1. */
int64_t store_work_hosts(struct store *s, int64_t cap);

/* Whether a URL is in flight in any process: 1, 0, or -1. */
int store_in_flight_any(struct store *s);

/* Most URLs of one host a shared store holds taken ahead. */
#define STORE_AHEAD_HOST 8

/*
 * A shared store takes each host's next URL ahead, as soon as the crawl
 * has taken one, so that the next take need not wait behind the writes
 * sent meanwhile (storage/store_ahead.c). Those held for host (NULL:
 * every host) go back to the queue, if this process still holds the
 * host's lease: sent with the open transaction. Releasing a lease does
 * this for its host; a crawl with nothing left to start does it before
 * it asks whether the whole crawl is done, since it has counted a held
 * URL that another process queued as in flight. 0, or -1.
 */
int store_ahead_return(struct store *s, const char *host);

/* URLs of one host held taken ahead: n, within 1 and STORE_AHEAD_HOST (1
 * until set). Nothing for a store that is not shared. */
void store_ahead_depth(struct store *s, int n);

/* Queue host's URLs in flight again (its last owner died); how many, or
 * -1. */
int64_t store_host_reclaim(struct store *s, const char *host);

/* *n = host's queued URLs. 0, or -1. */
int store_host_queue(struct store *s, const char *host, int64_t *n);

/*
 * Lock the n keys (dedup_lock_keys) until the transaction ends: rows of
 * verdict_keys (one INSERT ... ON CONFLICT DO UPDATE, which makes or locks
 * each row in key order), or with advisory non-zero transaction-level
 * advisory locks.
 * Folded, sorted and locked in one order by every process. 0, or -1 (a
 * lock wait beyond the session's lock_timeout is an error).
 */
int store_verdict_lock(struct store *s, const uint64_t *keys, size_t n,
    int advisory);

#endif
