/* Unit tests for url and urlfilter: normal form, resolution, host, origin,
 * scope, traps, parameter stripping. */
#include "check.h"
#include "web/url.h"
#include "web/urlfilter.h"

#include <stdlib.h>
#include <string.h>

/* Normalising in must give exactly want (NULL: refused with reason why). */
static void
norm_is(const char *in, const char *want, const char *want_why)
{
	const char *why = NULL;
	char *got = url_normalize(in, &why);

	if (want == NULL) {
		CHECK(got == NULL);
		CHECK_STR(why, want_why);
	} else {
		CHECK_STR(got, want);
	}
	free(got);
}

static void
res_is(const char *base, const char *ref, const char *want,
    const char *want_why)
{
	const char *why = NULL;
	char *got = url_resolve(base, ref, &why);

	if (want == NULL) {
		CHECK(got == NULL);
		CHECK_STR(why, want_why);
	} else {
		CHECK_STR(got, want);
	}
	free(got);
}

static void
test_normalize_case_port_fragment(void)
{
	norm_is("HTTP://WWW.Example.ORG:80/A/b?X=1#frag",
	    "http://www.example.org/A/b?X=1", NULL);
	norm_is("https://Example.org:443", "https://example.org/", NULL);
	norm_is("http://example.org:8080/x", "http://example.org:8080/x",
	    NULL);
	norm_is("https://example.org:80/", "https://example.org:80/", NULL);
	norm_is("http://example.org", "http://example.org/", NULL);
	norm_is("http://example.org?q=1", "http://example.org/?q=1", NULL);
}

static void
test_normalize_dots_userinfo(void)
{
	norm_is("http://a.org/a/./b/../c", "http://a.org/a/c", NULL);
	norm_is("http://a.org/a/b/..", "http://a.org/a/", NULL);
	norm_is("http://user:secret@a.org/x", "http://a.org/x", NULL);
	norm_is("http://user@A.org/", "http://a.org/", NULL);
}

static void
test_normalize_encoding_space(void)
{
	norm_is("http://a.org/%7Euser/%41", "http://a.org/%7Euser/%41", NULL);
	norm_is("  http://a.org/a b?c d#e f \n", "http://a.org/a%20b?c%20d",
	    NULL);
	norm_is("http://a.org/\xc3\xa9", "http://a.org/%C3%A9", NULL);
	norm_is("http://a.org/%7e?q=%2f%zz%4", "http://a.org/%7E?q=%2F%zz%4",
	    NULL);
	norm_is("http://[::1]:8080/x", "http://[::1]:8080/x", NULL);
	/* Raw IDN hosts are refused: libcurl 7.88's CURLU_PUNYCODE fails
	 * here, and raw bytes would not survive a second parse. */
	norm_is("http://B\xc3\xbc" "cher.DE/", NULL,
	    "host not a plain name or address");
	norm_is("http://xn--bcher-kva.DE/", "http://xn--bcher-kva.de/", NULL);
	norm_is("http://a%7Fb/", NULL, "host not a plain name or address");
	norm_is("http://h%/x", NULL, "host not a plain name or address");
	/* Numbers hidden in escapes: curl would settle them only next time. */
	norm_is("http://%31/", NULL, "host not a plain name or address");
	norm_is("http://1/", "http://0.0.0.1/", NULL);
	norm_is("http://0x7f.1/", "http://127.0.0.1/", NULL);
	norm_is("http://10.0.0.1/", "http://10.0.0.1/", NULL);
	norm_is("http://cafe.be/", "http://cafe.be/", NULL);
	norm_is("http://1.2.3.a/", "http://1.2.3.a/", NULL);
	norm_is("http://[::1%25%0B]/", NULL,
	    "host not a plain name or address");
}

static void
test_normalize_refused(void)
{
	norm_is("ftp://a.org/x", NULL, "not http(s)");
	norm_is("javascript:alert(1)", NULL, "not http(s)");
	norm_is("mailto:a@b.org", NULL, "not http(s)");
	norm_is("file:///etc/passwd", NULL, "not http(s)");
	norm_is("data:text/html,hi", NULL, "not http(s)");
	norm_is("/relative/path", NULL, "malformed");
	norm_is("", NULL, "malformed");
	norm_is("http://", NULL, "malformed");
}

static void
test_normalize_too_long(void)
{
	char *u = malloc(URL_MAX_LEN + 64);
	size_t i;

	CHECK(u != NULL);
	if (u == NULL)
		return;
	strcpy(u, "http://a.org/");
	for (i = strlen(u); i < URL_MAX_LEN + 10; i++)
		u[i] = 'x';
	u[i] = '\0';
	norm_is(u, NULL, "too long");
	/* Exactly URL_MAX_LEN bytes is still fine. */
	u[URL_MAX_LEN] = '\0';
	{
		const char *why = NULL;
		char *got = url_normalize(u, &why);

		CHECK(got != NULL);
		if (got != NULL)
			CHECK_INT(strlen(got), URL_MAX_LEN);
		free(got);
	}
	free(u);
}

static void
test_resolve_relative(void)
{
	const char *b = "http://a.org/d1/d2/page.html?q=1#top";

	res_is(b, "x.html", "http://a.org/d1/d2/x.html", NULL);
	res_is(b, "../y", "http://a.org/d1/y", NULL);
	res_is(b, "../../../../z", "http://a.org/z", NULL);
	res_is(b, "/abs?k=v", "http://a.org/abs?k=v", NULL);
	res_is(b, "./", "http://a.org/d1/d2/", NULL);
	res_is(b, "..", "http://a.org/d1/", NULL);
	res_is(b, "g;x?y#s", "http://a.org/d1/d2/g;x?y", NULL);
}

static void
test_resolve_special_forms(void)
{
	const char *b = "https://a.org/d1/page.html?q=1";

	res_is(b, "//Other.ORG/p", "https://other.org/p", NULL);
	res_is(b, "?a=b", "https://a.org/d1/page.html?a=b", NULL);
	res_is(b, "#frag", "https://a.org/d1/page.html?q=1", NULL);
	res_is(b, "", "https://a.org/d1/page.html?q=1", NULL);
	res_is(b, "  \n x.html\t ", "https://a.org/d1/x.html", NULL);
	res_is(b, "x\n y\r\n.html", "https://a.org/d1/x%20y.html", NULL);
	res_is(b, "a b.html?c d", "https://a.org/d1/a%20b.html?c%20d", NULL);
	res_is(b, "..\\up\\x", "https://a.org/up/x", NULL);
	res_is(b, "HTTP://B.ORG:80", "http://b.org/", NULL);
}

static void
test_resolve_refused(void)
{
	const char *b = "http://a.org/";

	res_is(b, "javascript:void(0)", NULL, "not http(s)");
	res_is(b, " JavaScript:void(0)", NULL, "not http(s)");
	res_is(b, "mailto:x@a.org", NULL, "not http(s)");
	res_is(b, "tel:+123", NULL, "not http(s)");
	res_is(b, "data:image/png;base64,AAAA", NULL, "not http(s)");
	res_is(b, "ftp://a.org/f", NULL, "not http(s)");
	res_is("ftp://a.org/", "x", NULL, "not http(s)");
	res_is(NULL, "x", NULL, "malformed");
	/* An absolute link needs no base, even a broken one. */
	res_is("not a url", "http://c.org/", "http://c.org/", NULL);
}

/* A small deterministic generator, so failures reproduce. */
static unsigned long long rng_state = 0x9e3779b97f4a7c15ULL;

static unsigned
rnd(unsigned n)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (unsigned)(rng_state % n);
}

/* A ref built from pieces that exercise every branch of the join. */
static void
random_ref(char *out, size_t outsz)
{
	static const char *const starts[] = { "", "", "", "/", "/", "./",
		"../", "../../", "?", "#", "//a.test/", "http://a.test:8080/",
		"http://a.test:8080", "HTTP://a.test:8080/", "https://a.test/",
		"http://a.test/", "mailto:", "javascript:", "x:", "1:",
		" /", "\\", "http://b.test:8080/" };
	static const char *const parts[] = { "a", "b", "index.html", ".",
		"..", "/", "/", "/", "?", "q=1", "&", "=", "#f", "%7e", "%2F",
		" ", "\xc3\xa9", "~", "-", "_", "'", "(", ")", "*", "+", ",",
		";", ":", "@", "!", "$", "[", "]", "\\", "\"", "<", "|", "^",
		"`", "{", "..", ".hidden", "x..y", "\t", "//" };
	size_t i, n = rnd(8);

	snprintf(out, outsz, "%s", starts[rnd(sizeof(starts) /
	    sizeof(starts[0]))]);
	for (i = 0; i < n; i++)
		strncat(out, parts[rnd(sizeof(parts) / sizeof(parts[0]))],
		    outsz - strlen(out) - 1);
}

/* url_base_resolve must agree with url_resolve on every ref. */
static void
test_base_resolve_agrees(void)
{
	static const char *const bases[] = { "http://a.test:8080/",
		"http://a.test:8080/x/y/z.html", "http://a.test:8080/x/y/",
		"http://a.test:8080/x/y?q=1", "https://a.test/a/b/c?",
		"http://a.test/p", "http://A.test/Not/Normal",
		"http://a.test:80/x/", "http://a.test/x/../y", NULL,
		"not a url", "http://a.test/%7e/x", "http://a.test//x/y",
		"http://a.test/x//y/z" };
	char ref[256];
	size_t i, k, bad = 0;

	for (k = 0; k < sizeof(bases) / sizeof(bases[0]); k++) {
		struct url_base b;

		CHECK_INT(url_base_init(&b, bases[k]), 0);
		for (i = 0; i < 4000; i++) {
			const char *w1 = NULL, *w2 = NULL;
			char *fast, *slow;

			random_ref(ref, sizeof(ref));
			fast = url_base_resolve(&b, ref, &w1);
			slow = url_resolve(bases[k], ref, &w2);
			if ((fast == NULL) != (slow == NULL) ||
			    (fast != NULL && strcmp(fast, slow) != 0) ||
			    (fast == NULL && strcmp(w1, w2) != 0)) {
				if (bad++ < 5)
					fprintf(stderr, "base %s ref '%s': "
					    "fast %s (%s), slow %s (%s)\n",
					    bases[k] ? bases[k] : "(null)", ref,
					    fast ? fast : "-", w1 ? w1 : "",
					    slow ? slow : "-", w2 ? w2 : "");
			}
			free(fast);
			free(slow);
		}
		url_base_free(&b);
	}
	CHECK_INT(bad, 0);
}

static void
test_base_resolve_dots(void)
{
	static const char *const cases[][2] = {
		{ "../../../x", "http://a.test/x" },
		{ "../x/./y/../z", "http://a.test/p/x/z" },
		{ ".", "http://a.test/p/q/" },
		{ "..", "http://a.test/p/" },
		{ "./", "http://a.test/p/q/" },
		{ "/a/b/..", "http://a.test/a/" },
		{ "x..y/.z", "http://a.test/p/q/x..y/.z" },
		{ "?k=./..", "http://a.test/p/q/r?k=./.." },
		{ "", "http://a.test/p/q/r?s" },
		{ "#top", "http://a.test/p/q/r?s" },
	};
	struct url_base b;
	size_t i;

	CHECK_INT(url_base_init(&b, "http://a.test/p/q/r?s"), 0);
	CHECK(b.norm != NULL);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *got = url_base_resolve(&b, cases[i][0], NULL);

		CHECK_STR(got, cases[i][1]);
		free(got);
	}
	url_base_free(&b);
}

/* An absolute URL built from pieces near the edges of the normal form. */
static void
random_url(char *out, size_t outsz)
{
	static const char *const schemes[] = { "http://", "https://",
		"HTTP://", "ftp://", "http:/", "" };
	static const char *const hosts[] = { "a.test", "www.a-b.test",
		"A.test", "127.0.0.1", "1.2.3", "01.2.3.4", "1.2.3.04",
		"0x7f.0.0.1", "256.1.1.1", "1.2.3.4.5", "9", "a..b", ".a",
		"a.", "a_b.test", "[::1]", "u:p@a.test", "1a.2b", "x1.2.3.4",
		"", "a%41.test", "\xc3\xa9.test", "-a.test", "a-.test",
		"0.0.0.0", "255.255.255.255", "1.2.3.256", "localhost" };
	static const char *const ports[] = { "", "", "", ":80", ":443",
		":8080", ":0", ":08080", ":65535", ":65536", ":123456", ":" };
	static const char *const parts[] = { "/", "/", "/", "a", "b.html",
		"c", "d/", "e", "f/", "g=h", ".", "..", "?", "q=1", "&", "=", "#f", "%7e", "%2F", " ", "~",
		"-", "_", "'", "(", "*", "+", ",", ";", ":", "@", "!", "$",
		"\\", "\"", "<", "^", "{", ".x", "\t", "//", "?", "" };
	size_t i, n = rnd(8);

	snprintf(out, outsz, "%s%s%s", schemes[rnd(sizeof(schemes) /
	    sizeof(schemes[0]))], hosts[rnd(sizeof(hosts) /
	    sizeof(hosts[0]))], ports[rnd(sizeof(ports) / sizeof(ports[0]))]);
	if (rnd(4) != 0)
		strncat(out, "/", outsz - strlen(out) - 1);
	for (i = 0; i < n; i++)
		strncat(out, parts[rnd(sizeof(parts) / sizeof(parts[0]))],
		    outsz - strlen(out) - 1);
}

/*
 * url_normalize reads a URL already in normal form off the string; it must
 * agree with the parse, which url_resolve always takes for an absolute
 * ref. url_origin likewise, against the parse that an upper-case scheme
 * forces.
 */
static void
test_normalize_agrees(void)
{
	char url[512], upper[520], o1[256], o2[256];
	size_t i, bad = 0, same = 0;

	for (i = 0; i < 40000; i++) {
		const char *w1 = NULL, *w2 = NULL;
		char *fast, *slow;
		int r1, r2;

		random_url(url, sizeof(url));
		fast = url_normalize(url, &w1);
		slow = url_resolve(NULL, url, &w2);
		if ((fast == NULL) != (slow == NULL) ||
		    (fast != NULL && strcmp(fast, slow) != 0) ||
		    (fast == NULL && strcmp(w1, w2) != 0)) {
			if (bad++ < 5)
				fprintf(stderr, "'%s': fast %s (%s), slow %s "
				    "(%s)\n", url, fast ? fast : "-",
				    w1 ? w1 : "", slow ? slow : "-",
				    w2 ? w2 : "");
		}
		same += fast != NULL && strcmp(fast, url) == 0;
		free(fast);
		free(slow);
		if (strncmp(url, "http", 4) != 0)
			continue;
		snprintf(upper, sizeof(upper), "HTTP%s", url + 4);
		r1 = url_origin(url, o1, sizeof(o1));
		r2 = url_origin(upper, o2, sizeof(o2));
		if (r1 != r2 || (r1 == 0 && strcmp(o1, o2) != 0)) {
			if (bad++ < 5)
				fprintf(stderr, "origin of '%s': %s, parsed "
				    "%s\n", url, r1 == 0 ? o1 : "-",
				    r2 == 0 ? o2 : "-");
		}
	}
	CHECK_INT(bad, 0);
	/* The pieces must reach the string-only reading often. */
	CHECK(same > 1000);
}

static void
test_host(void)
{
	char out[64];

	CHECK_INT(url_host("http://www.a.org:8080/x", out, sizeof(out)), 0);
	CHECK_STR(out, "www.a.org");
	CHECK_INT(url_host("http://WWW.A.ORG/", out, sizeof(out)), 0);
	CHECK_STR(out, "www.a.org");
	CHECK_INT(url_host("http://[::1]:8080/", out, sizeof(out)), 0);
	CHECK_STR(out, "::1");
	CHECK_INT(url_host("http://www.a.org/", out, 9), -1);
	CHECK_INT(url_host("http://www.a.org/", out, 10), 0);
	CHECK_STR(out, "www.a.org");
	CHECK_INT(url_host("/just/a/path", out, sizeof(out)), -1);
	/* Forms the string-only reading must leave to the parse. */
	CHECK_INT(url_host("http://u:p@a.org/", out, sizeof(out)), 0);
	CHECK_STR(out, "a.org");
	CHECK_INT(url_host("https://a.org?x", out, sizeof(out)), 0);
	CHECK_STR(out, "a.org");
}

static void
test_origin(void)
{
	char out[64];

	CHECK_INT(url_origin("http://a.org/x/y?z", out, sizeof(out)), 0);
	CHECK_STR(out, "http://a.org");
	CHECK_INT(url_origin("https://a.org:8443/x", out, sizeof(out)), 0);
	CHECK_STR(out, "https://a.org:8443");
	CHECK_INT(url_origin("https://a.org:443/x", out, sizeof(out)), 0);
	CHECK_STR(out, "https://a.org");
	CHECK_INT(url_origin("http://[::1]:8080/", out, sizeof(out)), 0);
	CHECK_STR(out, "http://[::1]:8080");
	CHECK_INT(url_origin("http://a.org/", out, 12), -1);
	CHECK_INT(url_origin("http://a.org/", out, 13), 0);
	CHECK_STR(out, "http://a.org");
}

static void
test_in_domains(void)
{
	char *doms[] = { "a.org", "Uni.EDU" };
	char *dotted[] = { ".b.org" };

	CHECK_INT(urlfilter_host_in_domains("a.org", doms, 2), 1);
	CHECK_INT(urlfilter_host_in_domains("www.a.org", doms, 2), 1);
	CHECK_INT(urlfilter_host_in_domains("x.y.A.ORG", doms, 2), 1);
	CHECK_INT(urlfilter_host_in_domains("cs.uni.edu", doms, 2), 1);
	CHECK_INT(urlfilter_host_in_domains("xa.org", doms, 2), 0);
	CHECK_INT(urlfilter_host_in_domains("a.org.evil.com", doms, 2), 0);
	CHECK_INT(urlfilter_host_in_domains("org", doms, 2), 0);
	CHECK_INT(urlfilter_host_in_domains("www.a.org", doms, 0), 0);
	CHECK_INT(urlfilter_host_in_domains("www.b.org", dotted, 1), 1);
	CHECK_INT(urlfilter_host_in_domains("b.org", dotted, 1), 1);
}

static void
test_trapped_paths(void)
{
	char deep[512] = "http://a.test";
	int i;

	CHECK_INT(urlfilter_path_trapped("http://a.test/"), 0);
	CHECK_INT(urlfilter_path_trapped("http://a.test/a/b/c/d.html"), 0);
	CHECK_INT(urlfilter_path_trapped("http://a.test/a/a/b.html"), 0);
	CHECK_INT(urlfilter_path_trapped("http://a.test/a/a/a/b.html"), 1);
	CHECK_INT(urlfilter_path_trapped("http://a.test/x/a/b/a/b/a/b/"), 1);
	CHECK_INT(urlfilter_path_trapped("http://a.test/x/a/b/a/b/c"), 0);
	CHECK_INT(urlfilter_path_trapped("http://a.test/1/2/3/1/2/3/1/2/3"), 1);
	CHECK_INT(urlfilter_path_trapped("http://a.test/ab/abc/ab/abc/ab/x"), 0);
	CHECK_INT(urlfilter_path_trapped("http://a.test/p?q=/a/a/a/a"), 0);
	for (i = 0; i < 32; i++)
		strcat(deep, i % 2 ? "/x" : "/y");
	CHECK_INT(urlfilter_path_trapped(deep), 1);
	deep[strlen(deep) - 2] = '\0';
	CHECK_INT(urlfilter_path_trapped(deep), 1);
	strcpy(deep, "http://a.test");
	for (i = 0; i < 32; i++)
		snprintf(deep + strlen(deep), sizeof(deep) - strlen(deep),
		    "/s%d", i);
	CHECK_INT(urlfilter_path_trapped(deep), 0);
	strcat(deep, "/s32");
	CHECK_INT(urlfilter_path_trapped(deep), 1);
}

/* Stripping names from url must give want, with the given return. */
static void
strip_is(const char *url, const char *names, const char *want, int ret)
{
	char out[URL_MAX_LEN + 1];

	CHECK_INT(urlfilter_strip_params(url, names, out, sizeof(out)), ret);
	CHECK_STR(out, want);
}

static void
test_strip_query(void)
{
	const char *l = "utm_*,sid,jsessionid";

	strip_is("http://a.org/p?utm_source=x&id=7&utm_medium=y", l,
	    "http://a.org/p?id=7", 1);
	strip_is("http://a.org/p?id=7", l, "http://a.org/p?id=7", 0);
	/* Nothing left: the '?' goes too. */
	strip_is("http://a.org/p?sid=1&utm_x=2", l, "http://a.org/p", 1);
	strip_is("http://a.org/?sid=1", l, "http://a.org/", 1);
	/* Names without '=', empty values, repeats, any case. */
	strip_is("http://a.org/p?sid&a&SID=&Utm_Campaign=3&sid=2", l,
	    "http://a.org/p?a", 1);
	/* Empty pieces go once anything goes, else the query is as given. */
	strip_is(
	    "http://a.org/p?a=1&&sid=2&&b=3&", l, "http://a.org/p?a=1&b=3", 1);
	strip_is("http://a.org/p?a=1&&b=3&", l, "http://a.org/p?a=1&&b=3&", 0);
	/* Escaped names are compared decoded; values never matter. */
	strip_is("http://a.org/p?utm%5Fsource=1&%53id=2&x=sid", l,
	    "http://a.org/p?x=sid", 1);
	/* A name that merely starts or ends like a listed one stays. */
	strip_is("http://a.org/p?sids=1&xsid=2&utm=3&utm_=4", l,
	    "http://a.org/p?sids=1&xsid=2&utm=3", 1);
	/* Only the query: a path or host that looks like a name stays. */
	strip_is("http://sid.org/sid=1/utm_x?q=1", l,
	    "http://sid.org/sid=1/utm_x?q=1", 0);
	/* A fragment, should one be there, is kept. */
	strip_is("http://a.org/p?sid=1#top", l, "http://a.org/p#top", 1);
	strip_is("http://a.org/p?q=1&sid=1#x&sid=2", l,
	    "http://a.org/p?q=1#x&sid=2", 1);
	/* "*" alone strips every parameter. */
	strip_is("http://a.org/p?a=1&b=2", "*", "http://a.org/p", 1);
	/* Blanks around entries are ignored; an empty list strips nothing. */
	strip_is("http://a.org/p?b=2&a=1", " a , c* ", "http://a.org/p?b=2", 1);
	strip_is("http://a.org/p?a=1", "", "http://a.org/p?a=1", 0);
	strip_is("http://a.org/p?a=1", NULL, "http://a.org/p?a=1", 0);
}

static void
test_strip_path_params(void)
{
	const char *l = "jsessionid,sid";

	strip_is("http://a.org/shop/cart.jsp;jsessionid=A1B2?x=1", l,
	    "http://a.org/shop/cart.jsp?x=1", 1);
	strip_is("http://a.org/c;JSESSIONID=A1;v=2/d;sid=3", l,
	    "http://a.org/c;v=2/d", 1);
	strip_is("http://a.org/x;jsessionid=1?jsessionid=2&k=v", l,
	    "http://a.org/x?k=v", 1);
	/* Without '=' it may be part of a name: ";sid" stays. */
	strip_is("http://a.org/a;sid/b;v=1", l, "http://a.org/a;sid/b;v=1", 0);
	/* Never make a dot segment. */
	strip_is(
	    "http://a.org/a/..;sid=1/b", l, "http://a.org/a/..;sid=1/b", 0);
	strip_is("http://a.org/a/.;sid=1/b", l, "http://a.org/a/.;sid=1/b", 0);
	strip_is("http://a.org/a/...;sid=1/b", l, "http://a.org/a/.../b", 1);
}

static void
test_strip_limits(void)
{
	char out[32], *big;
	size_t i;

	/* The result must fit with its NUL, even when nothing goes. */
	CHECK_INT(urlfilter_strip_params("http://a.org/p?sid=1", "sid", out, 20), -1);
	CHECK_STR(out, "");
	CHECK_INT(urlfilter_strip_params("http://a.org/p?sid=1", "sid", out, 21), 1);
	CHECK_STR(out, "http://a.org/p");
	CHECK_INT(urlfilter_strip_params("x", "sid", out, 0), -1);
	/* The longest URL, all of it one parameter list. */
	big = malloc(URL_MAX_LEN + 1);
	CHECK(big != NULL);
	if (big == NULL)
		return;
	strcpy(big, "http://a.org/p?");
	for (i = strlen(big); i + 6 <= URL_MAX_LEN; i += 6)
		memcpy(big + i, "sid=1&", 6);
	big[i] = '\0';
	{
		char o2[URL_MAX_LEN + 1];

		CHECK_INT(urlfilter_strip_params(big, "sid", o2, sizeof(o2)), 1);
		CHECK_STR(o2, "http://a.org/p");
	}
	free(big);
}

static void
test_strip_list_check(void)
{
	CHECK(urlfilter_param_list_check("utm_*,sessionid,jsessionid,phpsessid,sid,"
	                           "fbclid,gclid") == NULL);
	CHECK(urlfilter_param_list_check(" a , b* ") == NULL);
	CHECK(urlfilter_param_list_check("*") == NULL);
	CHECK(urlfilter_param_list_check("caf\xc3\xa9") == NULL);
	CHECK_STR(urlfilter_param_list_check(""), "the list is empty");
	CHECK_STR(
	    urlfilter_param_list_check("a,,b"), "an entry of the list is empty");
	CHECK_STR(urlfilter_param_list_check("a, "), "an entry of the list is empty");
	CHECK_STR(urlfilter_param_list_check("a*b"), "'*' may only end a name");
	CHECK_STR(urlfilter_param_list_check("**"), "'*' may only end a name");
	CHECK_STR(urlfilter_param_list_check("a b"),
	    "a name may not hold blanks, controls or any of %&=;#?/");
	CHECK_STR(urlfilter_param_list_check("a=1"),
	    "a name may not hold blanks, controls or any of %&=;#?/");
	CHECK_STR(urlfilter_param_list_check("utm%5F*"),
	    "a name may not hold blanks, controls or any of %&=;#?/");
}

/* --accept-regex and --reject-regex: anywhere in the URL, accept any of,
 * reject none of; a bad pattern said with the library's reason. */
static void
test_patterns(void)
{
	char *acc[] = { "^https?://[^/]*/en/", "/fr/" };
	char *rej[] = { "/(login|search)([/?]|$)", "[?&]utm_" };
	char *bad[] = { "(open" };
	struct urlfilter_patterns *p;
	char err[200];

	CHECK(urlfilter_patterns_new(NULL, 0, NULL, 0, &p, err,
	    sizeof(err)) == 0 && p == NULL);
	CHECK(urlfilter_patterns_allow(NULL, "http://a.test/x") == 1);
	CHECK(urlfilter_patterns_new(acc, 2, rej, 2, &p, err,
	    sizeof(err)) == 0 && p != NULL);
	CHECK(urlfilter_patterns_allow(p, "http://a.test/en/page") == 1);
	CHECK(urlfilter_patterns_allow(p, "http://a.test/docs/fr/page") == 1);
	CHECK(urlfilter_patterns_allow(p, "http://a.test/de/page") == 0);
	CHECK(urlfilter_patterns_allow(p, "http://a.test/en/login") == 0);
	CHECK(urlfilter_patterns_allow(p, "http://a.test/en/login?next=1") ==
	    0);
	CHECK(urlfilter_patterns_allow(p, "http://a.test/en/logins") == 1);
	CHECK(urlfilter_patterns_allow(p, "http://a.test/en/a?b=1&utm_x=2") ==
	    0);
	urlfilter_patterns_free(p);
	/* Reject alone: everything else is accepted. */
	CHECK(urlfilter_patterns_new(NULL, 0, rej, 1, &p, err,
	    sizeof(err)) == 0);
	CHECK(urlfilter_patterns_allow(p, "http://a.test/de/page") == 1);
	CHECK(urlfilter_patterns_allow(p, "http://a.test/search") == 0);
	urlfilter_patterns_free(p);
	CHECK(urlfilter_patterns_new(acc, 1, bad, 1, &p, err,
	    sizeof(err)) == -1 && p == NULL);
	CHECK(strncmp(err, "\"(open\": ", 9) == 0);
	CHECK(urlfilter_pattern_check("(open") != NULL);
	CHECK(urlfilter_pattern_check("a|b") == NULL);
}

void
suite_url(void)
{
	RUN(test_trapped_paths);
	RUN(test_normalize_case_port_fragment);
	RUN(test_normalize_dots_userinfo);
	RUN(test_normalize_encoding_space);
	RUN(test_normalize_refused);
	RUN(test_normalize_too_long);
	RUN(test_resolve_relative);
	RUN(test_resolve_special_forms);
	RUN(test_resolve_refused);
	RUN(test_base_resolve_agrees);
	RUN(test_base_resolve_dots);
	RUN(test_normalize_agrees);
	RUN(test_host);
	RUN(test_origin);
	RUN(test_in_domains);
	RUN(test_strip_query);
	RUN(test_strip_path_params);
	RUN(test_strip_limits);
	RUN(test_strip_list_check);
	RUN(test_patterns);
}
