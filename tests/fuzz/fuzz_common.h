/*
 * fuzz_common: helpers shared by the libFuzzer targets in tests/fuzz/.
 * Header-only (every function static) so each target is one .c file.
 */
#ifndef NC_FUZZ_COMMON_H
#define NC_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Report a broken property and abort, so libFuzzer saves the input. */
#define FUZZ_CHECK(cond, ...)                                          \
	do {                                                           \
		if (!(cond)) {                                         \
			fprintf(stderr, "fuzz check failed: %s (%s:%d): ", \
			    #cond, __FILE__, __LINE__);                \
			fprintf(stderr, __VA_ARGS__);                  \
			fputc('\n', stderr);                           \
			abort();                                       \
		}                                                      \
	} while (0)

/*
 * Whether s[0..n) is valid UTF-8 (RFC 3629: shortest forms only, no
 * surrogates, nothing above U+10FFFF). Written here rather than borrowed
 * from the module under test, so the check is independent of it.
 */
static inline int
fuzz_utf8_valid(const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0;

	while (i < n) {
		unsigned c = s[i], need, cp, min, k;

		if (c < 0x80) {
			i++;
			continue;
		}
		if (c >= 0xc2 && c <= 0xdf) {
			need = 1;
			cp = c & 0x1f;
			min = 0x80;
		} else if (c >= 0xe0 && c <= 0xef) {
			need = 2;
			cp = c & 0x0f;
			min = 0x800;
		} else if (c >= 0xf0 && c <= 0xf4) {
			need = 3;
			cp = c & 0x07;
			min = 0x10000;
		} else {
			return 0;
		}
		if (n - i <= need)
			return 0;
		for (k = 1; k <= need; k++) {
			if ((s[i + k] & 0xc0) != 0x80)
				return 0;
			cp = (cp << 6) | (s[i + k] & 0x3f);
		}
		if (cp < min || cp > 0x10ffff ||
		    (cp >= 0xd800 && cp <= 0xdfff))
			return 0;
		i += need + 1;
	}
	return 1;
}

/* A NUL-terminated copy of data[0..n) (embedded NULs kept); aborts on OOM
 * since a fuzzer cannot do anything sensible without memory. */
static inline char *
fuzz_strndup(const uint8_t *data, size_t n)
{
	char *s = malloc(n + 1);

	if (s == NULL)
		abort();
	if (n > 0)
		memcpy(s, data, n);
	s[n] = '\0';
	return s;
}

/*
 * Whether the known issue name is listed in the environment variable
 * FUZZ_SKIP (comma-separated), so that a run can get past a finding that
 * is already reported. Every check is strict by default.
 */
static inline int
fuzz_skip(const char *name)
{
	const char *s = getenv("FUZZ_SKIP");

	return s != NULL && strstr(s, name) != NULL;
}

/* Length of the "scheme://authority" part of URL u. */
static inline size_t
fuzz_authority_len(const char *u)
{
	const char *p = strstr(u, "://");

	if (p == NULL)
		return 0;
	p += 3;
	return (size_t)(p - u) + strcspn(p, "/?#");
}

/* xorshift64*: a small deterministic generator seeded from the input. */
static inline uint64_t
fuzz_rand(uint64_t *state)
{
	uint64_t x = *state ? *state : 0x9e3779b97f4a7c15ULL;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545f4914f6cdd1dULL;
}

#endif
