/*
 * judge: a digested page's verdict against everything the crawl has seen
 * -- digest_judge over its indexes and site templates, a near candidate
 * confirmed against the shingle set stored with its page, read through a
 * cache of the last sets read (CRAWL_SET_CACHE) -- and why a near
 * candidate was turned down. In a shared crawl the page's index keys are
 * locked and the other processes' pages caught up first
 * (crawler/share.c). For a page new to the crawl (crawler/page.c) and for
 * a revisited page whose text changed (crawler/revisit.c).
 */
#ifndef NC_CRAWL_JUDGE_H
#define NC_CRAWL_JUDGE_H

#include "crawler/state.h"

/*
 * The verdict *v on j's digested page (j->work), of site (crawl_site_of),
 * with its matches (m, DEDUP_MAX_MATCHES of them at most, *nm used) and
 * why a near candidate was turned down in veto (vetosz bytes; "" when
 * none was). Notes in the page's shingles whether it teaches its site's
 * template. 0, or -1 on a database or memory failure.
 */
int judge_page(struct crawl *c, const struct job *j, const char *site,
    struct dedup_match *m, size_t *nm, enum dedup_verdict *v, char *veto,
    size_t vetosz);

/* Free the sets kept. */
void judge_close(struct crawl *c);

/* The pages row's verdict of a judgement. */
enum store_verdict judge_stored_verdict(enum dedup_verdict v);

#endif
