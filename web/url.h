/*
 * url: URL resolution, normalisation and crawl scope, built on libcurl's URL
 * API (curl_url). Every URL nearcrawl stores or compares has gone through
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

/*
 * Whether host is one of the n domains or a subdomain of one: "www.a.org"
 * is in "a.org"; "xa.org" is not. Comparison ignores case. Returns 1 or 0.
 */
int url_host_in_domains(const char *host, char *const *domains, size_t n);

/* Paths deeper than this many segments are taken for traps. */
#define URL_MAX_SEGMENTS 32

/*
 * Whether the path of a normalised URL looks like a crawler trap: more
 * than URL_MAX_SEGMENTS segments, or a run of one to four segments
 * repeated three times in a row (/a/b/a/b/a/b/: relative links resolved
 * against themselves). Returns 1 or 0.
 */
int url_path_trapped(const char *url);

/*
 * Parameter stripping (--strip-params). A strip list is a comma-separated
 * list of parameter names, blanks around entries ignored. An entry ending
 * in '*' matches every name that starts with the rest ("utm_*"; "*" alone
 * matches all). Names compare case-insensitively with the URL's parameter
 * names after those are percent-decoded: "utm%5Fsource" is "utm_source".
 */

/*
 * Why the strip list names is unusable, or NULL when it is fine. Entries
 * must be non-empty and hold no blanks, controls or any of "%&=;#?/", and
 * '*' only at the end. The returned text is static.
 */
const char *url_param_list_check(const char *names);

/*
 * Copy the normalised url into out (outsz bytes) without the query
 * parameters that names matches, nor the path parameters ";NAME=VALUE" it
 * matches (Java servers put ";jsessionid=..." in the path). Everything else
 * keeps its order and bytes, except that once a query parameter goes, empty
 * ones ("a=1&&b") go too, and a query left empty loses its '?'. A path
 * parameter stays when removing it would leave a "." or ".." segment, which
 * would no longer be in normal form. names NULL or "" removes nothing. The
 * result is never longer than url. Returns 1 when something was removed, 0
 * when out is a plain copy, -1 when url does not fit in out (out is then ""
 * if outsz > 0).
 */
int url_strip_params(
    const char *url, const char *names, char *out, size_t outsz);

#endif
