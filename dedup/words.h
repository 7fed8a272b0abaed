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
