/*
 * query: the rows the commands built on a crawl read (report, rank, eval
 * --groups), so that every SQL statement stays in storage/.
 *
 * A command first checks the file with store_open (which refuses what is
 * not a nearcrawl database and, for a writer, takes the lock and adds the
 * later tables), then opens a connection of its own here and asks for rows.
 * Row functions call fn(row, arg) for each row in the order documented;
 * pointers in a row are valid during the call only. fn returns 0 to go on,
 * or a positive value to stop, which is then returned. A row function
 * returns 0, fn's value, or -1 on a database error: store_conn_fail then
 * writes the message and picks the exit status.
 *
 *   storage/store_conn.c    the connection, its transaction, its errors
 *   storage/store_report.c  nearcrawl report's rows
 *   storage/store_rank.c    nearcrawl rank's rows and its ranks table
 *   storage/store_eval.c    nearcrawl eval --groups' rows
 *   storage/store_export.c  nearcrawl export's rows
 *   storage/store_check.c   nearcrawl check's rows
 *   storage/store_visits.c  the recrawls' rows (report)
 */
#ifndef NC_QUERY_H
#define NC_QUERY_H

#include <stddef.h>
#include <stdint.h>

#include "storage/store.h"

struct store_conn;

enum store_conn_mode {
	/* Read-only: opens as store_open with STORE_READONLY does (an
	 * unwritable directory without a -wal file is read as immutable);
	 * store_conn_begin takes a snapshot. */
	STORE_CONN_READ,
	/* Read-write: store_conn_begin takes the write lock at once. */
	STORE_CONN_WRITE,
};

/*
 * Open a connection of the caller's own to path (checked with store_open
 * first), waiting up to 5 s for a busy file. Returns 0 with *c set, or
 * runtime or baddb (the rule of store_conn_fail; out of memory is runtime)
 * with *c NULL and "path: why" in err.
 */
int store_conn_open(const char *path, enum store_conn_mode mode,
    struct store_conn **c, char *err, size_t errsz, int runtime, int baddb);

/* Roll back an open transaction and close. NULL ok. */
void store_conn_close(struct store_conn *c);

/* Start a transaction (a snapshot for a reader, the write lock for a
 * writer) and commit it. 0, or -1 on a database error. */
int store_conn_begin(struct store_conn *c);
int store_conn_commit(struct store_conn *c);

/*
 * Write "path: message (hint)" for c's last error into err and return
 * runtime when it is an error met while working -- busy, locked, out of
 * memory, I/O, a full disk, a read-only file, a damaged page -- or baddb
 * for the rest (a table or column missing: not a database the command can
 * use). The exit-status rule of docs/robustness.md.
 */
int store_conn_fail(struct store_conn *c, char *err, size_t errsz,
    int runtime, int baddb);

/* Rows in pages. 0, or -1 on a database error. */
int store_conn_page_count(struct store_conn *c, int64_t *n);

/*
 * The URL of pages row id: valid until the next call or the close, or
 * NULL when there is no such row, on a database error or out of memory.
 */
const char *store_conn_page_url(struct store_conn *c, int64_t id);

/* --- recrawls (storage/store_visits.c), for report --- */

/*
 * What the visits after the first found: one row per visit and outcome
 * ("unchanged", "changed" ...), by visit then outcome; and, apart, one
 * row per visit and verdict change of the changed pages (was and now
 * differ), by visit, was, now. No rows when the database has no visits
 * table (an older one, opened read-only).
 */
struct store_visit_row {
	int64_t visit;
	const char *outcome;  /* store_outcome_name's words */
	int64_t pages;
};
int store_report_visits(struct store_conn *c,
    int (*fn)(const struct store_visit_row *r, void *arg), void *arg);
struct store_move_row {
	int64_t visit;
	const char *was, *now; /* verdict words; NULL in a tampered file */
	int64_t pages;
};
int store_report_moves(struct store_conn *c,
    int (*fn)(const struct store_move_row *r, void *arg), void *arg);

/* --- report (storage/store_report.c) --- */

/* Every page in fetch (seq) order; host "" when NULL. */
struct store_growth_row {
	int64_t seq;
	enum store_verdict verdict;
	const char *host;
	double fetched_at; /* Unix time, seconds */
	const char *worker; /* the process that judged it, NULL when not
	                       recorded */
};
int store_report_growth(struct store_conn *c,
    int (*fn)(const struct store_growth_row *r, void *arg), void *arg);

/* Per host, most pages first, then by name. */
struct store_host_row {
	const char *host;
	int64_t pages, unique, exact, near; /* rows, and by verdict */
};
int store_report_hosts(struct store_conn *c,
    int (*fn)(const struct store_host_row *r, void *arg), void *arg);

/*
 * How the pages a crawl with earlier crawls judged stand to them (the
 * earlier table): per host in byte order, the pages new, the same as
 * before and near a page of before. None when the table is missing or
 * empty (a crawl without earlier crawls).
 */
struct store_earlier_row {
	const char *host;
	int64_t fresh, same, near; /* new, same-as-before, near-to-before */
};
int store_report_earlier(struct store_conn *c,
    int (*fn)(const struct store_earlier_row *r, void *arg), void *arg);

/*
 * Every duplicates row, by the original's seq, then the duplicate's, then
 * method. A URL is NULL when its page is gone; canonical_url is NULL until
 * `nearcrawl rank` has run (or in a database without a ranks table).
 */
struct store_cluster_row {
	const char *original_url, *duplicate_url, *method;
	double percentage;
	const char *canonical_url;
};
int store_report_clusters(struct store_conn *c,
    int (*fn)(const struct store_cluster_row *r, void *arg), void *arg);

/* Every duplicates row's method (NULL in a tampered file) and similarity,
 * in method order. */
struct store_similarity_row {
	const char *method;
	double percentage;
};
int store_report_similarity(struct store_conn *c,
    int (*fn)(const struct store_similarity_row *r, void *arg), void *arg);

/*
 * The original with the most distinct duplicate pages (earliest seq on
 * ties): fn is called once, or not at all when there are no duplicates.
 * url is NULL when the original's page is gone.
 */
struct store_busiest_row {
	const char *url;
	int64_t seq;
	int64_t pages; /* distinct duplicate pages */
};
int store_report_busiest(struct store_conn *c,
    int (*fn)(const struct store_busiest_row *r, void *arg), void *arg);

/*
 * The limit originals with the most distinct duplicate pages (most first,
 * then by the original's seq), each with every duplicates row naming it:
 * by the duplicate's seq, then method. URLs and titles are NULL when the
 * page is gone (or has no title).
 */
struct store_topcluster_row {
	int64_t original_id;
	const char *original_url, *original_title;
	int64_t pages; /* the original's distinct duplicate pages */
	int64_t page_id;
	const char *url, *title, *method;
	double percentage;
};
int store_report_top_clusters(struct store_conn *c, int limit,
    int (*fn)(const struct store_topcluster_row *r, void *arg), void *arg);

/* --- rank (storage/store_rank.c) --- */

/* Every page, in id order (url "" when NULL). */
struct store_rank_page {
	int64_t id;
	const char *url;
	int64_t seq;
};
int store_rank_pages(struct store_conn *c,
    int (*fn)(const struct store_rank_page *r, void *arg), void *arg);

/* Total bytes of the links rows' targets. 0, or -1 on a database error. */
int store_rank_link_bytes(struct store_conn *c, int64_t *bytes);

/* Every links row, in page id order: len bytes of 8-byte URL hashes
 * (store_url_hash, little-endian); targets NULL for an empty blob. */
struct store_rank_links {
	int64_t page_id;
	const void *targets;
	size_t len;
};
int store_rank_links(struct store_conn *c,
    int (*fn)(const struct store_rank_links *r, void *arg), void *arg);

/* Every duplicates row's two pages. */
struct store_rank_pair {
	int64_t page_id, original_id;
};
int store_rank_pairs(struct store_conn *c,
    int (*fn)(const struct store_rank_pair *r, void *arg), void *arg);

/* Empty the ranks table, then add one row a page (canonical_id 0: in no
 * cluster, stored as NULL). 0, or -1 on a database error. */
int store_ranks_clear(struct store_conn *c);
int store_rank_put(struct store_conn *c, int64_t page_id, double pagerank,
    int64_t canonical_id);

/*
 * Every pages row with a declared canonical (pages.canonical), in id
 * order; none in a database without the column.
 */
struct store_rank_declared {
	int64_t page_id;
	const char *canonical;
};
int store_rank_declared(struct store_conn *c,
    int (*fn)(const struct store_rank_declared *r, void *arg), void *arg);

/*
 * What the ranks table says of the declared canonicals, as `nearcrawl
 * rank` left it: declared, the clusters one of whose members declares a
 * canonical URL that is a member of the same cluster; agree, those of
 * them whose every such declaration names the cluster's canonical page;
 * disagree, the rest (declared - agree). All 0 before rank has run or in
 * a database without the column. 0, or -1 on a database error.
 */
struct store_canonical_counts {
	int64_t declared, agree, disagree;
};
int store_rank_canonical_counts(struct store_conn *c,
    struct store_canonical_counts *n);

/* --- eval --groups (storage/store_eval.c) --- */

/* The distinct methods of the duplicates table, in name order. */
int store_eval_methods(struct store_conn *c,
    int (*fn)(const char *method, void *arg), void *arg);

/*
 * The judged pages (unique, exact, near) in seq order, a NULL seq last,
 * then by id; methods: the page's distinct duplicates methods joined by
 * ",", or NULL when none.
 */
struct store_eval_page {
	const char *url;            /* "" when NULL */
	enum store_verdict verdict;
	int null_seq;               /* seq is NULL (a tampered file) */
	int64_t seq;
	const char *methods;
};
int store_eval_pages(struct store_conn *c,
    int (*fn)(const struct store_eval_page *r, void *arg), void *arg);

/* --- export (storage/store_export.c) --- */

/* Rows in the ranks table (0 when there is none): whether `nearcrawl rank`
 * has run. 0, or -1 on a database error. */
int store_export_ranked(struct store_conn *c, int64_t *n);

/*
 * Every page in fetch (seq) order. The match is the page's strongest
 * duplicates row: the highest percentage, then the earliest-fetched
 * original, then the method's name; has_match 0 when the page has none
 * (original_url, method NULL). canonical_url: the canonical page of the
 * page's cluster in the ranks table, NULL when it is in none or rank has
 * not run; declared: pages.canonical, NULL when none.
 */
struct store_export_row {
	const char *url, *host;     /* "" when NULL */
	int64_t seq;
	double fetched_at;
	int64_t status;
	const char *verdict;        /* as stored; "" when NULL */
	const char *reason;         /* or NULL */
	int has_match;
	const char *original_url;   /* NULL when gone or no match */
	const char *method;
	double percentage;
	const char *canonical_url;
	const char *declared;
};
int store_export_pages(struct store_conn *c,
    int (*fn)(const struct store_export_row *r, void *arg), void *arg);

/*
 * The members of every duplicate cluster of the ranks table: clusters in
 * their canonical page's fetch order, members in theirs. cluster is the
 * canonical page's id; canonical_url NULL when that page is gone. No rows
 * before rank has run.
 */
struct store_export_member {
	int64_t cluster;
	const char *canonical_url;
	const char *url;            /* "" when NULL */
	int64_t seq;
	const char *declared;       /* pages.canonical, or NULL */
};
int store_export_members(struct store_conn *c,
    int (*fn)(const struct store_export_member *r, void *arg), void *arg);

/* --- check (storage/store_check.c) --- */

/* target as messages name it: a PostgreSQL URI without its password
 * (a static buffer, valid until the next call), a path as it is. */
const char *store_check_name(const char *target);

/*
 * The file's own integrity: on SQLite each line of PRAGMA integrity_check
 * that is not "ok" (at most 100); on PostgreSQL what amcheck finds in the
 * tables of the crawl's schema (verify_heapam, where the installed amcheck
 * has it) and their B-tree indexes (bt_index_check, every heap tuple
 * looked up), one line a table or index. fn(line, arg) for each. When
 * nothing could be checked (amcheck not installed, or its functions not
 * granted to the user), *why_not says why, else it is NULL. 0, fn's
 * value, 2 when out of memory, or -1 on a database error.
 */
int store_check_integrity(struct store_conn *c,
    int (*fn)(const char *line, void *arg), void *arg, const char **why_not);

/* A page judged near or exact that has no duplicates row; by seq. */
struct store_check_page {
	int64_t id;
	int64_t seq;
	const char *url;             /* "" when NULL */
	enum store_verdict verdict;  /* near or exact */
};
int store_check_unmatched(struct store_conn *c,
    int (*fn)(const struct store_check_page *r, void *arg), void *arg);

/*
 * A duplicates row whose page or original is not in pages (its URL then
 * NULL), or that names its page as its own original; by id.
 */
struct store_check_dup {
	int64_t id, page_id, original_id;
	const char *page_url;     /* NULL when the page is not there */
	const char *original_url; /* NULL when the original is not there */
	const char *method;       /* "" when NULL */
};
int store_check_dangling(struct store_conn *c,
    int (*fn)(const struct store_check_dup *r, void *arg), void *arg);

/* Every pages row's seq, in order, repeats included. */
int store_check_seqs(struct store_conn *c, int (*fn)(int64_t seq, void *arg),
    void *arg);

/*
 * Frontier rows in flight whose host no process holds a lease on at now
 * (Unix seconds): on SQLite, which has no leases, every row in flight; by
 * id.
 */
struct store_check_flight {
	int64_t id;
	const char *url, *host; /* "" when NULL */
};
int store_check_in_flight(struct store_conn *c, double now,
    int (*fn)(const struct store_check_flight *r, void *arg), void *arg);

/* *n = leases held by a process at now (Unix seconds): the processes of a
 * shared crawl at work; 0 on SQLite. 0, or -1. */
int store_check_live(struct store_conn *c, double now, int64_t *n);

/* meta's value for key, a copy the caller frees; NULL when absent, with
 * *err 0, or on failure with *err -1 (database) or 2 (out of memory). */
char *store_check_meta(struct store_conn *c, const char *key, int *err);

/*
 * The full-text index (which exists: store_search_exists) against the
 * pages: fn(id, arg) for each entry, by id, whose id is no judged page's
 * but is not above the largest pages.id; *beyond = the entries above it,
 * which a crawl killed between the index's commit and the database's
 * leaves and the next writer open deletes. 0, fn's value, or -1.
 */
int store_check_search(struct store_conn *c, int64_t *beyond,
    int (*fn)(int64_t id, void *arg), void *arg);

/* Every page, in seq order: what was fetched, for the archive's check. */
struct store_check_fetch {
	const char *url;            /* "" when NULL */
	enum store_verdict verdict;
	int64_t status;             /* HTTP status, 0 when no response */
	double fetched_at;          /* Unix seconds */
	int64_t seq;
};
int store_check_fetches(struct store_conn *c,
    int (*fn)(const struct store_check_fetch *r, void *arg), void *arg);

#endif
