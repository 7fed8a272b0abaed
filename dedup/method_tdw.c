/*
 * method_tdw: near copies by the weighted overlap of the pages' heaviest
 * tokens (TDW, tdw.c), weighted by where a token occurs, at least
 * tdw_threshold %; the index finds overlaps by prefix filtering.
 */
#include "dedup/method.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "dedup/dedup.h"
#include "dedup/tdw.h"

static int
config_ok(const struct dedup_config *cfg)
{
	return cfg->tdw_threshold >= 1 && cfg->tdw_threshold <= 100 &&
	    cfg->tdw.max_tokens >= 1 && cfg->tdw.max_tokens <= TDW_TOKENS_MAX;
}

/* The near text with the page's other fields (f, NULL for none). */
static int
fingerprint(const struct dedup_config *cfg, const char *text, size_t len,
    const struct words_seq *ws, const struct tdw_fields *f,
    struct dedup_fp *fp)
{
	struct tdw_fields tf;

	if (f != NULL)
		tf = *f;
	else
		memset(&tf, 0, sizeof(tf));
	tf.text = text;
	tf.text_len = len;
	return tdw_vector(&tf, &cfg->tdw, &fp->tdw);
}

static int
pair(const struct dedup_fp *a, const struct dedup_fp *b, double *value)
{
	*value = tdw_percent(tdw_overlap(&a->tdw, &b->tdw));
	return 0;
}

static void
explain(const struct dedup_config *cfg, const struct dedup_fp *a,
    const struct dedup_fp *b, char *what, size_t whatsz, char *rule,
    size_t rulesz)
{
	snprintf(what, whatsz, "weighted overlap %.1f %% of %u and %u tokens",
	    tdw_percent(tdw_overlap(&a->tdw, &b->tdw)), (unsigned)a->tdw.n,
	    (unsigned)b->tdw.n);
	snprintf(rule, rulesz, ">= %d %%", cfg->tdw_threshold);
}

static void *
index_new(const struct dedup_config *cfg)
{
	return tdw_index_new(cfg->tdw_threshold);
}

static void
index_free(void *ix)
{
	tdw_index_free(ix);
}

static size_t
query(void *ix, const struct dedup_config *cfg, const struct dedup_fp *fp,
    struct dedup_match *out, size_t max)
{
	struct tdw_match tm[DEDUP_MAX_PER_METHOD];
	size_t n, i;

	if (max > DEDUP_MAX_PER_METHOD)
		max = DEDUP_MAX_PER_METHOD;
	n = tdw_index_query(ix, &fp->tdw, tm, max);
	if (n > max)
		n = max;
	for (i = 0; i < n; i++) {
		out[i].original_id = tm[i].id;
		out[i].method = DEDUP_TDW;
		out[i].percent = tdw_percent(tm[i].overlap);
	}
	return n;
}

static int
reserve(void *ix, const struct dedup_fp *fp, int64_t id)
{
	return tdw_index_reserve(ix, &fp->tdw);
}

static int
add(void *ix, const struct dedup_fp *fp, int64_t id)
{
	return tdw_index_add(ix, &fp->tdw, id);
}

/* The prefix of the vector at the threshold: a match shares a token in
 * both prefixes. */
static size_t
keys_max(const void *ix, const struct dedup_config *cfg)
{
	return (size_t)cfg->tdw.max_tokens;
}

static size_t
keys(const void *ix, const struct dedup_fp *fp, uint64_t *raw)
{
	return tdw_index_keys(ix, &fp->tdw, raw);
}

static size_t
bytes(const void *ix)
{
	return tdw_index_bytes(ix);
}

static const char *const settings[] = { "tdw_threshold", "tdw_stopwords",
	"tdw_stem", "tdw_max_tokens", NULL };

static const struct dedup_method_info info = {
	.method = DEDUP_TDW,
	.name = "tdw",
	.threshold = "T",
	.lo = 1,
	.hi = 100,
	.sweep = "50,60,70,75,80,90",
	.settings = settings,
	.features_key = "tdw_features",
	.features = TDW_FEATURES_VERSION,
	.features_label = "TDW features version",
};

const struct dedup_method_ops dedup_method_tdw = {
	.info = &info,
	.threshold_at = offsetof(struct dedup_config, tdw_threshold),
	.add_kind = DEDUP_ADD_RESERVED,
	.config_ok = config_ok,
	.fingerprint = fingerprint,
	.pair = pair,
	.explain = explain,
	.index_new = index_new,
	.index_free = index_free,
	.query = query,
	.reserve = reserve,
	.add = add,
	.keys_max = keys_max,
	.keys = keys,
	.bytes = bytes,
};
