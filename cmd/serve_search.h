/*
 * serve_search: search in `nearcrawl serve`: the results of the crawl's
 * full-text index with duplicates folded, as `nearcrawl search` gives them
 * (cmd/search.h): each result a page with a snippet whose matched words
 * are marked, what chose it among its copies, and "N similar pages
 * omitted", which shows them.
 */
#ifndef NC_SERVE_SEARCH_H
#define NC_SERVE_SEARCH_H

#include "cmd/serve_out.h"

/*
 * GET /search?q=QUERY[&k=K][&all=1][&page=N]: 20 results a page; k also
 * folds SimHashes within K bits; all lists the folded pages. 400 for a
 * bad query or parameter, 404 for a database without a search index.
 */
void svs_search(struct sv_req *r);

#endif
