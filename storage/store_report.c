/*
 * store_report: the rows `nearcrawl report` writes its files from
 * (storage/query.h). The command runs them inside one read transaction,
 * so the files agree while a crawl goes on writing.
 */
#include "storage/query.h"

#include <stdio.h>

#include "storage/store_int.h"

static int
growth_row(struct sdb_stmt *st, void *ctx)
{
	struct store__each *e = ctx;
	int (*fn)(const struct store_growth_row *, void *) = e->fn;
	struct store_growth_row r;

	r.seq = sdb_column_int64(st, 0);
	r.verdict = store_verdict_parse(
	    (const char *)sdb_column_text(st, 1));
	r.host = (const char *)sdb_column_text(st, 2);
	if (r.host == NULL)
		r.host = "";
	r.fetched_at = sdb_column_double(st, 3);
	r.worker = (const char *)sdb_column_text(st, 4);
	return fn(&r, e->arg);
}

int
store_report_growth(struct store_conn *c,
    int (*fn)(const struct store_growth_row *r, void *arg), void *arg)
{
	struct store__each e = { (void *)fn, arg };

	return store__conn_each(c, "SELECT seq, verdict, host, fetched_at, "
	    "worker FROM pages "
	    "ORDER BY seq", growth_row, &e);
}

static int
host_row(struct sdb_stmt *st, void *ctx)
{
	struct store__each *e = ctx;
	int (*fn)(const struct store_host_row *, void *) = e->fn;
	struct store_host_row r;

	r.host = (const char *)sdb_column_text(st, 0);
	r.pages = sdb_column_int64(st, 1);
	r.unique = sdb_column_int64(st, 2);
	r.exact = sdb_column_int64(st, 3);
	r.near = sdb_column_int64(st, 4);
	return fn(&r, e->arg);
}

/* Pages by host and verdict, the busiest host first, then by host as
 * ordered by host_order. CASE: a sum of booleans is SQLite's alone. */
#define HOSTS_BY(host_order) \
	"SELECT host, count(*), " \
	"sum(CASE WHEN verdict = 'unique' THEN 1 ELSE 0 END), " \
	"sum(CASE WHEN verdict = 'exact' THEN 1 ELSE 0 END), " \
	"sum(CASE WHEN verdict = 'near' THEN 1 ELSE 0 END) " \
	"FROM pages GROUP BY host ORDER BY count(*) DESC, " host_order

int
store_report_hosts(struct store_conn *c,
    int (*fn)(const struct store_host_row *r, void *arg), void *arg)
{
	struct store__each e = { (void *)fn, arg };

	/* Hosts in byte order, as SQLite's BINARY collation has them: a
	 * PostgreSQL database's collation may follow a locale instead. */
	return store__conn_each(c, sdb_is_pg(c->db) ?
	    HOSTS_BY("host COLLATE \"C\"") : HOSTS_BY("host"), host_row, &e);
}

static int
earlier_row(struct sdb_stmt *st, void *ctx)
{
	struct store__each *e = ctx;
	int (*fn)(const struct store_earlier_row *, void *) = e->fn;
	struct store_earlier_row r;

	r.host = (const char *)sdb_column_text(st, 0);
	if (r.host == NULL)
		r.host = "";
	r.fresh = sdb_column_int64(st, 1);
	r.same = sdb_column_int64(st, 2);
	r.near = sdb_column_int64(st, 3);
	return fn(&r, e->arg);
}

#define EARLIER_BY(host_order) \
	"SELECT p.host, " \
	"sum(CASE WHEN e.relation = 'new' THEN 1 ELSE 0 END), " \
	"sum(CASE WHEN e.relation = 'same' THEN 1 ELSE 0 END), " \
	"sum(CASE WHEN e.relation = 'near' THEN 1 ELSE 0 END) " \
	"FROM earlier e JOIN pages p ON p.id = e.page_id " \
	"GROUP BY p.host ORDER BY " host_order

int
store_report_earlier(struct store_conn *c,
    int (*fn)(const struct store_earlier_row *r, void *arg), void *arg)
{
	struct store__each e = { (void *)fn, arg };
	int have;

	/* An older database opened read-only has no such table. */
	if (store__table_exists(c->db, "earlier", &have) != SDB_OK)
		return -1;
	if (!have)
		return 0;
	return store__conn_each(c, sdb_is_pg(c->db) ?
	    EARLIER_BY("p.host COLLATE \"C\"") : EARLIER_BY("p.host"),
	    earlier_row, &e);
}

static int
cluster_row(struct sdb_stmt *st, void *ctx)
{
	struct store__each *e = ctx;
	int (*fn)(const struct store_cluster_row *, void *) = e->fn;
	struct store_cluster_row r;

	r.original_url = (const char *)sdb_column_text(st, 0);
	r.duplicate_url = (const char *)sdb_column_text(st, 1);
	r.method = (const char *)sdb_column_text(st, 2);
	r.percentage = sdb_column_double(st, 3);
	r.canonical_url = (const char *)sdb_column_text(st, 4);
	return fn(&r, e->arg);
}

/*
 * LEFT JOINs: a duplicates row whose page is gone still comes, with a NULL
 * URL, so there is one row per duplicates row. A database made before the
 * ranks table has no canonical to join. NULLS FIRST is SQLite's own order,
 * spelt out for PostgreSQL, which puts NULLs last; d.id makes it total.
 */
int
store_report_clusters(struct store_conn *c,
    int (*fn)(const struct store_cluster_row *r, void *arg), void *arg)
{
	struct store__each e = { (void *)fn, arg };
	int ranked = 0;

	if (store__table_exists(c->db, "ranks", &ranked) != SDB_OK)
		return -1;
	return store__conn_each(c, ranked ?
	    "SELECT o.url, p.url, d.method, d.percentage, c.url "
	    "FROM duplicates d "
	    "LEFT JOIN pages o ON o.id = d.original_id "
	    "LEFT JOIN pages p ON p.id = d.page_id "
	    "LEFT JOIN ranks k ON k.page_id = d.page_id "
	    "LEFT JOIN pages c ON c.id = k.canonical_id "
	    "ORDER BY o.seq NULLS FIRST, d.original_id, p.seq NULLS FIRST, "
	    "d.page_id, d.method, d.id" :
	    "SELECT o.url, p.url, d.method, d.percentage, NULL "
	    "FROM duplicates d "
	    "LEFT JOIN pages o ON o.id = d.original_id "
	    "LEFT JOIN pages p ON p.id = d.page_id "
	    "ORDER BY o.seq NULLS FIRST, d.original_id, p.seq NULLS FIRST, "
	    "d.page_id, d.method, d.id",
	    cluster_row, &e);
}

static int
similarity_row(struct sdb_stmt *st, void *ctx)
{
	struct store__each *e = ctx;
	int (*fn)(const struct store_similarity_row *, void *) = e->fn;
	struct store_similarity_row r;

	r.method = (const char *)sdb_column_text(st, 0);
	r.percentage = sdb_column_double(st, 1);
	return fn(&r, e->arg);
}

int
store_report_similarity(struct store_conn *c,
    int (*fn)(const struct store_similarity_row *r, void *arg), void *arg)
{
	struct store__each e = { (void *)fn, arg };

	return store__conn_each(c, "SELECT method, percentage "
	    "FROM duplicates ORDER BY method, id", similarity_row, &e);
}

static int
busiest_row(struct sdb_stmt *st, void *ctx)
{
	struct store__each *e = ctx;
	int (*fn)(const struct store_busiest_row *, void *) = e->fn;
	struct store_busiest_row r;

	r.url = (const char *)sdb_column_text(st, 0);
	r.seq = sdb_column_int64(st, 1);
	r.pages = sdb_column_int64(st, 2);
	return fn(&r, e->arg);
}

int
store_report_busiest(struct store_conn *c,
    int (*fn)(const struct store_busiest_row *r, void *arg), void *arg)
{
	struct store__each e = { (void *)fn, arg };

	return store__conn_each(c, "SELECT o.url, o.seq, "
	    "count(DISTINCT d.page_id) AS n FROM duplicates d "
	    "LEFT JOIN pages o ON o.id = d.original_id "
	    "GROUP BY d.original_id, o.url, o.seq "
	    "ORDER BY n DESC, o.seq NULLS FIRST, d.original_id LIMIT 1",
	    busiest_row, &e);
}

static int
topcluster_row(struct sdb_stmt *st, void *ctx)
{
	struct store__each *e = ctx;
	int (*fn)(const struct store_topcluster_row *, void *) = e->fn;
	struct store_topcluster_row r;

	r.original_id = sdb_column_int64(st, 0);
	r.pages = sdb_column_int64(st, 1);
	r.original_url = (const char *)sdb_column_text(st, 2);
	r.original_title = (const char *)sdb_column_text(st, 3);
	r.page_id = sdb_column_int64(st, 4);
	r.url = (const char *)sdb_column_text(st, 5);
	r.title = (const char *)sdb_column_text(st, 6);
	r.method = (const char *)sdb_column_text(st, 7);
	r.percentage = sdb_column_double(st, 8);
	return fn(&r, e->arg);
}

/* The limit is a number we format ourselves: no text is spliced in. */
int
store_report_top_clusters(struct store_conn *c, int limit,
    int (*fn)(const struct store_topcluster_row *r, void *arg), void *arg)
{
	struct store__each e = { (void *)fn, arg };
	char sql[1024];

	if (limit < 0)
		limit = 0;
	snprintf(sql, sizeof(sql),
	    "WITH top AS (SELECT d.original_id AS id, "
	    "count(DISTINCT d.page_id) AS n, o.seq AS oseq "
	    "FROM duplicates d LEFT JOIN pages o ON o.id = d.original_id "
	    "GROUP BY d.original_id, o.seq "
	    "ORDER BY n DESC, oseq NULLS FIRST, id LIMIT %d) "
	    "SELECT t.id, t.n, o.url, o.title, d.page_id, p.url, p.title, "
	    "d.method, d.percentage FROM top t "
	    "JOIN duplicates d ON d.original_id = t.id "
	    "LEFT JOIN pages o ON o.id = t.id "
	    "LEFT JOIN pages p ON p.id = d.page_id "
	    "ORDER BY t.n DESC, t.oseq NULLS FIRST, t.id, p.seq NULLS FIRST, "
	    "d.page_id, d.method, d.id",
	    limit);
	return store__conn_each(c, sql, topcluster_row, &e);
}
