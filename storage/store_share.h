/*
 * store_share: a shared crawl -- several processes, one PostgreSQL
 * database (storage/store_share.c, storage/store_ahead.c,
 * docs/scale-out.md). Every function here but store_shared,
 * store_set_worker and store_pages_added is for a shared store only. Each
 * returns -1 on a database error (store_errmsg says why).
 */
#ifndef NC_STORE_SHARE_H
#define NC_STORE_SHARE_H

#include <stddef.h>
#include <stdint.h>

#include "storage/store.h"

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
 * Lease up to max free hosts with URLs queued or in flight (those an
 * owner left in flight are for the new owner to queue again:
 * store_host_reclaim), not given up, and with fewer than cap pages when
 * cap > 0 (--max-pages-per-host), the first by name, until expires (Unix
 * time); a host whose lease ran out by now is free. fn for each, in no
 * set order. Hosts another process is claiming at the same moment are
 * skipped. Returns the hosts claimed, fn's value, or -1.
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
 * Lock the n keys (dedup_lock_keys) until the transaction ends. Each key
 * is folded into STORE_LOCK_SLOTS and the keys sorted, so every process
 * locks in one order and none waits for one that waits for it. With
 * advisory 0 the locks are rows of verdict_keys (one INSERT ... ON
 * CONFLICT DO UPDATE, which makes or locks each row); with advisory
 * non-zero, transaction-level advisory locks. Sent with the open
 * transaction: a lock wait beyond the session's lock_timeout is an error,
 * reported here or by the next statement that waits. 0, or -1.
 */
int store_verdict_lock(struct store *s, const uint64_t *keys, size_t n,
    int advisory);

#endif
