#include "web/extract.h"

#include "util/buf.h"
#include "util/chars.h"
#include "web/content.h"
#include "web/htmlattr.h"
#include "web/url.h"

#include <libxml/HTMLparser.h>
#include <libxml/globals.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>

#include <errno.h>
#include <iconv.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* How far into the page a <meta charset> is looked for. */
#define META_SCAN_MAX 8192

/*
 * Link candidates are kept until the walk ends (a <base> may come late);
 * more than this many per kept link would only be spent on duplicates.
 */
#define CANDIDATES_PER_LINK 8
#define CANDIDATES_MIN 4096
#define CANDIDATES_MAX (1u << 20)

/* Links whose text is kept for anchors_same/anchors_other, and the bytes of
 * text they may take together (a template's menus come first). */
#define ANCHOR_LINKS_MAX 4096
#define ANCHOR_TEXT_MAX (64 * 1024)

static const char WHY_NOMEM[] = "out of memory";
static const char WHY_TOO_LONG[] = "too long"; /* url_resolve's words */
static const char WHY_LARGE[] = "too large";

enum {
	E_BLOCK = 1 << 0,   /* separates words */
	E_DROP = 1 << 1,    /* no text from it, but links and meta still */
	E_SKIP = 1 << 2,    /* not entered at all */
	E_HEADING = 1 << 3, /* h1..h6 */
};

static const struct elem {
	const char *name;
	unsigned flags;
} elems[] = {
	{ "address", E_BLOCK }, { "article", E_BLOCK }, { "aside", E_BLOCK },
	{ "audio", E_DROP }, { "base", E_DROP }, { "blockquote", E_BLOCK },
	{ "body", E_BLOCK }, { "br", E_BLOCK }, { "canvas", E_DROP },
	{ "caption", E_BLOCK }, { "center", E_BLOCK }, { "datalist", E_DROP },
	{ "dd", E_BLOCK }, { "details", E_BLOCK }, { "dialog", E_BLOCK },
	{ "dir", E_BLOCK }, { "div", E_BLOCK }, { "dl", E_BLOCK },
	{ "dt", E_BLOCK }, { "embed", E_DROP }, { "fieldset", E_BLOCK },
	{ "figcaption", E_BLOCK }, { "figure", E_BLOCK },
	{ "footer", E_BLOCK }, { "form", E_BLOCK }, { "frame", E_DROP },
	{ "frameset", E_DROP }, { "h1", E_BLOCK | E_HEADING },
	{ "h2", E_BLOCK | E_HEADING }, { "h3", E_BLOCK | E_HEADING },
	{ "h4", E_BLOCK | E_HEADING }, { "h5", E_BLOCK | E_HEADING },
	{ "h6", E_BLOCK | E_HEADING }, { "head", E_DROP },
	{ "header", E_BLOCK }, { "hgroup", E_BLOCK }, { "hr", E_BLOCK },
	{ "html", E_BLOCK }, { "iframe", E_DROP }, { "img", E_DROP },
	{ "legend", E_BLOCK }, { "li", E_BLOCK }, { "link", E_DROP },
	{ "main", E_BLOCK }, { "math", E_SKIP }, { "menu", E_BLOCK },
	{ "meta", E_DROP }, { "nav", E_BLOCK }, { "noembed", E_DROP },
	{ "noframes", E_DROP }, { "noscript", E_DROP }, { "object", E_DROP },
	{ "ol", E_BLOCK }, { "p", E_BLOCK }, { "picture", E_DROP },
	{ "pre", E_BLOCK }, { "script", E_SKIP }, { "search", E_BLOCK },
	{ "section", E_BLOCK }, { "select", E_DROP }, { "style", E_SKIP },
	{ "summary", E_BLOCK }, { "svg", E_SKIP }, { "table", E_BLOCK },
	{ "tbody", E_BLOCK }, { "td", E_BLOCK }, { "template", E_SKIP },
	{ "tfoot", E_BLOCK }, { "th", E_BLOCK }, { "thead", E_BLOCK },
	{ "title", E_DROP }, { "tr", E_BLOCK }, { "ul", E_BLOCK },
	{ "video", E_DROP },
};

static unsigned
elem_flags(const xmlChar *name)
{
	size_t lo = 0, hi = sizeof(elems) / sizeof(elems[0]);

	if (name == NULL)
		return 0;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp((const char *)name, elems[mid].name);

		if (c == 0)
			return elems[mid].flags;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return 0;
}

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

/* Copy UTF-8 (maybe invalid) to a fresh buffer, repaired; NULL on no memory. */
static unsigned char *
sanitize(const unsigned char *s, size_t n, size_t *outlen)
{
	unsigned char *out, enc[4];
	size_t i = 0, o = 0;
	uint32_t cp;

	if (n > (SIZE_MAX - 1) / 3)
		return NULL;
	/* Size the copy first: allocating three times the input (the worst
	 * case) made every large page a fresh mapping of the kernel's. */
	while (i < n) {
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
		 * passes through unchanged. */
		if ((s[i] >= 0x20 && s[i] < 0x7f) || s[i] == '\t' ||
		    s[i] == '\n' || s[i] == '\f' || s[i] == '\r') {
			out[o++] = s[i++];
			continue;
		}
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
		char c = label[i];

		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
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

static int
lc(int c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

static int
is_ws(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

/* Case-insensitive search for needle (lower-case) in s[0..n). */
static const char *
memcasestr(const char *s, size_t n, const char *needle)
{
	size_t k = strlen(needle), i, j;

	for (i = 0; i + k <= n; i++) {
		for (j = 0; j < k && lc((unsigned char)s[i + j]) == needle[j];
		    j++)
			;
		if (j == k)
			return s + i;
	}
	return NULL;
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
		while (p < n && (is_ws((unsigned char)s[p]) || s[p] == '/'))
			p++;
		ns = p;
		while (p < n && !is_ws((unsigned char)s[p]) && s[p] != '=' &&
		    s[p] != '>' && s[p] != '/')
			p++;
		nl = p - ns;
		vs = p;
		vl = 0;
		while (p < n && is_ws((unsigned char)s[p]))
			p++;
		if (p < n && s[p] == '=') {
			p++;
			while (p < n && is_ws((unsigned char)s[p]))
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
				while (p < n && !is_ws((unsigned char)s[p]) &&
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
			p = memcasestr(s + i + 4, n - i - 4, "-->");
			if (p == NULL)
				return CS_NONE;
			i = (size_t)(p - s) + 3;
			continue;
		}
		if (n - i < 6 || s[i] != '<' ||
		    strncasecmp(s + i + 1, "meta", 4) != 0 ||
		    !(is_ws((unsigned char)s[i + 5]) || s[i + 5] == '/')) {
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
		    (p = memcasestr(ct, ctl, "charset")) != NULL) {
			k = (size_t)(p - ct) + 7;
			while (k < ctl && is_ws((unsigned char)ct[k]))
				k++;
			if (k < ctl && ct[k] == '=') {
				size_t vs;

				k++;
				while (k < ctl && is_ws((unsigned char)ct[k]))
					k++;
				vs = k;
				while (k < ctl && ct[k] != ';' &&
				    !is_ws((unsigned char)ct[k]))
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

/*
 * Turn the page bytes into clean UTF-8 for libxml2 and name the charset.
 * Returns a malloc'd NUL-terminated buffer or NULL on no memory.
 */
static unsigned char *
decode_page(const unsigned char *s, size_t n, const char *hint,
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

/* ---- text output with white-space collapsing ---- */

/* White space collapses to one separator: '\n' when a block boundary
 * came since the last character and the text keeps lines, else ' '. */
struct tout {
	struct buf b;     /* the text so far, limit = its cap */
	const char *sep;  /* to put before the next character, if any */
	int space;        /* white space seen since the last character */
	int nl;           /* a block boundary seen since the last character */
	int lines;        /* block boundaries are written as '\n' */
	int full;         /* a character did not fit: text was cut */
	int nomem;        /* an append failed for want of memory */
};

static void
tout_init(struct tout *t, size_t cap, int lines)
{
	memset(t, 0, sizeof(*t));
	buf_init(&t->b, cap);
	t->lines = lines;
}

/* White space, and controls: a character reference can still make one. */
static int
is_space_cp(uint32_t c)
{
	return c <= 0x20 || (c >= 0x7f && c <= 0x9f) || c == 0xa0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200a) ||
	    c == 0x2028 || c == 0x2029 || c == 0x202f || c == 0x205f ||
	    c == 0x3000;
}

/*
 * Append n bytes of characters with no white space between them: only the
 * first can need a separator, and the run is one word or the rest of one.
 * A run that does not fit is cut where the room ends when each byte is a
 * character (ascii), else dropped whole; either way the text is then full.
 */
static void
tout_run(struct tout *t, const unsigned char *bytes, size_t n, int ascii)
{
	const char *pre = "";
	size_t pl, room;
	int cut = 0;

	if (t->full || t->nomem)
		return;
	if (t->b.len > 0) {
		if (t->sep != NULL)
			pre = t->sep;
		else if (t->nl && t->lines)
			pre = "\n";
		else if (t->space)
			pre = " ";
	}
	pl = strlen(pre);
	room = t->b.limit - t->b.len;
	if (pl + n > room) {
		if (!ascii || room <= pl) {
			t->full = 1;
			return;
		}
		n = room - pl;
		cut = 1;
	}
	if (buf_append(&t->b, pre, pl) != BUF_OK ||
	    buf_append(&t->b, bytes, n) != BUF_OK) {
		t->nomem = 1;
		return;
	}
	t->sep = NULL;
	t->space = 0;
	t->nl = 0;
	t->full = cut;
}

/* Printable ASCII: a character that is neither white space nor control. */
static int
is_word_ascii(unsigned char c)
{
	return c > 0x20 && c < 0x7f;
}

static void
tout_text(struct tout *t, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	unsigned char enc[4];
	size_t n, i = 0, k;
	uint32_t cp;
	int remap;

	if (s == NULL)
		return;
	n = strlen(str);
	while (i < n && !t->full) {
		if (is_word_ascii(s[i])) {
			/* The common case, a run of plain ASCII at once. */
			for (k = 1; i + k < n && is_word_ascii(s[i + k]); k++)
				;
			tout_run(t, s + i, k, 1);
			i += k;
			continue;
		}
		k = chars_utf8_decode(s + i, n - i, &cp);
		remap = k == 1 && cp == 0xfffd;
		/* The raw bytes had their C1 controls blanked; one here came
		 * from a reference like &#150;, which browsers read as
		 * windows-1252. */
		if (cp >= 0x80 && cp <= 0x9f) {
			cp = cp1252_hi[cp - 0x80];
			remap = 1;
		}
		if (is_space_cp(cp))
			t->space = 1;
		else if (remap)
			tout_run(t, enc, chars_utf8_encode(cp, enc), 0);
		else
			tout_run(t, s + i, k, 0);
		i += k;
	}
}

/* A block boundary: the next character is preceded by a space, or by a
 * line break when the text keeps lines. */
static void
tout_break(struct tout *t)
{
	t->space = 1;
	t->nl = 1;
}

/* Start a new segment joined to the previous text by sep. */
static void
tout_segment(struct tout *t, const char *sep)
{
	t->sep = sep;
	t->space = 0;
	t->nl = 0;
}

/* ---- the tree walk ---- */

/* A link's text in walk.anchors, and whether main_text holds it. */
struct anchor {
	const char *href;     /* its href, in the doc */
	size_t start, end;    /* its text: anchors.b.data[start..end) */
	int in_main;          /* opened inside main content */
};

struct walk {
	struct tout text;     /* body text */
	struct tout main;     /* main content's text */
	struct tout title;    /* first <title> */
	struct tout heads;    /* h1..h6 joined by " | " */
	struct tout desc;     /* meta description */
	struct tout keys;     /* meta keywords */
	struct tout anchors;  /* text of links with an href, in order */
	struct anchor *anch;  /* those links, in document order */
	size_t nanch;         /* entries in anch */
	size_t aanch;         /* entries allocated */
	int in_anchor;        /* text now also goes to anchors */
	xmlNode *drop;        /* outermost dropped element we are in */
	const struct content *ct; /* the main-content marks */
	xmlNode *in_main;     /* outermost CONTENT_IN element we are in */
	xmlNode *boiler;      /* outermost CONTENT_OUT element inside it */
	xmlNode *link;        /* outermost <a> we are in */
	xmlNode *heading;     /* heading being captured */
	xmlNode *title_node;  /* <title> being captured */
	int title_done;       /* a <title> was captured already */
	int have_desc;        /* first description taken */
	int have_keys;        /* first keywords taken */
	int nofollow;         /* meta robots nofollow */
	int noindex;          /* meta robots noindex */
	const char *base;     /* href of the first <base>, in the doc */
	const char **cand;    /* raw link targets, in the doc */
	size_t ncand;         /* entries in cand */
	size_t acand;         /* entries allocated */
	size_t maxcand;       /* cap on ncand */
	int nomem;            /* an allocation failed */
	struct {
		const xmlChar *name; /* an element name, as the tree holds it */
		unsigned flags;      /* its elem_flags */
	} fcache[64];         /* element names seen, by address: libxml2
	                         keeps one copy of each name per document */
};

/* elem_flags of n's name, remembered by the name's address. */
static unsigned
node_flags(struct walk *w, const xmlNode *n)
{
	size_t i = ((uintptr_t)n->name >> 4) & 63;

	if (w->fcache[i].name != n->name || n->name == NULL) {
		w->fcache[i].name = n->name;
		w->fcache[i].flags = elem_flags(n->name);
	}
	return w->fcache[i].flags;
}

/*
 * Whether the white-space or comma separated list s holds token tok, in
 * any case.
 */
static int
has_token(const char *s, const char *tok)
{
	size_t tl = strlen(tok), i = 0, st;

	if (s == NULL)
		return 0;
	while (s[i] != '\0') {
		while (s[i] != '\0' && (is_ws((unsigned char)s[i]) ||
		    s[i] == ','))
			i++;
		st = i;
		while (s[i] != '\0' && !is_ws((unsigned char)s[i]) &&
		    s[i] != ',')
			i++;
		if (i - st == tl && strncasecmp(s + st, tok, tl) == 0)
			return 1;
	}
	return 0;
}

static void
add_candidate(struct walk *w, const char *target)
{
	const char **n;
	size_t a;

	if (target == NULL || w->ncand >= w->maxcand)
		return;
	if (w->ncand == w->acand) {
		a = w->acand ? w->acand * 2 : 64;
		n = realloc(w->cand, a * sizeof(*n));
		if (n == NULL) {
			w->nomem = 1;
			return;
		}
		w->cand = n;
		w->acand = a;
	}
	w->cand[w->ncand++] = target;
}

static void
do_meta(struct walk *w, const xmlNode *n)
{
	const char *name = htmlattr_get(n, "name"), *content = htmlattr_get(n, "content");

	if (name == NULL || content == NULL)
		return;
	if (strcasecmp(name, "description") == 0 && !w->have_desc) {
		w->have_desc = 1;
		tout_text(&w->desc, content);
	} else if (strcasecmp(name, "keywords") == 0 && !w->have_keys) {
		w->have_keys = 1;
		tout_text(&w->keys, content);
	} else if (strcasecmp(name, "robots") == 0) {
		if (has_token(content, "nofollow") || has_token(content, "none"))
			w->nofollow = 1;
		if (has_token(content, "noindex") || has_token(content, "none"))
			w->noindex = 1;
	}
}

/*
 * Text is taken from everything but dropped elements, <head> among them,
 * rather than from <body> alone: libxml2 puts content found after </body>
 * or </html> into a second <body> or a stray <html> after the body, where
 * a browser would show it as part of the body.
 */
static int
text_active(const struct walk *w)
{
	return w->drop == NULL;
}

/* ---- main text: the text of the main content (content.h) ---- */

static int
main_active(const struct walk *w)
{
	return text_active(w) && w->in_main != NULL && w->boiler == NULL;
}

/* What content.c is told to ignore: what the body text leaves out. */
static int
silent_elem(const xmlNode *n)
{
	return (elem_flags(n->name) & (E_DROP | E_SKIP)) != 0;
}

/*
 * An <a> opens (the outermost one): with an href, its text is kept apart
 * too, to be split by where the link leads once the walk is over.
 */
static void
anchor_open(struct walk *w, const char *href)
{
	struct anchor *a;
	size_t n;

	if (href == NULL || !text_active(w) || w->anchors.full ||
	    w->nanch >= ANCHOR_LINKS_MAX)
		return;
	if (w->nanch == w->aanch) {
		n = w->aanch ? w->aanch * 2 : 32;
		a = realloc(w->anch, n * sizeof(*a));
		if (a == NULL) {
			w->nomem = 1;
			return;
		}
		w->anch = a;
		w->aanch = n;
	}
	a = &w->anch[w->nanch++];
	a->href = href;
	a->start = a->end = w->anchors.b.len;
	a->in_main = main_active(w);
	w->in_anchor = 1;
}

/* The open link ends; one without text is forgotten. */
static void
anchor_close(struct walk *w)
{
	struct anchor *a;

	if (!w->in_anchor)
		return;
	w->in_anchor = 0;
	tout_break(&w->anchors);
	a = &w->anch[w->nanch - 1];
	a->end = w->anchors.b.len;
	if (a->end == a->start)
		w->nanch--;
}

/* Entering node n; returns whether to walk into its children. */
static int
enter(struct walk *w, xmlNode *n)
{
	const char *name;
	unsigned f;

	if (n->type == XML_TEXT_NODE || n->type == XML_CDATA_SECTION_NODE) {
		if (text_active(w)) {
			tout_text(&w->text, (const char *)n->content);
			if (main_active(w))
				tout_text(&w->main, (const char *)n->content);
			if (w->heading != NULL)
				tout_text(&w->heads, (const char *)n->content);
			if (w->in_anchor)
				tout_text(&w->anchors,
				    (const char *)n->content);
		}
		if (w->title_node != NULL)
			tout_text(&w->title, (const char *)n->content);
		return 0;
	}
	if (n->type != XML_ELEMENT_NODE)
		return 0;
	name = (const char *)n->name;
	f = node_flags(w, n);
	if (f & E_SKIP)
		return 0;
	if ((f & E_BLOCK) && text_active(w)) {
		tout_break(&w->text);
		tout_break(&w->main);
		if (w->heading != NULL)
			tout_break(&w->heads);
		tout_break(&w->anchors);
	}
	if ((f & E_HEADING) && text_active(w) && w->heading == NULL) {
		w->heading = n;
		tout_segment(&w->heads, " | ");
	}
	if (name == NULL)
		return 1;
	switch (content_mark_of(w->ct, n)) {
	case CONTENT_IN:
		if (w->in_main == NULL)
			w->in_main = n;
		break;
	case CONTENT_OUT:
		if (w->in_main != NULL && w->boiler == NULL)
			w->boiler = n;
		break;
	default:
		break;
	}
	if (strcmp(name, "a") == 0 && w->link == NULL) {
		w->link = n;
		anchor_open(w, htmlattr_get(n, "href"));
	}
	if (strcmp(name, "title") == 0 && !w->title_done &&
	    w->title_node == NULL)
		w->title_node = n;
	else if (strcmp(name, "meta") == 0)
		do_meta(w, n);
	else if (strcmp(name, "base") == 0 && w->base == NULL)
		w->base = htmlattr_get(n, "href");
	else if (strcmp(name, "a") == 0 || strcmp(name, "area") == 0) {
		if (!has_token(htmlattr_get(n, "rel"), "nofollow"))
			add_candidate(w, htmlattr_get(n, "href"));
	} else if (strcmp(name, "frame") == 0 || strcmp(name, "iframe") == 0)
		add_candidate(w, htmlattr_get(n, "src"));
	if ((f & E_DROP) && w->drop == NULL)
		w->drop = n;
	return 1;
}

static void
leave(struct walk *w, xmlNode *n)
{
	if (n->type != XML_ELEMENT_NODE)
		return;
	if (w->drop == n)
		w->drop = NULL;
	if (w->title_node == n) {
		w->title_node = NULL;
		w->title_done = 1;
	}
	if (w->heading == n)
		w->heading = NULL;
	if (w->boiler == n)
		w->boiler = NULL;
	if (w->in_main == n)
		w->in_main = NULL;
	if (w->link == n) {
		w->link = NULL;
		anchor_close(w);
	}
	if ((node_flags(w, n) & E_BLOCK) && text_active(w)) {
		tout_break(&w->text);
		tout_break(&w->main);
		if (w->heading != NULL)
			tout_break(&w->heads);
		tout_break(&w->anchors);
	}
}

/* Visit the whole document without recursion: nesting depth is unbounded. */
static void
walk_doc(struct walk *w, xmlDoc *doc)
{
	xmlNode *top = (xmlNode *)doc, *n = doc->children;

	while (n != NULL) {
		if (enter(w, n) && n->children != NULL) {
			n = n->children;
			continue;
		}
		for (;;) {
			leave(w, n);
			if (n->next != NULL) {
				n = n->next;
				break;
			}
			n = n->parent;
			if (n == NULL || n == top) {
				n = NULL;
				break;
			}
		}
	}
}

/* ---- links ---- */

static uint64_t
hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	for (; *s != '\0'; s++) {
		h ^= (unsigned char)*s;
		h *= 1099511628211ULL;
	}
	return h;
}

/*
 * Set up *eff, the base the page's links resolve against: its <base href>
 * resolved against page_url, else page_url (which may be NULL). Returns 0,
 * or -1 on no memory; either way url_base_free(eff) and free(*base) after.
 */
static int
link_base(const struct walk *w, const char *page_url, struct url_base *eff,
    char **base)
{
	struct url_base page;
	const char *why;
	int ret = -1;

	memset(&page, 0, sizeof(page));
	memset(eff, 0, sizeof(*eff));
	*base = NULL;
	if (url_base_init(&page, page_url) != 0)
		goto fail;
	if (w->base != NULL) {
		why = NULL;
		*base = page_url != NULL ? url_base_resolve(&page, w->base,
		    &why) : url_normalize(w->base, &why);
		if (*base == NULL && why != NULL &&
		    strcmp(why, WHY_NOMEM) == 0)
			goto fail;
	}
	if (*base != NULL) {
		if (url_base_init(eff, *base) != 0)
			goto fail;
	} else {
		*eff = page;
		memset(&page, 0, sizeof(page));
	}
	ret = 0;
fail:
	url_base_free(&page);
	return ret;
}

/*
 * Resolve the candidates against eff in document order, each URL once, at
 * most max links. Returns 0 or -1 on no memory.
 */
static int
make_links(struct walk *w, const struct url_base *eff, size_t max,
    struct extract_result *r)
{
	char *u, **set = NULL;
	const char *why;
	size_t want, setsz = 16, i, slot;
	int ret = -1;

	want = w->ncand < max ? w->ncand : max;
	if (want == 0)
		return 0;
	while (setsz < 2 * want)
		setsz *= 2;
	set = calloc(setsz, sizeof(*set));
	r->links = calloc(want, sizeof(*r->links));
	if (set == NULL || r->links == NULL)
		goto fail;
	for (i = 0; i < w->ncand && r->nlinks < want; i++) {
		why = NULL;
		u = url_base_resolve(eff, w->cand[i], &why);
		if (u == NULL) {
			if (why != NULL && strcmp(why, WHY_NOMEM) == 0)
				goto fail;
			if (why != NULL && strcmp(why, WHY_TOO_LONG) == 0)
				r->links_too_long++;
			continue;
		}
		slot = (size_t)hash_str(u) & (setsz - 1);
		while (set[slot] != NULL && strcmp(set[slot], u) != 0)
			slot = (slot + 1) & (setsz - 1);
		if (set[slot] != NULL) {
			free(u);
			continue;
		}
		set[slot] = u;
		r->links[r->nlinks++] = u;
	}
	ret = 0;
fail:
	free(set);
	return ret;
}

/* A host without its leading "www.": www.a.org and a.org are one site. */
static const char *
site_of(const char *host)
{
	return strncmp(host, "www.", 4) == 0 ? host + 4 : host;
}

/* Whether ref names no scheme and no host: it stays on the page's host. */
static int
is_relative_ref(const char *ref)
{
	size_t n;

	while (is_ws((unsigned char)*ref))
		ref++;
	if (ref[0] == '/' && ref[1] == '/')
		return 0;
	n = strcspn(ref, ":/?#");
	return ref[n] != ':';
}

/*
 * Where the link a leads: 1 the page's own site, 0 another, -1 nowhere a
 * crawler goes (another scheme, malformed), -2 out of memory.
 */
static int
anchor_target(const struct anchor *a, const struct url_base *eff,
    const char *page_host)
{
	char host[256], *u;
	const char *why = NULL;
	int same;

	u = url_base_resolve(eff, a->href, &why);
	if (u == NULL) {
		if (why != NULL && strcmp(why, WHY_NOMEM) == 0)
			return -2;
		return page_host[0] == '\0' && is_relative_ref(a->href) ? 1 :
		    -1;
	}
	same = url_host(u, host, sizeof(host)) == 0 &&
	    strcmp(site_of(host), site_of(page_host)) == 0;
	free(u);
	return same;
}

/* Append the text of a, without its edge spaces, to out; full: skip it. */
static int
anchor_append(struct buf *out, const struct walk *w, const struct anchor *a)
{
	const char *t = w->anchors.b.data + a->start;
	size_t n = a->end - a->start;
	int rc;

	while (n > 0 && *t == ' ') {
		t++;
		n--;
	}
	while (n > 0 && t[n - 1] == ' ')
		n--;
	if (n == 0 || out->len + 1 + n > out->limit)
		return 0;
	if (out->len > 0 && (rc = buf_putc(out, ' ')) != BUF_OK)
		return rc;
	return buf_append(out, t, n) == BUF_OK ? 0 : -1;
}

/*
 * Split the text of the links main_text holds (all of them when main fell
 * back to the whole text) into anchors_same and anchors_other. Returns 0,
 * or -1 on no memory.
 */
static int
make_anchors(const struct walk *w, const struct url_base *eff,
    const char *page_url, int fell_back, struct extract_result *r)
{
	struct buf same, other;
	char page_host[256] = "";
	size_t i;
	int t, ret = -1;

	buf_init(&same, EXTRACT_ANCHORS_MAX);
	buf_init(&other, EXTRACT_ANCHORS_MAX);
	if (page_url != NULL &&
	    url_host(page_url, page_host, sizeof(page_host)) != 0)
		page_host[0] = '\0';
	for (i = 0; i < w->nanch; i++) {
		if (!w->anch[i].in_main && !fell_back)
			continue;
		t = anchor_target(&w->anch[i], eff, page_host);
		if (t == -2 || (t >= 0 && anchor_append(t ? &same : &other, w,
		    &w->anch[i]) != 0))
			goto fail;
	}
	if ((r->anchors_same = buf_steal(&same)) == NULL ||
	    (r->anchors_other = buf_steal(&other)) == NULL)
		goto fail;
	ret = 0;
fail:
	buf_free(&same);
	buf_free(&other);
	return ret;
}

/* ---- entry points ---- */

static void
silent(void *ctx, const char *msg, ...)
{
	(void)ctx;
	(void)msg;
}

static void
silent_structured(void *ctx, xmlErrorPtr err)
{
	(void)ctx;
	(void)err;
}

/* Parse clean UTF-8; *doc is NULL for a page libxml2 finds empty. */
static int
parse(const unsigned char *u8, size_t n, const char *page_url, xmlDoc **doc)
{
	xmlGenericErrorFunc old_generic = xmlGenericError;
	void *old_generic_ctx = xmlGenericErrorContext;
	xmlStructuredErrorFunc old_structured = xmlStructuredError;
	void *old_structured_ctx = xmlStructuredErrorContext;
	htmlParserCtxtPtr ctxt;
	int nomem;

	*doc = NULL;
	if (n == 0)
		return 0;
	ctxt = htmlNewParserCtxt();
	if (ctxt == NULL)
		return -1;
	xmlSetGenericErrorFunc(NULL, silent);
	xmlSetStructuredErrorFunc(NULL, silent_structured);
	/*
	 * Without XML_PARSE_HUGE libxml2 gives up past 256 levels of nesting
	 * and drops the whole tree; unclosed tags in a long list get there.
	 * Its parser and our walk are iterative, and the input is capped.
	 */
	*doc = htmlCtxtReadMemory(ctxt, (const char *)u8, (int)n, page_url,
	    "UTF-8", HTML_PARSE_RECOVER | HTML_PARSE_NOERROR |
	    HTML_PARSE_NOWARNING | HTML_PARSE_NONET | HTML_PARSE_IGNORE_ENC |
	    HTML_PARSE_NODEFDTD | XML_PARSE_HUGE);
	xmlSetGenericErrorFunc(old_generic_ctx, old_generic);
	xmlSetStructuredErrorFunc(old_structured_ctx, old_structured);
	nomem = ctxt->errNo == XML_ERR_NO_MEMORY;
	htmlFreeParserCtxt(ctxt);
	if (nomem) {
		xmlFreeDoc(*doc);
		*doc = NULL;
		return -1;
	}
	return 0;
}

static void
walk_free(struct walk *w)
{
	buf_free(&w->text.b);
	buf_free(&w->main.b);
	buf_free(&w->title.b);
	buf_free(&w->heads.b);
	buf_free(&w->desc.b);
	buf_free(&w->keys.b);
	buf_free(&w->anchors.b);
	free(w->anch);
	free(w->cand);
}

int
extract_html(const char *html, size_t len, const char *page_url,
    const struct extract_opts *o, struct extract_result *r, const char **why)
{
	const char *dummy;
	size_t max_text = EXTRACT_DEFAULT_MAX_TEXT;
	size_t max_links = EXTRACT_DEFAULT_MAX_LINKS, u8len = 0;
	unsigned char *u8 = NULL;
	xmlDoc *doc = NULL;
	struct url_base eff;
	struct walk w;
	struct content *ct = NULL;
	char *t, *base = NULL;
	int found = 0;

	if (why == NULL)
		why = &dummy;
	memset(&w, 0, sizeof(w));
	memset(&eff, 0, sizeof(eff));
	memset(r, 0, sizeof(*r));
	if (o != NULL && o->max_text > 0)
		max_text = o->max_text;
	if (o != NULL && o->max_links > 0)
		max_links = o->max_links;
	tout_init(&w.text, max_text, 1);
	tout_init(&w.main, max_text, 1);
	tout_init(&w.title, EXTRACT_FIELD_MAX, 0);
	tout_init(&w.heads, EXTRACT_HEADINGS_MAX, 0);
	tout_init(&w.desc, EXTRACT_FIELD_MAX, 0);
	tout_init(&w.keys, EXTRACT_FIELD_MAX, 0);
	tout_init(&w.anchors, ANCHOR_TEXT_MAX, 0);
	w.maxcand = max_links > CANDIDATES_MAX / CANDIDATES_PER_LINK ?
	    CANDIDATES_MAX : max_links * CANDIDATES_PER_LINK;
	if (w.maxcand < CANDIDATES_MIN)
		w.maxcand = CANDIDATES_MIN;

	if (html == NULL)
		len = 0;
	*why = WHY_LARGE;
	if (len > INT_MAX / 4)
		goto fail;
	*why = WHY_NOMEM;
	u8 = decode_page((const unsigned char *)html, len,
	    o != NULL ? o->charset : NULL, r->charset, sizeof(r->charset),
	    &u8len);
	if (u8 == NULL)
		goto fail;
	if (u8len > INT_MAX) {
		*why = WHY_LARGE;
		goto fail;
	}
	if (parse(u8, u8len, page_url, &doc) != 0)
		goto fail;
	if (doc != NULL) {
		if ((ct = content_analyze(doc, silent_elem, &found)) == NULL)
			goto fail;
		w.ct = ct;
		walk_doc(&w, doc);
	}
	if (w.nomem || w.text.nomem || w.main.nomem || w.title.nomem ||
	    w.heads.nomem || w.desc.nomem || w.keys.nomem || w.anchors.nomem)
		goto fail;
	r->nofollow = w.nofollow;
	r->noindex = w.noindex;
	r->truncated = w.text.full;
	if (link_base(&w, page_url, &eff, &base) != 0 ||
	    (!w.nofollow && make_links(&w, &eff, max_links, r) != 0) ||
	    make_anchors(&w, &eff, page_url, w.main.b.len == 0, r) != 0)
		goto fail;
	if ((t = buf_steal(&w.text.b)) == NULL)
		goto fail;
	r->text = t;
	r->text_len = strlen(t);
	/* All of it template (a bare menu, say): better the whole text than
	 * nothing to fingerprint. */
	if (w.main.b.len == 0) {
		found = 0;
		r->main_text = strdup(r->text);
	} else {
		r->main_text = buf_steal(&w.main.b);
	}
	if (r->main_text == NULL)
		goto fail;
	r->main_len = strlen(r->main_text);
	r->main_found = found;
	r->main_share = r->text_len > 0 ? (double)r->main_len /
	    (double)r->text_len : 0;
	/* The two texts are capped separately and text's trailing space is
	 * trimmed after its cut, so with tiny caps main could come out longer:
	 * keep the promise that it never holds more than text. */
	while (r->main_len > r->text_len || (r->main_len > 0 &&
	    (r->main_text[r->main_len - 1] == ' ' ||
	    r->main_text[r->main_len - 1] == '\n'))) {
		r->main_len--;
		while (r->main_len > 0 &&
		    ((unsigned char)r->main_text[r->main_len] & 0xc0) == 0x80)
			r->main_len--;
		r->main_text[r->main_len] = '\0';
	}
	if ((r->title = buf_steal(&w.title.b)) == NULL ||
	    (r->headings = buf_steal(&w.heads.b)) == NULL ||
	    (r->description = buf_steal(&w.desc.b)) == NULL ||
	    (r->keywords = buf_steal(&w.keys.b)) == NULL)
		goto fail;
	url_base_free(&eff);
	free(base);
	content_free(ct);
	xmlFreeDoc(doc);
	free(u8);
	walk_free(&w);
	*why = NULL;
	return 0;
fail:
	extract_result_free(r);
	url_base_free(&eff);
	free(base);
	content_free(ct);
	xmlFreeDoc(doc);
	free(u8);
	walk_free(&w);
	return -1;
}

void
extract_init_threads(void)
{
	xmlInitParser();
}

void
extract_result_free(struct extract_result *r)
{
	size_t i;

	if (r == NULL)
		return;
	free(r->text);
	free(r->main_text);
	free(r->title);
	free(r->headings);
	free(r->description);
	free(r->keywords);
	free(r->anchors_same);
	free(r->anchors_other);
	for (i = 0; i < r->nlinks; i++)
		free(r->links[i]);
	free(r->links);
	memset(r, 0, sizeof(*r));
}

int
extract_is_html(const char *ct, const char *data, size_t len)
{
	size_t i;

	if (ct != NULL)
		return strncasecmp(ct, "text/html", 9) == 0 ||
		    strncasecmp(ct, "application/xhtml+xml", 21) == 0;
	/* No Content-Type: take it for HTML when it starts like markup,
	 * after a UTF-8 byte-order mark if there is one. */
	i = len >= 3 && memcmp(data, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
	for (; i < len && i < 512; i++) {
		if (data[i] == '<')
			return 1;
		if (data[i] != ' ' && data[i] != '\t' &&
		    data[i] != '\r' && data[i] != '\n')
			return 0;
	}
	return 0;
}

void
extract_charset_of(const char *ct, char *out, size_t outsz)
{
	const char *p;
	size_t n = 0;

	out[0] = '\0';
	if (ct == NULL || (p = strcasestr(ct, "charset=")) == NULL)
		return;
	p += 8;
	if (*p == '"' || *p == '\'')
		p++;
	while (p[n] != '\0' && p[n] != '"' && p[n] != '\'' && p[n] != ';' &&
	    p[n] != ' ' && n + 1 < outsz) {
		out[n] = p[n];
		n++;
	}
	out[n] = '\0';
}
