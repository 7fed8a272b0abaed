#include "check.h"
#include "dedup/dedup.h"
#include "dedup/simhash.h"
#include "dedup/simindex.h"

#include <stdint.h>
#include <stdlib.h>

#define TEXT_CAP 16384

/* n pseudo-random words from seed; words in [from, to) come from alt. */
static size_t
make_text(char *out, uint64_t seed, size_t n, size_t from, size_t to)
{
	uint64_t s = seed, alt = seed ^ 0xabcdef;
	char w[16], other[16];
	size_t i, j, wl, len = 0;

	for (i = 0; i < n; i++) {
		wl = 3 + check_xorshift(&s) % 7;
		for (j = 0; j < wl; j++)
			w[j] = (char)('a' + check_xorshift(&s) % 26);
		if (i >= from && i < to) {
			/* Replace the word; the main stream stays in step. */
			wl = 3 + check_xorshift(&alt) % 7;
			for (j = 0; j < wl; j++)
				other[j] = (char)('a' + check_xorshift(&alt) % 26);
			memcpy(w, other, wl);
		}
		if (len + wl + 2 >= TEXT_CAP)
			break;
		memcpy(out + len, w, wl);
		len += wl;
		out[len++] = ' ';
	}
	out[len] = '\0';
	return len;
}

static struct dedup_config
config(unsigned methods, enum dedup_rule rule, unsigned rule_method)
{
	struct dedup_config c;

	memset(&c, 0, sizeof(c));
	c.methods = methods;
	c.simhash_k = 3;
	c.ssdeep_threshold = 90;
	c.minhash_perms = 128;
	c.minhash_bands = 32;
	c.minhash_shingle = 3;
	c.minhash_threshold = 70;
	c.rule = rule;
	c.rule_method = rule_method;
	c.min_text = 0;
	c.tdw_threshold = 90;
	c.tdw.max_tokens = TDW_TOKENS_DEFAULT;
	return c;
}

/* Fingerprint text, check it, then add it as id; returns the verdict. */
static enum dedup_verdict
feed(struct dedup *d, const char *text, size_t len, int64_t id,
    struct dedup_match *m, size_t *n)
{
	struct dedup_fp fp;
	enum dedup_verdict v;

	CHECK_INT(dedup_fingerprint(d, text, len, &fp), 0);
	v = dedup_check(d, &fp, m, 16, n);
	CHECK_INT(dedup_add(d, &fp, id), 0);
	return v;
}

static void
test_exact(void)
{
	struct dedup_config c = config(DEDUP_SIMHASH | DEDUP_SSDEEP,
	    DEDUP_RULE_ANY, 0);
	struct dedup *d = dedup_new(&c);
	struct dedup_match m[16];
	static char a[TEXT_CAP], b[TEXT_CAP];
	size_t la = make_text(a, 1, 400, 0, 0), lb, n;

	lb = make_text(b, 2, 400, 0, 0);
	CHECK(d != NULL);
	if (d == NULL)
		return;
	CHECK_INT(feed(d, a, la, 10, m, &n), DEDUP_UNIQUE);
	CHECK_INT(n, 0);
	CHECK_INT(feed(d, b, lb, 11, m, &n), DEDUP_UNIQUE);
	CHECK_INT(feed(d, a, la, 12, m, &n), DEDUP_EXACT);
	CHECK_INT(n, 1);
	CHECK_INT(m[0].original_id, 10);
	CHECK_INT(m[0].method, DEDUP_MD5);
	CHECK(m[0].percent == 100.0);
	/* The MD5 keeps its first page. */
	CHECK_INT(feed(d, a, la, 13, m, &n), DEDUP_EXACT);
	CHECK_INT(m[0].original_id, 10);
	CHECK_INT(dedup_count(d), 4);
	CHECK(dedup_bytes(d) > sizeof(void *));
	dedup_free(d);
	dedup_free(NULL);
}

static void
test_empty_and_min_text(void)
{
	struct dedup_config c = config(DEDUP_SIMHASH, DEDUP_RULE_ANY, 0);
	struct dedup *d;
	struct dedup_match m[16];
	static char a[TEXT_CAP], b[TEXT_CAP];
	size_t la = make_text(a, 3, 300, 0, 0);
	size_t lb = make_text(b, 3, 300, 150, 151), n;
	int dist = simhash_distance(simhash_of_text(a, la),
	    simhash_of_text(b, lb));

	CHECK(la < 5000 && lb < 5000);
	CHECK(dist >= 0 && dist <= SIMINDEX_MAX_K);
	c.simhash_k = dist;
	c.min_text = 5000;
	d = dedup_new(&c);
	CHECK(d != NULL);
	if (d == NULL)
		return;
	CHECK_INT(feed(d, "", 0, 1, m, &n), DEDUP_UNIQUE);
	CHECK_INT(feed(d, "", 0, 2, m, &n), DEDUP_EXACT);
	CHECK_INT(m[0].original_id, 1);
	CHECK_INT(feed(d, a, la, 3, m, &n), DEDUP_UNIQUE);
	/* Short texts are never near... */
	CHECK_INT(feed(d, b, lb, 4, m, &n), DEDUP_UNIQUE);
	CHECK_INT(n, 0);
	/* ...but can be exact. */
	CHECK_INT(feed(d, a, la, 5, m, &n), DEDUP_EXACT);
	CHECK_INT(m[0].original_id, 3);
	dedup_free(d);
	/* The same pair with no minimum is near (control). */
	c.min_text = 0;
	d = dedup_new(&c);
	CHECK(d != NULL);
	if (d == NULL)
		return;
	CHECK_INT(feed(d, "", 0, 1, m, &n), DEDUP_UNIQUE);
	CHECK_INT(feed(d, a, la, 3, m, &n), DEDUP_UNIQUE);
	CHECK_INT(feed(d, b, lb, 4, m, &n), DEDUP_NEAR);
	CHECK_INT(n, 1);
	CHECK_INT(m[0].original_id, 3);
	CHECK_INT(m[0].method, DEDUP_SIMHASH);
	CHECK_INT(feed(d, "", 0, 6, m, &n), DEDUP_EXACT);
	CHECK_INT(m[0].original_id, 1);
	dedup_free(d);
}

/* Two texts of 600 words, `changed` words apart, and their fingerprints. */
struct pair {
	char a[TEXT_CAP], b[TEXT_CAP], c[TEXT_CAP];
	size_t la, lb, lc;
	int sim_dist;  /* SimHash distance of a and b */
	int ssd_score; /* ssdeep score of a and b */
	int mh_agree;  /* MinHash positions (of 128) where a and b agree */
};

static void
make_pair(struct pair *p, size_t changed)
{
	char da[SSDEEP_MAX], db[SSDEEP_MAX];
	uint32_t ma[128], mb[128];

	p->la = make_text(p->a, 42, 600, 0, 0);
	p->lb = make_text(p->b, 42, 600, 300, 300 + changed);
	p->lc = make_text(p->c, 4242, 600, 0, 0); /* unrelated */
	p->sim_dist = simhash_distance(simhash_of_text(p->a, p->la),
	    simhash_of_text(p->b, p->lb));
	ssdeep_of_text(p->a, p->la, da);
	ssdeep_of_text(p->b, p->lb, db);
	p->ssd_score = ssdeep_score(da, db);
	minhash_of_text(p->a, p->la, 3, 128, ma);
	minhash_of_text(p->b, p->lb, 3, 128, mb);
	p->mh_agree = (int)minhash_agree(ma, mb, 128);
}

/*
 * Feed a (id 1), unrelated c (id 2), then b with thresholds that let only
 * the methods in `match` see a and b as near. Returns b's verdict.
 */
static enum dedup_verdict
judge(const struct pair *p, unsigned methods, enum dedup_rule rule,
    unsigned rule_method, unsigned match, struct dedup_match *m, size_t *n)
{
	struct dedup_config c = config(methods, rule, rule_method);
	struct dedup *d;
	enum dedup_verdict v = DEDUP_UNIQUE;

	c.simhash_k = match & DEDUP_SIMHASH ? p->sim_dist : p->sim_dist - 1;
	c.ssdeep_threshold = match & DEDUP_SSDEEP ? p->ssd_score :
	    p->ssd_score + 1;
	/* The largest percent the agreement reaches, or just past it. */
	c.minhash_threshold = p->mh_agree * 100 / 128 +
	    (match & DEDUP_MINHASH ? 0 : 1);
	d = dedup_new(&c);
	CHECK(d != NULL);
	if (d == NULL)
		return v;
	CHECK_INT(feed(d, p->a, p->la, 1, m, n), DEDUP_UNIQUE);
	CHECK_INT(feed(d, p->c, p->lc, 2, m, n), DEDUP_UNIQUE);
	v = feed(d, p->b, p->lb, 3, m, n);
	dedup_free(d);
	return v;
}

static struct pair the_pair; /* one word apart */
static struct pair mh_pair;  /* ten words apart: MinHash sees it too */

static void
test_pair_premises(void)
{
	make_pair(&the_pair, 1);
	/* Thresholds are set around these, so both must be in range. */
	CHECK(the_pair.sim_dist >= 1 && the_pair.sim_dist <= 8);
	CHECK(the_pair.ssd_score >= 50 && the_pair.ssd_score <= 99);
	make_pair(&mh_pair, 10);
	CHECK(mh_pair.sim_dist >= 1 && mh_pair.sim_dist <= SIMINDEX_MAX_K);
	CHECK(mh_pair.ssd_score >= 1 && mh_pair.ssd_score <= 99);
	/* Below 128 so a threshold can refuse it, and disagreeing in fewer
	 * positions than there are bands, so the buckets surely find it. */
	CHECK(mh_pair.mh_agree > 128 - 32 && mh_pair.mh_agree < 128);
}

static void
test_near_one_method_enabled(void)
{
	struct dedup_match m[16];
	size_t n;

	CHECK_INT(judge(&the_pair, DEDUP_SIMHASH, DEDUP_RULE_ANY, 0,
	    DEDUP_SIMHASH, m, &n), DEDUP_NEAR);
	CHECK_INT(n, 1);
	CHECK_INT(m[0].original_id, 1);
	CHECK_INT(m[0].method, DEDUP_SIMHASH);
	CHECK(m[0].percent == simhash_percent(the_pair.sim_dist));
	CHECK_INT(judge(&the_pair, DEDUP_SIMHASH, DEDUP_RULE_ANY, 0, 0, m,
	    &n), DEDUP_UNIQUE);
	CHECK_INT(n, 0);
	CHECK_INT(judge(&the_pair, DEDUP_SSDEEP, DEDUP_RULE_ANY, 0,
	    DEDUP_SSDEEP, m, &n), DEDUP_NEAR);
	CHECK_INT(n, 1);
	CHECK_INT(m[0].original_id, 1);
	CHECK_INT(m[0].method, DEDUP_SSDEEP);
	CHECK(m[0].percent == (double)the_pair.ssd_score);
	CHECK_INT(judge(&the_pair, DEDUP_SSDEEP, DEDUP_RULE_ANY, 0, 0, m,
	    &n), DEDUP_UNIQUE);
	/* MD5 alone never finds near copies. */
	CHECK_INT(judge(&the_pair, 0, DEDUP_RULE_ANY, 0, DEDUP_SIMHASH |
	    DEDUP_SSDEEP, m, &n), DEDUP_UNIQUE);
}

static void
test_rules(void)
{
	const unsigned both = DEDUP_SIMHASH | DEDUP_SSDEEP;
	struct dedup_match m[16];
	size_t n;

	/* ANY: one method is enough. */
	CHECK_INT(judge(&the_pair, both, DEDUP_RULE_ANY, 0, DEDUP_SIMHASH,
	    m, &n), DEDUP_NEAR);
	CHECK_INT(n, 1);
	CHECK_INT(judge(&the_pair, both, DEDUP_RULE_ANY, 0, DEDUP_SSDEEP, m,
	    &n), DEDUP_NEAR);
	CHECK_INT(m[0].method, DEDUP_SSDEEP);
	CHECK_INT(judge(&the_pair, both, DEDUP_RULE_ANY, 0, 0, m, &n),
	    DEDUP_UNIQUE);
	/* ALL: both must match; then both report, SimHash first. */
	CHECK_INT(judge(&the_pair, both, DEDUP_RULE_ALL, 0, DEDUP_SIMHASH,
	    m, &n), DEDUP_UNIQUE);
	CHECK_INT(n, 0);
	CHECK_INT(judge(&the_pair, both, DEDUP_RULE_ALL, 0, DEDUP_SSDEEP, m,
	    &n), DEDUP_UNIQUE);
	CHECK_INT(judge(&the_pair, both, DEDUP_RULE_ALL, 0, both, m, &n),
	    DEDUP_NEAR);
	CHECK_INT(n, 2);
	CHECK_INT(m[0].method, DEDUP_SIMHASH);
	CHECK_INT(m[1].method, DEDUP_SSDEEP);
	CHECK_INT(m[1].original_id, 1);
	/* ALL with no near method enabled is never near. */
	CHECK_INT(judge(&the_pair, 0, DEDUP_RULE_ALL, 0, both, m, &n),
	    DEDUP_UNIQUE);
	/* ONE: only the named method decides, the other still reports. */
	CHECK_INT(judge(&the_pair, both, DEDUP_RULE_ONE, DEDUP_SSDEEP,
	    DEDUP_SIMHASH, m, &n), DEDUP_UNIQUE);
	CHECK_INT(judge(&the_pair, both, DEDUP_RULE_ONE, DEDUP_SSDEEP,
	    DEDUP_SSDEEP, m, &n), DEDUP_NEAR);
	CHECK_INT(n, 1);
	CHECK_INT(judge(&the_pair, both, DEDUP_RULE_ONE, DEDUP_SIMHASH,
	    both, m, &n), DEDUP_NEAR);
	CHECK_INT(n, 2);
	CHECK_INT(judge(&the_pair, both, DEDUP_RULE_ONE, DEDUP_SIMHASH,
	    DEDUP_SSDEEP, m, &n), DEDUP_UNIQUE);
}

static void
test_minhash(void)
{
	const unsigned three = DEDUP_SIMHASH | DEDUP_SSDEEP | DEDUP_MINHASH;
	struct dedup_match m[DEDUP_MAX_MATCHES];
	size_t n;

	CHECK_INT(judge(&mh_pair, DEDUP_MINHASH, DEDUP_RULE_ANY, 0,
	    DEDUP_MINHASH, m, &n), DEDUP_NEAR);
	CHECK_INT(n, 1);
	CHECK_INT(m[0].original_id, 1);
	CHECK_INT(m[0].method, DEDUP_MINHASH);
	CHECK(m[0].percent == minhash_percent(mh_pair.mh_agree, 128));
	CHECK_INT(judge(&mh_pair, DEDUP_MINHASH, DEDUP_RULE_ANY, 0, 0, m,
	    &n), DEDUP_UNIQUE);
	CHECK_INT(n, 0);
	/* With the others: reported after them, in method order. */
	CHECK_INT(judge(&mh_pair, three, DEDUP_RULE_ALL, 0, three, m, &n),
	    DEDUP_NEAR);
	CHECK_INT(n, 3);
	CHECK_INT(m[0].method, DEDUP_SIMHASH);
	CHECK_INT(m[1].method, DEDUP_SSDEEP);
	CHECK_INT(m[2].method, DEDUP_MINHASH);
	CHECK_INT(judge(&mh_pair, three, DEDUP_RULE_ALL, 0,
	    DEDUP_SIMHASH | DEDUP_SSDEEP, m, &n), DEDUP_UNIQUE);
	CHECK_INT(judge(&mh_pair, three, DEDUP_RULE_ANY, 0, DEDUP_MINHASH, m,
	    &n), DEDUP_NEAR);
	CHECK_INT(n, 1);
	CHECK_INT(judge(&mh_pair, three, DEDUP_RULE_ONE, DEDUP_MINHASH,
	    DEDUP_SIMHASH, m, &n), DEDUP_UNIQUE);
	CHECK_INT(judge(&mh_pair, three, DEDUP_RULE_ONE, DEDUP_MINHASH,
	    DEDUP_MINHASH | DEDUP_SSDEEP, m, &n), DEDUP_NEAR);
	CHECK_INT(n, 2);
	CHECK_INT(judge(&mh_pair, three, DEDUP_RULE_ONE, DEDUP_SSDEEP,
	    DEDUP_MINHASH, m, &n), DEDUP_UNIQUE);
}

/*
 * A resumed crawl hands back stored signatures: the blob round trip gives
 * the same verdict, and a signature of another length is left out of the
 * index rather than compared.
 */
static void
test_minhash_reloaded(void)
{
	struct dedup_config c = config(DEDUP_MINHASH, DEDUP_RULE_ANY, 0);
	struct dedup *d = dedup_new(&c);
	struct dedup_match m[DEDUP_MAX_MATCHES];
	struct dedup_fp fp, back;
	unsigned char blob[MINHASH_BLOB_MAX];
	size_t len, n;

	CHECK(d != NULL);
	if (d == NULL)
		return;
	CHECK_INT(dedup_fingerprint(d, mh_pair.a, mh_pair.la, &fp), 0);
	CHECK_INT(fp.have, DEDUP_MD5 | DEDUP_MINHASH);
	CHECK_INT(fp.minhash_perms, 128);
	len = minhash_encode(fp.minhash, 128, blob);
	CHECK_INT(len, 512);
	memset(&back, 0, sizeof(back));
	CHECK_INT(minhash_decode(blob, len, 128, back.minhash), 0);
	back.minhash_perms = 128;
	back.have = DEDUP_MD5 | DEDUP_MINHASH;
	back.text_len = mh_pair.la;
	CHECK_INT(dedup_add(d, &back, 5), 0);
	CHECK_INT(dedup_fingerprint(d, mh_pair.b, mh_pair.lb, &fp), 0);
	CHECK_INT(dedup_check(d, &fp, m, DEDUP_MAX_MATCHES, &n), DEDUP_NEAR);
	CHECK_INT(n, 1);
	CHECK_INT(m[0].original_id, 5);
	/* Another length: skipped when added, never matching when checked. */
	back.minhash_perms = 64;
	CHECK_INT(dedup_add(d, &back, 6), 0);
	CHECK_INT(dedup_check(d, &back, m, DEDUP_MAX_MATCHES, &n),
	    DEDUP_UNIQUE);
	CHECK_INT(dedup_check(d, &fp, m, DEDUP_MAX_MATCHES, &n), DEDUP_NEAR);
	CHECK_INT(n, 1);
	CHECK_INT(dedup_count(d), 2);
	CHECK(dedup_bytes(d) > 128 * 4);
	dedup_free(d);
}

static void
test_max_and_per_method_cap(void)
{
	struct dedup_config c = config(DEDUP_SIMHASH | DEDUP_SSDEEP,
	    DEDUP_RULE_ANY, 0);
	struct dedup *d = dedup_new(&c);
	struct dedup_match m[32];
	struct dedup_fp fp;
	static char t[TEXT_CAP];
	size_t len, n, i;

	CHECK(d != NULL);
	if (d == NULL)
		return;
	/* Twelve texts that differ from each other in one word each. */
	for (i = 0; i < 12; i++) {
		len = make_text(t, 9, 600, 590 + i % 10, 591 + i % 10 + i / 10);
		CHECK_INT(dedup_fingerprint(d, t, len, &fp), 0);
		CHECK_INT(dedup_add(d, &fp, (int64_t)i + 100), 0);
	}
	len = make_text(t, 9, 600, 0, 0);
	CHECK_INT(dedup_fingerprint(d, t, len, &fp), 0);
	CHECK_INT(dedup_check(d, &fp, m, 32, &n), DEDUP_NEAR);
	/* At most DEDUP_MAX_PER_METHOD of each method. */
	CHECK_INT(n, 2 * DEDUP_MAX_PER_METHOD);
	for (i = 0; i < DEDUP_MAX_PER_METHOD; i++)
		CHECK_INT(m[i].method, DEDUP_SIMHASH);
	for (i = 1; i < DEDUP_MAX_PER_METHOD; i++)
		CHECK(m[i].percent <= m[i - 1].percent);
	CHECK_INT(m[DEDUP_MAX_PER_METHOD].method, DEDUP_SSDEEP);
	/* max caps what is written. */
	CHECK_INT(dedup_check(d, &fp, m, 3, &n), DEDUP_NEAR);
	CHECK_INT(n, 3);
	CHECK_INT(dedup_check(d, &fp, NULL, 0, &n), DEDUP_NEAR);
	CHECK_INT(n, 0);
	CHECK_INT(dedup_count(d), 12);
	dedup_free(d);
}

static void
test_bad_config(void)
{
	struct dedup_config c = config(DEDUP_SIMHASH, DEDUP_RULE_ANY, 0);
	struct dedup *d;

	c.simhash_k = -1;
	CHECK(dedup_new(&c) == NULL);
	c.simhash_k = 16;
	CHECK(dedup_new(&c) == NULL);
	c.simhash_k = 15;
	d = dedup_new(&c);
	CHECK(d != NULL);
	dedup_free(d);
	c = config(DEDUP_SSDEEP, DEDUP_RULE_ANY, 0);
	c.ssdeep_threshold = 0;
	CHECK(dedup_new(&c) == NULL);
	c.ssdeep_threshold = 101;
	CHECK(dedup_new(&c) == NULL);
	c = config(DEDUP_SSDEEP, DEDUP_RULE_ONE, DEDUP_SIMHASH);
	CHECK(dedup_new(&c) == NULL); /* rule method not enabled */
	c = config(DEDUP_SSDEEP, DEDUP_RULE_ONE, DEDUP_MD5);
	CHECK(dedup_new(&c) == NULL); /* not a near method */
	c = config(DEDUP_SSDEEP | DEDUP_SIMHASH, DEDUP_RULE_ONE,
	    DEDUP_SSDEEP | DEDUP_SIMHASH);
	CHECK(dedup_new(&c) == NULL); /* not one method */
	c = config(1u << 7, DEDUP_RULE_ANY, 0);
	CHECK(dedup_new(&c) == NULL);
	c = config(DEDUP_SSDEEP, (enum dedup_rule)9, 0);
	CHECK(dedup_new(&c) == NULL);
	CHECK(dedup_new(NULL) == NULL);
	/* MinHash settings count only when MinHash is on. */
	c = config(DEDUP_SIMHASH, DEDUP_RULE_ANY, 0);
	c.minhash_perms = c.minhash_bands = 0;
	c.minhash_shingle = c.minhash_threshold = 0;
	d = dedup_new(&c);
	CHECK(d != NULL);
	dedup_free(d);
	c.methods |= DEDUP_MINHASH;
	CHECK(dedup_new(&c) == NULL);
	c = config(DEDUP_MINHASH, DEDUP_RULE_ONE, DEDUP_MINHASH);
	d = dedup_new(&c);
	CHECK(d != NULL);
	dedup_free(d);
	c.minhash_bands = 48; /* does not divide 128 */
	CHECK(dedup_new(&c) == NULL);
	c = config(DEDUP_MINHASH, DEDUP_RULE_ANY, 0);
	c.minhash_perms = MINHASH_MIN_PERMS - 1;
	c.minhash_bands = 1;
	CHECK(dedup_new(&c) == NULL);
	c = config(DEDUP_MINHASH, DEDUP_RULE_ANY, 0);
	c.minhash_perms = MINHASH_MAX_PERMS * 2;
	CHECK(dedup_new(&c) == NULL);
	c = config(DEDUP_MINHASH, DEDUP_RULE_ANY, 0);
	c.minhash_shingle = MINHASH_MAX_SHINGLE + 1;
	CHECK(dedup_new(&c) == NULL);
	c = config(DEDUP_MINHASH, DEDUP_RULE_ANY, 0);
	c.minhash_threshold = 101;
	CHECK(dedup_new(&c) == NULL);
	c.minhash_threshold = 0;
	CHECK(dedup_new(&c) == NULL);
}

static void
test_fingerprint_fields(void)
{
	struct dedup_config c = config(DEDUP_SSDEEP, DEDUP_RULE_ANY, 0);
	struct dedup *d = dedup_new(&c);
	struct dedup_fp fp;

	CHECK(d != NULL);
	if (d == NULL)
		return;
	CHECK_INT(dedup_fingerprint(d, "abc", 3, &fp), 0);
	CHECK_STR(fp.md5, "900150983cd24fb0d6963f7d28e17f72");
	CHECK_INT(fp.have, DEDUP_MD5 | DEDUP_SSDEEP);
	CHECK_INT(fp.text_len, 3);
	CHECK(fp.simhash == 0);
	CHECK_STR(fp.ssdeep, "3:uG:uG");
	dedup_free(d);
}

static void
test_parse_methods(void)
{
	unsigned m = 0;
	const char *bad = NULL, *s;

	CHECK_INT(dedup_parse_methods("md5,simhash", &m, &bad), 0);
	CHECK_INT(m, DEDUP_MD5 | DEDUP_SIMHASH);
	CHECK_INT(dedup_parse_methods("ssdeep", &m, &bad), 0);
	CHECK_INT(m, DEDUP_MD5 | DEDUP_SSDEEP);
	CHECK_INT(dedup_parse_methods(" ssdeep , SimHash ,md5 ", &m, &bad),
	    0);
	CHECK_INT(m, DEDUP_MD5 | DEDUP_SSDEEP | DEDUP_SIMHASH);
	CHECK_INT(dedup_parse_methods("minhash,md5", &m, &bad), 0);
	CHECK_INT(m, DEDUP_MD5 | DEDUP_MINHASH);
	CHECK_INT(dedup_parse_methods("tdw,ssdeep", &m, &bad), 0);
	CHECK_INT(m, DEDUP_MD5 | DEDUP_SSDEEP | DEDUP_TDW);
	CHECK_INT(dedup_parse_methods("", &m, &bad), 0);
	CHECK_INT(m, DEDUP_MD5);
	m = 99;
	s = "simhash, bogus ,md5";
	CHECK_INT(dedup_parse_methods(s, &m, &bad), -1);
	CHECK(bad == s + 9);
	CHECK_INT(m, 99); /* untouched on failure */
	s = "bogus";
	CHECK_INT(dedup_parse_methods(s, &m, &bad), -1);
	CHECK(bad == s);
	s = "simhashx";
	CHECK_INT(dedup_parse_methods(s, &m, &bad), -1);
	CHECK(bad == s);
	CHECK_INT(dedup_parse_methods("sim", &m, NULL), -1);
}

static void
test_names(void)
{
	CHECK_STR(dedup_method_name(DEDUP_MD5), "md5");
	CHECK_STR(dedup_method_name(DEDUP_SIMHASH), "simhash");
	CHECK_STR(dedup_method_name(DEDUP_SSDEEP), "ssdeep");
	CHECK_STR(dedup_method_name(DEDUP_MINHASH), "minhash");
	CHECK_STR(dedup_method_name(DEDUP_TDW), "tdw");
	CHECK_STR(dedup_method_name((enum dedup_method)64), "unknown");
	CHECK_STR(dedup_verdict_name(DEDUP_UNIQUE), "unique");
	CHECK_STR(dedup_verdict_name(DEDUP_EXACT), "exact");
	CHECK_STR(dedup_verdict_name(DEDUP_NEAR), "near");
}

/* Every row of the method table parses back to its bit, and md5 leads. */
static void
test_method_table(void)
{
	const struct dedup_method_info *mi;
	unsigned bits, all = 0;
	size_t i;

	CHECK(dedup_method_at(0) != NULL &&
	    dedup_method_at(0)->method == DEDUP_MD5);
	for (i = 0; (mi = dedup_method_at(i)) != NULL; i++) {
		CHECK_INT(dedup_parse_methods(mi->name, &bits, NULL), 0);
		CHECK_INT(bits, DEDUP_MD5 | mi->method);
		CHECK_STR(dedup_method_name(mi->method), mi->name);
		CHECK(dedup_method_info(mi->method) == mi);
		CHECK((all & mi->method) == 0);
		all |= mi->method;
		CHECK(mi->lo <= mi->hi && mi->sweep != NULL);
	}
	/* More methods may come; these three stay. */
	CHECK((all & (DEDUP_MD5 | DEDUP_SIMHASH | DEDUP_SSDEEP)) ==
	    (DEDUP_MD5 | DEDUP_SIMHASH | DEDUP_SSDEEP));
	CHECK(dedup_method_info((enum dedup_method)(1 << 20)) == NULL);
}

static void
test_config_threshold(void)
{
	struct dedup_config c = config(DEDUP_SIMHASH | DEDUP_SSDEEP,
	    DEDUP_RULE_ANY, 0);

	CHECK_INT(dedup_config_threshold(&c, DEDUP_SIMHASH, 7), 0);
	CHECK_INT(c.simhash_k, 7);
	CHECK_INT(dedup_config_threshold(&c, DEDUP_SSDEEP, 55), 0);
	CHECK_INT(c.ssdeep_threshold, 55);
	CHECK_INT(dedup_config_threshold(&c, DEDUP_SIMHASH, 16), -1);
	CHECK_INT(dedup_config_threshold(&c, DEDUP_SIMHASH, 2.5), -1);
	CHECK_INT(dedup_config_threshold(&c, DEDUP_SSDEEP, 0), -1);
	CHECK_INT(dedup_config_threshold(&c, DEDUP_MD5, 1), -1);
	CHECK_INT(c.simhash_k, 7);
	CHECK_INT(c.ssdeep_threshold, 55);
}

/* One method at a time gives what the crawl's fingerprint gives; pair
 * values are in each threshold's units. */
static void
test_fingerprint_method_and_pairs(void)
{
	static char a[TEXT_CAP], b[TEXT_CAP];
	struct dedup_config c = config(DEDUP_SIMHASH | DEDUP_SSDEEP,
	    DEDUP_RULE_ANY, 0);
	struct dedup_fp all, one, fb;
	struct dedup *d = dedup_new(&c);
	size_t la, lb;
	double v;

	CHECK(d != NULL);
	if (d == NULL)
		return;
	la = make_text(a, 11, 400, 0, 0);
	lb = make_text(b, 11, 400, 200, 201);
	CHECK_INT(dedup_fingerprint(d, a, la, &all), 0);
	memset(&one, 0, sizeof(one));
	CHECK_INT(dedup_fingerprint_method(d, DEDUP_SIMHASH, a, la, NULL, &one), 0);
	CHECK_INT(one.have, DEDUP_SIMHASH);
	CHECK(one.simhash == all.simhash);
	CHECK_INT(dedup_fingerprint_method(d, DEDUP_SSDEEP, a, la, NULL, &one), 0);
	CHECK_INT(dedup_fingerprint_method(d, DEDUP_MD5, a, la, NULL, &one), 0);
	CHECK_STR(one.ssdeep, all.ssdeep);
	CHECK_STR(one.md5, all.md5);
	CHECK_INT(one.have, all.have);
	CHECK_INT(dedup_fingerprint_method(d, (enum dedup_method)(1 << 20),
	    a, la, NULL, &one), -1);

	CHECK_INT(dedup_fingerprint(d, b, lb, &fb), 0);
	CHECK_INT(dedup_pair_value(DEDUP_MD5, &all, &one, &v), 0);
	CHECK(v == 1);
	CHECK_INT(dedup_pair_value(DEDUP_MD5, &all, &fb, &v), 0);
	CHECK(v == 0);
	CHECK_INT(dedup_pair_value(DEDUP_SIMHASH, &all, &fb, &v), 0);
	CHECK(v == simhash_distance(all.simhash, fb.simhash));
	CHECK_INT(dedup_pair_value(DEDUP_SSDEEP, &all, &all, &v), 0);
	CHECK(v == 100);
	CHECK_INT(dedup_pair_value(DEDUP_SSDEEP, &all, &fb, &v), 0);
	CHECK(v == ssdeep_score(all.ssdeep, fb.ssdeep));
	/* A fingerprint without the method cannot be compared by it. */
	fb.have &= ~(unsigned)DEDUP_SSDEEP;
	CHECK_INT(dedup_pair_value(DEDUP_SSDEEP, &all, &fb, &v), -1);
	snprintf(fb.ssdeep, sizeof(fb.ssdeep), "bogus");
	fb.have |= DEDUP_SSDEEP;
	CHECK_INT(dedup_pair_value(DEDUP_SSDEEP, &all, &fb, &v), -1);
	dedup_free(d);
}

/* TDW in the verdict: alone, with the rules, with page fields, resumed. */
static void
test_tdw_method(void)
{
	const struct pair *p = &the_pair;
	struct dedup_config c = config(DEDUP_TDW, DEDUP_RULE_ANY, 0);
	struct dedup_match m[16];
	struct dedup_fp fa, fb;
	struct tdw_fields f;
	struct dedup *d, *r;
	size_t n;

	d = dedup_new(&c);
	CHECK(d != NULL);
	if (d == NULL)
		return;
	/* Unrelated: unique; one word changed of 600: near (of the 128
	 * tokens kept, none or one or two differ). */
	CHECK_INT(feed(d, p->a, p->la, 1, m, &n), DEDUP_UNIQUE);
	CHECK_INT(feed(d, p->c, p->lc, 2, m, &n), DEDUP_UNIQUE);
	CHECK_INT(n, 0);
	CHECK_INT(feed(d, p->b, p->lb, 3, m, &n), DEDUP_NEAR);
	CHECK_INT(n, 1);
	CHECK_INT(m[0].method, DEDUP_TDW);
	CHECK_INT(m[0].original_id, 1);
	CHECK(m[0].percent >= 95.0 && m[0].percent <= 100.0);
	CHECK(dedup_bytes(d) > 1000);
	dedup_free(d);

	/* Rules: with SimHash set not to match, ONE tdw and ANY say near,
	 * ALL says unique. */
	c = config(DEDUP_SIMHASH | DEDUP_TDW, DEDUP_RULE_ONE, DEDUP_TDW);
	c.simhash_k = p->sim_dist - 1;
	d = dedup_new(&c);
	CHECK(d != NULL);
	if (d != NULL) {
		CHECK_INT(feed(d, p->a, p->la, 1, m, &n), DEDUP_UNIQUE);
		CHECK_INT(feed(d, p->b, p->lb, 2, m, &n), DEDUP_NEAR);
		CHECK_INT(n, 1);
		CHECK_INT(m[0].method, DEDUP_TDW);
		dedup_free(d);
	}
	c.rule = DEDUP_RULE_ALL;
	d = dedup_new(&c);
	CHECK(d != NULL);
	if (d != NULL) {
		CHECK_INT(feed(d, p->a, p->la, 1, m, &n), DEDUP_UNIQUE);
		CHECK_INT(feed(d, p->b, p->lb, 2, m, &n), DEDUP_UNIQUE);
		dedup_free(d);
	}

	/* The page's fields weigh in: same text, other titles, apart. */
	c = config(DEDUP_TDW, DEDUP_RULE_ANY, 0);
	c.tdw_threshold = 99;
	d = dedup_new(&c);
	CHECK(d != NULL);
	if (d == NULL)
		return;
	memset(&f, 0, sizeof(f));
	f.title = "alpha beta gamma delta";
	f.url = "http://a.example/news/alpha.html";
	CHECK_INT(dedup_fingerprint_page(d, p->a, p->la, p->a, 300, NULL, &f,
	    &fa), 0);
	CHECK_INT(fa.have, DEDUP_MD5 | DEDUP_TDW);
	CHECK_INT(fa.text_len, 300);
	f.title = "epsilon zeta eta theta";
	f.url = "http://a.example/news/epsilon.html";
	CHECK_INT(dedup_fingerprint_page(d, p->a, p->la, p->a, 300, NULL, &f,
	    &fb), 0);
	CHECK(tdw_overlap(&fa.tdw, &fb.tdw) < tdw_threshold(99));
	CHECK(tdw_overlap(&fa.tdw, &fb.tdw) > tdw_threshold(50));

	/* Resumed: the vector added apart from the other fingerprints. */
	r = dedup_new(&c);
	CHECK(r != NULL);
	if (r != NULL) {
		fb = fa;
		fb.have &= ~(unsigned)DEDUP_TDW;
		CHECK_INT(dedup_add(r, &fb, 7), 0);
		CHECK_INT(dedup_check(r, &fa, m, 16, &n), DEDUP_EXACT);
		CHECK_INT(dedup_add_method(r, DEDUP_TDW, &fa, 7), 0);
		fa.md5[0] = fa.md5[0] == '0' ? '1' : '0';
		CHECK_INT(dedup_check(r, &fa, m, 16, &n), DEDUP_NEAR);
		CHECK_INT(m[0].original_id, 7);
		CHECK(m[0].percent == 100.0);
		dedup_free(r);
	}
	/* Without TDW configured, a stored vector is ignored. */
	c = config(DEDUP_SIMHASH, DEDUP_RULE_ANY, 0);
	r = dedup_new(&c);
	CHECK(r != NULL);
	if (r != NULL) {
		CHECK_INT(dedup_add_method(r, DEDUP_TDW, &fa, 7), 0);
		dedup_free(r);
	}
	dedup_free(d);
}

static void
test_tdw_bad_config(void)
{
	struct dedup_config c = config(DEDUP_TDW, DEDUP_RULE_ANY, 0);
	struct dedup *d;

	c.tdw_threshold = 0;
	CHECK(dedup_new(&c) == NULL);
	c.tdw_threshold = 101;
	CHECK(dedup_new(&c) == NULL);
	c.tdw_threshold = 100;
	c.tdw.max_tokens = 0;
	CHECK(dedup_new(&c) == NULL);
	c.tdw.max_tokens = TDW_TOKENS_MAX + 1;
	CHECK(dedup_new(&c) == NULL);
	c.tdw.max_tokens = TDW_TOKENS_MAX;
	d = dedup_new(&c);
	CHECK(d != NULL);
	dedup_free(d);
	/* Unchecked when TDW is off. */
	c = config(DEDUP_SIMHASH, DEDUP_RULE_ANY, 0);
	c.tdw_threshold = 0;
	d = dedup_new(&c);
	CHECK(d != NULL);
	dedup_free(d);
	c = config(DEDUP_SIMHASH, DEDUP_RULE_ONE, DEDUP_TDW);
	CHECK(dedup_new(&c) == NULL); /* rule method not enabled */
}

void
suite_dedup(void)
{
	RUN(test_exact);
	RUN(test_empty_and_min_text);
	RUN(test_pair_premises);
	RUN(test_near_one_method_enabled);
	RUN(test_rules);
	RUN(test_minhash);
	RUN(test_minhash_reloaded);
	RUN(test_max_and_per_method_cap);
	RUN(test_bad_config);
	RUN(test_fingerprint_fields);
	RUN(test_parse_methods);
	RUN(test_names);
	RUN(test_method_table);
	RUN(test_config_threshold);
	RUN(test_fingerprint_method_and_pairs);
	RUN(test_tdw_method);
	RUN(test_tdw_bad_config);
}
