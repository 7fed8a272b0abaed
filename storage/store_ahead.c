/*
 * store_ahead: a shared store takes a host's next URL before the crawl
 * asks for it.
 *
 * Every statement of a shared (PostgreSQL) store is one round trip, and
 * the server answers them in the order they were sent. A take asked for
 * when a slot of the host frees waits behind the statements of the page
 * just written: measured on the 12,000-page bench, the loop spent almost
 * half its time in such waits, the server and the loop taking turns.
 * So after each take the next URL of the same host is taken at once,
 * sent ahead of the next page's writes (sdb_step_ahead), and its answer
 * is read when the host's next take comes: by then it is usually there.
 *
 * A URL taken ahead is in flight (state 1) as far as the database knows,
 * which is what a crash needs: the host's next owner queues it again.
 * While held, it is lowered in memory as a queued URL would be in the
 * table (the lowering statement only changes state-0 rows, and the
 * held row's state changed before the answer was read), and it goes
 * back to the queue when the host is given back or the crawl pauses.
 */
#include "storage/store_share.h"
#include "storage/store_int.h"
#include "storage/store_frontier.h"
#include "storage/store_pages.h"

#include <stdlib.h>
#include <string.h>

/* Lowerings a slot remembers; past them its URL is read back from the
 * table when handed out. */
#define LOWER_MAX 16

struct lowering {
	uint64_t url;   /* store_url_hash of the URL lowered */
	int dup_hops;   /* its new count */
	int64_t parent; /* and linking page */
};

struct store__ahead {
	char host[256];        /* the host taken for, "" when free */
	uint64_t sent;         /* when sent, in sends: the oldest goes first */
	struct lowering low[LOWER_MAX]; /* lowerings sent since, of host */
	int nlow;              /* ... how many */
	int overflow;          /* more than LOWER_MAX were sent */
};

int
store__ahead_init(struct store *s)
{
	int i;

	if (s->st[ST_FRONTIER_TAKE_MARK] == NULL)
		return 0; /* not shared */
	if ((s->ahead = calloc(STORE_AHEADS, sizeof(*s->ahead))) == NULL)
		return store__oom_fail(s);
	s->ahead_depth = 1;
	for (i = 0; i < STORE_AHEADS; i++)
		if (sdb_prepare(s->db, store__stmt_def[ST_FRONTIER_TAKE_MARK].pg,
		    &s->ahead_st[i]) != SDB_OK)
			return store__db_fail(s);
	return 0;
}

/* Forget it (its URL freed). */
static void
item_drop(struct store_item *it)
{
	free(it->url);
	memset(it, 0, sizeof(*it));
}

/* The slot holding host's next URL (the one sent first), or -1; *n (when
 * not NULL) the slots host holds. With host "", a free slot. */
static int
slot_of(const struct store *s, const char *host, int *n)
{
	int i, best = -1;

	if (n != NULL)
		*n = 0;
	for (i = 0; s->ahead != NULL && i < STORE_AHEADS; i++) {
		if (strcmp(s->ahead[i].host, host) != 0)
			continue;
		if (n != NULL)
			(*n)++;
		if (best < 0 || s->ahead[i].sent < s->ahead[best].sent)
			best = i;
	}
	return best;
}

int
store__ahead_send(struct store *s, const char *host, double now)
{
	struct store__ahead *a;
	struct binder b;
	int i, held;

	if (s->ahead == NULL || strlen(host) >= sizeof(a->host))
		return 0;
	slot_of(s, host, &held);
	if (held >= s->ahead_depth || (i = slot_of(s, "", NULL)) < 0)
		return 0; /* enough held, or every slot busy: takes wait */
	a = &s->ahead[i];
	store__bind_start(&b, s->ahead_st[i]);
	store__bind_text(&b, host);
	store__bind_double(&b, now);
	if (b.rc != SDB_OK) {
		store__stmt_done(b.st);
		return store__bind_fail(s, &b);
	}
	if (sdb_step_ahead(b.st) != SDB_OK) {
		store__stmt_done(b.st);
		return store__db_fail(s);
	}
	memcpy(a->host, host, strlen(host) + 1);
	a->sent = ++s->ahead_sent;
	a->nlow = 0;
	a->overflow = 0;
	return 0;
}

/* What the lowerings sent while i was held did to its URL (it). */
static int
lower(struct store *s, int i, struct store_item *it)
{
	struct store__ahead *a = &s->ahead[i];
	struct binder b;
	uint64_t h;
	int k, rc;

	if (a->overflow) {
		/* Read back, after the lowerings (statements run in order,
		 * and the lowering changes in-flight rows too). */
		store__bind_start(&b, s->st[ST_FRONTIER_HOPS]);
		store__bind_int(&b, it->id);
		if ((rc = store__step_row(s, b.st, &b)) == 1) {
			it->dup_hops = sdb_column_int(b.st, 0);
			it->parent = sdb_column_int64(b.st, 1);
		}
		store__stmt_done(b.st);
		return rc < 0 ? -1 : 0;
	}
	for (h = store_url_hash(it->url), k = 0; k < a->nlow; k++)
		if (a->low[k].url == h && a->low[k].dup_hops < it->dup_hops) {
			it->dup_hops = a->low[k].dup_hops;
			it->parent = a->low[k].parent;
		}
	return 0;
}

int
store__take_row(struct store *s, struct sdb_stmt *st, struct binder *b,
    struct store_item *it)
{
	const char *url;
	int rc;

	memset(it, 0, sizeof(*it));
	if ((rc = store__step_row(s, st, b)) == 1) {
		url = (const char *)sdb_column_text(st, 1);
		if (url == NULL || (it->url = strdup(url)) == NULL) {
			rc = store__oom_fail(s);
		} else {
			it->id = sdb_column_int64(st, 0);
			it->depth = sdb_column_int(st, 2);
			it->parent = sdb_column_int64(st, 3);
			it->tries = sdb_column_int(st, 4);
			it->dup_hops = sdb_column_int(st, 5);
		}
	}
	store__stmt_done(st);
	return rc;
}

/* Read slot i's answer into it and free the slot: 1 with a URL, 0 when
 * the host had none due, -1 on a failure. */
static int
read_slot(struct store *s, int i, struct store_item *it)
{
	int rc;

	s->ahead[i].host[0] = '\0';
	rc = store__take_row(s, s->ahead_st[i], NULL, it);
	if (rc == 1 && lower(s, i, it) != 0) {
		item_drop(it);
		rc = -1;
	}
	return rc;
}

int
store__ahead_take(struct store *s, const char *host, struct store_item *it)
{
	int i = slot_of(s, host, NULL);

	return i < 0 ? 0 : read_slot(s, i, it);
}

void
store__ahead_lowered(struct store *s, const char *host, const char *url,
    int dup_hops, int64_t parent)
{
	struct store__ahead *a;
	int i;

	for (i = 0; s->ahead != NULL && i < STORE_AHEADS; i++) {
		a = &s->ahead[i];
		if (strcmp(a->host, host) != 0)
			continue;
		if (a->nlow == LOWER_MAX) {
			a->overflow = 1;
			continue;
		}
		a->low[a->nlow].url = store_url_hash(url);
		a->low[a->nlow].dup_hops = dup_hops;
		a->low[a->nlow].parent = parent;
		a->nlow++;
	}
}

void
store_ahead_depth(struct store *s, int n)
{
	s->ahead_depth = n < 1 ? 1 : n > STORE_AHEAD_HOST ? STORE_AHEAD_HOST : n;
}

int
store_ahead_return(struct store *s, const char *host)
{
	struct store_item it;
	struct binder b;
	int i, rc;

	for (i = 0; s->ahead != NULL && i < STORE_AHEADS; i++) {
		if (s->ahead[i].host[0] == '\0' ||
		    (host != NULL && strcmp(s->ahead[i].host, host) != 0))
			continue;
		if ((rc = read_slot(s, i, &it)) < 0)
			return -1;
		if (rc == 0)
			continue;
		/* Only while the lease is ours: else the host's next owner
		 * has queued it again, and may have taken it since. */
		store__bind_start(&b, s->st[ST_AHEAD_RETURN]);
		store__bind_int(&b, it.id);
		store__bind_text(&b, s->worker);
		rc = store__exec_later(s, b.st, &b);
		item_drop(&it);
		if (rc != 0)
			return -1;
	}
	return 0;
}
