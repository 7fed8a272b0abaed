/*
 * store_search: the full-text index's SQL (storage/store_search.h), in
 * each engine's own words where they part: FTS5's MATCH, bm25() and
 * snippet() with the page id as rowid on SQLite; @@, ts_rank_cd() and
 * ts_headline() over a page_id column on PostgreSQL. The query's
 * translation for PostgreSQL is store_search_ts.c's.
 */
#include "storage/store_search.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "storage/store_int.h"
#include "storage/store_searchw.h"
#include "util/err.h"
#include "util/chars.h"

/* The judged verdicts: the pages the crawl indexes. */
#define JUDGED "('unique', 'exact', 'near')"

/* ... but for those the last recrawl found gone (4xx) or moved (3xx):
 * the recrawl dropped their entries (a moved page's text is its target's,
 * which has an entry of its own), and `nearcrawl index` must not bring
 * them back. One list, made once: no index on visits.page_id is needed. */
#define NOT_GONE " AND p.id NOT IN (SELECT page_id FROM visits WHERE " \
	"outcome IN ('gone', 'moved') AND visit = (SELECT max(visit) FROM " \
	"visits))"

/* Whole words around the matched ones in a snippet. */
#define SNIPPET_WORDS "32"

/* bm25's column weights and ts_rank_cd's are alike: the title ten times
 * the text (ts_rank_cd's default weights give A 1.0 and D 0.1). Both rank
 * best first, ties by id, so that paging and the engines agree. The
 * pages row and its PageRank come with each match. */
#define HITS_ROW "SELECT p.id, h.score, p.url, p.title, p.verdict, p.seq, " \
	"p.simhash, p.canonical, r.pagerank FROM "
#define HITS_TAIL ") AS h JOIN pages p ON p.id = h.id LEFT JOIN ranks r " \
	"ON r.page_id = h.id ORDER BY h.score DESC, h.id"
static const char HITS_SQLITE[] = HITS_ROW
    "(SELECT rowid AS id, -bm25(search_text, 10.0, 1.0) AS score "
    "FROM search_text WHERE search_text MATCH ?1 "
    "ORDER BY score DESC, rowid LIMIT ?2 OFFSET ?3" HITS_TAIL;
/* Normalisation 1: the rank divided by 1 + the log of the text's
 * length, as BM25 weighs long texts down. */
static const char HITS_PG[] = HITS_ROW
    "(SELECT t.page_id AS id, ts_rank_cd(t.doc, q, 1) AS score "
    "FROM search_text t, to_tsquery('simple', ?1) AS q WHERE t.doc @@ q "
    "ORDER BY score DESC, t.page_id LIMIT ?2 OFFSET ?3" HITS_TAIL;

static const char SNIPPET_SQLITE[] =
    "SELECT snippet(search_text, 1, char(2), char(3), '…', "
    SNIPPET_WORDS ") FROM search_text WHERE search_text MATCH ?1 "
    "AND rowid = ?2";
/* The options name the marks with chr(): ts_headline reads its option
 * string itself, and a quoted value may hold any character. */
static const char SNIPPET_PG[] =
    "SELECT ts_headline('simple', left(body, "
    STORE__XSTR(STORE__SEARCH_PG_TEXT_MAX) "), to_tsquery('simple', ?1), "
    "'StartSel=\"' || chr(2) || '\", StopSel=\"' || chr(3) || '\", "
    "MaxWords=" SNIPPET_WORDS ", MinWords=16, MaxFragments=2, "
    "FragmentDelimiter=\" … \"') FROM search_text WHERE page_id = ?2";

static const char COPY_SQLITE[] =
    "INSERT INTO search_text (rowid, title, body) SELECT ?2, title, body "
    "FROM search_text WHERE rowid = ?1";
static const char COPY_PG[] =
    "INSERT INTO search_text (page_id, title, body, doc) SELECT ?2, title, "
    "body, doc FROM search_text WHERE page_id = ?1 "
    "ON CONFLICT (page_id) DO NOTHING";

static const char PAGE_OF[] =
    "SELECT id, fetched_at FROM pages WHERE url = ?";

struct store_searcher {
	struct store_conn *c;   /* the connection it was opened on */
	struct sdb_stmt *hits;  /* HITS_* */
	struct sdb_stmt *snip;  /* SNIPPET_* */
	struct sdb_stmt *put;   /* STORE__SEARCH_ADD*, prepared when used */
	struct sdb_stmt *page;  /* PAGE_OF, prepared when used */
	struct sdb_stmt *copy;  /* COPY_*, prepared when used */
	char *tsq;              /* PostgreSQL: the last query translated */
	size_t tsqcap;
};

/* Page id's entry into the in-database index (PostgreSQL, or an SQLite
 * database made by an earlier nearcrawl) with statement id. */
static int
in_db(struct store *s, enum stmt_id sid, int64_t id, const char *title,
    const char *text, size_t len)
{
	struct sdb_stmt *st = s->st[sid];
	struct binder b;
	char *body, *head = NULL;
	int rc;

	if ((body = store_searchw_clean(text != NULL ? text : "", text != NULL ?
	    len : 0)) == NULL || (title != NULL &&
	    (head = store_searchw_clean(title, strlen(title))) == NULL)) {
		free(body);
		return store__oom_fail(s);
	}
	store__bind_start(&b, st);
	store__bind_int(&b, id);
	store__bind_text(&b, head);
	store__bind_text(&b, body);
	/* Sent now on a pipelined store: the copies may go at once. */
	rc = store__exec_later(s, st, &b);
	free(body);
	free(head);
	return rc;
}

/*
 * The writer of the index file, started at the first entry (a crawl told
 * not to index never makes the file). NULL where the index is in the
 * database, or on a read-only open (store__no_table said so).
 */
static struct store_searchw *
side_writer(struct store *s, enum stmt_id sid)
{
	char err[sizeof(s->err)], *side;
	const char *path;

	if (s->sw != NULL)
		return s->sw;
	if (sdb_is_pg(s->db) || s->lockfd == -1) {
		store__no_table(s, sid);
		return NULL;
	}
	path = sqlite3_db_filename(sdb_sqlite(s->db), "main");
	if ((side = store_searchw_path(path != NULL ? path : "")) == NULL) {
		store__oom_fail(s);
		return NULL;
	}
	if (store_searchw_start(side, &s->sw, err, sizeof(err)) != 0)
		store__fail(s, "%s", err);
	free(side);
	return s->sw;
}

/* Hand it to the writer; its failure becomes the store's. */
static int
side_put(struct store *s, enum stmt_id sid, int64_t id, const char *title,
    const char *text, size_t len)
{
	struct store_searchw *w;
	const char *path;
	char *side;
	int rc;

	/* No file, no entry to drop: a crawl that does not index makes
	 * none for it. */
	if (sid == ST_SEARCH_DROP && s->sw == NULL && !sdb_is_pg(s->db)) {
		path = sqlite3_db_filename(sdb_sqlite(s->db), "main");
		if ((side = store_searchw_path(path != NULL ? path : "")) ==
		    NULL)
			return store__oom_fail(s);
		rc = access(side, F_OK);
		free(side);
		if (rc != 0)
			return 0;
	}
	if ((w = side_writer(s, sid)) == NULL)
		return -1;
	rc = sid == ST_SEARCH_DROP ? store_searchw_drop(w, id) :
	    store_searchw_put(w, id, title, text != NULL ? text : "",
	    text != NULL ? len : 0, sid == ST_SEARCH_SET);
	if (rc != 0)
		return store__fail(s, "the search index: %s",
		    store_searchw_errmsg(w));
	return 0;
}

int
store_search_add(struct store *s, int64_t id, const char *title,
    const char *text, size_t len)
{
	if (s->st[ST_SEARCH_ADD] == NULL)
		return side_put(s, ST_SEARCH_ADD, id, title, text, len);
	return in_db(s, ST_SEARCH_ADD, id, title, text, len);
}

int
store_search_set(struct store *s, int64_t id, const char *title,
    const char *text, size_t len)
{
	if (s->st[ST_SEARCH_SET] == NULL)
		return side_put(s, ST_SEARCH_SET, id, title, text, len);
	return in_db(s, ST_SEARCH_SET, id, title, text, len);
}

int
store_search_drop(struct store *s, int64_t id)
{
	struct binder b;

	if (s->st[ST_SEARCH_DROP] == NULL)
		return side_put(s, ST_SEARCH_DROP, id, NULL, NULL, 0);
	store__bind_start(&b, s->st[ST_SEARCH_DROP]);
	store__bind_int(&b, id);
	return store__exec_later(s, s->st[ST_SEARCH_DROP], &b);
}

int
store_search_exists(struct store_conn *c, int *exists)
{
	int64_t n;

	if (store__table_exists(c->db, "search_text", exists) != SDB_OK)
		return -1;
	if (*exists || !c->side)
		return 0;
	if (store__conn_int(c, "SELECT count(*) FROM search.sqlite_master "
	    "WHERE type = 'table' AND name = 'search_text'", &n) != 0)
		return -1;
	*exists = n > 0;
	return 0;
}

int
store_search_make(struct store_conn *c, char *err, size_t errsz)
{
	char *side;
	int exists, rc;

	if (store_search_exists(c, &exists) != 0)
		return -1;
	if (exists || sdb_is_pg(c->db))
		return 0;
	if ((side = store_searchw_path(c->path)) == NULL)
		return err_set(err, errsz, -1, "out of memory");
	rc = store_searchw_create(side, err, errsz);
	free(side);
	if (rc != 0)
		return -1;
	if (c->side)
		return 0;
	return store__conn_attach_search(c);
}

int
store_searcher_open(struct store_conn *c, struct store_searcher **q)
{
	struct store_searcher *n;
	int pg = sdb_is_pg(c->db);

	*q = NULL;
	if ((n = calloc(1, sizeof(*n))) == NULL)
		return -1;
	n->c = c;
	if (sdb_prepare(c->db, pg ? HITS_PG : HITS_SQLITE, &n->hits) !=
	    SDB_OK || sdb_prepare(c->db, pg ? SNIPPET_PG : SNIPPET_SQLITE,
	    &n->snip) != SDB_OK) {
		store_searcher_close(n);
		return -1;
	}
	*q = n;
	return 0;
}

void
store_searcher_close(struct store_searcher *q)
{
	if (q == NULL)
		return;
	sdb_finalize(q->hits);
	sdb_finalize(q->snip);
	sdb_finalize(q->put);
	sdb_finalize(q->page);
	sdb_finalize(q->copy);
	free(q->tsq);
	free(q);
}

/*
 * The query as the engine takes it: as it is on SQLite, translated on
 * PostgreSQL (into q->tsq). NULL with why set when the translation
 * refuses it (or memory runs out).
 */
static const char *
engine_query(struct store_searcher *q, const char *query, char *why,
    size_t whysz)
{
	size_t need;

	if (!sdb_is_pg(q->c->db))
		return query;
	need = STORE_SEARCH_TSQUERY_MAX(strlen(query));
	if (need > q->tsqcap) {
		free(q->tsq);
		q->tsqcap = 0;
		if ((q->tsq = malloc(need)) == NULL) {
			snprintf(why, whysz, "out of memory");
			return NULL;
		}
		q->tsqcap = need;
	}
	if (store_search_tsquery(query, q->tsq, q->tsqcap, why, whysz) != 0)
		return NULL;
	return q->tsq;
}

int
store_search_hits(struct store_searcher *q, const char *query,
    int64_t limit, int64_t offset,
    int (*fn)(const struct store_search_hit *h, void *arg), void *arg,
    char *why, size_t whysz)
{
	struct sdb_stmt *st = q->hits;
	struct store_search_hit h;
	const char *eq;
	int rc, ret = 0;

	if ((eq = engine_query(q, query, why, whysz)) == NULL)
		return STORE_SEARCH_BADQUERY;
	if (sdb_bind_text(st, 1, eq) != SDB_OK ||
	    sdb_bind_int64(st, 2, limit) != SDB_OK ||
	    sdb_bind_int64(st, 3, offset) != SDB_OK) {
		store__stmt_done(st);
		return -1;
	}
	while ((rc = sdb_step(st)) == SDB_ROW) {
		memset(&h, 0, sizeof(h));
		h.id = sdb_column_int64(st, 0);
		h.score = sdb_column_double(st, 1);
		if ((h.url = sdb_column_text(st, 2)) == NULL)
			h.url = "";
		h.title = sdb_column_text(st, 3);
		h.verdict = store_verdict_parse(sdb_column_text(st, 4));
		h.seq = sdb_column_int64(st, 5);
		h.has_simhash = sdb_column_type(st, 6) != SQLITE_NULL;
		h.simhash = store__u64_of_i64(sdb_column_int64(st, 6));
		h.declared = sdb_column_text(st, 7);
		h.has_pagerank = sdb_column_type(st, 8) != SQLITE_NULL;
		h.pagerank = sdb_column_double(st, 8);
		if ((ret = fn(&h, arg)) != 0)
			break;
	}
	if (ret == 0 && rc != SDB_DONE) {
		/*
		 * The statement was prepared, so a plain error stepping it
		 * is the MATCH expression's: FTS5 parses the query only
		 * when run. Everything else (busy, I/O, damage) is the
		 * database's.
		 */
		if (!sdb_is_pg(q->c->db) &&
		    (sdb_errcode(q->c->db) & 0xff) == SQLITE_ERROR) {
			snprintf(why, whysz, "%s", sdb_errmsg(q->c->db));
			ret = STORE_SEARCH_BADQUERY;
		} else
			ret = -1;
	}
	/* Reset after the error is read: a reset must not replace it. */
	if (ret != -1)
		store__stmt_done(st);
	return ret;
}

int
store_search_snippet(struct store_searcher *q, const char *query,
    int64_t id, char **out)
{
	struct sdb_stmt *st = q->snip;
	const char *eq, *text;
	char why[128];
	int rc, ret = -1;

	*out = NULL;
	if ((eq = engine_query(q, query, why, sizeof(why))) == NULL)
		return -1;
	if (sdb_bind_text(st, 1, eq) != SDB_OK ||
	    sdb_bind_int64(st, 2, id) != SDB_OK)
		goto out;
	rc = sdb_step(st);
	if (rc == SDB_ROW) {
		text = sdb_column_text(st, 0);
		if ((*out = strdup(text != NULL ? text : "")) == NULL)
			goto out;
	} else if (rc != SDB_DONE)
		return -1;
	ret = 0;
out:
	store__stmt_done(st);
	return ret;
}

int
store_search_partial(struct store_conn *c, int *partial)
{
	/* Each side stops at the first judged page it meets. */
	static const char sqlite[] =
	    "SELECT count(*) FROM (SELECT * FROM (SELECT id FROM pages WHERE "
	    "verdict IN " JUDGED " ORDER BY id LIMIT 1) UNION ALL "
	    "SELECT * FROM (SELECT id FROM pages WHERE verdict IN " JUDGED
	    " ORDER BY id DESC LIMIT 1)) AS e WHERE NOT EXISTS (SELECT 1 "
	    "FROM search_text s WHERE s.rowid = e.id)";
	static const char pg[] =
	    "SELECT count(*) FROM ((SELECT id FROM pages WHERE verdict IN "
	    JUDGED " ORDER BY id LIMIT 1) UNION ALL (SELECT id FROM pages "
	    "WHERE verdict IN " JUDGED " ORDER BY id DESC LIMIT 1)) AS e "
	    "WHERE NOT EXISTS (SELECT 1 FROM search_text s WHERE "
	    "s.page_id = e.id)";
	int64_t n;

	if (store__conn_int(c, sdb_is_pg(c->db) ? pg : sqlite, &n) != 0)
		return -1;
	*partial = n > 0;
	return 0;
}

int
store_search_ranked(struct store_conn *c, int *ranked)
{
	int64_t n;

	if (store__conn_int(c, "SELECT count(*) FROM (SELECT 1 FROM ranks LIMIT 1) "
	    "AS r", &n) != 0)
		return -1;
	*ranked = n > 0;
	return 0;
}

int
store_search_duplicates_mark(struct store_conn *c, int64_t *mark)
{
	return store__conn_int(c, "SELECT coalesce(max(id), 0) FROM duplicates",
	    mark);
}

int
store_search_counts(struct store_conn *c, struct store_search_counts *n)
{
	static const char sqlite[] =
	    "SELECT count(*), coalesce(sum(CASE WHEN text IS NULL THEN 0 "
	    "ELSE 1 END), 0), coalesce(sum(CASE WHEN EXISTS (SELECT 1 FROM "
	    "search_text s WHERE s.rowid = p.id) THEN 1 ELSE 0 END), 0) "
	    "FROM pages p WHERE verdict IN " JUDGED NOT_GONE;
	static const char pg[] =
	    "SELECT count(*), coalesce(sum(CASE WHEN text IS NULL THEN 0 "
	    "ELSE 1 END), 0), coalesce(sum(CASE WHEN EXISTS (SELECT 1 FROM "
	    "search_text s WHERE s.page_id = p.id) THEN 1 ELSE 0 END), 0) "
	    "FROM pages p WHERE verdict IN " JUDGED NOT_GONE;
	struct sdb_stmt *st = NULL;
	int rc;

	memset(n, 0, sizeof(*n));
	if (sdb_prepare(c->db, sdb_is_pg(c->db) ? pg : sqlite, &st) != SDB_OK)
		return -1;
	rc = sdb_step(st);
	if (rc == SDB_ROW) {
		n->judged = sdb_column_int64(st, 0);
		n->stored_text = sdb_column_int64(st, 1);
		n->indexed = sdb_column_int64(st, 2);
	}
	sdb_finalize(st);
	return rc == SDB_ROW ? 0 : -1;
}

static int
todo_row(struct sdb_stmt *st, void *ctx)
{
	struct store__each *e = ctx;
	int (*fn)(const struct store_search_todo *, void *) = e->fn;
	struct store_search_todo t;

	t.id = sdb_column_int64(st, 0);
	if ((t.url = sdb_column_text(st, 1)) == NULL)
		t.url = "";
	t.title = sdb_column_text(st, 2);
	t.has_text = sdb_column_int(st, 3) != 0;
	return fn(&t, e->arg);
}

int
store_search_missing(struct store_conn *c, int64_t after, int64_t limit,
    int (*fn)(const struct store_search_todo *t, void *arg), void *arg)
{
	struct store__each e = { (void *)fn, arg };
	char sql[768];

	/* Numbers the program made, formatted in: no outside text. */
	snprintf(sql, sizeof(sql), "SELECT p.id, p.url, p.title, CASE WHEN "
	    "p.text IS NULL THEN 0 ELSE 1 END FROM pages p WHERE p.id > %lld "
	    "AND p.verdict IN " JUDGED NOT_GONE " AND NOT EXISTS (SELECT 1 "
	    "FROM search_text s WHERE s.%s = p.id) ORDER BY p.id LIMIT %lld",
	    (long long)after, sdb_is_pg(c->db) ? "page_id" : "rowid",
	    (long long)limit);
	return store__conn_each(c, sql, todo_row, &e);
}

int
store_search_stored_text(struct store_conn *c, int64_t id, char **text,
    size_t *len)
{
	struct sdb_stmt *st = NULL;
	const char *t;
	int rc, ret = -1;

	*text = NULL;
	*len = 0;
	if (sdb_prepare(c->db, "SELECT text FROM pages WHERE id = ?", &st) !=
	    SDB_OK || sdb_bind_int64(st, 1, id) != SDB_OK)
		goto out;
	rc = sdb_step(st);
	if (rc == SDB_ROW && (t = sdb_column_text(st, 0)) != NULL) {
		*len = (size_t)sdb_column_bytes(st, 0);
		if ((*text = malloc(*len + 1)) == NULL)
			goto out;
		memcpy(*text, t, *len);
		(*text)[*len] = '\0';
	} else if (rc != SDB_ROW && rc != SDB_DONE)
		goto out;
	ret = 0;
out:
	sdb_finalize(st);
	return ret;
}

int
store_search_put(struct store_searcher *q, int64_t id, const char *title,
    const char *text, size_t len)
{
	struct sdb *db = q->c->db;
	char *body = NULL, *head = NULL;
	int ret = -1;

	if (q->put == NULL && sdb_prepare(db, sdb_is_pg(db) ?
	    STORE__SEARCH_ADD_PG : STORE__SEARCH_ADD, &q->put) != SDB_OK)
		return -1;
	if ((body = store_searchw_clean(text != NULL ? text : "", text != NULL ?
	    len : 0)) == NULL || (title != NULL &&
	    (head = store_searchw_clean(title, strlen(title))) == NULL))
		goto out;
	if (sdb_bind_int64(q->put, 1, id) != SDB_OK ||
	    (head != NULL ? sdb_bind_text(q->put, 2, head) :
	    sdb_bind_null(q->put, 2)) != SDB_OK ||
	    sdb_bind_text(q->put, 3, body) != SDB_OK ||
	    sdb_step(q->put) != SDB_DONE)
		goto out;
	ret = 0;
out:
	/* Reset after the error is read: a reset must not replace it. */
	if (ret == 0)
		store__stmt_done(q->put);
	free(body);
	free(head);
	return ret;
}

int
store_search_page_of(struct store_searcher *q, const char *url, int64_t *id,
    double *fetched_at)
{
	int rc;

	*id = 0;
	*fetched_at = 0;
	if (q->page == NULL &&
	    sdb_prepare(q->c->db, PAGE_OF, &q->page) != SDB_OK)
		return -1;
	if (sdb_bind_text(q->page, 1, url) != SDB_OK)
		return -1;
	rc = sdb_step(q->page);
	if (rc == SDB_ROW) {
		*id = sdb_column_int64(q->page, 0);
		*fetched_at = sdb_column_double(q->page, 1);
	}
	if (rc != SDB_ROW && rc != SDB_DONE)
		return -1;
	store__stmt_done(q->page);
	return 0;
}

int
store_search_copy(struct store_searcher *q, int64_t from, int64_t to,
    int *copied)
{
	struct sdb *db = q->c->db;

	*copied = 0;
	if (q->copy == NULL && sdb_prepare(db, sdb_is_pg(db) ? COPY_PG :
	    COPY_SQLITE, &q->copy) != SDB_OK)
		return -1;
	if (sdb_bind_int64(q->copy, 1, from) != SDB_OK ||
	    sdb_bind_int64(q->copy, 2, to) != SDB_OK ||
	    sdb_step(q->copy) != SDB_DONE)
		return -1;
	*copied = sdb_changes(db) > 0;
	store__stmt_done(q->copy);
	return 0;
}

int
store_search_copy_revisits(struct store_conn *c, int64_t *n)
{
	/* One row a page (DISTINCT ON is PostgreSQL's, GROUP BY with bare
	 * columns SQLite's): a page has one revisit row. */
	static const char sqlite[] =
	    "INSERT INTO search_text (rowid, title, body) "
	    "SELECT d.page_id, s.title, s.body FROM duplicates d "
	    "JOIN search_text s ON s.rowid = d.original_id "
	    "WHERE d.method = 'revisit' AND NOT EXISTS (SELECT 1 FROM "
	    "search_text t WHERE t.rowid = d.page_id) GROUP BY d.page_id";
	static const char pg[] =
	    "INSERT INTO search_text (page_id, title, body, doc) "
	    "SELECT DISTINCT ON (d.page_id) d.page_id, s.title, s.body, s.doc "
	    "FROM duplicates d JOIN search_text s ON s.page_id = d.original_id "
	    "WHERE d.method = 'revisit' AND NOT EXISTS (SELECT 1 FROM "
	    "search_text t WHERE t.page_id = d.page_id) "
	    "ORDER BY d.page_id ON CONFLICT (page_id) DO NOTHING";

	*n = 0;
	if (sdb_exec(c->db, sdb_is_pg(c->db) ? pg : sqlite) != SDB_OK)
		return -1;
	*n = sdb_changes(c->db);
	return 0;
}

static int
file_row(struct sdb_stmt *st, void *ctx)
{
	struct store__each *e = ctx;
	int (*fn)(const char *, void *) = e->fn;
	const char *key = sdb_column_text(st, 0);

	if (key == NULL || strncmp(key, "dedup_file:", 11) != 0)
		return 0;
	return fn(key + 11, e->arg);
}

int
store_search_dedup_files(struct store_conn *c,
    int (*fn)(const char *path, void *arg), void *arg)
{
	struct store__each e = { (void *)fn, arg };

	/* Not LIKE, where '_' is a wildcard. */
	return store__conn_each(c, "SELECT key FROM meta WHERE "
	    "substr(key, 1, 11) = 'dedup_file:'", file_row, &e);
}

int
store_search_rollback(struct store_conn *c)
{
	if (sdb_autocommit(c->db))
		return 0;
	return sdb_exec(c->db, "ROLLBACK") == SDB_OK ? 0 : -1;
}
