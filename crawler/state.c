#include "crawler/state.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/esc.h"

int
crawl_init(struct crawl *c, const struct config *cfg, enum crawl_mode mode,
    char *err, size_t errsz)
{
	memset(c, 0, sizeof(*c));
	c->cfg = cfg;
	c->mode = mode;
	c->err = err;
	c->errsz = errsz;
	err[0] = '\0';
	c->started = c->last_commit = c->last_progress = clock_mono_ms();
	return 0;
}

void
crawl_fail_because(struct crawl *c, const char *what, const char *why)
{
	if (!c->failed)
		snprintf(c->err, c->errsz, "%s: %s", what, why);
	c->failed = 1;
	c->stopping = 2;
	if (c->loop.base != NULL)
		event_base_loopbreak(c->loop.base);
}

void
crawl_fail(struct crawl *c, const char *what)
{
	crawl_fail_because(c, what, store_errmsg(c->st));
}

int
crawl_commit(struct crawl *c)
{
	double t0 = clock_mono_ms();

	if (store_renew(c->st) != 0) {
		crawl_fail(c, "cannot commit to the database");
		return -1;
	}
	c->batch = 0;
	c->last_commit = clock_mono_ms();
	c->stages.store_ms += c->last_commit - t0;
	return 0;
}

void
crawl_batch_page(struct crawl *c)
{
	if (++c->batch >= c->cfg->batch || c->share != NULL)
		crawl_commit(c);
}

/* Leave the terminal's progress line before other output. */
void
crawl_end_progress(struct crawl *c)
{
	if (c->progress_shown)
		fputs("\r\033[K", stderr);
	c->progress_shown = 0;
}

void
crawl_count_stages(struct crawl *c, const struct page_work *w)
{
	c->stages.pages++;
	c->stages.transfer_ms += w->elapsed_ms;
	c->stages.extract_ms += w->extract_ms;
	c->stages.fingerprint_ms += w->fingerprint_ms;
}

/* A pages row for j's URL, numbered next in fetch order. */
void
crawl_new_row(struct crawl *c, const struct job *j, struct store_page *p)
{
	memset(p, 0, sizeof(*p));
	p->url = j->it.url;
	p->host = j->host;
	p->depth = j->it.depth;
	p->parent = j->it.parent;
	p->seq = ++c->seq;
	p->fetched_at = j->fetched_at > 0 ? j->fetched_at : clock_wall_s();
}

void
crawl_job_free(struct job *j)
{
	struct page_work *w;

	if (j == NULL)
		return;
	if ((w = j->work) != NULL) {
		buf_free(&w->body);
		free(w->content_type);
		free(w->x_robots_tag);
		free(w->link);
		free(w->etag);
		free(w->last_modified);
		free(w->link_canonical);
		digest_free(&w->dg);
		free(w);
	}
	free(j->prior);
	store_item_clear(&j->it);
	free(j);
}

/*
 * The site whose template a page of host shares: the longest domain of the
 * crawl's scope that holds it (--allow-domain uni.example: every server of
 * the university, which one CMS usually dresses alike), else the host.
 */
const char *
crawl_site_of(const struct crawl *c, const char *host)
{
	const char *best = host, *d;
	size_t i, bl = 0;

	for (i = 0; i < c->scope.ndomains; i++) {
		d = c->scope.domains[i][0] == '.' ? c->scope.domains[i] + 1
		                                  : c->scope.domains[i];
		if (strlen(d) > bl &&
		    urlfilter_host_in_domains(host, &c->scope.domains[i], 1)) {
			best = d;
			bl = strlen(d);
		}
	}
	return best;
}

void
crawl_count_page(struct crawl *c, const char *host)
{
	int64_t n = hostsched_add_pages(c->sc, host, 1);

	if (c->cfg->max_pages_per_host > 0 && n >= c->cfg->max_pages_per_host)
		hostsched_retire(c->sc, host);
}

void
crawl_note_failure(struct crawl *c, const char *what, const char *why)
{
	size_t n;

	if (c->nfails < FAILS_KEPT) {
		n = strlen(what) + strlen(why) + 3;
		if ((c->fails[c->nfails] = malloc(n)) != NULL)
			snprintf(c->fails[c->nfails], n, "%s: %s", what, why);
	}
	c->nfails++;
}

int
crawl_nothing_fetched(struct crawl *c)
{
	const struct store_counts *n = &c->n;
	int64_t i;

	if (c->failed || c->stopping || c->nfails == 0 ||
	    n->unique + n->exact + n->near + n->redirect + n->skipped > 0)
		return 0;
	crawl_end_progress(c);
	fputs("nearcrawl: nothing could be fetched:\n", stderr);
	for (i = 0; i < c->nfails && i < FAILS_KEPT; i++)
		if (c->fails[i] != NULL) {
			fputs("  ", stderr);
			/* URLs and curl's words, which may quote a server. */
			esc_fputs(c->fails[i], stderr);
			putc('\n', stderr);
		}
	if (c->nfails > FAILS_KEPT)
		fprintf(stderr, "  and %lld failures more\n",
		    (long long)(c->nfails - FAILS_KEPT));
	snprintf(c->err, c->errsz, "no seed could be fetched");
	return 1;
}
