/* The declared canonical URL: <link rel=canonical> and the Link header. */
#include "check.h"
#include "web/extract.h"
#include "web/linkhdr.h"

#include <stdlib.h>

static const char PAGE[] = "http://a.org/dir/page.html?sessionid=42";

/* The canonical extract_html finds in html, "(null)" when none; the
 * returned string is static. */
static const char *
canon_of(const char *html)
{
	static char out[512];
	struct extract_result r;
	const char *why = NULL;

	if (extract_html(html, strlen(html), PAGE, NULL, &r, &why) != 0) {
		CHECK(0);
		return "(failed)";
	}
	snprintf(out, sizeof(out), "%s", r.canonical != NULL ? r.canonical :
	    "(null)");
	extract_result_free(&r);
	return out;
}

static void
test_html_canonical(void)
{
	CHECK_STR(canon_of("<html><head><link rel=canonical "
	    "href=\"/dir/page.html\"></head><body><p>x</p></body></html>"),
	    "http://a.org/dir/page.html");
	/* Resolved relative to the page, normalised as links are. */
	CHECK_STR(canon_of("<head><link rel=\"Canonical\" "
	    "href=\"page.html#top\"></head><p>x"),
	    "http://a.org/dir/page.html");
	CHECK_STR(canon_of("<head><link rel=\"canonical\" "
	    "href=\"HTTP://A.ORG:80/x/../y\"></head><p>x"),
	    "http://a.org/y");
	/* Several rel tokens; <base> is honoured. */
	CHECK_STR(canon_of("<head><base href=\"http://b.org/q/\">"
	    "<link rel=\"alternate canonical\" href=\"r\"></head><p>x"),
	    "http://b.org/q/r");
	/* The first one wins. */
	CHECK_STR(canon_of("<head><link rel=canonical href=/one>"
	    "<link rel=canonical href=/two></head><p>x"),
	    "http://a.org/one");
	/* None, other rels, other schemes, no href. */
	CHECK_STR(canon_of("<p>no head"), "(null)");
	CHECK_STR(canon_of("<head><link rel=stylesheet href=/s.css>"
	    "<link rel=alternate href=/fr></head><p>x"), "(null)");
	CHECK_STR(canon_of("<head><link rel=canonical "
	    "href=\"ftp://a.org/x\"></head><p>x"), "(null)");
	CHECK_STR(canon_of("<head><link rel=canonical></head><p>x"),
	    "(null)");
	/* One in <body> is content, not the page's declaration. */
	CHECK_STR(canon_of("<head><title>t</title></head><body><p>x</p>"
	    "<link rel=canonical href=/elsewhere></body>"), "(null)");
	/* ... also after a <head> one. */
	CHECK_STR(canon_of("<head><link rel=canonical href=/h></head><body>"
	    "<link rel=canonical href=/b><p>x</p></body>"),
	    "http://a.org/h");
}

static void
hdr_is(const char *value, const char *want)
{
	char *u = linkhdr_canonical(value, PAGE);

	CHECK_STR(u != NULL ? u : "(null)", want);
	free(u);
}

static void
test_link_header(void)
{
	hdr_is("<http://a.org/c>; rel=\"canonical\"", "http://a.org/c");
	hdr_is("<http://a.org/c>; rel=canonical", "http://a.org/c");
	hdr_is("</c>;rel=CANONICAL", "http://a.org/c");
	hdr_is("<c2>; rel=canonical", "http://a.org/dir/c2");
	/* Among other links and parameters; commas and semicolons inside
	 * <...> and quotes belong to them. */
	hdr_is("</wp-json/>; rel=\"https://api.w.org/\", "
	    "</?p=1,2;3>; title=\"a, b; rel=canonical\"; rel=shortlink, "
	    "<https://a.org/post>; type=\"text/html\"; rel=\"canonical\"",
	    "https://a.org/post");
	hdr_is("<https://a.org/x>; rel=\"alternate canonical\"",
	    "https://a.org/x");
	/* The first rel counts; the first canonical link wins. */
	hdr_is("</one>; rel=next; rel=canonical, </two>; rel=canonical",
	    "http://a.org/two");
	hdr_is("</one>; rel=canonical, </two>; rel=canonical",
	    "http://a.org/one");
	/* A canonical that is not http(s) is passed over. */
	hdr_is("<mailto:x@a.org>; rel=canonical, </ok>; rel=canonical",
	    "http://a.org/ok");
	/* None, other rels, malformed. */
	hdr_is(NULL, "(null)");
	hdr_is("", "(null)");
	hdr_is("</c>; rel=preload", "(null)");
	hdr_is("</c>; rel=canonicalx", "(null)");
	hdr_is("http://a.org/c; rel=canonical", "(null)");
	hdr_is("</c; rel=canonical", "(null)");
	hdr_is("</c>; rel=\"canonical", "(null)");
	hdr_is("</c> junk; rel=canonical", "(null)");
	CHECK(linkhdr_canonical("</c>; rel=canonical", NULL) == NULL);
	{
		char *u = linkhdr_canonical("<http://b.org/c>; rel=canonical",
		    NULL);
		CHECK_STR(u, "http://b.org/c");
		free(u);
	}
}

void
suite_canonical(void)
{
	RUN(test_html_canonical);
	RUN(test_link_header);
}
