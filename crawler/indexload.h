/*
 * indexload: stored pages back into the crawl's indexes (resume, and a
 * shared crawl's catch-up on the other processes' pages).
 */
#ifndef NC_INDEXLOAD_H
#define NC_INDEXLOAD_H

#include "crawler/state.h"
#include "storage/store_resume.h"

/*
 * Add the pages of sp, in seq order, to c's duplicate indexes and site
 * templates as the crawl adds pages it judges (exact copies left out).
 * 0, or -1 on a database or memory failure.
 */
int indexload_span(struct crawl *c, const struct store_span *sp);

#endif
