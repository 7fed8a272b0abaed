#include "crawl_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "testhook.h"

/* Queue url (normalised) found on a page at depth; parent is that page. */
int
crawl_enqueue(struct crawl *c, const char *url, int depth, int64_t parent)
{
	char host[HOST_MAX];
	int r;

	if (c->cfg->max_depth >= 0 && depth > c->cfg->max_depth)
		return 0;
	if (url_host(url, host, sizeof(host)) != 0 ||
	    !url_host_in_domains(host, c->domains, c->ndomains) ||
	    url_path_trapped(url))
		return 0;
	r = store_frontier_add(c->st, url, host, depth, parent);
	if (r < 0)
		return -1;
	if (r == 1) {
		c->n.queued++;
		if (hostsched_add(c->sc, host, 1, 0) != 0)
			return -1;
	}
	return 0;
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

/* Store an HTML page's text, fingerprints, verdict and links. */
static int
process_html(struct crawl *c, struct job *j, const struct fetch_result *r,
    struct store_page *p)
{
	const struct config *cfg = c->cfg;
	struct extract_opts eo;
	struct extract_result ex;
	struct dedup_fp fp;
	struct dedup_match m[3 * DEDUP_MAX_PER_METHOD];
	enum dedup_verdict v;
	char charset[64];
	const char *why = NULL;
	size_t nm = 0, i;
	int64_t id;
	int rc = -1, use_main, xrc;

	memset(&ex, 0, sizeof(ex));
	extract_charset_of(r->content_type, charset, sizeof(charset));
	eo.charset = charset[0] != '\0' ? charset : NULL;
	eo.max_text = (size_t)cfg->max_text;
	eo.max_links = (size_t)cfg->max_links;
	testhook_page_begin(j->it.url);
	xrc = extract_html(
	    r->body->data, r->body->len, j->it.url, &eo, &ex, &why);
	testhook_page_end();
	if (xrc != 0) {
		p->verdict = "error";
		p->reason = why != NULL ? why : "cannot parse HTML";
		return store_page_add(c->st, p) > 0 ? 0 : -1;
	}
	p->title = ex.title;
	p->headings = ex.headings;
	p->description = ex.description;
	p->keywords = ex.keywords;
	p->charset = ex.charset;
	p->text_bytes = (int64_t)ex.text_len;
	p->links = (int64_t)ex.nlinks;
	if (ex.text_len == 0) {
		p->verdict = "skipped";
		p->reason = "no text in body";
		rc = store_page_add(c->st, p) > 0 ? 0 : -1;
		goto out;
	}
	use_main = strcmp(cfg->near_text, "main") == 0;
	if (dedup_fingerprint_split(c->dd, ex.text, ex.text_len,
	        use_main ? ex.main_text : ex.text,
	        use_main ? ex.main_len : ex.text_len, &fp) != 0) {
		p->verdict = "error";
		p->reason = "fingerprinting failed";
		rc = store_page_add(c->st, p) > 0 ? 0 : -1;
		goto out;
	}
	v = dedup_check(c->dd, &fp, m, sizeof(m) / sizeof(m[0]), &nm);
	p->verdict = dedup_verdict_name(v);
	p->md5 = fp.md5;
	p->has_simhash = (fp.have & DEDUP_SIMHASH) != 0;
	p->simhash = fp.simhash;
	p->ssdeep = (fp.have & DEDUP_SSDEEP) ? fp.ssdeep : NULL;
	if (ex.truncated)
		p->reason = "text truncated";
	if (cfg->store_text)
		p->text = ex.text;
	if ((id = store_page_add(c->st, p)) <= 0)
		goto out;
	for (i = 0; i < nm; i++)
		if (store_duplicate_add(c->st, id, m[i].original_id,
		        dedup_method_name(m[i].method), m[i].percent) != 0)
			goto out;
	if (v != DEDUP_EXACT && dedup_add(c->dd, &fp, id) != 0)
		goto out;
	note_saturation(c, v == DEDUP_UNIQUE);
	if (v == DEDUP_UNIQUE)
		c->n.unique++;
	else if (v == DEDUP_EXACT)
		c->n.exact++;
	else
		c->n.near++;
	if ((v == DEDUP_UNIQUE || cfg->follow_duplicates) && !ex.nofollow &&
	    cfg->max_links > 0 && !says_nofollow(r->x_robots_tag))
		for (i = 0; i < ex.nlinks; i++)
			if (crawl_enqueue(c, ex.links[i], j->it.depth + 1, id) != 0)
				goto out;
	rc = 0;
out:
	extract_result_free(&ex);
	return rc;
}

/* Turn one finished transfer into a pages row (and what follows from it). */
int
crawl_process(struct crawl *c, struct job *j, const struct fetch_result *r)
{
	struct store_page p;
	char reason[160], *target = NULL;
	const char *why;
	int64_t id;
	int rc = -1;

	new_row(c, j, &p);
	p.status = (int)r->status;
	p.content_type = r->content_type;
	p.body_bytes = (int64_t)r->body->len;
	p.elapsed_ms = r->elapsed_ms;
	c->fetched++;
	if (r->code != CURLE_OK) {
		if (r->body_too_large)
			snprintf(reason, sizeof(reason),
			    "body larger than %ld bytes", c->cfg->max_body);
		else
			snprintf(reason, sizeof(reason), "transfer failed: %s",
			    r->error);
		p.verdict = "error";
		p.reason = reason;
	} else if (r->status >= 300 && r->status < 400) {
		target = r->location != NULL
		    ? url_normalize(r->location, &why) : NULL;
		p.verdict = "redirect";
		if (target == NULL) {
			p.reason = r->location == NULL
			    ? "redirect without Location" : why;
		}
		p.location = target != NULL ? target : r->location;
	} else if (r->status < 200 || r->status >= 300) {
		snprintf(reason, sizeof(reason), "HTTP status %ld",
		    r->status);
		p.verdict = "error";
		p.reason = reason;
	} else if (!extract_is_html(r->content_type, r->body->data, r->body->len)) {
		snprintf(reason, sizeof(reason), "not HTML: %.100s",
		    r->content_type != NULL ? r->content_type : "unknown type");
		p.verdict = "skipped";
		p.reason = reason;
	} else {
		rc = process_html(c, j, r, &p);
		goto done;
	}
	id = store_page_add(c->st, &p);
	if (id <= 0)
		goto out;
	if (target != NULL && crawl_enqueue(c, target, j->it.depth + 1, id) != 0)
		goto out;
	rc = 0;
done:
	if (rc == 0) {
		if (strcmp(p.verdict, "redirect") == 0)
			c->n.redirect++;
		else if (strcmp(p.verdict, "error") == 0)
			c->n.error++;
		else if (strcmp(p.verdict, "skipped") == 0)
			c->n.skipped++;
		c->n.pages++;
	}
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
