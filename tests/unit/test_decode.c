/* Tests for util/decode.c: content-codings undone into a capped buffer. */
#include "check.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "util/decode.h"

/* Compress n bytes of p with windowBits wb (31 gzip, 15 zlib, -15 raw)
 * into a malloc'd buffer; *outn its length. */
static unsigned char *
squeeze(const void *p, size_t n, int wb, size_t *outn)
{
	z_stream z;
	size_t cap = n + n / 10 + 128;
	unsigned char *out = malloc(cap);

	memset(&z, 0, sizeof(z));
	if (out == NULL ||
	    deflateInit2(&z, 6, Z_DEFLATED, wb, 8, Z_DEFAULT_STRATEGY) !=
	        Z_OK) {
		free(out);
		return NULL;
	}
	z.next_in = (Bytef *)(uintptr_t)p;
	z.avail_in = (uInt)n;
	z.next_out = out;
	z.avail_out = (uInt)cap;
	deflate(&z, Z_FINISH);
	*outn = cap - z.avail_out;
	deflateEnd(&z);
	return out;
}

static void
test_coding_names(void)
{
	CHECK_INT(decode_coding_of(NULL), DECODE_IDENTITY);
	CHECK_INT(decode_coding_of("identity"), DECODE_IDENTITY);
	CHECK_INT(decode_coding_of("gzip"), DECODE_GZIP);
	CHECK_INT(decode_coding_of("X-GZIP"), DECODE_GZIP);
	CHECK_INT(decode_coding_of(" deflate "), DECODE_DEFLATE);
	CHECK_INT(decode_coding_of("br"), DECODE_UNKNOWN);
	CHECK_INT(decode_coding_of("gzip, br"), DECODE_UNKNOWN);
	CHECK_INT(decode_coding_of("gzip, gzip"), DECODE_UNKNOWN);
	CHECK_INT(decode_coding_of("identity, gzip"), DECODE_GZIP);
}

/* Every coding, fed whole and one byte at a time, gives the text back. */
static void
test_round_trips(void)
{
	static const int wbs[] = {31, 15, -15};
	static const enum decode_coding codings[] = {
	    DECODE_GZIP, DECODE_DEFLATE, DECODE_DEFLATE};
	char text[5000];
	unsigned char *z;
	struct decode_state *d;
	struct buf out;
	size_t i, k, zn = 0;

	for (i = 0; i < sizeof(text); i++)
		text[i] = (char)('a' + (i * 7 + i / 13) % 26);
	for (k = 0; k < 3; k++) {
		z = squeeze(text, sizeof(text), wbs[k], &zn);
		CHECK(z != NULL);
		if (z == NULL)
			return;
		buf_init(&out, 1 << 20);
		CHECK_INT(decode_all(codings[k], z, zn, &out), BUF_OK);
		CHECK_INT(out.len, sizeof(text));
		CHECK(out.len == sizeof(text) &&
		    memcmp(out.data, text, sizeof(text)) == 0);
		buf_free(&out);
		/* A byte at a time: the raw-deflate guess still holds after
		 * the first two bytes. */
		d = decode_new(codings[k]);
		CHECK(d != NULL);
		for (i = 0; d != NULL && i < zn; i += (i == 0 ? 2 : 1))
			CHECK_INT(decode_feed(d, z + i, i == 0 ? 2 : 1, &out),
			    BUF_OK);
		if (d != NULL)
			CHECK_INT(decode_end(d), BUF_OK);
		CHECK_INT(out.len, sizeof(text));
		decode_free(d);
		buf_free(&out);
		free(z);
	}
}

/* A bomb stops at the cap with the bytes up to it. */
static void
test_cap(void)
{
	size_t n = 4 << 20, zn = 0;
	char *zeros = calloc(1, n);
	unsigned char *z = zeros != NULL ? squeeze(zeros, n, 31, &zn) : NULL;
	struct buf out;

	CHECK(z != NULL);
	if (z != NULL) {
		CHECK(zn < n / 100);
		buf_init(&out, 100000);
		CHECK_INT(decode_all(DECODE_GZIP, z, zn, &out), BUF_FULL);
		CHECK_INT(out.len, 100000);
		buf_free(&out);
	}
	free(z);
	free(zeros);
}

/* Bad data, a stream cut short, and what follows a failure. */
static void
test_bad(void)
{
	const char text[] = "hello hello hello hello hello";
	unsigned char *z;
	struct decode_state *d;
	struct buf out;
	size_t zn = 0;

	buf_init(&out, 4096);
	CHECK_INT(
	    decode_all(DECODE_GZIP, "not gzip at all", 15, &out), DECODE_BAD);
	CHECK_INT(decode_all(DECODE_UNKNOWN, "x", 1, &out), DECODE_BAD);
	buf_reset(&out);
	z = squeeze(text, sizeof(text) - 1, 31, &zn);
	CHECK(z != NULL);
	if (z != NULL) {
		CHECK_INT(
		    decode_all(DECODE_GZIP, z, zn - 6, &out), DECODE_SHORT);
		buf_reset(&out);
		/* Corrupt the middle: bad, and bad again after that. */
		z[zn / 2] ^= 0xff;
		z[zn / 2 + 1] ^= 0x55;
		d = decode_new(DECODE_GZIP);
		CHECK(d != NULL);
		if (d != NULL) {
			int rc = decode_feed(d, z, zn, &out);

			CHECK(rc == DECODE_BAD || decode_end(d) != BUF_OK);
			if (rc == DECODE_BAD)
				CHECK_INT(
				    decode_feed(d, "x", 1, &out), DECODE_BAD);
		}
		decode_free(d);
		free(z);
	}
	/* Identity passes bytes through, capped. */
	buf_free(&out);
	buf_init(&out, 5);
	CHECK_INT(decode_all(DECODE_IDENTITY, "abcdefgh", 8, &out), BUF_FULL);
	CHECK_INT(out.len, 5);
	buf_free(&out);
}

/* Two gzip members in a row are one body, as browsers read them. */
static void
test_members(void)
{
	unsigned char *a, *b, *both;
	size_t an = 0, bn = 0;
	struct buf out;

	a = squeeze("first ", 6, 31, &an);
	b = squeeze("second", 6, 31, &bn);
	both = a != NULL && b != NULL ? malloc(an + bn) : NULL;
	CHECK(both != NULL);
	if (both != NULL) {
		memcpy(both, a, an);
		memcpy(both + an, b, bn);
		buf_init(&out, 1024);
		CHECK_INT(decode_all(DECODE_GZIP, both, an + bn, &out), BUF_OK);
		CHECK_STR(out.data, "first second");
		buf_free(&out);
	}
	free(a);
	free(b);
	free(both);
}

void
suite_decode(void)
{
	RUN(test_coding_names);
	RUN(test_round_trips);
	RUN(test_cap);
	RUN(test_bad);
	RUN(test_members);
}
