/*
 * chars: character helpers shared by the HTML extraction (crawler/) and
 * the token readers (dedup/): white space, ASCII lower case and search,
 * hex digit values, and UTF-8 decoding and encoding. Header only: both
 * sides and their fuzz targets build it without another object file.
 */
#ifndef NC_CHARS_H
#define NC_CHARS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Whether c is HTML white space (space, tab, LF, CR, FF). */
static inline int
chars_html_space(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

/* c in lower case if it is an ASCII capital, else c: the locale cannot
 * change what a name or key means. */
static inline unsigned char
chars_ascii_lower(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? (unsigned char)(c + ('a' - 'A')) : c;
}

/* The first place needle (lower-case ASCII) stands in s[0..n), any case;
 * NULL when it does not. */
static inline const char *
chars_find_lower(const char *s, size_t n, const char *needle)
{
	size_t k = strlen(needle), i, j;

	for (i = 0; i + k <= n; i++) {
		for (j = 0; j < k && chars_ascii_lower((unsigned char)s[i + j]) ==
		    (unsigned char)needle[j]; j++)
			;
		if (j == k)
			return s + i;
	}
	return NULL;
}

/* Whether code point c reads as a blank between words: ASCII controls
 * and space, DEL, the C1 controls, no-break space, and Unicode's spaces.
 * ASCII, most of any text, is settled by the first test. */
static inline int
chars_space_cp(uint32_t c)
{
	if (c < 0x7f)
		return c <= 0x20;
	return c <= 0xa0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200a) ||
	    c == 0x2028 || c == 0x2029 || c == 0x202f || c == 0x205f ||
	    c == 0x3000;
}

/* The value of hex digit c, or -1. */
static inline int
chars_hex_value(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * Decode one character from s (n > 0 bytes left) into *cp; returns the
 * bytes used. A malformed, overlong, surrogate or out-of-range sequence
 * yields U+FFFD for its first byte only, so decoding resynchronises.
 */
static inline size_t
chars_utf8_decode(const unsigned char *s, size_t n, uint32_t *cp)
{
	uint32_t c = s[0], min;
	size_t len, i;

	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xc2 && c <= 0xdf) {
		len = 2;
		c &= 0x1f;
		min = 0x80;
	} else if (c >= 0xe0 && c <= 0xef) {
		len = 3;
		c &= 0x0f;
		min = 0x800;
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4;
		c &= 0x07;
		min = 0x10000;
	} else {
		goto bad;
	}
	if (len > n)
		goto bad;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			goto bad;
		c = (c << 6) | (s[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		goto bad;
	*cp = c;
	return len;
bad:
	*cp = 0xfffd;
	return 1;
}

/* Encode c (at most U+10FFFF, no surrogate) into o, 4 bytes of room;
 * returns the bytes written. */
static inline size_t
chars_utf8_encode(uint32_t c, unsigned char *o)
{
	if (c < 0x80) {
		o[0] = (unsigned char)c;
		return 1;
	}
	if (c < 0x800) {
		o[0] = (unsigned char)(0xc0 | (c >> 6));
		o[1] = (unsigned char)(0x80 | (c & 0x3f));
		return 2;
	}
	if (c < 0x10000) {
		o[0] = (unsigned char)(0xe0 | (c >> 12));
		o[1] = (unsigned char)(0x80 | ((c >> 6) & 0x3f));
		o[2] = (unsigned char)(0x80 | (c & 0x3f));
		return 3;
	}
	o[0] = (unsigned char)(0xf0 | (c >> 18));
	o[1] = (unsigned char)(0x80 | ((c >> 12) & 0x3f));
	o[2] = (unsigned char)(0x80 | ((c >> 6) & 0x3f));
	o[3] = (unsigned char)(0x80 | (c & 0x3f));
	return 4;
}

/*
 * Copy n bytes of src to dst with every line break read as a space: how
 * MD5 and ssdeep read a text whose blocks are lines, so their digests are
 * those of the earlier one-line text.
 */
static inline void
chars_lines_as_spaces(char *dst, const char *src, size_t n)
{
	size_t k;

	for (k = 0; k < n; k++)
		dst[k] = src[k] == '\n' ? ' ' : src[k];
}

#endif
