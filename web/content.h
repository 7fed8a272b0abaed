/*
 * content: which part of a parsed HTML page is its main content, the
 * article without the site's template.
 *
 * The method is candidate scoring in the manner of Arc90's Readability (as
 * Mozilla's Readability.js and readability-lxml carry it on), written here
 * from its published description:
 *  1. Paragraph-like blocks (p, pre, td, section, h2..h6, a div without
 *     block children, a run of inline content inside a div that has some)
 *     with at least 25 characters score 2 + their commas + 1 per 100
 *     characters (at most 3). The score goes to the block's parent in
 *     full, its grandparent by half and the next three ancestors by a third
 *     of their level. An ancestor starts with a bonus or malus for its tag
 *     (div +5; pre, td, blockquote +3; lists and forms -3; headings -5)
 *     and for words in its class and id (-25 for words of comments,
 *     footers, sidebars, sharing, ads...; +25 for article, content, post,
 *     story, text...).
 *  2. Each candidate's score is scaled by 1 - its link density; the best
 *     one is moved to a common ancestor when several near-best candidates
 *     share it, climbed while its parent scores better, and joined by
 *     those siblings that score at least a fifth of it or are long,
 *     link-free paragraphs.
 *  3. Inside the chosen content, footer, aside, buttons, small "share"
 *     blocks and headings with a malus go; forms, fieldsets, tables, lists
 *     and divs go when their class scores a malus, or when their link
 *     density, image, input and list counts show a menu, gallery or form
 *     rather than text (Readability's conditional cleaning).
 *  Blocks inside it whose class/id names template (breadcrumb, tools,
 *  nav...) go too when short or mostly links.
 *  Before scoring, subtrees whose class or id names template (header,
 *  footer, sidebar, menu, comments, social, pagination...) or whose role is
 *  navigation-like are left out -- but never one that holds at least half
 *  of the page's non-link text while the rest of the page holds less than
 *  500 characters of its own: a word on an ancestor of the article only
 *  lowers scores (a gallery or comment thread beside an article still
 *  goes). Hidden elements (hidden, aria-hidden, display:none) are left
 *  out.
 *  4. When the content holds under 500 characters, when it is the body
 *  itself, or when half of it is link text (a listing), the selection is run
 *  again without the class/id removal, then without class/id scores, then
 *  without conditional cleaning. When none of the runs reaches 500
 *  characters there is no confident main content, and the result degrades
 *  to the body without its template: nav, aside, form, search, header and
 *  footer outside article/main, navigation-like roles, elements whose
 *  class or id holds a template word (whole words: nav, menu, sidebar, ad,
 *  share, pagination, counter...), and blocks of short links (menus: link
 *  density and link-text length, boilerpipe's shallow text features). Link
 *  lists of other kinds stay, so a listing page's main text is its items'
 *  titles. None of these ever removes a subtree that holds at least half
 *  of the page's non-link text; and when they would leave only a stray
 *  line (under 50 characters, less than the template around it: a visitor
 *  counter), the whole body is the main content.
 *
 * Per-node data is kept in a table owned by struct content and reached
 * through each element's _private pointer, which nothing else uses.
 */
#ifndef NC_CONTENT_H
#define NC_CONTENT_H

#include <libxml/tree.h>

/* Elements past this many are not analysed (the table would take over
 * 30 MiB): main content is then the whole text. */
#define CONTENT_MAX_NODES (1u << 18)
/* Characters the content must hold to count as found (Readability's). */
#define CONTENT_MIN_CHARS 500

enum content_mark {
	CONTENT_NONE = 0, /* decided by its ancestors */
	CONTENT_IN,       /* a root of main content */
	CONTENT_OUT,      /* a subtree left out of main content */
};

struct content;

/*
 * Whether an element carries no text at all for the body text (script,
 * style, img...): its subtree is not looked at. Returns 1 or 0.
 */
typedef int (*content_silent_fn)(const xmlNode *n);

/*
 * Analyse doc and mark its main content. silent tells which elements the
 * text leaves out. *found is set to 1 when a confident main content was
 * found, 0 when the marks degrade to the body without its template (also
 * for pages past CONTENT_MAX_NODES elements, and for a NULL doc). Returns
 * the analysis, to be freed with content_free before doc; NULL on no
 * memory. Sets the _private pointer of doc's elements.
 */
struct content *content_analyze(xmlDoc *doc, content_silent_fn silent,
    int *found);

/*
 * The mark of element n (content_mark); CONTENT_NONE for other nodes and
 * when c is NULL. Text belongs to main content when its nearest marked
 * ancestor is CONTENT_IN.
 */
enum content_mark content_mark_of(const struct content *c, const xmlNode *n);

/* Free c and clear the _private pointers it set. Safe on NULL. */
void content_free(struct content *c);

#endif
