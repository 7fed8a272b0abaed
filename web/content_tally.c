/*
 * content_tally: the measures the main-content analysis decides by -- each
 * element's tally of characters, link text, commas and children, bottom
 * up; Readability's cleaning rules applied on the way; and what a run
 * resets and may not cut (see content.h).
 */
#include "web/content_int.h"

#include "util/chars.h"
#include "web/content.h"
#include "web/htmlattr.h"

#include <stdint.h>
#include <string.h>

/* A subtree with this share of the page's non-link text is never
 * removed by a class/id word or a tag. */
#define PROTECT_SHARE 0.5
/* Template-named blocks this short go from the chosen content. */
#define TEMPLATE_SMALL_CHARS 200.0

/* ---- text measures ---- */

static int
is_comma_cp(uint32_t c)
{
	if (c < 0x80)
		return c == ',';
	return c == 0x060c || c == 0xfe50 || c == 0xfe10 || c == 0xfe11 ||
	    c == 0x2e41 || c == 0x2e34 || c == 0x2e32 || c == 0xff0c;
}

void
content_measure(const char *str, double *chars, double *commas)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, n, nchars = 0, ncommas = 0;
	uint32_t cp;
	int gap = 0, begun = 0;

	if (s == NULL)
		return;
	n = strlen(str);
	/* Counted in integers and added once: the sums are whole numbers,
	 * and a double added through a pointer every character was the
	 * extraction's costliest loop. */
	while (i < n) {
		i += chars_utf8_decode(s + i, n - i, &cp);
		if (chars_space_cp(cp)) {
			gap = 1;
			continue;
		}
		nchars += 1 + (gap && begun);
		gap = 0;
		begun = 1;
		ncommas += is_comma_cp(cp);
	}
	*chars += (double)nchars;
	*commas += (double)ncommas;
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

/* The characters and commas of n's own text children, measured on the
 * first tally and kept: every run tallies the same text. */
static void
own_text(const xmlNode *n, struct cnode *c)
{
	const xmlNode *k;

	if (c->own_known)
		return;
	c->own_chars = c->own_commas = 0;
	for (k = n->children; k != NULL; k = k->next)
		if (k->type == XML_TEXT_NODE || k->type == XML_CDATA_SECTION_NODE)
			content_measure((const char *)k->content, &c->own_chars,
			    &c->own_commas);
	c->own_known = 1;
}

/*
 * Entering n on the way down: an element's tally starts at its own text's
 * characters (its text children are counted here, not entered for it),
 * one left out counts only as an image or embed of its parent. Returns
 * whether to skip n's children.
 */
static int
tally_enter(xmlNode *n, const xmlNode *root)
{
	struct cnode *c = cn(n), *p;

	if (n->type == XML_ELEMENT_NODE && c != NULL) {
		memset(&c->t, 0, sizeof(c->t));
		if (c->state == 0) {
			own_text(n, c);
			c->t.chars = c->own_chars;
			c->t.commas = c->own_commas;
			return 0;
		}
		/* Counted for cleaning even though silent. */
		p = n != root ? cn(n->parent) : NULL;
		if (p != NULL && is(n, "img"))
			p->t.img++;
		if (p != NULL && (is(n, "embed") || is(n, "object") ||
		    is(n, "iframe")) && !is_video(n))
			p->t.embed++;
		return 1;
	}
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

/* ---- runs ---- */

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
