/*
 * serve_text: a page's text and its new words (cmd/serve_text.h).
 */
#include "cmd/serve_text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/docload.h"
#include "cmd/serve_warc.h"
#include "dedup/words.h"
#include "web/extract.h"
#include "web/urlfilter.h"

int
svt_doc_init(struct svt_doc *d, int64_t id, const char *url,
    const char *title, double fetched_at)
{
	memset(d, 0, sizeof(*d));
	d->id = id;
	d->fetched_at = fetched_at;
	if ((d->url = strdup(url != NULL ? url : "")) == NULL ||
	    (title != NULL && (d->title = strdup(title)) == NULL))
		return -1;
	return 0;
}

void
svt_doc_free(struct svt_doc *d)
{
	if (d->digested)
		digest_free(&d->dg);
	buf_free(&d->raw);
	free(d->url);
	free(d->title);
	free(d->stored);
	memset(d, 0, sizeof(*d));
}

/* Digest d's raw bytes as the crawl would (html as said). */
static int
digest_doc(struct sv *s, struct svt_doc *d, int html)
{
	struct digest_opts o;
	const char *why = NULL;
	char charset[64];

	digest_opts_of(&s->cfg, d->ctype[0] != '\0' ? d->ctype : NULL,
	    (size_t)s->cfg.max_links, charset, sizeof(charset), &o);
	if (digest_page(s->dd, &o, d->raw.data != NULL ? d->raw.data : "",
	    d->raw.len, html, d->url, &d->dg, &why) != 0) {
		snprintf(d->note, sizeof(d->note), "cannot be read: %.200s",
		    why);
		d->source = SVT_NONE;
		return strcmp(why, "out of memory") == 0 ? -1 : 0;
	}
	d->digested = 1;
	return 0;
}

/* The crawl's WARC directory as this process finds it: as stored, or
 * beside the database for a relative path that is not here. */
static const char *
warc_dir(struct sv *s, char *buf, size_t bufsz)
{
	const char *w = s->cfg.warc_dir, *slash;

	if (w == NULL || strcmp(w, "none") == 0)
		return NULL;
	if (w[0] == '/' || access(w, F_OK) == 0 ||
	    (slash = strrchr(s->db, '/')) == NULL)
		return w;
	snprintf(buf, bufsz, "%.*s/%s", (int)(slash - s->db), s->db, w);
	return buf;
}

int
svt_load(struct sv *s, struct svt_doc *d, char *const *dirs, size_t ndirs,
    int fetch)
{
	char dir[4096], note[256], err[512];
	const char *w;
	size_t i;
	int rc;

	buf_init(&d->raw, (size_t)s->cfg.max_body);
	note[0] = '\0';
	w = warc_dir(s, dir, sizeof(dir));
	for (i = 0; i <= ndirs; i++) {
		if (i > 0)
			w = dirs[i - 1];
		if (w == NULL)
			continue;
		rc = svw_read(w, d->url, d->fetched_at, &d->raw, d->ctype,
		    sizeof(d->ctype), note, sizeof(note));
		if (rc < 0)
			return -1;
		if (rc == 0) {
			d->source = SVT_WARC;
			snprintf(d->note, sizeof(d->note), "as archived in the "
			    "crawl's WARC files");
			return digest_doc(s, d, extract_is_html(d->ctype[0] !=
			    '\0' ? d->ctype : NULL, d->raw.data != NULL ?
			    d->raw.data : "", d->raw.len));
		}
		buf_reset(&d->raw);
	}
	if (d->stored != NULL) {
		if (buf_puts(&d->raw, d->stored) != BUF_OK)
			return -1;
		d->source = SVT_STORED;
		snprintf(d->ctype, sizeof(d->ctype), "text/plain");
		snprintf(d->note, sizeof(d->note), "the body text the crawl "
		    "stored (--store-text), read as plain text: the near "
		    "methods read the main text, which a stored body text "
		    "does not tell apart");
		return digest_doc(s, d, 0);
	}
	if (fetch && docload_is_url(d->url)) {
		if (docload_read(&s->cfg, d->url, &d->raw, d->ctype,
		    sizeof(d->ctype), err, sizeof(err)) != 0) {
			snprintf(d->note, sizeof(d->note), "fetching failed: "
			    "%.270s", err);
			return 0;
		}
		d->source = SVT_FETCHED;
		snprintf(d->note, sizeof(d->note), "fetched from its URL just "
		    "now: it may have changed since the crawl");
		return digest_doc(s, d, extract_is_html(d->ctype[0] != '\0' ?
		    d->ctype : NULL, d->raw.data != NULL ? d->raw.data : "",
		    d->raw.len));
	}
	d->source = SVT_NONE;
	snprintf(d->note, sizeof(d->note), "no text of it is kept: neither "
	    "the crawl's archive nor a stored text has it%s%.200s",
	    note[0] != '\0' ? "; " : "", note);
	return 0;
}

const char *
svt_site(struct sv *s, const char *host)
{
	const char *best = host, *d;
	size_t i, bl = 0;

	for (i = 0; i < s->cfg.nallow; i++) {
		d = s->cfg.allow_domains[i];
		if (d[0] == '.')
			d++;
		if (strlen(d) > bl && urlfilter_host_in_domains(host,
		    &s->cfg.allow_domains[i], 1)) {
			best = d;
			bl = strlen(d);
		}
	}
	return best;
}

int
svt_learn(struct sv *s, struct tmpl *t, const char *site,
    const char *verdict, const void *blob, size_t len)
{
	/* As a resume learns it (crawler/indexload.c): the pages that
	 * taught the template then. */
	return dedup_learn_stored(s->dd, t, site, verdict, blob, len);
}

int
svt_measure(struct sv *s, const struct svt_doc *p, const struct svt_doc *a,
    const void *blob, size_t len, const struct tmpl *t, const char *site,
    struct svt_marks *m)
{
	const struct shingles *sh = &p->dg.sh;
	struct shingles_novelty again;
	struct shingles_ref q;
	int rc = -1;

	memset(m, 0, sizeof(*m));
	memset(&q, 0, sizeof(q));
	if ((m->isnew = calloc(sh->words + 1, 1)) == NULL ||
	    (m->tmpl = calloc(sh->nblocks + 1, 1)) == NULL)
		goto out;
	if (t != NULL && sh->nblocks > 0)
		tmpl_mark(t, site, sh->block, sh->nblocks, m->tmpl);
	if (blob != NULL && shingles_ref_decode(blob, len, &q) == 0)
		m->measured = m->from_set = 1;
	else if (a != NULL && a->digested) {
		if (shingles_ref_of(&a->dg.sh, &q) != 0)
			goto out;
		m->measured = 1;
	}
	/* The figures as the crawl and compare take them, then the same
	 * measure again for which words they are. Without an original, q
	 * is empty: every word is new. */
	dedup_measure(s->dd, sh, &q, m->tmpl, &m->nv);
	shingles_measure_words(sh, &q, m->tmpl, &again, m->isnew);
	m->near_holds = m->measured && !m->nv.listed &&
	    sh->distinct >= (size_t)s->cfg.min_shingles &&
	    dedup_novelty_holds(s->dd, &m->nv);
	rc = 0;
out:
	shingles_ref_free(&q);
	return rc;
}

void
svt_marks_free(struct svt_marks *m)
{
	free(m->isnew);
	free(m->tmpl);
	memset(m, 0, sizeof(*m));
}

void
svt_write(struct sv_req *r, const struct svt_doc *d,
    const unsigned char *isnew, const unsigned char *tmpl)
{
	const unsigned char *text = (const unsigned char *)d->dg.near;
	size_t len = d->dg.near_len, at = 0, end, i, start, pos, blk = 0;
	size_t j = 0, words = d->dg.sh.words, blocks = d->dg.sh.nblocks;
	const unsigned char *nl;
	int any;

	sv_puts(r, "<div class=\"text\">\n");
	while (text != NULL && at < len) {
		if (sv_full(r))
			break;
		nl = memchr(text + at, '\n', len - at);
		end = nl != NULL ? (size_t)(nl - text) : len;
		/* A line with words is a block of the shingles: the same
		 * order as dedup/shingles.c reads them. */
		i = 0;
		any = words_next(text + at, end - at, &i, &start) > 0;
		sv_printf(r, "<p%s>", any && tmpl != NULL && blk < blocks &&
		    tmpl[blk] ? " class=\"tmpl\"" : "");
		pos = 0;
		i = 0;
		while (words_next(text + at, end - at, &i, &start) > 0) {
			sv_hn(r, (const char *)text + at + pos, start - pos);
			if (isnew != NULL && j < words && isnew[j]) {
				sv_puts(r, "<mark>");
				sv_hn(r, (const char *)text + at + start,
				    i - start);
				sv_puts(r, "</mark>");
			} else
				sv_hn(r, (const char *)text + at + start,
				    i - start);
			pos = i;
			j++;
		}
		sv_hn(r, (const char *)text + at + pos, end - at - pos);
		sv_puts(r, "</p>\n");
		blk += any;
		at = end + 1;
	}
	sv_puts(r, "</div>\n");
}
