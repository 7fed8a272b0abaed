/*
 * store_view: the rows of `nearcrawl serve` (storage/store_view.h).
 *
 * Statements are prepared for the request that runs them and finalised
 * after it: a view answers one request at a time and holds nothing of the
 * database between two. Columns and tables a database may lack (an older
 * one opened read-only) are read as NULL: which exist is looked at by
 * store_view_begin. Only numbers and fixed names are spliced into SQL;
 * text comes in as bound parameters.
 */
#include "storage/store_view.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "storage/store_frontier.h"
#include "storage/store_int.h"

/* The later columns of pages the view reads, in this order. */
static const char *const later_cols[] = { "canonical", "worker", "etag",
	"last_modified" };
#define NLATER (sizeof(later_cols) / sizeof(later_cols[0]))

struct store_view {
	struct store_conn *c;   /* the caller's connection */
	int has_col[NLATER];    /* pages has later_cols[i] */
	int has_ranks;          /* the ranks table exists */
	int has_hosts;          /* the hosts table exists */
	int has_robots;         /* the robots table exists */
	int has_shingles;       /* the page_shingles table exists */
};

struct store_view *
store_view_new(struct store_conn *c)
{
	struct store_view *v = calloc(1, sizeof(*v));

	if (v != NULL)
		v->c = c;
	return v;
}

void
store_view_free(struct store_view *v)
{
	free(v);
}

struct store_conn *
store_view_conn(struct store_view *v)
{
	return v->c;
}

int
store_view_begin(struct store_view *v)
{
	struct sdb *db = v->c->db;
	size_t i;

	if (store_conn_begin(v->c) != 0)
		return -1;
	for (i = 0; i < NLATER; i++)
		if (store__column_exists(db, "pages", later_cols[i],
		    &v->has_col[i]) != SDB_OK)
			goto fail;
	if (store__table_exists(db, "ranks", &v->has_ranks) != SDB_OK ||
	    store__table_exists(db, "hosts", &v->has_hosts) != SDB_OK ||
	    store__table_exists(db, "robots", &v->has_robots) != SDB_OK ||
	    store__table_exists(db, "page_shingles", &v->has_shingles) !=
	    SDB_OK)
		goto fail;
	return 0;
fail:
	sdb_exec(db, "ROLLBACK");
	return -1;
}

int
store_view_end(struct store_view *v)
{
	return store_conn_commit(v->c);
}

/*
 * Run sql with its n parameters bound and call row(st, ctx) for each row
 * until it returns non-zero, which is then returned; 0 at the end, -1 on
 * a database error.
 */
static int
each(struct store_view *v, const char *sql, const struct store__param *p,
    int n, int (*row)(struct sdb_stmt *st, void *ctx), void *ctx)
{
	return store__conn_each_bound(v->c, sql, p, n, row, ctx);
}

static int
one_int(struct sdb_stmt *st, void *ctx)
{
	*(int64_t *)ctx = sdb_column_int64(st, 0);
	return 0;
}

static int
verdict_count(struct sdb_stmt *st, void *ctx)
{
	struct store_counts *n = ctx;
	int64_t k = sdb_column_int64(st, 1);

	n->pages += k;
	switch (store_verdict_parse((const char *)sdb_column_text(st, 0))) {
	case STORE_VERDICT_UNIQUE:
		n->unique += k;
		break;
	case STORE_VERDICT_EXACT:
		n->exact += k;
		break;
	case STORE_VERDICT_NEAR:
		n->near += k;
		break;
	case STORE_VERDICT_REDIRECT:
		n->redirect += k;
		break;
	case STORE_VERDICT_ERROR:
		n->error += k;
		break;
	case STORE_VERDICT_SKIPPED:
		n->skipped += k;
		break;
	default:
		break;
	}
	return 0;
}

static int
state_count(struct sdb_stmt *st, void *ctx)
{
	struct store_counts *n = ctx;
	int64_t k = sdb_column_int64(st, 1);

	switch (sdb_column_int(st, 0)) {
	case FRONTIER_QUEUED:
		n->queued += k;
		break;
	case FRONTIER_INFLIGHT:
		n->inflight += k;
		break;
	case FRONTIER_DONE:
		n->done += k;
		break;
	default:
		break;
	}
	return 0;
}

int
store_view_counts(struct store_view *v, struct store_counts *n)
{
	memset(n, 0, sizeof(*n));
	if (each(v, "SELECT verdict, count(*) FROM pages GROUP BY verdict",
	    NULL, 0, verdict_count, n) != 0 ||
	    each(v, "SELECT count(*) FROM duplicates", NULL, 0, one_int,
	    &n->duplicates) != 0 ||
	    each(v, "SELECT state, count(*) FROM frontier GROUP BY state",
	    NULL, 0, state_count, n) != 0 ||
	    each(v, "SELECT coalesce(max(seq), 0) FROM pages", NULL, 0,
	    one_int, &n->max_seq) != 0)
		return -1;
	return 0;
}

/* Column i as text, or "" when NULL. */
static const char *
text_or_empty(struct sdb_stmt *st, int i)
{
	const char *s = (const char *)sdb_column_text(st, i);

	return s != NULL ? s : "";
}

static const char *
text_of(struct sdb_stmt *st, int i)
{
	return (const char *)sdb_column_text(st, i);
}

/* The page columns: pages p, ranks k and the canonical's row c joined
 * when ranked; every later column NULL where the database lacks it. */
static void
page_cols(const struct store_view *v, char *out, size_t outsz)
{
	size_t i, n;

	n = (size_t)snprintf(out, outsz, "p.id, p.url, p.host, p.verdict, "
	    "p.reason, p.status, p.content_type, p.depth, p.seq, "
	    "p.fetched_at, p.parent_id, p.location, p.md5, p.ssdeep, "
	    "p.simhash, p.title, p.headings, p.description, p.keywords, "
	    "p.charset, p.body_bytes, p.text_bytes, p.links, p.elapsed_ms, "
	    "CASE WHEN p.text IS NULL THEN 0 ELSE 1 END");
	for (i = 0; i < NLATER && n < outsz; i++)
		n += (size_t)snprintf(out + n, outsz - n, ", %s%s",
		    v->has_col[i] ? "p." : "NULL AS ", later_cols[i]);
	if (n < outsz)
		snprintf(out + n, outsz - n, "%s", v->has_ranks ?
		    ", CASE WHEN k.page_id IS NULL THEN 0 ELSE 1 END, "
		    "k.pagerank, k.canonical_id, c.url FROM pages p "
		    "LEFT JOIN ranks k ON k.page_id = p.id "
		    "LEFT JOIN pages c ON c.id = k.canonical_id" :
		    ", 0, 0, NULL, NULL FROM pages p");
}

struct rowfn {
	void *fn;  /* the caller's callback */
	void *arg; /* and its argument */
	int64_t n; /* rows (or pages) handed over */
	int64_t last; /* the page of the last row, -1 before one */
	int limit; /* pages handed over at most */
};

static int
page_row(struct sdb_stmt *st, void *ctx)
{
	struct rowfn *r = ctx;
	int (*fn)(const struct store_view_page *, void *) = r->fn;
	struct store_view_page p;

	memset(&p, 0, sizeof(p));
	p.id = sdb_column_int64(st, 0);
	p.url = text_or_empty(st, 1);
	p.host = text_or_empty(st, 2);
	p.verdict = store_verdict_parse(text_of(st, 3));
	p.reason = text_of(st, 4);
	p.status = sdb_column_int(st, 5);
	p.content_type = text_of(st, 6);
	p.depth = sdb_column_int(st, 7);
	p.seq = sdb_column_int64(st, 8);
	p.fetched_at = sdb_column_double(st, 9);
	p.parent_id = sdb_column_int64(st, 10);
	p.location = text_of(st, 11);
	p.md5 = text_of(st, 12);
	p.ssdeep = text_of(st, 13);
	p.has_simhash = sdb_column_type(st, 14) != SDB_NULL;
	p.simhash = store__u64_of_i64(sdb_column_int64(st, 14));
	p.title = text_of(st, 15);
	p.headings = text_of(st, 16);
	p.description = text_of(st, 17);
	p.keywords = text_of(st, 18);
	p.charset = text_of(st, 19);
	p.body_bytes = sdb_column_int64(st, 20);
	p.text_bytes = sdb_column_int64(st, 21);
	p.links = sdb_column_int64(st, 22);
	p.elapsed_ms = sdb_column_double(st, 23);
	p.has_text = sdb_column_int(st, 24) != 0;
	p.declared = text_of(st, 25);
	p.worker = text_of(st, 26);
	p.etag = text_of(st, 27);
	p.last_modified = text_of(st, 28);
	p.ranked = sdb_column_int(st, 29) != 0;
	p.pagerank = sdb_column_double(st, 30);
	p.canonical_id = sdb_column_int64(st, 31);
	p.canonical_url = text_of(st, 32);
	r->n++;
	return fn(&p, r->arg);
}

int
store_view_page(struct store_view *v, int64_t id,
    int (*fn)(const struct store_view_page *p, void *arg), void *arg)
{
	struct rowfn r = { (void *)fn, arg, 0, -1, 0 };
	struct store__param p[1] = { { NULL, id } };
	char sql[1400], cols[1200];

	page_cols(v, cols, sizeof(cols));
	snprintf(sql, sizeof(sql), "SELECT %s WHERE p.id = ?", cols);
	return each(v, sql, p, 1, page_row, &r);
}

int
store_view_pages(struct store_view *v, const struct store_view_filter *f,
    int (*fn)(const struct store_view_page *p, void *arg), void *arg)
{
	struct rowfn r = { (void *)fn, arg, 0, -1, 0 };
	struct store__param p[3];
	char sql[1600], cols[1200];
	int n = 0, limit = f->limit > 0 ? f->limit : 1;

	page_cols(v, cols, sizeof(cols));
	p[n++] = (struct store__param){ NULL, f->after_seq };
	if (f->host != NULL)
		p[n++] = (struct store__param){ f->host, 0 };
	if (f->verdict != STORE_VERDICT_UNKNOWN)
		p[n++] = (struct store__param){ store_verdict_name(f->verdict), 0 };
	snprintf(sql, sizeof(sql), "SELECT %s WHERE p.seq > ?%s%s "
	    "ORDER BY p.seq LIMIT %d", cols,
	    f->host != NULL ? " AND p.host = ?" : "",
	    f->verdict != STORE_VERDICT_UNKNOWN ? " AND p.verdict = ?" : "",
	    limit);
	return each(v, sql, p, n, page_row, &r);
}

static int
match_row(struct sdb_stmt *st, void *ctx)
{
	struct rowfn *r = ctx;
	int (*fn)(const struct store_view_match *, void *) = r->fn;
	struct store_view_match m;

	memset(&m, 0, sizeof(m));
	m.page_id = sdb_column_int64(st, 0);
	m.original_id = sdb_column_int64(st, 1);
	m.method = text_or_empty(st, 2);
	m.percentage = sdb_column_double(st, 3);
	m.other_id = sdb_column_int64(st, 4);
	m.url = text_or_empty(st, 5);
	m.title = text_of(st, 6);
	m.verdict = store_verdict_parse(text_of(st, 7));
	m.seq = sdb_column_int64(st, 8);
	m.fetched_at = sdb_column_double(st, 9);
	m.declared = text_of(st, 10);
	m.canonical_id = sdb_column_int64(st, 11);
	m.canonical_url = text_of(st, 12);
	if (r->limit > 0 && m.other_id != r->last) {
		if (r->n >= r->limit)
			return 0; /* past the page limit: the rest dropped */
		r->n++;
		r->last = m.other_id;
	}
	return fn(&m, r->arg);
}

/* The columns of a match whose other page is the row alias o. */
static void
match_sql(const struct store_view *v, const char *where, const char *order,
    int other_is_copy, int limit_rows, char *out, size_t outsz)
{
	char lim[32] = "";

	if (limit_rows > 0)
		snprintf(lim, sizeof(lim), " LIMIT %d", limit_rows);
	snprintf(out, outsz, "SELECT d.page_id, d.original_id, d.method, "
	    "d.percentage, %s, o.url, o.title, o.verdict, o.seq, "
	    "o.fetched_at, %s, %s FROM duplicates d "
	    "LEFT JOIN pages o ON o.id = %s %s WHERE %s ORDER BY %s%s",
	    other_is_copy ? "d.page_id" : "d.original_id",
	    v->has_col[0] ? "o.canonical" : "NULL",
	    v->has_ranks ? "k.canonical_id, c.url" : "0, NULL",
	    other_is_copy ? "d.page_id" : "d.original_id",
	    v->has_ranks ? (other_is_copy ?
	    "LEFT JOIN ranks k ON k.page_id = d.page_id "
	    "LEFT JOIN pages c ON c.id = k.canonical_id" :
	    "LEFT JOIN ranks k ON k.page_id = d.original_id "
	    "LEFT JOIN pages c ON c.id = k.canonical_id") : "",
	    where, order, lim);
}

int
store_view_originals(struct store_view *v, int64_t id,
    int (*fn)(const struct store_view_match *m, void *arg), void *arg)
{
	struct rowfn r = { (void *)fn, arg, 0, -1, 0 };
	struct store__param p[1] = { { NULL, id } };
	char sql[1200];

	match_sql(v, "d.page_id = ?", "d.percentage DESC, o.seq NULLS FIRST, "
	    "d.method, d.id", 0, 0, sql, sizeof(sql));
	return each(v, sql, p, 1, match_row, &r);
}

/* Rows a copy may have at most: a row per method, with room. */
#define ROWS_PER_COPY 16

int
store_view_copies(struct store_view *v, int64_t id, int64_t after_seq,
    int limit, int64_t *pages,
    int (*fn)(const struct store_view_match *m, void *arg), void *arg)
{
	struct rowfn r = { (void *)fn, arg, 0, -1, limit > 0 ? limit : 1 };
	struct store__param p[2] = { { NULL, id }, { NULL, after_seq } };
	char sql[1200];

	if (pages != NULL && each(v, "SELECT count(DISTINCT page_id) FROM "
	    "duplicates WHERE original_id = ?", p, 1, one_int, pages) != 0)
		return -1;
	match_sql(v, "d.original_id = ? AND o.seq > ?",
	    "o.seq, d.page_id, d.method, d.id", 1, r.limit * ROWS_PER_COPY,
	    sql, sizeof(sql));
	return each(v, sql, p, 2, match_row, &r);
}

static int
link_row(struct sdb_stmt *st, void *ctx)
{
	struct rowfn *r = ctx;
	int (*fn)(const struct store_view_link *, void *) = r->fn;
	struct store_view_link l;

	l.url = text_or_empty(st, 0);
	l.state = sdb_column_int(st, 1);
	l.page_id = sdb_column_int64(st, 2);
	l.verdict = store_verdict_parse(text_of(st, 3));
	return fn(&l, r->arg);
}

int
store_view_links(struct store_view *v, int64_t id, int limit,
    int (*fn)(const struct store_view_link *l, void *arg), void *arg)
{
	struct rowfn r = { (void *)fn, arg, 0, -1, 0 };
	struct store__param p[1] = { { NULL, id } };
	char sql[300];

	/* frontier_parent finds them; a database no writer opened since it
	 * came scans the frontier instead. */
	snprintf(sql, sizeof(sql), "SELECT f.url, f.state, p.id, p.verdict "
	    "FROM frontier f LEFT JOIN pages p ON p.url = f.url "
	    "WHERE f.parent_id = ? ORDER BY f.id LIMIT %d",
	    limit > 0 ? limit : 1);
	return each(v, sql, p, 1, link_row, &r);
}

/* A row of one text or blob column: (fn)(bytes, len, arg). */
static int
text_row(struct sdb_stmt *st, void *ctx)
{
	struct rowfn *r = ctx;
	int (*fn)(const char *, size_t, void *) = r->fn;
	const char *s = text_of(st, 0);

	if (s == NULL)
		return 0;
	return fn(s, (size_t)sdb_column_bytes(st, 0), r->arg);
}

int
store_view_text(struct store_view *v, int64_t id,
    int (*fn)(const char *text, size_t len, void *arg), void *arg)
{
	struct rowfn r = { (void *)fn, arg, 0, -1, 0 };
	struct store__param p[1] = { { NULL, id } };

	return each(v, "SELECT text FROM pages WHERE id = ?", p, 1, text_row,
	    &r);
}

static int
blob_row(struct sdb_stmt *st, void *ctx)
{
	struct rowfn *r = ctx;
	int (*fn)(const void *, size_t, void *) = r->fn;
	const void *b = sdb_column_blob(st, 0);

	if (b == NULL)
		return 0;
	return fn(b, (size_t)sdb_column_bytes(st, 0), r->arg);
}

int
store_view_shingles(struct store_view *v, int64_t id,
    int (*fn)(const void *blob, size_t len, void *arg), void *arg)
{
	struct rowfn r = { (void *)fn, arg, 0, -1, 0 };
	struct store__param p[1] = { { NULL, id } };

	if (!v->has_shingles)
		return 0;
	return each(v, "SELECT shingles FROM page_shingles WHERE page_id = ?",
	    p, 1, blob_row, &r);
}

static int
site_row(struct sdb_stmt *st, void *ctx)
{
	struct rowfn *r = ctx;
	int (*fn)(const char *, const char *, const void *, size_t, void *) =
	    r->fn;
	const void *b = sdb_column_blob(st, 2);

	if (b == NULL)
		return 0;
	return fn(text_or_empty(st, 0), text_or_empty(st, 1), b,
	    (size_t)sdb_column_bytes(st, 2), r->arg);
}

/* s with LIKE's '%', '_' and the escape '!' escaped by '!', after
 * prefix and before suffix, malloc'd; NULL when out of memory. */
static char *
like_pattern(const char *prefix, const char *s, const char *suffix)
{
	size_t n = strlen(prefix) + 2 * strlen(s) + strlen(suffix) + 1;
	char *out = malloc(n), *o;

	if (out == NULL)
		return NULL;
	o = out + strlen(strcpy(out, prefix));
	for (; *s != '\0'; s++) {
		if (*s == '%' || *s == '_' || *s == '!')
			*o++ = '!';
		*o++ = *s;
	}
	strcpy(o, suffix);
	return out;
}

int
store_view_site_sets(struct store_view *v, const char *site, int64_t before,
    int limit,
    int (*fn)(const char *host, const char *verdict, const void *blob,
    size_t len, void *arg), void *arg)
{
	struct rowfn r = { (void *)fn, arg, 0, -1, 0 };
	struct store__param p[3];
	char sql[400], *under;
	int rc;

	if (!v->has_shingles)
		return 0;
	if ((under = like_pattern("%.", site, "")) == NULL)
		return -1;
	p[0] = (struct store__param){ NULL, before };
	p[1] = (struct store__param){ site, 0 };
	p[2] = (struct store__param){ under, 0 };
	snprintf(sql, sizeof(sql), "SELECT p.host, p.verdict, s.shingles "
	    "FROM pages p JOIN page_shingles s ON s.page_id = p.id "
	    "WHERE p.seq < ? AND (p.host = ? OR p.host LIKE ? ESCAPE '!') "
	    "ORDER BY p.seq DESC LIMIT %d", limit > 0 ? limit : 1);
	rc = each(v, sql, p, 3, site_row, &r);
	free(under);
	return rc;
}

static int
host_row(struct sdb_stmt *st, void *ctx)
{
	struct rowfn *r = ctx;
	int (*fn)(const struct store_view_host *, void *) = r->fn;
	struct store_view_host h;

	memset(&h, 0, sizeof(h));
	h.host = text_or_empty(st, 0);
	h.pages = sdb_column_int64(st, 1);
	h.unique = sdb_column_int64(st, 2);
	h.exact = sdb_column_int64(st, 3);
	h.near = sdb_column_int64(st, 4);
	h.redirect = sdb_column_int64(st, 5);
	h.error = sdb_column_int64(st, 6);
	h.skipped = sdb_column_int64(st, 7);
	h.queued = sdb_column_int64(st, 8);
	h.has_state = sdb_column_int(st, 9) != 0;
	h.not_before = sdb_column_double(st, 10);
	h.backoff_ms = sdb_column_int64(st, 11);
	h.failures = sdb_column_int64(st, 12);
	h.gave_up = text_of(st, 13);
	return fn(&h, r->arg);
}

#define COUNT_OF(w) "sum(CASE WHEN p.verdict = '" w "' THEN 1 ELSE 0 END), "

int
store_view_hosts(struct store_view *v, const char *host,
    int (*fn)(const struct store_view_host *h, void *arg), void *arg)
{
	struct rowfn r = { (void *)fn, arg, 0, -1, 0 };
	struct store__param p[1] = { { host, 0 } };
	char sql[1400];

	/* Hosts in byte order on either engine, as store_report_hosts. */
	snprintf(sql, sizeof(sql), "SELECT p.host, count(*), "
	    COUNT_OF("unique") COUNT_OF("exact") COUNT_OF("near")
	    COUNT_OF("redirect") COUNT_OF("error") COUNT_OF("skipped")
	    "(SELECT count(*) FROM frontier f WHERE f.host = p.host AND "
	    "f.state = %d), %s FROM pages p %s %s GROUP BY p.host%s "
	    "ORDER BY count(*) DESC, p.host%s", FRONTIER_QUEUED,
	    v->has_hosts ? "CASE WHEN h.host IS NULL THEN 0 ELSE 1 END, "
	    "h.not_before, h.backoff_ms, h.failures, h.gave_up" :
	    "0, 0, 0, 0, NULL",
	    v->has_hosts ? "LEFT JOIN hosts h ON h.host = p.host" : "",
	    host != NULL ? "WHERE p.host = ?" : "",
	    v->has_hosts ? ", h.host, h.not_before, h.backoff_ms, "
	    "h.failures, h.gave_up" : "",
	    sdb_is_pg(v->c->db) ? " COLLATE \"C\"" : "");
	return each(v, sql, p, host != NULL ? 1 : 0, host_row, &r);
}

/* Whether origin ("scheme://host[:port]") is of host. */
static int
origin_of(const char *origin, const char *host)
{
	const char *h = strstr(origin, "://");
	size_t n = strlen(host);

	if (h == NULL)
		return 0;
	h += 3;
	return strncasecmp(h, host, n) == 0 && (h[n] == '\0' || h[n] == ':');
}

struct robots_ctx {
	const char *host;
	int (*fn)(const struct store_view_robots *r, void *arg);
	void *arg;
};

static int
robots_row(struct sdb_stmt *st, void *ctx)
{
	struct robots_ctx *x = ctx;
	struct store_view_robots r;

	r.origin = text_or_empty(st, 0);
	if (!origin_of(r.origin, x->host))
		return 0;
	r.status = sdb_column_int(st, 1);
	r.body = sdb_column_blob(st, 2);
	r.len = r.body != NULL ? (size_t)sdb_column_bytes(st, 2) : 0;
	r.fetched_at = sdb_column_double(st, 3);
	r.expires_at = sdb_column_double(st, 4);
	r.failures = sdb_column_int64(st, 5);
	return x->fn(&r, x->arg);
}

int
store_view_robots(struct store_view *v, const char *host,
    int (*fn)(const struct store_view_robots *r, void *arg), void *arg)
{
	struct robots_ctx x = { host, fn, arg };
	struct store__param p[1];
	char *pat;
	int rc;

	if (!v->has_robots)
		return 0;
	/* LIKE narrows to the host's origins; origin_of decides. */
	if ((pat = like_pattern("%://", host, "%")) == NULL)
		return -1;
	p[0] = (struct store__param){ pat, 0 };
	rc = each(v, "SELECT origin, status, body, fetched_at, expires_at, "
	    "failures FROM robots WHERE origin LIKE ? ESCAPE '!' "
	    "ORDER BY origin", p, 1, robots_row, &x);
	free(pat);
	return rc;
}
