/*
 * serve_warc: a page read back from the crawl's WARC files
 * (cmd/serve_warc.h).
 */
#include "cmd/serve_warc.h"

#include <sys/stat.h>

#include <dirent.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "archive/cdxj.h"
#include "archive/httpmsg.h"
#include "archive/warcread.h"
#include "util/buf.h"

/* The header part of a record read on top of the body's cap. */
#define HEAD_ROOM (256 * 1024)
/* Bytes of a sorted index left to scan line by line after the search. */
#define SCAN_SPAN 8192

/* The capture chosen so far. */
struct capture {
	char file[512];   /* WARC file's base name */
	uint64_t offset;  /* of its record */
	double gap;       /* seconds between it and the page's fetch */
	int revisit;      /* a revisit record */
	int found;
};

/* A JSON string value of the CDXJ line's "name", decoded as far as the
 * index writes it (\" \\ \/ and \u00XX) into out. 0, or -1. */
static int
json_field(const char *line, const char *name, char *out, size_t outsz)
{
	char key[64];
	const char *p;
	size_t o = 0;
	unsigned v;

	snprintf(key, sizeof(key), "\"%s\": \"", name);
	if ((p = strstr(line, key)) == NULL)
		return -1;
	for (p += strlen(key); *p != '\0' && *p != '"'; p++) {
		if (o + 8 >= outsz)
			return -1;
		if (*p != '\\') {
			out[o++] = *p;
			continue;
		}
		p++;
		if (*p == 'u' && sscanf(p + 1, "%4x", &v) == 1) {
			/* Non-ASCII comes as \u00XX bytes or UTF-16 units:
			 * the URL keeps its bytes when under 0x100. */
			if (v >= 0x100)
				return -1;
			out[o++] = (char)v;
			p += 4;
		} else if (*p == '\0')
			return -1;
		else
			out[o++] = *p == 'n' ? '\n' : *p == 't' ? '\t' : *p;
	}
	out[o] = '\0';
	return *p == '"' ? 0 : -1;
}

/* The Unix time of a 14-digit WARC timestamp, -1 when malformed. */
static double
unix_of14(const char *s)
{
	struct tm tm;

	memset(&tm, 0, sizeof(tm));
	if (sscanf(s, "%4d%2d%2d%2d%2d%2d", &tm.tm_year, &tm.tm_mon,
	    &tm.tm_mday, &tm.tm_hour, &tm.tm_min, &tm.tm_sec) != 6)
		return -1;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	return (double)timegm(&tm);
}

/* One index line: keep it when it is url's and nearer than the last. */
static void
consider(const char *line, const char *key, const char *url, double at,
    struct capture *c)
{
	char got[4096], off[32], mime[64], file[512];
	size_t kl = strlen(key);
	double t, gap;

	if (strncmp(line, key, kl) != 0 || line[kl] != ' ' ||
	    json_field(line, "url", got, sizeof(got)) != 0 ||
	    strcmp(got, url) != 0 ||
	    json_field(line, "offset", off, sizeof(off)) != 0 ||
	    json_field(line, "filename", file, sizeof(file)) != 0 ||
	    strchr(file, '/') != NULL || file[0] == '.')
		return;
	t = unix_of14(line + kl + 1);
	gap = t < 0 ? 1e18 : t > at ? t - at : at - t;
	if (c->found && gap >= c->gap)
		return;
	c->found = 1;
	c->gap = gap;
	c->offset = strtoull(off, NULL, 10);
	c->revisit = json_field(line, "mime", mime, sizeof(mime)) == 0 &&
	    strcmp(mime, "warc/revisit") == 0;
	snprintf(c->file, sizeof(c->file), "%s", file);
}

/* The next line of f into line (cut to size, the rest read past). */
static int
next_line(FILE *f, char *line, size_t size)
{
	size_t n;
	int ch;

	if (fgets(line, (int)size, f) == NULL)
		return 0;
	n = strlen(line);
	if (n > 0 && line[n - 1] == '\n')
		line[n - 1] = '\0';
	else
		while ((ch = getc(f)) != EOF && ch != '\n')
			;
	return 1;
}

/* Whether the line at f's position sorts before "key ". */
static int
before(const char *line, const char *key)
{
	size_t kl = strlen(key);
	int c = strncmp(line, key, kl);

	return c < 0 || (c == 0 && (unsigned char)line[kl] < ' ');
}

/*
 * A sorted index: a binary search for the first line of key by offset,
 * then the lines of key read in order. lo is always a line start whose
 * lines before it all sort before key.
 */
static void
search_sorted(FILE *f, const char *key, const char *url, double at,
    struct capture *c, char *line, size_t size)
{
	struct stat st;
	long lo = 0, hi, mid, s;

	if (fstat(fileno(f), &st) != 0)
		return;
	hi = (long)st.st_size;
	while (hi - lo > SCAN_SPAN) {
		mid = lo + (hi - lo) / 2;
		if (fseek(f, mid - 1, SEEK_SET) != 0)
			return;
		next_line(f, line, size); /* to the next line start */
		s = ftell(f);
		if (s >= hi || !next_line(f, line, size)) {
			hi = mid;
			continue;
		}
		if (before(line, key))
			lo = s;
		else
			hi = s;
	}
	if (fseek(f, lo, SEEK_SET) != 0)
		return;
	while (next_line(f, line, size)) {
		if (before(line, key))
			continue;
		if (strncmp(line, key, strlen(key)) != 0 ||
		    line[strlen(key)] != ' ')
			break;
		consider(line, key, url, at, c);
	}
}

/* Every index of dir looked at for url. */
static void
find_capture(const char *dir, const char *key, const char *url, double at,
    struct capture *c)
{
	char path[4096], *line;
	struct dirent *e;
	size_t n;
	DIR *d;
	FILE *f;

	if ((d = opendir(dir)) == NULL)
		return;
	if ((line = malloc(CDXJ_MAX_LINE + 2)) == NULL) {
		closedir(d);
		return;
	}
	while ((e = readdir(d)) != NULL) {
		n = strlen(e->d_name);
		if (e->d_name[0] == '.' || (!(n > 5 &&
		    strcmp(e->d_name + n - 5, ".cdxj") == 0) &&
		    !(n > 10 && strcmp(e->d_name + n - 10, ".cdxj.part") == 0)))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if ((f = fopen(path, "r")) == NULL)
			continue;
		/* A .part is the unsorted index of a file being written. */
		if (e->d_name[n - 1] == 't')
			while (next_line(f, line, CDXJ_MAX_LINE + 2))
				consider(line, key, url, at, c);
		else
			search_sorted(f, key, url, at, c, line,
			    CDXJ_MAX_LINE + 2);
		fclose(f);
	}
	free(line);
	closedir(d);
}

/* The HTTP body of a response block b into body, as the crawl read it
 * (archive/httpmsg.h's httpmsg_body, which `nearcrawl dedup` and
 * `nearcrawl index` read archives with too). */
static int
http_body(struct buf *b, struct buf *body, char *ctype, size_t ctsz,
    char *note, size_t notesz)
{
	struct http_msg m;
	int rc;

	if (httpmsg_parse(b->data, b->len, &m) != 0 || m.status == 0) {
		snprintf(note, notesz, "the archived record holds no HTTP "
		    "response");
		return 1;
	}
	if (!httpmsg_header(&m, "Content-Type", ctype, ctsz))
		ctype[0] = '\0';
	if ((rc = httpmsg_body(&m, body)) == BUF_NOMEM)
		return -1;
	if (rc != BUF_OK && rc != BUF_FULL) {
		snprintf(note, notesz, "the archived body's content coding "
		    "cannot be undone");
		return 1;
	}
	return 0;
}

/*
 * The record at c into body. A revisit names the response it repeats:
 * *refers and *refers_date are set to copies (the caller frees them) and
 * 2 returned. 0 read, 1 not (note), -1 out of memory.
 */
static int
read_record(const char *dir, const struct capture *c, struct buf *body,
    char *ctype, size_t ctsz, char **refers, char *note, size_t notesz)
{
	struct warc_reader *wr;
	struct warc_head h;
	struct buf b;
	char path[4096], err[256];
	int rc = 1;

	snprintf(path, sizeof(path), "%s/%s", dir, c->file);
	if ((wr = warc_reader_open(path, err, sizeof(err))) == NULL) {
		snprintf(note, notesz, "cannot open the archive: %s", err);
		return 1;
	}
	buf_init(&b, body->limit + HEAD_ROOM);
	if (warc_reader_seek(wr, c->offset) != 0 ||
	    warc_reader_next(wr, &h, err, sizeof(err)) != 1) {
		snprintf(note, notesz, "the archive's record at offset %" PRIu64
		    " cannot be read", c->offset);
		goto out;
	}
	if (h.type != NULL && strcmp(h.type, "revisit") == 0) {
		if (h.refers_to_target_uri == NULL ||
		    (*refers = strdup(h.refers_to_target_uri)) == NULL) {
			snprintf(note, notesz, "a revisit record that names no "
			    "response");
			goto out;
		}
		rc = 2;
		goto out;
	}
	if (h.type == NULL || strcmp(h.type, "response") != 0) {
		snprintf(note, notesz, "the archived record is no response");
		goto out;
	}
	if (warc_reader_block(wr, &b, NULL, err, sizeof(err)) != 0) {
		snprintf(note, notesz, "the archived record is damaged: %s",
		    err);
		goto out;
	}
	rc = http_body(&b, body, ctype, ctsz, note, notesz);
out:
	buf_free(&b);
	warc_reader_close(wr);
	return rc;
}

int
svw_read(const char *dir, const char *url, double fetched_at,
    struct buf *body, char *ctype, size_t ctsz, char *note, size_t notesz)
{
	struct capture c;
	char key[4096], *refers = NULL, *hop = NULL;
	int rc, hops;

	ctype[0] = '\0';
	snprintf(note, notesz, "no capture of this URL in the archive");
	for (hops = 0; hops < 2; hops++) {
		memset(&c, 0, sizeof(c));
		if (cdxj_surt(url, key, sizeof(key)) != 0)
			return 1;
		find_capture(dir, key, url, fetched_at, &c);
		if (!c.found)
			break;
		rc = read_record(dir, &c, body, ctype, ctsz, &refers, note,
		    notesz);
		if (rc != 2) {
			free(hop);
			return rc;
		}
		/* The revisit's response: the same bytes, another URL. */
		free(hop);
		url = hop = refers;
		refers = NULL;
	}
	free(hop);
	return 1;
}
