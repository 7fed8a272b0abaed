/*
 * polite: what keeps the crawl polite -- robots.txt per origin (fetched in
 * the host's own turn, RFC 9309), Crawl-delay, sitemaps read in the host's
 * turns, Retry-After and exponential back-off, giving a host up after
 * failures in a row. It decides; the loop (crawler/loop.c) starts every
 * transfer, robots.txt included.
 */
#ifndef NC_CRAWL_POLITE_H
#define NC_CRAWL_POLITE_H

#include "crawler/state.h"

/*
 * The robots.txt cache (matching groups by the product token of
 * --user-agent) and the hosts' sitemap queues. 0, or an exit status with
 * c->err: 2 when the User-Agent has no product token, 1 when out of
 * memory.
 */
int polite_open(struct crawl *c);

/* Free what polite_open made (safe on a part never made). */
void polite_close(struct crawl *c);

/* What polite_admit decided on a URL just taken from the frontier. */
enum polite_admit {
	POLITE_DONE = 0,   /* dealt with: waits for robots.txt or forbidden;
	                     j is freed */
	POLITE_FETCH = 1,  /* fetch j->it.url (a page, or a sitemap file) */
	POLITE_ROBOTS = 2  /* the URL went back to the queue; fetch
	                     j->origin's robots.txt first, in j */
};

/* Decide on j, taken for host j->host at now (monotonic ms): an
 * enum polite_admit, or -1 on a database or memory error (j is the
 * caller's then). */
int polite_admit(struct crawl *c, struct job *j, double now);

/* Give host up for the rest of the crawl, with why (kept in hosts). */
void polite_give_up(struct crawl *c, const char *host, const char *why);

/* Hold host back for secs after failures in a row (Retry-After or
 * back-off), remember it for a resumed crawl, and say why on stderr
 * (nothing when why is NULL). */
void polite_hold_host(struct crawl *c, const char *host, double secs,
    int failures, const char *why);

/* Whether a transfer failure says something about the host (it cannot be
 * reached, or drops connections) rather than about the URL. */
int polite_host_trouble(const struct fetch_result *r);

/* A robots.txt transfer (j->origin) ended with r. */
void polite_on_robots(struct crawl *c, struct job *j,
    const struct fetch_result *r);

/* A sitemap transfer ended with r: queue what it lists. 0 or -1. */
int polite_on_sitemap(struct crawl *c, struct job *j,
    const struct fetch_result *r);

/* Take j->host's next sitemap file into j: 1, or 0 when none waits. */
int polite_pop_sitemap(struct crawl *c, struct job *j);

/* 429/503: requeue j's URL for later. 1 requeued, 0 record it, -1 error. */
int polite_retry_later(struct crawl *c, struct job *j,
    const struct fetch_result *r);

/*
 * A seed whose body is a sitemap (a sitemaps.org file or index, gzip or
 * not, or a text file of URLs): its page URLs are queued as seeds and its
 * sitemap files fetched as robots.txt's are. Returns 1 with the counts,
 * 0 when the body is no sitemap (or names no URL), -1 on a database error.
 */
int polite_seed_sitemap(struct crawl *c, const struct fetch_result *r,
    size_t *nurls, size_t *nmaps);

#endif
