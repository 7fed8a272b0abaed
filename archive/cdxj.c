#include "archive/cdxj.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "archive/httpmsg.h"
#include "archive/warcread.h"
#include "util/buf.h"
#include "util/err.h"

/* The longest host name cdxj_surt takes (DNS allows 253). */
#define CDXJ_MAX_HOST 1024

/* The most query arguments cdxj_surt sorts. */
#define CDXJ_MAX_ARGS 1024

/* How much of a block cdxj_index_file reads for its HTTP head. */
#define CDXJ_HEAD_BYTES (64 * 1024)

/* Output into a caller's buffer, remembering whether it overflowed. */
struct cdxj_out {
	char *p;     /* the caller's buffer */
	size_t size; /* its size, NUL included */
	size_t len;  /* bytes written, NUL excluded */
	int full;    /* something did not fit */
};

/* One query argument, for sorting: key up to '=', value after it. */
struct cdxj_arg {
	const char *s; /* the argument's bytes in the lower-cased query */
	size_t len;    /* its length */
	size_t klen;   /* bytes of its key */
	int has_eq;    /* it has an '=' */
};

static void
cdxj_put(struct cdxj_out *o, const char *s, size_t n)
{
	if (o->full || n >= o->size - o->len) {
		o->full = 1;
		return;
	}
	memcpy(o->p + o->len, s, n);
	o->len += n;
	o->p[o->len] = '\0';
}

static void
cdxj_puts(struct cdxj_out *o, const char *s)
{
	cdxj_put(o, s, strlen(s));
}

static char
cdxj_lower(char c)
{
	return (c >= 'A' && c <= 'Z') ? (char)(c + ('a' - 'A')) : c;
}

static void
cdxj_put_lower(struct cdxj_out *o, const char *s, size_t n)
{
	size_t i;
	char c;

	for (i = 0; i < n; i++) {
		c = cdxj_lower(s[i]);
		cdxj_put(o, &c, 1);
	}
}

static int
cdxj_scheme_ok(const char *s, size_t n)
{
	size_t i;
	char c;

	if (n == 0)
		return 0;
	for (i = 0; i < n; i++) {
		c = cdxj_lower(s[i]);
		if (!((c >= 'a' && c <= 'z') ||
		        (i > 0 &&
		            ((c >= '0' && c <= '9') || c == '+' || c == '-' ||
		                c == '.'))))
			return 0;
	}
	return 1;
}

/* Whether the scheme's default port is the n digits at port. */
static int
cdxj_default_port(const char *scheme, size_t slen, const char *port, size_t n)
{
	while (n > 1 && *port == '0') {
		port++;
		n--;
	}
	if (slen == 4 && strncasecmp(scheme, "http", 4) == 0)
		return n == 2 && memcmp(port, "80", 2) == 0;
	if (slen == 5 && strncasecmp(scheme, "https", 5) == 0)
		return n == 3 && memcmp(port, "443", 3) == 0;
	return 0;
}

/* The host, lower-cased, "www." dropped, labels reversed. */
static int
cdxj_put_host(struct cdxj_out *o, const char *h, size_t n)
{
	char host[CDXJ_MAX_HOST];
	size_t i, end, start;

	if (n == 0 || n >= sizeof(host))
		return -1;
	for (i = 0; i < n; i++)
		host[i] = cdxj_lower(h[i]);
	if (host[0] == '[') {
		cdxj_put(o, host, n);
		return 0;
	}
	while (n > 0 && host[n - 1] == '.')
		n--;
	start = 0;
	if (n > 3 && memcmp(host, "www", 3) == 0) {
		for (i = 3; i < n && host[i] >= '0' && host[i] <= '9'; i++)
			;
		if (i + 1 < n && host[i] == '.')
			start = i + 1;
	}
	if (start >= n)
		return -1;
	end = n;
	while (end > start) {
		for (i = end; i > start && host[i - 1] != '.'; i--)
			;
		cdxj_put(o, host + i, end - i);
		if (i > start)
			cdxj_put(o, ",", 1);
		end = i > start ? i - 1 : start;
	}
	return 0;
}

static int
cdxj_argcmp(const void *a, const void *b)
{
	const struct cdxj_arg *x = a, *y = b;
	size_t n;
	int c;

	n = x->klen < y->klen ? x->klen : y->klen;
	if ((c = memcmp(x->s, y->s, n)) != 0)
		return c;
	if (x->klen != y->klen)
		return x->klen < y->klen ? -1 : 1;
	if (x->has_eq != y->has_eq)
		return x->has_eq - y->has_eq;
	n = x->len < y->len ? x->len : y->len;
	if ((c = memcmp(x->s + x->klen, y->s + y->klen, n - x->klen)) != 0)
		return c;
	return x->len < y->len ? -1 : x->len > y->len;
}

/* The query lower-cased, its arguments sorted by key, then value. */
static int
cdxj_put_query(struct cdxj_out *o, const char *q, size_t n)
{
	struct cdxj_arg *args = NULL;
	size_t nargs = 0, i, start;
	char *low = NULL;
	const char *eq;
	int rc = -1;

	if (n >= o->size)
		return -1;
	if ((low = malloc(n + 1)) == NULL ||
	    (args = calloc(CDXJ_MAX_ARGS, sizeof(*args))) == NULL)
		goto fail;
	for (i = 0; i < n; i++)
		low[i] = cdxj_lower(q[i]);
	for (start = 0; start <= n; start = i + 1) {
		for (i = start; i < n && low[i] != '&'; i++)
			;
		if (nargs == CDXJ_MAX_ARGS)
			goto fail;
		args[nargs].s = low + start;
		args[nargs].len = i - start;
		eq = memchr(low + start, '=', i - start);
		args[nargs].has_eq = eq != NULL;
		args[nargs].klen =
		    eq != NULL ? (size_t)(eq - (low + start)) : i - start;
		nargs++;
	}
	qsort(args, nargs, sizeof(*args), cdxj_argcmp);
	cdxj_put(o, "?", 1);
	for (i = 0; i < nargs; i++) {
		if (i > 0)
			cdxj_put(o, "&", 1);
		cdxj_put(o, args[i].s, args[i].len);
	}
	rc = 0;
fail:
	free(args);
	free(low);
	return rc;
}

int
cdxj_surt(const char *url, char *out, size_t outsz)
{
	struct cdxj_out o = {out, outsz, 0, 0};
	const char *sep, *auth, *aend, *host, *hend, *port = NULL, *at;
	const char *path, *pend, *q;
	size_t i, plen = 0;

	if (outsz == 0)
		return -1;
	out[0] = '\0';
	if (url == NULL)
		return -1;
	for (i = 0; url[i] != '\0'; i++)
		if ((unsigned char)url[i] <= 0x20 || url[i] == 0x7f)
			return -1;
	if ((sep = strstr(url, "://")) == NULL ||
	    !cdxj_scheme_ok(url, (size_t)(sep - url)))
		return -1;
	auth = sep + 3;
	aend = auth + strcspn(auth, "/?#");
	host = auth;
	for (at = auth; at < aend; at++)
		if (*at == '@')
			host = at + 1;
	hend = aend;
	if (host < aend && *host == '[') {
		if ((hend = memchr(host, ']', (size_t)(aend - host))) == NULL)
			return -1;
		hend++;
		if (hend < aend && *hend != ':')
			return -1;
	} else {
		for (hend = aend; hend > host && hend[-1] != ':'; hend--)
			;
		if (hend == host)
			hend = aend;
		else
			hend--;
	}
	if (hend < aend) {
		port = hend + 1;
		plen = (size_t)(aend - port);
		for (i = 0; i < plen; i++)
			if (port[i] < '0' || port[i] > '9')
				return -1;
		if (plen == 0 ||
		    cdxj_default_port(url, (size_t)(sep - url), port, plen))
			port = NULL;
	}
	if (cdxj_put_host(&o, host, (size_t)(hend - host)) != 0)
		goto fail;
	if (port != NULL) {
		cdxj_put(&o, ":", 1);
		cdxj_put(&o, port, plen);
	}
	cdxj_put(&o, ")", 1);
	path = aend;
	pend = path + strcspn(path, "?#");
	if (pend == path || *path != '/')
		cdxj_put(&o, "/", 1);
	cdxj_put_lower(&o, path, (size_t)(pend - path));
	if (*pend == '?') {
		q = pend + 1;
		i = strcspn(q, "#");
		if (i > 0 && cdxj_put_query(&o, q, i) != 0)
			goto fail;
	}
	if (!o.full)
		return 0;
fail:
	out[0] = '\0';
	return -1;
}

/*
 * The UTF-8 character at s (n bytes left): its code point and length, or
 * 0 when the bytes are not valid UTF-8.
 */
static size_t
cdxj_utf8(const unsigned char *s, size_t n, unsigned long *cp)
{
	size_t need, k;
	unsigned long min;

	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		need = 1, *cp = s[0] & 0x1f, min = 0x80;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		need = 2, *cp = s[0] & 0x0f, min = 0x800;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		need = 3, *cp = s[0] & 0x07, min = 0x10000;
	} else {
		return 0;
	}
	if (n <= need)
		return 0;
	for (k = 1; k <= need; k++) {
		if ((s[k] & 0xc0) != 0x80)
			return 0;
		*cp = (*cp << 6) | (s[k] & 0x3f);
	}
	if (*cp < min || *cp > 0x10ffff || (*cp >= 0xd800 && *cp <= 0xdfff))
		return 0;
	return need + 1;
}

static void
cdxj_put_u(struct cdxj_out *o, unsigned long u)
{
	char esc[8];

	snprintf(esc, sizeof(esc), "\\u%04lx", u & 0xffff);
	cdxj_puts(o, esc);
}

/* The two-character JSON escape of c, or NULL when it has none. */
static const char *
cdxj_short_escape(unsigned char c)
{
	switch (c) {
	case '\n':
		return "\\n";
	case '\r':
		return "\\r";
	case '\t':
		return "\\t";
	case '\b':
		return "\\b";
	case '\f':
		return "\\f";
	default:
		return NULL;
	}
}

/* s as a JSON string, quotes included, as Python's json.dumps writes it. */
static void
cdxj_put_json(struct cdxj_out *o, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n = strlen(str), i = 0, k;
	const char *e;
	unsigned long cp;

	cdxj_put(o, "\"", 1);
	while (i < n) {
		if (s[i] == '"' || s[i] == '\\') {
			cdxj_put(o, "\\", 1);
			cdxj_put(o, (const char *)s + i++, 1);
		} else if ((e = cdxj_short_escape(s[i])) != NULL) {
			cdxj_put(o, e, 2);
			i++;
		} else if (s[i] < 0x20) {
			cdxj_put_u(o, s[i++]);
		} else if (s[i] < 0x80) {
			cdxj_put(o, (const char *)s + i++, 1);
		} else if ((k = cdxj_utf8(s + i, n - i, &cp)) == 0) {
			cdxj_put_u(o, s[i++]);
		} else {
			if (cp >= 0x10000) {
				cp -= 0x10000;
				cdxj_put_u(o, 0xd800 | (cp >> 10));
				cdxj_put_u(o, 0xdc00 | (cp & 0x3ff));
			} else {
				cdxj_put_u(o, cp);
			}
			i += k;
		}
	}
	cdxj_put(o, "\"", 1);
}

/* `, "key": "value"` (no comma before the first). */
static void
cdxj_put_item(struct cdxj_out *o, const char *key, const char *value, int first)
{
	if (!first)
		cdxj_put(o, ", ", 2);
	cdxj_put_json(o, key);
	cdxj_put(o, ": ", 2);
	cdxj_put_json(o, value);
}

/* A Content-Type's media type: parameters and blanks dropped. */
static void
cdxj_mime(const char *ct, char *out, size_t outsz)
{
	size_t n;

	while (*ct == ' ' || *ct == '\t')
		ct++;
	n = strcspn(ct, ";");
	while (n > 0 && (ct[n - 1] == ' ' || ct[n - 1] == '\t'))
		n--;
	if (n == 0) {
		snprintf(out, outsz, "-");
		return;
	}
	snprintf(out, outsz, "%.*s", (int)(n < 4096 ? n : 4096), ct);
}

/* The first 14 digits of a WARC-Date; -1 when it has fewer. */
static int
cdxj_timestamp(const char *date, char ts[15])
{
	size_t n = 0;

	for (; date != NULL && *date != '\0' && n < 14; date++)
		if (*date >= '0' && *date <= '9')
			ts[n++] = *date;
	ts[n] = '\0';
	return n == 14 ? 0 : -1;
}

int
cdxj_entry_line(const struct cdxj_entry *e, char *out, size_t outsz)
{
	struct cdxj_out o = {out, outsz, 0, 0};
	char uri[CDXJ_MAX_LINE], ts[15], mime[256], ct[256], status[16];
	char num[24];
	const char *digest = e->payload_digest, *type = e->warc_type;
	struct http_msg m;
	size_t n, i;

	if (outsz == 0)
		return -1;
	out[0] = '\0';
	if (e->target_uri == NULL || type == NULL || e->filename == NULL)
		return -1;
	/* WARC 1.0 examples wrote the URI in angle brackets. */
	n = strlen(e->target_uri);
	if (n >= 2 && e->target_uri[0] == '<' && e->target_uri[n - 1] == '>')
		snprintf(
		    uri, sizeof(uri), "%.*s", (int)(n - 2), e->target_uri + 1);
	else if (n < sizeof(uri))
		snprintf(uri, sizeof(uri), "%s", e->target_uri);
	else
		return -1;
	if (uri[0] == '\0' || cdxj_timestamp(e->warc_date, ts) != 0)
		return -1;
	if (cdxj_surt(uri, out, outsz) != 0) {
		if (strstr(uri, "://") != NULL)
			return -1;
		for (i = 0; uri[i] != '\0'; i++)
			if ((unsigned char)uri[i] <= 0x20 || uri[i] == 0x7f)
				return -1;
		cdxj_puts(&o, uri);
	} else {
		o.len = strlen(out);
	}
	snprintf(mime, sizeof(mime), "-");
	snprintf(status, sizeof(status), "-");
	if (strcmp(type, "resource") == 0) {
		if (e->content_type != NULL)
			cdxj_mime(e->content_type, mime, sizeof(mime));
		snprintf(status, sizeof(status), "200");
	} else if (e->http_head != NULL &&
	    httpmsg_parse(e->http_head, e->head_len, &m) == 0) {
		if (m.status > 0)
			snprintf(status, sizeof(status), "%d", m.status);
		if (httpmsg_header(&m, "Content-Type", ct, sizeof(ct)))
			cdxj_mime(ct, mime, sizeof(mime));
	}
	if (strcmp(type, "revisit") == 0)
		snprintf(mime, sizeof(mime), "warc/revisit");
	if (digest == NULL || *digest == '\0')
		digest = "-";
	else if (strncasecmp(digest, "sha1:", 5) == 0)
		digest += 5;
	cdxj_put(&o, " ", 1);
	cdxj_puts(&o, ts);
	cdxj_puts(&o, " {");
	cdxj_put_item(&o, "url", uri, 1);
	cdxj_put_item(&o, "mime", mime, 0);
	cdxj_put_item(&o, "status", status, 0);
	cdxj_put_item(&o, "digest", digest, 0);
	snprintf(num, sizeof(num), "%" PRIu64, e->length);
	cdxj_put_item(&o, "length", num, 0);
	snprintf(num, sizeof(num), "%" PRIu64, e->offset);
	cdxj_put_item(&o, "offset", num, 0);
	cdxj_put_item(&o, "filename", e->filename, 0);
	cdxj_put(&o, "}", 1);
	if (o.full) {
		out[0] = '\0';
		return -1;
	}
	return 0;
}

int
cdxj_line(const char *target_uri, const char *warc_date, const char *warc_type,
    const char *http_head, size_t head_len, const char *payload_digest,
    uint64_t offset, uint64_t length, const char *filename, char *out,
    size_t outsz)
{
	struct cdxj_entry e;

	memset(&e, 0, sizeof(e));
	e.target_uri = target_uri;
	e.warc_date = warc_date;
	e.warc_type = warc_type;
	e.http_head = http_head;
	e.head_len = head_len;
	e.payload_digest = payload_digest;
	e.offset = offset;
	e.length = length;
	e.filename = filename;
	return cdxj_entry_line(&e, out, outsz);
}

static int
cdxj_strcmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * Sort the newline-separated lines of b (each line's newline becomes its
 * NUL) and write them to path through path.tmp, fsync and rename.
 */
static int
cdxj_write_sorted(struct buf *b, const char *path, char *err, size_t errsz)
{
	char tmp[PATH_MAX];
	char **lines = NULL;
	size_t n = 0, i, start;
	FILE *f = NULL;
	int ok, rc = -1;

	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= sizeof(tmp))
		return err_set(err, errsz, -1, "%s: path too long", path);
	for (i = 0; i < b->len; i++)
		if (b->data[i] == '\n')
			n++;
	if (b->len > 0 && b->data[b->len - 1] != '\n')
		n++;
	if (n > 0 && (lines = calloc(n, sizeof(*lines))) == NULL) {
		err_set(err, errsz, -1, "out of memory");
		goto fail;
	}
	n = 0;
	for (start = 0; start < b->len; start = i + 1) {
		for (i = start; i < b->len && b->data[i] != '\n'; i++)
			;
		b->data[i] = '\0'; /* the buf's own terminator at the end */
		if (i > start)
			lines[n++] = b->data + start;
	}
	if (n > 0)
		qsort(lines, n, sizeof(*lines), cdxj_strcmp);
	if ((f = fopen(tmp, "w")) == NULL) {
		err_set(err, errsz, -1, "%s: %s", tmp, strerror(errno));
		goto fail;
	}
	ok = 1;
	for (i = 0; ok && i < n; i++)
		ok = fputs(lines[i], f) != EOF && putc('\n', f) != EOF;
	ok = ok && fflush(f) == 0 && fsync(fileno(f)) == 0;
	if (fclose(f) != 0)
		ok = 0;
	f = NULL;
	if (!ok || rename(tmp, path) != 0) {
		err_set(err, errsz, -1, "%s: %s", path, strerror(errno));
		unlink(tmp);
		goto fail;
	}
	rc = 0;
fail:
	free(lines);
	return rc;
}

int
cdxj_sort_file(
    const char *part_path, const char *cdxj_path, char *err, size_t errsz)
{
	struct buf b;
	int rc;

	buf_init(&b, CDXJ_MAX_INDEX);
	rc = buf_read_file(&b, part_path, 0);
	if (rc == BUF_OK)
		rc = cdxj_write_sorted(&b, cdxj_path, err, errsz);
	else if (rc == BUF_IOERR)
		rc = err_set(
		    err, errsz, -1, "%s: %s", part_path, strerror(errno));
	else
		rc = err_set(err, errsz, -1, "%s: %s", part_path,
		    rc == BUF_FULL ? "index too large" : "out of memory");
	buf_free(&b);
	return rc;
}

/* Whether records of this WARC-Type get an index line. */
static int
cdxj_indexed(const char *type)
{
	return type != NULL &&
	    (strcmp(type, "response") == 0 || strcmp(type, "revisit") == 0 ||
	        strcmp(type, "resource") == 0);
}

int
cdxj_index_file(
    const char *warc_path, const char *cdxj_path, char *err, size_t errsz)
{
	struct warc_reader *r;
	struct cdxj_entry e;
	struct warc_head h;
	struct buf lines, blk;
	const char *base;
	char line[CDXJ_MAX_LINE], rerr[256];
	uint64_t end;
	int rc, brc, ret = -1;

	if ((r = warc_reader_open(warc_path, err, errsz)) == NULL)
		return -1;
	buf_init(&lines, CDXJ_MAX_INDEX);
	buf_init(&blk, CDXJ_HEAD_BYTES);
	base = strrchr(warc_path, '/');
	base = base != NULL ? base + 1 : warc_path;
	while ((rc = warc_reader_next(r, &h, rerr, sizeof(rerr))) != 0) {
		if (rc == -2) {
			err_set(err, errsz, -1, "%s: %s", warc_path, rerr);
			goto fail;
		}
		if (rc == -1 || !cdxj_indexed(h.type))
			continue;
		buf_reset(&blk);
		brc = warc_reader_block(r, &blk, NULL, rerr, sizeof(rerr));
		if (brc == 0)
			brc = warc_reader_finish(r, &end, rerr, sizeof(rerr));
		if (brc == -2) {
			err_set(err, errsz, -1, "%s: %s", warc_path, rerr);
			goto fail;
		}
		if (brc != 0)
			continue; /* damaged: not worth an index line */
		memset(&e, 0, sizeof(e));
		e.target_uri = h.target_uri;
		e.warc_date = h.date;
		e.warc_type = h.type;
		e.content_type = h.content_type;
		e.http_head = blk.data;
		e.head_len = blk.len;
		e.payload_digest = h.payload_digest;
		if (e.payload_digest == NULL && strcmp(h.type, "resource") == 0)
			e.payload_digest = h.block_digest;
		e.offset = h.offset;
		e.length = end - h.offset;
		e.filename = base;
		if (cdxj_entry_line(&e, line, sizeof(line)) != 0)
			continue;
		if (buf_puts(&lines, line) != BUF_OK ||
		    buf_putc(&lines, '\n') != BUF_OK) {
			err_set(err, errsz, -1,
			    "%s: index too large or out of "
			    "memory",
			    warc_path);
			goto fail;
		}
	}
	ret = cdxj_write_sorted(&lines, cdxj_path, err, errsz);
fail:
	buf_free(&blk);
	buf_free(&lines);
	warc_reader_close(r);
	return ret;
}
