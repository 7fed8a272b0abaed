/*
 * urlfilter: which URLs a crawl follows, on top of url.h's normal form --
 * the scope test of a host against the allowed domains, the crawler-trap
 * test of a path, and the stripping of listed query and path parameters
 * (--strip-params). Every function reads a URL already normalised by
 * url_normalize or url_resolve.
 */
#ifndef NC_URLFILTER_H
#define NC_URLFILTER_H

#include <stddef.h>

/*
 * Whether host is one of the n domains or a subdomain of one: "www.a.org"
 * is in "a.org"; "xa.org" is not. Comparison ignores case. Returns 1 or 0.
 */
int urlfilter_host_in_domains(const char *host, char *const *domains, size_t n);

/* Paths deeper than this many segments are taken for traps. */
#define URL_MAX_SEGMENTS 32

/*
 * Whether the path of a normalised URL looks like a crawler trap: more
 * than URL_MAX_SEGMENTS segments, or a run of one to four segments
 * repeated three times in a row (/a/b/a/b/a/b/: relative links resolved
 * against themselves). Returns 1 or 0.
 */
int urlfilter_path_trapped(const char *url);

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
const char *urlfilter_param_list_check(const char *names);

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
int urlfilter_strip_params(
    const char *url, const char *names, char *out, size_t outsz);

/*
 * URL patterns (--accept-regex, --reject-regex): POSIX extended regular
 * expressions matched anywhere in the whole normalised URL (anchor them
 * with ^ and $), as wget2's. A URL is allowed when it matches one of the
 * accept patterns (or there are none) and none of the reject patterns.
 */
struct urlfilter_patterns;

/*
 * Compile the na accept and nr reject patterns into *out (NULL when there
 * are none). Returns 0, or -1 with why in err: the pattern and the
 * library's message, or out of memory.
 */
int urlfilter_patterns_new(char *const *accept, size_t na,
    char *const *reject, size_t nr, struct urlfilter_patterns **out,
    char *err, size_t errsz);

/* Whether url is allowed (1) or not (0); p NULL allows everything. */
int urlfilter_patterns_allow(const struct urlfilter_patterns *p,
    const char *url);

/* Why a pattern is unusable (a static message naming the problem), or
 * NULL when it compiles: for the settings' check. */
const char *urlfilter_pattern_check(const char *re);

void urlfilter_patterns_free(struct urlfilter_patterns *p);

#endif
