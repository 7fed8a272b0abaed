#include "web/content.h"

#include "util/chars.h"
#include "web/htmlattr.h"

#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Ancestors a paragraph's score reaches, and the shortest that scores. */
#define ANCESTOR_LEVELS 5
#define PARA_MIN_CHARS 25
/* Candidates kept, and how close to the best one counts as near it. */
#define TOP_CANDIDATES 5
#define NEAR_TOP 0.75
#define SHARED_ANCESTOR_MIN 3
/* A subtree with this share of the page's non-link text is never
 * removed by a class/id word or a tag. */
#define PROTECT_SHARE 0.5
/* Menus: blocks this link-dense whose links average under this length. */
#define MENU_LINK_DENSITY 0.5
#define MENU_LINK_CHARS 12.0
#define MENU_MAX_CHARS 400.0
/* What the body without its template must keep to stand for the page
 * when the template is larger; below it, the whole body does. */
#define DEGRADE_STRAY_CHARS 50.0
/* Template-named blocks this short go from the chosen content. */
#define TEMPLATE_SMALL_CHARS 200.0
/* Content with this share of link text is a listing, not an article. */
#define LISTING_LINK_SHARE 0.5

/* Why a node is not part of the main-content tree (bits). */
enum {
	S_SILENT = 1, /* carries no text (script, style, img...) */
	S_HIDDEN = 2, /* hidden by attribute or inline style */
	S_STRIP = 4,  /* template by class/id or role, before scoring */
	S_CLEAN = 8,  /* cleaned out of the chosen content, or template */
};

/* Selection steps a run may use (Readability's flags). */
enum {
	F_STRIP = 1,  /* remove template-named subtrees before scoring */
	F_WEIGHT = 2, /* score class and id words */
	F_CLEAN = 4,  /* conditional cleaning of the content */
};

/* Totals over a node's subtree, left-out parts excluded. */
struct tally {
	double chars;    /* characters, white-space runs as one */
	double link;     /* of them inside links (in-page links 0.3) */
	double commas;   /* commas of any script */
	double heading;  /* characters inside h1..h6 */
	double list;     /* characters inside ul and ol */
	unsigned links;  /* <a> elements with text */
	unsigned p, img, li, input, embed, tr, td, th, tables;
};

struct cnode {
	xmlNode *node;
	struct tally t;
	double score;        /* candidate score, once initialised */
	unsigned char cand;  /* score initialised */
	unsigned char state; /* S_* bits */
	unsigned char mark;  /* enum content_mark */
	unsigned char wrap;  /* a div around a single p: not an ancestor */
	unsigned char anc;   /* A_* bits: what its ancestors are */
	unsigned char data;  /* inside a data table (this run's content) */
	unsigned shared;     /* near-top candidates it is an ancestor of */
};

/* Kinds of ancestor an element has, found once, top-down. */
enum {
	A_CODE = 1,    /* pre or code */
	A_TABLE = 2,   /* table */
	A_CONTENT = 4, /* article or main */
};

struct content {
	struct cnode *n;   /* one per element under the document */
	size_t count;      /* entries in n */
	xmlNode *body;     /* body, or the root element */
	double body_plain; /* non-link characters of the body */
};

static struct cnode *
cn(const xmlNode *n)
{
	return n != NULL && n->type == XML_ELEMENT_NODE ?
	    (struct cnode *)n->_private : NULL;
}

static int
is(const xmlNode *n, const char *name)
{
	return n->name != NULL && strcmp((const char *)n->name, name) == 0;
}

static int
is_heading(const xmlNode *n)
{
	return n->name != NULL && n->name[0] == 'h' && n->name[1] >= '1' &&
	    n->name[1] <= '6' && n->name[2] == '\0';
}

/* ---- walking ---- */

/* The next node after n in document order within root; skip: not into n. */
static xmlNode *
next_node(xmlNode *n, const xmlNode *root, int skip)
{
	if (!skip && n->children != NULL)
		return n->children;
	while (n != NULL && n != root) {
		if (n->next != NULL)
			return n->next;
		n = n->parent;
	}
	return NULL;
}

/* ---- text measures ---- */

static int
is_space_cp(uint32_t c)
{
	return c <= 0x20 || (c >= 0x7f && c <= 0xa0) || c == 0x1680 ||
	    (c >= 0x2000 && c <= 0x200a) || c == 0x2028 || c == 0x2029 ||
	    c == 0x202f || c == 0x205f || c == 0x3000;
}

static int
is_comma_cp(uint32_t c)
{
	return c == ',' || c == 0x060c || c == 0xfe50 || c == 0xfe10 ||
	    c == 0xfe11 || c == 0x2e41 || c == 0x2e34 || c == 0x2e32 ||
	    c == 0xff0c;
}

/* Characters of s with white-space runs between words as one, and commas. */
static void
measure(const char *str, double *chars, double *commas)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, n, k;
	uint32_t cp;
	int gap = 0, begun = 0;

	if (s == NULL)
		return;
	n = strlen(str);
	while (i < n) {
		k = chars_utf8_decode(s + i, n - i, &cp);
		i += k;
		if (is_space_cp(cp)) {
			gap = 1;
			continue;
		}
		if (gap && begun)
			*chars += 1;
		gap = 0;
		begun = 1;
		*chars += 1;
		if (is_comma_cp(cp))
			*commas += 1;
	}
}

/* Whether some text under n has a full stop ending a sentence. */
static int
has_sentence_end(xmlNode *n)
{
	xmlNode *c;
	const char *s;
	size_t l;

	for (c = n->children; c != NULL; c = next_node(c, n, 0)) {
		if (c->type != XML_TEXT_NODE || c->content == NULL)
			continue;
		s = (const char *)c->content;
		if (strstr(s, ". ") != NULL)
			return 1;
		l = strlen(s);
		while (l > 0 && (s[l - 1] == ' ' || s[l - 1] == '\n' ||
		    s[l - 1] == '\t' || s[l - 1] == '\r'))
			l--;
		if (l > 0 && s[l - 1] == '.')
			return 1;
	}
	return 0;
}

/* ---- class and id words ---- */

/* Case-insensitive substring test over a NULL-ended list. */
static int
has_sub(const char *s, const char *const *list)
{
	for (; s != NULL && *list != NULL; list++)
		if (strcasestr(s, *list) != NULL)
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
static const char *const template_roles[] = {
	"navigation", "banner", "contentinfo", "complementary", "search",
	"menu", "menubar", NULL
};

static const char *const share_word[] = { "share", "sharedaddy", NULL };

static int
class_weight(const xmlNode *n, int flags)
{
	const char *v;
	int w = 0, i;

	if (!(flags & F_WEIGHT))
		return 0;
	for (i = 0; i < 2; i++) {
		v = htmlattr_get(n, i == 0 ? "class" : "id");
		if (v == NULL || v[0] == '\0')
			continue;
		if (has_sub(v, negative_sub) || has_word(v, negative_word))
			w -= 25;
		if (has_sub(v, positive_sub))
			w += 25;
	}
	return w;
}

/* Whether n's role attribute holds one of roles as a whole word. */
static int
role_in(const xmlNode *n, const char *const *roles)
{
	return has_word(htmlattr_get(n, "role"), roles);
}

static int
is_hidden(const xmlNode *n)
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

/* ---- tallies ---- */

static void
tally_add(struct tally *to, const struct tally *t)
{
	to->chars += t->chars;
	to->link += t->link;
	to->commas += t->commas;
	to->heading += t->heading;
	to->list += t->list;
	to->links += t->links;
	to->p += t->p;
	to->img += t->img;
	to->li += t->li;
	to->input += t->input;
	to->embed += t->embed;
	to->tr += t->tr;
	to->td += t->td;
	to->th += t->th;
	to->tables += t->tables;
}

static double
link_density(const struct cnode *c)
{
	return c->t.chars > 0 ? c->t.link / c->t.chars : 0;
}

static int
is_video(const xmlNode *n)
{
	static const char *const hosts[] = { "youtube", "vimeo",
		"dailymotion", "youtube-nocookie", "player.", "bilibili",
		"live.bbc", "archive.org", "upload.wikimedia", "twitch", NULL };
	const char *src = htmlattr_get(n, "src");

	return has_sub(src, hosts) || has_sub(htmlattr_get(n, "data"), hosts);
}

/* Whether table n (tallied) holds data rather than page layout. */
static int
data_table(const xmlNode *n, const struct cnode *c)
{
	const xmlNode *k;
	double rows, cols;

	if (role_in(n, (const char *const[]){ "presentation", NULL }))
		return 0;
	if (htmlattr_get(n, "summary") != NULL)
		return 1;
	for (k = n->children; k != NULL; k = k->next)
		if (k->type == XML_ELEMENT_NODE && (is(k, "caption") ||
		    is(k, "thead") || is(k, "tfoot") || is(k, "colgroup")))
			return 1;
	if (c->t.th > 0)
		return 1;
	if (c->t.tables > 1)
		return 0;
	rows = c->t.tr;
	cols = rows > 0 ? c->t.td / rows : 0;
	if (rows <= 1 || cols <= 1)
		return 0;
	return rows >= 10 || cols > 4 || rows * cols > 10;
}

/*
 * Readability's conditional cleaning: whether element n (tallied, inside
 * the content) looks like a menu, a gallery, a form or an empty shell
 * rather than text.
 */
static int
clean_out(xmlNode *n, const struct cnode *c, int flags)
{
	int list = is(n, "ul") || is(n, "ol"), weight;
	double chars = c->t.chars, ld = link_density(c), li;
	double hd = chars > 0 ? c->t.heading / chars : 0;

	if (!(flags & F_CLEAN))
		return 0;
	if (is(n, "table") && data_table(n, c))
		return 0;
	if ((c->anc & A_CODE) || c->data)
		return 0;
	if (!list && chars > 0 && c->t.list / chars > 0.9)
		list = 1;
	weight = class_weight(n, flags);
	if (weight < 0)
		return 1;
	if (c->t.commas >= 10)
		return 0;
	li = (double)c->t.li - 100;
	if (c->t.img > 1 && (double)c->t.p / c->t.img < 0.5)
		return 1;
	if (!list && li > c->t.p)
		return 1;
	if (c->t.input > c->t.p / 3)
		return 1;
	if (!list && hd < 0.9 && chars < 25 &&
	    (c->t.img == 0 || c->t.img > 2))
		return 1;
	if (!list && weight < 25 && ld > 0.2)
		return 1;
	if (weight >= 25 && ld > 0.5)
		return 1;
	if ((c->t.embed == 1 && chars < 75) || c->t.embed > 1)
		return 1;
	return 0;
}

/* Elements the chosen content never keeps. */
static int
always_out(const xmlNode *n, const struct cnode *c, int flags)
{
	static const char *const tags[] = { "footer", "aside", "button",
		"textarea", "input", "object", "embed", "iframe", "select",
		"link", NULL };
	const char *const *t;
	const char *v;

	for (t = tags; *t != NULL; t++)
		if (is(n, *t))
			return 1;
	if ((is(n, "h1") || is(n, "h2")) && class_weight(n, flags) < 0)
		return 1;
	/* Template inside the content (a breadcrumb, a tool bar, a nav):
	 * out when mostly links or short. */
	if ((link_density(c) >= 0.5 || c->t.chars < TEMPLATE_SMALL_CHARS) &&
	    (is(n, "nav") || role_in(n, template_roles) ||
	    has_word(htmlattr_get(n, "class"), template_word) ||
	    has_word(htmlattr_get(n, "id"), template_word)))
		return 1;
	if (c->t.chars < 500) {
		v = htmlattr_get(n, "class");
		if (has_word(v, share_word))
			return 1;
		v = htmlattr_get(n, "id");
		if (has_word(v, share_word))
			return 1;
	}
	return 0;
}

enum { CLEAN_NONE, CLEAN_ARTICLE };

/*
 * Tally every element under root (root included) bottom-up, leaving out
 * nodes with a state bit. With mode CLEAN_ARTICLE, elements that the
 * cleaning rules reject are marked S_CLEAN on the way up, children before
 * parents, and count for nothing in their ancestors.
 */
static void
tally_tree(struct content *ct, xmlNode *root, int mode, int flags)
{
	xmlNode *n = root, *up;
	struct cnode *c, *p;
	double coef;
	const char *href;
	int skip;

	while (n != NULL) {
		skip = 0;
		c = cn(n);
		if (n->type == XML_ELEMENT_NODE && c != NULL) {
			memset(&c->t, 0, sizeof(c->t));
			if (c->state != 0) {
				/* Counted for cleaning even though silent. */
				p = n != root ? cn(n->parent) : NULL;
				if (p != NULL && is(n, "img"))
					p->t.img++;
				if (p != NULL && (is(n, "embed") ||
				    is(n, "object") || is(n, "iframe")) &&
				    !is_video(n))
					p->t.embed++;
				skip = 1;
			}
		} else {
			if ((n->type == XML_TEXT_NODE ||
			    n->type == XML_CDATA_SECTION_NODE) &&
			    (p = cn(n->parent)) != NULL && n != root)
				measure((const char *)n->content, &p->t.chars,
				    &p->t.commas);
			skip = 1;
		}
		if (!skip && n->children != NULL) {
			n = n->children;
			continue;
		}
		/* Leave n and every ancestor that ends with it. */
		for (;;) {
			c = cn(n);
			if (c != NULL && c->state == 0) {
				if (is(n, "a")) {
					href = htmlattr_get(n, "href");
					coef = href != NULL && href[0] == '#' ?
					    0.3 : 1;
					c->t.link = c->t.chars * coef;
					if (c->t.chars > 0)
						c->t.links++;
				} else if (is(n, "p")) {
					c->t.p++;
				} else if (is(n, "li")) {
					c->t.li++;
				} else if (is(n, "input")) {
					c->t.input++;
				} else if (is(n, "tr")) {
					c->t.tr++;
				} else if (is(n, "td")) {
					c->t.td++;
				} else if (is(n, "th")) {
					c->t.th++;
				} else if (is(n, "table")) {
					c->t.tables++;
				} else if (is(n, "ul") || is(n, "ol")) {
					c->t.list = c->t.chars;
				} else if (is_heading(n)) {
					c->t.heading = c->t.chars;
				}
				if (mode == CLEAN_ARTICLE && n != root &&
				    (always_out(n, c, flags) ||
				    ((is(n, "form") || is(n, "fieldset") ||
				    is(n, "table") || is(n, "ul") ||
				    is(n, "div")) &&
				    clean_out(n, c, flags))))
					c->state |= S_CLEAN;
				else if (n != root &&
				    (p = cn(n->parent)) != NULL)
					tally_add(&p->t, &c->t);
			}
			if (n == root) {
				n = NULL;
				break;
			}
			if (n->next != NULL) {
				n = n->next;
				break;
			}
			up = n->parent;
			if (up == NULL) {
				n = NULL;
				break;
			}
			n = up;
		}
	}
}

/* ---- scoring ---- */

/* Children that make a div more than one paragraph. */
static int
is_block_for_div(const xmlNode *n)
{
	static const char *const tags[] = { "blockquote", "dl", "div", "img",
		"ol", "p", "pre", "table", "ul", "section", "article",
		"header", "footer", "nav", "aside", "form", "figure", "h1",
		"h2", "h3", "h4", "h5", "h6", "hr", "main", "address", NULL };
	const char *const *t;

	if (n->type != XML_ELEMENT_NODE)
		return 0;
	for (t = tags; *t != NULL; t++)
		if (is(n, *t))
			return 1;
	return 0;
}

static int
has_block_child(const xmlNode *n)
{
	const xmlNode *k;

	for (k = n->children; k != NULL; k = k->next)
		if (is_block_for_div(k) && (cn(k) == NULL ||
		    !(cn(k)->state & (S_HIDDEN | S_STRIP)) || is(k, "img")))
			return 1;
	return 0;
}

static void
init_candidate(xmlNode *n, struct cnode *c, int flags)
{
	static const char *const plus3[] = { "pre", "td", "blockquote",
		NULL };
	static const char *const minus3[] = { "address", "ol", "ul", "dl",
		"dd", "dt", "li", "form", NULL };
	const char *const *t;

	c->cand = 1;
	c->score = class_weight(n, flags);
	if (is(n, "div"))
		c->score += 5;
	for (t = plus3; *t != NULL; t++)
		if (is(n, *t))
			c->score += 3;
	for (t = minus3; *t != NULL; t++)
		if (is(n, *t))
			c->score -= 3;
	if (is_heading(n) || is(n, "th"))
		c->score -= 5;
}

/* A paragraph of chars characters and commas commas under parent. */
static void
score_paragraph(xmlNode *parent, double chars,
    double commas, int flags)
{
	double s, div;
	xmlNode *a;
	struct cnode *c;
	int level = 0;

	if (chars < PARA_MIN_CHARS)
		return;
	s = 1 + (commas + 1) + fmin(floor(chars / 100), 3);
	for (a = parent; a != NULL && level < ANCESTOR_LEVELS; a = a->parent) {
		c = cn(a);
		if (c == NULL || a->parent == NULL ||
		    a->parent->type != XML_ELEMENT_NODE)
			break;
		if (c->wrap)
			continue;
		if (!c->cand)
			init_candidate(a, c, flags);
		div = level == 0 ? 1 : level == 1 ? 2 : level * 3;
		c->score += s / div;
		level++;
	}
}

/* The inline runs of a div that also has block children, as paragraphs. */
static void
score_runs(xmlNode *div, int flags)
{
	xmlNode *k;
	struct cnode *c;
	double chars = 0, commas = 0;

	for (k = div->children;; k = k->next) {
		if (k == NULL || is_block_for_div(k)) {
			score_paragraph(div, chars, commas, flags);
			chars = commas = 0;
			if (k == NULL)
				break;
			continue;
		}
		if (k->type == XML_TEXT_NODE)
			measure((const char *)k->content, &chars, &commas);
		else if ((c = cn(k)) != NULL && c->state == 0) {
			chars += c->t.chars;
			commas += c->t.commas;
		}
	}
}

/* Whether div n only wraps one p (no text of its own, few links). */
static int
is_wrapper(const xmlNode *n)
{
	const xmlNode *k, *only = NULL;

	if (!is(n, "div"))
		return 0;
	for (k = n->children; k != NULL; k = k->next) {
		if (k->type == XML_TEXT_NODE) {
			const char *s = (const char *)k->content;

			while (s != NULL && *s != '\0' && (*s == ' ' ||
			    *s == '\n' || *s == '\t' || *s == '\r'))
				s++;
			if (s != NULL && *s != '\0')
				return 0;
		} else if (k->type == XML_ELEMENT_NODE) {
			if (cn(k) != NULL && cn(k)->state != 0)
				continue;
			if (only != NULL)
				return 0;
			only = k;
		}
	}
	return only != NULL && is(only, "p") && cn(n) != NULL &&
	    link_density(cn(n)) < 0.25;
}

static void
score_tree(struct content *ct, int flags)
{
	xmlNode *n = ct->body;
	struct cnode *c;
	int skip;

	while (n != NULL) {
		c = cn(n);
		skip = c == NULL || c->state != 0;
		if (!skip) {
			c->wrap = (unsigned char)is_wrapper(n);
			if (is(n, "p") || is(n, "pre") || is(n, "td") ||
			    is(n, "section") || (is_heading(n) && !is(n, "h1")))
				score_paragraph(n->parent, c->t.chars,
				    c->t.commas, flags);
			else if (is(n, "div") && !c->wrap) {
				if (!has_block_child(n))
					score_paragraph(n->parent,
					    c->t.chars, c->t.commas, flags);
				else
					score_runs(n, flags);
			}
		}
		n = next_node(n, ct->body, skip);
	}
}

/* ---- choosing ---- */

static int
element_children(const xmlNode *n)
{
	const xmlNode *k;
	int count = 0;

	for (k = n->children; k != NULL; k = k->next)
		if (k->type == XML_ELEMENT_NODE && cn(k) != NULL &&
		    cn(k)->state == 0)
			count++;
	return count;
}

/* The best candidate after Readability's moves, or NULL for the body. */
static xmlNode *
choose_top(struct content *ct)
{
	struct cnode *top[TOP_CANDIDATES] = { NULL }, *c, *pc;
	xmlNode *t, *p, *common = NULL;
	double last, thresh;
	size_t i;
	int j, k, near = 0;

	for (i = 0; i < ct->count; i++) {
		c = &ct->n[i];
		if (!c->cand || c->state != 0)
			continue;
		c->score *= 1 - link_density(c);
		for (j = 0; j < TOP_CANDIDATES; j++) {
			if (top[j] == NULL || c->score > top[j]->score) {
				for (k = TOP_CANDIDATES - 1; k > j; k--)
					top[k] = top[k - 1];
				top[j] = c;
				break;
			}
		}
	}
	if (top[0] == NULL || top[0]->node == ct->body)
		return NULL;
	t = top[0]->node;
	for (j = 1; j < TOP_CANDIDATES; j++)
		if (top[j] != NULL && top[0]->score > 0 &&
		    top[j]->score / top[0]->score >= NEAR_TOP)
			near++;
	if (near >= SHARED_ANCESTOR_MIN) {
		/* Count on every ancestor the near candidates under it, find
		 * the nearest to the best one that enough of them share, and
		 * clear the counts. Linear in the depth, however deep. */
		for (j = 1; j < TOP_CANDIDATES; j++) {
			if (top[j] == NULL ||
			    top[j]->score / top[0]->score < NEAR_TOP)
				continue;
			for (p = top[j]->node->parent; cn(p) != NULL;
			    p = p->parent)
				cn(p)->shared++;
		}
		for (p = t->parent; p != NULL && p != ct->body &&
		    p->type == XML_ELEMENT_NODE; p = p->parent)
			if (cn(p)->shared >= SHARED_ANCESTOR_MIN) {
				common = p;
				break;
			}
		for (j = 1; j < TOP_CANDIDATES; j++)
			if (top[j] != NULL)
				for (p = top[j]->node->parent; cn(p) != NULL;
				    p = p->parent)
					cn(p)->shared = 0;
		if (common != NULL)
			t = common;
	}
	c = cn(t);
	last = c->cand ? c->score : 0;
	thresh = last / 3;
	for (p = t->parent; p != NULL && p != ct->body &&
	    p->type == XML_ELEMENT_NODE; p = p->parent) {
		pc = cn(p);
		if (pc == NULL || !pc->cand)
			continue;
		if (pc->score < thresh)
			break;
		if (pc->score > last) {
			t = p;
			break;
		}
		last = pc->score;
	}
	for (p = t->parent; p != NULL && p != ct->body &&
	    p->type == XML_ELEMENT_NODE && element_children(p) == 1;
	    p = t->parent)
		t = p;
	return t;
}

/* Mark what lies inside data tables under root (tallied), top-down. */
static void
mark_data(xmlNode *root)
{
	xmlNode *n;
	struct cnode *c, *p;

	cn(root)->data = 0;
	for (n = root->children; n != NULL; n = next_node(n, root, 0)) {
		if ((c = cn(n)) == NULL || (p = cn(n->parent)) == NULL)
			continue;
		c->data = p->data || (is(n->parent, "table") &&
		    data_table(n->parent, p));
	}
}

/*
 * Mark the top candidate and the siblings that join it CONTENT_IN;
 * returns their characters after cleaning, or 0 when they are mostly link
 * text: a listing page, whose content is its links, which cleaning would
 * take away.
 */
static double
select_content(struct content *ct, xmlNode *top, int flags)
{
	struct cnode *tc = cn(top), *c;
	const char *tcls = htmlattr_get(top, "class"), *cls;
	double thresh, bonus, total = 0, ld, raw = 0, link = 0;
	xmlNode *k, *parent = top->parent;
	int join;

	thresh = fmax(10, (tc->cand ? tc->score : 0) * 0.2);
	for (k = parent->children; k != NULL; k = k->next) {
		c = cn(k);
		if (c == NULL || c->state != 0)
			continue;
		join = k == top;
		if (!join) {
			bonus = 0;
			cls = htmlattr_get(k, "class");
			if (tcls != NULL && tcls[0] != '\0' && cls != NULL &&
			    strcmp(cls, tcls) == 0)
				bonus = (tc->cand ? tc->score : 0) * 0.2;
			ld = link_density(c);
			if (c->cand && c->score + bonus >= thresh)
				join = 1;
			else if (is(k, "p") && c->t.chars > 80 && ld < 0.25)
				join = 1;
			else if (is(k, "p") && c->t.chars < 80 &&
			    c->t.chars > 0 && ld == 0 && has_sentence_end(k))
				join = 1;
		}
		if (!join)
			continue;
		c->mark = CONTENT_IN;
		raw += c->t.chars;
		link += c->t.link;
		mark_data(k);
		tally_tree(ct, k, CLEAN_ARTICLE, flags);
		total += c->t.chars;
	}
	return link >= LISTING_LINK_SHARE * raw ? 0 : total;
}

/* ---- preparing a run ---- */

static void
reset_run(struct content *ct)
{
	size_t i;

	for (i = 0; i < ct->count; i++) {
		ct->n[i].state &= (unsigned char)~(S_STRIP | S_CLEAN);
		ct->n[i].cand = 0;
		ct->n[i].score = 0;
		ct->n[i].wrap = 0;
		ct->n[i].mark = CONTENT_NONE;
	}
}

/* A subtree holding this much of the page's plain text is never cut. */
static int
protected(const struct content *ct, const struct cnode *c)
{
	double plain = c->t.chars - c->t.link;

	return plain >= PROTECT_SHARE * ct->body_plain &&
	    plain >= PARA_MIN_CHARS;
}

/*
 * ... by a class/id word, unless the rest of the page has an article's
 * worth of plain text: then the subtree is a gallery, a comment thread or
 * a stream of teasers beside the article, not the article's ancestor.
 */
static int
protected_from_words(const struct content *ct, const struct cnode *c)
{
	return protected(ct, c) && ct->body_plain - (c->t.chars - c->t.link) <
	    CONTENT_MIN_CHARS;
}

/* Mark template-named subtrees S_STRIP (the body is tallied). */
static void
strip_unlikely(struct content *ct)
{
	xmlNode *n = ct->body;
	struct cnode *c;
	char both[512];
	const char *cls, *id;
	int skip;

	while (n != NULL) {
		c = cn(n);
		skip = c == NULL || c->state != 0;
		if (!skip && n != ct->body && !is(n, "a") &&
		    !protected_from_words(ct, c)) {
			cls = htmlattr_get(n, "class");
			id = htmlattr_get(n, "id");
			snprintf(both, sizeof(both), "%s %s", cls ? cls : "",
			    id ? id : "");
			if ((has_sub(both, unlikely_sub) &&
			    !has_sub(both, maybe_sub) &&
			    !(c->anc & (A_TABLE | A_CODE))) ||
			    role_in(n, unlikely_roles)) {
				c->state |= S_STRIP;
				skip = 1;
			}
		}
		n = next_node(n, ct->body, skip);
	}
}

/* One selection run; returns the characters of the content it marked. */
static double
run(struct content *ct, int flags)
{
	xmlNode *top;

	reset_run(ct);
	if (flags & F_STRIP) {
		tally_tree(ct, ct->body, CLEAN_NONE, flags);
		strip_unlikely(ct);
	}
	tally_tree(ct, ct->body, CLEAN_NONE, flags);
	score_tree(ct, flags);
	top = choose_top(ct);
	/* The body as the best container is no finding: degrade. */
	if (top == NULL || top->parent == NULL ||
	    top->parent->type != XML_ELEMENT_NODE)
		return 0;
	return select_content(ct, top, flags);
}

/* ---- degrading ---- */

static int
is_template(const struct content *ct, const xmlNode *n,
    const struct cnode *c, int in_content)
{
	static const char *const tags[] = { "nav", "aside", "form",
		"search", NULL };
	const char *const *t;
	double avg;

	for (t = tags; *t != NULL; t++)
		if (is(n, *t))
			return 1;
	if (!in_content && (is(n, "header") || is(n, "footer")))
		return 1;
	if (role_in(n, template_roles))
		return 1;
	if (is(n, "main") || n == ct->body)
		return 0;
	if (has_word(htmlattr_get(n, "class"), template_word) ||
	    has_word(htmlattr_get(n, "id"), template_word))
		return 1;
	if (!in_content && (has_word(htmlattr_get(n, "class"), page_part_word) ||
	    has_word(htmlattr_get(n, "id"), page_part_word)))
		return 1;
	/* A menu: links of a word or two, most of the block. */
	if (c->t.links >= 2 && link_density(c) >= MENU_LINK_DENSITY &&
	    c->t.chars <= MENU_MAX_CHARS) {
		avg = c->t.link / c->t.links;
		if (avg < MENU_LINK_CHARS)
			return 1;
	}
	return 0;
}

/*
 * Mark the body IN and its template OUT (through S_CLEAN); when that
 * leaves a stray line (under DEGRADE_STRAY_CHARS, and less than the
 * template around it: a visitor counter, a copyright line), leave the
 * whole body in instead.
 */
static void
degrade(struct content *ct)
{
	xmlNode *n = ct->body;
	struct cnode *c;
	double cut = 0, left;
	size_t i;
	int skip, in_content;

	reset_run(ct);
	tally_tree(ct, ct->body, CLEAN_NONE, 0);
	cn(ct->body)->mark = CONTENT_IN;
	while (n != NULL) {
		c = cn(n);
		skip = c == NULL || c->state != 0;
		if (!skip && n != ct->body && !protected(ct, c)) {
			in_content = (c->anc & A_CONTENT) != 0;
			if (is_template(ct, n, c, in_content)) {
				c->state |= S_CLEAN;
				cut += c->t.chars;
				skip = 1;
			}
		}
		n = next_node(n, ct->body, skip);
	}
	left = cn(ct->body)->t.chars - cut;
	if (left >= DEGRADE_STRAY_CHARS || left >= cut)
		return;
	for (i = 0; i < ct->count; i++)
		ct->n[i].state &= (unsigned char)~S_CLEAN;
}

/* ---- entry points ---- */

static xmlNode *
find_body(xmlDoc *doc)
{
	xmlNode *root = xmlDocGetRootElement(doc), *n = root;

	while (n != NULL) {
		if (n->type == XML_ELEMENT_NODE && is(n, "body"))
			return n;
		n = next_node(n, root, n->type == XML_ELEMENT_NODE &&
		    is(n, "head"));
	}
	return root;
}

struct content *
content_analyze(xmlDoc *doc, content_silent_fn silent, int *found)
{
	static const int runs[] = { F_STRIP | F_WEIGHT | F_CLEAN,
		F_WEIGHT | F_CLEAN, F_CLEAN, 0 };
	struct content *ct;
	xmlNode *root, *n;
	size_t count = 0, i;
	struct cnode *c, *p;
	double chars;
	int skip;

	*found = 0;
	ct = calloc(1, sizeof(*ct));
	if (ct == NULL)
		return NULL;
	root = doc != NULL ? xmlDocGetRootElement(doc) : NULL;
	if (root == NULL)
		return ct;
	for (n = root; n != NULL; n = next_node(n, root, 0))
		if (n->type == XML_ELEMENT_NODE && ++count > CONTENT_MAX_NODES)
			return ct;
	ct->n = calloc(count, sizeof(*ct->n));
	if (ct->n == NULL) {
		free(ct);
		return NULL;
	}
	for (n = root; n != NULL; n = next_node(n, root, skip)) {
		skip = 0;
		if (n->type != XML_ELEMENT_NODE)
			continue;
		c = &ct->n[ct->count++];
		c->node = n;
		n->_private = c;
		if ((p = cn(n->parent)) != NULL) {
			c->anc = p->anc;
			if (is(n->parent, "pre") || is(n->parent, "code"))
				c->anc |= A_CODE;
			if (is(n->parent, "table"))
				c->anc |= A_TABLE;
			if (is(n->parent, "article") || is(n->parent, "main"))
				c->anc |= A_CONTENT;
		}
		if (silent(n))
			c->state = S_SILENT;
		else if (is_hidden(n))
			c->state = S_HIDDEN;
	}
	ct->body = find_body(doc);
	tally_tree(ct, ct->body, CLEAN_NONE, 0);
	ct->body_plain = cn(ct->body)->t.chars - cn(ct->body)->t.link;
	for (i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
		chars = run(ct, runs[i]);
		if (chars >= CONTENT_MIN_CHARS) {
			*found = 1;
			return ct;
		}
	}
	degrade(ct);
	return ct;
}

enum content_mark
content_mark_of(const struct content *ct, const xmlNode *n)
{
	const struct cnode *c;

	if (ct == NULL || ct->n == NULL || n->type != XML_ELEMENT_NODE)
		return CONTENT_NONE;
	c = cn(n);
	if (c == NULL)
		return CONTENT_NONE;
	if (c->state & (S_HIDDEN | S_STRIP | S_CLEAN))
		return CONTENT_OUT;
	return (enum content_mark)c->mark;
}

void
content_free(struct content *ct)
{
	size_t i;

	if (ct == NULL)
		return;
	for (i = 0; i < ct->count; i++)
		ct->n[i].node->_private = NULL;
	free(ct->n);
	free(ct);
}
