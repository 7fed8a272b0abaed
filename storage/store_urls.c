/*
 * store_urls: the frontier's URLs in memory, for a store no other process
 * shares (SQLite).
 *
 * Whether a URL is queued already used to be a lookup in the frontier's
 * UNIQUE index on url, and every URL queued an insert into it at a random
 * key: at a million pages those inserts rewrote a B-tree leaf each, most
 * of the bytes the crawl wrote (docs/performance.md). Now every URL's row
 * id is filed in memory under its 64-bit hash (util/keymap: 8 bytes a
 * slot, 11-16 a URL), the frontier table is only appended to, and a new
 * database has no index on url. A hash that matches is checked against the
 * row's URL, so the answer is exact. For --max-query-variants the URLs
 * with a query are also counted by their part up to the '?', under its
 * 64-bit hash (two such parts share one with odds of about n * n / 2^65
 * for n of them; they would then count together).
 *
 * Built from the frontier table at the first use (a resume reads every
 * row once), dropped after a rollback and built again from what the file
 * holds, so it never knows a URL the database does not.
 */
#include "storage/store_int.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "util/keymap.h"
#include "util/seen.h"

/* A query part's count. */
struct base {
	uint64_t hash; /* of the URL up to and with its '?' */
	int64_t n;     /* URLs queued with it; 0: a free slot */
};

struct store__urls {
	struct keymap ids;  /* frontier row ids by URL hash */
	struct base *base;  /* open addressing, at most 3/4 full */
	size_t nbase;       /* slots, a power of two (0 before the first) */
	size_t base_filled; /* slots in use */
};

static uint64_t
url_hash(const char *url, size_t len)
{
	return seen_hash(url, len);
}

/* The count slot of hash: its own, or the free one it would take. */
static struct base *
base_slot(struct base *base, size_t nbase, uint64_t hash)
{
	size_t i;

	/* A power of two, so the mask is the modulo. */
	assert(nbase > 0 && (nbase & (nbase - 1)) == 0);
	i = (size_t)hash & (nbase - 1);
	while (base[i].n != 0 && base[i].hash != hash)
		i = (i + 1) & (nbase - 1);
	return &base[i];
}

/* Count one more URL with the query part of hash. 0, or -1. */
static int
base_count(struct store__urls *u, uint64_t hash)
{
	struct base *b, *nb;
	size_t i, n;

	if (4 * (u->base_filled + 1) > 3 * u->nbase) {
		n = u->nbase == 0 ? 256 : 2 * u->nbase;
		if ((nb = calloc(n, sizeof(*nb))) == NULL)
			return -1;
		for (i = 0; i < u->nbase; i++)
			if (u->base[i].n != 0)
				*base_slot(nb, n, u->base[i].hash) = u->base[i];
		free(u->base);
		u->base = nb;
		u->nbase = n;
	}
	/* At most 3/4 full, so base_slot finds a free slot. */
	assert(4 * (u->base_filled + 1) <= 3 * u->nbase);
	b = base_slot(u->base, u->nbase, hash);
	if (b->n == 0) {
		b->hash = hash;
		u->base_filled++;
	}
	b->n++;
	return 0;
}

/* Most URLs the set holds: its table at most 3/4 full. */
#define MAX_URLS (KEYMAP_MAX_SLOTS / 4 * 3)

/* Why note failed, into s->err; -1. */
static int
note_fail(struct store *s)
{
	if (s->urls != NULL && keymap_count(&s->urls->ids) >= MAX_URLS)
		return store__fail(s, "frontier: more than %zu URLs queued, "
		    "more than memory keeps track of", (size_t)MAX_URLS);
	return store__oom_fail(s);
}

/* File url as row id. 0, or -1 (out of memory, or full). */
static int
note(struct store__urls *u, const char *url, int64_t id)
{
	const char *q = strchr(url, '?');

	if (keymap_put(&u->ids, url_hash(url, strlen(url)), id) != 0)
		return -1;
	return q == NULL ? 0 : base_count(u, url_hash(url, (size_t)(q - url) + 1));
}

void
store__urls_drop(struct store *s)
{
	if (s->urls == NULL)
		return;
	keymap_free(&s->urls->ids);
	free(s->urls->base);
	free(s->urls);
	s->urls = NULL;
}

/* Build the set from the frontier table, unless it is there. 0, or -1. */
static int
ready(struct store *s)
{
	struct sdb_stmt *st = s->st[ST_FRONTIER_URLS];
	const char *url;
	int rc, ret = 0;

	if (s->urls != NULL)
		return 0;
	if ((s->urls = calloc(1, sizeof(*s->urls))) == NULL)
		return store__oom_fail(s);
	keymap_init(&s->urls->ids);
	while ((rc = sdb_step(st)) == SDB_ROW) {
		/* url is NOT NULL: a NULL here is SQLite out of memory. */
		if ((url = sdb_column_text(st, 1)) == NULL) {
			ret = store__oom_fail(s);
			break;
		}
		if (note(s->urls, url, sdb_column_int64(st, 0)) != 0) {
			ret = note_fail(s);
			break;
		}
	}
	if (ret == 0 && rc != SDB_DONE)
		ret = store__db_fail(s);
	store__stmt_done(st);
	if (ret != 0)
		store__urls_drop(s);
	return ret;
}

int
store__urls_find(struct store *s, const char *url, int64_t *id)
{
	struct sdb_stmt *st = s->st[ST_FRONTIER_URL_OF];
	struct keymap_iter it;
	struct binder b;
	const char *got;
	int64_t cand;
	int rc;

	if (ready(s) != 0)
		return -1;
	keymap_find(&s->urls->ids, url_hash(url, strlen(url)), &it);
	while (keymap_next(&it, &cand)) {
		store__bind_start(&b, st);
		store__bind_int(&b, cand);
		rc = store__step_row(s, st, &b);
		got = rc == 1 ? sdb_column_text(st, 0) : NULL;
		rc = rc < 0 ? -1 : got != NULL && strcmp(got, url) == 0;
		store__stmt_done(st);
		if (rc != 0) {
			*id = cand;
			return rc;
		}
	}
	return 0;
}

int
store__urls_note(struct store *s, const char *url, int64_t id)
{
	/* Not built (or dropped): when it is, it reads this row too. */
	if (s->urls == NULL)
		return 0;
	if (note(s->urls, url, id) != 0) {
		note_fail(s);
		/* Half noted is worse than not at all: build it again. */
		store__urls_drop(s);
		return -1;
	}
	return 0;
}

int64_t
store__urls_variants(struct store *s, const char *url, int64_t cap)
{
	const char *q = strchr(url, '?');
	const struct base *b;

	if (q == NULL || cap <= 0)
		return 0;
	if (ready(s) != 0)
		return -1;
	if (s->urls->nbase == 0)
		return 0;
	b = base_slot(s->urls->base, s->urls->nbase,
	    url_hash(url, (size_t)(q - url) + 1));
	return b->n < cap ? b->n : cap;
}
