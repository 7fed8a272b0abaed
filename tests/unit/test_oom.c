/*
 * Out of memory in the parsers that read what servers send: every buffer
 * allocation of one parse is failed in turn (buf_fail_alloc_after). Each
 * failure must come back as the documented "out of memory" result, with
 * nothing half filled and nothing leaked (AddressSanitizer checks that),
 * never as a crash or as a quietly shorter result.
 */
#include "util/buf.h"
#include "check.h"
#include "web/extract.h"
#include "web/robots.h"
#include "web/sitemap.h"

#include <stdlib.h>
#include <string.h>

/* Allocations one parse may make at most; past it the sweep gives up. */
#define SWEEP_MAX 5000

static char *
long_page(void)
{
	static const char head[] =
	    "<html><head><title>Seminars &amp; talks</title>"
	    "<meta name=description content=\"What is on\">"
	    "<meta name=keywords content=\"a, b\"></head><body>"
	    "<nav><a href=/>Home</a> <a href=/news>News</a></nav>"
	    "<h1>Seminars</h1><h2>Spring</h2>";
	static const char para[] =
	    "<p>A talk on duplicate detection in web crawls, with "
	    "<a href=\"/talk/%d\">slides</a> and notes.</p>";
	static const char tail[] = "<footer>(c) x</footer></body></html>";
	char *s, *p;
	int i;

	if ((s = malloc(sizeof(head) + 300 * sizeof(para) + sizeof(tail))) ==
	    NULL)
		return NULL;
	p = s + sprintf(s, "%s", head);
	for (i = 0; i < 300; i++)
		p += sprintf(p, para, i);
	strcpy(p, tail);
	return s;
}

/* The hook itself: growths only, the one asked for, once. */
static void
test_hook(void)
{
	struct buf a, b;

	buf_init(&a, 1 << 20);
	buf_init(&b, 1 << 20);
	CHECK_INT(buf_fail_alloc_after(1), -1);
	CHECK_INT(buf_puts(&a, "first growth"), BUF_OK);
	CHECK_INT(buf_puts(&a, "fits, no growth"), BUF_OK);
	CHECK_INT(buf_puts(&b, "second growth"), BUF_NOMEM);
	CHECK(b.data == NULL && b.len == 0);
	CHECK_INT(buf_puts(&b, "and on again"), BUF_OK);
	CHECK_INT(buf_fail_alloc_after(-1), -1);
	CHECK_INT(buf_fail_alloc_after(7), -1);
	CHECK_INT(buf_fail_alloc_after(-5), 7);
	CHECK_INT(buf_puts(&a, "off"), BUF_OK);
	CHECK_STR(a.data, "first growthfits, no growthoff");
	buf_free(&a);
	buf_free(&b);
}

static void
test_extract_each_failure(void)
{
	struct extract_result r;
	const char *why;
	char *html = long_page();
	long n, fired = 0;
	int rc;

	CHECK(html != NULL);
	if (html == NULL)
		return;
	for (n = 0; n < SWEEP_MAX; n++) {
		buf_fail_alloc_after(n);
		why = NULL;
		rc = extract_html(
		    html, strlen(html), "http://a.example/", NULL, &r, &why);
		if (buf_fail_alloc_after(-1) != -1) {
			/* Every allocation went through: the whole page. */
			CHECK_INT(rc, 0);
			CHECK_INT(r.nlinks, 302);
			extract_result_free(&r);
			break;
		}
		fired++;
		CHECK_INT(rc, -1);
		CHECK_STR(why, "out of memory");
		CHECK(r.text == NULL && r.links == NULL && r.nlinks == 0);
		if (rc == 0)
			extract_result_free(&r);
	}
	CHECK(n < SWEEP_MAX);
	CHECK(fired >= 5);
	free(html);
}

static void
test_robots_each_failure(void)
{
	static const char txt[] =
	    "User-agent: nearcrawl\nDisallow: /private/\nAllow: /private/ok\n"
	    "Crawl-delay: 2\n\nUser-agent: *\nDisallow: /\n"
	    "Sitemap: http://a.example/sitemap.xml\n";
	struct robots *r;
	long n;

	for (n = 0; n < SWEEP_MAX; n++) {
		buf_fail_alloc_after(n);
		r = robots_parse(txt, strlen(txt), "nearcrawl");
		if (buf_fail_alloc_after(-1) != -1) {
			CHECK(r != NULL);
			if (r != NULL) {
				CHECK_INT(robots_allowed(r, "/private/x"), 0);
				CHECK_INT(robots_allowed(r, "/private/ok"), 1);
			}
			robots_free(r);
			break;
		}
		CHECK(r == NULL);
		robots_free(r);
	}
	CHECK(n > 0 && n < SWEEP_MAX);
}

static void
test_sitemap_each_failure(void)
{
	static const char xml[] =
	    "<?xml version=\"1.0\"?><urlset xmlns=\"http://www.sitemaps.org/"
	    "schemas/sitemap/0.9\"><url><loc>http://a.example/one</loc></url>"
	    "<url><loc>http://a.example/two?x=1&amp;y=2</loc></url></urlset>";
	struct sitemap sm;
	const char *why;
	long n;
	int rc;

	for (n = 0; n < SWEEP_MAX; n++) {
		buf_fail_alloc_after(n);
		why = NULL;
		rc = sitemap_parse(xml, strlen(xml), &sm, &why);
		if (buf_fail_alloc_after(-1) != -1) {
			CHECK_INT(rc, 0);
			CHECK_INT(sm.nurls, 2);
			sitemap_free(&sm);
			break;
		}
		CHECK_INT(rc, -1);
		CHECK_STR(why, "out of memory");
		if (rc == 0)
			sitemap_free(&sm);
	}
	CHECK(n > 0 && n < SWEEP_MAX);
}

void
suite_oom(void)
{
	RUN(test_hook);
	RUN(test_extract_each_failure);
	RUN(test_robots_each_failure);
	RUN(test_sitemap_each_failure);
}
