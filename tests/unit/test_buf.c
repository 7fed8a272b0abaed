#include "util/buf.h"
#include "check.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void
test_append_and_limit(void)
{
	struct buf b;
	char *s;

	buf_init(&b, 8);
	CHECK_INT(buf_puts(&b, "abc"), BUF_OK);
	CHECK_INT(buf_puts(&b, "defgh"), BUF_OK);
	CHECK_INT(b.len, 8);
	CHECK_INT(buf_putc(&b, 'x'), BUF_FULL);
	CHECK_STR(b.data, "abcdefgh");
	s = buf_steal(&b);
	CHECK_STR(s, "abcdefgh");
	CHECK(b.data == NULL && b.len == 0);
	free(s);
	buf_free(&b);
}

static void
test_steal_empty(void)
{
	struct buf b;
	char *s;

	buf_init(&b, 4);
	s = buf_steal(&b);
	CHECK_STR(s, "");
	free(s);
	CHECK_INT(buf_append(&b, "12345", 5), BUF_FULL);
	CHECK(b.data == NULL);
	buf_reset(&b);
	buf_free(&b);
}

static void
test_read_file(void)
{
	char path[] = "/tmp/nc-buf.XXXXXX";
	struct buf b;
	FILE *f;
	int fd = mkstemp(path);

	CHECK(fd >= 0);
	if (fd < 0)
		return;
	f = fdopen(fd, "w");
	fputs("0123456789", f);
	fclose(f);
	buf_init(&b, 100);
	CHECK_INT(buf_read_file(&b, path, 0), BUF_OK);
	CHECK_STR(b.data, "0123456789");
	buf_free(&b);
	buf_init(&b, 4);
	CHECK_INT(buf_read_file(&b, path, 0), BUF_FULL);
	CHECK_INT(b.len, 0);
	CHECK_INT(buf_read_file(&b, path, 1), BUF_OK);
	CHECK_STR(b.data, "0123");
	buf_free(&b);
	unlink(path);
	CHECK_INT(buf_read_file(&b, path, 1), BUF_IOERR);
}

void
suite_buf(void)
{
	RUN(test_append_and_limit);
	RUN(test_steal_empty);
	RUN(test_read_file);
}
