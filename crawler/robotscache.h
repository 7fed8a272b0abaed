/*
 * robotscache: what each authority's robots.txt says, fetched once and
 * kept (in memory and in the store, so a resumed crawl does not ask again)
 * for at most 24 hours.
 *
 * RFC 9309 status rules: 2xx the file is parsed; 4xx (and a redirect chain
 * longer than five) means no rules: allow all; 5xx or a network error means
 * disallow all for now: the authority waits and robots.txt is asked again
 * after a back-off that doubles with each failure, until the caller gives
 * the host up.
 */
#ifndef NC_ROBOTSCACHE_H
#define NC_ROBOTSCACHE_H

#include <stddef.h>

#include "storage/store.h"
#include "web/robots.h"

/* A cached answer lives this long (RFC 9309: at most 24 hours). */
#define ROBOTSCACHE_TTL_S (24 * 3600.0)

enum robotscache_state {
	ROBOTSCACHE_MISSING, /* nothing known: fetch robots.txt first */
	ROBOTSCACHE_PENDING, /* a fetch is in flight */
	ROBOTSCACHE_READY,   /* rules known */
	ROBOTSCACHE_WAIT,    /* the last fetch failed: wait, then fetch */
};

struct robotscache;

/*
 * New cache backed by st (borrowed), for the product token agent (copied).
 * retry_base_ms is the first back-off after a failed fetch. NULL when out of
 * memory.
 */
struct robotscache *robotscache_new(struct store *st, const char *agent,
    long retry_base_ms);

/* Free it; NULL is fine. */
void robotscache_free(struct robotscache *rc);

/*
 * What is known about origin ("scheme://host[:port]") at now (Unix
 * seconds). READY sets *rules (owned by the cache, valid until the next
 * robotscache_result for origin); WAIT sets *retry_at (Unix seconds) and
 * *failures. Consults the store for origins not yet in memory. Returns the
 * state, or -1 on a database or memory error.
 */
int robotscache_lookup(struct robotscache *rc, const char *origin, double now,
    const struct robots **rules, double *retry_at, int *failures);

/* A fetch of origin's robots.txt started. Returns 0 or -1 (no memory). */
int robotscache_pending(struct robotscache *rc, const char *origin);

/*
 * A fetch of origin's robots.txt that never went out (the crawler could
 * open no socket for it): origin is unknown again, as before the fetch
 * started, so its next turn asks again; no failure is counted.
 */
void robotscache_forget(struct robotscache *rc, const char *origin);

/*
 * The fetch ended: status is the final HTTP status after redirects (0 for a
 * network error, or when too many redirects: then pass 399), body what was
 * received (at most ROBOTS_MAX_BYTES are kept). Stores the answer and returns
 * the new state (READY or WAIT), or -1 on a database or memory error.
 */
int robotscache_result(struct robotscache *rc, const char *origin, int status,
    const char *body, size_t len, double now);

/* robots.txt fetches that failed in a row for origin (0 when unknown). */
int robotscache_failures(const struct robotscache *rc, const char *origin);

#endif
