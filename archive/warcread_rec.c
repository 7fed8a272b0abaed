/*
 * warcread_rec: records -- headers, blocks, digests and what damage means for
 * the resync. The reader works on a window of data bytes (decompressed
 * when the file is gzipped) that slides over the file (warcread_data.c): a
 * record's header must fit in it whole, a block streams through it.
 * Offsets in the data are mapped back to the gzip member they came from
 * through the few members started last (warcread_where).
 */
#include "archive/warcread.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/evp.h>
#include <zlib.h>

#include "archive/warc_int.h"
#include "archive/warcread_int.h"
#include "util/buf.h"
#include "util/err.h"

static const unsigned char rd_magic[2] = {0x1f, 0x8b};

/* Note damage and choose how to resync; returns -1 for the caller. */
static int
rd_damaged(struct warc_reader *r, int kind)
{
	r->state = RD_BAD;
	r->sync_line = 0;
	switch (kind) {
	case RD_DMG_GZIP:
		r->sync = RD_SYNC_RAW;
		r->sync_from = r->fail_raw + 1;
		break;
	case RD_DMG_HEAD:
		r->sync = RD_SYNC_DATA;
		r->wpos++;
		break;
	case RD_DMG_BLOCK:
		if (r->gz && r->rec_member) {
			r->sync = RD_SYNC_RAW;
			r->sync_from = r->rec_off + 1;
		} else if (!r->gz) {
			r->sync = RD_SYNC_DATA;
			r->woff = r->rec_off + 1;
			r->wpos = r->wend = 0;
		} else {
			r->sync = RD_SYNC_DATA;
		}
		break;
	default:
		r->state = RD_DONE;
		break;
	}
	return -1;
}

static char
rd_lower(char c)
{
	return (c >= 'A' && c <= 'Z') ? (char)(c + ('a' - 'A')) : c;
}

/* The expected digest of a WARC-Block-Digest value in canonical form
 * (sha1: and upper-case base32), or "" when it is not a SHA-1. */
static void
rd_want_digest(const char *v, char want[WARC_DIGEST_LEN])
{
	unsigned char md[20];
	size_t i, n;
	int hi, lo;

	want[0] = '\0';
	if (v == NULL || strncasecmp(v, "sha1:", 5) != 0)
		return;
	v += 5;
	n = strlen(v);
	if (n == 32) {
		memcpy(want, "sha1:", 5);
		for (i = 0; i < 32; i++) {
			want[5 + i] = v[i];
			if (v[i] >= 'a' && v[i] <= 'z')
				want[5 + i] = (char)(v[i] - ('a' - 'A'));
		}
		want[37] = '\0';
		return;
	}
	if (n != 40)
		return;
	for (i = 0; i < 20; i++) {
		hi = rd_lower(v[2 * i]);
		lo = rd_lower(v[2 * i + 1]);
		hi = hi >= 'a' && hi <= 'f'  ? hi - 'a' + 10
		    : hi >= '0' && hi <= '9' ? hi - '0'
		                             : -1;
		lo = lo >= 'a' && lo <= 'f'  ? lo - 'a' + 10
		    : lo >= '0' && lo <= '9' ? lo - '0'
		                             : -1;
		if (hi < 0 || lo < 0)
			return;
		md[i] = (unsigned char)(hi << 4 | lo);
	}
	warc_sha1_text(md, want);
}

static int
rd_blank(char c)
{
	return c == ' ' || c == '\t';
}

/*
 * Cut the header copied into hdr (len bytes, ending in CRLFCRLF) into its
 * version line and fields. Returns 0, or -1 with err.
 */
static int
rd_parse_header(struct warc_reader *r, size_t len, char *err, size_t errsz)
{
	char *p = r->hdr, *end = r->hdr + len - 2, *eol, *colon, *v, *e;
	size_t i;

	r->nfields = 0;
	eol = strstr(p, "\r\n");
	if (eol == NULL || eol - p < 8 || memcmp(p, "WARC/1.", 7) != 0)
		return err_set(err, errsz, -1, "bad version line");
	for (i = 7; p + i < eol; i++)
		if (p[i] < '0' || p[i] > '9')
			return err_set(err, errsz, -1, "bad version line");
	*eol = '\0';
	for (p = eol + 2; p < end; p = eol + 2) {
		/* A field ends at a CRLF not followed by a blank. */
		for (eol = p; (eol = strstr(eol, "\r\n")) != NULL &&
		     eol + 2 < end && rd_blank(eol[2]);
		     eol += 2)
			eol[0] = eol[1] = ' ';
		if (eol == NULL)
			return err_set(err, errsz, -1, "bad header line");
		*eol = '\0';
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
		if (r->nfields < WARC_READ_MAX_FIELDS) {
			r->fields[r->nfields].name = p;
			r->fields[r->nfields].value = v;
			r->nfields++;
		}
	}
	return 0;
}

static const char *
rd_field(const struct warc_reader *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->nfields; i++)
		if (warc_caseeq(r->fields[i].name, name))
			return r->fields[i].value;
	return NULL;
}

const char *
warc_head_field(const struct warc_head *h, const char *name)
{
	if (h == NULL || h->reader == NULL || name == NULL)
		return NULL;
	return rd_field(h->reader, name);
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

/* Fill h from the parsed header; -1 when Content-Length is unusable. */
static int
rd_fill_head(
    struct warc_reader *r, struct warc_head *h, char *err, size_t errsz)
{
	const char *cl;
	uint64_t n = 0;
	size_t i;

	h->version = r->hdr;
	h->type = rd_field(r, "WARC-Type");
	h->target_uri = rd_uri(r, "WARC-Target-URI");
	h->date = rd_field(r, "WARC-Date");
	h->record_id = rd_field(r, "WARC-Record-ID");
	h->content_type = rd_field(r, "Content-Type");
	h->payload_digest = rd_field(r, "WARC-Payload-Digest");
	h->block_digest = rd_field(r, "WARC-Block-Digest");
	h->refers_to_target_uri = rd_uri(r, "WARC-Refers-To-Target-URI");
	h->refers_to_date = rd_field(r, "WARC-Refers-To-Date");
	h->refers_to = rd_field(r, "WARC-Refers-To");
	h->concurrent_to = rd_field(r, "WARC-Concurrent-To");
	h->ip_address = rd_field(r, "WARC-IP-Address");
	h->truncated = rd_field(r, "WARC-Truncated");
	h->profile = rd_field(r, "WARC-Profile");
	cl = rd_field(r, "Content-Length");
	if (cl == NULL || *cl == '\0')
		return err_set(err, errsz, -1, "missing Content-Length");
	for (i = 0; cl[i] != '\0'; i++) {
		if (cl[i] < '0' || cl[i] > '9' || n > (UINT64_MAX >> 4))
			return err_set(err, errsz, -1, "bad Content-Length");
		n = n * 10 + (uint64_t)(cl[i] - '0');
	}
	h->content_length = n;
	return 0;
}

/* Start the block of the record whose header is in h. */
static void
rd_start_block(struct warc_reader *r, const struct warc_head *h)
{
	r->left = h->content_length;
	r->digest_bad = 0;
	rd_want_digest(h->block_digest, r->want);
	r->md_ok = r->want[0] != '\0' &&
	    EVP_DigestInit_ex(r->md, EVP_sha1(), NULL) == 1;
	r->state = RD_BLOCK;
	r->have_rec = 1;
}

/* Read a record's header from wpos: 1, 0 at the end, -1 damaged, -2. */
static int
rd_header(struct warc_reader *r, struct warc_head *h, char *err, size_t errsz)
{
	unsigned char *hit;
	size_t have, from = 0, len;
	int rc;

	for (;;) {
		if (r->wpos == r->wend) {
			rc = warcread_more(r, 1, err, errsz);
			if (rc == 0) {
				r->state = RD_EOF;
				return 0;
			}
			if (rc == -1) {
				h->offset = r->fail_raw;
				return rd_damaged(r, RD_DMG_GZIP);
			}
			if (rc < 0)
				return rc;
		}
		if (r->win[r->wpos] != '\r' && r->win[r->wpos] != '\n')
			break;
		r->wpos++;
	}
	warcread_where(r, r->woff + r->wpos, &r->rec_off, &r->rec_member);
	h->offset = r->rec_off;
	for (;;) {
		have = r->wend - r->wpos;
		len = have < 7 ? have : 7;
		if (memcmp(r->win + r->wpos, "WARC/1.", len) != 0) {
			err_set(err, errsz, -1, "bad version line");
			return rd_damaged(r, RD_DMG_HEAD);
		}
		from = from > 3 ? from - 3 : 0;
		hit =
		    memmem(r->win + r->wpos + from, have - from, "\r\n\r\n", 4);
		if (hit != NULL)
			break;
		from = have;
		if (have >= WARC_READ_MAX_HEADER) {
			err_set(err, errsz, -1, "header too long");
			return rd_damaged(r, RD_DMG_HEAD);
		}
		rc = warcread_more(r, 1, err, errsz);
		if (rc == 0) {
			err_set(err, errsz, -1,
			    "truncated file (it ends inside a header)");
			return rd_damaged(r, RD_DMG_HEAD);
		}
		if (rc == -1)
			return rd_damaged(r, RD_DMG_GZIP);
		if (rc < 0)
			return rc;
	}
	len = (size_t)(hit - (r->win + r->wpos)) + 4;
	if (len > WARC_READ_MAX_HEADER) {
		err_set(err, errsz, -1, "header too long");
		return rd_damaged(r, RD_DMG_HEAD);
	}
	if (memchr(r->win + r->wpos, '\0', len) != NULL) {
		err_set(err, errsz, -1, "NUL byte in the header");
		return rd_damaged(r, RD_DMG_HEAD);
	}
	memcpy(r->hdr, r->win + r->wpos, len);
	r->hdr[len] = '\0';
	if (rd_parse_header(r, len, err, errsz) != 0 ||
	    rd_fill_head(r, h, err, errsz) != 0) {
		r->nfields = 0;
		memset(h, 0, sizeof(*h));
		h->offset = r->rec_off;
		return rd_damaged(r, RD_DMG_HEAD);
	}
	r->wpos += len;
	h->reader = r;
	rd_start_block(r, h);
	return 1;
}

/* Whether the window from wpos holds only CR and LF bytes. */
static int
rd_only_newlines(const struct warc_reader *r)
{
	size_t i;

	for (i = r->wpos; i < r->wend; i++)
		if (r->win[i] != '\r' && r->win[i] != '\n')
			return 0;
	return 1;
}

/* Where the record just read ends (see warc_reader_finish). */
static int
rd_find_end(struct warc_reader *r, char *err, size_t errsz)
{
	int rc;

	if (!r->gz) {
		r->end = r->woff + r->wpos;
		return 0;
	}
	/* Inflate on to the member's end when nothing else is left. */
	if (r->wpos == r->wend && !r->zended) {
		rc = warcread_more(r, 0, err, errsz);
		if (rc == -1)
			return rd_damaged(r, RD_DMG_GZIP);
		if (rc < 0)
			return rc;
	}
	if (r->zended && rd_only_newlines(r))
		r->end = r->zend_raw;
	else
		r->end = r->rawoff + r->rawpos;
	return 0;
}

/*
 * Read the rest of the current block (into b when not NULL, as far as it
 * has room), its closing CRLFCRLF, and check its digest. 0, -1, -2.
 */
static int
rd_block(
    struct warc_reader *r, struct buf *b, int *cut, char *err, size_t errsz)
{
	char got[WARC_DIGEST_LEN];
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0;
	size_t n, take;
	int rc;

	while (r->left > 0) {
		if (r->wpos == r->wend) {
			rc = warcread_more(r, 1, err, errsz);
			if (rc == 0) {
				err_set(err, errsz, -1,
				    "truncated file (it ends inside a block)");
				return rd_damaged(r, RD_DMG_BLOCK);
			}
			if (rc == -1)
				return rd_damaged(r, RD_DMG_GZIP);
			if (rc < 0)
				return rc;
		}
		n = r->wend - r->wpos;
		if ((uint64_t)n > r->left)
			n = (size_t)r->left;
		if (r->md_ok &&
		    EVP_DigestUpdate(r->md, r->win + r->wpos, n) != 1)
			r->md_ok = 0;
		if (b != NULL) {
			take = b->limit - b->len < n ? b->limit - b->len : n;
			if (take > 0 &&
			    buf_append(b, r->win + r->wpos, take) != BUF_OK) {
				r->failed = 1;
				return err_set(err, errsz, -2, "out of memory");
			}
			if (take < n && cut != NULL)
				*cut = 1;
		}
		r->wpos += n;
		r->left -= n;
	}
	rc = warcread_avail(r, 4, err, errsz);
	if (rc == -1)
		return rd_damaged(r, RD_DMG_GZIP);
	if (rc < 0)
		return rc;
	if (rc == 0 || memcmp(r->win + r->wpos, "\r\n\r\n", 4) != 0) {
		err_set(err, errsz, -1, "missing CRLFCRLF after the block");
		return rd_damaged(r, RD_DMG_BLOCK);
	}
	r->wpos += 4;
	if ((rc = rd_find_end(r, err, errsz)) != 0)
		return rc;
	r->state = RD_DONE;
	if (r->want[0] == '\0')
		return 0;
	if (r->md_ok && EVP_DigestFinal_ex(r->md, md, &mdlen) == 1 &&
	    mdlen == 20) {
		warc_sha1_text(md, got);
		if (strcmp(got, r->want) == 0)
			return 0;
	}
	r->digest_bad = 1;
	err_set(err, errsz, -1, "block digest mismatch");
	return rd_damaged(r, RD_DMG_DIGEST);
}

struct warc_reader *
warc_reader_open(const char *path, char *err, size_t errsz)
{
	struct warc_reader *r = NULL;
	unsigned char magic[2];
	struct stat st;
	ssize_t got;

	if (path == NULL || strcmp(path, "-") == 0) {
		err_set(err, errsz, -1, "standard input cannot be read");
		return NULL;
	}
	if ((r = calloc(1, sizeof(*r))) == NULL) {
		err_set(err, errsz, -1, "out of memory");
		return NULL;
	}
	r->fd = -1;
	if ((r->fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		err_set(err, errsz, -1, "%s: %s", path, strerror(errno));
		goto fail;
	}
	if (fstat(r->fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		err_set(err, errsz, -1, "%s: not a regular file", path);
		goto fail;
	}
	if ((got = warcread_pread(r, magic, 2, 0)) < 0) {
		err_set(err, errsz, -1, "%s: %s", path, strerror(errno));
		goto fail;
	}
	r->gz = got == 2 && magic[0] == rd_magic[0] && magic[1] == rd_magic[1];
	if ((r->md = EVP_MD_CTX_new()) == NULL) {
		err_set(err, errsz, -1, "out of memory");
		goto fail;
	}
	if (r->gz) {
		if (inflateInit2(&r->zs, 15 + 16) != Z_OK) {
			err_set(err, errsz, -1, "zlib: cannot start inflate");
			goto fail;
		}
		r->zinit = 1;
		r->zended = 1; /* the first member starts at offset 0 */
	}
	r->state = RD_NONE;
	return r;
fail:
	warc_reader_close(r);
	return NULL;
}

int
warc_reader_next(
    struct warc_reader *r, struct warc_head *h, char *err, size_t errsz)
{
	int rc;

	memset(h, 0, sizeof(*h));
	r->have_rec = 0;
	if (r->failed)
		return err_set(err, errsz, -2, "an earlier read failed");
	if (r->state == RD_BLOCK) {
		r->nfields = 0;
		if ((rc = rd_block(r, NULL, NULL, err, errsz)) != 0) {
			h->offset = r->rec_off;
			return rc;
		}
	}
	r->nfields = 0;
	if (r->state == RD_DONE)
		r->state = RD_NONE;
	if (r->state == RD_BAD) {
		if ((rc = warcread_resync(r, err, errsz)) < 0)
			return -2;
		r->state = rc == 0 ? RD_EOF : RD_NONE;
	}
	if (r->state == RD_EOF)
		return 0;
	return rd_header(r, h, err, errsz);
}

int
warc_reader_block(
    struct warc_reader *r, struct buf *b, int *cut, char *err, size_t errsz)
{
	if (cut != NULL)
		*cut = 0;
	if (r->failed)
		return err_set(err, errsz, -2, "an earlier read failed");
	if (!r->have_rec || r->state != RD_BLOCK)
		return err_set(err, errsz, -3, "no record to read a block of");
	return rd_block(r, b, cut, err, errsz);
}

int
warc_reader_finish(
    struct warc_reader *r, uint64_t *end, char *err, size_t errsz)
{
	int rc = 0;

	*end = 0;
	if (r->failed)
		return err_set(err, errsz, -2, "an earlier read failed");
	if (!r->have_rec)
		return err_set(err, errsz, -3, "no current record");
	if (r->state == RD_BLOCK)
		rc = rd_block(r, NULL, NULL, err, errsz);
	else if (r->digest_bad)
		rc = err_set(err, errsz, -1, "block digest mismatch");
	else if (r->state == RD_BAD)
		rc = err_set(err, errsz, -1, "damaged record");
	if (rc == -2)
		return rc;
	*end = r->state == RD_BAD ? r->rec_off : r->end;
	return rc;
}

int
warc_reader_seek(struct warc_reader *r, uint64_t offset)
{
	if (r->failed)
		return -1;
	/* As a resync lands on a member: nothing of the window or of the
	 * inflater is kept, and the next record is read from offset. */
	if (r->gz) {
		r->rawoff = offset;
		r->rawpos = r->rawend = 0;
		r->zended = 1;
		r->woff += r->wend;
	} else
		r->woff = offset;
	r->wpos = r->wend = 0;
	r->nfields = 0;
	r->have_rec = 0;
	r->digest_bad = 0;
	r->state = RD_NONE;
	return 0;
}

int
warc_reader_gzipped(const struct warc_reader *r)
{
	return r->gz;
}

void
warc_reader_close(struct warc_reader *r)
{
	if (r == NULL)
		return;
	if (r->zinit)
		inflateEnd(&r->zs);
	EVP_MD_CTX_free(r->md);
	if (r->fd >= 0)
		close(r->fd);
	free(r);
}
