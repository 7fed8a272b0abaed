/*
 * fprow: a page's fingerprints in the store and back. The schema gives
 * the methods columns of their own (pages.md5, pages.simhash,
 * pages.ssdeep, pages.minhash, the table page_tdw), mirroring the
 * research's tables; this is the one file of the crawl that knows which
 * column holds which method's fingerprint.
 */
#ifndef NC_CRAWL_FPROW_H
#define NC_CRAWL_FPROW_H

#include <stddef.h>
#include <stdint.h>

#include "config/config.h"
#include "dedup/dedup.h"
#include "storage/store.h"
#include "storage/store_resume.h"

/* Bytes fprow_put needs of its caller for a page's encoded columns. */
#define FPROW_BLOB_MAX MINHASH_BLOB_MAX

/*
 * Point p's fingerprint columns at fp's fingerprints (fp must outlive p's
 * use); blob (FPROW_BLOB_MAX bytes, the caller's) holds those that are
 * stored encoded. Cannot fail.
 */
void fprow_put(const struct dedup_fp *fp, struct store_page *p,
    unsigned char *blob);

/* Store the fingerprints of page id kept apart from its row (TDW's
 * vector). 0, or -1 on a database error. */
int fprow_put_apart(struct store *st, int64_t id, const struct dedup_fp *fp);

/*
 * fp made from a stored row f, with the methods of cfg (a resumed crawl
 * indexes what it is configured for): a malformed or incomparable stored
 * fingerprint is left out, as the page cannot be found by it. Cannot
 * fail.
 */
void fprow_get(const struct config *cfg,
    const struct store_fingerprints *f, struct dedup_fp *fp);

/*
 * Read the fingerprints of the pages of sp kept apart from their rows
 * back into d (dedup_add_method), for the methods of cfg; a malformed one
 * is skipped. 0, or -1 on a database or memory failure.
 */
int fprow_load_apart(struct store *st, const struct store_span *sp,
    const struct config *cfg, struct dedup *d);

#endif
