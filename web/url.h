/*
 * url: URL resolution and normalisation, built on libcurl's URL API
 * (curl_url). Every URL nearcrawl stores or compares has gone through
 * url_normalize or url_resolve, so equal strings mean equal resources.
 *
 * Normal form: http or https only; scheme and host lower-case; default port
 * (80 for http, 443 for https) dropped; fragment dropped; dot segments
 * removed; empty path becomes "/"; no user or password part kept; spaces,
 * controls and non-ASCII bytes percent-encoded; hex digits of every escape
 * upper-case (escapes are otherwise kept as given: %7E stays %7E). Tabs and
 * newlines inside, and white space around, a URL or ref are ignored, and a
 * backslash before the query means a slash, as in browsers.
 */
/*
 * Hosts must be plain: ASCII letters, digits, '.', '-', '_', or an IPv4 or
 * bracketed IPv6 literal without zone id; others (raw or escaped non-ASCII
 * bytes, '%') are refused with "host not a plain name or address".
 */
#ifndef NC_URL_H
#define NC_URL_H

#include <stddef.h>

/* URLs longer than this (after normalisation) are refused. */
#define URL_MAX_LEN 2048

/*
 * Normalise an absolute URL. Returns a malloc'd string the caller frees, or
 * NULL with *why set to a static reason ("not http(s)", "too long",
 * "malformed", "out of memory").
 */
char *url_normalize(const char *url, const char **why);

/*
 * Resolve ref against base (an absolute URL, as in an href on the page at
 * base) and normalise the result. Refs with other schemes (javascript:,
 * mailto:, data:, ftp: ...) are refused with *why "not http(s)".
 * Returns a malloc'd string or NULL as url_normalize does.
 */
char *url_resolve(const char *base, const char *ref, const char **why);

/*
 * A base prepared once for resolving many refs against it: a page's links.
 * Resolving through it gives exactly what url_resolve(base, ref) gives; refs
 * made of plain characters (letters, digits, "-._~!$&'()*+,;=:@/?") that
 * are relative or point into the base's own origin are joined by string
 * work, without a parse, when the base is in normal form.
 */
struct url_base {
	const char *raw;    /* the base as given (not owned), or NULL */
	char *norm;         /* its normal form when it already was one, or
	                       NULL: then every ref takes the slow path */
	size_t origin_len;  /* bytes of "scheme://host[:port]" in norm */
	size_t dir_len;     /* bytes of norm up to its path's last '/' */
	size_t path_end;    /* bytes of norm before its query */
};

/*
 * Prepare b for base (may be NULL: then only absolute refs resolve). The
 * caller keeps base alive while b is used. Returns 0, or -1 when out of
 * memory. url_base_free releases it.
 */
int url_base_init(struct url_base *b, const char *base);

/* Release what url_base_init allocated; b may be zeroed or NULL. */
void url_base_free(struct url_base *b);

/* url_resolve(b->raw, ref, why), faster; same results and failures. */
char *url_base_resolve(const struct url_base *b, const char *ref,
    const char **why);

/*
 * Copy the lower-case host name (no port, IPv6 without brackets) of a
 * normalised URL into out. Returns 0, or -1 when the URL has no host or the
 * host does not fit in outsz bytes.
 */
int url_host(const char *url, char *out, size_t outsz);

/*
 * Copy "scheme://host[:port]" of a normalised URL into out (the robots.txt
 * authority). Returns 0 or -1 as url_host does.
 */
int url_origin(const char *url, char *out, size_t outsz);

#endif
