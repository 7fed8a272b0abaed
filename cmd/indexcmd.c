/*
 * indexcmd: `nearcrawl index` (cmd/indexcmd.h). store_open takes the
 * writer's lock and gives an older database the index table; the work
 * runs on a connection of our own, committed in batches.
 */
#include "cmd/indexcmd.h"

#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "archive/httpmsg.h"
#include "archive/warcread.h"
#include "config/cmdopt.h"
#include "config/config.h"
#include "crawler/crawl.h"
#include "digest/digest.h"
#include "storage/query.h"
#include "storage/store.h"
#include "storage/store_search.h"
#include "util/buf.h"
#include "util/clock.h"
#include "util/err.h"
#include "util/esc.h"
#include "web/extract.h"
#include "web/url.h"

enum { IX_OK = 0, IX_RUNTIME = 1, IX_BADDB = 2, IX_STOPPED = 3 };

#define BATCH_PAGES 256     /* pages a transaction, at most ... */
#define BATCH_MS 2000.0     /* ... or this long's worth */
#define PROGRESS_MS 2000.0  /* between progress lines */
#define MISSING_PAGE 4096   /* missing pages read at once */
#define NAMED_MAX 5         /* pages that cannot be indexed named */
#define SAME_CAPTURE_S 120.0 /* a record this close to a page's fetch time
                                is its capture (a crawl dates the record
                                when the transfer starts, the row when it
                                is written) */

static volatile sig_atomic_t stopping;

static void
on_signal(int sig)
{
	(void)sig;
	stopping = 1;
}

struct ix {
	struct config cfg;          /* the crawl's settings */
	const char *db;
	int quiet;
	char **warc;                /* --warc paths */
	size_t nwarc;
	struct store_conn *c;       /* our connection, in a transaction */
	struct store_searcher *q;
	struct dedup *dd;           /* for digest_page: MD5 and shingles */
	/* The pages missing before the WARC pass, ascending, and which of
	 * them it indexed. */
	int64_t *miss;
	unsigned char *done;
	size_t nmiss, capmiss;
	int64_t batch;              /* pages in the open transaction */
	double batch_at;            /* when it began */
	double started, last_progress;
	struct store_search_counts n; /* at the start */
	int64_t from_warc, from_text, from_revisit, body_only;
	int64_t unreadable;         /* WARC files that could not be read */
	int64_t cannot;             /* pages left without a source */
	char *named[NAMED_MAX];     /* some of them */
	char *err;
	size_t errsz;
};

static int
oom(struct ix *x)
{
	return err_set(x->err, x->errsz, IX_RUNTIME, "out of memory");
}

static int
db_fail(struct ix *x)
{
	return store_conn_fail(x->c, x->err, x->errsz, IX_RUNTIME, IX_BADDB);
}

static int64_t
added(const struct ix *x)
{
	return x->from_warc + x->from_text + x->from_revisit;
}

static void
progress(struct ix *x, int force)
{
	double now = clock_mono_ms(), s;
	int64_t todo = x->n.judged - x->n.indexed;

	if (x->quiet || (!force && now - x->last_progress < PROGRESS_MS))
		return;
	x->last_progress = now;
	s = (now - x->started) / 1e3;
	fprintf(stderr, "nearcrawl: index: %lld of %lld pages indexed "
	    "(%.0f%%), %.0f pages/s\n", (long long)added(x), (long long)todo,
	    todo > 0 ? 100.0 * (double)added(x) / (double)todo : 100.0,
	    s > 0 ? (double)added(x) / s : 0.0);
}

/* Commit the batch when it is full or old, and begin the next. */
static int
batch_step(struct ix *x, int force)
{
	if (!force && x->batch < BATCH_PAGES &&
	    clock_mono_ms() - x->batch_at < BATCH_MS)
		return 0;
	if (store_conn_commit(x->c) != 0 || store_conn_begin(x->c) != 0)
		return db_fail(x);
	x->batch = 0;
	x->batch_at = clock_mono_ms();
	progress(x, 0);
	return 0;
}

/* Index page id. 0, or an exit status. */
static int
put(struct ix *x, int64_t id, const char *title, const char *text,
    size_t len)
{
	if (store_search_put(x->q, id, title, text, len) != 0)
		return db_fail(x);
	x->batch++;
	return batch_step(x, 0);
}

/* ---- the pages still missing ---- */

/* One page of missing rows, copied: the index is written while they are
 * handled, so the rows are not read under the writes. */
struct todo_page {
	struct ix *x;
	int64_t *id;
	char **title;
	unsigned char *has_text;
	char **url;
	size_t n;
	int failed;
};

static int
todo_in(const struct store_search_todo *t, void *arg)
{
	struct todo_page *p = arg;

	p->id[p->n] = t->id;
	p->has_text[p->n] = (unsigned char)t->has_text;
	p->title[p->n] = t->title != NULL ? strdup(t->title) : NULL;
	p->url[p->n] = strdup(t->url);
	if (p->url[p->n] == NULL || (t->title != NULL &&
	    p->title[p->n] == NULL)) {
		free(p->url[p->n]);
		free(p->title[p->n]);
		p->failed = 1;
		return 1;
	}
	p->n++;
	return 0;
}

static void
todo_clear(struct todo_page *p)
{
	size_t i;

	for (i = 0; i < p->n; i++) {
		free(p->title[i]);
		free(p->url[i]);
	}
	p->n = 0;
}

/*
 * Call fn for every judged page still missing from the index, in id
 * order, a page of rows at a time. 0, or an exit status.
 */
static int
each_missing(struct ix *x, int (*fn)(struct ix *, int64_t, const char *,
    const char *, int))
{
	struct todo_page p;
	int64_t after = 0;
	size_t i;
	int rc = 0;

	memset(&p, 0, sizeof(p));
	p.x = x;
	if ((p.id = calloc(MISSING_PAGE, sizeof(*p.id))) == NULL ||
	    (p.title = calloc(MISSING_PAGE, sizeof(*p.title))) == NULL ||
	    (p.url = calloc(MISSING_PAGE, sizeof(*p.url))) == NULL ||
	    (p.has_text = calloc(MISSING_PAGE, 1)) == NULL) {
		rc = oom(x);
		goto out;
	}
	for (;;) {
		if (store_search_missing(x->c, after, MISSING_PAGE, todo_in,
		    &p) < 0) {
			rc = p.failed ? oom(x) : db_fail(x);
			goto out;
		}
		if (p.failed) {
			rc = oom(x);
			goto out;
		}
		if (p.n == 0)
			break;
		for (i = 0; i < p.n && rc == 0 && !stopping; i++)
			rc = fn(x, p.id[i], p.url[i], p.title[i],
			    p.has_text[i]);
		after = p.id[p.n - 1];
		todo_clear(&p);
		if (rc != 0 || stopping || p.n < MISSING_PAGE)
			break;
	}
out:
	todo_clear(&p);
	free(p.id);
	free(p.title);
	free(p.url);
	free(p.has_text);
	return rc;
}

/* ---- from the stored text ---- */

static int
from_text(struct ix *x, int64_t id, const char *url, const char *title,
    int has_text)
{
	char *text;
	size_t len;
	int rc;

	(void)url;
	if (!has_text)
		return 0;
	if (store_search_stored_text(x->c, id, &text, &len) != 0)
		return db_fail(x);
	if (text == NULL)
		return 0;
	rc = put(x, id, title, text, len);
	free(text);
	if (rc == 0) {
		x->from_text++;
		if (strcmp(x->cfg.near_text, "body") != 0)
			x->body_only++;
	}
	return rc;
}

/* ---- from WARC files ---- */

static int
miss_in(struct ix *x, int64_t id, const char *url, const char *title,
    int has_text)
{
	int64_t *nm;
	size_t cap;

	(void)url;
	(void)title;
	(void)has_text;
	if (x->nmiss == x->capmiss) {
		cap = x->capmiss > 0 ? x->capmiss * 2 : 4096;
		if ((nm = realloc(x->miss, cap * sizeof(*nm))) == NULL)
			return oom(x);
		x->miss = nm;
		x->capmiss = cap;
	}
	x->miss[x->nmiss++] = id;
	return 0;
}

/* The place of id among the missing pages still to do, or -1. */
static long
miss_find(const struct ix *x, int64_t id)
{
	size_t lo = 0, hi = x->nmiss, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (x->miss[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < x->nmiss && x->miss[lo] == id && !x->done[lo] ?
	    (long)lo : -1;
}

/* A WARC-Date ("2026-11-27T03:22:01Z") as Unix time; 0 when none. */
static double
unix_of(const char *d)
{
	struct tm tm;

	if (d == NULL)
		return 0;
	memset(&tm, 0, sizeof(tm));
	if (strptime(d, "%Y-%m-%dT%H:%M:%S", &tm) == NULL)
		return 0;
	return (double)timegm(&tm);
}

/*
 * The missing page a record of url dated date holds, as a place among
 * the missing pages, or -1: the page of url when the record is its
 * capture (close to its fetch time), else the page `nearcrawl dedup`
 * named "URL DATE" for a later capture of the same URL. 0, or an exit
 * status.
 */
static int
record_page(struct ix *x, const char *url, const char *date, long *at)
{
	double when = unix_of(date), fetched;
	int64_t id;
	char *alt;
	size_t len;

	*at = -1;
	if (store_search_page_of(x->q, url, &id, &fetched) != 0)
		return db_fail(x);
	if (id > 0 && (*at = miss_find(x, id)) >= 0 && (when == 0 ||
	    (when - fetched <= SAME_CAPTURE_S &&
	    fetched - when <= SAME_CAPTURE_S)))
		return 0;
	*at = -1;
	if (date == NULL)
		return 0;
	len = strlen(url) + strlen(date) + 2;
	if ((alt = malloc(len)) == NULL)
		return oom(x);
	snprintf(alt, len, "%s %s", url, date);
	if (store_search_page_of(x->q, alt, &id, &fetched) != 0) {
		free(alt);
		return db_fail(x);
	}
	free(alt);
	if (id > 0)
		*at = miss_find(x, id);
	return 0;
}

/* What a record holds that a page was made of. */
enum holds {
	HOLDS_NOTHING,
	HOLDS_HTTP,    /* an HTTP response */
	HOLDS_HTML,    /* an HTML document */
	HOLDS_TEXT,    /* plain text (WET) */
	HOLDS_REVISIT, /* the payload of an earlier record */
};

/* As `nearcrawl dedup` reads records (docs/archives.md). */
static enum holds
holds(const struct warc_head *h)
{
	const char *t = h->type, *ct = h->content_type != NULL ?
	    h->content_type : "";

	if (t == NULL || h->target_uri == NULL)
		return HOLDS_NOTHING;
	if (strcasecmp(t, "response") == 0)
		return strncasecmp(ct, "application/http", 16) == 0 ?
		    HOLDS_HTTP : strncasecmp(ct, "text/html", 9) == 0 ?
		    HOLDS_HTML : HOLDS_NOTHING;
	if (strcasecmp(t, "resource") == 0)
		return strncasecmp(ct, "text/html", 9) == 0 ||
		    strncasecmp(ct, "application/xhtml", 17) == 0 ?
		    HOLDS_HTML : HOLDS_NOTHING;
	if (strcasecmp(t, "conversion") == 0)
		return strncasecmp(ct, "text/plain", 10) == 0 ? HOLDS_TEXT :
		    HOLDS_NOTHING;
	if (strcasecmp(t, "revisit") == 0 && h->refers_to_target_uri != NULL)
		return HOLDS_REVISIT;
	return HOLDS_NOTHING;
}

/*
 * A revisit record's page (miss[at]): the entry of the page of the record
 * it refers to, when that one is indexed -- an identical payload, so the
 * same text. 0, or an exit status.
 */
static int
revisit_put(struct ix *x, long at, const struct warc_head *h)
{
	const char *why;
	double fetched;
	int64_t from;
	char *url;
	int copied;

	if ((url = url_normalize(h->refers_to_target_uri, &why)) == NULL &&
	    (url = strdup(h->refers_to_target_uri)) == NULL)
		return oom(x);
	if (store_search_page_of(x->q, url, &from, &fetched) != 0 ||
	    (from > 0 && store_search_copy(x->q, from, x->miss[at],
	    &copied) != 0)) {
		free(url);
		return db_fail(x);
	}
	free(url);
	if (from <= 0 || !copied)
		return 0;
	x->done[at] = 1;
	x->from_revisit++;
	x->batch++;
	return batch_step(x, 0);
}

/* Digest a page's bytes as the crawl did and index it as page
 * miss[at]. 0, or an exit status. */
static int
digest_put(struct ix *x, long at, const char *url, const char *data,
    size_t len, const char *ct, int html)
{
	struct digest_opts o;
	struct digest g;
	const char *why;
	char cs[64];
	int rc;

	digest_opts_of(&x->cfg, ct, 1, cs, sizeof(cs), &o);
	if (digest_page(x->dd, &o, data, len, html, url, &g, &why) != 0)
		return 0; /* the crawl could not either: left to the count */
	rc = put(x, x->miss[at], g.html ? g.ex.title : NULL, g.near,
	    g.near_len);
	digest_free(&g);
	if (rc == 0) {
		x->done[at] = 1;
		x->from_warc++;
	}
	return rc;
}

/* One record of a page: its page, if missing, indexed. */
static int
take_record(struct ix *x, struct warc_reader *wr, const struct warc_head *h,
    enum holds what)
{
	struct http_msg m;
	struct buf b, body;
	char ct[256], err[256], *url;
	const char *why;
	long at;
	int cut = 0, rc;

	if ((url = url_normalize(h->target_uri, &why)) == NULL &&
	    (url = strdup(h->target_uri)) == NULL)
		return oom(x);
	if ((rc = record_page(x, url, h->date, &at)) != 0 || at < 0 ||
	    what == HOLDS_REVISIT) {
		free(url);
		return rc != 0 || at < 0 ? rc : revisit_put(x, at, h);
	}
	buf_init(&b, (size_t)x->cfg.max_body + HTTPMSG_MAX_HEAD);
	buf_init(&body, (size_t)x->cfg.max_body);
	rc = 0;
	if (warc_reader_block(wr, &b, &cut, err, sizeof(err)) != 0 || cut)
		goto out;
	if (what != HOLDS_HTTP) {
		rc = digest_put(x, at, url, b.data != NULL ? b.data : "", b.len,
		    h->content_type, what == HOLDS_HTML);
		goto out;
	}
	if (httpmsg_parse(b.data, b.len, &m) != 0 || m.status < 200 ||
	    m.status >= 300)
		goto out;
	if (!httpmsg_header(&m, "Content-Type", ct, sizeof(ct)))
		ct[0] = '\0';
	if ((rc = httpmsg_body(&m, &body)) != BUF_OK) {
		rc = rc == BUF_NOMEM ? oom(x) : 0;
		goto out;
	}
	if (extract_is_html(ct[0] != '\0' ? ct : NULL, body.data, body.len))
		rc = digest_put(x, at, url, body.data != NULL ? body.data : "",
		    body.len, ct[0] != '\0' ? ct : NULL, 1);
out:
	buf_free(&b);
	buf_free(&body);
	free(url);
	return rc;
}

/* Read one WARC file for the missing pages. 0, or an exit status; a file
 * that cannot be read is said and passed over. */
static int
read_warc(struct ix *x, const char *path)
{
	struct warc_reader *wr;
	struct warc_head h;
	enum holds what;
	char err[512];
	int r, rc = 0;

	if ((wr = warc_reader_open(path, err, sizeof(err))) == NULL) {
		x->unreadable++;
		if (!x->quiet) {
			fputs("nearcrawl: index: ", stderr);
			esc_fputs(err, stderr);
			fputs(" (passed over)\n", stderr);
		}
		return 0;
	}
	while (rc == 0 && !stopping &&
	    (r = warc_reader_next(wr, &h, err, sizeof(err))) != 0) {
		if (r == -2)
			break;
		if (r == -1 || (what = holds(&h)) == HOLDS_NOTHING)
			continue;
		rc = take_record(x, wr, &h, what);
	}
	warc_reader_close(wr);
	return rc;
}

/* Whether name is a WARC file's. */
static int
warc_name(const char *name)
{
	size_t n = strlen(name);

	return (n > 8 && strcmp(name + n - 8, ".warc.gz") == 0) ||
	    (n > 5 && strcmp(name + n - 5, ".warc") == 0);
}

static int
name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The paths to read: a file, or a directory's WARC files by name. Into
 * *list (grown; each malloc'd). 0, or an exit status. */
static int
add_path(struct ix *x, const char *path, char ***list, size_t *n)
{
	struct dirent *e;
	struct stat sb;
	char **nl, *p;
	size_t first = *n;
	DIR *d;

	if (stat(path, &sb) != 0) {
		x->unreadable++;
		if (!x->quiet) {
			fputs("nearcrawl: index: ", stderr);
			esc_fputs(path, stderr);
			fprintf(stderr, ": %s (passed over)\n",
			    strerror(errno));
		}
		return 0;
	}
	if (!S_ISDIR(sb.st_mode)) {
		if ((nl = realloc(*list, (*n + 1) * sizeof(*nl))) == NULL)
			return oom(x);
		*list = nl;
		if ((nl[*n] = strdup(path)) == NULL)
			return oom(x);
		(*n)++;
		return 0;
	}
	if ((d = opendir(path)) == NULL)
		return 0;
	while ((e = readdir(d)) != NULL) {
		if (!warc_name(e->d_name))
			continue;
		if ((nl = realloc(*list, (*n + 1) * sizeof(*nl))) == NULL ||
		    (p = malloc(strlen(path) + strlen(e->d_name) + 2)) ==
		    NULL) {
			if (nl != NULL)
				*list = nl;
			closedir(d);
			return oom(x);
		}
		*list = nl;
		sprintf(p, "%s/%s", path, e->d_name);
		nl[(*n)++] = p;
	}
	closedir(d);
	/* Files are named by time and serial: name order is write order. */
	qsort(*list + first, *n - first, sizeof(**list), name_cmp);
	return 0;
}

static int
dedup_file_in(const char *path, void *arg)
{
	struct ix *x = arg;
	char **nw;

	if ((nw = realloc(x->warc, (x->nwarc + 1) * sizeof(*nw))) == NULL)
		return 1;
	x->warc = nw;
	if ((nw[x->nwarc] = strdup(path)) == NULL)
		return 1;
	x->nwarc++;
	return 0;
}

/* Every WARC source: --warc's, the crawl's directory, dedup's files. */
static int
warc_pass(struct ix *x, char **given, size_t ngiven)
{
	char **files = NULL;
	size_t i, n = 0;
	int rc = 0;

	for (i = 0; rc == 0 && i < ngiven; i++)
		rc = add_path(x, given[i], &files, &n);
	if (rc == 0 && x->cfg.warc_dir != NULL &&
	    strcmp(x->cfg.warc_dir, "none") != 0)
		rc = add_path(x, x->cfg.warc_dir, &files, &n);
	for (i = 0; rc == 0 && i < x->nwarc; i++)
		rc = add_path(x, x->warc[i], &files, &n);
	if (rc != 0 || n == 0)
		goto out;
	x->nmiss = 0;
	if ((rc = each_missing(x, miss_in)) != 0 || x->nmiss == 0)
		goto out;
	free(x->done);
	if ((x->done = calloc(x->nmiss, 1)) == NULL) {
		rc = oom(x);
		goto out;
	}
	for (i = 0; rc == 0 && i < n && !stopping; i++)
		rc = read_warc(x, files[i]);
out:
	for (i = 0; i < n; i++)
		free(files[i]);
	free(files);
	return rc;
}

/* ---- what is left ---- */

static int
left_in(struct ix *x, int64_t id, const char *url, const char *title,
    int has_text)
{
	(void)id;
	(void)title;
	(void)has_text;
	if (x->cannot < NAMED_MAX &&
	    (x->named[x->cannot] = strdup(url)) == NULL)
		return oom(x);
	x->cannot++;
	return 0;
}

static void
summary(struct ix *x)
{
	int64_t i;

	if (x->quiet)
		return;
	fprintf(stderr, "nearcrawl: index: %lld judged pages, %lld of them "
	    "indexed before; indexed now: %lld from WARC records, %lld from "
	    "stored text, %lld as the original of their revisit record\n",
	    (long long)x->n.judged, (long long)x->n.indexed,
	    (long long)x->from_warc, (long long)x->from_text,
	    (long long)x->from_revisit);
	if (x->body_only > 0)
		fprintf(stderr, "nearcrawl: index: %lld pages are indexed with "
		    "their stored body text, a superset of the main text the "
		    "crawl's near methods read (no WARC record of them)\n",
		    (long long)x->body_only);
	if (x->cannot == 0)
		return;
	fprintf(stderr, "nearcrawl: index: %lld pages cannot be indexed: the "
	    "crawl neither stored their text (--store-text) nor kept them in "
	    "WARC files (--warc) that can be read; e.g.\n",
	    (long long)x->cannot);
	for (i = 0; i < x->cannot && i < NAMED_MAX; i++) {
		fputs("  ", stderr);
		esc_fputs(x->named[i], stderr);
		putc('\n', stderr);
	}
}

static int
opt_in(int opt, const char *v, long n, void *arg)
{
	struct ix *x = arg;
	char **nw;

	(void)n;
	switch (opt) {
	case CMDOPT_INDEX_DB:
		x->db = v;
		break;
	case CMDOPT_INDEX_QUIET:
		x->quiet = 1;
		break;
	case CMDOPT_INDEX_WARC:
		if ((nw = realloc(x->warc, (x->nwarc + 1) *
		    sizeof(*nw))) == NULL)
			return err_set(x->err, x->errsz, -1, "out of memory");
		x->warc = nw;
		x->warc[x->nwarc++] = (char *)v;
		break;
	}
	return 0;
}

/* The crawl's settings, as stored with it. 0, or an exit status. */
static int
settings(struct ix *x)
{
	char *argv[] = { "index", "-d", (char *)x->db, "--quiet", NULL };
	struct dedup_config dc;

	if (config_init(&x->cfg) != 0)
		return oom(x);
	if (config_parse_crawl_args(&x->cfg, 4, argv, x->err, x->errsz) !=
	    0 || crawl_adopt_settings(&x->cfg, x->err, x->errsz) != 0)
		return IX_BADDB;
	/* As `nearcrawl text` digests: MD5 and the shingles the choice of
	 * text needs. */
	config_dedup(&x->cfg, &dc);
	dc.methods = DEDUP_MD5;
	dc.rule = DEDUP_RULE_ANY;
	if ((x->dd = dedup_new(&dc)) == NULL)
		return oom(x);
	return 0;
}

/* The passes, inside the connection's transaction. */
static int
work(struct ix *x, char **given, size_t ngiven)
{
	int body = strcmp(x->cfg.near_text, "body") == 0, rc;
	int64_t copied;

	if (store_search_counts(x->c, &x->n) != 0)
		return db_fail(x);
	if (!x->quiet)
		fprintf(stderr, "nearcrawl: index: %lld judged pages, %lld "
		    "indexed, %lld to index\n", (long long)x->n.judged,
		    (long long)x->n.indexed,
		    (long long)(x->n.judged - x->n.indexed));
	if (x->n.judged == x->n.indexed)
		return 0;
	/* Given up front, for the WARC pass's list. */
	x->nwarc = 0;
	if ((rc = store_search_dedup_files(x->c, dedup_file_in, x)) != 0)
		return rc > 0 ? oom(x) : db_fail(x);
	if (body && (rc = each_missing(x, from_text)) != 0)
		return rc;
	if (!stopping && (rc = warc_pass(x, given, ngiven)) != 0)
		return rc;
	if (!stopping && !body && (rc = each_missing(x, from_text)) != 0)
		return rc;
	/* The rest of the revisits, whose originals may have come in only
	 * now. */
	if (!stopping && store_search_copy_revisits(x->c, &copied) != 0)
		return db_fail(x);
	x->from_revisit += copied;
	if (!stopping && (rc = each_missing(x, left_in)) != 0)
		return rc;
	return 0;
}

int
indexcmd_main(int argc, char **argv)
{
	struct sigaction sa, old_int, old_term;
	struct ix x;
	struct store *st = NULL;
	char err[1024], **ops = NULL, **given = NULL;
	size_t ngiven = 0, i;
	int nops, rc;

	memset(&x, 0, sizeof(x));
	x.err = err;
	x.errsz = sizeof(err);
	err[0] = '\0';
	if ((ops = calloc((size_t)argc + 1, sizeof(*ops))) == NULL) {
		fputs("nearcrawl: index: out of memory\n", stderr);
		return IX_RUNTIME;
	}
	rc = cmdopt_parse(&cmdopt_index, argc, argv, opt_in, &x, ops, &nops,
	    err, sizeof(err));
	/* --warc's paths are argv's: kept apart from the dedup files the
	 * database names, which are ours to free. */
	given = x.warc;
	ngiven = x.nwarc;
	x.warc = NULL;
	x.nwarc = 0;
	if (rc == 1) {
		cmdopt_usage(&cmdopt_index, stdout);
		rc = IX_OK;
		goto out;
	}
	if (rc == 0 && x.db == NULL)
		rc = err_set(err, sizeof(err), -1, "no database (-d DB)");
	else if (rc == 0 && nops > 0)
		rc = err_set(err, sizeof(err), -1, "unexpected argument %s",
		    ops[0]);
	if (rc != 0) {
		fputs("nearcrawl: index: ", stderr);
		esc_fputs(err, stderr);
		fputs("\ntry `nearcrawl index --help'\n", stderr);
		rc = IX_BADDB;
		goto out;
	}
	/* The writer's lock, and the index table for an older database. */
	if ((st = store_open(x.db, 0, err, sizeof(err))) == NULL) {
		rc = IX_BADDB;
		goto say;
	}
	if ((rc = settings(&x)) != 0)
		goto say;
	if ((rc = store_conn_open(x.db, STORE_CONN_WRITE, &x.c, err,
	    sizeof(err), IX_RUNTIME, IX_BADDB)) != 0)
		goto say;
	/* A database crawled without the index, or whose index file was
	 * lost, gets an empty one to fill. */
	err[0] = '\0';
	if (store_search_make(x.c, err, sizeof(err)) != 0) {
		rc = err[0] != '\0' ? IX_RUNTIME : db_fail(&x);
		goto say;
	}
	if (store_searcher_open(x.c, &x.q) != 0 || store_conn_begin(x.c) !=
	    0) {
		rc = db_fail(&x);
		goto say;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	x.started = x.last_progress = x.batch_at = clock_mono_ms();
	rc = work(&x, given, ngiven);
	if (rc == 0 && store_conn_commit(x.c) != 0)
		rc = db_fail(&x);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	if (rc == 0) {
		if (x.n.judged > x.n.indexed) {
			progress(&x, 1);
			summary(&x);
		}
		if (stopping) {
			rc = IX_STOPPED;
			fputs("nearcrawl: index: stopped, what was indexed "
			    "kept: run it again to go on\n", stderr);
		}
		goto out;
	}
say:
	fputs("nearcrawl: index: ", stderr);
	esc_fputs(err, stderr);
	putc('\n', stderr);
out:
	store_searcher_close(x.q);
	store_conn_close(x.c);
	store_close(st);
	if (x.dd != NULL)
		dedup_free(x.dd);
	config_free(&x.cfg);
	for (i = 0; i < x.nwarc; i++)
		free(x.warc[i]);
	free(x.warc);
	for (i = 0; i < NAMED_MAX; i++)
		free(x.named[i]);
	free(x.miss);
	free(x.done);
	free(given);
	free(ops);
	return rc;
}
