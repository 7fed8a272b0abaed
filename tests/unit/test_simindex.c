#include "check.h"
#include "dedup/simindex.h"

#include <stdint.h>
#include <stdlib.h>

#define STORED 4000
#define QUERIES 1500
#define OUT_MAX 64

/* fp with n distinct random bits flipped. */
static uint64_t
flip_bits(uint64_t *s, uint64_t fp, int n)
{
	uint64_t done = 0, bit;

	while (n > 0) {
		bit = (uint64_t)1 << (check_xorshift(s) % 64);
		if (done & bit)
			continue;
		done |= bit;
		fp ^= bit;
		n--;
	}
	return fp;
}

static int
cmp_match(const void *pa, const void *pb)
{
	const struct simindex_match *a = pa, *b = pb;

	if (a->distance != b->distance)
		return a->distance < b->distance ? -1 : 1;
	return a->id < b->id ? -1 : a->id > b->id;
}

/* The answer a scan of every stored fingerprint gives, best first. */
static size_t
brute_force(const uint64_t *fp, const int64_t *id, size_t n, uint64_t q,
    int k, struct simindex_match *out)
{
	size_t i, found = 0;
	int d;

	for (i = 0; i < n; i++) {
		d = __builtin_popcountll(fp[i] ^ q);
		if (d <= k) {
			out[found].id = id[i];
			out[found].distance = d;
			found++;
		}
	}
	qsort(out, found, sizeof(*out), cmp_match);
	return found;
}

/*
 * Random fingerprints, near copies of stored ones (0..k+2 bits flipped),
 * planted clusters, and a crowd sharing their low 16 bits (one table's
 * key at k = 3, so long runs of candidates); every query's answer must
 * equal the scan's exactly. Ids from id_base on: below 0 they need 64
 * bits, from 0 the index keeps them in 32.
 */
static void
check_against_brute_force(int k, uint64_t seed, int64_t id_base)
{
	static uint64_t fp[STORED];
	static int64_t id[STORED];
	static struct simindex_match want[STORED], got[OUT_MAX];
	struct simindex *ix = simindex_new(k);
	uint64_t s = seed, q;
	size_t i, j, n_want, n_got, nonempty = 0, mismatches = 0;

	CHECK(ix != NULL);
	if (ix == NULL)
		return;
	for (i = 0; i < STORED; i++) {
		/* A third are near copies of earlier ones: clusters. */
		if (i > 0 && check_xorshift(&s) % 3 == 0)
			fp[i] = flip_bits(&s, fp[check_xorshift(&s) % i],
			    (int)(check_xorshift(&s) % (unsigned)(k + 3)));
		else
			fp[i] = check_xorshift(&s) * 0x9e3779b97f4a7c15ULL;
		if (i % 8 == 7)
			fp[i] = (fp[i] & ~(uint64_t)0xffff) | 0x5a5a;
		/* Ids out of add order, so ties by id are really tested. */
		id[i] = (int64_t)((i * 7919) % STORED) + id_base;
		CHECK_INT(simindex_add(ix, fp[i], id[i]), 0);
	}
	CHECK_INT(simindex_count(ix), STORED);
	for (i = 0; i < QUERIES; i++) {
		if (i % 4 == 0)
			q = check_xorshift(&s);
		else
			q = flip_bits(&s, fp[check_xorshift(&s) % STORED],
			    (int)(check_xorshift(&s) % (unsigned)(k + 3)));
		n_want = brute_force(fp, id, STORED, q, k, want);
		n_got = simindex_query(ix, q, got, OUT_MAX);
		if (n_want > 0)
			nonempty++;
		if (n_got != n_want) {
			mismatches++;
			continue;
		}
		for (j = 0; j < n_got && j < OUT_MAX; j++)
			if (got[j].id != want[j].id ||
			    got[j].distance != want[j].distance)
				break;
		if (j != n_got && j != OUT_MAX)
			mismatches++;
	}
	CHECK_INT(mismatches, 0);
	/* The planted near copies must really be found. */
	CHECK(nonempty > QUERIES / 5);
	simindex_free(ix);
}

static void
test_brute_force_k0(void)
{
	check_against_brute_force(0, 11, -1000);
}

static void
test_brute_force_k1(void)
{
	check_against_brute_force(1, 12, 0);
}

static void
test_brute_force_k3(void)
{
	check_against_brute_force(3, 13, 0);
	check_against_brute_force(3, 16, -1000);
}

static void
test_brute_force_k5(void)
{
	check_against_brute_force(5, 14, -1000);
}

static void
test_brute_force_k7(void)
{
	check_against_brute_force(7, 15, (int64_t)1 << 33);
}

static void
test_k_bounds(void)
{
	struct simindex *ix;

	CHECK(simindex_new(-1) == NULL);
	CHECK(simindex_new(SIMINDEX_MAX_K + 1) == NULL);
	ix = simindex_new(SIMINDEX_MAX_K);
	CHECK(ix != NULL);
	if (ix != NULL) {
		struct simindex_match m[2];

		CHECK_INT(simindex_add(ix, 0, 1), 0);
		/* 15 bits away: found; 16: not. */
		CHECK_INT(simindex_query(ix, 0x7fffULL, m, 2), 1);
		CHECK_INT(m[0].distance, 15);
		CHECK_INT(simindex_query(ix, 0xffffULL, m, 2), 0);
	}
	simindex_free(ix);
	simindex_free(NULL);
}

static void
test_duplicates_order_and_max(void)
{
	struct simindex *ix = simindex_new(3);
	struct simindex_match m[3];
	uint64_t base = 0x0123456789abcdefULL;

	CHECK(ix != NULL);
	if (ix == NULL)
		return;
	CHECK_INT(simindex_query(ix, base, m, 3), 0);
	CHECK_INT(simindex_add(ix, base ^ 0x3, 50), 0); /* distance 2 */
	CHECK_INT(simindex_add(ix, base, 40), 0);       /* distance 0 */
	CHECK_INT(simindex_add(ix, base, 7), 0);        /* same fp, id 7 */
	CHECK_INT(simindex_add(ix, base ^ 0x1, 9), 0);  /* distance 1 */
	CHECK_INT(simindex_add(ix, ~base, 1), 0);       /* distance 64 */
	/* Total counts all four; out keeps the best three. */
	CHECK_INT(simindex_query(ix, base, m, 3), 4);
	CHECK_INT(m[0].id, 7);
	CHECK_INT(m[0].distance, 0);
	CHECK_INT(m[1].id, 40);
	CHECK_INT(m[2].id, 9);
	CHECK_INT(m[2].distance, 1);
	/* max 0 still counts. */
	CHECK_INT(simindex_query(ix, base, NULL, 0), 4);
	CHECK_INT(simindex_query(ix, base, m, 1), 4);
	CHECK_INT(m[0].id, 7);
	simindex_free(ix);
}

static void
test_count_bytes_pop(void)
{
	struct simindex *ix = simindex_new(3);
	struct simindex_match m[4];
	size_t empty_bytes, i;
	uint64_t s = 5;

	CHECK(ix != NULL);
	if (ix == NULL)
		return;
	empty_bytes = simindex_bytes(ix);
	CHECK(empty_bytes > 0);
	for (i = 0; i < 10000; i++)
		CHECK_INT(simindex_add(ix, check_xorshift(&s), (int64_t)i), 0);
	CHECK_INT(simindex_count(ix), 10000);
	/* Compact: 8 bytes of fingerprint, 2 of id, and in each of 4 tables
	 * a 3-byte entry number, a 4-byte offset for every 4 to 8 entries and
	 * a recent part of 4-byte slots for up to a sixteenth of them (at
	 * most 3/4 full), with a chunk of slack. */
	fprintf(stderr, "simindex: %.1f bytes per fingerprint at k=3\n",
	    (double)simindex_bytes(ix) / 10000);
	CHECK(simindex_bytes(ix) > 10000 * (10 + 4 * 3));
	CHECK(simindex_bytes(ix) < 10000 * (10 + 4 * 3) + 4 * 10000 / 4 * 4 +
	    4 * 10000 / 16 * 4 * 4 / 3 + 1024 * 10 + 4096);
	CHECK_INT(simindex_add(ix, 42, 10000), 0);
	CHECK_INT(simindex_query(ix, 42, m, 4), 1);
	simindex_pop(ix);
	CHECK_INT(simindex_count(ix), 10000);
	CHECK_INT(simindex_query(ix, 42, m, 4), 0);
	/* The others are still there. */
	s = 5;
	CHECK_INT(simindex_query(ix, check_xorshift(&s), m, 4), 1);
	CHECK_INT(m[0].id, 0);
	simindex_free(ix);
	ix = simindex_new(0);
	CHECK(ix != NULL);
	if (ix != NULL) {
		simindex_pop(ix); /* empty: nothing to undo */
		CHECK_INT(simindex_count(ix), 0);
	}
	simindex_free(ix);
}

/*
 * The entry added when the recent part is full comes after a merge of all
 * before it, so it can be taken back; the merged ones are all found, also
 * after more adds.
 */
static void
test_pop_after_merge(void)
{
	enum { N = 2000 };
	static uint64_t fp[N + 1];
	struct simindex *ix = simindex_new(3);
	struct simindex_match m[4];
	uint64_t s = 11;
	size_t i, n, missing = 0;

	CHECK(ix != NULL);
	if (ix == NULL)
		return;
	for (n = 0; n < N; n++) {
		fp[n] = check_xorshift(&s);
		CHECK_INT(simindex_add(ix, fp[n], (int64_t)n), 0);
		/* The newest taken back and added again: the index as if it
		 * had been added once. */
		simindex_pop(ix);
		CHECK_INT(simindex_query(ix, fp[n], m, 4), 0);
		CHECK_INT(simindex_add(ix, fp[n], (int64_t)n), 0);
		if (n % 97 == 0 || n == N - 1)
			for (i = 0; i <= n; i++)
				missing += simindex_query(ix, fp[i], m, 4) != 1 ||
				    m[0].id != (int64_t)i;
	}
	CHECK_INT(missing, 0);
	CHECK_INT(simindex_count(ix), N);
	simindex_free(ix);
}

void
suite_simindex(void)
{
	RUN(test_pop_after_merge);
	RUN(test_brute_force_k0);
	RUN(test_brute_force_k1);
	RUN(test_brute_force_k3);
	RUN(test_brute_force_k5);
	RUN(test_brute_force_k7);
	RUN(test_k_bounds);
	RUN(test_duplicates_order_and_max);
	RUN(test_count_bytes_pop);
}
