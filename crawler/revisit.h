/*
 * revisit: a recrawl (--recrawl), the crawl's visit 2, 3 ... of the pages
 * it has. The visit's start queues every URL settled again
 * (revisit_start); a queued URL the crawl had becomes a revisit, asked
 * for on condition (If-None-Match, If-Modified-Since: revisit_request),
 * and what its answer says becomes a visits row: unchanged (304, or the
 * same text MD5), changed (judged again against everything else, its
 * links followed when it is new content now), moved (a redirect: its
 * target queued as a link), gone (4xx) or an error. A page first seen
 * during a recrawl is crawler/page.c's, and its row is noted as new here
 * (revisit_note_new). The run counts each outcome and the changed pages
 * whose verdict moved.
 */
#ifndef NC_CRAWL_REVISIT_H
#define NC_CRAWL_REVISIT_H

#include "crawler/state.h"

/*
 * The visit under way (meta "visit"; 1, the first crawl, when none), and
 * with --recrawl the start of the next: every URL settled queued again.
 * 0, or an exit status (1 on a database error, 2 refused) with c->err.
 */
int revisit_start(struct crawl *c);

/*
 * Before j's transfer starts (a JOB_PAGE): in a recrawl, when the crawl
 * has its URL, j becomes a JOB_REVISIT holding the page as it was
 * (j->prior), and req asks for it on that page's validators. 0 (nothing
 * done outside a recrawl or for a URL new to the crawl), or -1 on a
 * database or memory error.
 */
int revisit_request(struct crawl *c, struct job *j, struct fetch_req *req);

/*
 * A revisit's transfer r that did not go to the worker pool (page_intake):
 * 304 and bodies that are not HTML are unchanged or changed, a redirect
 * moved (its target queued), 4xx gone, the rest an error. 0, or -1 on a
 * database or memory error.
 */
int revisit_process(struct crawl *c, struct job *j,
    const struct fetch_result *r);

/*
 * Back on the loop, a revisit the pool digested: unchanged when its text
 * MD5 is the one it had; else changed, judged again against everything
 * else (its own earlier version left out), its links followed when it is
 * new content now. 0, or -1 on a database failure.
 */
int revisit_record_work(struct crawl *c, struct job *j);

/*
 * In a recrawl, the row p (id) of a page new to the crawl: the visit
 * found it new (a visits row "new"). 0, or -1 on a database error.
 */
int revisit_note_new(struct crawl *c, int64_t id, const struct store_page *p);

#endif
