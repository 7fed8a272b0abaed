/*
 * fprow: which store column holds which method's fingerprint (fprow.h).
 */
#include "crawler/fprow.h"

#include <stdio.h>
#include <string.h>

void
fprow_put(const struct dedup_fp *fp, struct store_page *p,
    unsigned char *blob)
{
	p->md5 = fp->md5;
	p->has_simhash = (fp->have & DEDUP_SIMHASH) != 0;
	p->simhash = fp->simhash;
	p->ssdeep = (fp->have & DEDUP_SSDEEP) ? fp->ssdeep : NULL;
	if (fp->have & DEDUP_MINHASH) {
		p->minhash_len = minhash_encode(fp->minhash,
		    (size_t)fp->minhash_perms, blob);
		p->minhash = blob;
	}
}

int
fprow_put_apart(struct store *st, int64_t id, const struct dedup_fp *fp)
{
	unsigned char vec[TDW_PACKED_MAX];

	if (!(fp->have & DEDUP_TDW) || fp->tdw.n == 0)
		return 0;
	return store_tdw_add(st, id, vec, tdw_pack(&fp->tdw, vec));
}

void
fprow_get(const struct config *cfg, const struct store_fingerprints *f,
    struct dedup_fp *fp)
{
	memset(fp, 0, sizeof(*fp));
	if (f->md5 != NULL)
		snprintf(fp->md5, sizeof(fp->md5), "%s", f->md5);
	fp->have |= DEDUP_MD5;
	if (f->has_simhash && (cfg->methods & DEDUP_SIMHASH)) {
		fp->simhash = f->simhash;
		fp->have |= DEDUP_SIMHASH;
	}
	if (f->ssdeep != NULL && (cfg->methods & DEDUP_SSDEEP)) {
		snprintf(fp->ssdeep, sizeof(fp->ssdeep), "%s", f->ssdeep);
		fp->have |= DEDUP_SSDEEP;
	}
	/* A signature of another length (--force-settings) cannot be
	 * compared: the page is just not in the MinHash index. */
	if ((cfg->methods & DEDUP_MINHASH) &&
	    minhash_decode(f->minhash, f->minhash_len,
	        (size_t)cfg->minhash_perms, fp->minhash) == 0) {
		fp->minhash_perms = cfg->minhash_perms;
		fp->have |= DEDUP_MINHASH;
	}
}

/* A stored TDW vector back into the index; a malformed one is skipped,
 * as a malformed ssdeep digest is. */
static int
load_tdw(int64_t id, const void *vec, size_t len, void *arg)
{
	struct dedup_fp fp;

	fp.have = DEDUP_TDW;
	if (tdw_unpack(vec, len, &fp.tdw) != 0)
		return 0;
	return dedup_add_method(arg, DEDUP_TDW, &fp, id) != 0 ? -1 : 0;
}

int
fprow_load_apart(struct store *st, const struct store_span *sp,
    const struct config *cfg, struct dedup *d)
{
	if (!(cfg->methods & DEDUP_TDW))
		return 0;
	return store_load_tdw_in(st, sp, load_tdw, d);
}
