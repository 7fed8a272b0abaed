#include "crawler/loop.h"
#include "crawler/earlier.h"
#include "crawler/frontier.h"
#include "crawler/judge.h"
#include "crawler/page.h"
#include "crawler/polite.h"
#include "crawler/reconnect.h"
#include "crawler/revisit.h"
#include "crawler/setup.h"
#include "crawler/share.h"
#include "crawler/warcout.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <signal.h>
#include <unistd.h>

#include "util/fdlimit.h"
#include "util/testhook.h"

/*
 * File descriptors a transfer may hold: its socket, or while libcurl
 * resolves its host name the resolver's pair of sockets.
 */
#define FDS_PER_TRANSFER 2
/*
 * Descriptors kept free beyond those open when the transfers are sized:
 * what opens later -- the next WARC file and its index while the last is
 * closed, libcurl's CA bundle and its own wake-up pair, a reconnection to
 * the database server -- with room to spare.
 */
#define FD_MARGIN 16
/* A pause after running out of descriptors with no transfer in flight:
 * none of ours holds one, so waiting for a transfer to end cannot help. */
#define FD_PAUSE_MS 1000.0

static void pump(struct crawl *c);
static void on_fetched(const struct fetch_result *r, void *arg);

/* A SIGINT or SIGTERM: from on_early_signal before the event loop takes
 * signals (and between runs, while the database is away), or from
 * on_signal. */
static volatile sig_atomic_t stop_signal;

static void
on_early_signal(int sig)
{
	stop_signal = sig;
}

/* A page is settled: its queue entry is done, and it counts. */
static void
settle_page(struct crawl *c, struct job *j)
{
	if (store_frontier_done(c->st, j->it.id) != 0) {
		crawl_fail(c, "cannot store a page");
		return;
	}
	crawl_batch_page(c);
}

/* The pool hands back a page it extracted and fingerprinted. */
static void
on_worked(void *arg)
{
	struct job *j = arg;
	struct crawl *c = j->c;

	if (!c->end.failed) {
		if ((j->kind == JOB_REVISIT ? revisit_record_work(c, j)
		                            : page_record_work(c, j)) != 0)
			crawl_fail(c, "cannot store a page");
		else
			settle_page(c, j);
	}
	crawl_job_free(j);
	pump(c);
}

/* A page the pool never handed back (a hard stop): ask again on resume. */
static void
on_unworked(void *arg)
{
	struct job *j = arg;

	if (!j->c->end.failed)
		store_frontier_requeue(j->c->st, j->it.id, 0);
	crawl_job_free(j);
}

/*
 * j's transfer found no file descriptor to open: the crawler's trouble,
 * not the server's. What it was for is fetched again later (no error row,
 * no try counted, no back-off); fewer transfers run at once from now on,
 * so that the ones in flight leave room; with none in flight, nothing
 * starts for FD_PAUSE_MS. Said once. 0, or -1 on a database error.
 */
static int
fd_shortage(struct crawl *c, struct job *j, double now)
{
	size_t active = fetch_active(c->loop.fe);
	size_t cap = active > 1 ? active - active / 4 : 1;

	if (cap < c->loop.max_transfers)
		c->loop.max_transfers = cap;
	if (active == 0)
		c->loop.fd_pause_until = now + FD_PAUSE_MS;
	if (!c->loop.fd_said && !c->cfg->quiet) {
		crawl_end_progress(c);
		fprintf(stderr, "nearcrawl: out of file descriptors with %zu "
		    "transfers open: at most %zu at once from now on; the URLs "
		    "that met it are fetched again (`ulimit -n' allows more)\n",
		    active + 1, c->loop.max_transfers);
	}
	c->loop.fd_said = 1;
	return polite_put_back(c, j);
}

/* Whether no transfer may start yet after running out of descriptors;
 * *wait is then the milliseconds left. */
static int
fd_paused(const struct crawl *c, double *wait)
{
	double left = c->loop.fd_pause_until - clock_mono_ms();

	if (left <= 0)
		return 0;
	*wait = left;
	return 1;
}

/* A transfer ended: hand it to the part it was for. */
static void
on_fetched(const struct fetch_result *r, void *arg)
{
	struct job *j = arg;
	struct crawl *c = j->c;
	double now = clock_mono_ms();
	int rc;

	hostsched_finished(c->sc, j->host, now);
	if (c->end.failed)
		goto out;
	if (r->code == CURLE_ABORTED_BY_CALLBACK) {
		/* Stopped by the user: ask again on resume. */
		if ((j->kind == JOB_PAGE || j->kind == JOB_REVISIT) &&
		    store_frontier_requeue(c->st, j->it.id, 0) != 0)
			crawl_fail(c, "cannot requeue");
		goto out;
	}
	if (r->no_descriptors) {
		if (fd_shortage(c, j, now) != 0)
			crawl_fail(c, "cannot requeue");
		goto out;
	}
	if (polite_host_trouble(r)) {
		double held_ms;
		int failures = hostsched_failed(c->sc, j->host, now,
		    c->cfg->retry_base_ms, &held_ms);

		/* A host that never worked (a dead seed, a mistyped
		 * name) fails at once: waiting 30, 60, 120, 240 s on it
		 * looks like a hang. */
		int first = !hostsched_worked(c->sc, j->host);
		int last = first || failures >= c->cfg->host_max_failures;
		char why[256];

		snprintf(why, sizeof(why), "failure %d of %d in a row before "
		    "giving up: %s", failures, c->cfg->host_max_failures,
		    r->error != NULL ? r->error : "unknown");
		polite_hold_host(c, j->host, held_ms / 1e3, failures,
		    last ? NULL : why);
		if (last && first)
			snprintf(why, sizeof(why), "no answer on first "
			    "contact: %s", r->error != NULL ? r->error :
			    "unknown");
		else if (last)
			snprintf(why, sizeof(why), "%d failures in a row, "
			    "the last: %s", c->cfg->host_max_failures,
			    r->error != NULL ? r->error : "unknown");
		if (last)
			polite_give_up(c, j->host, why);
	} else if (r->status > 0) {
		hostsched_succeeded(c->sc, j->host);
	}
	if (c->warc != NULL && warcout_fetch(c, j, r) != 0)
		goto out;
	switch (j->kind) {
	case JOB_ROBOTS:
		polite_on_robots(c, j, r);
		goto out;
	case JOB_SITEMAP:
		if (polite_on_sitemap(c, j, r) != 0)
			crawl_fail(c, "cannot queue a sitemap's URLs");
		goto out;
	case JOB_PAGE:
	case JOB_REVISIT:
		break;
	}
	if ((rc = polite_retry_later(c, j, r)) != 0) {
		if (rc < 0)
			crawl_fail(c, "cannot requeue");
		goto out;
	}
	/* Counted now, not once stored: the host's next transfer may start
	 * while this page is still in the pool. */
	crawl_count_page(c, j->host);
	if ((rc = page_intake(c, j, r)) == 0)
		rc = j->kind == JOB_REVISIT ? revisit_process(c, j, r)
		                            : page_process(c, j, r);
	if (rc < 0) {
		crawl_fail(c, "cannot store a page");
		goto out;
	}
	if (rc == 1) {
		/* The pool has it now; on_worked follows. */
		pump(c);
		return;
	}
	settle_page(c, j);
out:
	crawl_job_free(j);
	pump(c);
}

/* Pages fetching or being worked on. */
static size_t
in_flight(const struct crawl *c)
{
	return fetch_active(c->loop.fe) + workpool_pending(c->loop.pool);
}

static int
limit_reached(const struct crawl *c)
{
	return c->cfg->max_pages > 0 &&
	    crawl_limit_counted(c) + (int64_t)in_flight(c) >= c->cfg->max_pages;
}

/*
 * Start j's transfer: robots.txt of j->origin, a sitemap file or a page
 * (in a recrawl, a page the crawl had becomes a revisit here). The one
 * place the crawl starts transfers. 0, or -1 (j is the caller's).
 */
static int
start_transfer(struct crawl *c, struct job *j, double now)
{
	struct fetch_req page_req = { .max_body = (size_t)c->cfg->max_body };
	struct fetch_req sitemap_req = { .max_body = SITEMAP_MAX_BYTES,
	    .max_redirects = ROBOTS_REDIRECTS };
	/* RFC 9309: read at least 500 KiB, whatever length is declared. */
	struct fetch_req robots_req = { .max_body = ROBOTS_MAX_BYTES,
	    .max_redirects = ROBOTS_REDIRECTS, .cut = 1 };
	char robots_url[ORIGIN_MAX + 16];
	const struct fetch_req *req = &page_req;
	const char *url = j->it.url;

	switch (j->kind) {
	case JOB_ROBOTS:
		snprintf(robots_url, sizeof(robots_url), "%s/robots.txt",
		    j->origin);
		url = robots_url;
		req = &robots_req;
		break;
	case JOB_SITEMAP:
		req = &sitemap_req;
		break;
	case JOB_PAGE:
		if (revisit_request(c, j, &page_req) != 0)
			return -1;
		break;
	case JOB_REVISIT:
		break;
	}
	hostsched_started(c->sc, j->host, now);
	return fetch_start_req(c->loop.fe, url, req, on_fetched, j);
}

/* Start as many transfers as the limits allow; end the loop when done. */
static void
pump(struct crawl *c)
{
	const char *host;
	double wait = -1, now;
	struct job *j;
	int r;

	while (!c->end.stopping && in_flight(c) < (size_t)c->cfg->concurrency &&
	    fetch_active(c->loop.fe) < c->loop.max_transfers &&
	    !fd_paused(c, &wait) && !limit_reached(c)) {
		now = clock_mono_ms();
		host = hostsched_next(c->sc, now, &wait);
		if (host == NULL)
			break;
		j = calloc(1, sizeof(*j));
		if (j == NULL) {
			crawl_fail(c, "out of memory");
			return;
		}
		j->c = c;
		j->kind = JOB_PAGE;
		snprintf(j->host, sizeof(j->host), "%s", host);
		r = polite_pop_sitemap(c, j) ? 1
		    : store_frontier_take(c->st, j->host, clock_wall_s(), &j->it);
		crawl_count_store(c, clock_mono_ms() - now);
		if (r <= 0) {
			free(j);
			if (r < 0) {
				crawl_fail(c, "cannot read the frontier");
				return;
			}
			hostsched_drained(c->sc, host);
			continue;
		}
		if (j->kind != JOB_SITEMAP)
			crawl_count_queued(c, -1);
		/* Shared: the entry is taken for all to see at once; held
		 * uncommitted, it would stall another page's transaction. */
		if (c->share != NULL && j->kind != JOB_SITEMAP &&
		    crawl_commit(c) != 0) {
			crawl_job_free(j);
			return;
		}
		if ((r = polite_admit(c, j, now)) == POLITE_DONE) {
			if (c->end.failed)
				return;
			continue;
		}
		if (r < 0) {
			/* admit hands j on only when it succeeds. */
			store_item_clear(&j->it);
			free(j);
			crawl_fail(c, "cannot decide on robots.txt");
			return;
		}
		if (start_transfer(c, j, now) != 0) {
			crawl_job_free(j);
			crawl_fail(c, "cannot start a transfer");
			return;
		}
	}
	if (in_flight(c) == 0 && wait < 0 && !c->end.stopping &&
	    !limit_reached(c) && c->share != NULL) {
		/* Shared: done only when the whole crawl is; else look again
		 * soon (a host freed, or a page of another process's). */
		if ((r = share_idle(c)) < 0) {
			crawl_fail(c, "cannot share the crawl");
			return;
		}
		if (r == 0) {
			struct timeval soon = { 0, 250000 };

			evtimer_add(c->loop.wake, &soon);
			return;
		}
	}
	if (in_flight(c) == 0 &&
	    (c->end.stopping || wait < 0 || limit_reached(c))) {
		/* A break requested before the loop runs would be forgotten
		 * by libevent, hence the flag. */
		c->loop.done = 1;
		event_base_loopbreak(c->loop.base);
		return;
	}
	if (!c->end.stopping && wait > 0) {
		struct timeval tv;

		tv.tv_sec = (time_t)(wait / 1000);
		tv.tv_usec = (suseconds_t)((wait - tv.tv_sec * 1000.0) * 1000);
		evtimer_add(c->loop.wake, &tv);
	}
}

static void
on_wake(evutil_socket_t fd, short what, void *arg)
{
	pump(arg);
}

static void
on_tick(evutil_socket_t fd, short what, void *arg)
{
	struct crawl *c = arg;
	double now = clock_mono_ms();

	if (c->db.batch > 0 && now - c->db.last_commit >= COMMIT_EVERY_S * 1e3)
		crawl_commit(c);
	if (c->share != NULL && !c->end.stopping && !c->end.failed &&
	    share_round(c, 0) > 0)
		pump(c);
	crawl_progress(c, now);
}

static void
on_grace_over(evutil_socket_t fd, short what, void *arg)
{
	struct crawl *c = arg;

	crawl_stop(c, 1);
	fetch_abort_all(c->loop.fe);
	event_base_loopbreak(c->loop.base);
}

static void
on_signal(evutil_socket_t sig, short what, void *arg)
{
	struct crawl *c = arg;
	struct timeval tv = { STOP_GRACE_S, 0 };

	stop_signal = (sig_atomic_t)sig;
	if (c->end.stopping == 0) {
		crawl_stop(c, 0);
		crawl_end_progress(c);
		if (!c->cfg->quiet)
			fprintf(stderr, "nearcrawl: stopping: waiting for %zu "
			    "transfers (again to stop at once)\n",
			    fetch_active(c->loop.fe));
		evtimer_add(c->loop.grace, &tv);
		pump(c);
		return;
	}
	on_grace_over(sig, what, arg);
}

int
loop_threads(const struct config *cfg)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	if (cfg->threads >= 0)
		return cfg->threads;
	if (n < 1)
		return 1;
	return n > WORKPOOL_MAX_THREADS ? WORKPOOL_MAX_THREADS : (int)n;
}

/* The --resolve entries as libcurl wants them, in c->loop.resolve. */
static int
resolve_list(struct crawl *c)
{
	struct curl_slist *l;
	size_t i;

	for (i = 0; i < c->cfg->nresolve; i++) {
		l = curl_slist_append(c->loop.resolve, c->cfg->resolve[i]);
		if (l == NULL)
			return -1;
		c->loop.resolve = l;
	}
	return 0;
}

int
loop_open(struct crawl *c, workpool_done_fn worked, event_callback_fn stop)
{
	c->loop.threads = loop_threads(c->cfg);
	if (c->loop.threads > 0)
		extract_init_threads();
	if ((c->loop.base = event_base_new()) == NULL ||
	    (c->loop.pool = workpool_new(c->loop.base, c->loop.threads,
	        worked)) == NULL ||
	    (c->loop.sigint = evsignal_new(c->loop.base, SIGINT, stop, c)) ==
	        NULL ||
	    (c->loop.sigterm = evsignal_new(c->loop.base, SIGTERM, stop, c)) ==
	        NULL ||
	    event_add(c->loop.sigint, NULL) != 0 ||
	    event_add(c->loop.sigterm, NULL) != 0)
		return -1;
	return 0;
}

void
loop_close_pool(struct crawl *c, void (*drop)(void *arg))
{
	crawl_count_cpu(c);
	workpool_free(c->loop.pool, drop);
	c->loop.pool = NULL;
}

/*
 * How many transfers may run at once: --concurrency, or fewer when the
 * file descriptors would not do. The soft limit is raised to the hard one
 * first; what is open now (the database, the archive, the event loop,
 * the worker pool, stdio) and FD_MARGIN are kept, the rest shared at
 * FDS_PER_TRANSFER each. A lower cap is said once.
 */
static void
cap_transfers(struct crawl *c)
{
	long limit = fdlimit_raise(), open = fdlimit_open_count(), room;

	c->loop.max_transfers = (size_t)c->cfg->concurrency;
	if (testhook_max_transfers() > 0) {
		if (testhook_max_transfers() < c->cfg->concurrency)
			c->loop.max_transfers =
			    (size_t)testhook_max_transfers();
		return;
	}
	if (limit < 0)
		return;
	/* Unknown: as many as a crawl with an archive holds by now. */
	if (open < 0)
		open = 24;
	room = (limit - open - FD_MARGIN) / FDS_PER_TRANSFER;
	if (room < 1)
		room = 1;
	if (room >= c->cfg->concurrency)
		return;
	c->loop.max_transfers = (size_t)room;
	if (!c->cfg->quiet)
		fprintf(stderr, "nearcrawl: --concurrency %d: at most %ld "
		    "transfers at once: the process may open %ld file "
		    "descriptors (`ulimit -n'), %ld are open and a transfer "
		    "needs up to %d\n", c->cfg->concurrency, room, limit, open,
		    FDS_PER_TRANSFER);
}

/* What a crawl adds to loop_open: the fetcher and the timers. */
static int
setup_loop(struct crawl *c)
{
	const struct config *cfg = c->cfg;
	struct fetch_opts fo;
	struct timeval second = { 1, 0 };

	if (resolve_list(c) != 0 || loop_open(c, on_worked, on_signal) != 0)
		return -1;
	cap_transfers(c);
	memset(&fo, 0, sizeof(fo));
	fo.user_agent = cfg->user_agent;
	fo.connect_timeout_ms = cfg->connect_timeout_ms;
	fo.timeout_ms = cfg->timeout_ms;
	fo.low_speed_bytes = cfg->low_speed_bytes;
	fo.low_speed_secs = cfg->low_speed_secs;
	fo.max_body = (size_t)cfg->max_body;
	fo.max_host_connections = cfg->per_host;
	fo.max_total_connections = (long)c->loop.max_transfers;
	fo.resolve = c->loop.resolve;
	/* "none" is the settings' word for libcurl's own default. */
	fo.cacert = strcmp(cfg->cacert, "none") != 0 ? cfg->cacert : NULL;
	fo.capath = strcmp(cfg->capath, "none") != 0 ? cfg->capath : NULL;
	fo.proxy = strcmp(cfg->proxy, "none") != 0 ? cfg->proxy : NULL;
	fo.insecure = cfg->insecure;
	fo.record = c->warc != NULL;
	if (cfg->insecure)
		fputs(FETCH_INSECURE_WARNING, stderr);
	c->loop.fe = fetch_new(c->loop.base, &fo);
	c->loop.wake = evtimer_new(c->loop.base, on_wake, c);
	c->loop.tick = event_new(c->loop.base, -1, EV_PERSIST, on_tick, c);
	c->loop.grace = evtimer_new(c->loop.base, on_grace_over, c);
	if (c->loop.fe == NULL || c->loop.wake == NULL ||
	    c->loop.tick == NULL || c->loop.grace == NULL)
		return -1;
	if (event_add(c->loop.tick, &second) != 0)
		return -1;
	return 0;
}

void
loop_teardown(struct crawl *c)
{
	size_t i;

	/* Before the fetcher: a job in the pool holds no transfer, but its
	 * page must not outlive the database. */
	workpool_free(c->loop.pool, on_unworked);
	fetch_free(c->loop.fe);
	if (c->loop.wake != NULL)
		event_free(c->loop.wake);
	if (c->loop.tick != NULL)
		event_free(c->loop.tick);
	if (c->loop.grace != NULL)
		event_free(c->loop.grace);
	if (c->loop.sigint != NULL)
		event_free(c->loop.sigint);
	if (c->loop.sigterm != NULL)
		event_free(c->loop.sigterm);
	if (c->loop.base != NULL)
		event_base_free(c->loop.base);
	curl_slist_free_all(c->loop.resolve);
	hostsched_free(c->sc);
	polite_close(c);
	page_close(c);
	for (i = 0; i < c->scope.nseeds; i++)
		free(c->scope.seeds[i]);
	free(c->scope.seeds);
	for (i = 0; i < FAILS_KEPT; i++)
		free(c->fails.kept[i]);
	frontier_close(c);
	warcout_close(c);
	earlier_close(c);
	dedup_free(c->dd);
	tmpl_free(c->site);
	judge_close(c);
	share_end(c, 0);
	store_close(c->st);
	for (i = 0; i < c->scope.ndomains; i++)
		free(c->scope.domains[i]);
	free(c->scope.domains);
}

int
crawl_stopped_early(const struct crawl_summary *sum)
{
	return sum->interrupted || sum->saturated ||
	    (sum->limited && sum->counted && sum->counts.queued > 0);
}

/* What the run did, for the closing lines (the counts are read apart). */
static void
fill_summary(const struct crawl *c, struct crawl_summary *sum)
{
	size_t i;

	sum->interrupted = c->end.stopping != 0 && !c->end.failed &&
	    !c->sat.saturated;
	sum->saturated = c->sat.saturated;
	/* As limit_reached, with nothing in flight any more. */
	sum->limited = c->cfg->max_pages > 0 &&
	    crawl_limit_counted(c) >= c->cfg->max_pages;
	sum->fetched = c->tally.fetched;
	memcpy(sum->status, c->tally.status, sizeof(sum->status));
	sum->bytes = c->tally.bytes;
	sum->robots_fetches = c->polite.robots_fetches;
	sum->hosts_given_up = c->polite.hosts_given_up;
	sum->traps = c->frontier.traps;
	sum->seconds = (clock_mono_ms() - c->started) / 1e3;
	sum->stages = c->stages;
	sum->stages.threads = c->loop.threads;
	sum->indexed = (int64_t)dedup_count(c->dd);
	sum->index_bytes = dedup_bytes(c->dd);
	for (i = 0; i < DEDUP_METHODS; i++)
		sum->method_bytes[i] = dedup_method_bytes(c->dd,
		    dedup_method_at(i)->method);
	sum->visit = c->recrawl.visit;
	memcpy(sum->outcomes, c->recrawl.outcomes, sizeof(sum->outcomes));
	sum->verdicts_moved = c->recrawl.verdicts_moved;
}

/*
 * One run of crawl_run: set up from the database, crawl until done,
 * stopped or failed, and end. Returns crawl_run's status; r notes whether
 * the run ended on a lost database connection (crawler/reconnect.h).
 */
static int
run_once(const struct config *cfg, struct crawl_summary *sum, char *err,
    size_t errsz, struct reconnect *r)
{
	struct crawl c;
	int rc, made;

	memset(sum, 0, sizeof(*sum));
	crawl_init(&c, cfg, CRAWL_FETCH, err, errsz);
	if ((rc = setup_prepare(&c)) != 0)
		goto out;
	reconnect_back(r);
	if (setup_loop(&c) != 0) {
		snprintf(err, errsz, "cannot set up the event loop");
		rc = 1;
		goto out;
	}
	if (stop_signal != 0)
		on_signal(stop_signal, 0, &c);
	pump(&c);
	if (!c.loop.done && !c.end.failed)
		event_base_dispatch(c.loop.base);
	crawl_end_progress(&c);
	/* Transfers still running after a hard stop go back to the queue,
	 * and so do pages still in the pool. */
	fetch_abort_all(c.loop.fe);
	loop_close_pool(&c, on_unworked);
	if (warcout_close(&c) != 0)
		crawl_fail_said(&c);
	if (!c.end.failed && store_commit(c.st) != 0)
		crawl_fail(&c, cfg->db);
	/* The hosts held go back, each with its next start. */
	if (!c.end.failed && store_begin(c.st) == 0) {
		share_end(&c, 1);
		store_commit(c.st);
	}
	/* The pages are committed to DB-wal; a file that refuses them is
	 * said now, not left for SQLite's silent checkpoint at close. */
	if (!c.end.failed && store_checkpoint(c.st) != 0)
		crawl_fail(&c, cfg->db);
	rc = c.end.failed ? 1 : 0;
	/* SQLite may have kept the failed batch open: the counts below
	 * must be what the file keeps. */
	if (c.end.failed)
		store_rollback(c.st);
	fill_summary(&c, sum);
	/* Every seed unreachable is a failure, not a finished crawl. */
	if (rc == 0 && crawl_nothing_fetched(&c))
		rc = 1;
	if (store_counts(c.st, &sum->counts) == 0)
		sum->counted = 1;
	else if (rc == 0) {
		snprintf(err, errsz, "%s: %s", cfg->db, store_errmsg(c.st));
		rc = 1;
	}
out:
	if (rc != 0 && c.st != NULL)
		store_rollback(c.st);
	sum->db_lost = rc != 0 && store_lost(c.st);
	/* A lost connection is worth waiting for, unless the user asked
	 * the crawl to stop. */
	r->lost = 0;
	if (stop_signal == 0)
		reconnect_lost(r, &c, rc);
	/* Refused (2) with a database this run made: leave no empty one. */
	made = rc == 2 && store_created(c.st) && !r->lost;
	loop_teardown(&c);
	if (made)
		unlink(cfg->db);
	return rc;
}

int
crawl_run(const struct config *cfg, struct crawl_summary *sum, char *err,
    size_t errsz)
{
	struct crawl_summary earlier;
	struct reconnect r;
	double t0 = clock_mono_ms();
	int rc;

	memset(&earlier, 0, sizeof(earlier));
	memset(&r, 0, sizeof(r));
	/* Loading a large database takes a while, and so may waiting for
	 * one that went away; Ctrl-C then must still mean "stop cleanly",
	 * not kill the process. */
	stop_signal = 0;
	signal(SIGINT, on_early_signal);
	signal(SIGTERM, on_early_signal);
	while ((rc = run_once(cfg, sum, err, errsz, &r)) != 0 && r.lost) {
		if (reconnect_wait(&r, cfg, &stop_signal, err, errsz) != 0) {
			rc = 1;
			break;
		}
		reconnect_carry(&earlier, sum);
	}
	reconnect_carry(sum, &earlier);
	sum->seconds = (clock_mono_ms() - t0) / 1e3;
	if (rc != 0 && r.lost)
		sum->db_lost = 1;
	return rc;
}
