/*
 * store_pages: what a crawl records of each page -- the pages and
 * duplicates rows, the link rule's lineage and fruitful marks, redirect
 * chains, the link graph -- and the counts of it all.
 */
#include "storage/store_pages.h"
#include "storage/store_int.h"
#include "storage/store_frontier.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Draw page ids ahead from the table's sequence (shared stores). */
static int
draw_ids(struct store *s)
{
	struct sdb_stmt *st = s->st[ST_PAGE_IDS];
	struct binder b;
	int n = (int)(sizeof(s->ids) / sizeof(s->ids[0])), rc;

	store__bind_start(&b, st);
	store__bind_int(&b, n);
	while (s->nids < n && (rc = store__step_row(s, st, &b)) == 1)
		/* Kept highest first: popped from the end, lowest first. */
		s->ids[n - 1 - s->nids++] = sdb_column_int64(st, 0);
	store__stmt_done(st);
	return s->nids > 0 ? 0 : store__fail(s, "no page ids drawn");
}

int64_t
store_page_add(struct store *s, const struct store_page *p)
{
	struct binder b;
	int64_t id, seq = p->seq;
	int shared = s->st[ST_SEQ_NEXT] != NULL;

	if (s->st[ST_PAGE_ADD] == NULL)
		return store__no_column(s, ST_PAGE_ADD);
	/* Shared: the next number of the whole crawl, its row locked until
	 * this transaction commits (the clock table in schema.sql), and an
	 * id drawn ahead, so that nothing waits for the insert. */
	if (shared && ((s->nids == 0 && draw_ids(s) != 0) ||
	    store__exec_later(s, s->st[ST_SEQ_NEXT], NULL) != 0))
		return -1;

	store__bind_start(&b, s->st[shared ? ST_PAGE_ADD_ID : ST_PAGE_ADD]);
	store__bind_text(&b, p->url);
	store__bind_text(&b, p->host);
	if (p->has_simhash)
		store__bind_int(&b, store__i64_of_u64(p->simhash));
	else
		store__bind_text(&b, NULL);
	store__bind_text(&b, p->md5);
	store__bind_text(&b, p->ssdeep);
	store__bind_text(&b, store_verdict_name(p->verdict));
	store__bind_text(&b, p->reason);
	store__bind_int(&b, p->status);
	store__bind_text(&b, p->content_type);
	store__bind_int(&b, p->depth);
	if (s->st[ST_SEQ_NEXT] != NULL)
		store__bind_text(&b, NULL); /* the clock's */
	else
		store__bind_int(&b, seq);
	store__bind_double(&b, p->fetched_at);
	store__bind_ref(&b, p->parent);
	store__bind_text(&b, p->location);
	store__bind_text(&b, p->title);
	store__bind_text(&b, p->headings);
	store__bind_text(&b, p->description);
	store__bind_text(&b, p->keywords);
	store__bind_text(&b, p->charset);
	store__bind_int(&b, p->body_bytes);
	store__bind_int(&b, p->text_bytes);
	store__bind_int(&b, p->links);
	store__bind_double(&b, p->elapsed_ms);
	store__bind_text(&b, p->text);
	if (p->minhash != NULL)
		store__bind_blob(&b, p->minhash, p->minhash_len);
	else
		store__bind_text(&b, NULL);
	store__bind_text(&b, p->canonical);
	store__bind_text(&b, s->worker);
	store__bind_text(&b, p->etag);
	store__bind_text(&b, p->last_modified);
	if (shared) {
		id = s->ids[--s->nids];
		store__bind_int(&b, id);
		if (store__exec_later(s, b.st, &b) != 0)
			return -1;
		s->added++;
		return id;
	}
	if (store__exec_stmt(s, b.st, &b) != 0)
		return -1;
	s->added++;
	return sdb_last_insert_id(s->db);
}

int
store_duplicate_add(struct store *s, int64_t page_id, int64_t original_id,
    const char *method, double percentage)
{
	struct binder b;

	store__bind_start(&b, s->st[ST_DUPLICATE_ADD]);
	store__bind_int(&b, page_id);
	store__bind_int(&b, original_id);
	store__bind_text(&b, method);
	store__bind_double(&b, percentage);
	return store__exec_later(s, b.st, &b);
}


int
store_fruitful_add(struct store *s, int64_t page_id)
{
	struct binder b;

	if (s->st[ST_FRUITFUL_ADD] == NULL)
		return store__no_table(s, ST_FRUITFUL_ADD);
	store__bind_start(&b, s->st[ST_FRUITFUL_ADD]);
	store__bind_int(&b, page_id);
	return store__exec_later(s, b.st, &b);
}

int
store_page_lineage(struct store *s, int64_t page_id, struct store_lineage *l)
{
	struct sdb_stmt *st = s->st[ST_LINEAGE];
	struct binder b;
	const char *v;
	int ret = -1;

	memset(l, 0, sizeof(*l));
	if (st == NULL)
		return store__no_table(s, ST_LINEAGE);
	store__bind_start(&b, st);
	store__bind_int(&b, page_id);
	if ((ret = store__step_row(s, st, &b)) != 1)
		goto out;
	ret = -1;
	l->parent = sdb_column_int64(st, 0);
	v = (const char *)sdb_column_text(st, 1);
	if (v == NULL) {
		store__oom_fail(s);
		goto out;
	}
	l->verdict = store_verdict_parse(v);
	l->unique = l->verdict == STORE_VERDICT_UNIQUE;
	l->duplicate = l->verdict == STORE_VERDICT_EXACT ||
	    l->verdict == STORE_VERDICT_NEAR;
	l->redirect = l->verdict == STORE_VERDICT_REDIRECT;
	l->fruitful = sdb_column_int(st, 2) != 0;
	ret = 1;
out:
	store__stmt_done(st);
	return ret;
}

int
store_redirect_chain(struct store *s, int64_t id, const char *url, int max,
    int *hops, int *seen)
{
	struct sdb_stmt *st = s->st[ST_REDIRECT_CHAIN];
	struct binder b;
	int rc, ret = -1;

	*hops = 0;
	*seen = 0;
	store__bind_start(&b, st);
	store__bind_int(&b, id);
	store__bind_int(&b, max);
	store__bind_text(&b, url);
	/* Aggregates: always one row. */
	if ((rc = store__step_row(s, st, &b)) == 0)
		store__db_fail(s);
	if (rc != 1)
		goto out;
	*hops = sdb_column_int(st, 0);
	*seen = sdb_column_int(st, 1);
	ret = 0;
out:
	store__stmt_done(st);
	return ret;
}

uint64_t
store_url_hash(const char *url)
{
	const unsigned char *p;
	uint64_t h = 0xcbf29ce484222325ULL;

	/* FNV-1a, then splitmix64's finaliser so every byte reaches every
	 * bit: fixed by the stored graph, never to change. */
	for (p = (const unsigned char *)url; *p != '\0'; p++) {
		h ^= *p;
		h *= 0x100000001b3ULL;
	}
	h ^= h >> 30;
	h *= 0xbf58476d1ce4e5b9ULL;
	h ^= h >> 27;
	h *= 0x94d049bb133111ebULL;
	h ^= h >> 31;
	return h;
}

int
store_links_put(struct store *s, int64_t page_id, char *const *urls,
    size_t n)
{
	struct binder b;
	unsigned char *p;
	uint64_t h;
	size_t i, need;
	int k;

	if (s->st[ST_LINKS_PUT] == NULL)
		return store__no_table(s, ST_LINKS_PUT);
	if (n == 0)
		return 0;
	if (n > STORE_LINKS_MAX)
		return store__fail(s, "%zu links: more than %d",
		    n, STORE_LINKS_MAX);
	need = n * 8;
	if (need > s->links_cap) {
		if ((p = realloc(s->links, need)) == NULL)
			return store__oom_fail(s);
		s->links = p;
		s->links_cap = need;
	}
	/* Little-endian whatever the machine, so the file travels. */
	for (i = 0, p = s->links; i < n; i++)
		for (h = store_url_hash(urls[i]), k = 0; k < 8; k++, h >>= 8)
			*p++ = (unsigned char)(h & 0xff);
	store__bind_start(&b, s->st[ST_LINKS_PUT]);
	store__bind_int(&b, page_id);
	store__bind_blob(&b, s->links, need);
	return store__exec_later(s, b.st, &b);
}

/* The field of c that counts verdict v, or NULL for an unknown one. */
static int64_t *
verdict_slot(struct store_counts *c, enum store_verdict v)
{
	switch (v) {
	case STORE_VERDICT_UNIQUE:
		return &c->unique;
	case STORE_VERDICT_EXACT:
		return &c->exact;
	case STORE_VERDICT_NEAR:
		return &c->near;
	case STORE_VERDICT_REDIRECT:
		return &c->redirect;
	case STORE_VERDICT_ERROR:
		return &c->error;
	case STORE_VERDICT_SKIPPED:
		return &c->skipped;
	default:
		return NULL;
	}
}

int
store_counts(struct store *s, struct store_counts *c)
{
	struct sdb_stmt *st;
	int64_t n, *slot;
	int rc, ret = -1;

	memset(c, 0, sizeof(*c));
	st = s->st[ST_COUNT_VERDICTS];
	while ((rc = sdb_step(st)) == SDB_ROW) {
		n = sdb_column_int64(st, 1);
		c->pages += n;
		slot = verdict_slot(c, store_verdict_parse(
		    (const char *)sdb_column_text(st, 0)));
		if (slot != NULL)
			*slot = n;
	}
	if (rc != SDB_DONE) {
		store__db_fail(s);
		goto out;
	}
	store__stmt_done(st);

	st = s->st[ST_COUNT_FRONTIER];
	while ((rc = sdb_step(st)) == SDB_ROW) {
		n = sdb_column_int64(st, 1);
		switch (sdb_column_int(st, 0)) {
		case FRONTIER_QUEUED:
			c->queued = n;
			break;
		case FRONTIER_INFLIGHT:
			c->inflight = n;
			break;
		case FRONTIER_DONE:
			c->done = n;
			break;
		default:
			break;
		}
	}
	if (rc != SDB_DONE) {
		store__db_fail(s);
		goto out;
	}
	store__stmt_done(st);

	st = NULL;
	if (store__one_int(s, s->st[ST_COUNT_DUPLICATES], NULL,
	    &c->duplicates) == -1 ||
	    store__one_int(s, s->st[ST_MAX_SEQ], NULL, &c->max_seq) == -1)
		goto out;
	ret = 0;
out:
	if (st != NULL)
		store__stmt_done(st);
	return ret;
}
