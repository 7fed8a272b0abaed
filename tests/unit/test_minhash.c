#include "check.h"
#include "dedup/minhash.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#define TEXT_CAP 16384
#define K 128
#define OUT_MAX 64

/* One pseudo-random lower-case word of 3..9 letters into w (NUL ended). */
static void
random_word(uint64_t *s, char *w)
{
	size_t i, n = 3 + check_xorshift(s) % 7;

	for (i = 0; i < n; i++)
		w[i] = (char)('a' + check_xorshift(s) % 26);
	w[n] = '\0';
}

/* A text of n words from seed; word number change (if < n) is replaced. */
static size_t
make_text(char *out, uint64_t seed, size_t n, size_t change)
{
	uint64_t s = seed, alt = seed ^ 0x5555;
	char w[16];
	size_t i, len = 0;

	for (i = 0; i < n; i++) {
		random_word(&s, w);
		if (i == change)
			random_word(&alt, w);
		len += (size_t)snprintf(
		    out + len, TEXT_CAP - len, "%s%s", i ? " " : "", w);
	}
	return len;
}

/*
 * A text whose shingle-1 set is the tokens "w<n>" for n in the given
 * members: with distinct tokens the exact Jaccard of two such texts is
 * known by construction.
 */
static size_t
token_text(char *out, const uint32_t *members, size_t n)
{
	size_t i, len = 0;

	for (i = 0; i < n && len + 16 < TEXT_CAP; i++)
		len += (size_t)snprintf(
		    out + len, TEXT_CAP - len, "w%u ", (unsigned)members[i]);
	return len;
}

static double
similarity(const char *a, size_t la, const char *b, size_t lb, int shingle)
{
	uint32_t sa[K], sb[K];

	CHECK_INT(minhash_of_text(a, la, shingle, K, sa), 0);
	CHECK_INT(minhash_of_text(b, lb, shingle, K, sb), 0);
	return minhash_percent((int)minhash_agree(sa, sb, K), K);
}

static void
test_identical_and_empty(void)
{
	static char a[TEXT_CAP], b[TEXT_CAP];
	size_t la = make_text(a, 1, 300, SIZE_MAX);
	size_t lb = make_text(b, 1, 300, SIZE_MAX);
	uint32_t s[K];
	size_t i;

	CHECK(similarity(a, la, b, lb, 3) == 100.0);
	CHECK_INT(minhash_of_text("", 0, 3, K, s), 0);
	for (i = 0; i < K; i++)
		CHECK(s[i] == UINT32_MAX);
	CHECK_INT(minhash_of_text(NULL, 0, 3, K, s), 0);
	CHECK(s[0] == UINT32_MAX);
	/* No word bytes: the empty set too. */
	CHECK_INT(minhash_of_text(" ,.;!? \t\n", 9, 3, K, s), 0);
	CHECK(s[K - 1] == UINT32_MAX);
	CHECK_INT(minhash_of_text("one", 3, 3, K, s), 0);
	CHECK(s[0] != UINT32_MAX);
}

/*
 * One word in 600 changes 3 of 598 shingles: J = 595 / 601 = 0.990, so
 * each position disagrees with probability 0.01 and 128 positions agree in
 * all but ~1.3 (at least 122 with probability 1 - 1e-4).
 */
static void
test_one_word_changed(void)
{
	static char a[TEXT_CAP], b[TEXT_CAP];
	uint64_t seed;
	size_t la, lb;
	double p, worst = 100, sum = 0;

	for (seed = 1; seed <= 20; seed++) {
		la = make_text(a, seed, 600, SIZE_MAX);
		lb = make_text(b, seed, 600, 300);
		p = similarity(a, la, b, lb, 3);
		sum += p;
		if (p < worst)
			worst = p;
	}
	CHECK(worst >= 93.0);
	CHECK(sum / 20 >= 97.0);
	CHECK(sum / 20 < 100.0);
}

static void
test_disjoint(void)
{
	static char a[TEXT_CAP], b[TEXT_CAP];
	uint64_t seed;
	size_t la, lb;
	double p, worst = 0;

	for (seed = 1; seed <= 20; seed++) {
		la = make_text(a, seed, 300, SIZE_MAX);
		lb = make_text(b, seed + 1000, 300, SIZE_MAX);
		p = similarity(a, la, b, lb, 3);
		if (p > worst)
			worst = p;
	}
	/* Positions agree only when two different shingles collide. */
	CHECK(worst <= 1.0);
}

/*
 * Probability that a binomial(k, p) count lands at least as far from its
 * mean k p as x, on x's side: the chance of an estimate this far off.
 */
static double
binomial_tail(size_t k, double p, size_t x)
{
	double sum = 0, lp;
	size_t i, lo = x, hi = k;

	if ((double)x < k * p) {
		lo = 0;
		hi = x;
	}
	for (i = lo; i <= hi; i++) {
		lp = lgamma(k + 1.0) - lgamma(i + 1.0) - lgamma(k - i + 1.0) +
		    i * log(p) + (k - i) * log1p(-p);
		sum += exp(lp);
	}
	return sum;
}

/*
 * Random sets with a planted overlap, 300 pairs: each estimate is a
 * binomial(k, J) count over k, so no pair may fall where the binomial puts
 * less than 1e-6 of its mass; the squared errors over their variances must
 * sum to about the number of pairs (a hash family whose permutations were
 * correlated would inflate it); and the mean error must be unbiased within
 * 4.5 standard errors. Shingles of one word, so the sets are exactly the
 * distinct tokens written.
 */
static void
test_estimate_vs_exact(void)
{
	enum { PAIRS = 300 };
	static char a[TEXT_CAP], b[TEXT_CAP];
	static uint32_t ma[1200], mb[1200];
	uint64_t s = 77;
	size_t pair, na, nb, common, i, la, lb, agree, rare = 0;
	double j, est, var, err, sum_err = 0, sum_var = 0, chi = 0;
	uint32_t next = 1;

	for (pair = 0; pair < PAIRS; pair++) {
		common = 1 + check_xorshift(&s) % 400;
		na = common + 1 + check_xorshift(&s) % 400;
		nb = common + check_xorshift(&s) % 400;
		for (i = 0; i < common; i++)
			ma[i] = mb[i] = next++;
		for (i = common; i < na; i++)
			ma[i] = next++;
		for (i = common; i < nb; i++)
			mb[i] = next++;
		la = token_text(a, ma, na);
		lb = token_text(b, mb, nb);
		j = (double)common / (double)(na + nb - common);
		est = similarity(a, la, b, lb, 1) / 100.0;
		agree = (size_t)lround(est * K);
		if (binomial_tail(K, j, agree) < 1e-6)
			rare++;
		var = j * (1 - j) / K;
		err = est - j;
		sum_err += err;
		sum_var += var;
		chi += err * err / var;
	}
	CHECK_INT(rare, 0);
	CHECK(chi > 0.7 * PAIRS && chi < 1.4 * PAIRS);
	CHECK(fabs(sum_err) <= 4.5 * sqrt(sum_var));
}

static void
test_words_and_shingles(void)
{
	const char *a = "The quick brown fox jumps over the lazy dog";
	const char *b = "the QUICK, brown fox -- jumps over the lazy dog!";
	const char *c = "dog lazy the over jumps fox brown quick The";
	const char *d = "Room 101 opens on 2026-11-04 at 9";
	const char *e = "Room 7 opens on 1999-01-31 at 17";

	/* Case and punctuation do not count. */
	CHECK(similarity(a, strlen(a), b, strlen(b), 3) == 100.0);
	/* Shingles of one word are the vocabulary; of three, word order. */
	CHECK(similarity(a, strlen(a), c, strlen(c), 1) == 100.0);
	CHECK(similarity(a, strlen(a), c, strlen(c), 3) < 10.0);
	/* Numbers are folded into one word. */
	CHECK(similarity(d, strlen(d), e, strlen(e), 3) == 100.0);
	/* UTF-8 stays inside words: "café" is not "caf". */
	CHECK(similarity("caf\xc3\xa9", 5, "caf", 3, 1) < 10.0);
	/* A text shorter than a shingle is one shingle. */
	CHECK(similarity("two words", 9, "two words", 9, 5) == 100.0);
	CHECK(similarity("two words", 9, "two other", 9, 5) < 10.0);
}

/*
 * A Chinese paragraph and the same with one character changed, and with
 * a clause added: each Han character is a word (words.h), so the pair is
 * as alike as an English one with a word changed, not 0 % (a whole
 * paragraph read as one word, as MinHash features version 1 did).
 */
static void
test_cjk_pair(void)
{
	/* "The university library will extend its opening hours during the
	 * examination period; students may borrow up to ten books ..." */
	static const char a[] = "\u5927\u5b66\u56fe\u4e66\u9986\u5728"
	    "\u8003\u8bd5\u671f\u95f4\u5ef6\u957f\u5f00\u653e\u65f6"
	    "\u95f4\uff0c\u5b66\u751f\u6bcf\u6b21\u6700\u591a\u53ef"
	    "\u4ee5\u501f\u9605\u5341\u672c\u4e66\uff0c\u501f\u671f"
	    "\u4e3a\u4e09\u5341\u5929\uff0c\u903e\u671f\u5c06\u6536"
	    "\u53d6\u5c11\u91cf\u7f5a\u6b3e\u3002\u65b0\u7684\u9605"
	    "\u89c8\u5ba4\u4f4d\u4e8e\u4e8c\u697c\uff0c\u63d0\u4f9b"
	    "\u4e00\u767e\u4e2a\u5ea7\u4f4d\u548c\u65e0\u7ebf\u7f51"
	    "\u7edc\u3002";
	char b[sizeof(a)], c[sizeof(a) + 64];
	char *p;

	memcpy(b, a, sizeof(a));
	/* "ten books" -> "five books": one character. */
	p = strstr(b, "\u5341\u672c");
	CHECK(p != NULL);
	if (p == NULL)
		return;
	memcpy(p, "\u4e94", strlen("\u4e94"));
	CHECK(similarity(a, strlen(a), b, strlen(b), 3) >= 80.0);
	snprintf(c, sizeof(c), "%s\u8be6\u60c5\u8bf7\u54a8\u8be2\u670d"
	    "\u52a1\u53f0\u3002", a);
	CHECK(similarity(a, strlen(a), c, strlen(c), 3) >= 80.0);
	/* Two different sentences are not alike. */
	CHECK(similarity(a, 30, a + 60, 30, 3) < 20.0);
}

static void
test_prefix_and_stable_value(void)
{
	const char *t = "Duplicate pages waste a crawler's time and storage.";
	uint32_t s[MINHASH_MAX_PERMS], p[MINHASH_MIN_PERMS];
	size_t i;

	CHECK_INT(minhash_of_text(t, strlen(t), 3, MINHASH_MAX_PERMS, s), 0);
	CHECK_INT(minhash_of_text(t, strlen(t), 3, MINHASH_MIN_PERMS, p), 0);
	for (i = 0; i < MINHASH_MIN_PERMS; i++)
		CHECK(s[i] == p[i]);
	/* Pinned: a change here must bump MINHASH_FEATURES_VERSION. */
	CHECK(s[0] == 0x233046a9u);
	CHECK(s[MINHASH_MAX_PERMS - 1] == 0x1503381bu);
}

static void
test_bad_arguments(void)
{
	uint32_t s[MINHASH_MAX_PERMS + 1];

	s[0] = 42;
	CHECK_INT(minhash_of_text("a b", 3, 3, MINHASH_MIN_PERMS - 1, s), -1);
	CHECK_INT(minhash_of_text("a b", 3, 3, MINHASH_MAX_PERMS + 1, s), -1);
	CHECK_INT(minhash_of_text("a b", 3, 0, K, s), -1);
	CHECK_INT(minhash_of_text("a b", 3, MINHASH_MAX_SHINGLE + 1, K, s), -1);
	CHECK(s[0] == 42);
	CHECK(minhash_index_new(K, 3) == NULL);
	CHECK(minhash_index_new(K, 0) == NULL);
	CHECK(minhash_index_new(K, K * 2) == NULL);
	CHECK(minhash_index_new(MINHASH_MIN_PERMS - 1, 1) == NULL);
	CHECK(minhash_index_new(MINHASH_MAX_PERMS + 2, 2) == NULL);
	CHECK(minhash_percent(64, K) == 50.0);
	CHECK(minhash_percent(-1, K) == 0.0);
	CHECK(minhash_percent(K + 1, K) == 100.0);
	minhash_index_free(NULL);
}

static void
test_encode_decode(void)
{
	uint32_t s[K], back[K];
	unsigned char blob[MINHASH_BLOB_MAX];
	size_t i;

	for (i = 0; i < K; i++)
		s[i] = (uint32_t)(i * 0x01020304u + 0xff);
	CHECK_INT(minhash_encode(s, K, blob), 4 * K);
	/* Little-endian, whatever the machine. */
	CHECK_INT(blob[0], 0xff);
	CHECK_INT(blob[4], 0x03);
	CHECK_INT(blob[7], 0x01);
	memset(back, 0, sizeof(back));
	CHECK_INT(minhash_decode(blob, 4 * K, K, back), 0);
	CHECK(memcmp(s, back, sizeof(s)) == 0);
	back[0] = 7;
	CHECK_INT(minhash_decode(blob, 4 * K - 1, K, back), -1);
	CHECK_INT(minhash_decode(blob, 4 * K, K / 2, back), -1);
	CHECK_INT(minhash_decode(NULL, 0, K, back), -1);
	CHECK(back[0] == 7);
}

static int
cmp_match(const void *pa, const void *pb)
{
	const struct minhash_match *a = pa, *b = pb;

	if (a->agree != b->agree)
		return a->agree > b->agree ? -1 : 1;
	return a->id < b->id ? -1 : a->id > b->id;
}

/* Signature of the token set members[0..n). */
static void
set_sig(const uint32_t *members, size_t n, size_t k, uint32_t *sig)
{
	static char t[TEXT_CAP];

	CHECK_INT(minhash_of_text(t, token_text(t, members, n), 1, k, sig), 0);
}

/* n random tokens from a vocabulary of vocab, and their signature. */
static void
random_set_sig(uint64_t *s, uint32_t *members, size_t n, uint32_t vocab,
    size_t k, uint32_t *sig)
{
	size_t i;

	for (i = 0; i < n; i++)
		members[i] = (uint32_t)(check_xorshift(s) % vocab);
	set_sig(members, n, k, sig);
}

/* Replace each of members[0..n) by a new token with probability rate %. */
static void
mutate(uint64_t *s, const uint32_t *from, uint32_t *to, size_t n, unsigned rate)
{
	size_t j;

	for (j = 0; j < n; j++)
		to[j] = check_xorshift(s) % 100 >= rate
		    ? from[j]
		    : (uint32_t)(check_xorshift(s) % 1000000);
}

/*
 * Random sets, a third of them near copies of an earlier one (each token
 * replaced with probability 0..30 %), queried with more near copies and
 * with unrelated sets. The buckets may miss pairs but never invent one:
 * every answer of the index is an answer of the scan, with the same
 * agreement, and in the same order. And by pigeonhole, a stored signature
 * that disagrees with the query in fewer positions than there are bands
 * agrees on a whole band, so it must be found. Against the full 32-bit
 * values (brute force here), the index's 8-bit values lose no pair and
 * count no fewer agreeing positions; the pairs they accept that the full
 * values would not are a small share (a disagreeing position agrees on 8
 * bits with probability 1/256).
 */
static void
check_against_scan(size_t k, size_t bands, int threshold, uint64_t seed)
{
	enum { STORED = 1500, QUERIES = 600, SET = 60 };
	static uint32_t sigs[STORED][MINHASH_MAX_PERMS], members[STORED][SET];
	static struct minhash_match want[STORED], got[STORED];
	struct minhash_index *ix = minhash_index_new(k, bands);
	uint32_t q[MINHASH_MAX_PERMS], qm[SET];
	uint64_t s = seed;
	size_t i, j, from, n_want, n_got, must, found_must = 0, planted = 0;
	size_t subset_fail = 0, order_fail = 0, pigeon_fail = 0;
	size_t need = (k * (size_t)threshold + 99) / 100, full_lost = 0;
	size_t extra = 0, answers = 0, a32, e;
	struct minhash_match key;
	const struct minhash_match *hit;

	CHECK(ix != NULL);
	if (ix == NULL)
		return;
	for (i = 0; i < STORED; i++) {
		/* A third are near copies of earlier ones: clusters. */
		if (i > 0 && check_xorshift(&s) % 3 == 0) {
			from = check_xorshift(&s) % i;
			mutate(&s, members[from], members[i], SET,
			    (unsigned)(check_xorshift(&s) % 31));
			set_sig(members[i], SET, k, sigs[i]);
		} else
			random_set_sig(
			    &s, members[i], SET, 1000000, k, sigs[i]);
		CHECK_INT(
		    minhash_index_add(ix, sigs[i], (int64_t)i * 3 - 500), 0);
	}
	CHECK_INT(minhash_index_count(ix), STORED);
	for (i = 0; i < QUERIES; i++) {
		if (i % 4 == 0) {
			random_set_sig(&s, qm, SET, 1000000, k, q);
		} else {
			from = check_xorshift(&s) % STORED;
			mutate(&s, members[from], qm, SET,
			    (unsigned)(check_xorshift(&s) % 31));
			set_sig(qm, SET, k, q);
			planted++;
		}
		n_want = minhash_index_scan(ix, q, threshold, want, STORED);
		n_got = minhash_index_query(ix, q, threshold, got, STORED);
		qsort(want, n_want, sizeof(want[0]), cmp_match);
		answers += n_want;
		for (e = 0; e < STORED; e++) {
			a32 = minhash_agree(sigs[e], q, k);
			key.id = (int64_t)e * 3 - 500;
			hit = NULL;
			for (j = 0; j < n_want && hit == NULL; j++)
				if (want[j].id == key.id)
					hit = &want[j];
			if (a32 >= need && (hit == NULL ||
			    (size_t)hit->agree < a32))
				full_lost++;
			if (a32 < need && hit != NULL)
				extra++;
		}
		for (j = 1; j < n_got; j++)
			if (cmp_match(&got[j - 1], &got[j]) >= 0)
				order_fail++;
		if (n_got > n_want)
			subset_fail++;
		for (j = 0; j < n_got; j++)
			if (bsearch(&got[j], want, n_want, sizeof(want[0]),
			        cmp_match) == NULL)
				subset_fail++;
		for (j = 0; j < n_want; j++) {
			must = k - (size_t)want[j].agree < bands;
			if (!must)
				continue;
			found_must++;
			if (bsearch(&want[j], got, n_got, sizeof(got[0]),
			        cmp_match) == NULL)
				pigeon_fail++;
		}
	}
	CHECK_INT(subset_fail, 0);
	CHECK_INT(order_fail, 0);
	CHECK_INT(pigeon_fail, 0);
	CHECK_INT(full_lost, 0);
	/* A pair a position or two short of the threshold gains it with
	 * probability (k - agree) / 256 per position: under 1 % of answers. */
	CHECK(extra * 100 <= answers);
	if (extra > 0)
		fprintf(stderr, "minhash: %zu of %zu answers only by 8-bit "
		    "chance agreement\n", extra, answers);
	/* The planted pairs really exercised the guarantee. */
	CHECK(found_must >= 20 && planted > 0);
	minhash_index_free(ix);
}

static void
test_index_vs_scan(void)
{
	check_against_scan(128, 32, 50, 1);
	check_against_scan(128, 16, 80, 2);
	check_against_scan(64, 64, 30, 3);
	check_against_scan(256, 8, 90, 4);
	check_against_scan(8, 1, 100, 5);
}

/*
 * The LSH answer itself, by brute force: going from the newest entry back,
 * every entry whose 8-bit values equal q's on all rows of some band is a
 * candidate; the first MINHASH_QUERY_CANDIDATES candidates are verified
 * on their 8-bit values. What the index must answer whatever its layout.
 */
static size_t
band_scan(uint32_t (*sigs)[16], const int64_t *ids, size_t n,
    const uint32_t *q, size_t k, size_t bands, size_t need,
    struct minhash_match *out)
{
	size_t e, j, i, rows = k / bands, seen = 0, found = 0, agree;
	int shares;

	for (e = n; e-- > 0 && seen < MINHASH_QUERY_CANDIDATES;) {
		for (j = 0, shares = 0; j < bands && !shares; j++) {
			for (i = 0; i < rows; i++)
				if ((uint8_t)sigs[e][j * rows + i] !=
				    (uint8_t)q[j * rows + i])
					break;
			shares = i == rows;
		}
		if (!shares)
			continue;
		seen++;
		for (i = agree = 0; i < k; i++)
			agree += (uint8_t)sigs[e][i] == (uint8_t)q[i];
		if (agree >= need) {
			out[found].id = ids[e];
			out[found].agree = (int)agree;
			found++;
		}
	}
	qsort(out, found, sizeof(*out), cmp_match);
	return found;
}

/*
 * The index against band_scan over tens of thousands of entries, so that
 * its buckets grow and its links widen many times (each growth rebuilds
 * them), with pops between: the same count and the same best answers, in
 * order, for every query. Signatures are short (k = 16, 8 bands) so that
 * the scan stays quick; many are copies of earlier ones with a few
 * positions changed, and a crowd repeats one band.
 */
static void
test_index_vs_band_scan(void)
{
	enum { STORED = 24000, QUERIES = 400, KS = 16, BANDS = 8, OUT = 8 };
	static uint32_t sigs[STORED][KS];
	static int64_t ids[STORED];
	static struct minhash_match want[STORED];
	struct minhash_match got[OUT];
	struct minhash_index *ix = minhash_index_new(KS, BANDS);
	uint32_t q[KS];
	uint64_t s = 77;
	size_t i, j, n = 0, n_want, n_got, wrong = 0, nonempty = 0;
	size_t need = (KS * 50 + 99) / 100;

	CHECK(ix != NULL);
	if (ix == NULL)
		return;
	for (i = 0; i < STORED; i++) {
		for (j = 0; j < KS; j++)
			sigs[n][j] = (uint32_t)check_xorshift(&s);
		if (n > 0 && i % 3 == 0)
			for (j = 0; j < KS; j++)
				if (check_xorshift(&s) % 4 != 0)
					sigs[n][j] = sigs[check_xorshift(&s) %
					    n][j];
		if (i % 10 == 0)
			sigs[n][0] = sigs[n][1] = 7;
		/* Ids past 32 bits for the last quarter: they widen. */
		ids[n] = i < STORED * 3 / 4 ? (int64_t)(i * 7) :
		    ((int64_t)1 << 35) + (int64_t)i;
		CHECK_INT(minhash_index_add(ix, sigs[n], ids[n]), 0);
		n++;
		/* Now and then the newest is taken back. */
		if (i % 97 == 0) {
			minhash_index_pop(ix);
			n--;
		}
	}
	CHECK_INT(minhash_index_count(ix), n);
	for (i = 0; i < QUERIES; i++) {
		memcpy(q, sigs[check_xorshift(&s) % n], sizeof(q));
		for (j = 0; j < KS; j++)
			if (check_xorshift(&s) % 5 == 0)
				q[j] = (uint32_t)check_xorshift(&s);
		n_want = band_scan(sigs, ids, n, q, KS, BANDS, need, want);
		n_got = minhash_index_query(ix, q, 50, got, OUT);
		nonempty += n_want > 0;
		if (n_got != n_want) {
			wrong++;
			continue;
		}
		for (j = 0; j < n_got && j < OUT; j++)
			if (got[j].id != want[j].id ||
			    got[j].agree != want[j].agree)
				break;
		wrong += j < n_got && j < OUT;
	}
	CHECK_INT(wrong, 0);
	CHECK(nonempty > QUERIES / 2);
	minhash_index_free(ix);
}

/*
 * Recall along the S-curve: for pairs of exact Jaccard J the buckets find
 * the pair with probability 1 - (1 - J^r)^b. With b = 32, r = 4 that is
 * 0.9998 at J = 0.7 and 0.93 at J = 0.4; over 400 pairs per J, the share
 * found must be within 4.5 standard deviations of it.
 */
static void
test_s_curve(void)
{
	static char a[TEXT_CAP], b[TEXT_CAP];
	static uint32_t ma[200], mb[200];
	static const double js[] = {0.2, 0.4, 0.7};
	uint32_t sa[K], sb[K];
	size_t t, pair, i, common, found;
	uint32_t next = 1;
	double j, p, sd;

	for (t = 0; t < sizeof(js) / sizeof(js[0]); t++) {
		/* |A| = |B| = 100 with c common: J = c / (200 - c). */
		common = (size_t)lround(200 * js[t] / (1 + js[t]));
		j = (double)common / (double)(200 - common);
		found = 0;
		for (pair = 0; pair < 400; pair++) {
			struct minhash_index *ix = minhash_index_new(K, 32);
			struct minhash_match m;

			for (i = 0; i < 100; i++) {
				ma[i] = next++;
				mb[i] = i < common ? ma[i] : next++;
			}
			CHECK_INT(minhash_of_text(
			              a, token_text(a, ma, 100), 1, K, sa),
			    0);
			CHECK_INT(minhash_of_text(
			              b, token_text(b, mb, 100), 1, K, sb),
			    0);
			CHECK(ix != NULL);
			if (ix == NULL)
				return;
			CHECK_INT(minhash_index_add(ix, sa, 1), 0);
			/* Threshold 1 %: any candidate counts as found. */
			if (minhash_index_query(ix, sb, 1, &m, 1) > 0)
				found++;
			minhash_index_free(ix);
		}
		p = 1 - pow(1 - pow(j, 4), 32);
		sd = sqrt(p * (1 - p) / 400);
		CHECK(fabs((double)found / 400 - p) <= 4.5 * sd + 0.5 / 400);
	}
}

static void
test_pop_and_ties(void)
{
	static char t[TEXT_CAP];
	struct minhash_index *ix = minhash_index_new(K, 32);
	struct minhash_match m[4];
	uint32_t a[K], b[K];
	size_t la;

	CHECK(ix != NULL);
	if (ix == NULL)
		return;
	la = make_text(t, 11, 200, SIZE_MAX);
	CHECK_INT(minhash_of_text(t, la, 3, K, a), 0);
	la = make_text(t, 12, 200, SIZE_MAX);
	CHECK_INT(minhash_of_text(t, la, 3, K, b), 0);
	CHECK_INT(minhash_index_query(ix, a, 50, m, 4), 0);
	minhash_index_pop(ix); /* empty: nothing happens */
	CHECK_INT(minhash_index_add(ix, a, 7), 0);
	CHECK_INT(minhash_index_add(ix, b, 8), 0);
	CHECK_INT(minhash_index_add(ix, a, 3), 0);
	/* Equal signatures: best first, then the smaller id. */
	CHECK_INT(minhash_index_query(ix, a, 100, m, 4), 2);
	CHECK_INT(m[0].id, 3);
	CHECK_INT(m[0].agree, K);
	CHECK_INT(m[1].id, 7);
	CHECK_INT(minhash_index_query(ix, a, 100, m, 1), 2);
	CHECK_INT(m[0].id, 3);
	CHECK_INT(minhash_index_query(ix, a, 100, NULL, 0), 2);
	CHECK_INT(minhash_index_query(ix, a, 101, m, 4), 0);
	/* Below 1 counts as 1: unrelated b is still not found. */
	CHECK_INT(minhash_index_scan(ix, b, 0, m, 4), 1);
	minhash_index_pop(ix);
	CHECK_INT(minhash_index_count(ix), 2);
	CHECK_INT(minhash_index_query(ix, a, 100, m, 4), 1);
	CHECK_INT(m[0].id, 7);
	minhash_index_pop(ix);
	minhash_index_pop(ix);
	CHECK_INT(minhash_index_query(ix, a, 1, m, 4), 0);
	CHECK_INT(minhash_index_query(ix, b, 1, m, 4), 0);
	CHECK_INT(minhash_index_add(ix, b, 9), 0);
	CHECK_INT(minhash_index_query(ix, b, 100, m, 4), 1);
	CHECK_INT(m[0].id, 9);
	minhash_index_free(ix);
}

/* Pop after the buckets have grown several times, then add again. */
static void
test_pop_after_growth(void)
{
	struct minhash_index *ix = minhash_index_new(K, 64);
	struct minhash_match m;
	uint32_t sig[K];
	uint64_t s = 3;
	size_t i, j;

	CHECK(ix != NULL);
	if (ix == NULL)
		return;
	for (i = 0; i < 300; i++) {
		for (j = 0; j < K; j++)
			sig[j] = (uint32_t)check_xorshift(&s);
		CHECK_INT(minhash_index_add(ix, sig, (int64_t)i), 0);
	}
	CHECK_INT(minhash_index_query(ix, sig, 100, &m, 1), 1);
	minhash_index_pop(ix);
	/* Random 8-bit values agree by chance on a position or two, never
	 * on a tenth of them. */
	CHECK_INT(minhash_index_query(ix, sig, 10, &m, 1), 0);
	CHECK_INT(minhash_index_add(ix, sig, 1000), 0);
	CHECK_INT(minhash_index_query(ix, sig, 100, &m, 1), 1);
	CHECK_INT(m.id, 1000);
	minhash_index_free(ix);
}

/*
 * Memory: k 8-bit minima and a 2-byte id per page (dedup/idcol.h: ids
 * near each other), one link per band of log2(8 x buckets) bits (15 at
 * 20,000 pages: 4,096 buckets a band), and per band a bucket head of a bit
 * more per four to eight pages (here 20,000 / 4,096); the chunks leave at
 * most one chunk (256 pages) unused.
 * At k = 128, b = 32 that is 128 + 2 + 60 + 13.1 bytes per page, plus
 * that slack.
 */
static void
test_bytes_per_page(void)
{
	struct minhash_index *ix = minhash_index_new(K, 32);
	uint32_t sig[K];
	uint64_t s = 9;
	size_t i, j, bytes;

	CHECK(ix != NULL);
	if (ix == NULL)
		return;
	for (i = 0; i < 20000; i++) {
		for (j = 0; j < K; j++)
			sig[j] = (uint32_t)check_xorshift(&s);
		CHECK_INT(minhash_index_add(ix, sig, (int64_t)i), 0);
	}
	bytes = minhash_index_bytes(ix);
	fprintf(stderr, "minhash index: %.1f bytes per page at k=%d, b=32\n",
	    (double)bytes / 20000, K);
	CHECK(bytes >= 20000 * (K + 2 + 60) + 32 * 4096 * 16 / 8);
	CHECK(bytes <= 20000 * (K + 2 + 60) + 32 * 4096 * 16 / 8 +
	    256 * (K + 2 + 60) + 4096);
	minhash_index_free(ix);
}

/*
 * Thousands of pages alike (a generated trap): a query verifies only the
 * newest MINHASH_QUERY_CANDIDATES of them, and still finds the page near.
 */
static void
test_crowded_bucket(void)
{
	struct minhash_index *ix = minhash_index_new(K, 32);
	struct minhash_match m[4];
	uint32_t sig[K];
	size_t i, n = MINHASH_QUERY_CANDIDATES + 3000, found;

	CHECK(ix != NULL);
	if (ix == NULL)
		return;
	for (i = 0; i < K; i++)
		sig[i] = (uint32_t)(i * 2654435761u);
	for (i = 0; i < n; i++)
		CHECK_INT(minhash_index_add(ix, sig, (int64_t)i + 1), 0);
	found = minhash_index_query(ix, sig, 70, m, 4);
	CHECK_INT(found, MINHASH_QUERY_CANDIDATES);
	/* The newest are the ones verified: the best ties go to the
	 * smallest id among them. */
	CHECK_INT(m[0].id, (int64_t)(n - MINHASH_QUERY_CANDIDATES + 1));
	CHECK_INT(minhash_index_scan(ix, sig, 70, NULL, 0), n);
	minhash_index_free(ix);
}

void
suite_minhash(void)
{
	RUN(test_identical_and_empty);
	RUN(test_one_word_changed);
	RUN(test_disjoint);
	RUN(test_estimate_vs_exact);
	RUN(test_words_and_shingles);
	RUN(test_prefix_and_stable_value);
	RUN(test_cjk_pair);
	RUN(test_bad_arguments);
	RUN(test_encode_decode);
	RUN(test_index_vs_scan);
	RUN(test_index_vs_band_scan);
	RUN(test_s_curve);
	RUN(test_pop_and_ties);
	RUN(test_pop_after_growth);
	RUN(test_bytes_per_page);
	RUN(test_crowded_bucket);
}
