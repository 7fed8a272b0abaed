/*
 * serve_view: one page of the crawl in `nearcrawl serve`: its metadata,
 * the duplicates rows that name it, the links the crawl queued from it,
 * and its text beside its original's (or, for a unique page, the
 * candidate the crawl turned down) with the words that are new marked,
 * the template lines greyed and the figures of the rule of docs/dedup.md
 * that made its verdict.
 */
#ifndef NC_SERVE_VIEW_H
#define NC_SERVE_VIEW_H

#include <stdint.h>

#include "cmd/serve_out.h"

/*
 * GET /page/ID (fetch 0) or POST /page/ID/fetch (fetch 1: a text the
 * crawl did not keep is fetched from its URL). 404 for no such page.
 */
void svv_page(struct sv_req *r, int64_t id, int fetch);

#endif
