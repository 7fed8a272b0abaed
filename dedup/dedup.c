/*
 * dedup: the rule that turns the methods' answers into a verdict. Each
 * method is one table of operations in a file of its own
 * (dedup/method.h); this file goes over the table and knows none of them
 * by name.
 */
#include "dedup/dedup.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "dedup/method.h"
#include "dedup/template.h"
#include "util/mix64.h"

/* The method table: the order is the order of --methods help and eval,
 * of the matches a check reports and of the keys. The exact method comes
 * first: dedup_check asks it before any near one. */
static const struct dedup_method_ops *const methods[] = {
	&dedup_method_md5,
	&dedup_method_simhash,
	&dedup_method_ssdeep,
	&dedup_method_minhash,
	&dedup_method_tdw,
};
#define NMETHODS (sizeof(methods) / sizeof(methods[0]))

_Static_assert(NMETHODS == DEDUP_METHODS,
    "DEDUP_METHODS counts the method table's rows");

struct dedup {
	struct dedup_config cfg;   /* copy of the caller's */
	void *ix[NMETHODS];        /* each configured method's index, by
	                              its row in methods[]; NULL when off */
	unsigned near_on;          /* the near methods configured: the
	                              rule's ALL needs every one of them */
	size_t count;              /* pages added */
};

/* Row of method m in methods[], or NMETHODS for an unknown bit. */
static size_t
row_of(unsigned m)
{
	size_t i;

	for (i = 0; i < NMETHODS; i++)
		if ((unsigned)methods[i]->info->method == m)
			break;
	return i;
}

/* Every method's bit, or only the near ones'. */
static unsigned
method_bits(int near_only)
{
	unsigned bits = 0;
	size_t i;

	for (i = 0; i < NMETHODS; i++)
		if (!near_only || !methods[i]->exact)
			bits |= (unsigned)methods[i]->info->method;
	return bits;
}

unsigned
dedup_all_methods(void)
{
	return method_bits(0);
}

int
dedup_parse_methods(const char *s, unsigned *methods_out, const char **bad)
{
	unsigned m = DEDUP_MD5;
	const char *start, *end, *name;
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
		for (i = 0; i < NMETHODS; i++) {
			name = methods[i]->info->name;
			if (strlen(name) == n && strncasecmp(name, start, n) == 0)
				break;
		}
		if (i == NMETHODS) {
			if (bad != NULL)
				*bad = start;
			return -1;
		}
		m |= (unsigned)methods[i]->info->method;
	}
	*methods_out = m;
	return 0;
}

const char *
dedup_method_name(enum dedup_method m)
{
	size_t i = row_of((unsigned)m);

	if (i < NMETHODS)
		return methods[i]->info->name;
	return m == DEDUP_LINKER ? "linker" : "unknown";
}

const struct dedup_method_info *
dedup_method_at(size_t i)
{
	return i < NMETHODS ? methods[i]->info : NULL;
}

const struct dedup_method_info *
dedup_method_info(enum dedup_method m)
{
	size_t i = row_of((unsigned)m);

	return i < NMETHODS ? methods[i]->info : NULL;
}

int
dedup_config_threshold(struct dedup_config *cfg, enum dedup_method m,
    double t)
{
	size_t i = row_of((unsigned)m);
	const struct dedup_method_info *mi;

	if (i == NMETHODS)
		return -1;
	mi = methods[i]->info;
	/* Every threshold so far is a whole number. */
	if (mi->threshold == NULL || !(t >= mi->lo) || !(t <= mi->hi) ||
	    t != (double)(int)t)
		return -1;
	*(int *)(void *)((char *)cfg + methods[i]->threshold_at) = (int)t;
	return 0;
}

int
dedup_pair_value(enum dedup_method m, const struct dedup_fp *a,
    const struct dedup_fp *b, double *value)
{
	size_t i = row_of((unsigned)m);

	if (i == NMETHODS || !(a->have & b->have & (unsigned)m))
		return -1;
	return methods[i]->pair(a, b, value);
}

int
dedup_pair_explain(enum dedup_method m, const struct dedup_config *cfg,
    const struct dedup_fp *a, const struct dedup_fp *b, char *what,
    size_t whatsz, char *rule, size_t rulesz)
{
	size_t i = row_of((unsigned)m);

	if (i == NMETHODS)
		return -1;
	methods[i]->explain(cfg, a, b, what, whatsz, rule, rulesz);
	return 0;
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

/* The settings make sense: each method on checks its own. */
static int
config_ok(const struct dedup_config *cfg)
{
	size_t i;

	if ((cfg->methods & ~method_bits(0)) != 0)
		return 0;
	for (i = 0; i < NMETHODS; i++)
		if ((cfg->methods & (unsigned)methods[i]->info->method) &&
		    methods[i]->config_ok != NULL &&
		    !methods[i]->config_ok(cfg))
			return 0;
	switch (cfg->rule) {
	case DEDUP_RULE_ANY:
	case DEDUP_RULE_ALL:
		return 1;
	case DEDUP_RULE_ONE:
		return (cfg->rule_method & method_bits(1)) != 0 &&
		    (cfg->rule_method & (cfg->rule_method - 1)) == 0 &&
		    (cfg->methods & cfg->rule_method) != 0;
	}
	return 0;
}

struct dedup *
dedup_new(const struct dedup_config *cfg)
{
	struct dedup *d;
	size_t i;

	if (cfg == NULL || !config_ok(cfg))
		return NULL;
	d = calloc(1, sizeof(*d));
	if (d == NULL)
		return NULL;
	d->cfg = *cfg;
	d->cfg.methods |= DEDUP_MD5;
	d->near_on = d->cfg.methods & method_bits(1);
	for (i = 0; i < NMETHODS; i++) {
		if (!(d->cfg.methods & (unsigned)methods[i]->info->method))
			continue;
		if ((d->ix[i] = methods[i]->index_new(&d->cfg)) == NULL)
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
	size_t i;

	if (d == NULL)
		return;
	for (i = 0; i < NMETHODS; i++)
		if (d->ix[i] != NULL)
			methods[i]->index_free(d->ix[i]);
	free(d);
}

int
dedup_fingerprint(const struct dedup *d, const char *text, size_t len,
    struct dedup_fp *fp)
{
	return dedup_fingerprint_split(d, text, len, text, len, fp);
}

/* dedup_fingerprint_method, with text's words ws when known (or NULL). */
static int
fingerprint_words(const struct dedup *d, enum dedup_method m,
    const char *text, size_t len, const struct words_seq *ws,
    const struct tdw_fields *f, struct dedup_fp *fp)
{
	size_t i = row_of((unsigned)m);

	if (i == NMETHODS || methods[i]->fingerprint(&d->cfg, text, len, ws,
	    f, fp) != 0)
		return -1;
	fp->have |= (unsigned)m;
	return 0;
}

int
dedup_fingerprint_method(const struct dedup *d, enum dedup_method m,
    const char *text, size_t len, const struct tdw_fields *f,
    struct dedup_fp *fp)
{
	return fingerprint_words(d, m, text, len, NULL, f, fp);
}

int
dedup_fingerprint_split(const struct dedup *d, const char *text, size_t len,
    const char *near, size_t near_len, struct dedup_fp *fp)
{
	return dedup_fingerprint_page(d, text, len, near, near_len, NULL, NULL,
	    fp);
}

int
dedup_fingerprint_page(const struct dedup *d, const char *text, size_t len,
    const char *near, size_t near_len, const struct words_seq *ws,
    const struct tdw_fields *f, struct dedup_fp *fp)
{
	const struct dedup_method_ops *op;
	size_t i;

	memset(fp, 0, sizeof(*fp));
	fp->text_len = near_len;
	for (i = 0; i < NMETHODS; i++) {
		op = methods[i];
		if (!op->exact && !(d->cfg.methods & (unsigned)op->info->method))
			continue;
		if (fingerprint_words(d, op->info->method,
		    op->exact ? text : near, op->exact ? len : near_len,
		    op->exact ? NULL : ws, f, fp) != 0)
			return -1;
	}
	return 0;
}

/*
 * Method row i is configured and fp's fingerprint of it can be looked up
 * or indexed. The exact method reads fp->md5 whatever fp->have says (its
 * operations refuse a malformed digest); a near method needs its
 * fingerprint in fp->have, comparable with ours.
 */
static int
usable(const struct dedup *d, const struct dedup_fp *fp, size_t i)
{
	const struct dedup_method_ops *op = methods[i];
	unsigned m = (unsigned)op->info->method;

	if (d->ix[i] == NULL)
		return 0;
	if (op->exact)
		return 1;
	return (fp->have & m) &&
	    (op->comparable == NULL || op->comparable(&d->cfg, fp));
}

/* Whether the near-duplicate rule holds, given which methods matched. */
static int
rule_holds(const struct dedup *d, unsigned matched)
{
	switch (d->cfg.rule) {
	case DEDUP_RULE_ALL:
		return d->near_on != 0 && (matched & d->near_on) == d->near_on;
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
	struct dedup_match found[DEDUP_MAX_MATCHES];
	const struct dedup_method_ops *op;
	int64_t first;
	size_t n = 0, k, i;
	unsigned matched = 0;

	if (nout != NULL)
		*nout = 0;
	for (i = 0; i < NMETHODS; i++) {
		op = methods[i];
		if (!op->exact || !usable(d, fp, i) ||
		    !op->find(d->ix[i], fp, &first))
			continue;
		if (out != NULL && max > 0) {
			out[0].original_id = first;
			out[0].method = op->info->method;
			out[0].percent = 100.0;
			if (nout != NULL)
				*nout = 1;
		}
		return DEDUP_EXACT;
	}
	/* Empty or very short texts are all alike: only MD5 may judge. */
	if (fp->text_len == 0 || fp->text_len < d->cfg.min_text)
		return DEDUP_UNIQUE;
	for (i = 0; i < NMETHODS; i++) {
		op = methods[i];
		if (op->exact || !usable(d, fp, i))
			continue;
		assert(n + DEDUP_MAX_PER_METHOD <= DEDUP_MAX_MATCHES);
		k = op->query(d->ix[i], &d->cfg, fp, found + n,
		    DEDUP_MAX_PER_METHOD);
		if (k > 0)
			matched |= (unsigned)op->info->method;
		n += k;
	}
	if (!rule_holds(d, matched))
		return DEDUP_UNIQUE;
	if (out == NULL)
		n = 0;
	if (n > max)
		n = max;
	if (n > 0)
		memcpy(out, found, n * sizeof(*out));
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

/* Take back the adds of the DEDUP_ADD_UNDO methods among rows [0, upto)
 * of fp, newest first. */
static void
undo_adds(struct dedup *d, const struct dedup_fp *fp, size_t upto)
{
	while (upto-- > 0)
		if (methods[upto]->add_kind == DEDUP_ADD_UNDO &&
		    usable(d, fp, upto))
			methods[upto]->pop(d->ix[upto]);
}

/*
 * Each index takes the page, or none does: first the reservations, then
 * the adds that can be undone, then the one that cannot, and last the
 * reserved adds, which cannot fail.
 */
int
dedup_add(struct dedup *d, const struct dedup_fp *fp, int64_t id)
{
	size_t i, undone = 0, last = NMETHODS;
	int rc;

	for (i = 0; i < NMETHODS; i++)
		if (methods[i]->add_kind == DEDUP_ADD_RESERVED &&
		    usable(d, fp, i) && methods[i]->reserve(d->ix[i], fp, id) != 0)
			return -1;
	for (i = 0; i < NMETHODS; i++) {
		if (!usable(d, fp, i))
			continue;
		if (methods[i]->add_kind == DEDUP_ADD_LAST) {
			assert(last == NMETHODS);
			last = i;
		}
		if (methods[i]->add_kind != DEDUP_ADD_UNDO)
			continue;
		if (methods[i]->add(d->ix[i], fp, id) < 0) {
			undo_adds(d, fp, undone);
			return -1;
		}
		undone = i + 1;
	}
	if (last < NMETHODS && methods[last]->add(d->ix[last], fp, id) < 0) {
		undo_adds(d, fp, undone);
		return -1;
	}
	for (i = 0; i < NMETHODS; i++)
		if (methods[i]->add_kind == DEDUP_ADD_RESERVED &&
		    usable(d, fp, i)) {
			rc = methods[i]->add(d->ix[i], fp, id);
			/* Reserved, so it cannot run out of memory; and
			 * the fingerprints it takes are well formed. */
			assert(rc >= 0);
			(void)rc;
		}
	d->count++;
	return 0;
}

int
dedup_add_method(struct dedup *d, enum dedup_method m,
    const struct dedup_fp *fp, int64_t id)
{
	size_t i = row_of((unsigned)m);
	const struct dedup_method_ops *op;

	if (i == NMETHODS || d->ix[i] == NULL)
		return 0;
	op = methods[i];
	if (op->reserve != NULL && op->reserve(d->ix[i], fp, id) != 0)
		return -1;
	return op->add(d->ix[i], fp, id) < 0 ? -1 : 0;
}

size_t
dedup_lock_keys_max(const struct dedup *d)
{
	size_t n = 0, i;

	for (i = 0; i < NMETHODS; i++)
		if (d->ix[i] != NULL)
			n += methods[i]->keys_max(d->ix[i], &d->cfg);
	assert(n <= DEDUP_LOCK_KEYS_MAX);
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
	size_t n = 0, from, i, out;

	for (i = 0; i < NMETHODS; i++) {
		if (!usable(d, fp, i))
			continue;
		from = n;
		n += methods[i]->keys(d->ix[i], fp, raw + n);
		assert(n <= DEDUP_LOCK_KEYS_MAX);
		tag_keys(raw, from, n, methods[i]->info->method);
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

int
dedup_learn_stored(const struct dedup *d, struct tmpl *t, const char *site,
    const char *verdict, const void *blob, size_t len)
{
	const unsigned char *b;
	uint32_t *blocks;
	size_t n, i;
	int rc, teaches;

	if (shingles_blocks(blob, len, &b, &n, &teaches) != 0 || n == 0 ||
	    (teaches < 0 ? !dedup_learns_template(d, dedup_verdict_of(verdict),
	    NULL) : !teaches))
		return 0;
	if ((blocks = malloc(n * sizeof(*blocks))) == NULL)
		return -1;
	for (i = 0; i < n; i++)
		blocks[i] = shingles_block_at(b, i);
	rc = tmpl_learn(t, site, blocks, n);
	free(blocks);
	return rc;
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
	size_t i = row_of((unsigned)m);

	/* The linker has no index: the frontier knows the linker. */
	if (i == NMETHODS || d->ix[i] == NULL)
		return 0;
	return methods[i]->bytes(d->ix[i]);
}

size_t
dedup_bytes(const struct dedup *d)
{
	size_t b = sizeof(*d), i;

	for (i = 0; i < NMETHODS; i++)
		b += dedup_method_bytes(d, methods[i]->info->method);
	return b;
}
