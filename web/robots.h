/*
 * robots: a robots.txt parser and matcher after RFC 9309. No networking:
 * the crawler fetches the file (following at most 5 redirects, caching the
 * result for at most 24 h) and hands the bytes to robots_parse, or picks
 * robots_allow_all (4xx) or robots_disallow_all (5xx, network error).
 *
 * A struct robots holds only the rules of the group(s) that apply to one
 * user agent: every group whose user-agent line names the crawler's product
 * token, merged; failing that, every "*" group, merged; failing that, none
 * (everything allowed). Sitemap: lines are kept from the whole file.
 *
 * Matching: the rule with the longest pattern (in octets, after the
 * percent-encoding normalisation below) that matches the path decides; an
 * allow beats a disallow of the same length; no match means allowed;
 * "/robots.txt" is always allowed. '*' matches any run of octets, a final
 * '$' anchors the pattern at the end of the path, any other '$' is literal.
 * Patterns match as prefixes, case-sensitively.
 *
 * Normalisation, applied alike to patterns and to paths before comparing:
 * %XX of an unreserved character (A-Z a-z 0-9 - . _ ~) is decoded, other
 * %xx escapes get upper-case hex digits, a '%' not followed by two hex
 * digits becomes "%25", and octets <= 0x20, 0x7f and >= 0x80 become %XX.
 * So "/a%7Eb" equals "/a~b" and "/%c3%a9" equals the UTF-8 "/é".
 *
 * A struct robots is immutable once built; it may be shared between
 * threads for reading.
 */
#ifndef NC_ROBOTS_H
#define NC_ROBOTS_H

#include <stddef.h>

/*
 * robots_parse reads at most this many bytes of a file; the rest is ignored,
 * and so is a line cut in two at this limit (RFC 9309 asks for at least
 * 500 KiB). Callers may stop downloading here.
 */
#define ROBOTS_MAX_BYTES (500 * 1024)

/* Rules kept per file for the chosen groups; further rules are dropped. */
#define ROBOTS_MAX_RULES 100000

/* Patterns longer than this after normalisation are dropped. */
#define ROBOTS_MAX_PATTERN 2048

/* Sitemap URLs kept per file, and the longest one kept. */
#define ROBOTS_MAX_SITEMAPS 1024
#define ROBOTS_MAX_SITEMAP_LEN 2048

struct robots;

/*
 * Parse len bytes of a robots.txt for the crawler whose product token is
 * agent (e.g. "nearcrawl"; compared case-insensitively, anything from a '/'
 * on is ignored; NULL or "" matches only "*" groups). Any bytes are
 * accepted: LF, CR or CRLF line ends, a UTF-8 BOM, NULs, binary garbage.
 * txt may be NULL when len is 0. Returns a struct robots the caller frees
 * with robots_free, or NULL when out of memory.
 */
struct robots *robots_parse(const char *txt, size_t len, const char *agent);

/* Rules that allow everything (robots.txt answered 4xx). NULL on OOM. */
struct robots *robots_allow_all(void);

/*
 * Rules that disallow everything but "/robots.txt" (robots.txt answered
 * 5xx or could not be fetched). NULL on OOM.
 */
struct robots *robots_disallow_all(void);

/* Free r and everything it owns, sitemap strings included. NULL is a no-op. */
void robots_free(struct robots *r);

/*
 * Whether path may be fetched: path is the URL's path, plus "?" and the
 * query when there is one, percent-encoded as it is in the URL ("/a/b?x=1").
 * NULL or "" is taken as "/". Returns 1 allowed, 0 disallowed; also 0 when
 * r is NULL or when memory for normalising the path cannot be had, so that
 * failing is never impolite.
 */
int robots_allowed(const struct robots *r, const char *path);

/*
 * Crawl-delay of the chosen groups in seconds (the largest when they give
 * several), or -1 when they give none. Not clamped: the caller bounds it.
 */
double robots_crawl_delay(const struct robots *r);

/*
 * Set *out to the Sitemap: URLs of the whole file, in file order, duplicates
 * dropped, and return how many there are. The array and the strings belong
 * to r and live until robots_free. *out is NULL when there are none.
 */
size_t robots_sitemaps(const struct robots *r, const char ***out);

/* Number of allow and disallow rules in effect for the agent. */
size_t robots_rule_count(const struct robots *r);

/*
 * Copy the product token of a User-Agent header ("nearcrawl" from
 * "nearcrawl/0.1 (+https://example.org/bot)") into out: the leading run of
 * A-Z a-z _ - after any blanks, lower-cased. Returns 0, or -1 when ua is
 * NULL, the run is empty, or it does not fit in outsz bytes with its NUL.
 */
int robots_product_token(const char *user_agent, char *out, size_t outsz);

#endif
