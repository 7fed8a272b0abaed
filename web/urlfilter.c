/*
 * urlfilter: the URL filters of the crawl -- scope (a host in the allowed
 * domains), crawler traps read from the path, parameter stripping and
 * the user's URL patterns;
 * see urlfilter.h. They read normalised URLs (url.h) as strings.
 */
#include "web/urlfilter.h"

#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/chars.h"


/* Length of s without one trailing dot: "a.org." names the same host. */
static size_t
len_nodot(const char *s)
{
	size_t n = strlen(s);

	return n > 0 && s[n - 1] == '.' ? n - 1 : n;
}

int
urlfilter_host_in_domains(const char *host, char *const *domains, size_t n)
{
	size_t hl, dl, i;
	const char *d;

	if (host == NULL || domains == NULL)
		return 0;
	hl = len_nodot(host);
	for (i = 0; i < n; i++) {
		d = domains[i];
		if (d == NULL)
			continue;
		/* ".a.org" is a common way to write "a.org and below". */
		if (d[0] == '.')
			d++;
		dl = len_nodot(d);
		if (dl == 0 || dl > hl)
			continue;
		if (strncasecmp(host + hl - dl, d, dl) != 0)
			continue;
		if (dl == hl || host[hl - dl - 1] == '.')
			return 1;
	}
	return 0;
}

int
urlfilter_path_trapped(const char *url)
{
	const char *seg[URL_MAX_SEGMENTS + 1], *p;
	size_t len[URL_MAX_SEGMENTS + 1], n = 0, i, k, r;

	if ((p = strstr(url, "://")) == NULL || (p = strchr(p + 3, '/')) ==
	    NULL)
		return 0;
	while (*p == '/' && p[1] != '\0' && p[1] != '?') {
		if (n == URL_MAX_SEGMENTS)
			return 1;
		seg[n] = ++p;
		while (*p != '\0' && *p != '/' && *p != '?')
			p++;
		len[n] = (size_t)(p - seg[n]);
		n++;
	}
	/* A run of k segments ending at i, seen three times in a row. */
	for (k = 1; k <= 4; k++)
		for (i = 3 * k; i <= n; i++) {
			for (r = 0; r < k; r++) {
				size_t a = i - k + r, b = a - k, c = b - k;

				if (len[a] != len[b] || len[a] != len[c] ||
				    memcmp(seg[a], seg[b], len[a]) != 0 ||
				    memcmp(seg[a], seg[c], len[a]) != 0)
					break;
			}
			if (r == k)
				return 1;
		}
	return 0;
}

/*
 * Whether the raw parameter name [s, s + n), escapes decoded, is the entry
 * [e, e + m) of a strip list, or starts with it when prefix is set.
 */
static int
name_matches(const char *s, size_t n, const char *e, size_t m, int prefix)
{
	size_t i = 0, j = 0;
	int c;

	while (i < n && j < m) {
		c = (unsigned char)s[i];
		if (c == '%' && i + 2 < n &&
		    chars_hex_value((unsigned char)s[i + 1]) >= 0 &&
		    chars_hex_value((unsigned char)s[i + 2]) >= 0) {
			c = chars_hex_value((unsigned char)s[i + 1]) * 16 +
			    chars_hex_value((unsigned char)s[i + 2]);
			i += 3;
		} else {
			i++;
		}
		if (chars_ascii_lower((unsigned char)c) !=
		    chars_ascii_lower((unsigned char)e[j]))
			return 0;
		j++;
	}
	return j == m && (prefix || i == n);
}

/* The next entry of a strip list at *list: [*e, *e + *m), '*' cut off. */
static int
next_entry(const char **list, const char **e, size_t *m, int *prefix)
{
	const char *p = *list, *end;

	if (*p == '\0')
		return 0;
	p += strspn(p, " \t");
	end = p + strcspn(p, ",");
	*list = *end == ',' ? end + 1 : end;
	while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	*e = p;
	*m = (size_t)(end - p);
	*prefix = *m > 0 && p[*m - 1] == '*';
	if (*prefix)
		(*m)--;
	return 1;
}

/* Whether the raw name [s, s + n) is on the strip list names. */
static int
on_list(const char *names, const char *s, size_t n)
{
	const char *e;
	size_t m;
	int prefix;

	while (next_entry(&names, &e, &m, &prefix))
		if ((m > 0 || prefix) && name_matches(s, n, e, m, prefix))
			return 1;
	return 0;
}

/* Whether the parameter [s, s + n), "name" or "name=value", is listed. */
static int
param_listed(const char *names, const char *s, size_t n)
{
	const char *eq = memchr(s, '=', n);

	return on_list(names, s, eq != NULL ? (size_t)(eq - s) : n);
}

const char *
urlfilter_param_list_check(const char *names)
{
	const char *e;
	size_t m, i;
	int prefix;

	if (names == NULL || *names == '\0')
		return "the list is empty";
	while (next_entry(&names, &e, &m, &prefix)) {
		if (m == 0 && !prefix)
			return "an entry of the list is empty";
		for (i = 0; i < m; i++) {
			if (e[i] == '*')
				return "'*' may only end a name";
			if ((unsigned char)e[i] <= 0x20 || e[i] == 0x7f ||
			    strchr("%&=;#?/", e[i]) != NULL)
				return "a name may not hold blanks, controls "
				       "or any of %&=;#?/";
		}
	}
	return NULL;
}

/* Copy a path [p, end) into out at *o, leaving out the path parameters
 * names matches. Returns 1 when one went, else 0. */
static int
strip_path(
    const char *p, const char *end, const char *names, char *out, size_t *o)
{
	const char *seg, *semi, *piece, *next;
	size_t baselen;
	int removed = 0;

	while (p < end) {
		if (*p == '/') {
			out[(*o)++] = *p++;
			continue;
		}
		seg = p;
		while (p < end && *p != '/')
			p++;
		semi = memchr(seg, ';', (size_t)(p - seg));
		baselen = (size_t)((semi != NULL ? semi : p) - seg);
		memcpy(out + *o, seg, baselen);
		*o += baselen;
		if (semi == NULL)
			continue;
		/* "..;x=1" is a plain segment; without its parameter it
		 * would be a dot segment, which normal form has none of. */
		if ((baselen == 1 && seg[0] == '.') ||
		    (baselen == 2 && seg[0] == '.' && seg[1] == '.')) {
			memcpy(out + *o, semi, (size_t)(p - semi));
			*o += (size_t)(p - semi);
			continue;
		}
		for (piece = semi; piece < p; piece = next) {
			next = memchr(piece + 1, ';', (size_t)(p - piece - 1));
			if (next == NULL)
				next = p;
			/* Only "name=value": a bare ";x" may be part of a
			 * file name. */
			if (memchr(piece + 1, '=',
			        (size_t)(next - piece - 1)) != NULL &&
			    param_listed(
			        names, piece + 1, (size_t)(next - piece - 1))) {
				removed = 1;
				continue;
			}
			memcpy(out + *o, piece, (size_t)(next - piece));
			*o += (size_t)(next - piece);
		}
	}
	return removed;
}

/* The end of the '&'-separated piece of a query that starts at s. */
static const char *
piece_end(const char *s, const char *end)
{
	const char *amp = memchr(s, '&', (size_t)(end - s));

	return amp != NULL ? amp : end;
}

/* Copy a query [q, end) (without its '?') into out at *o, leaving out the
 * parameters names matches. Returns 1 when one went, else 0. */
static int
strip_query(
    const char *q, const char *end, const char *names, char *out, size_t *o)
{
	const char *piece, *next;
	size_t kept = 0;
	int removed = 0;

	for (piece = q; !removed; piece = next + 1) {
		next = piece_end(piece, end);
		removed = param_listed(names, piece, (size_t)(next - piece));
		if (next == end)
			break;
	}
	if (!removed) {
		out[(*o)++] = '?';
		memcpy(out + *o, q, (size_t)(end - q));
		*o += (size_t)(end - q);
		return 0;
	}
	for (piece = q;; piece = next + 1) {
		next = piece_end(piece, end);
		if (next > piece &&
		    !param_listed(names, piece, (size_t)(next - piece))) {
			out[(*o)++] = kept++ == 0 ? '?' : '&';
			memcpy(out + *o, piece, (size_t)(next - piece));
			*o += (size_t)(next - piece);
		}
		if (next == end)
			break;
	}
	return 1;
}

int
urlfilter_strip_params(const char *url, const char *names, char *out, size_t outsz)
{
	const char *path, *query, *frag, *p;
	size_t len, o;
	int removed;

	if (outsz == 0)
		return -1;
	len = strnlen(url, outsz);
	if (len >= outsz) {
		out[0] = '\0';
		return -1;
	}
	if (names == NULL || *names == '\0') {
		memcpy(out, url, len + 1);
		return 0;
	}
	p = strstr(url, "://");
	path = p != NULL ? p + 3 + strcspn(p + 3, "/?#") : url;
	frag = url + strcspn(url, "#");
	query = path + strcspn(path, "?#");
	o = (size_t)(path - url);
	memcpy(out, url, o);
	removed = strip_path(path, query, names, out, &o);
	if (*query == '?')
		removed |= strip_query(query + 1, frag, names, out, &o);
	memcpy(out + o, frag, (size_t)(url + len - frag) + 1);
	return removed;
}

struct urlfilter_patterns {
	regex_t *accept, *reject;
	size_t na, nr;
};

/* Compile n patterns into a new array *out. 0, or -1 with err. */
static int
compile_all(char *const *re, size_t n, regex_t **out, size_t *done,
    char *err, size_t errsz)
{
	char msg[160];
	int rc;

	*out = NULL;
	*done = 0;
	if (n == 0)
		return 0;
	if ((*out = calloc(n, sizeof(**out))) == NULL) {
		snprintf(err, errsz, "out of memory");
		return -1;
	}
	for (; *done < n; (*done)++) {
		rc = regcomp(&(*out)[*done], re[*done], REG_EXTENDED | REG_NOSUB);
		if (rc != 0) {
			regerror(rc, &(*out)[*done], msg, sizeof(msg));
			snprintf(err, errsz, "\"%s\": %s", re[*done], msg);
			return -1;
		}
	}
	return 0;
}

static void
free_all(regex_t *r, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		regfree(&r[i]);
	free(r);
}

int
urlfilter_patterns_new(char *const *accept, size_t na, char *const *reject,
    size_t nr, struct urlfilter_patterns **out, char *err, size_t errsz)
{
	struct urlfilter_patterns *p;

	*out = NULL;
	if (na == 0 && nr == 0)
		return 0;
	if ((p = calloc(1, sizeof(*p))) == NULL) {
		snprintf(err, errsz, "out of memory");
		return -1;
	}
	if (compile_all(accept, na, &p->accept, &p->na, err, errsz) != 0 ||
	    compile_all(reject, nr, &p->reject, &p->nr, err, errsz) != 0) {
		urlfilter_patterns_free(p);
		return -1;
	}
	*out = p;
	return 0;
}

static int
any_match(const regex_t *r, size_t n, const char *url)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (regexec(&r[i], url, 0, NULL, 0) == 0)
			return 1;
	return 0;
}

int
urlfilter_patterns_allow(const struct urlfilter_patterns *p, const char *url)
{
	if (p == NULL)
		return 1;
	if (p->na > 0 && !any_match(p->accept, p->na, url))
		return 0;
	return !any_match(p->reject, p->nr, url);
}

const char *
urlfilter_pattern_check(const char *re)
{
	static _Thread_local char msg[200];
	regex_t r;
	int rc;

	if ((rc = regcomp(&r, re, REG_EXTENDED | REG_NOSUB)) == 0) {
		regfree(&r);
		return NULL;
	}
	regerror(rc, &r, msg, sizeof(msg));
	return msg;
}

void
urlfilter_patterns_free(struct urlfilter_patterns *p)
{
	if (p == NULL)
		return;
	free_all(p->accept, p->na);
	free_all(p->reject, p->nr);
	free(p);
}
