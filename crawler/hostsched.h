/*
 * hostsched: which host may be asked next, and when.
 *
 * Each host has a count of queued URLs, a count of transfers in flight, and
 * the earliest time its next request may start. A host is ready when it has
 * queued URLs, fewer than per_host transfers in flight, and its time has
 * come. Ready-or-waiting hosts sit in a min-heap on that time, so picking
 * the host due soonest costs O(log hosts) and a slow or delayed host never
 * holds the others back. Queued URLs themselves stay in the store.
 *
 * Times are milliseconds on any monotonic clock the caller chooses.
 */
#ifndef NC_HOSTSCHED_H
#define NC_HOSTSCHED_H

#include <stddef.h>
#include <stdint.h>

struct hostsched;

/* New scheduler: at most per_host (>= 1) transfers per host, delay_ms
 * between the end of one response and the next request to a host.
 * NULL when out of memory. */
struct hostsched *hostsched_new(int per_host, long delay_ms);

/* Free it; NULL is fine. */
void hostsched_free(struct hostsched *s);

/*
 * Note n more queued URLs for host, the first of them not to be asked
 * before not_before (0: no constraint). Creates the host on first use.
 * Returns 0, or -1 when out of memory.
 */
int hostsched_add(struct hostsched *s, const char *host, int64_t n, double not_before);

/*
 * The host whose turn comes first. Returns its name (owned by the
 * scheduler, valid until hostsched_free) when it is due at now; otherwise NULL,
 * with *wait set to the milliseconds until the first host is due, or -1
 * when no host has anything queued that it may start.
 */
const char *hostsched_next(struct hostsched *s, double now, double *wait);

/* A request to host started at now: one fewer queued, one more in flight,
 * next start no sooner than now + the host's delay. */
void hostsched_started(struct hostsched *s, const char *host, double now);

/* A request to host ended at now: the next may start at now + delay. */
void hostsched_finished(struct hostsched *s, const char *host, double now);

/* The store had nothing due for host: forget its queued count. */
void hostsched_drained(struct hostsched *s, const char *host);

/* Hold host back until not_before (back-off, Retry-After). */
void hostsched_defer(struct hostsched *s, const char *host, double not_before);

/* Per-host gap for host (e.g. from Crawl-delay); never below the default. */
void hostsched_set_delay(struct hostsched *s, const char *host, long delay_ms);

/* A queued URL of host was settled without a request (e.g. robots.txt
 * forbids it): one fewer queued, the host's turn is not used. */
void hostsched_skipped(struct hostsched *s, const char *host);

/* Never schedule host again (given up, or its page cap reached); its queued
 * URLs stay in the store for a later run. Out of memory: nothing happens. */
void hostsched_retire(struct hostsched *s, const char *host);

/* What host has: queued URLs, transfers in flight, and the earliest start
 * of its next request (0, 0, 0 for a host never seen). */
void hostsched_host(const struct hostsched *s, const char *host,
    int64_t *queued, int *active, double *next_ok);

/* Whether host was retired. */
int hostsched_retired(const struct hostsched *s, const char *host);

/*
 * A request to host failed (connection, timeout): count it and hold the
 * host back for base_ms doubled per failure in a row (at most an hour).
 * Returns the failures in a row; *held_ms (if not NULL) gets the hold.
 */
int hostsched_failed(struct hostsched *s, const char *host, double now,
    long base_ms, double *held_ms);

/* A request to host got an answer: the failure count starts again. */
void hostsched_succeeded(struct hostsched *s, const char *host);

/* Whether host ever worked: it answered in this run, or has pages (an
 * earlier run's, counted on resume). The back-off is for such hosts; a
 * host that fails its first contact is given up at once, as curl and wget
 * fail at once. */
int hostsched_worked(struct hostsched *s, const char *host);

/* Count n more pages for host (creating it); returns its total, or -1 when
 * out of memory. */
int64_t hostsched_add_pages(struct hostsched *s, const char *host, int64_t n);

/* Hosts known. */
size_t hostsched_hosts(const struct hostsched *s);

/* Hosts with transfers in flight. */
size_t hostsched_busy_hosts(const struct hostsched *s);

/* What the hosts with work are doing, for the progress line. */
struct hostsched_census {
	size_t active;  /* transfers in flight */
	size_t ready;   /* may start now: waiting for a free connection */
	size_t waiting; /* waiting out the politeness delay */
	size_t held;    /* held back: back-off, Retry-After, robots.txt */
};

/* Count the hosts by state at now: O(hosts with work), for a once-a-second
 * progress line. */
void hostsched_census(const struct hostsched *s, double now,
    struct hostsched_census *out);

/* Queued URLs over all hosts, as far as the scheduler was told. */
int64_t hostsched_queued(const struct hostsched *s);

#endif
