/*
 * frontier: what the crawl queues. A URL found on a page, in a sitemap, in
 * a redirect or given as a seed is queued unless it is out of scope, too
 * deep, caught by a trap defence (path repetition, --max-query-variants)
 * or lately settled; --strip-params parameters go first. A URL robots.txt
 * forbids is settled here too, without a fetch.
 */
#ifndef NC_CRAWL_FRONTIER_H
#define NC_CRAWL_FRONTIER_H

#include "crawler/state.h"

/* Why a URL the user's patterns exclude is left out, or settled. */
#define FRONTIER_WHY_PATTERN "excluded by --accept-regex/--reject-regex"

/*
 * The frontier's filters (--strip-params, --accept-regex, --reject-regex)
 * and its memory of settled links. 0, or an exit status with c->err: 2
 * for a bad pattern, 1 when out of memory.
 */
int frontier_open(struct crawl *c);

/* Free what frontier_open made (safe on a part never made). */
void frontier_close(struct crawl *c);

/*
 * Why url (normalised), found at depth, is not to be queued, or NULL when
 * it is; then host (HOST_MAX bytes) holds its host.
 */
const char *frontier_refusal(struct crawl *c, const char *url, int depth,
    char *host);

/* url without the --strip-params parameters: out when something went,
 * else url itself. */
const char *frontier_strip(const struct crawl *c, const char *url, char *out,
    size_t outsz);

/* Queue url (normalised, already stripped) unless refused; dup_hops as in
 * store_item. 0, or -1 on a database or memory error. */
int frontier_add_as_is(struct crawl *c, const char *url, int depth,
    int64_t parent, int dup_hops);

/* Queue url (normalised) found on page parent at depth, stripped first;
 * dup_hops what the link rule gives it (0 for seeds). 0 or -1. */
int frontier_add(struct crawl *c, const char *url, int depth, int64_t parent,
    int dup_hops);

/* Queue the links of a page's extraction ex (row parent) found at depth,
 * each as frontier_add does, and count those left out as too long. 0 or
 * -1. */
int frontier_add_links(struct crawl *c, const struct extract_result *ex,
    int depth, int64_t parent, int dup_hops);

/* Queue target (normalised), where j's page (row id) redirects, as a
 * link of that page. 0 or -1. */
int frontier_add_redirect(struct crawl *c, const struct job *j,
    const char *target, int64_t id);

/*
 * A URL taken from the frontier (not a sitemap's, not a seed) that the
 * patterns exclude now -- it was queued before a resume changed them --
 * is settled as skipped without a fetch and counted. 1 settled (j's
 * URL is the caller's to free), 0 when it stays, -1 on a database error.
 */
int frontier_drop_excluded(struct crawl *c, struct job *j);

/* Settle j's queued URL without asking the server, with reason. 0 or -1. */
int frontier_settle_unfetched(struct crawl *c, struct job *j,
    const char *reason);

#endif
