/*
 * store_search: the full-text index of a crawl (the search_text table of
 * storage/schema.sql) -- written by the crawl with each judged page, or
 * afterwards by `nearcrawl index`; read by `nearcrawl search`.
 *
 * SQLite keeps an FTS5 table whose rowid is the page's id, and ranks by
 * BM25; PostgreSQL a tsvector column under a GIN index, and ranks by
 * ts_rank_cd. A query is written in FTS5's syntax on both: PostgreSQL
 * gets it translated (store_search_tsquery). The title weighs ten times
 * the text on both (bm25's column weights, ts_rank_cd's A and D).
 *
 * PostgreSQL's tsvector of a page is made of its first 256 Ki characters
 * (a tsvector holds at most 1 MiB, and a failed insert would abort the
 * crawl's transaction), its snippets cut from them too; SQLite indexes
 * the whole text.
 *
 * Snippets mark the matched words with the bytes STORE_SEARCH_MARK_ON and
 * STORE_SEARCH_MARK_OFF, which the indexed text never holds: the crawl's
 * extracted text has no control bytes, and store_search_add blanks them
 * in any other text.
 */
#ifndef NC_STORE_SEARCH_H
#define NC_STORE_SEARCH_H

#include <stddef.h>
#include <stdint.h>

#include "storage/query.h"
#include "storage/store.h"
#include "storage/store_searchw.h"

#define STORE_SEARCH_MARK_ON STORE_SEARCHW_MARK_ON   /* before a matched word */
#define STORE_SEARCH_MARK_OFF STORE_SEARCHW_MARK_OFF /* after it */

/* The most bytes store_search_tsquery writes for a query of n bytes. */
#define STORE_SEARCH_TSQUERY_MAX(n) ((n) * 8 + 64)

/* --- writing, in a crawl's transaction (struct store) --- */

/*
 * Index page id: its title (NULL: none) and its text (len bytes, not
 * NUL-terminated), in the open transaction. On SQLite the index is a
 * file of its own, DB-search, which a thread writes (store_searchw.h):
 * the copies are handed over, waiting only when it lags far behind, and
 * store_commit waits until it has committed them; the file is made by
 * the first entry. A database made by an earlier nearcrawl, which holds
 * the index itself, is written as before, in the transaction. On a
 * pipelined PostgreSQL store the entry is sent without waiting. Returns
 * 0, or -1 (store_errmsg): out of memory, a database error (the index
 * file's, now or at an earlier entry), or a read-only open.
 */
int store_search_add(struct store *s, int64_t id, const char *title,
    const char *text, size_t len);

/* A recrawl: page id's entry, in place of the one it has (if any), as
 * store_search_add. */
int store_search_set(struct store *s, int64_t id, const char *title,
    const char *text, size_t len);

/* A recrawl found page id gone or moved: its entry, if any, goes. 0, or -1 as
 * store_search_add. */
int store_search_drop(struct store *s, int64_t id);

/* --- reading and `nearcrawl index`, on a connection (storage/query.h) --- */

/* Whether the database has the index: on SQLite, whether its file
 * (DB-search) was there when c was opened, and attached to c as schema
 * "search", or the database holds the table itself (made by an earlier
 * nearcrawl). The statements here name it unqualified and find it either
 * way. 0, or -1 on a database error. */
int store_search_exists(struct store_conn *c, int *exists);

/* `nearcrawl index`: make the index on c (opened STORE_CONN_WRITE, no
 * transaction open) if it has none: on SQLite its file, attached. 0, or
 * -1 (store_conn_fail, or err when the file cannot be made). */
int store_search_make(struct store_conn *c, char *err, size_t errsz);

/* A connection's search statements, prepared once. */
struct store_searcher;

/* Prepare them on c (whose index table exists). 0 with *q set, or -1 on a
 * database error (store_conn_fail) or out of memory. Free with
 * store_searcher_close before c is closed. */
int store_searcher_open(struct store_conn *c, struct store_searcher **q);
void store_searcher_close(struct store_searcher *q);

/* One match. Strings are valid during the callback only. */
struct store_search_hit {
	int64_t id;           /* pages.id */
	double score;         /* higher is better */
	const char *url;      /* "" when NULL */
	const char *title;    /* NULL when none */
	enum store_verdict verdict;
	int64_t seq;
	int has_simhash;      /* pages.simhash is not NULL */
	uint64_t simhash;
	const char *declared; /* pages.canonical, NULL when none */
	int has_pagerank;     /* the ranks table has the page */
	double pagerank;
};

/* store_search_hits' result for a query the engine refuses. */
#define STORE_SEARCH_BADQUERY (-2)

/*
 * The matches of query (FTS5 syntax), best first (score, then id), from
 * the offset-th (0 first) on, at most limit: fn(hit, arg) for each until
 * it returns non-zero. Returns 0, fn's value, -1 on a database error
 * (store_conn_fail), or STORE_SEARCH_BADQUERY with why the query is
 * refused in why (FTS5's message on SQLite; on PostgreSQL the
 * translation's, before anything is run).
 */
int store_search_hits(struct store_searcher *q, const char *query,
    int64_t limit, int64_t offset,
    int (*fn)(const struct store_search_hit *h, void *arg), void *arg,
    char *why, size_t whysz);

/*
 * A snippet of page id's text for query: up to some thirty words around
 * its matched words, which STORE_SEARCH_MARK_ON and _OFF surround, or
 * its first words when none is in the text. *out is malloc'd (the
 * caller frees it), or NULL when the page is not indexed. 0, or -1 on a
 * database error or out of memory.
 */
int store_search_snippet(struct store_searcher *q, const char *query,
    int64_t id, char **out);

/*
 * Whether judged pages are missing from the index, as a database made
 * before it has them until `nearcrawl index` runs: the first or the
 * last judged page has no entry. 0 with *partial set, or -1.
 */
int store_search_partial(struct store_conn *c, int *partial);

/* Whether the ranks table has a row (`nearcrawl rank` has run). 0, or
 * -1. */
int store_search_ranked(struct store_conn *c, int *ranked);

/* The largest duplicates id, 0 when none: the rows are only ever
 * added, so an unchanged value means unchanged clusters. 0, or -1. */
int store_search_duplicates_mark(struct store_conn *c, int64_t *mark);

/* Judged pages (unique, exact, near; but those the last recrawl found
 * gone or moved) and those of them indexed. */
struct store_search_counts {
	int64_t judged;
	int64_t indexed;
	int64_t stored_text; /* judged pages with pages.text (--store-text) */
};
int store_search_counts(struct store_conn *c, struct store_search_counts *n);

/* A judged page the index lacks. */
struct store_search_todo {
	int64_t id;
	const char *url;   /* "" when NULL */
	const char *title; /* NULL when none */
	int has_text;      /* pages.text holds its body text */
};

/*
 * The judged pages without an index entry whose id is above after, in id
 * order, at most limit: fn for each until it returns non-zero. 0, fn's
 * value, or -1.
 */
int store_search_missing(struct store_conn *c, int64_t after, int64_t limit,
    int (*fn)(const struct store_search_todo *t, void *arg), void *arg);

/* Page id's stored text (pages.text): *text malloc'd (NULL when none),
 * *len its bytes. 0, or -1 on a database error or out of memory. */
int store_search_stored_text(struct store_conn *c, int64_t id, char **text,
    size_t *len);

/* store_search_add on a connection (`nearcrawl index`), inside its
 * transaction. 0, or -1. */
int store_search_put(struct store_searcher *q, int64_t id, const char *title,
    const char *text, size_t len);

/* The id of the page whose URL is url (0 when none) and when it was
 * fetched. 0, or -1. */
int store_search_page_of(struct store_searcher *q, const char *url,
    int64_t *id, double *fetched_at);

/* Index page to with page from's entry (a WARC revisit record's page:
 * the same payload, so the same title and text). 0 with *copied 1, or 0
 * when from has no entry; -1 on a database error. */
int store_search_copy(struct store_searcher *q, int64_t from, int64_t to,
    int *copied);

/*
 * Index each page missing from the index that a duplicates row of method
 * "revisit" joins to an indexed page (a WARC revisit record of
 * `nearcrawl dedup`: the same payload, so the same text) with that page's
 * entry. 0 with *n the pages indexed, or -1.
 */
int store_search_copy_revisits(struct store_conn *c, int64_t *n);

/* Roll back c's open transaction, if any: on PostgreSQL a failed
 * statement leaves it unusable. 0, or -1. */
int store_search_rollback(struct store_conn *c);

/*
 * The WARC files `nearcrawl dedup` read into this database, as it noted
 * them in meta ("dedup_file:" and the file's real path): fn for each
 * until it returns non-zero. 0, fn's value, or -1.
 */
int store_search_dedup_files(struct store_conn *c,
    int (*fn)(const char *path, void *arg), void *arg);

/*
 * query (FTS5 syntax: words, "phrases", prefix*, AND, OR, NOT, parentheses,
 * NEAR(...), column filters title: and body:) as the text of a PostgreSQL
 * tsquery into out (outsz bytes, STORE_SEARCH_TSQUERY_MAX(strlen(query))
 * is always enough): phrases become <->, a column its weight (title A,
 * body D), NEAR its words ANDed; ^ (first word of a column) has no
 * equivalent and is refused. Returns 0, or -1 with why (whysz bytes) the
 * query is refused, in FTS5's words where FTS5 refuses it too.
 */
int store_search_tsquery(const char *query, char *out, size_t outsz,
    char *why, size_t whysz);

#endif
