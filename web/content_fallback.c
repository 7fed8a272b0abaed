/*
 * content_fallback: the marks when no main content was found with
 * confidence (step 4 of content.h) -- the body without its template
 * (nav, aside, form, header and footer outside article and main,
 * navigation roles, template words, menus of short links), or the whole
 * body when that would leave only a stray line.
 */
#include "web/content_int.h"

#include "web/content.h"

/* Menus: blocks this link-dense whose links average under this length. */
#define MENU_LINK_DENSITY 0.5
#define MENU_LINK_CHARS 12.0
#define MENU_MAX_CHARS 400.0
/* What the body without its template must keep to stand for the page
 * when the template is larger; below it, the whole body does. */
#define DEGRADE_STRAY_CHARS 50.0

/* Whether element n (tallied) is template; in_content: it is inside an
 * article or main element. */
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
	if (content_template_role(n))
		return 1;
	if (is(n, "main") || n == ct->body)
		return 0;
	if (content_template_named(n))
		return 1;
	if (!in_content && content_page_part_named(n))
		return 1;
	/* A menu: links of a word or two, most of the block. */
	if (c->t.links >= 2 && content_link_density(c) >= MENU_LINK_DENSITY &&
	    c->t.chars <= MENU_MAX_CHARS) {
		avg = c->t.link / c->t.links;
		if (avg < MENU_LINK_CHARS)
			return 1;
	}
	return 0;
}

void
content_degrade(struct content *ct)
{
	xmlNode *n = ct->body;
	struct cnode *c;
	double cut = 0, left;
	size_t i;
	int skip, in_content;

	content_reset_run(ct);
	content_tally_tree(ct, ct->body, CLEAN_NONE, 0);
	cn(ct->body)->mark = CONTENT_IN;
	while (n != NULL) {
		c = cn(n);
		skip = c == NULL || c->state != 0;
		if (!skip && n != ct->body && (content_furniture(n, c) ||
		    !content_protected(ct, c))) {
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
