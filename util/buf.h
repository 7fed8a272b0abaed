/*
 * buf: a growable byte buffer with a hard size limit set at creation.
 *
 * Every byte stream nearcrawl reads from the network or produces from it
 * (bodies, extracted text, robots.txt) goes through a buf so that no input
 * can make it grow without bound. The data is always NUL-terminated so it can
 * be handed to C string functions; the terminator is not counted in len.
 */
#ifndef NC_BUF_H
#define NC_BUF_H

#include <stddef.h>

struct buf {
	char *data;   /* NUL-terminated contents, NULL until the first append */
	size_t len;   /* bytes stored, terminator excluded */
	size_t alloc; /* bytes allocated for data */
	size_t limit; /* len never exceeds this; appends past it fail */
};

enum { BUF_OK = 0, BUF_NOMEM = -1, BUF_FULL = -2, BUF_IOERR = -3 };

/* Set up an empty buffer that may hold at most limit bytes. Cannot fail. */
void buf_init(struct buf *b, size_t limit);

/*
 * Append n bytes. Returns BUF_OK, BUF_NOMEM when allocation fails, or
 * BUF_FULL when the limit would be exceeded; on failure nothing is appended.
 */
int buf_append(struct buf *b, const void *p, size_t n);

/* Append a NUL-terminated string; same results as buf_append. */
int buf_puts(struct buf *b, const char *s);

/* Append one byte; same results as buf_append. */
int buf_putc(struct buf *b, char c);

/*
 * Append the whole file at path. A file longer than the room left is cut
 * there when cut is non-zero (a parser reads only so much); otherwise that
 * is BUF_FULL. Returns BUF_OK, BUF_NOMEM, BUF_FULL, or BUF_IOERR when the
 * file cannot be opened or read (errno tells why). What was read before a
 * failure stays appended.
 */
int buf_read_file(struct buf *b, const char *path, int cut);

/* Forget the contents but keep the allocation and the limit. */
void buf_reset(struct buf *b);

/*
 * Hand the contents to the caller, who must free() them; returns a pointer to
 * an empty string copy ("") if nothing was stored, or NULL if that copy cannot
 * be allocated. The buffer is left empty and reusable.
 */
char *buf_steal(struct buf *b);

/* Release the memory; the buffer is left empty and reusable. */
void buf_free(struct buf *b);

/*
 * Test hook (util/testhook.h): let n more allocations of any buffer
 * succeed, then fail the next one as if memory had run out (BUF_NOMEM),
 * once; n < 0 turns the hook off. Returns the count left before the call:
 * -1 when the failure has happened or none was set. One process-wide
 * countdown, looked at only when a buffer grows.
 */
long buf_fail_alloc_after(long n);

#endif
