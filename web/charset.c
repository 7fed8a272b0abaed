/*
 * charset: page bytes in whatever charset they came in -> clean UTF-8 for
 * the HTML parser; owns the charset choice (byte-order mark, the
 * Content-Type hint, the <meta> prescan, UTF-8 validity) and the decoders
 * (UTF-8 repair, windows-1252, iconv). See charset.h.
 */
#include "web/charset.h"

#include "util/chars.h"

#include <errno.h>
#include <iconv.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* How far into the page a <meta charset> is looked for. */
#define META_SCAN_MAX 8192

/* ---- UTF-8 ---- */

/*
 * Whether s is valid UTF-8. A sequence cut short by the very end counts as
 * valid: bodies are capped, and a cap must not turn a UTF-8 page into
 * windows-1252.
 */
static int
utf8_valid(const unsigned char *s, size_t n)
{
	size_t i = 0, k, need;
	uint32_t cp;

	while (i < n) {
		k = chars_utf8_decode(s + i, n - i, &cp);
		/* A real U+FFFD takes 3 bytes; 1 byte means it was invalid. */
		if (cp == 0xfffd && k == 1) {
			if (s[i] >= 0xc2 && s[i] <= 0xdf)
				need = 2;
			else if (s[i] >= 0xe0 && s[i] <= 0xef)
				need = 3;
			else if (s[i] >= 0xf0 && s[i] <= 0xf4)
				need = 4;
			else
				return 0;
			if (n - i >= need)
				return 0;
			for (k = i + 1; k < n; k++)
				if ((s[k] & 0xc0) != 0x80)
					return 0;
			return 1;
		}
		i += k;
	}
	return 1;
}

/*
 * The character libxml2 gets in place of c: controls that are not HTML
 * white space become spaces (they carry no text and libxml2 complains
 * about them), and non-characters become U+FFFD.
 */
static uint32_t
clean_cp(uint32_t c)
{
	if ((c < 0x20 && c != '\t' && c != '\n' && c != '\f' && c != '\r') ||
	    (c >= 0x7f && c <= 0x9f))
		return ' ';
	if (c == 0xfffe || c == 0xffff)
		return 0xfffd;
	return c;
}

#define ONES 0x0101010101010101ULL
#define HIGHS 0x8080808080808080ULL

/* The 8 bytes at s as one word (the tests below look at every byte alike,
 * so byte order does not matter). */
static uint64_t
word_at(const unsigned char *s)
{
	uint64_t w;

	memcpy(&w, s, sizeof(w));
	return w;
}

/* Whether each byte of w is printable ASCII (0x20-0x7e): none below 0x20
 * (a borrow sets its top bit), none at 0x7f (one more sets it) or above
 * (its top bit is set). */
static int
all_printable(uint64_t w)
{
	uint64_t below = (w - ONES * 0x20) & ~w & HIGHS;
	uint64_t above = ((w + ONES) | w) & HIGHS;

	return (below | above) == 0;
}

/* Copy UTF-8 (maybe invalid) to a fresh buffer, repaired; NULL on no memory. */
static unsigned char *
sanitize(const unsigned char *s, size_t n, size_t *outlen)
{
	unsigned char *out, enc[4];
	size_t i = 0, o = 0, k;
	uint32_t cp;

	if (n > (SIZE_MAX - 1) / 3)
		return NULL;
	/* Size the copy first: allocating three times the input (the worst
	 * case) made every large page a fresh mapping of the kernel's. */
	while (i < n) {
		/* ASCII, eight bytes at a time. */
		if (i + 8 <= n && (word_at(s + i) & HIGHS) == 0) {
			o += 8;
			i += 8;
			continue;
		}
		if (s[i] < 0x80) {
			o++;
			i++;
			continue;
		}
		i += chars_utf8_decode(s + i, n - i, &cp);
		o += chars_utf8_encode(clean_cp(cp), enc);
	}
	out = malloc(o + 1);
	if (out == NULL)
		return NULL;
	i = o = 0;
	while (i < n) {
		/* Most of a page is printable ASCII or HTML white space, which
		 * passes through unchanged: found a run at a time, copied at
		 * once. */
		for (k = i; k < n;) {
			if (k + 8 <= n && all_printable(word_at(s + k)))
				k += 8;
			else if ((unsigned char)(s[k] - 0x20) < 0x5f ||
			    chars_html_space(s[k]))
				k++;
			else
				break;
		}
		memcpy(out + o, s + i, k - i);
		o += k - i;
		if ((i = k) == n)
			break;
		i += chars_utf8_decode(s + i, n - i, &cp);
		o += chars_utf8_encode(clean_cp(cp), out + o);
	}
	out[o] = '\0';
	*outlen = o;
	return out;
}

/* windows-1252 bytes 0x80..0x9f; the five holes map to C1 as in WHATWG. */
static const uint16_t cp1252_hi[32] = {
	0x20ac, 0x0081, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021,
	0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008d, 0x017d, 0x008f,
	0x0090, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014,
	0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0x009d, 0x017e, 0x0178,
};

static unsigned char *
from_cp1252(const unsigned char *s, size_t n, size_t *outlen)
{
	unsigned char *out;
	size_t i, o = 0;
	uint32_t cp;

	if (n > (SIZE_MAX - 1) / 3)
		return NULL;
	out = malloc(3 * n + 1);
	if (out == NULL)
		return NULL;
	for (i = 0; i < n; i++) {
		cp = s[i];
		if (cp >= 0x80 && cp <= 0x9f)
			cp = cp1252_hi[cp - 0x80];
		o += chars_utf8_encode(clean_cp(cp), out + o);
	}
	out[o] = '\0';
	*outlen = o;
	return out;
}

/*
 * Convert with iconv, each undecodable byte becoming U+FFFD. Returns NULL
 * on no memory or when the converter cannot be opened.
 */
static unsigned char *
from_iconv(const char *charset, const unsigned char *s, size_t n,
    size_t *outlen)
{
	static const char repl[] = "\xef\xbf\xbd";
	iconv_t cd;
	char *in = (char *)(uintptr_t)s, *tmp = NULL, *op;
	size_t inleft = n, outleft, cap, got, unit;
	unsigned char *out = NULL;

	/* No charset makes more than 4 bytes of UTF-8 from 1 input byte. */
	if (n > (SIZE_MAX - 16) / 4)
		return NULL;
	cap = 4 * n + 16;
	/* Skipping a bad byte of UTF-16 would misalign the rest. */
	unit = strncmp(charset, "utf-16", 6) == 0 ? 2 : 1;
	cd = iconv_open("UTF-8", charset);
	if (cd == (iconv_t)-1)
		return NULL;
	tmp = malloc(cap);
	if (tmp == NULL)
		goto fail;
	op = tmp;
	outleft = cap;
	while (inleft > 0) {
		if (iconv(cd, &in, &inleft, &op, &outleft) != (size_t)-1)
			break;
		if ((errno != EILSEQ && errno != EINVAL) || outleft < 3)
			break;
		memcpy(op, repl, 3);
		op += 3;
		outleft -= 3;
		if (errno == EINVAL)
			break;
		if (inleft < unit)
			break;
		in += unit;
		inleft -= unit;
	}
	iconv(cd, NULL, NULL, &op, &outleft);
	got = (size_t)(op - tmp);
	out = sanitize((unsigned char *)tmp, got, outlen);
fail:
	free(tmp);
	iconv_close(cd);
	return out;
}

/* ---- charset choice ---- */

enum cs_kind { CS_NONE, CS_UTF8, CS_1252, CS_ICONV };

static int
label_in(const char *label, const char *const *list)
{
	for (; *list != NULL; list++)
		if (strcmp(label, *list) == 0)
			return 1;
	return 0;
}

/*
 * Map a charset label (from a header or a meta tag) to the decoder to use
 * and its canonical name in out. Returns CS_NONE for labels we cannot use.
 */
static enum cs_kind
charset_from_label(const char *label, size_t n, int from_meta, char *out,
    size_t outsz)
{
	static const char *const utf8[] = { "utf-8", "utf8",
		"unicode-1-1-utf-8", "unicode11utf8", "unicode20utf8",
		"x-unicode20utf8", NULL };
	static const char *const latin[] = { "windows-1252", "cp1252",
		"x-cp1252", "iso-8859-1", "iso8859-1", "iso_8859-1",
		"iso88591", "iso_8859-1:1987", "latin1", "l1", "us-ascii",
		"ascii", "ansi_x3.4-1968", "cp819", "ibm819", "iso-ir-100",
		"csisolatin1", NULL };
	static const char *const gb[] = { "gb18030", "gbk", "x-gbk", "gb2312",
		"gb_2312", "gb_2312-80", "chinese", "csgb2312", "iso-ir-58",
		NULL };
	static const char *const u16le[] = { "utf-16", "utf-16le", NULL };
	char name[32];
	size_t i, k = 0;
	iconv_t cd;

	while (n > 0 && (*label == ' ' || *label == '\t' || *label == '"' ||
	    *label == '\'')) {
		label++;
		n--;
	}
	while (n > 0 && (label[n - 1] == ' ' || label[n - 1] == '\t' ||
	    label[n - 1] == '"' || label[n - 1] == '\'' ||
	    label[n - 1] == ';'))
		n--;
	if (n == 0 || n >= sizeof(name))
		return CS_NONE;
	for (i = 0; i < n; i++) {
		char c = (char)chars_ascii_lower((unsigned char)label[i]);

		if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
		    c == '-' || c == '_' || c == '.' || c == ':'))
			return CS_NONE;
		name[k++] = c;
	}
	name[k] = '\0';
	if (label_in(name, utf8) || (from_meta && strncmp(name, "utf-16",
	    6) == 0)) {
		/* A meta tag that could be read as ASCII is not UTF-16. */
		snprintf(out, outsz, "utf-8");
		return CS_UTF8;
	}
	if (label_in(name, latin)) {
		snprintf(out, outsz, "windows-1252");
		return CS_1252;
	}
	if (label_in(name, gb))
		snprintf(name, sizeof(name), "gb18030");
	else if (label_in(name, u16le))
		snprintf(name, sizeof(name), "utf-16le");
	cd = iconv_open("UTF-8", name);
	if (cd == (iconv_t)-1)
		return CS_NONE;
	iconv_close(cd);
	snprintf(out, outsz, "%s", name);
	return CS_ICONV;
}

/*
 * Read the attributes of a tag starting at s[*i] up to '>', keeping the
 * values of charset, http-equiv and content (pointers into s).
 */
static void
meta_attrs(const char *s, size_t n, size_t *i, const char **cs, size_t *csl,
    const char **he, size_t *hel, const char **ct, size_t *ctl)
{
	size_t p = *i, ns, nl, vs, vl;

	while (p < n && s[p] != '>') {
		while (p < n && (chars_html_space((unsigned char)s[p]) || s[p] == '/'))
			p++;
		ns = p;
		while (p < n && !chars_html_space((unsigned char)s[p]) && s[p] != '=' &&
		    s[p] != '>' && s[p] != '/')
			p++;
		nl = p - ns;
		vs = p;
		vl = 0;
		while (p < n && chars_html_space((unsigned char)s[p]))
			p++;
		if (p < n && s[p] == '=') {
			p++;
			while (p < n && chars_html_space((unsigned char)s[p]))
				p++;
			if (p < n && (s[p] == '"' || s[p] == '\'')) {
				char q = s[p++];

				vs = p;
				while (p < n && s[p] != q)
					p++;
				vl = p - vs;
				if (p < n)
					p++;
			} else {
				vs = p;
				while (p < n && !chars_html_space((unsigned char)s[p]) &&
				    s[p] != '>')
					p++;
				vl = p - vs;
			}
		}
		if (nl == 7 && strncasecmp(s + ns, "charset", 7) == 0 &&
		    *cs == NULL) {
			*cs = s + vs;
			*csl = vl;
		} else if (nl == 10 && strncasecmp(s + ns, "http-equiv",
		    10) == 0 && *he == NULL) {
			*he = s + vs;
			*hel = vl;
		} else if (nl == 7 && strncasecmp(s + ns, "content", 7) == 0 &&
		    *ct == NULL) {
			*ct = s + vs;
			*ctl = vl;
		}
		if (nl == 0 && vl == 0 && p < n && s[p] != '>')
			p++;
	}
	*i = p;
}

/*
 * The HTML prescan, simplified: the first <meta> outside a comment that
 * names a usable charset, directly or through http-equiv=Content-Type.
 */
static enum cs_kind
charset_from_meta(const char *s, size_t n, char *out, size_t outsz)
{
	const char *cs, *he, *ct, *p;
	size_t i = 0, csl, hel, ctl, k;
	enum cs_kind kind;

	if (n > META_SCAN_MAX)
		n = META_SCAN_MAX;
	while (i < n) {
		if (n - i >= 4 && memcmp(s + i, "<!--", 4) == 0) {
			p = chars_find_lower(s + i + 4, n - i - 4, "-->");
			if (p == NULL)
				return CS_NONE;
			i = (size_t)(p - s) + 3;
			continue;
		}
		if (n - i < 6 || s[i] != '<' ||
		    strncasecmp(s + i + 1, "meta", 4) != 0 ||
		    !(chars_html_space((unsigned char)s[i + 5]) || s[i + 5] == '/')) {
			i++;
			continue;
		}
		i += 5;
		cs = he = ct = NULL;
		csl = hel = ctl = 0;
		meta_attrs(s, n, &i, &cs, &csl, &he, &hel, &ct, &ctl);
		if (cs != NULL) {
			kind = charset_from_label(cs, csl, 1, out, outsz);
			if (kind != CS_NONE)
				return kind;
		} else if (he != NULL && ct != NULL && hel == 12 &&
		    strncasecmp(he, "content-type", 12) == 0 &&
		    (p = chars_find_lower(ct, ctl, "charset")) != NULL) {
			k = (size_t)(p - ct) + 7;
			while (k < ctl && chars_html_space((unsigned char)ct[k]))
				k++;
			if (k < ctl && ct[k] == '=') {
				size_t vs;

				k++;
				while (k < ctl && chars_html_space((unsigned char)ct[k]))
					k++;
				vs = k;
				while (k < ctl && ct[k] != ';' &&
				    !chars_html_space((unsigned char)ct[k]))
					k++;
				kind = charset_from_label(ct + vs, k - vs, 1,
				    out, outsz);
				if (kind != CS_NONE)
					return kind;
			}
		}
	}
	return CS_NONE;
}

unsigned char *
charset_decode(const unsigned char *s, size_t n, const char *hint,
    char *cs, size_t cssz, size_t *outlen)
{
	enum cs_kind kind = CS_NONE;

	if (n >= 3 && s[0] == 0xef && s[1] == 0xbb && s[2] == 0xbf) {
		kind = CS_UTF8;
		snprintf(cs, cssz, "utf-8");
		s += 3;
		n -= 3;
	} else if (n >= 2 && ((s[0] == 0xff && s[1] == 0xfe) ||
	    (s[0] == 0xfe && s[1] == 0xff))) {
		kind = CS_ICONV;
		snprintf(cs, cssz, s[0] == 0xff ? "utf-16le" : "utf-16be");
		s += 2;
		n -= 2;
	}
	if (kind == CS_NONE && hint != NULL)
		kind = charset_from_label(hint, strlen(hint), 0, cs, cssz);
	if (kind == CS_NONE)
		kind = charset_from_meta((const char *)s, n, cs, cssz);
	if (kind == CS_NONE) {
		kind = utf8_valid(s, n) ? CS_UTF8 : CS_1252;
		snprintf(cs, cssz, kind == CS_UTF8 ? "utf-8" : "windows-1252");
	}
	/* Only memory can fail from here: the label opened before. */
	if (kind == CS_ICONV)
		return from_iconv(cs, s, n, outlen);
	if (kind == CS_1252)
		return from_cp1252(s, n, outlen);
	return sanitize(s, n, outlen);
}

uint32_t
charset_c1_cp1252(uint32_t cp)
{
	return cp >= 0x80 && cp <= 0x9f ? cp1252_hi[cp - 0x80] : cp;
}
