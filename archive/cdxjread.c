#include "archive/cdxjread.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The JSON reader's position and where unescaped strings go. */
struct json {
	char *p; /* next byte to read */
};

static void
skip_blanks(struct json *j)
{
	while (*j->p == ' ' || *j->p == '\t' || *j->p == '\r' ||
	    *j->p == '\n')
		j->p++;
}

static int
hex4(const char *p, unsigned *v)
{
	int i;

	*v = 0;
	for (i = 0; i < 4; i++) {
		if (!isxdigit((unsigned char)p[i]))
			return -1;
		*v = *v * 16 + (unsigned)(isdigit((unsigned char)p[i]) ?
		    p[i] - '0' : (tolower((unsigned char)p[i]) - 'a' + 10));
	}
	return 0;
}

/* Code point u as UTF-8 at out; the bytes written. A \u escape takes 6
 * bytes of input (12 for a pair), more than the 4 written at most, so the
 * unescaped string never overtakes what is still to be read. */
static size_t
put_utf8(char *out, unsigned u)
{
	if (u < 0x80) {
		out[0] = (char)u;
		return 1;
	}
	if (u < 0x800) {
		out[0] = (char)(0xc0 | (u >> 6));
		out[1] = (char)(0x80 | (u & 0x3f));
		return 2;
	}
	if (u < 0x10000) {
		out[0] = (char)(0xe0 | (u >> 12));
		out[1] = (char)(0x80 | ((u >> 6) & 0x3f));
		out[2] = (char)(0x80 | (u & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | (u >> 18));
	out[1] = (char)(0x80 | ((u >> 12) & 0x3f));
	out[2] = (char)(0x80 | ((u >> 6) & 0x3f));
	out[3] = (char)(0x80 | (u & 0x3f));
	return 4;
}

/* A JSON string at j->p, unescaped in place; *s its start. 0, or -1. */
static int
string(struct json *j, char **s)
{
	char *out;
	unsigned u, lo;

	if (*j->p != '"')
		return -1;
	*s = out = ++j->p;
	for (;;) {
		if (*j->p == '\0' || (unsigned char)*j->p < 0x20)
			return -1;
		if (*j->p == '"')
			break;
		if (*j->p != '\\') {
			*out++ = *j->p++;
			continue;
		}
		j->p++;
		switch (*j->p) {
		case '"': case '\\': case '/':
			*out++ = *j->p;
			break;
		case 'b': *out++ = '\b'; break;
		case 'f': *out++ = '\f'; break;
		case 'n': *out++ = '\n'; break;
		case 'r': *out++ = '\r'; break;
		case 't': *out++ = '\t'; break;
		case 'u':
			if (hex4(j->p + 1, &u) != 0)
				return -1;
			j->p += 4;
			if (u >= 0xd800 && u < 0xdc00 && j->p[1] == '\\' &&
			    j->p[2] == 'u' && hex4(j->p + 3, &lo) == 0 &&
			    lo >= 0xdc00 && lo < 0xe000) {
				u = 0x10000 + ((u - 0xd800) << 10) +
				    (lo - 0xdc00);
				j->p += 6;
			}
			out += put_utf8(out, u);
			break;
		default:
			return -1;
		}
		j->p++;
	}
	j->p++;
	*out = '\0';
	return 0;
}

/* A JSON number or literal at j->p, cut off in place; *s its text.
 * 0, or -1 when there is none (an array, an object, nothing). */
static int
bare(struct json *j, char **s)
{
	char *start = j->p;

	/* A number, true, false or null: nothing nested. */
	while (isalnum((unsigned char)*j->p) || *j->p == '-' ||
	    *j->p == '+' || *j->p == '.')
		j->p++;
	if (j->p == start)
		return -1;
	*s = start;
	/* A ',' or '}' right after it is cut off by the caller, once it
	 * has looked at it; a blank is cut off here. */
	if (*j->p == ' ' || *j->p == '\t')
		*j->p++ = '\0';
	return 0;
}

/* A whole number in s: 0 with *v, or -1. */
static int
whole(const char *s, int64_t *v)
{
	char *end;
	long long n;

	if (!isdigit((unsigned char)s[0]))
		return -1;
	n = strtoll(s, &end, 10);
	if (*end != '\0' || n < 0)
		return -1;
	*v = (int64_t)n;
	return 0;
}

static void
keep(struct cdxjread_capture *cap, const char *key, const char *v,
    const char **digest, const char **offset, const char **length)
{
	if (strcmp(key, "url") == 0)
		cap->url = v;
	else if (strcmp(key, "mime") == 0)
		cap->mime = v;
	else if (strcmp(key, "status") == 0)
		cap->status = v;
	else if (strcmp(key, "filename") == 0)
		cap->filename = v;
	else if (strcmp(key, "digest") == 0)
		*digest = v;
	else if (strcmp(key, "offset") == 0)
		*offset = v;
	else if (strcmp(key, "length") == 0)
		*length = v;
}

/* The object at j->p into cap; 0, or -1 with what went wrong in *what. */
static int
object(struct json *j, struct cdxjread_capture *cap, const char **digest,
    const char **offset, const char **length, const char **what)
{
	char *key, *v, sep;

	*what = "JSON is not an object of strings and numbers";
	skip_blanks(j);
	if (*j->p++ != '{')
		return -1;
	skip_blanks(j);
	if (*j->p == '}')
		return 0;
	for (;;) {
		skip_blanks(j);
		if (string(j, &key) != 0)
			return -1;
		skip_blanks(j);
		if (*j->p++ != ':')
			return -1;
		skip_blanks(j);
		if ((*j->p == '"' ? string(j, &v) : bare(j, &v)) != 0)
			return -1;
		skip_blanks(j);
		sep = *j->p;
		if (sep != ',' && sep != '}')
			return -1;
		*j->p++ = '\0'; /* ends a bare value that ran up to it */
		keep(cap, key, v, digest, offset, length);
		if (sep == '}')
			break;
	}
	skip_blanks(j);
	if (*j->p != '\0') {
		*what = "text after the JSON object";
		return -1;
	}
	return 0;
}

/* A 4..14 digit timestamp as a WARC-Date; 0, or -1. */
static int
date_of(const char *ts, size_t n, char out[WARC_DATE_LEN])
{
	char d[15];
	size_t i;

	if (n < 4 || n > 14)
		return -1;
	for (i = 0; i < n; i++)
		if (!isdigit((unsigned char)ts[i]))
			return -1;
	/* A shorter one is the start of its period, as pywb reads it. */
	memcpy(d, "00000101000000", 15);
	memcpy(d, ts, n);
	snprintf(out, WARC_DATE_LEN, "%.4s-%.2s-%.2sT%.2s:%.2s:%.2sZ", d,
	    d + 4, d + 6, d + 8, d + 10, d + 12);
	return 0;
}

int
cdxjread_line(char *line, struct cdxjread_capture *cap, char *why,
    size_t whysz)
{
	struct json j;
	const char *digest = NULL, *offset = NULL, *length = NULL, *what;
	char *sp1, *sp2;

	memset(cap, 0, sizeof(*cap));
	cap->offset = cap->length = -1;
	while (*line == ' ' || *line == '\t' || *line == '\r')
		line++;
	if (*line == '\0' || *line == '!')
		return 0;
	what = "not SURT TIMESTAMP {JSON}";
	if ((sp1 = strchr(line, ' ')) == NULL ||
	    (sp2 = strchr(sp1 + 1, ' ')) == NULL)
		goto bad;
	what = "the timestamp is not 4 to 14 digits";
	if (date_of(sp1 + 1, (size_t)(sp2 - sp1 - 1), cap->date) != 0)
		goto bad;
	j.p = sp2 + 1;
	if (object(&j, cap, &digest, &offset, &length, &what) != 0)
		goto bad;
	what = "no url";
	if (cap->url == NULL || cap->url[0] == '\0')
		goto bad;
	what = "a digest that is not one";
	if (digest != NULL && strcmp(digest, "-") != 0 && digest[0] != '\0') {
		if (strpbrk(digest, " \t") != NULL ||
		    strlen(digest) + sizeof("sha1:") > sizeof(cap->digest))
			goto bad;
		snprintf(cap->digest, sizeof(cap->digest), "%s%s",
		    strchr(digest, ':') != NULL ? "" : "sha1:", digest);
	}
	what = "an offset that is not a whole number";
	if (offset != NULL && strcmp(offset, "-") != 0 &&
	    whole(offset, &cap->offset) != 0)
		goto bad;
	what = "a length that is not a whole number";
	if (length != NULL && strcmp(length, "-") != 0 &&
	    whole(length, &cap->length) != 0)
		goto bad;
	return 1;
bad:
	snprintf(why, whysz, "%s", what);
	return -1;
}
