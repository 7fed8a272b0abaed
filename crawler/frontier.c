#include "crawler/frontier.h"

#include "crawler/share.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char WHY_TRAPPED[] = "path looks like a trap";
static const char WHY_PATTERN[] = FRONTIER_WHY_PATTERN;

int
frontier_open(struct crawl *c)
{
	const struct config *cfg = c->cfg;

	c->frontier.strip =
	    strcmp(cfg->strip_params, "none") == 0 ? NULL : cfg->strip_params;
	if (urlfilter_patterns_new(cfg->accept_regex, cfg->naccept_regex,
	    cfg->reject_regex, cfg->nreject_regex, &c->frontier.patterns,
	    c->err, c->errsz) != 0)
		return 2;
	if ((c->frontier.settled = seen_new(SETTLED_BITS)) == NULL) {
		snprintf(c->err, c->errsz, "out of memory");
		return 1;
	}
	return 0;
}

void
frontier_close(struct crawl *c)
{
	seen_free(c->frontier.settled);
	c->frontier.settled = NULL;
	urlfilter_patterns_free(c->frontier.patterns);
	c->frontier.patterns = NULL;
}

/*
 * Why url (normalised), found at depth, is not to be queued, or NULL when
 * it is; then host holds its host.
 */
const char *
frontier_refusal(struct crawl *c, const char *url, int depth, char *host)
{
	if (c->cfg->max_depth >= 0 && depth > c->cfg->max_depth)
		return "beyond max depth";
	if (url_host(url, host, HOST_MAX) != 0)
		return "no host";
	if (!urlfilter_host_in_domains(host, c->scope.domains,
	    c->scope.ndomains))
		return "host out of scope";
	if (urlfilter_path_trapped(url))
		return WHY_TRAPPED;
	/* Seeds are fetched whatever the patterns say. */
	if (depth > 0 && !urlfilter_patterns_allow(c->frontier.patterns, url))
		return WHY_PATTERN;
	return NULL;
}

/*
 * url without the parameters --strip-params names: out (outsz bytes) when
 * something went, else url itself.
 */
const char *
frontier_strip(const struct crawl *c, const char *url, char *out, size_t outsz)
{
	if (c->frontier.strip == NULL ||
	    urlfilter_strip_params(url, c->frontier.strip, out, outsz) != 1)
		return url;
	return out;
}

/*
 * Whether url would be one query too many for its path (--max-query-variants).
 * Known URLs are not: queueing them again does nothing. Returns 1, 0, or -1
 * on a database error.
 */
static int
over_query_cap(struct crawl *c, const char *url)
{
	long cap = c->cfg->max_query_variants;
	int64_t n;
	int known;

	if (cap <= 0 || strchr(url, '?') == NULL)
		return 0;
	if ((n = store_frontier_variants(c->st, url, cap)) < 0)
		return -1;
	if (n < cap)
		return 0;
	if ((known = store_frontier_known(c->st, url)) < 0)
		return -1;
	return !known;
}

/* Queue url (normalised, already stripped) unless it is out of scope, too
 * deep or caught by a trap defence; dup_hops as in store_item. */
int
frontier_add_as_is(struct crawl *c, const char *url, int depth, int64_t parent,
    int dup_hops)
{
	char host[HOST_MAX];
	const char *why;
	uint64_t h;
	int r, owned;

	if (c->cfg->max_depth >= 0 && depth > c->cfg->max_depth)
		return 0;
	/* Whether a URL is in scope and whether it is queued never change
	 * once settled: a page's template links are settled by the first. */
	h = seen_hash(url, strlen(url));
	if (seen_has(c->frontier.settled, h))
		return 0;
	if ((why = frontier_refusal(c, url, depth, host)) != NULL) {
		if (why == WHY_TRAPPED)
			c->frontier.traps.trapped++;
		else if (why == WHY_PATTERN)
			c->frontier.traps.patterned++;
		seen_add(c->frontier.settled, h);
		return 0;
	}
	if ((r = over_query_cap(c, url)) != 0) {
		if (r < 0)
			return -1;
		/* A path over the cap stays over it: settled too. */
		c->frontier.traps.capped++;
		seen_add(c->frontier.settled, h);
		return 0;
	}
	r = store_frontier_add(c->st, url, host, depth, parent, dup_hops);
	if (r < 0)
		return -1;
	/* Queued behind duplicates, a URL may yet be offered by a page
	 * fewer duplicates behind, which lowers its count: not settled. */
	if (dup_hops == 0)
		seen_add(c->frontier.settled, h);
	/* Shared: another process may hold the host; it reads its queue. */
	if (c->share != NULL && (owned = share_queued(c, host)) != 1)
		return owned < 0 ? -1 : 0;
	/* Shared, r is 2: maybe new. Counted as new, the scheduler may ask
	 * the store once in vain; it then forgets the host's count. */
	if (r >= 1) {
		crawl_count_queued(c, 1);
		if (hostsched_add(c->sc, host, 1, 0) != 0)
			return -1;
	}
	return 0;
}

/* Queue url (normalised) found on a page at depth; parent is that page,
 * and dup_hops what the link rule gives its links (0 for seeds). */
int
frontier_add(struct crawl *c, const char *url, int depth, int64_t parent,
    int dup_hops)
{
	char buf[URL_MAX_LEN + 1];
	const char *u = frontier_strip(c, url, buf, sizeof(buf));

	if (u != url)
		c->frontier.traps.stripped++;
	return frontier_add_as_is(c, u, depth, parent, dup_hops);
}

int
frontier_add_links(struct crawl *c, const struct extract_result *ex,
    int depth, int64_t parent, int dup_hops)
{
	size_t i;

	c->frontier.traps.too_long += (int64_t)ex->links_too_long;
	for (i = 0; i < ex->nlinks; i++)
		if (frontier_add(c, ex->links[i], depth, parent, dup_hops) != 0)
			return -1;
	return 0;
}

/*
 * A target that strips back to the very URL that redirected is a server
 * putting its session id in by redirect: stripped, it is known already
 * and the page would never be fetched, so it is queued as it is. That
 * page's own links are stripped again, so this costs one fetch more per
 * page, and cannot loop: a second such redirect strips to a URL that is
 * known.
 */
int
frontier_add_redirect(
    struct crawl *c, const struct job *j, const char *target, int64_t id)
{
	char buf[URL_MAX_LEN + 1];
	const char *u = frontier_strip(c, target, buf, sizeof(buf));

	if (u != target && strcmp(u, j->it.url) == 0)
		u = target;
	else if (u != target)
		c->frontier.traps.stripped++;
	/* A redirect is no page of its own: its target stands where it
	 * stood in a run of duplicates. */
	return frontier_add_as_is(c, u, j->it.depth + 1, id, j->it.dup_hops);
}

int
frontier_drop_excluded(struct crawl *c, struct job *j)
{
	if (j->kind == JOB_SITEMAP || j->it.depth == 0 ||
	    urlfilter_patterns_allow(c->frontier.patterns, j->it.url))
		return 0;
	if (frontier_settle_unfetched(c, j, FRONTIER_WHY_PATTERN) != 0)
		return -1;
	c->frontier.traps.dropped++;
	return 1;
}

/* Settle a queued URL without asking the server (robots.txt forbids it). */
int
frontier_settle_unfetched(struct crawl *c, struct job *j, const char *reason)
{
	struct store_page p;

	crawl_new_row(c, j, &p);
	p.verdict = STORE_VERDICT_SKIPPED;
	p.reason = reason;
	if (store_page_add(c->st, &p) <= 0 ||
	    store_frontier_done(c->st, j->it.id) != 0)
		return -1;
	crawl_count_verdict(c, STORE_VERDICT_SKIPPED);
	hostsched_skipped(c->sc, j->host);
	crawl_count_page(c, j->host);
	crawl_batch_page(c);
	return 0;
}
