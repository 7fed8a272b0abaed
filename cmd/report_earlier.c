#include "cmd/report_earlier.h"

#include <stdlib.h>
#include <string.h>

#include "cmd/report_out.h"
#include "util/esc.h"

/* Hosts the HTML table lists at most; earlier.csv has them all. */
#define HTML_HOSTS 200

static int
earlier_found(const struct store_earlier_row *row, void *arg)
{
	struct rep *r = arg;
	struct rep_earlier *nb, *b;

	if ((nb = realloc(r->before, (r->nbefore + 1) * sizeof(*nb))) == NULL)
		return 1;
	r->before = nb;
	b = &nb[r->nbefore];
	if ((b->host = strdup(row->host)) == NULL)
		return 1;
	r->nbefore++;
	b->n[0] = row->fresh;
	b->n[1] = row->same;
	b->n[2] = row->near;
	r->before_all[0] += row->fresh;
	r->before_all[1] += row->same;
	r->before_all[2] += row->near;
	return 0;
}

static int64_t
judged(const int64_t n[3])
{
	return n[0] + n[1] + n[2];
}

int
report_earlier_read(struct rep *r)
{
	struct out o = {NULL, NULL};
	const struct rep_earlier *b;
	size_t i;
	int rc;

	if ((rc = store_report_earlier(r->c, earlier_found, r)) != 0)
		return rc > 0 ? report_out_oom(r) : report_out_dbfail(r);
	if (r->nbefore == 0)
		return 0;
	if ((rc = report_out_open(r, &o, "earlier.csv")) != 0)
		return rc;
	fputs("host,judged,new,same_as_before,near_to_before\n", o.f);
	for (i = 0; i < r->nbefore; i++) {
		b = &r->before[i];
		report_out_csv(o.f, b->host);
		fprintf(o.f, ",%lld,%lld,%lld,%lld\n", (long long)judged(b->n),
		    (long long)b->n[0], (long long)b->n[1],
		    (long long)b->n[2]);
	}
	return report_out_close(r, &o);
}

static int
by_host(const void *key, const void *elem)
{
	return strcmp(key, ((const struct rep_earlier *)elem)->host);
}

void
report_earlier_header(const struct rep *r, FILE *f)
{
	if (r->nbefore > 0)
		fputs(",new,same_as_before,near_to_before", f);
}

void
report_earlier_host(const struct rep *r, const char *host, FILE *f)
{
	const struct rep_earlier *b;
	static const int64_t none[3];
	const int64_t *n;

	if (r->nbefore == 0)
		return;
	/* Read in byte order (store_report_earlier), as strcmp has it. */
	b = bsearch(host, r->before, r->nbefore, sizeof(*r->before),
	    by_host);
	n = b != NULL ? b->n : none;
	fprintf(f, ",%lld,%lld,%lld", (long long)n[0], (long long)n[1],
	    (long long)n[2]);
}

void
report_earlier_text(const struct rep *r, FILE *f)
{
	const int64_t *n = r->before_all;
	char a[40], b[40], c[40], d[40];

	if (r->nbefore == 0)
		return;
	fprintf(f, "\nAgainst the earlier crawls (--dedup-against): %s "
	    "pages judged:\n  new: %s (%.1f%%), same as before: %s (%.1f%%), "
	    "near to before: %s (%.1f%%)\n",
	    report_out_grouped(judged(n), a, sizeof(a)),
	    report_out_grouped(n[0], b, sizeof(b)),
	    report_out_percent(n[0], judged(n)),
	    report_out_grouped(n[1], c, sizeof(c)),
	    report_out_percent(n[1], judged(n)),
	    report_out_grouped(n[2], d, sizeof(d)),
	    report_out_percent(n[2], judged(n)));
	fputs("  per host in earlier.csv and hosts.csv\n", f);
}

void
report_earlier_html(const struct rep *r, FILE *f)
{
	const int64_t *n;
	size_t i;

	if (r->nbefore == 0)
		return;
	fputs("<h2>Against the earlier crawls</h2>\n<p class=\"note\">Each "
	      "page judged, against the crawls this one was deduplicated "
	      "against (<code>--dedup-against</code>): new, the same text "
	      "or bytes as before, or near a page of before. The crawl's "
	      "own verdicts do not depend on them.</p>\n"
	      "<table id=\"earlier\">\n<tr><th>host</th><th>judged</th>"
	      "<th>new</th><th>same as before</th><th>near to before</th>"
	      "</tr>\n", f);
	for (i = 0; i <= r->nbefore && i <= HTML_HOSTS; i++) {
		n = i == 0 ? r->before_all : r->before[i - 1].n;
		fputs("<tr><td>", f);
		if (i == 0)
			fputs("<b>all hosts</b>", f);
		else
			esc_html_fputs(r->before[i - 1].host, f);
		fprintf(f, "</td><td>%lld</td><td>%lld</td><td>%lld</td>"
		    "<td>%lld</td></tr>\n", (long long)judged(n),
		    (long long)n[0], (long long)n[1], (long long)n[2]);
	}
	fputs("</table>\n", f);
	if (r->nbefore > HTML_HOSTS)
		fprintf(f, "<p class=\"note\">The first %d hosts by name; "
		    "<a href=\"earlier.csv\">earlier.csv</a> has all %zu.</p>\n",
		    HTML_HOSTS, r->nbefore);
}
