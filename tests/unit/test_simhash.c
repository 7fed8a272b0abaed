#include "check.h"
#include "dedup/simhash.h"

#include <stdint.h>
#include <stdlib.h>

#define TEXT_CAP 8192

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
		len += (size_t)snprintf(out + len, TEXT_CAP - len, "%s%s",
		    i ? " " : "", w);
	}
	return len;
}

static void
test_identical_and_empty(void)
{
	static char a[TEXT_CAP], b[TEXT_CAP];
	size_t la = make_text(a, 1, 300, SIZE_MAX);
	size_t lb = make_text(b, 1, 300, SIZE_MAX);

	CHECK_INT(la, lb);
	CHECK(simhash_of_text(a, la) == simhash_of_text(b, lb));
	CHECK(simhash_of_text(a, la) != 0);
	CHECK(simhash_of_text("", 0) == 0);
	CHECK(simhash_of_text(NULL, 0) == 0);
	/* No word bytes at all: no feature. */
	CHECK(simhash_of_text(" ,.;!? \t\n", 9) == 0);
}

/*
 * One word in 300 changes 3 of 298 shingles; with count weights each bit's
 * vote is a sum of ~298 random +-1 (sd ~17) moved by six +-1, so about
 * 64 * E|delta| * density(0) ~ 3 bits flip on average. Measured over 2000
 * seeds: mean 2.8, 99.9 % at most 8, maximum 9; seeds 1..20 give at most 7,
 * mean 2.8. Unrelated texts sit near 32.
 */
static void
test_one_word_changed(void)
{
	static char a[TEXT_CAP], b[TEXT_CAP];
	uint64_t seed;
	size_t la, lb;
	int d, worst = 0, sum = 0;

	for (seed = 1; seed <= 20; seed++) {
		la = make_text(a, seed, 300, SIZE_MAX);
		lb = make_text(b, seed, 300, 150);
		CHECK(la != lb || memcmp(a, b, la) != 0);
		d = simhash_distance(simhash_of_text(a, la),
		    simhash_of_text(b, lb));
		CHECK(d >= 0);
		sum += d;
		if (d > worst)
			worst = d;
	}
	CHECK(worst <= 8);
	CHECK(sum <= 20 * 4);
	CHECK(worst > 0);
}

static void
test_unrelated(void)
{
	static char a[TEXT_CAP], b[TEXT_CAP];
	uint64_t seed;
	size_t la, lb;

	for (seed = 1; seed <= 20; seed++) {
		la = make_text(a, seed, 300, SIZE_MAX);
		lb = make_text(b, seed + 1000, 300, SIZE_MAX);
		CHECK(simhash_distance(simhash_of_text(a, la),
		    simhash_of_text(b, lb)) > 10);
	}
}

static void
test_distance_and_percent(void)
{
	CHECK_INT(simhash_distance(0, 0), 0);
	CHECK_INT(simhash_distance(0, UINT64_MAX), 64);
	CHECK_INT(simhash_distance(0x0fULL, 0x1eULL), 2);
	CHECK(simhash_percent(0) == 100.0);
	CHECK(simhash_percent(64) == 0.0);
	CHECK(simhash_percent(3) == 95.3125);
	CHECK(simhash_percent(32) == 50.0);
}

static void
test_case_and_separators(void)
{
	const char *a = "The quick brown fox jumps over the lazy dog";
	const char *b = "the QUICK Brown fox -- jumps, over; THE lazy dog!";
	const char *c = "the quick brown fox jumps over the lazy cat";

	CHECK(simhash_of_text(a, strlen(a)) == simhash_of_text(b, strlen(b)));
	CHECK(simhash_of_text(a, strlen(a)) != simhash_of_text(c, strlen(c)));
}

static void
test_utf8_inside_words(void)
{
	/* "cafe" + U+00E9 is one word, not "caf" and a separator. */
	const char *a = "caf\xc3\xa9 au lait";
	const char *b = "caf au lait";
	const char *c = "CAF\xc3\xa9 AU LAIT";

	CHECK(simhash_of_text(a, strlen(a)) != simhash_of_text(b, strlen(b)));
	/* Only ASCII is case-folded; the UTF-8 bytes are kept as they are. */
	CHECK(simhash_of_text(a, strlen(a)) == simhash_of_text(c, strlen(c)));
}

static void
test_short_texts_and_order(void)
{
	struct simhash_opts o = simhash_default_opts;

	/* Fewer words than the shingle: all of them are one feature. */
	CHECK(simhash_of_text("hello", 5) != 0);
	CHECK(simhash_of_text("hello world", 11) !=
	    simhash_of_text("world hello", 11));
	/* Single words as features ignore order. */
	o.shingle = 1;
	CHECK(simhash_of_text_opts("alpha beta gamma", 16, &o) ==
	    simhash_of_text_opts("gamma alpha beta", 16, &o));
	/* min_word drops the short words, so these two agree... */
	o.min_word = 4;
	CHECK(simhash_of_text_opts("alpha of beta is gamma", 22, &o) ==
	    simhash_of_text_opts("alpha beta gamma an", 19, &o));
	/* ...and only short words leave no feature. */
	CHECK(simhash_of_text_opts("a an of to", 10, &o) == 0);
}

static void
test_weightings_differ(void)
{
	const char *t = "spam spam spam spam spam spam spam spam spam eggs "
	    "ham toast jam";
	struct simhash_opts tf = { 1, 0, SIMHASH_WEIGHT_TF, 0 };
	struct simhash_opts bin = { 1, 0, SIMHASH_WEIGHT_BINARY, 0 };
	struct simhash_opts logtf = { 1, 0, SIMHASH_WEIGHT_LOGTF, 0 };
	uint64_t h_tf = simhash_of_text_opts(t, strlen(t), &tf);
	uint64_t h_bin = simhash_of_text_opts(t, strlen(t), &bin);
	uint64_t h_log = simhash_of_text_opts(t, strlen(t), &logtf);

	/* Nine "spam" outvote four others: TF is spam's own hash; with
	 * LOGTF spam weighs 1 + ln 9 = 3.2 < 4, so bits where all four
	 * others disagree with it flip. */
	CHECK(h_tf == simhash_of_text_opts("spam", 4, &tf));
	CHECK(h_tf == 0x18a747a928b880ULL);
	CHECK(h_log == 0x38a70fa928b888ULL);
	CHECK(h_bin != h_tf);
	/* Binary weights ignore repetition. */
	CHECK(h_bin == simhash_of_text_opts("eggs spam jam toast ham spam",
	    28, &bin));
}

/* A huge text exercises table growth past the stack slots. */
static void
test_large_text(void)
{
	size_t cap = 10u << 20, len = 0;
	char *big = malloc(cap), *copy;
	uint64_t s = 99;
	char w[16];
	uint64_t h1, h2;
	struct simhash_opts bin = { 3, 0, SIMHASH_WEIGHT_BINARY, 0 };

	CHECK(big != NULL);
	if (big == NULL)
		return;
	while (len + 16 < cap) {
		random_word(&s, w);
		memcpy(big + len, w, strlen(w));
		len += strlen(w);
		big[len++] = ' ';
	}
	h1 = simhash_of_text(big, len);
	copy = malloc(len);
	CHECK(copy != NULL);
	if (copy != NULL) {
		memcpy(copy, big, len);
		h2 = simhash_of_text(copy, len);
		CHECK(h1 == h2);
		free(copy);
	}
	CHECK(h1 != 0);
	CHECK(simhash_of_text_opts(big, len, &bin) != 0);
	free(big);
}

/* Pins the feature scheme: a change here means SIMHASH_FEATURES_VERSION. */
static void
test_stable_value(void)
{
	const char *t = "Near-duplicate detection for web crawlers: "
	    "SimHash fingerprints of purified body text.";
	struct simhash_opts one = { 1, 0, SIMHASH_WEIGHT_TF, 0 };

	CHECK(simhash_of_text(t, strlen(t)) == 0x77813218d0cea960ULL);
	CHECK(simhash_of_text_opts(t, strlen(t), &one) ==
	    0x1cdd8ac90c665440ULL);
	CHECK_INT(SIMHASH_FEATURES_VERSION, 3);
	/* Version 3: each Han character a word; pinned likewise. */
	{
		const char *cjk = "\u5927\u5b66\u56fe\u4e66\u9986\u5ef6"
		    "\u957f\u5f00\u653e\u65f6\u95f4 library";

		CHECK(simhash_of_text(cjk, strlen(cjk)) ==
		    0x3e4fe1e92b686a5eULL);
	}
}

/*
 * Unit votes are summed eight bits at a time: with every feature distinct,
 * counting occurrences (that path) and binary weights (one vote per
 * feature through the table) must agree, over many drains of the lanes.
 */
static void
test_lanes_match_votes(void)
{
	struct simhash_opts tf = { 3, 0, SIMHASH_WEIGHT_TF, 1 };
	struct simhash_opts bin = { 3, 0, SIMHASH_WEIGHT_BINARY, 1 };
	size_t n, len, words[] = { 1, 2, 3, 254, 255, 256, 257, 511, 3000 };
	char *t = malloc(3000 * 12);
	int i, k;

	CHECK(t != NULL);
	if (t == NULL)
		return;
	for (k = 0; k < (int)(sizeof(words) / sizeof(words[0])); k++) {
		len = 0;
		for (n = 0; n < words[k]; n++)
			len += (size_t)sprintf(t + len, "w%zux ", n * 7919);
		for (i = 0; i < 2; i++)
			CHECK(simhash_of_text_opts(t, len, &tf) ==
			    simhash_of_text_opts(t, len, &bin));
	}
	free(t);
}

/* Dates, counters and phone numbers must not tell pages apart. */
static void
test_numbers_fold(void)
{
	const char *a = "Visitors: 52121. Last updated 2026-04-08 09:42 UTC";
	const char *b = "Visitors: 7. Last updated 1999-12-31 23:59 UTC";
	const char *c = "Visitors: many. Last updated 1999-12-31 23:59 UTC";
	struct simhash_opts keep = simhash_default_opts;

	keep.fold_numbers = 0;
	CHECK(simhash_of_text(a, strlen(a)) == simhash_of_text(b, strlen(b)));
	CHECK(simhash_of_text(a, strlen(a)) != simhash_of_text(c, strlen(c)));
	CHECK(simhash_of_text_opts(a, strlen(a), &keep) !=
	    simhash_of_text_opts(b, strlen(b), &keep));
	/* Words mixing letters and digits are words like any other. */
	CHECK(simhash_of_text("room B12 north", 14) !=
	    simhash_of_text("room B13 north", 14));
}

void
suite_simhash(void)
{
	RUN(test_identical_and_empty);
	RUN(test_one_word_changed);
	RUN(test_unrelated);
	RUN(test_distance_and_percent);
	RUN(test_case_and_separators);
	RUN(test_utf8_inside_words);
	RUN(test_short_texts_and_order);
	RUN(test_weightings_differ);
	RUN(test_large_text);
	RUN(test_stable_value);
	RUN(test_lanes_match_votes);
	RUN(test_numbers_fold);
}
