#include "check.h"
#include "util/esc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char out[256];

/* What esc_fputs writes for s. */
static const char *
via_file(const char *s)
{
	static char text[256];
	FILE *f = fmemopen(text, sizeof(text), "w");

	if (f == NULL)
		return "(fmemopen failed)";
	esc_fputs(s, f);
	fclose(f);
	return text;
}

static void
esc_is(const char *in, const char *want)
{
	CHECK_STR(esc_str(in, out, sizeof(out)), want);
	CHECK_STR(via_file(in), want);
}

static void
test_text_kept(void)
{
	esc_is("", "");
	esc_is("http://a.example/x?y=1&z=%1b", "http://a.example/x?y=1&z=%1b");
	/* Any script, a no-break space, the top code point, a backslash. */
	esc_is("Caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x98\x80",
	    "Caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x98\x80");
	esc_is("a\xc2\xa0"
	       "b\xf4\x8f\xbf\xbf",
	    "a\xc2\xa0"
	    "b\xf4\x8f\xbf\xbf");
	esc_is("C:\\dir", "C:\\dir");
}

static void
test_controls_escaped(void)
{
	esc_is("\x1b[31mred\x1b[0m", "\\x1b[31mred\\x1b[0m");
	esc_is("\x1b]0;owned\x07", "\\x1b]0;owned\\x07");
	esc_is("line\nforged: yes\r\t", "line\\x0aforged: yes\\x0d\\x09");
	esc_is("del\x7f", "del\\x7f");
	/* C1 controls, UTF-8 encoded: U+009B is CSI without ESC. */
	esc_is("\xc2\x9b"
	       "2J",
	    "\\xc2\\x9b2J");
	esc_is("\xc2\x80\xc2\x9f", "\\xc2\\x80\\xc2\\x9f");
}

static void
test_invalid_utf8_escaped(void)
{
	esc_is("\x9b"
	       "2J",
	    "\\x9b2J");                                     /* raw 8-bit CSI */
	esc_is("\xc0\xaf", "\\xc0\\xaf");                   /* overlong '/' */
	esc_is("\xe0\x80\xaf", "\\xe0\\x80\\xaf");          /* overlong */
	esc_is("\xed\xa0\x80", "\\xed\\xa0\\x80");          /* a surrogate */
	esc_is("\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80"); /* past U+10FFFF */
	esc_is("\xf5\xff", "\\xf5\\xff");
	/* A character cut short at the end or by ASCII. */
	esc_is("ab\xe6\x97", "ab\\xe6\\x97");
	esc_is("\xe6"
	       "a",
	    "\\xe6a");
}

/* Every byte alone: printable ASCII as itself, anything else escaped. */
static void
test_every_byte(void)
{
	char in[2] = {0, 0}, want[8];
	int c;

	for (c = 1; c < 256; c++) {
		in[0] = (char)c;
		if (c >= 0x20 && c < 0x7f)
			snprintf(want, sizeof(want), "%c", c);
		else
			snprintf(want, sizeof(want), "\\x%02x", c);
		CHECK_STR(esc_str(in, out, sizeof(out)), want);
	}
}

static void
test_cut(void)
{
	char small[8];

	/* Fits exactly, with its NUL. */
	CHECK_STR(esc_str("ab\x1b", small, 7), "ab\\x1b");
	/* One byte short: the escape goes whole, "..." marks the cut. */
	CHECK_STR(esc_str("ab\x1b", small, 6), "ab...");
	CHECK_STR(esc_str("abcdefgh", small, sizeof(small)), "abcd...");
	/* Never half a character. */
	CHECK_STR(esc_str("\xe6\x97\xa5\xe6\x9c\xac", small, 6), "...");
	CHECK_STR(esc_str("\xe6\x97\xa5\xe6\x9c\xac"
	                  "x",
	              small, 7),
	    "\xe6\x97\xa5...");
	CHECK_STR(esc_str("abc", small, 4), "abc");
	CHECK_STR(esc_str("abcd", small, 4), "...");
	CHECK_STR(esc_str("abcd", small, 3), "..");
	CHECK_STR(esc_str("abcd", small, 1), "");
	CHECK_STR(esc_str(NULL, small, sizeof(small)), "");
	small[0] = 'x';
	esc_str("abc", small, 0);
	CHECK(small[0] == 'x');
}

static void
test_next_units(void)
{
	int bad = -1;

	CHECK_INT(esc_next("a", &bad), 1);
	CHECK_INT(bad, 0);
	CHECK_INT(esc_next("\xe6\x97\xa5", &bad), 3);
	CHECK_INT(bad, 0);
	CHECK_INT(esc_next("\xc2\x85", &bad), 2);
	CHECK_INT(bad, 1);
	CHECK_INT(esc_next("\xe6\x97", &bad), 1);
	CHECK_INT(bad, 1);
}

/* What esc_html_fputs writes for s. */
static const char *
via_html(const char *s)
{
	static char text[256];
	FILE *f = fmemopen(text, sizeof(text), "w");

	if (f == NULL)
		return "(fmemopen failed)";
	esc_html_fputs(s, f);
	fclose(f);
	return text;
}

static void
test_html(void)
{
	CHECK_STR(via_html(""), "");
	CHECK_STR(via_html("<script>alert(1)</script>"),
	    "&lt;script&gt;alert(1)&lt;/script&gt;");
	CHECK_STR(via_html("a=\"1\" b='2'"), "a=&quot;1&quot; b=&#39;2&#39;");
	CHECK_STR(via_html("/x?a=1&b=2&amp;"),
	    "/x?a=1&amp;b=2&amp;amp;");
	/* Controls still become \xHH text; other scripts are kept. */
	CHECK_STR(via_html("\x1b[2J<\xc3\xa9>"), "\\x1b[2J&lt;\xc3\xa9&gt;");
	CHECK_STR(via_html("\"><img src=x onerror=alert(1)>"),
	    "&quot;&gt;&lt;img src=x onerror=alert(1)&gt;");
}

void
suite_esc(void)
{
	RUN(test_html);
	RUN(test_text_kept);
	RUN(test_controls_escaped);
	RUN(test_invalid_utf8_escaped);
	RUN(test_every_byte);
	RUN(test_cut);
	RUN(test_next_units);
}
