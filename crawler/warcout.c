#include "crawler/warcout.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "crawler/earlier.h"
#include "crawler/settings.h"
#include "storage/store_archive.h"

/* The revisit profile of WARC 1.1 for a payload seen before. */
#define PROFILE_IDENTICAL                                                      \
	"http://netpreserve.org/warc/1.1/revisit/identical-payload-digest"
/* Fields of a response or revisit record, at most. */
#define FIELDS_MAX 10
/* warcinfo lines at most: the settings (a list setting gives several). */
#define INFO_MAX 512

/* The warcinfo lines, gathered from the settings. */
struct info {
	struct warc_field f[INFO_MAX];
	char *kept[INFO_MAX]; /* the values, owned */
	size_t n;
	int nomem;
};

static void
add_info(const char *key, const char *value, void *arg)
{
	struct info *in = arg;
	char *v;

	if (in->n == INFO_MAX || strpbrk(value, "\r\n") != NULL)
		return;
	if ((v = strdup(value)) == NULL) {
		in->nomem = 1;
		return;
	}
	in->kept[in->n] = v;
	in->f[in->n].name = key;
	in->f[in->n].value = v;
	in->n++;
}

int
warcout_open(struct crawl *c)
{
	const struct config *cfg = c->cfg;
	struct warc_writer_opts o;
	struct info in;
	char prefix[256], why[512];
	size_t i;
	int rc = 2;

	if (strcmp(cfg->warc_dir, "none") == 0)
		return 0;
	memset(&in, 0, sizeof(in));
	if (settings_each(c, add_info, &in) != 0 || in.nomem) {
		snprintf(c->err, c->errsz, "out of memory");
		rc = 1;
		goto out;
	}
	/* Processes sharing a crawl may share a directory: each writes
	 * files of its own. */
	if (c->share != NULL)
		snprintf(prefix, sizeof(prefix), "%s-%ld", cfg->warc_prefix,
		    (long)getpid());
	else
		snprintf(prefix, sizeof(prefix), "%s", cfg->warc_prefix);
	memset(&o, 0, sizeof(o));
	o.dir = cfg->warc_dir;
	o.prefix = prefix;
	o.max_bytes = (uint64_t)cfg->warc_max_bytes;
	o.software = "nearcrawl/" NEARCRAWL_VERSION;
	o.info = in.f;
	o.ninfo = in.n;
	o.cdxj = 1;
	if ((c->warc = warc_writer_open(&o, why, sizeof(why))) == NULL) {
		snprintf(c->err, c->errsz, "--warc %s: %s", cfg->warc_dir, why);
		goto out;
	}
	rc = 0;
out:
	for (i = 0; i < in.n; i++)
		free(in.kept[i]);
	return rc;
}

/* A record failed to go out: the crawl stops with why. */
static int
failed(struct crawl *c, const char *why)
{
	char what[512];

	snprintf(what, sizeof(what), "--warc %s", c->cfg->warc_dir);
	crawl_fail_because(c, what, why);
	return -1;
}

/* Whether the header line of len bytes at p is named name. */
static int
is_header(const char *p, size_t len, const char *name)
{
	size_t n = strlen(name);

	return len > n && p[n] == ':' && strncasecmp(p, name, n) == 0;
}

/*
 * The response head as archived: as received, but for a transfer-coding
 * libcurl undid -- the body archived is not chunked, so its header is
 * renamed X-Crawler-Transfer-Encoding (and X-Crawler-Content-Length for a
 * Content-Length beside it), and the body's real length is given as
 * Content-Length, so that a replay tool reads the message as archived.
 * Returns 0, or -1 when out of memory.
 */
static int
archived_head(const struct fetch_result *r, size_t body_len, struct buf *out)
{
	const char *p = r->response, *end = p + r->response_len, *nl;
	int chunked = 0;
	size_t len;
	char cl[48];

	for (nl = p; nl < end; nl = memchr(nl, '\n', (size_t)(end - nl)),
	    nl = nl != NULL ? nl + 1 : end)
		if (is_header(nl, (size_t)(end - nl), "Transfer-Encoding"))
			chunked = 1;
	if (!chunked)
		return buf_append(out, p, r->response_len) == BUF_OK ? 0 : -1;
	while (p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		len = nl != NULL ? (size_t)(nl - p) + 1 : (size_t)(end - p);
		if (len <= 2 && (p[0] == '\r' || p[0] == '\n')) {
			/* The blank line: the real length goes before it. */
			snprintf(cl, sizeof(cl), "Content-Length: %zu\r\n",
			    body_len);
			if (buf_puts(out, cl) != BUF_OK)
				return -1;
		} else if (is_header(p, len, "Transfer-Encoding") ||
		    is_header(p, len, "Content-Length")) {
			if (buf_puts(out, "X-Crawler-") != BUF_OK)
				return -1;
		}
		if (buf_append(out, p, len) != BUF_OK)
			return -1;
		p += len;
	}
	return 0;
}

/* What WARC-Truncated says of a response that did not end well, or
 * NULL. */
static const char *
truncation(const struct fetch_result *r)
{
	if (r->body_too_large)
		return "length";
	if (r->code == CURLE_OK || r->code == CURLE_BAD_CONTENT_ENCODING)
		return NULL;
	if (r->code == CURLE_OPERATION_TIMEDOUT)
		return "time";
	return "disconnect";
}

int
warcout_fetch(struct crawl *c, struct job *j, const struct fetch_result *r)
{
	struct warc_field f[FIELDS_MAX];
	struct warc_record rec;
	struct warc_pos pos;
	struct earlier_ref before;
	struct buf head;
	const struct buf *raw = r->raw;
	char digest[WARC_DIGEST_LEN], date[WARC_DATE_LEN], why[512];
	char offset[24];
	char *was_url = NULL, *was_date = NULL;
	const char *cut;
	size_t nf = 0;
	int found, rc = -1;

	j->warc_id[0] = '\0';
	j->warc_digest[0] = '\0';
	memset(&before, 0, sizeof(before));
	if (c->warc == NULL || r->response == NULL || raw == NULL)
		return 0;
	buf_init(&head, FETCH_MAX_HEADER_BYTES + 64);
	warc_date_of(r->started_wall, date);
	warc_sha1_of(raw->data, raw->len, digest);
	if (archived_head(r, raw->len, &head) != 0) {
		rc = failed(c, "out of memory");
		goto out;
	}
	cut = truncation(r);
	/* Archived by this crawl (where its record is, for the revisit's
	 * fields), else perhaps by an earlier one. */
	found = cut == NULL && raw->len > 0
	    ? store_payload_where(c->st, digest, &before.p)
	    : 0;
	if (found < 0) {
		crawl_fail(c, "cannot read archived payloads");
		goto out;
	}
	if (found == 0 && cut == NULL && raw->len > 0 &&
	    (found = earlier_payload(c, digest, &before)) < 0)
		goto out;
	if (found == 1) {
		was_url = before.p.url;
		was_date = before.p.date;
		before.p.url = before.p.date = NULL;
	}
	memset(&rec, 0, sizeof(rec));
	/* robots.txt follows its redirects: the response is the last's. */
	rec.target_uri = j->kind != JOB_ROBOTS ? j->it.url
	    : r->final_url != NULL            ? r->final_url
	                                      : r->url;
	rec.date = date;
	rec.content_type = "application/http;msgtype=response";
	rec.head = head.data;
	rec.head_len = head.len;
	f[nf++] = (struct warc_field){"WARC-Payload-Digest", digest};
	if (r->ip != NULL && r->ip[0] != '\0')
		f[nf++] = (struct warc_field){"WARC-IP-Address", r->ip};
	if (found == 1) {
		rec.type = "revisit";
		f[nf++] =
		    (struct warc_field){"WARC-Profile", PROFILE_IDENTICAL};
		f[nf++] =
		    (struct warc_field){"WARC-Refers-To-Target-URI", was_url};
		f[nf++] = (struct warc_field){"WARC-Refers-To-Date", was_date};
		/* Where the first record is, in this crawl's files or an
		 * earlier crawl's, as far as its database says: the WARC 1.1
		 * field, and the two Heritrix writes. */
		if (before.p.record_id != NULL)
			f[nf++] = (struct warc_field){"WARC-Refers-To",
			    before.p.record_id};
		if (before.p.file != NULL)
			f[nf++] = (struct warc_field){
			    "WARC-Refers-To-Filename", before.p.file};
		if (before.p.file != NULL && before.p.offset >= 0) {
			snprintf(offset, sizeof(offset), "%lld",
			    (long long)before.p.offset);
			f[nf++] = (struct warc_field){
			    "WARC-Refers-To-File-Offset", offset};
		}
	} else {
		rec.type = "response";
		rec.body = raw->data;
		rec.body_len = raw->len;
		if (cut != NULL)
			f[nf++] = (struct warc_field){"WARC-Truncated", cut};
	}
	rec.fields = f;
	rec.nfields = nf;
	if (warc_write(c->warc, &rec, &pos, why, sizeof(why)) != 0) {
		rc = failed(c, why);
		goto out;
	}
	snprintf(j->warc_id, sizeof(j->warc_id), "%s", rec.id);
	if (cut == NULL && raw->len > 0)
		snprintf(j->warc_digest, sizeof(j->warc_digest), "%s", digest);
	if (found == 0 && cut == NULL && raw->len > 0 &&
	    store_payload_add(c->st, digest, rec.target_uri, date, pos.file,
	        (int64_t)pos.offset, rec.id) != 0) {
		crawl_fail(c, "cannot keep an archived payload");
		goto out;
	}
	/* The request that asked for it, when libcurl showed it. */
	if (r->request != NULL && r->request_len > 0) {
		memset(&rec, 0, sizeof(rec));
		rec.type = "request";
		rec.target_uri = j->kind != JOB_ROBOTS ? j->it.url
		    : r->final_url != NULL            ? r->final_url
		                                      : r->url;
		rec.date = date;
		rec.content_type = "application/http;msgtype=request";
		rec.head = r->request;
		rec.head_len = r->request_len;
		f[0] = (struct warc_field){"WARC-Concurrent-To", j->warc_id};
		rec.fields = f;
		rec.nfields = 1;
		if (warc_write(c->warc, &rec, NULL, why, sizeof(why)) != 0) {
			rc = failed(c, why);
			goto out;
		}
	}
	rc = 0;
out:
	free(was_url);
	free(was_date);
	earlier_ref_free(&before);
	buf_free(&head);
	return rc;
}

int
warcout_verdict(struct crawl *c, const struct job *j, enum dedup_verdict v,
    const struct dedup_match *m, size_t nm)
{
	struct warc_record rec;
	struct warc_field f[1];
	struct buf body;
	char line[256], date[WARC_DATE_LEN], why[512], *url;
	double at;
	size_t i;
	int rc = -1, found;

	if (c->warc == NULL || j->warc_id[0] == '\0' || v == DEDUP_UNIQUE)
		return 0;
	buf_init(&body, 64 * 1024);
	snprintf(line, sizeof(line), "verdict: %s\r\n",
	    v == DEDUP_EXACT ? "exact" : "near");
	if (buf_puts(&body, line) != BUF_OK)
		goto nomem;
	for (i = 0; i < nm; i++) {
		if ((found = store_page_url(
		         c->st, m[i].original_id, &url, &at)) < 0) {
			crawl_fail(c, "cannot read a page's URL");
			goto out;
		}
		if (found == 0 || strpbrk(url, "\r\n") != NULL) {
			free(url);
			continue;
		}
		warc_date_of(at, date);
		if (buf_puts(&body, "duplicate-of: ") != BUF_OK ||
		    buf_puts(&body, url) != BUF_OK) {
			free(url);
			goto nomem;
		}
		free(url);
		snprintf(line, sizeof(line),
		    "\r\nduplicate-of-date: %s\r\n"
		    "duplicate-method: %s\r\nduplicate-similarity: %.2f\r\n",
		    date, dedup_method_name(m[i].method), m[i].percent);
		if (buf_puts(&body, line) != BUF_OK)
			goto nomem;
	}
	memset(&rec, 0, sizeof(rec));
	rec.type = "metadata";
	rec.target_uri = j->it.url;
	rec.content_type = "application/warc-fields";
	f[0] = (struct warc_field){"WARC-Concurrent-To", j->warc_id};
	rec.fields = f;
	rec.nfields = 1;
	rec.head = body.data;
	rec.head_len = body.len;
	if (warc_write(c->warc, &rec, NULL, why, sizeof(why)) != 0) {
		rc = failed(c, why);
		goto out;
	}
	rc = 0;
	goto out;
nomem:
	rc = failed(c, "out of memory");
out:
	buf_free(&body);
	return rc;
}

int
warcout_close(struct crawl *c)
{
	char why[512];
	int rc;

	if (c->warc == NULL)
		return 0;
	rc = warc_writer_close(c->warc, why, sizeof(why));
	c->warc = NULL;
	if (rc != 0) {
		if (!c->end.failed)
			snprintf(c->err, c->errsz, "--warc %s: %s",
			    c->cfg->warc_dir, why);
		return -1;
	}
	return 0;
}
