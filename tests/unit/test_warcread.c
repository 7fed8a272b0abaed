/*
 * archive/warcread as the world writes archives: the WARC drafts 0.17 and
 * 0.18, header lines ending in LF or CR CR LF, the run of line ends after
 * a block (one CRLF, LF only, none), a file that ends inside a block,
 * damage found while skipping a block, a file gzipped whole (offsets in
 * its data, its check failing at the end), and ARC files.
 */
#include "archive/warcread.h"
#include "util/buf.h"
#include "check.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#define MAXREC 32

void unit_make_dir(const char *tag, char *dir, size_t dirsz);
void unit_remove_dir(const char *dir);

/* What one warc_reader_next call (and the block read after it) gave. */
struct got {
	int rc;           /* warc_reader_next */
	int brc;          /* warc_reader_block, when rc is 1 */
	uint64_t offset;  /* h.offset */
	int decompressed; /* h.decompressed */
	int earlier;      /* h.earlier */
	char type[32];    /* h.type */
	char uri[96];     /* h.target_uri */
	char date[32];    /* h.date */
	char ct[64];      /* h.content_type */
	char block[128];  /* the block's first bytes */
	size_t len;       /* the block's length */
	char err[256];    /* what a failure said */
};

/* Read path through; blocks read when read_blocks. The calls made. */
static int
read_through(const char *path, int read_blocks, struct got *g, int max)
{
	struct warc_reader *r;
	struct warc_head h;
	struct buf b;
	char err[256];
	int n = 0, rc;

	if ((r = warc_reader_open(path, err, sizeof(err))) == NULL)
		return -1;
	buf_init(&b, 1 << 20);
	while (n < max) {
		memset(&g[n], 0, sizeof(g[n]));
		err[0] = '\0';
		rc = warc_reader_next(r, &h, err, sizeof(err));
		g[n].rc = rc;
		g[n].offset = h.offset;
		g[n].decompressed = h.decompressed;
		g[n].earlier = h.earlier;
		snprintf(g[n].err, sizeof(g[n].err), "%s", err);
		if (rc == 1) {
			snprintf(g[n].type, sizeof(g[n].type), "%s",
			    h.type != NULL ? h.type : "");
			snprintf(g[n].uri, sizeof(g[n].uri), "%s",
			    h.target_uri != NULL ? h.target_uri : "");
			snprintf(g[n].date, sizeof(g[n].date), "%s",
			    h.date != NULL ? h.date : "");
			snprintf(g[n].ct, sizeof(g[n].ct), "%s",
			    h.content_type != NULL ? h.content_type : "");
			if (read_blocks) {
				buf_reset(&b);
				g[n].brc = warc_reader_block(
				    r, &b, NULL, err, sizeof(err));
				g[n].len = b.len;
				snprintf(g[n].block, sizeof(g[n].block), "%s",
				    b.data != NULL ? b.data : "");
				if (g[n].brc != 0)
					snprintf(g[n].err, sizeof(g[n].err),
					    "%s", err);
			}
		}
		n++;
		if (rc == 0 || rc == -2)
			break;
	}
	buf_free(&b);
	warc_reader_close(r);
	return n;
}

/* A record of version v, type t, block blk, header lines ending in eol,
 * then sep after the block; appended to out. */
static void
rec(struct buf *out, const char *v, const char *t, const char *uri,
    const char *blk, const char *eol, const char *sep)
{
	char line[256];

	snprintf(line, sizeof(line), "%s%sWARC-Type: %s%sWARC-Target-URI: "
	    "%s%sWARC-Date: 2008-04-30T20:48:25Z%sContent-Length: %zu%s%s",
	    v, eol, t, eol, uri, eol, eol, strlen(blk), eol, eol);
	buf_puts(out, line);
	buf_puts(out, blk);
	buf_puts(out, sep);
}

/* Gzip n bytes of p as one member into out (appended). */
static void
gz_member(struct buf *out, const void *p, size_t n)
{
	unsigned char z[8192];
	z_stream zs;

	memset(&zs, 0, sizeof(zs));
	if (deflateInit2(&zs, 6, Z_DEFLATED, 15 + 16, 8,
	        Z_DEFAULT_STRATEGY) != Z_OK)
		return;
	zs.next_in = (unsigned char *)(uintptr_t)p;
	zs.avail_in = (unsigned int)n;
	zs.next_out = z;
	zs.avail_out = sizeof(z);
	if (deflate(&zs, Z_FINISH) == Z_STREAM_END)
		buf_append(out, z, sizeof(z) - zs.avail_out);
	deflateEnd(&zs);
}

static const char page[] = "HTTP/1.0 200 OK\r\nContent-Type: text/html\r\n"
			   "\r\n<p>hi</p>";

/* Versions 0.17, 0.18 and 1.0, header lines in LF, CRLF and CR CR LF,
 * and every run of line ends after a block that writers leave. */
static void
test_lenient(void)
{
	static const char *const seps[] = {
	    "\r\n\r\n", "\r\n", "\n", "", "\n\r\n\r\n", "\r\r\n\r\r\n"};
	struct got g[MAXREC];
	char dir[64], path[256], uri[64];
	struct buf b;
	size_t i;
	int n;

	unit_make_dir("wr", dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/lenient.warc", dir);
	buf_init(&b, 1 << 16);
	for (i = 0; i < sizeof(seps) / sizeof(seps[0]); i++) {
		snprintf(uri, sizeof(uri), "http://a.test/%zu", i);
		rec(&b, i % 3 == 0 ? "WARC/0.17" : i % 3 == 1 ? "WARC/0.18"
		                                                : "WARC/1.0",
		    "response", uri, page,
		    i % 3 == 0 ? "\n" : i % 3 == 1 ? "\r\n" : "\r\r\n", seps[i]);
	}
	CHECK_INT(check_write_file(path, b.data, b.len), 0);
	n = read_through(path, 1, g, MAXREC);
	CHECK_INT(n, 7);
	for (i = 0; i < 6 && (int)i < n; i++) {
		snprintf(uri, sizeof(uri), "http://a.test/%zu", i);
		CHECK_INT(g[i].rc, 1);
		CHECK_INT(g[i].brc, 0);
		CHECK_STR(g[i].uri, uri);
		CHECK_STR(g[i].type, "response");
		CHECK_STR(g[i].date, "2008-04-30T20:48:25Z");
		CHECK_STR(g[i].block, page);
	}
	CHECK_INT(g[6].rc, 0);
	/* The same read with warc_reader_next only, skipping the blocks. */
	n = read_through(path, 0, g, MAXREC);
	CHECK_INT(n, 7);
	for (i = 0; i < 6 && (int)i < n; i++)
		CHECK_INT(g[i].rc, 1);
	/* And gzipped whole: each record where its data starts. */
	buf_reset(&b);
	rec(&b, "WARC/0.18", "response", "http://a.test/0", page, "\n", "\n");
	rec(&b, "WARC/0.18", "response", "http://a.test/1", page, "\n", "\n");
	{
		struct buf z;
		size_t second = strstr(b.data + 1, "WARC/") - b.data;

		buf_init(&z, 1 << 16);
		gz_member(&z, b.data, b.len);
		snprintf(path, sizeof(path), "%s/lenient.warc.gz", dir);
		CHECK_INT(check_write_file(path, z.data, z.len), 0);
		n = read_through(path, 1, g, MAXREC);
		CHECK_INT(n, 3);
		CHECK(g[0].rc == 1 && g[0].brc == 0 && g[0].offset == 0);
		CHECK(g[1].rc == 1 && g[1].brc == 0);
		CHECK_INT(g[1].offset, second);
		CHECK_INT(g[1].decompressed, 1);
		buf_free(&z);
	}
	/* A version line that is none. */
	buf_reset(&b);
	rec(&b, "WARC/x.1", "response", "http://a.test/0", page, "\r\n",
	    "\r\n\r\n");
	rec(&b, "WARC/1.1", "response", "http://a.test/1", page, "\r\n",
	    "\r\n\r\n");
	snprintf(path, sizeof(path), "%s/version.warc", dir);
	CHECK_INT(check_write_file(path, b.data, b.len), 0);
	n = read_through(path, 1, g, MAXREC);
	CHECK_INT(n, 3);
	CHECK_INT(g[0].rc, -1);
	CHECK(strstr(g[0].err, "version") != NULL);
	CHECK_INT(g[1].rc, 1);
	CHECK_STR(g[1].uri, "http://a.test/1");
	buf_free(&b);
	unit_remove_dir(dir);
}

/* A Content-Length that is one short: the record is damaged (nothing
 * vouches for its block), the next one is read, one report in all. */
static void
test_wrong_length(void)
{
	struct got g[MAXREC];
	char dir[64], path[256];
	struct buf b;
	char *cl;
	int n;

	unit_make_dir("wr", dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/short.warc", dir);
	buf_init(&b, 1 << 16);
	rec(&b, "WARC/1.0", "response", "http://a.test/0", page, "\r\n",
	    "\r\n\r\n");
	rec(&b, "WARC/1.0", "response", "http://a.test/1", page, "\r\n",
	    "\r\n\r\n");
	cl = strstr(b.data, "Content-Length: ");
	if (cl != NULL)
		cl[strlen("Content-Length: ") + 1]--;
	CHECK_INT(check_write_file(path, b.data, b.len), 0);
	n = read_through(path, 1, g, MAXREC);
	CHECK_INT(n, 3);
	CHECK_INT(g[0].rc, 1);
	CHECK_INT(g[0].brc, -1);
	CHECK(strstr(g[0].err, "Content-Length") != NULL);
	CHECK_INT(g[1].rc, 1);
	CHECK_INT(g[1].brc, 0);
	CHECK_STR(g[1].uri, "http://a.test/1");
	CHECK_INT(g[2].rc, 0);
	/* Skipped instead of read: the damage comes with the next call,
	 * as the earlier record's. */
	n = read_through(path, 0, g, MAXREC);
	CHECK_INT(n, 4);
	CHECK_INT(g[1].rc, -1);
	CHECK_INT(g[1].earlier, 1);
	CHECK_INT(g[1].offset, 0);
	CHECK_INT(g[2].rc, 1);
	CHECK_STR(g[2].uri, "http://a.test/1");
	buf_free(&b);
	unit_remove_dir(dir);
}

/* A file that ends inside a block: what there is, -4, then the end. */
static void
test_cut_short(void)
{
	struct got g[MAXREC];
	char dir[64], path[256];
	struct buf b, z;
	size_t first;
	int n;

	unit_make_dir("wr", dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/cut.warc", dir);
	buf_init(&b, 1 << 16);
	buf_init(&z, 1 << 16);
	rec(&b, "WARC/0.17", "response", "http://a.test/0", page, "\n", "\n");
	first = b.len;
	rec(&b, "WARC/0.17", "response", "http://a.test/1", page, "\n", "\n");
	CHECK_INT(check_write_file(path, b.data, b.len - 8), 0);
	n = read_through(path, 1, g, MAXREC);
	CHECK_INT(n, 3);
	CHECK_INT(g[1].rc, 1);
	CHECK_INT(g[1].brc, -4);
	CHECK_INT(g[1].len, strlen(page) - 7);
	CHECK(strstr(g[1].err, "truncated") != NULL);
	CHECK_INT(g[2].rc, 0);
	/* Not read: reported as the earlier record's damage. */
	n = read_through(path, 0, g, MAXREC);
	CHECK_INT(n, 4);
	CHECK_INT(g[2].rc, -1);
	CHECK_INT(g[2].earlier, 1);
	CHECK_INT(g[2].offset, first);
	CHECK_INT(g[3].rc, 0);
	/* A gzip member cut short inside its block. */
	gz_member(&z, b.data, first);
	gz_member(&z, b.data + first, b.len - first);
	snprintf(path, sizeof(path), "%s/cut.warc.gz", dir);
	CHECK_INT(check_write_file(path, z.data, z.len - 20), 0);
	n = read_through(path, 1, g, MAXREC);
	CHECK_INT(n, 3);
	CHECK(g[0].rc == 1 && g[0].brc == 0);
	CHECK_INT(g[1].rc, 1);
	CHECK_INT(g[1].brc, -4);
	CHECK(g[1].len < strlen(page));
	CHECK_INT(g[n - 1].rc, 0);
	buf_free(&b);
	buf_free(&z);
	unit_remove_dir(dir);
}

/* A file gzipped whole whose check fails: every record reads, then the
 * damage at the end of the data, then the end. */
static void
test_whole_gzip_check(void)
{
	struct got g[MAXREC];
	char dir[64], path[256];
	struct buf b, z;
	int n;

	unit_make_dir("wr", dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/crc.warc.gz", dir);
	buf_init(&b, 1 << 16);
	buf_init(&z, 1 << 16);
	rec(&b, "WARC/1.0", "response", "http://a.test/0", page, "\r\n",
	    "\r\n\r\n");
	rec(&b, "WARC/1.0", "request", "http://a.test/0", "GET / HTTP/1.0\r\n"
	    "\r\n", "\r\n", "\r\n\r\n");
	gz_member(&z, b.data, b.len);
	CHECK(z.len > 8);
	if (z.len > 8)
		z.data[z.len - 8] ^= 0x5a; /* the CRC-32 */
	CHECK_INT(check_write_file(path, z.data, z.len), 0);
	n = read_through(path, 0, g, MAXREC);
	CHECK_INT(n, 4);
	CHECK_INT(g[0].rc, 1);
	CHECK_INT(g[1].rc, 1);
	CHECK_STR(g[1].type, "request");
	CHECK_INT(g[2].rc, -1);
	CHECK_INT(g[2].earlier, 1);
	CHECK_INT(g[2].decompressed, 1);
	CHECK_INT(g[2].offset, b.len);
	CHECK(strstr(g[2].err, "check") != NULL ||
	    strstr(g[2].err, "gzip") != NULL);
	CHECK_INT(g[3].rc, 0);
	buf_free(&b);
	buf_free(&z);
	unit_remove_dir(dir);
}

/* ARC files: version 1 plain and gzipped per record, version 2. */
static void
test_arc(void)
{
	static const char v1[] =
	    "filedesc://x.arc 127.0.0.1 20140216050221 text/plain 74\n"
	    "1 0 Test Capture\n"
	    "URL IP-address Archive-date Content-type Archive-length\n"
	    "\n"
	    "http://example.com/a b.html 93.184.216.119 20140216050222 "
	    "text/html 53\n"
	    "HTTP/1.0 200 OK\r\nContent-Type: text/html\r\n\r\n<p>hi</p>\n"
	    "dns:example.com 1.2.3.4 20140216 text/dns 14\n"
	    "93.184.216.119\n";
	static const char v2[] =
	    "filedesc://y.arc 0.0.0.0 20080430204825 text/plain 124\n"
	    "2 0 Internet Archive\n"
	    "URL IP-address Archive-date Content-type Result-code Checksum "
	    "Location Offset Filename Archive-length\n"
	    "\n"
	    "http://example.com/ 93.184.216.119 20080430204826 text/html 200 "
	    "ABC - 0 y.arc 53\n"
	    "HTTP/1.0 200 OK\r\nContent-Type: text/html\r\n\r\n<p>hi</p>\n";
	struct got g[MAXREC];
	char dir[64], path[256];
	struct buf z;
	const char *p, *q;
	int n;

	unit_make_dir("wr", dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/v1.arc", dir);
	CHECK_INT(check_write_file(path, v1, sizeof(v1) - 1), 0);
	CHECK_INT(warc_file_check(path, g[0].err, sizeof(g[0].err)), 0);
	n = read_through(path, 1, g, MAXREC);
	CHECK_INT(n, 3);
	CHECK_INT(g[0].rc, 1);
	CHECK_INT(g[0].brc, 0);
	CHECK_STR(g[0].type, "response");
	CHECK_STR(g[0].uri, "http://example.com/a b.html");
	CHECK_STR(g[0].date, "2014-02-16T05:02:22Z");
	CHECK_STR(g[0].ct, "application/http; msgtype=response");
	CHECK_INT(g[0].len, 53);
	CHECK_INT(g[0].offset, strstr(v1, "http://example.com/a") - v1);
	CHECK_INT(g[1].rc, 1);
	CHECK_STR(g[1].uri, "dns:example.com");
	CHECK_STR(g[1].ct, "text/dns");
	CHECK_STR(g[1].date, "2014-02-16T00:00:00Z");
	CHECK_STR(g[1].block, "93.184.216.119");
	CHECK_INT(g[2].rc, 0);
	/* Each record a gzip member of its own. */
	buf_init(&z, 1 << 16);
	p = strstr(v1, "http://example.com/a");
	q = strstr(v1, "dns:");
	gz_member(&z, v1, (size_t)(p - v1));
	gz_member(&z, p, (size_t)(q - p));
	n = (int)z.len;
	gz_member(&z, q, strlen(q));
	snprintf(path, sizeof(path), "%s/v1.arc.gz", dir);
	CHECK_INT(check_write_file(path, z.data, z.len), 0);
	CHECK_INT(warc_file_check(path, g[0].err, sizeof(g[0].err)), 0);
	{
		int second = n;

		n = read_through(path, 1, g, MAXREC);
		CHECK_INT(n, 3);
		CHECK(g[0].rc == 1 && g[0].brc == 0);
		CHECK_INT(g[1].offset, second);
		CHECK_INT(g[1].decompressed, 0);
		CHECK_STR(g[1].block, "93.184.216.119");
	}
	/* Version 2: ten fields a line, the length last. */
	snprintf(path, sizeof(path), "%s/v2.arc", dir);
	CHECK_INT(check_write_file(path, v2, sizeof(v2) - 1), 0);
	n = read_through(path, 1, g, MAXREC);
	CHECK_INT(n, 2);
	CHECK_INT(g[0].rc, 1);
	CHECK_INT(g[0].brc, 0);
	CHECK_STR(g[0].uri, "http://example.com/");
	CHECK_INT(g[0].len, 53);
	buf_free(&z);
	unit_remove_dir(dir);
}

void
suite_warcread(void)
{
	RUN(test_lenient);
	RUN(test_wrong_length);
	RUN(test_cut_short);
	RUN(test_whole_gzip_check);
	RUN(test_arc);
}
