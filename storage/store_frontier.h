/*
 * store_frontier: the crawl's queue and what decides when a host is asked
 * again -- the frontier, the robots.txt cache and the per-host back-off,
 * all kept in the database so that a resumed crawl goes on where it
 * stopped (storage/store_frontier.c; giving given-up hosts another
 * chance, storage/store_settings.c). The meta table is in storage/store.h.
 */
#ifndef NC_STORE_FRONTIER_H
#define NC_STORE_FRONTIER_H

#include <stddef.h>
#include <stdint.h>

#include "storage/store.h"

/* Frontier states. */
enum { FRONTIER_QUEUED = 0, FRONTIER_INFLIGHT = 1, FRONTIER_DONE = 2 };

struct store_item {
	int64_t id;       /* frontier row id */
	char *url;        /* normalised URL (malloc'd; free with store_item_clear) */
	int depth;        /* links followed from a seed (seeds: 0) */
	int64_t parent;   /* pages.id of the page linking here, 0 for seeds */
	int tries;        /* earlier attempts that were requeued */
	int dup_hops;     /* duplicate pages in a row on the way here (the
	                     link rule, crawler/linkrule.c); seeds: 0 */
};

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

struct store_robots {
	int status;        /* HTTP status of the fetch, 0 for a network error */
	char *body;        /* as received (malloc'd, NUL added; may hold NULs) */
	size_t len;        /* bytes of body, without the added NUL */
	double fetched_at; /* Unix time, seconds */
	double expires_at; /* Unix time the entry should be fetched again */
	int failures;      /* consecutive failed fetches */
};

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

struct store_host {
	double not_before; /* Unix time of the earliest next request */
	long backoff_ms;   /* current back-off */
	int failures;      /* consecutive failures */
	char *gave_up;     /* why the host was given up (malloc'd), or NULL */
};

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

#endif
