#include "crawler/polite.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "crawler/frontier.h"
#include "util/esc.h"

static int queue_sitemap(struct crawl *c, const char *url);
static void queue_sitemaps_of(struct crawl *c, const char *origin);
static void free_sitemap_queue(void *p);

int
polite_open(struct crawl *c)
{
	const struct config *cfg = c->cfg;
	char token[64];

	if (robots_product_token(cfg->user_agent, token, sizeof(token)) != 0) {
		snprintf(c->err, c->errsz, "--user-agent %s: no product token "
		    "to match robots.txt groups with", cfg->user_agent);
		return 2;
	}
	c->polite.rc = robotscache_new(c->st, token, cfg->retry_base_ms);
	c->polite.sitemaps = strmap_new();
	if (c->polite.rc == NULL || c->polite.sitemaps == NULL) {
		snprintf(c->err, c->errsz, "out of memory");
		return 1;
	}
	return 0;
}

void
polite_close(struct crawl *c)
{
	robotscache_free(c->polite.rc);
	c->polite.rc = NULL;
	strmap_free(c->polite.sitemaps, free_sitemap_queue);
	c->polite.sitemaps = NULL;
}

/* Give host up: it is never asked again in this crawl, and why is kept. */
void
polite_give_up(struct crawl *c, const char *host, const char *why)
{
	struct store_host h;

	hostsched_retire(c->sc, host);
	memset(&h, 0, sizeof(h));
	h.gave_up = (char *)why;
	if (store_host_put(c->st, host, &h) != 0)
		crawl_fail(c, "cannot record a host");
	c->polite.hosts_given_up++;
	crawl_note_failure(c, host, why);
	crawl_end_progress(c);
	if (!c->cfg->quiet) {
		/* why quotes curl, which may quote the server. */
		fputs("nearcrawl: giving up ", stderr);
		esc_fputs(host, stderr);
		fputs(": ", stderr);
		esc_fputs(why, stderr);
		putc('\n', stderr);
	}
}

/*
 * Hold host back for secs (Retry-After or back-off after failures in a
 * row) and remember it in the store, so a resumed crawl keeps waiting.
 */
void
polite_hold_host(struct crawl *c, const char *host, double secs,
    int failures, const char *why)
{
	struct store_host h;
	char until[16];
	time_t t = (time_t)(clock_wall_s() + secs);
	struct tm tm;

	if (why != NULL && !c->cfg->quiet) {
		crawl_end_progress(c);
		strftime(until, sizeof(until), "%H:%M:%S",
		    localtime_r(&t, &tm));
		fputs("nearcrawl: ", stderr);
		esc_fputs(host, stderr);
		fprintf(stderr, ": holding back %.*f s, until %s: ",
		    secs < 10 ? 1 : 0, secs, until);
		/* why quotes curl, which may quote the server. */
		esc_fputs(why, stderr);
		putc('\n', stderr);
	}

	hostsched_defer(c->sc, host, clock_mono_ms() + secs * 1e3);
	memset(&h, 0, sizeof(h));
	h.not_before = clock_wall_s() + secs;
	h.backoff_ms = (long)(secs * 1e3);
	h.failures = failures;
	if (store_host_put(c->st, host, &h) != 0)
		crawl_fail(c, "cannot record a host's back-off");
}

/* Honour a robots.txt Crawl-delay for host, up to the configured cap.
 * Returns the host's gap in ms, or -1 when the rules set none. */
static long
apply_crawl_delay(struct crawl *c, const char *host, const struct robots *rules)
{
	double d = robots_crawl_delay(rules);
	long ms;

	if (d < 0)
		return -1;
	ms = d * 1e3 < (double)c->cfg->max_crawl_delay_ms
	    ? (long)(d * 1e3) : c->cfg->max_crawl_delay_ms;
	hostsched_set_delay(c->sc, host, ms);
	return ms;
}

void
polite_on_robots(struct crawl *c, struct job *j, const struct fetch_result *r)
{
	const struct robots *rules;
	double retry_at;
	long gap;
	int failures;
	char why[160];
	int status, st;

	if (r->code == CURLE_OK || (r->body_too_large && r->status >= 200 &&
	                               r->status < 300))
		status = (int)r->status;
	else if (r->code == CURLE_TOO_MANY_REDIRECTS)
		status = 399; /* RFC 9309: treat as unavailable, allow all */
	else
		status = 0;
	c->polite.robots_fetches++;
	st = robotscache_result(c->polite.rc, j->origin, status,
	    r->body->data != NULL ? r->body->data : "", r->body->len,
	    clock_wall_s());
	if (st < 0) {
		crawl_fail(c, "cannot record robots.txt");
		return;
	}
	/* The gap after robots.txt itself already obeys its Crawl-delay. */
	if (st == ROBOTSCACHE_READY &&
	    robotscache_lookup(c->polite.rc, j->origin, clock_wall_s(), &rules,
	        &retry_at, &failures) == ROBOTSCACHE_READY &&
	    (gap = apply_crawl_delay(c, j->host, rules)) > 0)
		hostsched_defer(c->sc, j->host, clock_mono_ms() + (double)gap);
	if (st == ROBOTSCACHE_READY && c->cfg->sitemaps)
		queue_sitemaps_of(c, j->origin);
	if (st == ROBOTSCACHE_WAIT &&
	    robotscache_failures(c->polite.rc, j->origin) >
	        c->cfg->max_retries) {
		if (status == 0)
			snprintf(why, sizeof(why), "robots.txt unreachable: %s",
			    r->error != NULL ? r->error : "no answer");
		else
			snprintf(why, sizeof(why),
			    "robots.txt answers HTTP %d", status);
		polite_give_up(c, j->host, why);
	}
}

/* --sitemaps: queue the sitemap files origin's robots.txt lists. */
static void
queue_sitemaps_of(struct crawl *c, const char *origin)
{
	const struct robots *rules;
	const char **urls;
	double retry_at;
	size_t i, n;
	int failures;

	if (robotscache_lookup(c->polite.rc, origin, clock_wall_s(), &rules,
	        &retry_at, &failures) != ROBOTSCACHE_READY)
		return;
	n = robots_sitemaps(rules, &urls);
	for (i = 0; i < n; i++)
		if (queue_sitemap(c, urls[i]) != 0) {
			crawl_fail(c, "out of memory");
			return;
		}
}

/*
 * A transfer failure that says something about the host, not the page: it
 * cannot be reached, or drops the connection. A page that answers too
 * slowly or not at all once asked is that URL's trouble: it is recorded
 * as an error and the host's other pages go on without a pause.
 */
int
polite_host_trouble(const struct fetch_result *r)
{
	switch (r->code) {
	case CURLE_COULDNT_RESOLVE_HOST:
	case CURLE_COULDNT_CONNECT:
	case CURLE_GOT_NOTHING:
	case CURLE_SEND_ERROR:
	case CURLE_RECV_ERROR:
	case CURLE_SSL_CONNECT_ERROR:
		return 1;
	case CURLE_OPERATION_TIMEDOUT:
		return !r->connected;
	default:
		return 0;
	}
}

/*
 * 429 and 503 ask us to come back later: the URL goes back to the queue
 * (Retry-After, else exponential back-off) and the whole host waits, for
 * max_retries tries. Returns 1 when requeued, 0 when the page is to be
 * recorded, -1 on a database error.
 */
int
polite_retry_later(struct crawl *c, struct job *j, const struct fetch_result *r)
{
	char why[64];
	double secs;
	int i;

	if (r->code != CURLE_OK || (r->status != 429 && r->status != 503) ||
	    j->it.tries >= c->cfg->max_retries)
		return 0;
	if (r->retry_after > 0) {
		secs = r->retry_after < RETRY_AFTER_MAX_S ? r->retry_after
		                                          : RETRY_AFTER_MAX_S;
	} else {
		secs = (double)c->cfg->retry_base_ms / 1e3;
		for (i = 0; i < j->it.tries; i++)
			secs *= 2;
	}
	if (store_frontier_requeue(c->st, j->it.id, clock_wall_s() + secs) != 0)
		return -1;
	snprintf(why, sizeof(why), "HTTP %ld, %s", r->status,
	    r->retry_after > 0 ? "as Retry-After asks" : "back-off");
	polite_hold_host(c, j->host, secs, 0, why);
	crawl_count_queued(c, 1);
	return hostsched_add(c->sc, j->host, 1, 0) != 0 ? -1 : 1;
}

/* strmap free function of c->polite.sitemaps. */
static void
free_sitemap_queue(void *p)
{
	struct sitemap_queue *q = p;
	size_t i;

	if (q == NULL)
		return;
	for (i = 0; i < q->n; i++)
		free(q->url[i]);
	free(q->url);
	free(q);
}

/* Insert url (taken over) at position at of host's sitemap queue. */
static int
sitemap_insert(struct crawl *c, const char *host, char *url, int front)
{
	struct sitemap_queue *q = strmap_get(c->polite.sitemaps, host);
	char **nu;

	if (q == NULL) {
		if ((q = calloc(1, sizeof(*q))) == NULL ||
		    strmap_put(c->polite.sitemaps, host, q) != 0) {
			free(q);
			return -1;
		}
	}
	if ((nu = realloc(q->url, (q->n + 1) * sizeof(*nu))) == NULL)
		return -1;
	q->url = nu;
	if (front) {
		memmove(q->url + 1, q->url, q->n * sizeof(*q->url));
		q->url[0] = url;
	} else {
		q->url[q->n] = url;
	}
	q->n++;
	return 0;
}

/* Queue a sitemap file named by robots.txt or a sitemap index, if it is in
 * scope and its host has not read too many. */
static int
queue_sitemap(struct crawl *c, const char *url)
{
	struct sitemap_queue *q;
	const char *why;
	char host[HOST_MAX], *u;

	if ((u = url_normalize(url, &why)) == NULL)
		return 0;
	if (url_host(u, host, sizeof(host)) != 0 ||
	    !urlfilter_host_in_domains(host, c->scope.domains,
	        c->scope.ndomains) ||
	    ((q = strmap_get(c->polite.sitemaps, host)) != NULL &&
	        q->seen >= SITEMAPS_PER_HOST)) {
		free(u);
		return 0;
	}
	if (sitemap_insert(c, host, u, 0) != 0) {
		free(u);
		return -1;
	}
	((struct sitemap_queue *)strmap_get(c->polite.sitemaps, host))->seen++;
	return hostsched_add(c->sc, host, 1, 0);
}

/* Take host's next sitemap file into j, if any. Returns 1 or 0. */
int
polite_pop_sitemap(struct crawl *c, struct job *j)
{
	struct sitemap_queue *q = strmap_get(c->polite.sitemaps, j->host);

	if (q == NULL || q->n == 0)
		return 0;
	j->it.url = q->url[0];
	memmove(q->url, q->url + 1, --q->n * sizeof(*q->url));
	j->kind = JOB_SITEMAP;
	return 1;
}

/* Return what j took to where it came from, to be taken again first. */
static int
put_back(struct crawl *c, struct job *j)
{
	if (j->kind == JOB_SITEMAP) {
		if (sitemap_insert(c, j->host, j->it.url, 1) != 0)
			return -1;
		j->it.url = NULL;
		return 0;
	}
	if (store_frontier_untake(c->st, j->it.id) != 0)
		return -1;
	crawl_count_queued(c, 1);
	return 0;
}

/* Queue sm's pages as seeds and its files as sitemaps. 0 or -1. */
static int
seed_from(struct crawl *c, const struct sitemap *sm)
{
	size_t i;
	int rc = 0;

	for (i = 0; i < sm->nurls && rc == 0; i++)
		rc = frontier_add(c, sm->urls[i], 0, 0, 0);
	for (i = 0; i < sm->nsitemaps && rc == 0; i++)
		rc = queue_sitemap(c, sm->sitemaps[i]);
	return rc;
}

/* A sitemap file arrived: queue its pages as seeds, its files as sitemaps. */
int
polite_on_sitemap(struct crawl *c, struct job *j, const struct fetch_result *r)
{
	struct sitemap sm;
	const char *why;
	int rc;

	if (r->code != CURLE_OK || r->status < 200 || r->status >= 300 ||
	    sitemap_parse(r->body->data != NULL ? r->body->data : "",
	        r->body->len, &sm, &why) != 0) {
		crawl_end_progress(c);
		if (!c->cfg->quiet) {
			fputs("nearcrawl: sitemap ", stderr);
			esc_fputs(j->it.url, stderr);
			fputs(" unusable\n", stderr);
		}
		return 0;
	}
	rc = seed_from(c, &sm);
	sitemap_free(&sm);
	return rc;
}

int
polite_seed_sitemap(struct crawl *c, const struct fetch_result *r,
    size_t *nurls, size_t *nmaps)
{
	struct sitemap sm;
	const char *why;
	int rc;

	*nurls = *nmaps = 0;
	if (r->body->len == 0 ||
	    sitemap_parse(r->body->data, r->body->len, &sm, &why) != 0)
		return 0;
	rc = seed_from(c, &sm);
	*nurls = sm.nurls;
	*nmaps = sm.nsitemaps;
	sitemap_free(&sm);
	if (rc != 0)
		return -1;
	return *nurls + *nmaps > 0;
}

/*
 * Turn j (whose URL went back to the queue) into the fetch of origin's
 * robots.txt, in the turn of the host j was taken for. 0 or -1.
 */
static int
robots_job(struct crawl *c, struct job *j, const char *origin)
{
	j->kind = JOB_ROBOTS;
	snprintf(j->origin, sizeof(j->origin), "%s", origin);
	if (robotscache_pending(c->polite.rc, origin) != 0)
		return -1;
	store_item_clear(&j->it);
	/* The page was put back: its host still has it queued. */
	return hostsched_add(c->sc, j->host, 1, 0);
}

/*
 * Decide on a URL just taken from the frontier: fetch it, fetch robots.txt
 * first, or deal with it here (robots.txt must be waited for, or forbids
 * the URL). Returns an enum polite_admit, or -1 on a database or memory
 * error.
 */
int
polite_admit(struct crawl *c, struct job *j, double now)
{
	const struct robots *rules = NULL;
	char origin[ORIGIN_MAX];
	const char *path;
	double retry_at = 0, d;
	int state, failures;

	/* Queued before a resume changed the patterns. */
	if ((state = frontier_drop_excluded(c, j)) != 0) {
		if (state < 0)
			return -1;
		store_item_clear(&j->it);
		free(j);
		return POLITE_DONE;
	}
	if (url_origin(j->it.url, origin, sizeof(origin)) != 0)
		return POLITE_FETCH;
	state = robotscache_lookup(c->polite.rc, origin, clock_wall_s(), &rules,
	    &retry_at, &failures);
	if (state < 0)
		return -1;
	if (state != ROBOTSCACHE_READY) {
		if (put_back(c, j) != 0)
			return -1;
		if (state == ROBOTSCACHE_MISSING)
			return robots_job(c, j, origin) != 0 ? -1 : POLITE_ROBOTS;
		d = state == ROBOTSCACHE_WAIT
		    ? (retry_at - clock_wall_s()) * 1e3 : (double)c->cfg->delay_ms;
		hostsched_defer(c->sc, j->host, now + (d > 100 ? d : 100));
		store_item_clear(&j->it);
		free(j);
		return POLITE_DONE;
	}
	apply_crawl_delay(c, j->host, rules);
	path = strchr(j->it.url + strlen(origin), '/');
	if (robots_allowed(rules, path != NULL ? path : "/"))
		return POLITE_FETCH;
	if (j->kind == JOB_SITEMAP)
		hostsched_skipped(c->sc, j->host);
	else if (frontier_settle_unfetched(c, j, "disallowed by robots.txt") != 0)
		return -1;
	store_item_clear(&j->it);
	free(j);
	return POLITE_DONE;
}
