/*
 * warc_int: what warc_record.c shares with the writer (warc_writer.c) and
 * the reader (warcread_rec.c); not for other layers.
 */
#ifndef NC_WARC_INT_H
#define NC_WARC_INT_H

#include <stddef.h>

#include <zlib.h>

#include "archive/warc.h"

struct buf;

/* One piece of what a gzip member is made of. */
struct warc_part {
	const void *p; /* bytes, may be NULL when n is 0 */
	size_t n;      /* how many */
};

/*
 * The base32 text of a 20-byte SHA-1 after "sha1:", as warc_sha1_of
 * writes it.
 */
void warc_sha1_text(const unsigned char md[20], char out[WARC_DIGEST_LEN]);

/*
 * Check r (type present; names and values without CR or LF, names
 * without ':' or blanks; the caps of warc.h). Returns 0, or -1 with a
 * message in err.
 */
int warc_check_record(const struct warc_record *r, char *err, size_t errsz);

/*
 * Append r's header (version line to the blank line) to out with the given
 * record ID, date and block digest. Returns 0, or -1 with err (out full
 * or out of memory).
 */
int warc_header_text(const struct warc_record *r, const char *id,
    const char *date, const char *digest, struct buf *out, char *err,
    size_t errsz);

/*
 * Give r a new WARC-Record-ID (r->id) and find its block digest, and its
 * date (now) when r->date is NULL. Returns 0, or -1 with err (no random
 * bytes, out of memory).
 */
int warc_prepare(struct warc_record *r, char date[WARC_DATE_LEN],
    char digest[WARC_DIGEST_LEN], char *err, size_t errsz);

/*
 * Compress the parts, in order, into one gzip member appended to out,
 * using zs (set up by deflateInit2 with windowBits 15 + 16; reset here).
 * Returns 0, or -1 with err (zlib failed, out full, out of memory).
 */
int warc_deflate(z_stream *zs, const struct warc_part *parts, size_t nparts,
    struct buf *out, char *err, size_t errsz);

/* ASCII case-insensitive equality of two NUL-terminated strings. */
int warc_caseeq(const char *a, const char *b);

#endif
