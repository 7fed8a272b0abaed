#include "web/sitemap.h"

#include "util/buf.h"
#include "web/url.h"

/* next_in as a pointer to const: the input is the caller's. */
#define ZLIB_CONST

#include <assert.h>
#include <libxml/globals.h>
#include <libxml/parser.h>
#include <libxml/xmlerror.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/*
 * A <loc> or text line longer than this (before normalisation) is dropped
 * unread: normalising may shorten a URL (dot segments, default port) but
 * not by half, and url_normalize refuses anything past URL_MAX_LEN anyway.
 */
#define SITEMAP_LOC_MAX (URL_MAX_LEN * 2)

/* Inflate output is moved to the buffer this many bytes at a time. */
#define SITEMAP_INFLATE_CHUNK (32 * 1024)

/* XML goes to libxml2 this many bytes at a time. */
#define SITEMAP_XML_CHUNK (64 * 1024)

/* Which list a <loc> at the current place belongs to. */
enum { SM_NONE, SM_URL, SM_SITEMAP };

struct sitemap_ctx {
	struct sitemap *out;   /* what is being filled */
	size_t urls_alloc;     /* entries allocated in out->urls */
	size_t sitemaps_alloc; /* entries allocated in out->sitemaps */
	int full;              /* SITEMAP_MAX_URLS reached and more came */
	int nomem;             /* an allocation failed, here or in libxml2 */
	xmlParserCtxtPtr xml;  /* the XML parser, while it runs */
	int depth;             /* open elements around the parser's place */
	int kind;              /* SM_URL or SM_SITEMAP inside one, or SM_NONE */
	int seen_root;         /* the root was urlset or sitemapindex */
	int in_loc;            /* inside a <loc> of a url or sitemap */
	int loc_too_long;      /* that <loc> outgrew SITEMAP_LOC_MAX */
	struct buf loc;        /* that <loc>'s text so far */
};

static int
sitemap_is_space(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' ||
	    c == '\f' || c == '\v';
}

/* Make room for one more entry in *v; -1 when out of memory. */
static int
sitemap_grow(char ***v, size_t n, size_t *alloc)
{
	size_t na;
	char **nv;

	if (n < *alloc)
		return 0;
	/* Both lists together stop at SITEMAP_MAX_URLS, so this cannot wrap,
	 * and the capped size still has room for one more. */
	assert(n < SITEMAP_MAX_URLS);
	na = *alloc ? *alloc * 2 : 64;
	if (na > SITEMAP_MAX_URLS)
		na = SITEMAP_MAX_URLS;
	nv = realloc(*v, na * sizeof(*nv));
	if (nv == NULL)
		return -1;
	*v = nv;
	*alloc = na;
	return 0;
}

/*
 * Normalise the n bytes at s (white space around them ignored) and append
 * the result to the list kind says. Unusable URLs are dropped; past the cap
 * c->full is set instead. Returns 0, or -1 when out of memory.
 */
static int
sitemap_add(struct sitemap_ctx *c, int kind, const char *s, size_t n)
{
	char tmp[SITEMAP_LOC_MAX + 1];
	struct sitemap *o = c->out;
	const char *why = NULL;
	char *u;

	while (n > 0 && sitemap_is_space((unsigned char)*s)) {
		s++;
		n--;
	}
	while (n > 0 && sitemap_is_space((unsigned char)s[n - 1]))
		n--;
	if (n == 0 || n > SITEMAP_LOC_MAX)
		return 0;
	memcpy(tmp, s, n);
	tmp[n] = '\0';
	u = url_normalize(tmp, &why);
	if (u == NULL) {
		if (why != NULL && strcmp(why, "out of memory") == 0)
			goto nomem;
		return 0;
	}
	if (o->nurls + o->nsitemaps >= SITEMAP_MAX_URLS) {
		free(u);
		c->full = 1;
		return 0;
	}
	if (kind == SM_SITEMAP) {
		if (sitemap_grow(&o->sitemaps, o->nsitemaps,
		    &c->sitemaps_alloc) == -1)
			goto nomem;
		o->sitemaps[o->nsitemaps++] = u;
	} else {
		if (sitemap_grow(&o->urls, o->nurls, &c->urls_alloc) == -1)
			goto nomem;
		o->urls[o->nurls++] = u;
	}
	return 0;
nomem:
	free(u);
	c->nomem = 1;
	return -1;
}

/* Give zlib the next part of the input once it has used up the last. */
static void
sitemap_feed(z_stream *zs, const unsigned char *end, size_t *rest)
{
	if (zs->avail_in > 0 || *rest == 0)
		return;
	/* avail_in is 32 bits wide; longer input goes in parts. */
	zs->next_in = end - *rest;
	zs->avail_in = *rest > UINT_MAX ? UINT_MAX : (uInt)*rest;
	*rest -= zs->avail_in;
}

/*
 * Inflate gzip data into out, at most SITEMAP_MAX_BYTES. Concatenated gzip
 * members are joined, as gunzip does; bytes after the last member are
 * ignored. Stopping at the cap or at the end of a cut-off stream sets
 * *truncated. Returns 0, or -1 with *why.
 */
static int
sitemap_inflate(const unsigned char *p, size_t len, struct buf *out,
    int *truncated, const char **why)
{
	unsigned char chunk[SITEMAP_INFLATE_CHUNK];
	size_t rest = len, have, room;
	z_stream zs;
	int rc;

	memset(&zs, 0, sizeof(zs));
	/* 16 + MAX_WBITS: a gzip header and trailer, nothing else. */
	rc = inflateInit2(&zs, 16 + MAX_WBITS);
	if (rc != Z_OK) {
		*why = rc == Z_MEM_ERROR ? "out of memory" : "bad gzip data";
		return -1;
	}
	for (;;) {
		sitemap_feed(&zs, p + len, &rest);
		zs.next_out = chunk;
		zs.avail_out = sizeof(chunk);
		rc = inflate(&zs, Z_NO_FLUSH);
		have = sizeof(chunk) - zs.avail_out;
		room = out->limit - out->len;
		if (have > room) {
			/* A bomb: keep what fits, the rest is never produced. */
			if (buf_append(out, chunk, room) != BUF_OK)
				goto nomem;
			*truncated = 1;
			break;
		}
		if (have > 0 && buf_append(out, chunk, have) != BUF_OK)
			goto nomem;
		if (rc == Z_STREAM_END) {
			sitemap_feed(&zs, p + len, &rest);
			if (zs.avail_in >= 2 && zs.next_in[0] == 0x1f &&
			    zs.next_in[1] == 0x8b) {
				if (inflateReset(&zs) != Z_OK)
					goto bad;
				continue;
			}
			break;
		}
		if (rc == Z_BUF_ERROR && zs.avail_in == 0 && rest == 0) {
			/* Cut-off download: what came through still counts. */
			if (out->len == 0)
				goto bad;
			*truncated = 1;
			break;
		}
		if (rc == Z_MEM_ERROR)
			goto nomem;
		if (rc != Z_OK)
			goto bad;
	}
	inflateEnd(&zs);
	return 0;
bad:
	inflateEnd(&zs);
	*why = "bad gzip data";
	return -1;
nomem:
	inflateEnd(&zs);
	*why = "out of memory";
	return -1;
}

/*
 * One URL per line. When the data was cut at a cap, its last line may be a
 * URL cut in two, so an unterminated last line is dropped then.
 */
static int
sitemap_text(const char *p, size_t n, int truncated, struct sitemap_ctx *c,
    const char **why)
{
	const char *end = p + n, *nl;

	/* UTF-16 and binary files land here; they hold no URL list. */
	if (memchr(p, '\0', n) != NULL) {
		*why = "not a sitemap";
		return -1;
	}
	while (p < end && !c->full) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (nl == NULL) {
			if (truncated)
				break;
			nl = end;
		}
		if (sitemap_add(c, SM_URL, p, (size_t)(nl - p)) == -1) {
			*why = "out of memory";
			return -1;
		}
		p = nl + 1;
	}
	return 0;
}

static void
sitemap_silent(void *ctx, const char *msg, ...)
{
	(void)ctx;
	(void)msg;
}

/* Reports nothing, but notices libxml2 running out of memory. */
static void
sitemap_xml_error(void *ctx, xmlErrorPtr err)
{
	struct sitemap_ctx *c = ctx;

	if (c != NULL && err != NULL && err->code == XML_ERR_NO_MEMORY) {
		c->nomem = 1;
		if (c->xml != NULL)
			xmlStopParser(c->xml);
	}
}

static int
sitemap_name_is(const xmlChar *local, const char *name)
{
	return local != NULL && xmlStrcasecmp(local, (const xmlChar *)name) == 0;
}

/*
 * Depth decides what a <loc> belongs to: the root is at 0, <url> and
 * <sitemap> at 1, their <loc> at 2, its text at 3.
 */
static void
sitemap_start(void *ctx, const xmlChar *local, const xmlChar *prefix,
    const xmlChar *uri, int nns, const xmlChar **ns, int nattr, int ndef,
    const xmlChar **attrs)
{
	struct sitemap_ctx *c = ctx;
	int depth = c->depth++;

	(void)prefix;
	(void)uri;
	(void)nns;
	(void)ns;
	(void)nattr;
	(void)ndef;
	(void)attrs;
	if (depth == 0) {
		if (!sitemap_name_is(local, "urlset") &&
		    !sitemap_name_is(local, "sitemapindex")) {
			xmlStopParser(c->xml);
			return;
		}
		c->seen_root = 1;
	} else if (depth == 1) {
		c->kind = sitemap_name_is(local, "url") ? SM_URL :
		    sitemap_name_is(local, "sitemap") ? SM_SITEMAP : SM_NONE;
	} else if (depth == 2 && c->kind != SM_NONE &&
	    sitemap_name_is(local, "loc")) {
		c->in_loc = 1;
		c->loc_too_long = 0;
		buf_reset(&c->loc);
	}
}

static void
sitemap_end(void *ctx, const xmlChar *local, const xmlChar *prefix,
    const xmlChar *uri)
{
	struct sitemap_ctx *c = ctx;
	int depth = --c->depth;

	(void)local;
	(void)prefix;
	(void)uri;
	if (depth == 2 && c->in_loc) {
		c->in_loc = 0;
		if (!c->loc_too_long && c->loc.len > 0 &&
		    (sitemap_add(c, c->kind, c->loc.data, c->loc.len) == -1 ||
		    c->full))
			xmlStopParser(c->xml);
	} else if (depth == 1) {
		c->kind = SM_NONE;
	}
}

/* Text and CDATA alike; libxml2 may hand one text over in pieces. */
static void
sitemap_text_cb(void *ctx, const xmlChar *s, int n)
{
	struct sitemap_ctx *c = ctx;
	int rc;

	if (!c->in_loc || c->depth != 3 || n <= 0)
		return;
	rc = buf_append(&c->loc, s, (size_t)n);
	if (rc == BUF_FULL) {
		c->loc_too_long = 1;
	} else if (rc == BUF_NOMEM) {
		c->nomem = 1;
		xmlStopParser(c->xml);
	}
}

/*
 * Length of the character reference or predefined entity reference
 * (&amp; &lt; &gt; &quot; &apos;) that starts at the '&' at p, ';'
 * included, or 0 when that '&' starts neither.
 */
static size_t
sitemap_ref_len(const unsigned char *p, size_t n)
{
	static const char *const predefined[] = {
		"&amp;", "&lt;", "&gt;", "&quot;", "&apos;",
	};
	size_t i, k, start;
	int hex = 0;

	for (k = 0; k < sizeof(predefined) / sizeof(predefined[0]); k++) {
		i = strlen(predefined[k]);
		if (n >= i && memcmp(p, predefined[k], i) == 0)
			return i;
	}
	if (n < 2 || p[1] != '#')
		return 0;
	i = 2;
	if (i < n && p[i] == 'x') {
		hex = 1;
		i++;
	}
	/* Eight digits reach past U+10FFFF; libxml2 judges the value. */
	for (start = i; i < n && i - start < 8; i++)
		if (!(p[i] >= '0' && p[i] <= '9') && !(hex &&
		    ((p[i] >= 'a' && p[i] <= 'f') ||
		    (p[i] >= 'A' && p[i] <= 'F'))))
			break;
	return i > start && i < n && p[i] == ';' ? i + 1 : 0;
}

/*
 * Many sitemaps carry raw '&' in query strings. libxml2 recovers from one
 * by dropping text, and once a document has had an error it also drops
 * every later &amp; (libxml2 2.9 skips references in documents that are
 * not well-formed). So every '&' that starts no character reference or
 * predefined entity becomes "&amp;" before parsing: raw ones, and those
 * of entities a DOCTYPE declares, which this parser never expands anyway
 * and which now read as plain text. CDATA sections are copied as they are.
 * out stays empty when nothing needed escaping; past its limit the copy
 * stops and *truncated is set.
 * Returns 0, or -1 when out of memory.
 */
static int
sitemap_escape_amps(const char *p, size_t n, struct buf *out, int *truncated)
{
	const unsigned char *u = (const unsigned char *)p;
	const char *cdend;
	size_t i, from = 0;
	int rc = BUF_OK;

	for (i = 0; i < n && rc == BUF_OK; i++) {
		if (u[i] == '<' && n - i >= 9 &&
		    memcmp(p + i, "<![CDATA[", 9) == 0) {
			cdend = memmem(p + i + 9, n - i - 9, "]]>", 3);
			i = cdend != NULL ? (size_t)(cdend - p) + 2 : n;
			continue;
		}
		if (u[i] != '&' || sitemap_ref_len(u + i, n - i) > 0)
			continue;
		rc = buf_append(out, p + from, i - from);
		if (rc == BUF_OK)
			rc = buf_append(out, "&amp;", 5);
		from = i + 1;
	}
	if (rc == BUF_OK && out->len > 0)
		rc = buf_append(out, p + from, n - from);
	if (rc == BUF_NOMEM)
		return -1;
	if (rc == BUF_FULL)
		*truncated = 1;
	return 0;
}

/* Whether a callback has stopped the parser (wrong root, cap, memory). */
static int
sitemap_stopped(const struct sitemap_ctx *c)
{
	return c->xml->instate == XML_PARSER_EOF || c->xml->disableSAX;
}

/*
 * Parse with SAX2 callbacks of our own and nothing else: no tree is built,
 * and since there is no getEntity, entityDecl, externalSubset or
 * resolveEntity handler, libxml2 neither stores nor looks up any entity
 * but the five predefined ones (&amp; ...). A "billion laughs" is a list
 * of undefined references, an external entity is never opened. (The
 * xmlReader API would have done too, but in libxml2 2.9 it stops at the
 * first well-formedness error even with XML_PARSE_RECOVER, losing every
 * URL of a sitemap with one stray '&'; SAX with RECOVER goes on.)
 * Options: NONET in case a later change lets a DTD through; no NOENT,
 * DTDLOAD or HUGE, so libxml2's own limits stay on.
 */
static int
sitemap_xml(const char *p, size_t n, struct sitemap_ctx *c, const char **why)
{
	xmlGenericErrorFunc old_generic = xmlGenericError;
	void *old_generic_ctx = xmlGenericErrorContext;
	xmlStructuredErrorFunc old_structured = xmlStructuredError;
	void *old_structured_ctx = xmlStructuredErrorContext;
	xmlSAXHandler sax;
	size_t off, part;
	int rc = -1;

	memset(&sax, 0, sizeof(sax));
	sax.initialized = XML_SAX2_MAGIC;
	sax.startElementNs = sitemap_start;
	sax.endElementNs = sitemap_end;
	sax.characters = sitemap_text_cb;
	sax.ignorableWhitespace = sitemap_text_cb;
	sax.cdataBlock = sitemap_text_cb;
	sax.serror = sitemap_xml_error;
	buf_init(&c->loc, SITEMAP_LOC_MAX);
	xmlSetGenericErrorFunc(NULL, sitemap_silent);
	xmlSetStructuredErrorFunc(c, sitemap_xml_error);
	/* The first bytes let libxml2 detect the encoding. */
	part = n < 4 ? n : 4;
	c->xml = xmlCreatePushParserCtxt(&sax, c, p, (int)part, NULL);
	if (c->xml == NULL) {
		*why = "out of memory";
		goto done;
	}
	xmlCtxtUseOptions(c->xml, XML_PARSE_NONET | XML_PARSE_NOERROR |
	    XML_PARSE_NOWARNING | XML_PARSE_RECOVER);
	/* In pieces, so a full list or a wrong root stops the work early. */
	for (off = part; off < n && !sitemap_stopped(c); off += part) {
		part = n - off < SITEMAP_XML_CHUNK ? n - off : SITEMAP_XML_CHUNK;
		xmlParseChunk(c->xml, p + off, (int)part, 0);
	}
	if (!sitemap_stopped(c))
		xmlParseChunk(c->xml, NULL, 0, 1);
	if (c->nomem) {
		*why = "out of memory";
		goto done;
	}
	/* Errors after the root are the recovered tail of a real sitemap. */
	if (!c->seen_root) {
		*why = "not a sitemap";
		goto done;
	}
	rc = 0;
done:
	if (c->xml != NULL) {
		/*
		 * A SYSTEM entity declaration makes libxml2 start a document
		 * to hold it, even for SAX; the context does not free it.
		 */
		if (c->xml->myDoc != NULL)
			xmlFreeDoc(c->xml->myDoc);
		xmlFreeParserCtxt(c->xml);
		c->xml = NULL;
	}
	xmlSetGenericErrorFunc(old_generic_ctx, old_generic);
	xmlSetStructuredErrorFunc(old_structured_ctx, old_structured);
	buf_free(&c->loc);
	return rc;
}

int
sitemap_parse(const char *data, size_t len, struct sitemap *out,
    const char **why)
{
	const unsigned char *u = (const unsigned char *)data;
	struct sitemap_ctx c;
	struct buf plain, fixed;
	const char *p;
	size_t n;
	int rc = -1;

	memset(out, 0, sizeof(*out));
	memset(&c, 0, sizeof(c));
	c.out = out;
	buf_init(&plain, SITEMAP_MAX_BYTES);
	buf_init(&fixed, 0);
	*why = "not a sitemap";
	if (data == NULL || len == 0)
		goto fail;
	if (len >= 2 && u[0] == 0x1f && u[1] == 0x8b) {
		if (sitemap_inflate(u, len, &plain, &out->truncated, why) == -1)
			goto fail;
		p = plain.data;
		n = plain.len;
	} else {
		p = data;
		n = len;
		if (n > SITEMAP_MAX_BYTES) {
			n = SITEMAP_MAX_BYTES;
			out->truncated = 1;
		}
	}
	/* Skip a UTF-8 BOM and white space: libxml2 wants '<' first. */
	if (n >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0) {
		p += 3;
		n -= 3;
	}
	while (n > 0 && sitemap_is_space((unsigned char)*p)) {
		p++;
		n--;
	}
	if (n == 0) {
		*why = "not a sitemap";
		goto fail;
	}
	if (*p == '<') {
		buf_init(&fixed, SITEMAP_MAX_BYTES + SITEMAP_MAX_BYTES / 4);
		if (sitemap_escape_amps(p, n, &fixed, &out->truncated) == -1) {
			*why = "out of memory";
			goto fail;
		}
		if (fixed.len > 0) {
			/* The inflated copy is no longer needed. */
			buf_free(&plain);
			p = fixed.data;
			n = fixed.len;
		}
		rc = sitemap_xml(p, n, &c, why);
	} else {
		rc = sitemap_text(p, n, out->truncated, &c, why);
	}
	if (rc == -1)
		goto fail;
	if (c.full)
		out->truncated = 1;
	buf_free(&plain);
	buf_free(&fixed);
	return 0;
fail:
	buf_free(&plain);
	buf_free(&fixed);
	sitemap_free(out);
	return -1;
}

void
sitemap_free(struct sitemap *s)
{
	size_t i;

	if (s == NULL)
		return;
	for (i = 0; i < s->nurls; i++)
		free(s->urls[i]);
	for (i = 0; i < s->nsitemaps; i++)
		free(s->sitemaps[i]);
	free(s->urls);
	free(s->sitemaps);
	memset(s, 0, sizeof(*s));
}
