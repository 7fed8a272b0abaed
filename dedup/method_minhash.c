/*
 * method_minhash: near copies by MinHash (Broder) over word shingles, the
 * estimated Jaccard similarity at least minhash_threshold %; the index
 * buckets signatures by LSH bands (minhash.c).
 */
#include "dedup/method.h"

#include <stddef.h>
#include <stdio.h>

#include "dedup/dedup.h"
#include "dedup/minhash.h"

static int
config_ok(const struct dedup_config *cfg)
{
	return cfg->minhash_perms >= MINHASH_MIN_PERMS &&
	    cfg->minhash_perms <= MINHASH_MAX_PERMS &&
	    cfg->minhash_bands >= 1 &&
	    cfg->minhash_bands <= cfg->minhash_perms &&
	    cfg->minhash_perms % cfg->minhash_bands == 0 &&
	    cfg->minhash_shingle >= 1 &&
	    cfg->minhash_shingle <= MINHASH_MAX_SHINGLE &&
	    cfg->minhash_threshold >= 1 && cfg->minhash_threshold <= 100;
}

static int
fingerprint(const struct dedup_config *cfg, const char *text, size_t len,
    const struct words_seq *ws, const struct tdw_fields *f,
    struct dedup_fp *fp)
{
	if (minhash_of_text_words(text, len, ws, cfg->minhash_shingle,
	    (size_t)cfg->minhash_perms, fp->minhash, cfg->fold_numbers) != 0)
		return -1;
	fp->minhash_perms = cfg->minhash_perms;
	return 0;
}

/* A signature of another length (a resumed crawl's, say) cannot be
 * compared with ours. */
static int
comparable(const struct dedup_config *cfg, const struct dedup_fp *fp)
{
	return fp->minhash_perms == cfg->minhash_perms;
}

static int
pair(const struct dedup_fp *a, const struct dedup_fp *b, double *value)
{
	/* Signatures of two lengths estimate nothing together. */
	if (a->minhash_perms != b->minhash_perms || a->minhash_perms <= 0)
		return -1;
	*value = minhash_percent((int)minhash_agree(a->minhash, b->minhash,
	    (size_t)a->minhash_perms), (size_t)a->minhash_perms);
	return 0;
}

/* Bands of k positions whose every row agrees: what LSH buckets see. */
static int
equal_bands(const uint32_t *a, const uint32_t *b, int k, int bands)
{
	int rows = k / bands, i, n = 0;

	for (i = 0; i < bands; i++)
		n += minhash_agree(a + i * rows, b + i * rows,
		    (size_t)rows) == (size_t)rows;
	return n;
}

static void
explain(const struct dedup_config *cfg, const struct dedup_fp *a,
    const struct dedup_fp *b, char *what, size_t whatsz, char *rule,
    size_t rulesz)
{
	int k = cfg->minhash_perms;
	int agree = (int)minhash_agree(a->minhash, b->minhash, (size_t)k);

	snprintf(what, whatsz, "%d of %d positions agree, Jaccard ~%.1f %%, "
	    "%d of %d bands equal", agree, k, minhash_percent(agree,
	    (size_t)k), equal_bands(a->minhash, b->minhash, k,
	    cfg->minhash_bands), cfg->minhash_bands);
	snprintf(rule, rulesz, ">= %d %% and a band is equal",
	    cfg->minhash_threshold);
}

static void *
index_new(const struct dedup_config *cfg)
{
	return minhash_index_new((size_t)cfg->minhash_perms,
	    (size_t)cfg->minhash_bands);
}

static void
index_free(void *ix)
{
	minhash_index_free(ix);
}

static size_t
query(void *ix, const struct dedup_config *cfg, const struct dedup_fp *fp,
    struct dedup_match *out, size_t max)
{
	struct minhash_match mm[DEDUP_MAX_PER_METHOD];
	size_t n, i;

	if (max > DEDUP_MAX_PER_METHOD)
		max = DEDUP_MAX_PER_METHOD;
	n = minhash_index_query(ix, fp->minhash, cfg->minhash_threshold, mm,
	    max);
	if (n > max)
		n = max;
	for (i = 0; i < n; i++) {
		out[i].original_id = mm[i].id;
		out[i].method = DEDUP_MINHASH;
		out[i].percent = minhash_percent(mm[i].agree,
		    (size_t)cfg->minhash_perms);
	}
	return n;
}

static int
add(void *ix, const struct dedup_fp *fp, int64_t id)
{
	return minhash_index_add(ix, fp->minhash, id);
}

static void
pop(void *ix)
{
	minhash_index_pop(ix);
}

/* One key per LSH band: a candidate shares a band. */
static size_t
keys_max(const void *ix, const struct dedup_config *cfg)
{
	return (size_t)cfg->minhash_bands;
}

static size_t
keys(const void *ix, const struct dedup_fp *fp, uint64_t *raw)
{
	return minhash_index_keys(ix, fp->minhash, raw);
}

static size_t
bytes(const void *ix)
{
	return minhash_index_bytes(ix);
}

static const char *const settings[] = { "minhash_perms", "minhash_bands",
	"minhash_shingle", "minhash_threshold", NULL };

static const struct dedup_method_info info = {
	.method = DEDUP_MINHASH,
	.name = "minhash",
	.threshold = "T",
	.lo = 1,
	.hi = 100,
	.sweep = "50,60,70,80,90",
	.settings = settings,
	.features_key = "minhash_features",
	.features = MINHASH_FEATURES_VERSION,
	.features_label = "MinHash features version",
};

const struct dedup_method_ops dedup_method_minhash = {
	.info = &info,
	.threshold_at = offsetof(struct dedup_config, minhash_threshold),
	.add_kind = DEDUP_ADD_UNDO,
	.config_ok = config_ok,
	.fingerprint = fingerprint,
	.comparable = comparable,
	.pair = pair,
	.explain = explain,
	.index_new = index_new,
	.index_free = index_free,
	.query = query,
	.add = add,
	.pop = pop,
	.keys_max = keys_max,
	.keys = keys,
	.bytes = bytes,
};
