/*
 * report_html: index.html (cmd/report_html.h).
 *
 * Everything from the web or the database -- URLs, titles, host and method
 * names, the database's path -- goes out through esc_html_fputs, which
 * also writes control bytes as \xHH. A URL becomes a link only when it is
 * http or https, so no javascript: or data: URL can be clicked; its href
 * is escaped like any attribute value. The page loads nothing from the
 * network: the CSS is inline and the images are the report's own SVG
 * files, named relative to the page.
 */
#include "cmd/report_html.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "cmd/report_out.h"
#include "cmd/report_earlier.h"
#include "cmd/report_visits.h"
#include "storage/query.h"
#include "util/esc.h"

#define HTML_CLUSTERS 20  /* largest clusters listed */
#define HTML_MEMBERS 50   /* duplicate pages listed per cluster */
#define HTML_HOSTS 100    /* hosts listed; hosts.csv has all */

static void
h(FILE *f, const char *s)
{
	esc_html_fputs(s, f);
}

/* A URL as text that a narrow column breaks after a '/', '?', '&' or
 * '=' (a <wbr> there), not in the middle of a word. */
static void
h_breakable(FILE *f, const char *url)
{
	char piece[2] = { 0, 0 };

	for (; *url != '\0'; url++) {
		piece[0] = *url;
		h(f, piece);
		if (strchr("/?&=", *url) != NULL && url[1] != '\0' &&
		    url[1] != '/')
			fputs("<wbr>", f);
	}
}

/* A page's URL: a link when http(s), else text; NULL when it is gone. */
static void
h_url(FILE *f, const char *url)
{
	if (url == NULL) {
		fputs("<em>(a page no longer stored)</em>", f);
		return;
	}
	if (strncasecmp(url, "http://", 7) != 0 &&
	    strncasecmp(url, "https://", 8) != 0) {
		h(f, url);
		return;
	}
	fputs("<a rel=\"nofollow noreferrer\" href=\"", f);
	h(f, url);
	fputs("\">", f);
	h_breakable(f, url);
	fputs("</a>", f);
}

static const char *
num(int64_t n, char *buf, size_t bufsz)
{
	return report_out_grouped(n, buf, bufsz);
}

/* A length of time as people say it: 42.0 s, 3 min 05 s, 2 h 07 min. */
static const char *
duration(double s, char *buf, size_t bufsz)
{
	long t;

	if (!(s >= 0))
		s = 0;
	if (s < 60) {
		snprintf(buf, bufsz, "%.1f s", s);
		return buf;
	}
	t = (long)(s + 0.5);
	if (t < 3600)
		snprintf(buf, bufsz, "%ld min %02ld s", t / 60, t % 60);
	else
		snprintf(buf, bufsz, "%ld h %02ld min", t / 3600,
		    t / 60 % 60);
	return buf;
}

/* A Unix time in UTC, ISO 8601 without the T. */
static const char *
utc(double at, char *buf, size_t bufsz)
{
	time_t t = (time_t)at;
	struct tm tm;

	if (gmtime_r(&t, &tm) == NULL ||
	    strftime(buf, bufsz, "%Y-%m-%d %H:%M:%S UTC", &tm) == 0)
		snprintf(buf, bufsz, "?");
	return buf;
}

static const char style[] =
    "body{font-family:sans-serif;margin:1em 2em;color:#222;"
    "max-width:1250px}\n"
    "h1{font-size:1.5em}h2{font-size:1.2em;margin-top:1.6em;"
    "border-bottom:1px solid #ccc}\n"
    "table{border-collapse:collapse;margin:.5em 0}\n"
    "th,td{border:1px solid #ccc;padding:.2em .5em;text-align:left;"
    "vertical-align:top}\n"
    "td.n{text-align:right;font-variant-numeric:tabular-nums}\n"
    "th{background:#f0f0f0}\n"
    "tr.orig td{background:#eef4fb;font-weight:bold}\n"
    "td.url{overflow-wrap:anywhere;max-width:40em}\n"
    "img{max-width:100%;height:auto;border:1px solid #ddd;margin:.3em 0}\n"
    ".note{color:#555;font-size:.9em}\n";

static void
sum_row(FILE *f, const char *label, int64_t n, const char *share)
{
	char a[40];

	fprintf(f, "<tr><th>%s</th><td class=\"n\">%s</td><td>%s</td></tr>\n",
	    label, num(n, a, sizeof(a)), share != NULL ? share : "");
}

static void
share_of(char *buf, size_t bufsz, int64_t n, int64_t judged)
{
	snprintf(buf, bufsz, "%.1f %% of the classified pages",
	    report_out_percent(n, judged));
}

static void
put_summary(struct rep *r, FILE *f)
{
	int64_t judged = r->unique + r->exact + r->near;
	char a[64], b[64], s[80], canon[256];
	size_t i;

	fputs("<h2 id=\"summary-h\">Summary</h2>\n"
	      "<table id=\"summary\">\n", f);
	sum_row(f, "pages fetched", r->pages, NULL);
	share_of(s, sizeof(s), r->unique, judged);
	sum_row(f, "unique", r->unique, s);
	share_of(s, sizeof(s), r->exact, judged);
	sum_row(f, "exact duplicates", r->exact, s);
	share_of(s, sizeof(s), r->near, judged);
	sum_row(f, "near duplicates", r->near, s);
	sum_row(f, "redirects", r->redirect, NULL);
	sum_row(f, "errors", r->error, NULL);
	sum_row(f, "skipped", r->skipped, NULL);
	sum_row(f, "hosts", r->hosts, NULL);
	sum_row(f, "duplicate pairs", r->pairs, NULL);
	for (i = 0; i < r->nmeth; i++) {
		fputs("<tr><th>&nbsp;&nbsp;by ", f);
		h(f, r->meth[i].name);
		fprintf(f, "</th><td class=\"n\">%s</td><td></td></tr>\n",
		    num(r->meth[i].total, a, sizeof(a)));
	}
	if (r->pages > 0)
		fprintf(f, "<tr><th>duration</th><td class=\"n\">%s</td>"
		    "<td>first page %s, last %s</td></tr>\n",
		    duration(r->max_at - r->min_at, s, sizeof(s)),
		    utc(r->min_at, a, sizeof(a)), utc(r->max_at, b, sizeof(b)));
	fputs("</table>\n<p>", f);
	fprintf(f, "Duplicate content: %.1f %% of the classified pages repeat "
	    "an earlier page exactly or nearly. ",
	    report_out_percent(r->exact + r->near, judged));
	if (r->busiest_url != NULL) {
		fputs("Busiest original: ", f);
		h_url(f, r->busiest_url);
		fprintf(f, " (page %s) has %s duplicate page%s. ",
		    num(r->busiest_seq, a, sizeof(a)),
		    num(r->busiest_n, b, sizeof(b)),
		    r->busiest_n == 1 ? "" : "s");
	}
	if (r->last_new_seq == 0)
		fputs("No unique page was found.", f);
	else if (r->after_new == 0)
		fputs("The last page fetched was new: the crawl was still "
		    "finding new content.", f);
	else
		fprintf(f, "The last new page was page %s; the last %s pages "
		    "found nothing new.", num(r->last_new_seq, a, sizeof(a)),
		    num(r->after_new, b, sizeof(b)));
	report_canonical_words(r, canon, sizeof(canon));
	fputs("</p>\n<p>Declared canonicals: ", f);
	/* Figures and fixed words only, but escaped like everything else. */
	esc_html_fputs(canon, f);
	fputs("</p>\n", f);
}

static void
figure(FILE *f, const char *base, const char *alt, const char *caption)
{
	fprintf(f, "<figure><a href=\"%s.svg\"><img src=\"%s.svg\" "
	    "alt=\"%s\"></a><figcaption class=\"note\">%s "
	    "(<a href=\"%s.png\">PNG</a>, <a href=\"%s.gp\">gnuplot "
	    "script</a>)</figcaption></figure>\n",
	    base, base, alt, caption, base, base);
}

static void
put_plots(struct rep *r, FILE *f)
{
	char a[40], b[40], cap[400];

	fputs("<h2>Growth</h2>\n", f);
	/* Say when growth.csv is thinned: a reader counting rows must know
	 * they are not one a page. */
	if (r->growth_rows < r->pages)
		snprintf(cap, sizeof(cap), "Running totals against pages "
		    "fetched: a flat unique curve means the crawl stopped "
		    "finding new content. growth.csv keeps %s of the %s "
		    "pages' points, evenly spread, the last always.",
		    num(r->growth_rows, a, sizeof(a)),
		    num(r->pages, b, sizeof(b)));
	else
		snprintf(cap, sizeof(cap), "Running totals against pages "
		    "fetched: a flat unique curve means the crawl stopped "
		    "finding new content. growth.csv has a row a page.");
	figure(f, "growth", "unique, exact and near pages against pages "
	    "fetched", cap);
	figure(f, "growth-time", "unique, exact and near pages against time",
	    "The same against the time since the first fetch "
	    "(growth-time.csv).");
	snprintf(cap, sizeof(cap), "The share of exact and near duplicates "
	    "among the last %s pages judged (share.csv): where the totals "
	    "flatten too slowly to see, this says whether the crawl still "
	    "finds new content.", num(r->share_window, a, sizeof(a)));
	figure(f, "share", "duplicate share of a sliding window", cap);
	fprintf(f, "<h2>Growth per host</h2>\n");
	figure(f, "hosts", "growth of the busiest hosts",
	    "The busiest hosts, each against its own pages fetched "
	    "(<code>--hosts N</code> sets how many).");
	fputs("<h2>Similarity of duplicates</h2>\n", f);
	figure(f, "similarity", "duplicate pairs per similarity bucket",
	    "Duplicate pairs per 5-point similarity bucket, per method, over "
	    "the buckets that hold any.");
}

/* Where a row function writes, and how far it got. */
struct hrows {
	struct rep *r;
	FILE *f;
	int64_t n;          /* rows seen */
	int64_t original;   /* cluster being written, -1 before the first */
	int64_t page;       /* member row open, -1 when none */
	int64_t last;       /* member page of the last row, -1 when none */
	int64_t shown;      /* member pages written in this cluster */
	int64_t hidden;     /* member pages over HTML_MEMBERS */
};

static int
host_tr(const struct store_host_row *x, void *arg)
{
	struct hrows *w = arg;
	int64_t dup = x->exact + x->near, judged = x->unique + dup;
	char a[40], b[40], c[40], d[40];

	if (++w->n > HTML_HOSTS)
		return 0;
	fputs("<tr><td>", w->f);
	h(w->f, x->host);
	fprintf(w->f, "</td><td class=\"n\">%s</td><td class=\"n\">%s</td>"
	    "<td class=\"n\">%s</td><td class=\"n\">%s</td>"
	    "<td class=\"n\">%.1f %%</td></tr>\n",
	    num(x->pages, a, sizeof(a)), num(x->unique, b, sizeof(b)),
	    num(x->exact, c, sizeof(c)), num(x->near, d, sizeof(d)),
	    report_out_percent(dup, judged));
	return 0;
}

static int
put_hosts(struct rep *r, FILE *f)
{
	struct hrows w;
	char a[40];
	int rc;

	memset(&w, 0, sizeof(w));
	w.r = r;
	w.f = f;
	fputs("<h2>Hosts</h2>\n<table id=\"hosts\">\n<tr><th>host</th>"
	    "<th>pages</th><th>unique</th><th>exact</th><th>near</th>"
	    "<th>duplicate share</th></tr>\n", f);
	if ((rc = store_report_hosts(r->c, host_tr, &w)) != 0)
		return rc == -1 ? report_out_dbfail(r) : rc;
	fputs("</table>\n", f);
	if (w.n > HTML_HOSTS)
		fprintf(f, "<p class=\"note\">The %d busiest of %s hosts; "
		    "<a href=\"hosts.csv\">hosts.csv</a> lists all.</p>\n",
		    HTML_HOSTS, num(w.n, a, sizeof(a)));
	return 0;
}

/* End the open member row, or the cluster's list with what was left out. */
static void
member_end(struct hrows *w)
{
	if (w->page != -1)
		fputs("</td></tr>\n", w->f);
	w->page = -1;
}

static void
cluster_end(struct hrows *w)
{
	char a[40];

	member_end(w);
	if (w->original != -1 && w->hidden > 0)
		fprintf(w->f, "<tr><td></td><td colspan=\"3\" class=\"note\">"
		    "and %s more duplicate pages (see clusters.csv)</td>"
		    "</tr>\n", num(w->hidden, a, sizeof(a)));
	if (w->original != -1)
		fputs("</tbody>\n", w->f);
}

static void
title_td(FILE *f, const char *title)
{
	fputs("<td>", f);
	h(f, title != NULL ? title : "");
	fputs("</td>", f);
}

/* Rows come by cluster, then by member page, then method. */
static int
cluster_tr(const struct store_topcluster_row *x, void *arg)
{
	struct hrows *w = arg;
	FILE *f = w->f;
	char a[40];

	if (x->original_id != w->original) {
		cluster_end(w);
		w->original = x->original_id;
		w->shown = w->hidden = 0;
		w->last = -1;
		w->n++;
		fprintf(f, "<tbody><tr class=\"orig\"><td class=\"n\">%" PRId64
		    "</td><td class=\"url\">", w->n);
		h_url(f, x->original_url);
		fputs("</td>", f);
		title_td(f, x->original_title);
		fprintf(f, "<td>original of %s duplicate page%s</td></tr>\n",
		    num(x->pages, a, sizeof(a)), x->pages == 1 ? "" : "s");
	}
	if (x->page_id != w->last) {
		member_end(w);
		w->last = x->page_id;
		if (w->shown >= HTML_MEMBERS) {
			w->hidden++;
			return 0;
		}
		w->shown++;
		w->page = x->page_id;
		fputs("<tr><td></td><td class=\"url\">", f);
		h_url(f, x->url);
		fputs("</td>", f);
		title_td(f, x->title);
		fputs("<td>", f);
	} else if (w->page == -1) {
		return 0; /* a further method of a page left out */
	} else
		fputs(", ", f);
	h(f, x->method != NULL ? x->method : "?");
	fprintf(f, " %.1f %%", x->percentage);
	return 0;
}

static int
put_clusters(struct rep *r, FILE *f)
{
	struct hrows w;
	int rc;

	memset(&w, 0, sizeof(w));
	w.r = r;
	w.f = f;
	w.original = w.page = w.last = -1;
	fprintf(f, "<h2>Largest duplicate clusters</h2>\n<p class=\"note\">"
	    "The %d originals with the most duplicate pages; under each, its "
	    "duplicates with the method that matched and how similar they "
	    "are. <a href=\"clusters.csv\">clusters.csv</a> has every "
	    "pair.</p>\n"
	    "<table id=\"clusters\">\n<thead><tr><th>#</th><th>page</th>"
	    "<th>title</th><th>match</th></tr></thead>\n", HTML_CLUSTERS);
	if ((rc = store_report_top_clusters(r->c, HTML_CLUSTERS, cluster_tr,
	    &w)) != 0)
		return rc == -1 ? report_out_dbfail(r) : rc;
	cluster_end(&w);
	fputs("</table>\n", f);
	if (w.n == 0)
		fputs("<p>No page has duplicates.</p>\n", f);
	return 0;
}

/*
 * Marks in the page, once loaded, how many of its images drew: a check a
 * browser (or a test) can read from the DOM.
 */
static const char img_check[] =
    "<script>\n"
    "window.addEventListener('load', function () {\n"
    "\tvar im = document.images, ok = 0, i;\n"
    "\tfor (i = 0; i < im.length; i++)\n"
    "\t\tif (im[i].complete && im[i].naturalWidth > 0)\n"
    "\t\t\tok++;\n"
    "\tdocument.body.setAttribute('data-images', ok + '/' + im.length);\n"
    "});\n"
    "</script>\n";

int
report_html_write(struct rep *r)
{
	struct out o = {NULL, NULL};
	char a[64];
	int rc;

	if ((rc = report_out_open(r, &o, "index.html")) != 0)
		return rc;
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	    "<meta charset=\"utf-8\">\n"
	    "<meta name=\"viewport\" content=\"width=device-width\">\n"
	    "<title>nearcrawl report: ", o.f);
	h(o.f, r->db);
	fprintf(o.f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n"
	    "<h1>nearcrawl report</h1>\n<p>Database <code>", style);
	h(o.f, r->db);
	fprintf(o.f, "</code>, reported %s.</p>\n",
	    utc((double)time(NULL), a, sizeof(a)));
	put_summary(r, o.f);
	put_plots(r, o.f);
	if ((rc = put_hosts(r, o.f)) != 0 || (rc = put_clusters(r, o.f)) != 0) {
		report_out_abort(&o);
		return rc;
	}
	report_visits_html(r, o.f);
	report_earlier_html(r, o.f);
	fputs("<h2>Files</h2>\n<p><a href=\"summary.txt\">summary.txt</a>, "
	    "<a href=\"growth.csv\">growth.csv</a>, "
	    "<a href=\"hosts.csv\">hosts.csv</a>, "
	    "<a href=\"clusters.csv\">clusters.csv</a>, "
	    "<a href=\"similarity.csv\">similarity.csv</a>, "
	    "<a href=\"growth-time.csv\">growth-time.csv</a>, "
	    "<a href=\"share.csv\">share.csv</a>; the plots are "
	    "drawn again from their .gp scripts with "
	    "<code>gnuplot growth.gp similarity.gp growth-time.gp "
	    "hosts.gp share.gp</code>.</p>\n", o.f);
	fputs(img_check, o.f);
	fputs("</body>\n</html>\n", o.f);
	return report_out_close(r, &o);
}
