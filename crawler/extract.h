/*
 * extract: HTML page -> purified UTF-8 text, fields and outgoing links,
 * through libxml2's HTML parser (which tolerates any malformed input).
 *
 * Purification follows the research: only the text under <body>; script,
 * style, noscript, template, svg, math, img, picture, video, audio, object,
 * embed, iframe, frame, canvas, select and head-like elements dropped; anchor
 * text kept, URLs dropped; block-level elements and <br> separate words; all
 * runs of white space (including non-breaking space) collapsed to a single
 * ASCII space; no leading or trailing space.
 */
#ifndef NC_EXTRACT_H
#define NC_EXTRACT_H

#include <stddef.h>

struct extract_opts {
	const char *charset; /* from Content-Type, or NULL: then <meta>,
	                        then UTF-8 if valid, else windows-1252 */
	size_t max_text;     /* cap on text bytes; longer text is cut at a
	                        UTF-8 boundary and truncated is set */
	size_t max_links;    /* cap on links kept; the rest are dropped */
};

struct extract_result {
	char *text;        /* purified body text, UTF-8, never NULL */
	size_t text_len;   /* strlen(text) */
	char *title;       /* <title> text, collapsed; "" when absent */
	char *headings;    /* h1..h6 texts joined by " | "; "" when none */
	char *description; /* <meta name=description> content; "" if none */
	char *keywords;    /* <meta name=keywords> content; "" if none */
	char **links;      /* absolute normalised http(s) URLs to follow, in
	                      document order, each once; nofollow ones left out */
	size_t nlinks;     /* entries in links */
	int nofollow;      /* meta robots says nofollow: links is empty */
	int noindex;       /* meta robots says noindex */
	int truncated;     /* text was cut at max_text */
	char charset[32];  /* the charset the bytes were decoded from */
};

/*
 * Parse html (len bytes, any encoding, need not be NUL-terminated) fetched
 * from page_url and fill r. Links honour <base href>, rel=nofollow (on a and
 * area) and <meta name=robots content=nofollow>; hrefs of a, area, frame and
 * iframe are taken. Returns 0 on success; -1 with *why set to a static reason
 * when the input cannot be parsed at all or memory runs out. On failure r
 * holds nothing to free. On success free r with extract_result_free.
 */
int extract_html(const char *html, size_t len, const char *page_url,
    const struct extract_opts *o, struct extract_result *r, const char **why);

/* Free everything r owns and zero it. Safe on a zeroed result. */
void extract_result_free(struct extract_result *r);

#endif
