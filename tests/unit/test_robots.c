#include "check.h"
#include "web/robots.h"

#include <stdlib.h>
#include <string.h>

/* 1 allowed, 0 disallowed, -1 when parsing ran out of memory. */
static int
allowed_for(const char *txt, const char *agent, const char *path)
{
	struct robots *r;
	int a;

	if ((r = robots_parse(txt, strlen(txt), agent)) == NULL)
		return -1;
	a = robots_allowed(r, path);
	robots_free(r);
	return a;
}

static int
allowed(const char *txt, const char *path)
{
	return allowed_for(txt, "nearcrawl", path);
}

static double
delay_for(const char *txt, const char *agent)
{
	struct robots *r;
	double d;

	if ((r = robots_parse(txt, strlen(txt), agent)) == NULL)
		return -2;
	d = robots_crawl_delay(r);
	robots_free(r);
	return d;
}

static const char rfc_example[] =
    "User-Agent: *\n"
    "Disallow: *.gif$\n"
    "Disallow: /example/\n"
    "Allow: /publications/\n"
    "\n"
    "User-Agent: foobot\n"
    "Disallow:/\n"
    "Allow:/example/page.html\n"
    "Allow:/example/allowed.gif\n"
    "\n"
    "User-Agent: barbot\n"
    "User-Agent: bazbot\n"
    "Disallow: /example/page.html\n"
    "\n"
    "User-Agent: quxbot\n";

static void
test_rfc_example_foobot(void)
{
	CHECK_INT(allowed_for(rfc_example, "foobot", "/example/page.html"), 1);
	CHECK_INT(allowed_for(rfc_example, "foobot", "/example/allowed.gif"),
	    1);
	CHECK_INT(allowed_for(rfc_example, "foobot", "/example/other.html"),
	    0);
	CHECK_INT(allowed_for(rfc_example, "foobot", "/"), 0);
	CHECK_INT(allowed_for(rfc_example, "foobot", "/publications/"), 0);
}

static void
test_rfc_example_multi_agent_group(void)
{
	CHECK_INT(allowed_for(rfc_example, "barbot", "/example/page.html"),
	    0);
	CHECK_INT(allowed_for(rfc_example, "bazbot", "/example/page.html"),
	    0);
	/* The "*" group's gif rule does not apply to a named group. */
	CHECK_INT(allowed_for(rfc_example, "barbot", "/a.gif"), 1);
	CHECK_INT(allowed_for(rfc_example, "bazbot", "/example/x"), 1);
}

static void
test_rfc_example_empty_group(void)
{
	struct robots *r;

	r = robots_parse(rfc_example, strlen(rfc_example), "quxbot");
	CHECK(r != NULL);
	if (r == NULL)
		return;
	CHECK_INT(robots_rule_count(r), 0);
	CHECK_INT(robots_allowed(r, "/example/page.html"), 1);
	CHECK_INT(robots_allowed(r, "/a.gif"), 1);
	robots_free(r);
}

static void
test_rfc_example_star_fallback(void)
{
	CHECK_INT(allowed(rfc_example, "/example/x.html"), 0);
	CHECK_INT(allowed(rfc_example, "/images/a.gif"), 0);
	CHECK_INT(allowed(rfc_example, "/images/a.gif?x"), 1);
	CHECK_INT(allowed(rfc_example, "/publications/"), 1);
	CHECK_INT(allowed(rfc_example, "/other"), 1);
}

static void
test_groups_merged(void)
{
	const char *t = "user-agent: ExampleBot\n"
			"disallow: /foo\n"
			"disallow: /bar\n"
			"\n"
			"user-agent: *\n"
			"disallow: /star\n"
			"\n"
			"user-agent: ExampleBot\n"
			"disallow: /baz\n";

	CHECK_INT(allowed_for(t, "examplebot", "/foo"), 0);
	CHECK_INT(allowed_for(t, "examplebot", "/bar"), 0);
	CHECK_INT(allowed_for(t, "examplebot", "/baz"), 0);
	CHECK_INT(allowed_for(t, "examplebot", "/star"), 1);
	CHECK_INT(allowed_for(t, "otherbot", "/star"), 0);
	CHECK_INT(allowed_for(t, "otherbot", "/foo"), 1);
}

static void
test_star_groups_merged(void)
{
	const char *t = "user-agent: *\ndisallow: /a\n"
			"user-agent: x\ndisallow: /b\n"
			"user-agent: *\ndisallow: /c\n";

	CHECK_INT(allowed(t, "/a"), 0);
	CHECK_INT(allowed(t, "/b"), 1);
	CHECK_INT(allowed(t, "/c"), 0);
}

static void
test_rfc_longest_match(void)
{
	const char *t = "User-Agent: nearcrawl\n"
			"Allow: /example/page/\n"
			"Disallow: /example/page/disallowed.gif\n";

	CHECK_INT(allowed(t, "/example/page/"), 1);
	CHECK_INT(allowed(t, "/example/page/ok.gif"), 1);
	CHECK_INT(allowed(t, "/example/page/disallowed.gif"), 0);
}

static void
test_fish_star(void)
{
	const char *t = "user-agent: *\ndisallow: /fish*\n";

	CHECK_INT(allowed(t, "/fish"), 0);
	CHECK_INT(allowed(t, "/fish.html"), 0);
	CHECK_INT(allowed(t, "/fish/salmon.html"), 0);
	CHECK_INT(allowed(t, "/fishheads/yummy.html"), 0);
	CHECK_INT(allowed(t, "/fish.php?id=anything"), 0);
	CHECK_INT(allowed(t, "/Fish.asp"), 1);
	CHECK_INT(allowed(t, "/catfish"), 1);
	CHECK_INT(allowed(t, "/?id=fish"), 1);
	CHECK_INT(allowed(t, "/desert/fish"), 1);
}

static void
test_fish_prefix(void)
{
	const char *t = "user-agent: *\ndisallow: /fish\n";

	CHECK_INT(allowed(t, "/fish"), 0);
	CHECK_INT(allowed(t, "/fish.html"), 0);
	CHECK_INT(allowed(t, "/fishheads"), 0);
	CHECK_INT(allowed(t, "/Fish.asp"), 1);
	CHECK_INT(allowed(t, "/fis"), 1);
}

static void
test_fish_slash(void)
{
	const char *t = "user-agent: *\ndisallow: /fish/\n";

	CHECK_INT(allowed(t, "/fish/"), 0);
	CHECK_INT(allowed(t, "/fish/?id=anything"), 0);
	CHECK_INT(allowed(t, "/fish/salmon.htm"), 0);
	CHECK_INT(allowed(t, "/fish"), 1);
	CHECK_INT(allowed(t, "/fish.html"), 1);
	CHECK_INT(allowed(t, "/animals/fish/"), 1);
	CHECK_INT(allowed(t, "/Fish/Salmon.asp"), 1);
}

static void
test_php_dollar(void)
{
	const char *t = "user-agent: *\ndisallow: /*.php$\n";

	CHECK_INT(allowed(t, "/filename.php"), 0);
	CHECK_INT(allowed(t, "/folder/filename.php"), 0);
	CHECK_INT(allowed(t, "/filename.php?parameters"), 1);
	CHECK_INT(allowed(t, "/filename.php/"), 1);
	CHECK_INT(allowed(t, "/filename.php5"), 1);
	CHECK_INT(allowed(t, "/windows.PHP"), 1);
}

static void
test_php_star(void)
{
	const char *t = "user-agent: *\ndisallow: /*.php\n";

	CHECK_INT(allowed(t, "/index.php"), 0);
	CHECK_INT(allowed(t, "/folder/filename.php?parameters"), 0);
	CHECK_INT(allowed(t, "/folder/any.php.file.html"), 0);
	CHECK_INT(allowed(t, "/filename.php/"), 0);
	CHECK_INT(allowed(t, "/"), 1);
	CHECK_INT(allowed(t, "/windows.PHP"), 1);
}

static void
test_dollar_literal_inside(void)
{
	const char *t = "user-agent: *\ndisallow: /a$b\nallow: /x$\n"
			"disallow: /x\n";

	CHECK_INT(allowed(t, "/a$b"), 0);
	CHECK_INT(allowed(t, "/a$bc"), 0);
	CHECK_INT(allowed(t, "/ab"), 1);
	CHECK_INT(allowed(t, "/x"), 1);
	CHECK_INT(allowed(t, "/xy"), 0);
}

static void
test_longest_wins(void)
{
	const char *t = "user-agent: *\nallow: /page\ndisallow: /*.html\n";

	CHECK_INT(allowed(t, "/page.html"), 0);
	CHECK_INT(allowed(t, "/page"), 1);
	CHECK_INT(allowed(t, "/other.html"), 0);
	/* File order must not matter. */
	CHECK_INT(allowed("user-agent: *\ndisallow: /a\nallow: /a/b\n",
	    "/a/b/c"), 1);
	CHECK_INT(allowed("user-agent: *\nallow: /a/b\ndisallow: /a\n",
	    "/a/b/c"), 1);
	CHECK_INT(allowed("user-agent: *\nallow: /a\ndisallow: /a/b\n",
	    "/a/b/c"), 0);
}

static void
test_allow_wins_tie(void)
{
	CHECK_INT(allowed("user-agent: *\ndisallow: /folder\nallow: /folder\n",
	    "/folder/page"), 1);
	CHECK_INT(allowed("user-agent: *\nallow: /folder\ndisallow: /folder\n",
	    "/folder/page"), 1);
	/* Same length, different patterns, both matching. */
	CHECK_INT(allowed("user-agent: *\ndisallow: /*b\nallow: /a*\n",
	    "/ab"), 1);
}

static void
test_root_anchor(void)
{
	const char *t = "user-agent: *\nallow: /$\ndisallow: /\n";

	CHECK_INT(allowed(t, "/"), 1);
	CHECK_INT(allowed(t, "/page.htm"), 0);
	CHECK_INT(allowed(t, "/?q=1"), 0);
}

static void
test_empty_disallow(void)
{
	struct robots *r;
	const char *t = "user-agent: *\ndisallow:\n";

	r = robots_parse(t, strlen(t), "nearcrawl");
	CHECK(r != NULL);
	if (r == NULL)
		return;
	CHECK_INT(robots_rule_count(r), 0);
	CHECK_INT(robots_allowed(r, "/"), 1);
	CHECK_INT(robots_allowed(r, "/anything"), 1);
	robots_free(r);
	CHECK_INT(allowed("user-agent: *\ndisallow:   \t\ndisallow: /x\n",
	    "/x"), 0);
}

static void
test_own_group_beats_star(void)
{
	const char *t = "user-agent: *\ndisallow: /\n\n"
			"user-agent: nearcrawl\ndisallow: /private\n";

	CHECK_INT(allowed(t, "/public"), 1);
	CHECK_INT(allowed(t, "/private/x"), 0);
	CHECK_INT(allowed_for(t, "otherbot", "/public"), 0);
}

static void
test_no_group_allows_all(void)
{
	const char *t = "user-agent: otherbot\ndisallow: /\n";

	CHECK_INT(allowed(t, "/"), 1);
	CHECK_INT(allowed(t, "/x"), 1);
	CHECK_INT(allowed_for(t, "otherbot", "/x"), 0);
	CHECK_INT(allowed("", "/x"), 1);
	CHECK_INT(allowed_for(t, NULL, "/x"), 1);
	CHECK_INT(allowed_for("user-agent: *\ndisallow: /\n", NULL, "/x"), 0);
}

static void
test_null_and_empty_input(void)
{
	struct robots *r;

	r = robots_parse(NULL, 0, "nearcrawl");
	CHECK(r != NULL);
	if (r == NULL)
		return;
	CHECK_INT(robots_allowed(r, "/x"), 1);
	CHECK_INT(robots_rule_count(r), 0);
	CHECK(robots_crawl_delay(r) == -1);
	robots_free(r);
	robots_free(NULL);
}

static void
test_agent_case_insensitive(void)
{
	const char *t = "User-agent: NearCrawl\nDisallow: /x\n";

	CHECK_INT(allowed(t, "/x"), 0);
	CHECK_INT(allowed_for(t, "NEARCRAWL", "/x"), 0);
	CHECK_INT(allowed_for(t, "other", "/x"), 1);
}

static void
test_keys_case_insensitive(void)
{
	const char *t = "USER-AGENT: *\nDISALLOW: /x\nAlLoW: /x/y\n"
			"CRAWL-DELAY: 3\nSITEMAP: https://a.org/s.xml\n";
	struct robots *r;
	const char **sm;

	CHECK_INT(allowed(t, "/x"), 0);
	CHECK_INT(allowed(t, "/x/y"), 1);
	r = robots_parse(t, strlen(t), "nearcrawl");
	CHECK(r != NULL);
	if (r == NULL)
		return;
	CHECK(robots_crawl_delay(r) == 3);
	CHECK_INT(robots_sitemaps(r, &sm), 1);
	robots_free(r);
}

static void
test_agent_version_in_file(void)
{
	CHECK_INT(allowed("User-agent: nearcrawl/1.0\nDisallow: /x\n", "/x"),
	    0);
	CHECK_INT(allowed("User-agent:   nearcrawl  \nDisallow: /x\n", "/x"),
	    0);
	CHECK_INT(allowed_for("User-agent: nearcrawl\nDisallow: /x\n",
	    "nearcrawl/0.1", "/x"), 0);
}

static void
test_agent_must_match_whole_token(void)
{
	CHECK_INT(allowed("User-agent: nearcrawlx\nDisallow: /x\n", "/x"), 1);
	CHECK_INT(allowed("User-agent: near\nDisallow: /x\n", "/x"), 1);
	CHECK_INT(allowed("User-agent: nearcrawl2\nDisallow: /x\n", "/x"), 0);
	CHECK_INT(allowed("User-agent: x-nearcrawl\nDisallow: /x\n", "/x"), 1);
}

/* As Google's parser: the leading product token of a value names it, so
 * "NEARCRAWL BOT" is nearcrawl; "*" counts only alone or before a blank. */
static void
test_agent_of_several_words(void)
{
	CHECK_INT(allowed("User-agent: nearcrawl bot\nDisallow: /x\n", "/x"),
	    0);
	CHECK_INT(allowed("User-agent: NEARCRAWL BOT\nDisallow: /x\n", "/x"),
	    0);
	CHECK_INT(allowed("User-agent: bot nearcrawl\nDisallow: /x\n", "/x"),
	    1);
	CHECK_INT(allowed("User-agent: * everyone\nDisallow: /x\n", "/x"), 0);
	CHECK_INT(allowed("User-agent: *bot\nDisallow: /x\n", "/x"), 1);
}

static void
test_whitespace_around_colon(void)
{
	const char *t = "  User-agent   :   *  \n\tDisallow\t:\t/x  \n";

	CHECK_INT(allowed(t, "/x"), 0);
	CHECK_INT(allowed(t, "/y"), 1);
	CHECK_INT(allowed("user-agent:*\ndisallow:/x\n", "/x/1"), 0);
}

static void
test_percent_unreserved(void)
{
	CHECK_INT(allowed("user-agent: *\ndisallow: /a%7Eb\n", "/a~b"), 0);
	CHECK_INT(allowed("user-agent: *\ndisallow: /a~b\n", "/a%7eb"), 0);
	CHECK_INT(allowed("user-agent: *\ndisallow: /%41\n", "/A"), 0);
	CHECK_INT(allowed("user-agent: *\ndisallow: /%41\n", "/a"), 1);
	/* "/robots.txt" escaped is still /robots.txt. */
	CHECK_INT(allowed("user-agent: *\ndisallow: /\n", "/robots%2Etxt"), 1);
}

static void
test_percent_utf8(void)
{
	CHECK_INT(allowed("user-agent: *\ndisallow: /%c3%a9\n",
	    "/\xc3\xa9t\xc3\xa9"), 0);
	CHECK_INT(allowed("user-agent: *\ndisallow: /\xc3\xa9\n", "/%C3%A9"),
	    0);
	CHECK_INT(allowed("user-agent: *\ndisallow: /\xc3\xa9\n", "/%c3%a9x"),
	    0);
	CHECK_INT(allowed("user-agent: *\ndisallow: /\xc3\xa9\n", "/e"), 1);
	/* Normalised length counts: "/%C3%A9" (7) beats the 5-octet allow. */
	CHECK_INT(allowed("user-agent: *\ndisallow: /\xc3\xa9\n"
			  "allow: /*\xc3\n", "/\xc3\xa9"), 0);
}

static void
test_percent_reserved_kept(void)
{
	CHECK_INT(allowed("user-agent: *\ndisallow: /a%2fb\n", "/a%2Fb"), 0);
	CHECK_INT(allowed("user-agent: *\ndisallow: /a%2Fb\n", "/a/b"), 1);
	CHECK_INT(allowed("user-agent: *\ndisallow: /a/b\n", "/a%2Fb"), 1);
	/* A stray '%' is compared as "%25". */
	CHECK_INT(allowed("user-agent: *\ndisallow: /100%\n", "/100%25"), 0);
	CHECK_INT(allowed("user-agent: *\ndisallow: /a b\n", "/a%20b"), 0);
}

static void
test_literal_star_escaped(void)
{
	const char *t = "user-agent: *\ndisallow: /a%2Ab\ndisallow: /c%24\n";

	CHECK_INT(allowed(t, "/a%2Ab"), 0);
	CHECK_INT(allowed(t, "/axxb"), 1);
	CHECK_INT(allowed(t, "/c%24x"), 0);
	CHECK_INT(allowed(t, "/c"), 1);
}

static void
test_robots_txt_always_allowed(void)
{
	struct robots *r;
	const char *t = "user-agent: *\ndisallow: /\ndisallow: /robots.txt$\n";

	CHECK_INT(allowed(t, "/robots.txt"), 1);
	CHECK_INT(allowed(t, "/robots.txt?x=1"), 0);
	CHECK_INT(allowed(t, "/"), 0);
	r = robots_disallow_all();
	CHECK(r != NULL);
	if (r == NULL)
		return;
	CHECK_INT(robots_allowed(r, "/robots.txt"), 1);
	robots_free(r);
}

static void
test_comments(void)
{
	const char *t = "# full line comment: disallow: /c\n"
			"user-agent: * # everybody\n"
			"disallow: /x # not /y\n"
			"#disallow: /z\n"
			"disallow: /w#q\n";

	CHECK_INT(allowed(t, "/x"), 0);
	CHECK_INT(allowed(t, "/c"), 1);
	CHECK_INT(allowed(t, "/y"), 1);
	CHECK_INT(allowed(t, "/z"), 1);
	CHECK_INT(allowed(t, "/w"), 0);
}

static void
test_crlf_endings(void)
{
	const char *t = "user-agent: *\r\ndisallow: /x\r\nallow: /x/y\r\n";

	CHECK_INT(allowed(t, "/x"), 0);
	CHECK_INT(allowed(t, "/x/y"), 1);
	CHECK_INT(allowed(t, "/y"), 1);
}

static void
test_cr_endings(void)
{
	const char *t = "user-agent: *\rdisallow: /x\rallow: /x/y";

	CHECK_INT(allowed(t, "/x"), 0);
	CHECK_INT(allowed(t, "/x/y"), 1);
	CHECK_INT(allowed("user-agent: nearcrawl\n\r\n\rdisallow: /x", "/x"),
	    0);
}

static void
test_bom(void)
{
	const char *t = "\xEF\xBB\xBFuser-agent: *\ndisallow: /x\n";

	CHECK_INT(allowed(t, "/x"), 0);
	CHECK_INT(allowed("\xEF\xBB\xBF", "/x"), 1);
}

static void
test_lines_without_colon(void)
{
	/* Two words: key and value, as Google's parser reads them. More
	 * words, or one: not a line. */
	const char *t = "user-agent *\n"
			"disallow /x\n"
			"disallow /a b\n"
			"disallow\n"
			"garbage line\n"
			"disallow: /y\n";

	CHECK_INT(allowed(t, "/x"), 0);
	CHECK_INT(allowed(t, "/y"), 0);
	CHECK_INT(allowed(t, "/a"), 1);
	CHECK_INT(allowed(t, "/z"), 1);
	CHECK_INT(allowed("user-agent\tnearcrawl\n\tdisallow \t /x \n",
	    "/x"), 0);
}

static void
test_unknown_directives(void)
{
	const char *t = "user-agent: nearcrawl\n"
			"host: example.org\n"
			"user-agent: other\n"
			"clean-param: ref /x\n"
			"noindex: /n\n"
			"request-rate: 1/5\n"
			"disallow: /x\n";

	CHECK_INT(allowed(t, "/x"), 0);
	CHECK_INT(allowed(t, "/n"), 1);
	CHECK_INT(allowed_for(t, "other", "/x"), 0);
}

static void
test_rules_before_group(void)
{
	const char *t = "disallow: /early\n"
			"crawl-delay: 9\n"
			"user-agent: *\n"
			"disallow: /late\n";

	CHECK_INT(allowed(t, "/early"), 1);
	CHECK_INT(allowed(t, "/late"), 0);
	CHECK(delay_for(t, "nearcrawl") == -1);
}

static void
test_group_ends_at_rule(void)
{
	/* A user-agent after a rule starts a new group, not the old one. */
	const char *t = "user-agent: nearcrawl\n"
			"disallow: /a\n"
			"user-agent: other\n"
			"disallow: /b\n";

	CHECK_INT(allowed(t, "/a"), 0);
	CHECK_INT(allowed(t, "/b"), 1);
	/* Blank lines between user-agent lines do not end the group. */
	CHECK_INT(allowed("user-agent: other\n\nuser-agent: nearcrawl\n\n"
			  "disallow: /c\n", "/c"), 0);
}

static void
test_crawl_delay_int(void)
{
	CHECK(delay_for("user-agent: *\ncrawl-delay: 10\n", "nearcrawl") ==
	    10);
	CHECK(delay_for("user-agent: *\ncrawl-delay:0\n", "nearcrawl") == 0);
}

static void
test_crawl_delay_decimal(void)
{
	double d;

	d = delay_for("user-agent: *\ncrawl-delay: 0.5\n", "nearcrawl");
	CHECK(d > 0.4999 && d < 0.5001);
	d = delay_for("user-agent: *\ncrawl-delay: 2.25\n", "nearcrawl");
	CHECK(d > 2.2499 && d < 2.2501);
	d = delay_for("user-agent: *\ncrawl-delay: .5\n", "nearcrawl");
	CHECK(d > 0.4999 && d < 0.5001);
	d = delay_for("user-agent: *\ncrawl-delay: 3.\n", "nearcrawl");
	CHECK(d == 3);
}

static void
test_crawl_delay_invalid(void)
{
	CHECK(delay_for("user-agent: *\ncrawl-delay: abc\n", "x") == -1);
	CHECK(delay_for("user-agent: *\ncrawl-delay: -5\n", "x") == -1);
	CHECK(delay_for("user-agent: *\ncrawl-delay: 1.2.3\n", "x") == -1);
	CHECK(delay_for("user-agent: *\ncrawl-delay: 1e3\n", "x") == -1);
	CHECK(delay_for("user-agent: *\ncrawl-delay: .\n", "x") == -1);
	CHECK(delay_for("user-agent: *\ncrawl-delay:\n", "x") == -1);
	CHECK(delay_for("user-agent: *\ncrawl-delay: 5s\n", "x") == -1);
	CHECK(delay_for("user-agent: *\ncrawl-delay: 2\ncrawl-delay: x\n",
	    "x") == 2);
}

static void
test_crawl_delay_absent(void)
{
	CHECK(delay_for("user-agent: *\ndisallow: /x\n", "nearcrawl") == -1);
	CHECK(delay_for("", "nearcrawl") == -1);
}

static void
test_crawl_delay_per_group(void)
{
	const char *t = "user-agent: *\ncrawl-delay: 30\n\n"
			"user-agent: nearcrawl\ncrawl-delay: 5\n\n"
			"user-agent: other\ncrawl-delay: 7\n\n"
			"user-agent: nearcrawl\ncrawl-delay: 2\n";

	CHECK(delay_for(t, "nearcrawl") == 5);
	CHECK(delay_for(t, "other") == 7);
	CHECK(delay_for(t, "somebot") == 30);
	CHECK(delay_for("user-agent: nearcrawl\ndisallow: /\n"
			"user-agent: *\ncrawl-delay: 4\n", "nearcrawl") == -1);
}

static void
test_sitemaps(void)
{
	const char *t = "Sitemap: https://a.org/early.xml\n"
			"user-agent: other\n"
			"sitemap: https://a.org/in-group.xml\n"
			"disallow: /\n"
			"SITEMAP :  https://a.org/late.xml  \n"
			"sitemap: https://a.org/early.xml\n"
			"sitemap:\n"
			"sitemap: has spaces\n";
	struct robots *r;
	const char **sm = NULL;

	r = robots_parse(t, strlen(t), "nearcrawl");
	CHECK(r != NULL);
	if (r == NULL)
		return;
	CHECK_INT(robots_sitemaps(r, &sm), 3);
	CHECK(sm != NULL);
	if (sm != NULL) {
		CHECK_STR(sm[0], "https://a.org/early.xml");
		CHECK_STR(sm[1], "https://a.org/in-group.xml");
		CHECK_STR(sm[2], "https://a.org/late.xml");
	}
	/* A sitemap line does not break the group it sits in. */
	CHECK_INT(robots_allowed(r, "/x"), 1);
	robots_free(r);
	CHECK_INT(allowed_for(t, "other", "/x"), 0);
}

static void
test_no_sitemaps(void)
{
	struct robots *r;
	const char **sm = (const char **)1;

	r = robots_allow_all();
	CHECK(r != NULL);
	if (r == NULL)
		return;
	CHECK_INT(robots_sitemaps(r, &sm), 0);
	CHECK(sm == NULL);
	robots_free(r);
}

/* Fill a file of size bytes with comment lines, then put rule at off. */
static char *
big_file(size_t size, size_t off, const char *rule, size_t off2,
    const char *rule2)
{
	char *t;
	size_t i;

	if ((t = malloc(size + 1)) == NULL)
		return NULL;
	for (i = 0; i < size; i++)
		t[i] = (i % 64 == 63) ? '\n' : '#';
	memcpy(t, "user-agent: *\n", 14);
	t[off - 1] = '\n';
	memcpy(t + off, rule, strlen(rule));
	t[off2 - 1] = '\n';
	memcpy(t + off2, rule2, strlen(rule2));
	t[size] = '\0';
	return t;
}

static void
test_large_file(void)
{
	struct robots *r;
	char *t;

	t = big_file(600 * 1024, 400 * 1024, "disallow: /deep\n",
	    550 * 1024, "disallow: /toolate\n");
	CHECK(t != NULL);
	if (t == NULL)
		return;
	r = robots_parse(t, 600 * 1024, "nearcrawl");
	CHECK(r != NULL);
	if (r != NULL) {
		CHECK_INT(robots_allowed(r, "/deep/x"), 0);
		CHECK_INT(robots_allowed(r, "/toolate"), 1);
		CHECK_INT(robots_rule_count(r), 1);
	}
	robots_free(r);
	free(t);
}

static void
test_line_cut_at_limit_dropped(void)
{
	struct robots *r;
	char *t;
	size_t off = ROBOTS_MAX_BYTES - 23;

	/* "disallow: /pr|ivate": cut after "/pr"; must not block "/pro". */
	t = big_file(ROBOTS_MAX_BYTES + 100, 1024, "disallow: /a\n", off,
	    "allow: /x\ndisallow: /private\n");
	CHECK(t != NULL);
	if (t == NULL)
		return;
	r = robots_parse(t, ROBOTS_MAX_BYTES + 100, "nearcrawl");
	CHECK(r != NULL);
	if (r != NULL) {
		CHECK_INT(robots_allowed(r, "/a"), 0);
		CHECK_INT(robots_allowed(r, "/pro"), 1);
		CHECK_INT(robots_rule_count(r), 2);
	}
	robots_free(r);
	free(t);
}

static void
test_binary_garbage(void)
{
	unsigned char junk[8192];
	unsigned int seed = 12345;
	struct robots *r;
	size_t i;

	for (i = 0; i < sizeof(junk); i++) {
		seed = seed * 1103515245u + 12345u;
		junk[i] = (unsigned char)(seed >> 16);
	}
	r = robots_parse((const char *)junk, sizeof(junk), "nearcrawl");
	CHECK(r != NULL);
	if (r == NULL)
		return;
	CHECK_INT(robots_allowed(r, "/"), 1);
	CHECK_INT(robots_allowed(r, "/some/page?q=1"), 1);
	robots_free(r);
}

static void
test_nul_bytes(void)
{
	static const char t[] = "user-agent: *\n\0\0\0\ndisallow: /x\n"
				"disallow: /n\0ul\n";
	struct robots *r;

	r = robots_parse(t, sizeof(t) - 1, "nearcrawl");
	CHECK(r != NULL);
	if (r == NULL)
		return;
	CHECK_INT(robots_allowed(r, "/x"), 0);
	CHECK_INT(robots_allowed(r, "/n%00ul"), 0);
	CHECK_INT(robots_allowed(r, "/n"), 1);
	robots_free(r);
}

static void
test_allow_all_disallow_all(void)
{
	struct robots *a, *d;

	a = robots_allow_all();
	d = robots_disallow_all();
	CHECK(a != NULL && d != NULL);
	if (a != NULL && d != NULL) {
		CHECK_INT(robots_allowed(a, "/"), 1);
		CHECK_INT(robots_allowed(a, "/x?y"), 1);
		CHECK_INT(robots_allowed(d, "/"), 0);
		CHECK_INT(robots_allowed(d, "/x?y"), 0);
		CHECK_INT(robots_allowed(d, ""), 0);
		CHECK_INT(robots_rule_count(a), 0);
		CHECK_INT(robots_rule_count(d), 1);
		CHECK(robots_crawl_delay(a) == -1);
		CHECK(robots_crawl_delay(d) == -1);
	}
	robots_free(a);
	robots_free(d);
	CHECK_INT(robots_allowed(NULL, "/"), 0);
}

static void
test_product_token(void)
{
	char tok[16];

	CHECK_INT(robots_product_token("nearcrawl/0.1 (+https://a.org/bot)",
	    tok, sizeof(tok)), 0);
	CHECK_STR(tok, "nearcrawl");
	CHECK_INT(robots_product_token("  Near_Crawl-Bot", tok, sizeof(tok)),
	    0);
	CHECK_STR(tok, "near_crawl-bot");
	CHECK_INT(robots_product_token("Mozilla/5.0", tok, sizeof(tok)), 0);
	CHECK_STR(tok, "mozilla");
	CHECK_INT(robots_product_token("/1.0", tok, sizeof(tok)), -1);
	CHECK_INT(robots_product_token("", tok, sizeof(tok)), -1);
	CHECK_INT(robots_product_token(NULL, tok, sizeof(tok)), -1);
	CHECK_INT(robots_product_token("abcdefghijklmnopq", tok, sizeof(tok)),
	    -1);
	CHECK_INT(robots_product_token("abcdefghijklmno", tok, sizeof(tok)),
	    0);
	CHECK_STR(tok, "abcdefghijklmno");
}

static void
test_many_stars(void)
{
	char pat[256], rules[512], path[2101];
	size_t i, o = 0;

	pat[o++] = '/';
	for (i = 0; i < 50; i++) {
		pat[o++] = '*';
		pat[o++] = 'a';
	}
	pat[o++] = 'b';
	pat[o] = '\0';
	snprintf(rules, sizeof(rules), "user-agent: *\ndisallow: %s$\n", pat);
	path[0] = '/';
	for (i = 1; i < 2000; i++)
		path[i] = 'a';
	path[2000] = '\0';
	/* Worst case for naive backtracking: 50 stars, never a 'b'. */
	CHECK_INT(allowed(rules, path), 1);
	path[2000] = 'b';
	path[2001] = '\0';
	CHECK_INT(allowed(rules, path), 0);
	path[2001] = 'c';
	path[2002] = '\0';
	CHECK_INT(allowed(rules, path), 1);
	CHECK_INT(allowed("user-agent: *\ndisallow: /**********x\n", "/ax"),
	    0);
	CHECK_INT(allowed("user-agent: *\ndisallow: /a*b*c$\n", "/aXbYc"), 0);
	CHECK_INT(allowed("user-agent: *\ndisallow: /a*b*c$\n", "/aXcYb"), 1);
}

static void
test_query_rules(void)
{
	const char *t = "user-agent: *\ndisallow: /*?\nallow: /*?page=\n";

	CHECK_INT(allowed(t, "/list?sort=asc"), 0);
	CHECK_INT(allowed(t, "/list"), 1);
	CHECK_INT(allowed(t, "/list?page=2"), 1);
}

static void
test_pattern_without_slash(void)
{
	CHECK_INT(allowed("user-agent: *\ndisallow: private\n", "/private/x"),
	    0);
	CHECK_INT(allowed("user-agent: *\ndisallow: *.gif\n", "/a/b.gif"), 0);
}

static void
test_overlong_pattern_ignored(void)
{
	char *t;
	size_t n = ROBOTS_MAX_PATTERN + 100, i;

	if ((t = malloc(n + 64)) == NULL) {
		CHECK(t != NULL);
		return;
	}
	strcpy(t, "user-agent: *\ndisallow: /");
	for (i = strlen(t); i < n; i++)
		t[i] = 'a';
	strcpy(t + n, "\ndisallow: /b\n");
	CHECK_INT(allowed(t, "/aaaa"), 1);
	CHECK_INT(allowed(t, "/b"), 0);
	free(t);
}

static void
test_empty_path(void)
{
	const char *t = "user-agent: *\nallow: /$\ndisallow: /a\n"
			"disallow: /\n";

	CHECK_INT(allowed(t, ""), 1);
	CHECK_INT(allowed(t, NULL), 1);
	CHECK_INT(allowed(t, "/a"), 0);
}

static void
test_rule_count(void)
{
	struct robots *r;
	const char *t = "user-agent: *\ndisallow: /a\nallow: /b\n"
			"user-agent: nearcrawl\nuser-agent: *\ndisallow: /c\n";

	r = robots_parse(t, strlen(t), "nearcrawl");
	CHECK(r != NULL);
	if (r != NULL)
		CHECK_INT(robots_rule_count(r), 1);
	robots_free(r);
	r = robots_parse(t, strlen(t), "other");
	CHECK(r != NULL);
	if (r != NULL) {
		CHECK_INT(robots_rule_count(r), 3);
		CHECK_INT(robots_allowed(r, "/c"), 0);
	}
	robots_free(r);
}

void
suite_robots(void)
{
	RUN(test_rfc_example_foobot);
	RUN(test_rfc_example_multi_agent_group);
	RUN(test_rfc_example_empty_group);
	RUN(test_rfc_example_star_fallback);
	RUN(test_groups_merged);
	RUN(test_star_groups_merged);
	RUN(test_rfc_longest_match);
	RUN(test_fish_star);
	RUN(test_fish_prefix);
	RUN(test_fish_slash);
	RUN(test_php_dollar);
	RUN(test_php_star);
	RUN(test_dollar_literal_inside);
	RUN(test_longest_wins);
	RUN(test_allow_wins_tie);
	RUN(test_root_anchor);
	RUN(test_empty_disallow);
	RUN(test_own_group_beats_star);
	RUN(test_no_group_allows_all);
	RUN(test_null_and_empty_input);
	RUN(test_agent_case_insensitive);
	RUN(test_keys_case_insensitive);
	RUN(test_agent_version_in_file);
	RUN(test_agent_must_match_whole_token);
	RUN(test_whitespace_around_colon);
	RUN(test_percent_unreserved);
	RUN(test_percent_utf8);
	RUN(test_percent_reserved_kept);
	RUN(test_literal_star_escaped);
	RUN(test_robots_txt_always_allowed);
	RUN(test_comments);
	RUN(test_crlf_endings);
	RUN(test_cr_endings);
	RUN(test_bom);
	RUN(test_lines_without_colon);
	RUN(test_agent_of_several_words);
	RUN(test_unknown_directives);
	RUN(test_rules_before_group);
	RUN(test_group_ends_at_rule);
	RUN(test_crawl_delay_int);
	RUN(test_crawl_delay_decimal);
	RUN(test_crawl_delay_invalid);
	RUN(test_crawl_delay_absent);
	RUN(test_crawl_delay_per_group);
	RUN(test_sitemaps);
	RUN(test_no_sitemaps);
	RUN(test_large_file);
	RUN(test_line_cut_at_limit_dropped);
	RUN(test_binary_garbage);
	RUN(test_nul_bytes);
	RUN(test_allow_all_disallow_all);
	RUN(test_product_token);
	RUN(test_many_stars);
	RUN(test_query_rules);
	RUN(test_pattern_without_slash);
	RUN(test_overlong_pattern_ignored);
	RUN(test_empty_path);
	RUN(test_rule_count);
}
