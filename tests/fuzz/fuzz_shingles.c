/*
 * Fuzz the shingle sets: shingles_of_text, the novel-words measure and the
 * blob coding a resumed crawl reads back from the database.
 *
 * Checks on the input as text: a text has no novel words against itself
 * nor (three words or more) against a text that contains it; novel words never exceed words; the
 * set is sorted and without repeats; the blob round-trips (set and block
 * hashes). Checks on the input as a blob: decoding never reads past it,
 * and a blob it accepts is one encode would write (re-encoding gives the
 * same set).
 */
#include "fuzz_common.h"
#include "dedup/shingles.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* New words of p against q's set and terms. */
static size_t
new_words(const struct shingles *p, const struct shingles *q)
{
	struct shingles_novelty nv;
	struct shingles_ref r;

	memset(&r, 0, sizeof(r));
	if (q != NULL)
		FUZZ_CHECK(shingles_ref_of(q, &r) == 0, "oom");
	shingles_measure(p, &r, NULL, &nv);
	FUZZ_CHECK(nv.own == nv.words && nv.new_own == nv.new_all &&
	    nv.new_all <= nv.words, "measure out of range");
	shingles_ref_free(&r);
	return nv.new_all;
}

static void
check_text(const uint8_t *data, size_t size)
{
	struct shingles s, twice;
	const unsigned char *blocks;
	unsigned char *blob;
	uint32_t *set;
	char *doubled;
	size_t i, n, nb, len;

	FUZZ_CHECK(shingles_of_text((const char *)data, size, &s) == 0, "oom");
	for (i = 1; i < s.distinct; i++)
		FUZZ_CHECK(s.set[i - 1] < s.set[i], "set not sorted at %zu", i);
	for (i = 1; i < s.nterms; i++)
		FUZZ_CHECK(s.terms[i - 1] < s.terms[i], "terms not sorted");
	FUZZ_CHECK(new_words(&s, &s) == 0, "novel words against itself");
	FUZZ_CHECK(new_words(&s, NULL) <= s.words,
	    "more novel words than words");
	/* The text twice, a line apart, contains it. */
	doubled = malloc(2 * size + 1);
	FUZZ_CHECK(doubled != NULL, "oom");
	memcpy(doubled, data, size);
	doubled[size] = '\n';
	memcpy(doubled + size + 1, data, size);
	FUZZ_CHECK(shingles_of_text(doubled, 2 * size + 1, &twice) == 0,
	    "oom");
	/* (A text of one or two words is one shingle of its own length,
	 * which a longer text does not have.) */
	if (twice.n < SHINGLES_MAX && s.words >= 3)
		FUZZ_CHECK(new_words(&s, &twice) == 0,
		    "novel words against a text holding it");
	free(doubled);
	shingles_free(&twice);
	FUZZ_CHECK((blob = shingles_encode(&s, &len)) != NULL, "oom");
	FUZZ_CHECK(shingles_decode(blob, len, &set, &n) == 0, "round trip");
	FUZZ_CHECK(n == s.distinct && (n == 0 ||
	    memcmp(set, s.set, n * sizeof(*set)) == 0), "set changed");
	FUZZ_CHECK(shingles_blocks(blob, len, &blocks, &nb, NULL) == 0 &&
	    nb == s.nblocks, "blocks changed");
	for (i = 0; i < nb; i++)
		FUZZ_CHECK(shingles_block_at(blocks, i) == s.block[i],
		    "block %zu changed", i);
	free(set);
	free(blob);
	shingles_free(&s);
}

static void
check_blob(const uint8_t *data, size_t size)
{
	const unsigned char *blocks;
	struct shingles s;
	unsigned char *again;
	uint32_t *set;
	size_t n, nb, len;

	/* A copy of exactly size bytes, so ASan sees any read past it. */
	unsigned char *copy = malloc(size > 0 ? size : 1);

	FUZZ_CHECK(copy != NULL, "oom");
	memcpy(copy, data, size);
	if (shingles_decode(copy, size, &set, &n) == 0) {
		FUZZ_CHECK(shingles_blocks(copy, size, &blocks, &nb, NULL) == 0,
		    "a decoded blob without blocks");
		memset(&s, 0, sizeof(s));
		s.set = set;
		s.distinct = n;
		FUZZ_CHECK((again = shingles_encode(&s, &len)) != NULL, "oom");
		FUZZ_CHECK(shingles_decode(again, len, &s.set, &s.n) == 0 &&
		    s.n == n, "re-encoded set refused");
		free(s.set);
		free(again);
		free(set);
	} else {
		FUZZ_CHECK(set == NULL, "set left on failure");
	}
	free(copy);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	check_text(data, size);
	check_blob(data, size);
	return 0;
}
