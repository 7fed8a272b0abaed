#include "archive/httpmsg.h"

#include <stdint.h>
#include <string.h>
#include <strings.h>

#include "util/buf.h"
#include "util/chars.h"
#include "util/decode.h"

/* The longest chunk-size line (size, extensions) httpmsg_dechunk reads. */
#define HTTPMSG_MAX_CHUNK_LINE 4096

static int
httpmsg_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int
httpmsg_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* A tchar of RFC 9110 (method names). */
static int
httpmsg_tchar(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	    httpmsg_digit(c) || (c != '\0' && strchr("!#$%&'*+-.^_`|~", c));
}


/*
 * The line at p (n bytes left): sets *len to its length without the line
 * end and returns the length with it, or 0 when no LF ends it. The line
 * end is the LF and every CR before it: some writers put a CR before a
 * CRLF they were handed (CR CR LF), and a blank line is blank all the
 * same.
 */
static size_t
httpmsg_line(const char *p, size_t n, size_t *len)
{
	const char *lf = memchr(p, '\n', n);

	if (lf == NULL)
		return 0;
	*len = (size_t)(lf - p);
	while (*len > 0 && p[*len - 1] == '\r')
		(*len)--;
	return (size_t)(lf - p) + 1;
}

/* "HTTP/1.1", "HTTP/2", "HTTP/2.0": returns the bytes it takes, or 0. */
static size_t
httpmsg_version(const char *p, size_t n)
{
	if (n < 6 || memcmp(p, "HTTP/", 5) != 0 || !httpmsg_digit(p[5]))
		return 0;
	if (n >= 8 && p[6] == '.' && httpmsg_digit(p[7]))
		return 8;
	return 6;
}

/* A status line; returns the status, or -1. */
static int
httpmsg_status_line(const char *p, size_t n)
{
	size_t v = httpmsg_version(p, n);

	if (v == 0 || n < v + 4 || p[v] != ' ' || !httpmsg_digit(p[v + 1]) ||
	    !httpmsg_digit(p[v + 2]) || !httpmsg_digit(p[v + 3]))
		return -1;
	if (n > v + 4 && p[v + 4] != ' ')
		return -1;
	return (p[v + 1] - '0') * 100 + (p[v + 2] - '0') * 10 +
	    (p[v + 3] - '0');
}

/* A request line "METHOD TARGET HTTP/x": 0, or -1. */
static int
httpmsg_request_line(const char *p, size_t n)
{
	size_t i = 0, t;

	while (i < n && httpmsg_tchar(p[i]))
		i++;
	if (i == 0 || i == n || p[i] != ' ')
		return -1;
	t = ++i;
	while (i < n && p[i] != ' ' && (unsigned char)p[i] > 0x20)
		i++;
	if (i == t || i == n || p[i] != ' ')
		return -1;
	i++;
	return httpmsg_version(p + i, n - i) == n - i ? 0 : -1;
}

int
httpmsg_parse(const char *p, size_t n, struct http_msg *m)
{
	size_t off, step, len;
	int status;

	memset(m, 0, sizeof(*m));
	if (p == NULL)
		return -1;
	if (n > HTTPMSG_MAX_HEAD)
		n = HTTPMSG_MAX_HEAD;
	if ((step = httpmsg_line(p, n, &len)) == 0)
		return -1;
	if (len >= 5 && memcmp(p, "HTTP/", 5) == 0)
		status = httpmsg_status_line(p, len);
	else
		status = httpmsg_request_line(p, len);
	if (status < 0)
		return -1;
	for (off = step; off < n; off += step) {
		if ((step = httpmsg_line(p + off, n - off, &len)) == 0)
			return -1;
		if (len == 0) {
			m->status = status;
			m->head_len = off + step;
			m->start = p;
			m->len = n;
			return 0;
		}
	}
	return -1;
}

int
httpmsg_header(
    const struct http_msg *m, const char *name, char *out, size_t outsz)
{
	size_t off, step, len, nlen = strlen(name), i, e, k;
	const char *line;

	if (outsz > 0)
		out[0] = '\0';
	if (m->start == NULL || m->head_len == 0)
		return 0;
	off = httpmsg_line(m->start, m->head_len, &len);
	for (; off < m->head_len; off += step) {
		line = m->start + off;
		if ((step = httpmsg_line(line, m->head_len - off, &len)) == 0)
			break;
		if (len <= nlen || httpmsg_blank(line[0]))
			continue;
		for (i = 0; i < nlen; i++)
			if (chars_ascii_lower((unsigned char)line[i]) !=
			    chars_ascii_lower((unsigned char)name[i]))
				break;
		if (i < nlen)
			continue;
		while (i < len && httpmsg_blank(line[i]))
			i++;
		if (i == len || line[i] != ':')
			continue;
		i++;
		while (i < len && httpmsg_blank(line[i]))
			i++;
		e = len;
		while (e > i && httpmsg_blank(line[e - 1]))
			e--;
		if (outsz > 0) {
			k = e - i < outsz - 1 ? e - i : outsz - 1;
			memcpy(out, line + i, k);
			out[k] = '\0';
		}
		return 1;
	}
	return 0;
}

/* A buf_append result as httpmsg_dechunk's: -2 full, -3 out of memory. */
static int
httpmsg_bufrc(int rc)
{
	if (rc == BUF_OK)
		return 0;
	return rc == BUF_FULL ? -2 : -3;
}

int
httpmsg_dechunk(const char *p, size_t n, struct buf *out)
{
	size_t off = 0, step, len, i, size;
	int d, rc;

	if (p == NULL)
		return -1;
	for (;;) {
		step = httpmsg_line(p + off, n - off, &len);
		if (step == 0 || len > HTTPMSG_MAX_CHUNK_LINE)
			return -1;
		size = 0;
		for (i = 0; i < len && (d = chars_hex_value(p[off + i])) >= 0;
		     i++) {
			if (size > (SIZE_MAX >> 4))
				return -1;
			size = (size << 4) | (size_t)d;
		}
		if (i == 0)
			return -1;
		while (i < len && httpmsg_blank(p[off + i]))
			i++;
		if (i < len && p[off + i] != ';')
			return -1;
		off += step;
		if (size == 0)
			break;
		if (size > n - off)
			return -1;
		if ((rc = httpmsg_bufrc(buf_append(out, p + off, size))) != 0)
			return rc;
		off += size;
		step = httpmsg_line(p + off, n - off, &len);
		if (step == 0 || len != 0)
			return -1;
		off += step;
	}
	/* Trailer fields, up to the empty line that ends the message. */
	for (;;) {
		if ((step = httpmsg_line(p + off, n - off, &len)) == 0)
			return -1;
		off += step;
		if (len == 0)
			return 0;
	}
}

int
httpmsg_body(const struct http_msg *m, struct buf *out)
{
	const char *payload = m->start + m->head_len;
	size_t plen = m->len - m->head_len;
	char te[64], ce[64];
	struct buf dechunked;
	int rc;

	buf_init(&dechunked, out->limit);
	if (httpmsg_header(m, "Transfer-Encoding", te, sizeof(te)) &&
	    strcasestr(te, "chunked") != NULL &&
	    httpmsg_dechunk(payload, plen, &dechunked) == 0) {
		payload = dechunked.data != NULL ? dechunked.data : "";
		plen = dechunked.len;
	}
	rc = decode_all(decode_coding_of(httpmsg_header(m, "Content-Encoding",
	    ce, sizeof(ce)) ? ce : NULL), payload, plen, out);
	buf_free(&dechunked);
	return rc == DECODE_SHORT ? BUF_OK : rc;
}
