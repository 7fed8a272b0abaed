/*
 * archive/warc and archive/warcread: digests, writing, rotation, reading
 * back (gzip per record, one gzip stream, plain) and damage.
 */
#include "archive/warc.h"
#include "archive/warcread.h"
#include "util/buf.h"
#include "check.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zlib.h>

#define MAXREC 64

/* What read_all saw of one warc_reader_next call. */
struct seen {
	int rc;               /* what warc_reader_next returned */
	int brc;              /* what warc_reader_block returned */
	uint64_t offset;      /* h.offset */
	int decompressed;     /* h.decompressed */
	int earlier;          /* h.earlier */
	uint64_t end;         /* warc_reader_finish's end */
	char type[32];        /* h.type */
	char uri[128];        /* h.target_uri */
	char id[WARC_ID_LEN]; /* h.record_id */
	char block[256];      /* the block's first bytes */
	size_t block_len;     /* the block's length */
};

static const char http_head[] = "HTTP/1.1 200 OK\r\n"
                                "Content-Type: text/html; charset=utf-8\r\n"
                                "\r\n";
static const char http_body[] = "<html><body>hello</body></html>";

/* A new empty directory /tmp/nc_TAG_XXXXXX into dir ("" when none could
 * be made); test_cdxj.c uses it too. */
void
unit_make_dir(const char *tag, char *dir, size_t dirsz)
{
	snprintf(dir, dirsz, "/tmp/nc_%s_XXXXXX", tag);
	if (mkdtemp(dir) == NULL) {
		perror("mkdtemp");
		dir[0] = '\0';
	}
}

/* Remove dir and the files in it. */
void
unit_remove_dir(const char *dir)
{
	char path[1024];
	struct dirent *d;
	DIR *dp;

	if ((dp = opendir(dir)) == NULL)
		return;
	while ((d = readdir(dp)) != NULL) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
		unlink(path);
	}
	closedir(dp);
	rmdir(dir);
}

/* The names in dir ending in suffix, sorted, into names; how many. */
static int
list_dir(const char *dir, const char *suffix, char names[][128], int max)
{
	struct dirent *d;
	DIR *dp;
	size_t n, s = strlen(suffix);
	int count = 0, i, j;
	char tmp[128];

	if ((dp = opendir(dir)) == NULL)
		return 0;
	while ((d = readdir(dp)) != NULL && count < max) {
		n = strlen(d->d_name);
		if (n > s && strcmp(d->d_name + n - s, suffix) == 0)
			snprintf(names[count++], 128, "%.127s", d->d_name);
	}
	closedir(dp);
	for (i = 1; i < count; i++)
		for (j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
			memcpy(tmp, names[j], 128);
			memcpy(names[j], names[j - 1], 128);
			memcpy(names[j - 1], tmp, 128);
		}
	return count;
}

/* Read every record of path, its block too; returns the calls made. */
static int
read_all(const char *path, struct seen *s, int max)
{
	struct warc_reader *r;
	struct warc_head h;
	struct buf b;
	char err[256];
	int n = 0, rc, cut;

	if ((r = warc_reader_open(path, err, sizeof(err))) == NULL) {
		fprintf(stderr, "open %s: %s\n", path, err);
		return -1;
	}
	buf_init(&b, 1 << 20);
	while (n < max) {
		memset(&s[n], 0, sizeof(s[n]));
		rc = warc_reader_next(r, &h, err, sizeof(err));
		s[n].rc = rc;
		s[n].offset = h.offset;
		s[n].decompressed = h.decompressed;
		s[n].earlier = h.earlier;
		if (rc == 1) {
			snprintf(s[n].type, sizeof(s[n].type), "%s",
			    h.type ? h.type : "");
			snprintf(s[n].uri, sizeof(s[n].uri), "%s",
			    h.target_uri ? h.target_uri : "");
			snprintf(s[n].id, sizeof(s[n].id), "%s",
			    h.record_id ? h.record_id : "");
			buf_reset(&b);
			s[n].brc =
			    warc_reader_block(r, &b, &cut, err, sizeof(err));
			s[n].block_len = b.len;
			snprintf(s[n].block, sizeof(s[n].block), "%s",
			    b.data ? b.data : "");
			if (s[n].brc == 0)
				warc_reader_finish(
				    r, &s[n].end, err, sizeof(err));
		}
		n++;
		if (rc == 0 || rc == -2)
			break;
	}
	buf_free(&b);
	warc_reader_close(r);
	return n;
}

static void
test_sha1(void)
{
	char d[WARC_DIGEST_LEN];
	struct warc_sha1 *s;

	warc_sha1_of("", 0, d);
	CHECK_STR(d, "sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ");
	warc_sha1_of(NULL, 0, d);
	CHECK_STR(d, "sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ");
	warc_sha1_of("abc", 3, d);
	CHECK_STR(d, "sha1:VGMT4NSHA2AWVOR6EVYXQUGCNSONBWE5");
	s = warc_sha1_new();
	CHECK(s != NULL);
	if (s == NULL)
		return;
	warc_sha1_add(s, "hello", 5);
	warc_sha1_add(s, NULL, 0);
	warc_sha1_add(s, " world", 6);
	warc_sha1_end(s, d);
	CHECK_STR(d, "sha1:FKXGYNOJJ7H3IFO35FPUBC445EPOQRXN");
	warc_sha1_free(NULL);
}

static void
test_date_and_id(void)
{
	char d[WARC_DATE_LEN], id[WARC_ID_LEN], id2[WARC_ID_LEN];
	size_t i;

	warc_date_of(1795749721.75, d);
	CHECK_STR(d, "2026-11-27T03:22:01Z");
	warc_date_of(0, d);
	CHECK_STR(d, "1970-01-01T00:00:00Z");
	warc_date_of(-5, d);
	CHECK_STR(d, "1970-01-01T00:00:00Z");
	warc_date_of(1e300, d);
	CHECK_STR(d, "9999-12-31T23:59:59Z");
	CHECK_INT(warc_new_id(id), 0);
	CHECK_INT(warc_new_id(id2), 0);
	CHECK_INT(strlen(id), WARC_ID_LEN - 1);
	CHECK(strncmp(id, "<urn:uuid:", 10) == 0 && id[46] == '>');
	CHECK(id[10 + 8] == '-' && id[10 + 13] == '-' && id[10 + 18] == '-' &&
	    id[10 + 23] == '-');
	CHECK(id[10 + 14] == '4');
	CHECK(strchr("89ab", id[10 + 19]) != NULL);
	for (i = 10; i < 46; i++)
		CHECK(strchr("0123456789abcdef-", id[i]) != NULL);
	CHECK(strcmp(id, id2) != 0);
}

static void
test_format_refuses(void)
{
	struct warc_field bad_name[] = {{"X-Bad\r\nWARC-Type", "v"}};
	struct warc_field bad_value[] = {{"X-Ok", "a\nb"}};
	struct warc_field colon[] = {{"X:y", "v"}};
	struct warc_field empty[] = {{"", "v"}};
	struct warc_record r;
	struct buf b;
	char err[256];

	buf_init(&b, 1 << 16);
	memset(&r, 0, sizeof(r));
	r.type = "resource";
	r.target_uri = "http://example.com/";
	r.fields = bad_name;
	r.nfields = 1;
	CHECK_INT(warc_format(&r, &b, err, sizeof(err)), -1);
	r.fields = bad_value;
	CHECK_INT(warc_format(&r, &b, err, sizeof(err)), -1);
	r.fields = colon;
	CHECK_INT(warc_format(&r, &b, err, sizeof(err)), -1);
	r.fields = empty;
	CHECK_INT(warc_format(&r, &b, err, sizeof(err)), -1);
	r.nfields = 0;
	r.target_uri = "http://example.com/\r\nX: y";
	CHECK_INT(warc_format(&r, &b, err, sizeof(err)), -1);
	r.target_uri = NULL;
	r.content_type = "text/plain\n";
	CHECK_INT(warc_format(&r, &b, err, sizeof(err)), -1);
	r.content_type = NULL;
	r.type = "response\r\n";
	CHECK_INT(warc_format(&r, &b, err, sizeof(err)), -1);
	r.type = NULL;
	CHECK_INT(warc_format(&r, &b, err, sizeof(err)), -1);
	CHECK_INT(b.len, 0);
	r.type = "resource";
	CHECK_INT(warc_format(&r, &b, err, sizeof(err)), 0);
	CHECK(b.len > 0 && strncmp(b.data, "WARC/1.1\r\n", 10) == 0);
	buf_free(&b);
}

static void
test_format_bytes(void)
{
	struct warc_field f[] = {{"WARC-IP-Address", "127.0.0.1"}};
	struct warc_record r;
	char expect[1024], err[256];
	struct buf b;

	buf_init(&b, 1 << 16);
	memset(&r, 0, sizeof(r));
	r.type = "resource";
	r.target_uri = "http://example.com/a";
	r.date = "2026-11-27T03:22:01Z";
	r.content_type = "text/plain";
	r.fields = f;
	r.nfields = 1;
	r.head = "hello";
	r.head_len = 5;
	r.body = " world";
	r.body_len = 6;
	CHECK_INT(warc_format(&r, &b, err, sizeof(err)), 0);
	snprintf(expect, sizeof(expect),
	    "WARC/1.1\r\n"
	    "WARC-Type: resource\r\n"
	    "WARC-Record-ID: %s\r\n"
	    "WARC-Date: 2026-11-27T03:22:01Z\r\n"
	    "WARC-Target-URI: http://example.com/a\r\n"
	    "Content-Type: text/plain\r\n"
	    "WARC-IP-Address: 127.0.0.1\r\n"
	    "WARC-Block-Digest: sha1:FKXGYNOJJ7H3IFO35FPUBC445EPOQRXN\r\n"
	    "Content-Length: 11\r\n"
	    "\r\n"
	    "hello world\r\n\r\n",
	    r.id);
	CHECK_STR(b.data, expect);
	buf_free(&b);
}

/* Write one record of each type through w; their positions into pos. */
static int
write_every_type(
    struct warc_writer *w, struct warc_pos *pos, char ids[][WARC_ID_LEN])
{
	static const char *types[] = {"warcinfo", "request", "response",
	    "revisit", "metadata", "resource", "conversion"};
	struct warc_field f[] = {
	    {"WARC-Payload-Digest", "sha1:VGMT4NSHA2AWVOR6EVYXQUGCNSONBWE5"},
	    {"WARC-IP-Address", "127.0.0.1"},
	    {"WARC-Refers-To-Target-URI", "http://example.com/old"},
	    {"WARC-Refers-To-Date", "2026-01-01T00:00:00Z"},
	    {"WARC-Profile",
	        "http://netpreserve.org/warc/1.1/revisit/"
	        "identical-payload-digest"},
	    {"WARC-Truncated", "length"},
	    {"X-Nearcrawl-Verdict", "unique"},
	};
	struct warc_record r;
	char err[256], uri[64];
	size_t i;

	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		memset(&r, 0, sizeof(r));
		snprintf(uri, sizeof(uri), "http://example.com/%zu", i);
		r.type = types[i];
		r.target_uri = uri;
		r.date = "2026-11-27T03:22:01Z";
		r.content_type = "application/http;msgtype=response";
		r.fields = f;
		r.nfields = sizeof(f) / sizeof(f[0]);
		r.head = http_head;
		r.head_len = strlen(http_head);
		r.body = i % 2 ? http_body : NULL;
		r.body_len = i % 2 ? strlen(http_body) : 0;
		if (warc_write(w, &r, &pos[i], err, sizeof(err)) != 0) {
			fprintf(stderr, "warc_write: %s\n", err);
			return -1;
		}
		memcpy(ids[i], r.id, WARC_ID_LEN);
	}
	return (int)i;
}

static void
test_round_trip(void)
{
	struct warc_writer_opts o;
	struct warc_writer *w;
	struct warc_pos pos[8];
	struct warc_reader *r;
	struct warc_head h;
	struct seen s[MAXREC];
	char dir[64], path[256], err[256], ids[8][WARC_ID_LEN];
	char names[4][128], expect[256], file0[128];
	struct buf b;
	int n, i, cut;

	unit_make_dir("warc", dir, sizeof(dir));
	memset(&o, 0, sizeof(o));
	o.dir = dir;
	o.prefix = "rt";
	o.software = "nearcrawl/test";
	w = warc_writer_open(&o, err, sizeof(err));
	CHECK(w != NULL);
	if (w == NULL)
		return;
	CHECK(warc_writer_file(w) == NULL); /* opened lazily */
	CHECK_INT(list_dir(dir, ".warc.gz", names, 4), 0);
	CHECK_INT(write_every_type(w, pos, ids), 7);
	snprintf(file0, sizeof(file0), "%s", pos[6].file);
	CHECK_STR(warc_writer_file(w), file0);
	CHECK_INT(warc_writer_close(w, err, sizeof(err)), 0);
	CHECK_INT(list_dir(dir, ".warc.gz", names, 4), 1);
	CHECK_STR(names[0], file0);
	CHECK(strncmp(names[0], "rt-", 3) == 0 &&
	    strcmp(names[0] + 3 + 14, "-00001.warc.gz") == 0);
	snprintf(path, sizeof(path), "%s/%s", dir, names[0]);

	n = read_all(path, s, MAXREC);
	CHECK_INT(n, 9); /* warcinfo, seven records, end */
	if (n != 9)
		goto out;
	CHECK_INT(s[0].rc, 1);
	CHECK_STR(s[0].type, "warcinfo");
	CHECK_INT(s[0].offset, 0);
	CHECK(strstr(s[0].block, "software: nearcrawl/test\r\n") != NULL);
	CHECK(strstr(s[0].block, "format: WARC File Format 1.1\r\n") != NULL);
	CHECK(strstr(s[0].block,
	          "conformsTo: http://iipc.github.io/warc-"
	          "specifications/specifications/warc-format/"
	          "warc-1.1/\r\n") != NULL);
	CHECK_INT(s[0].end, pos[0].offset);
	for (i = 0; i < 7; i++) {
		CHECK_INT(s[i + 1].rc, 1);
		CHECK_INT(s[i + 1].brc, 0);
		CHECK_INT(s[i + 1].offset, pos[i].offset);
		CHECK_INT(s[i + 1].end, pos[i].offset + pos[i].length);
		CHECK_STR(s[i + 1].id, ids[i]);
		snprintf(expect, sizeof(expect), "http://example.com/%d", i);
		CHECK_STR(s[i + 1].uri, expect);
		snprintf(expect, sizeof(expect), "%s%s", http_head,
		    i % 2 ? http_body : "");
		CHECK_STR(s[i + 1].block, expect);
	}
	CHECK_STR(s[3].type, "response");
	CHECK_STR(s[7].type, "conversion");
	CHECK_INT(s[8].rc, 0);

	/* The named fields, and any field by name. */
	r = warc_reader_open(path, err, sizeof(err));
	CHECK(r != NULL);
	if (r == NULL)
		goto out;
	CHECK_INT(warc_reader_gzipped(r), 1);
	CHECK_INT(warc_reader_next(r, &h, err, sizeof(err)), 1);
	CHECK_STR(warc_head_field(&h, "warc-filename"), file0);
	CHECK_STR(h.content_type, "application/warc-fields");
	CHECK_STR(h.version, "WARC/1.1");
	CHECK_INT(warc_reader_next(r, &h, err, sizeof(err)), 1);
	CHECK_STR(h.type, "warcinfo"); /* the caller's own */
	CHECK_INT(warc_reader_next(r, &h, err, sizeof(err)), 1);
	CHECK_STR(h.type, "request");
	CHECK_INT(warc_reader_next(r, &h, err, sizeof(err)), 1);
	CHECK_INT(warc_reader_next(r, &h, err, sizeof(err)), 1);
	CHECK_STR(h.type, "revisit");
	CHECK_STR(h.date, "2026-11-27T03:22:01Z");
	CHECK_STR(h.payload_digest, "sha1:VGMT4NSHA2AWVOR6EVYXQUGCNSONBWE5");
	CHECK_STR(h.ip_address, "127.0.0.1");
	CHECK_STR(h.refers_to_target_uri, "http://example.com/old");
	CHECK_STR(h.refers_to_date, "2026-01-01T00:00:00Z");
	CHECK_STR(h.truncated, "length");
	CHECK(h.profile != NULL && strstr(h.profile, "identical") != NULL);
	CHECK_STR(h.content_type, "application/http;msgtype=response");
	CHECK_STR(warc_head_field(&h, "X-NEARCRAWL-VERDICT"), "unique");
	CHECK(warc_head_field(&h, "X-Absent") == NULL);
	CHECK(h.concurrent_to == NULL && h.refers_to == NULL);
	CHECK_INT(h.content_length, strlen(http_head) + strlen(http_body));
	/* A block cut to the buf's limit is still read through. */
	buf_init(&b, 10);
	CHECK_INT(warc_reader_block(r, &b, &cut, err, sizeof(err)), 0);
	CHECK_INT(cut, 1);
	CHECK_INT(b.len, 10);
	CHECK_INT(warc_reader_block(r, &b, &cut, err, sizeof(err)), -3);
	buf_free(&b);
	CHECK_INT(warc_reader_next(r, &h, err, sizeof(err)), 1);
	CHECK_STR(h.type, "metadata");
	warc_reader_close(r);
out:
	unit_remove_dir(dir);
}

static void
test_rotation(void)
{
	struct warc_writer_opts o;
	struct warc_writer *w;
	struct warc_pos pos[8];
	struct seen s[MAXREC];
	char dir[64], path[256], err[256], ids[8][WARC_ID_LEN];
	char names[16][128];
	int n, i, k, nf, records = 0;

	unit_make_dir("warc", dir, sizeof(dir));
	memset(&o, 0, sizeof(o));
	o.dir = dir;
	o.max_bytes = 700; /* a warcinfo and about one record */
	w = warc_writer_open(&o, err, sizeof(err));
	CHECK(w != NULL);
	if (w == NULL)
		return;
	CHECK_INT(write_every_type(w, pos, ids), 7);
	CHECK_INT(warc_writer_close(w, err, sizeof(err)), 0);
	nf = list_dir(dir, ".warc.gz", names, 16);
	CHECK(nf >= 3);
	for (i = 0; i < nf; i++) {
		CHECK(strncmp(names[i], "nearcrawl-", 10) == 0);
		snprintf(path, sizeof(path), "-%05d.warc.gz", i + 1);
		CHECK_STR(names[i] + 10 + 14, path);
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		n = read_all(path, s, MAXREC);
		CHECK(n >= 3);
		CHECK_STR(s[0].type, "warcinfo");
		CHECK(strstr(s[0].block, "software: nearcrawl\r\n") != NULL);
		for (k = 1; k < n - 1; k++) {
			CHECK_INT(s[k].rc, 1);
			CHECK(strcmp(s[k].type, "warcinfo") != 0 || i == 0);
			records++;
		}
		CHECK_INT(s[n - 1].rc, 0);
	}
	CHECK_INT(records, 7);

	/* A new writer continues after the highest serial. */
	o.max_bytes = 0;
	w = warc_writer_open(&o, err, sizeof(err));
	CHECK(w != NULL);
	if (w == NULL)
		goto out;
	CHECK_INT(write_every_type(w, pos, ids), 7);
	snprintf(path, sizeof(path), "-%05d.warc.gz", nf + 1);
	CHECK(strlen(pos[0].file) > 24 &&
	    strcmp(pos[0].file + 10 + 14, path) == 0);
	CHECK_INT(warc_writer_close(w, err, sizeof(err)), 0);
	CHECK_INT(list_dir(dir, ".warc.gz", names, 16), nf + 1);
out:
	unit_remove_dir(dir);
}

/*
 * A file of eight records (the writer's warcinfo, then write_every_type's
 * warcinfo, request, response, revisit, metadata, resource, conversion);
 * the positions of the request, response and revisit in pos.
 */
static int
three_records(const char *dir, struct warc_pos *pos, char *path, size_t pathsz)
{
	struct warc_writer_opts o;
	struct warc_writer *w;
	char ids[8][WARC_ID_LEN], err[256];
	struct warc_pos all[8];

	memset(&o, 0, sizeof(o));
	o.dir = dir;
	if ((w = warc_writer_open(&o, err, sizeof(err))) == NULL)
		return -1;
	if (write_every_type(w, all, ids) != 7)
		return -1;
	pos[0] = all[1];
	pos[1] = all[2];
	pos[2] = all[3];
	snprintf(path, pathsz, "%s/%s", dir, all[0].file);
	return warc_writer_close(w, err, sizeof(err));
}

static void
test_truncated(void)
{
	struct warc_pos pos[3];
	struct seen s[MAXREC];
	char dir[64], path[256];
	int n, i;

	unit_make_dir("warc", dir, sizeof(dir));
	if (three_records(dir, pos, path, sizeof(path)) != 0) {
		CHECK(0);
		goto out;
	}
	/* Cut the file inside the revisit, the 5th record. */
	CHECK_INT(
	    truncate(path, (off_t)(pos[2].offset + pos[2].length / 2)), 0);
	n = read_all(path, s, MAXREC);
	CHECK(n >= 6);
	if (n < 6)
		goto out;
	for (i = 0; i < 4; i++) {
		CHECK_INT(s[i].rc, 1);
		CHECK_INT(s[i].brc, 0);
	}
	CHECK_INT(s[3].offset, pos[1].offset);
	/* The cut record: its header may read, its block may not. */
	i = 4;
	if (s[i].rc == 1) {
		CHECK_INT(s[i].brc, -1);
		CHECK_INT(s[i].offset, pos[2].offset);
		i++;
	} else {
		CHECK_INT(s[i].rc, -1);
		CHECK_INT(s[i].offset, pos[2].offset);
		i++;
	}
	CHECK_INT(s[i].rc, 0);
	CHECK_INT(n, i + 1);
out:
	unit_remove_dir(dir);
}

/*
 * warc_reader_seek: a record read from the offset a CDXJ line gives, in
 * any order, whatever was read before (a gzipped file of three kinds of
 * record), and the next one after it.
 */
static void
test_seek(void)
{
	struct warc_reader *r;
	struct warc_head h;
	struct warc_pos pos[3];
	char dir[64], path[256], err[256];
	int i, order[] = { 2, 0, 1, 1 };

	unit_make_dir("warc", dir, sizeof(dir));
	if (three_records(dir, pos, path, sizeof(path)) != 0 ||
	    (r = warc_reader_open(path, err, sizeof(err))) == NULL) {
		CHECK(0);
		goto out;
	}
	for (i = 0; i < 4; i++) {
		CHECK_INT(warc_reader_seek(r, pos[order[i]].offset), 0);
		CHECK_INT(warc_reader_next(r, &h, err, sizeof(err)), 1);
		CHECK(h.offset == pos[order[i]].offset);
		CHECK(h.type != NULL && strcmp(h.type, order[i] == 0 ?
		    "request" : order[i] == 1 ? "response" : "revisit") == 0);
	}
	/* Read on from there: the next record is the revisit. */
	CHECK_INT(warc_reader_next(r, &h, err, sizeof(err)), 1);
	CHECK(h.type != NULL && strcmp(h.type, "revisit") == 0);
	warc_reader_close(r);
out:
	unit_remove_dir(dir);
}

/* Reading with warc_reader_next only: the truncated record is -1. */
static void
test_truncated_skip(void)
{
	struct warc_reader *r;
	struct warc_pos pos[3];
	struct warc_head h;
	char dir[64], path[256], err[256];
	int rc, n = 0, bad = 0;

	unit_make_dir("warc", dir, sizeof(dir));
	if (three_records(dir, pos, path, sizeof(path)) != 0) {
		CHECK(0);
		goto out;
	}
	CHECK_INT(
	    truncate(path, (off_t)(pos[2].offset + pos[2].length - 3)), 0);
	if ((r = warc_reader_open(path, err, sizeof(err))) == NULL) {
		CHECK(0);
		goto out;
	}
	while (
	    (rc = warc_reader_next(r, &h, err, sizeof(err))) != 0 && n < 20) {
		if (rc == 1)
			n++;
		if (rc == -1) {
			bad++;
			CHECK_INT(h.offset, pos[2].offset);
			CHECK(strstr(err, "truncated") != NULL);
		}
		CHECK(rc != -2);
	}
	CHECK_INT(n, 5); /* the cut one's header reads */
	CHECK_INT(bad, 1);
	CHECK_INT(warc_reader_next(r, &h, err, sizeof(err)), 0);
	warc_reader_close(r);
out:
	unit_remove_dir(dir);
}

static void
test_garbage_between_members(void)
{
	static const char junk[] = "\x1f\x8b\x08 not a member, just junk";
	struct warc_pos pos[3];
	struct seen s[MAXREC];
	char dir[64], path[256], path2[256];
	struct buf in, out;
	size_t cut;
	int n;

	unit_make_dir("warc", dir, sizeof(dir));
	buf_init(&in, 1 << 20);
	buf_init(&out, 1 << 20);
	if (three_records(dir, pos, path, sizeof(path)) != 0 ||
	    buf_read_file(&in, path, 0) != BUF_OK) {
		CHECK(0);
		goto out;
	}
	/* junk after the 2nd record (before the revisit) */
	cut = (size_t)pos[2].offset;
	buf_append(&out, in.data, cut);
	buf_append(&out, junk, sizeof(junk) - 1);
	buf_append(&out, in.data + cut, in.len - cut);
	snprintf(path2, sizeof(path2), "%s/junk.warc.gz", dir);
	CHECK_INT(check_write_file(path2, out.data, out.len), 0);
	n = read_all(path2, s, MAXREC);
	CHECK_INT(n, 10);
	if (n < 10)
		goto out;
	CHECK_INT(s[3].rc, 1);
	CHECK_STR(s[3].type, "response");
	CHECK_INT(s[4].rc, -1);
	CHECK_INT(s[4].offset, cut);
	CHECK_INT(s[5].rc, 1);
	CHECK_STR(s[5].type, "revisit");
	CHECK_INT(s[5].brc, 0);
	CHECK_INT(s[5].offset, cut + sizeof(junk) - 1);
	CHECK_STR(s[6].type, "metadata");
	CHECK_INT(s[9].rc, 0);

	/* A damaged member (bytes flipped inside it) is skipped too. */
	memcpy(out.data, in.data, in.len);
	out.len = in.len;
	memset(out.data + pos[1].offset + 30, 0x55, 20);
	CHECK_INT(check_write_file(path2, out.data, out.len), 0);
	n = read_all(path2, s, MAXREC);
	CHECK(n >= 6);
	if (n < 6)
		goto out;
	CHECK_STR(s[2].type, "request");
	CHECK(s[3].rc == -1 || (s[3].rc == 1 && s[3].brc == -1));
	CHECK_INT(s[3].offset, pos[1].offset);
	CHECK_INT(s[4].rc, 1);
	CHECK_STR(s[4].type, "revisit");
	CHECK_INT(s[4].offset, pos[2].offset);
out:
	buf_free(&in);
	buf_free(&out);
	unit_remove_dir(dir);
}

/* Plain records built with warc_format; offsets of each into off. */
static void
plain_records(struct buf *b, uint64_t *off, int n)
{
	struct warc_record r;
	char err[256], uri[64];
	int i;

	for (i = 0; i < n; i++) {
		memset(&r, 0, sizeof(r));
		snprintf(uri, sizeof(uri), "http://example.com/p%d", i);
		r.type = "response";
		r.target_uri = uri;
		r.content_type = "application/http;msgtype=response";
		r.head = http_head;
		r.head_len = strlen(http_head);
		r.body = http_body;
		r.body_len = strlen(http_body);
		off[i] = b->len;
		if (warc_format(&r, b, err, sizeof(err)) != 0)
			CHECK(0);
	}
}

static void
test_plain(void)
{
	struct seen s[MAXREC];
	char dir[64], path[256];
	struct buf b, g;
	uint64_t off[3];
	char *p;
	int n;

	unit_make_dir("warc", dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/plain.warc", dir);
	buf_init(&b, 1 << 20);
	buf_init(&g, 1 << 20);
	plain_records(&b, off, 3);
	CHECK_INT(check_write_file(path, b.data, b.len), 0);
	n = read_all(path, s, MAXREC);
	CHECK_INT(n, 4);
	CHECK(s[0].rc == 1 && s[1].rc == 1 && s[2].rc == 1 && s[3].rc == 0);
	CHECK_INT(s[1].offset, off[1]);
	CHECK_INT(s[1].end, off[2]);
	CHECK_INT(s[2].end, b.len);
	CHECK_INT(s[2].brc, 0);
	CHECK_STR(s[2].uri, "http://example.com/p2");

	/* Garbage between records: -1 there, then the next record. */
	buf_append(&g, b.data, (size_t)off[1]);
	buf_puts(&g, "garbage\r\nmore garbage WARC/1.1 not at a line start\n");
	buf_append(&g, b.data + off[1], b.len - off[1]);
	CHECK_INT(check_write_file(path, g.data, g.len), 0);
	n = read_all(path, s, MAXREC);
	CHECK_INT(n, 5);
	CHECK_INT(s[1].rc, -1);
	CHECK_INT(s[1].offset, off[1]);
	CHECK_INT(s[2].rc, 1);
	CHECK_STR(s[2].uri, "http://example.com/p1");
	CHECK_INT(s[3].rc, 1);
	CHECK_INT(s[4].rc, 0);

	/* A wrong Content-Length: the record is damaged, the next read. */
	buf_reset(&g);
	buf_append(&g, b.data, b.len);
	p = strstr(g.data + off[1], "Content-Length: ");
	CHECK(p != NULL);
	if (p != NULL)
		p[16] = p[16] == '9' ? '1' : (char)(p[16] + 1);
	CHECK_INT(check_write_file(path, g.data, g.len), 0);
	n = read_all(path, s, MAXREC);
	CHECK_INT(n, 4);
	CHECK_INT(s[1].rc, 1);
	CHECK_INT(s[1].brc, -1);
	CHECK_INT(s[2].rc, 1);
	CHECK_STR(s[2].uri, "http://example.com/p2");

	/* A changed byte of a block: digest mismatch, nothing skipped. */
	buf_reset(&g);
	buf_append(&g, b.data, b.len);
	p = strstr(g.data + off[1], "hello");
	if (p != NULL)
		p[0] = 'j';
	CHECK_INT(check_write_file(path, g.data, g.len), 0);
	n = read_all(path, s, MAXREC);
	CHECK_INT(n, 4);
	CHECK_INT(s[1].brc, -1);
	CHECK_INT(s[2].rc, 1);
	CHECK_INT(s[2].brc, 0);
	CHECK_INT(s[2].offset, off[2]);

	/* Truncated plain file. */
	CHECK_INT(check_write_file(path, b.data, (size_t)off[2] + 40), 0);
	n = read_all(path, s, MAXREC);
	CHECK_INT(n, 4);
	CHECK_INT(s[1].rc, 1);
	CHECK_INT(s[2].rc, -1);
	CHECK_INT(s[2].offset, off[2]);
	CHECK_INT(s[3].rc, 0);
	buf_free(&b);
	buf_free(&g);
	unit_remove_dir(dir);
}

static void
test_one_gzip_stream(void)
{
	struct seen s[MAXREC];
	char dir[64], path[256];
	struct buf b;
	uint64_t off[4];
	unsigned char *z;
	uLongf zlen;
	z_stream zs;
	int n;

	unit_make_dir("warc", dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/stream.warc.gz", dir);
	buf_init(&b, 1 << 20);
	plain_records(&b, off, 4);
	zlen = compressBound(b.len) + 64;
	z = malloc(zlen);
	memset(&zs, 0, sizeof(zs));
	CHECK(z != NULL &&
	    deflateInit2(&zs, 9, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) ==
	        Z_OK);
	if (z == NULL)
		goto out;
	zs.next_in = (unsigned char *)b.data;
	zs.avail_in = (unsigned int)b.len;
	zs.next_out = z;
	zs.avail_out = (unsigned int)zlen;
	CHECK_INT(deflate(&zs, Z_FINISH), Z_STREAM_END);
	CHECK_INT(check_write_file(path, z, zs.total_out), 0);
	deflateEnd(&zs);
	n = read_all(path, s, MAXREC);
	CHECK_INT(n, 5);
	CHECK(s[0].rc == 1 && s[3].rc == 1 && s[4].rc == 0);
	CHECK_INT(s[3].brc, 0);
	CHECK_STR(s[3].uri, "http://example.com/p3");
	/* All in the one member: where each starts in the data. */
	CHECK_INT(s[0].offset, 0);
	CHECK_INT(s[0].decompressed, 0);
	CHECK_INT(s[3].offset, off[3]);
	CHECK_INT(s[3].decompressed, 1);
	CHECK_INT(s[2].block_len, strlen(http_head) + strlen(http_body));
out:
	free(z);
	buf_free(&b);
	unit_remove_dir(dir);
}

/* WARC/1.0 as GNU wget writes it, and a Common Crawl WET record. */
static void
test_other_writers(void)
{
	static const char wet[] =
	    "WARC/1.0\r\n"
	    "WARC-Type: conversion\r\n"
	    "WARC-Target-URI: http://example.com/\r\n"
	    "WARC-Date: 2026-11-27T03:22:01Z\r\n"
	    "WARC-Record-ID: "
	    "<urn:uuid:0c2a0b3e-1c4b-4d5e-8f00-000000000001>\r\n"
	    "WARC-Refers-To: "
	    "<urn:uuid:0c2a0b3e-1c4b-4d5e-8f00-000000000002>\r\n"
	    "WARC-Block-Digest: sha1:FKXGYNOJJ7H3IFO35FPUBC445EPOQRXN\r\n"
	    "WARC-Identified-Content-Language: eng\r\n"
	    "Content-Type: text/plain\r\n"
	    "Content-Length: 11\r\n"
	    "\r\n"
	    "hello world\r\n\r\n"
	    "WARC/1.0\r\n"
	    "WARC-Type: resource\r\n"
	    "WARC-Block-Digest: "
	    "sha1:2aae6c35c94fcfb415dbe95f408b9ce91ee846ed\r\n"
	    "Content-Length: 11\r\n"
	    "\r\n"
	    "hello world\r\n\r\n";
	struct seen s[MAXREC];
	char dir[64], path[256];
	int n;

	unit_make_dir("warc", dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/x.warc.wet", dir);
	CHECK_INT(check_write_file(path, wet, sizeof(wet) - 1), 0);
	n = read_all(path, s, MAXREC);
	CHECK_INT(n, 3);
	CHECK_INT(s[0].rc, 1);
	CHECK_STR(s[0].type, "conversion");
	CHECK_INT(s[0].brc, 0);
	CHECK_STR(s[0].block, "hello world");
	CHECK_INT(s[1].rc, 1);
	CHECK_INT(s[1].brc, 0); /* a hex SHA-1 is checked too */
	CHECK_INT(s[2].rc, 0);
	unit_remove_dir(dir);
}

static void
test_empty_and_missing(void)
{
	struct warc_reader *r;
	struct warc_head h;
	char dir[64], path[256], err[256];

	unit_make_dir("warc", dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/empty.warc.gz", dir);
	CHECK_INT(check_write_file(path, "", 0), 0);
	r = warc_reader_open(path, err, sizeof(err));
	CHECK(r != NULL);
	if (r != NULL) {
		CHECK_INT(warc_reader_next(r, &h, err, sizeof(err)), 0);
		CHECK_INT(warc_reader_next(r, &h, err, sizeof(err)), 0);
	}
	warc_reader_close(r);
	CHECK(warc_reader_open("-", err, sizeof(err)) == NULL);
	CHECK(warc_reader_open(dir, err, sizeof(err)) == NULL);
	snprintf(path, sizeof(path), "%s/none", dir);
	CHECK(warc_reader_open(path, err, sizeof(err)) == NULL);
	/* Only junk: one damage report, then the end. */
	snprintf(path, sizeof(path), "%s/junk", dir);
	CHECK_INT(check_write_file(path, "no warc here\n", 13), 0);
	r = warc_reader_open(path, err, sizeof(err));
	CHECK(r != NULL);
	if (r != NULL) {
		CHECK_INT(warc_reader_next(r, &h, err, sizeof(err)), -1);
		CHECK(strstr(err, "version") != NULL);
		CHECK_INT(warc_reader_next(r, &h, err, sizeof(err)), 0);
	}
	warc_reader_close(r);
	warc_writer_close(NULL, err, sizeof(err));
	unit_remove_dir(dir);
}

void
suite_warc(void)
{
	RUN(test_sha1);
	RUN(test_date_and_id);
	RUN(test_format_refuses);
	RUN(test_format_bytes);
	RUN(test_round_trip);
	RUN(test_rotation);
	RUN(test_truncated);
	RUN(test_truncated_skip);
	RUN(test_seek);
	RUN(test_garbage_between_members);
	RUN(test_plain);
	RUN(test_one_gzip_stream);
	RUN(test_other_writers);
	RUN(test_empty_and_missing);
}
