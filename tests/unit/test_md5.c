#include "check.h"
#include "dedup/md5.h"

static void
test_rfc1321_vectors(void)
{
	static const struct {
		const char *in;
		const char *hex;
	} v[] = {
		{ "", "d41d8cd98f00b204e9800998ecf8427e" },
		{ "a", "0cc175b9c0f1b6a831c399e269772661" },
		{ "abc", "900150983cd24fb0d6963f7d28e17f72" },
		{ "message digest", "f96b697d7cb7938d525a2f31aaf161d0" },
		{ "abcdefghijklmnopqrstuvwxyz",
		    "c3fcd3d76192e4007dfb496cca67e13b" },
		{ "1234567890123456789012345678901234567890"
		  "1234567890123456789012345678901234567890",
		    "57edf4a22be3c955ac49da2e2107b67a" },
	};
	char hex[MD5_HEX_LEN + 1];
	size_t i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		CHECK_INT(md5_of_text(v[i].in, strlen(v[i].in), hex), 0);
		CHECK_STR(hex, v[i].hex);
	}
}

static void
test_embedded_nul_and_null_empty(void)
{
	char hex[MD5_HEX_LEN + 1];

	/* The length counts, not the terminator: "a\0b" is three bytes. */
	CHECK_INT(md5_of_text("a\0b", 3, hex), 0);
	CHECK_STR(hex, "70350f6027bce3713f6b76473084309b");
	CHECK_INT(md5_of_text(NULL, 0, hex), 0);
	CHECK_STR(hex, "d41d8cd98f00b204e9800998ecf8427e");
}

static void
test_line_breaks_read_as_spaces(void)
{
	char a[MD5_HEX_LEN + 1], b[MD5_HEX_LEN + 1];
	static char big[10000];
	size_t i;

	CHECK_INT(md5_of_text("one\ntwo three", 13, a), 0);
	CHECK_INT(md5_of_text("one two three", 13, b), 0);
	CHECK_STR(a, b);
	/* Past the digest's chunk too. */
	for (i = 0; i < sizeof(big); i++)
		big[i] = i % 7 == 6 ? ' ' : 'x';
	CHECK_INT(md5_of_text(big, sizeof(big), b), 0);
	for (i = 6; i < sizeof(big); i += 14)
		big[i] = '\n';
	CHECK_INT(md5_of_text(big, sizeof(big), a), 0);
	CHECK_STR(a, b);
}

void
suite_md5(void)
{
	RUN(test_rfc1321_vectors);
	RUN(test_line_breaks_read_as_spaces);
	RUN(test_embedded_nul_and_null_empty);
}
