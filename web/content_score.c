/*
 * content_score: Readability's candidate scoring (steps 1 and 2 of
 * content.h): paragraphs score their ancestors, the best candidate is
 * chosen, moved to a shared ancestor or climbed, and joined by its
 * siblings, whose subtrees are then cleaned.
 */
#include "web/content_int.h"

#include "web/content.h"

#include "web/htmlattr.h"

#include <math.h>
#include <string.h>

/* Ancestors a paragraph's score reaches. */
#define ANCESTOR_LEVELS 5
/* Candidates kept, and how close to the best one counts as near it. */
#define TOP_CANDIDATES 5
#define NEAR_TOP 0.75
#define SHARED_ANCESTOR_MIN 3
/* Content with this share of link text is a listing, not an article. */
#define LISTING_LINK_SHARE 0.5

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
	c->score = content_class_weight(n, flags);
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
			content_measure((const char *)k->content, &chars, &commas);
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
	    content_link_density(cn(n)) < 0.25;
}

void
content_score_tree(struct content *ct, int flags)
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

/* Scale each candidate's score by 1 - its link density and keep the best
 * TOP_CANDIDATES in top, best first (NULL where there are fewer). */
static void
rank_candidates(struct content *ct, struct cnode *top[TOP_CANDIDATES])
{
	struct cnode *c;
	size_t i;
	int j, k;

	for (i = 0; i < ct->count; i++) {
		c = &ct->n[i];
		if (!c->cand || c->state != 0)
			continue;
		c->score *= 1 - content_link_density(c);
		for (j = 0; j < TOP_CANDIDATES; j++) {
			if (top[j] == NULL || c->score > top[j]->score) {
				for (k = TOP_CANDIDATES - 1; k > j; k--)
					top[k] = top[k - 1];
				top[j] = c;
				break;
			}
		}
	}
}

/*
 * The nearest ancestor of the best candidate that at least
 * SHARED_ANCESTOR_MIN near-best candidates share, or NULL (also when
 * fewer are near the best).
 */
static xmlNode *
shared_ancestor(const struct content *ct, struct cnode *const *top)
{
	xmlNode *p, *common = NULL;
	int j, near = 0;

	for (j = 1; j < TOP_CANDIDATES; j++)
		if (top[j] != NULL && top[0]->score > 0 &&
		    top[j]->score / top[0]->score >= NEAR_TOP)
			near++;
	if (near < SHARED_ANCESTOR_MIN)
		return NULL;
	/* Count on every ancestor the near candidates under it, find the
	 * nearest to the best one that enough of them share, and clear the
	 * counts. Linear in the depth, however deep. */
	for (j = 1; j < TOP_CANDIDATES; j++) {
		if (top[j] == NULL || top[j]->score / top[0]->score < NEAR_TOP)
			continue;
		for (p = top[j]->node->parent; cn(p) != NULL; p = p->parent)
			cn(p)->shared++;
	}
	for (p = top[0]->node->parent; p != NULL && p != ct->body &&
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
	return common;
}

/*
 * Climb from t to the first ancestor candidate that scores better, as
 * long as none on the way scores under a third of t; then on through
 * ancestors of which the content is the only child.
 */
static xmlNode *
climb(const struct content *ct, xmlNode *t)
{
	struct cnode *c = cn(t), *pc;
	xmlNode *p;
	double last, thresh;

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

xmlNode *
content_choose_top(struct content *ct)
{
	struct cnode *top[TOP_CANDIDATES] = { NULL };
	xmlNode *common;

	rank_candidates(ct, top);
	if (top[0] == NULL || top[0]->node == ct->body)
		return NULL;
	common = shared_ancestor(ct, top);
	return climb(ct, common != NULL ? common : top[0]->node);
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
		    content_data_table(n->parent, p));
	}
}

double
content_select(struct content *ct, xmlNode *top, int flags)
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
			ld = content_link_density(c);
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
		content_tally_tree(ct, k, CLEAN_ARTICLE, flags);
		total += c->t.chars;
	}
	return link >= LISTING_LINK_SHARE * raw ? 0 : total;
}
