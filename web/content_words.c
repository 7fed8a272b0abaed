/*
 * content_words: what the class, id and role attributes of an element say
 * about it -- Readability's score for class/id words, the words and roles
 * that name template (before scoring, inside the content, and for the
 * degraded text), and hidden elements. See content.h.
 */
#include "web/content_int.h"

#include "web/htmlattr.h"

#include "util/chars.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

/* Fragments of class/id values that score a malus. */
static const char *const negative_sub[] = {
	"-ad-", "hidden", "banner", "combx", "comment", "com-", "contact",
	"footer", "gdpr", "masthead", "media", "meta", "outbrain", "promo",
	"related", "scroll", "share", "shoutbox", "sidebar", "skyscraper",
	"sponsor", "shopping", "tags", "widget", NULL
};

static const char *const negative_word[] = { "hid", NULL };

/* ... and a bonus. */
static const char *const positive_sub[] = {
	"article", "body", "content", "entry", "hentry", "h-entry", "main",
	"page", "pagination", "post", "text", "blog", "story", NULL
};

/* Fragments that mark a subtree as template before scoring... */
static const char *const unlikely_sub[] = {
	"-ad-", "ai2html", "banner", "breadcrumbs", "combx", "comment",
	"community", "cover-wrap", "disqus", "extra", "footer", "gdpr",
	"header", "legends", "menu", "related", "remark", "replies", "rss",
	"shoutbox", "sidebar", "skyscraper", "social", "sponsor",
	"supplemental", "ad-break", "agegate", "pagination", "pager",
	"popup", "yom-remote", NULL
};

/* ... unless one of these says it may be content. */
static const char *const maybe_sub[] = {
	"and", "article", "body", "column", "content", "main", "mathjax",
	"shadow", NULL
};

static const char *const unlikely_roles[] = {
	"menu", "menubar", "complementary", "navigation", "alert",
	"alertdialog", "dialog", NULL
};

/* Whole words of class/id that name template, for the degraded text. */
static const char *const template_word[] = {
	"nav", "navbar", "navigation", "menu", "breadcrumb", "breadcrumbs",
	"sidebar", "ad", "ads", "advert", "adverts", "advertisement",
	"sponsor", "banner", "cookie", "cookies", "consent", "share",
	"sharing", "social", "related", "pagination", "pager", "skip",
	"toolbar", "tools", "widget", "counter", "comments", NULL
};

/* ... and those that do outside article and main (inside, the article's
 * own header and footer). */
static const char *const page_part_word[] = { "header", "footer", NULL };
static const char *const footer_word[] = { "footer", NULL };

static const char *const template_roles[] = {
	"navigation", "banner", "contentinfo", "complementary", "search",
	"menu", "menubar", NULL
};

static const char *const share_word[] = { "share", "sharedaddy", NULL };

/*
 * Case-insensitive substring test over a NULL-ended list of lower-case
 * ASCII words. The values are short (class, id, src) and most are empty,
 * so a plain scan beats strcasestr, which prepares each word afresh.
 */
int
content_has_sub(const char *s, const char *const *list)
{
	size_t n;

	/* Most values are empty: no word to look for then. */
	if (s == NULL || s[0] == '\0')
		return 0;
	n = strlen(s);
	for (; *list != NULL; list++)
		if (chars_find_lower(s, n, *list) != NULL)
			return 1;
	return 0;
}

static int
is_alnum(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9');
}

/* Whether s, split at every byte that is not a letter or digit, holds a
 * whole word of list (any case). */
static int
has_word(const char *s, const char *const *list)
{
	const char *const *t;
	size_t i = 0, st, k;

	if (s == NULL)
		return 0;
	while (s[i] != '\0') {
		while (s[i] != '\0' && !is_alnum((unsigned char)s[i]))
			i++;
		st = i;
		while (is_alnum((unsigned char)s[i]))
			i++;
		k = i - st;
		if (k == 0)
			break;
		for (t = list; *t != NULL; t++)
			if (strlen(*t) == k && strncasecmp(s + st, *t, k) == 0)
				return 1;
	}
	return 0;
}

/* Whether n's class or id holds a whole word of list. */
static int
named(const xmlNode *n, const char *const *list)
{
	return has_word(htmlattr_get(n, "class"), list) ||
	    has_word(htmlattr_get(n, "id"), list);
}

int
content_class_weight(const xmlNode *n, int flags)
{
	const char *v;
	int w = 0, i;

	if (!(flags & F_WEIGHT))
		return 0;
	for (i = 0; i < 2; i++) {
		v = htmlattr_get(n, i == 0 ? "class" : "id");
		if (v == NULL || v[0] == '\0')
			continue;
		if (content_has_sub(v, negative_sub) || has_word(v, negative_word))
			w -= 25;
		if (content_has_sub(v, positive_sub))
			w += 25;
	}
	return w;
}

/* Whether n's role attribute holds one of roles as a whole word. */
int
content_role_in(const xmlNode *n, const char *const *roles)
{
	return has_word(htmlattr_get(n, "role"), roles);
}

int
content_is_hidden(const xmlNode *n)
{
	const char *s = htmlattr_get(n, "style"), *a;
	char buf[256];
	size_t i, o = 0;

	if (htmlattr_get(n, "hidden") != NULL)
		return 1;
	a = htmlattr_get(n, "aria-hidden");
	if (a != NULL && strcasecmp(a, "true") == 0 &&
	    !has_word(htmlattr_get(n, "class"), (const char *const[]){ "fallback",
	    NULL }))
		return 1;
	if (s == NULL)
		return 0;
	for (i = 0; s[i] != '\0' && o + 1 < sizeof(buf); i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\n')
			buf[o++] = s[i];
	buf[o] = '\0';
	return strcasestr(buf, "display:none") != NULL ||
	    strcasestr(buf, "visibility:hidden") != NULL;
}

int
content_unlikely_named(const xmlNode *n)
{
	const char *cls = htmlattr_get(n, "class"), *id = htmlattr_get(n, "id");
	char both[512];

	/* Most elements have neither: " " holds none of the words. */
	if (cls == NULL && id == NULL)
		return 0;
	snprintf(both, sizeof(both), "%s %s", cls ? cls : "", id ? id : "");
	return content_has_sub(both, unlikely_sub) &&
	    !content_has_sub(both, maybe_sub);
}

int
content_unlikely_role(const xmlNode *n)
{
	return content_role_in(n, unlikely_roles);
}

int
content_template_named(const xmlNode *n)
{
	return named(n, template_word);
}

int
content_template_role(const xmlNode *n)
{
	return content_role_in(n, template_roles);
}

int
content_page_part_named(const xmlNode *n)
{
	return named(n, page_part_word);
}

int
content_share_named(const xmlNode *n)
{
	return named(n, share_word);
}

int
content_furniture(const xmlNode *n, const struct cnode *c)
{
	if (c->anc & A_CONTENT)
		return 0;
	if (is(n, "footer") || is(n, "header") || is(n, "nav") ||
	    is(n, "aside") || content_template_role(n))
		return 1;
	/* A class word is weaker evidence: "site_header" may wrap the
	 * article itself, and a page's only paragraph may sit in a div
	 * named header; a footer is named for what comes after content. */
	return !c->holds && named(n, footer_word);
}
