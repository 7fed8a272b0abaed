/*
 * content_int: what the files of the main-content analysis share -- the
 * per-element table, its bits, and the steps each file provides:
 *   content.c           entry points and the runs (calls all below)
 *   content_score.c     Readability's candidate scoring and choosing
 *   content_fallback.c  the body without its template, when none is found
 *   content_tally.c     tallies, cleaning rules, what a run resets
 *   content_words.c     what class, id and role attributes say
 * Each file calls only those listed after it. Not for use outside
 * web/content*.c; it does not include content.h, so that no file of the
 * analysis and its header depend on each other in a circle. The short
 * static inline helpers (cn, is, is_heading, next_node) are these files'
 * shorthand.
 */
#ifndef NC_CONTENT_INT_H
#define NC_CONTENT_INT_H

#include <stddef.h>
#include <string.h>

#include <libxml/tree.h>

/* The shortest paragraph that scores; also the least plain text of a
 * protected subtree. */
#define PARA_MIN_CHARS 25

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

/* Kinds of ancestor an element has, found once, top-down. */
enum {
	A_CODE = 1,    /* pre or code */
	A_TABLE = 2,   /* table */
	A_CONTENT = 4, /* article or main */
};

/* How content_tally_tree treats what the cleaning rules reject. */
enum { CLEAN_NONE, CLEAN_ARTICLE };

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
	unsigned char holds; /* an article or main element is inside it */
	unsigned char data;  /* inside a data table (this run's content) */
	unsigned shared;     /* near-top candidates it is an ancestor of */
	double own_chars;    /* characters of its own text children */
	double own_commas;   /* and their commas */
	unsigned char own_known; /* own_chars and own_commas measured */
};

struct content {
	struct cnode *n;   /* one per element under the document */
	size_t count;      /* entries in n */
	xmlNode *body;     /* body, or the root element */
	double body_plain; /* non-link characters of the body */
};

/* The table entry of element n, or NULL. */
static inline struct cnode *
cn(const xmlNode *n)
{
	return n != NULL && n->type == XML_ELEMENT_NODE ?
	    (struct cnode *)n->_private : NULL;
}

/* Whether n is a <name> element (libxml2 keeps HTML names lower-case).
 * The first letters are compared here: most tests fail on them, and the
 * analysis asks this millions of times a crawl. */
static inline int
is(const xmlNode *n, const char *name)
{
	const char *s = (const char *)n->name;

	return s != NULL && s[0] == name[0] && strcmp(s, name) == 0;
}

static inline int
is_heading(const xmlNode *n)
{
	return n->name != NULL && n->name[0] == 'h' && n->name[1] >= '1' &&
	    n->name[1] <= '6' && n->name[2] == '\0';
}

/* The next node after n in document order within root; skip: not into n. */
static inline xmlNode *
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

/* The share of c's characters inside links. */
static inline double
content_link_density(const struct cnode *c)
{
	return c->t.chars > 0 ? c->t.link / c->t.chars : 0;
}

/* ---- content_tally.c ---- */

/* Add the characters of str, white-space runs between words as one, to
 * *chars and its commas to *commas. */
void content_measure(const char *str, double *chars, double *commas);

/* Whether table n (tallied) holds data rather than page layout. */
int content_data_table(const xmlNode *n, const struct cnode *c);

/*
 * Tally every element under root (root included) bottom-up, leaving out
 * nodes with a state bit. With mode CLEAN_ARTICLE, elements that the
 * cleaning rules reject are marked S_CLEAN on the way up, children before
 * parents, and count for nothing in their ancestors.
 */
void content_tally_tree(struct content *ct, xmlNode *root, int mode,
    int flags);

/* Clear what a run set: candidate scores, marks, S_STRIP and S_CLEAN. */
void content_reset_run(struct content *ct);

/* Whether the subtree of c holds so much of the page's plain text that
 * nothing may cut it. */
int content_protected(const struct content *ct, const struct cnode *c);

/* ---- content_score.c ---- */

/* Score the paragraphs under the (tallied) body into their ancestors. */
void content_score_tree(struct content *ct, int flags);

/* The best candidate after Readability's moves, or NULL for the body. */
xmlNode *content_choose_top(struct content *ct);

/*
 * Mark the top candidate and the siblings that join it CONTENT_IN;
 * returns their characters after cleaning, or 0 when they are mostly link
 * text: a listing page, whose content is its links, which cleaning would
 * take away.
 */
double content_select(struct content *ct, xmlNode *top, int flags);

/* ---- content_fallback.c ---- */

/*
 * Mark the body IN and its template OUT (through S_CLEAN); when that
 * leaves a stray line (a visitor counter, a copyright line), leave the
 * whole body in instead.
 */
void content_degrade(struct content *ct);

/* ---- content_words.c ---- */

/* Case-insensitive substring test of s (may be NULL) over a NULL-ended
 * list. */
int content_has_sub(const char *s, const char *const *list);

/* Whether n's role attribute holds one of roles as a whole word. */
int content_role_in(const xmlNode *n, const char *const *roles);

/* Readability's score for n's class and id words (0 without F_WEIGHT). */
int content_class_weight(const xmlNode *n, int flags);

/* Whether n is hidden: hidden, aria-hidden, display:none... */
int content_is_hidden(const xmlNode *n);

/* Whether n's class and id name template to strip before scoring, with
 * no word that says it may be content. */
int content_unlikely_named(const xmlNode *n);

/* Whether n's role is one stripped before scoring (menu, dialog...). */
int content_unlikely_role(const xmlNode *n);

/* Whether n's class or id holds a whole word that names template. */
int content_template_named(const xmlNode *n);

/* Whether n's role names template (navigation, banner, search...). */
int content_template_role(const xmlNode *n);

/* Whether n's class or id is a page's header or footer. */
int content_page_part_named(const xmlNode *n);

/* Whether n's class or id names sharing buttons. */
int content_share_named(const xmlNode *n);

/*
 * Whether element n (tallied as c) is the page's own furniture: a header,
 * footer, navigation or aside outside article and main, by tag, by a
 * template role, or by the word footer in its class or id when no
 * article or main element is inside it. Such a
 * part is never the article nor its ancestor, however long its text (on
 * a thin page the footer's disclaimer is the longest block): it is never
 * protected from removal, and a run that chooses text inside it finds no
 * main content.
 */
int content_furniture(const xmlNode *n, const struct cnode *c);

#endif
