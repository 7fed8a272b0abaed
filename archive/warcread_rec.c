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

const char *
warc_head_field(const struct warc_head *h, const char *name)
{
	if (h == NULL || h->reader == NULL || name == NULL)
		return NULL;
	return warcread_field(h->reader, name);
}

/* Start the block of the record whose header is in h. */
static void
rd_start_block(struct warc_reader *r, const struct warc_head *h)
{
	r->left = r->cl = h->content_length;
	r->digest_bad = 0;
	r->cut_short = 0;
	warcread_want_digest(h->block_digest, r->want);
	r->md_ok = r->want[0] != '\0' &&
	    EVP_DigestInit_ex(r->md, EVP_sha1(), NULL) == 1;
	r->state = RD_BLOCK;
	r->have_rec = 1;
}

/*
 * Where the record at data offset here starts, into rec_off: its byte
 * offset in a plain file; in a gzipped one, the file offset of its gzip
 * member when it starts one (nothing but line ends before it in the
 * member, from pos0 on), else its offset in the decompressed data (a
 * member that holds several records: a file gzipped whole).
 */
static void
rd_place(struct warc_reader *r, uint64_t pos0, uint64_t here)
{
	uint64_t raw, raw0;
	int first, first0;

	r->rec_off = here;
	r->rec_member = r->rec_data = 0;
	if (!r->gz)
		return;
	warcread_where(r, here, &raw, &first);
	if (!first) {
		warcread_where(r, pos0, &raw0, &first0);
		first = first0 && raw0 == raw;
	}
	if (first) {
		r->rec_off = raw;
		r->rec_member = 1;
		return;
	}
	r->rec_data = 1;
	r->mem_multi = 1;
}

/* Damage in the compressed data between records: where to say it is. */
static int
rd_gzip_between(struct warc_reader *r, struct warc_head *h)
{
	h->offset = r->mem_multi ? r->woff + r->wpos : r->fail_raw;
	h->decompressed = r->mem_multi;
	return rd_damaged(r, RD_DMG_GZIP);
}

/* Read a record's header from wpos: 1, 0 at the end, -1 damaged, -2. */
static int
rd_header(struct warc_reader *r, struct warc_head *h, char *err, size_t errsz)
{
	uint64_t pos0 = UINT64_MAX;
	size_t have, from = 0, len = 0;
	int rc, st;

	for (;;) {
		if (r->wpos == r->wend) {
			rc = warcread_more(r, 1, err, errsz);
			if (rc == 0) {
				r->state = RD_EOF;
				return 0;
			}
			if (rc == -1)
				return rd_gzip_between(r, h);
			if (rc < 0)
				return rc;
		}
		if (pos0 == UINT64_MAX)
			pos0 = r->woff + r->wpos;
		if (r->win[r->wpos] != '\r' && r->win[r->wpos] != '\n')
			break;
		r->wpos++;
	}
	rd_place(r, pos0, r->woff + r->wpos);
	h->offset = r->rec_off;
	h->decompressed = r->rec_data;
	for (;;) {
		have = r->wend - r->wpos;
		st = warcread_is_start(r, r->win + r->wpos, have, 0);
		if (st == 0) {
			err_set(err, errsz, -1, r->arc ? "bad ARC header line"
			                               : "bad version line");
			return rd_damaged(r, RD_DMG_HEAD);
		}
		if (st == 1 && (len = warcread_head_len(r, have, &from)) > 0)
			break;
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
	if (warcread_parse_head(r, len, h, err, errsz) != 0) {
		r->nfields = 0;
		memset(h, 0, sizeof(*h));
		h->offset = r->rec_off;
		h->decompressed = r->rec_data;
		return rd_damaged(r, RD_DMG_HEAD);
	}
	r->wpos += len;
	h->reader = r;
	rd_start_block(r, h);
	return 1;
}

/* The file ended inside the current block: what there was of it has
 * been read. -4 for warc_reader_block. */
static int
rd_cut_short(struct warc_reader *r, char *err, size_t errsz)
{
	r->cut_short = 1;
	r->state = RD_EOF;
	return err_set(err, errsz, -4,
	    "truncated file (it ends %" PRIu64 " bytes into a block of %" PRIu64
	    ")",
	    r->cl - r->left, r->cl);
}

/*
 * The compressed data went bad after a whole block, where its separator
 * or its gzip member's end was looked for. In a member of its own the
 * record goes with its member. In a member that holds several records
 * (a file gzipped whole: its check fails at the very end) the data read
 * so far was delivered and nothing says which record is wrong: the
 * record stands, and the damage is the next call's to report, where the
 * data stopped.
 */
static int
rd_gzip_after(struct warc_reader *r, const char *err)
{
	if (!r->mem_multi)
		return rd_damaged(r, RD_DMG_GZIP);
	r->pending = 1;
	r->pending_off = r->woff + r->wend;
	snprintf(r->pending_err, sizeof(r->pending_err), "%s", err);
	r->sync = RD_SYNC_RAW;
	r->sync_from = r->fail_raw + 1;
	r->end = r->rawoff + r->rawpos;
	return 0;
}

/*
 * What follows a block: the standard's CRLF CRLF, but any run of line
 * ends is taken (one CRLF, LF only, none: writers do all of these), for
 * the block is what Content-Length says. After them, within its gzip
 * member, the next record should start. Sets r->end. 0, 1 when something
 * else follows (left at wpos), -1 (damaged), -2.
 */
static int
rd_separator(struct warc_reader *r, char *err, size_t errsz)
{
	int rc, st;

	for (;;) {
		while (r->wpos < r->wend &&
		    (r->win[r->wpos] == '\r' || r->win[r->wpos] == '\n'))
			r->wpos++;
		if (r->wpos < r->wend)
			break;
		rc = warcread_more(r, 0, err, errsz);
		if (rc == 0) {
			/* The end of the file, or of the member. */
			r->end = !r->gz ? r->woff + r->wpos
			    : r->zended ? r->zend_raw
			                : r->rawoff + r->rawpos;
			return 0;
		}
		if (rc == -1)
			return rd_gzip_after(r, err);
		if (rc < 0)
			return rc;
	}
	for (;;) {
		st = warcread_is_start(
		    r, r->win + r->wpos, r->wend - r->wpos, 0);
		if (st >= 0)
			break;
		if ((rc = warcread_more(r, 0, err, errsz)) == 0)
			st = warcread_is_start(
			    r, r->win + r->wpos, r->wend - r->wpos, 1);
		if (rc == 0)
			break;
		if (rc == -1)
			return rd_gzip_after(r, err);
		if (rc < 0)
			return rc;
	}
	r->end = r->gz ? r->rawoff + r->rawpos : r->woff + r->wpos;
	return st == 0;
}

/*
 * Read the rest of the current block (into b when not NULL, as far as it
 * has room), what separates it from the next record, and check its
 * digest. 0, -1, -2, -4 (the file ends inside it).
 */
static int
rd_block(
    struct warc_reader *r, struct buf *b, int *cut, char *err, size_t errsz)
{
	char got[WARC_DIGEST_LEN];
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0;
	size_t n, take;
	int rc, after, digest;

	while (r->left > 0) {
		if (r->wpos == r->wend) {
			rc = warcread_more(r, 1, err, errsz);
			/* A plain file that ends, or a gzip member cut by
			 * the end of the file: the writer was stopped, or
			 * the copy cut short. A whole member with too
			 * little data is a wrong Content-Length. */
			if ((rc == 0 && !r->gz) || (rc == -1 && r->fail_eof))
				return rd_cut_short(r, err, errsz);
			if (rc == 0) {
				err_set(err, errsz, -1,
				    "Content-Length runs past the end of the "
				    "file (%" PRIu64 " of %" PRIu64 " bytes)",
				    r->cl - r->left, r->cl);
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
	if ((after = rd_separator(r, err, errsz)) < 0)
		return after;
	r->state = RD_DONE;
	if (r->want[0] != '\0' && r->md_ok &&
	    EVP_DigestFinal_ex(r->md, md, &mdlen) == 1 && mdlen == 20) {
		warc_sha1_text(md, got);
		digest = strcmp(got, r->want) == 0 ? 1 : -1;
	} else {
		digest = r->want[0] != '\0' ? -1 : 0;
	}
	/* No record after the block: a wrong Content-Length, unless the
	 * digest vouches for the block; then the bytes after it are damage
	 * of their own, for the next call. */
	if (after == 1 && digest != 1) {
		err_set(err, errsz, -1,
		    "Content-Length does not end the block: what follows it "
		    "starts no record");
		return rd_damaged(r, RD_DMG_BLOCK);
	}
	if (digest >= 0)
		return 0;
	r->digest_bad = 1;
	err_set(err, errsz, -1, "block digest mismatch");
	return rd_damaged(r, RD_DMG_DIGEST);
}

/*
 * An ARC file's version block (filedesc://): its second line gives the
 * version, which says how many fields the header lines of its records
 * have. Read past, as a file header rather than a record. 0, or what
 * rd_block returns.
 */
static int
rd_arc_version(struct warc_reader *r, char *err, size_t errsz)
{
	int rc;

	r->arc_fields = 5;
	if ((rc = warcread_avail(r, 1, 0, err, errsz)) < 0)
		return rc == -1 ? rd_damaged(r, RD_DMG_GZIP) : rc;
	if (rc == 1 && r->left > 0 && r->win[r->wpos] == '2')
		r->arc_fields = 10;
	return rd_block(r, NULL, NULL, err, errsz);
}

/* Report the damage noted in the data of a member that holds several
 * records (r->pending): -1, h->earlier set. */
static int
rd_report_pending(
    struct warc_reader *r, struct warc_head *h, char *err, size_t errsz)
{
	r->pending = 0;
	h->offset = r->pending_off;
	h->decompressed = 1;
	h->earlier = 1;
	return err_set(err, errsz, -1, "%s", r->pending_err);
}

struct warc_reader *
warc_reader_open(const char *path, char *err, size_t errsz)
{
	struct warc_reader *r = NULL;
	unsigned char magic[11];
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
	/* An ARC file opens with its version block. */
	got = r->gz ? warcread_peek(r, 0, magic, sizeof(magic))
	            : warcread_pread(r, magic, sizeof(magic), 0);
	if (got < 0) {
		err_set(err, errsz, -1, "%s: %s", path, strerror(errno));
		goto fail;
	}
	r->arc = got == sizeof(magic) && memcmp(magic, "filedesc://", 11) == 0;
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
			h->decompressed = r->rec_data;
			h->earlier = 1;
			return rc == -4 ? -1 : rc;
		}
	}
	r->nfields = 0;
	if (r->pending) {
		/* The record read last stands; resync past the bad data. */
		r->state = RD_BAD;
		return rd_report_pending(r, h, err, errsz);
	}
	for (;;) {
		if (r->state == RD_DONE)
			r->state = RD_NONE;
		if (r->state == RD_BAD) {
			if ((rc = warcread_resync(r, err, errsz)) < 0)
				return -2;
			r->state = rc == 0 ? RD_EOF : RD_NONE;
			if (r->pending)
				return rd_report_pending(r, h, err, errsz);
		}
		if (r->state == RD_EOF)
			return 0;
		rc = rd_header(r, h, err, errsz);
		if (rc != 1 || !r->arc || h->type == NULL ||
		    strcmp(h->type, "warcinfo") != 0)
			return rc;
		/* An ARC version block: not a record. */
		if ((rc = rd_arc_version(r, err, errsz)) != 0) {
			memset(h, 0, sizeof(*h));
			h->offset = r->rec_off;
			h->decompressed = r->rec_data;
			return rc == -4 ? -1 : rc;
		}
		r->have_rec = 0;
		r->nfields = 0;
		memset(h, 0, sizeof(*h));
	}
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
	else if (r->cut_short)
		rc = err_set(err, errsz, -4, "truncated file (cut short)");
	else if (r->digest_bad)
		rc = err_set(err, errsz, -1, "block digest mismatch");
	else if (r->state == RD_BAD)
		rc = err_set(err, errsz, -1, "damaged record");
	if (rc == -2)
		return rc;
	*end = r->state == RD_BAD || rc == -4 ? r->rec_off : r->end;
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
	r->cut_short = 0;
	r->pending = 0;
	r->mem_multi = 0;
	r->zbad[0] = '\0';
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
