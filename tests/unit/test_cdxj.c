/*
 * archive/cdxj and archive/httpmsg: SURT keys, CDXJ lines, the index a
 * writer keeps and the one rebuilt after a kill, HTTP heads and chunked
 * bodies.
 */
#include "archive/cdxj.h"
#include "archive/cdxjread.h"
#include "archive/httpmsg.h"
#include "archive/warc.h"
#include "util/buf.h"
#include "check.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <zlib.h>

/* The one file in dir ending in suffix (its name into out): 1, or 0. */
static int
find_one(const char *dir, const char *suffix, char *out, size_t outsz)
{
	struct dirent *d;
	size_t n, s = strlen(suffix);
	int count = 0;
	DIR *dp;

	if ((dp = opendir(dir)) == NULL)
		return 0;
	while ((d = readdir(dp)) != NULL) {
		n = strlen(d->d_name);
		if (n > s && strcmp(d->d_name + n - s, suffix) == 0) {
			snprintf(out, outsz, "%s/%s", dir, d->d_name);
			count++;
		}
	}
	closedir(dp);
	return count;
}

static void
check_surt(const char *url, const char *want)
{
	char out[512];
	int rc = cdxj_surt(url, out, sizeof(out));

	if (want == NULL) {
		CHECK_INT(rc, -1);
		return;
	}
	CHECK_INT(rc, 0);
	CHECK_STR(out, want);
}

static void
test_surt(void)
{
	char small[8];

	check_surt("http://www.Example.com:80/A/b?z=1&a=2#x",
	    "com,example)/a/b?a=2&z=1");
	check_surt("https://h.example.org:8443/", "org,example,h:8443)/");
	check_surt("https://user:pw@WWW2.example.com:443", "com,example)/");
	check_surt("http://example.com/path?", "com,example)/path");
	check_surt("http://example.com./A?b&a=1", "com,example)/a?a=1&b");
	check_surt(
	    "http://example.com/?a=2&a=10&A=1", "com,example)/?a=1&a=10&a=2");
	check_surt("http://127.0.0.1:8080/x", "1,0,0,127:8080)/x");
	check_surt("http://[::1]:8080/", "[::1]:8080)/");
	check_surt("ftp://files.example.com/F.txt", "com,example,files)/f.txt");
	check_surt("http://www.com/", "com)/");
	check_surt("http://wwwx.example.com/", "com,example,wwwx)/");
	check_surt("not a url", NULL);
	check_surt("http://", NULL);
	check_surt("http:///path", NULL);
	check_surt("http://ex ample.com/", NULL);
	check_surt("http://example.com:8x/", NULL);
	check_surt("mailto:someone@example.com", NULL);
	check_surt("1http://example.com/", NULL);
	CHECK_INT(
	    cdxj_surt("http://www.example.com/long/path", small, sizeof(small)),
	    -1);
	CHECK_STR(small, "");
}

static const char head200[] = "HTTP/1.1 200 OK\r\n"
                              "Content-Type: Text/HTML ; charset=utf-8\r\n"
                              "\r\n";

static void
test_line(void)
{
	struct cdxj_entry e;
	char out[1024];

	CHECK_INT(cdxj_line("http://www.example.com/a?b=1",
	              "2026-11-27T03:22:01Z", "response", head200,
	              strlen(head200), "sha1:VGMT4NSHA2AWVOR6EVYXQUGCNSONBWE5",
	              1234, 567, "x.warc.gz", out, sizeof(out)),
	    0);
	CHECK_STR(out,
	    "com,example)/a?b=1 20261127032201 "
	    "{\"url\": \"http://www.example.com/a?b=1\", "
	    "\"mime\": \"Text/HTML\", \"status\": \"200\", "
	    "\"digest\": \"VGMT4NSHA2AWVOR6EVYXQUGCNSONBWE5\", "
	    "\"length\": \"567\", \"offset\": \"1234\", "
	    "\"filename\": \"x.warc.gz\"}");
	CHECK_INT(
	    cdxj_line("http://example.com/", "2026-11-27T03:22:01.5Z",
	        "revisit", NULL, 0, NULL, 0, 1, "x.warc.gz", out, sizeof(out)),
	    0);
	CHECK_STR(out,
	    "com,example)/ 20261127032201 "
	    "{\"url\": \"http://example.com/\", "
	    "\"mime\": \"warc/revisit\", \"status\": \"-\", "
	    "\"digest\": \"-\", \"length\": \"1\", "
	    "\"offset\": \"0\", \"filename\": \"x.warc.gz\"}");
	/* Escapes: quote, backslash, control, non-ASCII, invalid UTF-8. */
	CHECK_INT(
	    cdxj_line("dns:example.com", "20261127032201", "response", "x", 1,
	        "md5:ab", 1, 2, "a\"b\\c\td\xc3\xa9\xf0\x9f\x98\x80\xff", out,
	        sizeof(out)),
	    0);
	CHECK_STR(out,
	    "dns:example.com 20261127032201 "
	    "{\"url\": \"dns:example.com\", \"mime\": \"-\", "
	    "\"status\": \"-\", \"digest\": \"md5:ab\", "
	    "\"length\": \"2\", \"offset\": \"1\", "
	    "\"filename\": \"a\\\"b\\\\c\\td\\u00e9\\ud83d\\ude00"
	    "\\u00ff\"}");
	memset(&e, 0, sizeof(e));
	e.target_uri = "<http://example.com/r>";
	e.warc_date = "2026-11-27T03:22:01Z";
	e.warc_type = "resource";
	e.content_type = " text/plain; charset=utf-8";
	e.payload_digest = "sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ";
	e.filename = "f";
	CHECK_INT(cdxj_entry_line(&e, out, sizeof(out)), 0);
	CHECK_STR(out,
	    "com,example)/r 20261127032201 "
	    "{\"url\": \"http://example.com/r\", "
	    "\"mime\": \"text/plain\", \"status\": \"200\", "
	    "\"digest\": \"3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ\", "
	    "\"length\": \"0\", \"offset\": \"0\", "
	    "\"filename\": \"f\"}");
	/* Does not fit; no date; no URI. */
	CHECK_INT(cdxj_entry_line(&e, out, 40), -1);
	e.warc_date = "2026-11";
	CHECK_INT(cdxj_entry_line(&e, out, sizeof(out)), -1);
	e.warc_date = "2026-11-27T03:22:01Z";
	e.target_uri = NULL;
	CHECK_INT(cdxj_entry_line(&e, out, sizeof(out)), -1);
}

/* Write the records an index is made of; how many get a line. */
static int
write_some(struct warc_writer *w, struct warc_pos *first)
{
	static const char *uris[] = {"http://z.example/", "http://a.example/b",
	    "http://a.example/a", "http://www.m.example/?y=1&x=2"};
	static const char *types[] = {
	    "response", "request", "revisit", "resource", "metadata"};
	struct warc_field f[] = {
	    {"WARC-Payload-Digest", "sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ"}};
	struct warc_record r;
	struct warc_pos pos;
	char err[256];
	size_t i, k;
	int lines = 0;

	for (i = 0; i < sizeof(uris) / sizeof(uris[0]); i++) {
		for (k = 0; k < sizeof(types) / sizeof(types[0]); k++) {
			memset(&r, 0, sizeof(r));
			r.type = types[k];
			r.target_uri = uris[i];
			r.content_type = k == 3 ? "text/plain" : NULL;
			r.fields = f;
			r.nfields = k == 0 ? 1 : 0;
			r.head = head200;
			r.head_len = strlen(head200);
			r.body = "body";
			r.body_len = 4;
			if (warc_write(w, &r, &pos, err, sizeof(err)) != 0) {
				fprintf(stderr, "warc_write: %s\n", err);
				return -1;
			}
			if (i == 0 && k == 0 && first != NULL)
				*first = pos;
			if (k == 0 || k == 2 || k == 3)
				lines++;
		}
	}
	return lines;
}

/* Lines of the file at path, and whether they are in byte order. */
static int
count_sorted(const char *path, struct buf *b, int *sorted)
{
	char *p, *prev = NULL;
	int n = 0;

	buf_reset(b);
	*sorted = 1;
	if (buf_read_file(b, path, 0) != BUF_OK)
		return -1;
	for (p = b->data; p != NULL && *p != '\0'; p = strchr(p, '\n') + 1) {
		if (strchr(p, '\n') == NULL)
			return -1;
		*strchr(p, '\n') = '\0';
		if (prev != NULL && strcmp(prev, p) > 0)
			*sorted = 0;
		prev = p;
		n++;
		p[strlen(p)] = '\n';
	}
	return n;
}

/* Inflate the member at off (len bytes) of the file at path. */
static int
member_starts_warc(const char *path, uint64_t off, uint64_t len)
{
	unsigned char in[65536], out[16];
	z_stream zs;
	int fd, ok;
	ssize_t got;

	if (len > sizeof(in) || (fd = open(path, O_RDONLY)) < 0)
		return 0;
	got = pread(fd, in, (size_t)len, (off_t)off);
	close(fd);
	memset(&zs, 0, sizeof(zs));
	if (got != (ssize_t)len || inflateInit2(&zs, 15 + 16) != Z_OK)
		return 0;
	zs.next_in = in;
	zs.avail_in = (unsigned int)len;
	zs.next_out = out;
	zs.avail_out = sizeof(out);
	inflate(&zs, Z_NO_FLUSH);
	ok = zs.avail_out == 0 && memcmp(out, "WARC/1.1\r\n", 10) == 0;
	inflateEnd(&zs);
	return ok;
}

static void
test_writer_index(void)
{
	struct warc_writer_opts o;
	struct warc_writer *w;
	struct warc_pos first;
	struct buf b, again;
	char dir[64], path[256], warc[256], part[256], err[256];
	char needle[128];
	int lines, n, sorted;

	unit_make_dir("cdxj", dir, sizeof(dir));
	buf_init(&b, 1 << 20);
	buf_init(&again, 1 << 20);
	memset(&o, 0, sizeof(o));
	o.dir = dir;
	o.cdxj = 1;
	w = warc_writer_open(&o, err, sizeof(err));
	CHECK(w != NULL);
	if (w == NULL)
		goto out;
	lines = write_some(w, &first);
	CHECK_INT(lines, 12);
	CHECK_INT(find_one(dir, ".cdxj.part", part, sizeof(part)), 1);
	CHECK_INT(find_one(dir, ".cdxj", path, sizeof(path)), 0);
	CHECK_INT(warc_writer_close(w, err, sizeof(err)), 0);
	CHECK_INT(find_one(dir, ".cdxj.part", part, sizeof(part)), 0);
	CHECK_INT(find_one(dir, ".cdxj", path, sizeof(path)), 1);
	CHECK_INT(find_one(dir, ".warc.gz", warc, sizeof(warc)), 1);
	n = count_sorted(path, &b, &sorted);
	CHECK_INT(n, lines);
	CHECK(sorted);
	CHECK(b.data != NULL && strncmp(b.data, "example,a)/a ", 13) == 0);
	CHECK(strstr(b.data, "example,m)/?x=2&y=1 ") != NULL);
	snprintf(needle, sizeof(needle),
	    "\"length\": \"%llu\", \"offset\": \"%llu\"",
	    (unsigned long long)first.length, (unsigned long long)first.offset);
	CHECK(strstr(b.data, needle) != NULL);
	CHECK(member_starts_warc(warc, first.offset, first.length));

	/* Deleted: rebuilt the same at the next open. */
	CHECK_INT(unlink(path), 0);
	w = warc_writer_open(&o, err, sizeof(err));
	CHECK(w != NULL);
	CHECK_INT(warc_writer_close(w, err, sizeof(err)), 0);
	CHECK_INT(count_sorted(path, &again, &sorted), lines);
	CHECK(b.len == again.len && memcmp(b.data, again.data, b.len) == 0);
	/* cdxj_index_file alone gives the same. */
	snprintf(part, sizeof(part), "%s/other.idx", dir);
	CHECK_INT(cdxj_index_file(warc, part, err, sizeof(err)), 0);
	CHECK_INT(count_sorted(part, &again, &sorted), lines);
	CHECK(b.len == again.len && memcmp(b.data, again.data, b.len) == 0);
	CHECK_INT(cdxj_index_file(dir, part, err, sizeof(err)), -1);
out:
	buf_free(&b);
	buf_free(&again);
	unit_remove_dir(dir);
}

/* A writer killed before close: the next open makes its index. */
static void
test_index_after_kill(void)
{
	struct warc_writer_opts o;
	struct warc_writer *w;
	struct buf part, idx;
	char dir[64], ppath[256], ipath[256], err[256];
	char *lines[64], *p;
	int status, n = 0, i, sorted;
	size_t off;
	pid_t pid;

	unit_make_dir("cdxj", dir, sizeof(dir));
	buf_init(&part, 1 << 20);
	buf_init(&idx, 1 << 20);
	memset(&o, 0, sizeof(o));
	o.dir = dir;
	o.prefix = "killed";
	o.cdxj = 1;
	fflush(NULL);
	if ((pid = fork()) == 0) {
		w = warc_writer_open(&o, err, sizeof(err));
		if (w == NULL || write_some(w, NULL) != 12)
			_exit(1);
		_exit(0); /* no close: as after kill -9 */
	}
	CHECK(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	    WEXITSTATUS(status) == 0);
	CHECK_INT(find_one(dir, ".cdxj.part", ppath, sizeof(ppath)), 1);
	CHECK_INT(find_one(dir, ".cdxj", ipath, sizeof(ipath)), 0);
	CHECK_INT(buf_read_file(&part, ppath, 0), BUF_OK);
	w = warc_writer_open(&o, err, sizeof(err));
	CHECK(w != NULL);
	CHECK_INT(find_one(dir, ".cdxj.part", ppath, sizeof(ppath)), 0);
	CHECK_INT(find_one(dir, ".cdxj", ipath, sizeof(ipath)), 1);
	CHECK_INT(count_sorted(ipath, &idx, &sorted), 12);
	CHECK(sorted);
	/* The same lines the killed writer had appended, sorted. */
	for (off = 0; off < part.len && n < 64;
	     off = (size_t)(p - part.data) + 1) {
		lines[n++] = part.data + off;
		if ((p = strchr(part.data + off, '\n')) == NULL)
			break;
		*p = '\0';
	}
	CHECK_INT(n, 12);
	for (i = 0; i < n; i++)
		CHECK(strstr(idx.data, lines[i]) != NULL);
	/* The new writer's file is another one; the old stays. */
	CHECK_INT(write_some(w, NULL), 12);
	CHECK_INT(warc_writer_close(w, err, sizeof(err)), 0);
	CHECK_INT(find_one(dir, ".warc.gz", ppath, sizeof(ppath)), 2);
	CHECK_INT(find_one(dir, ".cdxj", ppath, sizeof(ppath)), 2);
	buf_free(&part);
	buf_free(&idx);
	unit_remove_dir(dir);
}

static void
test_httpmsg(void)
{
	static const char resp[] = "HTTP/1.1 200 OK\r\n"
	                           "Content-Type: text/html\r\n"
	                           "X-Folded: a\r\n"
	                           " b\r\n"
	                           "Empty:\r\n"
	                           "\r\n"
	                           "body";
	struct http_msg m;
	char v[64];

	CHECK_INT(httpmsg_parse(resp, sizeof(resp) - 1, &m), 0);
	CHECK_INT(m.status, 200);
	CHECK_INT(m.head_len, sizeof(resp) - 1 - 4);
	CHECK(m.start == resp && m.len == sizeof(resp) - 1);
	CHECK_INT(httpmsg_header(&m, "content-TYPE", v, sizeof(v)), 1);
	CHECK_STR(v, "text/html");
	CHECK_INT(httpmsg_header(&m, "x-folded", v, sizeof(v)), 1);
	CHECK_STR(v, "a");
	CHECK_INT(httpmsg_header(&m, "Empty", v, sizeof(v)), 1);
	CHECK_STR(v, "");
	CHECK_INT(httpmsg_header(&m, "Content", v, sizeof(v)), 0);
	CHECK_INT(httpmsg_header(&m, "Content-Type", v, 4), 1);
	CHECK_STR(v, "tex");
	CHECK_INT(httpmsg_parse("HTTP/2 404\r\n\r\n", 14, &m), 0);
	CHECK_INT(m.status, 404);
	CHECK_INT(
	    httpmsg_parse("GET /x?y HTTP/1.1\r\nHost: a\r\n\r\n", 30, &m), 0);
	CHECK_INT(m.status, 0);
	CHECK_INT(httpmsg_parse("HTTP/1.0 301\nLocation: /y\n\n", 27, &m), 0);
	CHECK_INT(m.status, 301);
	CHECK_INT(httpmsg_header(&m, "location", v, sizeof(v)), 1);
	CHECK_STR(v, "/y");
	/* A writer that put a CR before each CRLF, and no reason phrase
	 * after the code's blank. */
	CHECK_INT(httpmsg_parse("HTTP/1.0 302 \r\r\nLocation: /z\r\r\n\r\r\nx",
	    35, &m), 0);
	CHECK_INT(m.status, 302);
	CHECK_INT(m.head_len, 34);
	CHECK_INT(httpmsg_header(&m, "Location", v, sizeof(v)), 1);
	CHECK_STR(v, "/z");
	CHECK_INT(httpmsg_parse("HTTP/1.1 200 OK\r\nA: b\r\n", 23, &m), -1);
	CHECK(m.start == NULL && m.status == 0);
	CHECK_INT(httpmsg_parse("HTTP/1.1 20 OK\r\n\r\n", 18, &m), -1);
	CHECK_INT(httpmsg_parse("HTTP/1.1 2000\r\n\r\n", 17, &m), -1);
	CHECK_INT(httpmsg_parse("<html>\r\n\r\n", 10, &m), -1);
	CHECK_INT(httpmsg_parse("GET /\r\n\r\n", 9, &m), -1);
	CHECK_INT(httpmsg_parse(NULL, 0, &m), -1);
}

static int
dechunk(const char *in, struct buf *out)
{
	buf_reset(out);
	return httpmsg_dechunk(in, strlen(in), out);
}

static void
test_dechunk(void)
{
	struct buf b, small;

	buf_init(&b, 1 << 16);
	buf_init(&small, 3);
	CHECK_INT(dechunk("4\r\nWiki\r\n5\r\npedia\r\n0\r\n\r\n", &b), 0);
	CHECK_STR(b.data, "Wikipedia");
	CHECK_INT(
	    dechunk("4;name=v\r\nWiki\r\n0\r\nTrailer: x\r\n\r\nafter", &b), 0);
	CHECK_STR(b.data, "Wiki");
	CHECK_INT(dechunk("A \r\n0123456789\n0\n\n", &b), 0);
	CHECK_STR(b.data, "0123456789");
	CHECK_INT(dechunk("0\r\n\r\n", &b), 0);
	CHECK_INT(b.len, 0);
	CHECK_INT(dechunk("4\r\nWik", &b), -1);
	CHECK_INT(dechunk("4\r\nWikiXX0\r\n\r\n", &b), -1);
	CHECK_INT(dechunk("zz\r\nab\r\n0\r\n\r\n", &b), -1);
	CHECK_INT(dechunk("4\r\nWiki\r\n0\r\n", &b), -1);
	CHECK_INT(dechunk("4\r\nWiki\r\n", &b), -1);
	CHECK_INT(dechunk("4x\r\nWiki\r\n0\r\n\r\n", &b), -1);
	CHECK_INT(dechunk("fffffffffffffffffff\r\nx\r\n0\r\n\r\n", &b), -1);
	CHECK_INT(dechunk("", &b), -1);
	CHECK_INT(httpmsg_dechunk(NULL, 0, &b), -1);
	CHECK_INT(dechunk("4\r\nWiki\r\n0\r\n\r\n", &small), -2);
	buf_free(&b);
	buf_free(&small);
}

/* CDXJ lines read back: pywb's, ours (round trip), numbers, the
 * malformed ones refused with a reason. */
static void
test_read(void)
{
	struct cdxjread_capture cap;
	char line[CDXJ_MAX_LINE], why[160];

	snprintf(line, sizeof(line), "com,example)/a 20240506070809 "
	    "{\"url\": \"http://example.com/a?x=\\u00e9\\\"\", "
	    "\"mime\": \"text/html\", \"status\": \"200\", "
	    "\"digest\": \"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567\", "
	    "\"length\": \"512\", \"offset\": \"1024\", "
	    "\"filename\": \"a.warc.gz\"}");
	CHECK_INT(cdxjread_line(line, &cap, why, sizeof(why)), 1);
	CHECK_STR(cap.url, "http://example.com/a?x=\xc3\xa9\"");
	CHECK_STR(cap.date, "2024-05-06T07:08:09Z");
	CHECK_STR(cap.mime, "text/html");
	CHECK_STR(cap.status, "200");
	CHECK_STR(cap.digest, "sha1:ABCDEFGHIJKLMNOPQRSTUVWXYZ234567");
	CHECK_STR(cap.filename, "a.warc.gz");
	CHECK(cap.offset == 1024 && cap.length == 512);

	/* What cdxj_line writes reads back. */
	CHECK_INT(cdxj_line("http://www.example.com/b", "2026-01-02T03:04:05Z",
	    "revisit", NULL, 0, "sha1:ZSV7NX4XLUWA6W266JVHRN5MBDSKS26J", 77,
	    99, "f.warc.gz", line, sizeof(line)), 0);
	CHECK_INT(cdxjread_line(line, &cap, why, sizeof(why)), 1);
	CHECK_STR(cap.url, "http://www.example.com/b");
	CHECK_STR(cap.date, "2026-01-02T03:04:05Z");
	CHECK_STR(cap.mime, "warc/revisit");
	CHECK_STR(cap.digest, "sha1:ZSV7NX4XLUWA6W266JVHRN5MBDSKS26J");
	CHECK(cap.offset == 77 && cap.length == 99);

	/* Numbers, a short timestamp, an unknown digest, other keys. */
	snprintf(line, sizeof(line), "org,x)/ 2024 {\"url\":\"http://x.org/\","
	    "\"offset\":5 , \"length\": 6,\"digest\":\"-\","
	    "\"extra\":[1]}");
	CHECK_INT(cdxjread_line(line, &cap, why, sizeof(why)), -1);
	snprintf(line, sizeof(line), "org,x)/ 2024 {\"url\":\"http://x.org/\","
	    "\"offset\":5 , \"length\": 6,\"digest\":\"-\","
	    "\"extra\":true}");
	CHECK_INT(cdxjread_line(line, &cap, why, sizeof(why)), 1);
	CHECK_STR(cap.date, "2024-01-01T00:00:00Z");
	CHECK_STR(cap.digest, "");
	CHECK(cap.offset == 5 && cap.length == 6);

	/* No capture: blank, a header. */
	snprintf(line, sizeof(line), "   ");
	CHECK_INT(cdxjread_line(line, &cap, why, sizeof(why)), 0);
	snprintf(line, sizeof(line), "!meta 0 {\"format\": \"cdxj\"}");
	CHECK_INT(cdxjread_line(line, &cap, why, sizeof(why)), 0);

	/* Malformed. */
	snprintf(line, sizeof(line), "com,example)/ {\"url\": \"x\"}");
	CHECK_INT(cdxjread_line(line, &cap, why, sizeof(why)), -1);
	snprintf(line, sizeof(line), "k 2024x5 {\"url\": \"http://a/\"}");
	CHECK_INT(cdxjread_line(line, &cap, why, sizeof(why)), -1);
	CHECK_STR(why, "the timestamp is not 4 to 14 digits");
	snprintf(line, sizeof(line), "k 20240506 {\"url\": \"http://a/\"");
	CHECK_INT(cdxjread_line(line, &cap, why, sizeof(why)), -1);
	snprintf(line, sizeof(line), "k 20240506 {\"mime\": \"text/html\"}");
	CHECK_INT(cdxjread_line(line, &cap, why, sizeof(why)), -1);
	CHECK_STR(why, "no url");
	snprintf(line, sizeof(line), "k 20240506 {\"url\": \"http://a/\", "
	    "\"offset\": \"12x\"}");
	CHECK_INT(cdxjread_line(line, &cap, why, sizeof(why)), -1);
	CHECK_STR(why, "an offset that is not a whole number");
	snprintf(line, sizeof(line), "k 20240506 {\"url\": \"http://a/\"} x");
	CHECK_INT(cdxjread_line(line, &cap, why, sizeof(why)), -1);
	snprintf(line, sizeof(line), "k 20240506 {\"url\": \"a\\q\"}");
	CHECK_INT(cdxjread_line(line, &cap, why, sizeof(why)), -1);
}

void
suite_cdxj(void)
{
	RUN(test_surt);
	RUN(test_line);
	RUN(test_writer_index);
	RUN(test_index_after_kill);
	RUN(test_httpmsg);
	RUN(test_dechunk);
	RUN(test_read);
}
