/*
 * shingles: word 3-shingles of a text and the novel-words measure; see
 * shingles.h.
 */
#include "dedup/shingles.h"

#include <stdlib.h>
#include <string.h>

#include "util/chars.h"
#include "util/le.h"
#include "util/mix64.h"
#include "util/radix.h"
#include "dedup/words.h"

#define SHINGLE_WORDS 3
#define SHINGLE_SEED 0x2545f4914f6cdd1dULL
#define FIRST_CAP 256

static int
push(struct shingles *s, size_t *cap, uint32_t h)
{
	uint32_t *grown;

	if (s->n == *cap) {
		*cap = *cap == 0 ? FIRST_CAP : *cap * 2;
		if ((grown = realloc(s->seq, *cap * sizeof(*grown))) == NULL)
			return -1;
		s->seq = grown;
	}
	s->seq[s->n++] = h;
	return 0;
}

static uint32_t
top32(const uint64_t *ring, size_t first, size_t n)
{
	return (uint32_t)(words_shingle_hash(ring, first, n, SHINGLE_SEED) >>
	    32);
}

/* set = seq sorted, duplicates dropped. */
static int
make_set(struct shingles *s)
{
	uint32_t *tmp;
	size_t i, k = 0;

	if (s->n == 0)
		return 0;
	if ((s->set = malloc(s->n * sizeof(*s->set))) == NULL)
		return -1;
	if ((tmp = malloc(s->n * sizeof(*tmp))) == NULL) {
		free(s->set);
		s->set = NULL;
		return -1;
	}
	memcpy(s->set, s->seq, s->n * sizeof(*s->set));
	radix_sort_u32(s->set, tmp, s->n);
	free(tmp);
	for (i = 0; i < s->n; i++)
		if (k == 0 || s->set[k - 1] != s->set[i])
			s->set[k++] = s->set[i];
	s->distinct = k;
	return 0;
}

/* Append one word's info, growing the per-word array like seq. */
static int
push_word(struct shingles *s, size_t *cap, uint32_t info)
{
	uint32_t *grown;

	if (s->words == *cap) {
		*cap = *cap == 0 ? FIRST_CAP : *cap * 2;
		if ((grown = realloc(s->word, *cap * sizeof(*grown))) == NULL)
			return -1;
		s->word = grown;
	}
	s->word[s->words] = info;
	return 0;
}

static int
push_block(struct shingles *s, size_t *cap, uint64_t h)
{
	uint32_t *grown;

	if (s->nblocks == *cap) {
		*cap = *cap == 0 ? 16 : *cap * 2;
		if ((grown = realloc(s->block, *cap * sizeof(*grown))) == NULL)
			return -1;
		s->block = grown;
	}
	s->block[s->nblocks++] = (uint32_t)(mix64(h) >> 32);
	return 0;
}

/* Scripts written without spaces between words: each character is a
 * word of its own (CJK radicals and punctuation, kana, Han, compatibility
 * ideographs, fullwidth forms, the supplementary ideographs). */
static int
unspaced(uint32_t c)
{
	return (c >= 0x2e80 && c <= 0x9fff) || (c >= 0xf900 && c <= 0xfaff) ||
	    (c >= 0xff00 && c <= 0xffef) ||
	    (c >= 0x20000 && c <= 0x3ffff);
}

/*
 * The next piece of the word w[*at..n): a run of characters of spaced
 * scripts, or one character of an unspaced one. Returns its length and
 * moves *at past it; 0 at the end.
 */
static size_t
next_piece(const unsigned char *w, size_t n, size_t *at)
{
	size_t start = *at, len;
	uint32_t c;

	while (*at < n) {
		len = chars_utf8_decode(w + *at, n - *at, &c);
		if (unspaced(c)) {
			if (*at == start)
				*at += len;
			break;
		}
		*at += len;
	}
	return *at - start;
}

/* Count one word (its hash wh, in block blk) into s. */
static int
add_word(struct shingles *s, uint64_t *ring, uint64_t wh, size_t blk,
    size_t *cap, size_t *wcap)
{
	if (push_word(s, wcap, (uint32_t)blk) != 0)
		return -1;
	ring[s->words % WORDS_RING] = wh;
	s->words++;
	if (s->words >= SHINGLE_WORDS &&
	    push(s, cap, top32(ring, (s->words - SHINGLE_WORDS) % WORDS_RING,
	        SHINGLE_WORDS)) != 0)
		return -1;
	return 0;
}

int
shingles_of_text(const char *text, size_t len, struct shingles *s)
{
	const unsigned char *p = (const unsigned char *)text;
	uint64_t ring[WORDS_RING], wh, bh = 0;
	size_t i = 0, start, cap = 0, wcap = 0, bcap = 0, gap, blk = 0, at, n;
	int open = 0;

	memset(s, 0, sizeof(*s));
	while (p != NULL && i < len && s->n < SHINGLES_MAX) {
		gap = i;
		if (words_next(p, len, &i, &start) == 0)
			break;
		/* A line break before the word closes the block. */
		if (open && memchr(p + gap, '\n', start - gap) != NULL) {
			if (push_block(s, &bcap, bh) != 0)
				goto fail;
			blk++;
			bh = 0;
		}
		open = 1;
		for (at = start; (n = next_piece(p, i, &at)) > 0 &&
		    s->n < SHINGLES_MAX;) {
			wh = words_hash(p + at - n, n, 0);
			bh = mix64(bh ^ wh);
			if (add_word(s, ring, wh, blk, &cap, &wcap) != 0)
				goto fail;
		}
	}
	if (open && push_block(s, &bcap, bh) != 0)
		goto fail;
	if (s->words > 0 && s->words < SHINGLE_WORDS &&
	    push(s, &cap, top32(ring, 0, s->words)) != 0)
		goto fail;
	if (make_set(s) != 0)
		goto fail;
	return 0;
fail:
	shingles_free(s);
	return -1;
}

void
shingles_free(struct shingles *s)
{
	free(s->seq);
	free(s->set);
	free(s->word);
	free(s->block);
	memset(s, 0, sizeof(*s));
}

static int
in_set(const uint32_t *set, size_t n, uint32_t v)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (set[mid] < v)
			lo = mid + 1;
		else if (set[mid] > v)
			hi = mid;
		else
			return 1;
	}
	return 0;
}

/* Whether shingle i of p is one of q's (false past the last shingle). */
static int
shared(const struct shingles *p, size_t i, const uint32_t *qset, size_t nq)
{
	return i < p->n && in_set(qset, nq, p->seq[i]);
}

size_t
shingles_novel_words(const struct shingles *p, const uint32_t *qset,
    size_t nq, const unsigned char *tmpl)
{
	/* Shingle i holds words i .. i + span - 1, so word j is covered by
	 * shingles j - span + 1 .. j: a window of the last span answers. */
	int win[SHINGLE_WORDS] = { 0 };
	size_t j, k, span, novel = 0;
	int covered;

	span = p->words < SHINGLE_WORDS ? p->words : SHINGLE_WORDS;
	for (j = 0; j < p->words; j++) {
		win[j % SHINGLE_WORDS] = p->words < SHINGLE_WORDS ?
		    shared(p, 0, qset, nq) : shared(p, j, qset, nq);
		for (k = 0, covered = 0; k < span && k <= j; k++)
			covered |= win[(j - k) % SHINGLE_WORDS];
		if (tmpl != NULL && tmpl[p->word[j]])
			covered = 1;
		novel += !covered;
	}
	return novel;
}

static unsigned char *
put_varint(unsigned char *o, uint32_t v)
{
	while (v >= 0x80) {
		*o++ = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	*o++ = (unsigned char)v;
	return o;
}

/* A varint at *p (before end) into *v; 0, or -1 when cut or too long. */
static int
get_varint(const unsigned char **p, const unsigned char *end, uint32_t *v)
{
	uint64_t x = 0;
	int shift;

	for (shift = 0; shift <= 28; shift += 7) {
		if (*p >= end)
			return -1;
		x |= (uint64_t)(**p & 0x7f) << shift;
		if ((*(*p)++ & 0x80) == 0) {
			if (x > UINT32_MAX)
				return -1;
			*v = (uint32_t)x;
			return 0;
		}
	}
	return -1;
}

unsigned char *
shingles_encode(const struct shingles *s, size_t *len)
{
	unsigned char *blob, *o;
	uint32_t prev = 0;
	size_t i;

	/* Version, count, at most five bytes a value, then the blocks. */
	if ((blob = malloc(1 + 5 + s->distinct * 5 + 5 + s->nblocks * 4)) ==
	    NULL)
		return NULL;
	o = blob;
	*o++ = SHINGLES_BLOB_VERSION;
	o = put_varint(o, (uint32_t)s->distinct);
	for (i = 0; i < s->distinct; i++) {
		o = put_varint(o, s->set[i] - prev);
		prev = s->set[i];
	}
	o = put_varint(o, (uint32_t)s->nblocks);
	for (i = 0; i < s->nblocks; i++) {
		le32_put(o, s->block[i]);
		o += 4;
	}
	*len = (size_t)(o - blob);
	return blob;
}

/* Past the set: *p at the block count. 0, or -1 when malformed. */
static int
skip_set(const unsigned char **p, const unsigned char *end, uint32_t *count)
{
	if (end - *p < 2 || *(*p)++ != SHINGLES_BLOB_VERSION ||
	    get_varint(p, end, count) != 0 || *count > SHINGLES_MAX)
		return -1;
	return 0;
}

int
shingles_decode(const void *blob, size_t len, uint32_t **set, size_t *n)
{
	const unsigned char *p = blob, *end = p + len, *blocks;
	uint32_t count, d, v = 0;
	size_t i, nb;

	*set = NULL;
	*n = 0;
	if (skip_set(&p, end, &count) != 0 ||
	    shingles_blocks(blob, len, &blocks, &nb) != 0)
		return -1;
	if (count == 0)
		return 0;
	if ((*set = malloc(count * sizeof(**set))) == NULL)
		return -1;
	for (i = 0; i < count; i++) {
		if (get_varint(&p, end, &d) != 0 || (i > 0 && d == 0) ||
		    (uint64_t)v + d > UINT32_MAX)
			goto fail;
		v += d;
		(*set)[i] = v;
	}
	*n = count;
	return 0;
fail:
	free(*set);
	*set = NULL;
	return -1;
}

int
shingles_blocks(const void *blob, size_t len, const unsigned char **blocks,
    size_t *n)
{
	const unsigned char *p = blob, *end = p + len;
	uint32_t count, d, nb;
	size_t i;

	*blocks = NULL;
	*n = 0;
	if (skip_set(&p, end, &count) != 0)
		return -1;
	for (i = 0; i < count; i++)
		if (get_varint(&p, end, &d) != 0)
			return -1;
	if (get_varint(&p, end, &nb) != 0 || (size_t)(end - p) != (size_t)nb * 4)
		return -1;
	*blocks = p;
	*n = nb;
	return 0;
}

uint32_t
shingles_block_at(const unsigned char *blocks, size_t i)
{
	return le32_get(blocks + i * 4);
}
