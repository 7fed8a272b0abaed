#include "crawler/crawl_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/testhook.h"

static const char WHY_TRAPPED[] = "path looks like a trap";

/*
 * Why url (normalised), found at depth, is not to be queued, or NULL when
 * it is; then host holds its host.
 */
static const char *
refusal(struct crawl *c, const char *url, int depth, char *host)
{
	if (c->cfg->max_depth >= 0 && depth > c->cfg->max_depth)
		return "beyond max depth";
	if (url_host(url, host, HOST_MAX) != 0)
		return "no host";
	if (!url_host_in_domains(host, c->domains, c->ndomains))
		return "host out of scope";
	if (url_path_trapped(url))
		return WHY_TRAPPED;
	return NULL;
}

/*
 * url without the parameters --strip-params names: out (outsz bytes) when
 * something went, else url itself.
 */
const char *
crawl_strip(const struct crawl *c, const char *url, char *out, size_t outsz)
{
	if (c->strip == NULL ||
	    url_strip_params(url, c->strip, out, outsz) != 1)
		return url;
	return out;
}

/*
 * Whether url would be one query too many for its path (--max-query-variants).
 * Known URLs are not: queueing them again does nothing. Returns 1, 0, or -1
 * on a database error.
 */
static int
over_query_cap(struct crawl *c, const char *url)
{
	long cap = c->cfg->max_query_variants;
	int64_t n;
	int known;

	if (cap <= 0 || strchr(url, '?') == NULL)
		return 0;
	if ((n = store_frontier_variants(c->st, url, cap)) < 0)
		return -1;
	if (n < cap)
		return 0;
	if ((known = store_frontier_known(c->st, url)) < 0)
		return -1;
	return !known;
}

/* Queue url (normalised, already stripped) unless it is out of scope, too
 * deep or caught by a trap defence; dup_hops as in store_item. */
static int
enqueue_as_is(struct crawl *c, const char *url, int depth, int64_t parent,
    int dup_hops)
{
	char host[HOST_MAX];
	const char *why;
	uint64_t h;
	int r;

	if (c->cfg->max_depth >= 0 && depth > c->cfg->max_depth)
		return 0;
	/* Whether a URL is in scope and whether it is queued never change
	 * once settled: a page's template links are settled by the first. */
	h = seen_hash(url, strlen(url));
	if (seen_has(c->settled, h))
		return 0;
	if ((why = refusal(c, url, depth, host)) != NULL) {
		if (why == WHY_TRAPPED)
			c->traps.trapped++;
		seen_add(c->settled, h);
		return 0;
	}
	if ((r = over_query_cap(c, url)) != 0) {
		if (r < 0)
			return -1;
		/* A path over the cap stays over it: settled too. */
		c->traps.capped++;
		seen_add(c->settled, h);
		return 0;
	}
	r = store_frontier_add(c->st, url, host, depth, parent, dup_hops);
	if (r < 0)
		return -1;
	/* Queued behind duplicates, a URL may yet be offered by a page
	 * fewer duplicates behind, which lowers its count: not settled. */
	if (dup_hops == 0)
		seen_add(c->settled, h);
	if (r == 1) {
		c->n.queued++;
		if (hostsched_add(c->sc, host, 1, 0) != 0)
			return -1;
	}
	return 0;
}

/* Queue url (normalised) found on a page at depth; parent is that page,
 * and dup_hops what the link rule gives its links (0 for seeds). */
int
crawl_enqueue(struct crawl *c, const char *url, int depth, int64_t parent,
    int dup_hops)
{
	char buf[URL_MAX_LEN + 1];
	const char *u = crawl_strip(c, url, buf, sizeof(buf));

	if (u != url)
		c->traps.stripped++;
	return enqueue_as_is(c, u, depth, parent, dup_hops);
}

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
	const char *u = crawl_strip(c, target, buf, sizeof(buf));

	if (u != target && strcmp(u, j->it.url) == 0)
		u = target;
	else if (u != target)
		c->traps.stripped++;
	/* A redirect is no page of its own: its target stands where it
	 * stood in a run of duplicates. */
	return enqueue_as_is(c, u, j->it.depth + 1, id, j->it.dup_hops);
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

/* A pages row for j's URL, numbered next in fetch order. */
static void
new_row(struct crawl *c, const struct job *j, struct store_page *p)
{
	memset(p, 0, sizeof(*p));
	p->url = j->it.url;
	p->host = j->host;
	p->depth = j->it.depth;
	p->parent = j->it.parent;
	p->seq = ++c->seq;
	p->fetched_at = crawl_wall_s();
}

void
crawl_job_free(struct job *j)
{
	struct page_work *w;

	if (j == NULL)
		return;
	if ((w = j->work) != NULL) {
		buf_free(&w->body);
		free(w->content_type);
		free(w->x_robots_tag);
		digest_free(&w->dg);
		free(w);
	}
	store_item_clear(&j->it);
	free(j);
}

/*
 * On a worker thread: extract the page and fingerprint its text. Reads the
 * configuration and the dedup settings, which nothing changes during the
 * crawl; writes only the job's page_work.
 */
void
crawl_page_work(void *arg)
{
	struct job *j = arg;
	struct page_work *w = j->work;
	const struct config *cfg = j->c->cfg;
	struct digest_opts o;
	char charset[64];
	double t0;

	t0 = crawl_mono_ms();
	extract_charset_of(w->content_type, charset, sizeof(charset));
	o.charset = charset[0] != '\0' ? charset : NULL;
	o.max_text = (size_t)cfg->max_text;
	/* One more than the cap tells a page at the cap from one over it. */
	o.max_links = (size_t)cfg->max_links + (cfg->max_links > 0);
	o.use_main = strcmp(cfg->near_text, "main") == 0;
	testhook_page_begin(j->it.url);
	w->extracted = digest_page(j->c->dd, &o, w->body.data, w->body.len, 1,
	    j->it.url, &w->dg, &w->why) == 0;
	testhook_page_end();
	if (w->extracted && cfg->max_links > 0 &&
	    w->dg.ex.nlinks > (size_t)cfg->max_links) {
		free(w->dg.ex.links[--w->dg.ex.nlinks]);
		w->links_cut = 1;
	}
	/* The body is not needed any more: give its memory back now. */
	buf_free(&w->body);
	w->extract_ms = w->dg.extract_ms;
	w->fingerprint_ms = crawl_mono_ms() - t0 - w->dg.extract_ms;
}

/* Hand a fetched HTML page to the pool; 0, or -1 when out of memory. */
static int
submit_page(struct crawl *c, struct job *j, const struct fetch_result *r)
{
	struct page_work *w = calloc(1, sizeof(*w));

	if (w == NULL)
		return -1;
	if ((r->content_type != NULL &&
	    (w->content_type = strdup(r->content_type)) == NULL) ||
	    (r->x_robots_tag != NULL &&
	    (w->x_robots_tag = strdup(r->x_robots_tag)) == NULL)) {
		free(w->content_type);
		free(w);
		return -1;
	}
	/* Take the body over; the fetcher frees only what is left. */
	w->body = *r->body;
	buf_init(r->body, 0);
	w->body_len = w->body.len;
	w->status = r->status;
	w->elapsed_ms = r->elapsed_ms;
	j->work = w;
	if (workpool_submit(c->pool, crawl_page_work, j) != 0) {
		*r->body = w->body;
		j->work = NULL;
		free(w->content_type);
		free(w->x_robots_tag);
		free(w);
		return -1;
	}
	return 0;
}

/*
 * The site whose template a page of host shares: the longest domain of the
 * crawl's scope that holds it (--allow-domain uni.example: every server of
 * the university, which one CMS usually dresses alike), else the host.
 */
const char *
crawl_site_of(const struct crawl *c, const char *host)
{
	const char *best = host, *d;
	size_t i, bl = 0;

	for (i = 0; i < c->ndomains; i++) {
		d = c->domains[i][0] == '.' ? c->domains[i] + 1 : c->domains[i];
		if (strlen(d) > bl &&
		    url_host_in_domains(host, &c->domains[i], 1)) {
			best = d;
			bl = strlen(d);
		}
	}
	return best;
}

/* dedup_set_fn over the crawl's database. */
static int
stored_set(void *ctx, int64_t id, uint32_t **set, size_t *n)
{
	struct crawl *c = ctx;
	void *blob;
	size_t len;

	*set = NULL;
	*n = 0;
	if (store_shingles_get(c->st, id, &blob, &len) != 0)
		return -1;
	/* A malformed set confirms nothing, as a missing one. */
	if (blob != NULL && shingles_decode(blob, len, set, n) != 0)
		*n = 0;
	free(blob);
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

	*v = digest_judge(c->dd, c->site, site, &w->dg, stored_set, c, m,
	    DEDUP_MAX_MATCHES, nm, &why, &err);
	if (err)
		return -1;
	veto[0] = '\0';
	if (*v == DEDUP_UNIQUE && why.floor)
		snprintf(veto, vetosz, "too little text to judge near (%zu "
		    "shingles)", w->dg.sh.distinct);
	else if (*v == DEDUP_UNIQUE && why.original_id > 0)
		snprintf(veto, vetosz, "not near page %lld: %zu words it "
		    "lacks", (long long)why.original_id, why.novel);
	return 0;
}

/*
 * The link rule (docs/dedup.md, "Links of duplicates"). A page is new
 * content when it is unique, or when it is a duplicate one of whose links
 * led to a unique page (store_fruitful_add): the verdict hid something
 * new. A near copy's links are followed while fewer than --dup-hops
 * duplicates that are not new content stand in a row between it and the
 * nearest new content (or seed) that led to it, so a false near verdict
 * cannot cut off what lies behind it, and a run of duplicates that yields
 * nothing new ends after --dup-hops pages. An exact copy's links are not
 * followed: its text, anchor text included, is the original's, so its
 * links are the original's spelt otherwise (session ids, mirrors).
 */

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
links_followed(struct crawl *c, const struct job *j, enum dedup_verdict v,
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
credit_linker(struct crawl *c, const struct job *j)
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

/*
 * Back on the loop: the page's verdict against everything seen before, its
 * pages and duplicates rows, and its links. Returns 0, or -1 on a database
 * or memory failure.
 */
int
crawl_record_work(struct crawl *c, struct job *j)
{
	const struct config *cfg = c->cfg;
	struct page_work *w = j->work;
	struct extract_result *ex = &w->dg.ex;
	struct store_page p;
	struct dedup_match m[DEDUP_MAX_MATCHES];
	unsigned char minhash[MINHASH_BLOB_MAX];
	enum dedup_verdict v;
	unsigned char vec[TDW_PACKED_MAX];
	char reason[80], veto[96];
	const char *site;
	size_t nm = 0, i;
	double t0, t1;
	int64_t id;
	int nofollow, follow, hops;

	t0 = crawl_mono_ms();
	new_row(c, j, &p);
	p.status = (int)w->status;
	p.content_type = w->content_type;
	p.body_bytes = (int64_t)w->body_len;
	p.elapsed_ms = w->elapsed_ms;
	c->stages.pages++;
	c->stages.transfer_ms += w->elapsed_ms;
	c->stages.extract_ms += w->extract_ms;
	c->stages.fingerprint_ms += w->fingerprint_ms;
	if (!w->extracted) {
		p.verdict = "error";
		p.reason = w->why != NULL ? w->why : "cannot parse HTML";
		goto store_plain;
	}
	p.title = ex->title;
	p.headings = ex->headings;
	p.description = ex->description;
	p.keywords = ex->keywords;
	p.charset = ex->charset;
	p.text_bytes = (int64_t)ex->text_len;
	p.links = (int64_t)ex->nlinks;
	if (ex->text_len == 0) {
		p.verdict = "skipped";
		p.reason = "no text in body";
		goto store_plain;
	}
	site = crawl_site_of(c, j->host);
	if (judge(c, j, site, m, &nm, &v, veto, sizeof(veto)) != 0)
		return -1;
	t1 = crawl_mono_ms();
	c->stages.lookup_ms += t1 - t0;
	p.verdict = dedup_verdict_name(v);
	p.md5 = w->dg.fp.md5;
	p.has_simhash = (w->dg.fp.have & DEDUP_SIMHASH) != 0;
	p.simhash = w->dg.fp.simhash;
	p.ssdeep = (w->dg.fp.have & DEDUP_SSDEEP) ? w->dg.fp.ssdeep : NULL;
	if (w->links_cut) {
		snprintf(reason, sizeof(reason), "%slinks cut at %ld",
		    ex->truncated ? "text truncated; " : "", cfg->max_links);
		p.reason = reason;
	} else if (ex->truncated) {
		p.reason = "text truncated";
	} else if (veto[0] != '\0') {
		p.reason = veto;
	}
	if (w->dg.fp.have & DEDUP_MINHASH) {
		p.minhash_len = minhash_encode(w->dg.fp.minhash,
		    (size_t)w->dg.fp.minhash_perms, minhash);
		p.minhash = minhash;
	}
	if (cfg->store_text)
		p.text = ex->text;
	if ((id = store_page_add(c->st, &p)) <= 0)
		return -1;
	for (i = 0; i < nm; i++)
		if (store_duplicate_add(c->st, id, m[i].original_id,
		        dedup_method_name(m[i].method), m[i].percent) != 0)
			return -1;
	/* The link graph for `nearcrawl rank`: every judged page's links,
	 * followed or not, in the page's own transaction. Not through
	 * crawl_enqueue, whose seen-cache skips most of them. */
	nofollow = ex->nofollow || cfg->max_links == 0 ||
	    says_nofollow(w->x_robots_tag);
	if (!nofollow && store_links_put(c->st, id, ex->links, ex->nlinks) != 0)
		return -1;
	/* What dedup_add indexes, kept for a resumed crawl's index. */
	if (v != DEDUP_EXACT && (w->dg.fp.have & DEDUP_TDW) &&
	    w->dg.fp.tdw.n > 0 &&
	    store_tdw_add(c->st, id, vec, tdw_pack(&w->dg.fp.tdw, vec)) != 0)
		return -1;
	/* The shingle set a later near verdict is confirmed against. */
	if (v != DEDUP_EXACT && keep_shingles(c, &w->dg.sh, id) != 0)
		return -1;
	t0 = crawl_mono_ms();
	if (v != DEDUP_EXACT && digest_add(c->dd, c->site, site, &w->dg, id) != 0)
		return -1;
	c->stages.lookup_ms += crawl_mono_ms() - t0;
	note_saturation(c, v == DEDUP_UNIQUE);
	if (v == DEDUP_UNIQUE)
		c->n.unique++;
	else if (v == DEDUP_EXACT)
		c->n.exact++;
	else
		c->n.near++;
	if (v == DEDUP_UNIQUE && credit_linker(c, j) != 0)
		return -1;
	if ((follow = links_followed(c, j, v, &hops)) < 0)
		return -1;
	if (follow && !nofollow) {
		c->traps.too_long += (int64_t)ex->links_too_long;
		for (i = 0; i < ex->nlinks; i++)
			if (crawl_enqueue(c, ex->links[i], j->it.depth + 1,
			        id, hops) != 0)
				return -1;
	}
	c->n.pages++;
	c->stages.store_ms += crawl_mono_ms() - t1;
	return 0;
store_plain:
	if (store_page_add(c->st, &p) <= 0)
		return -1;
	if (strcmp(p.verdict, "error") == 0)
		c->n.error++;
	else
		c->n.skipped++;
	c->n.pages++;
	c->stages.store_ms += crawl_mono_ms() - t0;
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

	p->verdict = "redirect";
	p->location = r->location;
	if (r->location == NULL) {
		p->reason = "redirect without Location";
		return 0;
	}
	if ((*target = url_normalize(r->location, &why)) != NULL) {
		p->location = *target;
		why = refusal(c, *target, j->it.depth + 1, host);
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
		p->verdict = "error";
		p->reason = "redirect loop";
	} else if (hops >= REDIRECTS_MAX) {
		p->verdict = "error";
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
 * Turn one finished transfer into a pages row (and what follows from it).
 * Returns 0 when done, 1 when an HTML page went to the worker pool (the
 * job is the pool's until crawl_record_work), -1 on failure.
 */
int
crawl_process(struct crawl *c, struct job *j, const struct fetch_result *r)
{
	struct store_page p;
	char reason[160], *target = NULL;
	int64_t id;
	int rc = -1, follow = 0, html;

	c->fetched++;
	html = r->code == CURLE_OK && r->status >= 200 && r->status < 300 &&
	    extract_is_html(r->content_type, r->body->data, r->body->len);
	if (html && !looks_binary(r->content_type, r->body->data,
	        r->body->len))
		return submit_page(c, j, r) == 0 ? 1 : -1;
	new_row(c, j, &p);
	p.status = (int)r->status;
	p.content_type = r->content_type;
	p.body_bytes = (int64_t)r->body->len;
	p.elapsed_ms = r->elapsed_ms;
	if (r->code != CURLE_OK) {
		p.verdict = "error";
		p.reason = r->error;
	} else if (r->status >= 300 && r->status < 400) {
		if (judge_redirect(c, j, r, &p, reason, sizeof(reason), &target,
		        &follow) != 0)
			goto out;
	} else if (r->status < 200 || r->status >= 300) {
		snprintf(reason, sizeof(reason), "HTTP status %ld",
		    r->status);
		p.verdict = "error";
		p.reason = reason;
	} else if (!html) {
		snprintf(reason, sizeof(reason), "not HTML: %.100s",
		    r->content_type != NULL ? r->content_type : "unknown type");
		p.verdict = "skipped";
		p.reason = reason;
	} else {
		p.verdict = "error";
		p.reason = "binary body labelled as HTML";
	}
	id = store_page_add(c->st, &p);
	if (id <= 0)
		goto out;
	/* A redirect links to its target, in scope or not. */
	if (target != NULL && strcmp(p.verdict, "redirect") == 0 &&
	    store_links_put(c->st, id, &target, 1) != 0)
		goto out;
	if (follow && enqueue_redirect(c, j, target, id) != 0)
		goto out;
	if (strcmp(p.verdict, "redirect") == 0)
		c->n.redirect++;
	else if (strcmp(p.verdict, "error") == 0)
		c->n.error++;
	else
		c->n.skipped++;
	c->n.pages++;
	rc = 0;
out:
	free(target);
	return rc;
}

/* Settle a queued URL without asking the server (robots.txt forbids it). */
int
crawl_record_unfetched(struct crawl *c, struct job *j, const char *reason)
{
	struct store_page p;

	new_row(c, j, &p);
	p.verdict = "skipped";
	p.reason = reason;
	if (store_page_add(c->st, &p) <= 0 ||
	    store_frontier_done(c->st, j->it.id) != 0)
		return -1;
	c->n.pages++;
	c->n.skipped++;
	hostsched_skipped(c->sc, j->host);
	crawl_count_page(c, j->host);
	if (++c->batch >= c->cfg->batch)
		crawl_commit(c);
	return 0;
}

void
crawl_count_page(struct crawl *c, const char *host)
{
	int64_t n = hostsched_add_pages(c->sc, host, 1);

	if (c->cfg->max_pages_per_host > 0 && n >= c->cfg->max_pages_per_host)
		hostsched_retire(c->sc, host);
}
