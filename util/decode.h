/*
 * decode: undo an HTTP content-coding (gzip, x-gzip, deflate, br) as the
 * bytes arrive, into a capped buffer.
 *
 * Who needs it: a crawl that keeps its pages in an archive asks libcurl
 * for the body as the server sent it (so the archive holds the real
 * bytes and their digest), and decodes a copy for extraction itself; the
 * offline dedup of archive files decodes their stored bodies the same
 * way. The output buffer's limit is the cap on the decoded body, so a
 * gzip or brotli bomb ends at the cap like any other oversized body.
 */
#ifndef NC_DECODE_H
#define NC_DECODE_H

#include <stddef.h>

#include "util/buf.h"

enum decode_coding {
	DECODE_IDENTITY, /* no coding, or "identity" */
	DECODE_GZIP,     /* gzip, x-gzip (also takes zlib-wrapped data) */
	DECODE_DEFLATE,  /* deflate: zlib-wrapped, or raw as some servers
	                    send it */
	DECODE_BROTLI,   /* br (RFC 7932), as browsers and wget ask for */
	DECODE_UNKNOWN   /* a coding this module cannot undo */
};

/* Results of decode_feed and decode_end, besides BUF_OK / BUF_NOMEM /
 * BUF_FULL (the cap, from util/buf.h). */
#define DECODE_BAD (-10)   /* the data is not valid in its coding */
#define DECODE_SHORT (-11) /* decode_end: the stream stopped midway */

struct decode_state;

/*
 * The coding named by a Content-Encoding value (NULL: identity). A list
 * of codings ("gzip, br") is DECODE_UNKNOWN unless all but one are
 * identity.
 */
enum decode_coding decode_coding_of(const char *content_encoding);

/* A decoder for coding (not DECODE_UNKNOWN), or NULL when out of memory.
 * Free with decode_free. */
struct decode_state *decode_new(enum decode_coding coding);

/*
 * Decode n more bytes of p into out (appended, up to out->limit).
 * Returns BUF_OK; BUF_FULL when the decoded bytes would pass out's limit
 * (out then holds the bytes up to it); BUF_NOMEM; DECODE_BAD. After a
 * failure, further calls return the same failure. Bytes after the end of
 * the coded stream (a second gzip member is read as a continuation, as
 * browsers do) are ignored.
 */
int decode_feed(
    struct decode_state *d, const void *p, size_t n, struct buf *out);

/* All bytes fed: BUF_OK when the coded stream ended properly, or when
 * it is identity; DECODE_SHORT when it stopped midway; an earlier
 * failure again. */
int decode_end(struct decode_state *d);

/* Free d; NULL is fine. */
void decode_free(struct decode_state *d);

/*
 * Decode a whole body of coding into out in one go: decode_new, feed,
 * end, free. Same results; DECODE_BAD for DECODE_UNKNOWN.
 */
int decode_all(
    enum decode_coding coding, const void *p, size_t n, struct buf *out);

#endif
