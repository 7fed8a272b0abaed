/*
 * store_export: the rows `nearcrawl export` writes (storage/query.h): one
 * a page, or the members of every duplicate cluster. Each is one SELECT
 * stepped row by row, so memory stays flat however many pages there are.
 * A database read-only opened before the ranks table or the canonical
 * column existed gives NULL for what it lacks.
 */
#include "storage/query.h"

#include <stdio.h>

#include "storage/store_int.h"

/* Whether c's database has the ranks table and the pages.canonical
 * column. 0, or -1. */
static int
has_parts(struct store_conn *c, int *ranked, int *declared)
{
	*ranked = *declared = 0;
	if (store__table_exists(c->db, "ranks", ranked) != SDB_OK ||
	    store__column_exists(c->db, "pages", "canonical", declared) !=
	    SDB_OK)
		return -1;
	return 0;
}

int
store_export_ranked(struct store_conn *c, int64_t *n)
{
	int ranked, declared;

	*n = 0;
	if (has_parts(c, &ranked, &declared) != 0)
		return -1;
	return ranked ? store__conn_int(c, "SELECT count(*) FROM ranks", n) :
	    0;
}

static const char *
text_or_null(struct sdb_stmt *st, int i)
{
	return (const char *)sdb_column_text(st, i);
}

static int
page_row(struct sdb_stmt *st, void *ctx)
{
	struct store__each *e = ctx;
	int (*fn)(const struct store_export_row *, void *) = e->fn;
	struct store_export_row r;

	if ((r.url = text_or_null(st, 0)) == NULL)
		r.url = "";
	if ((r.host = text_or_null(st, 1)) == NULL)
		r.host = "";
	r.seq = sdb_column_int64(st, 2);
	r.fetched_at = sdb_column_double(st, 3);
	r.status = sdb_column_int64(st, 4);
	if ((r.verdict = text_or_null(st, 5)) == NULL)
		r.verdict = "";
	r.reason = text_or_null(st, 6);
	r.has_match = sdb_column_type(st, 7) != SDB_NULL;
	r.original_url = text_or_null(st, 8);
	r.method = text_or_null(st, 9);
	r.percentage = sdb_column_double(st, 10);
	r.canonical_url = text_or_null(st, 11);
	r.declared = text_or_null(st, 12);
	return fn(&r, e->arg);
}

/*
 * The strongest match of each page is picked by a subquery on the
 * duplicates_page index, so the pages are read in seq order through
 * their unique seq index without a sort. The NULLS orders are SQLite's
 * own, spelt out for PostgreSQL, whose defaults are the other way round,
 * and d2.id settles ties, so both engines pick the same match.
 */
int
store_export_pages(struct store_conn *c,
    int (*fn)(const struct store_export_row *r, void *arg), void *arg)
{
	struct store__each e = { (void *)fn, arg };
	char sql[1024];
	int ranked, declared;

	if (has_parts(c, &ranked, &declared) != 0)
		return -1;
	snprintf(sql, sizeof(sql), "SELECT p.url, p.host, p.seq, "
	    "p.fetched_at, p.status, p.verdict, p.reason, d.id, o.url, "
	    "d.method, d.percentage, %s, %s FROM pages p "
	    "LEFT JOIN duplicates d ON d.id = (SELECT d2.id FROM duplicates d2 "
	    "LEFT JOIN pages o2 ON o2.id = d2.original_id "
	    "WHERE d2.page_id = p.id "
	    "ORDER BY d2.percentage DESC NULLS LAST, o2.seq NULLS FIRST, "
	    "d2.method, d2.id LIMIT 1) "
	    "LEFT JOIN pages o ON o.id = d.original_id %s "
	    "ORDER BY p.seq",
	    ranked ? "c.url" : "NULL", declared ? "p.canonical" : "NULL",
	    ranked ? "LEFT JOIN ranks k ON k.page_id = p.id "
	    "LEFT JOIN pages c ON c.id = k.canonical_id" : "");
	return store__conn_each(c, sql, page_row, &e);
}

static int
member_row(struct sdb_stmt *st, void *ctx)
{
	struct store__each *e = ctx;
	int (*fn)(const struct store_export_member *, void *) = e->fn;
	struct store_export_member r;

	r.cluster = sdb_column_int64(st, 0);
	r.canonical_url = text_or_null(st, 1);
	if ((r.url = text_or_null(st, 2)) == NULL)
		r.url = "";
	r.seq = sdb_column_int64(st, 3);
	r.declared = text_or_null(st, 4);
	return fn(&r, e->arg);
}

int
store_export_members(struct store_conn *c,
    int (*fn)(const struct store_export_member *r, void *arg), void *arg)
{
	struct store__each e = { (void *)fn, arg };
	char sql[512];
	int ranked, declared;

	if (has_parts(c, &ranked, &declared) != 0)
		return -1;
	if (!ranked)
		return 0;
	snprintf(sql, sizeof(sql), "SELECT k.canonical_id, c.url, p.url, "
	    "p.seq, %s FROM ranks k JOIN pages p ON p.id = k.page_id "
	    "LEFT JOIN pages c ON c.id = k.canonical_id "
	    "WHERE k.canonical_id IS NOT NULL "
	    "ORDER BY c.seq NULLS FIRST, k.canonical_id, p.seq, p.id",
	    declared ? "p.canonical" : "NULL");
	return store__conn_each(c, sql, member_row, &e);
}
