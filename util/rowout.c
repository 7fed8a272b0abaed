/*
 * rowout: rows written for other programs to read -- CSV fields (RFC
 * 4180) and JSON strings -- from text that may not be valid UTF-8 (page
 * titles, URLs, database values): what is not valid UTF-8 becomes U+FFFD,
 * so that a strict reader (Python's csv and json, jq) never chokes on a
 * row. Used by `nearcrawl export` and `nearcrawl search`.
 */
#include "util/rowout.h"

#include <stdint.h>
#include <string.h>

/*
 * The length of the valid UTF-8 sequence at s (n bytes left), or 0 when
 * the bytes there are not one: overlong forms, surrogates and code points
 * past U+10FFFF are not.
 */
static size_t
utf8_len(const unsigned char *s, size_t n)
{
	size_t len, i;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (n < len)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (len == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return len;
}

static const char REPLACEMENT[] = "\xef\xbf\xbd"; /* U+FFFD */

/* s as valid UTF-8, nothing escaped (inside a quoted CSV field, with
 * quotes doubled when quote is set). */
void
rowout_utf8(FILE *out, const char *str, int quote)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n = strlen(str), k;

	while (n > 0) {
		if ((k = utf8_len(s, n)) == 0) {
			fputs(REPLACEMENT, out);
			s++;
			n--;
			continue;
		}
		if (quote && *s == '"')
			putc('"', out);
		fwrite(s, 1, k, out);
		s += k;
		n -= k;
	}
}

/* One CSV field (NULL: empty), quoted when RFC 4180 needs it. */
void
rowout_csv_field(FILE *out, const char *s, int first)
{
	int quote;

	if (!first)
		putc(',', out);
	if (s == NULL)
		return;
	quote = strpbrk(s, ",\"\r\n") != NULL;
	if (quote)
		putc('"', out);
	rowout_utf8(out, s, quote);
	if (quote)
		putc('"', out);
}

/* A JSON string (NULL: null): valid UTF-8, quotes, backslashes and
 * control characters escaped. */
void
rowout_json_str(FILE *out, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n, k;

	if (str == NULL) {
		fputs("null", out);
		return;
	}
	n = strlen(str);
	putc('"', out);
	while (n > 0) {
		if ((k = utf8_len(s, n)) == 0) {
			fputs("\\ufffd", out);
			k = 1;
		} else if (*s == '"' || *s == '\\') {
			putc('\\', out);
			putc(*s, out);
		} else if (*s == '\n') {
			fputs("\\n", out);
		} else if (*s == '\r') {
			fputs("\\r", out);
		} else if (*s == '\t') {
			fputs("\\t", out);
		} else if (*s < 0x20 || *s == 0x7f) {
			fprintf(out, "\\u%04x", *s);
		} else {
			fwrite(s, 1, k, out);
		}
		s += k;
		n -= k;
	}
	putc('"', out);
}

/* A JSON member: ,"name": then the caller writes the value. */
void
rowout_json_key(FILE *out, const char *name, int first)
{
	fprintf(out, "%s\"%s\":", first ? "{" : ",", name);
}
