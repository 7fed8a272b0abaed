/*
 * serve_view: one page of the crawl (cmd/serve_view.h).
 *
 * Everything the database says is read in one snapshot (the row, its
 * duplicates, its links, the stored texts and shingle sets, the site's
 * template); the snapshot is closed before the slow part -- reading the
 * archive, fetching, digesting -- so a crawl's writes and checkpoints
 * never wait on a page view.
 */
#include "cmd/serve_view.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/serve_text.h"
#include "storage/store_frontier.h"
#include "storage/store_search.h"

/* Links listed at most. */
#define VIEW_LINKS 200
/* Earlier pages of the site the template is learnt from at most. */
#define TEMPLATE_PAGES 300

/* A callback out of memory: a positive value stops the rows and comes
 * back from the row function, apart from its -1 (the database). */
#define VIEW_OOM 2

/* The page view being built. */
struct pv {
	struct sv_req *r;
	int found;             /* the page exists */
	int64_t seq;           /* its seq */
	enum store_verdict verdict;
	char *host;            /* owned */
	char *reason;          /* owned, or NULL */
	int has_text;          /* it has a stored text */
	struct svt_doc p;      /* the page */
	struct svt_doc a;      /* its original, when a.url */
	int a_has_text;        /* the original has a stored text */
	char a_why[160];       /* how the original was chosen */
	void *a_blob;          /* its stored shingle set, owned */
	size_t a_len;
	struct tmpl *t;        /* the site's template before the page */
	const char *site;      /* its site (in cfg or host) */
	int64_t learnt;        /* pages t was learnt from */
	char *dirs[SVT_DIRS];  /* folders of the WARC files `nearcrawl
	                          dedup` read into the database, owned */
	size_t ndirs;
	int64_t links;         /* links listed */
	int64_t copies;        /* pages that repeat this one */
};

static void
dd(struct sv_req *r, const char *label, const char *value)
{
	if (value == NULL || *value == '\0')
		return;
	sv_printf(r, "<dt>%s</dt><dd class=\"u\">", label);
	sv_h(r, value);
	sv_puts(r, "</dd>\n");
}

static void
dd_num(struct sv_req *r, const char *label, int64_t v)
{
	char a[40];

	sv_printf(r, "<dt>%s</dt><dd>%s</dd>\n", label, sv_num(v, a,
	    sizeof(a)));
}

static int
page_meta(const struct store_view_page *p, void *arg)
{
	struct pv *v = arg;
	struct sv_req *r = v->r;
	char t[40], hex[24];

	v->found = 1;
	v->seq = p->seq;
	v->verdict = p->verdict;
	v->has_text = p->has_text;
	if ((v->host = strdup(p->host)) == NULL ||
	    (p->reason != NULL && (v->reason = strdup(p->reason)) == NULL) ||
	    svt_doc_init(&v->p, p->id, p->url, p->title, p->fetched_at) != 0)
		return VIEW_OOM;
	sv_puts(r, "<h1 id=\"title\">");
	sv_h(r, p->title != NULL && *p->title != '\0' ? p->title : p->url);
	sv_puts(r, "</h1>\n<dl id=\"meta\">\n<dt>URL</dt><dd class=\"u\">");
	sv_url(r, p->url);
	sv_puts(r, "</dd>\n<dt>verdict</dt><dd>");
	sv_verdict(r, p->verdict);
	if (p->reason != NULL) {
		sv_puts(r, " ");
		sv_h(r, p->reason);
	}
	sv_puts(r, "</dd>\n<dt>host</dt><dd><a href=\"/host?name=");
	sv_qv(r, p->host);
	sv_puts(r, "\">");
	sv_h(r, p->host);
	sv_printf(r, "</a></dd>\n<dt>fetched</dt><dd>%s UTC, page %lld of the "
	    "crawl, depth %d, in %.0f ms</dd>\n<dt>status</dt><dd>%d</dd>\n",
	    sv_time(p->fetched_at, t, sizeof(t)), (long long)p->seq, p->depth,
	    p->elapsed_ms, p->status);
	dd(r, "content type", p->content_type);
	dd(r, "charset", p->charset);
	dd_num(r, "body bytes", p->body_bytes);
	dd_num(r, "text bytes", p->text_bytes);
	dd_num(r, "links found", p->links);
	if (p->parent_id > 0)
		sv_printf(r, "<dt>linked from</dt><dd><a href=\"/page/%lld\">"
		    "page %lld</a></dd>\n", (long long)p->parent_id,
		    (long long)p->parent_id);
	if (p->location != NULL) {
		sv_puts(r, "<dt>redirects to</dt><dd class=\"u\">");
		sv_url(r, p->location);
		sv_puts(r, "</dd>\n");
	}
	dd(r, "description", p->description);
	dd(r, "keywords", p->keywords);
	dd(r, "headings", p->headings);
	dd(r, "MD5", p->md5);
	if (p->has_simhash) {
		snprintf(hex, sizeof(hex), "%016" PRIx64, p->simhash);
		dd(r, "SimHash", hex);
	}
	dd(r, "ssdeep", p->ssdeep);
	if (p->declared != NULL) {
		sv_puts(r, "<dt>declared canonical</dt><dd class=\"u\">");
		sv_url(r, p->declared);
		sv_puts(r, "</dd>\n");
	}
	if (p->ranked) {
		sv_printf(r, "<dt>PageRank</dt><dd>%.3g</dd>\n", p->pagerank);
		if (p->canonical_id > 0) {
			sv_puts(r, "<dt>cluster's canonical</dt><dd>");
			sv_page_link(r, p->canonical_id, NULL,
			    p->canonical_url);
			sv_puts(r, "</dd>\n");
		}
	}
	dd(r, "judged by", p->worker);
	dd(r, "ETag", p->etag);
	dd(r, "Last-Modified", p->last_modified);
	sv_puts(r, "</dl>\n");
	return 0;
}

/* The original (or candidate) row: its URL, title and fetch time. */
static int
other_row(const struct store_view_page *p, void *arg)
{
	struct pv *v = arg;

	v->a_has_text = p->has_text;
	return svt_doc_init(&v->a, p->id, p->url, p->title, p->fetched_at) !=
	    0 ? VIEW_OOM : 0;
}

/* Only whether the original has a stored text. */
static int
a_flags(const struct store_view_page *p, void *arg)
{
	((struct pv *)arg)->a_has_text = p->has_text;
	return 0;
}

static int
orig_li(const struct store_view_match *m, void *arg)
{
	struct pv *v = arg;
	struct sv_req *r = v->r;

	if (v->a.url == NULL) {
		sv_puts(r, "<h2>Duplicate of</h2>\n<ul id=\"originals\">\n");
		snprintf(v->a_why, sizeof(v->a_why), "its original (%.40s "
		    "%.1f %%)", m->method, m->percentage);
		v->a.id = m->other_id;
	}
	sv_puts(r, "<li>");
	sv_page_link(r, m->other_id, m->title, m->url);
	sv_puts(r, " &middot; ");
	sv_h(r, m->method);
	sv_printf(r, " %.1f %% &middot; <a href=\"/cluster/%lld\">its "
	    "cluster</a></li>\n", m->percentage, (long long)m->other_id);
	if (v->a.url == NULL && svt_doc_init(&v->a, m->other_id, m->url,
	    m->title, m->fetched_at) != 0)
		return VIEW_OOM;
	return 0;
}

static int
count_copy(const struct store_view_match *m, void *arg)
{
	return 0;
}

static int
link_li(const struct store_view_link *l, void *arg)
{
	static const char *const states[] = { "queued", "being fetched",
		"done" };
	struct pv *v = arg;
	struct sv_req *r = v->r;

	if (v->links++ == 0)
		sv_puts(r, "<ul id=\"links\">\n");
	sv_puts(r, "<li>");
	if (l->page_id > 0) {
		sv_page_link(r, l->page_id, NULL, l->url);
		sv_puts(r, " ");
		sv_verdict(r, l->verdict);
	} else {
		sv_h(r, l->url);
		sv_printf(r, " <span class=\"note\">(%s)</span>",
		    l->state >= 0 && l->state <= FRONTIER_DONE ?
		    states[l->state] : "?");
	}
	sv_puts(r, "</li>\n");
	return 0;
}

static int
copy_text(const char *text, size_t len, void *arg)
{
	char **out = arg;

	if ((*out = malloc(len + 1)) == NULL)
		return VIEW_OOM;
	memcpy(*out, text, len);
	(*out)[len] = '\0';
	return 0;
}

static int
copy_blob(const void *blob, size_t len, void *arg)
{
	struct pv *v = arg;

	if ((v->a_blob = malloc(len > 0 ? len : 1)) == NULL)
		return VIEW_OOM;
	memcpy(v->a_blob, blob, len);
	v->a_len = len;
	return 0;
}

static int
learn(const char *host, const char *verdict, const void *blob, size_t len,
    void *arg)
{
	struct pv *v = arg;

	v->learnt++;
	return svt_learn(v->r->s, v->t, v->site, verdict, blob, len) != 0 ?
	    VIEW_OOM : 0;
}

/* A WARC file `nearcrawl dedup` read: its folder, once, where its CDXJ
 * index may be. */
static int
dedup_dir(const char *path, void *arg)
{
	struct pv *v = arg;
	const char *slash = strrchr(path, '/');
	size_t i, n = slash != NULL ? (size_t)(slash - path) : 0;

	if (slash == NULL || v->ndirs >= SVT_DIRS)
		return 0;
	for (i = 0; i < v->ndirs; i++)
		if (strlen(v->dirs[i]) == n && strncmp(v->dirs[i], path, n) ==
		    0)
			return 0;
	if ((v->dirs[v->ndirs] = strndup(path, n)) == NULL)
		return VIEW_OOM;
	v->ndirs++;
	return 0;
}

/* A unique page's reason names the candidate it was measured against:
 * "not near page N: ...". Its id, or 0. */
static int64_t
candidate_of(const char *reason)
{
	static const char lead[] = "not near page ";
	long long id;

	if (reason == NULL || strncmp(reason, lead, sizeof(lead) - 1) != 0 ||
	    sscanf(reason + sizeof(lead) - 1, "%lld", &id) != 1 || id <= 0)
		return 0;
	return id;
}

/* Every database read of the view, in the request's snapshot; the
 * metadata, duplicates and links are written as they come. */
static int
read_db(struct pv *v, int64_t id)
{
	struct sv *s = v->r->s;
	struct sv_req *r = v->r;
	int64_t cand;
	int rc;

	if ((rc = store_view_page(s->v, id, page_meta, v)) != 0 || !v->found)
		return rc;
	if ((rc = store_view_originals(s->v, id, orig_li, v)) != 0)
		return rc;
	if (v->a.url != NULL) {
		sv_puts(r, "</ul>\n");
		if ((rc = store_view_page(s->v, v->a.id, a_flags, v)) != 0)
			return rc;
	} else if (v->verdict == STORE_VERDICT_UNIQUE &&
	    (cand = candidate_of(v->reason)) > 0) {
		snprintf(v->a_why, sizeof(v->a_why), "the closest candidate, "
		    "which the crawl found it is not a copy of");
		if ((rc = store_view_page(s->v, cand, other_row, v)) != 0)
			return rc;
	}
	if ((rc = store_view_copies(s->v, id, 0, 1, &v->copies, count_copy,
	    NULL)) != 0)
		return rc;
	if (v->copies > 0)
		sv_printf(r, "<p id=\"copies\">%lld page%s repeat this page: "
		    "<a href=\"/cluster/%lld\">its cluster</a>.</p>\n",
		    (long long)v->copies, v->copies == 1 ? "" : "s",
		    (long long)id);
	sv_puts(r, "<h2>Links the crawl queued from it</h2>\n");
	if ((rc = store_view_links(s->v, id, VIEW_LINKS, link_li, v)) != 0)
		return rc;
	sv_puts(r, v->links > 0 ? "</ul>\n" : "<p class=\"note\">None (a "
	    "duplicate's links are followed only so far; links out of scope "
	    "are not queued).</p>\n");
	if (v->has_text && (rc = store_view_text(s->v, id, copy_text,
	    &v->p.stored)) != 0)
		return rc;
	if ((rc = store_search_dedup_files(store_view_conn(s->v), dedup_dir,
	    v)) != 0)
		return rc;
	/* The site's template as the crawl knew it when it judged the
	 * page, from the latest of the site's earlier pages. */
	v->site = svt_site(s, v->host);
	if ((v->t = tmpl_new()) == NULL || (rc = store_view_site_sets(s->v,
	    v->site, v->seq, TEMPLATE_PAGES, learn, v)) != 0)
		return v->t == NULL ? VIEW_OOM : rc;
	if (v->a.url == NULL)
		return 0;
	if (v->a_has_text && (rc = store_view_text(s->v, v->a.id, copy_text,
	    &v->a.stored)) != 0)
		return rc;
	if ((rc = store_view_shingles(s->v, v->a.id, copy_blob, v)) != 0)
		return rc;
	return 0;
}

/* The figures of the rule (docs/dedup.md, "What near means"). */
static void
write_figures(struct pv *v, const struct svt_marks *m)
{
	struct sv_req *r = v->r;
	const struct config *cfg = &r->s->cfg;
	const struct shingles_novelty *nv = &m->nv;
	const struct shingles *sh = &v->p.dg.sh;
	double all = nv->words > 0 ? 100.0 * (double)nv->new_all /
	    (double)nv->words : 0;
	double own = nv->own > 0 ? 100.0 * (double)nv->new_own /
	    (double)nv->own : 0;

	sv_puts(r, "<h2>What made its verdict</h2>\n<ul id=\"figures\">\n");
	if (!m->measured)
		sv_puts(r, "<li>No original to measure it against: every "
		    "word is its own and new.</li>\n");
	else {
		sv_puts(r, "<li>Measured against ");
		sv_h(r, v->a_why);
		sv_printf(r, "%s.</li>\n", m->from_set ? ", its shingle set "
		    "as the crawl stored it" : ", its text as read here");
	}
	sv_printf(r, "<li id=\"words\"><b>%zu</b> words, <b>%zu</b> of them "
	    "its own (outside the site's template: %zu template words, "
	    "%.1f %%; the template learnt from %lld earlier pages of ",
	    nv->words, nv->own, nv->words - nv->own, nv->words > 0 ?
	    100.0 * (double)(nv->words - nv->own) / (double)nv->words : 0,
	    (long long)v->learnt);
	sv_h(r, v->site);
	sv_printf(r, ")</li>\n<li id=\"new\"><b>%zu</b> new words, %.1f %% "
	    "of all its words; <b>%zu</b> new of its own, %.1f %%%s</li>\n",
	    nv->new_all, all, nv->new_own, own, m->measured ?
	    " (<mark>marked</mark> below)" : "");
	if (nv->listed)
		sv_puts(r, "<li>The original lists this page (an item of it "
		    "leads here): a listing is never its items' "
		    "original.</li>\n");
	sv_printf(r, "<li>The rule: near when at most %d %% of its own words "
	    "and of all its words are new", cfg->max_novel_percent);
	if (nv->own < DEDUP_OWN_MIN_WORDS)
		sv_printf(r, " (with fewer than %d own words, all its words "
		    "count)", DEDUP_OWN_MIN_WORDS);
	if (cfg->max_novel_words >= 0)
		sv_printf(r, ", at most %d new words", cfg->max_novel_words);
	sv_printf(r, ", and at least %d distinct shingles (it has %zu).",
	    cfg->min_shingles, sh->distinct);
	if (m->measured)
		sv_printf(r, " By these figures: <b id=\"holds\">%s</b>.",
		    m->near_holds ? "near" : "not near");
	sv_puts(r, "</li>\n</ul>\n");
}

/* One side of the texts. */
static void
write_side(struct pv *v, const char *label, struct svt_doc *d,
    const struct svt_marks *m)
{
	struct sv_req *r = v->r;

	sv_printf(r, "<div><h3>%s: ", label);
	sv_page_link(r, d->id, d->title, d->url);
	sv_puts(r, "</h3>\n<p class=\"note\">");
	if (d->source == SVT_NONE) {
		sv_h(r, d->note);
		sv_puts(r, "</p>\n</div>\n");
		return;
	}
	sv_printf(r, "The %s text, ", d->dg.near_main ? "main" : "body");
	sv_h(r, d->note);
	sv_puts(r, ".</p>\n");
	svt_write(r, d, m != NULL ? m->isnew : NULL, m != NULL ? m->tmpl :
	    NULL);
	sv_puts(r, "</div>\n");
}

void
svv_page(struct sv_req *r, int64_t id, int fetch)
{
	struct pv v;
	struct svt_marks m, am;
	char title[40];
	int rc;

	memset(&v, 0, sizeof(v));
	memset(&m, 0, sizeof(m));
	memset(&am, 0, sizeof(am));
	v.r = r;
	if (store_view_begin(r->s->v) != 0) {
		sv_dbfail(r);
		return;
	}
	snprintf(title, sizeof(title), "page %lld", (long long)id);
	sv_head(r, title, 0);
	rc = read_db(&v, id);
	if (rc == -1 || store_view_end(r->s->v) != 0) {
		sv_dbfail(r);
		goto out;
	}
	if (rc != 0) {
		sv_error(r, 503, "out of memory");
		goto out;
	}
	if (!v.found) {
		sv_error(r, 404, "no such page");
		goto out;
	}
	if (svt_load(r->s, &v.p, v.dirs, v.ndirs, fetch) != 0 ||
	    (v.a.url != NULL && svt_load(r->s, &v.a, v.dirs, v.ndirs,
	    fetch) != 0) || (v.p.digested &&
	    svt_measure(r->s, &v.p, v.a.url != NULL ? &v.a : NULL, v.a_blob,
	    v.a_len, v.t, v.site, &m) != 0)) {
		sv_error(r, 503, "out of memory");
		goto out;
	}
	/* The original's template lines, greyed as the page's are. */
	if (v.a.digested && v.t != NULL) {
		if ((am.tmpl = calloc(v.a.dg.sh.nblocks + 1, 1)) == NULL) {
			sv_error(r, 503, "out of memory");
			goto out;
		}
		if (v.a.dg.sh.nblocks > 0)
			tmpl_mark(v.t, v.site, v.a.dg.sh.block,
			    v.a.dg.sh.nblocks, am.tmpl);
	}
	if (v.p.digested)
		write_figures(&v, &m);
	sv_puts(r, "<h2>Its text");
	if (v.a.url != NULL)
		sv_puts(r, " beside its original's");
	sv_puts(r, "</h2>\n");
	if (!fetch && (v.p.source == SVT_NONE || (v.a.url != NULL &&
	    v.a.source == SVT_NONE)))
		sv_printf(r, "<form method=\"post\" action=\"/page/%lld/fetch\">"
		    "<p>The text the crawl read is not kept: <button "
		    "id=\"fetch\">fetch the page%s from the web</button> (as "
		    "they are now, which may differ)</p></form>\n",
		    (long long)id, v.a.url != NULL ? "s" : "");
	sv_puts(r, v.a.url != NULL ? "<div class=\"cols\">\n" : "<div>\n");
	/* Without an original every word is new: nothing to mark. */
	if (!m.measured) {
		free(m.isnew);
		m.isnew = NULL;
	}
	write_side(&v, "this page", &v.p, v.p.digested ? &m : NULL);
	if (v.a.url != NULL)
		write_side(&v, v.a_why[0] == 'i' ? "its original" :
		    "closest candidate", &v.a, v.a.digested ? &am : NULL);
	sv_puts(r, "</div>\n");
	sv_foot(r);
	sv_send(r, 200);
out:
	svt_marks_free(&m);
	svt_marks_free(&am);
	svt_doc_free(&v.p);
	svt_doc_free(&v.a);
	tmpl_free(v.t);
	while (v.ndirs > 0)
		free(v.dirs[--v.ndirs]);
	free(v.a_blob);
	free(v.host);
	free(v.reason);
}
