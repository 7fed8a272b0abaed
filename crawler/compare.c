#include "compare.h"

#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "dedup.h"
#include "docload.h"
#include "esc.h"
#include "extract.h"
#include "minhash.h"
#include "simhash.h"

#define ALL_NEAR (DEDUP_SIMHASH | DEDUP_SSDEEP | DEDUP_MINHASH | DEDUP_TDW)

/* One side of the comparison. */
struct doc {
	const char *name;      /* as given */
	struct buf raw;        /* bytes read or fetched */
	char ctype[128];       /* Content-Type of a URL, "" for a file */
	struct extract_result ex; /* when HTML */
	int html;              /* ex is set */
	struct dedup_fp fp;    /* fingerprints */
};

/* Read or fetch d, extract its text and fingerprint it as the crawl would. */
static int
load(const struct config *cfg, const struct dedup *dd, struct doc *d,
    char *err, size_t errsz)
{
	struct extract_opts eo;
	struct tdw_fields tf, *fields = NULL;
	const char *why = NULL, *text, *near, *url = NULL;
	char charset[64];
	size_t len, near_len;
	int use_main = strcmp(cfg->near_text, "main") == 0;

	if (docload_read(cfg, d->name, &d->raw, d->ctype, sizeof(d->ctype),
	    err, errsz) != 0)
		return 1;
	if (docload_is_url(d->name))
		url = d->name;
	text = d->raw.data != NULL ? d->raw.data : "";
	len = near_len = d->raw.len;
	near = text;
	d->html = extract_is_html(d->ctype[0] != '\0' ? d->ctype : NULL, text,
	    len);
	if (d->html) {
		extract_charset_of(d->ctype, charset, sizeof(charset));
		eo.charset = charset[0] != '\0' ? charset : NULL;
		eo.max_text = (size_t)cfg->max_text;
		eo.max_links = 1;
		if (extract_html(text, len, url, &eo, &d->ex, &why) != 0) {
			snprintf(err, errsz, "%s: %s", d->name, why);
			d->html = 0;
			return 1;
		}
		text = d->ex.text;
		len = d->ex.text_len;
		near = use_main ? d->ex.main_text : d->ex.text;
		near_len = use_main ? d->ex.main_len : d->ex.text_len;
		/* The fields the crawl weights TDW tokens by. */
		extract_tdw_fields(&d->ex, url, &tf);
		fields = &tf;
	}
	if (dedup_fingerprint_page(dd, text, len, near, near_len, fields,
	    &d->fp) != 0) {
		snprintf(err, errsz, "%s: cannot fingerprint", d->name);
		return 1;
	}
	return 0;
}

/* What a method's line ends with: its threshold, or that it is off. */
static void
print_rule(FILE *out, const struct config *cfg, unsigned m, const char *rule)
{
	if (cfg->methods & m)
		fprintf(out, " (near when %s)\n", rule);
	else
		fprintf(out, " (not in --methods: no part in the verdict)\n");
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
print_doc(FILE *out, const char *label, const struct doc *d)
{
	fprintf(out, "%s: ", label);
	esc_fputs(d->name, out);
	fprintf(out, "\n   %s, %zu bytes", d->html ? "HTML" : "plain text",
	    d->raw.len);
	if (d->html)
		fprintf(out, ", text %zu bytes, main text %zu bytes",
		    d->ex.text_len, d->ex.main_len);
	fprintf(out, "\n");
}

int
compare_run(const struct config *cfg, const char *a, const char *b,
    FILE *out, char *err, size_t errsz)
{
	struct dedup_config dc;
	struct dedup_match m[DEDUP_MAX_MATCHES];
	struct dedup *dd, *all = NULL;
	struct doc da, db;
	enum dedup_verdict v;
	char rule[64];
	size_t nm;
	int rc = 1, dist, score, agree, k = cfg->minhash_perms;

	memset(&da, 0, sizeof(da));
	memset(&db, 0, sizeof(db));
	da.name = a;
	db.name = b;
	buf_init(&da.raw, (size_t)cfg->max_body);
	buf_init(&db.raw, (size_t)cfg->max_body);
	config_dedup(cfg, &dc);
	dd = dedup_new(&dc);
	/* Every method's similarity is shown; only dd's decide the verdict. */
	dc.methods |= ALL_NEAR;
	all = dedup_new(&dc);
	if (dd == NULL || all == NULL) {
		snprintf(err, errsz, "bad dedup settings or out of memory");
		goto out;
	}
	if (load(cfg, all, &da, err, errsz) != 0 ||
	    load(cfg, all, &db, err, errsz) != 0)
		goto out;
	if (dedup_add(dd, &da.fp, 1) != 0) {
		snprintf(err, errsz, "out of memory");
		goto out;
	}
	v = dedup_check(dd, &db.fp, m, sizeof(m) / sizeof(m[0]), &nm);
	print_doc(out, "A", &da);
	print_doc(out, "B", &db);
	fprintf(out, "near methods read: %s text\n", cfg->near_text);
	fprintf(out, "md5:     %s\n", strcmp(da.fp.md5, db.fp.md5) == 0
	    ? "equal texts" : "different texts");
	dist = simhash_distance(da.fp.simhash, db.fp.simhash);
	fprintf(out, "simhash: distance %d of 64 bits, %.1f %%", dist,
	    simhash_percent(dist));
	snprintf(rule, sizeof(rule), "<= %d", cfg->simhash_k);
	print_rule(out, cfg, DEDUP_SIMHASH, rule);
	score = ssdeep_score(da.fp.ssdeep, db.fp.ssdeep);
	fprintf(out, "ssdeep:  score %d", score);
	snprintf(rule, sizeof(rule), ">= %d", cfg->ssdeep_threshold);
	print_rule(out, cfg, DEDUP_SSDEEP, rule);
	agree = (int)minhash_agree(da.fp.minhash, db.fp.minhash, (size_t)k);
	fprintf(out, "minhash: %d of %d positions agree, Jaccard ~%.1f %%, "
	    "%d of %d bands equal", agree, k, minhash_percent(agree,
	    (size_t)k), equal_bands(da.fp.minhash, db.fp.minhash, k,
	    cfg->minhash_bands), cfg->minhash_bands);
	snprintf(rule, sizeof(rule), ">= %d %% and a band is equal",
	    cfg->minhash_threshold);
	print_rule(out, cfg, DEDUP_MINHASH, rule);
	fprintf(out, "tdw:     weighted overlap %.1f %% of %u and %u tokens",
	    tdw_percent(tdw_overlap(&da.fp.tdw, &db.fp.tdw)),
	    (unsigned)da.fp.tdw.n, (unsigned)db.fp.tdw.n);
	snprintf(rule, sizeof(rule), ">= %d %%", cfg->tdw_threshold);
	print_rule(out, cfg, DEDUP_TDW, rule);
	fprintf(out, "verdict: %s (B after A, rule %s)\n",
	    dedup_verdict_name(v), cfg->near_rule);
	rc = 0;
out:
	extract_result_free(&da.ex);
	extract_result_free(&db.ex);
	buf_free(&da.raw);
	buf_free(&db.raw);
	dedup_free(dd);
	dedup_free(all);
	return rc;
}
