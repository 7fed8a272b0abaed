/*
 * page: a fetched page new to the crawl becomes a pages row. Every fetched
 * page, a revisit's too, first passes page_intake: counted in the run's
 * tallies, and HTML goes to a worker, which digests it (digest/digest.h:
 * text, fingerprints). Back on the loop the page is judged against
 * everything seen before (crawler/judge.h), its rows are stored and, by
 * the link rule, its links queued. Redirects, errors and other types are
 * recorded here too. A revisit's rows are crawler/revisit.c's.
 */
#ifndef NC_CRAWL_PAGE_H
#define NC_CRAWL_PAGE_H

#include "crawler/state.h"

/*
 * The saturation stop's window (--stop-when-saturated W:R). 0, or an exit
 * status with c->err: 2 for a bad value, 1 when out of memory.
 */
int page_open(struct crawl *c);

/* Free what page_open made (safe on a part never made). */
void page_close(struct crawl *c);

/*
 * A finished transfer of a page (JOB_PAGE or JOB_REVISIT), first: counted
 * in the run's tallies, and when it is HTML (and not binary data under an
 * HTML label) handed to the worker pool. 1 handed over (the job is the
 * pool's until page_record_work or revisit_record_work), 0 when it was
 * not (the caller records it: page_process, revisit_process), -1 when out
 * of memory.
 */
int page_intake(struct crawl *c, struct job *j, const struct fetch_result *r);

/*
 * A page new to the crawl that page_intake did not hand over becomes its
 * pages row (and what follows from it: a redirect's target queued, a
 * sitemap seed's URLs). 0, or -1 on failure.
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
