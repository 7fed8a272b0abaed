#include "cmd/compare.h"

#include <stdlib.h>
#include <string.h>

#include "cmd/docload.h"
#include "dedup/dedup.h"
#include "digest/digest.h"
#include "util/buf.h"
#include "util/esc.h"
#include "web/extract.h"

/* One side of the comparison. */
struct doc {
	const char *name;      /* as given */
	struct buf raw;        /* bytes read or fetched */
	char ctype[128];       /* Content-Type of a URL, "" for a file */
	int html;              /* read as HTML */
	struct digest dg;      /* texts and fingerprints, as a crawl has */
};

/* Read or fetch d, and digest it as the crawl would. */
static int
load(const struct config *cfg, const struct dedup *dd, struct doc *d,
    char *err, size_t errsz)
{
	struct digest_opts o;
	const char *why = NULL, *url = NULL, *data;
	char charset[64];

	if (docload_read(cfg, d->name, &d->raw, d->ctype, sizeof(d->ctype),
	    err, errsz) != 0)
		return 1;
	if (docload_is_url(d->name))
		url = d->name;
	data = d->raw.data != NULL ? d->raw.data : "";
	d->html = extract_is_html(d->ctype[0] != '\0' ? d->ctype : NULL, data,
	    d->raw.len);
	digest_opts_of(cfg, d->ctype, 1, charset, sizeof(charset), &o);
	if (digest_page(dd, &o, data, d->raw.len, d->html, url, &d->dg,
	    &why) != 0) {
		snprintf(err, errsz, "%s: %s", d->name, why);
		return 1;
	}
	return 0;
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
		    d->dg.ex.text_len, d->dg.ex.main_len);
	fprintf(out, "\n   near methods read the %s text: %zu words, %zu "
	    "distinct shingles\n", d->dg.near_main ? "main" : "body",
	    d->dg.sh.words, d->dg.sh.distinct);
}

/* Each method's similarity of A and B, with its rule and whether it is on
 * (dc: the settings that made both fingerprints, with every method). */
static void
print_methods(FILE *out, const struct config *cfg,
    const struct dedup_config *dc, const struct doc *da,
    const struct doc *db)
{
	const struct dedup_method_info *mi;
	char what[256], rule[64], label[16];
	size_t i;

	for (i = 0; (mi = dedup_method_at(i)) != NULL; i++) {
		if (dedup_pair_explain(mi->method, dc, &da->dg.fp, &db->dg.fp,
		    what, sizeof(what), rule, sizeof(rule)) != 0)
			continue;
		snprintf(label, sizeof(label), "%s:", mi->name);
		fprintf(out, "%-9s%s", label, what);
		if (rule[0] == '\0')
			fputc('\n', out);
		else if (cfg->methods & (unsigned)mi->method)
			fprintf(out, " (proposes A when %s)\n", rule);
		else
			fprintf(out, " (not in --methods: no part in the "
			    "verdict)\n");
	}
}

/*
 * The figures that decide whether B is near A (docs/dedup.md, "What near
 * means"): B's words, its own words (a pair has no site template: all of
 * them), the new ones, and the shares against the setting. Returns 0, or
 * -1 when out of memory.
 */
static int
print_novelty(FILE *out, const struct config *cfg, const struct dedup *dd,
    const struct doc *da, const struct doc *db)
{
	struct shingles_novelty nv;
	struct shingles_ref q;
	int own = dedup_own_novelty(dd);

	if (shingles_ref_of(&da->dg.sh, &q) != 0)
		return -1;
	dedup_measure(dd, &db->dg.sh, &q, NULL, &nv);
	shingles_ref_free(&q);
	fprintf(out, "new:     %zu of B's %zu words are not in A (%.1f %%); "
	    "B's own words (outside a site template; a pair has none): %zu, "
	    "new %zu (%.1f %%)\n", nv.new_all, nv.words,
	    nv.words > 0 ? 100.0 * (double)nv.new_all / (double)nv.words : 0,
	    nv.own, nv.new_own,
	    nv.own > 0 ? 100.0 * (double)nv.new_own / (double)nv.own : 0);
	if (nv.listed)
		fprintf(out, "listed:  A lists B (an item of A leads to B "
		    "under one of B's lines): B is not a copy of A\n");
	fprintf(out, "rule:    near when at most %d %% of ",
	    cfg->max_novel_percent);
	if (!own)
		fprintf(out, "all its words (template words not new)");
	else if (nv.own < DEDUP_OWN_MIN_WORDS)
		fprintf(out, "all its words (fewer than %d of its own)",
		    DEDUP_OWN_MIN_WORDS);
	else
		fprintf(out, "its own words and of all its words");
	fprintf(out, " are new");
	if (cfg->max_novel_words >= 0)
		fprintf(out, ", at most %d new words", cfg->max_novel_words);
	fprintf(out, ", and %d distinct shingles on each side "
	    "(B has %zu, A %zu)\n", cfg->min_shingles, db->dg.sh.distinct,
	    da->dg.sh.distinct);
	return 0;
}

/*
 * B's verdict after A, as a crawl that fetched A then B would give it:
 * A indexed and its template counted, B judged and confirmed against A's
 * shingles. Returns 0, or -1 when out of memory.
 */
static int
judge_pair(struct dedup *dd, struct doc *da, struct doc *db,
    enum dedup_verdict *v, struct dedup_veto *veto, unsigned *proposed,
    int *linked)
{
	struct dedup_match m[DEDUP_MAX_MATCHES];
	struct tmpl *site;
	size_t nm, i;
	int fail = 0;

	/* A, the first page, is unique: it teaches the template. */
	da->dg.sh.teaches = 1;
	if ((site = tmpl_new()) == NULL ||
	    digest_add(dd, site, "", &da->dg, 1) != 0) {
		tmpl_free(site);
		return -1;
	}
	/* Which methods propose A, before the definition judges B. */
	*proposed = 0;
	if (dedup_check(dd, &db->dg.fp, m, sizeof(m) / sizeof(m[0]), &nm) ==
	    DEDUP_NEAR)
		for (i = 0; i < nm; i++)
			*proposed |= m[i].method;
	*linked = digest_linker(&da->dg, &db->dg, 1) != 0;
	*v = digest_judge(dd, site, "", &db->dg, digest_linker(&da->dg,
	    &db->dg, 1), digest_set_of_first, &da->dg.sh, m,
	    sizeof(m) / sizeof(m[0]), &nm, veto, &fail);
	tmpl_free(site);
	return fail ? -1 : 0;
}

int
compare_run(const struct config *cfg, const char *a, const char *b,
    FILE *out, char *err, size_t errsz)
{
	struct dedup_config dc;
	struct dedup_veto veto;
	struct dedup *dd, *all = NULL;
	struct doc da, db;
	enum dedup_verdict v;
	const char *sep;
	unsigned proposed;
	size_t i;
	int rc = 1, linked;

	memset(&da, 0, sizeof(da));
	memset(&db, 0, sizeof(db));
	da.name = a;
	db.name = b;
	buf_init(&da.raw, (size_t)cfg->max_body);
	buf_init(&db.raw, (size_t)cfg->max_body);
	config_dedup(cfg, &dc);
	dd = dedup_new(&dc);
	/* Every method's similarity is shown; only dd's decide the verdict. */
	dc.methods |= dedup_all_methods();
	all = dedup_new(&dc);
	if (dd == NULL || all == NULL) {
		snprintf(err, errsz, "bad dedup settings or out of memory");
		goto out;
	}
	if (load(cfg, all, &da, err, errsz) != 0 ||
	    load(cfg, all, &db, err, errsz) != 0)
		goto out;
	if (judge_pair(dd, &da, &db, &v, &veto, &proposed, &linked) != 0) {
		snprintf(err, errsz, "out of memory");
		goto out;
	}
	print_doc(out, "A", &da);
	print_doc(out, "B", &db);
	fprintf(out, "near methods read: %s text (--text %s)\n",
	    da.dg.near_main && db.dg.near_main ? "main" :
	    !da.dg.near_main && !db.dg.near_main ? "body" : "main or body",
	    cfg->near_text);
	print_methods(out, cfg, &dc, &da, &db);
	fprintf(out, "candidate: ");
	if (v == DEDUP_EXACT)
		fprintf(out, "md5 (equal texts)");
	else if (proposed == 0 && !(linked && dc.linker))
		fprintf(out, "no method of --methods proposes A (rule %s)%s: "
		    "B is unique whatever its words", cfg->near_rule,
		    linked ? "" : " and A does not link to B");
	else {
		for (i = 0, sep = "proposed by "; dedup_method_at(i) != NULL;
		    i++)
			if (proposed & dedup_method_at(i)->method) {
				fprintf(out, "%s%s", sep,
				    dedup_method_at(i)->name);
				sep = ", ";
			}
		if (linked && dc.linker)
			fprintf(out, "%slinker (A links to B)", sep);
	}
	fprintf(out, "\n");
	if (print_novelty(out, cfg, dd, &da, &db) != 0) {
		snprintf(err, errsz, "out of memory");
		goto out;
	}
	fprintf(out, "verdict: %s (B after A, rule %s)", dedup_verdict_name(v),
	    cfg->near_rule);
	if (v == DEDUP_UNIQUE && veto.floor)
		fprintf(out, ": too little text to judge near");
	else if (v == DEDUP_UNIQUE && veto.original_id > 0 && veto.nv.listed)
		fprintf(out, ": A lists B");
	else if (v == DEDUP_UNIQUE && veto.original_id > 0)
		fprintf(out, ": %zu of B's words are new", veto.nv.new_all);
	else if (v == DEDUP_UNIQUE)
		fprintf(out, ": no method proposed A as a candidate");
	fprintf(out, "\n");
	rc = 0;
out:
	digest_free(&da.dg);
	digest_free(&db.dg);
	buf_free(&da.raw);
	buf_free(&db.raw);
	dedup_free(dd);
	dedup_free(all);
	return rc;
}
