/*
 * page: a fetched page becomes a pages row. HTML goes to a worker, which
 * digests it (digest/digest.h: text, fingerprints); back on the loop the
 * page is judged against everything seen before, its rows are stored and,
 * by the link rule, its links queued. Redirects, errors and other types
 * are recorded here too.
 */
#ifndef NC_CRAWL_PAGE_H
#define NC_CRAWL_PAGE_H

#include "crawler/state.h"

/*
 * Turn one finished transfer into a pages row (and what follows from it).
 * Returns 0 when done, 1 when an HTML page went to the worker pool (the
 * job is the pool's until page_record_work), -1 on failure.
 */
int page_process(struct crawl *c, struct job *j, const struct fetch_result *r);

/*
 * Hand the page of r (2xx, HTML, or plain text when plain) to the worker
 * pool; its body is taken over (r->body left empty). 0, or -1 when out
 * of memory (r->body then still the caller's).
 */
int page_submit(struct crawl *c, struct job *j, const struct fetch_result *r,
    int plain);

/* Back on the loop: judge and store a page the pool digested. 0 or -1. */
int page_record_work(struct crawl *c, struct job *j);

#endif
