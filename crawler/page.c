#include "crawler/page.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "crawler/fprow.h"
#include "crawler/frontier.h"
#include "crawler/linkrule.h"
#include "crawler/polite.h"
#include "crawler/share.h"
#include "crawler/warcout.h"
#include "storage/store_pages.h"
#include "storage/store_resume.h"
#include "storage/store_search.h"
#include "util/testhook.h"
#include "web/linkhdr.h"


/*
 * Queue the target of a redirect from j's page (row id). A target that
 * strips back to the very URL that redirected is a server putting its
 * session id in by redirect: stripped, it is known already and the page
 * would never be fetched, so it is queued as it is. That page's own links
 * are stripped again, so this costs one fetch more per page, and cannot
 * loop: a second such redirect strips to a URL that is known.
 */
static int
enqueue_redirect(
    struct crawl *c, const struct job *j, const char *target, int64_t id)
{
	char buf[URL_MAX_LEN + 1];
	const char *u = frontier_strip(c, target, buf, sizeof(buf));

	if (u != target && strcmp(u, j->it.url) == 0)
		u = target;
	else if (u != target)
		c->traps.stripped++;
	/* A redirect is no page of its own: its target stands where it
	 * stood in a run of duplicates. */
	return frontier_add_as_is(c, u, j->it.depth + 1, id, j->it.dup_hops);
}

static int
says_nofollow(const char *x_robots_tag)
{
	return x_robots_tag != NULL &&
	    (strcasestr(x_robots_tag, "nofollow") != NULL ||
	        strcasestr(x_robots_tag, "none") != NULL);
}

/*
 * --stop-when-saturated W:R: once W pages were judged, stop when fewer than
 * R x W of the last W were unique -- new content has dried up while
 * duplicates keep coming (the research's growth curves flatten).
 */
static void
note_saturation(struct crawl *c, int unique)
{
	size_t at;

	if (c->sat_window == 0)
		return;
	at = (size_t)(c->sat_seen % c->sat_window);
	if (c->sat_seen >= c->sat_window)
		c->sat_unique -= c->sat_ring[at];
	c->sat_ring[at] = (unsigned char)unique;
	c->sat_unique += unique;
	c->sat_seen++;
	if (c->sat_seen >= c->sat_window && !c->stopping &&
	    (double)c->sat_unique < c->sat_share * (double)c->sat_window) {
		c->saturated = 1;
		c->stopping = 1;
		crawl_end_progress(c);
		if (!c->cfg->quiet)
			fprintf(stderr, "nearcrawl: saturated: %ld of the last "
			    "%ld pages were unique; stopping\n", c->sat_unique,
			    c->sat_window);
	}
}

/*
 * On a worker thread: extract the page and fingerprint its text. Reads the
 * configuration and the dedup settings, which nothing changes during the
 * crawl; writes only the job's page_work.
 */
static void
page_work(void *arg)
{
	struct job *j = arg;
	struct page_work *w = j->work;
	const struct config *cfg = j->c->cfg;
	struct digest_opts o;
	char charset[64];
	double t0;

	t0 = clock_mono_ms();
	/* One more than the cap tells a page at the cap from one over it. */
	digest_opts_of(cfg, w->content_type,
	    (size_t)cfg->max_links + (cfg->max_links > 0), charset,
	    sizeof(charset), &o);
	testhook_page_begin(j->it.url);
	w->extracted = digest_page(j->c->dd, &o, w->body.data, w->body.len,
	    !w->plain, j->it.url, &w->dg, &w->why) == 0;
	testhook_page_end();
	w->link_canonical = linkhdr_canonical(w->link, j->it.url);
	if (w->extracted && cfg->max_links > 0 &&
	    w->dg.ex.nlinks > (size_t)cfg->max_links) {
		free(w->dg.ex.links[--w->dg.ex.nlinks]);
		w->links_cut = 1;
	}
	/* The body is not needed any more (unless the digest points into
	 * it): give its memory back now. */
	if (!w->plain)
		buf_free(&w->body);
	w->extract_ms = w->dg.extract_ms;
	w->fingerprint_ms = clock_mono_ms() - t0 - w->dg.extract_ms;
}

int
page_submit(struct crawl *c, struct job *j, const struct fetch_result *r,
    int plain)
{
	struct page_work *w = calloc(1, sizeof(*w));

	if (w == NULL)
		return -1;
	if ((r->content_type != NULL &&
	    (w->content_type = strdup(r->content_type)) == NULL) ||
	    (r->x_robots_tag != NULL &&
	    (w->x_robots_tag = strdup(r->x_robots_tag)) == NULL) ||
	    (r->link != NULL && (w->link = strdup(r->link)) == NULL) ||
	    (r->etag != NULL && (w->etag = strdup(r->etag)) == NULL) ||
	    (r->last_modified != NULL &&
	    (w->last_modified = strdup(r->last_modified)) == NULL))
		goto nomem;
	/* Take the body over; the fetcher frees only what is left. */
	w->body = *r->body;
	buf_init(r->body, 0);
	w->body_len = w->body.len;
	w->plain = plain;
	w->status = r->status;
	w->elapsed_ms = r->elapsed_ms;
	j->work = w;
	if (workpool_submit(c->pool, page_work, j) != 0) {
		*r->body = w->body;
		j->work = NULL;
		goto nomem;
	}
	return 0;
nomem:
	free(w->content_type);
	free(w->x_robots_tag);
	free(w->link);
	free(w->etag);
	free(w->last_modified);
	free(w);
	return -1;
}

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
		if (c->sets[i].id == id)
			return shingles_ref_copy(&c->sets[i].ref, q);
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
	slot = &c->sets[c->sets_next].ref;
	shingles_ref_free(slot);
	c->sets[c->sets_next].id = 0;
	if (shingles_ref_copy(q, slot) == 0)
		c->sets[c->sets_next].id = id;
	c->sets_next = (c->sets_next + 1) % CRAWL_SET_CACHE;
	return 0;
}

static int
keep_shingles(struct crawl *c, const struct shingles *sh, int64_t id)
{
	unsigned char *blob;
	size_t len;
	int rc;

	if ((blob = shingles_encode(sh, &len)) == NULL)
		return -1;
	rc = store_shingles_add(c->st, id, blob, len);
	free(blob);
	return rc;
}

/*
 * The verdict on j's page, of site (crawl_site_of), with why a near
 * candidate was turned down in veto ("" when none was). Returns 0, or -1
 * on a database failure.
 */
static int
judge(struct crawl *c, const struct job *j, const char *site,
    struct dedup_match *m, size_t *nm, enum dedup_verdict *v, char *veto,
    size_t vetosz)
{
	struct page_work *w = j->work;
	struct dedup_veto why;
	int err = 0;

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

/* Count a stored page by its verdict, for the progress line. */
static void
count_verdict(struct crawl *c, enum store_verdict v)
{
	switch (v) {
	case STORE_VERDICT_UNIQUE:
		c->n.unique++;
		break;
	case STORE_VERDICT_EXACT:
		c->n.exact++;
		break;
	case STORE_VERDICT_NEAR:
		c->n.near++;
		break;
	case STORE_VERDICT_REDIRECT:
		c->n.redirect++;
		break;
	case STORE_VERDICT_ERROR:
		c->n.error++;
		break;
	default:
		c->n.skipped++;
		break;
	}
	c->n.pages++;
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
	v.visit = c->visit;
	v.page_id = j->prior->id;
	v.fetched_at = clock_wall_s();
	v.status = status;
	v.outcome = o;
	v.md5 = md5;
	if (now != NULL) {
		v.has_verdict = 1;
		v.verdict = *now;
		if (*now != j->prior->verdict)
			c->verdicts_moved++;
	}
	v.has_was = j->prior->verdict != STORE_VERDICT_UNKNOWN;
	v.was = j->prior->verdict;
	v.location = location;
	v.reason = reason;
	c->outcomes[o]++;
	return store_visit_add(c->st, &v);
}

/* A page first seen during a recrawl (row id, as p): a visits row "new". */
static int
note_new(struct crawl *c, int64_t id, const struct store_page *p)
{
	struct store_visit v;

	if (c->visit <= 1)
		return 0;
	memset(&v, 0, sizeof(v));
	v.visit = c->visit;
	v.page_id = id;
	v.fetched_at = p->fetched_at;
	v.status = p->status;
	v.outcome = STORE_OUTCOME_NEW;
	v.md5 = p->md5;
	v.has_verdict = 1;
	v.verdict = p->verdict;
	v.reason = p->reason;
	c->outcomes[STORE_OUTCOME_NEW]++;
	return store_visit_add(c->st, &v);
}

/* The stored verdict of a judgement. */
static enum store_verdict
stored_verdict(enum dedup_verdict v)
{
	return v == DEDUP_UNIQUE ? STORE_VERDICT_UNIQUE
	    : v == DEDUP_EXACT ? STORE_VERDICT_EXACT : STORE_VERDICT_NEAR;
}

/* Where a digested page's time went, into the run's stages. */
static void
count_stages(struct crawl *c, const struct page_work *w)
{
	c->stages.pages++;
	c->stages.transfer_ms += w->elapsed_ms;
	c->stages.extract_ms += w->extract_ms;
	c->stages.fingerprint_ms += w->fingerprint_ms;
}

/* Whether a digested page's links are not to be followed: it says so
 * (markup, X-Robots-Tag), or no links are taken at all. */
static int
page_nofollow(const struct crawl *c, const struct page_work *w)
{
	return w->dg.ex.nofollow || c->cfg->max_links == 0 ||
	    says_nofollow(w->x_robots_tag);
}

/* The row of a page the pool digested: transfer and extraction fields. */
static void
work_row(struct crawl *c, const struct job *j, struct store_page *p)
{
	const struct page_work *w = j->work;
	const struct extract_result *ex = &w->dg.ex;

	crawl_new_row(c, j, p);
	p->status = (int)w->status;
	p->content_type = w->content_type;
	p->body_bytes = (int64_t)w->body_len;
	p->elapsed_ms = w->elapsed_ms;
	p->etag = w->etag;
	p->last_modified = w->last_modified;
	/* The server's Link header wins over the page's own <link>: it is
	 * set by whoever runs the site, where markup may be copied along
	 * with the content. */
	p->canonical = w->link_canonical;
	if (!w->extracted)
		return;
	if (p->canonical == NULL)
		p->canonical = ex->canonical;
	p->title = ex->title;
	p->headings = ex->headings;
	p->description = ex->description;
	p->keywords = ex->keywords;
	p->charset = ex->charset;
	p->text_bytes = (int64_t)w->dg.text_len;
	p->links = (int64_t)ex->nlinks;
}

/*
 * The fields of a judged page's row: verdict, fingerprints (minhash is the
 * caller's FPROW_BLOB_MAX bytes), why it was cut or refused as near.
 */
static void
judged_row(struct crawl *c, const struct page_work *w, enum dedup_verdict v,
    const char *veto, struct store_page *p, char *reason, size_t reasonsz,
    unsigned char *minhash)
{
	const struct extract_result *ex = &w->dg.ex;

	p->verdict = stored_verdict(v);
	fprow_put(&w->dg.fp, p, minhash);
	if (w->links_cut) {
		snprintf(reason, reasonsz, "%slinks cut at %ld",
		    ex->truncated ? "text truncated; " : "", c->cfg->max_links);
		p->reason = reason;
	} else if (ex->truncated) {
		p->reason = "text truncated";
	} else if (veto[0] != '\0') {
		p->reason = veto;
	}
	if (c->cfg->store_text)
		p->text = w->dg.text;
}

/*
 * Store what a judged page (row id, verdict v, matches m) leaves behind:
 * its duplicates rows, its link graph, and what the index of a resumed
 * crawl and later confirmations read. 0, or -1 on a database error.
 */
static int
store_judged(struct crawl *c, const struct page_work *w, int64_t id,
    enum dedup_verdict v, const struct dedup_match *m, size_t nm,
    int nofollow)
{
	const struct extract_result *ex = &w->dg.ex;
	size_t i;

	for (i = 0; i < nm; i++)
		if (store_duplicate_add(c->st, id, m[i].original_id,
		        dedup_method_name(m[i].method), m[i].percent) != 0)
			return -1;
	/* The link graph for `nearcrawl rank`: every judged page's links,
	 * followed or not, in the page's own transaction. Not through
	 * frontier_add, whose seen-cache skips most of them. */
	if (!nofollow && store_links_put(c->st, id, ex->links, ex->nlinks) != 0)
		return -1;
	/* `nearcrawl search` finds the page by its title and near text. */
	if (store_search_add(c->st, id, ex->title, w->dg.near,
	        w->dg.near_len) != 0)
		return -1;
	if (v == DEDUP_EXACT)
		return 0;
	/* What dedup_add indexes, kept for a resumed crawl's index. */
	if (fprow_put_apart(c->st, id, &w->dg.fp) != 0)
		return -1;
	/* The shingle set a later near verdict is confirmed against. */
	return keep_shingles(c, &w->dg.sh, id);
}

/* Queue the links of j's page (row id, judged v) as the link rule says. */
static int
follow_links(struct crawl *c, const struct job *j, int64_t id,
    enum dedup_verdict v, int nofollow)
{
	const struct extract_result *ex = &j->work->dg.ex;
	size_t i;
	int follow, hops;

	if (c->offline)
		return 0;
	if (v == DEDUP_UNIQUE && linkrule_credit_linker(c, j) != 0)
		return -1;
	if ((follow = linkrule_followed(c, j, v, &hops)) < 0)
		return -1;
	if (!follow || nofollow)
		return 0;
	c->traps.too_long += (int64_t)ex->links_too_long;
	for (i = 0; i < ex->nlinks; i++)
		if (frontier_add(c, ex->links[i], j->it.depth + 1, id,
		        hops) != 0)
			return -1;
	return 0;
}

static int revisit_record_work(struct crawl *c, struct job *j);
static int revisit_process(struct crawl *c, struct job *j,
    const struct fetch_result *r);

/*
 * Back on the loop: the page's verdict against everything seen before, its
 * pages and duplicates rows, and its links. Returns 0, or -1 on a database
 * or memory failure.
 */
int
page_record_work(struct crawl *c, struct job *j)
{
	struct page_work *w = j->work;
	struct store_page p;
	struct dedup_match m[DEDUP_MAX_MATCHES];
	unsigned char minhash[FPROW_BLOB_MAX];
	enum dedup_verdict v;
	char reason[80], veto[96];
	const char *site;
	size_t nm = 0;
	double t0, t1;
	int64_t id;
	int nofollow;

	if (j->prior != NULL)
		return revisit_record_work(c, j);
	t0 = clock_mono_ms();
	work_row(c, j, &p);
	count_stages(c, w);
	if (!w->extracted || w->dg.text_len == 0) {
		/* Nothing to judge: an error or a page without text. */
		p.verdict = w->extracted ? STORE_VERDICT_SKIPPED
		    : STORE_VERDICT_ERROR;
		p.reason = w->extracted ? "no text in body"
		    : w->why != NULL ? w->why : "cannot parse HTML";
		if ((id = store_page_add(c->st, &p)) <= 0 ||
		    note_new(c, id, &p) != 0)
			return -1;
		count_verdict(c, p.verdict);
		c->stages.store_ms += clock_mono_ms() - t0;
		return 0;
	}
	site = crawl_site_of(c, j->host);
	if (c->share != NULL && share_before_judge(c, &w->dg) != 0)
		return -1;
	if (judge(c, j, site, m, &nm, &v, veto, sizeof(veto)) != 0)
		return -1;
	t1 = clock_mono_ms();
	c->stages.lookup_ms += t1 - t0;
	judged_row(c, w, v, veto, &p, reason, sizeof(reason), minhash);
	nofollow = page_nofollow(c, w);
	if ((id = store_page_add(c->st, &p)) <= 0 ||
	    store_judged(c, w, id, v, m, nm, nofollow) != 0 ||
	    warcout_verdict(c, j, v, m, nm) != 0 || note_new(c, id, &p) != 0)
		return -1;
	t0 = clock_mono_ms();
	if (v != DEDUP_EXACT && digest_add(c->dd, c->site, site, &w->dg, id) != 0)
		return -1;
	c->stages.lookup_ms += clock_mono_ms() - t0;
	note_saturation(c, v == DEDUP_UNIQUE);
	count_verdict(c, p.verdict);
	if (follow_links(c, j, id, v, nofollow) != 0)
		return -1;
	c->stages.store_ms += clock_mono_ms() - t1;
	return 0;
}

/*
 * A 3xx: where it leads (p->location) and whether to queue the target
 * (*follow, with *target the normalised URL to free), or why not in
 * p->reason. A run of redirects ends after REDIRECTS_MAX in a row, and a
 * redirect back to a URL earlier in its own run is a loop: both are
 * errors, as a browser calls them. Returns 0, or -1 on a database error.
 */
static int
judge_redirect(struct crawl *c, struct job *j, const struct fetch_result *r,
    struct store_page *p, char *reason, size_t reasonsz, char **target,
    int *follow)
{
	char host[HOST_MAX];
	const char *why;
	int hops, seen;

	p->verdict = STORE_VERDICT_REDIRECT;
	p->location = r->location;
	if (r->location == NULL) {
		p->reason = "redirect without Location";
		return 0;
	}
	if ((*target = url_normalize(r->location, &why)) != NULL) {
		p->location = *target;
		why = frontier_refusal(c, *target, j->it.depth + 1, host);
	}
	if (why != NULL) {
		snprintf(reason, reasonsz, "target not followed: %s", why);
		p->reason = reason;
		return 0;
	}
	if (store_redirect_chain(c->st, j->it.parent, *target, REDIRECTS_MAX,
	        &hops, &seen) != 0)
		return -1;
	if (seen || strcmp(*target, j->it.url) == 0) {
		p->verdict = STORE_VERDICT_ERROR;
		p->reason = "redirect loop";
	} else if (hops >= REDIRECTS_MAX) {
		p->verdict = STORE_VERDICT_ERROR;
		snprintf(reason, reasonsz, "more than %d redirects in a row",
		    REDIRECTS_MAX);
		p->reason = reason;
	} else {
		*follow = 1;
	}
	return 0;
}

/*
 * A body its server calls HTML that is binary data: more than 1 in 32 of
 * its first 1024 bytes are control bytes text does not hold (NUL, and the
 * others the WHATWG sniffing rules call binary), so a stray one in real
 * text passes. UTF-16 and UTF-32 text is full of NULs: a byte-order mark
 * or such a charset in Content-Type skips the test.
 */
static int
looks_binary(const char *ct, const char *data, size_t len)
{
	const unsigned char *b = (const unsigned char *)data;
	char cs[16];
	size_t i, n, bad = 0;

	if (b == NULL || len == 0)
		return 0;
	extract_charset_of(ct, cs, sizeof(cs));
	if (strncasecmp(cs, "utf-16", 6) == 0 ||
	    strncasecmp(cs, "utf-32", 6) == 0 ||
	    (len >= 2 && ((b[0] == 0xfe && b[1] == 0xff) ||
	        (b[0] == 0xff && b[1] == 0xfe))) ||
	    (len >= 4 && b[0] == 0 && b[1] == 0 && b[2] == 0xfe &&
	        b[3] == 0xff))
		return 0;
	n = len < 1024 ? len : 1024;
	for (i = 0; i < n; i++)
		if (b[i] <= 0x08 || b[i] == 0x0b ||
		    (b[i] >= 0x0e && b[i] <= 0x1a) ||
		    (b[i] >= 0x1c && b[i] <= 0x1f))
			bad++;
	return bad * 32 > n;
}

/*
 * Back on the loop, a recrawled page the pool digested: unchanged when its
 * text MD5 is the one it had; else changed, judged again against
 * everything else (its own earlier version left out), its links followed
 * when it is new content now. 0, or -1 on a database failure.
 */
static int
revisit_record_work(struct crawl *c, struct job *j)
{
	struct page_work *w = j->work;
	struct dedup_match m[DEDUP_MAX_MATCHES];
	enum dedup_verdict v;
	enum store_verdict now;
	char veto[96];
	size_t i, k, nm = 0;
	int nofollow;

	count_stages(c, w);
	if (!w->extracted || w->dg.text_len == 0) {
		now = w->extracted ? STORE_VERDICT_SKIPPED : STORE_VERDICT_ERROR;
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
	if (c->share != NULL && share_before_judge(c, &w->dg) != 0)
		return -1;
	if (judge(c, j, crawl_site_of(c, j->host), m, &nm, &v, veto,
	        sizeof(veto)) != 0)
		return -1;
	/* The index still holds the page as it was: no match with itself. */
	for (i = k = 0; i < nm; i++)
		if (m[i].original_id != j->prior->id)
			m[k++] = m[i];
	if (k == 0)
		v = DEDUP_UNIQUE;
	nm = k;
	now = stored_verdict(v);
	if (note_visit(c, j, STORE_OUTCOME_CHANGED, (int)w->status,
	        w->dg.fp.md5, &now, NULL, NULL) != 0)
		return -1;
	nofollow = page_nofollow(c, w);
	return follow_links(c, j, j->prior->id, v, nofollow);
}

/*
 * A recrawled page that is not HTML now (or did not come): 304 and
 * not-HTML bodies are unchanged or changed, a redirect moved (its target
 * queued as a link), 4xx gone, the rest an error. 0, or -1.
 */
static int
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
		    enqueue_redirect(c, j, target, j->prior->id) != 0)
			goto out;
		rc = note_visit(c, j, STORE_OUTCOME_MOVED, (int)r->status,
		    NULL, NULL, target != NULL ? target : r->location, NULL);
		goto out;
	}
	if (r->status >= 400 && r->status < 500) {
		snprintf(reason, sizeof(reason), "HTTP status %ld", r->status);
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

/*
 * Turn one finished transfer into a pages row (and what follows from it).
 * Returns 0 when done, 1 when an HTML page went to the worker pool (the
 * job is the pool's until page_record_work), -1 on failure.
 */
int
page_process(struct crawl *c, struct job *j, const struct fetch_result *r)
{
	struct store_page p;
	char reason[160], *target = NULL;
	size_t nurls, nmaps;
	int64_t id;
	int rc = -1, follow = 0, html, sm;

	c->fetched++;
	c->status[r->code == CURLE_OK && r->status >= 100 && r->status < 600 ?
	    r->status / 100 : 0]++;
	c->bytes += (int64_t)r->body->len;
	html = r->code == CURLE_OK && r->status >= 200 && r->status < 300 &&
	    extract_is_html(r->content_type, r->body->data, r->body->len);
	if (html && !looks_binary(r->content_type, r->body->data,
	        r->body->len))
		return page_submit(c, j, r, 0) == 0 ? 1 : -1;
	if (j->prior != NULL)
		return revisit_process(c, j, r);
	crawl_new_row(c, j, &p);
	p.status = (int)r->status;
	p.content_type = r->content_type;
	p.body_bytes = (int64_t)r->body->len;
	p.elapsed_ms = r->elapsed_ms;
	p.etag = r->etag;
	p.last_modified = r->last_modified;
	if (r->code != CURLE_OK) {
		p.verdict = STORE_VERDICT_ERROR;
		p.reason = r->error;
	} else if (r->status >= 300 && r->status < 400) {
		if (judge_redirect(c, j, r, &p, reason, sizeof(reason), &target,
		        &follow) != 0)
			goto out;
	} else if (r->status < 200 || r->status >= 300) {
		snprintf(reason, sizeof(reason), "HTTP status %ld",
		    r->status);
		p.verdict = STORE_VERDICT_ERROR;
		p.reason = reason;
	} else if (!html && j->it.depth == 0 &&
	    (sm = polite_seed_sitemap(c, r, &nurls, &nmaps)) != 0) {
		/* A sitemap given as a seed seeds its URLs. */
		if (sm < 0)
			goto out;
		snprintf(reason, sizeof(reason), "sitemap: %zu URLs queued as "
		    "seeds, %zu sitemap files to read", nurls, nmaps);
		p.verdict = STORE_VERDICT_SKIPPED;
		p.reason = reason;
	} else if (!html) {
		snprintf(reason, sizeof(reason), "not HTML: %.100s",
		    r->content_type != NULL ? r->content_type : "unknown type");
		p.verdict = STORE_VERDICT_SKIPPED;
		p.reason = reason;
	} else {
		p.verdict = STORE_VERDICT_ERROR;
		p.reason = "binary body labelled as HTML";
	}
	id = store_page_add(c->st, &p);
	if (id <= 0 || note_new(c, id, &p) != 0)
		goto out;
	/* A redirect links to its target, in scope or not. */
	if (target != NULL && p.verdict == STORE_VERDICT_REDIRECT &&
	    store_links_put(c->st, id, &target, 1) != 0)
		goto out;
	if (follow && enqueue_redirect(c, j, target, id) != 0)
		goto out;
	if (p.verdict == STORE_VERDICT_ERROR)
		crawl_note_failure(c, j->it.url,
		    p.reason != NULL ? p.reason : "error");
	count_verdict(c, p.verdict);
	rc = 0;
out:
	free(target);
	return rc;
}
