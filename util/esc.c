#include "util/esc.h"

#include <string.h>

/* Room an escaped byte takes: backslash, x, two hex digits. */
#define ESC_BYTE_LEN 4

size_t
esc_next(const char *s, int *bad)
{
	const unsigned char *p = (const unsigned char *)s;
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n, i;

	*bad = 1;
	if (p[0] < 0x80) {
		*bad = p[0] < 0x20 || p[0] == 0x7f;
		return 1;
	}
	if (p[0] >= 0xc2 && p[0] <= 0xdf) {
		n = 2;
	} else if (p[0] >= 0xe0 && p[0] <= 0xef) {
		n = 3;
		if (p[0] == 0xe0)
			lo = 0xa0; /* shorter forms are overlong */
		else if (p[0] == 0xed)
			hi = 0x9f; /* above are UTF-16 surrogates */
	} else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
		n = 4;
		if (p[0] == 0xf0)
			lo = 0x90;
		else if (p[0] == 0xf4)
			hi = 0x8f; /* above is past U+10FFFF */
	} else {
		return 1;
	}
	/* Stops at the first byte that does not fit, so never past a NUL. */
	if (p[1] < lo || p[1] > hi)
		return 1;
	for (i = 2; i < n; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 1;
	if (p[0] == 0xc2 && p[1] <= 0x9f)
		return 2; /* U+0080..U+009F: a C1 control */
	*bad = 0;
	return n;
}

static void
hex_byte(unsigned char c, char *out)
{
	static const char digits[] = "0123456789abcdef";

	out[0] = '\\';
	out[1] = 'x';
	out[2] = digits[c >> 4];
	out[3] = digits[c & 0xf];
}

/* The n bytes at s, which are no valid UTF-8, each as \xHH. */
static void
put_hex(const char *s, size_t n, FILE *f)
{
	char hex[ESC_BYTE_LEN];
	size_t i;

	for (i = 0; i < n; i++) {
		hex_byte((unsigned char)s[i], hex);
		fwrite(hex, 1, sizeof(hex), f);
	}
}

void
esc_fputq(const char *s, char quote, FILE *f)
{
	size_t n;
	int bad;

	if (s == NULL)
		return;
	for (; *s != '\0'; s += n) {
		n = esc_next(s, &bad);
		if (bad) {
			put_hex(s, n, f);
			continue;
		}
		if (quote != '\0' && *s == quote)
			putc(quote, f);
		fwrite(s, 1, n, f);
	}
}

void
esc_fputs(const char *s, FILE *f)
{
	esc_fputq(s, '\0', f);
}

void
esc_html_fputs(const char *s, FILE *f)
{
	size_t n;
	int bad;

	if (s == NULL)
		return;
	for (; *s != '\0'; s += n) {
		n = esc_next(s, &bad);
		if (bad) {
			put_hex(s, n, f);
			continue;
		}
		switch (*s) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&#39;", f);
			break;
		default:
			fwrite(s, 1, n, f);
		}
	}
}

/* Bytes the escaped form of a unit of n bytes takes. */
static size_t
unit_len(size_t n, int bad)
{
	return bad ? n * ESC_BYTE_LEN : n;
}

char *
esc_str(const char *s, char *out, size_t outsz)
{
	const char *p;
	size_t n, i, o = 0, total = 0, room;
	int bad;

	if (outsz == 0)
		return out;
	if (s == NULL)
		s = "";
	for (p = s; *p != '\0'; p += n) {
		n = esc_next(p, &bad);
		total += unit_len(n, bad);
	}
	/* Whole units only; when cut, keep room for the "...". */
	room = total < outsz ? outsz - 1 : (outsz > 4 ? outsz - 4 : 0);
	for (p = s; *p != '\0'; p += n) {
		n = esc_next(p, &bad);
		if (o + unit_len(n, bad) > room)
			break;
		if (!bad) {
			memcpy(out + o, p, n);
			o += n;
			continue;
		}
		for (i = 0; i < n; i++, o += ESC_BYTE_LEN)
			hex_byte((unsigned char)p[i], out + o);
	}
	if (total >= outsz)
		for (i = 0; i < 3 && o + 1 < outsz; i++)
			out[o++] = '.';
	out[o] = '\0';
	return out;
}
