/*
 * extract_links: the links of a page once its walk is over -- the base
 * they resolve against, the list of URLs to follow, and the split of the
 * link text into anchors_same and anchors_other (see extract.h).
 */
#include "web/extract_int.h"

#include "util/buf.h"
#include "util/chars.h"
#include "util/mix64.h"
#include "web/extract.h"
#include "web/url.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* url_resolve's reasons that matter here. */
static const char WHY_NOMEM[] = "out of memory";
static const char WHY_TOO_LONG[] = "too long";

static uint64_t
hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	for (; *s != '\0'; s++) {
		h ^= (unsigned char)*s;
		h *= 1099511628211ULL;
	}
	return h;
}

int
extract_link_base(const char *base_href, const char *page_url,
    struct url_base *eff, char **base)
{
	struct url_base page;
	const char *why;
	int ret = -1;

	memset(&page, 0, sizeof(page));
	memset(eff, 0, sizeof(*eff));
	*base = NULL;
	if (url_base_init(&page, page_url) != 0)
		goto fail;
	if (base_href != NULL) {
		why = NULL;
		*base = page_url != NULL ? url_base_resolve(&page, base_href,
		    &why) : url_normalize(base_href, &why);
		if (*base == NULL && why != NULL &&
		    strcmp(why, WHY_NOMEM) == 0)
			goto fail;
	}
	if (*base != NULL) {
		if (url_base_init(eff, *base) != 0)
			goto fail;
	} else {
		*eff = page;
		memset(&page, 0, sizeof(page));
	}
	ret = 0;
fail:
	url_base_free(&page);
	return ret;
}

int
extract_make_links(const char *const *cand, size_t ncand,
    const struct url_base *eff, size_t max, struct extract_result *r)
{
	char *u, **set = NULL;
	const char *why;
	size_t want, setsz = 16, i, slot;
	int ret = -1;

	want = ncand < max ? ncand : max;
	if (want == 0)
		return 0;
	while (setsz < 2 * want)
		setsz *= 2;
	set = calloc(setsz, sizeof(*set));
	r->links = calloc(want, sizeof(*r->links));
	if (set == NULL || r->links == NULL)
		goto fail;
	for (i = 0; i < ncand && r->nlinks < want; i++) {
		why = NULL;
		u = url_base_resolve(eff, cand[i], &why);
		if (u == NULL) {
			if (why != NULL && strcmp(why, WHY_NOMEM) == 0)
				goto fail;
			if (why != NULL && strcmp(why, WHY_TOO_LONG) == 0)
				r->links_too_long++;
			continue;
		}
		slot = (size_t)hash_str(u) & (setsz - 1);
		while (set[slot] != NULL && strcmp(set[slot], u) != 0)
			slot = (slot + 1) & (setsz - 1);
		if (set[slot] != NULL) {
			free(u);
			continue;
		}
		set[slot] = u;
		r->links[r->nlinks++] = u;
	}
	ret = 0;
fail:
	free(set);
	return ret;
}

/* A host without its leading "www.": www.a.org and a.org are one site. */
static const char *
site_of(const char *host)
{
	return strncmp(host, "www.", 4) == 0 ? host + 4 : host;
}

/* Whether ref names no scheme and no host: it stays on the page's host. */
static int
is_relative_ref(const char *ref)
{
	size_t n;

	while (chars_html_space((unsigned char)*ref))
		ref++;
	if (ref[0] == '/' && ref[1] == '/')
		return 0;
	n = strcspn(ref, ":/?#");
	return ref[n] != ':';
}

uint32_t
extract_target_of(const char *u)
{
	uint32_t h = (uint32_t)(mix64(hash_str(u)) >> 32);

	return h != 0 ? h : 1;
}

/*
 * Where the link a leads: 1 the page's own site, 0 another, -1 nowhere a
 * crawler goes (another scheme, malformed), -2 out of memory; and into
 * *target a hash of its resolved URL (extract_target_of), 0 when it has none.
 */
static int
anchor_target(const struct anchor *a, const struct url_base *eff,
    const char *page_host, uint32_t *target)
{
	char host[256], *u;
	const char *why = NULL;
	int same;

	*target = 0;
	u = url_base_resolve(eff, a->href, &why);
	if (u == NULL) {
		if (why != NULL && strcmp(why, WHY_NOMEM) == 0)
			return -2;
		return page_host[0] == '\0' && is_relative_ref(a->href) ? 1 :
		    -1;
	}
	*target = extract_target_of(u);
	same = url_host(u, host, sizeof(host)) == 0 &&
	    strcmp(site_of(host), site_of(page_host)) == 0;
	free(u);
	return same;
}

/* Append the text of a (in text), without its edge spaces, to out; full:
 * skip it. */
static int
anchor_append(struct buf *out, const char *text, const struct anchor *a)
{
	const char *t = text + a->start;
	size_t n = a->end - a->start;
	int rc;

	while (n > 0 && *t == ' ') {
		t++;
		n--;
	}
	while (n > 0 && t[n - 1] == ' ')
		n--;
	if (n == 0 || out->len + 1 + n > out->limit)
		return 0;
	if (out->len > 0 && (rc = buf_putc(out, ' ')) != BUF_OK)
		return rc;
	return buf_append(out, t, n) == BUF_OK ? 0 : -1;
}

int
extract_make_anchors(struct anchor *anch, size_t nanch,
    const char *text, const struct url_base *eff, const char *page_url,
    int fell_back, struct extract_result *r)
{
	struct buf same, other;
	char page_host[256] = "";
	size_t i;
	int t, ret = -1;

	buf_init(&same, EXTRACT_ANCHORS_MAX);
	buf_init(&other, EXTRACT_ANCHORS_MAX);
	if (page_url != NULL &&
	    url_host(page_url, page_host, sizeof(page_host)) != 0)
		page_host[0] = '\0';
	for (i = 0; i < nanch; i++) {
		t = anchor_target(&anch[i], eff, page_host, &anch[i].target);
		if (t == -2)
			goto fail;
		if ((anch[i].in_main || fell_back) && t >= 0 &&
		    anchor_append(t ? &same : &other, text, &anch[i]) != 0)
			goto fail;
	}
	if ((r->anchors_same = buf_steal(&same)) == NULL ||
	    (r->anchors_other = buf_steal(&other)) == NULL)
		goto fail;
	ret = 0;
fail:
	buf_free(&same);
	buf_free(&other);
	return ret;
}

/* Append the span [start..end) of a text of len bytes with target t to
 * *out (n entries, *cap room); spans past the end are cut or dropped. */
static int
span_push(struct extract_link **out, size_t *n, size_t *cap, size_t start,
    size_t end, size_t len, uint32_t t)
{
	struct extract_link *grown;

	if (end > len)
		end = len;
	if (start >= end)
		return 0;
	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 16;
		if ((grown = realloc(*out, *cap * sizeof(**out))) == NULL)
			return -1;
		*out = grown;
	}
	(*out)[*n].start = start;
	(*out)[*n].end = end;
	(*out)[*n].target = t;
	(*n)++;
	return 0;
}

int
extract_make_link_spans(const struct anchor *anch, size_t nanch,
    int main_is_text, struct extract_result *r)
{
	size_t i, tcap = 0, mcap = 0;
	uint32_t t;

	for (i = 0; i < nanch; i++) {
		if ((t = anch[i].target) == 0)
			continue;
		if (span_push(&r->text_links, &r->ntext_links, &tcap,
		    anch[i].tstart, anch[i].tend, r->text_len, t) != 0)
			return -1;
		if (main_is_text ? span_push(&r->main_links, &r->nmain_links,
		    &mcap, anch[i].tstart, anch[i].tend, r->main_len, t) != 0 :
		    anch[i].in_main && span_push(&r->main_links,
		    &r->nmain_links, &mcap, anch[i].mstart, anch[i].mend,
		    r->main_len, t) != 0)
			return -1;
	}
	return 0;
}
