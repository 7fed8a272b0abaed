#include "crawler/revisit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crawler/frontier.h"
#include "crawler/judge.h"
#include "crawler/linkrule.h"
#include "storage/store_search.h"
#include "storage/store_visits.h"

int
revisit_start(struct crawl *c)
{
	char *v;
	int err = 0;
	int64_t n;

	v = store_meta_get(c->st, "visit", &err);
	if (err) {
		snprintf(c->err, c->errsz, "%s: %s", c->cfg->db,
		    store_errmsg(c->st));
		return 1;
	}
	c->recrawl.visit = v != NULL ? atoi(v) : 1;
	free(v);
	if (c->recrawl.visit < 1)
		c->recrawl.visit = 1;
	if (!c->cfg->recrawl)
		return 0;
	if (c->mode == CRAWL_ARCHIVE) {
		snprintf(c->err, c->errsz, "--recrawl is an option of crawl");
		return 2;
	}
	c->recrawl.visit++;
	if ((n = store_recrawl_start(c->st, c->recrawl.visit)) < 0) {
		snprintf(c->err, c->errsz, "%s: %s", c->cfg->db,
		    store_errmsg(c->st));
		return 1;
	}
	if (n == 0) {
		snprintf(c->err, c->errsz, "--recrawl: %s holds no page "
		    "crawled to the end: nothing to visit again", c->cfg->db);
		return 2;
	}
	if (!c->cfg->quiet)
		fprintf(stderr, "nearcrawl: visit %d: %lld URLs queued again, "
		    "each asked for on condition (If-None-Match, "
		    "If-Modified-Since)\n", c->recrawl.visit, (long long)n);
	return 0;
}

int
revisit_request(struct crawl *c, struct job *j, struct fetch_req *req)
{
	if (c->recrawl.visit <= 1)
		return 0;
	if ((j->prior = calloc(1, sizeof(*j->prior))) == NULL ||
	    store_page_prior(c->st, j->it.url, j->prior) < 0)
		return -1;
	if (j->prior->id == 0) {
		free(j->prior);
		j->prior = NULL;
		return 0;
	}
	j->kind = JOB_REVISIT;
	req->if_none_match = j->prior->etag[0] != '\0' ? j->prior->etag : NULL;
	req->if_modified_since = j->prior->last_modified[0] != '\0' ?
	    j->prior->last_modified : NULL;
	return 0;
}

/*
 * A recrawl's finding at j's page (j->prior): a visits row, counted for
 * the run's summary. 0, or -1 on a database error.
 */
static int
note_visit(struct crawl *c, const struct job *j, enum store_outcome o,
    int status, const char *md5, const enum store_verdict *now,
    const char *location, const char *reason)
{
	struct store_visit v;

	memset(&v, 0, sizeof(v));
	v.visit = c->recrawl.visit;
	v.page_id = j->prior->id;
	v.fetched_at = clock_wall_s();
	v.status = status;
	v.outcome = o;
	v.md5 = md5;
	if (now != NULL) {
		v.has_verdict = 1;
		v.verdict = *now;
		if (*now != j->prior->verdict)
			c->recrawl.verdicts_moved++;
	}
	v.has_was = j->prior->verdict != STORE_VERDICT_UNKNOWN;
	v.was = j->prior->verdict;
	v.location = location;
	v.reason = reason;
	c->recrawl.outcomes[o]++;
	return store_visit_add(c->st, &v);
}

int
revisit_note_new(struct crawl *c, int64_t id, const struct store_page *p)
{
	struct store_visit v;

	memset(&v, 0, sizeof(v));
	v.visit = c->recrawl.visit;
	v.page_id = id;
	v.fetched_at = p->fetched_at;
	v.status = p->status;
	v.outcome = STORE_OUTCOME_NEW;
	v.md5 = p->md5;
	v.has_verdict = 1;
	v.verdict = p->verdict;
	v.reason = p->reason;
	c->recrawl.outcomes[STORE_OUTCOME_NEW]++;
	return store_visit_add(c->st, &v);
}

int
revisit_record_work(struct crawl *c, struct job *j)
{
	struct page_work *w = j->work;
	struct dedup_match m[DEDUP_MAX_MATCHES];
	enum dedup_verdict v;
	enum store_verdict now;
	char veto[96];
	size_t i, k, nm = 0;

	crawl_count_stages(c, w, 0, 0);
	if (!w->extracted || w->dg.text_len == 0) {
		now = w->extracted ? STORE_VERDICT_SKIPPED
		                   : STORE_VERDICT_ERROR;
		return note_visit(c, j, j->prior->md5[0] == '\0' ?
		    STORE_OUTCOME_UNCHANGED : STORE_OUTCOME_CHANGED,
		    (int)w->status, NULL, &now, NULL,
		    w->extracted ? "no text in body" : w->why);
	}
	/* The validators of this answer serve the next visit. */
	if (store_page_validators(c->st, j->prior->id, w->etag,
	        w->last_modified) != 0)
		return -1;
	if (strcmp(w->dg.fp.md5, j->prior->md5) == 0)
		return note_visit(c, j, STORE_OUTCOME_UNCHANGED,
		    (int)w->status, w->dg.fp.md5, NULL, NULL, NULL);
	if (judge_page(c, j, crawl_site_of(c, j->host), m, &nm, &v, veto,
	        sizeof(veto)) != 0)
		return -1;
	/* The index still holds the page as it was: no match with itself. */
	for (i = k = 0; i < nm; i++)
		if (m[i].original_id != j->prior->id)
			m[k++] = m[i];
	if (k == 0)
		v = DEDUP_UNIQUE;
	nm = k;
	now = judge_stored_verdict(v);
	if (note_visit(c, j, STORE_OUTCOME_CHANGED, (int)w->status,
	        w->dg.fp.md5, &now, NULL, NULL) != 0)
		return -1;
	/* Search finds the page by what it says now. */
	if (strcmp(c->cfg->search_index, "yes") == 0 &&
	    store_search_set(c->st, j->prior->id, w->dg.ex.title, w->dg.near,
	        w->dg.near_len) != 0)
		return -1;
	return linkrule_follow(c, j, j->prior->id, v);
}

int
revisit_process(struct crawl *c, struct job *j, const struct fetch_result *r)
{
	char reason[160], host[HOST_MAX], *target = NULL;
	enum store_outcome o;
	const char *why;
	int rc = -1;

	if (r->code != CURLE_OK)
		return note_visit(c, j, STORE_OUTCOME_ERROR, (int)r->status,
		    NULL, NULL, NULL, r->error);
	if (r->status == 304)
		return note_visit(c, j, STORE_OUTCOME_UNCHANGED, 304, NULL,
		    NULL, NULL, NULL);
	if (r->status >= 300 && r->status < 400) {
		if (r->location != NULL &&
		    (target = url_normalize(r->location, &why)) != NULL &&
		    frontier_refusal(c, target, j->it.depth + 1, host) ==
		        NULL &&
		    frontier_add_redirect(c, j, target, j->prior->id) != 0)
			goto out;
		/* Its text is now the target's, found under the target's
		 * own entry once that is crawled. */
		if (store_search_drop(c->st, j->prior->id) != 0)
			goto out;
		rc = note_visit(c, j, STORE_OUTCOME_MOVED, (int)r->status,
		    NULL, NULL, target != NULL ? target : r->location, NULL);
		goto out;
	}
	if (r->status >= 400 && r->status < 500) {
		snprintf(reason, sizeof(reason), "HTTP status %ld", r->status);
		/* Nothing to find there any more: its entry goes (and
		 * `nearcrawl index` leaves it out while it stays gone). */
		if (store_search_drop(c->st, j->prior->id) != 0)
			return -1;
		return note_visit(c, j, STORE_OUTCOME_GONE, (int)r->status,
		    NULL, NULL, NULL, reason);
	}
	if (r->status < 200 || r->status >= 300) {
		snprintf(reason, sizeof(reason), "HTTP status %ld", r->status);
		return note_visit(c, j, STORE_OUTCOME_ERROR, (int)r->status,
		    NULL, NULL, NULL, reason);
	}
	if (store_page_validators(c->st, j->prior->id, r->etag,
	        r->last_modified) != 0)
		return -1;
	/* A body that is not HTML (now): it had no text before, or it did. */
	o = j->prior->md5[0] == '\0' ? STORE_OUTCOME_UNCHANGED
	                              : STORE_OUTCOME_CHANGED;
	snprintf(reason, sizeof(reason), "not HTML: %.100s",
	    r->content_type != NULL ? r->content_type : "unknown type");
	rc = note_visit(c, j, o, (int)r->status, NULL,
	    &(enum store_verdict){ STORE_VERDICT_SKIPPED }, NULL, reason);
out:
	free(target);
	return rc;
}
