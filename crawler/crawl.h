/*
 * crawl: the pipeline -- frontier -> fetch -> extract -> dedup -> store --
 * run on one event loop until the frontier is exhausted, a limit is reached
 * or the user stops it.
 *
 * An existing database is resumed: its frontier, fingerprints and counters
 * load back, and URLs that were in flight when it stopped are queued again.
 * The settings that decide verdicts (methods, thresholds, rule, scope) are
 * stored in the database; resuming with different ones is refused.
 */
#ifndef NC_CRAWL_H
#define NC_CRAWL_H

#include <stdint.h>

#include "config.h"
#include "store.h"

struct crawl_summary {
	struct store_counts counts; /* the database's counts at the end */
	int64_t fetched;            /* pages fetched by this run */
	int64_t robots_fetches;     /* robots.txt requests by this run */
	int64_t hosts_given_up;     /* hosts retired after failures */
	double seconds;             /* wall time of this run */
	int interrupted;            /* stopped by a signal */
	int saturated;              /* stopped by --stop-when-saturated */
	int64_t indexed;            /* pages in the fingerprint indexes */
	uint64_t index_bytes;       /* memory those indexes hold */
};

/*
 * Crawl with cfg. Returns 0 when the crawl ended normally or was stopped by
 * SIGINT/SIGTERM with everything saved; 1 on a run-time failure (database
 * write error, out of memory); 2 when cfg or the database is unusable (not
 * ours, locked, settings conflict, no seeds for a new crawl). On 1 and 2 a
 * message is in err. sum is filled whenever the database could be opened.
 */
int crawl_run(const struct config *cfg, struct crawl_summary *sum, char *err,
    size_t errsz);

#endif
