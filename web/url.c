#include "web/url.h"

#include "util/chars.h"

#include <curl/curl.h>

#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/*
 * Input longer than this is refused before any work: even after dropping
 * white space and a fragment it could hardly normalise below URL_MAX_LEN.
 */
#define URL_RAW_MAX (4 * URL_MAX_LEN)

static const char WHY_SCHEME[] = "not http(s)";
static const char WHY_LONG[] = "too long";
static const char WHY_MALFORMED[] = "malformed";
static const char WHY_NOMEM[] = "out of memory";
static const char WHY_HOST[] = "host not a plain name or address";

static size_t normal_origin_len(const char *s);


static int
upper(int c)
{
	return c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c;
}

static int
is_hex(int c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
	    (c >= 'A' && c <= 'F');
}

static int
is_alpha(int c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

static int
is_digit(int c)
{
	return c >= '0' && c <= '9';
}

/*
 * Length of the RFC 3986 scheme at the start of s (without the colon), or
 * 0 when s does not start with one, i.e. s is a relative reference.
 */
static size_t
scheme_len(const char *s)
{
	size_t i;

	if (!is_alpha((unsigned char)s[0]))
		return 0;
	for (i = 1; s[i] != '\0'; i++) {
		int c = (unsigned char)s[i];

		if (c == ':')
			return i;
		if (!is_alpha(c) && !is_digit(c) && c != '+' && c != '-' &&
		    c != '.')
			return 0;
	}
	return 0;
}

static int
is_http_scheme(const char *s, size_t n)
{
	return (n == 4 && strncasecmp(s, "http", 4) == 0) ||
	    (n == 5 && strncasecmp(s, "https", 5) == 0);
}

/*
 * Clean an href the way browsers do before parsing: leading and trailing
 * C0 controls and spaces go, tabs and newlines anywhere go, the fragment
 * goes (curl rejects some fragments we would drop anyway), backslashes in
 * the path become slashes, and spaces and other controls are percent-encoded
 * here so that a space in the query becomes %20 rather than curl's "+".
 * Returns a malloc'd string, or NULL with *why set.
 */
static char *
clean_ref(const char *in, const char **why)
{
	static const char hex[] = "0123456789ABCDEF";
	const unsigned char *s = (const unsigned char *)in;
	size_t n, i, o = 0;
	int in_query = 0;
	char *out;

	n = strnlen(in, URL_RAW_MAX + 1);
	if (n > URL_RAW_MAX) {
		*why = WHY_LONG;
		return NULL;
	}
	while (n > 0 && s[0] <= 0x20) {
		s++;
		n--;
	}
	while (n > 0 && s[n - 1] <= 0x20)
		n--;
	out = malloc(3 * n + 1);
	if (out == NULL) {
		*why = WHY_NOMEM;
		return NULL;
	}
	for (i = 0; i < n && s[i] != '#'; i++) {
		unsigned char c = s[i];

		if (c == '\t' || c == '\n' || c == '\r')
			continue;
		if (c == '?')
			in_query = 1;
		if (c == '\\' && !in_query) {
			out[o++] = '/';
		} else if (c <= 0x20 || c == 0x7f) {
			out[o++] = '%';
			out[o++] = hex[c >> 4];
			out[o++] = hex[c & 0xf];
		} else {
			out[o++] = (char)c;
		}
	}
	out[o] = '\0';
	return out;
}

static const char *
curl_why(CURLUcode rc)
{
	return rc == CURLUE_OUT_OF_MEMORY ? WHY_NOMEM : WHY_MALFORMED;
}

/*
 * Produce the normal form from a handle that holds a parsed URL: strip the
 * parts we never keep, let curl drop the default port, then lower-case the
 * scheme and authority (curl keeps the host's case as given).
 */
/*
 * A host made only of numbers (decimal, 0x hex, 0 octal parts) that is not
 * a plain dotted quad: curl rewrites such a host to dotted IPv4 when it
 * parses it, but not when it arose from decoding escapes, so the result
 * would change on a second parse. [host, host + n) is lower case.
 */
static int
numeric_host_unsettled(const char *host, size_t n)
{
	size_t i = 0, parts = 0, digits;
	int plain = 1;

	if (n == 0 || host[0] == '[')
		return 0;
	while (i <= n) {
		digits = 0;
		if (i + 1 < n && host[i] == '0' && host[i + 1] == 'x') {
			plain = 0;
			for (i += 2; i < n && is_hex((unsigned char)host[i]); i++)
				digits++;
		} else {
			if (i + 1 < n && host[i] == '0' && is_digit(
			    (unsigned char)host[i + 1]))
				plain = 0;
			for (; i < n && is_digit((unsigned char)host[i]); i++)
				digits++;
		}
		if (i < n && host[i] != '.')
			return 0;
		if (digits == 0 && !(i == n && parts > 0))
			return 0;
		parts++;
		i++;
	}
	return !(plain && parts == 4);
}

/*
 * Put curl's URL text u into normal form in place: scheme and host
 * lower-case, hex digits of escapes upper-case. Returns 0, or -1 with
 * *why set when the host is not plain or u is malformed.
 */
static int
settle(char *u, const char **why)
{
	char *p, *host;
	size_t hostlen;

	if (strstr(u, "://") == NULL) {
		*why = WHY_MALFORMED;
		return -1;
	}
	for (p = u; *p != '\0' && *p != '/'; p++)
		*p = (char)chars_ascii_lower((unsigned char)*p);
	for (p += 2; *p != '\0' && *p != '/'; p++) {
		*p = (char)chars_ascii_lower((unsigned char)*p);
		/* Hosts are kept to plain DNS names, IPv4 and IPv6 literals
		 * without zone: curl would hand back escapes decoded to raw
		 * bytes, which it then refuses to parse again. */
		if (!is_alpha((unsigned char)*p) &&
		    !is_digit((unsigned char)*p) && strchr(".-_:[]", *p) == NULL) {
			*why = WHY_HOST;
			return -1;
		}
	}
	host = strstr(u, "://") + 3;
	hostlen = strcspn(host, ":/");
	if (numeric_host_unsettled(host, hostlen)) {
		*why = WHY_HOST;
		return -1;
	}
	/* RFC 3986 6.2.2.1: escapes are case-insensitive and upper case is
	 * the normal form; curl writes the ones it adds in lower case. */
	for (; *p != '\0'; p++)
		if (p[0] == '%' && is_hex((unsigned char)p[1]) &&
		    is_hex((unsigned char)p[2])) {
			p[1] = (char)upper((unsigned char)p[1]);
			p[2] = (char)upper((unsigned char)p[2]);
			p += 2;
		}
	return 0;
}

/* The normal form of the URL parsed into h, malloc'd, or NULL with *why
 * set. Drops user, password, options and fragment from h. */
static char *
handle_to_normal(CURLU *h, const char **why)
{
	CURLUcode rc;
	char *scheme = NULL, *got = NULL, *out = NULL;
	size_t len;

	rc = curl_url_get(h, CURLUPART_SCHEME, &scheme, 0);
	if (rc != CURLUE_OK) {
		*why = curl_why(rc);
		goto fail;
	}
	if (!is_http_scheme(scheme, strlen(scheme))) {
		*why = WHY_SCHEME;
		goto fail;
	}
	if ((rc = curl_url_set(h, CURLUPART_USER, NULL, 0)) != CURLUE_OK ||
	    (rc = curl_url_set(h, CURLUPART_PASSWORD, NULL, 0)) != CURLUE_OK ||
	    (rc = curl_url_set(h, CURLUPART_OPTIONS, NULL, 0)) != CURLUE_OK ||
	    (rc = curl_url_set(h, CURLUPART_FRAGMENT, NULL, 0)) != CURLUE_OK) {
		*why = curl_why(rc);
		goto fail;
	}
	rc = curl_url_get(h, CURLUPART_URL, &got, CURLU_NO_DEFAULT_PORT);
	if (rc != CURLUE_OK) {
		*why = curl_why(rc);
		goto fail;
	}
	len = strlen(got);
	if (len > URL_MAX_LEN) {
		*why = WHY_LONG;
		goto fail;
	}
	out = malloc(len + 1);
	if (out == NULL) {
		*why = WHY_NOMEM;
		goto fail;
	}
	memcpy(out, got, len + 1);
	if (settle(out, why) != 0) {
		free(out);
		out = NULL;
	}
fail:
	curl_free(scheme);
	curl_free(got);
	return out;
}

/* Parse the cleaned absolute URL s into h; 0 or -1 with *why set. */
static int
set_absolute(CURLU *h, const char *s, const char **why)
{
	size_t n = scheme_len(s);
	CURLUcode rc;

	if (n == 0) {
		*why = WHY_MALFORMED;
		return -1;
	}
	if (!is_http_scheme(s, n)) {
		*why = WHY_SCHEME;
		return -1;
	}
	rc = curl_url_set(h, CURLUPART_URL, s, CURLU_URLENCODE);
	if (rc != CURLUE_OK) {
		*why = curl_why(rc);
		return -1;
	}
	return 0;
}

char *
url_normalize(const char *url, const char **why)
{
	const char *dummy;
	char *clean = NULL, *out = NULL;
	CURLU *h = NULL;

	if (why == NULL)
		why = &dummy;
	if (url == NULL) {
		*why = WHY_MALFORMED;
		return NULL;
	}
	/* Most URLs handed in (a page's own, as its links' base) are normal
	 * already: no parse can change them. */
	if (normal_origin_len(url) > 0) {
		if ((out = strdup(url)) == NULL)
			*why = WHY_NOMEM;
		return out;
	}
	clean = clean_ref(url, why);
	if (clean == NULL)
		goto fail;
	h = curl_url();
	if (h == NULL) {
		*why = WHY_NOMEM;
		goto fail;
	}
	if (set_absolute(h, clean, why) != 0)
		goto fail;
	out = handle_to_normal(h, why);
fail:
	curl_url_cleanup(h);
	free(clean);
	return out;
}

char *
url_resolve(const char *base, const char *ref, const char **why)
{
	const char *dummy;
	char *cbase = NULL, *cref = NULL, *out = NULL;
	CURLU *h = NULL;
	CURLUcode rc;
	size_t n;

	if (why == NULL)
		why = &dummy;
	if (ref == NULL) {
		*why = WHY_MALFORMED;
		return NULL;
	}
	cref = clean_ref(ref, why);
	if (cref == NULL)
		goto fail;
	h = curl_url();
	if (h == NULL) {
		*why = WHY_NOMEM;
		goto fail;
	}
	n = scheme_len(cref);
	if (n > 0) {
		/* An absolute ref needs no base, and a broken base must not
		 * hide a good absolute link. */
		if (set_absolute(h, cref, why) != 0)
			goto fail;
		out = handle_to_normal(h, why);
		goto fail;
	}
	if (base == NULL) {
		*why = WHY_MALFORMED;
		goto fail;
	}
	cbase = clean_ref(base, why);
	if (cbase == NULL)
		goto fail;
	if (set_absolute(h, cbase, why) != 0)
		goto fail;
	/* "" and "#frag" both mean the base document itself; curl would
	 * treat an empty ref as an error. */
	if (cref[0] != '\0') {
		rc = curl_url_set(h, CURLUPART_URL, cref, CURLU_URLENCODE);
		if (rc != CURLUE_OK) {
			*why = curl_why(rc);
			goto fail;
		}
	}
	out = handle_to_normal(h, why);
fail:
	curl_url_cleanup(h);
	free(cbase);
	free(cref);
	return out;
}

/* ---- resolving many refs against one base ---- */

/*
 * Characters a ref may hold for the string-only path: unreserved and
 * sub-delims, ':', '@', '/', '?'. curl leaves all of them as they are;
 * anything else (escapes, spaces, non-ASCII, '\\', brackets ...) takes the
 * parse.
 */
static int
plain_ref_char(unsigned char c)
{
	/* Bit c, and bit c - 64, of the set above. */
	static const uint64_t lo = 0xafffffd200000000ULL;
	static const uint64_t hi = 0x47fffffe87ffffffULL;

	return c < 64 ? (int)(lo >> c & 1) : c < 128 ?
	    (int)(hi >> (c - 64) & 1) : 0;
}

int
url_base_init(struct url_base *b, const char *base)
{
	const char *why = NULL, *p, *q;

	memset(b, 0, sizeof(*b));
	b->raw = base;
	if (base == NULL)
		return 0;
	b->norm = url_normalize(base, &why);
	if (b->norm == NULL)
		return why == WHY_NOMEM ? -1 : 0;
	if (strcmp(b->norm, base) != 0) {
		/* Not in normal form: the parse must see it as given. */
		free(b->norm);
		b->norm = NULL;
		return 0;
	}
	p = strstr(b->norm, "://") + 3;
	p += strcspn(p, "/");
	b->origin_len = (size_t)(p - b->norm);
	b->path_end = b->origin_len + strcspn(p, "?");
	/* curl merges against a path with empty segments its own way. */
	if (memmem(p, b->path_end - b->origin_len, "//", 2) != NULL) {
		free(b->norm);
		b->norm = NULL;
		return 0;
	}
	for (q = b->norm + b->path_end; q > p && q[-1] != '/'; q--)
		;
	b->dir_len = (size_t)(q - b->norm);
	return 0;
}

void
url_base_free(struct url_base *b)
{
	if (b == NULL)
		return;
	free(b->norm);
	memset(b, 0, sizeof(*b));
}

/*
 * Remove the dot segments of the path [s, s + n) (it starts with '/') into
 * out, RFC 3986 section 5.2.4; returns the length written (at most n).
 * out may be s: the output never overtakes the input.
 */
static size_t
remove_dots(const char *s, size_t n, char *out)
{
	size_t i = 0, o = 0, seg;

	while (i < n) {
		assert(o <= i);
		/* s[i] is '/'; the segment runs to the next '/' or the end. */
		for (seg = i + 1; seg < n && s[seg] != '/'; seg++)
			;
		if (seg - i == 2 && s[i + 1] == '.') {
			i = seg;
			if (i == n)
				out[o++] = '/';
			continue;
		}
		if (seg - i == 3 && s[i + 1] == '.' && s[i + 2] == '.') {
			while (o > 0 && out[o - 1] != '/')
				o--;
			if (o > 0)
				o--;
			i = seg;
			if (i == n)
				out[o++] = '/';
			continue;
		}
		memmove(out + o, s + i, seg - i);
		o += seg - i;
		i = seg;
	}
	assert(o <= n);
	return o;
}

/* Whether [s, s + n) has a "." or ".." segment. */
static int
has_dot_segment(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] == '.' && (i == 0 || s[i - 1] == '/') &&
		    (i + 1 == n || s[i + 1] == '/' ||
		    (s[i + 1] == '.' && (i + 2 == n || s[i + 2] == '/'))))
			return 1;
	return 0;
}

/* Whether [s, s + n) is a dotted quad of decimals 0-255 without leading
 * zeros: an IPv4 host curl leaves as it is. */
static int
plain_quad(const char *s, size_t n)
{
	size_t i = 0, parts = 0, len;
	unsigned v;

	while (parts < 4) {
		for (len = 0, v = 0; i < n && is_digit((unsigned char)s[i]);
		    i++, len++)
			v = v * 10 + (unsigned)(s[i] - '0');
		if (len == 0 || len > 3 || v > 255 || (len > 1 && s[i - len] ==
		    '0'))
			return 0;
		if (++parts < 4 && (i == n || s[i++] != '.'))
			return 0;
	}
	return i == n;
}

/*
 * The length of "scheme://host[:port]" when s is certainly in normal form
 * already (url_normalize would give it back unchanged), else 0: lower-case
 * http or https; a host of lower-case letters, digits, '-' and non-empty
 * dot-separated labels, not one curl would rewrite as an IPv4 number; a
 * port, if any, of 1-65535 without leading zeros that is not the scheme's
 * default; then a path of plain characters without empty or dot segments,
 * and a query, if any, not empty. Anything else (escapes, upper case, a
 * fragment, user info, IPv6) is left to the parse.
 */
static size_t
normal_origin_len(const char *s)
{
	size_t i, host, o, n;
	unsigned long port = 0;
	int https = 0, numeric = 1, label = 0;

	if (strncmp(s, "http://", 7) == 0) {
		i = 7;
	} else if (strncmp(s, "https://", 8) == 0) {
		i = 8;
		https = 1;
	} else {
		return 0;
	}
	for (host = i; s[i] != '\0' && s[i] != ':' && s[i] != '/'; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '.') {
			if (label == 0)
				return 0;
			label = 0;
			continue;
		}
		if (!(c >= 'a' && c <= 'z') && !is_digit(c) && c != '-')
			return 0;
		/* A label that starts with a digit may be part of a number. */
		if (label++ == 0 && !is_digit(c))
			numeric = 0;
	}
	if (label == 0 || (numeric && !plain_quad(s + host, i - host)))
		return 0;
	if (s[i] == ':') {
		for (n = ++i; is_digit((unsigned char)s[i]) && i - n < 5; i++)
			port = port * 10 + (unsigned long)(s[i] - '0');
		if (i == n || s[n] == '0' || port > 65535 ||
		    port == (https ? 443UL : 80UL))
			return 0;
	}
	if (s[i] != '/')
		return 0;
	o = i;
	for (n = i; s[n] != '\0'; n++)
		if (!plain_ref_char((unsigned char)s[n]) || n >= URL_MAX_LEN)
			return 0;
	i = o + strcspn(s + o, "?");
	if (memmem(s + o, i - o, "//", 2) != NULL ||
	    has_dot_segment(s + o, i - o) || (s[i] == '?' && s[i + 1] ==
	    '\0'))
		return 0;
	return o;
}

/*
 * The string-only join: returns the result, or NULL with *slow set when
 * the ref needs the parse (or with *why set on no memory or too long).
 */
static char *
join_plain(const struct url_base *b, const char *ref, int *slow,
    const char **why)
{
	size_t rn, keep, n, pend, o;
	const char *r = ref;
	char *out;
	int colon = 0, first = 1;

	*slow = 1;
	for (rn = 0; ref[rn] != '\0' && ref[rn] != '#'; rn++) {
		unsigned char c = (unsigned char)ref[rn];

		/* A network-path ref, and empty segments anywhere: the
		 * parse. */
		if (!plain_ref_char(c) || rn >= URL_MAX_LEN ||
		    (c == '/' && rn > 0 && ref[rn - 1] == '/'))
			return NULL;
		if (c == '/' || c == '?')
			first = 0;
		else if (c == ':' && first)
			colon = 1;
	}
	if (scheme_len(ref) > 0) {
		/* Absolute: only into the base's own origin, spelt alike. */
		if (rn <= b->origin_len ||
		    strncmp(ref, b->norm, b->origin_len) != 0 ||
		    ref[b->origin_len] != '/')
			return NULL;
		r = ref + b->origin_len;
		rn -= b->origin_len;
		keep = b->origin_len;
	} else if (rn == 0) {
		keep = strlen(b->norm);
	} else if (ref[0] == '/') {
		keep = b->origin_len;
	} else if (ref[0] == '?') {
		keep = b->path_end;
	} else {
		keep = b->dir_len;
	}
	/* A colon in a relative ref's first segment reads as a scheme or a
	 * port to curl; and an empty query is dropped. */
	if (r == ref && colon)
		return NULL;
	if (rn > 0 && r[rn - 1] == '?')
		return NULL;
	*slow = 0;
	n = keep + rn;
	out = malloc(n + 1);
	if (out == NULL) {
		*why = WHY_NOMEM;
		return NULL;
	}
	memcpy(out, b->norm, keep);
	memcpy(out + keep, r, rn);
	out[n] = '\0';
	pend = b->origin_len + strcspn(out + b->origin_len, "?");
	if (has_dot_segment(out + b->origin_len, pend - b->origin_len)) {
		/* curl's dot removal treats empty segments, and a path
		 * ending in a dot segment before a query, its own way. */
		if (out[pend] == '?' || memmem(out + b->origin_len,
		    pend - b->origin_len, "//", 2) != NULL) {
			free(out);
			*slow = 1;
			return NULL;
		}
		o = b->origin_len + remove_dots(out + b->origin_len,
		    pend - b->origin_len, out + b->origin_len);
		memmove(out + o, out + pend, n - pend + 1);
		n = o + (n - pend);
	}
	if (n > URL_MAX_LEN) {
		free(out);
		*why = WHY_LONG;
		return NULL;
	}
	return out;
}

char *
url_base_resolve(const struct url_base *b, const char *ref, const char **why)
{
	const char *dummy;
	char *out;
	int slow;

	if (why == NULL)
		why = &dummy;
	if (b->norm != NULL && ref != NULL) {
		out = join_plain(b, ref, &slow, why);
		if (!slow)
			return out;
	}
	return url_resolve(b->raw, ref, why);
}

/* Copy src (n bytes) lower-cased into out; -1 when it does not fit. */
static int
copy_lower(char *out, size_t outsz, const char *src, size_t n)
{
	size_t i;

	if (outsz == 0 || n >= outsz)
		return -1;
	for (i = 0; i < n; i++)
		out[i] = (char)chars_ascii_lower((unsigned char)src[i]);
	out[n] = '\0';
	return 0;
}

int
url_host(const char *url, char *out, size_t outsz)
{
	CURLU *h = NULL;
	char *host = NULL;
	const char *p;
	size_t n, i;
	int ret = -1;

	if (url == NULL || out == NULL)
		return -1;
	/* The normal form spells the host plainly: read it off the string
	 * unless something (user info, an escape) asks for the parse. */
	p = strncmp(url, "http://", 7) == 0 ? url + 7 :
	    strncmp(url, "https://", 8) == 0 ? url + 8 : NULL;
	if (p != NULL && p[0] != '[' &&
	    memchr(p, '@', strcspn(p, "/?#")) == NULL) {
		n = strcspn(p, ":/?#");
		for (i = 0; i < n; i++)
			if (!is_alpha((unsigned char)p[i]) &&
			    !is_digit((unsigned char)p[i]) && p[i] != '.' &&
			    p[i] != '-' && p[i] != '_')
				break;
		if (i == n && n > 0 && (p[n] == '\0' || p[n] == '/' ||
		    p[n] == ':' || p[n] == '?' || p[n] == '#'))
			return copy_lower(out, outsz, p, n);
	}
	h = curl_url();
	if (h == NULL)
		goto fail;
	if (curl_url_set(h, CURLUPART_URL, url, CURLU_NON_SUPPORT_SCHEME) !=
	    CURLUE_OK)
		goto fail;
	if (curl_url_get(h, CURLUPART_HOST, &host, 0) != CURLUE_OK)
		goto fail;
	p = host;
	n = strlen(host);
	if (n >= 2 && p[0] == '[' && p[n - 1] == ']') {
		p++;
		n -= 2;
	}
	if (n == 0)
		goto fail;
	ret = copy_lower(out, outsz, p, n);
fail:
	curl_free(host);
	curl_url_cleanup(h);
	return ret;
}

int
url_origin(const char *url, char *out, size_t outsz)
{
	CURLU *h = NULL;
	char *scheme = NULL, *host = NULL, *port = NULL;
	size_t ls, lh, lp, need;
	CURLUcode rc;
	int ret = -1;

	if (url == NULL || out == NULL)
		return -1;
	/* A URL in normal form spells its origin as the parse would. */
	if ((need = normal_origin_len(url)) > 0) {
		if (need >= outsz)
			return -1;
		memcpy(out, url, need);
		out[need] = '\0';
		return 0;
	}
	h = curl_url();
	if (h == NULL)
		goto fail;
	if (curl_url_set(h, CURLUPART_URL, url, CURLU_NON_SUPPORT_SCHEME) !=
	    CURLUE_OK)
		goto fail;
	if (curl_url_get(h, CURLUPART_SCHEME, &scheme, 0) != CURLUE_OK ||
	    curl_url_get(h, CURLUPART_HOST, &host, 0) != CURLUE_OK)
		goto fail;
	rc = curl_url_get(h, CURLUPART_PORT, &port, CURLU_NO_DEFAULT_PORT);
	if (rc != CURLUE_OK && rc != CURLUE_NO_PORT)
		goto fail;
	ls = strlen(scheme);
	lh = strlen(host);
	lp = port != NULL ? strlen(port) : 0;
	if (lh == 0)
		goto fail;
	need = ls + 3 + lh + (port != NULL ? 1 + lp : 0);
	if (outsz == 0 || need >= outsz)
		goto fail;
	copy_lower(out, outsz, scheme, ls);
	memcpy(out + ls, "://", 3);
	copy_lower(out + ls + 3, outsz - ls - 3, host, lh);
	if (port != NULL) {
		out[ls + 3 + lh] = ':';
		memcpy(out + ls + 4 + lh, port, lp);
	}
	out[need] = '\0';
	ret = 0;
fail:
	curl_free(scheme);
	curl_free(host);
	curl_free(port);
	curl_url_cleanup(h);
	return ret;
}
