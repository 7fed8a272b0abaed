/*
 * content: the main-content analysis of content.h -- its entry points,
 * the tallies of every element's text, links and children, the cleaning
 * rules for the chosen content, and the runs that try the selection with
 * fewer and fewer of Readability's steps. Scoring is in content_score.c,
 * the fallback in content_fallback.c, class/id words in content_words.c.
 */
#include "web/content_int.h"

#include "util/chars.h"
#include "web/htmlattr.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A subtree with this share of the page's non-link text is never
 * removed by a class/id word or a tag. */
#define PROTECT_SHARE 0.5
/* Template-named blocks this short go from the chosen content. */
#define TEMPLATE_SMALL_CHARS 200.0

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

void
content_measure(const char *str, double *chars, double *commas)
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

static int
is_video(const xmlNode *n)
{
	static const char *const hosts[] = { "youtube", "vimeo",
		"dailymotion", "youtube-nocookie", "player.", "bilibili",
		"live.bbc", "archive.org", "upload.wikimedia", "twitch", NULL };
	const char *src = htmlattr_get(n, "src");

	return content_has_sub(src, hosts) ||
	    content_has_sub(htmlattr_get(n, "data"), hosts);
}

int
content_data_table(const xmlNode *n, const struct cnode *c)
{
	const xmlNode *k;
	double rows, cols;

	if (content_role_in(n, (const char *const[]){ "presentation", NULL }))
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
	double chars = c->t.chars, ld = content_link_density(c), li;
	double hd = chars > 0 ? c->t.heading / chars : 0;

	if (!(flags & F_CLEAN))
		return 0;
	if (is(n, "table") && content_data_table(n, c))
		return 0;
	if ((c->anc & A_CODE) || c->data)
		return 0;
	if (!list && chars > 0 && c->t.list / chars > 0.9)
		list = 1;
	weight = content_class_weight(n, flags);
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

	for (t = tags; *t != NULL; t++)
		if (is(n, *t))
			return 1;
	if ((is(n, "h1") || is(n, "h2")) && content_class_weight(n, flags) < 0)
		return 1;
	/* Template inside the content (a breadcrumb, a tool bar, a nav):
	 * out when mostly links or short. */
	if ((content_link_density(c) >= 0.5 ||
	    c->t.chars < TEMPLATE_SMALL_CHARS) && (is(n, "nav") ||
	    content_template_role(n) || content_template_named(n)))
		return 1;
	return c->t.chars < 500 && content_share_named(n);
}

/* Whether the cleaning of the chosen content removes element n
 * (tallied). */
static int
cleaned(xmlNode *n, const struct cnode *c, int flags)
{
	return always_out(n, c, flags) || ((is(n, "form") ||
	    is(n, "fieldset") || is(n, "table") || is(n, "ul") ||
	    is(n, "div")) && clean_out(n, c, flags));
}

/*
 * Entering n on the way down: an element's tally starts at zero, one left
 * out counts only as an image or embed of its parent, a text node adds
 * its characters to its parent. Returns whether to skip n's children.
 */
static int
tally_enter(xmlNode *n, const xmlNode *root)
{
	struct cnode *c = cn(n), *p;

	if (n->type == XML_ELEMENT_NODE && c != NULL) {
		memset(&c->t, 0, sizeof(c->t));
		if (c->state == 0)
			return 0;
		/* Counted for cleaning even though silent. */
		p = n != root ? cn(n->parent) : NULL;
		if (p != NULL && is(n, "img"))
			p->t.img++;
		if (p != NULL && (is(n, "embed") || is(n, "object") ||
		    is(n, "iframe")) && !is_video(n))
			p->t.embed++;
		return 1;
	}
	if ((n->type == XML_TEXT_NODE || n->type == XML_CDATA_SECTION_NODE) &&
	    (p = cn(n->parent)) != NULL && n != root)
		content_measure((const char *)n->content, &p->t.chars,
		    &p->t.commas);
	return 1;
}

/* Count element n, its subtree tallied, as what it is itself: a link, a
 * paragraph, a list, a heading... */
static void
tally_self(const xmlNode *n, struct cnode *c)
{
	const char *href;

	if (is(n, "a")) {
		href = htmlattr_get(n, "href");
		c->t.link = c->t.chars * (href != NULL && href[0] == '#' ?
		    0.3 : 1);
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
}

/* Leaving n on the way up: count it, then clean it out (CLEAN_ARTICLE) or
 * add its tally to its parent's. */
static void
tally_leave(xmlNode *n, const xmlNode *root, int mode, int flags)
{
	struct cnode *c = cn(n), *p;

	if (c == NULL || c->state != 0)
		return;
	tally_self(n, c);
	if (mode == CLEAN_ARTICLE && n != root && cleaned(n, c, flags))
		c->state |= S_CLEAN;
	else if (n != root && (p = cn(n->parent)) != NULL)
		tally_add(&p->t, &c->t);
}

void
content_tally_tree(struct content *ct, xmlNode *root, int mode, int flags)
{
	xmlNode *n = root;

	while (n != NULL) {
		if (!tally_enter(n, root) && n->children != NULL) {
			n = n->children;
			continue;
		}
		/* Leave n and every ancestor that ends with it. */
		for (;;) {
			tally_leave(n, root, mode, flags);
			if (n == root) {
				n = NULL;
				break;
			}
			if (n->next != NULL) {
				n = n->next;
				break;
			}
			if ((n = n->parent) == NULL)
				break;
		}
	}
}

/* ---- preparing a run ---- */

void
content_reset_run(struct content *ct)
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

int
content_protected(const struct content *ct, const struct cnode *c)
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
	return content_protected(ct, c) &&
	    ct->body_plain - (c->t.chars - c->t.link) < CONTENT_MIN_CHARS;
}

/* Mark template-named subtrees S_STRIP (the body is tallied). */
static void
strip_unlikely(struct content *ct)
{
	xmlNode *n = ct->body;
	struct cnode *c;
	int skip;

	while (n != NULL) {
		c = cn(n);
		skip = c == NULL || c->state != 0;
		if (!skip && n != ct->body && !is(n, "a") &&
		    !protected_from_words(ct, c) &&
		    ((content_unlikely_named(n) &&
		    !(c->anc & (A_TABLE | A_CODE))) ||
		    content_unlikely_role(n))) {
			c->state |= S_STRIP;
			skip = 1;
		}
		n = next_node(n, ct->body, skip);
	}
}

/* One selection run; returns the characters of the content it marked. */
static double
run(struct content *ct, int flags)
{
	xmlNode *top;

	content_reset_run(ct);
	if (flags & F_STRIP) {
		content_tally_tree(ct, ct->body, CLEAN_NONE, flags);
		strip_unlikely(ct);
	}
	content_tally_tree(ct, ct->body, CLEAN_NONE, flags);
	content_score_tree(ct, flags);
	top = content_choose_top(ct);
	/* The body as the best container is no finding: degrade. */
	if (top == NULL || top->parent == NULL ||
	    top->parent->type != XML_ELEMENT_NODE)
		return 0;
	return content_select(ct, top, flags);
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
		else if (content_is_hidden(n))
			c->state = S_HIDDEN;
	}
	ct->body = find_body(doc);
	content_tally_tree(ct, ct->body, CLEAN_NONE, 0);
	ct->body_plain = cn(ct->body)->t.chars - cn(ct->body)->t.link;
	for (i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
		chars = run(ct, runs[i]);
		if (chars >= CONTENT_MIN_CHARS) {
			*found = 1;
			return ct;
		}
	}
	content_degrade(ct);
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