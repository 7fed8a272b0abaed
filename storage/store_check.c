/*
 * store_check: the rows `nearcrawl check` reads (storage/query.h): the
 * file's own integrity, as SQLite or PostgreSQL's amcheck sees it, and
 * what a crawl's tables must agree on -- every near or exact page has its
 * duplicates row and every duplicates row its two pages, seq counts 1, 2,
 * 3 ..., no URL is left in flight with nobody fetching it.
 */
#include "storage/query.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "storage/store_int.h"

/* Lines of PRAGMA integrity_check at most: past them SQLite stops. */
#define CHECK_INTEGRITY_LINES 100

const char *
store_check_name(const char *target)
{
	return store__target_name(target);
}

/* The text of column col, "" for NULL. */
static const char *
text_of(struct sdb_stmt *st, int col)
{
	const char *s = (const char *)sdb_column_text(st, col);

	return s != NULL ? s : "";
}

/* A row of PRAGMA integrity_check: "ok", or problems a line each under
 * a "*** in database main ***" heading, which says nothing here. */
static int
integrity_row(struct sdb_stmt *st, void *ctx)
{
	struct store__each *e = ctx;
	int (*fn)(const char *, void *) = e->fn;
	const char *p = text_of(st, 0), *nl;
	char line[1024];
	int rc = 0;

	if (strcmp(p, "ok") == 0)
		return 0;
	for (; *p != '\0' && rc == 0; p = *nl != '\0' ? nl + 1 : nl) {
		nl = p + strcspn(p, "\n");
		snprintf(line, sizeof(line), "%.*s", (int)(nl - p), p);
		if (line[0] != '\0' &&
		    strncmp(line, "*** in database ", 16) != 0)
			rc = fn(line, e->arg);
	}
	return rc;
}

/* Collects a query's first column (the relations amcheck is to see). */
struct names {
	char **v;
	size_t n;
};

static int
name_row(struct sdb_stmt *st, void *ctx)
{
	struct names *l = ctx;
	char **nv, *s;

	if ((nv = realloc(l->v, (l->n + 1) * sizeof(*nv))) == NULL)
		return 2;
	l->v = nv;
	if ((s = strdup(text_of(st, 0))) == NULL)
		return 2;
	l->v[l->n++] = s;
	return 0;
}

static void
names_free(struct names *l)
{
	while (l->n > 0)
		free(l->v[--l->n]);
	free(l->v);
}

static int
heap_row(struct sdb_stmt *st, void *ctx)
{
	struct store__each *e = ctx;
	int (*fn)(const char *, void *) = e->fn;
	char line[1024];

	snprintf(line, sizeof(line), "table %s, block %s, item %s: %s",
	    text_of(st, 0), text_of(st, 1), text_of(st, 2), text_of(st, 3));
	return fn(line, e->arg);
}

/* No right to run amcheck's functions is no damage: nothing checked. */
#define PG_NO_RIGHT "42501"

/*
 * amcheck over every table of the schema the crawl is in (verify_heapam,
 * where the installed amcheck has it) and every B-tree index of them
 * (bt_index_check, each heap tuple looked up in its index). A check that
 * finds damage raises an error: its message is the problem. Each runs in
 * a transaction of its own, so one error does not end the others.
 */
static int
pg_amcheck(struct store_conn *c, int (*fn)(const char *line, void *arg),
    void *arg, const char **why_not)
{
	static const char tables[] =
	    "SELECT c.relname FROM pg_class c "
	    "WHERE c.relkind = 'r' AND c.relnamespace = "
	    "to_regnamespace(current_schema()) ORDER BY c.relname";
	static const char indexes[] =
	    "SELECT c.relname FROM pg_index i "
	    "JOIN pg_class c ON c.oid = i.indexrelid "
	    "JOIN pg_am am ON am.oid = c.relam "
	    "JOIN pg_class t ON t.oid = i.indrelid "
	    "WHERE am.amname = 'btree' AND t.relnamespace = "
	    "to_regnamespace(current_schema()) ORDER BY c.relname";
	struct store__each e = { (void *)fn, arg };
	struct names tl = { NULL, 0 }, il = { NULL, 0 };
	struct store__param v[2] = { { NULL, 0 }, { NULL, 0 } };
	int64_t heap = 0;
	size_t i;
	char line[1024];
	int rc;

	if ((rc = store__conn_each(c, tables, name_row, &tl)) != 0 ||
	    (rc = store__conn_each(c, indexes, name_row, &il)) != 0 ||
	    (rc = store__conn_int(c, "SELECT count(*) FROM pg_proc "
	        "WHERE proname = 'verify_heapam'", &heap)) != 0)
		goto out;
	for (i = 0; heap > 0 && i < tl.n && rc == 0; i++) {
		v[0].s = v[1].s = tl.v[i];
		rc = store__conn_each_bound(c, "SELECT CAST(? AS text), "
		    "blkno, offnum, msg FROM verify_heapam(CAST(? AS "
		    "regclass))", v, 2, heap_row, &e);
		if (rc != -1)
			continue;
		if (strcmp(sdb_sqlstate(c->db), PG_NO_RIGHT) == 0)
			goto no_right;
		snprintf(line, sizeof(line), "table %s: %s", tl.v[i],
		    sdb_errmsg(c->db));
		rc = fn(line, arg);
	}
	for (i = 0; i < il.n && rc == 0; i++) {
		v[0].s = il.v[i];
		if (store__conn_each_bound(c, "SELECT bt_index_check(CAST(? "
		    "AS regclass), true)", v, 1, NULL, NULL) == 0)
			continue;
		if (strcmp(sdb_sqlstate(c->db), PG_NO_RIGHT) == 0)
			goto no_right;
		snprintf(line, sizeof(line), "index %s: %s", il.v[i],
		    sdb_errmsg(c->db));
		rc = fn(line, arg);
	}
	goto out;
no_right:
	*why_not = "amcheck's functions are not granted to this user";
	rc = 0;
out:
	names_free(&tl);
	names_free(&il);
	return rc;
}

int
store_check_integrity(struct store_conn *c,
    int (*fn)(const char *line, void *arg), void *arg, const char **why_not)
{
	struct store__each e = { (void *)fn, arg };
	char sql[64];
	int64_t n = 0;

	*why_not = NULL;
	if (!sdb_is_pg(c->db)) {
		snprintf(sql, sizeof(sql), "PRAGMA integrity_check(%d)",
		    CHECK_INTEGRITY_LINES);
		return store__conn_each(c, sql, integrity_row, &e);
	}
	if (store__conn_int(c, "SELECT count(*) FROM pg_extension "
	    "WHERE extname = 'amcheck'", &n) != 0)
		return -1;
	if (n == 0) {
		*why_not = "the amcheck extension is not installed in the "
		           "database (CREATE EXTENSION amcheck)";
		return 0;
	}
	return pg_amcheck(c, fn, arg, why_not);
}

static int
unmatched_row(struct sdb_stmt *st, void *ctx)
{
	struct store__each *e = ctx;
	int (*fn)(const struct store_check_page *, void *) = e->fn;
	struct store_check_page r;

	r.id = sdb_column_int64(st, 0);
	r.seq = sdb_column_int64(st, 1);
	r.url = text_of(st, 2);
	r.verdict = store_verdict_parse((const char *)sdb_column_text(st, 3));
	return fn(&r, e->arg);
}

int
store_check_unmatched(struct store_conn *c,
    int (*fn)(const struct store_check_page *r, void *arg), void *arg)
{
	struct store__each e = { (void *)fn, arg };

	return store__conn_each(c, "SELECT p.id, p.seq, p.url, p.verdict "
	    "FROM pages p WHERE p.verdict IN ('near', 'exact') AND NOT EXISTS "
	    "(SELECT 1 FROM duplicates d WHERE d.page_id = p.id) "
	    "ORDER BY p.seq, p.id", unmatched_row, &e);
}

static int
dangling_row(struct sdb_stmt *st, void *ctx)
{
	struct store__each *e = ctx;
	int (*fn)(const struct store_check_dup *, void *) = e->fn;
	struct store_check_dup r;

	r.id = sdb_column_int64(st, 0);
	r.page_id = sdb_column_int64(st, 1);
	r.original_id = sdb_column_int64(st, 2);
	r.page_url = (const char *)sdb_column_text(st, 3);
	r.original_url = (const char *)sdb_column_text(st, 4);
	r.method = text_of(st, 5);
	return fn(&r, e->arg);
}

int
store_check_dangling(struct store_conn *c,
    int (*fn)(const struct store_check_dup *r, void *arg), void *arg)
{
	struct store__each e = { (void *)fn, arg };

	return store__conn_each(c, "SELECT d.id, d.page_id, d.original_id, "
	    "p.url, o.url, d.method FROM duplicates d "
	    "LEFT JOIN pages p ON p.id = d.page_id "
	    "LEFT JOIN pages o ON o.id = d.original_id "
	    "WHERE p.id IS NULL OR o.id IS NULL OR d.page_id = d.original_id "
	    "ORDER BY d.id", dangling_row, &e);
}

static int
seq_row(struct sdb_stmt *st, void *ctx)
{
	struct store__each *e = ctx;
	int (*fn)(int64_t, void *) = e->fn;

	return fn(sdb_column_int64(st, 0), e->arg);
}

int
store_check_seqs(struct store_conn *c, int (*fn)(int64_t seq, void *arg),
    void *arg)
{
	struct store__each e = { (void *)fn, arg };

	return store__conn_each(c, "SELECT seq FROM pages ORDER BY seq",
	    seq_row, &e);
}

static int
flight_row(struct sdb_stmt *st, void *ctx)
{
	struct store__each *e = ctx;
	int (*fn)(const struct store_check_flight *, void *) = e->fn;
	struct store_check_flight r;

	r.id = sdb_column_int64(st, 0);
	r.url = text_of(st, 1);
	r.host = text_of(st, 2);
	return fn(&r, e->arg);
}

int
store_check_in_flight(struct store_conn *c, double now,
    int (*fn)(const struct store_check_flight *r, void *arg), void *arg)
{
	struct store__each e = { (void *)fn, arg };
	struct sdb_stmt *st = NULL;
	int rc, ret = 0;

	if (sdb_prepare(c->db, "SELECT f.id, f.url, f.host FROM frontier f "
	    "WHERE f.state = 1 AND NOT EXISTS (SELECT 1 FROM leases l "
	    "WHERE l.host = f.host AND l.owner IS NOT NULL AND "
	    "l.expires > ?) ORDER BY f.id", &st) != SDB_OK)
		return -1;
	if (sdb_bind_double(st, 1, now) != SDB_OK) {
		sdb_finalize(st);
		return -1;
	}
	while ((rc = sdb_step(st)) == SDB_ROW)
		if ((ret = flight_row(st, &e)) != 0)
			break;
	if (ret == 0 && rc != SDB_DONE)
		ret = -1;
	sdb_finalize(st);
	return ret;
}

int
store_check_live(struct store_conn *c, double now, int64_t *n)
{
	struct sdb_stmt *st = NULL;
	int rc;

	*n = 0;
	if (sdb_prepare(c->db, "SELECT count(*) FROM leases "
	    "WHERE owner IS NOT NULL AND expires > ?", &st) != SDB_OK)
		return -1;
	if (sdb_bind_double(st, 1, now) == SDB_OK &&
	    (rc = sdb_step(st)) == SDB_ROW)
		*n = sdb_column_int64(st, 0);
	else
		rc = -1;
	sdb_finalize(st);
	return rc == SDB_ROW ? 0 : -1;
}

char *
store_check_meta(struct store_conn *c, const char *key, int *err)
{
	struct sdb_stmt *st = NULL;
	const char *v;
	char *copy = NULL;
	int rc;

	*err = 0;
	if (sdb_prepare(c->db, "SELECT value FROM meta WHERE key = ?", &st) !=
	    SDB_OK || sdb_bind_text(st, 1, key) != SDB_OK) {
		sdb_finalize(st);
		*err = -1;
		return NULL;
	}
	rc = sdb_step(st);
	if (rc == SDB_ROW) {
		v = text_of(st, 0);
		if ((copy = strdup(v)) == NULL)
			*err = 2;
	} else if (rc != SDB_DONE) {
		*err = -1;
	}
	sdb_finalize(st);
	return copy;
}

static int
fetch_row(struct sdb_stmt *st, void *ctx)
{
	struct store__each *e = ctx;
	int (*fn)(const struct store_check_fetch *, void *) = e->fn;
	struct store_check_fetch r;

	r.url = text_of(st, 0);
	r.verdict = store_verdict_parse((const char *)sdb_column_text(st, 1));
	r.status = sdb_column_int64(st, 2);
	r.fetched_at = sdb_column_double(st, 3);
	r.seq = sdb_column_int64(st, 4);
	return fn(&r, e->arg);
}

int
store_check_fetches(struct store_conn *c,
    int (*fn)(const struct store_check_fetch *r, void *arg), void *arg)
{
	struct store__each e = { (void *)fn, arg };

	return store__conn_each(c, "SELECT url, verdict, status, fetched_at, "
	    "seq FROM pages ORDER BY seq", fetch_row, &e);
}

static int
stray_row(struct sdb_stmt *st, void *ctx)
{
	struct store__each *e = ctx;
	int (*fn)(int64_t, void *) = e->fn;

	return fn(sdb_column_int64(st, 0), e->arg);
}

int
store_check_search(struct store_conn *c, int64_t *beyond,
    int (*fn)(int64_t id, void *arg), void *arg)
{
	struct store__each e = { (void *)fn, arg };
	const char *k = sdb_is_pg(c->db) ? "page_id" : "rowid";
	char sql[512];

	*beyond = 0;
	/* A column name of ours, formatted in: no outside text. */
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM search_text WHERE "
	    "%s > (SELECT coalesce(max(id), 0) FROM pages)", k);
	if (store__conn_int(c, sql, beyond) != 0)
		return -1;
	snprintf(sql, sizeof(sql), "SELECT s.%s FROM search_text s WHERE "
	    "s.%s <= (SELECT coalesce(max(id), 0) FROM pages) AND NOT EXISTS "
	    "(SELECT 1 FROM pages p WHERE p.id = s.%s AND p.verdict IN "
	    "('unique', 'exact', 'near')) ORDER BY s.%s", k, k, k, k);
	return store__conn_each(c, sql, stray_row, &e);
}
