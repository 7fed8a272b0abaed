/*
 * sitemap: a parser for the sitemaps that robots.txt points to
 * (sitemaps.org protocol). No networking: the crawler fetches the file and
 * hands the bytes to sitemap_parse, which returns the page URLs to seed the
 * frontier with and the nested sitemap files to fetch next.
 *
 * Accepted forms, told apart by content and never by file name:
 *   - gzip-compressed data (starts with 1f 8b), inflated first;
 *   - XML with an <urlset> or <sitemapindex> root: <loc> children of <url>
 *     are page URLs, <loc> children of <sitemap> are sitemap files.
 *     Elements match by local name in any namespace and any letter case;
 *     a <loc> deeper down (such as <image:loc> in <image:image>) is not
 *     taken;
 *   - plain text, one URL per line, when the data (after an optional UTF-8
 *     BOM and white space) does not start with '<'.
 *
 * Hostile input is expected: inflated data is capped, the URL count is
 * capped, declared XML entities are never expanded and external entities
 * or DTDs never loaded (libxml2's SAX2 parser with handlers for elements
 * and text only, no tree), and libxml2 prints nothing.
 */
#ifndef NC_SITEMAP_H
#define NC_SITEMAP_H

#include <stddef.h>

/* Protocol limit on an uncompressed sitemap; bytes past it are ignored. */
#define SITEMAP_MAX_BYTES (50 * 1024 * 1024)

/* Protocol limit on URLs per file; urls and sitemaps together. */
#define SITEMAP_MAX_URLS 50000

struct sitemap {
	char **urls;      /* page URLs in file order, each malloc'd */
	size_t nurls;     /* entries in urls */
	char **sitemaps;  /* nested sitemap file URLs, each malloc'd */
	size_t nsitemaps; /* entries in sitemaps */
	int truncated;    /* 1 when a cap (bytes or URLs) cut something off */
};

/*
 * Parse len bytes of a sitemap into *out. Every URL kept has gone through
 * url_normalize; relative, malformed, too long and non-http(s) ones are
 * dropped silently. In XML, character references and the five predefined
 * entities (&amp; ...) are decoded; any other "&name;" (entities a DOCTYPE
 * declares included) and any raw '&' read as plain text. XML errors after
 * the root element are recovered from: what parses is kept.
 * Past SITEMAP_MAX_BYTES of (inflated) data or SITEMAP_MAX_URLS URLs the
 * rest is ignored and out->truncated is set: a gzip bomb or a cut-off gzip
 * stream still yields what came before, it is not an error.
 *
 * Returns 0, or -1 with *why set to a static reason: "not a sitemap" (empty,
 * XML with another root element, text holding NUL bytes), "bad gzip data"
 * or "out of memory". On -1 *out is zeroed and holds nothing to free; on 0
 * the caller releases it with sitemap_free. data is not kept.
 *
 * Not safe to run in two threads at once: it silences libxml2's
 * (thread-local or global, depending on the build) error handlers while
 * parsing and restores them afterwards.
 */
int sitemap_parse(const char *data, size_t len, struct sitemap *out,
    const char **why);

/* Free every URL and both arrays; *s is left zeroed. NULL is accepted. */
void sitemap_free(struct sitemap *s);

#endif
