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
	CHECK_INT(decode_coding_of("br"), DECODE_BROTLI);
	CHECK_INT(decode_coding_of(" BR "), DECODE_BROTLI);
	CHECK_INT(decode_coding_of("zstd"), DECODE_UNKNOWN);
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

/* A small page, brotli-coded (made once with libbrotlienc, quality 11). */
static const unsigned char br_hello[48] = {
	0x1b, 0x35, 0x00, 0xf8, 0xc5, 0xce, 0xd6, 0x95, 0x24, 0x24, 0x42, 0xb9,
	0x5d, 0x0b, 0x12, 0x1b, 0x7b, 0xfb, 0x81, 0x0d, 0x38, 0x70, 0x0f, 0x34,
	0xc1, 0x56, 0xba, 0x61, 0x08, 0x05, 0x18, 0x9b, 0x0c, 0xf2, 0xa6, 0x19,
	0x8b, 0xe5, 0x50, 0x6d, 0xfc, 0x77, 0x5d, 0xca, 0x31, 0xf8, 0x52, 0x10,
};

/* 1 MiB of zero bytes in 14 bytes of brotli: a bomb of 75,000:1. */
static const unsigned char br_zeros_1m[14] = {
	0x5b, 0xff, 0xff, 0x8f, 0x7f, 0x02, 0x20, 0x1e, 0x0b, 0x04, 0x72, 0xef,
	0x1f, 0x00,
};

/* Brotli: whole and byte by byte, capped like gzip, bad and cut short. */
static void
test_brotli(void)
{
	const char *want = "<html><body><p>Hello, brotli world.</p></body>"
			   "</html>\n";
	struct decode_state *d;
	unsigned char bad[sizeof(br_hello)];
	struct buf out;
	size_t i;
	int rc = BUF_OK;

	buf_init(&out, 4096);
	CHECK_INT(decode_all(DECODE_BROTLI, br_hello, sizeof(br_hello), &out),
	    BUF_OK);
	CHECK_INT(out.len, strlen(want));
	CHECK(out.len == strlen(want) && memcmp(out.data, want, out.len) == 0);
	buf_reset(&out);
	d = decode_new(DECODE_BROTLI);
	CHECK(d != NULL);
	for (i = 0; d != NULL && i < sizeof(br_hello) && rc == BUF_OK; i++)
		rc = decode_feed(d, br_hello + i, 1, &out);
	CHECK_INT(rc, BUF_OK);
	if (d != NULL)
		CHECK_INT(decode_end(d), BUF_OK);
	decode_free(d);
	CHECK(out.len == strlen(want) && memcmp(out.data, want, out.len) == 0);
	buf_reset(&out);
	CHECK_INT(decode_all(DECODE_BROTLI, br_hello, sizeof(br_hello) - 9,
	    &out), DECODE_SHORT);
	buf_reset(&out);
	memcpy(bad, br_hello, sizeof(bad));
	bad[0] = 0xff;
	bad[1] = 0xff;
	CHECK_INT(decode_all(DECODE_BROTLI, bad, sizeof(bad), &out),
	    DECODE_BAD);
	buf_free(&out);
	/* The bomb ends at the cap, not at 1 MiB. */
	buf_init(&out, 100000);
	CHECK_INT(decode_all(DECODE_BROTLI, br_zeros_1m, sizeof(br_zeros_1m),
	    &out), BUF_FULL);
	CHECK_INT(out.len, 100000);
	CHECK(out.alloc < 200000);
	buf_free(&out);
}

void
suite_decode(void)
{
	RUN(test_coding_names);
	RUN(test_round_trips);
	RUN(test_cap);
	RUN(test_bad);
	RUN(test_members);
	RUN(test_brotli);
}
