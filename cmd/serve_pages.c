/*
 * serve_pages: the listing pages of the view (cmd/serve_pages.h).
 */
#include "cmd/serve_pages.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd/serve_report.h"
#include "storage/query.h"
#include "storage/store_frontier.h"

/* Clusters the clusters page lists. */
#define TOP_CLUSTERS 50
/* Seconds after the last change that the overview still reloads. */
#define LIVE_SECONDS 60
/* robots.txt bytes shown at most (the crawl keeps up to 500 KiB). */
#define ROBOTS_SHOWN (64 * 1024)

/* Open the request's snapshot; on a failure the 503 is sent. */
static int
begin(struct sv_req *r)
{
	if (store_view_begin(r->s->v) != 0) {
		sv_dbfail(r);
		return -1;
	}
	return 0;
}

/* Close it, or answer 503 (the failed statement's message). */
static int
end(struct sv_req *r, int rc)
{
	if (rc < 0 || store_view_end(r->s->v) != 0) {
		sv_dbfail(r);
		return -1;
	}
	return 0;
}

static double
now(void)
{
	return (double)time(NULL);
}

/* A figure of the overview. */
static void
figure(struct sv_req *r, const char *id, int64_t n, const char *label)
{
	char a[40];

	sv_printf(r, "<div id=\"n-%s\">%s<span>%s</span></div>\n", id,
	    sv_num(n, a, sizeof(a)), label);
}

void
svp_home(struct sv_req *r)
{
	struct sv *s = r->s;
	struct store_counts n;
	int live;

	if (begin(r) != 0 || end(r, store_view_counts(s->v, &n)) != 0)
		return;
	/* A crawl writing meanwhile: the overview reloads itself, and the
	 * report is remade when it is --refresh seconds old. */
	if (n.max_seq != s->seen_seq) {
		if (s->seen_seq != 0 || s->changed_at != 0)
			s->changed_at = now();
		s->seen_seq = n.max_seq;
	}
	live = s->changed_at > 0 && now() - s->changed_at < LIVE_SECONDS;
	svr_start(s, n.max_seq);
	sv_head(r, "overview", live ? s->refresh : 0);
	sv_puts(r, "<h1>Overview</h1>\n");
	if (live)
		sv_printf(r, "<p class=\"note\" id=\"live\">The database is "
		    "changing (a crawl is running): this page reloads every "
		    "%d s.</p>\n", s->refresh);
	sv_puts(r, "<div class=\"fig\">\n");
	figure(r, "pages", n.pages, "pages");
	figure(r, "unique", n.unique, "unique");
	figure(r, "exact", n.exact, "exact");
	figure(r, "near", n.near, "near");
	figure(r, "other", n.redirect + n.error + n.skipped,
	    "redirect, error, skipped");
	figure(r, "pairs", n.duplicates, "duplicate pairs");
	figure(r, "queued", n.queued + n.inflight, "queued");
	sv_puts(r, "</div>\n<p><a href=\"/pages?verdict=near\">near "
	    "duplicates</a> &middot; <a href=\"/pages?verdict=exact\">exact "
	    "duplicates</a> &middot; <a href=\"/clusters\">largest clusters"
	    "</a> &middot; <a href=\"/hosts\">hosts</a></p>\n");
	svr_overview(r);
	sv_foot(r);
	sv_send(r, 200);
}

/* A listing's state: the last row's seq for the next page. */
struct list {
	struct sv_req *r;
	int64_t n;     /* rows written */
	int64_t last;  /* seq (or page) of the last row */
	int64_t page;  /* the member row open, -1 when none */
};

static int
page_tr(const struct store_view_page *p, void *arg)
{
	struct list *l = arg;
	struct sv_req *r = l->r;
	char a[40], t[40];

	if (sv_full(r))
		return 1;
	sv_printf(r, "<tr><td class=\"n\">%s</td><td>", sv_num(p->seq, a,
	    sizeof(a)));
	sv_verdict(r, p->verdict);
	sv_puts(r, "</td><td class=\"u\">");
	sv_page_link(r, p->id, p->title, p->url);
	sv_puts(r, "<br><span class=\"note\">");
	sv_h(r, p->url);
	sv_puts(r, "</span></td><td>");
	sv_h(r, p->host);
	sv_printf(r, "</td><td class=\"n\">%d</td><td>%s</td></tr>\n",
	    p->status, sv_time(p->fetched_at, t, sizeof(t)));
	l->n++;
	l->last = p->seq;
	return 0;
}

void
svp_pages(struct sv_req *r)
{
	struct store_view_filter f;
	struct list l = { r, 0, 0, -1 };
	const char *v = sv_query(r, "verdict");
	int64_t after;
	int rc;

	memset(&f, 0, sizeof(f));
	f.host = sv_query(r, "host");
	if (f.host != NULL && *f.host == '\0')
		f.host = NULL;
	if (v != NULL && *v != '\0' &&
	    (f.verdict = store_verdict_parse(v)) == STORE_VERDICT_UNKNOWN) {
		sv_error(r, 400, "verdict: unique, exact, near, redirect, "
		    "error or skipped");
		return;
	}
	if (sv_query_num(r, "after", 0, INT64_MAX, 0, &after) < 0) {
		sv_error(r, 400, "after: a page's seq");
		return;
	}
	f.after_seq = after;
	f.limit = SV_ROWS;
	if (begin(r) != 0)
		return;
	sv_head(r, "pages", 0);
	sv_puts(r, "<h1>Pages");
	if (f.verdict != STORE_VERDICT_UNKNOWN)
		sv_printf(r, ": %s", store_verdict_name(f.verdict));
	if (f.host != NULL) {
		sv_puts(r, " of ");
		sv_h(r, f.host);
	}
	sv_puts(r, "</h1>\n<p>");
	for (int i = STORE_VERDICT_UNIQUE; i < STORE_VERDICT_COUNT; i++)
		sv_printf(r, "<a href=\"/pages?verdict=%s\">%s</a> ",
		    store_verdict_name(i), store_verdict_name(i));
	sv_puts(r, "<a href=\"/pages\">all</a></p>\n<table id=\"pages\">\n"
	    "<tr><th>seq</th><th>verdict</th><th>page</th><th>host</th>"
	    "<th>status</th><th>fetched (UTC)</th></tr>\n");
	rc = store_view_pages(r->s->v, &f, page_tr, &l);
	if (end(r, rc) != 0)
		return;
	sv_puts(r, "</table>\n");
	if (l.n == 0)
		sv_puts(r, "<p>No pages.</p>\n");
	if (l.n == SV_ROWS) {
		sv_printf(r, "<p><a id=\"next\" href=\"/pages?after=%lld",
		    (long long)l.last);
		if (f.verdict != STORE_VERDICT_UNKNOWN)
			sv_printf(r, "&amp;verdict=%s",
			    store_verdict_name(f.verdict));
		if (f.host != NULL) {
			sv_puts(r, "&amp;host=");
			sv_qv(r, f.host);
		}
		sv_puts(r, "\">next pages</a></p>\n");
	}
	sv_foot(r);
	sv_send(r, 200);
}

static int
top_tr(const struct store_topcluster_row *x, void *arg)
{
	struct list *l = arg;
	struct sv_req *r = l->r;
	char a[40];

	if (x->original_id == l->last)
		return 0;
	l->last = x->original_id;
	l->n++;
	sv_printf(r, "<tr><td class=\"n\">%lld</td><td class=\"n\">%s</td>"
	    "<td class=\"u\"><a href=\"/cluster/%lld\">", (long long)l->n,
	    sv_num(x->pages, a, sizeof(a)), (long long)x->original_id);
	if (x->original_title != NULL && *x->original_title != '\0')
		sv_h(r, x->original_title);
	else if (x->original_url != NULL)
		sv_h(r, x->original_url);
	else
		sv_puts(r, "(a page no longer stored)");
	sv_puts(r, "</a><br><span class=\"note\">");
	sv_h(r, x->original_url);
	sv_puts(r, "</span></td></tr>\n");
	return 0;
}

void
svp_clusters(struct sv_req *r)
{
	struct list l = { r, 0, -1, -1 };
	int rc;

	if (begin(r) != 0)
		return;
	sv_head(r, "clusters", 0);
	sv_printf(r, "<h1>Largest clusters</h1>\n<p class=\"note\">The %d "
	    "originals with the most duplicate pages; open one to see every "
	    "member.</p>\n<table id=\"clusters\">\n<tr><th>#</th>"
	    "<th>copies</th><th>original</th></tr>\n", TOP_CLUSTERS);
	rc = store_report_top_clusters(store_view_conn(r->s->v),
	    TOP_CLUSTERS, top_tr, &l);
	if (end(r, rc) != 0)
		return;
	sv_puts(r, "</table>\n");
	if (l.n == 0)
		sv_puts(r, "<p>No page has duplicates.</p>\n");
	sv_foot(r);
	sv_send(r, 200);
}

/* The page of a cluster row, with its canonical. */
static void
canonical_td(struct sv_req *r, int64_t canonical_id, const char *canonical,
    const char *declared)
{
	sv_puts(r, "<td class=\"u\">");
	if (canonical_id > 0) {
		sv_page_link(r, canonical_id, NULL, canonical);
		sv_puts(r, " <span class=\"note\">(rank)</span>");
	}
	if (declared != NULL && *declared != '\0') {
		sv_puts(r, canonical_id > 0 ? "<br>" : "");
		sv_h(r, declared);
		sv_puts(r, " <span class=\"note\">(declared)</span>");
	}
	sv_puts(r, "</td>");
}

static int
member_tr(const struct store_view_match *m, void *arg)
{
	struct list *l = arg;
	struct sv_req *r = l->r;
	char t[40];

	if (m->other_id == l->page) {
		/* Another method that matched the same member. */
		sv_puts(r, "<br>");
		sv_h(r, m->method);
		sv_printf(r, " %.1f %%", m->percentage);
		return 0;
	}
	if (l->page != -1)
		sv_puts(r, "</td></tr>\n");
	if (sv_full(r)) {
		l->page = -1;
		return 1;
	}
	l->page = m->other_id;
	l->n++;
	l->last = m->seq;
	sv_printf(r, "<tr><td class=\"n\">%lld</td><td class=\"u\">",
	    (long long)m->seq);
	sv_page_link(r, m->other_id, m->title, m->url);
	sv_puts(r, "<br><span class=\"note\">");
	sv_h(r, m->url);
	sv_puts(r, "</span></td><td>");
	sv_verdict(r, m->verdict);
	sv_printf(r, "</td><td>%s</td>", sv_time(m->fetched_at, t,
	    sizeof(t)));
	canonical_td(r, m->canonical_id, m->canonical_url, m->declared);
	sv_puts(r, "<td>");
	sv_h(r, m->method);
	sv_printf(r, " %.1f %%", m->percentage);
	return 0;
}

/* What the cluster page says of its original. */
struct orig {
	struct sv_req *r;
	int found;
};

static int
orig_tr(const struct store_view_page *p, void *arg)
{
	struct orig *o = arg;
	struct sv_req *r = o->r;
	char t[40];

	o->found = 1;
	sv_puts(r, "<h1>Cluster of ");
	sv_h(r, p->title != NULL && *p->title != '\0' ? p->title : p->url);
	sv_puts(r, "</h1>\n<table id=\"members\">\n<tr><th>seq</th>"
	    "<th>page</th><th>verdict</th><th>fetched (UTC)</th>"
	    "<th>canonical</th><th>method, similarity</th></tr>\n");
	sv_printf(r, "<tr class=\"me\"><td class=\"n\">%lld</td>"
	    "<td class=\"u\">", (long long)p->seq);
	sv_page_link(r, p->id, p->title, p->url);
	sv_puts(r, "<br><span class=\"note\">");
	sv_h(r, p->url);
	sv_puts(r, "</span></td><td>");
	sv_verdict(r, p->verdict);
	sv_printf(r, "</td><td>%s</td>", sv_time(p->fetched_at, t,
	    sizeof(t)));
	canonical_td(r, p->canonical_id, p->canonical_url, p->declared);
	sv_puts(r, "<td>original</td></tr>\n");
	return 0;
}

static int
up_li(const struct store_view_match *m, void *arg)
{
	struct list *l = arg;
	struct sv_req *r = l->r;

	if (l->n++ == 0)
		sv_puts(r, "<p>This page itself repeats ");
	else
		sv_puts(r, ", ");
	sv_printf(r, "<a href=\"/cluster/%lld\">", (long long)m->other_id);
	sv_h(r, m->title != NULL && *m->title != '\0' ? m->title : m->url);
	sv_puts(r, "</a> (");
	sv_h(r, m->method);
	sv_printf(r, " %.1f %%)", m->percentage);
	return 0;
}

void
svp_cluster(struct sv_req *r, int64_t id)
{
	struct orig o = { r, 0 };
	struct list l = { r, 0, 0, -1 }, up = { r, 0, 0, -1 };
	int64_t after, pages = 0;
	char a[40];
	int rc;

	if (sv_query_num(r, "after", 0, INT64_MAX, 0, &after) < 0) {
		sv_error(r, 400, "after: a page's seq");
		return;
	}
	if (begin(r) != 0)
		return;
	sv_head(r, "cluster", 0);
	rc = store_view_page(r->s->v, id, orig_tr, &o);
	if (rc == 0 && o.found)
		rc = store_view_copies(r->s->v, id, after, SV_ROWS, &pages,
		    member_tr, &l);
	if (rc >= 0 && l.page != -1)
		sv_puts(r, "</td></tr>\n");
	if (rc >= 0 && o.found) {
		sv_puts(r, "</table>\n");
		rc = store_view_originals(r->s->v, id, up_li, &up);
	}
	if (end(r, rc) != 0)
		return;
	if (!o.found) {
		sv_error(r, 404, "no such page");
		return;
	}
	if (up.n > 0)
		sv_puts(r, ".</p>\n");
	sv_printf(r, "<p id=\"count\">%s duplicate page%s repeat this "
	    "page.</p>\n", sv_num(pages, a, sizeof(a)), pages == 1 ? "" : "s");
	if (l.n == SV_ROWS)
		sv_printf(r, "<p><a id=\"next\" href=\"/cluster/%lld?after=%lld\">"
		    "next members</a></p>\n", (long long)id, (long long)l.last);
	sv_foot(r);
	sv_send(r, 200);
}

static int
host_tr(const struct store_view_host *h, void *arg)
{
	struct list *l = arg;
	struct sv_req *r = l->r;
	char a[6][40], t[40];

	if (sv_full(r))
		return 1;
	l->n++;
	sv_puts(r, "<tr><td class=\"u\"><a href=\"/host?name=");
	sv_qv(r, h->host);
	sv_puts(r, "\">");
	sv_h(r, h->host);
	sv_printf(r, "</a></td><td class=\"n\">%s</td><td class=\"n\">%s</td>"
	    "<td class=\"n\">%s</td><td class=\"n\">%s</td>"
	    "<td class=\"n\">%s</td><td class=\"n\">%s</td>",
	    sv_num(h->pages, a[0], sizeof(a[0])),
	    sv_num(h->unique, a[1], sizeof(a[1])),
	    sv_num(h->exact, a[2], sizeof(a[2])),
	    sv_num(h->near, a[3], sizeof(a[3])),
	    sv_num(h->error, a[4], sizeof(a[4])),
	    sv_num(h->queued, a[5], sizeof(a[5])));
	if (h->has_state)
		sv_printf(r, "<td class=\"n\">%lld</td><td class=\"n\">%lld"
		    "</td><td>%s</td><td>", (long long)h->backoff_ms,
		    (long long)h->failures,
		    h->not_before > now() ? sv_time(h->not_before, t,
		    sizeof(t)) : "now");
	else
		sv_puts(r, "<td></td><td></td><td></td><td>");
	sv_h(r, h->gave_up);
	sv_puts(r, "</td></tr>\n");
	return 0;
}

static const char host_th[] = "<tr><th>host</th><th>pages</th>"
    "<th>unique</th><th>exact</th><th>near</th><th>errors</th>"
    "<th>queued</th><th>back-off (ms)</th><th>failures</th>"
    "<th>next request (UTC)</th><th>given up</th></tr>\n";

void
svp_hosts(struct sv_req *r)
{
	struct list l = { r, 0, 0, -1 };
	int rc;

	if (begin(r) != 0)
		return;
	sv_head(r, "hosts", 0);
	sv_printf(r, "<h1>Hosts</h1>\n<table id=\"hosts\">\n%s", host_th);
	rc = store_view_hosts(r->s->v, NULL, host_tr, &l);
	if (end(r, rc) != 0)
		return;
	sv_puts(r, "</table>\n");
	sv_foot(r);
	sv_send(r, 200);
}

static int
robots_div(const struct store_view_robots *x, void *arg)
{
	struct list *l = arg;
	struct sv_req *r = l->r;
	char a[40], b[40];
	size_t n = x->len < ROBOTS_SHOWN ? x->len : ROBOTS_SHOWN;

	l->n++;
	sv_puts(r, "<h2>robots.txt of ");
	sv_h(r, x->origin);
	sv_printf(r, "</h2>\n<p>status %d%s, fetched %s UTC, kept until %s "
	    "UTC, %lld failed fetches in a row</p>\n", x->status,
	    x->status == 0 ? " (no answer: everything disallowed)" :
	    x->status >= 500 ? " (everything disallowed)" :
	    x->status >= 400 ? " (everything allowed)" : "",
	    sv_time(x->fetched_at, a, sizeof(a)),
	    sv_time(x->expires_at, b, sizeof(b)), (long long)x->failures);
	sv_puts(r, "<pre class=\"robots\">");
	/* Bytes as fetched, escaped; a cut may fall inside a character,
	 * which is then shown as \xHH like any invalid byte. */
	sv_hn(r, x->body, n);
	sv_puts(r, "</pre>\n");
	if (n < x->len)
		sv_printf(r, "<p class=\"note\">(the first %d KiB)</p>\n",
		    ROBOTS_SHOWN / 1024);
	return 0;
}

void
svp_host(struct sv_req *r)
{
	const char *host = sv_query(r, "name");
	struct list l = { r, 0, 0, -1 }, rb = { r, 0, 0, -1 };
	int rc;

	if (host == NULL || *host == '\0') {
		sv_error(r, 400, "name: the host to show");
		return;
	}
	if (begin(r) != 0)
		return;
	sv_head(r, host, 0);
	sv_puts(r, "<h1>");
	sv_h(r, host);
	sv_printf(r, "</h1>\n<table id=\"host\">\n%s", host_th);
	rc = store_view_hosts(r->s->v, host, host_tr, &l);
	if (rc >= 0) {
		sv_puts(r, "</table>\n<p><a href=\"/pages?host=");
		sv_qv(r, host);
		sv_puts(r, "\">its pages</a></p>\n");
		rc = store_view_robots(r->s->v, host, robots_div, &rb);
	}
	if (end(r, rc) != 0)
		return;
	if (l.n == 0) {
		sv_error(r, 404, "no pages of this host");
		return;
	}
	if (rb.n == 0)
		sv_puts(r, "<p>No robots.txt stored for this host.</p>\n");
	sv_foot(r);
	sv_send(r, 200);
}
