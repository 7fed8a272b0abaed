/*
 * warcread_head: a record's header, from the bytes of the window to the
 * fields of struct warc_head. WARC headers as the world writes them:
 * version 0.17, 0.18, 1.0, 1.1 (the drafts before the ISO standard frame
 * records the same way), lines that end in CRLF, a bare LF (ClueWeb09,
 * some WET files) or CR CR LF, folded lines. ARC headers: one line of
 * fields a record, the version block's first line included, made into
 * the WARC fields a reader asks for.
 */
#include "archive/warcread_int.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "archive/warc_int.h"
#include "util/err.h"

static int
rd_blank(char c)
{
	return c == ' ' || c == '\t';
}

static int
rd_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

static char
rd_lower(char c)
{
	return (c >= 'A' && c <= 'Z') ? (char)(c + ('a' - 'A')) : c;
}

/* Whether p (n bytes, no line end) is an ARC header line: a URI scheme,
 * then at least four blanks, a last field after the last. */
static int
rd_arc_line(const unsigned char *p, size_t n)
{
	size_t i = 0, blanks = 0;

	if (n == 0 || !((p[0] | 0x20) >= 'a' && (p[0] | 0x20) <= 'z'))
		return 0;
	while (i < n && p[i] != ':' && p[i] != ' ') {
		if (!((p[i] | 0x20) >= 'a' && (p[i] | 0x20) <= 'z') &&
		    !rd_digit(p[i]) && p[i] != '+' && p[i] != '.' &&
		    p[i] != '-')
			return 0;
		i++;
	}
	if (i == n || p[i] != ':')
		return 0;
	for (; i < n; i++) {
		if (p[i] < 0x20 && p[i] != '\t')
			return 0;
		blanks += p[i] == ' ';
	}
	return blanks >= 4 && p[n - 1] != ' ';
}

int
warcread_is_start(
    const struct warc_reader *r, const unsigned char *p, size_t n, int eof)
{
	static const char v[] = "WARC/";
	const unsigned char *lf;
	size_t len;

	if (!r->arc) {
		if (n >= 6)
			return memcmp(p, v, 5) == 0 && rd_digit(p[5]);
		if (memcmp(p, v, n) != 0)
			return 0;
		return eof ? 0 : -1;
	}
	lf = memchr(p, '\n', n < RD_START_MAX ? n : RD_START_MAX);
	if (lf == NULL && n < RD_START_MAX && !eof)
		return -1;
	len = lf != NULL ? (size_t)(lf - p)
	    : n < RD_START_MAX ? n : RD_START_MAX;
	while (len > 0 && p[len - 1] == '\r')
		len--;
	return rd_arc_line(p, len);
}

size_t
warcread_head_len(const struct warc_reader *r, size_t have, size_t *from)
{
	const unsigned char *p = r->win + r->wpos, *lf;
	size_t i = *from, j;

	if (r->arc) {
		lf = i < have ? memchr(p + i, '\n', have - i) : NULL;
		*from = have;
		return lf != NULL ? (size_t)(lf - p) + 1 : 0;
	}
	/* Up to the first line of nothing but CRs: CRLF CRLF as the
	 * standard has it, LF LF, or CR CR LF twice. */
	while (i < have && (lf = memchr(p + i, '\n', have - i)) != NULL) {
		for (j = (size_t)(lf - p) + 1; j < have && p[j] == '\r'; j++)
			;
		if (j == have) {
			*from = (size_t)(lf - p);
			return 0;
		}
		if (p[j] == '\n')
			return j + 1;
		i = j;
	}
	*from = have;
	return 0;
}

/* Base32 (RFC 4648) or hex of a SHA-1, or base64 of one as some writers
 * give it: the 20 bytes into md. 0, or -1 when v is none of those. */
static int
rd_sha1_bytes(const char *v, unsigned char md[20])
{
	static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnop"
				  "qrstuvwxyz0123456789+/";
	size_t i, n = strlen(v), k = 0;
	unsigned long acc = 0;
	const char *c;
	int hi, lo, bits = 0;

	if (n == 40) {
		for (i = 0; i < 20; i++) {
			hi = rd_lower(v[2 * i]);
			lo = rd_lower(v[2 * i + 1]);
			hi = hi >= 'a' && hi <= 'f' ? hi - 'a' + 10
			    : rd_digit((unsigned char)hi) ? hi - '0' : -1;
			lo = lo >= 'a' && lo <= 'f' ? lo - 'a' + 10
			    : rd_digit((unsigned char)lo) ? lo - '0' : -1;
			if (hi < 0 || lo < 0)
				return -1;
			md[i] = (unsigned char)(hi << 4 | lo);
		}
		return 0;
	}
	/* 27 characters of base64 and its "=" (URL-safe "-" and "_"
	 * too, as some writers use). */
	if (n != 28 || v[27] != '=')
		return -1;
	for (i = 0; i < 27; i++) {
		c = v[i] == '-' ? b64 + 62
		    : v[i] == '_' ? b64 + 63
		    : strchr(b64, v[i]);
		if (c == NULL || v[i] == '\0')
			return -1;
		acc = (acc << 6) | (unsigned long)(c - b64);
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			if (k < 20)
				md[k++] = (unsigned char)(acc >> bits);
			acc &= (1ul << bits) - 1;
		}
	}
	return k == 20 ? 0 : -1;
}

void
warcread_want_digest(const char *v, char want[WARC_DIGEST_LEN])
{
	unsigned char md[20];
	size_t i;

	want[0] = '\0';
	if (v == NULL || strncasecmp(v, "sha1:", 5) != 0)
		return;
	v += 5;
	if (strlen(v) == 32) {
		memcpy(want, "sha1:", 5);
		for (i = 0; i < 32; i++) {
			want[5 + i] = v[i];
			if (v[i] >= 'a' && v[i] <= 'z')
				want[5 + i] = (char)(v[i] - ('a' - 'A'));
		}
		want[37] = '\0';
		return;
	}
	if (rd_sha1_bytes(v, md) == 0)
		warc_sha1_text(md, want);
}

/* Add a field (both strings must live as long as the header). */
static void
rd_add(struct warc_reader *r, const char *name, const char *value)
{
	if (r->nfields < WARC_READ_MAX_FIELDS) {
		r->fields[r->nfields].name = name;
		r->fields[r->nfields].value = value;
		r->nfields++;
	}
}

/* The line at p ends at its LF: cut it there and before its CRs; returns
 * the next line, or NULL when p holds no LF before end. */
static char *
rd_cut_line(char *p, char *end)
{
	char *lf = memchr(p, '\n', (size_t)(end - p)), *e;

	if (lf == NULL)
		return NULL;
	for (e = lf; e > p && e[-1] == '\r'; e--)
		;
	*e = '\0';
	return lf + 1;
}

/* A WARC header: its version line and named fields. 0, or -1. */
static int
rd_parse_warc(struct warc_reader *r, size_t len, char *err, size_t errsz)
{
	char *p = r->hdr, *end = r->hdr + len, *next, *lf, *e, *colon, *v;
	size_t i;

	if ((next = rd_cut_line(p, end)) == NULL || strncmp(p, "WARC/", 5) != 0)
		return err_set(err, errsz, -1, "bad version line");
	/* "WARC/" DIGITS "." DIGITS: 0.17, 0.18, 1.0, 1.1 and on. */
	for (i = 5; rd_digit((unsigned char)p[i]); i++)
		;
	if (i == 5 || p[i] != '.' ||
	    !rd_digit((unsigned char)p[i + 1]))
		return err_set(err, errsz, -1, "bad version line");
	for (i++; rd_digit((unsigned char)p[i]); i++)
		;
	while (rd_blank(p[i]))
		i++;
	if (p[i] != '\0')
		return err_set(err, errsz, -1, "bad version line");
	/* A line that starts with a blank goes on the one before: the line
	 * end between them becomes blanks. */
	for (p = next; (lf = memchr(p, '\n', (size_t)(end - p))) != NULL &&
	     lf + 1 < end;
	     p = lf + 1) {
		if (!rd_blank(lf[1]))
			continue;
		for (e = lf; e > p && e[-1] == '\r'; e--)
			;
		memset(e, ' ', (size_t)(lf + 1 - e));
	}
	for (p = next; p < end && (next = rd_cut_line(p, end)) != NULL;
	     p = next) {
		if (*p == '\0')
			break; /* the blank line that ends the header */
		if ((colon = strchr(p, ':')) == NULL || colon == p)
			continue; /* not a field: ignored */
		for (e = colon; e > p && rd_blank(e[-1]); e--)
			;
		*e = '\0';
		for (v = colon + 1; rd_blank(*v); v++)
			;
		for (e = v + strlen(v); e > v && rd_blank(e[-1]); e--)
			;
		*e = '\0';
		rd_add(r, p, v);
	}
	return 0;
}

/* An ARC date (YYYYMMDDhhmmss, or fewer digits: the rest is zero) in the
 * WARC form, into out; NULL when d is not one. */
static const char *
rd_arc_date(const char *d, char *out, size_t outsz)
{
	char t[15];
	size_t n = 0;

	while (rd_digit((unsigned char)d[n]))
		n++;
	if (n < 4 || d[n] != '\0' || outsz < 21)
		return NULL;
	memset(t, '0', sizeof(t));
	memcpy(t, d, n < 14 ? n : 14);
	if (n < 6)
		memcpy(t + 4, "01", 2);
	if (n < 8)
		memcpy(t + 6, "01", 2);
	snprintf(out, outsz, "%.4s-%.2s-%.2sT%.2s:%.2s:%.2sZ", t, t + 4,
	    t + 6, t + 8, t + 10, t + 12);
	return out;
}

/*
 * An ARC header line: URL IP DATE MIME LENGTH (version 1), or with RESULT
 * CHECKSUM LOCATION OFFSET FILENAME before LENGTH (version 2). Cut from
 * the right, so that a URL with blanks in it (old writers) stays whole.
 * The version block (filedesc://) reads as a warcinfo record, every
 * other one as a response, its HTTP message the block when the URL is
 * http or https. 0, or -1.
 */
static int
rd_parse_arc(struct warc_reader *r, size_t len, char *err, size_t errsz)
{
	char *f[10], *p = r->hdr, *sp, *url, *date, *type;
	int nf = r->arc_fields > 0 ? r->arc_fields : 5, i;
	size_t used = 0;

	if (rd_cut_line(p, p + len) == NULL)
		return err_set(err, errsz, -1, "bad ARC header line");
	for (i = nf - 1; i > 0; i--) {
		if ((sp = strrchr(p, ' ')) == NULL || sp == p)
			return err_set(err, errsz, -1,
			    "ARC header line with fewer than %d fields", nf);
		*sp = '\0';
		f[i] = sp + 1;
	}
	f[0] = url = p;
	date = r->synth;
	if (rd_arc_date(f[2], date, sizeof(r->synth)) == NULL)
		date = NULL;
	else
		used = strlen(date) + 1;
	type = r->synth + used;
	if (strncmp(url, "filedesc://", 11) == 0) {
		rd_add(r, "WARC-Type", "warcinfo");
		rd_add(r, "WARC-Filename", url + 11);
		rd_add(r, "Content-Type", f[3]);
	} else {
		rd_add(r, "WARC-Type", "response");
		rd_add(r, "WARC-Target-URI", url);
		if (strncasecmp(url, "http:", 5) == 0 ||
		    strncasecmp(url, "https:", 6) == 0)
			snprintf(type, sizeof(r->synth) - used,
			    "application/http; msgtype=response");
		else
			snprintf(type, sizeof(r->synth) - used, "%s", f[3]);
		rd_add(r, "Content-Type", type);
	}
	rd_add(r, "WARC-IP-Address", f[1]);
	if (date != NULL)
		rd_add(r, "WARC-Date", date);
	rd_add(r, "Content-Length", f[nf - 1]);
	return 0;
}

const char *
warcread_field(const struct warc_reader *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->nfields; i++)
		if (warc_caseeq(r->fields[i].name, name))
			return r->fields[i].value;
	return NULL;
}

/* A URI field written in angle brackets, as WARC 1.0 (and wget) did:
 * drop them, in place. */
static const char *
rd_uri(struct warc_reader *r, const char *name)
{
	size_t i, n;
	char *v;

	for (i = 0; i < r->nfields; i++) {
		if (!warc_caseeq(r->fields[i].name, name))
			continue;
		v = (char *)(uintptr_t)r->fields[i].value;
		n = strlen(v);
		if (n >= 2 && v[0] == '<' && v[n - 1] == '>') {
			v[n - 1] = '\0';
			r->fields[i].value = v + 1;
		}
		return r->fields[i].value;
	}
	return NULL;
}

int
warcread_parse_head(struct warc_reader *r, size_t len, struct warc_head *h,
    char *err, size_t errsz)
{
	const char *cl;
	uint64_t n = 0;
	size_t i;

	r->nfields = 0;
	if ((r->arc ? rd_parse_arc(r, len, err, errsz)
	            : rd_parse_warc(r, len, err, errsz)) != 0)
		return -1;
	h->version = r->arc ? (r->arc_fields == 10 ? "ARC/2" : "ARC/1")
	                    : r->hdr;
	h->type = warcread_field(r, "WARC-Type");
	h->target_uri = rd_uri(r, "WARC-Target-URI");
	h->date = warcread_field(r, "WARC-Date");
	h->record_id = warcread_field(r, "WARC-Record-ID");
	h->content_type = warcread_field(r, "Content-Type");
	h->payload_digest = warcread_field(r, "WARC-Payload-Digest");
	h->block_digest = warcread_field(r, "WARC-Block-Digest");
	h->refers_to_target_uri = rd_uri(r, "WARC-Refers-To-Target-URI");
	h->refers_to_date = warcread_field(r, "WARC-Refers-To-Date");
	h->refers_to = warcread_field(r, "WARC-Refers-To");
	h->concurrent_to = warcread_field(r, "WARC-Concurrent-To");
	h->ip_address = warcread_field(r, "WARC-IP-Address");
	h->truncated = warcread_field(r, "WARC-Truncated");
	h->profile = warcread_field(r, "WARC-Profile");
	cl = warcread_field(r, "Content-Length");
	if (cl == NULL || *cl == '\0')
		return err_set(err, errsz, -1, "missing Content-Length");
	for (i = 0; cl[i] != '\0'; i++) {
		if (!rd_digit((unsigned char)cl[i]) || n > (UINT64_MAX >> 4))
			return err_set(err, errsz, -1, "bad Content-Length");
		n = n * 10 + (uint64_t)(cl[i] - '0');
	}
	h->content_length = n;
	return 0;
}
