/*
 * store_eval: the rows `nearcrawl eval --groups` scores a crawl from
 * (storage/query.h), read in one snapshot.
 */
#include "storage/query.h"

#include "storage/store_int.h"

static int
method_row(struct sdb_stmt *st, void *ctx)
{
	struct store__each *e = ctx;
	int (*fn)(const char *, void *) = e->fn;
	const char *m;

	/* method is NOT NULL: a NULL is a tampered file, and skipped. */
	if ((m = (const char *)sdb_column_text(st, 0)) == NULL)
		return 0;
	return fn(m, e->arg);
}

int
store_eval_methods(struct store_conn *c,
    int (*fn)(const char *method, void *arg), void *arg)
{
	struct store__each e = { (void *)fn, arg };

	return store__conn_each(c, "SELECT DISTINCT method FROM duplicates "
	    "ORDER BY method", method_row, &e);
}

static int
eval_page_row(struct sdb_stmt *st, void *ctx)
{
	struct store__each *e = ctx;
	int (*fn)(const struct store_eval_page *, void *) = e->fn;
	struct store_eval_page r;

	if ((r.url = (const char *)sdb_column_text(st, 0)) == NULL)
		r.url = "";
	r.verdict = store_verdict_parse(
	    (const char *)sdb_column_text(st, 1));
	r.null_seq = sdb_column_int(st, 2);
	r.seq = sdb_column_int64(st, 3);
	r.methods = (const char *)sdb_column_text(st, 4);
	return fn(&r, e->arg);
}

/* The judged pages in fetch order, each with the methods that matched
 * it, joined by commas with the aggregate agg. */
#define EVAL_PAGES(agg) \
	"SELECT p.url, p.verdict, p.seq IS NULL, p.seq, " \
	"(SELECT " agg " FROM duplicates d WHERE d.page_id = p.id) " \
	"FROM pages p WHERE p.verdict IN ('unique', 'exact', 'near') " \
	"ORDER BY p.seq IS NULL, p.seq, p.id"

int
store_eval_pages(struct store_conn *c,
    int (*fn)(const struct store_eval_page *r, void *arg), void *arg)
{
	struct store__each e = { (void *)fn, arg };

	/* No aggregate joins text on both: SQLite has string_agg only
	 * from 3.44, PostgreSQL has no group_concat. The list's order does
	 * not matter: the command reads it as a set. */
	return store__conn_each(c, sdb_is_pg(c->db) ?
	    EVAL_PAGES("string_agg(DISTINCT d.method, ',')") :
	    EVAL_PAGES("group_concat(DISTINCT d.method)"), eval_page_row, &e);
}
