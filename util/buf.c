#include "util/buf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* buf_fail_alloc_after's countdown; -1 when off. Per thread: pages are
 * extracted on worker threads, and the countdown is for one page. */
static _Thread_local long fail_countdown = -1;

long
buf_fail_alloc_after(long n)
{
	long left = fail_countdown;

	fail_countdown = n < 0 ? -1 : n;
	return left;
}

void
buf_init(struct buf *b, size_t limit)
{
	b->data = NULL;
	b->len = 0;
	b->alloc = 0;
	b->limit = limit;
}

int
buf_append(struct buf *b, const void *p, size_t n)
{
	size_t need, alloc;
	char *nd;

	if (n > b->limit - b->len)
		return BUF_FULL;
	need = b->len + n + 1;
	if (need > b->alloc) {
		if (fail_countdown >= 0 && fail_countdown-- == 0)
			return BUF_NOMEM;
		alloc = b->alloc ? b->alloc : 256;
		while (alloc < need)
			alloc *= 2;
		nd = realloc(b->data, alloc);
		if (nd == NULL)
			return BUF_NOMEM;
		b->data = nd;
		b->alloc = alloc;
	}
	if (n > 0)
		memcpy(b->data + b->len, p, n);
	b->len += n;
	b->data[b->len] = '\0';
	return BUF_OK;
}

int
buf_puts(struct buf *b, const char *s)
{
	return buf_append(b, s, strlen(s));
}

int
buf_putc(struct buf *b, char c)
{
	return buf_append(b, &c, 1);
}

int
buf_read_file(struct buf *b, const char *path, int cut)
{
	char chunk[65536];
	size_t n;
	FILE *f;
	int rc = BUF_OK;

	if ((f = fopen(path, "rb")) == NULL)
		return BUF_IOERR;
	while (rc == BUF_OK && (n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
		rc = buf_append(b, chunk, n);
		if (rc == BUF_FULL && cut) {
			rc = buf_append(b, chunk, b->limit - b->len);
			break;
		}
	}
	if (rc == BUF_OK && ferror(f))
		rc = BUF_IOERR;
	fclose(f);
	return rc;
}

void
buf_reset(struct buf *b)
{
	b->len = 0;
	if (b->data != NULL)
		b->data[0] = '\0';
}

char *
buf_steal(struct buf *b)
{
	char *s = b->data;

	if (s == NULL)
		s = strdup("");
	b->data = NULL;
	b->len = 0;
	b->alloc = 0;
	return s;
}

void
buf_free(struct buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = 0;
	b->alloc = 0;
}
