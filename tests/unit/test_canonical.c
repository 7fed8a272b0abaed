/* The declared canonical URL: <link rel=canonical> and the Link header. */
#include "check.h"
#include "web/extract.h"
#include "web/linkhdr.h"

#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "storage/query.h"
#include "storage/store.h"

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

/*
 * store_rank_canonical_counts over a ranks table: cluster 1 {1, 2, 3}
 * whose members declare 1 (agree), cluster 4 {4, 5} where 5 declares
 * itself (disagree), cluster 7 {7, 8} where 8 declares a page outside
 * (not counted), page 6 in no cluster declaring 1 (not counted).
 */
static void
test_canonical_counts(void)
{
	static const char *const decl[9] = { NULL, NULL, "http://a.example/1",
	    "http://a.example/1", NULL, "http://a.example/5",
	    "http://a.example/1", NULL, "http://b.example/" };
	static const int64_t canon[9] = { 0, 1, 1, 1, 4, 4, 0, 7, 7 };
	struct store_canonical_counts n;
	struct store_conn *c = NULL;
	struct store_page p;
	struct store *s;
	char dir[64], path[128], url[160], err[256];
	int i;

	snprintf(dir, sizeof(dir), "/tmp/nc_canon_XXXXXX");
	if (mkdtemp(dir) == NULL) {
		CHECK(0);
		return;
	}
	snprintf(path, sizeof(path), "%s/crawl.db", dir);
	s = store_open(path, STORE_CREATE, err, sizeof(err));
	CHECK(s != NULL);
	if (s == NULL)
		return;
	CHECK_INT(store_begin(s), 0);
	for (i = 1; i <= 8; i++) {
		memset(&p, 0, sizeof(p));
		snprintf(url, sizeof(url), "http://a.example/%d", i);
		p.url = url;
		p.host = "a.example";
		p.verdict = STORE_VERDICT_UNIQUE;
		p.seq = i;
		p.canonical = decl[i];
		CHECK_INT(store_page_add(s, &p), i);
	}
	CHECK_INT(store_commit(s), 0);
	store_close(s);
	CHECK_INT(store_conn_open(path, STORE_CONN_WRITE, &c, err,
	    sizeof(err), 1, 2), 0);
	if (c != NULL) {
		/* Before rank: nothing. */
		CHECK_INT(store_rank_canonical_counts(c, &n), 0);
		CHECK_INT(n.declared, 0);
		CHECK_INT(store_conn_begin(c), 0);
		CHECK_INT(store_ranks_clear(c), 0);
		for (i = 1; i <= 8; i++)
			CHECK_INT(store_rank_put(c, i, 0.125, canon[i]), 0);
		CHECK_INT(store_conn_commit(c), 0);
		CHECK_INT(store_rank_canonical_counts(c, &n), 0);
		CHECK_INT(n.declared, 2);
		CHECK_INT(n.agree, 1);
		CHECK_INT(n.disagree, 1);
	}
	store_conn_close(c);
	unlink(path);
	snprintf(url, sizeof(url), "%s-wal", path);
	unlink(url);
	snprintf(url, sizeof(url), "%s-shm", path);
	unlink(url);
	rmdir(dir);
}

void
suite_canonical(void)
{
	RUN(test_html_canonical);
	RUN(test_link_header);
	RUN(test_canonical_counts);
}
