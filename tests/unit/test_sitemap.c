/* Unit tests for sitemap: XML, index, text, gzip, caps, hostile XML. */
#include "check.h"
#include "web/sitemap.h"

#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

/* deflate's next_in may then point at const data. */
#define ZLIB_CONST
#include <zlib.h>

/* Growing output for the gzip helpers; NULL data after a failure. */
struct zout {
	unsigned char *data;
	size_t len;
	size_t alloc;
};

static int
zout_take(struct zout *o, z_stream *zs, unsigned char *chunk, size_t n)
{
	size_t have = n - zs->avail_out;
	unsigned char *nd;

	if (have > o->alloc - o->len) {
		o->alloc = (o->alloc + have) * 2;
		nd = realloc(o->data, o->alloc);
		if (nd == NULL)
			return -1;
		o->data = nd;
	}
	memcpy(o->data + o->len, chunk, have);
	o->len += have;
	return 0;
}

/*
 * Gzip `times` copies of the n bytes at p after the prefix, streaming, so a
 * 200 MB bomb never exists uncompressed. Returns malloc'd data or NULL.
 */
static unsigned char *
gzip_repeat(const char *prefix, const void *p, size_t n, size_t times,
    size_t *outlen)
{
	unsigned char chunk[16384];
	struct zout o = { NULL, 0, 0 };
	z_stream zs;
	size_t i;
	int rc, flush;

	memset(&zs, 0, sizeof(zs));
	/* windowBits 31: gzip header; Z_RLE: fast on repeated bytes. */
	if (deflateInit2(&zs, 9, Z_DEFLATED, 31, 8, Z_RLE) != Z_OK)
		return NULL;
	for (i = 0; i <= times; i++) {
		if (i == 0) {
			zs.next_in = (const Bytef *)prefix;
			zs.avail_in = (uInt)strlen(prefix);
		} else {
			zs.next_in = p;
			zs.avail_in = (uInt)n;
		}
		flush = i == times ? Z_FINISH : Z_NO_FLUSH;
		do {
			zs.next_out = chunk;
			zs.avail_out = sizeof(chunk);
			rc = deflate(&zs, flush);
			if (rc == Z_STREAM_ERROR ||
			    zout_take(&o, &zs, chunk, sizeof(chunk)) == -1)
				goto fail;
		} while (zs.avail_out == 0 || (flush == Z_FINISH &&
		    rc != Z_STREAM_END));
	}
	deflateEnd(&zs);
	*outlen = o.len;
	return o.data;
fail:
	deflateEnd(&zs);
	free(o.data);
	return NULL;
}

static unsigned char *
gzip_of(const char *s, size_t *outlen)
{
	return gzip_repeat(s, "", 0, 0, outlen);
}

static int
parse_str(const char *s, struct sitemap *sm, const char **why)
{
	return sitemap_parse(s, strlen(s), sm, why);
}

/* Whether any URL of either list contains needle. */
static int
any_url_has(const struct sitemap *sm, const char *needle)
{
	size_t i;

	for (i = 0; i < sm->nurls; i++)
		if (strstr(sm->urls[i], needle) != NULL)
			return 1;
	for (i = 0; i < sm->nsitemaps; i++)
		if (strstr(sm->sitemaps[i], needle) != NULL)
			return 1;
	return 0;
}

static double
now_sec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Peak resident size so far, in MiB (Linux reports KiB). */
static long
peak_mib(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss / 1024;
}

static void
test_urlset_namespaces(void)
{
	const char *xml =
	    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"\n"
	    "  xmlns:image=\"http://www.google.com/schemas/sitemap-image/1.1\">\n"
	    "  <url>\n    <loc>\n      http://a.example/one\n    </loc>\n"
	    "    <lastmod>2024-01-01</lastmod>\n"
	    "    <image:image><image:loc>http://a.example/i.png</image:loc>"
	    "</image:image>\n  </url>\n"
	    "  <url><loc><![CDATA[http://a.example/two?x=1&y=2]]></loc></url>\n"
	    "  <url><loc/></url><url/>\n"
	    "</urlset>\n";
	const char *why = NULL;
	struct sitemap sm;

	CHECK_INT(parse_str(xml, &sm, &why), 0);
	CHECK_INT(sm.nurls, 2);
	CHECK_INT(sm.nsitemaps, 0);
	CHECK_INT(sm.truncated, 0);
	if (sm.nurls == 2) {
		CHECK_STR(sm.urls[0], "http://a.example/one");
		CHECK_STR(sm.urls[1], "http://a.example/two?x=1&y=2");
	}
	sitemap_free(&sm);
	CHECK(sm.urls == NULL && sm.nurls == 0);

	/* A prefixed namespace and a BOM with white space before it. */
	CHECK_INT(parse_str("\xef\xbb\xbf \n<sm:urlset xmlns:sm=\"urn:x\">"
	    "<sm:url><sm:loc>https://b.example/</sm:loc></sm:url>"
	    "</sm:urlset>", &sm, &why), 0);
	CHECK_INT(sm.nurls, 1);
	if (sm.nurls == 1)
		CHECK_STR(sm.urls[0], "https://b.example/");
	sitemap_free(&sm);
}

static void
test_sitemapindex(void)
{
	const char *xml =
	    "<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">"
	    "<sitemap><loc>http://a.example/s1.xml.gz</loc>"
	    "<lastmod>2024-01-01</lastmod></sitemap>"
	    "<sitemap> <loc> http://a.example/s2.xml </loc> </sitemap>"
	    "</sitemapindex>";
	const char *why = NULL;
	struct sitemap sm;

	CHECK_INT(parse_str(xml, &sm, &why), 0);
	CHECK_INT(sm.nurls, 0);
	CHECK_INT(sm.nsitemaps, 2);
	if (sm.nsitemaps == 2) {
		CHECK_STR(sm.sitemaps[0], "http://a.example/s1.xml.gz");
		CHECK_STR(sm.sitemaps[1], "http://a.example/s2.xml");
	}
	sitemap_free(&sm);
}

static void
test_invalid_dropped(void)
{
	const char *xml =
	    "<urlset>"
	    "<url><loc>javascript:alert(1)</loc></url>"
	    "<url><loc>/relative/path</loc></url>"
	    "<url><loc>ftp://a.example/f</loc></url>"
	    "<url><loc>mailto:x@a.example</loc></url>"
	    "<url><loc>http://</loc></url>"
	    "<url><loc>http://a.example/ok</loc></url>"
	    "<other><loc>http://a.example/not-in-url</loc></other>"
	    "</urlset>";
	const char *why = NULL;
	struct sitemap sm;

	CHECK_INT(parse_str(xml, &sm, &why), 0);
	CHECK_INT(sm.nurls, 1);
	if (sm.nurls == 1)
		CHECK_STR(sm.urls[0], "http://a.example/ok");
	sitemap_free(&sm);
}

static void
test_raw_ampersand(void)
{
	/* A raw '&' must neither lose text nor spoil later &amp;. */
	const char *xml =
	    "<urlset><url><loc>http://a.example/?a=1&b=2</loc></url>"
	    "<url><loc>http://a.example/?c&amp;d&#38;e&#x26;f</loc></url>"
	    "<url><loc><![CDATA[http://a.example/?g&amp;h&i]]></loc></url>"
	    "<url><loc>http://a.example/?j&&k;</loc></url></urlset>";
	const char *why = NULL;
	struct sitemap sm;

	CHECK_INT(parse_str(xml, &sm, &why), 0);
	CHECK_INT(sm.nurls, 4);
	if (sm.nurls == 4) {
		CHECK_STR(sm.urls[0], "http://a.example/?a=1&b=2");
		CHECK_STR(sm.urls[1], "http://a.example/?c&d&e&f");
		CHECK_STR(sm.urls[2], "http://a.example/?g&amp;h&i");
		/* Not a predefined entity: plain text, never expanded. */
		CHECK_STR(sm.urls[3], "http://a.example/?j&&k;");
	}
	sitemap_free(&sm);
}

static void
test_normalised(void)
{
	const char *xml =
	    "<urlset><url><loc>HTTP://WWW.A.Example:80/a/./b/../c#frag</loc>"
	    "</url><url><loc>https://a.example:443</loc></url></urlset>";
	const char *why = NULL;
	struct sitemap sm;

	CHECK_INT(parse_str(xml, &sm, &why), 0);
	CHECK_INT(sm.nurls, 2);
	if (sm.nurls == 2) {
		CHECK_STR(sm.urls[0], "http://www.a.example/a/c");
		CHECK_STR(sm.urls[1], "https://a.example/");
	}
	sitemap_free(&sm);
}

static void
test_gzip(void)
{
	const char *xml = "<urlset><url><loc>http://a.example/gz</loc></url>"
	    "</urlset>";
	unsigned char *gz, *two;
	const char *why = NULL;
	struct sitemap sm;
	size_t n;

	gz = gzip_of(xml, &n);
	CHECK(gz != NULL);
	if (gz == NULL)
		return;
	CHECK_INT(sitemap_parse((char *)gz, n, &sm, &why), 0);
	CHECK_INT(sm.nurls, 1);
	CHECK_INT(sm.truncated, 0);
	if (sm.nurls == 1)
		CHECK_STR(sm.urls[0], "http://a.example/gz");
	sitemap_free(&sm);

	/* Two gzip members back to back are one file, as for gunzip. */
	two = malloc(2 * n);
	CHECK(two != NULL);
	if (two != NULL) {
		memcpy(two, gz, n);
		memcpy(two + n, gz, n);
		CHECK_INT(sitemap_parse((char *)two, 2 * n, &sm, &why), 0);
		/* The second root is an error recovered after the first. */
		CHECK_INT(sm.nurls, 1);
		sitemap_free(&sm);
	}
	free(two);
	free(gz);
}

static void
test_gzip_bad_and_cut(void)
{
	const char *txt = "http://a.example/1\nhttp://a.example/2\n"
	    "http://a.example/3\n";
	const char *why = NULL;
	struct sitemap sm;
	unsigned char *gz;
	size_t n;

	gz = gzip_of(txt, &n);
	CHECK(gz != NULL);
	if (gz == NULL)
		return;
	/* Corrupt the deflate data: zlib must refuse it. */
	memset(gz + 10, 0xff, n - 10 > 8 ? 8 : n - 10);
	CHECK_INT(sitemap_parse((char *)gz, n, &sm, &why), -1);
	CHECK_STR(why, "bad gzip data");
	CHECK(sm.urls == NULL && sm.nurls == 0);
	free(gz);

	/* Only the header: nothing inflates, that is bad data too. */
	gz = gzip_of(txt, &n);
	CHECK(gz != NULL);
	if (gz == NULL)
		return;
	CHECK_INT(sitemap_parse((char *)gz, 10, &sm, &why), -1);
	CHECK_STR(why, "bad gzip data");
	free(gz);
}

static void
test_gzip_cut_keeps_start(void)
{
	unsigned char *gz;
	const char *why = NULL;
	struct sitemap sm;
	const char *line = "http://a.example/page\n";
	size_t n;

	/* Enough lines that cutting the trailer off loses only the end. */
	gz = gzip_repeat("http://a.example/first\n", line, strlen(line),
	    20000, &n);
	CHECK(gz != NULL);
	if (gz == NULL)
		return;
	CHECK_INT(sitemap_parse((char *)gz, n - 12, &sm, &why), 0);
	CHECK_INT(sm.truncated, 1);
	CHECK(sm.nurls >= 1);
	if (sm.nurls >= 1)
		CHECK_STR(sm.urls[0], "http://a.example/first");
	sitemap_free(&sm);
	free(gz);
}

static void
test_gzip_bomb(void)
{
	static char spaces[65536];
	const char *head = "<?xml version=\"1.0\"?><urlset><url><loc>"
	    "http://a.example/before-bomb</loc></url>";
	const char *why = NULL;
	struct sitemap sm;
	unsigned char *gz;
	long before;
	size_t n;
	int rc;

	memset(spaces, ' ', sizeof(spaces));
	/* 200 MiB of spaces inside the root: four times the cap. */
	gz = gzip_repeat(head, spaces, sizeof(spaces), 3200, &n);
	CHECK(gz != NULL);
	if (gz == NULL)
		return;
	CHECK(n < 1024 * 1024);
	before = peak_mib();
	rc = sitemap_parse((char *)gz, n, &sm, &why);
	CHECK_INT(rc, 0);
	CHECK_INT(sm.truncated, 1);
	CHECK_INT(sm.nurls, 1);
	if (sm.nurls == 1)
		CHECK_STR(sm.urls[0], "http://a.example/before-bomb");
	/* The cap (50 MiB, 64 MiB allocated) and the parser: well under 200. */
	CHECK(peak_mib() - before < 180);
	if (rc == 0)
		sitemap_free(&sm);
	free(gz);
}

static void
test_plain_text(void)
{
	const char *txt = "\xef\xbb\xbfhttp://a.example/1\r\n"
	    "   https://A.EXAMPLE/2#x  \n\n"
	    "not a url\n"
	    "ftp://a.example/3\n"
	    "http://a.example/4";
	const char *why = NULL;
	struct sitemap sm;

	CHECK_INT(parse_str(txt, &sm, &why), 0);
	CHECK_INT(sm.nurls, 3);
	CHECK_INT(sm.nsitemaps, 0);
	if (sm.nurls == 3) {
		CHECK_STR(sm.urls[0], "http://a.example/1");
		CHECK_STR(sm.urls[1], "https://a.example/2");
		CHECK_STR(sm.urls[2], "http://a.example/4");
	}
	sitemap_free(&sm);
}

static void
test_url_cap(void)
{
	size_t i, total = SITEMAP_MAX_URLS + 7, cap, len = 0;
	const char *why = NULL;
	struct sitemap sm;
	char *xml;
	int n;

	cap = 64 + total * 64;
	xml = malloc(cap);
	CHECK(xml != NULL);
	if (xml == NULL)
		return;
	len += (size_t)snprintf(xml, cap, "<urlset>");
	for (i = 0; i < total; i++) {
		n = snprintf(xml + len, cap - len,
		    "<url><loc>http://a.example/%zu</loc></url>", i);
		len += (size_t)n;
	}
	len += (size_t)snprintf(xml + len, cap - len, "</urlset>");
	CHECK_INT(sitemap_parse(xml, len, &sm, &why), 0);
	CHECK_INT(sm.nurls, SITEMAP_MAX_URLS);
	CHECK_INT(sm.truncated, 1);
	if (sm.nurls == SITEMAP_MAX_URLS)
		CHECK_STR(sm.urls[SITEMAP_MAX_URLS - 1],
		    "http://a.example/49999");
	sitemap_free(&sm);

	/* Exactly the cap is not truncated. */
	len = (size_t)snprintf(xml, cap, "<urlset>");
	for (i = 0; i < SITEMAP_MAX_URLS; i++)
		len += (size_t)snprintf(xml + len, cap - len,
		    "<url><loc>http://a.example/%zu</loc></url>", i);
	len += (size_t)snprintf(xml + len, cap - len, "</urlset>");
	CHECK_INT(sitemap_parse(xml, len, &sm, &why), 0);
	CHECK_INT(sm.nurls, SITEMAP_MAX_URLS);
	CHECK_INT(sm.truncated, 0);
	sitemap_free(&sm);
	free(xml);
}

static void
test_entity_bomb(void)
{
	const char *tail = "]>\n"
	    "<urlset><url><loc>http://a.example/&lol9;</loc></url>"
	    "<url><loc>&lol9;&lol9;&lol9;</loc></url>"
	    "<url><loc>http://a.example/after</loc></url></urlset>";
	const char *why = NULL;
	struct sitemap sm;
	char xml[4096];
	size_t len;
	double t0;
	long before;
	int rc, lvl, k;

	/* "Billion laughs": lol9 would expand to 10^9 "lol"s. */
	len = (size_t)snprintf(xml, sizeof(xml), "<?xml version=\"1.0\"?>\n"
	    "<!DOCTYPE urlset [\n <!ENTITY lol0 \"lol\">\n");
	for (lvl = 1; lvl <= 9; lvl++) {
		len += (size_t)snprintf(xml + len, sizeof(xml) - len,
		    " <!ENTITY lol%d \"", lvl);
		for (k = 0; k < 10; k++)
			len += (size_t)snprintf(xml + len, sizeof(xml) - len,
			    "&lol%d;", lvl - 1);
		len += (size_t)snprintf(xml + len, sizeof(xml) - len, "\">\n");
	}
	len += (size_t)snprintf(xml + len, sizeof(xml) - len, "%s", tail);
	CHECK(len < sizeof(xml));
	before = peak_mib();
	t0 = now_sec();
	rc = sitemap_parse(xml, len, &sm, &why);
	CHECK(now_sec() - t0 < 5.0);
	CHECK(peak_mib() - before < 64);
	if (rc == 0) {
		CHECK(!any_url_has(&sm, "lollol"));
		CHECK(any_url_has(&sm, "/after"));
		sitemap_free(&sm);
	}
}

static void
test_external_entity(void)
{
	const char *xml =
	    "<?xml version=\"1.0\"?>\n"
	    "<!DOCTYPE urlset [\n"
	    " <!ENTITY x SYSTEM \"file:///etc/passwd\">\n"
	    " <!ENTITY % p SYSTEM \"file:///etc/passwd\">\n"
	    " %p;\n"
	    "]>\n"
	    "<urlset><url><loc>http://a.example/&x;</loc></url>"
	    "<url><loc>&x;</loc></url></urlset>";
	const char *dtd =
	    "<!DOCTYPE urlset SYSTEM \"file:///etc/passwd\">"
	    "<urlset><url><loc>http://a.example/d</loc></url></urlset>";
	const char *why = NULL;
	struct sitemap sm;

	if (parse_str(xml, &sm, &why) == 0) {
		CHECK(!any_url_has(&sm, "root"));
		CHECK(!any_url_has(&sm, "bin"));
		sitemap_free(&sm);
	}
	CHECK_INT(parse_str(dtd, &sm, &why), 0);
	CHECK_INT(sm.nurls, 1);
	if (sm.nurls == 1)
		CHECK_STR(sm.urls[0], "http://a.example/d");
	sitemap_free(&sm);
}

static void
test_empty_and_other_roots(void)
{
	const char *why = NULL;
	struct sitemap sm;

	CHECK_INT(sitemap_parse("", 0, &sm, &why), -1);
	CHECK_STR(why, "not a sitemap");
	CHECK(sm.urls == NULL && sm.sitemaps == NULL);
	CHECK_INT(sitemap_parse(NULL, 0, &sm, &why), -1);
	CHECK_INT(parse_str(" \r\n\t", &sm, &why), -1);
	CHECK_STR(why, "not a sitemap");
	CHECK_INT(parse_str("<html><body><a href=\"http://a.example/\">x"
	    "</a></body></html>", &sm, &why), -1);
	CHECK_STR(why, "not a sitemap");
	CHECK_INT(parse_str("<", &sm, &why), -1);
	CHECK_STR(why, "not a sitemap");
	sitemap_free(NULL);
}

static void
test_binary_garbage(void)
{
	static unsigned char junk[100000];
	const char *why = NULL;
	struct sitemap sm;
	unsigned int x = 12345;
	size_t i;
	int rc, round;

	for (round = 0; round < 4; round++) {
		for (i = 0; i < sizeof(junk); i++) {
			x = x * 1103515245u + 12345u;
			junk[i] = (unsigned char)(x >> 16);
		}
		/* Each start: text, XML, gzip magic, and raw. */
		if (round == 1)
			junk[0] = '<';
		if (round == 2) {
			junk[0] = 0x1f;
			junk[1] = 0x8b;
		}
		rc = sitemap_parse((char *)junk, sizeof(junk), &sm, &why);
		CHECK(rc == -1 || sm.nurls + sm.nsitemaps == 0);
		if (rc == 0)
			sitemap_free(&sm);
	}
}

void
suite_sitemap(void)
{
	RUN(test_urlset_namespaces);
	RUN(test_sitemapindex);
	RUN(test_invalid_dropped);
	RUN(test_raw_ampersand);
	RUN(test_normalised);
	RUN(test_gzip);
	RUN(test_gzip_bad_and_cut);
	RUN(test_gzip_cut_keeps_start);
	RUN(test_gzip_bomb);
	RUN(test_plain_text);
	RUN(test_url_cap);
	RUN(test_entity_bomb);
	RUN(test_external_entity);
	RUN(test_empty_and_other_roots);
	RUN(test_binary_garbage);
}
