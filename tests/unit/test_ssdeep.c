#include "check.h"
#include "dedup/ssdeep.h"

#include <stdint.h>
#include <stdlib.h>

#define NTEXTS 2400
#define NSTORED 2000
#define TEXT_MAX 60000
#define OUT_MAX 32
#define POOL_MAX ((size_t)32 << 20)

/* Random words of 2..9 letters, about len bytes. */
static size_t
random_text(uint64_t *s, char *out, size_t len)
{
	size_t n = 0, w;

	while (n < len) {
		w = 2 + check_xorshift(s) % 8;
		while (w-- > 0 && n < len)
			out[n++] = (char)('a' + check_xorshift(s) % 26);
		if (n < len)
			out[n++] = ' ';
	}
	return n;
}

/* A variant of src: a few replaced, inserted or deleted spans, or a cut. */
static size_t
mutate(uint64_t *s, const char *src, size_t len, char *out)
{
	size_t n = len, edits, pos, span, i;
	char piece[256];

	memcpy(out, src, len);
	edits = 1 + check_xorshift(s) % 4;
	while (edits-- > 0 && n > 20) {
		pos = check_xorshift(s) % n;
		span = 1 + check_xorshift(s) % (n / 20 + 1);
		if (span > sizeof(piece))
			span = sizeof(piece);
		switch (check_xorshift(s) % 4) {
		case 0: /* replace */
			if (pos + span > n)
				span = n - pos;
			random_text(s, out + pos, span);
			break;
		case 1: /* insert */
			if (n + span > TEXT_MAX)
				break;
			random_text(s, piece, span);
			memmove(out + pos + span, out + pos, n - pos);
			memcpy(out + pos, piece, span);
			n += span;
			break;
		case 2: /* delete */
			if (pos + span > n)
				span = n - pos;
			memmove(out + pos, out + pos + span, n - pos - span);
			n -= span;
			break;
		default: /* truncate by up to a fifth */
			i = check_xorshift(s) % (n / 5 + 1);
			n -= i;
			break;
		}
	}
	return n;
}

static int
cmp_match(const void *pa, const void *pb)
{
	const struct ssdeep_match *a = pa, *b = pb;

	if (a->score != b->score)
		return a->score > b->score ? -1 : 1;
	return a->id < b->id ? -1 : a->id > b->id;
}

/*
 * Digests of random texts from 50 bytes to 50 KB (so block sizes range
 * from 3 upwards) and of mutated copies; for thresholds 1, 50 and 90 every
 * query's answer must equal a fuzzy_compare scan of all stored digests.
 */
static void
test_index_equals_brute_force(void)
{
	static char dig[NTEXTS][SSDEEP_MAX];
	static int64_t id[NTEXTS];
	static size_t off[NTEXTS], len[NTEXTS];
	static struct ssdeep_match want[NSTORED];
	static const int thresholds[] = { 1, 50, 90 };
	struct ssdeep_match got[OUT_MAX];
	struct ssdeep_index *ix = ssdeep_index_new();
	char *var = malloc(TEXT_MAX), *pool = malloc(POOL_MAX);
	uint64_t s = 2024, tiny;
	size_t i, j, t, n_want, n_got, used = 0, n, nonempty[3] = { 0 };
	size_t mismatches = 0, mutated = 0;
	int sc;

	CHECK(ix != NULL && var != NULL && pool != NULL);
	if (ix == NULL || var == NULL || pool == NULL)
		goto out;
	for (i = 0; i < NTEXTS; i++) {
		j = i > 0 ? check_xorshift(&s) % i : 0;
		if (check_xorshift(&s) % 20 == 0) {
			/* Tiny texts from a few seeds repeat exactly: digests
			 * with parts shorter than a gram. */
			tiny = 1 + check_xorshift(&s) % 8;
			n = random_text(&tiny, var, 4 + (size_t)(tiny % 3) * 6);
		} else if (i > 0 && check_xorshift(&s) % 2 == 0 &&
		    len[j] != SIZE_MAX) {
			n = mutate(&s, pool + off[j], len[j], var);
			mutated++;
		} else {
			/* Log-uniform length, 50 B .. 50 KB. */
			n = 50;
			t = check_xorshift(&s) % 1000;
			while (t-- > 0 && n < 50000)
				n += n / 144 + 1;
			n = random_text(&s, var, n);
		}
		CHECK_INT(ssdeep_of_text(var, n, dig[i]), 0);
		id[i] = (int64_t)((i * 31) % NTEXTS);
		len[i] = SIZE_MAX; /* not kept for mutation */
		if (used + n <= POOL_MAX) {
			off[i] = used;
			len[i] = n;
			memcpy(pool + used, var, n);
			used += n;
		}
		if (i < NSTORED)
			CHECK_INT(ssdeep_index_add(ix, dig[i], id[i]), 0);
	}
	CHECK_INT(ssdeep_index_count(ix), NSTORED);
	CHECK(mutated > NTEXTS / 3);
	/* Queries: every digest not stored and every fourth stored one. */
	for (i = 0; i < NTEXTS; i++) {
		if (i < NSTORED && i % 4 != 0)
			continue;
		for (t = 0; t < 3; t++) {
			n_want = 0;
			for (j = 0; j < NSTORED; j++) {
				sc = fuzzy_compare(dig[j], dig[i]);
				if (sc >= thresholds[t]) {
					want[n_want].id = id[j];
					want[n_want].score = sc;
					n_want++;
				}
			}
			qsort(want, n_want, sizeof(want[0]), cmp_match);
			n_got = ssdeep_index_query(ix, dig[i], thresholds[t],
			    got, OUT_MAX);
			/* A stored query finds itself; count other hits. */
			if (n_want > (i < NSTORED ? 1u : 0u))
				nonempty[t]++;
			if (n_got != n_want) {
				mismatches++;
				continue;
			}
			for (j = 0; j < n_got && j < OUT_MAX; j++)
				if (got[j].id != want[j].id ||
				    got[j].score != want[j].score)
					break;
			if (j != n_got && j != OUT_MAX)
				mismatches++;
		}
	}
	CHECK_INT(mismatches, 0);
	/* The mutated copies give real work at every threshold. */
	CHECK(nonempty[0] > 100);
	CHECK(nonempty[1] > 50);
	CHECK(nonempty[2] > 10);
out:
	ssdeep_index_free(ix);
	free(var);
	free(pool);
}

/*
 * Crowds: every stored digest is an edit of one of three texts, so most
 * share many grams and their keys pile up in long runs of the table; an
 * entry reached through dozens of shared grams must still be counted once,
 * and answers must equal the scan at every threshold.
 */
static void
test_crowded_keys(void)
{
	enum { BASES = 3, STORED = 900, QUERIES = 120 };
	static char dig[STORED + QUERIES][SSDEEP_MAX];
	static char base[BASES][8000];
	static struct ssdeep_match want[STORED];
	static const int thresholds[] = { 1, 50, 90 };
	struct ssdeep_match got[OUT_MAX];
	struct ssdeep_index *ix = ssdeep_index_new();
	char *var = malloc(TEXT_MAX);
	uint64_t s = 77;
	size_t i, j, t, n, n_want, n_got, mismatches = 0, big = 0;
	int sc;

	CHECK(ix != NULL && var != NULL);
	if (ix == NULL || var == NULL)
		goto out;
	for (i = 0; i < BASES; i++)
		random_text(&s, base[i], sizeof(base[i]));
	for (i = 0; i < STORED + QUERIES; i++) {
		n = mutate(&s, base[i % BASES], sizeof(base[0]), var);
		CHECK_INT(ssdeep_of_text(var, n, dig[i]), 0);
		if (i < STORED)
			CHECK_INT(ssdeep_index_add(ix, dig[i], (int64_t)i), 0);
	}
	for (i = STORED; i < STORED + QUERIES; i++) {
		for (t = 0; t < 3; t++) {
			n_want = 0;
			for (j = 0; j < STORED; j++) {
				sc = fuzzy_compare(dig[j], dig[i]);
				if (sc >= thresholds[t]) {
					want[n_want].id = (int64_t)j;
					want[n_want++].score = sc;
				}
			}
			qsort(want, n_want, sizeof(want[0]), cmp_match);
			n_got = ssdeep_index_query(ix, dig[i], thresholds[t],
			    got, OUT_MAX);
			big += n_want > STORED / BASES / 2;
			if (n_got != n_want) {
				mismatches++;
				continue;
			}
			for (j = 0; j < n_got && j < OUT_MAX; j++)
				if (got[j].id != want[j].id ||
				    got[j].score != want[j].score)
					break;
			if (j != n_got && j != OUT_MAX)
				mismatches++;
		}
	}
	CHECK_INT(mismatches, 0);
	/* The crowds are real: many queries match hundreds of entries. */
	CHECK(big > QUERIES / 2);
out:
	ssdeep_index_free(ix);
	free(var);
}

/* The index stays compact: digests of realistic shape (64 + 32 base64
 * characters, about 84 grams) cost well under a kilobyte each. */
static void
test_bytes_per_digest(void)
{
	static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnop"
	    "qrstuvwxyz0123456789+/";
	struct ssdeep_index *ix = ssdeep_index_new();
	struct ssdeep_match m[2];
	char d[128];
	uint64_t s = 9;
	size_t i, j, per;

	CHECK(ix != NULL);
	if (ix == NULL)
		return;
	for (i = 0; i < 50000; i++) {
		memcpy(d, "192:", 4);
		for (j = 0; j < 64; j++)
			d[4 + j] = b64[check_xorshift(&s) % 64];
		d[68] = ':';
		for (j = 0; j < 32; j++)
			d[69 + j] = b64[check_xorshift(&s) % 64];
		d[101] = '\0';
		CHECK_INT(ssdeep_index_add(ix, d, (int64_t)i), 0);
	}
	per = ssdeep_index_bytes(ix) / ssdeep_index_count(ix);
	/* 84 slots of 5 bytes at 53-80% load, 16 bytes of id, offset and
	 * mark, 102 of digest, arrays up to half again what they hold. */
	CHECK(per > 400);
	CHECK(per < 1000);
	/* The last one is found, by itself only. */
	CHECK_INT(ssdeep_index_query(ix, d, 100, m, 2), 1);
	CHECK_INT(m[0].id, 49999);
	ssdeep_index_free(ix);
}

static void
test_digest_and_score(void)
{
	char a[SSDEEP_MAX], b[SSDEEP_MAX];
	static char text[4000];
	uint64_t s = 3;
	size_t n = random_text(&s, text, sizeof(text));

	CHECK_INT(ssdeep_of_text("", 0, a), 0);
	CHECK_STR(a, "3::");
	CHECK_INT(ssdeep_of_text(text, n, a), 0);
	CHECK_INT(ssdeep_of_text(text, n, b), 0);
	CHECK_STR(a, b);
	CHECK_INT(ssdeep_score(a, b), 100);
	text[n / 2] = text[n / 2] == 'x' ? 'y' : 'x';
	CHECK_INT(ssdeep_of_text(text, n, b), 0);
	CHECK(ssdeep_score(a, b) > 50 && ssdeep_score(a, b) <= 100);
	/* Malformed either side: -1, even when block sizes are far apart
	 * (where fuzzy_compare itself answers 0 without looking further). */
	CHECK_INT(ssdeep_score("3:abc", "3:abc:def"), -1);
	CHECK_INT(ssdeep_score("x:abc:def", "3:abc:def"), -1);
	CHECK_INT(ssdeep_score("3:abc:def", "96:zz"), -1);
	CHECK_INT(ssdeep_score(NULL, "3:abc:def"), -1);
	CHECK_INT(ssdeep_score("3:abc:def", "96:abc:def"), 0);
}

static void
test_short_and_run_cut_digests(void)
{
	struct ssdeep_index *ix = ssdeep_index_new();
	struct ssdeep_match m[4];

	CHECK(ix != NULL);
	if (ix == NULL)
		return;
	/* Parts shorter than a gram: only identical digests match. */
	CHECK_INT(ssdeep_index_add(ix, "3:ab:cd", 1), 0);
	CHECK_INT(ssdeep_index_add(ix, "3::", 2), 0);
	/* Runs longer than three are cut before comparing. */
	CHECK_INT(ssdeep_index_add(ix, "3:abcdddddddefghij:xy", 3), 0);
	CHECK_INT(ssdeep_index_query(ix, "3:ab:cd", 1, m, 4), 1);
	CHECK_INT(m[0].id, 1);
	CHECK_INT(m[0].score, 100);
	CHECK_INT(ssdeep_index_query(ix, "3:ab:ce", 1, m, 4), 0);
	CHECK_INT(ssdeep_index_query(ix, "6:ab:cd", 1, m, 4), 0);
	CHECK_INT(ssdeep_index_query(ix, "3::", 100, m, 4), 1);
	CHECK_INT(m[0].id, 2);
	CHECK_INT(ssdeep_index_query(ix, "3:abcdddefghij:xy", 100, m, 4), 1);
	CHECK_INT(m[0].id, 3);
	/* A filename suffix after ',' is not part of the digest. */
	CHECK_INT(ssdeep_index_query(ix, "3:abcddddefghij:xy,\"f.txt\"", 100,
	    m, 4), 1);
	/* Part 2 of a block size 3 digest meets part 1 of a block size 6
	 * one, here only through the gram "bcdddef" left by the run cut. */
	CHECK_INT(ssdeep_index_add(ix, "6:bcddddddefgq:zz", 4), 0);
	CHECK_INT(ssdeep_index_query(ix, "3:xy:abcdddefghij", 1, m, 4), 1);
	CHECK_INT(m[0].id, 4);
	CHECK_INT(m[0].score, fuzzy_compare("6:bcddddddefgq:zz",
	    "3:xy:abcdddefghij"));
	CHECK(m[0].score > 0);
	CHECK_INT(ssdeep_index_add(ix, "12:qq:bcdddefgq", 5), 0);
	CHECK_INT(ssdeep_index_query(ix, "24:abcdddefghij:xy", 1, m, 4), 1);
	CHECK_INT(m[0].id, 5);
	/* Threshold above 100 matches nothing; below 1 means 1. */
	CHECK_INT(ssdeep_index_query(ix, "3:ab:cd", 101, m, 4), 0);
	CHECK_INT(ssdeep_index_query(ix, "3:ab:cd", 0, m, 4), 1);
	CHECK_INT(ssdeep_index_count(ix), 5);
	CHECK(ssdeep_index_bytes(ix) > 5 * 16);
	ssdeep_index_free(ix);
	ssdeep_index_free(NULL);
}

static void
test_malformed(void)
{
	struct ssdeep_index *ix = ssdeep_index_new();
	struct ssdeep_match m[2];
	char longpart[200];

	CHECK(ix != NULL);
	if (ix == NULL)
		return;
	/* 65 distinct characters: longer than fuzzy_compare accepts. */
	memset(longpart, 0, sizeof(longpart));
	memcpy(longpart, "3:", 2);
	for (int i = 0; i < 65; i++)
		longpart[2 + i] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopq"
		    "rstuvwxyz0123456789+/"[i % 64] + (i == 64);
	memcpy(longpart + 67, ":ab", 3);
	CHECK_INT(fuzzy_compare(longpart, longpart), -1);
	CHECK_INT(ssdeep_index_add(ix, longpart, 1), -2);
	CHECK_INT(ssdeep_index_add(ix, "3:abc", 1), -2);
	CHECK_INT(ssdeep_index_add(ix, "", 1), -2);
	CHECK_INT(ssdeep_index_add(ix, ":ab:cd", 1), -2);
	CHECK_INT(ssdeep_index_add(ix, "-3:ab:cd", 1), -2);
	CHECK_INT(ssdeep_index_add(ix, "99999999999999999999999:ab:cd", 1), -2);
	CHECK_INT(ssdeep_index_add(ix, NULL, 1), -2);
	CHECK_INT(ssdeep_index_count(ix), 0);
	CHECK_INT(ssdeep_index_add(ix, "3:abcdefgh:ab", 1), 0);
	CHECK_INT(ssdeep_index_query(ix, "3:abcdefgh", 1, m, 2), 0);
	CHECK_INT(ssdeep_index_query(ix, longpart, 1, m, 2), 0);
	CHECK_INT(ssdeep_index_query(ix, NULL, 1, m, 2), 0);
	CHECK_INT(ssdeep_index_query(ix, "3:abcdefgh:ab", 1, m, 2), 1);
	ssdeep_index_free(ix);
}

static void
test_line_breaks_read_as_spaces(void)
{
	static char text[20000];
	char a[SSDEEP_MAX], b[SSDEEP_MAX];
	size_t i;

	for (i = 0; i < sizeof(text); i++)
		text[i] = i % 9 == 8 ? ' ' : (char)('a' + (i * 7919) % 26);
	CHECK_INT(ssdeep_of_text(text, sizeof(text), a), 0);
	for (i = 8; i < sizeof(text); i += 27)
		text[i] = '\n';
	CHECK_INT(ssdeep_of_text(text, sizeof(text), b), 0);
	CHECK_STR(a, b);
	CHECK_INT(ssdeep_of_text(NULL, 0, a), 0);
	CHECK_INT(ssdeep_of_text("", 0, b), 0);
	CHECK_STR(a, b);
}

void
suite_ssdeep(void)
{
	RUN(test_line_breaks_read_as_spaces);
	RUN(test_index_equals_brute_force);
	RUN(test_crowded_keys);
	RUN(test_bytes_per_digest);
	RUN(test_digest_and_score);
	RUN(test_short_and_run_cut_digests);
	RUN(test_malformed);
}
