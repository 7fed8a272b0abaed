#include "crawler/robotscache.h"

#include <stdlib.h>
#include <string.h>

#include "storage/store_frontier.h"
#include "util/strmap.h"

/* Back-off after failed fetches stops doubling here: one hour. */
#define RETRY_MAX_S 3600.0

struct origin {
	int state;             /* enum robotscache_state */
	struct robots *rules;  /* when READY */
	double expires;        /* READY until then (Unix seconds) */
	double retry_at;       /* WAIT until then */
	int failures;          /* failed fetches in a row */
};

struct robotscache {
	struct store *st;     /* where answers persist */
	char *agent;          /* our product token */
	double retry_base_s;  /* first back-off */
	struct strmap *map;   /* origin -> struct origin */
};

static void
free_origin(void *p)
{
	struct origin *o = p;

	if (o != NULL)
		robots_free(o->rules);
	free(o);
}

struct robotscache *
robotscache_new(struct store *st, const char *agent, long retry_base_ms)
{
	struct robotscache *rc = calloc(1, sizeof(*rc));

	if (rc == NULL)
		return NULL;
	rc->st = st;
	rc->retry_base_s = (double)retry_base_ms / 1e3;
	rc->agent = strdup(agent);
	rc->map = strmap_new();
	if (rc->agent == NULL || rc->map == NULL) {
		robotscache_free(rc);
		return NULL;
	}
	return rc;
}

void
robotscache_free(struct robotscache *rc)
{
	if (rc == NULL)
		return;
	strmap_free(rc->map, free_origin);
	free(rc->agent);
	free(rc);
}

static double
backoff(const struct robotscache *rc, int failures)
{
	double s = rc->retry_base_s;

	while (--failures > 0 && s < RETRY_MAX_S)
		s *= 2;
	return s < RETRY_MAX_S ? s : RETRY_MAX_S;
}

/*
 * Turn a fetch's outcome into o's state. Returns 0, or -1 when the rules
 * cannot be allocated.
 */
static int
apply(struct robotscache *rc, struct origin *o, int status, const char *body,
    size_t len, double fetched_at, int failures)
{
	struct robots *r = NULL;

	if (status >= 200 && status < 300)
		r = robots_parse(body, len > ROBOTS_MAX_BYTES ?
		    ROBOTS_MAX_BYTES : len, rc->agent);
	else if (status >= 300 && status < 500)
		r = robots_allow_all();
	robots_free(o->rules);
	o->rules = NULL;
	o->failures = failures;
	if (status >= 200 && status < 500) {
		if (r == NULL)
			return -1;
		o->rules = r;
		o->state = ROBOTSCACHE_READY;
		o->expires = fetched_at + ROBOTSCACHE_TTL_S;
		return 0;
	}
	o->state = ROBOTSCACHE_WAIT;
	o->retry_at = fetched_at + backoff(rc, failures);
	return 0;
}

/* The entry for origin, loaded from the store when first asked for. */
static struct origin *
get(struct robotscache *rc, const char *origin, int *err)
{
	struct origin *o = strmap_get(rc->map, origin);
	struct store_robots sr;
	int found;

	*err = 0;
	if (o != NULL)
		return o;
	o = calloc(1, sizeof(*o));
	if (o == NULL || strmap_put(rc->map, origin, o) != 0) {
		free(o);
		*err = 1;
		return NULL;
	}
	o->state = ROBOTSCACHE_MISSING;
	memset(&sr, 0, sizeof(sr));
	found = store_robots_get(rc->st, origin, &sr);
	if (found < 0) {
		*err = 1;
	} else if (found == 1 &&
	    apply(rc, o, sr.status, sr.body, sr.len, sr.fetched_at,
	        sr.failures) != 0) {
		*err = 1;
	}
	store_robots_clear(&sr);
	return o;
}

int
robotscache_lookup(struct robotscache *rc, const char *origin, double now,
    const struct robots **rules, double *retry_at, int *failures)
{
	struct origin *o;
	int err;

	if ((o = get(rc, origin, &err)) == NULL || err)
		return -1;
	*failures = o->failures;
	if (o->state == ROBOTSCACHE_READY && now >= o->expires)
		o->state = ROBOTSCACHE_MISSING;
	if (o->state == ROBOTSCACHE_WAIT && now >= o->retry_at)
		o->state = ROBOTSCACHE_MISSING;
	*rules = o->rules;
	*retry_at = o->retry_at;
	return o->state;
}

int
robotscache_pending(struct robotscache *rc, const char *origin)
{
	struct origin *o;
	int err;

	if ((o = get(rc, origin, &err)) == NULL)
		return -1;
	o->state = ROBOTSCACHE_PENDING;
	return 0;
}

void
robotscache_forget(struct robotscache *rc, const char *origin)
{
	struct origin *o = strmap_get(rc->map, origin);

	if (o != NULL && o->state == ROBOTSCACHE_PENDING)
		o->state = ROBOTSCACHE_MISSING;
}

int
robotscache_result(struct robotscache *rc, const char *origin, int status,
    const char *body, size_t len, double now)
{
	struct origin *o;
	int failures, err;

	if ((o = get(rc, origin, &err)) == NULL)
		return -1;
	if (len > ROBOTS_MAX_BYTES)
		len = ROBOTS_MAX_BYTES;
	failures = status >= 200 && status < 500 ? 0 : o->failures + 1;
	if (apply(rc, o, status, body, len, now, failures) != 0)
		return -1;
	if (store_robots_put(rc->st, origin, status, body, len, now,
	        o->state == ROBOTSCACHE_READY ? o->expires : o->retry_at,
	        failures) != 0)
		return -1;
	return o->state;
}

int
robotscache_failures(const struct robotscache *rc, const char *origin)
{
	const struct origin *o = strmap_get(rc->map, origin);

	return o != NULL ? o->failures : 0;
}
