#include "crawler/judge.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crawler/share.h"
#include "storage/store_resume.h"

/* dedup_set_fn over the crawl's database, through the last sets read. */
static int
stored_set(void *ctx, int64_t id, struct shingles_ref *q)
{
	struct crawl *c = ctx;
	struct shingles_ref *slot;
	void *blob;
	size_t len, i;

	memset(q, 0, sizeof(*q));
	for (i = 0; i < CRAWL_SET_CACHE; i++)
		if (c->sets.kept[i].id == id)
			return shingles_ref_copy(&c->sets.kept[i].ref, q);
	if (store_shingles_get(c->st, id, &blob, &len) != 0)
		return -1;
	/* A malformed set confirms nothing, as a missing one. */
	if (blob != NULL)
		(void)shingles_ref_decode(blob, len, q);
	free(blob);
	/* A page's stored set never changes once written (one not yet
	 * seen, another process's, is not kept). */
	if (q->n == 0)
		return 0;
	slot = &c->sets.kept[c->sets.next].ref;
	shingles_ref_free(slot);
	c->sets.kept[c->sets.next].id = 0;
	if (shingles_ref_copy(q, slot) == 0)
		c->sets.kept[c->sets.next].id = id;
	c->sets.next = (c->sets.next + 1) % CRAWL_SET_CACHE;
	return 0;
}

int
judge_page(struct crawl *c, const struct job *j, const char *site,
    struct dedup_match *m, size_t *nm, enum dedup_verdict *v, char *veto,
    size_t vetosz)
{
	struct page_work *w = j->work;
	struct dedup_veto why;
	int err = 0;

	if (c->share != NULL && share_before_judge(c, &w->dg) != 0)
		return -1;
	*v = digest_judge(c->dd, c->site, site, &w->dg, j->it.parent,
	    stored_set, c, m, DEDUP_MAX_MATCHES, nm, &why, &err);
	if (err)
		return -1;
	/* Stored with the set, so that a resume learns the same template. */
	w->dg.sh.teaches = dedup_learns_template(c->dd, *v,
	    *v == DEDUP_NEAR ? &why.near_nv : NULL);
	veto[0] = '\0';
	if (*v == DEDUP_UNIQUE && why.floor)
		snprintf(veto, vetosz, "too little text to judge near (%zu "
		    "shingles)", w->dg.sh.distinct);
	else if (*v == DEDUP_UNIQUE && why.original_id > 0 && why.nv.listed)
		snprintf(veto, vetosz, "not near page %lld: it lists this "
		    "page", (long long)why.original_id);
	else if (*v == DEDUP_UNIQUE && why.original_id > 0)
		snprintf(veto, vetosz, "not near page %lld: %zu of its %zu own "
		    "words new, %zu of all %zu", (long long)why.original_id,
		    why.nv.new_own, why.nv.own, why.nv.new_all, why.nv.words);
	return 0;
}

void
judge_close(struct crawl *c)
{
	size_t i;

	for (i = 0; i < CRAWL_SET_CACHE; i++) {
		shingles_ref_free(&c->sets.kept[i].ref);
		c->sets.kept[i].id = 0;
	}
}

enum store_verdict
judge_stored_verdict(enum dedup_verdict v)
{
	return v == DEDUP_UNIQUE ? STORE_VERDICT_UNIQUE
	    : v == DEDUP_EXACT ? STORE_VERDICT_EXACT : STORE_VERDICT_NEAR;
}
