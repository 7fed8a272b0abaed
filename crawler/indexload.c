/*
 * indexload: pages judged before -- by an earlier run, or by another
 * process of a shared crawl -- back into the crawl's indexes: their
 * fingerprints (crawler/fprow.c), their blocks into their site's
 * template, in fetch order, as the crawl itself would have added them.
 */
#include "crawler/indexload.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "crawler/fprow.h"
#include "util/clock.h"
#include "util/esc.h"

/* A line on how far a long load has got, every PROGRESS_MS; the clock is
 * read every PROGRESS_ROWS rows. */
#define PROGRESS_MS 10000.0
#define PROGRESS_ROWS 65536

/* What a pass reads rows into. */
enum pass { PASS_INDEXES, PASS_TEMPLATES };

struct load {
	struct crawl *c;
	enum pass pass;   /* the pass reading rows now */
	size_t rows[2];   /* rows read by each pass */
	double t0, shown; /* when the load began, when a line last said */
};

static void
progress(struct load *l)
{
	char msg[512];
	double now;

	if (++l->rows[l->pass] % PROGRESS_ROWS != 0 || l->c->cfg->quiet ||
	    (now = clock_mono_ms()) - l->shown < PROGRESS_MS)
		return;
	l->shown = now;
	fprintf(stderr, "nearcrawl: loading %s: %zu pages read into the "
	    "indexes (%.1f MiB), %zu into the site templates, in %.0f s\n",
	    esc_str(l->c->cfg->db, msg, sizeof(msg)), l->rows[PASS_INDEXES],
	    (double)dedup_bytes(l->c->dd) / (1 << 20),
	    l->rows[PASS_TEMPLATES], (now - l->t0) / 1e3);
}

static int
load_one(const struct store_fingerprints *f, void *arg)
{
	struct load *l = arg;
	struct crawl *c = l->c;
	struct dedup_fp fp;
	size_t nm;

	progress(l);
	fprow_get(c->cfg, f, &fp);
	/* Exact copies were never added while crawling; mirror that. */
	if (dedup_check(c->dd, &fp, NULL, 0, &nm) == DEDUP_EXACT)
		return 0;
	return dedup_add(c->dd, &fp, f->id) != 0 ? -1 : 0;
}

/* A page's blocks back into its site's template, in fetch order; a
 * malformed set is skipped, like a malformed ssdeep digest. */
static int
load_blocks(const char *host, const char *verdict, const void *blob,
    size_t len, void *arg)
{
	struct load *l = arg;
	struct crawl *c = l->c;

	progress(l);
	return dedup_learn_stored(c->dd, c->site, crawl_site_of(c, host),
	    verdict, blob, len);
}

/* Pages per read of a bounded span: PostgreSQL hands a statement's rows
 * over all at once, so a million-page resume reads them a slice at a time
 * rather than holding them all in memory. */
#define SLICE_PAGES 20000

static int
load_slice(struct crawl *c, const struct store_span *sp, struct load *l)
{
	l->pass = PASS_INDEXES;
	if (store_load_fingerprints_in(c->st, sp, load_one, l) != 0)
		return -1;
	l->pass = PASS_TEMPLATES;
	if (store_load_blocks_in(c->st, sp, load_blocks, l) != 0 ||
	    fprow_load_apart(c->st, sp, c->cfg, c->dd) != 0)
		return -1;
	return 0;
}

int
indexload_span(struct crawl *c, const struct store_span *sp)
{
	struct store_span slice = *sp;
	struct load l;

	l.c = c;
	l.rows[PASS_INDEXES] = l.rows[PASS_TEMPLATES] = 0;
	l.t0 = l.shown = clock_mono_ms();
	/* Unbounded (SQLite's resume): one read, which SQLite streams. */
	if (sp->upto == INT64_MAX)
		return load_slice(c, sp, &l);
	while (slice.after < sp->upto) {
		slice.upto = sp->upto - slice.after > SLICE_PAGES ?
		    slice.after + SLICE_PAGES : sp->upto;
		if (load_slice(c, &slice, &l) != 0)
			return -1;
		slice.after = slice.upto;
	}
	return 0;
}
