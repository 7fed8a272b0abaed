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

/*
 * The loop's base, the worker pool (loop_threads) handing pages back to
 * worked, and SIGINT and SIGTERM calling stop (arg c): what every run of
 * the crawl's parts needs; crawl_run adds the fetcher and its timers. 0,
 * or -1 when out of memory (loop_teardown frees what was made).
 */
int loop_open(struct crawl *c, workpool_done_fn worked,
    event_callback_fn stop);

/* Free the worker pool, each page it never handed back given to drop. */
void loop_close_pool(struct crawl *c, void (*drop)(void *arg));

/* The worker threads cfg asks for: --threads, or with -1 one per CPU
 * (at most WORKPOOL_MAX_THREADS). */
int loop_threads(const struct config *cfg);

#endif
