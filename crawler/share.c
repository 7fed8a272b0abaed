#include "crawler/share.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "crawler/indexload.h"
#include "storage/store_share.h"
#include "util/testhook.h"

/* Values of the owned map: held now, or held once and given back. */
static char HELD, GIVEN;

struct crawl_share {
	char worker[160];       /* pages.worker of this process */
	struct strmap *owned;   /* host -> &HELD or &GIVEN */
	size_t nheld;           /* hosts mapped to &HELD */
	struct strmap *noted;   /* hosts known to have a leases row */
	int64_t caught_up;      /* every other page up to this seq is indexed */
	int64_t added_at;       /* store_pages_added when caught_up was set */
	double next_round;      /* monotonic ms of the next lease round */
	double started;         /* monotonic ms of the first heartbeat's
	                           commit: the join wait counts from it */
	double solo_until;      /* monotonic ms until which this process may
	                           judge alone (SHARE_SOLO_MS) */
	int64_t live;           /* processes alive at the last heartbeat */
	int64_t fair;           /* hosts with work per process, last round */
};

/* This process's name: --worker, or machine:pid. */
static void
worker_name(const struct crawl *c, char *out, size_t outsz)
{
	char host[128];

	if (strcmp(c->cfg->worker, "auto") != 0) {
		snprintf(out, outsz, "%s", c->cfg->worker);
		return;
	}
	if (gethostname(host, sizeof(host)) != 0)
		snprintf(host, sizeof(host), "localhost");
	host[sizeof(host) - 1] = '\0';
	snprintf(out, outsz, "%s:%ld", host, (long)getpid());
}

int
share_start(struct crawl *c)
{
	struct crawl_share *sh;
	char name[sizeof(sh->worker)];

	/* Every crawl names its pages' judge, shared or not. */
	worker_name(c, name, sizeof(name));
	if (store_set_worker(c->st, name) != 0) {
		snprintf(c->err, c->errsz, "%s", store_errmsg(c->st));
		return 1;
	}
	if (!store_shared(c->st))
		return 0;
	if ((sh = calloc(1, sizeof(*sh))) == NULL ||
	    (sh->owned = strmap_new()) == NULL ||
	    (sh->noted = strmap_new()) == NULL) {
		c->share = sh;
		snprintf(c->err, c->errsz, "out of memory");
		return 1;
	}
	c->share = sh;
	snprintf(sh->worker, sizeof(sh->worker), "%s", name);
	/* As many URLs of a host held taken ahead as may be fetched from it
	 * at once: each slot freed finds the next one there. */
	store_ahead_depth(c->st, c->cfg->per_host);
	/* Leases under this name are left from a run that stopped without
	 * giving them back (its connection to the server was lost): nothing
	 * of theirs is in flight here, so they go back, and their hosts'
	 * next owners queue their URLs in flight again. */
	if (store_lease_release_all(c->st) != 0) {
		snprintf(c->err, c->errsz, "%s", store_errmsg(c->st));
		return 1;
	}
	/* The first heartbeat, committed before the join wait starts: no
	 * transaction is open yet, so the count that waits commits it. */
	if (store_worker_beat(c->st, SHARE_LEASE_S, &sh->live) != 0) {
		snprintf(c->err, c->errsz, "%s", store_errmsg(c->st));
		return 1;
	}
	sh->started = clock_mono_ms();
	return 0;
}

/* Count the processes alive; alone, judge alone a while. 0, or -1. */
static int
beat(struct crawl *c)
{
	struct crawl_share *sh = c->share;
	double sent = clock_mono_ms();

	if (store_worker_beat(c->st, SHARE_LEASE_S,
	    &sh->live) != 0)
		return -1;
	sh->solo_until = sh->live <= 1 ? sent + SHARE_SOLO_MS : 0;
	return 0;
}

/* Give one host back, with the time its next request may start. */
static int
give_back(struct crawl *c, const char *host)
{
	struct crawl_share *sh = c->share;
	double wall = clock_wall_s(), mono = clock_mono_ms(), next_ok;
	int64_t queued;
	int active;

	hostsched_host(c->sc, host, &queued, &active, &next_ok);
	hostsched_drained(c->sc, host);
	if (strmap_put(sh->owned, host, &GIVEN) != 0)
		return -1;
	sh->nheld--;
	return store_lease_release(c->st, host,
	    next_ok > mono ? wall + (next_ok - mono) / 1e3 : wall);
}

static void
give_back_all_fn(const char *host, void *value, void *arg)
{
	struct crawl *c = arg;

	if (value == &HELD)
		give_back(c, host);
}

void
share_end(struct crawl *c, int clean)
{
	struct crawl_share *sh = c->share;

	if (sh == NULL)
		return;
	if (clean && sh->owned != NULL && c->st != NULL) {
		/* Each with its next start, then any the map missed. */
		strmap_each(sh->owned, give_back_all_fn, c);
		if (store_lease_release_all(c->st) != 0 ||
		    store_commit(c->st) != 0 || store_begin(c->st) != 0)
			fprintf(stderr, "nearcrawl: cannot give the host leases "
			    "back (they expire in %.0f s): %s\n", SHARE_LEASE_S,
			    store_errmsg(c->st));
	}
	strmap_free(sh->owned, NULL);
	strmap_free(sh->noted, NULL);
	free(sh);
	c->share = NULL;
}

/* A host just leased: its URLs a dead owner had in flight are queued
 * again, and the scheduler learns its queue and when it may start. */
static int
on_claim(const struct store_lease *l, void *arg)
{
	struct crawl *c = arg;
	struct crawl_share *sh = c->share;
	const char *host = l->host;
	double wall = clock_wall_s(), due;
	struct store_host h;
	int64_t queued;
	int found, rc = -1;

	if (store_host_reclaim(c->st, host) < 0 ||
	    store_host_queue(c->st, host, &queued) != 0)
		return -1;
	memset(&h, 0, sizeof(h));
	if ((found = store_host_get(c->st, host, &h)) < 0)
		return -1;
	if (strmap_put(sh->owned, host, &HELD) != 0)
		goto out;
	sh->nheld++;
	/* The gap its last owner left, its back-off, and, taken over from
	 * an owner whose lease ran out, one gap from now: it may have died
	 * just after asking. */
	due = l->not_before;
	if (found == 1 && h.not_before > due)
		due = h.not_before;
	if (l->was != NULL && wall + c->cfg->delay_ms / 1e3 > due)
		due = wall + c->cfg->delay_ms / 1e3;
	if (found == 1 && h.gave_up != NULL)
		hostsched_retire(c->sc, host);
	else
		rc = hostsched_add(c->sc, host, queued, due > wall ?
		    clock_mono_ms() + (due - wall) * 1e3 : 0);
	crawl_count_queued(c, queued);
out:
	store_host_clear(&h);
	return rc;
}

/* Forget the hosts a renewal found gone; keep the rest. */
static void
mark_given(const char *host, void *value, void *arg)
{
	struct crawl *c = arg;

	if (value == &HELD) {
		hostsched_drained(c->sc, host);
		strmap_put(c->share->owned, host, &GIVEN);
		c->share->nheld--;
	}
}

static int
mark_held(const char *host, void *arg)
{
	struct crawl *c = arg;

	if (strmap_put(c->share->owned, host, &HELD) != 0)
		return -1;
	c->share->nheld++;
	return 0;
}

/* Hosts held with work (queued or in flight) are kept up to keep; the
 * others are given back, at once when nothing of theirs is in flight,
 * else drained (no new request) to be given back the next round. */
struct sweep {
	struct crawl *c;
	size_t keep;  /* hosts with work to keep at most */
	size_t kept;  /* hosts with work kept */
	int rc;
};

static void
sweep_fn(const char *host, void *value, void *arg)
{
	struct sweep *w = arg;
	int64_t queued;
	int active;
	double next_ok;

	if (value != &HELD || w->rc != 0)
		return;
	hostsched_host(w->c->sc, host, &queued, &active, &next_ok);
	if (queued > 0 && w->kept < w->keep) {
		w->kept++;
		return;
	}
	if (active > 0) {
		hostsched_drained(w->c->sc, host);
		return;
	}
	if (give_back(w->c, host) != 0)
		w->rc = -1;
}

/* What a claim returned, kept to be handed on in host order. */
struct claims {
	struct store_lease *l;
	size_t n, cap;
};

static int
keep_claim(const struct store_lease *l, void *arg)
{
	struct claims *k = arg;
	struct store_lease *grown;

	if (k->n == k->cap) {
		k->cap = k->cap ? 2 * k->cap : 16;
		if ((grown = realloc(k->l, k->cap * sizeof(*grown))) == NULL)
			return -1;
		k->l = grown;
	}
	k->l[k->n].host = strdup(l->host);
	k->l[k->n].was = l->was != NULL ? strdup(l->was) : NULL;
	k->l[k->n].not_before = l->not_before;
	if (k->l[k->n].host == NULL || (l->was != NULL && k->l[k->n].was == NULL))
		return -1;
	k->n++;
	return 0;
}

static int
by_host(const void *a, const void *b)
{
	return strcmp(((const struct store_lease *)a)->host,
	    ((const struct store_lease *)b)->host);
}

/* Claim up to max hosts and hand them to the scheduler by name, the order
 * a single process's resume reads its hosts in. The hosts claimed, or -1. */
static int
claim_sorted(struct crawl *c, double wall, int max)
{
	struct claims k = { NULL, 0, 0 };
	size_t i;
	int rc;

	rc = store_lease_claim(c->st, wall, wall + SHARE_LEASE_S, max,
	    c->cfg->max_pages_per_host, keep_claim, &k);
	if (rc >= 0) {
		if (k.n > 1)
			qsort(k.l, k.n, sizeof(*k.l), by_host);
		for (i = 0; i < k.n && rc >= 0; i++)
			if (on_claim(&k.l[i], c) != 0)
				rc = -1;
	}
	for (i = 0; i < k.n; i++) {
		free((char *)k.l[i].host);
		free((char *)k.l[i].was);
	}
	free(k.l);
	return rc;
}

int
share_round(struct crawl *c, int force)
{
	struct crawl_share *sh = c->share;
	double now = clock_mono_ms(), wall = clock_wall_s();
	struct sweep w;
	int64_t renewed, work;
	int64_t fair;
	int claimed = 0;

	if (sh == NULL || (!force && now < sh->next_round))
		return 0;
	sh->next_round = now + SHARE_ROUND_MS;
	if (beat(c) != 0 ||
	    (renewed = store_lease_renew(c->st, wall + SHARE_LEASE_S)) < 0)
		goto fail;
	if ((size_t)renewed != sh->nheld) {
		/* A lease ran out (this process stalled) and another took
		 * the host: hold exactly what the database says. */
		strmap_each(sh->owned, mark_given, c);
		/* URLs taken ahead go back where the lease is still ours;
		 * the lost hosts' next owner has queued theirs again. */
		if (store_ahead_return(c->st, NULL) != 0 ||
		    store_lease_owned(c->st, mark_held, c) != 0)
			goto fail;
	}
	if ((work = store_work_hosts(c->st,
	    c->cfg->max_pages_per_host)) < 0)
		goto fail;
	fair = sh->live > 0 ? (work + sh->live - 1) / sh->live : work;
	memset(&w, 0, sizeof(w));
	w.c = c;
	w.keep = (size_t)(fair > 0 ? fair : 0);
	strmap_each(sh->owned, sweep_fn, &w);
	if (w.rc != 0)
		goto fail;
	sh->fair = fair;
	if ((int64_t)w.kept < fair && now - sh->started >= SHARE_JOIN_MS) {
		claimed = claim_sorted(c, wall, (int)(fair - (int64_t)w.kept));
		if (claimed < 0)
			goto fail;
	}
	/* Leases are for others to see at once, not with the next page. */
	if (crawl_commit(c) != 0)
		return -1;
	return claimed;
fail:
	crawl_fail(c, "cannot share the crawl with the other processes");
	return -1;
}

int
share_queued(struct crawl *c, const char *host)
{
	struct crawl_share *sh = c->share;
	int fresh, took;

	if (strmap_get(sh->noted, host) == NULL) {
		if ((fresh = store_lease_note(c->st, host)) < 0 ||
		    strmap_put(sh->noted, host, sh) != 0)
			return -1;
		/* A host nobody knew: this process takes it at once while
		 * under its share, as a lone crawl would start on it. */
		if (fresh && clock_mono_ms() - sh->started >= SHARE_JOIN_MS &&
		    (sh->live <= 1 || (int64_t)sh->nheld < sh->fair)) {
			took = store_lease_take(c->st, host, clock_wall_s() +
			    SHARE_LEASE_S, on_claim, c);
			if (took != 0)
				return took < 0 ? -1 : 2;
		}
	}
	return strmap_get(sh->owned, host) == &HELD;
}

/* Sleep to the next multiple of tick ms of the system clock (a test hook:
 * processes on one machine then judge at the same moments). */
static void
wait_tick(long tick)
{
	struct timespec ts;
	long long ms;

	clock_gettime(CLOCK_REALTIME, &ts);
	ms = (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
	usleep((useconds_t)((tick - ms % tick) * 1000));
}

int
share_before_judge(struct crawl *c, const struct digest *g)
{
	struct crawl_share *sh = c->share;
	uint64_t keys[DEDUP_LOCK_KEYS_MAX];
	struct store_span sp;
	int64_t clock, mine;
	size_t n;

	/* The page's transaction starts here and takes its keys first: it
	 * then holds no other lock another page's transaction could want
	 * while it waits for them. */
	if (crawl_commit(c) != 0)
		return -1;
	/* Alone: nobody else judges, so nothing to lock or read. */
	if (clock_mono_ms() >= sh->solo_until && beat(c) != 0)
		return -1;
	if (clock_mono_ms() < sh->solo_until)
		return 0;
	n = dedup_lock_keys(c->dd, &g->fp, keys, DEDUP_LOCK_KEYS_MAX);
	if (n > DEDUP_LOCK_KEYS_MAX)
		n = DEDUP_LOCK_KEYS_MAX; /* cannot be: the bound is a maximum */
	if (store_verdict_lock(c->st, keys, n, !c->cfg->row_locks) != 0 ||
	    store_clock(c->st, &clock) != 0)
		return -1;
	/* Every page up to the clock is committed; those not ours since the
	 * last look go into the indexes, unless all of them are ours. */
	mine = store_pages_added(c->st) - sh->added_at;
	if (clock - sh->caught_up > mine) {
		sp.after = sh->caught_up;
		sp.upto = clock;
		sp.skip = sh->worker;
		if (indexload_span(c, &sp) != 0)
			return -1;
	}
	sh->caught_up = clock;
	sh->added_at = store_pages_added(c->st);
	crawl_seq_past(c, clock);
	if (testhook_judge_tick_ms() > 0)
		wait_tick(testhook_judge_tick_ms());
	return 0;
}

int
share_load(struct crawl *c)
{
	struct store_span sp = { 0, 0, "" };

	if (store_clock(c->st, &sp.upto) != 0 || indexload_span(c, &sp) != 0)
		return -1;
	c->share->caught_up = sp.upto;
	c->share->added_at = store_pages_added(c->st);
	return 0;
}

int
share_idle(struct crawl *c)
{
	int64_t work;
	int r;

	/* A URL taken ahead counts as in flight, and nothing here will ask
	 * for it now (no host has work due): back to the queue first. */
	if (store_ahead_return(c->st, NULL) != 0 || crawl_commit(c) != 0)
		return -1;
	/* Holding nothing, look for hosts at every call, not once a round. */
	if ((r = share_round(c, c->share->nheld == 0)) != 0)
		return r < 0 ? -1 : 0;
	/* Nothing in flight, then no work: a page's links are committed
	 * with its done mark, so once none is in flight, whatever work its
	 * page made is there to count (the round's count, taken before,
	 * could have missed it). */
	if ((r = store_in_flight_any(c->st)) != 0)
		return r < 0 ? -1 : 0;
	if ((work = store_work_hosts(c->st, c->cfg->max_pages_per_host)) < 0)
		return -1;
	return work == 0;
}
