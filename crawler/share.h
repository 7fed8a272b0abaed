/*
 * share: one crawl, several processes, one PostgreSQL database
 * (docs/scale-out.md).
 *
 * Hosts: a process crawls only the hosts it holds a lease on; it renews
 * them every round, gives back what it holds beyond its fair share (hosts
 * with work over processes alive) and claims free hosts up to it. A host
 * changes hands with the time its next request may start, so the per-host
 * gap holds across processes; a process that dies stops renewing, and
 * the next owner queues its URLs in flight again.
 *
 * Verdicts: before judging a page, a process locks the page's index keys
 * (dedup_lock_keys) in the database, then adds to its indexes every page
 * the others committed since it last looked (up to the crawl's clock),
 * then judges; the locks last until the page's transaction commits. Two
 * pages that could match share a key, so they are judged one after the
 * other, and the second sees the first.
 */
#ifndef NC_SHARE_H
#define NC_SHARE_H

#include "crawler/state.h"

/* A lease lasts this long unless renewed; renewed every round. */
#define SHARE_LEASE_S 10.0
#define SHARE_ROUND_MS 1000.0
/*
 * A process alone in the crawl (one heartbeat in the database) judges
 * without verdict locks and without catching up, for SHARE_SOLO_MS after
 * it counted the heartbeats; a process that joins claims no host (so
 * judges no page) for SHARE_JOIN_MS after its first heartbeat is
 * committed. As SHARE_JOIN_MS > SHARE_SOLO_MS, a lone process has gone
 * back to locking before a newcomer judges anything: the newcomer's
 * heartbeat was committed after the count that let the lone one skip.
 * The join wait also lets processes started together see each other
 * before they share the hosts.
 */
#define SHARE_SOLO_MS 500.0
#define SHARE_JOIN_MS 1000.0

/*
 * After store_open: name this worker's rows (pages.worker), and when the
 * store is shared set up c->share, holding nothing yet. 0, or 1 with
 * c->err set.
 */
int share_start(struct crawl *c);

/* The pages of every process so far into the indexes, the catch-up's
 * starting point. 0, or -1 on a database or memory failure. */
int share_load(struct crawl *c);

/* Free c->share (NULL is fine); a clean end first gives the leases back. */
void share_end(struct crawl *c, int clean);

/*
 * A lease round when one is due (force: now): heartbeat, renew, give
 * back, claim. Hosts claimed go into the scheduler. Returns the hosts
 * claimed, or -1 on a database failure (crawl_fail'ed).
 */
int share_round(struct crawl *c, int force);

/*
 * A URL of host was queued: make the host leasable, and lease it at once
 * when it is new and this process is under its share. Returns 1 when this
 * process holds host (the scheduler may count the URL), 2 when it has just
 * leased it (the scheduler counted its whole queue), 0 when another
 * process may hold it, -1 on a database failure.
 */
int share_queued(struct crawl *c, const char *host);

/*
 * Before judging g: lock its keys, catch up on the other processes'
 * pages. 0, or -1 on a database or memory failure.
 */
int share_before_judge(struct crawl *c, const struct digest *g);

/*
 * Nothing to start and nothing in flight here: whether the whole crawl is
 * done (1: leave), or work may yet come (0: a round claimed some, or
 * another process is still fetching); -1 on a database failure.
 */
int share_idle(struct crawl *c);

#endif
