/*
 * indexload: pages judged before -- by an earlier run, or by another
 * process of a shared crawl -- back into the crawl's indexes: their
 * fingerprints, their blocks into their site's template, their TDW
 * vectors, in fetch order, as the crawl itself would have added them.
 */
#include "crawler/indexload.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int
load_one(const struct store_fingerprints *f, void *arg)
{
	struct crawl *c = arg;
	struct dedup_fp fp;
	size_t nm;

	memset(&fp, 0, sizeof(fp));
	if (f->md5 != NULL)
		snprintf(fp.md5, sizeof(fp.md5), "%s", f->md5);
	if (f->has_simhash && (c->cfg->methods & DEDUP_SIMHASH)) {
		fp.simhash = f->simhash;
		fp.have |= DEDUP_SIMHASH;
	}
	if (f->ssdeep != NULL && (c->cfg->methods & DEDUP_SSDEEP)) {
		snprintf(fp.ssdeep, sizeof(fp.ssdeep), "%s", f->ssdeep);
		fp.have |= DEDUP_SSDEEP;
	}
	/* A signature of another length (--force-settings) cannot be
	 * compared: the page is just not in the MinHash index. */
	if ((c->cfg->methods & DEDUP_MINHASH) &&
	    minhash_decode(f->minhash, f->minhash_len,
	        (size_t)c->cfg->minhash_perms, fp.minhash) == 0) {
		fp.minhash_perms = c->cfg->minhash_perms;
		fp.have |= DEDUP_MINHASH;
	}
	fp.have |= DEDUP_MD5;
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
	struct crawl *c = arg;
	const unsigned char *b;
	uint32_t *blocks;
	size_t n, i;
	int rc, teaches;

	if (shingles_blocks(blob, len, &b, &n, &teaches) != 0 || n == 0 ||
	    (teaches < 0 ? !dedup_learns_template(c->dd,
	    dedup_verdict_of(verdict), NULL) : !teaches))
		return 0;
	if ((blocks = malloc(n * sizeof(*blocks))) == NULL)
		return -1;
	for (i = 0; i < n; i++)
		blocks[i] = shingles_block_at(b, i);
	rc = tmpl_learn(c->site, crawl_site_of(c, host), blocks, n);
	free(blocks);
	return rc;
}

/* A stored TDW vector back into the index; a malformed one is skipped,
 * as a malformed ssdeep digest is. */
static int
load_tdw(int64_t id, const void *vec, size_t len, void *arg)
{
	struct crawl *c = arg;
	struct tdw_vec v;

	if (tdw_unpack(vec, len, &v) != 0)
		return 0;
	return dedup_add_tdw(c->dd, &v, id) != 0 ? -1 : 0;
}

/* Pages per read of a bounded span: PostgreSQL hands a statement's rows
 * over all at once, so a million-page resume reads them a slice at a time
 * rather than holding them all in memory. */
#define SLICE_PAGES 20000

static int
load_slice(struct crawl *c, const struct store_span *sp)
{
	if (store_load_fingerprints_in(c->st, sp, load_one, c) != 0 ||
	    store_load_blocks_in(c->st, sp, load_blocks, c) != 0 ||
	    ((c->cfg->methods & DEDUP_TDW) &&
	    store_load_tdw_in(c->st, sp, load_tdw, c) != 0))
		return -1;
	return 0;
}

int
indexload_span(struct crawl *c, const struct store_span *sp)
{
	struct store_span slice = *sp;

	/* Unbounded (SQLite's resume): one read, which SQLite streams. */
	if (sp->upto == INT64_MAX)
		return load_slice(c, sp);
	while (slice.after < sp->upto) {
		slice.upto = sp->upto - slice.after > SLICE_PAGES ?
		    slice.after + SLICE_PAGES : sp->upto;
		if (load_slice(c, &slice) != 0)
			return -1;
		slice.after = slice.upto;
	}
	return 0;
}
