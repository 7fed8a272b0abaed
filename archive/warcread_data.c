/*
 * warcread_data: the reader's data window over the file -- inflating gzip
 * members one after another, remembering where each began, and finding
 * the next record after damage.
 */
#include "archive/warcread_int.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "util/err.h"

static const unsigned char rd_magic[3] = {0x1f, 0x8b, 0x08};

ssize_t
warcread_pread(struct warc_reader *r, void *p, size_t n, uint64_t off)
{
	ssize_t got;

	do
		got = pread(r->fd, p, n, (off_t)off);
	while (got < 0 && errno == EINTR);
	return got;
}

int
warcread_ioerr(struct warc_reader *r, char *err, size_t errsz, const char *what)
{
	r->failed = 1;
	return err_set(err, errsz, -2, "%s: %s", what,
	    errno != 0 ? strerror(errno) : "failed");
}

/*
 * At least k compressed bytes from rawpos, unless the file ends first.
 * Returns how many there are (<= k only at the end), or -2.
 */
static long
rd_raw_need(struct warc_reader *r, size_t k, char *err, size_t errsz)
{
	ssize_t got;

	while (r->rawend - r->rawpos < k) {
		if (r->rawpos > 0) {
			memmove(
			    r->raw, r->raw + r->rawpos, r->rawend - r->rawpos);
			r->rawoff += r->rawpos;
			r->rawend -= r->rawpos;
			r->rawpos = 0;
		}
		got = warcread_pread(r, r->raw + r->rawend, RD_RAW - r->rawend,
		    r->rawoff + r->rawend);
		if (got < 0)
			return warcread_ioerr(r, err, errsz, "read");
		if (got == 0)
			break;
		r->rawend += (size_t)got;
	}
	return (long)(r->rawend - r->rawpos);
}

static void
rd_push_member(struct warc_reader *r, uint64_t data, uint64_t raw)
{
	r->mem[r->nmem % RD_MEMBERS].data = data;
	r->mem[r->nmem % RD_MEMBERS].raw = raw;
	r->nmem++;
	r->mem_multi = 0;
}

void
warcread_where(
    const struct warc_reader *r, uint64_t d, uint64_t *raw, int *first)
{
	const struct rd_member *m = NULL;
	size_t i;

	*raw = d;
	*first = 0;
	if (!r->gz)
		return;
	for (i = r->nmem; i > 0 && i + RD_MEMBERS > r->nmem; i--) {
		m = &r->mem[(i - 1) % RD_MEMBERS];
		if (m->data <= d)
			break;
	}
	if (m != NULL) {
		*raw = m->raw;
		*first = m->data == d;
	}
}

/* The file offset of the member being inflated (for damage reports). */
static uint64_t
rd_cur_member(const struct warc_reader *r)
{
	return r->nmem > 0 ? r->mem[(r->nmem - 1) % RD_MEMBERS].raw : 0;
}

int
warcread_more(struct warc_reader *r, int cross, char *err, size_t errsz)
{
	size_t got, room;
	ssize_t n;
	long have;
	int zrc;

	if (r->wpos == r->wend) {
		r->woff += r->wpos;
		r->wpos = r->wend = 0;
	} else if (r->wend == RD_WIN) {
		memmove(r->win, r->win + r->wpos, r->wend - r->wpos);
		r->woff += r->wpos;
		r->wend -= r->wpos;
		r->wpos = 0;
	}
	room = RD_WIN - r->wend;
	if (!r->gz) {
		n = warcread_pread(
		    r, r->win + r->wend, room, r->woff + r->wend);
		if (n < 0)
			return warcread_ioerr(r, err, errsz, "read");
		r->wend += (size_t)n;
		return (int)n;
	}
	for (;;) {
		if (r->zbad[0] != '\0')
			return err_set(err, errsz, -1, "%s", r->zbad);
		if (r->zended) {
			if (!cross)
				return 0;
			if ((have = rd_raw_need(r, 3, err, errsz)) < 0)
				return -2;
			if (have == 0)
				return 0;
			if (have < 3 ||
			    memcmp(r->raw + r->rawpos, rd_magic, 3) != 0) {
				r->fail_raw = r->rawoff + r->rawpos;
				r->fail_eof = 0;
				return err_set(err, errsz, -1,
				    "bytes that are not a gzip member at "
				    "offset %" PRIu64,
				    r->fail_raw);
			}
			if (inflateReset(&r->zs) != Z_OK) {
				r->failed = 1;
				return err_set(err, errsz, -2, "zlib: reset");
			}
			rd_push_member(
			    r, r->woff + r->wend, r->rawoff + r->rawpos);
			r->zended = 0;
		}
		if (r->rawpos == r->rawend) {
			if ((have = rd_raw_need(r, 1, err, errsz)) < 0)
				return -2;
			if (have == 0) {
				r->fail_raw = rd_cur_member(r);
				r->fail_eof = 1;
				return err_set(err, errsz, -1,
				    "truncated file (it ends inside a gzip "
				    "member)");
			}
		}
		r->zs.next_in = r->raw + r->rawpos;
		r->zs.avail_in = (unsigned int)(r->rawend - r->rawpos);
		r->zs.next_out = r->win + r->wend;
		r->zs.avail_out = (unsigned int)room;
		zrc = inflate(&r->zs, Z_NO_FLUSH);
		r->rawpos = (size_t)(r->zs.next_in - r->raw);
		got = room - r->zs.avail_out;
		r->wend += got;
		room -= got;
		if (zrc == Z_STREAM_END) {
			r->zended = 1;
			r->zend_raw = r->rawoff + r->rawpos;
		} else if (zrc == Z_MEM_ERROR) {
			r->failed = 1;
			return err_set(err, errsz, -2, "zlib: out of memory");
		} else if (zrc != Z_OK && zrc != Z_BUF_ERROR) {
			/* What came before the bad data is delivered first
			 * (a wrong check at a member's end comes after all
			 * of it); the next call reports the damage. */
			r->fail_raw = rd_cur_member(r);
			r->fail_eof = 0;
			snprintf(r->zbad, sizeof(r->zbad), "bad gzip data (%s)",
			    r->zs.msg != NULL ? r->zs.msg : "inflate failed");
			if (got == 0)
				return err_set(err, errsz, -1, "%s", r->zbad);
		}
		if (got > 0)
			return (int)got;
	}
}

int
warcread_avail(
    struct warc_reader *r, size_t k, int cross, char *err, size_t errsz)
{
	int rc;

	while (r->wend - r->wpos < k)
		if ((rc = warcread_more(r, cross, err, errsz)) <= 0)
			return rc;
	return 1;
}

/* Where the next gzip header at or after off is: 1 with *at, 0 none. */
static int
rd_find_magic(
    struct warc_reader *r, uint64_t off, uint64_t *at, char *err, size_t errsz)
{
	ssize_t got;
	size_t i;

	for (;;) {
		got = warcread_pread(r, r->raw, RD_RAW, off);
		if (got < 0)
			return warcread_ioerr(r, err, errsz, "read");
		if (got < 3)
			return 0;
		for (i = 0; i + 3 <= (size_t)got; i++) {
			if (r->raw[i] == rd_magic[0] &&
			    memcmp(r->raw + i, rd_magic, 3) == 0) {
				*at = off + i;
				return 1;
			}
		}
		off += (uint64_t)got - 2;
	}
}

ssize_t
warcread_peek(
    struct warc_reader *r, uint64_t off, unsigned char *out, size_t n)
{
	size_t fed = 0;
	ssize_t got;
	int zrc;

	if (inflateReset(&r->zs) != Z_OK) {
		r->failed = 1;
		return -2;
	}
	r->zs.next_out = out;
	r->zs.avail_out = (unsigned int)n;
	while (r->zs.avail_out > 0 && fed < RD_PROBE_MAX) {
		got = warcread_pread(r, r->raw, 4096, off + fed);
		if (got < 0) {
			r->failed = 1;
			return -2;
		}
		if (got == 0)
			break;
		fed += (size_t)got;
		r->zs.next_in = r->raw;
		r->zs.avail_in = (unsigned int)got;
		zrc = inflate(&r->zs, Z_NO_FLUSH);
		if (zrc != Z_OK && zrc != Z_BUF_ERROR)
			break;
	}
	return (ssize_t)(n - r->zs.avail_out);
}

/* Whether the member at off inflates to data that starts a record. */
static int
rd_probe(struct warc_reader *r, uint64_t off, char *err, size_t errsz)
{
	unsigned char out[RD_START_MAX];
	ssize_t got;

	if ((got = warcread_peek(r, off, out, sizeof(out))) < 0)
		return warcread_ioerr(r, err, errsz, "read");
	return warcread_is_start(r, out, (size_t)got, 1) == 1;
}

/* Resync on the next gzip member from sync_from that holds a record. */
static int
rd_sync_raw(struct warc_reader *r, char *err, size_t errsz)
{
	uint64_t at = 0, from = r->sync_from;
	int rc;

	for (;;) {
		if ((rc = rd_find_magic(r, from, &at, err, errsz)) <= 0)
			return rc;
		if ((rc = rd_probe(r, at, err, errsz)) < 0)
			return rc;
		if (rc == 1)
			break;
		from = at + 1;
	}
	r->rawoff = at;
	r->rawpos = r->rawend = 0;
	r->zended = 1;
	r->zbad[0] = '\0';
	r->woff += r->wend;
	r->wpos = r->wend = 0;
	return 1;
}

/* Whether wpos starts a record, reading on as far as that takes. 1, 0,
 * -1 damaged compressed data, -2. */
static int
rd_start_at(struct warc_reader *r, char *err, size_t errsz)
{
	int rc, st;

	while ((st = warcread_is_start(
	            r, r->win + r->wpos, r->wend - r->wpos, 0)) < 0) {
		if ((rc = warcread_more(r, 1, err, errsz)) < 0)
			return rc;
		if (rc == 0)
			return warcread_is_start(
			    r, r->win + r->wpos, r->wend - r->wpos, 1);
	}
	return st;
}

/*
 * Resync on the next line of the data that starts a record (a gzip
 * member's first byte starts a line). Returns 1 with wpos there, 0 at
 * the end, -1 compressed data damaged (fail_raw), -2.
 */
static int
rd_sync_data(struct warc_reader *r, char *err, size_t errsz)
{
	const struct rd_member *m;
	uint64_t here, next;
	unsigned char *nl;
	size_t i;
	int rc;

	for (;;) {
		if ((rc = warcread_avail(r, 1, 1, err, errsz)) <= 0)
			return rc;
		here = r->woff + r->wpos;
		for (i = 0; i < RD_MEMBERS && i < r->nmem; i++)
			if (r->mem[i].data == here)
				r->sync_line = 1;
		if (r->sync_line && (rc = rd_start_at(r, err, errsz)) != 0)
			return rc;
		here = r->woff + r->wpos;
		nl = memchr(r->win + r->wpos, '\n', r->wend - r->wpos);
		next = nl != NULL ? r->woff + (size_t)(nl - r->win) + 1
		                  : r->woff + r->wend;
		r->sync_line = nl != NULL;
		/* Stop at the first member start on the way: it starts a
		 * line too. */
		for (i = 0; i < RD_MEMBERS && i < r->nmem; i++) {
			m = &r->mem[i];
			if (m->data > here && m->data < next) {
				next = m->data;
				r->sync_line = 1;
			}
		}
		r->wpos = (size_t)(next - r->woff);
	}
}

int
warcread_resync(struct warc_reader *r, char *err, size_t errsz)
{
	int rc;

	for (;;) {
		if (r->sync == RD_SYNC_RAW)
			return rd_sync_raw(r, err, errsz);
		rc = rd_sync_data(r, err, errsz);
		if (rc != -1)
			return rc;
		/* In a member that holds several records this is the only
		 * word of what the bad data loses: report it. */
		if (r->mem_multi && !r->pending) {
			r->pending = 1;
			r->pending_off = r->woff + r->wend;
			snprintf(r->pending_err, sizeof(r->pending_err), "%s",
			    err);
		}
		r->sync = RD_SYNC_RAW;
		r->sync_from = r->fail_raw + 1;
	}
}

int
warc_file_check(const char *path, char *err, size_t errsz)
{
	unsigned char raw[4096], head[16];
	char shown[sizeof(head) + 1];
	z_stream zs;
	ssize_t n;
	int fd, i, got;

	/* Only the start is looked at: a gzip stream damaged further on
	 * (its check wrong at the end, say) is no reason to refuse it. */
	errno = 0;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return err_set(err, errsz, -2, "%s: %s", path, strerror(errno));
	do
		n = read(fd, raw, sizeof(raw));
	while (n < 0 && errno == EINTR);
	close(fd);
	if (n < 0)
		return err_set(err, errsz, -2, "%s: cannot read", path);
	got = (int)(n < (ssize_t)sizeof(head) ? n : (ssize_t)sizeof(head));
	memcpy(head, raw, (size_t)got);
	if (n >= 2 && raw[0] == 0x1f && raw[1] == 0x8b) {
		memset(&zs, 0, sizeof(zs));
		if (inflateInit2(&zs, 15 + 16) != Z_OK)
			return err_set(err, errsz, -2, "out of memory");
		zs.next_in = raw;
		zs.avail_in = (unsigned int)n;
		zs.next_out = head;
		zs.avail_out = sizeof(head);
		inflate(&zs, Z_SYNC_FLUSH);
		got = (int)(sizeof(head) - zs.avail_out);
		inflateEnd(&zs);
	}
	if (n == 0 || (got >= 5 && memcmp(head, "WARC/", 5) == 0) ||
	    (got >= 11 && memcmp(head, "filedesc://", 11) == 0))
		return 0;
	for (i = 0; i < got; i++)
		shown[i] = head[i] >= 0x20 && head[i] < 0x7f ? (char)head[i]
		                                               : '.';
	shown[got] = '\0';
	return err_set(err, errsz, -1, "%s: not a WARC or ARC file (it starts "
	    "with \"%s\"); dedup reads WARC 0.17 to 1.1 and ARC, gzip or "
	    "not", path, shown);
}
