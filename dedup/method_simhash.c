/*
 * method_simhash: near copies by SimHash (Charikar), 64 bits of the
 * near text, alike within simhash_k differing bits; the index is the
 * block-permuted table of simindex.c.
 */
#include "dedup/method.h"

#include <stddef.h>
#include <stdio.h>

#include "dedup/dedup.h"
#include "dedup/simhash.h"
#include "dedup/simindex.h"

static int
fingerprint(const struct dedup_config *cfg, const char *text, size_t len,
    const struct words_seq *ws, const struct tdw_fields *f,
    struct dedup_fp *fp)
{
	struct simhash_opts so = simhash_default_opts;

	so.fold_numbers = cfg->fold_numbers;
	fp->simhash = simhash_of_text_words(text, len, ws, &so);
	return 0;
}

static int
pair(const struct dedup_fp *a, const struct dedup_fp *b, double *value)
{
	*value = simhash_distance(a->simhash, b->simhash);
	return 0;
}

static void
explain(const struct dedup_config *cfg, const struct dedup_fp *a,
    const struct dedup_fp *b, char *what, size_t whatsz, char *rule,
    size_t rulesz)
{
	int dist = simhash_distance(a->simhash, b->simhash);

	snprintf(what, whatsz, "distance %d of 64 bits, %.1f %%", dist,
	    simhash_percent(dist));
	snprintf(rule, rulesz, "<= %d", cfg->simhash_k);
}

static void *
index_new(const struct dedup_config *cfg)
{
	return simindex_new(cfg->simhash_k);
}

static void
index_free(void *ix)
{
	simindex_free(ix);
}

static size_t
query(void *ix, const struct dedup_config *cfg, const struct dedup_fp *fp,
    struct dedup_match *out, size_t max)
{
	struct simindex_match sm[DEDUP_MAX_PER_METHOD];
	size_t n, i;

	if (max > DEDUP_MAX_PER_METHOD)
		max = DEDUP_MAX_PER_METHOD;
	n = simindex_query(ix, fp->simhash, sm, max);
	if (n > max)
		n = max;
	for (i = 0; i < n; i++) {
		out[i].original_id = sm[i].id;
		out[i].method = DEDUP_SIMHASH;
		out[i].percent = simhash_percent(sm[i].distance);
	}
	return n;
}

static int
add(void *ix, const struct dedup_fp *fp, int64_t id)
{
	return simindex_add(ix, fp->simhash, id);
}

static void
pop(void *ix)
{
	simindex_pop(ix);
}

/* One key per table of the index: a match agrees exactly on some table's
 * bits. */
static size_t
keys_max(const void *ix, const struct dedup_config *cfg)
{
	uint64_t keys[SIMINDEX_MAX_TABLES];

	return simindex_keys(ix, 0, keys);
}

static size_t
keys(const void *ix, const struct dedup_fp *fp, uint64_t *raw)
{
	return simindex_keys(ix, fp->simhash, raw);
}

static size_t
bytes(const void *ix)
{
	return simindex_bytes(ix);
}

static const char *const settings[] = { "simhash_k", NULL };

static const struct dedup_method_info info = {
	.method = DEDUP_SIMHASH,
	.name = "simhash",
	.threshold = "k",
	.distance = 1,
	.lo = 0,
	.hi = SIMINDEX_MAX_K,
	.sweep = "0,1,2,3,4,5,6,8,10",
	.settings = settings,
	.features_key = "simhash_features",
	.features = SIMHASH_FEATURES_VERSION,
	.features_label = "SimHash features version",
};

const struct dedup_method_ops dedup_method_simhash = {
	.info = &info,
	.threshold_at = offsetof(struct dedup_config, simhash_k),
	.add_kind = DEDUP_ADD_UNDO,
	.fingerprint = fingerprint,
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
