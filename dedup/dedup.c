/*
 * dedup: MD5 map for exact copies, simindex, ssdeep_index, minhash_index and
 * tdw_index for near ones, and the rule that turns their answers into a
 * verdict.
 */
#include "dedup/dedup.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/chars.h"
#include "util/mix64.h"
#include "dedup/md5map.h"
#include "dedup/simhash.h"
#include "dedup/simindex.h"

#define NEAR_METHODS (DEDUP_SIMHASH | DEDUP_SSDEEP | DEDUP_MINHASH | DEDUP_TDW)
#define KNOWN_METHODS (DEDUP_MD5 | NEAR_METHODS)
#define MD5_RAW MD5MAP_RAW

struct dedup {
	struct dedup_config cfg;   /* copy of the caller's */
	struct md5map md5;         /* exact copies */
	struct simindex *sim;      /* when cfg.methods has DEDUP_SIMHASH */
	struct ssdeep_index *ssd;  /* when cfg.methods has DEDUP_SSDEEP */
	struct minhash_index *mh;  /* when cfg.methods has DEDUP_MINHASH */
	struct tdw_index *tdw;     /* when cfg.methods has DEDUP_TDW */
	size_t count;              /* pages added */
};

/* The method table: the order is the order of --methods help and eval. */
static const struct dedup_method_info method_names[] = {
	{ DEDUP_MD5, "md5", NULL, 0, 1, 1, "1" },
	{ DEDUP_SIMHASH, "simhash", "k", 1, 0, SIMINDEX_MAX_K,
	    "0,1,2,3,4,5,6,8,10" },
	{ DEDUP_SSDEEP, "ssdeep", "T", 0, 1, 100, "1,30,50,70,80,90,95" },
	{ DEDUP_MINHASH, "minhash", "T", 0, 1, 100, "50,60,70,80,90" },
	{ DEDUP_TDW, "tdw", "T", 0, 1, 100, "50,60,70,75,80,90" },
};
#define NMETHODS (sizeof(method_names) / sizeof(method_names[0]))

int
dedup_parse_methods(const char *s, unsigned *methods, const char **bad)
{
	unsigned m = DEDUP_MD5;
	const char *start, *end;
	size_t i, n;

	while (s != NULL && *s != '\0') {
		while (*s == ' ' || *s == '\t')
			s++;
		start = s;
		while (*s != '\0' && *s != ',')
			s++;
		end = s;
		while (end > start && (end[-1] == ' ' || end[-1] == '\t'))
			end--;
		if (*s == ',')
			s++;
		n = (size_t)(end - start);
		if (n == 0)
			continue;
		for (i = 0; i < NMETHODS; i++)
			if (strlen(method_names[i].name) == n &&
			    strncasecmp(method_names[i].name, start, n) == 0)
				break;
		if (i == NMETHODS) {
			if (bad != NULL)
				*bad = start;
			return -1;
		}
		m |= (unsigned)method_names[i].method;
	}
	*methods = m;
	return 0;
}

const char *
dedup_method_name(enum dedup_method m)
{
	size_t i;

	for (i = 0; i < NMETHODS; i++)
		if (method_names[i].method == m)
			return method_names[i].name;
	return m == DEDUP_LINKER ? "linker" : "unknown";
}

const struct dedup_method_info *
dedup_method_at(size_t i)
{
	return i < NMETHODS ? &method_names[i] : NULL;
}

const struct dedup_method_info *
dedup_method_info(enum dedup_method m)
{
	size_t i;

	for (i = 0; i < NMETHODS; i++)
		if (method_names[i].method == m)
			return &method_names[i];
	return NULL;
}

int
dedup_config_threshold(struct dedup_config *cfg, enum dedup_method m,
    double t)
{
	const struct dedup_method_info *mi = dedup_method_info(m);

	/* Every threshold so far is a whole number. */
	if (mi == NULL || mi->threshold == NULL || !(t >= mi->lo) ||
	    !(t <= mi->hi) || t != (double)(int)t)
		return -1;
	switch (m) {
	case DEDUP_SIMHASH:
		cfg->simhash_k = (int)t;
		return 0;
	case DEDUP_SSDEEP:
		cfg->ssdeep_threshold = (int)t;
		return 0;
	case DEDUP_MINHASH:
		cfg->minhash_threshold = (int)t;
		return 0;
	case DEDUP_TDW:
		cfg->tdw_threshold = (int)t;
		return 0;
	default:
		return -1;
	}
}

int
dedup_pair_value(enum dedup_method m, const struct dedup_fp *a,
    const struct dedup_fp *b, double *value)
{
	int score;

	if (!(a->have & b->have & (unsigned)m))
		return -1;
	switch (m) {
	case DEDUP_MD5:
		*value = strcmp(a->md5, b->md5) == 0;
		return 0;
	case DEDUP_SIMHASH:
		*value = simhash_distance(a->simhash, b->simhash);
		return 0;
	case DEDUP_SSDEEP:
		if ((score = ssdeep_score(a->ssdeep, b->ssdeep)) < 0)
			return -1;
		*value = score;
		return 0;
	case DEDUP_MINHASH:
		/* Signatures of two lengths estimate nothing together. */
		if (a->minhash_perms != b->minhash_perms ||
		    a->minhash_perms <= 0)
			return -1;
		*value = minhash_percent((int)minhash_agree(a->minhash,
		    b->minhash, (size_t)a->minhash_perms),
		    (size_t)a->minhash_perms);
		return 0;
	case DEDUP_TDW:
		*value = tdw_percent(tdw_overlap(&a->tdw, &b->tdw));
		return 0;
	default:
		return -1;
	}
}

const char *
dedup_verdict_name(enum dedup_verdict v)
{
	switch (v) {
	case DEDUP_UNIQUE:
		return "unique";
	case DEDUP_EXACT:
		return "exact";
	case DEDUP_NEAR:
		return "near";
	}
	return "unknown";
}

enum dedup_verdict
dedup_verdict_of(const char *s)
{
	if (strcmp(s, "unique") == 0)
		return DEDUP_UNIQUE;
	if (strcmp(s, "near") == 0)
		return DEDUP_NEAR;
	return DEDUP_EXACT;
}

/* 32 hex digits to 16 bytes; -1 for anything else. */
static int
md5_parse(const char *hex, unsigned char raw[MD5_RAW])
{
	int i, hi, lo;

	for (i = 0; i < MD5_RAW; i++) {
		hi = chars_hex_value(hex[2 * i]);
		lo = hi < 0 ? -1 : chars_hex_value(hex[2 * i + 1]);
		if (lo < 0)
			return -1;
		raw[i] = (unsigned char)(hi << 4 | lo);
	}
	return hex[2 * MD5_RAW] == '\0' ? 0 : -1;
}

/* The MinHash settings make sense (checked only when MinHash is on). */
static int
minhash_config_ok(const struct dedup_config *cfg)
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

struct dedup *
dedup_new(const struct dedup_config *cfg)
{
	struct dedup *d;

	if (cfg == NULL || (cfg->methods & ~(unsigned)KNOWN_METHODS) != 0 ||
	    cfg->simhash_k < 0 || cfg->simhash_k > SIMINDEX_MAX_K ||
	    cfg->ssdeep_threshold < 1 || cfg->ssdeep_threshold > 100 ||
	    ((cfg->methods & DEDUP_MINHASH) && !minhash_config_ok(cfg)) ||
	    ((cfg->methods & DEDUP_TDW) && (cfg->tdw_threshold < 1 ||
	    cfg->tdw_threshold > 100 || cfg->tdw.max_tokens < 1 ||
	    cfg->tdw.max_tokens > TDW_TOKENS_MAX)))
		return NULL;
	switch (cfg->rule) {
	case DEDUP_RULE_ANY:
	case DEDUP_RULE_ALL:
		break;
	case DEDUP_RULE_ONE:
		if ((cfg->rule_method != DEDUP_SIMHASH &&
		    cfg->rule_method != DEDUP_SSDEEP &&
		    cfg->rule_method != DEDUP_MINHASH &&
		    cfg->rule_method != DEDUP_TDW) ||
		    (cfg->methods & cfg->rule_method) == 0)
			return NULL;
		break;
	default:
		return NULL;
	}
	d = calloc(1, sizeof(*d));
	if (d == NULL)
		return NULL;
	md5map_init(&d->md5);
	d->cfg = *cfg;
	d->cfg.methods |= DEDUP_MD5;
	if (cfg->methods & DEDUP_SIMHASH) {
		d->sim = simindex_new(cfg->simhash_k);
		if (d->sim == NULL)
			goto fail;
	}
	if (cfg->methods & DEDUP_SSDEEP) {
		d->ssd = ssdeep_index_new();
		if (d->ssd == NULL)
			goto fail;
	}
	if (cfg->methods & DEDUP_MINHASH) {
		d->mh = minhash_index_new((size_t)cfg->minhash_perms,
		    (size_t)cfg->minhash_bands);
		if (d->mh == NULL)
			goto fail;
	}
	if (cfg->methods & DEDUP_TDW) {
		d->tdw = tdw_index_new(cfg->tdw_threshold);
		if (d->tdw == NULL)
			goto fail;
	}
	return d;
fail:
	dedup_free(d);
	return NULL;
}

void
dedup_free(struct dedup *d)
{
	if (d == NULL)
		return;
	simindex_free(d->sim);
	ssdeep_index_free(d->ssd);
	minhash_index_free(d->mh);
	tdw_index_free(d->tdw);
	md5map_free(&d->md5);
	free(d);
}

int
dedup_fingerprint(const struct dedup *d, const char *text, size_t len,
    struct dedup_fp *fp)
{
	return dedup_fingerprint_split(d, text, len, text, len, fp);
}

int
dedup_fingerprint_method(const struct dedup *d, enum dedup_method m,
    const char *text, size_t len, const struct tdw_fields *f,
    struct dedup_fp *fp)
{
	struct simhash_opts so;
	struct tdw_fields tf;

	switch (m) {
	case DEDUP_MD5:
		if (md5_of_text(text, len, fp->md5) != 0)
			return -1;
		break;
	case DEDUP_SIMHASH:
		so = simhash_default_opts;
		so.fold_numbers = d->cfg.fold_numbers;
		fp->simhash = simhash_of_text_opts(text, len, &so);
		break;
	case DEDUP_SSDEEP:
		if (ssdeep_of_text(text, len, fp->ssdeep) != 0)
			return -1;
		break;
	case DEDUP_MINHASH:
		if (minhash_of_text_digits(text, len, d->cfg.minhash_shingle,
		    (size_t)d->cfg.minhash_perms, fp->minhash,
		    d->cfg.fold_numbers) != 0)
			return -1;
		fp->minhash_perms = d->cfg.minhash_perms;
		break;
	case DEDUP_TDW:
		if (f != NULL)
			tf = *f;
		else
			memset(&tf, 0, sizeof(tf));
		tf.text = text;
		tf.text_len = len;
		if (tdw_vector(&tf, &d->cfg.tdw, &fp->tdw) != 0)
			return -1;
		break;
	default:
		return -1;
	}
	fp->have |= (unsigned)m;
	return 0;
}

int
dedup_fingerprint_split(const struct dedup *d, const char *text, size_t len,
    const char *near, size_t near_len, struct dedup_fp *fp)
{
	return dedup_fingerprint_page(d, text, len, near, near_len, NULL, fp);
}

int
dedup_fingerprint_page(const struct dedup *d, const char *text, size_t len,
    const char *near, size_t near_len, const struct tdw_fields *f,
    struct dedup_fp *fp)
{
	size_t i;
	enum dedup_method m;

	memset(fp, 0, sizeof(*fp));
	fp->text_len = near_len;
	for (i = 0; i < NMETHODS; i++) {
		m = method_names[i].method;
		if (m != DEDUP_MD5 && !(d->cfg.methods & m))
			continue;
		if (dedup_fingerprint_method(d, m, m == DEDUP_MD5 ? text : near,
		    m == DEDUP_MD5 ? len : near_len, f, fp) != 0)
			return -1;
	}
	return 0;
}

/* Method m is both configured and present in fp; a signature of another
 * length (a resumed crawl's, say) cannot be compared with ours. */
static int
usable(const struct dedup *d, const struct dedup_fp *fp, unsigned m)
{
	if (m == DEDUP_MINHASH && fp->minhash_perms != d->cfg.minhash_perms)
		return 0;
	return (d->cfg.methods & m) && (fp->have & m);
}

/* Whether the near-duplicate rule holds, given which methods matched. */
static int
rule_holds(const struct dedup *d, unsigned matched)
{
	unsigned enabled = d->cfg.methods & NEAR_METHODS;

	switch (d->cfg.rule) {
	case DEDUP_RULE_ALL:
		return enabled != 0 && (matched & enabled) == enabled;
	case DEDUP_RULE_ONE:
		return (matched & d->cfg.rule_method) != 0;
	default:
		return matched != 0;
	}
}

enum dedup_verdict
dedup_check(const struct dedup *d, const struct dedup_fp *fp,
    struct dedup_match *out, size_t max, size_t *nout)
{
	struct simindex_match sm[DEDUP_MAX_PER_METHOD];
	struct ssdeep_match dm[DEDUP_MAX_PER_METHOD];
	struct minhash_match mm[DEDUP_MAX_PER_METHOD];
	struct tdw_match tm[DEDUP_MAX_PER_METHOD];
	unsigned char key[MD5_RAW];
	const int64_t *first;
	size_t nsim = 0, nssd = 0, nmh = 0, ntdw = 0, n = 0, i;
	unsigned matched;

	if (nout != NULL)
		*nout = 0;
	if (md5_parse(fp->md5, key) == 0 &&
	    (first = md5map_find(&d->md5, key)) != NULL) {
		if (out != NULL && max > 0) {
			out[0].original_id = *first;
			out[0].method = DEDUP_MD5;
			out[0].percent = 100.0;
			n = 1;
		}
		if (nout != NULL)
			*nout = n;
		return DEDUP_EXACT;
	}
	/* Empty or very short texts are all alike: only MD5 may judge. */
	if (fp->text_len == 0 || fp->text_len < d->cfg.min_text)
		return DEDUP_UNIQUE;
	if (usable(d, fp, DEDUP_SIMHASH))
		nsim = simindex_query(d->sim, fp->simhash, sm,
		    DEDUP_MAX_PER_METHOD);
	if (usable(d, fp, DEDUP_SSDEEP))
		nssd = ssdeep_index_query(d->ssd, fp->ssdeep,
		    d->cfg.ssdeep_threshold, dm, DEDUP_MAX_PER_METHOD);
	if (usable(d, fp, DEDUP_MINHASH))
		nmh = minhash_index_query(d->mh, fp->minhash,
		    d->cfg.minhash_threshold, mm, DEDUP_MAX_PER_METHOD);
	if (usable(d, fp, DEDUP_TDW))
		ntdw = tdw_index_query(d->tdw, &fp->tdw, tm,
		    DEDUP_MAX_PER_METHOD);
	matched = (nsim > 0 ? DEDUP_SIMHASH : 0) |
	    (nssd > 0 ? DEDUP_SSDEEP : 0) | (nmh > 0 ? DEDUP_MINHASH : 0) |
	    (ntdw > 0 ? DEDUP_TDW : 0);
	if (!rule_holds(d, matched))
		return DEDUP_UNIQUE;
	if (nsim > DEDUP_MAX_PER_METHOD)
		nsim = DEDUP_MAX_PER_METHOD;
	if (nssd > DEDUP_MAX_PER_METHOD)
		nssd = DEDUP_MAX_PER_METHOD;
	if (nmh > DEDUP_MAX_PER_METHOD)
		nmh = DEDUP_MAX_PER_METHOD;
	if (ntdw > DEDUP_MAX_PER_METHOD)
		ntdw = DEDUP_MAX_PER_METHOD;
	for (i = 0; i < nsim && out != NULL && n < max; i++, n++) {
		out[n].original_id = sm[i].id;
		out[n].method = DEDUP_SIMHASH;
		out[n].percent = simhash_percent(sm[i].distance);
	}
	for (i = 0; i < nssd && out != NULL && n < max; i++, n++) {
		out[n].original_id = dm[i].id;
		out[n].method = DEDUP_SSDEEP;
		out[n].percent = dm[i].score;
	}
	for (i = 0; i < nmh && out != NULL && n < max; i++, n++) {
		out[n].original_id = mm[i].id;
		out[n].method = DEDUP_MINHASH;
		out[n].percent = minhash_percent(mm[i].agree,
		    (size_t)d->cfg.minhash_perms);
	}
	for (i = 0; i < ntdw && out != NULL && n < max; i++, n++) {
		out[n].original_id = tm[i].id;
		out[n].method = DEDUP_TDW;
		out[n].percent = tdw_percent(tm[i].overlap);
	}
	if (nout != NULL)
		*nout = n;
	return DEDUP_NEAR;
}

/* Whether new words are at most the configured share of words. */
static int
within_share(const struct dedup *d, size_t fresh, size_t words)
{
	return fresh * 100 <= (size_t)d->cfg.max_novel_percent * words;
}

int
dedup_novelty_holds(const struct dedup *d, const struct shingles_novelty *nv)
{
	if (nv->listed)
		return 0;
	if (d->cfg.max_novel_words >= 0 &&
	    nv->new_own > (size_t)d->cfg.max_novel_words)
		return 0;
	if (!d->cfg.own_novelty)
		return within_share(d, nv->new_own, nv->words);
	/* Too few words of its own to measure a share of: the page is
	 * judged on its whole text, template included. */
	if (nv->own < DEDUP_OWN_MIN_WORDS)
		return within_share(d, nv->new_all, nv->words);
	return within_share(d, nv->new_own, nv->own) &&
	    within_share(d, nv->new_all, nv->words);
}

/* dedup_measure, stopping once more than max_new words are new. */
static void
measure_upto(const struct dedup *d, const struct shingles *p,
    struct shingles_ref *q, const unsigned char *tmpl, size_t max_new,
    struct shingles_novelty *nv)
{
	/* Before own_novelty, words were covered by shingles alone, so an
	 * older crawl resumes judging as it did. */
	if (!d->cfg.own_novelty) {
		q->nterms = 0;
		q->has_targets = 0;
	}
	shingles_measure_upto(p, q, tmpl, max_new, nv);
	nv->listed = d->cfg.linker && shingles_lists(q, p);
}

void
dedup_measure(const struct dedup *d, const struct shingles *p,
    struct shingles_ref *q, const unsigned char *tmpl,
    struct shingles_novelty *nv)
{
	measure_upto(d, p, q, tmpl, SIZE_MAX, nv);
}

/* Whether page p holds up as a near copy of the page q, which is p's
 * linker (dedup_linker) when linker is set. */
static int
confirmed(const struct dedup *d, const struct shingles *p,
    const unsigned char *tmpl, struct shingles_ref *q, int linker,
    struct shingles_novelty *nv)
{
	size_t max_new = SIZE_MAX;

	if (q->n < d->cfg.min_shingles)
		return 0;
	/* The linker is measured for every page, and its figures are
	 * reported only when it lists the page: stop once the page is no
	 * copy of it (more than the share of all its words new). */
	if (linker && d->cfg.own_novelty && d->cfg.max_novel_words < 0)
		max_new = p->words * (size_t)d->cfg.max_novel_percent / 100;
	measure_upto(d, p, q, tmpl, max_new, nv);
	/* The linker shows the site's template by construction (before the
	 * template is learnt, all of it reads as own words): it vouches only
	 * for a page with a paragraph of its own. */
	return !nv->cut && dedup_novelty_holds(d, nv) &&
	    (!linker || nv->own >= DEDUP_LINKER_MIN_WORDS);
}

enum dedup_verdict
dedup_linker(const struct dedup *d, enum dedup_verdict v, int64_t linker,
    struct dedup_match *m, size_t max, size_t *nm)
{
	size_t i;

	/* Without a share to hold it to (100 %), the linker would confirm
	 * every page it links to. */
	if (v == DEDUP_EXACT || linker <= 0 || !d->cfg.linker ||
	    d->cfg.max_novel_percent >= 100)
		return v;
	for (i = 0; i < *nm; i++)
		if (m[i].original_id == linker)
			return v;
	if (*nm >= max)
		return v;
	m[*nm].original_id = linker;
	m[*nm].method = DEDUP_LINKER;
	m[*nm].percent = 0;
	(*nm)++;
	return DEDUP_NEAR;
}

enum dedup_verdict
dedup_confirm(const struct dedup *d, const struct shingles *p,
    const unsigned char *tmpl, enum dedup_verdict v, struct dedup_match *m,
    size_t *nm, dedup_set_fn fn, void *ctx, struct dedup_veto *veto,
    int *err)
{
	int64_t seen[DEDUP_CONFIRM_MAX + 1], ok[DEDUP_CONFIRM_MAX + 1];
	size_t nseen = 0, nok = 0, i, j, k, best = SIZE_MAX;
	struct shingles_novelty nv;
	struct shingles_ref q;
	unsigned kept = 0;
	int is_seen, is_ok, sketched;

	if (veto != NULL)
		memset(veto, 0, sizeof(*veto));
	if (v != DEDUP_NEAR)
		return v;
	if (d->cfg.min_shingles == 0 && d->cfg.max_novel_words < 0 &&
	    d->cfg.max_novel_percent >= 100)
		return v;
	/* The linker is looked at for every page: only a sketch's
	 * candidate turned down is worth a reason. */
	for (i = 0, sketched = 0; i < *nm; i++)
		sketched |= m[i].method != DEDUP_LINKER;
	if (p->distinct < d->cfg.min_shingles) {
		if (veto != NULL)
			veto->floor = sketched;
		*nm = 0;
		return DEDUP_UNIQUE;
	}
	for (i = 0; i < *nm && nseen <= DEDUP_CONFIRM_MAX; i++) {
		for (j = 0, is_seen = 0; j < nseen; j++)
			is_seen |= seen[j] == m[i].original_id;
		/* The linker is looked at beyond the sketches' first few. */
		if (is_seen || (nseen == DEDUP_CONFIRM_MAX &&
		    m[i].method != DEDUP_LINKER))
			continue;
		seen[nseen++] = m[i].original_id;
		if (fn(ctx, m[i].original_id, &q) != 0) {
			*err = 1;
			return v;
		}
		memset(&nv, 0, sizeof(nv));
		nv.new_own = SIZE_MAX;
		if (confirmed(d, p, tmpl, &q, m[i].method == DEDUP_LINKER,
		    &nv)) {
			if (veto != NULL && (nok == 0 ||
			    nv.new_all < veto->near_nv.new_all)) {
				veto->near_id = m[i].original_id;
				veto->near_nv = nv;
			}
			ok[nok++] = m[i].original_id;
			/* The linker's similarity: the share of words not
			 * new. */
			if (m[i].method == DEDUP_LINKER && nv.words > 0)
				m[i].percent = 100.0 *
				    (double)(nv.words - nv.new_all) /
				    (double)nv.words;
		}
		else if (veto != NULL && nv.new_own < best &&
		    (m[i].method != DEDUP_LINKER || nv.listed)) {
			best = nv.new_own;
			veto->original_id = m[i].original_id;
			veto->novel = nv.new_own;
			veto->nv = nv;
		}
		shingles_ref_free(&q);
	}
	for (i = 0, k = 0; i < *nm; i++) {
		for (j = 0, is_ok = 0; j < nok; j++)
			is_ok |= ok[j] == m[i].original_id;
		if (is_ok) {
			kept |= m[i].method;
			m[k++] = m[i];
		}
	}
	*nm = k;
	if (k > 0 && rule_holds(d, kept))
		return DEDUP_NEAR;
	*nm = 0;
	return DEDUP_UNIQUE;
}

int
dedup_add(struct dedup *d, const struct dedup_fp *fp, int64_t id)
{
	unsigned char key[MD5_RAW];
	int have_md5, added_sim = 0, added_mh = 0, rc;

	have_md5 = md5_parse(fp->md5, key) == 0 &&
	    md5map_find(&d->md5, key) == NULL;
	if (have_md5 && md5map_reserve(&d->md5) != 0)
		return -1;
	/* Reserved first, so the add at the end cannot fail. */
	if (usable(d, fp, DEDUP_TDW) &&
	    tdw_index_reserve(d->tdw, &fp->tdw) != 0)
		return -1;
	if (usable(d, fp, DEDUP_SIMHASH)) {
		if (simindex_add(d->sim, fp->simhash, id) != 0)
			return -1;
		added_sim = 1;
	}
	if (usable(d, fp, DEDUP_MINHASH)) {
		if (minhash_index_add(d->mh, fp->minhash, id) != 0)
			goto undo;
		added_mh = 1;
	}
	/* Last of those that may fail: ssdeep_index cannot undo an add. */
	if (usable(d, fp, DEDUP_SSDEEP)) {
		/* A malformed stored digest (-2) just cannot be found. */
		rc = ssdeep_index_add(d->ssd, fp->ssdeep, id);
		if (rc == -1)
			goto undo;
	}
	/* Cannot fail now: reserved, and tdw_vector's vectors are well
	 * formed. */
	if (usable(d, fp, DEDUP_TDW))
		(void)tdw_index_add(d->tdw, &fp->tdw, id);
	if (have_md5)
		md5map_add(&d->md5, key, id);
	d->count++;
	return 0;
undo:
	if (added_sim)
		simindex_pop(d->sim);
	if (added_mh)
		minhash_index_pop(d->mh);
	return -1;
}

int
dedup_add_tdw(struct dedup *d, const struct tdw_vec *v, int64_t id)
{
	if (d->tdw == NULL)
		return 0;
	return tdw_index_add(d->tdw, v, id);
}

size_t
dedup_lock_keys_max(const struct dedup *d)
{
	uint64_t keys[SIMINDEX_MAX_TABLES];
	size_t n = 1;

	if (d->sim != NULL)
		n += simindex_keys(d->sim, 0, keys);
	if (d->ssd != NULL)
		n += SSDEEP_KEYS_MAX;
	if (d->mh != NULL)
		n += (size_t)d->cfg.minhash_bands;
	if (d->tdw != NULL)
		n += (size_t)d->cfg.tdw.max_tokens;
	return n;
}

/* Method m's raw keys raw[from..to) made its own: mix64 is a bijection,
 * so keys of one method stay apart, and those of two meet by chance. */
static void
tag_keys(uint64_t *raw, size_t from, size_t to, enum dedup_method m)
{
	uint64_t salt = mix64(0x9e3779b97f4a7c15ULL * (uint64_t)m);

	for (; from < to; from++)
		raw[from] = mix64(raw[from] + salt);
}

static int
by_value(const void *pa, const void *pb)
{
	uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;

	return a < b ? -1 : a > b;
}

size_t
dedup_lock_keys(const struct dedup *d, const struct dedup_fp *fp,
    uint64_t *keys, size_t cap)
{
	uint64_t raw[DEDUP_LOCK_KEYS_MAX];
	unsigned char md5[MD5_RAW];
	size_t n = 0, from, i, out;
	int b;

	/* Byte by byte, not memcpy: processes on machines of either byte
	 * order must agree. */
	if (md5_parse(fp->md5, md5) == 0) {
		for (raw[0] = 0, b = 0; b < 8; b++)
			raw[0] = raw[0] << 8 | md5[b];
		n = 1;
		tag_keys(raw, 0, n, DEDUP_MD5);
	}
	if (usable(d, fp, DEDUP_SIMHASH)) {
		from = n;
		n += simindex_keys(d->sim, fp->simhash, raw + n);
		tag_keys(raw, from, n, DEDUP_SIMHASH);
	}
	if (usable(d, fp, DEDUP_SSDEEP)) {
		from = n;
		n += ssdeep_keys(fp->ssdeep, raw + n);
		tag_keys(raw, from, n, DEDUP_SSDEEP);
	}
	if (usable(d, fp, DEDUP_MINHASH)) {
		from = n;
		n += minhash_index_keys(d->mh, fp->minhash, raw + n);
		tag_keys(raw, from, n, DEDUP_MINHASH);
	}
	if (usable(d, fp, DEDUP_TDW)) {
		from = n;
		n += tdw_index_keys(d->tdw, &fp->tdw, raw + n);
		tag_keys(raw, from, n, DEDUP_TDW);
	}
	qsort(raw, n, sizeof(raw[0]), by_value);
	for (i = 0, out = 0; i < n; i++) {
		if (out > 0 && raw[i] == raw[out - 1])
			continue;
		raw[out++] = raw[i];
	}
	if (cap > 0)
		memcpy(keys, raw, (out < cap ? out : cap) * sizeof(raw[0]));
	return out;
}

int
dedup_own_novelty(const struct dedup *d)
{
	return d->cfg.own_novelty;
}

int
dedup_learns_template(const struct dedup *d, enum dedup_verdict v,
    const struct shingles_novelty *nv)
{
	if (!d->cfg.own_novelty)
		return v != DEDUP_EXACT;
	if (v == DEDUP_UNIQUE)
		return 1;
	return v == DEDUP_NEAR && nv != NULL && nv->words > 0 &&
	    nv->new_all * 200 >= (size_t)d->cfg.max_novel_percent * nv->words;
}

size_t
dedup_min_shingles(const struct dedup *d)
{
	return d->cfg.min_shingles;
}

size_t
dedup_count(const struct dedup *d)
{
	return d->count;
}

size_t
dedup_method_bytes(const struct dedup *d, enum dedup_method m)
{
	switch (m) {
	case DEDUP_MD5:
		return md5map_bytes(&d->md5);
	case DEDUP_SIMHASH:
		return d->sim != NULL ? simindex_bytes(d->sim) : 0;
	case DEDUP_SSDEEP:
		return d->ssd != NULL ? ssdeep_index_bytes(d->ssd) : 0;
	case DEDUP_MINHASH:
		return d->mh != NULL ? minhash_index_bytes(d->mh) : 0;
	case DEDUP_TDW:
		return d->tdw != NULL ? tdw_index_bytes(d->tdw) : 0;
	case DEDUP_LINKER: /* no index: the frontier knows the linker */
		return 0;
	}
	return 0;
}

size_t
dedup_bytes(const struct dedup *d)
{
	size_t b = sizeof(*d), i;

	for (i = 0; i < NMETHODS; i++)
		b += dedup_method_bytes(d, method_names[i].method);
	return b;
}
