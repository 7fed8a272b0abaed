#include "crawler/setup.h"

#include "crawler/earlier.h"
#include "crawler/indexload.h"
#include "crawler/page.h"
#include "crawler/polite.h"
#include "crawler/revisit.h"
#include "crawler/share.h"
#include "crawler/warcout.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "crawler/frontier.h"
#include "crawler/settings.h"
#include "storage/store_resume.h"
#include "util/esc.h"
#include "util/testhook.h"

static int
add_domain(struct crawl *c, const char *d)
{
	char **nd;
	size_t i;

	for (i = 0; i < c->scope.ndomains; i++)
		if (strcasecmp(c->scope.domains[i], d) == 0)
			return 0;
	nd = realloc(c->scope.domains, (c->scope.ndomains + 1) * sizeof(*nd));
	if (nd == NULL)
		return -1;
	c->scope.domains = nd;
	if ((c->scope.domains[c->scope.ndomains] = strdup(d)) == NULL)
		return -1;
	c->scope.ndomains++;
	return 0;
}

static char *
join_domains(const struct crawl *c)
{
	size_t i, len = 1;
	char *joined;

	for (i = 0; i < c->scope.ndomains; i++)
		len += strlen(c->scope.domains[i]) + 1;
	if ((joined = calloc(1, len)) == NULL)
		return NULL;
	for (i = 0; i < c->scope.ndomains; i++) {
		if (i > 0)
			strcat(joined, " ");
		strcat(joined, c->scope.domains[i]);
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
	for (i = 0; cfg->nallow == 0 && i < c->scope.nseeds; i++)
		if (url_host(c->scope.seeds[i], host, sizeof(host)) == 0 &&
		    add_domain(c, host) != 0)
			return 1;
	if (c->scope.ndomains == 0) {
		snprintf(c->err, c->errsz,
		    "%s: a new crawl needs at least one seed URL", cfg->db);
		return 2;
	}
	if ((joined = join_domains(c)) == NULL)
		return 1;
	rc = settings_match(c, "allow_domains", joined, "--allow-domain");
	free(joined);
	return rc;
}

static int
load_host(const char *host, int64_t queued, double not_before, void *arg)
{
	struct crawl *c = arg;
	double now = clock_wall_s();
	struct store_host h;
	int found, rc = 0;

	memset(&h, 0, sizeof(h));
	found = store_host_get(c->st, host, &h);
	if (found < 0)
		return -1;
	/* A back-off or Retry-After still running when the crawl stopped. */
	if (found == 1 && h.not_before > not_before)
		not_before = h.not_before;
	if (found == 1 && h.gave_up != NULL)
		hostsched_retire(c->sc, host);
	else if (hostsched_add(c->sc, host, queued, not_before > now
	             ? clock_mono_ms() + (not_before - now) * 1e3 : 0) != 0)
		rc = -1;
	store_host_clear(&h);
	return rc;
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

/*
 * Normalise every seed into c->scope.seeds. A seed without a scheme is read as
 * http://, as curl reads it, and the crawl says so. Every bad seed is
 * named with its reason on stderr; then 2 with c->err set. 0, or 1 when
 * out of memory.
 */
static int
check_seeds(struct crawl *c)
{
	const struct config *cfg = c->cfg;
	const char *why, *s;
	char *norm, *guess = NULL;
	size_t i, bad = 0;

	if (cfg->nseeds == 0)
		return 0;
	if ((c->scope.seeds = calloc(cfg->nseeds,
	    sizeof(*c->scope.seeds))) == NULL)
		return 1;
	for (i = 0; i < cfg->nseeds; i++) {
		s = cfg->seeds[i];
		norm = url_normalize(s, &why);
		if (norm == NULL && strstr(s, "://") == NULL &&
		    asprintf(&guess, "http://%s", s) >= 0) {
			if ((norm = url_normalize(guess, &why)) != NULL &&
			    !cfg->quiet) {
				fputs("nearcrawl: seed ", stderr);
				esc_fputs(s, stderr);
				fputs(" has no scheme: taken as ", stderr);
				esc_fputs(norm, stderr);
				putc('\n', stderr);
			}
			free(guess);
			guess = NULL;
		}
		if (norm == NULL) {
			fputs("nearcrawl: bad seed ", stderr);
			esc_fputs(s, stderr);
			fprintf(stderr, ": %s\n", why);
			bad++;
			continue;
		}
		c->scope.seeds[c->scope.nseeds++] = norm;
	}
	if (bad == 0)
		return 0;
	snprintf(c->err, c->errsz, "%zu of %zu seeds are bad (see above)",
	    bad, cfg->nseeds);
	return 2;
}

/* Put the seeds in the frontier (before the hosts are loaded from it). */
static int
add_seeds(struct crawl *c)
{
	const struct config *cfg = c->cfg;
	const char *u;
	char host[HOST_MAX], buf[URL_MAX_LEN + 1];
	size_t i;
	int rc = 0;

	for (i = 0; i < c->scope.nseeds && rc == 0; i++) {
		u = frontier_strip(c, c->scope.seeds[i], buf, sizeof(buf));
		if (url_host(u, host, sizeof(host)) != 0 ||
		    !urlfilter_host_in_domains(host, c->scope.domains,
		        c->scope.ndomains)) {
			snprintf(c->err, c->errsz,
			    "seed %s is outside the crawl's domains", u);
			rc = 2;
		} else if (store_frontier_add(c->st, u, host, 0, 0, 0) < 0 ||
		    (c->share != NULL && share_queued(c, host) < 0)) {
			snprintf(c->err, c->errsz, "%s: %s", cfg->db,
			    store_errmsg(c->st));
			rc = 1;
		}
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

/*
 * The crawl's parts in memory: the frontier's filters, dedup indexes, site
 * templates, the host scheduler, the robots.txt cache, the saturation
 * window. 0, or an exit status with c->err.
 */
static int
new_parts(struct crawl *c)
{
	const struct config *cfg = c->cfg;
	int rc;

	if ((rc = frontier_open(c)) != 0)
		return rc;
	c->dd = new_dedup(cfg);
	c->site = tmpl_new();
	c->sc = hostsched_new(cfg->per_host, cfg->delay_ms);
	if ((rc = polite_open(c)) != 0 || (rc = page_open(c)) != 0)
		return rc;
	if (c->dd == NULL || c->site == NULL || c->sc == NULL) {
		snprintf(c->err, c->errsz, "out of memory");
		return 1;
	}
	return 0;
}

/*
 * A resumed crawl's indexes, loaded back from the database, in *secs
 * seconds. 0, or -1 on a database error.
 */
static int
load_indexes(struct crawl *c, double *secs)
{
	double t0;

	t0 = clock_mono_ms();
	if ((c->share != NULL ? share_load(c) :
	    indexload_span(c, &store_span_all)) != 0)
		return -1;
	*secs = (clock_mono_ms() - t0) / 1e3;
	return 0;
}

/*
 * The line a resumed crawl starts with, once the database's counts are
 * read: the fingerprints loaded in secs, and the URLs in flight --
 * requeued, those a run that ended without settling them left; in a
 * shared crawl, those in flight in any process, which this one leaves
 * alone (another process is fetching them, or, when that process
 * stopped, each goes back to the queue as its host is leased again).
 */
static void
say_resumed(struct crawl *c, int64_t requeued, double secs)
{
	char msg[512], flight[160];

	if (dedup_count(c->dd) == 0 || c->cfg->quiet)
		return;
	if (c->share != NULL)
		snprintf(flight, sizeof(flight), "%lld URLs in flight (in "
		    "other processes, or queued again as their hosts are "
		    "leased)", (long long)c->db.n.inflight);
	else
		snprintf(flight, sizeof(flight), "%lld URLs in flight queued "
		    "again", (long long)requeued);
	fprintf(stderr, "nearcrawl: resuming %s: %zu fingerprints loaded in "
	    "%.2f s (%.0f pages/s, %.1f MiB of indexes), %s\n",
	    esc_str(c->cfg->db, msg, sizeof(msg)), dedup_count(c->dd), secs,
	    secs > 0 ? (double)dedup_count(c->dd) / secs : 0.0,
	    (double)dedup_bytes(c->dd) / (1 << 20), flight);
}

/* --retry-given-up: the hosts given up get another chance (before the
 * frontier's hosts are loaded, which would retire them). 0 or 1. */
static int
retry_given_up(struct crawl *c)
{
	char msg[512];
	int64_t n;

	if ((n = store_hosts_retry_given_up(c->st)) < 0) {
		snprintf(c->err, c->errsz, "%s: %s", c->cfg->db,
		    store_errmsg(c->st));
		return 1;
	}
	fprintf(stderr, "nearcrawl: %s: --retry-given-up: %lld host%s "
	    "given up before get%s another chance\n",
	    esc_str(c->cfg->db, msg, sizeof(msg)), (long long)n,
	    n == 1 ? "" : "s", n == 1 ? "s" : "");
	return 0;
}

/*
 * A resumed database must have room for a batch before anything is
 * fetched: on a disk still full, a resume would fetch a batch's worth of
 * pages (2,048 by default) only to fail at its commit, every time. A
 * database this run made has just been written, and would be removed.
 * 0, or 1 with c->err.
 */
static int
check_room(struct crawl *c)
{
	int64_t bytes;

	if (store_created(c->st) ||
	    store_room(c->st, c->db.n.pages, c->cfg->batch, &bytes) == 0)
		return 0;
	snprintf(c->err, c->errsz, "%s: no room for the next batch of pages "
	    "(about %.1f MiB): %s; free some space, then resume",
	    c->cfg->db, (double)bytes / (1 << 20), store_errmsg(c->st));
	return 1;
}

/* Open the store, check settings, load state, queue the seeds. */
int
setup_prepare(struct crawl *c)
{
	const struct config *cfg = c->cfg;
	char msg[512];
	int64_t requeued, queued;
	double secs = 0;
	int rc;

	if (testhook_load(stderr, c->err, c->errsz) != 0)
		return 2;
	c->st = store_open(cfg->db, STORE_CREATE, msg, sizeof(msg));
	if (c->st == NULL) {
		snprintf(c->err, c->errsz, "%s", msg);
		return 2;
	}
	if ((rc = share_start(c)) != 0)
		return rc;
	if (testhook_max_db_pages() > 0 &&
	    store_limit_pages(c->st, testhook_max_db_pages()) != 0)
		goto dberr;
	if (store_begin(c->st) != 0)
		goto dberr;
	/* Archived pages need no seeds and have no scope. */
	if ((c->mode == CRAWL_FETCH && (rc = check_seeds(c)) != 0) ||
	    (rc = settings_check(c)) != 0 ||
	    (c->mode == CRAWL_FETCH && (rc = set_scope(c)) != 0))
		return rc;
	if ((rc = new_parts(c)) != 0 ||
	    (c->mode == CRAWL_FETCH && (rc = earlier_open(c)) != 0) ||
	    (rc = warcout_open(c)) != 0 || (rc = revisit_start(c)) != 0)
		return rc;
	/* Shared: what is in flight may be another process's; each host's
	 * next owner queues it again (crawler/share.c). */
	requeued = c->share != NULL ? 0 :
	    store_frontier_requeue_inflight(c->st);
	if (requeued < 0 || load_indexes(c, &secs) != 0)
		goto dberr;
	if (c->mode == CRAWL_FETCH && (rc = add_seeds(c)) != 0)
		return rc;
	if (cfg->retry_given_up && (rc = retry_given_up(c)) != 0)
		return rc;
	/* Shared: only the hosts leased, in the first round below. */
	if (store_host_pages(c->st, load_host_pages, c) != 0 ||
	    (c->share == NULL &&
	    store_frontier_hosts(c->st, load_host, c) != 0) ||
	    crawl_load_counts(c) != 0 || store_commit(c->st) != 0)
		goto dberr;
	say_resumed(c, requeued, secs);
	if ((rc = check_room(c)) != 0)
		return rc;
	if (store_begin(c->st) != 0)
		goto dberr;
	if (c->share != NULL && share_round(c, 1) < 0)
		return 1;
	/* Shared: the database's queue is said below; the run counts what
	 * it leases, host by host. */
	queued = c->db.n.queued;
	if (c->share != NULL)
		crawl_count_queued(c, -queued);
	if (queued == 0 && !cfg->quiet && c->mode == CRAWL_FETCH)
		fprintf(stderr, "nearcrawl: %s: nothing queued\n",
		    esc_str(cfg->db, msg, sizeof(msg)));
	else if (cfg->max_pages > 0 && c->db.n.max_seq >= cfg->max_pages &&
	    !cfg->quiet)
		fprintf(stderr, "nearcrawl: %s has %lld pages, the --max-pages "
		    "limit: nothing to fetch; give a larger --max-pages, or "
		    "--max-pages 0 for none\n",
		    esc_str(cfg->db, msg, sizeof(msg)),
		    (long long)c->db.n.max_seq);
	return 0;
dberr:
	snprintf(c->err, c->errsz, "%s: %s", cfg->db, store_errmsg(c->st));
	return 1;
}
