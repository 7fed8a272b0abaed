/* Unit tests for extract: purification, fields, links, charsets, limits. */
#include "check.h"
#include "web/charset.h"
#include "web/content_int.h"
#include "web/extract.h"
#include "web/extract_int.h"

#include <libxml/HTMLparser.h>

#include <stdint.h>
#include <stdlib.h>

static const char PAGE[] = "http://a.org/dir/page.html";

/* Extract html with o (NULL: defaults); the test fails if extraction does. */
static int
run(const char *html, size_t len, const struct extract_opts *o,
    struct extract_result *r)
{
	const char *why = "unset";
	int rc = extract_html(html, len, PAGE, o, r, &why);

	CHECK_INT(rc, 0);
	if (rc != 0)
		fprintf(stderr, "  extract_html: %s\n", why ? why : "(null)");
	return rc;
}

/*
 * Whether got, with every '\n' read as ' ', is want, and its line breaks
 * are well formed: none leading, trailing or doubled, none beside a space.
 * The expectations written before blocks became lines still hold this way,
 * which is the promise that MD5 over the flattened text did not change.
 */
static int
flat_is(const char *got, const char *want)
{
	size_t i, n = strlen(got);
	int ok = strlen(want) == n;

	for (i = 0; ok && i < n; i++) {
		if (got[i] == '\n')
			ok = want[i] == ' ' && i > 0 && i + 1 < n &&
			    got[i - 1] != ' ' && got[i + 1] != ' ' &&
			    got[i + 1] != '\n';
		else
			ok = got[i] == want[i];
	}
	if (!ok)
		fprintf(stderr, "  got:      \"%s\"\n  expected: \"%s\" (line "
		    "breaks read as spaces)\n", got, want);
	return ok;
}

/* Text of html with default options must be want, line breaks read as
 * spaces (flat_is). */
static void
text_is(const char *html, const char *want)
{
	struct extract_result r;

	if (run(html, strlen(html), NULL, &r) != 0)
		return;
	CHECK(flat_is(r.text, want));
	CHECK_INT(r.text_len, strlen(want));
	extract_result_free(&r);
}

/* Whether s is valid UTF-8 without any C0 control character but single
 * line breaks between lines. */
static int
clean_utf8(const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, k, j;
	uint32_t c;

	while (i < n) {
		if (s[i] == '\n' && i > 0 && i + 1 < n && s[i + 1] != '\n') {
			i++;
			continue;
		}
		if (s[i] < 0x20)
			return 0;
		if (s[i] < 0x80) {
			i++;
			continue;
		}
		if (s[i] >= 0xc2 && s[i] <= 0xdf) {
			k = 2;
			c = s[i] & 0x1f;
		} else if (s[i] >= 0xe0 && s[i] <= 0xef) {
			k = 3;
			c = s[i] & 0x0f;
		} else if (s[i] >= 0xf0 && s[i] <= 0xf4) {
			k = 4;
			c = s[i] & 0x07;
		} else {
			return 0;
		}
		if (i + k > n)
			return 0;
		for (j = 1; j < k; j++) {
			if ((s[i + j] & 0xc0) != 0x80)
				return 0;
			c = (c << 6) | (s[i + j] & 0x3f);
		}
		if ((k == 3 && c < 0x800) || (k == 4 && c < 0x10000) ||
		    c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
			return 0;
		i += k;
	}
	return 1;
}

static void
test_drop_nontext(void)
{
	text_is("<html><head><title>T</title><style>p{}</style></head><body>"
	    "a<script>var x = '<p>no</p>';</script>b"
	    "<noscript>ns</noscript><template><p>tp</p></template>"
	    "<svg><text>svgtext</text></svg><math><mi>x</mi></math>"
	    "<img alt=\"alt\" src=\"i.png\"><iframe src=\"f.html\">if</iframe>"
	    "<select><option>opt</option></select>c</body></html>", "abc");
}

static void
test_anchor_text_kept(void)
{
	text_is("<p>Go <a href=\"/x\">to the page</a> now</p>",
	    "Go to the page now");
}

static void
test_block_separation(void)
{
	text_is("<body>a<p>b</p>c</body>", "a b c");
	text_is("<body>one<br>two<div>three</div><ul><li>x</li><li>y</li>"
	    "</ul><table><tr><td>c1</td><td>c2</td></tr></table>end</body>",
	    "one two three x y c1 c2 end");
	text_is("<h1>Head</h1><section>s</section><article>t</article>",
	    "Head s t");
}

/* The spans of links in the body and main texts, each with a hash of
 * where it leads: the same target gives the same hash, a relative link
 * resolves as links do, and a link outside the main content has no span
 * in it. */
static void
test_link_spans(void)
{
	static const char html[] = "<body><nav><a href=\"/\">Home page</a>"
	    "</nav><main><h1>Timetables</h1><p>The timetables of the "
	    "department for the year, by term and group of students, are "
	    "listed below; each is updated weekly by the school office.</p>"
	    "<ul><li><a href=\"/tt/a1.html\">Autumn year 1 group A</a></li>"
	    "<li><a href=\"http://a.org/tt/a1.html\">Autumn year "
	    "1 group A again</a></li><li><a href=\"b1.html\">Autumn year 1 "
	    "group B</a></li></ul></main></body>";
	struct extract_result r;
	const struct extract_link *l;

	if (run(html, sizeof(html) - 1, NULL, &r) != 0)
		return;
	CHECK_INT(r.ntext_links, 4);
	CHECK_INT(r.nmain_links, 3);
	if (r.nmain_links == 3 && r.ntext_links == 4) {
		/* A span may begin with the line break before its text. */
		l = r.main_links;
		CHECK(strcmp(r.main_text + l[2].end, "") == 0);
		CHECK(l[0].end - l[0].start >= strlen("Autumn year 1 group A") &&
		    strncmp(r.main_text + l[0].end - strlen("Autumn year 1 group "
		    "A"), "Autumn year 1 group A", strlen("Autumn year 1 group "
		    "A")) == 0);
		CHECK(l[0].target == l[1].target);
		CHECK(l[0].target != l[2].target && l[2].target != 0);
		CHECK(strncmp(r.text + r.text_links[0].start, "Home page",
		    9) == 0 && r.text_links[0].end - r.text_links[0].start == 9);
		CHECK(r.text_links[1].target == l[0].target);
	}
	extract_result_free(&r);
}

/* Each line of a <pre> is a block of its own (a mail header line, a line
 * of code), in the body and the main text; the flat text is the same. */
static void
test_pre_lines_are_blocks(void)
{
	static const char html[] = "<body><main><p>A message of the list "
	    "archive, with its headers as sent.</p><pre>From: Ann Smith\n"
	    "Date: 3 May 2024\nSubject: the <b>library</b> wing\n\n"
	    "The committee met on Tuesday.</pre><p>Next message</p></main>"
	    "</body>";
	struct extract_result r;

	text_is(html, "A message of the list archive, with its headers as "
	    "sent. From: Ann Smith Date: 3 May 2024 Subject: the library wing "
	    "The committee met on Tuesday. Next message");
	if (run(html, sizeof(html) - 1, NULL, &r) != 0)
		return;
	CHECK(strstr(r.text, "\nFrom: Ann Smith\nDate: 3 May 2024\n"
	    "Subject: the library wing\nThe committee met on Tuesday.\n"
	    "Next message") != NULL);
	CHECK(strstr(r.main_text, "\nDate: 3 May 2024\n") != NULL);
	extract_result_free(&r);
}

static void
test_inline_no_separation(void)
{
	text_is("<body>a<b>b</b>c</body>", "abc");
	text_is("<body>un<span>br</span><em>ok</em><i>en</i></body>",
	    "unbroken");
	text_is("<body><b>a</b> <i>b</i></body>", "a b");
}

static void
test_whitespace_entities(void)
{
	text_is("<body>\n\t  a \xc2\xa0&nbsp; b\r\n\n c&nbsp;</body>", "a b c");
	text_is("<body>&lt;tag&gt; &amp; &quot;q&quot; &eacute;&#233;&#x41;"
	    "</body>", "<tag> & \"q\" \xc3\xa9\xc3\xa9" "A");
	text_is("<body>x&#8195;y\xe3\x80\x80z</body>", "x y z");
	/* Browsers read references to C1 controls as windows-1252. */
	text_is("<p>&#128;5 &#150; &#x9d;x&#1;y</p>", "\xe2\x82\xac" "5 "
	    "\xe2\x80\x93 xy");
	text_is("<body><pre>  keep\n\n  it  </pre></body>", "keep it");
}

static void
test_body_only_and_fragment(void)
{
	text_is("<html><head><title>Title</title>"
	    "<meta name=description content=d></head>"
	    "<body>body text</body></html>", "body text");
	text_is("just a <b>fragment</b>", "just a fragment");
	text_is("<div>x</div><!-- comment --><div>y</div>", "x y");
}

static void
test_fields(void)
{
	static const char html[] =
	    "<html><head><title>  The\n  Title </title>"
	    "<META NAME=\"Description\" CONTENT=\"  About   this page \">"
	    "<meta name=keywords content=\"a, b,  c\">"
	    "<meta name=description content=\"second\">"
	    "</head><body><h1>First <i>H</i></h1><p>x</p>"
	    "<h2>Second</h2><h3>  </h3><h6>Six<br>th</h6></body></html>";
	struct extract_result r;

	if (run(html, sizeof(html) - 1, NULL, &r) != 0)
		return;
	CHECK_STR(r.title, "The Title");
	CHECK_STR(r.description, "About this page");
	CHECK_STR(r.keywords, "a, b, c");
	CHECK_STR(r.headings, "First H | Second | Six th");
	CHECK_STR(r.text, "First H\nx\nSecond\nSix\nth");
	CHECK_INT(r.noindex, 0);
	CHECK_INT(r.nofollow, 0);
	extract_result_free(&r);
}

static void
test_fields_absent(void)
{
	struct extract_result r;

	if (run("<p>x</p>", 8, NULL, &r) != 0)
		return;
	CHECK_STR(r.title, "");
	CHECK_STR(r.headings, "");
	CHECK_STR(r.description, "");
	CHECK_STR(r.keywords, "");
	CHECK_INT(r.nlinks, 0);
	extract_result_free(&r);
}

static void
test_links_basic(void)
{
	static const char html[] =
	    "<body><a href=\"x.html\">1</a>"
	    "<a href=\"/abs#frag\">2</a>"
	    "<a href=\"http://B.org:80/p\">3</a>"
	    "<a href=\"javascript:void(0)\">js</a>"
	    "<a href=\"mailto:me@a.org\">m</a>"
	    "<a href=\"x.html#other\">dup</a>"
	    "<a href=\"/abs\">dup2</a>"
	    "<a name=\"noref\">none</a>"
	    "<a href=\"  ../up.html\n\">ws</a>"
	    "<a href=\"ftp://a.org/f\">ftp</a></body>";
	struct extract_result r;

	if (run(html, sizeof(html) - 1, NULL, &r) != 0)
		return;
	CHECK_INT(r.nlinks, 4);
	if (r.nlinks == 4) {
		CHECK_STR(r.links[0], "http://a.org/dir/x.html");
		CHECK_STR(r.links[1], "http://a.org/abs");
		CHECK_STR(r.links[2], "http://b.org/p");
		CHECK_STR(r.links[3], "http://a.org/up.html");
	}
	CHECK_STR(r.text, "123jsmdupdup2nonewsftp");
	extract_result_free(&r);
}

static void
test_links_base_href(void)
{
	static const char html[] =
	    "<html><head><base href=\"../other/\"><base href=\"/ignored/\">"
	    "</head><body><a href=\"p.html\">p</a><a href=\"/root\">r</a>"
	    "</body></html>";
	struct extract_result r;

	if (run(html, sizeof(html) - 1, NULL, &r) != 0)
		return;
	CHECK_INT(r.nlinks, 2);
	if (r.nlinks == 2) {
		CHECK_STR(r.links[0], "http://a.org/other/p.html");
		CHECK_STR(r.links[1], "http://a.org/root");
	}
	extract_result_free(&r);
}

static void
test_links_rel_nofollow(void)
{
	static const char html[] =
	    "<a href=\"/a\" rel=\"nofollow\">a</a>"
	    "<a href=\"/b\" rel=\"external NoFollow\">b</a>"
	    "<a href=\"/c\" rel=\"nofollowing\">c</a>"
	    "<map><area href=\"/d\" rel=nofollow><area href=\"/e\"></map>";
	struct extract_result r;

	if (run(html, sizeof(html) - 1, NULL, &r) != 0)
		return;
	CHECK_INT(r.nlinks, 2);
	if (r.nlinks == 2) {
		CHECK_STR(r.links[0], "http://a.org/c");
		CHECK_STR(r.links[1], "http://a.org/e");
	}
	extract_result_free(&r);
}

static void
test_links_meta_robots(void)
{
	static const char nf[] =
	    "<head><meta name=\"ROBOTS\" content=\"index, NOFOLLOW\"></head>"
	    "<body><a href=\"/a\">a</a></body>";
	static const char ni[] =
	    "<head><meta name=robots content=\"noindex\"></head>"
	    "<body><a href=\"/a\">a</a></body>";
	static const char none[] =
	    "<head><meta name=robots content=none></head><body>x</body>";
	struct extract_result r;

	if (run(nf, sizeof(nf) - 1, NULL, &r) == 0) {
		CHECK_INT(r.nofollow, 1);
		CHECK_INT(r.noindex, 0);
		CHECK_INT(r.nlinks, 0);
		CHECK_STR(r.text, "a");
		extract_result_free(&r);
	}
	if (run(ni, sizeof(ni) - 1, NULL, &r) == 0) {
		CHECK_INT(r.nofollow, 0);
		CHECK_INT(r.noindex, 1);
		CHECK_INT(r.nlinks, 1);
		extract_result_free(&r);
	}
	if (run(none, sizeof(none) - 1, NULL, &r) == 0) {
		CHECK_INT(r.nofollow, 1);
		CHECK_INT(r.noindex, 1);
		extract_result_free(&r);
	}
}

static void
test_links_frames(void)
{
	static const char frames[] =
	    "<html><frameset><frame src=\"left.html\"><frame src=\"right.html\">"
	    "</frameset></html>";
	static const char iframe[] =
	    "<body>t<iframe src=\"//c.org/embed\"></iframe>"
	    "<a href=\"?q=1\">q</a></body>";
	struct extract_result r;

	if (run(frames, sizeof(frames) - 1, NULL, &r) == 0) {
		CHECK_INT(r.nlinks, 2);
		if (r.nlinks == 2) {
			CHECK_STR(r.links[0], "http://a.org/dir/left.html");
			CHECK_STR(r.links[1], "http://a.org/dir/right.html");
		}
		CHECK_STR(r.text, "");
		extract_result_free(&r);
	}
	if (run(iframe, sizeof(iframe) - 1, NULL, &r) == 0) {
		CHECK_INT(r.nlinks, 2);
		if (r.nlinks == 2) {
			CHECK_STR(r.links[0], "http://c.org/embed");
			CHECK_STR(r.links[1], "http://a.org/dir/page.html?q=1");
		}
		CHECK_STR(r.text, "tq");
		extract_result_free(&r);
	}
}

/* Links that resolve past URL_MAX_LEN are left out and counted. */
static void
test_links_too_long(void)
{
	struct extract_result r;
	char html[3000];
	size_t n;

	n = (size_t)snprintf(html, sizeof(html),
	    "<a href=\"/ok\">ok</a>"
	    "<a href=\"");
	memset(html + n, 'x', 2100);
	n += 2100;
	n += (size_t)snprintf(html + n, sizeof(html) - n,
	    "/\">deep</a><a href=\"mailto:a@b\">m</a>");
	if (run(html, n, NULL, &r) != 0)
		return;
	CHECK_INT(r.nlinks, 1);
	CHECK_INT(r.links_too_long, 1);
	extract_result_free(&r);
}

static void
test_links_cap(void)
{
	struct extract_opts o = { NULL, 0, 3 };
	struct extract_result r;
	static const char html[] =
	    "<a href=\"/1\"></a><a href=\"/1\"></a><a href=\"/2\"></a>"
	    "<a href=\"mailto:x@y\"></a><a href=\"/3\"></a><a href=\"/4\"></a>";

	if (run(html, sizeof(html) - 1, &o, &r) != 0)
		return;
	CHECK_INT(r.nlinks, 3);
	if (r.nlinks == 3) {
		CHECK_STR(r.links[0], "http://a.org/1");
		CHECK_STR(r.links[1], "http://a.org/2");
		CHECK_STR(r.links[2], "http://a.org/3");
	}
	extract_result_free(&r);
}

static void
test_links_many_unique(void)
{
	struct extract_opts o = { NULL, 0, 5000 };
	struct extract_result r;
	char *html = malloc(3000 * 40);
	size_t n = 0, i;
	int ok = 1;

	CHECK(html != NULL);
	if (html == NULL)
		return;
	for (i = 0; i < 3000; i++)
		n += (size_t)sprintf(html + n, "<a href=\"/p%zu\">x</a>",
		    i % 2000);
	if (run(html, n, &o, &r) == 0) {
		CHECK_INT(r.nlinks, 2000);
		for (i = 0; i < r.nlinks && i < 2000; i++) {
			char want[32];

			snprintf(want, sizeof(want), "http://a.org/p%zu", i);
			if (strcmp(r.links[i], want) != 0)
				ok = 0;
		}
		CHECK(ok);
		extract_result_free(&r);
	}
	free(html);
}

static void
test_charset_opts_latin1(void)
{
	struct extract_opts o = { "ISO-8859-1", 0, 0 };
	struct extract_result r;
	static const char html[] = "<p>caf\xe9 \x93q\x94</p>";

	if (run(html, sizeof(html) - 1, &o, &r) != 0)
		return;
	/* As browsers do, latin-1 is read as windows-1252. */
	CHECK_STR(r.text, "caf\xc3\xa9 \xe2\x80\x9cq\xe2\x80\x9d");
	CHECK_STR(r.charset, "windows-1252");
	extract_result_free(&r);
}

static void
test_charset_opts_wins_over_meta(void)
{
	struct extract_opts o = { "utf-8", 0, 0 };
	struct extract_result r;
	static const char html[] =
	    "<meta charset=\"iso-8859-1\"><p>caf\xc3\xa9</p>";

	if (run(html, sizeof(html) - 1, &o, &r) != 0)
		return;
	CHECK_STR(r.text, "caf\xc3\xa9");
	CHECK_STR(r.charset, "utf-8");
	extract_result_free(&r);
}

static void
test_charset_undeclared_1252(void)
{
	struct extract_result r;
	static const char html[] = "<p>na\xefve \x80 5</p>";

	if (run(html, sizeof(html) - 1, NULL, &r) != 0)
		return;
	CHECK_STR(r.text, "na\xc3\xafve \xe2\x82\xac 5");
	CHECK_STR(r.charset, "windows-1252");
	extract_result_free(&r);
}

static void
test_charset_meta(void)
{
	struct extract_result r;
	static const char m1[] =
	    "<html><head><meta charset=\"ISO-8859-2\"></head>"
	    "<body>\xb1</body></html>";
	static const char m2[] =
	    "<!-- <meta charset=\"koi8-r\"> --><html><head>"
	    "<meta http-equiv=\"Content-Type\" "
	    "content=\"text/html; charset=iso-8859-1\"></head>"
	    "<body>\xe9t\xe9</body></html>";

	if (run(m1, sizeof(m1) - 1, NULL, &r) == 0) {
		CHECK_STR(r.text, "\xc4\x85"); /* U+0105 a with ogonek */
		CHECK_STR(r.charset, "iso-8859-2");
		extract_result_free(&r);
	}
	if (run(m2, sizeof(m2) - 1, NULL, &r) == 0) {
		CHECK_STR(r.text, "\xc3\xa9t\xc3\xa9");
		CHECK_STR(r.charset, "windows-1252");
		extract_result_free(&r);
	}
}

static void
test_charset_utf8_default_and_bom(void)
{
	struct extract_result r;
	static const char u[] = "<p>\xe2\x82\xac \xf0\x9f\x98\x80</p>";
	static const char bom16[] = "\xff\xfe<\0p\0>\0\xe9\0";

	if (run(u, sizeof(u) - 1, NULL, &r) == 0) {
		CHECK_STR(r.text, "\xe2\x82\xac \xf0\x9f\x98\x80");
		CHECK_STR(r.charset, "utf-8");
		extract_result_free(&r);
	}
	if (run(bom16, sizeof(bom16) - 1, NULL, &r) == 0) {
		CHECK_STR(r.text, "\xc3\xa9");
		CHECK_STR(r.charset, "utf-16le");
		extract_result_free(&r);
	}
}

static void
test_charset_invalid_utf8_never_leaks(void)
{
	struct extract_opts o = { "utf-8", 0, 0 };
	struct extract_result r;
	static const char html[] =
	    "<title>t\xff</title><p>a\xc3(b\xed\xa0\x80" "c\xf8\x88\x80\x80"
	    "\x80" "d\x01\x7f" "e</p><a href=\"/\xfe\">x</a>";

	if (run(html, sizeof(html) - 1, &o, &r) != 0)
		return;
	CHECK_STR(r.text, "a\xef\xbf\xbd(b\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"
	    "c\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"
	    "d e\nx");
	CHECK_STR(r.title, "t\xef\xbf\xbd");
	CHECK(clean_utf8(r.text, r.text_len));
	CHECK_INT(r.nlinks, 1);
	if (r.nlinks == 1)
		CHECK_STR(r.links[0], "http://a.org/%EF%BF%BD");
	extract_result_free(&r);
}

static void
test_charset_utf8_cut_at_end(void)
{
	struct extract_result r;
	/* A body capped inside the euro sign is still UTF-8, not 1252. */
	static const char html[] = "<p>\xc3\xa9 x\xe2\x82";

	if (run(html, sizeof(html) - 1, NULL, &r) != 0)
		return;
	CHECK_STR(r.charset, "utf-8");
	CHECK_STR(r.text, "\xc3\xa9 x\xef\xbf\xbd\xef\xbf\xbd");
	extract_result_free(&r);
}

static void
test_binary_garbage(void)
{
	struct extract_result r;
	unsigned char *g = malloc(65536);
	uint32_t x = 12345;
	size_t i;

	CHECK(g != NULL);
	if (g == NULL)
		return;
	for (i = 0; i < 65536; i++) {
		x = x * 1103515245u + 12345u;
		g[i] = (unsigned char)(x >> 16);
	}
	if (run((const char *)g, 65536, NULL, &r) == 0) {
		CHECK(clean_utf8(r.text, r.text_len));
		CHECK(clean_utf8(r.title, strlen(r.title)));
		CHECK(clean_utf8(r.main_text, r.main_len));
		CHECK(r.main_len <= r.text_len);
		CHECK_INT(strlen(r.text), r.text_len);
		extract_result_free(&r);
	}
	free(g);
}

static void
test_empty_input(void)
{
	struct extract_result r;

	if (run("", 0, NULL, &r) == 0) {
		CHECK_STR(r.text, "");
		CHECK_INT(r.text_len, 0);
		CHECK_INT(r.nlinks, 0);
		CHECK_STR(r.title, "");
		CHECK_STR(r.charset, "utf-8");
		extract_result_free(&r);
	}
	if (run(" \n\t \r\n ", 7, NULL, &r) == 0) {
		CHECK_STR(r.text, "");
		CHECK_INT(r.nlinks, 0);
		extract_result_free(&r);
	}
	if (run(NULL, 0, NULL, &r) == 0) {
		CHECK_STR(r.text, "");
		extract_result_free(&r);
	}
}

static void
test_malformed_and_truncated(void)
{
	text_is("<html><body><p>unclosed <b>bold <i>both</p>after</div></span>"
	    "<p>cut <a href=\"/x\">li", "unclosed bold both after cut li");
	text_is("<p>a</p><scr", "a");
	text_is("a < b > c<p", "a < b > c");
	text_is("<p>x</p></p></div></body></html><p>y", "x y");
	text_is("<body>a</body><body>b", "a b");
	text_is("<body>a<table><tr><td>b<td>c</table>d", "a b c d");
}

static void
test_not_nul_terminated(void)
{
	struct extract_result r;
	static const char html[] = "<p>abc</p>XYZ";

	if (run(html, 10, NULL, &r) != 0)
		return;
	CHECK_STR(r.text, "abc");
	extract_result_free(&r);
}

static void
test_deep_nesting(void)
{
	const size_t depth = 100000;
	size_t n = 0, i;
	char *html = malloc(depth * 11 + 64);
	struct extract_result r;

	CHECK(html != NULL);
	if (html == NULL)
		return;
	for (i = 0; i < depth; i++) {
		memcpy(html + n, "<div>", 5);
		n += 5;
	}
	memcpy(html + n, "deep", 4);
	n += 4;
	for (i = 0; i < depth; i++) {
		memcpy(html + n, "</div>", 6);
		n += 6;
	}
	if (run(html, n, NULL, &r) == 0) {
		CHECK_STR(r.text, "deep");
		CHECK_STR(r.main_text, "deep");
		extract_result_free(&r);
	}
	free(html);
}

/* The text of html cut to max bytes is want, and truncated says so. */
static void
cut_is(const char *html, size_t max, const char *want, int truncated)
{
	struct extract_opts o = { NULL, max, 0 };
	struct extract_result r;

	if (run(html, strlen(html), &o, &r) != 0)
		return;
	CHECK_STR(r.text, want);
	CHECK_INT(r.text_len, strlen(want));
	CHECK_INT(r.truncated, truncated);
	extract_result_free(&r);
}

static void
test_max_text_boundary(void)
{
	/* "ab é" is 5 bytes; the euro sign (3 bytes) does not fit in 6. */
	cut_is("<p>ab \xc3\xa9\xe2\x82\xac tail</p>", 6, "ab \xc3\xa9", 1);
	cut_is("<p>ab  \xc3\xa9\xe2\x82\xac</p>", 8, "ab \xc3\xa9\xe2\x82\xac",
	    0);
}

/* Plain ASCII words are written a stretch at a time; a cut must still
 * fall as it would a word at a time: inside a word, the part that fits;
 * right after a space, before it. */
static void
test_max_text_words(void)
{
	static const char html[] = "<p>alpha beta gamma</p>";

	cut_is(html, 9, "alpha bet", 1);
	cut_is(html, 6, "alpha", 1); /* room ends just after the space */
	cut_is(html, 16, "alpha beta gamma", 0); /* and at a word's end */
	cut_is(html, 11, "alpha beta", 1);
}

/*
 * Decoding repairs bytes a word at a time where it can: one byte that
 * needs repair, at every offset against those words, and at the end.
 */
static void
test_decode_every_offset(void)
{
	static const struct {
		const char *in, *out;
	} odd[] = {
		{ "\x01", " " }, { "\x7f", " " }, { "\n", "\n" }, { "\t", "\t" },
		{ "\x80", "\xef\xbf\xbd" }, { "\xc3\xa9", "\xc3\xa9" },
		{ "\x1f", " " }, { "~", "~" },
	};
	char in[64], want[64], cs[32];
	unsigned char *got;
	size_t i, p, n, len;

	for (i = 0; i < sizeof(odd) / sizeof(odd[0]); i++)
		for (p = 0; p <= 20; p++) {
			memset(in, 'a', p);
			strcpy(in + p, odd[i].in);
			n = strlen(in);
			memset(in + n, 'b', 20 - p);
			n += 20 - p;
			memset(want, 'a', p);
			strcpy(want + p, odd[i].out);
			len = strlen(want);
			memset(want + len, 'b', 20 - p);
			want[len + 20 - p] = '\0';
			got = charset_decode((const unsigned char *)in, n,
			    "utf-8", cs, sizeof(cs), &len);
			CHECK(got != NULL);
			if (got != NULL) {
				CHECK_STR((char *)got, want);
				CHECK_INT(len, strlen(want));
			}
			free(got);
		}
}

/* The class/id word test: any case in the value, a word that runs past
 * the value's end does not match. */
static void
test_has_sub(void)
{
	static const char *const words[] = { "sidebar", "-ad-", NULL };

	CHECK_INT(content_has_sub("Main-SideBar", words), 1);
	CHECK_INT(content_has_sub("x-AD-y", words), 1);
	CHECK_INT(content_has_sub("sidebar", words), 1);
	CHECK_INT(content_has_sub("side", words), 0);
	CHECK_INT(content_has_sub("x-ad", words), 0);
	CHECK_INT(content_has_sub("sidebaR-", words), 1);
	CHECK_INT(content_has_sub("", words), 0);
	CHECK_INT(content_has_sub(NULL, words), 0);
}

static void
test_result_free_zeroed(void)
{
	struct extract_result r;

	memset(&r, 0, sizeof(r));
	extract_result_free(&r);
	CHECK(r.text == NULL);
	if (run("<p>x</p><a href=/y>y</a>", 24, NULL, &r) == 0) {
		extract_result_free(&r);
		CHECK(r.text == NULL && r.links == NULL && r.nlinks == 0);
		extract_result_free(&r);
	}
}

static void
test_no_page_url(void)
{
	struct extract_result r;
	const char *why = NULL;
	static const char html[] =
	    "<a href=\"/rel\">r</a><a href=\"http://a.org/abs\">a</a>";

	CHECK_INT(extract_html(html, sizeof(html) - 1, NULL, NULL, &r, &why),
	    0);
	CHECK_INT(r.nlinks, 1);
	if (r.nlinks == 1)
		CHECK_STR(r.links[0], "http://a.org/abs");
	extract_result_free(&r);
}

/* text and main_text of html with default options must be these, line
 * breaks read as spaces (flat_is). */
static void
main_is(const char *html, const char *want_text, const char *want_main)
{
	struct extract_result r;

	if (run(html, strlen(html), NULL, &r) != 0)
		return;
	CHECK(flat_is(r.text, want_text));
	CHECK(flat_is(r.main_text, want_main));
	CHECK_INT(r.main_len, strlen(want_main));
	extract_result_free(&r);
}

static void
test_main_landmarks_dropped(void)
{
	main_is("<body><header>Site name</header><nav><a href=/>Home</a>"
	    "</nav><p>The lab opened on Monday with room for forty students.</p><aside>Aside text</aside>"
	    "<form>Search <input name=q></form><footer>Footer text</footer>"
	    "<search>Find</search></body>",
	    "Site name Home The lab opened on Monday with room for forty students. Aside text Search Footer "
	    "text Find", "The lab opened on Monday with room for forty students.");
	/* The subtree goes, whatever is under it... */
	main_is("<p>First paragraph.</p><nav><div><p>deep <b>inside</b> nav"
	    "</p></div></nav><p>Second paragraph.</p>", "First paragraph. "
	    "deep inside nav Second paragraph.",
	    "First paragraph. Second paragraph.");
	/* ... unless it holds most of the page's text (ASP.NET pages sit
	 * in one big form). */
	main_is("<form id=form1><p>The whole page sits inside one form "
	    "element.</p></form><p>b</p>", "The whole page sits inside one "
	    "form element. b", "The whole page sits inside one form element. "
	    "b");
}

static void
test_main_header_in_article_kept(void)
{
	main_is("<header>Site</header><article><header><h1>Title</h1>"
	    "<p>by Ann</p></header><p>Story.</p><footer>Tags: x</footer>"
	    "</article>", "Site Title by Ann Story. Tags: x",
	    "Title by Ann Story. Tags: x");
	main_is("<main><header>Main head</header><p>Story.</p></main>"
	    "<footer>Page foot</footer>", "Main head Story. Page foot",
	    "Main head Story.");
	/* The class tokens follow the same exception. */
	main_is("<div class=site-header>Site</div><article>"
	    "<div class=entry-header>Entry</div><p>Story.</p>"
	    "<div class=entry-footer>Foot</div></article>",
	    "Site Entry Story. Foot", "Entry Story. Foot");
	/* Once the article is closed, the exception ends. */
	main_is("<article><p>Story.</p></article><header>After</header>",
	    "Story. After", "Story.");
}

/* A thin page: its main element holds one line, its footer a long
 * disclaimer. The footer must not become its main text (every thin page
 * of the site would then read the same), in an HTML5 layout or in a
 * table layout whose footer cell is named by its class. */
#define LEGAL_TEXT "The University is a charity registered under number " \
	"SC000000 and a company limited by guarantee. Information on this " \
	"page is correct at the time of publication; the university " \
	"reserves the right to change courses, services and facilities. " \
	"We use cookies to make this site work and to understand how it is " \
	"used; you can change your cookie settings at any time, and we " \
	"keep a record of every change made to these terms and conditions."

static void
test_main_short_main_not_footer(void)
{
	static const char html5[] = "<body><header><a href=/>Uni</a></header>"
	    "<nav><a href=/a>Study</a> <a href=/b>News</a></nav>"
	    "<main><h1>Registry</h1><p>Registry: open Monday to Thursday, "
	    "08:30 to 17:00, Room A2.09.</p></main><footer><p>1 University "
	    "Avenue, Uni City.</p><p class=legal>" LEGAL_TEXT "</p></footer>"
	    "</body>";
	static const char table[] = "<body><table><tr><td colspan=2 "
	    "class=banner>Department of Biology</td></tr><tr><td class=leftnav>"
	    "<a href=/a>Courses</a><br><a href=/b>News</a></td><td class=content>"
	    "<b>Ms Ana Ruiz</b><p>Ms Ana Ruiz, Lecturer in Genetics. Office "
	    "D1.05.</p></td></tr><tr><td colspan=2 class=footer>Darwin "
	    "Building. " LEGAL_TEXT "</td></tr></table></body>";
	struct extract_result r;

	if (run(html5, sizeof(html5) - 1, NULL, &r) == 0) {
		CHECK(strstr(r.main_text, "Registry: open Monday") != NULL);
		CHECK(strstr(r.main_text, "charity") == NULL);
		extract_result_free(&r);
	}
	if (run(table, sizeof(table) - 1, NULL, &r) == 0) {
		CHECK(strstr(r.main_text, "Lecturer in Genetics") != NULL);
		CHECK(strstr(r.main_text, "charity") == NULL);
		extract_result_free(&r);
	}
	/* A long article still wins inside an element whose class says
	 * header (a layout row named site_header around the article). */
	main_is("<div class=site_header><article><p>" LEGAL_TEXT "</p>"
	    "</article></div><footer>Foot</footer>", LEGAL_TEXT " Foot",
	    LEGAL_TEXT);
}

static void
test_main_class_id_tokens(void)
{
	main_is("<div class=\"main-nav\">Menu</div><div class=site-header>"
	    "Logo</div><div class=ads>Buy</div><ol id=breadcrumb><li>Here"
	    "</li></ol><div class=\"box related\">Other</div>"
	    "<p class=counter>Visitors: 9</p><div id=content><p>Kept one, "
	    "a paragraph of content.</p></div><h1 class=headline>Kept two, "
	    "its heading</h1>", "Menu Logo Buy Here Other Visitors: 9 Kept "
	    "one, a paragraph of content. Kept two, its heading",
	    "Kept one, a paragraph of content. Kept two, its heading");
	/* Any case; any non-alphanumeric byte separates. */
	main_is("<div id=MAIN_NAV>a</div><div class=\"x SideBar\">b</div>"
	    "<div class=\"cookie.consent\">c</div><div class=widget:3>d</div>"
	    "<p>The lab opened on Monday with room for forty students.</p>", "a b c d The lab opened on Monday with room for forty students.",
	    "The lab opened on Monday with room for forty students.");
	/* Whole tokens, never substrings. */
	main_is("<div class=download>a</div><div class=shared-post>b</div>"
	    "<div class=navigate>c</div><div class=header2>d</div>"
	    "<div class=\"loaded shadow\">e</div><div id=\"menus\">f</div>",
	    "a b c d e f", "a b c d e f");
}

static void
test_main_page_wide_classes_ignored(void)
{
	/* Layout classes on html, body and main do not empty the page. */
	main_is("<html class=has-sidebar><body class=\"header-fixed ads\">"
	    "<main class=with-sidebar><p>Story.</p></main>"
	    "<div class=sidebar>Side</div></body></html>",
	    "Story. Side", "Story.");
}

static void
test_main_roles(void)
{
	main_is("<div role=navigation>a</div><div role=BANNER>b</div>"
	    "<div role=contentinfo>c</div><div role=\"complementary\">d"
	    "</div><div role=Search>e</div><div role=main><p>The lab opened on Monday with room for forty students."
	    "</p></div><div role=presentation>g</div><div role=\"note "
	    "navigation\">h</div>", "a b c d e The lab opened on Monday with room for forty students. g h",
	    "The lab opened on Monday with room for forty students. g");
	/* Words of the role, in any case, not parts of words. */
	main_is("<div role=NAVIGATIONAL>a</div><p>b</p>", "a b", "a b");
}

static void
test_main_link_dense_paragraph(void)
{
	/* Links of a word or two making most of a block: a menu. */
	main_is("<p><a href=/>Home</a> | <a href=/a>About</a></p>"
	    "<p>The lab opened on Monday and <a href=/x>the dean</a> gave a "
	    "short speech to the staff.</p>",
	    "Home | About The lab opened on Monday and the dean gave a short "
	    "speech to the staff.",
	    "The lab opened on Monday and the dean gave a short speech to the "
	    "staff.");
	/* One link is no menu, however much of its block it is. */
	main_is("<p>x</p><p>abc <a href=/a>defg</a></p>", "x abc defg",
	    "x abc defg");
	main_is("<p>x</p><a href=/c><div>Card title</div></a>",
	    "x Card title", "x Card title");
}

#define PLAIN "A plain paragraph of text, long enough to stand alone."

/* A paragraph of n one-word links followed by a plain paragraph. */
static void
link_words(char *html, size_t n, const char *word)
{
	size_t i;

	strcpy(html, "<p>");
	for (i = 0; i < n; i++) {
		strcat(html, "<a href=/w>");
		strcat(html, word);
		strcat(html, "</a> ");
	}
	strcat(html, "</p><p>" PLAIN "</p>");
}

static void
test_main_link_dense_word_limit(void)
{
	char html[32 * 100];
	struct extract_result r;

	/* Short links are a menu (or a tag cloud) however many... */
	link_words(html, 40, "w");
	if (run(html, strlen(html), NULL, &r) == 0) {
		CHECK_STR(r.main_text, PLAIN);
		extract_result_free(&r);
	}
	/* ... unless the block is long (500 characters): then it is
	 * content. */
	link_words(html, 100, "wordy");
	if (run(html, strlen(html), NULL, &r) == 0) {
		CHECK_STR(r.main_text, r.text);
		extract_result_free(&r);
	}
	/* Links as long as titles are a listing's items: kept. */
	link_words(html, 3, "A title of a news item");
	if (run(html, strlen(html), NULL, &r) == 0) {
		CHECK_STR(r.main_text, r.text);
		extract_result_free(&r);
	}
}

static void
test_main_nested_link_lists(void)
{
	/* Inner lists go, and the outer list with them. */
	main_is("<ul><li><a href=/p>Products</a><ul><li><a href=/a>A</a></li>"
	    "<li><a href=/b>B</a></li></ul></li><li><a href=/c>About</a></li>"
	    "</ul><p>Real text here.</p>",
	    "Products A B About Real text here.", "Real text here.");
	/* The outer list is judged on all its text, the dropped items'
	 * included: a plain "Call us" item does not save a menu. */
	main_is("<p>The lab opened on Monday with room for forty students.</p><ul><li><a href=/>Home</a></li><li>"
	    "<a href=/n>News</a></li><li><a href=/w>Weather</a></li><li>Call "
	    "us</li></ul>", "The lab opened on Monday with room for forty students. Home News Weather Call us",
	    "The lab opened on Monday with room for forty students.");
	/* A list that is mostly prose is kept whole. */
	main_is("<ul><li><a href=/x>x</a></li><li>A long plain item with "
	    "several words in it</li></ul>",
	    "x A long plain item with several words in it",
	    "x A long plain item with several words in it");
}

static void
test_main_inline_boilerplate(void)
{
	main_is("<p>Read <span class=share>Share this</span> more of the "
	    "story.</p>", "Read Share this more of the story.",
	    "Read more of the story.");
}

static void
test_main_fallback_to_text(void)
{
	main_is("<header><h1>Only a header</h1></header>", "Only a header",
	    "Only a header");
	main_is("<ul><li><a href=/a>One</a></li><li><a href=/b>Two</a></li>"
	    "</ul>", "One Two", "One Two");
	main_is("<nav>n</nav><footer>f</footer>", "n f", "n f");
	main_is("<body><script>x()</script></body>", "", "");
}

static void
test_main_links_unchanged(void)
{
	struct extract_result r;
	static const char html[] = "<nav><a href=/nav>N</a></nav><p>Text "
	    "with <a href=/in>a link</a> in a long enough sentence here.</p>"
	    "<footer><a href=/foot>F</a></footer>";

	if (run(html, sizeof(html) - 1, NULL, &r) != 0)
		return;
	CHECK_INT(r.nlinks, 3);
	if (r.nlinks == 3) {
		CHECK_STR(r.links[0], "http://a.org/nav");
		CHECK_STR(r.links[1], "http://a.org/in");
		CHECK_STR(r.links[2], "http://a.org/foot");
	}
	CHECK_STR(r.main_text,
	    "Text with a link in a long enough sentence here.");
	extract_result_free(&r);
}

/* One article, as a CMS page and as its print view. */
static const char ARTICLE_MAIN[] = "New lab opens By Jane Doe, 3 May 2024 "
    "The new physics lab opened on Monday with room for forty students. "
    "It was funded by alumni donations collected over five years.";

static const char ARTICLE_MAIN_LINK[] = "New lab opens By Jane Doe, 3 May "
    "2024 The new physics lab opened on Monday with room for forty students."
    " It was funded by alumni donations collected over five years. Back to "
    "all news";

static const char CMS_PAGE[] =
    "<!DOCTYPE html><html><head><title>New lab - Uni</title></head>"
    "<body>\n<header class=\"site-header\"><a href=\"/\"><img "
    "alt=\"Logo\" src=\"l.png\"></a><span>University of Somewhere"
    "</span></header>\n<nav class=\"main-nav\"><ul><li><a href=\"/\">"
    "Home</a></li><li><a href=\"/news\">News</a></li><li><a "
    "href=\"/contact\">Contact</a></li></ul></nav>\n<aside><div "
    "class=\"ad\">Buy now</div><div class=\"widget\">Weather: sunny"
    "</div></aside>\n<main>\n<ol class=\"breadcrumb\"><li><a "
    "href=\"/\">Home</a></li><li><a href=\"/news\">News</a></li>"
    "<li>New lab</li></ol>\n<article>\n<header><h1>New lab opens</h1>"
    "<p class=\"byline\">By Jane Doe, 3 May 2024</p></header>\n"
    "<p>The new physics lab opened on Monday with room for forty "
    "students.</p>\n<p>It was funded by <a href=\"/donors\">alumni "
    "donations</a> collected over five years.</p>\n</article>\n"
    "<section class=\"related\"><h2>Related news</h2><ul><li><a "
    "href=\"/n/1\">Library hours change</a></li><li><a href=\"/n/2\">"
    "New canteen menu</a></li></ul></section>\n<p><a href=\"/news\">"
    "Back to all news</a></p>\n</main>\n<footer><p>Last updated 4 May "
    "2024</p><p>Visitors: 12345</p></footer>\n</body></html>\n";


static void
test_main_cms_page(void)
{
	struct extract_result r;
	if (run(CMS_PAGE, sizeof(CMS_PAGE) - 1, NULL, &r) != 0)
		return;
	/* Too short to be found with confidence: the body without its
	 * template, where a lone link stays. */
	CHECK(flat_is(r.main_text, ARTICLE_MAIN_LINK));
	CHECK_INT(r.main_found, 0);
	/* The full text still has the template around the article. */
	CHECK(strncmp(r.text, "University of Somewhere\nHome\nNews", 33) ==
	    0);
	CHECK(strstr(r.text, "Visitors: 12345") != NULL);
	CHECK_INT(r.nlinks, 6);
	extract_result_free(&r);
}

static void
test_main_print_view(void)
{
	static const char html[] =
	    "<html><head><title>New lab</title></head><body>"
	    "<h1>New lab opens</h1><p>By Jane Doe, 3 May 2024</p>"
	    "<p>The new physics lab opened on Monday with room for forty "
	    "students.</p><p>It was funded by <a href=\"/donors\">alumni "
	    "donations</a> collected over five years.</p></body></html>";

	main_is(html, ARTICLE_MAIN, ARTICLE_MAIN);
}

static void
test_main_cap_and_utf8(void)
{
	struct extract_opts o = { NULL, 6, 0 };
	struct extract_result r;
	static const char html[] = "<nav>menu</nav><p>ab \xc3\xa9\xe2\x82\xac "
	    "tail</p>";
	static const char cut[] = "<p>\xc3\xa9t\xc3\xa9</p><ul><li><a "
	    "href=/>\xe2\x82\xac</a></li><li><a href=/b>b</a></li></ul>"
	    "<p>\xc3\xa0 la</p>";

	if (run(html, sizeof(html) - 1, &o, &r) == 0) {
		CHECK_STR(r.text, "menu\na");
		CHECK_STR(r.main_text, "ab \xc3\xa9");
		CHECK(r.main_len <= 6);
		extract_result_free(&r);
	}
	/* A block cut from the middle leaves whole characters. */
	if (run(cut, sizeof(cut) - 1, NULL, &r) == 0) {
		CHECK_STR(r.main_text, "\xc3\xa9t\xc3\xa9\n\xc3\xa0 la");
		CHECK(clean_utf8(r.main_text, r.main_len));
		extract_result_free(&r);
	}
}

/* ---- main content: the failure classes of the word-and-density rules ---- */

/* An article of five paragraphs, some 700 characters: enough to be found. */
#define LONG_ARTICLE                                                        \
	"<h1>New physics lab opens</h1>"                                    \
	"<p>The new physics lab opened on Monday, with room for forty "     \
	"students, two lecture rooms and a workshop for the technicians.</p>" \
	"<p>It was funded by alumni donations, collected over five years, "  \
	"and by a grant from the regional council, which asked for public " \
	"open days.</p>"                                                    \
	"<p>The first open day is planned for June, when school classes "  \
	"from the region will see experiments with lasers, magnets and a "  \
	"small cloud chamber.</p>"                                          \
	"<p>The dean thanked the donors, the builders and the staff, who "  \
	"moved the old equipment during the holidays, without losing a "  \
	"single instrument.</p>"                                            \
	"<p>Teaching starts in the new rooms in September, and the old "   \
	"building will be turned into offices for the mathematics "        \
	"department.</p>"

#define SITE_NAV                                                            \
	"<nav><ul><li><a href=/>Home</a></li><li><a href=/news>News</a>"   \
	"</li><li><a href=/study>Study</a></li><li><a href=/research>"      \
	"Research</a></li></ul></nav>"

static void
test_main_article_under_template_words(void)
{
	static const char *const words[] = { "sidebar", "header", "ad",
		"breadcrumb", "pagination", "widget", "has-sidebar main-ad",
		NULL };
	const char *const *wd;
	struct extract_result r;
	char html[4096];

	for (wd = words; *wd != NULL; wd++) {
		/* The word on an ancestor of the article, as class and id. */
		snprintf(html, sizeof(html), "<body>" SITE_NAV "<div class=\"%s"
		    "\"><div id=\"%s\"><article>" LONG_ARTICLE "</article></div>"
		    "</div><footer>Copyright 2024 University</footer></body>",
		    *wd, *wd);
		if (run(html, strlen(html), NULL, &r) != 0)
			return;
		CHECK(strstr(r.main_text, "The new physics lab opened") !=
		    NULL);
		CHECK(strstr(r.main_text, "offices for the mathematics "
		    "department.") != NULL);
		CHECK(strstr(r.main_text, "Research") == NULL);
		CHECK_INT(r.main_found, 1);
		CHECK(r.main_share > 0.8 && r.main_share <= 1);
		extract_result_free(&r);
		/* A short article under the word: kept as well. */
		snprintf(html, sizeof(html), "<body>" SITE_NAV "<div class=\"%s"
		    "\"><p>The lab opened on Monday with forty places.</p>"
		    "</div></body>", *wd);
		if (run(html, strlen(html), NULL, &r) != 0)
			return;
		CHECK_STR(r.main_text,
		    "The lab opened on Monday with forty places.");
		CHECK_INT(r.main_found, 0);
		extract_result_free(&r);
	}
}

static void
test_main_never_a_stray_counter(void)
{
	struct extract_result a, b, c;
	static const char page_a[] = "<body>" SITE_NAV "<div class=\"widget"
	    "-area\"><p>The choir sings Bach on Sunday in the great hall, "
	    "tickets at the door.</p><p>Rehearsals are open to students "
	    "every Thursday.</p></div><p>You are visitor 000123</p></body>";
	static const char page_b[] = "<body>" SITE_NAV "<div class=\"widget"
	    "-area\"><p>The canteen closes for repairs from May to July, "
	    "use the cafeteria instead.</p><p>Vegetarian meals stay on the "
	    "menu there.</p></div><p>You are visitor 000123</p></body>";
	static const char bare[] = "<body>" SITE_NAV "<ul class=menu><li>"
	    "<a href=/a>Admissions and fees</a></li><li><a href=/l>Library "
	    "services</a></li><li><a href=/j>Jobs and careers</a></li></ul>"
	    "<p>You are visitor 000123</p></body>";

	if (run(page_a, sizeof(page_a) - 1, NULL, &a) != 0)
		return;
	if (run(page_b, sizeof(page_b) - 1, NULL, &b) != 0) {
		extract_result_free(&a);
		return;
	}
	/* The articles stay; the two pages do not share a main text. */
	CHECK(strstr(a.main_text, "The choir sings Bach") != NULL);
	CHECK(strstr(b.main_text, "The canteen closes") != NULL);
	CHECK(strcmp(a.main_text, "You are visitor 000123") != 0);
	CHECK(strcmp(a.main_text, b.main_text) != 0);
	extract_result_free(&a);
	extract_result_free(&b);
	/* A page of nothing but template and a counter: the whole text. */
	if (run(bare, sizeof(bare) - 1, NULL, &c) != 0)
		return;
	CHECK_STR(c.main_text, c.text);
	CHECK_INT(c.main_found, 0);
	extract_result_free(&c);
}

/* A paginated news list: page n with its items. */
static void
news_list(char *html, size_t size, int n, const char *const *items)
{
	size_t len;

	len = (size_t)snprintf(html, size, "<body>" SITE_NAV "<main><h1>News "
	    "page %d</h1><ul class=\"news-list\">", n);
	for (; *items != NULL; items++)
		len += (size_t)snprintf(html + len, size - len, "<li><a href="
		    "\"/news/%zu\">%s</a> <span class=date>3 May 2024</span>"
		    "</li>", len, *items);
	snprintf(html + len, size - len, "</ul><div class=pagination><a href="
	    "?p=1>1</a> <a href=?p=2>2</a> <a href=?p=3>3</a> <a href=?p=%d>"
	    "Next</a></div></main><footer>Copyright 2024 University</footer>"
	    "</body>", n + 1);
}

static void
test_main_listing_pages_keep_items(void)
{
	static const char *const items1[] = { "Council approves the budget "
		"for a new library", "Physics lab opens with forty places",
		"Students win the national robotics prize", "Canteen menu "
		"changes next term", NULL };
	static const char *const items2[] = { "Professor retires after "
		"forty years of teaching", "New bus line connects the two "
		"campuses", "Library extends its opening hours", "Alumni day "
		"draws a record crowd", NULL };
	struct extract_result a, b;
	char html[4096];

	news_list(html, sizeof(html), 1, items1);
	if (run(html, strlen(html), NULL, &a) != 0)
		return;
	news_list(html, sizeof(html), 2, items2);
	if (run(html, strlen(html), NULL, &b) != 0) {
		extract_result_free(&a);
		return;
	}
	CHECK(strstr(a.main_text, "Students win the national robotics "
	    "prize") != NULL);
	CHECK(strstr(b.main_text, "New bus line connects the two campuses") !=
	    NULL);
	CHECK(strstr(a.main_text, "New bus line") == NULL);
	CHECK(strcmp(a.main_text, b.main_text) != 0);
	/* The menu, the pager and the footer are still template. */
	CHECK(strstr(a.main_text, "Research") == NULL);
	CHECK(strstr(a.main_text, "Next") == NULL);
	CHECK(strstr(a.main_text, "Copyright") == NULL);
	/* And the item titles are the page's own links in anchors_same. */
	CHECK(strstr(a.anchors_same, "Canteen menu changes next term") !=
	    NULL);
	extract_result_free(&a);
	extract_result_free(&b);
}

/* ---- blocks as lines ---- */

static void
test_text_blocks_are_lines(void)
{
	struct extract_result r;
	static const char html[] = "<body>\n<h1> Title </h1>\n<div><div><p>"
	    "One\n  two <b>three</b></p></div></div>\n<p>a<br>b<br><br>c</p>"
	    "<ul><li>x</li><li> <span>y</span> </li></ul><p>in<i>line</i> "
	    "<span>span</span></p><table><tr><td>c1</td><td>c2</td></tr>"
	    "</table>\n</body>";

	if (run(html, sizeof(html) - 1, NULL, &r) != 0)
		return;
	CHECK_STR(r.text, "Title\nOne two three\na\nb\nc\nx\ny\ninline span\n"
	    "c1\nc2");
	CHECK_INT(r.text_len, strlen(r.text));
	CHECK(clean_utf8(r.text, r.text_len));
	CHECK_STR(r.main_text, r.text);
	extract_result_free(&r);
	/* Fields keep spaces. */
	text_is("<h2>a<br>b</h2>", "a b");
	if (run("<h2>a<br>b</h2>", 15, NULL, &r) == 0) {
		CHECK_STR(r.headings, "a b");
		extract_result_free(&r);
	}
}

static void
test_text_flat_is_old_text(void)
{
	struct extract_result r;
	char *flat;
	size_t i;
	/* test_main_cms_page's page, and its text as the space-separated
	 * extraction gave it. */
	static const char old[] = "University of Somewhere Home News Contact "
	    "Buy now Weather: sunny Home News New lab New lab opens By Jane "
	    "Doe, 3 May 2024 The new physics lab opened on Monday with room "
	    "for forty students. It was funded by alumni donations collected "
	    "over five years. Related news Library hours change New canteen "
	    "menu Back to all news Last updated 4 May 2024 Visitors: 12345";

	if (run(CMS_PAGE, sizeof(CMS_PAGE) - 1, NULL, &r) != 0)
		return;
	flat = strdup(r.text);
	CHECK(flat != NULL);
	if (flat != NULL) {
		for (i = 0; flat[i] != '\0'; i++)
			if (flat[i] == '\n')
				flat[i] = ' ';
		CHECK_STR(flat, old);
	}
	CHECK(strchr(r.text, '\n') != NULL);
	free(flat);
	extract_result_free(&r);
}

/* anchors_same and anchors_other of html on PAGE must be exactly these. */
static void
anchors_are(const char *html, const char *want_same, const char *want_other)
{
	struct extract_result r;

	if (run(html, strlen(html), NULL, &r) != 0)
		return;
	CHECK_STR(r.anchors_same, want_same);
	CHECK_STR(r.anchors_other, want_other);
	extract_result_free(&r);
}

static void
test_anchors_split_by_host(void)
{
	/* Relative, absolute-path, www. and same-host links are the site's
	 * own; other hosts and subdomains are not; mailto: is neither. */
	anchors_are("<p>The report <a href=x.html>local page</a> cites "
	    "<a href=\"http://www.a.org/y\">www twin</a>, <a href=/z>root"
	    "</a>, <a href=\"https://b.org/\">other site</a>, <a href="
	    "\"http://sub.a.org/\">sub site</a> and <a href=\"mailto:x@a.org"
	    "\">mail us</a> in a long sentence of plain words here.</p>",
	    "local page www twin root", "other site sub site");
	/* No href, or no text: nothing to keep. */
	anchors_are("<p>Plain words <a name=top>named</a> and <a href=/i>"
	    "<img src=i.png></a> and more plain words to keep it.</p>", "",
	    "");
	/* Nested markup inside a link is one link's text. */
	anchors_are("<p>Some words of text here <a href=/n><b>bold</b> "
	    "<i>it</i></a> and more words so the block stays.</p>",
	    "bold it", "");
}

static void
test_anchors_follow_main(void)
{
	/* Template links are not main content; neither is a link list. */
	anchors_are("<nav><a href=/m>Menu</a></nav><div class=sidebar>"
	    "<a href=\"http://ads.b.org/\">Ad</a></div><p><a href=/a>one</a>"
	    " <a href=/b>two</a></p><p>Body words and <a href=/c>a link"
	    "</a> inside a longer sentence of text.</p>", "a link", "");
	/* With nothing left, main is the whole text, and so are links. */
	anchors_are("<nav><a href=/m>Menu</a> <a href=\"http://b.org/\">"
	    "Out</a></nav>", "Menu", "Out");
	/* A cut block forgets its links, not those before it. */
	anchors_are("<p>Words before <a href=/k>kept</a> and after it, many"
	    " of them.</p><div><p><a href=/x>gone</a></p><p><a href=/y>gone"
	    " too</a></p></div><p>Tail words <a href=\"http://c.org/\">out"
	    "</a> with more plain words.</p>", "kept", "out");
}

static void
test_anchors_base_nofollow_no_url(void)
{
	struct extract_result r;
	const char *why = NULL;
	static const char html[] = "<p>Text words <a href=/rel>rel</a> and "
	    "<a href=\"http://a.org/abs\">abs</a> and more words here.</p>";

	/* <base> on another host moves relative links there. */
	anchors_are("<head><base href=\"http://b.org/\"></head><p>Words "
	    "<a href=r.html>moved</a> and more plain words here.</p>", "",
	    "moved");
	/* nofollow links are still the page's content. */
	anchors_are("<head><meta name=robots content=nofollow></head><p>"
	    "Words <a href=/r rel=nofollow>kept</a> and more plain words."
	    "</p>", "kept", "");
	/* No page URL: relative links stay, absolute ones go elsewhere. */
	CHECK_INT(extract_html(html, sizeof(html) - 1, NULL, NULL, &r, &why),
	    0);
	CHECK_STR(r.anchors_same, "rel");
	CHECK_STR(r.anchors_other, "abs");
	extract_result_free(&r);
}

static void
test_anchors_capped(void)
{
	struct extract_result r;
	static char html[400000];
	size_t i, len = 0;

	/* 6000 links of 12 bytes of text each: about 64 KiB are looked at
	 * and each string keeps whole links under its cap. */
	len += (size_t)snprintf(html + len, sizeof(html) - len, "<p>");
	for (i = 0; i < 6000; i++)
		len += (size_t)snprintf(html + len, sizeof(html) - len,
		    "<a href=%s/%zu>link %06zu</a> ",
		    i % 2 ? "http://b.org" : "", i, i);
	if (run(html, len, NULL, &r) != 0)
		return;
	CHECK(strlen(r.anchors_same) <= EXTRACT_ANCHORS_MAX);
	CHECK(strlen(r.anchors_other) <= EXTRACT_ANCHORS_MAX);
	CHECK(strlen(r.anchors_same) > EXTRACT_ANCHORS_MAX - 20);
	CHECK(strncmp(r.anchors_same, "link 000000 link 000002", 23) == 0);
	CHECK(strncmp(r.anchors_other, "link 000001 link 000003", 23) == 0);
	extract_result_free(&r);
}

/* Whether bytes without a Content-Type are HTML. */
static void
test_is_html(void)
{
	CHECK(extract_is_html(NULL, "  <html>", 8) == 1);
	CHECK(extract_is_html(NULL, "\xef\xbb\xbf<!DOCTYPE html>", 18) == 1);
	CHECK(extract_is_html(NULL, "\xef\xbb\xbf\n <p>x", 8) == 1);
	CHECK(extract_is_html(NULL, "plain text", 10) == 0);
	CHECK(extract_is_html(NULL, "\xef\xbb", 2) == 0);
	CHECK(extract_is_html("text/html; charset=utf-8", NULL, 0) == 1);
	CHECK(extract_is_html("text/plain", "<p>", 3) == 0);
}

/* content_unlikely_named without class and id (at once) and with them
 * (read): a name only when one of them says so. */
static void
test_unlikely_named_needs_a_name(void)
{
	static const char html[] = "<body><div>a</div><div class=sidebar>b"
	    "</div><div id=site-menu>c</div><div class=\"\" id=\"\">d</div>"
	    "<div class=\" \">e</div><div class=sidebar id=article>f</div>"
	    "</body>";
	static const int want[] = { 0, 1, 1, 0, 0, 0 };
	xmlDoc *doc = htmlReadMemory(html, (int)sizeof(html) - 1, NULL,
	    "UTF-8", HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING);
	xmlNode *n;
	size_t i = 0;

	CHECK(doc != NULL);
	if (doc == NULL)
		return;
	n = xmlDocGetRootElement(doc)->children->children;
	for (; n != NULL && i < 6; n = n->next)
		if (n->type == XML_ELEMENT_NODE)
			CHECK_INT(content_unlikely_named(n), want[i++]);
	CHECK_INT(i, 6);
	xmlFreeDoc(doc);
}

/* The element table's look-up, around the ends of each first letter's
 * entries and past them. */
static void
test_elem_flags(void)
{
	static const struct {
		const char *name;
		unsigned flags;
	} cases[] = { { "address", E_BLOCK }, { "a", 0 }, { "ab", 0 },
		{ "video", E_DROP }, { "vide", 0 }, { "videos", 0 },
		{ "dir", E_BLOCK }, { "di", 0 }, { "divx", 0 },
		{ "dt", E_BLOCK }, { "du", 0 }, { "h1", E_BLOCK | E_HEADING },
		{ "h6", E_BLOCK | E_HEADING }, { "h7", 0 }, { "hr", E_BLOCK },
		{ "html", E_BLOCK }, { "script", E_SKIP }, { "svg", E_SKIP },
		{ "summary", E_BLOCK }, { "ul", E_BLOCK }, { "u", 0 },
		{ "zz", 0 }, { "Div", 0 }, { "", 0 }, { "1", 0 },
		{ "\xc3\xa9", 0 }, { "noscript", E_DROP },
		{ "blockquote", E_BLOCK } };
	size_t i;

	CHECK_INT(extract_elem_flags(NULL), 0);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		CHECK_INT(extract_elem_flags(cases[i].name), cases[i].flags);
}

void
suite_extract(void)
{
	RUN(test_elem_flags);
	RUN(test_unlikely_named_needs_a_name);
	RUN(test_is_html);
	RUN(test_drop_nontext);
	RUN(test_anchor_text_kept);
	RUN(test_block_separation);
	RUN(test_pre_lines_are_blocks);
	RUN(test_link_spans);
	RUN(test_inline_no_separation);
	RUN(test_whitespace_entities);
	RUN(test_body_only_and_fragment);
	RUN(test_fields);
	RUN(test_fields_absent);
	RUN(test_links_basic);
	RUN(test_links_base_href);
	RUN(test_links_rel_nofollow);
	RUN(test_links_meta_robots);
	RUN(test_links_frames);
	RUN(test_links_cap);
	RUN(test_links_too_long);
	RUN(test_links_many_unique);
	RUN(test_charset_opts_latin1);
	RUN(test_charset_opts_wins_over_meta);
	RUN(test_charset_undeclared_1252);
	RUN(test_charset_meta);
	RUN(test_charset_utf8_default_and_bom);
	RUN(test_charset_invalid_utf8_never_leaks);
	RUN(test_charset_utf8_cut_at_end);
	RUN(test_binary_garbage);
	RUN(test_empty_input);
	RUN(test_malformed_and_truncated);
	RUN(test_not_nul_terminated);
	RUN(test_deep_nesting);
	RUN(test_max_text_boundary);
	RUN(test_max_text_words);
	RUN(test_has_sub);
	RUN(test_decode_every_offset);
	RUN(test_result_free_zeroed);
	RUN(test_no_page_url);
	RUN(test_main_landmarks_dropped);
	RUN(test_main_header_in_article_kept);
	RUN(test_main_short_main_not_footer);
	RUN(test_main_class_id_tokens);
	RUN(test_main_page_wide_classes_ignored);
	RUN(test_main_roles);
	RUN(test_main_link_dense_paragraph);
	RUN(test_main_link_dense_word_limit);
	RUN(test_main_nested_link_lists);
	RUN(test_main_inline_boilerplate);
	RUN(test_main_fallback_to_text);
	RUN(test_main_links_unchanged);
	RUN(test_main_cms_page);
	RUN(test_main_print_view);
	RUN(test_main_cap_and_utf8);
	RUN(test_main_article_under_template_words);
	RUN(test_main_never_a_stray_counter);
	RUN(test_main_listing_pages_keep_items);
	RUN(test_text_blocks_are_lines);
	RUN(test_text_flat_is_old_text);
	RUN(test_anchors_split_by_host);
	RUN(test_anchors_follow_main);
	RUN(test_anchors_base_nofollow_no_url);
	RUN(test_anchors_capped);
}
