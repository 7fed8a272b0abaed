/*
 * store_rank: what `nearcrawl rank` reads -- pages, the link graph, the
 * duplicate pairs -- and the ranks table it writes (storage/query.h). The
 * command runs it all in one write transaction.
 */
#include "storage/query.h"

#include "storage/store_int.h"

static int
page_row(struct sdb_stmt *st, void *ctx)
{
	struct store__each *e = ctx;
	int (*fn)(const struct store_rank_page *, void *) = e->fn;
	struct store_rank_page r;

	r.id = sdb_column_int64(st, 0);
	if ((r.url = (const char *)sdb_column_text(st, 1)) == NULL)
		r.url = "";
	r.seq = sdb_column_int64(st, 2);
	return fn(&r, e->arg);
}

int
store_rank_pages(struct store_conn *c,
    int (*fn)(const struct store_rank_page *r, void *arg), void *arg)
{
	struct store__each e = { (void *)fn, arg };

	return store__conn_each(c, "SELECT id, url, seq FROM pages "
	    "ORDER BY id", page_row, &e);
}

int
store_rank_link_bytes(struct store_conn *c, int64_t *bytes)
{
	return store__conn_int(c, "SELECT coalesce(sum(length(targets)), 0) "
	    "FROM links", bytes);
}

static int
links_row(struct sdb_stmt *st, void *ctx)
{
	struct store__each *e = ctx;
	int (*fn)(const struct store_rank_links *, void *) = e->fn;
	struct store_rank_links r;

	r.page_id = sdb_column_int64(st, 0);
	/* Blob before bytes: the size is of the value as returned. */
	r.targets = sdb_column_blob(st, 1);
	r.len = (size_t)sdb_column_bytes(st, 1);
	return fn(&r, e->arg);
}

int
store_rank_links(struct store_conn *c,
    int (*fn)(const struct store_rank_links *r, void *arg), void *arg)
{
	struct store__each e = { (void *)fn, arg };

	return store__conn_each(c, "SELECT page_id, targets FROM links "
	    "ORDER BY page_id", links_row, &e);
}

static int
pair_row(struct sdb_stmt *st, void *ctx)
{
	struct store__each *e = ctx;
	int (*fn)(const struct store_rank_pair *, void *) = e->fn;
	struct store_rank_pair r;

	r.page_id = sdb_column_int64(st, 0);
	r.original_id = sdb_column_int64(st, 1);
	return fn(&r, e->arg);
}

int
store_rank_pairs(struct store_conn *c,
    int (*fn)(const struct store_rank_pair *r, void *arg), void *arg)
{
	struct store__each e = { (void *)fn, arg };

	return store__conn_each(c, "SELECT page_id, original_id FROM "
	    "duplicates ORDER BY id", pair_row, &e);
}

int
store_ranks_clear(struct store_conn *c)
{
	return sdb_exec(c->db, "DELETE FROM ranks") ==
	    SDB_OK ? 0 : -1;
}

int
store_rank_put(struct store_conn *c, int64_t page_id, double pagerank,
    int64_t canonical_id)
{
	struct sdb_stmt *st;
	int rc;

	if (c->rank_put == NULL && sdb_prepare(c->db, "INSERT INTO "
	    "ranks (page_id, pagerank, canonical_id) VALUES (?, ?, ?)",
	    &c->rank_put) != SDB_OK)
		return -1;
	st = c->rank_put;
	rc = sdb_bind_int64(st, 1, page_id) != SDB_OK ||
	    sdb_bind_double(st, 2, pagerank) != SDB_OK ||
	    (canonical_id == 0 ? sdb_bind_null(st, 3) :
	    sdb_bind_int64(st, 3, canonical_id)) != SDB_OK ||
	    sdb_step(st) != SDB_DONE ? -1 : 0;
	/* Reset after the error is read: a reset must not replace it. */
	if (rc == 0)
		sdb_reset(st);
	return rc;
}

static int
declared_row(struct sdb_stmt *st, void *ctx)
{
	struct store__each *e = ctx;
	int (*fn)(const struct store_rank_declared *, void *) = e->fn;
	struct store_rank_declared r;

	r.page_id = sdb_column_int64(st, 0);
	r.canonical = (const char *)sdb_column_text(st, 1);
	return r.canonical != NULL ? fn(&r, e->arg) : 0;
}

int
store_rank_declared(struct store_conn *c,
    int (*fn)(const struct store_rank_declared *r, void *arg), void *arg)
{
	struct store__each e = { (void *)fn, arg };
	int exists = 0;

	if (store__column_exists(c->db, "pages", "canonical", &exists) !=
	    SDB_OK)
		return -1;
	if (!exists)
		return 0;
	return store__conn_each(c, "SELECT id, canonical FROM pages "
	    "WHERE canonical IS NOT NULL ORDER BY id", declared_row, &e);
}

static int
counts_row(struct sdb_stmt *st, void *ctx)
{
	struct store_canonical_counts *n = ctx;

	n->declared = sdb_column_int64(st, 0);
	n->agree = sdb_column_int64(st, 1);
	n->disagree = n->declared - n->agree;
	return 0;
}

/*
 * Per cluster, the declarations that name a member of the same cluster
 * (found through the url index), and how many of them name another page
 * than the canonical. CASE, not a sum of booleans, and the subquery
 * named: PostgreSQL accepts neither otherwise.
 */
int
store_rank_canonical_counts(struct store_conn *c,
    struct store_canonical_counts *n)
{
	int ranked = 0, declared = 0;

	n->declared = n->agree = n->disagree = 0;
	if (store__table_exists(c->db, "ranks", &ranked) != SDB_OK ||
	    store__column_exists(c->db, "pages", "canonical", &declared) !=
	    SDB_OK)
		return -1;
	if (!ranked || !declared)
		return 0;
	return store__conn_each(c, "SELECT count(*), "
	    "coalesce(sum(CASE WHEN other = 0 THEN 1 ELSE 0 END), 0) "
	    "FROM (SELECT k.canonical_id, "
	    "sum(CASE WHEN m.id <> k.canonical_id THEN 1 ELSE 0 END) AS other "
	    "FROM ranks k "
	    "JOIN pages p ON p.id = k.page_id "
	    "JOIN pages m ON m.url = p.canonical "
	    "JOIN ranks km ON km.page_id = m.id "
	    "AND km.canonical_id = k.canonical_id "
	    "WHERE k.canonical_id IS NOT NULL AND p.canonical IS NOT NULL "
	    "GROUP BY k.canonical_id) AS clusters", counts_row, n);
}
