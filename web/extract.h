/*
 * extract: HTML page -> purified UTF-8 text, fields and outgoing links,
 * through libxml2's HTML parser (which tolerates any malformed input).
 *
 * Purification follows the research: only the text under <body>; script,
 * style, noscript, template, svg, math, img, picture, video, audio, object,
 * embed, iframe, frame, canvas, select and head-like elements dropped; anchor
 * text kept, URLs dropped; block-level elements and <br> separate words; all
 * runs of white space (including non-breaking space) collapsed to one
 * separator: a '\n' where a block boundary lies in the run, else an ASCII
 * space. So text is one block (paragraph, heading, list item, cell...) per
 * line, never two '\n' in a row, none leading or trailing, and with every
 * '\n' read as ' ' it is exactly the space-separated text of earlier
 * versions (md5_of_text reads it that way).
 *
 * main_text is the text of the page's main content, the article without
 * the site's template, written the same way, from the same walk. Which
 * elements are main content is decided by content.h: Readability-style
 * candidate scoring (Arc90 Readability as Mozilla's Readability.js and
 * readability-lxml carry it on: paragraphs scored by length and commas,
 * scores passed to ancestors, candidates scaled by link density, siblings
 * joined, conditional cleaning), where class/id words lower scores but
 * never remove a subtree holding most of the page's text. When no content
 * of at least 500 characters is found with confidence (short pages,
 * listing pages whose content is links), main_text degrades to the body
 * text without its template (nav, aside, form, header/footer outside
 * article and main, navigation roles, template words in class/id, menus of
 * short links) and keeps the item titles of link lists; and when that
 * would leave only a stray line (a visitor counter), to the whole text.
 * content.h has the details. main_found and main_share say which way it
 * went. main_text is valid UTF-8 and never longer than text.
 *
 * The bytes are decoded to UTF-8 first (charset.h); the order in which the
 * charset is chosen is given at extract_html.
 */
#ifndef NC_EXTRACT_H
#define NC_EXTRACT_H

#include <stddef.h>
#include <stdint.h>

/* Caps used when extract_opts leaves max_text or max_links at 0. */
#define EXTRACT_DEFAULT_MAX_TEXT  (1024 * 1024)
#define EXTRACT_DEFAULT_MAX_LINKS 1000
/* Cap on title, description and keywords (bytes, cut at a character). */
#define EXTRACT_FIELD_MAX 2048
/* Cap on the joined headings (bytes, cut at a character). */
#define EXTRACT_HEADINGS_MAX 8192
/* Cap on each of anchors_same and anchors_other (bytes, whole links). */
#define EXTRACT_ANCHORS_MAX 16384

struct extract_opts {
	const char *charset; /* from Content-Type, or NULL: then <meta>,
	                        then UTF-8 if valid, else windows-1252 */
	size_t max_text;     /* cap on text bytes; longer text is cut at a
	                        UTF-8 boundary and truncated is set */
	size_t max_links;    /* cap on links kept; the rest are dropped */
};                           /* 0 in a cap, or opts NULL: the defaults */

/* A link's text in text or main_text, and where it leads. */
struct extract_link {
	size_t start, end; /* its text: [start..end) of that text */
	uint32_t target;   /* a 32-bit hash of its resolved URL */
};

struct extract_result {
	char *text;        /* purified body text, UTF-8, never NULL */
	size_t text_len;   /* strlen(text) */
	char *main_text;   /* the main content's text (see the top), UTF-8,
	                      never NULL; "" only when text is "" */
	size_t main_len;   /* strlen(main_text) */
	int main_found;    /* 1: main_text is a content candidate found with
	                      confidence; 0: it degraded to the body text
	                      without its template (or all of text) */
	double main_share; /* main_len / text_len; 0 when text is "" */
	char *title;       /* <title> text, collapsed; "" when absent */
	char *headings;    /* h1..h6 texts joined by " | "; "" when none */
	char *description; /* <meta name=description> content; "" if none */
	char *keywords;    /* <meta name=keywords> content; "" if none */
	char *anchors_same;  /* text of the links in main_text that lead to
	                        the page's own host, joined by " "; "" if
	                        none (see extract_html) */
	char *anchors_other; /* ... and of those that lead to another host */
	struct extract_link *text_links; /* the links of text, in order */
	size_t ntext_links;              /* entries in text_links */
	struct extract_link *main_links; /* the links main_text holds */
	size_t nmain_links;              /* entries in main_links */
	char **links;      /* absolute normalised http(s) URLs to follow, in
	                      document order, each once; nofollow ones left out */
	size_t nlinks;     /* entries in links */
	size_t links_too_long; /* links left out: longer than URL_MAX_LEN
	                          once resolved (ever-deeper paths) */
	char *canonical;   /* the page's declared canonical URL: the href of
	                      its first <link rel=canonical> outside <body>,
	                      resolved as links are (<base> too), absolute,
	                      normalised, http(s); NULL when none or not such
	                      a URL */
	int nofollow;      /* meta robots says nofollow: links is empty */
	int noindex;       /* meta robots says noindex */
	int truncated;     /* text was cut at max_text */
	char charset[32];  /* the charset the bytes were decoded from */
};

/*
 * Parse html (len bytes, any encoding, need not be NUL-terminated) fetched
 * from page_url and fill r. Links honour <base href>, rel=nofollow (on a and
 * area) and <meta name=robots content=nofollow>; hrefs of a, area, frame and
 * iframe are taken. page_url may be NULL: then only absolute links are kept.
 *
 * anchors_same and anchors_other split the text of the <a href> links
 * whose text main_text holds (all links when main_text fell back to the
 * whole text; nofollow ones too: their text is the page's content either
 * way) by where they lead: each href resolved as links are, its host
 * compared with page_url's, a leading "www." ignored. With no page_url,
 * relative links count as the same host. Links to other schemes (mailto:,
 * javascript:) count as neither. Only the first 4096 links with text and
 * the first 64 KiB of link text are looked at; each string keeps whole
 * links up to its cap.
 *
 * Charset order: a byte-order mark, then o->charset, then a <meta charset>
 * or <meta http-equiv=Content-Type> in the first 8 KiB, then UTF-8 if the
 * bytes are valid UTF-8, else windows-1252. Labels are read as browsers do
 * (iso-8859-1 and us-ascii mean windows-1252, gb2312 means gb18030); an
 * unknown label is ignored. Bytes invalid in the charset become U+FFFD and
 * control characters become spaces, so every string in r is valid UTF-8.
 *
 * libxml2's error handlers of the calling thread are silenced for the
 * duration of the parse and restored after, so bad pages print nothing.
 * Any bytes parse (binary garbage gives whatever text it holds). Returns 0
 * on success; -1 with *why set to a static reason ("out of memory", or
 * "too large" past 512 MiB) on failure, when r holds nothing to free. On
 * success free r with extract_result_free.
 */
int extract_html(const char *html, size_t len, const char *page_url,
    const struct extract_opts *o, struct extract_result *r, const char **why);

/*
 * Whether a response is HTML: by its Content-Type value ct (text/html or
 * application/xhtml+xml), or, when ct is NULL, by data starting with '<'
 * after a UTF-8 byte-order mark and white space. Returns 1 or 0.
 */
int extract_is_html(const char *ct, const char *data, size_t len);

/* Copy the charset parameter of a Content-Type value ct (may be NULL) into
 * out, or "" when there is none; cut to outsz - 1 bytes. */
void extract_charset_of(const char *ct, char *out, size_t outsz);

/* Free everything r owns and zero it. Safe on a zeroed result. */
void extract_result_free(struct extract_result *r);

/* The target (extract_link.target) of a link to the normalised URL u: a
 * 32-bit hash of it, never 0. */
uint32_t extract_target_of(const char *u);

/*
 * Set up libxml2 once, on the main thread, before extract_html runs on
 * other threads (it parses on whichever thread calls it). Cannot fail.
 */
void extract_init_threads(void);

#endif
