/*
 * digest: page bytes -> texts, shingles, fingerprints, verdict; see
 * digest.h.
 */
#include "digest/digest.h"

#include <stdlib.h>
#include <string.h>

#include "util/clock.h"
#include "dedup/words.h"
#include "web/url.h"

static const char WHY_FP[] = "cannot fingerprint";
static const char WHY_NOMEM[] = "out of memory";

/*
 * The shingles of text (len bytes) with the n links of it, copied into
 * the form shingles.h reads. 0, or -1 when out of memory.
 */
static int
read_shingles(const char *text, size_t len, const struct extract_link *el,
    size_t n, struct shingles *sh)
{
	struct shingles_link *links = NULL;
	size_t i;
	int rc;

	if (n > 0 && (links = malloc(n * sizeof(*links))) == NULL)
		return -1;
	for (i = 0; i < n; i++) {
		links[i].start = el[i].start;
		links[i].end = el[i].end;
		links[i].target = el[i].target;
	}
	rc = shingles_of_text_links(text, len, links, n, sh);
	free(links);
	return rc;
}

/* Take the main text as the near text: always when it measures novelty
 * by own words (a thin main text is then too little to judge near, as
 * dedup_confirm's floor says), else when it holds enough to judge (the
 * rule before, kept for crawls made with it). */
static int
choose_near(const struct dedup *d, const struct digest_opts *o,
    struct digest *g)
{
	g->near = g->text;
	g->near_len = g->text_len;
	g->near_main = 0;
	if (g->html && o->use_main && g->ex.main_len > 0 &&
	    g->ex.main_len < g->ex.text_len) {
		if (read_shingles(g->ex.main_text, g->ex.main_len,
		    g->ex.main_links, g->ex.nmain_links, &g->sh) != 0)
			return -1;
		g->main_shingles = g->sh.distinct;
		if (dedup_own_novelty(d) ||
		    g->sh.distinct >= dedup_min_shingles(d)) {
			g->near = g->ex.main_text;
			g->near_len = g->ex.main_len;
			g->near_main = 1;
			return 0;
		}
		shingles_free(&g->sh);
	}
	if (g->html)
		return read_shingles(g->near, g->near_len, g->ex.text_links,
		    g->ex.ntext_links, &g->sh);
	return shingles_of_text(g->near, g->near_len, &g->sh);
}

/* Where a page at url is, as its links' targets say it (shingles.self):
 * the hash of its normal form; 0 when unknown or malformed. */
static uint32_t
self_of(const char *url)
{
	const char *why;
	uint32_t h;
	char *n;

	if (url == NULL || (n = url_normalize(url, &why)) == NULL)
		return 0;
	h = extract_target_of(n);
	free(n);
	return h;
}

/*
 * The page's titles, which a listing's items may show though its main
 * text leaves them out (an extractor drops a heading that repeats the
 * title): its <title> whole and each of its headings. Not the parts of a
 * <title> around a separator: one of them is the site's name ("Department
 * of Biology - Seminar: X"), which a credit on a copy links to. 0, or -1
 * when out of memory.
 */
static int
add_titles(const struct extract_result *ex, struct shingles *sh)
{
	static const char sep[] = " | ";
	const char *at, *next;

	if (ex->title != NULL &&
	    shingles_add_title(sh, ex->title, strlen(ex->title)) != 0)
		return -1;
	for (at = ex->headings; at != NULL && *at != '\0'; at = next) {
		if ((next = strstr(at, sep)) == NULL)
			next = at + strlen(at);
		if (shingles_add_title(sh, at, (size_t)(next - at)) != 0)
			return -1;
		if (*next != '\0')
			next += sizeof(sep) - 1;
	}
	return 0;
}

void
digest_tdw_fields(const struct extract_result *ex, const char *url,
    struct tdw_fields *tf)
{
	memset(tf, 0, sizeof(*tf));
	tf->url = url;
	tf->title = ex->title;
	tf->headings = ex->headings;
	tf->anchors_same = ex->anchors_same;
	tf->anchors_other = ex->anchors_other;
	tf->keywords = ex->keywords;
	tf->description = ex->description;
}

int
digest_page(const struct dedup *d, const struct digest_opts *o,
    const char *data, size_t len, int html, const char *url,
    struct digest *g, const char **why)
{
	struct extract_opts eo;
	struct tdw_fields tf, *fields = NULL;
	struct words_seq ws;
	double t0 = clock_mono_ms(), t1;

	memset(g, 0, sizeof(*g));
	g->html = html;
	g->text = data != NULL ? data : "";
	g->text_len = data != NULL ? len : 0;
	if (html) {
		eo.charset = o->charset;
		eo.max_text = o->max_text;
		eo.max_links = o->max_links;
		if (extract_html(data, len, url, &eo, &g->ex, why) != 0) {
			g->html = 0;
			return -1;
		}
		g->text = g->ex.text;
		g->text_len = g->ex.text_len;
		/* The fields the crawl weights TDW tokens by. */
		digest_tdw_fields(&g->ex, url, &tf);
		fields = &tf;
	}
	t1 = clock_mono_ms();
	g->extract_ms = t1 - t0;
	if (choose_near(d, o, g) != 0) {
		*why = WHY_NOMEM;
		goto fail;
	}
	g->sh.self = self_of(url);
	if (g->html && add_titles(&g->ex, &g->sh) != 0) {
		*why = WHY_NOMEM;
		goto fail;
	}
	/* The shingles read the near text's words: the other methods that
	 * read words take them from there. */
	if (dedup_fingerprint_page(d, g->text, g->text_len, g->near,
	    g->near_len, shingles_words(&g->sh, &ws) ? &ws : NULL, fields,
	    &g->fp) != 0) {
		*why = WHY_FP;
		goto fail;
	}
	g->fingerprint_ms = clock_mono_ms() - t1;
	return 0;
fail:
	digest_free(g);
	return -1;
}

void
digest_free(struct digest *g)
{
	if (g->html)
		extract_result_free(&g->ex);
	shingles_free(&g->sh);
	memset(g, 0, sizeof(*g));
}

enum dedup_verdict
digest_judge(const struct dedup *d, const struct tmpl *t, const char *host,
    struct digest *g, int64_t linker, dedup_set_fn fn, void *ctx,
    struct dedup_match *m, size_t max, size_t *nm, struct dedup_veto *veto,
    int *err)
{
	enum dedup_verdict v;
	unsigned char *flags = NULL;
	int own = dedup_own_novelty(d);

	v = dedup_linker(d, dedup_check(d, &g->fp, m, max, nm), linker, m,
	    max, nm);
	/* The template decides a near candidate's own words and, with
	 * own_novelty, which of the page's terms it is remembered by: one
	 * look-up of its lines serves both. */
	if ((v == DEDUP_NEAR || (own && v != DEDUP_EXACT)) && t != NULL &&
	    g->sh.nblocks > 0) {
		if ((flags = malloc(g->sh.nblocks)) == NULL) {
			*err = 1;
			return v;
		}
		tmpl_mark(t, host, g->sh.block, g->sh.nblocks, flags);
	}
	v = dedup_confirm(d, &g->sh, flags, v, m, nm, fn, ctx, veto, err);
	if (own && flags != NULL && shingles_keep_own_terms(&g->sh, flags) != 0)
		*err = 1;
	free(flags);
	return v;
}

void
digest_shed_texts(struct digest *g)
{
	if (g->html)
		extract_result_free(&g->ex);
	g->html = 0;
	g->text = g->near = NULL;
	g->text_len = g->near_len = 0;
}

int64_t
digest_linker(const struct digest *a, const struct digest *b, int64_t id)
{
	size_t i;

	if (!a->html || b->sh.self == 0)
		return 0;
	for (i = 0; i < a->ex.ntext_links; i++)
		if (a->ex.text_links[i].target == b->sh.self)
			return id;
	return 0;
}

int
digest_set_of_first(void *ctx, int64_t id, struct shingles_ref *q)
{
	const struct shingles *sh = ctx;

	memset(q, 0, sizeof(*q));
	if (id != 1 || sh->distinct == 0)
		return 0;
	return shingles_ref_of(sh, q);
}

int
digest_add(struct dedup *d, struct tmpl *t, const char *host,
    const struct digest *g, int64_t id)
{
	if (t != NULL && g->sh.teaches &&
	    tmpl_learn(t, host, g->sh.block, g->sh.nblocks) != 0)
		return -1;
	return dedup_add(d, &g->fp, id);
}

void
digest_opts_of(const struct config *cfg, const char *content_type,
    size_t max_links, char *charset, size_t charsetsz, struct digest_opts *o)
{
	memset(o, 0, sizeof(*o));
	extract_charset_of(content_type, charset, charsetsz);
	o->charset = charset[0] != '\0' ? charset : NULL;
	o->max_text = (size_t)cfg->max_text;
	o->max_links = max_links;
	o->use_main = strcmp(cfg->near_text, "main") == 0;
}
