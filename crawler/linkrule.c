#include "crawler/linkrule.h"

#include <string.h>

#include "crawler/frontier.h"
#include "storage/store_pages.h"

/* Counts of dup_hops stop here: a frontier column, not to overflow. */
#define DUP_HOPS_CAP 1000

/*
 * How many duplicates that are not new content lead in a row to j's page,
 * up the pages' parent links (redirects do not count), counted up to cap:
 * *run. Returns 0, or -1 on a database error.
 */
static int
dup_run(struct crawl *c, const struct job *j, int cap, int *run)
{
	struct store_lineage l;
	int64_t at = j->it.parent;
	int steps = 0, r;

	*run = 0;
	while (at > 0 && *run < cap && steps++ < cap + REDIRECTS_MAX) {
		if ((r = store_page_lineage(c->st, at, &l)) < 0)
			return -1;
		if (r == 0 || l.fruitful || !(l.duplicate || l.redirect))
			break;
		*run += l.duplicate;
		at = l.parent;
	}
	return 0;
}

/*
 * Whether the links of j's page, judged v, are followed, and the dup_hops
 * they are queued with: 1 with *hops set, 0, or -1 on a database error.
 */
static int
linkrule_followed(struct crawl *c, const struct job *j, enum dedup_verdict v,
    int *hops)
{
	int budget = c->cfg->dup_hops;
	int run = j->it.dup_hops;

	*hops = 0;
	if (v == DEDUP_UNIQUE)
		return 1;
	if (v == DEDUP_NEAR && budget > 0 && run >= budget &&
	    dup_run(c, j, budget, &run) != 0)
		return -1;
	*hops = run < DUP_HOPS_CAP ? run + 1 : DUP_HOPS_CAP;
	if (c->cfg->follow_duplicates)
		return 1;
	return v == DEDUP_NEAR && run < budget;
}

/*
 * j's page is unique: when what linked to it (through redirects) is a
 * duplicate, that duplicate becomes new content. Returns 0, or -1 on a
 * database error.
 */
static int
linkrule_credit_linker(struct crawl *c, const struct job *j)
{
	struct store_lineage l;
	int64_t at = j->it.parent;
	int steps = 0, r = 0;

	memset(&l, 0, sizeof(l));
	/* dup_hops 0: linked from new content, nothing to learn. */
	if (j->it.dup_hops == 0 || c->cfg->dup_hops == 0)
		return 0;
	while (at > 0 && steps++ <= REDIRECTS_MAX) {
		if ((r = store_page_lineage(c->st, at, &l)) < 0)
			return -1;
		if (r == 0 || !l.redirect)
			break;
		at = l.parent;
	}
	if (at > 0 && r == 1 && l.duplicate && !l.fruitful &&
	    store_fruitful_add(c->st, at) != 0)
		return -1;
	return 0;
}

int
linkrule_follow(struct crawl *c, const struct job *j, int64_t id,
    enum dedup_verdict v)
{
	int follow, hops;

	if (v == DEDUP_UNIQUE && linkrule_credit_linker(c, j) != 0)
		return -1;
	if ((follow = linkrule_followed(c, j, v, &hops)) < 0)
		return -1;
	if (!follow || j->work->nofollow)
		return 0;
	return frontier_add_links(c, &j->work->dg.ex, j->it.depth + 1, id,
	    hops);
}
