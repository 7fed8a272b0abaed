/*
 * Fuzz the WARC reader (archive/warcread.h), the CDXJ indexer that reads
 * through it, and the HTTP head parser and chunked decoder.
 *
 * The first byte chooses how the rest becomes a file: 0 as it is; 1 cut
 * before every "WARC/1." and each piece gzipped as its own member (the
 * usual .warc.gz); 2 gzipped as one stream; 3 as 1, then cut short and
 * one byte flipped at places taken from the input (damaged members). The
 * file is read record by record with small and large block limits.
 *
 * Checks: warc_reader_next answers 1, 0 or -1 (never -2 on a regular
 * file), and only 0 once it has; reading ends within a number of calls
 * bounded by the file's size (every damage report moves on); file
 * offsets are within the file (an offset in the decompressed data of a
 * file gzipped whole may pass its size), and in a plain file the
 * records' offsets increase; a
 * block fills at most its buf's limit, and all of Content-Length when not
 * cut; warc_reader_finish's end lies after the record's offset; the
 * indexer succeeds; httpmsg_parse gives a head within the input and a
 * status of 0 or 100..999; httpmsg_dechunk answers 0, -1 or -2 and
 * decodes no more than it was given.
 */
#include "fuzz_common.h"
#include "archive/cdxj.h"
#include "archive/httpmsg.h"
#include "archive/warcread.h"
#include "util/buf.h"

#include <fcntl.h>
#include <unistd.h>
#include <zlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char warc_path[64], cdxj_path[80];

static void
remove_files(void)
{
	unlink(warc_path);
	unlink(cdxj_path);
}

/* gzip n bytes at p as one member appended to out. */
static void
gzip_member(const uint8_t *p, size_t n, struct buf *out)
{
	unsigned char chunk[4096];
	z_stream zs;
	int zrc;

	memset(&zs, 0, sizeof(zs));
	if (deflateInit2(&zs, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) !=
	    Z_OK)
		abort();
	zs.next_in = (unsigned char *)(uintptr_t)p;
	zs.avail_in = (unsigned int)n;
	do {
		zs.next_out = chunk;
		zs.avail_out = sizeof(chunk);
		zrc = deflate(&zs, Z_FINISH);
		if (buf_append(out, chunk, sizeof(chunk) - zs.avail_out) !=
		    BUF_OK)
			abort();
	} while (zrc == Z_OK);
	FUZZ_CHECK(zrc == Z_STREAM_END, "deflate %d", zrc);
	deflateEnd(&zs);
}

/* The rest of the input as the file mode says; into out. */
static void
make_file(int mode, const uint8_t *p, size_t n, struct buf *out)
{
	size_t start = 0, i, keep;

	if (mode == 0) {
		if (buf_append(out, p, n) != BUF_OK)
			abort();
		return;
	}
	if (mode == 2) {
		gzip_member(p, n, out);
		return;
	}
	for (i = 1; i + 7 <= n; i++) {
		if (memcmp(p + i, "WARC/1.", 7) == 0) {
			gzip_member(p + start, i - start, out);
			start = i;
		}
	}
	gzip_member(p + start, n - start, out);
	if (mode == 3 && n >= 2 && out->len > 0) {
		keep = out->len - (p[0] % (out->len < 64 ? out->len : 64));
		out->len = keep;
		if (keep > 0)
			out->data[(p[1] * 131u) % keep] ^= 0x5a;
	}
}

static void
write_all(const char *path, const void *p, size_t n)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	const char *c = p;
	ssize_t got;

	if (fd < 0)
		abort();
	while (n > 0) {
		if ((got = write(fd, c, n)) <= 0)
			abort();
		c += got;
		n -= (size_t)got;
	}
	close(fd);
}

static void
read_file(size_t fsize, int plain, size_t limit)
{
	struct warc_reader *r;
	struct warc_head h;
	struct buf b;
	char err[256];
	size_t calls = 0, bound = 2 * fsize + 8;
	uint64_t last = 0, end;
	int rc, brc, cut, any = 0, ask = 0;

	r = warc_reader_open(warc_path, err, sizeof(err));
	FUZZ_CHECK(r != NULL, "open: %s", err);
	buf_init(&b, limit);
	while ((rc = warc_reader_next(r, &h, err, sizeof(err))) != 0) {
		FUZZ_CHECK(
		    rc == 1 || rc == -1, "next answered %d: %s", rc, err);
		FUZZ_CHECK(
		    ++calls <= bound, "%zu calls on %zu bytes", calls, fsize);
		/* An offset in a file's decompressed data may pass its
		 * size; a file offset may not. */
		FUZZ_CHECK(h.decompressed || h.offset <= fsize,
		    "offset %llu past %zu", (unsigned long long)h.offset,
		    fsize);
		FUZZ_CHECK(!h.decompressed || !plain, "decompressed offset "
		    "in a plain file");
		if (rc == -1) {
			FUZZ_CHECK(err[0] != '\0', "no message");
			continue;
		}
		FUZZ_CHECK(h.version != NULL && h.reader != NULL, "no head");
		if (plain && any)
			FUZZ_CHECK(h.offset > last, "offset %llu after %llu",
			    (unsigned long long)h.offset,
			    (unsigned long long)last);
		last = h.offset;
		any = 1;
		ask = !ask;
		if (ask) {
			buf_reset(&b);
			brc = warc_reader_block(r, &b, &cut, err, sizeof(err));
			FUZZ_CHECK(brc == 0 || brc == -1 || brc == -4,
			    "block %d", brc);
			if (brc == -4)
				FUZZ_CHECK(b.len < h.content_length,
				    "cut short with all of its block");
			FUZZ_CHECK(b.len <= limit, "block past the limit");
			if (brc == 0 && !cut)
				FUZZ_CHECK(b.len == h.content_length,
				    "block %zu of %llu", b.len,
				    (unsigned long long)h.content_length);
			FUZZ_CHECK(warc_reader_block(
			               r, &b, &cut, err, sizeof(err)) == -3,
			    "second block");
		}
		if (warc_reader_finish(r, &end, err, sizeof(err)) == 0 &&
		    !h.decompressed)
			FUZZ_CHECK(end > h.offset && end <= fsize,
			    "end %llu of record at %llu",
			    (unsigned long long)end,
			    (unsigned long long)h.offset);
	}
	FUZZ_CHECK(
	    warc_reader_next(r, &h, err, sizeof(err)) == 0, "not 0 again");
	buf_free(&b);
	warc_reader_close(r);
}

static void
check_http(const uint8_t *data, size_t size)
{
	struct http_msg m;
	struct buf b;
	char v[32];
	int rc;

	if (httpmsg_parse((const char *)data, size, &m) == 0) {
		FUZZ_CHECK(m.head_len > 0 && m.head_len <= size, "head_len");
		FUZZ_CHECK(
		    m.status == 0 || (m.status >= 100 && m.status <= 999),
		    "status %d", m.status);
		httpmsg_header(&m, "content-type", v, sizeof(v));
		FUZZ_CHECK(strlen(v) < sizeof(v), "header value");
		data += m.head_len;
		size -= m.head_len;
	}
	buf_init(&b, 1024);
	rc = httpmsg_dechunk((const char *)data, size, &b);
	FUZZ_CHECK(rc == 0 || rc == -1 || rc == -2, "dechunk %d", rc);
	FUZZ_CHECK(b.len <= size, "dechunked more than given");
	buf_free(&b);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct buf file;
	char err[256];
	int fd, mode, plain;

	if (warc_path[0] == '\0') {
		snprintf(
		    warc_path, sizeof(warc_path), "/tmp/nc-fuzz-warc.XXXXXX");
		if ((fd = mkstemp(warc_path)) < 0)
			abort();
		close(fd);
		snprintf(cdxj_path, sizeof(cdxj_path), "%s.cdxj", warc_path);
		atexit(remove_files);
	}
	if (size == 0)
		return 0;
	mode = data[0] % 4;
	buf_init(&file, 64 << 20);
	make_file(mode, data + 1, size - 1, &file);
	write_all(warc_path, file.data != NULL ? file.data : "", file.len);
	plain = file.len < 2 || (unsigned char)file.data[0] != 0x1f ||
	    (unsigned char)file.data[1] != 0x8b;
	read_file(file.len, plain, 1 << 20);
	read_file(file.len, plain, 7);
	FUZZ_CHECK(cdxj_index_file(warc_path, cdxj_path, err, sizeof(err)) == 0,
	    "index: %s", err);
	unlink(cdxj_path);
	check_http(data + 1, size - 1);
	buf_free(&file);
	return 0;
}
