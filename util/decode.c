#include "util/decode.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <brotli/decode.h>
#include <zlib.h>

/* Bytes decoded per inflate call: the cap check is this coarse. */
#define CHUNK 16384

struct decode_state {
	enum decode_coding coding; /* what is undone */
	z_stream z;                /* inflate state, gzip and deflate */
	BrotliDecoderState *br;    /* the brotli decoder, for br */
	int started;               /* inflateInit2 was called */
	int fed;                   /* any coded bytes seen */
	int raw_tried;             /* deflate: switched to raw deflate */
	int ended;                 /* the coded stream ended */
	int fail;                  /* the first failure, or 0 */
};

/* Whether the token of len bytes at s is name, ignoring case. */
static int
token_is(const char *s, size_t len, const char *name)
{
	return len == strlen(name) && strncasecmp(s, name, len) == 0;
}

enum decode_coding
decode_coding_of(const char *ce)
{
	enum decode_coding found = DECODE_IDENTITY, one;
	const char *s = ce;
	size_t len;

	if (ce == NULL)
		return DECODE_IDENTITY;
	while (*s != '\0') {
		s += strspn(s, " \t,");
		len = strcspn(s, " \t,;");
		if (len == 0)
			break;
		if (token_is(s, len, "identity"))
			one = DECODE_IDENTITY;
		else if (token_is(s, len, "gzip") || token_is(s, len, "x-gzip"))
			one = DECODE_GZIP;
		else if (token_is(s, len, "deflate"))
			one = DECODE_DEFLATE;
		else if (token_is(s, len, "br"))
			one = DECODE_BROTLI;
		else
			return DECODE_UNKNOWN;
		if (one != DECODE_IDENTITY) {
			/* Two real codings: we undo only one. */
			if (found != DECODE_IDENTITY)
				return DECODE_UNKNOWN;
			found = one;
		}
		s += len;
		s += strcspn(s, ","); /* parameters are not ours */
	}
	return found;
}

static int
start(struct decode_state *d, int window_bits)
{
	memset(&d->z, 0, sizeof(d->z));
	if (inflateInit2(&d->z, window_bits) != Z_OK)
		return BUF_NOMEM;
	d->started = 1;
	return BUF_OK;
}

struct decode_state *
decode_new(enum decode_coding coding)
{
	struct decode_state *d;

	if (coding == DECODE_UNKNOWN || (d = calloc(1, sizeof(*d))) == NULL)
		return NULL;
	d->coding = coding;
	if (coding == DECODE_IDENTITY)
		return d;
	if (coding == DECODE_BROTLI) {
		/* libbrotli's own allocator: malloc, as everything here. */
		if ((d->br = BrotliDecoderCreateInstance(NULL, NULL, NULL)) ==
		    NULL) {
			free(d);
			return NULL;
		}
		return d;
	}
	/* gzip: 15 + 32 reads a gzip or a zlib header; deflate: zlib's. */
	if (start(d, coding == DECODE_GZIP ? 15 + 32 : 15) != BUF_OK) {
		free(d);
		return NULL;
	}
	return d;
}

/* Append the have bytes decoded into tmp to out: BUF_OK, or BUF_FULL
 * with out filled to its limit, or BUF_NOMEM. */
static int
put(struct buf *out, const unsigned char *tmp, size_t have)
{
	int rc;

	if (have == 0 || (rc = buf_append(out, tmp, have)) == BUF_OK)
		return BUF_OK;
	if (rc == BUF_FULL && out->len < out->limit)
		buf_append(out, tmp, out->limit - out->len);
	return rc;
}

/* Inflate what d->z holds into out until input or output runs out. */
static int
pump(struct decode_state *d, struct buf *out)
{
	unsigned char tmp[CHUNK];
	int zr, rc;

	do {
		d->z.next_out = tmp;
		d->z.avail_out = sizeof(tmp);
		zr = inflate(&d->z, Z_NO_FLUSH);
		if (zr == Z_DATA_ERROR && d->coding == DECODE_DEFLATE &&
		    !d->raw_tried && d->z.total_out == 0 &&
		    d->z.total_in <= 2) {
			return DECODE_SHORT; /* caller retries as raw */
		}
		if (zr != Z_OK && zr != Z_STREAM_END && zr != Z_BUF_ERROR)
			return zr == Z_MEM_ERROR ? BUF_NOMEM : DECODE_BAD;
		if ((rc = put(out, tmp, sizeof(tmp) - d->z.avail_out)) !=
		    BUF_OK)
			return rc;
		if (zr == Z_STREAM_END) {
			/* Another gzip member may follow; anything else
			 * after the stream is left alone. */
			if (d->coding == DECODE_GZIP && d->z.avail_in >= 2 &&
			    d->z.next_in[0] == 0x1f &&
			    d->z.next_in[1] == 0x8b) {
				if (inflateReset(&d->z) != Z_OK)
					return DECODE_BAD;
				continue;
			}
			d->ended = 1;
			d->z.avail_in = 0;
			return BUF_OK;
		}
	} while (d->z.avail_in > 0 || d->z.avail_out == 0);
	return BUF_OK;
}

/*
 * Brotli: decode n bytes of in into out, CHUNK bytes at a time, so that a
 * bomb stops at out's limit having made no more than CHUNK bytes past it.
 */
static int
pump_brotli(struct decode_state *d, const unsigned char *in, size_t n,
    struct buf *out)
{
	unsigned char tmp[CHUNK], *next_out;
	size_t avail_out;
	BrotliDecoderResult res;
	int rc;

	for (;;) {
		next_out = tmp;
		avail_out = sizeof(tmp);
		res = BrotliDecoderDecompressStream(
		    d->br, &n, &in, &avail_out, &next_out, NULL);
		if (res == BROTLI_DECODER_RESULT_ERROR)
			return DECODE_BAD;
		if ((rc = put(out, tmp, sizeof(tmp) - avail_out)) != BUF_OK)
			return rc;
		if (res == BROTLI_DECODER_RESULT_SUCCESS) {
			/* Bytes after the stream are left alone. */
			d->ended = 1;
			return BUF_OK;
		}
		if (res == BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT)
			return BUF_OK;
	}
}

int
decode_feed(struct decode_state *d, const void *p, size_t n, struct buf *out)
{
	const unsigned char *in = p;
	int rc;

	if (d->fail != 0)
		return d->fail;
	if (d->coding == DECODE_IDENTITY)
		return d->fail = put(out, in, n);
	if (d->ended || n == 0)
		return BUF_OK;
	if (d->coding == DECODE_BROTLI) {
		d->fed = 1;
		if ((rc = pump_brotli(d, in, n, out)) != BUF_OK)
			d->fail = rc;
		return rc;
	}
	while (n > 0) {
		/* zlib counts in uInt: feed at most 1 GiB at a time. */
		uInt take = n > (1u << 30) ? (1u << 30) : (uInt)n;

		d->z.next_in = (Bytef *)(uintptr_t)in;
		d->z.avail_in = take;
		rc = pump(d, out);
		if (rc == DECODE_SHORT) {
			/* "deflate" without its zlib header, as many servers
			 * send it: start again as raw deflate. */
			inflateEnd(&d->z);
			d->started = 0;
			d->raw_tried = 1;
			if ((rc = start(d, -15)) != BUF_OK)
				return d->fail = rc;
			continue;
		}
		if (rc != BUF_OK)
			return d->fail = rc;
		in += take;
		n -= take;
		d->fed = 1;
		if (d->ended)
			break;
	}
	return BUF_OK;
}

int
decode_end(struct decode_state *d)
{
	if (d->fail != 0)
		return d->fail;
	if (d->coding == DECODE_IDENTITY || d->ended)
		return BUF_OK;
	return DECODE_SHORT;
}

void
decode_free(struct decode_state *d)
{
	if (d == NULL)
		return;
	if (d->started)
		inflateEnd(&d->z);
	if (d->br != NULL)
		BrotliDecoderDestroyInstance(d->br);
	free(d);
}

int
decode_all(enum decode_coding coding, const void *p, size_t n, struct buf *out)
{
	struct decode_state *d;
	int rc;

	if (coding == DECODE_UNKNOWN)
		return DECODE_BAD;
	if ((d = decode_new(coding)) == NULL)
		return BUF_NOMEM;
	if ((rc = decode_feed(d, p, n, out)) == BUF_OK)
		rc = decode_end(d);
	decode_free(d);
	return rc;
}
