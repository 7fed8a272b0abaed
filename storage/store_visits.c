/*
 * store_visits: recrawls -- a new visit queues every settled URL again,
 * a revisited page's earlier state is read back for its conditional
 * request and comparison, and what the visit found is a visits row
 * (storage/schema.sql). The rows the report reads of them are here too
 * (storage/query.h).
 */
#include "storage/query.h"
#include "storage/store_visits.h"
#include "storage/store_int.h"

#include <stdio.h>
#include <string.h>

static const char *const outcome_word[] = {
    [STORE_OUTCOME_UNCHANGED] = "unchanged",
    [STORE_OUTCOME_CHANGED] = "changed",
    [STORE_OUTCOME_GONE] = "gone",
    [STORE_OUTCOME_MOVED] = "moved",
    [STORE_OUTCOME_ERROR] = "error",
    [STORE_OUTCOME_NEW] = "new",
};

const char *
store_outcome_name(enum store_outcome o)
{
	if ((unsigned)o >= sizeof(outcome_word) / sizeof(outcome_word[0]))
		return NULL;
	return outcome_word[o];
}

int64_t
store_recrawl_start(struct store *s, int visit)
{
	char num[16];

	if (s->st[ST_RECRAWL_REQUEUE] == NULL)
		return store__no_table(s, ST_RECRAWL_REQUEUE);
	snprintf(num, sizeof(num), "%d", visit);
	if (store_meta_set(s, "visit", num) != 0 ||
	    store__exec_stmt(s, s->st[ST_RECRAWL_REQUEUE], NULL) != 0)
		return -1;
	return sdb_changes(s->db);
}

/* Copy column col of st into out (outsz bytes); "" when NULL or when it
 * does not fit (a validator cut short would match nothing). */
static void
column_copy(struct sdb_stmt *st, int col, char *out, size_t outsz)
{
	const char *v = sdb_column_text(st, col);

	out[0] = '\0';
	if (v != NULL && strlen(v) < outsz)
		memcpy(out, v, strlen(v) + 1);
}

int
store_page_prior(struct store *s, const char *url, struct store_prior *p)
{
	struct sdb_stmt *st = s->st[ST_PAGE_PRIOR];
	int rc;

	memset(p, 0, sizeof(*p));
	if (st == NULL)
		return store__no_column(s, ST_PAGE_PRIOR);
	if ((rc = store__step_by_key(s, st, url)) == 1) {
		p->id = sdb_column_int64(st, 0);
		column_copy(st, 1, p->md5, sizeof(p->md5));
		p->verdict = store_verdict_parse(sdb_column_text(st, 2));
		column_copy(st, 3, p->etag, sizeof(p->etag));
		column_copy(st, 4, p->last_modified, sizeof(p->last_modified));
	}
	store__stmt_done(st);
	return rc;
}

int
store_page_validators(
    struct store *s, int64_t id, const char *etag, const char *last_modified)
{
	struct binder b;

	if (s->st[ST_PAGE_VALIDATORS] == NULL)
		return store__no_column(s, ST_PAGE_VALIDATORS);
	store__bind_start(&b, s->st[ST_PAGE_VALIDATORS]);
	store__bind_text(&b, etag);
	store__bind_text(&b, last_modified);
	store__bind_int(&b, id);
	return store__exec_later(s, b.st, &b);
}

int
store_visit_add(struct store *s, const struct store_visit *v)
{
	struct binder b;

	if (s->st[ST_VISIT_ADD] == NULL)
		return store__no_table(s, ST_VISIT_ADD);
	store__bind_start(&b, s->st[ST_VISIT_ADD]);
	store__bind_int(&b, v->visit);
	store__bind_int(&b, v->page_id);
	store__bind_double(&b, v->fetched_at);
	store__bind_int(&b, v->status);
	store__bind_text(&b, store_outcome_name(v->outcome));
	store__bind_text(&b, v->md5);
	store__bind_text(
	    &b, v->has_verdict ? store_verdict_name(v->verdict) : NULL);
	store__bind_text(&b, v->has_was ? store_verdict_name(v->was) : NULL);
	store__bind_text(&b, v->location);
	store__bind_text(&b, v->reason);
	return store__exec_later(s, b.st, &b);
}

static int
visit_row(struct sdb_stmt *st, void *ctx)
{
	struct store__each *e = ctx;
	int (*fn)(const struct store_visit_row *, void *) = e->fn;
	struct store_visit_row r;

	r.visit = sdb_column_int64(st, 0);
	r.outcome = (const char *)sdb_column_text(st, 1);
	r.pages = sdb_column_int64(st, 2);
	return r.outcome != NULL ? fn(&r, e->arg) : 0;
}

/* Rows of sql over visits through row, none when the table is missing
 * (an older database opened read-only). */
static int
visits_each(struct store_conn *c, const char *sql,
    int (*row)(struct sdb_stmt *st, void *ctx), struct store__each *e)
{
	int have;

	if (store__table_exists(c->db, "visits", &have) != SDB_OK)
		return -1;
	return have ? store__conn_each(c, sql, row, e) : 0;
}

int
store_report_visits(struct store_conn *c,
    int (*fn)(const struct store_visit_row *r, void *arg), void *arg)
{
	struct store__each e = {(void *)fn, arg};

	return visits_each(c,
	    "SELECT visit, outcome, count(*) FROM visits "
	    "GROUP BY visit, outcome ORDER BY visit, outcome",
	    visit_row, &e);
}

static int
move_row(struct sdb_stmt *st, void *ctx)
{
	struct store__each *e = ctx;
	int (*fn)(const struct store_move_row *, void *) = e->fn;
	struct store_move_row r;

	r.visit = sdb_column_int64(st, 0);
	r.was = (const char *)sdb_column_text(st, 1);
	r.now = (const char *)sdb_column_text(st, 2);
	r.pages = sdb_column_int64(st, 3);
	return fn(&r, e->arg);
}

int
store_report_moves(struct store_conn *c,
    int (*fn)(const struct store_move_row *r, void *arg), void *arg)
{
	struct store__each e = {(void *)fn, arg};

	return visits_each(c,
	    "SELECT visit, was, verdict, count(*) FROM "
	    "visits WHERE outcome = 'changed' AND was <> verdict GROUP BY "
	    "visit, was, verdict ORDER BY visit, was, verdict",
	    move_row, &e);
}
