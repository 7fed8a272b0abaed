/*
 * words: how SimHash, MinHash and the shingle sets read a text into
 * words, so the feature schemes cannot drift apart. A word is a maximal
 * run of ASCII letters and digits and bytes >= 0x80 (UTF-8 sequences stay
 * whole), except that each character of a script written without spaces
 * between words (Han, kana, CJK punctuation and compatibility forms) is
 * a word of its own: a Chinese or Japanese sentence is as many words as
 * characters, not one. Its hash is 64-bit FNV-1a of the word with ASCII
 * lower-cased, and a word of digits only may be folded into the one word
 * "0" (dates, counters). A shingle is a run of words whose hashes sit in
 * a ring of WORDS_RING.
 * Header only, like chars.h.
 */
#ifndef NC_WORDS_H
#define NC_WORDS_H

#include <stddef.h>
#include <stdint.h>

#include "util/chars.h"
#include "util/mix64.h"

/* Word hashes a shingle ring holds: the longest shingle, in words. */
#define WORDS_RING 8

static inline int
words_is_byte(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c >= 0x80;
}

/* Scripts written without spaces between words: CJK radicals and
 * punctuation, kana, Han, compatibility ideographs, fullwidth forms and
 * the supplementary ideographs. */
static inline int
words_unspaced(uint32_t c)
{
	return (c >= 0x2e80 && c <= 0x9fff) || (c >= 0xf900 && c <= 0xfaff) ||
	    (c >= 0xff00 && c <= 0xffef) || (c >= 0x20000 && c <= 0x3ffff);
}

/* The length of the character at p[0..n) when it is of an unspaced
 * script, else 0. Only lead bytes 0xe2 and up can start one. */
static inline size_t
words_unspaced_at(const unsigned char *p, size_t n)
{
	uint32_t c;
	size_t len;

	if (p[0] < 0xe2)
		return 0;
	len = chars_utf8_decode(p, n, &c);
	return words_unspaced(c) ? len : 0;
}

/*
 * The next word of p[*i..len): sets *start to its first byte, moves *i
 * past it and returns its length; 0 when no word is left. A character of
 * an unspaced script is a word alone and ends the word before it.
 */
static inline size_t
words_next(const unsigned char *p, size_t len, size_t *i, size_t *start)
{
	size_t u;

	while (*i < len && !words_is_byte(p[*i]))
		(*i)++;
	*start = *i;
	if (*i < len && (u = words_unspaced_at(p + *i, len - *i)) > 0) {
		*i += u;
		return u;
	}
	while (*i < len && words_is_byte(p[*i]) &&
	    (p[*i] < 0xe2 || words_unspaced_at(p + *i, len - *i) == 0))
		(*i)++;
	return *i - *start;
}

/* FNV-1a of w[0..n) lower-cased; with fold_digits, all-digit words hash
 * as "0". */
static inline uint64_t
words_hash(const unsigned char *w, size_t n, int fold_digits)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	size_t i;

	if (fold_digits) {
		for (i = 0; i < n && w[i] >= '0' && w[i] <= '9'; i++)
			;
		if (i == n) {
			w = (const unsigned char *)"0";
			n = 1;
		}
	}
	for (i = 0; i < n; i++) {
		h ^= chars_ascii_lower(w[i]);
		h *= 0x100000001b3ULL;
	}
	return h;
}

/*
 * The words of a text read once (shingles.c does) and kept for the other
 * methods that read the same text, so that none reads it again.
 */
struct words_seq {
	const uint64_t *hash;        /* per word: words_hash with fold 0 */
	const unsigned char *number; /* per word: 1 for digits only */
	size_t n;                    /* words: every word of the text */
};

/*
 * Reads a text's word hashes one at a time, from the text itself or from
 * its words_seq: the same hashes either way, since a folded word is one
 * of digits only and every such word hashes as "0".
 */
struct words_reader {
	const unsigned char *p;     /* the text, when read from it */
	size_t len;                 /* its bytes */
	size_t i;                   /* the next byte to read */
	const struct words_seq *ws; /* its words, or NULL to read p */
	size_t j;                   /* the next word of ws */
	int fold;                   /* fold_digits of words_hash */
	size_t min_word;            /* shorter words are skipped (read from
	                               the text only) */
};

/* Read text[0..len) (may be NULL), or its words ws when not NULL, with
 * fold_digits fold, skipping words of fewer than min_word bytes (ws must
 * be NULL when min_word is not 0). */
static inline void
words_reader_init(struct words_reader *r, const char *text, size_t len,
    const struct words_seq *ws, int fold, size_t min_word)
{
	r->p = (const unsigned char *)text;
	r->len = r->p != NULL ? len : 0;
	r->i = 0;
	r->ws = ws;
	r->j = 0;
	r->fold = fold;
	r->min_word = min_word;
}

/* The next word's hash into *h: 1, or 0 when no word is left. */
static inline int
words_reader_next(struct words_reader *r, uint64_t *h)
{
	size_t start;

	if (r->ws != NULL) {
		if (r->j >= r->ws->n)
			return 0;
		*h = r->fold && r->ws->number[r->j] ?
		    words_hash((const unsigned char *)"0", 1, 0) :
		    r->ws->hash[r->j];
		r->j++;
		return 1;
	}
	while (r->i < r->len) {
		if (words_next(r->p, r->len, &r->i, &start) == 0 ||
		    r->i - start < r->min_word)
			continue;
		*h = words_hash(r->p + start, r->i - start, r->fold);
		return 1;
	}
	return 0;
}

/*
 * Order-dependent hash of the n word hashes of ring from slot first on
 * (wrapping at WORDS_RING), started from seed: each method its own seed.
 */
static inline uint64_t
words_shingle_hash(const uint64_t *ring, size_t first, size_t n,
    uint64_t seed)
{
	uint64_t h = seed ^ n;
	size_t i;

	for (i = 0; i < n; i++)
		h = mix64(h ^ ring[(first + i) % WORDS_RING]);
	return h;
}

#endif
