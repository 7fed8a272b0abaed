/*
 * store_archive: what a crawl writing WARC files keeps in the database --
 * the first response archived with each payload digest, so that a later
 * one with the same payload becomes a revisit record -- and reads a page's
 * URL back for the record that names it as an original.
 */
#include "storage/store_archive.h"
#include "storage/store_int.h"

#include <stdlib.h>
#include <string.h>

/* A column's text as an owned copy, NULL for NULL; *oom on failure. */
static char *
text_copy(struct sdb_stmt *st, int col, int *oom)
{
	const char *v = sdb_column_text(st, col);
	char *copy;

	if (v == NULL || sdb_column_type(st, col) == SDB_NULL)
		return NULL;
	if ((copy = strdup(v)) == NULL)
		*oom = 1;
	return copy;
}

int
store_payload_where(struct store *s, const char *digest,
    struct store_payload *p)
{
	struct sdb_stmt *st = s->st[ST_PAYLOAD_WHERE];
	int rc, oom = 0, where = st != NULL;

	memset(p, 0, sizeof(*p));
	p->offset = -1;
	/* An older database: where the record is was not kept. */
	if (st == NULL && (st = s->st[ST_PAYLOAD_FIND]) == NULL)
		return 0;
	if ((rc = store__step_by_key(s, st, digest)) == 1) {
		p->url = text_copy(st, 0, &oom);
		p->date = text_copy(st, 1, &oom);
		if (where) {
			p->file = text_copy(st, 2, &oom);
			if (sdb_column_type(st, 3) != SDB_NULL)
				p->offset = sdb_column_int64(st, 3);
			p->record_id = text_copy(st, 4, &oom);
		}
		/* url and date are NOT NULL in every schema. */
		if (oom || p->url == NULL || p->date == NULL) {
			store_payload_free(p);
			rc = oom ? store__fail(s, "out of memory") : 0;
		}
	}
	store__stmt_done(st);
	return rc;
}

void
store_payload_free(struct store_payload *p)
{
	free(p->url);
	free(p->date);
	free(p->file);
	free(p->record_id);
	memset(p, 0, sizeof(*p));
	p->offset = -1;
}

int
store_payload_add(struct store *s, const char *digest, const char *url,
    const char *date, const char *file, int64_t offset, const char *record_id)
{
	struct binder b;

	if (s->st[ST_PAYLOAD_ADD] == NULL)
		return store__no_table(s, ST_PAYLOAD_ADD);
	store__bind_start(&b, s->st[ST_PAYLOAD_ADD]);
	store__bind_text(&b, digest);
	store__bind_text(&b, url);
	store__bind_text(&b, date);
	store__bind_text(&b, file);
	store__bind_int(&b, offset);
	store__bind_text(&b, record_id);
	return store__exec_later(s, b.st, &b);
}

int
store_earlier_add(struct store *s, int64_t id, const struct store_earlier *e)
{
	struct binder b;

	if (s->st[ST_EARLIER_ADD] == NULL)
		return store__no_table(s, ST_EARLIER_ADD);
	store__bind_start(&b, s->st[ST_EARLIER_ADD]);
	store__bind_int(&b, id);
	store__bind_text(&b, e->relation);
	store__bind_text(&b, e->crawl);
	store__bind_text(&b, e->url);
	store__bind_text(&b, e->date);
	store__bind_text(&b, e->method);
	store__bind_double(&b, e->percent);
	return store__exec_later(s, b.st, &b);
}

int
store_page_url(struct store *s, int64_t id, char **url, double *fetched_at)
{
	struct sdb_stmt *st = s->st[ST_PAGE_URL];
	struct binder b;
	const char *u;
	int rc;

	*url = NULL;
	*fetched_at = 0;
	store__bind_start(&b, st);
	store__bind_int(&b, id);
	if ((rc = store__step_row(s, st, &b)) == 1) {
		u = sdb_column_text(st, 0);
		*fetched_at = sdb_column_double(st, 1);
		if ((*url = strdup(u != NULL ? u : "")) == NULL) {
			store__fail(s, "out of memory");
			rc = -1;
		}
	}
	store__stmt_done(st);
	return rc;
}

int64_t
store_page_by_url(struct store *s, const char *url)
{
	struct sdb_stmt *st = s->st[ST_PAGE_BY_URL];
	int64_t id = 0;
	int rc;

	if ((rc = store__step_by_key(s, st, url)) == 1)
		id = sdb_column_int64(st, 0);
	store__stmt_done(st);
	return rc < 0 ? -1 : id;
}
