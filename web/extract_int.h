/*
 * extract_int: what extract.c (the walk over the document) hands to
 * extract_links.c (the links, once the walk is over), and the element
 * table extract_elems.c keeps for the walk. Not for use outside
 * web/extract*.c. It includes neither extract.h nor url.h, so that
 * extract.c and it do not depend on each other in a circle.
 */
#ifndef NC_EXTRACT_INT_H
#define NC_EXTRACT_INT_H

#include <stddef.h>
#include <stdint.h>

struct extract_result;
struct url_base;

/* What an element is to the walk (bits of extract_elem_flags). */
enum {
	E_BLOCK = 1 << 0,   /* separates words */
	E_DROP = 1 << 1,    /* no text from it, but links and meta still */
	E_SKIP = 1 << 2,    /* not entered at all */
	E_HEADING = 1 << 3, /* h1..h6 */
};

/* The E_* bits of the element called elem (lower case, as libxml2 names
 * HTML elements; NULL or unknown: 0). Cannot fail. */
unsigned extract_elem_flags(const char *elem);

/* A link's text in the walk's anchor text, and whether main_text holds
 * it. */
struct anchor {
	const char *href;     /* its href, in the doc */
	size_t start, end;    /* its text: anchor text[start..end) */
	size_t tstart, tend;  /* ... and the body text's bytes it spans */
	size_t mstart, mend;  /* ... and main text's, when in_main */
	int in_main;          /* opened inside main content */
	uint32_t target;      /* a hash of where it leads, 0 for nowhere a
	                         crawler goes (extract_make_anchors) */
};

/*
 * Set up *eff, the base the page's links resolve against: base_href (the
 * first <base href>, or NULL) resolved against page_url, else page_url
 * (which may be NULL). Returns 0, or -1 on no memory; either way
 * url_base_free(eff) and free(*base) after.
 */
int extract_link_base(const char *base_href, const char *page_url,
    struct url_base *eff, char **base);

/*
 * Resolve the ncand raw link targets cand against eff in document order,
 * each URL once, at most max links, into r->links (and count those too
 * long in r->links_too_long). Returns 0 or -1 on no memory.
 */
int extract_make_links(const char *const *cand, size_t ncand,
    const struct url_base *eff, size_t max, struct extract_result *r);

/*
 * Resolve each of the nanch links anch once against eff, setting its
 * target; and split the text (in text) of those that main_text holds (all
 * of them when fell_back: main fell back to the whole text) into
 * r->anchors_same and r->anchors_other by where they lead, compared with
 * page_url's host. Returns 0, or -1 on no memory.
 */
int extract_make_anchors(struct anchor *anch, size_t nanch,
    const char *text, const struct url_base *eff, const char *page_url,
    int fell_back, struct extract_result *r);

/*
 * The spans of the nanch links anch in the body text (r->text_links) and
 * in main_text (r->main_links: those main_text holds, or all of them when
 * main_is_text, main_text being the body text), each with its target as
 * extract_make_anchors set it (links that lead nowhere a crawler goes are
 * left out), spans past a text's end cut off. Call after the texts are in
 * r. Returns 0, or -1 on no memory.
 */
int extract_make_link_spans(const struct anchor *anch, size_t nanch,
    int main_is_text, struct extract_result *r);

#endif
