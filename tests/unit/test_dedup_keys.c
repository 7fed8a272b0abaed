/*
 * Lock keys (dedup_lock_keys and each index's keys function): whenever an
 * index, given page A, reports A for page B, the key sets of A and B must
 * intersect. Each test makes many pairs of random pages and near variants,
 * asks the index itself (A added to an index that already holds unrelated
 * pages, then B queried) and checks the keys of every pair it reports.
 * Each also counts the pairs reported, so a generator that stopped making
 * near pairs would fail rather than pass on nothing.
 */
#include "check.h"
#include "dedup/dedup.h"
#include "dedup/minhash.h"
#include "dedup/simindex.h"
#include "dedup/ssdeep.h"
#include "dedup/tdw.h"

#include <stdint.h>
#include <stdlib.h>

#define TEXT_CAP 32768
#define VOCAB 4096

static uint64_t
rng(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Whether a[0..na) and b[0..nb) hold a common value (any order). */
static int
meet(const uint64_t *a, size_t na, const uint64_t *b, size_t nb)
{
	size_t i, j;

	for (i = 0; i < na; i++)
		for (j = 0; j < nb; j++)
			if (a[i] == b[j])
				return 1;
	return 0;
}

/* Word w of a fixed vocabulary of random lower-case words. */
static size_t
vocab_word(size_t w, char *out)
{
	uint64_t s = 0x9e3779b97f4a7c15ULL ^ (w * 0x100000001b3ULL + 1);
	size_t j, n;

	rng(&s);
	n = 3 + rng(&s) % 8;
	for (j = 0; j < n; j++)
		out[j] = (char)('a' + rng(&s) % 26);
	return n;
}

/* A page of `words` words drawn by seed from the vocabulary's slice
 * topic (topics share no word numbers). */
static size_t
page_topic(size_t *ws, size_t words, uint64_t seed, size_t topic)
{
	uint64_t s = seed * 2 + 1;
	size_t i;

	rng(&s);
	for (i = 0; i < words; i++)
		ws[i] = topic * VOCAB + rng(&s) % VOCAB;
	return words;
}

/* The same from the first slice: pages on one subject. */
static size_t
page_words(size_t *ws, size_t words, uint64_t seed)
{
	return page_topic(ws, words, seed, 0);
}

/* Join word numbers into text; returns its length. */
static size_t
join(const size_t *ws, size_t n, char *out)
{
	size_t i, len = 0;

	for (i = 0; i < n && len + 16 < TEXT_CAP; i++) {
		len += vocab_word(ws[i], out + len);
		out[len++] = i % 17 == 16 ? '\n' : ' ';
	}
	out[len] = '\0';
	return len;
}

/*
 * A near variant of ws[0..n) into vs: a few words replaced, some inserted
 * or deleted, and sometimes the tail cut or doubled (ssdeep's block size
 * then moves to a neighbour). Returns its word count (at most cap).
 */
static size_t
variant(const size_t *ws, size_t n, size_t *vs, size_t cap, uint64_t *s)
{
	size_t i, m = 0, edits = rng(s) % 6, cut = n, extra = 0;
	unsigned r = (unsigned)(rng(s) % 4);

	if (r == 0)
		cut = n - n * (1 + rng(s) % 45) / 100;
	else if (r == 1)
		extra = n * (1 + rng(s) % 90) / 100;
	for (i = 0; i < cut && m < cap; i++) {
		if (edits > 0 && rng(s) % (n / 4 + 1) == 0) {
			edits--;
			switch (rng(s) % 3) {
			case 0:
				vs[m++] = rng(s) % VOCAB; /* replaced */
				continue;
			case 1:
				continue; /* deleted */
			default:
				vs[m++] = rng(s) % VOCAB; /* inserted */
				if (m == cap)
					return m;
			}
		}
		vs[m++] = ws[i];
	}
	for (i = 0; i < extra && m < cap; i++)
		vs[m++] = i < n ? ws[i] : rng(s) % VOCAB;
	return m;
}

/* Does a query of b report id 1 (A, among noise)? */
static int
simindex_reports(struct simindex *ix, uint64_t b)
{
	struct simindex_match m[32];
	size_t n = simindex_query(ix, b, m, 32), i;

	for (i = 0; i < n && i < 32; i++)
		if (m[i].id == 1)
			return 1;
	return 0;
}

/* Every k, A among noise, B within k flips of A or up to two beyond. */
static void
test_simhash_keys(void)
{
	uint64_t ka[SIMINDEX_MAX_TABLES], kb[SIMINDEX_MAX_TABLES], s = 7;
	uint64_t kc[SIMINDEX_MAX_TABLES], a, b;
	struct simindex *ix, *other;
	size_t i, j, na, nb, found = 0;
	int k;

	for (k = 0; k <= SIMINDEX_MAX_K; k++) {
		if ((other = simindex_new(k)) == NULL)
			return;
		for (i = 0; i < 300; i++) {
			if ((ix = simindex_new(k)) == NULL)
				break;
			for (j = 0; j < 20; j++)
				CHECK_INT(simindex_add(ix, rng(&s), 100), 0);
			a = rng(&s);
			for (b = a, j = rng(&s) % (size_t)(k + 3); j > 0; j--)
				b ^= (uint64_t)1 << (rng(&s) % 64);
			CHECK_INT(simindex_add(ix, a, 1), 0);
			na = simindex_keys(ix, a, ka);
			nb = simindex_keys(ix, b, kb);
			CHECK(na >= 1 && na <= SIMINDEX_MAX_TABLES);
			if (simindex_reports(ix, b)) {
				found++;
				CHECK(meet(ka, na, kb, nb));
			}
			/* Keys do not depend on what an index holds. */
			CHECK_INT(simindex_keys(other, a, kc), na);
			CHECK(memcmp(ka, kc, na * sizeof(ka[0])) == 0);
			CHECK_INT(simindex_add(other, a, 2), 0);
			simindex_free(ix);
		}
		simindex_free(other);
	}
	CHECK(found > 3000);
}

/* A random signature; when from is not NULL, b agrees with it on one
 * whole band and on a random share of the other positions. */
static void
signature(
    uint32_t *sig, size_t k, size_t rows, const uint32_t *from, uint64_t *s)
{
	size_t i, band = rng(s) % (k / rows), keep = rng(s) % 101;

	for (i = 0; i < k; i++)
		sig[i] = (uint32_t)rng(s);
	if (from == NULL)
		return;
	for (i = 0; i < k; i++)
		if (i / rows == band || rng(s) % 100 < keep)
			sig[i] = from[i];
	/* Sometimes spoil the kept band: no band in common, likely. */
	if (rng(s) % 4 == 0)
		sig[band * rows] ^= 1;
}

static void
test_minhash_keys(void)
{
	static const size_t shape[][2] = {
	    {128, 32}, {64, 64}, {8, 1}, {512, 64}, {120, 40}};
	uint32_t a[MINHASH_MAX_PERMS], b[MINHASH_MAX_PERMS];
	uint64_t ka[MINHASH_MAX_PERMS], kb[MINHASH_MAX_PERMS], s = 13;
	struct minhash_match m[16];
	struct minhash_index *ix;
	size_t si, i, j, n, na, nb, k, rows, found = 0;

	for (si = 0; si < sizeof(shape) / sizeof(shape[0]); si++) {
		k = shape[si][0];
		rows = k / shape[si][1];
		if ((ix = minhash_index_new(k, shape[si][1])) == NULL)
			return;
		for (i = 0; i < 400; i++) {
			signature(b, k, rows, NULL, &s); /* noise */
			CHECK_INT(minhash_index_add(ix, b, 100), 0);
			signature(a, k, rows, NULL, &s);
			signature(b, k, rows, a, &s);
			CHECK_INT(minhash_index_add(ix, a, 1), 0);
			na = minhash_index_keys(ix, a, ka);
			nb = minhash_index_keys(ix, b, kb);
			CHECK_INT(na, shape[si][1]);
			/* Threshold 1: every candidate the bands give. */
			n = minhash_index_query(ix, b, 1, m, 16);
			for (j = 0; j < n && j < 16; j++)
				if (m[j].id == 1) {
					found++;
					CHECK(meet(ka, na, kb, nb));
				}
			minhash_index_pop(ix);
		}
		minhash_index_free(ix);
	}
	CHECK(found > 1000);
}

/* ssdeep on texts of many lengths (so many block sizes), each against a
 * near variant, some at the neighbouring block size. */
static void
test_ssdeep_keys(void)
{
	static size_t ws[4096], vs[8192];
	static char ta[TEXT_CAP], tb[TEXT_CAP];
	char da[SSDEEP_MAX], db[SSDEEP_MAX], noise[SSDEEP_MAX];
	uint64_t ka[SSDEEP_KEYS_MAX], kb[SSDEEP_KEYS_MAX], s = 17;
	struct ssdeep_match m[16];
	struct ssdeep_index *ix;
	size_t i, j, n, nw, nv, na, nb, found = 0, cross = 0;

	for (i = 0; i < 400; i++) {
		nw = page_words(ws, 20 + rng(&s) % 3000, rng(&s));
		nv = variant(ws, nw, vs, sizeof(vs) / sizeof(vs[0]), &s);
		CHECK_INT(ssdeep_of_text(ta, join(ws, nw, ta), da), 0);
		CHECK_INT(ssdeep_of_text(tb, join(vs, nv, tb), db), 0);
		nw = page_words(ws, 20 + rng(&s) % 3000, rng(&s));
		CHECK_INT(ssdeep_of_text(ta, join(ws, nw, ta), noise), 0);
		/* A fresh index per pair: A is the only id 1. */
		if ((ix = ssdeep_index_new()) == NULL)
			return;
		CHECK_INT(ssdeep_index_add(ix, noise, 100), 0);
		CHECK_INT(ssdeep_index_add(ix, da, 1), 0);
		na = ssdeep_keys(da, ka);
		nb = ssdeep_keys(db, kb);
		CHECK(na >= 1 && nb >= 1);
		n = ssdeep_index_query(ix, db, 1, m, 16);
		for (j = 0; j < n && j < 16; j++)
			if (m[j].id == 1) {
				found++;
				cross += strtoul(da, NULL, 10) !=
				    strtoul(db, NULL, 10);
				CHECK(meet(ka, na, kb, nb));
			}
		ssdeep_index_free(ix);
	}
	CHECK(found > 200);
	CHECK(cross > 10);
}

/* Hand-made digests: grams shared at either part and level, and digests
 * too short for a gram (the whole-digest key). */
static void
test_ssdeep_keys_synthetic(void)
{
	static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnop"
	                          "qrstuvwxyz0123456789+/";
	char da[SSDEEP_MAX], db[SSDEEP_MAX], p[4][65];
	uint64_t ka[SSDEEP_KEYS_MAX], kb[SSDEEP_KEYS_MAX], s = 19;
	struct ssdeep_match m[4];
	struct ssdeep_index *ix;
	unsigned long bs, bsb;
	size_t i, j, q, len[4], found = 0, n;

	for (i = 0; i < 3000; i++) {
		for (q = 0; q < 4; q++) {
			len[q] = rng(&s) % 3 == 0
			    ? rng(&s) % 7
			    : 7 + rng(&s) % (q % 2 ? 26 : 58);
			for (j = 0; j < len[q]; j++)
				p[q][j] = b64[rng(&s) % 8]; /* few letters */
			p[q][len[q]] = '\0';
		}
		bs = 3UL << (rng(&s) % 8);
		bsb = bs << (rng(&s) % 3) >> 1;
		if (rng(&s) % 5 == 0) {
			bsb = bs; /* same digest: the whole-digest key too */
			memcpy(p[2], p[0], sizeof(p[0]));
			memcpy(p[3], p[1], sizeof(p[1]));
		}
		snprintf(da, sizeof(da), "%lu:%s:%s", bs, p[0], p[1]);
		snprintf(db, sizeof(db), "%lu:%s:%s", bsb, p[2], p[3]);
		if ((ix = ssdeep_index_new()) == NULL)
			return;
		if (ssdeep_index_add(ix, da, 1) == 0 &&
		    (n = ssdeep_index_query(ix, db, 1, m, 4)) > 0) {
			found += n;
			CHECK(meet(
			    ka, ssdeep_keys(da, ka), kb, ssdeep_keys(db, kb)));
		}
		ssdeep_index_free(ix);
	}
	CHECK(found > 300);
}

/* A random well-formed vector over a vocabulary of vocab ids: n distinct
 * ids, weights cut from TDW_SCALE at random points. */
static void
tdw_random(struct tdw_vec *v, size_t n, uint32_t vocab, uint64_t *s)
{
	uint32_t cut[TDW_TOKENS_MAX + 1], t;
	size_t i, j, m = 0;

	while (m < n) {
		t = (uint32_t)(rng(s) % vocab) * 2654435761u;
		for (j = 0; j < m && v->t[j].id != t; j++)
			;
		if (j == m)
			v->t[m++].id = t;
	}
	/* Insertion sort by id; n is small. */
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && v->t[j - 1].id > v->t[j].id; j--) {
			t = v->t[j].id;
			v->t[j].id = v->t[j - 1].id;
			v->t[j - 1].id = t;
		}
	for (m = 0; m < n - 1;) {
		t = 1 + (uint32_t)(rng(s) % (TDW_SCALE - 1));
		for (j = 0; j < m && cut[j] != t; j++)
			;
		if (j == m)
			cut[m++] = t;
	}
	cut[m++] = 0;
	cut[m++] = TDW_SCALE;
	for (i = 1; i < m; i++)
		for (j = i; j > 0 && cut[j - 1] > cut[j]; j--) {
			t = cut[j];
			cut[j] = cut[j - 1];
			cut[j - 1] = t;
		}
	for (i = 0; i < n; i++)
		v->t[i].w = (uint16_t)(cut[i + 1] - cut[i]);
	v->n = (uint16_t)n;
}

/*
 * TDW over synthetic vectors from a small vocabulary (so pairs overlap by
 * any amount), at several thresholds, with noise added before A so the
 * index's own token order differs from pair to pair.
 */
static void
test_tdw_keys(void)
{
	static const int pct[] = {10, 30, 50, 75, 90};
	static struct tdw_vec a, b, noise;
	static uint64_t ka[TDW_TOKENS_MAX], kb[TDW_TOKENS_MAX];
	struct tdw_match m[16];
	struct tdw_index *ix;
	uint64_t s = 23;
	size_t pi, i, j, n, found = 0;

	for (pi = 0; pi < sizeof(pct) / sizeof(pct[0]); pi++) {
		for (i = 0; i < 300; i++) {
			if ((ix = tdw_index_new(pct[pi])) == NULL)
				return;
			tdw_random(&noise, 1 + rng(&s) % 40, 60, &s);
			CHECK_INT(tdw_index_add(ix, &noise, 100), 0);
			tdw_random(&a, 1 + rng(&s) % 40, 60, &s);
			tdw_random(&b, 1 + rng(&s) % 40, 60, &s);
			CHECK_INT(tdw_index_add(ix, &a, 1), 0);
			n = tdw_index_query(ix, &b, m, 16);
			for (j = 0; j < n && j < 16; j++)
				if (m[j].id == 1) {
					found++;
					CHECK(meet(ka,
					    tdw_index_keys(ix, &a, ka), kb,
					    tdw_index_keys(ix, &b, kb)));
				}
			tdw_index_free(ix);
		}
	}
	CHECK(found > 150);
}

/* Scale raw[0..n) to weights of v summing to TDW_SCALE, ids from id[],
 * sorted by id as a vector must be. */
static void
tdw_make(struct tdw_vec *v, const uint32_t *id, const uint32_t *raw, size_t n)
{
	uint64_t total = 0;
	uint32_t sum = 0, big = 0;
	struct tdw_term t;
	size_t i, j;

	for (i = 0; i < n; i++)
		total += raw[i];
	for (i = 0; i < n; i++) {
		v->t[i].id = id[i];
		v->t[i].w =
		    (uint16_t)(raw[i] * (uint64_t)(TDW_SCALE - n) / total + 1);
		sum += v->t[i].w;
		if (v->t[i].w > v->t[big].w)
			big = (uint32_t)i;
	}
	v->t[big].w = (uint16_t)(v->t[big].w + (TDW_SCALE - sum));
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && v->t[j - 1].id > v->t[j].id; j--) {
			t = v->t[j];
			v->t[j] = v->t[j - 1];
			v->t[j - 1] = t;
		}
	v->n = (uint16_t)n;
}

/*
 * A pair sharing one to four tokens that carry a random share of both
 * vectors' weight (so overlaps fall on both sides of any threshold), the
 * rest of each vector its own: which shared token comes first in the
 * fixed order, and where, decides whether the keys meet.
 */
static void
tdw_pair(struct tdw_vec *a, struct tdw_vec *b, uint64_t *s)
{
	uint32_t id[64], raw[64], share = 1 + (uint32_t)(rng(s) % 1000);
	size_t ns = 1 + rng(s) % 4, na = ns + rng(s) % 30;
	size_t nb = ns + rng(s) % 30, i;

	/* Ids from a 2^32 space: distinct but for a rare collision, which
	 * tdw_make would turn into an ill-formed vector -- so avoid it. */
	for (i = 0; i < 64; i++)
		id[i] =
		    (uint32_t)(i * 0x01000000u) | (uint32_t)(rng(s) & 0xffffff);
	for (i = 0; i < ns; i++)
		raw[i] = share * (1 + (uint32_t)(rng(s) % 16));
	for (i = ns; i < na; i++)
		raw[i] = 1 + (uint32_t)(rng(s) % 1000);
	tdw_make(a, id, raw, na);
	for (i = 0; i < ns; i++)
		raw[i] = raw[i] * (90 + (uint32_t)(rng(s) % 21)) / 100 + 1;
	for (i = ns; i < nb; i++) {
		id[i] = (uint32_t)((32 + i) * 0x01000000u) |
		    (uint32_t)(rng(s) & 0xffffff);
		raw[i] = 1 + (uint32_t)(rng(s) % 1000);
	}
	tdw_make(b, id, raw, nb);
}

static void
test_tdw_keys_few_shared(void)
{
	static struct tdw_vec a, b, noise;
	static uint64_t ka[TDW_TOKENS_MAX], kb[TDW_TOKENS_MAX];
	struct tdw_match m[16];
	struct tdw_index *ix;
	uint64_t s = 37;
	size_t i, j, n, found = 0;
	int pct;

	for (i = 0; i < 6000; i++) {
		pct = 1 + (int)(rng(&s) % 100);
		if ((ix = tdw_index_new(pct)) == NULL)
			return;
		tdw_pair(&noise, &b, &s);
		CHECK_INT(tdw_index_add(ix, &noise, 100), 0);
		tdw_pair(&a, &b, &s);
		CHECK_INT(tdw_index_add(ix, &a, 1), 0);
		n = tdw_index_query(ix, &b, m, 16);
		for (j = 0; j < n && j < 16; j++)
			if (m[j].id == 1) {
				found++;
				CHECK(meet(ka, tdw_index_keys(ix, &a, ka), kb,
				    tdw_index_keys(ix, &b, kb)));
			}
		tdw_index_free(ix);
	}
	CHECK(found > 1000);
}

static struct dedup_config
keys_config(void)
{
	struct dedup_config c;

	memset(&c, 0, sizeof(c));
	c.methods = DEDUP_MD5 | DEDUP_SIMHASH | DEDUP_SSDEEP | DEDUP_MINHASH |
	    DEDUP_TDW;
	c.simhash_k = 3;
	c.ssdeep_threshold = 40;
	c.minhash_perms = 128;
	c.minhash_bands = 32;
	c.minhash_shingle = 3;
	c.minhash_threshold = 40;
	c.tdw_threshold = 60;
	c.tdw.max_tokens = TDW_TOKENS_DEFAULT;
	c.rule = DEDUP_RULE_ANY;
	c.min_text = 300; /* some pages are too short to be judged near */
	c.fold_numbers = 1;
	c.max_novel_words = -1;
	return c;
}

/* Sorted, no duplicates, within the documented bounds. */
static void
check_key_list(const struct dedup *d, const uint64_t *k, size_t n)
{
	size_t i;

	CHECK(n >= 1 && n <= dedup_lock_keys_max(d));
	CHECK(dedup_lock_keys_max(d) <= DEDUP_LOCK_KEYS_MAX);
	for (i = 1; i < n; i++)
		CHECK(k[i - 1] < k[i]);
}

/*
 * The whole of dedup: every method on, pages and near variants (some
 * exact copies, some under min_text), A added after noise, B checked;
 * whatever dedup_check reports, A's and B's lock keys meet. Also: keys
 * do not depend on what d holds, and a short cap reports the full count.
 */
static void
test_dedup_lock_keys(void)
{
	static size_t ws[2048], vs[4096];
	static char ta[TEXT_CAP], tb[TEXT_CAP];
	static struct dedup_fp fa, fb, fn;
	static uint64_t ka[DEDUP_LOCK_KEYS_MAX], kb[DEDUP_LOCK_KEYS_MAX];
	static uint64_t kc[DEDUP_LOCK_KEYS_MAX];
	struct dedup_config c = keys_config();
	struct dedup_match m[DEDUP_MAX_MATCHES];
	struct dedup *d, *empty = dedup_new(&c);
	enum dedup_verdict v;
	uint64_t s = 29;
	size_t i, j, na, nb, nw, nv, nm, near = 0, exact = 0, hit;

	CHECK(empty != NULL);
	if (empty == NULL)
		return;
	for (i = 0; i < 250; i++) {
		if ((d = dedup_new(&c)) == NULL)
			break;
		nw = page_words(ws, 10 + rng(&s) % 1500, rng(&s));
		CHECK_INT(dedup_fingerprint(d, ta, join(ws, nw, ta), &fn), 0);
		CHECK_INT(dedup_add(d, &fn, 100), 0);
		nw = page_words(ws, 10 + rng(&s) % 1500, rng(&s));
		nv = rng(&s) % 8 == 0
		    ? nw
		    : variant(ws, nw, vs, sizeof(vs) / sizeof(vs[0]), &s);
		if (nv == nw)
			memcpy(vs, ws, nw * sizeof(ws[0]));
		CHECK_INT(dedup_fingerprint(d, ta, join(ws, nw, ta), &fa), 0);
		CHECK_INT(dedup_fingerprint(d, tb, join(vs, nv, tb), &fb), 0);
		na = dedup_lock_keys(d, &fa, ka, DEDUP_LOCK_KEYS_MAX);
		nb = dedup_lock_keys(d, &fb, kb, DEDUP_LOCK_KEYS_MAX);
		check_key_list(d, ka, na);
		check_key_list(d, kb, nb);
		CHECK_INT(
		    dedup_lock_keys(empty, &fa, kc, DEDUP_LOCK_KEYS_MAX), na);
		CHECK(memcmp(ka, kc, na * sizeof(ka[0])) == 0);
		CHECK_INT(dedup_lock_keys(d, &fa, kc, 1), na);
		CHECK(kc[0] == ka[0]);
		CHECK_INT(dedup_add(d, &fa, 1), 0);
		v = dedup_check(d, &fb, m, DEDUP_MAX_MATCHES, &nm);
		for (j = 0, hit = 0; j < nm; j++)
			hit |= m[j].original_id == 1;
		if (hit) {
			near += v == DEDUP_NEAR;
			exact += v == DEDUP_EXACT;
			CHECK(meet(ka, na, kb, nb));
		}
		dedup_free(d);
	}
	dedup_free(empty);
	CHECK(near > 50);
	CHECK(exact > 10);
}

/*
 * A page under min_text is never judged near, but dedup_add indexes its
 * near fingerprints all the same, so a longer page can be found near it:
 * the short page's lock keys must cover its near methods too.
 */
static void
test_short_page_locks_near_keys(void)
{
	static size_t ws[512], vs[512];
	static char ta[TEXT_CAP], tb[TEXT_CAP];
	static struct dedup_fp fa, fb;
	static uint64_t ka[DEDUP_LOCK_KEYS_MAX], kb[DEDUP_LOCK_KEYS_MAX];
	struct dedup_config c = keys_config();
	struct dedup_match m[DEDUP_MAX_MATCHES];
	size_t i, j, nw, nv, la, lb, nm, na, nb, near = 0;
	struct dedup *d;
	uint64_t s = 41;

	for (i = 0; i < 200; i++) {
		if ((d = dedup_new(&c)) == NULL)
			return;
		nw = page_words(ws, 30 + rng(&s) % 10, rng(&s));
		while ((la = join(ws, nw, ta)) >= c.min_text)
			nw--;
		/* B: A, then A again from its start, till long enough. */
		memcpy(vs, ws, nw * sizeof(ws[0]));
		for (nv = nw; join(vs, nv, tb) < c.min_text + 20; nv++)
			vs[nv] = vs[nv - nw];
		lb = join(vs, nv, tb);
		CHECK(la < c.min_text && lb >= c.min_text);
		CHECK_INT(dedup_fingerprint(d, ta, la, &fa), 0);
		CHECK_INT(dedup_fingerprint(d, tb, lb, &fb), 0);
		CHECK_INT(dedup_add(d, &fa, 1), 0);
		if (dedup_check(d, &fb, m, DEDUP_MAX_MATCHES, &nm) ==
		    DEDUP_NEAR) {
			near++;
			na = dedup_lock_keys(d, &fa, ka, DEDUP_LOCK_KEYS_MAX);
			nb = dedup_lock_keys(d, &fb, kb, DEDUP_LOCK_KEYS_MAX);
			CHECK(meet(ka, na, kb, nb));
		}
		for (j = 0; j < nm; j++)
			CHECK_INT(m[j].original_id, 1);
		dedup_free(d);
	}
	CHECK(near > 50);
}

/* MD5 alone: one key, equal for equal texts, whatever their length. */
static void
test_md5_lock_key(void)
{
	static struct dedup_fp fa, fb;
	struct dedup_config c = keys_config();
	uint64_t ka[4], kb[4];
	struct dedup *d;

	c.methods = DEDUP_MD5;
	if ((d = dedup_new(&c)) == NULL)
		return;
	CHECK_INT(dedup_fingerprint(d, "same words", 10, &fa), 0);
	CHECK_INT(dedup_fingerprint(d, "same words", 10, &fb), 0);
	CHECK_INT(dedup_lock_keys(d, &fa, ka, 4), 1);
	CHECK_INT(dedup_lock_keys(d, &fb, kb, 4), 1);
	CHECK(ka[0] == kb[0]);
	CHECK_INT(dedup_add(d, &fa, 1), 0);
	CHECK_INT(dedup_check(d, &fb, NULL, 0, NULL), DEDUP_EXACT);
	CHECK_INT(dedup_fingerprint(d, "other words", 11, &fb), 0);
	CHECK_INT(dedup_lock_keys(d, &fb, kb, 4), 1);
	CHECK(ka[0] != kb[0]);
	/* A malformed digest is neither checked nor added: no key. */
	fb.md5[0] = 'x';
	CHECK_INT(dedup_lock_keys(d, &fb, kb, 4), 0);
	dedup_free(d);
}

/*
 * The other direction: unrelated pages should seldom lock a common key,
 * or every crawler would wait on every other. The default methods, on
 * pages drawn from one vocabulary of 4096 words, hardly ever share one.
 * TDW's prefixes are ordered by a hash, not by rarity, so pages drawing
 * on one vocabulary share prefix tokens often (nine pairs in ten here):
 * it is tested on pages of different subjects, which must not.
 */
static void
test_unrelated_pages_rarely_share(void)
{
	static size_t ws[2048];
	static char t[TEXT_CAP];
	static struct dedup_fp fp[60];
	static uint64_t k[60][DEDUP_LOCK_KEYS_MAX];
	struct dedup_config c = keys_config();
	size_t n[60], i, j, shared, pairs, round;
	struct dedup *d;
	uint64_t s = 31;

	for (round = 0; round < 2; round++) {
		c.methods = round == 0
		    ? (DEDUP_SIMHASH | DEDUP_SSDEEP | DEDUP_MINHASH)
		    : DEDUP_TDW;
		if ((d = dedup_new(&c)) == NULL)
			return;
		for (i = 0; i < 60; i++) {
			j = page_topic(ws, 100 + rng(&s) % 1000, rng(&s),
			    round == 0 ? 0 : i);
			CHECK_INT(
			    dedup_fingerprint(d, t, join(ws, j, t), &fp[i]), 0);
			n[i] = dedup_lock_keys(
			    d, &fp[i], k[i], DEDUP_LOCK_KEYS_MAX);
			CHECK(n[i] > 2);
		}
		for (i = 0, shared = 0, pairs = 0; i < 60; i++)
			for (j = i + 1; j < 60; j++, pairs++)
				shared += meet(k[i], n[i], k[j], n[j]);
		CHECK(shared * 100 <= pairs);
		dedup_free(d);
	}
}

void
suite_dedup_keys(void)
{
	RUN(test_simhash_keys);
	RUN(test_minhash_keys);
	RUN(test_ssdeep_keys);
	RUN(test_ssdeep_keys_synthetic);
	RUN(test_tdw_keys);
	RUN(test_tdw_keys_few_shared);
	RUN(test_dedup_lock_keys);
	RUN(test_short_page_locks_near_keys);
	RUN(test_md5_lock_key);
	RUN(test_unrelated_pages_rarely_share);
}
