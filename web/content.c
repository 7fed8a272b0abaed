/*
 * content: the main-content analysis of content.h -- its entry points and
 * the runs that try the selection with fewer and fewer of Readability's
 * steps. Tallies and cleaning are in content_tally.c, scoring in
 * content_score.c, the fallback in content_fallback.c, class/id words in
 * content_words.c.
 */
#include "web/content.h"
#include "web/content_int.h"

#include <stdlib.h>

/*
 * ... by a class/id word, unless the rest of the page has an article's
 * worth of plain text: then the subtree is a gallery, a comment thread or
 * a stream of teasers beside the article, not the article's ancestor.
 */
static int
protected_from_words(const struct content *ct, const xmlNode *n,
    const struct cnode *c)
{
	return !content_furniture(n, c) && content_protected(ct, c) &&
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
		    !protected_from_words(ct, n, c) &&
		    ((content_unlikely_named(n) &&
		    !(c->anc & (A_TABLE | A_CODE))) ||
		    content_unlikely_role(n))) {
			c->state |= S_STRIP;
			skip = 1;
		}
		n = next_node(n, ct->body, skip);
	}
}

/*
 * Whether a run chose mostly the page's furniture (content_furniture):
 * half of the chosen text or more inside it. A short
 * page whose only long text is its footer has no main content there, and
 * taking the footer would make every thin page of a site read alike. The
 * relaxed runs are for an article whose ancestor carries a template
 * word, which a footer never is.
 */
static int
chose_furniture(const struct content *ct)
{
	const xmlNode *p;
	xmlNode *k, *root;
	const struct cnode *c;
	double all = 0, in = 0;
	size_t i;
	int skip;

	for (i = 0; i < ct->count; i++) {
		if (ct->n[i].mark != CONTENT_IN)
			continue;
		root = ct->n[i].node;
		all += ct->n[i].t.chars;
		for (p = root; p != NULL && p != ct->body; p = p->parent)
			if (cn(p) != NULL && content_furniture(p, cn(p)))
				break;
		if (p != NULL && p != ct->body) {
			in += ct->n[i].t.chars;
			continue;
		}
		for (k = root; k != NULL; k = next_node(k, root, skip)) {
			c = cn(k);
			skip = c == NULL || c->state != 0;
			if (!skip && k != root && content_furniture(k, c)) {
				in += c->t.chars;
				skip = 1;
			}
		}
	}
	return all > 0 && in * 2 >= all;
}

/* One selection run; returns the characters of the content it marked. */
static double
run(struct content *ct, int flags)
{
	xmlNode *top;
	double chars;

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
	chars = content_select(ct, top, flags);
	if (chars > 0 && chose_furniture(ct))
		return 0;
	return chars;
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
		if (is(n, "article") || is(n, "main"))
			for (p = cn(n->parent); p != NULL; p = cn(p->node->parent))
				p->holds = 1;
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