/*
 * simhash: Charikar's SimHash over word features of extracted text.
 *
 * Features (SIMHASH_FEATURES_VERSION 3): words are maximal runs of ASCII
 * letters/digits and of bytes >= 0x80, ASCII lower-cased, each character
 * of an unspaced script (Han, kana) a word alone (words.h; version 2 read
 * a whole CJK sentence as one word); a feature is a run
 * of `shingle` consecutive words (default 3). Shingles rather than single
 * words make word order count, so pages that share a vocabulary (every page
 * of one site) do not collapse onto one fingerprint, while one edited word
 * touches only `shingle` features. Each feature's 64-bit hash votes +w/-w on
 * every bit, w its weight (default: its number of occurrences, as in the
 * research); a bit is set when its vote is positive.
 *
 * Feature hashes must never change silently: the stored fingerprints of a
 * resumed crawl are compared with new ones. The unit test pins one value.
 */
#include "dedup/simhash.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dedup/words.h"

#define SHINGLE_MAX WORDS_RING
#define SHINGLE_SEED 0x9e3779b97f4a7c15ULL
#define TABLE_STACK 512       /* slots counted without touching the heap */
#define TABLE_CAP (1u << 20)  /* slots at most: 16 MiB */
#define LOGTF_SCALE 1000.0    /* fixed point for 1 + ln(count) */

const struct simhash_opts simhash_default_opts = {
	.shingle = 3,
	.min_word = 0,
	.weighting = SIMHASH_WEIGHT_TF,
	.fold_numbers = 1,
};

struct feature {
	uint64_t hash;  /* feature hash */
	uint64_t count; /* occurrences; 0 marks a free slot */
};

struct counter {
	struct feature *slot;   /* open-addressing table, linear probing */
	size_t size;            /* slots, a power of two */
	size_t used;            /* occupied slots */
	int on_heap;            /* slot was malloc'd */
	int weighting;          /* enum simhash_weighting */
	int64_t vote[64];       /* per-bit sum of signed weights */
	uint64_t lanes[8];      /* unit votes not yet in vote: byte k of
	                           lanes[j] counts features with bit 8j+k set */
	unsigned nlanes;        /* features counted in lanes, < 256 */
};

/*
 * Byte k of SPREAD(x) is bit k of the byte x: the bits are copied to one
 * byte each, masked to their own place, and each non-zero byte is turned
 * into 1 by a carry into its top bit.
 */
#define SPREAD(x) (((((x) * 0x0101010101010101ULL & 0x8040201008040201ULL) + \
	0x7f7f7f7f7f7f7f7fULL) & 0x8080808080808080ULL) >> 7)
#define SPREAD4(n) SPREAD(n##ULL), SPREAD(n##ULL + 1), SPREAD(n##ULL + 2), \
	SPREAD(n##ULL + 3)
#define SPREAD16(n) SPREAD4(n), SPREAD4(n + 4), SPREAD4(n + 8), SPREAD4(n + 12)
#define SPREAD64(n) SPREAD16(n), SPREAD16(n + 16), SPREAD16(n + 32), \
	SPREAD16(n + 48)
static const uint64_t spread[256] = { SPREAD64(0), SPREAD64(64),
	SPREAD64(128), SPREAD64(192) };


static int64_t
weight_of(int weighting, uint64_t count)
{
	switch (weighting) {
	case SIMHASH_WEIGHT_BINARY:
		return 1;
	case SIMHASH_WEIGHT_LOGTF:
		return (int64_t)llround(LOGTF_SCALE *
		    (1.0 + log((double)count)));
	default:
		return count > INT32_MAX ? INT32_MAX : (int64_t)count;
	}
}

/* Move the unit votes gathered in the byte lanes into the vote sums. */
static void
drain_lanes(struct counter *c)
{
	int j, k;

	if (c->nlanes == 0)
		return;
	for (j = 0; j < 8; j++) {
		for (k = 0; k < 8; k++)
			c->vote[8 * j + k] += 2 * (int64_t)((c->lanes[j] >>
			    (8 * k)) & 0xff) - (int64_t)c->nlanes;
		c->lanes[j] = 0;
	}
	c->nlanes = 0;
}

/*
 * A vote of weight 1: counted eight bits at a time in byte lanes, which is
 * the same sum as vote(c, h, 1) at an eighth of the work.
 */
static void
vote_one(struct counter *c, uint64_t h)
{
	int j;

	for (j = 0; j < 8; j++)
		c->lanes[j] += spread[(h >> (8 * j)) & 0xff];
	if (++c->nlanes == 255)
		drain_lanes(c);
}

static void
vote(struct counter *c, uint64_t h, int64_t w)
{
	int i;

	/* Branch-free: a branch per bit mispredicts half the time. */
	for (i = 0; i < 64; i++)
		c->vote[i] += (-(int64_t)((h >> i) & 1) & (2 * w)) - w;
}

/* Cast the votes of every counted feature and empty the table. */
static void
flush(struct counter *c)
{
	size_t i;

	for (i = 0; i < c->size; i++)
		if (c->slot[i].count != 0)
			vote(c, c->slot[i].hash,
			    weight_of(c->weighting, c->slot[i].count));
	memset(c->slot, 0, c->size * sizeof(*c->slot));
	c->used = 0;
}

static struct feature *
probe(struct feature *slot, size_t size, uint64_t h)
{
	size_t i = (size_t)h & (size - 1);

	while (slot[i].count != 0 && slot[i].hash != h)
		i = (i + 1) & (size - 1);
	return &slot[i];
}

/* Double the table; -1 (table untouched) when capped or out of memory. */
static int
grow(struct counter *c)
{
	struct feature *n, *f;
	size_t i, size = c->size * 2;

	if (size > TABLE_CAP)
		return -1;
	n = calloc(size, sizeof(*n));
	if (n == NULL)
		return -1;
	for (i = 0; i < c->size; i++)
		if (c->slot[i].count != 0) {
			f = probe(n, size, c->slot[i].hash);
			*f = c->slot[i];
		}
	if (c->on_heap)
		free(c->slot);
	c->slot = n;
	c->size = size;
	c->on_heap = 1;
	return 0;
}

static void
count_feature(struct counter *c, uint64_t h)
{
	struct feature *f;

	/* Count weights are linear: voting once per occurrence is exact and
	 * needs no table. */
	if (c->weighting != SIMHASH_WEIGHT_LOGTF &&
	    c->weighting != SIMHASH_WEIGHT_BINARY) {
		vote_one(c, h);
		return;
	}
	f = probe(c->slot, c->size, h);
	if (f->count != 0) {
		f->count++;
		return;
	}
	/* Keep the load at most one half so probes stay short. */
	if ((c->used + 1) * 2 > c->size) {
		if (grow(c) != 0)
			flush(c);
		f = probe(c->slot, c->size, h);
	}
	f->hash = h;
	f->count = 1;
	c->used++;
}

uint64_t
simhash_of_text_opts(const char *text, size_t len,
    const struct simhash_opts *o)
{
	return simhash_of_text_words(text, len, NULL, o);
}

uint64_t
simhash_of_text_words(const char *text, size_t len,
    const struct words_seq *ws, const struct simhash_opts *o)
{
	struct feature stack_slot[TABLE_STACK];
	struct counter c;
	struct words_reader r;
	uint64_t ring[SHINGLE_MAX];
	uint64_t fp = 0, h;
	size_t words = 0, shingle, min_word;
	int bit;

	if (o == NULL)
		o = &simhash_default_opts;
	shingle = o->shingle < 1 ? 1 :
	    o->shingle > SHINGLE_MAX ? SHINGLE_MAX : (size_t)o->shingle;
	min_word = shingle == 1 && o->min_word > 0 ? (size_t)o->min_word : 0;
	memset(&c, 0, sizeof(c));
	memset(stack_slot, 0, sizeof(stack_slot));
	c.slot = stack_slot;
	c.size = TABLE_STACK;
	c.weighting = o->weighting;

	/* The words' lengths are not kept with their hashes. */
	words_reader_init(&r, text, len, min_word > 0 ? NULL : ws,
	    o->fold_numbers, min_word);
	while (words_reader_next(&r, &h)) {
		ring[words % SHINGLE_MAX] = h;
		words++;
		if (words >= shingle)
			count_feature(&c, words_shingle_hash(ring,
			    (words - shingle) % SHINGLE_MAX, shingle,
			    SHINGLE_SEED));
	}
	if (words > 0 && words < shingle)
		count_feature(&c, words_shingle_hash(ring, 0, words,
		    SHINGLE_SEED));
	flush(&c);
	drain_lanes(&c);
	for (bit = 0; bit < 64; bit++)
		if (c.vote[bit] > 0)
			fp |= (uint64_t)1 << bit;
	if (c.on_heap)
		free(c.slot);
	return fp;
}

uint64_t
simhash_of_text(const char *text, size_t len)
{
	return simhash_of_text_opts(text, len, &simhash_default_opts);
}

int
simhash_distance(uint64_t a, uint64_t b)
{
	return __builtin_popcountll(a ^ b);
}

double
simhash_percent(int distance)
{
	if (distance < 0)
		distance = 0;
	if (distance > 64)
		distance = 64;
	return (64 - distance) * 100.0 / 64.0;
}
