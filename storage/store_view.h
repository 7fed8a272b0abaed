/*
 * store_view: the rows `nearcrawl serve` shows of one crawl -- a page with
 * its duplicates, the members of a cluster, the links it queued, the hosts
 * with their back-off and robots.txt, the shingle sets a page view measures
 * new words with -- read through a command's own read-only connection
 * (storage/query.h), so that every SQL statement stays in storage/.
 *
 * The view holds no transaction between requests: store_view_begin opens
 * one snapshot for the rows of one request and store_view_end closes it,
 * so a crawl writing the same database is never held up (SQLite's WAL lets
 * the writer go on past a reader; a reader on PostgreSQL holds no lock a
 * writer waits for). Each begin also looks again at which later tables and
 * columns the database has: an older database opened read-only may lack
 * them, and a writer open by a crawl adds them while the view runs.
 *
 * Row functions call fn(row, arg) for each row in the order documented;
 * pointers in a row are valid during the call only. fn returns 0 to go on,
 * or a positive value to stop, which is then returned. A row function
 * returns 0, fn's value, or -1 on a database error (store_conn_fail says
 * which). Text from the database is as stored: untrusted.
 */
#ifndef NC_STORE_VIEW_H
#define NC_STORE_VIEW_H

#include <stddef.h>
#include <stdint.h>

#include "storage/query.h"
#include "storage/store.h"

struct store_view;

/*
 * A view on c, which stays the caller's (closed after the view). Returns
 * the view, or NULL when out of memory. Free with store_view_free.
 */
struct store_view *store_view_new(struct store_conn *c);

/* Free v (not its connection). NULL is fine. */
void store_view_free(struct store_view *v);

/* v's connection, for store_conn_fail's message. */
struct store_conn *store_view_conn(struct store_view *v);

/* Open the snapshot of one request and see which later tables and
 * columns exist; close it. 0, or -1 on a database error (a failed begin
 * leaves no transaction open). */
int store_view_begin(struct store_view *v);
int store_view_end(struct store_view *v);

/* Fill n as store_counts (store.h) does. 0, or -1. */
int store_view_counts(struct store_view *v, struct store_counts *n);

/* A pages row with what the view adds to it. */
struct store_view_page {
	int64_t id;
	const char *url, *host;      /* "" when NULL */
	enum store_verdict verdict;
	const char *reason;          /* or NULL */
	int status;                  /* HTTP status, 0 when none */
	const char *content_type;    /* or NULL */
	int depth;
	int64_t seq;
	double fetched_at;           /* Unix time */
	int64_t parent_id;           /* the linking page, 0 for a seed */
	const char *location;        /* a redirect's target, or NULL */
	const char *md5, *ssdeep;    /* or NULL */
	int has_simhash;             /* simhash is set */
	uint64_t simhash;
	const char *title, *headings, *description, *keywords, *charset;
	int64_t body_bytes, text_bytes, links;
	double elapsed_ms;
	int has_text;                /* the crawl kept its text (--store-text) */
	const char *declared;        /* pages.canonical, or NULL */
	const char *worker;          /* who judged it, or NULL */
	const char *etag, *last_modified; /* or NULL */
	int ranked;                  /* `nearcrawl rank` gave it a row */
	double pagerank;             /* its PageRank when ranked */
	int64_t canonical_id;        /* its cluster's canonical page, or 0 */
	const char *canonical_url;   /* that page's URL, or NULL */
};

/*
 * Page id: fn called once; 0 without calling it when there is no such
 * page.
 */
int store_view_page(struct store_view *v, int64_t id,
    int (*fn)(const struct store_view_page *p, void *arg), void *arg);

/* Which pages store_view_pages lists. */
struct store_view_filter {
	const char *host;          /* only this host, or NULL */
	enum store_verdict verdict; /* only this verdict, or UNKNOWN: all */
	int64_t after_seq;         /* pages fetched after this seq */
	int limit;                 /* at most this many, 1 and up */
};

/* Pages in fetch (seq) order as f says. */
int store_view_pages(struct store_view *v, const struct store_view_filter *f,
    int (*fn)(const struct store_view_page *p, void *arg), void *arg);

/*
 * One duplicates row seen from one of its pages: other is the page at its
 * other end (the original of a copy, or a copy of an original), with what
 * a cluster's table shows of it. URLs are "" when that page is gone.
 */
struct store_view_match {
	int64_t page_id;             /* the later page (the copy) */
	int64_t original_id;         /* the earlier page */
	const char *method;          /* "" when NULL */
	double percentage;
	int64_t other_id;
	const char *url, *title;     /* the other page's; title NULL */
	enum store_verdict verdict;
	int64_t seq;
	double fetched_at;
	const char *declared;        /* its pages.canonical, or NULL */
	int64_t canonical_id;        /* its cluster's canonical page, or 0 */
	const char *canonical_url;   /* or NULL */
};

/* The originals page id repeats: strongest first (percentage, then the
 * original's seq, then method). */
int store_view_originals(struct store_view *v, int64_t id,
    int (*fn)(const struct store_view_match *m, void *arg), void *arg);

/*
 * The copies of original id: their pages after seq after_seq, by seq then
 * method, at most limit pages (all the rows of each). *pages, when not
 * NULL, is first set to the number of distinct copies in all.
 */
int store_view_copies(struct store_view *v, int64_t id, int64_t after_seq,
    int limit, int64_t *pages,
    int (*fn)(const struct store_view_match *m, void *arg), void *arg);

/* A URL page id put on the frontier (a link the crawl followed or will),
 * with the page it became once fetched. */
struct store_view_link {
	const char *url;
	int state;                  /* FRONTIER_QUEUED, _INFLIGHT, _DONE */
	int64_t page_id;            /* its pages row, 0 when none yet */
	enum store_verdict verdict; /* that row's */
};

/* The frontier's URLs whose linking page is id, in queue order, at most
 * limit. */
int store_view_links(struct store_view *v, int64_t id, int limit,
    int (*fn)(const struct store_view_link *l, void *arg), void *arg);

/* Page id's stored text: fn(text, len, arg) once, when it has one. */
int store_view_text(struct store_view *v, int64_t id,
    int (*fn)(const char *text, size_t len, void *arg), void *arg);

/* Page id's stored shingle set (storage/store_resume.h's blob): fn once,
 * when it has one. */
int store_view_shingles(struct store_view *v, int64_t id,
    int (*fn)(const void *blob, size_t len, void *arg), void *arg);

/*
 * The shingle sets of the pages of site -- host site or any host under it
 * (".site") -- fetched before seq before, the latest first, at most limit:
 * what a page's site template was learnt from. verdict is the stored word.
 */
int store_view_site_sets(struct store_view *v, const char *site,
    int64_t before, int limit,
    int (*fn)(const char *host, const char *verdict, const void *blob,
    size_t len, void *arg), void *arg);

/* A host: its pages by verdict, its queue, its back-off state. */
struct store_view_host {
	const char *host;
	int64_t pages, unique, exact, near, redirect, error, skipped;
	int64_t queued;             /* frontier entries still queued */
	int has_state;              /* a hosts row exists */
	double not_before;          /* Unix time of its next request */
	int64_t backoff_ms;         /* current back-off */
	int64_t failures;           /* failures in a row */
	const char *gave_up;        /* why it was given up, or NULL */
};

/* Every host that has pages (or only host, when not NULL), most pages
 * first, then by name. */
int store_view_hosts(struct store_view *v, const char *host,
    int (*fn)(const struct store_view_host *h, void *arg), void *arg);

/* A robots.txt as the crawl fetched it. */
struct store_view_robots {
	const char *origin;         /* "scheme://host[:port]" */
	int status;                 /* 0: a network error */
	const void *body;           /* as received (capped by the crawl) */
	size_t len;
	double fetched_at, expires_at;
	int64_t failures;           /* failed fetches in a row */
};

/* The robots.txt rows of the origins of host (any scheme and port). */
int store_view_robots(struct store_view *v, const char *host,
    int (*fn)(const struct store_view_robots *r, void *arg), void *arg);

#endif
