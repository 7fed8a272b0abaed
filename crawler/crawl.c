#include "crawl.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <curl/curl.h>
#include <event2/event.h>

#include "dedup.h"
#include "extract.h"
#include "fetch.h"
#include "hostsched.h"
#include "robotscache.h"
#include "sitemap.h"
#include "strmap.h"
#include "simhash.h"
#include "url.h"

/* Seconds between commits of a batch that is not full yet. */
#define COMMIT_EVERY_S 2.0
/* Seconds between progress lines. */
#define PROGRESS_EVERY_S 5.0
/* Seconds a graceful stop waits for transfers in flight. */
#define STOP_GRACE_S 5
/* Longest host name we handle (DNS allows 253). */
#define HOST_MAX 256
/* Longest origin: scheme, host, port. */
#define ORIGIN_MAX (HOST_MAX + 16)
/* Redirects followed when fetching robots.txt (RFC 9309: at least five). */
#define ROBOTS_REDIRECTS 5
/* Sitemap files read per host at most (an index may list many). */
#define SITEMAPS_PER_HOST 100
/* Longest Retry-After we wait for, seconds. */
#define RETRY_AFTER_MAX_S 3600

struct crawl {
	const struct config *cfg;
	struct store *st;
	struct dedup *dd;
	struct hostsched *sc;
	struct robotscache *rc;  /* robots.txt per origin */
	struct strmap *sitemaps; /* host -> struct sitemap_queue (--sitemaps) */
	struct fetcher *fe;
	struct event_base *base;
	struct event *wake;      /* the scheduler's next due time */
	struct event *tick;      /* progress and periodic commits */
	struct event *grace;     /* end of a graceful stop */
	struct event *sigint, *sigterm;
	struct curl_slist *resolve; /* --resolve entries for libcurl */
	char **domains;          /* crawl scope */
	size_t ndomains;
	struct store_counts n;   /* running counts */
	int64_t seq;             /* last fetch order number used */
	int64_t fetched;         /* pages fetched by this run */
	int batch;               /* pages in the open transaction */
	double last_commit;      /* monotonic ms */
	double started;          /* monotonic ms */
	double last_progress;    /* monotonic ms */
	int stopping;            /* 1 after a signal, 2 after a second one */
	int failed;              /* a run-time error ended the crawl */
	int done;                /* nothing left to do: leave the loop */
	int64_t robots_fetches;  /* robots.txt requests made by this run */
	int64_t hosts_given_up;  /* hosts retired after repeated failures */
	char *err;               /* where messages go */
	size_t errsz;
};

/* One transfer's context. */
struct job {
	struct crawl *c;
	struct store_item it;    /* the page (not for robots.txt) */
	char host[HOST_MAX];
	char origin[ORIGIN_MAX]; /* set when this fetches robots.txt */
	int sitemap;             /* this fetches a sitemap: it.url */
};

/* Sitemap files still to read for one host, taken in its own turns. */
struct sitemap_queue {
	char **url;   /* files not yet fetched, oldest first */
	size_t n;     /* entries in url */
	size_t seen;  /* files ever queued, capped at SITEMAPS_PER_HOST */
};

static void pump(struct crawl *c);
static int queue_sitemap(struct crawl *c, const char *url);
static int on_sitemap(struct crawl *c, struct job *j,
    const struct fetch_result *r);
static void queue_sitemaps_of(struct crawl *c, const char *origin);

/* A signal that came before the event loop could take signals. */
static volatile sig_atomic_t early_signal;

static void
on_early_signal(int sig)
{
	early_signal = sig;
}

static double
mono_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static double
wall_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_REALTIME, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void
fail(struct crawl *c, const char *what)
{
	if (!c->failed)
		snprintf(c->err, c->errsz, "%s: %s", what,
		    store_errmsg(c->st));
	c->failed = 1;
	c->stopping = 2;
	event_base_loopbreak(c->base);
}

static int
commit(struct crawl *c)
{
	if (store_commit(c->st) != 0 || store_begin(c->st) != 0) {
		fail(c, "cannot commit to the database");
		return -1;
	}
	c->batch = 0;
	c->last_commit = mono_ms();
	return 0;
}

/* Queue url (normalised) found on a page at depth; parent is that page. */
static int
enqueue(struct crawl *c, const char *url, int depth, int64_t parent)
{
	char host[HOST_MAX];
	int r;

	if (c->cfg->max_depth >= 0 && depth > c->cfg->max_depth)
		return 0;
	if (url_host(url, host, sizeof(host)) != 0 ||
	    !url_host_in_domains(host, c->domains, c->ndomains))
		return 0;
	r = store_frontier_add(c->st, url, host, depth, parent);
	if (r < 0)
		return -1;
	if (r == 1) {
		c->n.queued++;
		if (hostsched_add(c->sc, host, 1, 0) != 0)
			return -1;
	}
	return 0;
}

static int
says_nofollow(const char *x_robots_tag)
{
	return x_robots_tag != NULL &&
	    (strcasestr(x_robots_tag, "nofollow") != NULL ||
	        strcasestr(x_robots_tag, "none") != NULL);
}

/* Store an HTML page's text, fingerprints, verdict and links. */
static int
process_html(struct crawl *c, struct job *j, const struct fetch_result *r,
    struct store_page *p)
{
	const struct config *cfg = c->cfg;
	struct extract_opts eo;
	struct extract_result ex;
	struct dedup_fp fp;
	struct dedup_match m[3 * DEDUP_MAX_PER_METHOD];
	enum dedup_verdict v;
	char charset[64];
	const char *why = NULL;
	size_t nm = 0, i;
	int64_t id;
	int rc = -1, use_main;

	memset(&ex, 0, sizeof(ex));
	extract_charset_of(r->content_type, charset, sizeof(charset));
	eo.charset = charset[0] != '\0' ? charset : NULL;
	eo.max_text = (size_t)cfg->max_text;
	eo.max_links = (size_t)cfg->max_links;
	if (extract_html(r->body->data, r->body->len, j->it.url, &eo, &ex,
	        &why) != 0) {
		p->verdict = "error";
		p->reason = why != NULL ? why : "cannot parse HTML";
		return store_page_add(c->st, p) > 0 ? 0 : -1;
	}
	p->title = ex.title;
	p->headings = ex.headings;
	p->description = ex.description;
	p->keywords = ex.keywords;
	p->charset = ex.charset;
	p->text_bytes = (int64_t)ex.text_len;
	p->links = (int64_t)ex.nlinks;
	if (ex.text_len == 0) {
		p->verdict = "skipped";
		p->reason = "no text in body";
		rc = store_page_add(c->st, p) > 0 ? 0 : -1;
		goto out;
	}
	use_main = strcmp(cfg->near_text, "main") == 0;
	if (dedup_fingerprint_split(c->dd, ex.text, ex.text_len,
	        use_main ? ex.main_text : ex.text,
	        use_main ? ex.main_len : ex.text_len, &fp) != 0) {
		p->verdict = "error";
		p->reason = "fingerprinting failed";
		rc = store_page_add(c->st, p) > 0 ? 0 : -1;
		goto out;
	}
	v = dedup_check(c->dd, &fp, m, sizeof(m) / sizeof(m[0]), &nm);
	p->verdict = dedup_verdict_name(v);
	p->md5 = fp.md5;
	p->has_simhash = (fp.have & DEDUP_SIMHASH) != 0;
	p->simhash = fp.simhash;
	p->ssdeep = (fp.have & DEDUP_SSDEEP) ? fp.ssdeep : NULL;
	if (ex.truncated)
		p->reason = "text truncated";
	if (cfg->store_text)
		p->text = ex.text;
	if ((id = store_page_add(c->st, p)) <= 0)
		goto out;
	for (i = 0; i < nm; i++)
		if (store_duplicate_add(c->st, id, m[i].original_id,
		        dedup_method_name(m[i].method), m[i].percent) != 0)
			goto out;
	if (v != DEDUP_EXACT && dedup_add(c->dd, &fp, id) != 0)
		goto out;
	if (v == DEDUP_UNIQUE)
		c->n.unique++;
	else if (v == DEDUP_EXACT)
		c->n.exact++;
	else
		c->n.near++;
	if ((v == DEDUP_UNIQUE || cfg->follow_duplicates) && !ex.nofollow &&
	    cfg->max_links > 0 && !says_nofollow(r->x_robots_tag))
		for (i = 0; i < ex.nlinks; i++)
			if (enqueue(c, ex.links[i], j->it.depth + 1, id) != 0)
				goto out;
	rc = 0;
out:
	extract_result_free(&ex);
	return rc;
}

/* Turn one finished transfer into a pages row (and what follows from it). */
static int
process(struct crawl *c, struct job *j, const struct fetch_result *r)
{
	struct store_page p;
	char reason[160], *target = NULL;
	const char *why;
	int64_t id;
	int rc = -1;

	memset(&p, 0, sizeof(p));
	p.url = j->it.url;
	p.host = j->host;
	p.depth = j->it.depth;
	p.parent = j->it.parent;
	p.seq = ++c->seq;
	p.fetched_at = wall_s();
	p.status = (int)r->status;
	p.content_type = r->content_type;
	p.body_bytes = (int64_t)r->body->len;
	p.elapsed_ms = r->elapsed_ms;
	c->fetched++;
	if (r->code != CURLE_OK) {
		if (r->body_too_large)
			snprintf(reason, sizeof(reason),
			    "body larger than %ld bytes", c->cfg->max_body);
		else
			snprintf(reason, sizeof(reason), "transfer failed: %s",
			    r->error);
		p.verdict = "error";
		p.reason = reason;
	} else if (r->status >= 300 && r->status < 400) {
		target = r->location != NULL
		    ? url_normalize(r->location, &why) : NULL;
		p.verdict = "redirect";
		if (target == NULL) {
			p.reason = r->location == NULL
			    ? "redirect without Location" : why;
		}
		p.location = target != NULL ? target : r->location;
	} else if (r->status < 200 || r->status >= 300) {
		snprintf(reason, sizeof(reason), "HTTP status %ld",
		    r->status);
		p.verdict = "error";
		p.reason = reason;
	} else if (!extract_is_html(r->content_type, r->body->data, r->body->len)) {
		snprintf(reason, sizeof(reason), "not HTML: %.100s",
		    r->content_type != NULL ? r->content_type : "unknown type");
		p.verdict = "skipped";
		p.reason = reason;
	} else {
		rc = process_html(c, j, r, &p);
		goto done;
	}
	id = store_page_add(c->st, &p);
	if (id <= 0)
		goto out;
	if (target != NULL && enqueue(c, target, j->it.depth + 1, id) != 0)
		goto out;
	rc = 0;
done:
	if (rc == 0) {
		if (strcmp(p.verdict, "redirect") == 0)
			c->n.redirect++;
		else if (strcmp(p.verdict, "error") == 0)
			c->n.error++;
		else if (strcmp(p.verdict, "skipped") == 0)
			c->n.skipped++;
		c->n.pages++;
	}
out:
	free(target);
	return rc;
}

/* Give host up: it is never asked again in this crawl, and why is kept. */
static void
give_up(struct crawl *c, const char *host, const char *why)
{
	struct store_host h;

	hostsched_retire(c->sc, host);
	memset(&h, 0, sizeof(h));
	h.gave_up = (char *)why;
	if (store_host_put(c->st, host, &h) != 0)
		fail(c, "cannot record a host");
	c->hosts_given_up++;
	if (!c->cfg->quiet)
		fprintf(stderr, "nearcrawl: giving up %s: %s\n", host, why);
}

/* Honour a robots.txt Crawl-delay for host, up to the configured cap.
 * Returns the host's gap in ms, or -1 when the rules set none. */
static long
crawl_delay(struct crawl *c, const char *host, const struct robots *rules)
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

static void
on_robots(struct crawl *c, struct job *j, const struct fetch_result *r)
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
	c->robots_fetches++;
	st = robotscache_result(c->rc, j->origin, status,
	    r->body->data != NULL ? r->body->data : "", r->body->len,
	    wall_s());
	if (st < 0) {
		fail(c, "cannot record robots.txt");
		return;
	}
	/* The gap after robots.txt itself already obeys its Crawl-delay. */
	if (st == ROBOTSCACHE_READY &&
	    robotscache_lookup(c->rc, j->origin, wall_s(), &rules, &retry_at,
	        &failures) == ROBOTSCACHE_READY &&
	    (gap = crawl_delay(c, j->host, rules)) > 0)
		hostsched_defer(c->sc, j->host, mono_ms() + (double)gap);
	if (st == ROBOTSCACHE_READY && c->cfg->sitemaps)
		queue_sitemaps_of(c, j->origin);
	if (st == ROBOTSCACHE_WAIT &&
	    robotscache_failures(c->rc, j->origin) > c->cfg->max_retries) {
		if (status == 0)
			snprintf(why, sizeof(why), "robots.txt unreachable: %s",
			    r->error != NULL ? r->error : "no answer");
		else
			snprintf(why, sizeof(why),
			    "robots.txt answers HTTP %d", status);
		give_up(c, j->host, why);
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

	if (robotscache_lookup(c->rc, origin, wall_s(), &rules, &retry_at,
	        &failures) != ROBOTSCACHE_READY)
		return;
	n = robots_sitemaps(rules, &urls);
	for (i = 0; i < n; i++)
		if (queue_sitemap(c, urls[i]) != 0) {
			fail(c, "out of memory");
			return;
		}
}

/* A transfer failure that says something about the host, not the page. */
static int
host_trouble(CURLcode code)
{
	switch (code) {
	case CURLE_COULDNT_RESOLVE_HOST:
	case CURLE_COULDNT_CONNECT:
	case CURLE_OPERATION_TIMEDOUT:
	case CURLE_GOT_NOTHING:
	case CURLE_SEND_ERROR:
	case CURLE_RECV_ERROR:
	case CURLE_SSL_CONNECT_ERROR:
		return 1;
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
static int
retry_later(struct crawl *c, struct job *j, const struct fetch_result *r)
{
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
	if (store_frontier_requeue(c->st, j->it.id, wall_s() + secs) != 0)
		return -1;
	hostsched_defer(c->sc, j->host, mono_ms() + secs * 1e3);
	c->n.queued++;
	return hostsched_add(c->sc, j->host, 1, 0) != 0 ? -1 : 1;
}

static void
count_page(struct crawl *c, const char *host)
{
	int64_t n = hostsched_add_pages(c->sc, host, 1);

	if (c->cfg->max_pages_per_host > 0 && n >= c->cfg->max_pages_per_host)
		hostsched_retire(c->sc, host);
}

static void
on_fetched(const struct fetch_result *r, void *arg)
{
	struct job *j = arg;
	struct crawl *c = j->c;
	double now = mono_ms();
	int rc;

	hostsched_finished(c->sc, j->host, now);
	if (c->failed)
		goto out;
	if (r->code == CURLE_ABORTED_BY_CALLBACK) {
		/* Stopped by the user: ask again on resume. */
		if (j->origin[0] == '\0' && !j->sitemap &&
		    store_frontier_requeue(c->st, j->it.id, 0) != 0)
			fail(c, "cannot requeue");
		goto out;
	}
	if (host_trouble(r->code)) {
		if (hostsched_failed(c->sc, j->host, now,
		        c->cfg->retry_base_ms) >= c->cfg->host_max_failures) {
			char why[200];

			snprintf(why, sizeof(why), "%d failures in a row, "
			    "the last: %s", c->cfg->host_max_failures,
			    r->error != NULL ? r->error : "unknown");
			give_up(c, j->host, why);
		}
	} else if (r->status > 0) {
		hostsched_succeeded(c->sc, j->host);
	}
	if (j->origin[0] != '\0') {
		on_robots(c, j, r);
		goto out;
	}
	if (j->sitemap) {
		if (on_sitemap(c, j, r) != 0)
			fail(c, "cannot queue a sitemap's URLs");
		goto out;
	}
	if ((rc = retry_later(c, j, r)) != 0) {
		if (rc < 0)
			fail(c, "cannot requeue");
		goto out;
	}
	if (process(c, j, r) != 0 ||
	    store_frontier_done(c->st, j->it.id) != 0) {
		fail(c, "cannot store a page");
		goto out;
	}
	count_page(c, j->host);
	if (++c->batch >= c->cfg->batch)
		commit(c);
out:
	store_item_clear(&j->it);
	free(j);
	pump(c);
}

static int
limit_reached(const struct crawl *c)
{
	return c->cfg->max_pages > 0 &&
	    c->seq + (int64_t)fetch_active(c->fe) >= c->cfg->max_pages;
}

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
	struct sitemap_queue *q = strmap_get(c->sitemaps, host);
	char **nu;

	if (q == NULL) {
		if ((q = calloc(1, sizeof(*q))) == NULL ||
		    strmap_put(c->sitemaps, host, q) != 0) {
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
	    !url_host_in_domains(host, c->domains, c->ndomains) ||
	    ((q = strmap_get(c->sitemaps, host)) != NULL &&
	        q->seen >= SITEMAPS_PER_HOST)) {
		free(u);
		return 0;
	}
	if (sitemap_insert(c, host, u, 0) != 0) {
		free(u);
		return -1;
	}
	((struct sitemap_queue *)strmap_get(c->sitemaps, host))->seen++;
	return hostsched_add(c->sc, host, 1, 0);
}

/* Take host's next sitemap file into j, if any. Returns 1 or 0. */
static int
pop_sitemap(struct crawl *c, struct job *j)
{
	struct sitemap_queue *q = strmap_get(c->sitemaps, j->host);

	if (q == NULL || q->n == 0)
		return 0;
	j->it.url = q->url[0];
	memmove(q->url, q->url + 1, --q->n * sizeof(*q->url));
	j->sitemap = 1;
	return 1;
}

/* Return what j took to where it came from, to be taken again first. */
static int
put_back(struct crawl *c, struct job *j)
{
	if (j->sitemap) {
		if (sitemap_insert(c, j->host, j->it.url, 1) != 0)
			return -1;
		j->it.url = NULL;
		j->sitemap = 0;
		return 0;
	}
	if (store_frontier_untake(c->st, j->it.id) != 0)
		return -1;
	c->n.queued++;
	return 0;
}

/* A sitemap file arrived: queue its pages as seeds, its files as sitemaps. */
static int
on_sitemap(struct crawl *c, struct job *j, const struct fetch_result *r)
{
	struct sitemap sm;
	const char *why;
	size_t i;
	int rc = 0;

	if (r->code != CURLE_OK || r->status < 200 || r->status >= 300 ||
	    sitemap_parse(r->body->data != NULL ? r->body->data : "",
	        r->body->len, &sm, &why) != 0) {
		if (!c->cfg->quiet)
			fprintf(stderr, "nearcrawl: sitemap %s unusable\n",
			    j->it.url);
		return 0;
	}
	for (i = 0; i < sm.nurls && rc == 0; i++)
		rc = enqueue(c, sm.urls[i], 0, 0);
	for (i = 0; i < sm.nsitemaps && rc == 0; i++)
		rc = queue_sitemap(c, sm.sitemaps[i]);
	sitemap_free(&sm);
	return rc;
}

/* Settle a queued URL without asking the server (robots.txt forbids it). */
static int
record_unfetched(struct crawl *c, struct job *j, const char *reason)
{
	struct store_page p;

	memset(&p, 0, sizeof(p));
	p.url = j->it.url;
	p.host = j->host;
	p.depth = j->it.depth;
	p.parent = j->it.parent;
	p.seq = ++c->seq;
	p.fetched_at = wall_s();
	p.verdict = "skipped";
	p.reason = reason;
	if (store_page_add(c->st, &p) <= 0 ||
	    store_frontier_done(c->st, j->it.id) != 0)
		return -1;
	c->n.pages++;
	c->n.skipped++;
	hostsched_skipped(c->sc, j->host);
	count_page(c, j->host);
	if (++c->batch >= c->cfg->batch)
		commit(c);
	return 0;
}

/* Ask for origin's robots.txt, in the turn of the host j was taken for. */
static int
fetch_robots(struct crawl *c, struct job *j, const char *origin, double now)
{
	struct fetch_req req = { ROBOTS_MAX_BYTES, ROBOTS_REDIRECTS };
	char url[ORIGIN_MAX + 16];

	snprintf(j->origin, sizeof(j->origin), "%s", origin);
	snprintf(url, sizeof(url), "%s/robots.txt", origin);
	if (robotscache_pending(c->rc, origin) != 0)
		return -1;
	store_item_clear(&j->it);
	hostsched_started(c->sc, j->host, now);
	/* The page was put back: its host still has it queued. */
	if (hostsched_add(c->sc, j->host, 1, 0) != 0)
		return -1;
	return fetch_start_req(c->fe, url, &req, on_fetched, j);
}

/*
 * Decide on a URL just taken from the frontier: fetch it (returns 1), or
 * deal with it here (0): robots.txt must be fetched or waited for first,
 * or forbids the URL. -1 on a database or memory error.
 */
static int
admit(struct crawl *c, struct job *j, double now)
{
	const struct robots *rules = NULL;
	char origin[ORIGIN_MAX];
	const char *path;
	double retry_at = 0, d;
	int state, failures;

	if (url_origin(j->it.url, origin, sizeof(origin)) != 0)
		return 1;
	state = robotscache_lookup(c->rc, origin, wall_s(), &rules, &retry_at,
	    &failures);
	if (state < 0)
		return -1;
	if (state != ROBOTSCACHE_READY) {
		if (put_back(c, j) != 0)
			return -1;
		if (state == ROBOTSCACHE_MISSING)
			return fetch_robots(c, j, origin, now) != 0 ? -1 : 0;
		d = state == ROBOTSCACHE_WAIT
		    ? (retry_at - wall_s()) * 1e3 : (double)c->cfg->delay_ms;
		hostsched_defer(c->sc, j->host, now + (d > 100 ? d : 100));
		store_item_clear(&j->it);
		free(j);
		return 0;
	}
	crawl_delay(c, j->host, rules);
	path = strchr(j->it.url + strlen(origin), '/');
	if (robots_allowed(rules, path != NULL ? path : "/"))
		return 1;
	if (j->sitemap)
		hostsched_skipped(c->sc, j->host);
	else if (record_unfetched(c, j, "disallowed by robots.txt") != 0)
		return -1;
	store_item_clear(&j->it);
	free(j);
	return 0;
}

/* Start as many transfers as the limits allow; end the loop when done. */
static void
pump(struct crawl *c)
{
	struct fetch_req page_req = { (size_t)c->cfg->max_body, 0 };
	struct fetch_req sitemap_req = { SITEMAP_MAX_BYTES, ROBOTS_REDIRECTS };
	const char *host;
	double wait = -1, now;
	struct job *j;
	int r;

	while (!c->stopping &&
	    fetch_active(c->fe) < (size_t)c->cfg->concurrency &&
	    !limit_reached(c)) {
		now = mono_ms();
		host = hostsched_next(c->sc, now, &wait);
		if (host == NULL)
			break;
		j = calloc(1, sizeof(*j));
		if (j == NULL) {
			fail(c, "out of memory");
			return;
		}
		j->c = c;
		snprintf(j->host, sizeof(j->host), "%s", host);
		r = pop_sitemap(c, j) ? 1
		    : store_frontier_take(c->st, j->host, wall_s(), &j->it);
		if (r <= 0) {
			free(j);
			if (r < 0) {
				fail(c, "cannot read the frontier");
				return;
			}
			hostsched_drained(c->sc, host);
			continue;
		}
		if (!j->sitemap)
			c->n.queued--;
		if ((r = admit(c, j, now)) <= 0) {
			if (r < 0) {
				/* admit hands j on only when it succeeds. */
				store_item_clear(&j->it);
				free(j);
				fail(c, "cannot decide on robots.txt");
			}
			if (r < 0 || c->failed)
				return;
			continue;
		}
		hostsched_started(c->sc, j->host, now);
		if (fetch_start_req(c->fe, j->it.url, j->sitemap ? &sitemap_req
		        : &page_req, on_fetched, j) != 0) {
			store_item_clear(&j->it);
			free(j);
			fail(c, "cannot start a transfer");
			return;
		}
	}
	if (fetch_active(c->fe) == 0 &&
	    (c->stopping || wait < 0 || limit_reached(c))) {
		/* A break requested before the loop runs would be forgotten
		 * by libevent, hence the flag. */
		c->done = 1;
		event_base_loopbreak(c->base);
		return;
	}
	if (!c->stopping && wait > 0) {
		struct timeval tv;

		tv.tv_sec = (time_t)(wait / 1000);
		tv.tv_usec = (suseconds_t)((wait - tv.tv_sec * 1000.0) * 1000);
		evtimer_add(c->wake, &tv);
	}
}

static void
on_wake(evutil_socket_t fd, short what, void *arg)
{
	pump(arg);
}

static void
print_progress(struct crawl *c, const char *prefix)
{
	double secs = (mono_ms() - c->started) / 1e3;

	fprintf(stderr,
	    "%sfetched %lld (unique %lld, exact %lld, near %lld, other %lld)"
	    ", queued %lld, hosts busy %zu, %.1f pages/s, %.0f s\n",
	    prefix, (long long)c->fetched, (long long)c->n.unique,
	    (long long)c->n.exact, (long long)c->n.near,
	    (long long)(c->n.redirect + c->n.error + c->n.skipped),
	    (long long)c->n.queued, hostsched_busy_hosts(c->sc),
	    secs > 0 ? (double)c->fetched / secs : 0.0, secs);
}

static void
on_tick(evutil_socket_t fd, short what, void *arg)
{
	struct crawl *c = arg;
	double now = mono_ms();

	if (c->batch > 0 && now - c->last_commit >= COMMIT_EVERY_S * 1e3)
		commit(c);
	if (!c->cfg->quiet && now - c->last_progress >= PROGRESS_EVERY_S * 1e3) {
		print_progress(c, "nearcrawl: ");
		c->last_progress = now;
	}
}

static void
on_grace_over(evutil_socket_t fd, short what, void *arg)
{
	struct crawl *c = arg;

	c->stopping = 2;
	fetch_abort_all(c->fe);
	event_base_loopbreak(c->base);
}

static void
on_signal(evutil_socket_t sig, short what, void *arg)
{
	struct crawl *c = arg;
	struct timeval tv = { STOP_GRACE_S, 0 };

	if (c->stopping == 0) {
		c->stopping = 1;
		if (!c->cfg->quiet)
			fprintf(stderr, "nearcrawl: stopping: waiting for %zu "
			    "transfers (again to stop at once)\n",
			    fetch_active(c->fe));
		evtimer_add(c->grace, &tv);
		pump(c);
		return;
	}
	on_grace_over(sig, what, arg);
}

/* Compare a stored setting with ours; store it when new. */
static int
setting(struct crawl *c, const char *key, const char *value, const char *opt)
{
	char *old;
	int err = 0, rc = 0;

	old = store_meta_get(c->st, key, &err);
	if (err) {
		snprintf(c->err, c->errsz, "%s: %s", c->cfg->db,
		    store_errmsg(c->st));
		return 1;
	}
	if (old == NULL) {
		if (store_meta_set(c->st, key, value) != 0) {
			snprintf(c->err, c->errsz, "%s: %s", c->cfg->db,
			    store_errmsg(c->st));
			rc = 1;
		}
	} else if (strcmp(old, value) != 0) {
		snprintf(c->err, c->errsz,
		    "%s was crawled with %s %s; resuming with %s would mix "
		    "verdicts (use a new database)", c->cfg->db, opt, old,
		    value);
		rc = 2;
	}
	free(old);
	return rc;
}

static int
add_domain(struct crawl *c, const char *d)
{
	char **nd;
	size_t i;

	for (i = 0; i < c->ndomains; i++)
		if (strcasecmp(c->domains[i], d) == 0)
			return 0;
	nd = realloc(c->domains, (c->ndomains + 1) * sizeof(*nd));
	if (nd == NULL)
		return -1;
	c->domains = nd;
	if ((c->domains[c->ndomains] = strdup(d)) == NULL)
		return -1;
	c->ndomains++;
	return 0;
}

static char *
join_domains(const struct crawl *c)
{
	size_t i, len = 1;
	char *joined;

	for (i = 0; i < c->ndomains; i++)
		len += strlen(c->domains[i]) + 1;
	if ((joined = calloc(1, len)) == NULL)
		return NULL;
	for (i = 0; i < c->ndomains; i++) {
		if (i > 0)
			strcat(joined, " ");
		strcat(joined, c->domains[i]);
	}
	return joined;
}

/*
 * Decide the scope: --allow-domain if given (it must match what the database
 * recorded), else what the database recorded, else the seeds' hosts.
 */
static int
set_scope(struct crawl *c)
{
	const struct config *cfg = c->cfg;
	char host[HOST_MAX], *joined, *stored, *tok, *save;
	size_t i;
	int err = 0, rc;

	stored = store_meta_get(c->st, "allow_domains", &err);
	if (err) {
		snprintf(c->err, c->errsz, "%s: %s", cfg->db,
		    store_errmsg(c->st));
		return 1;
	}
	if (cfg->nallow == 0 && stored != NULL) {
		rc = 0;
		for (tok = strtok_r(stored, " ", &save); tok != NULL;
		    tok = strtok_r(NULL, " ", &save))
			if (add_domain(c, tok) != 0)
				rc = 1;
		free(stored);
		return rc;
	}
	free(stored);
	for (i = 0; i < cfg->nallow; i++)
		if (add_domain(c, cfg->allow_domains[i]) != 0)
			return 1;
	for (i = 0; cfg->nallow == 0 && i < cfg->nseeds; i++)
		if (url_host(cfg->seeds[i], host, sizeof(host)) == 0 &&
		    add_domain(c, host) != 0)
			return 1;
	if (c->ndomains == 0) {
		snprintf(c->err, c->errsz,
		    "%s: a new crawl needs at least one seed URL", cfg->db);
		return 2;
	}
	if ((joined = join_domains(c)) == NULL)
		return 1;
	rc = setting(c, "allow_domains", joined, "--allow-domain");
	free(joined);
	return rc;
}

/* Record the settings that decide verdicts, or check them on resume. */
static int
check_settings(struct crawl *c)
{
	const struct config *cfg = c->cfg;
	char methods[64] = "", num[32];
	unsigned m;
	int rc;

	for (m = DEDUP_MD5; m <= DEDUP_SSDEEP; m <<= 1)
		if (cfg->methods & m) {
			if (methods[0] != '\0')
				strcat(methods, ",");
			strcat(methods, dedup_method_name(m));
		}
	if ((rc = setting(c, "methods", methods, "--methods")) != 0)
		return rc;
	snprintf(num, sizeof(num), "%d", SIMHASH_FEATURES_VERSION);
	if ((rc = setting(c, "simhash_features", num,
	         "SimHash features version")) != 0)
		return rc;
	snprintf(num, sizeof(num), "%d", cfg->simhash_k);
	if ((cfg->methods & DEDUP_SIMHASH) &&
	    (rc = setting(c, "simhash_k", num, "--simhash-k")) != 0)
		return rc;
	snprintf(num, sizeof(num), "%d", cfg->ssdeep_threshold);
	if ((cfg->methods & DEDUP_SSDEEP) &&
	    (rc = setting(c, "ssdeep_threshold", num,
	         "--ssdeep-threshold")) != 0)
		return rc;
	snprintf(num, sizeof(num), "%ld", cfg->min_text);
	if ((rc = setting(c, "min_text_bytes", num, "--min-text-bytes")) != 0)
		return rc;
	if ((rc = setting(c, "text", cfg->near_text, "--text")) != 0)
		return rc;
	return setting(c, "near_rule", cfg->near_rule, "--near-rule");
}

static int
load_one(int64_t id, const char *md5, int has_simhash, uint64_t simhash,
    const char *ssdeep, void *arg)
{
	struct crawl *c = arg;
	struct dedup_fp fp;
	size_t nm;

	memset(&fp, 0, sizeof(fp));
	if (md5 != NULL)
		snprintf(fp.md5, sizeof(fp.md5), "%s", md5);
	if (has_simhash && (c->cfg->methods & DEDUP_SIMHASH)) {
		fp.simhash = simhash;
		fp.have |= DEDUP_SIMHASH;
	}
	if (ssdeep != NULL && (c->cfg->methods & DEDUP_SSDEEP)) {
		snprintf(fp.ssdeep, sizeof(fp.ssdeep), "%s", ssdeep);
		fp.have |= DEDUP_SSDEEP;
	}
	fp.have |= DEDUP_MD5;
	/* Exact copies were never added while crawling; mirror that. */
	if (dedup_check(c->dd, &fp, NULL, 0, &nm) == DEDUP_EXACT)
		return 0;
	return dedup_add(c->dd, &fp, id) != 0 ? -1 : 0;
}

static int
load_host(const char *host, int64_t queued, double not_before, void *arg)
{
	struct crawl *c = arg;
	double delay_ms = (not_before - wall_s()) * 1e3;
	struct store_host h;
	int found;

	memset(&h, 0, sizeof(h));
	found = store_host_get(c->st, host, &h);
	if (found < 0)
		return -1;
	if (found == 1 && h.gave_up != NULL)
		hostsched_retire(c->sc, host);
	store_host_clear(&h);
	return hostsched_add(c->sc, host, queued,
	    delay_ms > 0 ? mono_ms() + delay_ms : 0) != 0 ? -1 : 0;
}

static int
load_host_pages(const char *host, int64_t pages, void *arg)
{
	struct crawl *c = arg;

	if (hostsched_add_pages(c->sc, host, pages) < 0)
		return -1;
	if (c->cfg->max_pages_per_host > 0 &&
	    pages >= c->cfg->max_pages_per_host)
		hostsched_retire(c->sc, host);
	return 0;
}

/* Put the seeds in the frontier (before the hosts are loaded from it). */
static int
add_seeds(struct crawl *c)
{
	const struct config *cfg = c->cfg;
	const char *why;
	char host[HOST_MAX], *u;
	size_t i;
	int rc = 0;

	for (i = 0; i < cfg->nseeds && rc == 0; i++) {
		u = url_normalize(cfg->seeds[i], &why);
		if (u == NULL) {
			snprintf(c->err, c->errsz, "seed %s: %s",
			    cfg->seeds[i], why);
			return 2;
		}
		if (url_host(u, host, sizeof(host)) != 0 ||
		    !url_host_in_domains(host, c->domains, c->ndomains)) {
			snprintf(c->err, c->errsz,
			    "seed %s is outside the crawl's domains", u);
			rc = 2;
		} else if (store_frontier_add(c->st, u, host, 0, 0) < 0) {
			snprintf(c->err, c->errsz, "%s: %s", cfg->db,
			    store_errmsg(c->st));
			rc = 1;
		}
		free(u);
	}
	return rc;
}

static struct dedup *
new_dedup(const struct config *cfg)
{
	struct dedup_config dc;

	config_dedup(cfg, &dc);
	return dedup_new(&dc);
}

static int
resolve_list(struct crawl *c)
{
	struct curl_slist *l;
	size_t i;

	for (i = 0; i < c->cfg->nresolve; i++) {
		l = curl_slist_append(c->resolve, c->cfg->resolve[i]);
		if (l == NULL)
			return -1;
		c->resolve = l;
	}
	return 0;
}

/* Open the store, check settings, load state, queue the seeds. */
static int
prepare(struct crawl *c)
{
	const struct config *cfg = c->cfg;
	char msg[512], token[64];
	int rc;

	c->st = store_open(cfg->db, STORE_CREATE, msg, sizeof(msg));
	if (c->st == NULL) {
		snprintf(c->err, c->errsz, "%s", msg);
		return 2;
	}
	if (store_begin(c->st) != 0)
		goto dberr;
	if ((rc = check_settings(c)) != 0 || (rc = set_scope(c)) != 0)
		return rc;
	c->dd = new_dedup(cfg);
	c->sc = hostsched_new(cfg->per_host, cfg->delay_ms);
	if (robots_product_token(cfg->user_agent, token, sizeof(token)) != 0) {
		snprintf(c->err, c->errsz, "--user-agent %s: no product token "
		    "to match robots.txt groups with", cfg->user_agent);
		return 2;
	}
	c->rc = robotscache_new(c->st, token, cfg->retry_base_ms);
	c->sitemaps = strmap_new();
	if (c->dd == NULL || c->sc == NULL || c->rc == NULL ||
	    c->sitemaps == NULL) {
		snprintf(c->err, c->errsz, "out of memory");
		return 1;
	}
	if (store_frontier_requeue_inflight(c->st) < 0 ||
	    store_load_fingerprints(c->st, load_one, c) != 0)
		goto dberr;
	if ((rc = add_seeds(c)) != 0)
		return rc;
	if (store_host_pages(c->st, load_host_pages, c) != 0 ||
	    store_frontier_hosts(c->st, load_host, c) != 0 ||
	    store_counts(c->st, &c->n) != 0 || store_commit(c->st) != 0 ||
	    store_begin(c->st) != 0)
		goto dberr;
	c->seq = c->n.max_seq;
	if (c->n.queued == 0 && !cfg->quiet)
		fprintf(stderr, "nearcrawl: %s: nothing queued\n", cfg->db);
	return 0;
dberr:
	snprintf(c->err, c->errsz, "%s: %s", cfg->db, store_errmsg(c->st));
	return 1;
}

static int
setup_loop(struct crawl *c)
{
	const struct config *cfg = c->cfg;
	struct fetch_opts fo;
	struct timeval second = { 1, 0 };

	if (resolve_list(c) != 0 || (c->base = event_base_new()) == NULL)
		return -1;
	memset(&fo, 0, sizeof(fo));
	fo.user_agent = cfg->user_agent;
	fo.connect_timeout_ms = cfg->connect_timeout_ms;
	fo.timeout_ms = cfg->timeout_ms;
	fo.low_speed_bytes = cfg->low_speed_bytes;
	fo.low_speed_secs = cfg->low_speed_secs;
	fo.max_body = (size_t)cfg->max_body;
	fo.max_host_connections = cfg->per_host;
	fo.max_total_connections = cfg->concurrency;
	fo.resolve = c->resolve;
	c->fe = fetch_new(c->base, &fo);
	c->wake = evtimer_new(c->base, on_wake, c);
	c->tick = event_new(c->base, -1, EV_PERSIST, on_tick, c);
	c->grace = evtimer_new(c->base, on_grace_over, c);
	c->sigint = evsignal_new(c->base, SIGINT, on_signal, c);
	c->sigterm = evsignal_new(c->base, SIGTERM, on_signal, c);
	if (c->fe == NULL || c->wake == NULL || c->tick == NULL ||
	    c->grace == NULL || c->sigint == NULL || c->sigterm == NULL)
		return -1;
	if (event_add(c->tick, &second) != 0 ||
	    event_add(c->sigint, NULL) != 0 ||
	    event_add(c->sigterm, NULL) != 0)
		return -1;
	return 0;
}

static void
teardown(struct crawl *c)
{
	size_t i;

	fetch_free(c->fe);
	if (c->wake != NULL)
		event_free(c->wake);
	if (c->tick != NULL)
		event_free(c->tick);
	if (c->grace != NULL)
		event_free(c->grace);
	if (c->sigint != NULL)
		event_free(c->sigint);
	if (c->sigterm != NULL)
		event_free(c->sigterm);
	if (c->base != NULL)
		event_base_free(c->base);
	curl_slist_free_all(c->resolve);
	hostsched_free(c->sc);
	robotscache_free(c->rc);
	strmap_free(c->sitemaps, free_sitemap_queue);
	dedup_free(c->dd);
	store_close(c->st);
	for (i = 0; i < c->ndomains; i++)
		free(c->domains[i]);
	free(c->domains);
}

int
crawl_run(const struct config *cfg, struct crawl_summary *sum, char *err,
    size_t errsz)
{
	struct crawl c;
	int rc;

	memset(&c, 0, sizeof(c));
	memset(sum, 0, sizeof(*sum));
	c.cfg = cfg;
	c.err = err;
	c.errsz = errsz;
	err[0] = '\0';
	c.started = c.last_commit = c.last_progress = mono_ms();
	/* Loading a large database takes a while; Ctrl-C then must still
	 * mean "stop cleanly", not kill the process. */
	early_signal = 0;
	signal(SIGINT, on_early_signal);
	signal(SIGTERM, on_early_signal);
	if ((rc = prepare(&c)) != 0)
		goto out;
	if (setup_loop(&c) != 0) {
		snprintf(err, errsz, "cannot set up the event loop");
		rc = 1;
		goto out;
	}
	if (early_signal != 0)
		on_signal(early_signal, 0, &c);
	pump(&c);
	if (!c.done && !c.failed)
		event_base_dispatch(c.base);
	/* Transfers still running after a hard stop go back to the queue. */
	fetch_abort_all(c.fe);
	if (!c.failed && store_commit(c.st) != 0) {
		snprintf(err, errsz, "%s: %s", cfg->db, store_errmsg(c.st));
		c.failed = 1;
	}
	rc = c.failed ? 1 : 0;
	sum->interrupted = c.stopping != 0 && !c.failed;
	sum->fetched = c.fetched;
	sum->robots_fetches = c.robots_fetches;
	sum->hosts_given_up = c.hosts_given_up;
	sum->seconds = (mono_ms() - c.started) / 1e3;
	if (store_counts(c.st, &sum->counts) != 0 && rc == 0) {
		snprintf(err, errsz, "%s: %s", cfg->db, store_errmsg(c.st));
		rc = 1;
	}
out:
	if (rc != 0 && c.st != NULL)
		store_rollback(c.st);
	teardown(&c);
	return rc;
}
