/*
 * loop: the crawl's event loop (crawl_run in crawl.h) -- the one place
 * transfers start -- and the teardown every run of the crawl's parts
 * ends with (crawler/dedupcmd.c's too).
 */
#ifndef NC_CRAWL_LOOP_H
#define NC_CRAWL_LOOP_H

#include "crawler/state.h"

/* Free everything c holds (the database closed, the archive finished,
 * the loop's events freed); safe on parts never set up. */
void loop_teardown(struct crawl *c);

/* The worker threads cfg asks for: --threads, or with -1 one per CPU
 * (at most WORKPOOL_MAX_THREADS). */
int loop_threads(const struct config *cfg);

#endif
