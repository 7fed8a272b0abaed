/*
 * store_frontier: the crawl's queue and what decides when a host is asked
 * again -- the meta table, the frontier, the robots.txt cache and the
 * per-host back-off.
 */
#include "storage/store_frontier.h"
#include "storage/store_int.h"
#include "storage/store_share.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int
store_meta_set(struct store *s, const char *key, const char *value)
{
	struct binder b;

	store__bind_start(&b, s->st[ST_META_SET]);
	store__bind_text(&b, key);
	store__bind_text(&b, value);
	return store__exec_stmt(s, b.st, &b);
}

char *
store_meta_get(struct store *s, const char *key, int *err)
{
	struct sdb_stmt *st = s->st[ST_META_GET];
	char *value = NULL;
	const char *v;
	int rc, failed = 1;

	rc = store__step_by_key(s, st, key);
	if (rc < 0)
		goto out;
	if (rc == 1) {
		/* value is NOT NULL: a NULL here is SQLite out of memory. */
		v = (const char *)sdb_column_text(st, 0);
		if (v == NULL || (value = strdup(v)) == NULL) {
			store__oom_fail(s);
			goto out;
		}
	}
	failed = 0;
out:
	store__stmt_done(st);
	if (err != NULL)
		*err = failed ? -1 : 0;
	return value;
}

/* Bind the insert of a frontier row. */
static void
bind_add(struct binder *b, struct store *s, const char *url, const char *host,
    int depth, int64_t parent, int dup_hops)
{
	store__bind_start(b, s->st[ST_FRONTIER_ADD]);
	store__bind_text(b, url);
	store__bind_text(b, host);
	store__bind_int(b, depth);
	store__bind_ref(b, parent);
	store__bind_int(b, dup_hops);
}

int
store_frontier_add(struct store *s, const char *url, const char *host,
    int depth, int64_t parent, int dup_hops)
{
	struct binder b;
	int64_t id;
	int known;

	if (s->st[ST_FRONTIER_ADD] == NULL || s->st[store_shared(s) ?
	    ST_FRONTIER_LOWER : ST_FRONTIER_LOWER_ID] == NULL)
		return store__no_column(s, ST_FRONTIER_ADD);
	if (store_shared(s)) {
		bind_add(&b, s, url, host, depth, parent, dup_hops);
		/* Both sent without waiting: the lowering finds nothing to
		 * lower in a row just queued with the same count. */
		if (store__exec_later(s, b.st, &b) == -1)
			return -1;
		store__bind_start(&b, s->st[ST_FRONTIER_LOWER]);
		store__bind_int(&b, dup_hops);
		store__bind_ref(&b, parent);
		store__bind_text(&b, url);
		store__ahead_lowered(s, host, url, dup_hops, parent);
		return store__exec_later(s, b.st, &b) == -1 ? -1 : 2;
	}
	/* Not shared: whether it is known is asked of memory, so the table
	 * needs no index on url (store_urls.c). */
	if ((known = store__urls_find(s, url, &id)) < 0)
		return -1;
	if (known == 0) {
		bind_add(&b, s, url, host, depth, parent, dup_hops);
		if (store__exec_stmt(s, b.st, &b) == -1)
			return -1;
		/* An older database's UNIQUE index agrees with memory, so
		 * the row is new. */
		if (sdb_changes(s->db) == 1)
			return store__urls_note(s, url,
			    sdb_last_insert_id(s->db)) == -1 ? -1 : 1;
		return store__fail(s, "frontier: %s queued but not in memory",
		    url);
	}
	store__bind_start(&b, s->st[ST_FRONTIER_LOWER_ID]);
	store__bind_int(&b, dup_hops);
	store__bind_ref(&b, parent);
	store__bind_int(&b, id);
	return store__exec_stmt(s, b.st, &b) == -1 ? -1 : 0;
}

int64_t
store_frontier_variants(struct store *s, const char *url, int64_t cap)
{
	struct sdb_stmt *st = s->st[ST_FRONTIER_VARIANTS];
	const char *q = strchr(url, '?');
	struct binder b;
	char *upper, *lower;
	size_t n;
	int64_t count = -1;
	int rc;

	if (q == NULL || cap <= 0)
		return 0;
	if (!store_shared(s))
		return store__urls_variants(s, url, cap);
	n = (size_t)(q - url) + 1;
	if (n > INT_MAX)
		return store__fail(s, "URL too long");
	if ((upper = malloc(2 * (n + 1))) == NULL)
		return store__oom_fail(s);
	lower = upper + n + 1;
	memcpy(upper, url, n);
	memcpy(lower, url, n);
	upper[n - 1] = '?' + 1;
	upper[n] = '\0';
	lower[n] = '\0';
	store__bind_start(&b, st);
	store__bind_text(&b, lower);
	store__bind_text(&b, upper);
	store__bind_int(&b, cap);
	/* An aggregate: always one row. */
	if ((rc = store__step_row(s, st, &b)) == 0)
		store__db_fail(s);
	if (rc != 1)
		goto out;
	count = sdb_column_int64(st, 0);
out:
	store__stmt_done(st);
	free(upper);
	return count;
}

int
store_frontier_known(struct store *s, const char *url)
{
	struct sdb_stmt *st = s->st[ST_FRONTIER_KNOWN];
	struct binder b;
	int64_t id;
	int ret;

	if (!store_shared(s))
		return store__urls_find(s, url, &id);
	store__bind_start(&b, st);
	store__bind_text(&b, url);
	ret = store__step_row(s, st, &b);
	store__stmt_done(st);
	return ret;
}

/* Step st, a take, for host's URLs due by now: as store__take_row. */
static int
take_row(struct store *s, struct sdb_stmt *st, const char *host, double now,
    struct store_item *it)
{
	struct binder b;

	store__bind_start(&b, st);
	store__bind_text(&b, host);
	store__bind_double(&b, now);
	return store__take_row(s, st, &b, it);
}

int
store_frontier_take(struct store *s, const char *host, double now,
    struct store_item *it)
{
	struct binder b;
	int ret, i;

	if (s->st[ST_FRONTIER_TAKE] == NULL)
		return store__no_column(s, ST_FRONTIER_TAKE);
	if (s->st[ST_FRONTIER_TAKE_MARK] != NULL) {
		/* Shared: the URL taken ahead, if one was due; none due
		 * then may be due now (the host's queue grew since). Found
		 * and marked in one statement. */
		if ((ret = store__ahead_take(s, host, it)) == 0)
			ret = take_row(s, s->st[ST_FRONTIER_TAKE_MARK], host, now,
			    it);
		/* The next ones now, ahead of this page's writes. */
		for (i = 0; ret == 1 && i < s->ahead_depth; i++)
			if (store__ahead_send(s, host, now) != 0) {
				store_item_clear(it);
				ret = -1;
			}
		return ret;
	}
	if ((ret = take_row(s, s->st[ST_FRONTIER_TAKE], host, now, it)) != 1)
		return ret;
	store__bind_start(&b, s->st[ST_FRONTIER_MARK]);
	store__bind_int(&b, it->id);
	if (store__exec_stmt(s, b.st, &b) == -1) {
		store_item_clear(it);
		return -1;
	}
	return 1;
}

int
store_frontier_done(struct store *s, int64_t id)
{
	struct binder b;

	store__bind_start(&b, s->st[ST_FRONTIER_DONE]);
	store__bind_int(&b, id);
	return store__exec_later(s, b.st, &b);
}

int
store_frontier_requeue(struct store *s, int64_t id, double not_before)
{
	struct binder b;

	store__bind_start(&b, s->st[ST_FRONTIER_REQUEUE]);
	store__bind_double(&b, not_before);
	store__bind_int(&b, id);
	return store__exec_later(s, b.st, &b);
}

int
store_frontier_untake(struct store *s, int64_t id)
{
	struct binder b;

	store__bind_start(&b, s->st[ST_FRONTIER_UNTAKE]);
	store__bind_int(&b, id);
	return store__exec_later(s, b.st, &b);
}

int64_t
store_frontier_requeue_inflight(struct store *s)
{
	if (store__exec_stmt(s, s->st[ST_FRONTIER_REQUEUE_INFLIGHT], NULL) == -1)
		return -1;
	return sdb_changes(s->db);
}

int
store_frontier_hosts(struct store *s,
    int (*fn)(const char *host, int64_t queued, double not_before, void *arg),
    void *arg)
{
	struct sdb_stmt *st = s->st[ST_FRONTIER_HOSTS];
	const char *host;
	int rc, ret = 0;

	while ((rc = sdb_step(st)) == SDB_ROW) {
		host = (const char *)sdb_column_text(st, 0);
		if (host == NULL) {
			ret = store__oom_fail(s);
			goto out;
		}
		ret = fn(host, sdb_column_int64(st, 1),
		    sdb_column_double(st, 2), arg);
		if (ret != 0)
			goto out;
	}
	if (rc != SDB_DONE)
		ret = store__db_fail(s);
out:
	store__stmt_done(st);
	return ret;
}

void
store_item_clear(struct store_item *it)
{
	if (it == NULL)
		return;
	free(it->url);
	memset(it, 0, sizeof(*it));
}

int
store_robots_put(struct store *s, const char *origin, int status,
    const char *body, size_t len, double fetched_at, double expires_at,
    int failures)
{
	struct binder b;

	if (s->st[ST_ROBOTS_PUT] == NULL)
		return store__no_table(s, ST_ROBOTS_PUT);
	if (body == NULL && len > 0)
		return store__fail(s, "robots body is NULL");
	store__bind_start(&b, s->st[ST_ROBOTS_PUT]);
	store__bind_text(&b, origin);
	store__bind_int(&b, status);
	store__bind_blob(&b, body, len);
	store__bind_double(&b, fetched_at);
	store__bind_double(&b, expires_at);
	store__bind_int(&b, failures);
	return store__exec_later(s, b.st, &b);
}

int
store_robots_get(struct store *s, const char *origin,
    struct store_robots *out)
{
	struct sdb_stmt *st = s->st[ST_ROBOTS_GET];
	const void *body;
	char *copy = NULL;
	size_t len;
	int rc, ret = -1;

	memset(out, 0, sizeof(*out));
	if (st == NULL)
		return 0;
	if ((rc = store__step_by_key(s, st, origin)) != 1) {
		ret = rc;
		goto out;
	}
	/* Blob before bytes: the size is of the value as returned. An
	 * empty blob comes back as NULL, so only NULL with bytes is OOM. */
	body = sdb_column_blob(st, 1);
	len = (size_t)sdb_column_bytes(st, 1);
	if ((body == NULL && len > 0) || (copy = malloc(len + 1)) == NULL) {
		store__oom_fail(s);
		goto out;
	}
	if (len > 0)
		memcpy(copy, body, len);
	copy[len] = '\0';
	out->status = sdb_column_int(st, 0);
	out->body = copy;
	out->len = len;
	out->fetched_at = sdb_column_double(st, 2);
	out->expires_at = sdb_column_double(st, 3);
	out->failures = sdb_column_int(st, 4);
	ret = 1;
out:
	store__stmt_done(st);
	return ret;
}

void
store_robots_clear(struct store_robots *r)
{
	if (r == NULL)
		return;
	free(r->body);
	memset(r, 0, sizeof(*r));
}

int
store_host_put(struct store *s, const char *host, const struct store_host *h)
{
	struct binder b;

	if (s->st[ST_HOST_PUT] == NULL)
		return store__no_table(s, ST_HOST_PUT);
	store__bind_start(&b, s->st[ST_HOST_PUT]);
	store__bind_text(&b, host);
	store__bind_double(&b, h->not_before);
	store__bind_int(&b, h->backoff_ms);
	store__bind_int(&b, h->failures);
	store__bind_text(&b, h->gave_up);
	return store__exec_later(s, b.st, &b);
}

int
store_host_get(struct store *s, const char *host, struct store_host *out)
{
	struct sdb_stmt *st = s->st[ST_HOST_GET];
	const char *gave_up;
	char *copy = NULL;
	int rc, ret = -1;

	memset(out, 0, sizeof(*out));
	if (st == NULL)
		return 0;
	if ((rc = store__step_by_key(s, st, host)) != 1) {
		ret = rc;
		goto out;
	}
	if (sdb_column_type(st, 3) != SDB_NULL) {
		gave_up = (const char *)sdb_column_text(st, 3);
		if (gave_up == NULL || (copy = strdup(gave_up)) == NULL) {
			store__oom_fail(s);
			goto out;
		}
	}
	out->not_before = sdb_column_double(st, 0);
	out->backoff_ms = (long)sdb_column_int64(st, 1);
	out->failures = sdb_column_int(st, 2);
	out->gave_up = copy;
	ret = 1;
out:
	store__stmt_done(st);
	return ret;
}

void
store_host_clear(struct store_host *h)
{
	if (h == NULL)
		return;
	free(h->gave_up);
	memset(h, 0, sizeof(*h));
}
