#include "crawler/page.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "crawler/earlier.h"
#include "crawler/fprow.h"
#include "crawler/frontier.h"
#include "crawler/judge.h"
#include "crawler/linkrule.h"
#include "crawler/polite.h"
#include "crawler/revisit.h"
#include "crawler/warcout.h"
#include "storage/store_pages.h"
#include "storage/store_resume.h"
#include "storage/store_search.h"
#include "util/testhook.h"
#include "web/linkhdr.h"


int
page_open(struct crawl *c)
{
	if (config_saturation(c->cfg->stop_when_saturated, &c->sat.window,
	        &c->sat.share) != 0) {
		snprintf(c->err, c->errsz, "bad --stop-when-saturated");
		return 2;
	}
	if (c->sat.window > 0 &&
	    (c->sat.ring = calloc((size_t)c->sat.window, 1)) == NULL) {
		snprintf(c->err, c->errsz, "out of memory");
		return 1;
	}
	return 0;
}

void
page_close(struct crawl *c)
{
	free(c->sat.ring);
	c->sat.ring = NULL;
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

	if (c->sat.window == 0)
		return;
	at = (size_t)(c->sat.seen % c->sat.window);
	if (c->sat.seen >= c->sat.window)
		c->sat.unique -= c->sat.ring[at];
	c->sat.ring[at] = (unsigned char)unique;
	c->sat.unique += unique;
	c->sat.seen++;
	if (c->sat.seen >= c->sat.window && !c->end.stopping &&
	    (double)c->sat.unique < c->sat.share * (double)c->sat.window) {
		c->sat.saturated = 1;
		crawl_stop(c, 0);
		crawl_end_progress(c);
		if (!c->cfg->quiet)
			fprintf(stderr, "nearcrawl: saturated: %ld of the last "
			    "%ld pages were unique; stopping\n", c->sat.unique,
			    c->sat.window);
	}
}

static int
says_nofollow(const char *x_robots_tag)
{
	return x_robots_tag != NULL &&
	    (strcasestr(x_robots_tag, "nofollow") != NULL ||
	        strcasestr(x_robots_tag, "none") != NULL);
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
	w->nofollow = w->extracted && (w->dg.ex.nofollow ||
	    cfg->max_links == 0 || says_nofollow(w->x_robots_tag));
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
	if (workpool_submit(c->loop.pool, page_work, j) != 0) {
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

/* In a recrawl, a page new to the crawl is one the visit found new. */
static int
note_new(struct crawl *c, int64_t id, const struct store_page *p)
{
	return c->recrawl.visit > 1 ? revisit_note_new(c, id, p) : 0;
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

	p->verdict = judge_stored_verdict(v);
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
	if (strcmp(c->cfg->search_index, "yes") == 0 &&
	    store_search_add(c->st, id, ex->title, w->dg.near,
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

/* The row's reason with the job's note after it (a page read from an
 * archive: how its body was read), in buf when both are there. */
static const char *
with_note(const struct job *j, const char *reason, char *buf, size_t bufsz)
{
	if (j->note == NULL)
		return reason;
	if (reason == NULL)
		return j->note;
	snprintf(buf, bufsz, "%s; %s", reason, j->note);
	return buf;
}

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
	struct earlier_rel before;
	unsigned char minhash[FPROW_BLOB_MAX];
	enum dedup_verdict v;
	char reason[80], veto[96], noted[256];
	const char *site;
	size_t nm = 0;
	double t0, t1, t2, lookup_ms;
	int64_t id;
	int nofollow;

	t0 = clock_mono_ms();
	work_row(c, j, &p);
	if (!w->extracted || w->dg.text_len == 0) {
		/* Nothing to judge: an error or a page without text. */
		p.verdict = w->extracted ? STORE_VERDICT_SKIPPED
		    : STORE_VERDICT_ERROR;
		p.reason = w->extracted ? "no text in body"
		    : w->why != NULL ? w->why : "cannot parse HTML";
		p.reason = with_note(j, p.reason, noted, sizeof(noted));
		if ((id = store_page_add(c->st, &p)) <= 0 ||
		    note_new(c, id, &p) != 0)
			return -1;
		crawl_count_verdict(c, p.verdict);
		crawl_count_stages(c, w, 0, clock_mono_ms() - t0);
		return 0;
	}
	site = crawl_site_of(c, j->host);
	/* Against the earlier crawls first: judge_page may trim the page's
	 * shingle set to its own words. */
	if (earlier_judge(c, j, &before) != 0)
		return -1;
	if (judge_page(c, j, site, m, &nm, &v, veto, sizeof(veto)) != 0) {
		earlier_rel_free(&before);
		return -1;
	}
	t1 = clock_mono_ms();
	lookup_ms = t1 - t0;
	judged_row(c, w, v, veto, &p, reason, sizeof(reason), minhash);
	p.reason = with_note(j, p.reason, noted, sizeof(noted));
	nofollow = w->nofollow;
	if ((id = store_page_add(c->st, &p)) <= 0) {
		earlier_rel_free(&before);
		return -1;
	}
	if (earlier_record(c, id, &before) != 0 ||
	    store_judged(c, w, id, v, m, nm, nofollow) != 0 ||
	    (c->warc != NULL && warcout_verdict(c, j, v, m, nm) != 0) ||
	    note_new(c, id, &p) != 0)
		return -1;
	t2 = clock_mono_ms();
	if (v != DEDUP_EXACT && digest_add(c->dd, c->site, site, &w->dg, id) != 0)
		return -1;
	lookup_ms += clock_mono_ms() - t2;
	note_saturation(c, v == DEDUP_UNIQUE);
	crawl_count_verdict(c, p.verdict);
	/* Archived pages queue nothing: they are not fetched. */
	if (c->mode == CRAWL_FETCH && linkrule_follow(c, j, id, v) != 0)
		return -1;
	crawl_count_stages(c, w, lookup_ms, clock_mono_ms() - t1);
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

/* Whether r brought a page its server calls HTML (2xx). */
static int
is_html(const struct fetch_result *r)
{
	return r->code == CURLE_OK && r->status >= 200 && r->status < 300 &&
	    extract_is_html(r->content_type, r->body->data, r->body->len);
}

int
page_intake(struct crawl *c, struct job *j, const struct fetch_result *r)
{
	c->tally.fetched++;
	c->tally.status[r->code == CURLE_OK && r->status >= 100 &&
	    r->status < 600 ? r->status / 100 : 0]++;
	c->tally.bytes += (int64_t)r->body->len;
	if (is_html(r) && !looks_binary(r->content_type, r->body->data,
	        r->body->len))
		return page_submit(c, j, r, 0) == 0 ? 1 : -1;
	return 0;
}

int
page_process(struct crawl *c, struct job *j, const struct fetch_result *r)
{
	struct store_page p;
	char reason[160], *target = NULL;
	size_t nurls, nmaps;
	int64_t id;
	int rc = -1, follow = 0, html = is_html(r), sm;

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
	if (follow && frontier_add_redirect(c, j, target, id) != 0)
		goto out;
	if (p.verdict == STORE_VERDICT_ERROR)
		crawl_note_failure(c, j->it.url,
		    p.reason != NULL ? p.reason : "error");
	crawl_count_verdict(c, p.verdict);
	rc = 0;
out:
	free(target);
	return rc;
}
