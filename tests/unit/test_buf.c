#include "buf.h"
#include "check.h"

#include <stdlib.h>

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

void
suite_buf(void)
{
	RUN(test_append_and_limit);
	RUN(test_steal_empty);
}
