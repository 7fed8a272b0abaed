/*
 * method_ssdeep: near copies by context-triggered piecewise hashing
 * (Kornblum's ssdeep, libfuzzy), alike when fuzzy_compare scores at least
 * ssdeep_threshold; the index is ssdeep.c's 7-gram index.
 */
#include "dedup/method.h"

#include <stddef.h>
#include <stdio.h>

#include "dedup/dedup.h"
#include "dedup/ssdeep.h"

static int
config_ok(const struct dedup_config *cfg)
{
	return cfg->ssdeep_threshold >= 1 && cfg->ssdeep_threshold <= 100;
}

static int
fingerprint(const struct dedup_config *cfg, const char *text, size_t len,
    const struct words_seq *ws, const struct tdw_fields *f,
    struct dedup_fp *fp)
{
	return ssdeep_of_text(text, len, fp->ssdeep);
}

static int
pair(const struct dedup_fp *a, const struct dedup_fp *b, double *value)
{
	int score = ssdeep_score(a->ssdeep, b->ssdeep);

	if (score < 0)
		return -1;
	*value = score;
	return 0;
}

static void
explain(const struct dedup_config *cfg, const struct dedup_fp *a,
    const struct dedup_fp *b, char *what, size_t whatsz, char *rule,
    size_t rulesz)
{
	snprintf(what, whatsz, "score %d", ssdeep_score(a->ssdeep,
	    b->ssdeep));
	snprintf(rule, rulesz, ">= %d", cfg->ssdeep_threshold);
}

static void *
index_new(const struct dedup_config *cfg)
{
	return ssdeep_index_new();
}

static void
index_free(void *ix)
{
	ssdeep_index_free(ix);
}

static size_t
query(void *ix, const struct dedup_config *cfg, const struct dedup_fp *fp,
    struct dedup_match *out, size_t max)
{
	struct ssdeep_match dm[DEDUP_MAX_PER_METHOD];
	size_t n, i;

	if (max > DEDUP_MAX_PER_METHOD)
		max = DEDUP_MAX_PER_METHOD;
	n = ssdeep_index_query(ix, fp->ssdeep, cfg->ssdeep_threshold, dm,
	    max);
	if (n > max)
		n = max;
	for (i = 0; i < n; i++) {
		out[i].original_id = dm[i].id;
		out[i].method = DEDUP_SSDEEP;
		out[i].percent = dm[i].score;
	}
	return n;
}

/* The index cannot undo an add, so it takes its page last. A malformed
 * stored digest (-2) just cannot be found. */
static int
add(void *ix, const struct dedup_fp *fp, int64_t id)
{
	int rc = ssdeep_index_add(ix, fp->ssdeep, id);

	return rc == -2 ? 1 : rc;
}

static size_t
keys_max(const void *ix, const struct dedup_config *cfg)
{
	return SSDEEP_KEYS_MAX;
}

static size_t
keys(const void *ix, const struct dedup_fp *fp, uint64_t *raw)
{
	return ssdeep_keys(fp->ssdeep, raw);
}

static size_t
bytes(const void *ix)
{
	return ssdeep_index_bytes(ix);
}

static const char *const settings[] = { "ssdeep_threshold", NULL };

static const struct dedup_method_info info = {
	.method = DEDUP_SSDEEP,
	.name = "ssdeep",
	.threshold = "T",
	.lo = 1,
	.hi = 100,
	.sweep = "1,30,50,70,80,90,95",
	.settings = settings,
};

const struct dedup_method_ops dedup_method_ssdeep = {
	.info = &info,
	.threshold_at = offsetof(struct dedup_config, ssdeep_threshold),
	.add_kind = DEDUP_ADD_LAST,
	.config_ok = config_ok,
	.fingerprint = fingerprint,
	.pair = pair,
	.explain = explain,
	.index_new = index_new,
	.index_free = index_free,
	.query = query,
	.add = add,
	.keys_max = keys_max,
	.keys = keys,
	.bytes = bytes,
};
