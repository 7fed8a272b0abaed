/*
 * dedupcmd: `nearcrawl dedup` -- the pages of WARC files judged as a crawl
 * judges the pages it fetches (dedupcmd_run).
 *
 * Records are read in file order, one file after the other. Each record
 * that holds a page becomes a job: an HTML response (or resource) and a
 * WET conversion record go to the worker pool to be digested, exactly as
 * a fetched page does (crawler/page.c); other responses, revisit records
 * and damaged records become their rows at once. Rows are written in
 * record order, whatever order the workers finish in, so seq is the
 * record order. At most WINDOW jobs are under way, so memory is bounded
 * by WINDOW bodies at the body cap, whatever the size of the files.
 *
 * Resuming: with each row the file's count of records handled is kept in
 * meta ("dedup_file:" and the file's real path), in the row's
 * transaction; a rerun reads past that many records without judging
 * them. Rows are committed every --batch-pages rows or COMMIT_EVERY_S
 * seconds, whichever comes first, so that a run killed loses no more;
 * a file that cannot be read is an error row and the run goes on to the
 * next.
 */
#include "crawler/dedupcmd.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "archive/httpmsg.h"
#include "archive/warcread.h"
#include "crawler/loop.h"
#include "crawler/page.h"
#include "crawler/setup.h"
#include "storage/store_archive.h"
#include "storage/store_pages.h"
#include "util/decode.h"
#include "util/esc.h"
#include "util/testhook.h"

/* Jobs under way at most: each may hold a body up to --max-body-bytes. */
#define WINDOW 16
/* Seconds between progress lines. */
#define PROGRESS_S 5.0

enum item_kind {
	ITEM_PAGE, /* in the worker pool; page_record_work writes its row */
	ITEM_ROW   /* a row of its own, no text to judge */
};

/* One record on its way to a row. */
struct item {
	struct job *j; /* URL, host, date; the page's work */
	enum item_kind kind;
	int ready;                  /* ITEM_PAGE: the pool handed it back */
	int64_t recno;              /* the record's number in its file, 1.. */
	enum store_verdict verdict; /* ITEM_ROW: */
	int status;
	char *content_type; /* owned, or NULL */
	char *reason;       /* owned, or NULL */
	char *location;     /* owned, or NULL: a redirect's target */
	char *refers;       /* owned, or NULL: a revisit's original */
	char *date;         /* owned: WARC-Date, for a repeated URL */
};

struct dedupcmd {
	struct crawl *c;
	struct item items[WINDOW]; /* ring, oldest at head */
	size_t head, n;
	char key[PATH_MAX + 16]; /* meta key of the file being read */
	struct dedupcmd_summary *sum;
	double last_progress;
	int64_t unread; /* files that could not be read whole */
};

static void
item_clear(struct item *it)
{
	crawl_job_free(it->j);
	free(it->content_type);
	free(it->reason);
	free(it->location);
	free(it->refers);
	free(it->date);
	memset(it, 0, sizeof(*it));
}

/* The pool hands a page back: it waits for its turn. */
static void
on_worked(void *arg)
{
	struct job *j = arg;
	struct dedupcmd *o = j->c->dedupcmd;
	size_t i;

	for (i = 0; i < o->n; i++)
		if (o->items[(o->head + i) % WINDOW].j == j)
			o->items[(o->head + i) % WINDOW].ready = 1;
}

/* A page the pool never handed back: item_clear frees it. */
static void
on_unworked(void *arg)
{
	(void)arg;
}

/*
 * it's URL, unless a row has it already (an archive may hold a URL more
 * than once, captured at several times): then "URL DATE" (a space cannot
 * be in a URL). 1 with the URL in it->j->it.url, 0 when that is taken
 * too (the record is left out), -1 on a database error.
 */
static int
unique_url(struct crawl *c, struct item *it)
{
	char *alt;
	int64_t id;
	size_t len;

	if ((id = store_page_by_url(c->st, it->j->it.url)) <= 0)
		return id < 0 ? -1 : 1;
	len = strlen(it->j->it.url) + strlen(it->date != NULL ? it->date : "") +
	    2;
	if ((alt = malloc(len)) == NULL)
		return -1;
	snprintf(
	    alt, len, "%s %s", it->j->it.url, it->date != NULL ? it->date : "");
	free(it->j->it.url);
	it->j->it.url = alt;
	if ((id = store_page_by_url(c->st, alt)) != 0)
		return id < 0 ? -1 : 0;
	return 1;
}

/*
 * A 2xx revisit's verdict: the page repeats the payload of the row of the
 * URL it refers to (was), so it is what a crawl makes of a copy of that
 * page: an exact duplicate of a judged page, and skipped or an error as
 * that page was when it held nothing to judge; skipped when that record
 * was not read into this database. 1 with a duplicates row to
 * write, 0 without, -1 on a database error.
 */
static int
revisit_verdict(struct crawl *c, int64_t was, struct store_page *p)
{
	struct store_lineage l;
	int rc;

	/* Its payload is in a record this database never read (an earlier
	 * file not given): a copy of nothing here, so nothing to judge, and
	 * an exact row would name no original (nearcrawl check). */
	if (was == 0) {
		p->verdict = STORE_VERDICT_SKIPPED;
		p->reason = "revisit of a record not read into this database";
		return 0;
	}
	if ((rc = store_page_lineage(c->st, was, &l)) <= 0)
		return rc;
	if (l.unique || l.duplicate)
		return 1;
	p->verdict = l.verdict == STORE_VERDICT_SKIPPED ? STORE_VERDICT_SKIPPED
	                                                : STORE_VERDICT_ERROR;
	p->reason = l.verdict == STORE_VERDICT_SKIPPED
	    ? "revisit of a page that holds no text to judge"
	    : "revisit of a record that holds no page";
	return 0;
}

/* it's own row (ITEM_ROW). 0, or -1 on a database error. */
static int
write_row(struct crawl *c, struct item *it)
{
	struct store_page p;
	int64_t id, was = 0;
	int dup = 0;

	crawl_new_row(c, it->j, &p);
	p.verdict = it->verdict;
	p.status = it->status;
	p.content_type = it->content_type;
	p.reason = it->reason;
	p.location = it->location;
	if (it->refers != NULL &&
	    (was = store_page_by_url(c->st, it->refers)) < 0)
		return -1;
	if (it->verdict == STORE_VERDICT_EXACT &&
	    (dup = revisit_verdict(c, was, &p)) < 0)
		return -1;
	if ((id = store_page_add(c->st, &p)) <= 0)
		return -1;
	if (dup && store_duplicate_add(c->st, id, was, "revisit", 100.0) != 0)
		return -1;
	return 0;
}

/* Commit when the interval --help states has passed since the last. */
static void
commit_due(struct crawl *c)
{
	if (c->db.batch > 0 &&
	    clock_mono_ms() - c->db.last_commit >= COMMIT_EVERY_S * 1e3)
		crawl_commit(c);
}

/* Write the rows of the items whose turn has come. 0, or -1 with the
 * crawl failed. */
static int
flush(struct dedupcmd *o, int all)
{
	struct crawl *c = o->c;
	struct item *it;
	char num[32];
	int rc;

	while (o->n > 0) {
		it = &o->items[o->head];
		if (it->kind == ITEM_PAGE && !it->ready) {
			if (!all)
				break;
			/* Wait for the pool. */
			if (event_base_loop(c->loop.base, EVLOOP_ONCE) < 0)
				goto fail;
			continue;
		}
		if ((rc = unique_url(c, it)) < 0)
			goto fail;
		if (rc == 1) {
			if (it->kind == ITEM_PAGE ? page_record_work(c, it->j)
			                          : write_row(c, it))
				goto fail;
			o->sum->pages++;
		} else {
			o->sum->repeated++;
		}
		/* A test hook: slow, so that a test can kill a run midway. */
		if (testhook_judge_tick_ms() > 0)
			usleep((useconds_t)testhook_judge_tick_ms() * 1000);
		snprintf(num, sizeof(num), "%lld", (long long)it->recno);
		if (store_meta_set(c->st, o->key, num) != 0)
			goto fail;
		crawl_batch_page(c);
		commit_due(c);
		if (c->end.failed)
			return -1;
		item_clear(it);
		o->head = (o->head + 1) % WINDOW;
		o->n--;
	}
	return 0;
fail:
	crawl_fail(c, "cannot store a page");
	return -1;
}

/* A new item for a record of url (may be NULL: a damaged record, named
 * by where it is), dated date; in the ring, or NULL when out of memory. */
static struct item *
new_item(struct dedupcmd *o, const char *url, const char *date, int64_t recno)
{
	struct item *it;
	struct job *j;
	const char *why;
	char *u;

	if ((j = calloc(1, sizeof(*j))) == NULL)
		return NULL;
	j->c = o->c;
	j->kind = JOB_PAGE;
	/* Normalised as the crawl stores URLs, so revisits find theirs. */
	if ((u = url_normalize(url, &why)) == NULL)
		u = strdup(url);
	if (u == NULL || (date != NULL && (date = strdup(date)) == NULL)) {
		free(u);
		free(j);
		return NULL;
	}
	j->it.url = u;
	if (url_host(u, j->host, sizeof(j->host)) != 0)
		snprintf(j->host, sizeof(j->host), "-");
	it = &o->items[(o->head + o->n) % WINDOW];
	memset(it, 0, sizeof(*it));
	it->j = j;
	it->recno = recno;
	it->date = (char *)date;
	return it;
}

/* Make room for one more item. 0, or -1. */
static int
room(struct dedupcmd *o)
{
	while (o->n == WINDOW) {
		if (flush(o, 0) != 0)
			return -1;
		if (o->n == WINDOW &&
		    event_base_loop(o->c->loop.base, EVLOOP_ONCE) < 0)
			return -1;
	}
	return 0;
}

/* Parse a WARC-Date ("2026-11-27T03:22:01Z", fraction allowed) into Unix
 * time; 0 when it is not one. */
static double
unix_of(const char *d)
{
	struct tm tm;
	const char *rest;

	if (d == NULL)
		return 0;
	memset(&tm, 0, sizeof(tm));
	rest = strptime(d, "%Y-%m-%dT%H:%M:%S", &tm);
	if (rest == NULL)
		return 0;
	return (double)timegm(&tm);
}

/* Set a row item's fields. */
static int
row(struct item *it, enum store_verdict v, int status, const char *ct,
    const char *reason)
{
	it->kind = ITEM_ROW;
	it->verdict = v;
	it->status = status;
	if ((ct != NULL && (it->content_type = strdup(ct)) == NULL) ||
	    (reason != NULL && (it->reason = strdup(reason)) == NULL))
		return -1;
	return 0;
}

/*
 * The row of a response whose status is not 2xx (m its HTTP head, ct its
 * Content-Type or NULL): a redirect with its target, or an error. 1 made,
 * 0 when the status is 2xx, -1 when out of memory.
 */
static int
status_row(struct item *it, const struct http_msg *m, const char *ct)
{
	char loc[2048], why[64];
	int rc;

	if (m->status >= 300 && m->status < 400) {
		rc = row(it, STORE_VERDICT_REDIRECT, m->status, ct, NULL);
		if (rc == 0 && httpmsg_header(m, "Location", loc, sizeof(loc)) &&
		    (it->location = url_resolve(
		         it->j->it.url, loc, &(const char *){NULL})) == NULL &&
		    (it->location = strdup(loc)) == NULL)
			rc = -1;
		return rc == 0 ? 1 : -1;
	}
	if (m->status >= 200 && m->status < 300)
		return 0;
	snprintf(why, sizeof(why), "HTTP status %d", m->status);
	return row(it, STORE_VERDICT_ERROR, m->status, ct, why) == 0 ? 1 : -1;
}

/* Whether n bytes at p read as text: at most 1 in 32 of the first 1024
 * are control bytes text does not hold (what crawler/page.c asks of a
 * body called HTML). */
static int
text_like(const char *p, size_t n)
{
	const unsigned char *b = (const unsigned char *)p;
	size_t i, bad = 0;

	n = n < 1024 ? n : 1024;
	for (i = 0; i < n; i++)
		if (b[i] <= 0x08 || b[i] == 0x0b ||
		    (b[i] >= 0x0e && b[i] <= 0x1a) ||
		    (b[i] >= 0x1c && b[i] <= 0x1f))
			bad++;
	return bad * 32 <= n;
}

/*
 * The payload (p, n bytes) undone of its Content-Encoding ce into body.
 * Archives that stored the body decoded often kept the header (Common
 * Crawl 2014, ClueWeb09): when it does not decode but reads as text, the
 * body is taken as stored and *note says so. BUF_OK, BUF_FULL (over the
 * cap), BUF_NOMEM, DECODE_BAD (coded data that is damaged).
 */
static int
undo_coding(const char *ce, const char *p, size_t n, struct buf *body,
    const char **note)
{
	int dc;

	*note = NULL;
	dc = decode_all(decode_coding_of(ce), p, n, body);
	if (dc == BUF_OK || dc == DECODE_SHORT || dc == BUF_FULL ||
	    dc == BUF_NOMEM)
		return dc == DECODE_SHORT ? BUF_OK : dc;
	if (!text_like(p, n))
		return DECODE_BAD;
	buf_reset(body);
	*note = "Content-Encoding does not decode: the body was taken as "
		"stored";
	if ((dc = buf_append(body, p, n)) == BUF_FULL &&
	    body->len < body->limit)
		buf_append(body, p, body->limit - body->len);
	return dc;
}

/*
 * A response record's HTTP message (block b, cut when over the cap):
 * its page to the pool, or its row. 0, or -1 when out of memory.
 */
static int
http_response(struct dedupcmd *o, struct item *it, struct buf *b, int cut)
{
	struct crawl *c = o->c;
	const struct config *cfg = c->cfg;
	struct fetch_result r;
	struct http_msg m;
	struct buf dechunked, body;
	const char *payload, *note;
	char ct[256], ce[64], te[64], etag[256], lm[128], why[512];
	size_t plen;
	int have_ct, rc, dc;

	if (httpmsg_parse(b->data, b->len, &m) != 0 || m.status == 0)
		return row(it, STORE_VERDICT_ERROR, 0, NULL,
		    "response record without an HTTP response");
	have_ct = httpmsg_header(&m, "Content-Type", ct, sizeof(ct));
	if ((rc = status_row(it, &m, have_ct ? ct : NULL)) != 0)
		return rc < 0 ? -1 : 0;
	if (cut) {
		snprintf(why, sizeof(why), "body larger than %ld bytes",
		    cfg->max_body);
		return row(it, STORE_VERDICT_ERROR, m.status,
		    have_ct ? ct : NULL, why);
	}
	payload = b->data + m.head_len;
	plen = b->len - m.head_len;
	buf_init(&dechunked, (size_t)cfg->max_body);
	buf_init(&body, (size_t)cfg->max_body);
	/* Archives keep a chunked body as it came, or undone (then the
	 * header usually says so under another name): undo it only when
	 * it really is chunked. */
	if (httpmsg_header(&m, "Transfer-Encoding", te, sizeof(te)) &&
	    strcasestr(te, "chunked") != NULL &&
	    httpmsg_dechunk(payload, plen, &dechunked) == 0) {
		payload = dechunked.data != NULL ? dechunked.data : "";
		plen = dechunked.len;
	}
	dc = undo_coding(
	    httpmsg_header(&m, "Content-Encoding", ce, sizeof(ce)) ? ce : NULL,
	    payload, plen, &body, &note);
	buf_free(&dechunked);
	if (dc == BUF_NOMEM) {
		buf_free(&body);
		return -1;
	}
	if (dc != BUF_OK) {
		buf_free(&body);
		snprintf(why, sizeof(why),
		    dc == BUF_FULL ? "body larger than %ld bytes"
		                   : "bad content encoding",
		    cfg->max_body);
		return row(it, STORE_VERDICT_ERROR, m.status,
		    have_ct ? ct : NULL, why);
	}
	if (!extract_is_html(have_ct ? ct : NULL, body.data, body.len)) {
		buf_free(&body);
		snprintf(why, sizeof(why), "not HTML: %.100s%s%s",
		    have_ct ? ct : "unknown type", note != NULL ? "; " : "",
		    note != NULL ? note : "");
		return row(it, STORE_VERDICT_SKIPPED, m.status,
		    have_ct ? ct : NULL, why);
	}
	/* The note goes into the judged page's reason (crawler/page.c). */
	if (note != NULL && (it->reason = strdup(note)) == NULL) {
		buf_free(&body);
		return -1;
	}
	it->j->note = it->reason;
	memset(&r, 0, sizeof(r));
	r.url = it->j->it.url;
	r.status = m.status;
	r.content_type = have_ct ? ct : NULL;
	if (httpmsg_header(&m, "ETag", etag, sizeof(etag)))
		r.etag = etag;
	if (httpmsg_header(&m, "Last-Modified", lm, sizeof(lm)))
		r.last_modified = lm;
	r.body = &body;
	it->kind = ITEM_PAGE;
	rc = page_submit(c, it->j, &r, 0);
	buf_free(&body);
	return rc;
}

/*
 * A revisit record (its block b: the HTTP head, by the profiles in use)
 * takes the status of its own head: a revisit of a 404 is a 404, of a
 * redirect a redirect; a 2xx one (or one without a head) repeats the
 * page it refers to (write_row). 0, or -1 when out of memory.
 */
static int
revisit(struct item *it, const struct buf *b, const char *ref)
{
	struct http_msg m;
	char ct[256], why[160];
	int have_ct = 0, rc;


	if (httpmsg_parse(b->data, b->len, &m) == 0 && m.status != 0) {
		have_ct = httpmsg_header(&m, "Content-Type", ct, sizeof(ct));
		if ((rc = status_row(it, &m, have_ct ? ct : NULL)) != 0)
			return rc < 0 ? -1 : 0;
		/* A copy of an image is what the image was, as a crawl
		 * says: not HTML. */
		if (have_ct && !extract_is_html(ct, NULL, 0)) {
			snprintf(why, sizeof(why), "not HTML: %.100s", ct);
			return row(it, STORE_VERDICT_SKIPPED, m.status, ct, why);
		}
	}
	if (row(it, STORE_VERDICT_EXACT, m.status, have_ct ? ct : NULL,
	        NULL) != 0)
		return -1;
	if (ref != NULL &&
	    (it->refers = url_normalize(ref, &(const char *){NULL})) == NULL &&
	    (it->refers = strdup(ref)) == NULL)
		return -1;
	return 0;
}

/* A page whose block is the document itself: a resource record (HTML)
 * or a WET conversion record (plain text, plain set). 0, or -1. */
static int
document(struct dedupcmd *o, struct item *it, struct buf *b, const char *ct,
    int plain)
{
	struct fetch_result r;

	memset(&r, 0, sizeof(r));
	r.url = it->j->it.url;
	r.status = 200;
	r.content_type = ct;
	r.body = b;
	it->kind = ITEM_PAGE;
	return page_submit(o->c, it->j, &r, plain);
}

/* What a record of type t with content type ct holds. */
enum holds { HOLDS_NOTHING, HOLDS_HTTP, HOLDS_HTML, HOLDS_TEXT, HOLDS_REVISIT };

static enum holds
holds(const struct warc_head *h)
{
	const char *t = h->type,
	           *ct = h->content_type != NULL ? h->content_type : "";

	if (t == NULL || h->target_uri == NULL)
		return HOLDS_NOTHING;
	if (strcasecmp(t, "response") == 0)
		return strncasecmp(ct, "application/http", 16) == 0 ? HOLDS_HTTP
		    : strncasecmp(ct, "text/html", 9) == 0          ? HOLDS_HTML
		                                           : HOLDS_NOTHING;
	if (strcasecmp(t, "resource") == 0)
		return strncasecmp(ct, "text/html", 9) == 0 ||
		        strncasecmp(ct, "application/xhtml", 17) == 0
		    ? HOLDS_HTML
		    : HOLDS_NOTHING;
	if (strcasecmp(t, "conversion") == 0)
		return strncasecmp(ct, "text/plain", 10) == 0 ? HOLDS_TEXT
		                                              : HOLDS_NOTHING;
	if (strcasecmp(t, "revisit") == 0)
		return HOLDS_REVISIT;
	return HOLDS_NOTHING;
}

/*
 * Where damage is, for a row's reason: "offset N of FILE", or in a file
 * gzipped whole "uncompressed offset N of FILE (one gzip stream: N counts
 * its decompressed bytes)".
 */
static void
where(char *out, size_t outsz, const char *file, uint64_t offset,
    int decompressed)
{
	snprintf(out, outsz, "%soffset %llu of %s%s",
	    decompressed ? "uncompressed " : "", (unsigned long long)offset,
	    file,
	    decompressed ? " (one gzip stream: the offset counts its "
			   "decompressed bytes)"
			 : "");
}

/* One record that holds a page (header h, number recno): its item. 0, or
 * -1 when the run must stop. */
static int
take_record(struct dedupcmd *o, struct warc_reader *wr,
    const struct warc_head *h, int64_t recno, const char *file)
{
	struct crawl *c = o->c;
	enum holds what = holds(h);
	struct http_msg m;
	struct item *it;
	struct buf b;
	char err[256], why[PATH_MAX + 1024], at[PATH_MAX + 128];
	int cut = 0, rc = -1, brc;

	if (what == HOLDS_NOTHING)
		return 0;
	if (room(o) != 0)
		return -1;
	if ((it = new_item(o, h->target_uri, h->date, recno)) == NULL)
		goto nomem;
	o->n++;
	it->j->fetched_at = unix_of(h->date);
	/* Every block is read here, a revisit's too: damage in it is then
	 * this row's, never a row of its own besides. */
	buf_init(&b, (size_t)c->cfg->max_body + HTTPMSG_MAX_HEAD);
	brc = warc_reader_block(wr, &b, &cut, err, sizeof(err));
	where(at, sizeof(at), file, h->offset, h->decompressed);
	if (brc == -4) {
		/* The file ends inside the block: a capture cut short, as
		 * a crawl's body that stopped coming is an error. */
		snprintf(why, sizeof(why),
		    "WARC record cut short at the end of the file (record at "
		    "%s): %s",
		    at, err);
		o->sum->damaged++;
		rc = row(it, STORE_VERDICT_ERROR,
		    what != HOLDS_HTML && what != HOLDS_TEXT &&
			    httpmsg_parse(b.data, b.len, &m) == 0
			? m.status
			: 0,
		    NULL, why);
	} else if (brc != 0) {
		snprintf(why, sizeof(why), "damaged WARC record at %s: %s", at,
		    err);
		o->sum->damaged++;
		rc = row(it, STORE_VERDICT_ERROR, 0, NULL, why);
	} else if (what == HOLDS_REVISIT) {
		rc = revisit(it, &b, h->refers_to_target_uri);
	} else if (what == HOLDS_HTTP) {
		rc = http_response(o, it, &b, cut);
	} else if (cut) {
		snprintf(why, sizeof(why), "body larger than %ld bytes",
		    c->cfg->max_body);
		rc = row(it, STORE_VERDICT_ERROR, 200, h->content_type, why);
	} else {
		rc = document(o, it, &b, h->content_type, what == HOLDS_TEXT);
	}
	buf_free(&b);
	if (rc != 0)
		goto nomem;
	return 0;
nomem:
	crawl_fail(c, "out of memory");
	return -1;
}

/*
 * Damage that is no page: an error row named by the file and where the
 * damage is ("warc-damaged:FILE:OFFSET", or ":uncompressed:OFFSET" in a
 * file gzipped whole, so that no two collide), or, offset UINT64_MAX, by
 * the file alone ("warc-unreadable:FILE"). 0, or -1.
 */
static int
damaged(struct dedupcmd *o, const char *file, const struct warc_head *h,
    uint64_t offset, int64_t recno, const char *err)
{
	char name[PATH_MAX + 64], why[PATH_MAX + 1024], at[PATH_MAX + 128];
	const char *base = strrchr(file, '/');
	struct item *it;

	base = base != NULL ? base + 1 : file;
	if (room(o) != 0)
		return -1;
	if (offset == UINT64_MAX) {
		snprintf(name, sizeof(name), "warc-unreadable:%s", base);
		snprintf(why, sizeof(why), "cannot read %s: %s", file, err);
	} else {
		o->sum->damaged++;
		snprintf(name, sizeof(name), "warc-damaged:%s:%s%llu", base,
		    h->decompressed ? "uncompressed:" : "",
		    (unsigned long long)offset);
		where(at, sizeof(at), file, offset, h->decompressed);
		snprintf(why, sizeof(why), "damaged WARC record at %s: %s", at,
		    err);
	}
	if ((it = new_item(o, name, NULL, recno)) == NULL)
		goto nomem;
	o->n++;
	snprintf(it->j->host, sizeof(it->j->host), "-");
	if (row(it, STORE_VERDICT_ERROR, 0, NULL, why) != 0)
		goto nomem;
	return 0;
nomem:
	crawl_fail(o->c, "out of memory");
	return -1;
}

static void
progress(struct dedupcmd *o, const char *file, int force)
{
	char msg[PATH_MAX + 64];
	double now = clock_mono_ms();

	if (o->c->cfg->quiet ||
	    (!force && now - o->last_progress < PROGRESS_S * 1e3))
		return;
	o->last_progress = now;
	fprintf(stderr,
	    "nearcrawl: dedup: %s: %lld records read, %lld pages "
	    "stored, %lld damaged\n",
	    esc_str(file, msg, sizeof(msg)), (long long)o->sum->records,
	    (long long)o->sum->pages, (long long)o->sum->damaged);
}

/*
 * Read one file into the database. A file that cannot be opened, or whose
 * reading fails midway (an I/O error), is an error row and the run goes
 * on (o->unread counts it). 0, or -1 when the run must stop (c->err).
 */
static int
read_file(struct dedupcmd *o, const char *file)
{
	struct crawl *c = o->c;
	struct warc_reader *wr;
	struct warc_head h;
	char err[512], msg[PATH_MAX + 64], *v, real[PATH_MAX];
	int64_t recno = 0, done = 0;
	int rc, dberr = 0;

	if (realpath(file, real) == NULL)
		snprintf(real, sizeof(real), "%s", file);
	snprintf(o->key, sizeof(o->key), "dedup_file:%s", real);
	if ((v = store_meta_get(c->st, o->key, &dberr)) != NULL)
		done = strtoll(v, NULL, 10);
	free(v);
	if (dberr) {
		crawl_fail(c, "cannot read the database");
		return -1;
	}
	memset(&h, 0, sizeof(h));
	if ((wr = warc_reader_open(file, err, sizeof(err))) == NULL) {
		if (!c->cfg->quiet)
			fprintf(stderr, "nearcrawl: dedup: %s\n",
			    esc_str(err, msg, sizeof(msg)));
		o->unread++;
		rc = damaged(o, real, &h, UINT64_MAX, 0, err);
		if (rc == 0)
			rc = flush(o, 1);
		return rc != 0 || c->end.failed ? -1 : 0;
	}
	if (done > 0 && !c->cfg->quiet)
		fprintf(stderr,
		    "nearcrawl: dedup: %s: resuming after record "
		    "%lld\n",
		    esc_str(file, msg, sizeof(msg)), (long long)done);
	rc = 0;
	while (rc == 0 && !c->end.failed && !c->end.stopping) {
		int r = warc_reader_next(wr, &h, err, sizeof(err));

		if (r == 0)
			break;
		if (r == -2) {
			/* What was read stays; the rest of the file is an
			 * error row, and the next file is read. */
			if (!c->cfg->quiet)
				fprintf(stderr, "nearcrawl: dedup: %s: %s\n",
				    esc_str(file, msg, sizeof(msg)), err);
			o->unread++;
			snprintf(msg, sizeof(msg), "reading stopped after "
			    "record %lld: ", (long long)recno);
			strncat(msg, err, sizeof(msg) - strlen(msg) - 1);
			rc = damaged(o, real, &h, UINT64_MAX, recno, msg);
			break;
		}
		/* Damage in what was read before is no record of its own. */
		if (!(r == -1 && h.earlier)) {
			recno++;
			o->sum->records++;
		}
		/* Signals and finished pages, without waiting. */
		event_base_loop(c->loop.base, EVLOOP_NONBLOCK);
		commit_due(c);
		if (recno > 0 && recno <= done)
			continue;
		rc = r == -1 ? damaged(o, real, &h, h.offset, recno, err)
		             : take_record(o, wr, &h, recno, real);
		if (rc == 0)
			rc = flush(o, 0);
		progress(o, file, 0);
	}
	if (rc == 0 && !c->end.failed)
		rc = flush(o, 1);
	warc_reader_close(wr);
	o->sum->files++;
	progress(o, file, 1);
	return rc != 0 || c->end.failed ? -1 : 0;
}

static void
on_stop(evutil_socket_t sig, short what, void *arg)
{
	struct crawl *c = arg;

	crawl_stop(c, 0);
}

int
dedupcmd_run(const struct config *cfg, char *const *files, size_t nfiles,
    struct dedupcmd_summary *sum, char *err, size_t errsz)
{
	struct crawl c;
	struct dedupcmd o;
	size_t i;
	int rc;

	memset(&o, 0, sizeof(o));
	memset(sum, 0, sizeof(*sum));
	/* A file given by mistake is refused before the database is made. */
	for (i = 0; i < nfiles; i++)
		if ((rc = warc_file_check(files[i], err, errsz)) != 0)
			return 2;
	crawl_init(&c, cfg, CRAWL_ARCHIVE, err, errsz);
	c.dedupcmd = &o;
	o.c = &c;
	o.sum = sum;
	o.last_progress = c.started;
	if ((rc = setup_prepare(&c)) != 0)
		goto out;
	if (loop_open(&c, on_worked, on_stop) != 0) {
		snprintf(err, errsz, "cannot set up the worker pool");
		rc = 1;
		goto out;
	}
	for (i = 0; i < nfiles && !c.end.failed && !c.end.stopping; i++)
		read_file(&o, files[i]);
	rc = c.end.failed ? 1 : 0;
	sum->unread = o.unread;
	/* Pages still in the pool after a failure are dropped: they are
	 * read again on the next run. */
	loop_close_pool(&c, on_unworked);
	while (o.n > 0) {
		item_clear(&o.items[o.head]);
		o.head = (o.head + 1) % WINDOW;
		o.n--;
	}
	if (rc == 0 && (store_commit(c.st) != 0 ||
	    store_checkpoint(c.st) != 0)) {
		snprintf(err, errsz, "%s: %s", cfg->db, store_errmsg(c.st));
		rc = 1;
	}
	/* Everything read is stored; the files that were not fail the run
	 * all the same, so that a script sees it. */
	if (rc == 0 && o.unread > 0) {
		snprintf(err, errsz,
		    "%lld of %zu files could not be read whole (their error "
		    "rows say why); the rest is stored",
		    (long long)o.unread, nfiles);
		rc = 1;
	}
	if (rc != 0 && o.unread == 0)
		store_rollback(c.st);
	sum->interrupted = c.end.stopping != 0 && !c.end.failed;
	sum->seconds = (clock_mono_ms() - c.started) / 1e3;
	sum->stages = c.stages;
	sum->stages.threads = c.loop.threads;
	if (store_counts(c.st, &sum->counts) == 0)
		sum->counted = 1;
out:
	if (rc != 0 && c.st != NULL && o.unread == 0)
		store_rollback(c.st);
	loop_teardown(&c);
	return rc;
}
