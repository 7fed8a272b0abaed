/*
 * linkhdr: a small reader of Link header values (RFC 8288 section 3):
 *
 *   link-value = "<" URI-Reference ">" *( OWS ";" OWS link-param )
 *   link-param = token BWS [ "=" BWS ( token / quoted-string ) ]
 *
 * with link-values separated by commas. Only rel matters here.
 */
#include "web/linkhdr.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "web/url.h"

static const char *
skip_ows(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* Whether the n bytes at s, a space-separated list of relation types, hold
 * "canonical" in any case. */
static int
rel_has_canonical(const char *s, size_t n)
{
	size_t i = 0, start;

	while (i < n) {
		while (i < n && (s[i] == ' ' || s[i] == '\t'))
			i++;
		start = i;
		while (i < n && s[i] != ' ' && s[i] != '\t')
			i++;
		if (i - start == 9 && strncasecmp(s + start, "canonical", 9) == 0)
			return 1;
	}
	return 0;
}

/*
 * Read the parameters after a target, from p (just past '>') to the end of
 * the link-value; set *canon when rel holds canonical. Returns where the
 * next link-value starts (past its comma), or NULL at the end or on a
 * malformed value.
 */
static const char *
read_params(const char *p, int *canon)
{
	const char *name, *val;
	size_t nlen, vlen;
	int quoted;

	*canon = 0;
	for (;;) {
		p = skip_ows(p);
		if (*p == ',')
			return p + 1;
		if (*p != ';')
			return NULL;
		p = skip_ows(p + 1);
		name = p;
		while (*p != '\0' && *p != '=' && *p != ';' && *p != ',' &&
		    *p != ' ' && *p != '\t')
			p++;
		nlen = (size_t)(p - name);
		p = skip_ows(p);
		if (*p != '=')
			continue; /* a parameter without a value */
		p = skip_ows(p + 1);
		quoted = *p == '"';
		if (quoted) {
			val = ++p;
			while (*p != '\0' && *p != '"') {
				if (*p == '\\' && p[1] != '\0')
					p++;
				p++;
			}
			if (*p != '"')
				return NULL;
			vlen = (size_t)(p - val);
			p++;
		} else {
			val = p;
			while (*p != '\0' && *p != ';' && *p != ',' &&
			    *p != ' ' && *p != '\t')
				p++;
			vlen = (size_t)(p - val);
		}
		/* The first rel counts (RFC 8288 3.3). */
		if (nlen == 3 && strncasecmp(name, "rel", 3) == 0 &&
		    *canon == 0)
			*canon = rel_has_canonical(val, vlen) ? 1 : -1;
	}
}

char *
linkhdr_canonical(const char *value, const char *page_url)
{
	const char *p = value, *target, *why;
	char *ref, *u;
	size_t tlen;
	int canon;

	if (value == NULL)
		return NULL;
	while (p != NULL) {
		p = skip_ows(p);
		while (*p == ',')
			p = skip_ows(p + 1);
		if (*p != '<')
			return NULL;
		target = ++p;
		if ((p = strchr(p, '>')) == NULL)
			return NULL;
		tlen = (size_t)(p - target);
		p = read_params(p + 1, &canon);
		if (canon != 1)
			continue;
		if ((ref = strndup(target, tlen)) == NULL)
			return NULL;
		why = NULL;
		u = page_url != NULL ? url_resolve(page_url, ref, &why) :
		    url_normalize(ref, &why);
		free(ref);
		if (u != NULL)
			return u;
		if (why != NULL && strcmp(why, "out of memory") == 0)
			return NULL;
	}
	return NULL;
}
