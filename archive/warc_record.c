/*
 * warc_record: digests, dates, record IDs and the bytes of one record;
 * the files are in warc_writer.c.
 */
#include "archive/warc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/evp.h>
#include <openssl/rand.h>

#include "archive/warc_int.h"
#include "util/buf.h"
#include "util/clock.h"
#include "util/err.h"

#define WARC_SHA1_LEN 20

/* 9999-12-31T23:59:59Z, the last second a four-digit year can write. */
#define WARC_LAST_SECOND 253402300799.0

struct warc_sha1 {
	EVP_MD_CTX *ctx; /* the OpenSSL digest in progress */
	int failed;      /* an OpenSSL call failed: the result is unusable */
};

static const char warc_b32[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

void
warc_sha1_text(const unsigned char md[WARC_SHA1_LEN], char out[WARC_DIGEST_LEN])
{
	unsigned int acc = 0, bits = 0;
	size_t i, o = 5;

	memcpy(out, "sha1:", 5);
	for (i = 0; i < WARC_SHA1_LEN; i++) {
		acc = (acc << 8) | md[i];
		bits += 8;
		while (bits >= 5) {
			bits -= 5;
			out[o++] = warc_b32[(acc >> bits) & 31];
		}
		acc &= (1u << bits) - 1;
	}
	/* 160 bits are exactly 32 characters: nothing is left in acc. */
	out[o] = '\0';
}

/* The digest of a failed OpenSSL call: no record can match it. */
static void
warc_sha1_failed(char out[WARC_DIGEST_LEN])
{
	memcpy(out, "sha1:", 5);
	memset(out + 5, '?', 32);
	out[37] = '\0';
}

struct warc_sha1 *
warc_sha1_new(void)
{
	struct warc_sha1 *s;

	if ((s = calloc(1, sizeof(*s))) == NULL)
		return NULL;
	if ((s->ctx = EVP_MD_CTX_new()) == NULL) {
		free(s);
		return NULL;
	}
	if (EVP_DigestInit_ex(s->ctx, EVP_sha1(), NULL) != 1)
		s->failed = 1;
	return s;
}

void
warc_sha1_add(struct warc_sha1 *s, const void *p, size_t n)
{
	if (n == 0 || s->failed)
		return;
	if (EVP_DigestUpdate(s->ctx, p, n) != 1)
		s->failed = 1;
}

void
warc_sha1_end(struct warc_sha1 *s, char out[WARC_DIGEST_LEN])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0;

	if (!s->failed && EVP_DigestFinal_ex(s->ctx, md, &mdlen) == 1 &&
	    mdlen == WARC_SHA1_LEN)
		warc_sha1_text(md, out);
	else
		warc_sha1_failed(out);
	warc_sha1_free(s);
}

void
warc_sha1_free(struct warc_sha1 *s)
{
	if (s == NULL)
		return;
	EVP_MD_CTX_free(s->ctx);
	free(s);
}

void
warc_sha1_of(const void *p, size_t n, char out[WARC_DIGEST_LEN])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0;

	if (EVP_Digest(n > 0 ? p : "", n, md, &mdlen, EVP_sha1(), NULL) == 1 &&
	    mdlen == WARC_SHA1_LEN)
		warc_sha1_text(md, out);
	else
		warc_sha1_failed(out);
}

void
warc_date_of(double unix_seconds, char out[WARC_DATE_LEN])
{
	struct tm tm;
	time_t t;

	if (!(unix_seconds >= 0)) /* NaN too */
		unix_seconds = 0;
	if (unix_seconds > WARC_LAST_SECOND)
		unix_seconds = WARC_LAST_SECOND;
	t = (time_t)floor(unix_seconds);
	if (gmtime_r(&t, &tm) == NULL ||
	    strftime(out, WARC_DATE_LEN, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		snprintf(out, WARC_DATE_LEN, "1970-01-01T00:00:00Z");
}

int
warc_new_id(char out[WARC_ID_LEN])
{
	static const char hex[] = "0123456789abcdef";
	unsigned char u[16];
	size_t i, o;

	out[0] = '\0';
	if (RAND_bytes(u, sizeof(u)) != 1)
		return -1;
	u[6] = (unsigned char)((u[6] & 0x0f) | 0x40); /* version 4 */
	u[8] = (unsigned char)((u[8] & 0x3f) | 0x80); /* RFC 4122 variant */
	memcpy(out, "<urn:uuid:", 10);
	o = 10;
	for (i = 0; i < sizeof(u); i++) {
		if (i == 4 || i == 6 || i == 8 || i == 10)
			out[o++] = '-';
		out[o++] = hex[u[i] >> 4];
		out[o++] = hex[u[i] & 15];
	}
	out[o++] = '>';
	out[o] = '\0';
	return 0;
}

int
warc_caseeq(const char *a, const char *b)
{
	unsigned char ca, cb;

	for (;; a++, b++) {
		ca = (unsigned char)*a;
		cb = (unsigned char)*b;
		if (ca >= 'A' && ca <= 'Z')
			ca = (unsigned char)(ca + ('a' - 'A'));
		if (cb >= 'A' && cb <= 'Z')
			cb = (unsigned char)(cb + ('a' - 'A'));
		if (ca != cb)
			return 0;
		if (ca == '\0')
			return 1;
	}
}

/* A field name: one or more bytes, none a control, blank or ':'. */
static int
warc_name_ok(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	if (s == NULL || *p == '\0' || strlen(s) > WARC_MAX_FIELD)
		return 0;
	for (; *p != '\0'; p++)
		if (*p <= 0x20 || *p == 0x7f || *p == ':')
			return 0;
	return 1;
}

/* A field value: no CR or LF (they would end the field), within the cap. */
static int
warc_value_ok(const char *s)
{
	return s != NULL && strlen(s) <= WARC_MAX_FIELD &&
	    strpbrk(s, "\r\n") == NULL;
}

int
warc_check_record(const struct warc_record *r, char *err, size_t errsz)
{
	size_t i;

	if (!warc_name_ok(r->type))
		return err_set(
		    err, errsz, -1, "WARC-Type missing or malformed");
	if (r->target_uri != NULL && !warc_value_ok(r->target_uri))
		return err_set(err, errsz, -1,
		    "WARC-Target-URI holds CR or LF (or is too long)");
	if (r->date != NULL && !warc_value_ok(r->date))
		return err_set(err, errsz, -1,
		    "WARC-Date holds CR or LF (or is too long)");
	if (r->content_type != NULL && !warc_value_ok(r->content_type))
		return err_set(err, errsz, -1,
		    "Content-Type holds CR or LF (or is too long)");
	if (r->nfields > WARC_MAX_FIELDS)
		return err_set(
		    err, errsz, -1, "more than %d fields", WARC_MAX_FIELDS);
	if (r->nfields > 0 && r->fields == NULL)
		return err_set(err, errsz, -1, "fields missing");
	for (i = 0; i < r->nfields; i++) {
		if (!warc_name_ok(r->fields[i].name))
			return err_set(err, errsz, -1,
			    "field %zu: name empty, too long, or holding a "
			    "control character, blank or ':'",
			    i + 1);
		if (!warc_value_ok(r->fields[i].value))
			return err_set(err, errsz, -1,
			    "field %zu: value missing, too long or holding "
			    "CR or LF",
			    i + 1);
	}
	if ((r->head == NULL && r->head_len > 0) ||
	    (r->body == NULL && r->body_len > 0))
		return err_set(err, errsz, -1, "block bytes missing");
	if (r->head_len > WARC_MAX_BLOCK ||
	    r->body_len > WARC_MAX_BLOCK - r->head_len)
		return err_set(
		    err, errsz, -1, "block over %zu bytes", WARC_MAX_BLOCK);
	return 0;
}

/* Append "name: value\r\n"; 0 or a BUF_ code. */
static int
warc_put_field(struct buf *out, const char *name, const char *value)
{
	int rc;

	if ((rc = buf_puts(out, name)) != BUF_OK ||
	    (rc = buf_append(out, ": ", 2)) != BUF_OK ||
	    (rc = buf_puts(out, value)) != BUF_OK)
		return rc;
	return buf_append(out, "\r\n", 2);
}

int
warc_header_text(const struct warc_record *r, const char *id, const char *date,
    const char *digest, struct buf *out, char *err, size_t errsz)
{
	char len[32];
	size_t i, was = out->len;
	int rc;

	snprintf(len, sizeof(len), "%zu", r->head_len + r->body_len);
	rc = buf_puts(out, "WARC/1.1\r\n");
	if (rc == BUF_OK)
		rc = warc_put_field(out, "WARC-Type", r->type);
	if (rc == BUF_OK)
		rc = warc_put_field(out, "WARC-Record-ID", id);
	if (rc == BUF_OK)
		rc = warc_put_field(out, "WARC-Date", date);
	if (rc == BUF_OK && r->target_uri != NULL)
		rc = warc_put_field(out, "WARC-Target-URI", r->target_uri);
	if (rc == BUF_OK && r->content_type != NULL)
		rc = warc_put_field(out, "Content-Type", r->content_type);
	for (i = 0; rc == BUF_OK && i < r->nfields; i++)
		rc = warc_put_field(out, r->fields[i].name, r->fields[i].value);
	if (rc == BUF_OK)
		rc = warc_put_field(out, "WARC-Block-Digest", digest);
	if (rc == BUF_OK)
		rc = warc_put_field(out, "Content-Length", len);
	if (rc == BUF_OK)
		rc = buf_append(out, "\r\n", 2);
	if (rc == BUF_OK)
		return 0;
	out->len = was;
	if (out->data != NULL)
		out->data[was] = '\0';
	return err_set(err, errsz, -1, "record header: %s",
	    rc == BUF_FULL ? "too long" : "out of memory");
}

int
warc_prepare(struct warc_record *r, char date[WARC_DATE_LEN],
    char digest[WARC_DIGEST_LEN], char *err, size_t errsz)
{
	struct warc_sha1 *s;

	if (warc_new_id(r->id) != 0)
		return err_set(
		    err, errsz, -1, "no random bytes for a record ID");
	if (r->date == NULL)
		warc_date_of(clock_wall_s(), date);
	if ((s = warc_sha1_new()) == NULL)
		return err_set(err, errsz, -1, "out of memory");
	warc_sha1_add(s, r->head, r->head_len);
	warc_sha1_add(s, r->body, r->body_len);
	warc_sha1_end(s, digest);
	return 0;
}

int
warc_format(struct warc_record *r, struct buf *out, char *err, size_t errsz)
{
	char date[WARC_DATE_LEN], digest[WARC_DIGEST_LEN];
	size_t was = out->len;
	int rc;

	if (warc_check_record(r, err, errsz) != 0 ||
	    warc_prepare(r, date, digest, err, errsz) != 0)
		return -1;
	if (warc_header_text(r, r->id, r->date != NULL ? r->date : date, digest,
	        out, err, errsz) != 0)
		return -1;
	rc = buf_append(out, r->head, r->head_len);
	if (rc == BUF_OK)
		rc = buf_append(out, r->body, r->body_len);
	if (rc == BUF_OK)
		rc = buf_append(out, "\r\n\r\n", 4);
	if (rc == BUF_OK)
		return 0;
	out->len = was;
	if (out->data != NULL)
		out->data[was] = '\0';
	return err_set(err, errsz, -1, "record: %s",
	    rc == BUF_FULL ? "does not fit" : "out of memory");
}

int
warc_deflate(z_stream *zs, const struct warc_part *parts, size_t nparts,
    struct buf *out, char *err, size_t errsz)
{
	static const unsigned char none[1];
	unsigned char chunk[16384];
	size_t i, was = out->len, piece;
	const unsigned char *p;
	size_t left;
	int flush, zrc, rc = BUF_OK;

	if (nparts == 0 || deflateReset(zs) != Z_OK)
		return err_set(err, errsz, -1, "zlib: cannot reset deflate");
	for (i = 0; i < nparts; i++) {
		p = parts[i].p != NULL ? parts[i].p : none;
		left = parts[i].p != NULL ? parts[i].n : 0;
		do {
			/* avail_in is an unsigned int: feed big parts in
			 * pieces. */
			piece = left > (1u << 30) ? (1u << 30) : left;
			zs->next_in = (unsigned char *)(uintptr_t)p;
			zs->avail_in = (unsigned int)piece;
			p += piece;
			left -= piece;
			flush = (i + 1 == nparts && left == 0) ? Z_FINISH
			                                       : Z_NO_FLUSH;
			do {
				zs->next_out = chunk;
				zs->avail_out = sizeof(chunk);
				zrc = deflate(zs, flush);
				if (zrc == Z_STREAM_ERROR)
					goto fail;
				rc = buf_append(
				    out, chunk, sizeof(chunk) - zs->avail_out);
				if (rc != BUF_OK)
					goto fail;
			} while (zs->avail_out == 0 ||
			    (flush == Z_FINISH && zrc != Z_STREAM_END));
		} while (left > 0);
	}
	return 0;
fail:
	out->len = was;
	if (out->data != NULL)
		out->data[was] = '\0';
	if (rc == BUF_NOMEM)
		return err_set(err, errsz, -1, "out of memory");
	if (rc == BUF_FULL)
		return err_set(err, errsz, -1, "record too large to compress");
	return err_set(err, errsz, -1, "zlib: deflate failed");
}
