/*
 * store_share: what several processes sharing one crawl (on PostgreSQL)
 * keep in the database to work together -- heartbeats, host leases, the
 * locks that serialise verdicts, and the crawl's clock. On SQLite, one
 * process owns the file and none of this is prepared: store_shared says 0
 * and the crawl never calls the rest.
 */
#include "storage/store_share.h"
#include "storage/store_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int
store_shared(const struct store *s)
{
	return s->st[ST_SEQ_NEXT] != NULL;
}

int
store_set_worker(struct store *s, const char *name)
{
	char *copy = strdup(name);

	if (copy == NULL)
		return store__oom_fail(s);
	free(s->worker);
	s->worker = copy;
	return 0;
}

int64_t
store_pages_added(const struct store *s)
{
	return s->added;
}

int
store_is_server(const char *target)
{
	return sdb_target_is_pg(target);
}

int
store_clock(struct store *s, int64_t *seq)
{
	return store__one_int(s, s->st[ST_CLOCK_GET], NULL, seq);
}

int
store_worker_beat(struct store *s, double window, int64_t *live)
{
	struct binder b;

	store__bind_start(&b, s->st[ST_BEAT]);
	store__bind_text(&b, s->worker);
	if (store__exec_later(s, b.st, &b) != 0)
		return -1;
	store__bind_start(&b, s->st[ST_LIVE]);
	store__bind_double(&b, window);
	return store__one_int(s, b.st, &b, live);
}

int
store_lease_note(struct store *s, const char *host)
{
	struct binder b;

	store__bind_start(&b, s->st[ST_LEASE_NOTE]);
	store__bind_text(&b, host);
	if (store__exec_stmt(s, b.st, &b) != 0)
		return -1;
	return sdb_changes(s->db) > 0;
}

/* The leases st returns (host, not_before, previous owner), each to fn. */
static int
leases_to(struct store *s, struct sdb_stmt *st, struct binder *b,
    store_lease_fn fn, void *arg)
{
	struct store_lease l;
	int rc, n = 0, ret = 0;

	while ((rc = store__step_row(s, st, b)) == 1) {
		l.host = sdb_column_text(st, 0);
		l.not_before = sdb_column_double(st, 1);
		l.was = sdb_column_text(st, 2);
		if (l.host == NULL) {
			ret = store__oom_fail(s);
			break;
		}
		if ((ret = fn(&l, arg)) != 0)
			break;
		n++;
	}
	if (rc < 0)
		ret = -1;
	store__stmt_done(st);
	return ret != 0 ? ret : n;
}

int
store_lease_claim(struct store *s, double now, double expires, int max,
    int64_t cap, store_lease_fn fn, void *arg)
{
	struct binder b;

	store__bind_start(&b, s->st[ST_LEASE_CLAIM]);
	store__bind_text(&b, s->worker);
	store__bind_double(&b, expires);
	store__bind_double(&b, now);
	store__bind_int(&b, max);
	store__bind_int(&b, cap);
	return leases_to(s, b.st, &b, fn, arg);
}

int
store_lease_take(struct store *s, const char *host, double expires,
    store_lease_fn fn, void *arg)
{
	struct binder b;

	store__bind_start(&b, s->st[ST_LEASE_TAKE]);
	store__bind_text(&b, s->worker);
	store__bind_double(&b, expires);
	store__bind_text(&b, host);
	return leases_to(s, b.st, &b, fn, arg);
}

int64_t
store_lease_renew(struct store *s, double expires)
{
	struct binder b;

	store__bind_start(&b, s->st[ST_LEASE_RENEW]);
	store__bind_double(&b, expires);
	store__bind_text(&b, s->worker);
	if (store__exec_stmt(s, b.st, &b) != 0)
		return -1;
	return sdb_changes(s->db);
}

int
store_lease_owned(struct store *s, int (*fn)(const char *host, void *arg),
    void *arg)
{
	struct sdb_stmt *st = s->st[ST_LEASE_OWNED];
	struct binder b;
	const char *host;
	int rc, ret = 0;

	store__bind_start(&b, st);
	store__bind_text(&b, s->worker);
	while ((rc = store__step_row(s, st, &b)) == 1) {
		if ((host = sdb_column_text(st, 0)) == NULL) {
			ret = store__oom_fail(s);
			break;
		}
		if ((ret = fn(host, arg)) != 0)
			break;
	}
	if (rc < 0)
		ret = -1;
	store__stmt_done(st);
	return ret;
}

int
store_lease_release(struct store *s, const char *host, double not_before)
{
	struct binder b;

	if (store_ahead_return(s, host) != 0)
		return -1;
	store__bind_start(&b, s->st[ST_LEASE_RELEASE]);
	store__bind_double(&b, not_before);
	store__bind_text(&b, host);
	store__bind_text(&b, s->worker);
	return store__exec_stmt(s, b.st, &b);
}

int
store_lease_release_all(struct store *s)
{
	struct binder b;

	if (store_ahead_return(s, NULL) != 0)
		return -1;
	store__bind_start(&b, s->st[ST_LEASE_RELEASE_ALL]);
	store__bind_text(&b, s->worker);
	return store__exec_stmt(s, b.st, &b);
}

int64_t
store_work_hosts(struct store *s, int64_t cap)
{
	struct binder b;
	int64_t n;

	store__bind_start(&b, s->st[ST_WORK_HOSTS]);
	store__bind_int(&b, cap);
	return store__one_int(s, b.st, &b, &n) == 0 ? n : -1;
}

int
store_in_flight_any(struct store *s)
{
	int64_t n;

	return store__one_int(s, s->st[ST_IN_FLIGHT_ANY], NULL, &n) == 0 ? n > 0 : -1;
}

int64_t
store_host_reclaim(struct store *s, const char *host)
{
	struct binder b;

	store__bind_start(&b, s->st[ST_HOST_RECLAIM]);
	store__bind_text(&b, host);
	if (store__exec_stmt(s, b.st, &b) != 0)
		return -1;
	return sdb_changes(s->db);
}

int
store_host_queue(struct store *s, const char *host, int64_t *n)
{
	struct binder b;

	store__bind_start(&b, s->st[ST_HOST_QUEUE]);
	store__bind_text(&b, host);
	return store__one_int(s, b.st, &b, n);
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * keys folded into STORE_LOCK_SLOTS, sorted, each once, as a PostgreSQL
 * array literal "{k1,k2,...}": every process then locks in one order, so
 * none waits for another that waits for it. malloc'd, or NULL.
 */
static char *
array_of(const uint64_t *keys, size_t n)
{
	uint64_t *k = malloc(n * sizeof(*k));
	char *out = malloc(n * 22 + 3);
	size_t i, o = 0;

	if (k == NULL || out == NULL) {
		free(k);
		free(out);
		return NULL;
	}
	for (i = 0; i < n; i++)
		k[i] = keys[i] % STORE_LOCK_SLOTS;
	qsort(k, n, sizeof(*k), cmp_u64);
	out[o++] = '{';
	for (i = 0; i < n; i++)
		if (i == 0 || k[i] != k[i - 1])
			o += (size_t)sprintf(out + o, "%s%" PRIu64,
			    o > 1 ? "," : "", k[i]);
	out[o++] = '}';
	out[o] = '\0';
	free(k);
	return out;
}

int
store_verdict_lock(struct store *s, const uint64_t *keys, size_t n,
    int advisory)
{
	struct binder b;
	char *arr;
	int rc;

	if (n == 0)
		return 0;
	if ((arr = array_of(keys, n)) == NULL)
		return store__oom_fail(s);
	if (advisory) {
		store__bind_start(&b, s->st[ST_KEYS_ADVISORY]);
		store__bind_text(&b, arr);
		rc = store__exec_later(s, b.st, &b);
	} else {
		/* Sent without waiting: the caller's next statement (the
		 * clock) runs once the locks are held. */
		store__bind_start(&b, s->st[ST_KEYS_LOCK]);
		store__bind_text(&b, arr);
		rc = store__exec_later(s, b.st, &b);
	}
	free(arr);
	return rc;
}
