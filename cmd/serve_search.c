/*
 * serve_search: search in the view (cmd/serve_search.h), through the
 * search API of cmd/search.h, so that the view and `nearcrawl search`
 * show the same groups, representatives, snippets and folded counts.
 */
#include "cmd/serve_search.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/search.h"

/* Groups shown a page of results. */
#define RESULTS 20

/* The handle, opened at the first search and again after a failure. */
static int
handle(struct sv *s, char *err, size_t errsz)
{
	if (s->search != NULL)
		return SEARCH_OK;
	return search_open(s->db, &s->search, err, errsz);
}

/* The query's link with other parameters, for paging and folding. */
static void
query_href(struct sv_req *r, const char *q, int k, int all, int64_t page)
{
	sv_puts(r, "/search?q=");
	sv_qv(r, q);
	if (k >= 0)
		sv_printf(r, "&amp;k=%d", k);
	if (all)
		sv_puts(r, "&amp;all=1");
	if (page > 1)
		sv_printf(r, "&amp;page=%lld", (long long)page);
}

/* A snippet with its matched words in <mark>. */
static void
snippet(struct sv_req *r, const struct search_group *g)
{
	size_t at = 0, i, len = strlen(g->snippet);

	sv_puts(r, "<div class=\"s\">");
	for (i = 0; i < g->nmarks; i++) {
		const struct search_mark *m = &g->marks[i];

		if (m->off < at || m->off > len || m->len > len - m->off)
			continue;
		sv_hn(r, g->snippet + at, m->off - at);
		sv_puts(r, "<mark>");
		sv_hn(r, g->snippet + m->off, m->len);
		sv_puts(r, "</mark>");
		at = m->off + m->len;
	}
	sv_hn(r, g->snippet + at, len - at);
	sv_puts(r, "</div>\n");
}

static void
member(struct sv_req *r, const struct search_page *p)
{
	sv_puts(r, "<li class=\"member\">");
	sv_page_link(r, p->id, p->title, p->url);
	sv_puts(r, " ");
	sv_verdict(r, p->verdict);
	if (p->fold == SEARCH_FOLD_SIMHASH)
		sv_printf(r, " <span class=\"note\">(SimHash %d bits from "
		    "it)</span>", p->bits);
	else
		sv_puts(r, " <span class=\"note\">(its duplicate cluster)"
		    "</span>");
	sv_puts(r, "</li>\n");
}

static void
group(struct sv_req *r, const struct search_group *g, const char *q, int k,
    int all, int64_t page)
{
	const struct search_page *b = g->best;
	size_t i;

	sv_printf(r, "<div class=\"hit\" id=\"hit-%d\"><div>%d. ", g->rank,
	    g->rank);
	sv_page_link(r, b->id, b->title, b->url);
	sv_puts(r, " ");
	sv_verdict(r, b->verdict);
	sv_puts(r, "</div>\n<div class=\"note\">");
	sv_h(r, b->url);
	sv_puts(r, "</div>\n");
	snippet(r, g);
	if (g->nmembers == 0) {
		sv_puts(r, "</div>\n");
		return;
	}
	sv_puts(r, "<div class=\"fold\"><a href=\"");
	query_href(r, q, k, !all, page);
	sv_printf(r, "#hit-%d\">%zu similar page%s omitted</a> &middot; "
	    "this one shown by %s", g->rank, g->nmembers,
	    g->nmembers == 1 ? "" : "s", search_decided_name(g->decided));
	if (all) {
		sv_puts(r, "<ul>\n");
		for (i = 0; i < g->nmembers; i++)
			member(r, g->members[i]);
		sv_puts(r, "</ul>\n");
	}
	sv_puts(r, "</div>\n</div>\n");
}

void
svs_search(struct sv_req *r)
{
	struct search_result *res = NULL;
	struct search_opts o;
	const char *q = sv_query(r, "q");
	int64_t k, page, all;
	char err[1024], a[40];
	size_t i;
	int rc;

	if (sv_query_num(r, "k", 0, SEARCH_K_MAX, -1, &k) < 0 ||
	    sv_query_num(r, "page", 1, 1000, 1, &page) < 0 ||
	    sv_query_num(r, "all", 0, 1, 0, &all) < 0) {
		sv_error(r, 400, "k: 0 to 64 bits; page: 1 to 1000; all: 0 or 1");
		return;
	}
	if (q == NULL || *q == '\0') {
		sv_head(r, "search", 0);
		sv_puts(r, "<h1>Search</h1>\n<p>Type words in the box above: "
		    "FTS5's syntax (<code>\"open day\" OR admissions</code>, "
		    "<code>librar*</code>, <code>NOT</code>); copies of one "
		    "page come as one result.</p>\n");
		sv_foot(r);
		sv_send(r, 200);
		return;
	}
	search_opts_default(&o);
	o.limit = RESULTS;
	o.offset = (int)(page - 1) * RESULTS;
	o.k = (int)k;
	if ((rc = handle(r->s, err, sizeof(err))) == SEARCH_OK)
		rc = search_run(r->s->search, q, &o, &res, err, sizeof(err));
	if (rc == SEARCH_BADQUERY) {
		sv_error(r, 400, err);
		return;
	}
	if (rc == SEARCH_BADDB) {
		sv_error(r, 404, err);
		return;
	}
	if (rc != SEARCH_OK) {
		search_close(r->s->search);
		r->s->search = NULL;
		sv_error(r, 503, err);
		return;
	}
	sv_head(r, "search", 0);
	sv_puts(r, "<h1>Search: ");
	sv_h(r, q);
	sv_printf(r, "</h1>\n<p class=\"note\" id=\"found\">%s page%s match",
	    sv_num(res->matches, a, sizeof(a)), res->matches == 1 ? "" : "s");
	if (res->more)
		sv_printf(r, " among the best %d (the query matches more)",
		    o.top);
	sv_printf(r, "; %zu result%s after folding copies", res->ngroups_all,
	    res->ngroups_all == 1 ? "" : "s");
	if (k >= 0)
		sv_printf(r, " and SimHashes within %lld bits", (long long)k);
	sv_puts(r, ".");
	if (!res->ranked)
		sv_puts(r, " PageRank does not decide the page shown: run "
		    "<code>nearcrawl rank</code>.");
	if (res->partial)
		sv_puts(r, " Some pages are not indexed yet: run "
		    "<code>nearcrawl index</code>.");
	sv_puts(r, "</p>\n");
	for (i = 0; i < res->ngroups && !sv_full(r); i++)
		group(r, &res->groups[i], q, (int)k, (int)all, page);
	if (res->ngroups == 0)
		sv_puts(r, "<p>No page matches.</p>\n");
	sv_puts(r, "<p>");
	if (page > 1) {
		sv_puts(r, "<a href=\"");
		query_href(r, q, (int)k, (int)all, page - 1);
		sv_puts(r, "\">previous</a> ");
	}
	if ((size_t)o.offset + res->ngroups < res->ngroups_all) {
		sv_puts(r, "<a id=\"next\" href=\"");
		query_href(r, q, (int)k, (int)all, page + 1);
		sv_puts(r, "\">next results</a>");
	}
	sv_puts(r, "</p>\n");
	search_result_free(res);
	sv_foot(r);
	sv_send(r, 200);
}
