#include "cmd/report_visits.h"

#include <stdlib.h>
#include <string.h>

#include "cmd/report_out.h"
#include "storage/store_visits.h"

/* The word stored for outcome k. */
static const char *
outcome(size_t k)
{
	return store_outcome_name((enum store_outcome)k);
}

static int
visit_found(const struct store_visit_row *row, void *arg)
{
	struct rep *r = arg;
	struct rep_visit *v, *nv;
	size_t i;

	if (r->nvisits == 0 || r->visits[r->nvisits - 1].visit != row->visit) {
		nv = realloc(r->visits, (r->nvisits + 1) * sizeof(*nv));
		if (nv == NULL)
			return 1;
		r->visits = nv;
		memset(&nv[r->nvisits], 0, sizeof(*nv));
		nv[r->nvisits++].visit = row->visit;
	}
	v = &r->visits[r->nvisits - 1];
	for (i = 0; i < REPORT_OUTCOMES; i++)
		if (strcmp(row->outcome, outcome(i)) == 0)
			v->n[i] += row->pages;
	return 0;
}

/* A verdict word as stored; "?" for anything else (a tampered file). */
static void
word(char *out, size_t outsz, const char *w)
{
	const char *known = store_verdict_name(store_verdict_parse(w));

	snprintf(out, outsz, "%s", known != NULL ? known : "?");
}

static int
move_found(const struct store_move_row *row, void *arg)
{
	struct rep *r = arg;
	struct rep_move *nm;
	size_t i;

	if ((nm = realloc(r->moves, (r->nmoves + 1) * sizeof(*nm))) == NULL)
		return 1;
	r->moves = nm;
	nm += r->nmoves++;
	nm->visit = row->visit;
	nm->pages = row->pages;
	word(nm->was, sizeof(nm->was), row->was);
	word(nm->now, sizeof(nm->now), row->now);
	for (i = 0; i < r->nvisits; i++)
		if (r->visits[i].visit == row->visit)
			r->visits[i].moved += row->pages;
	return 0;
}

int
report_visits_read(struct rep *r)
{
	struct out o = {NULL, NULL};
	size_t i, k;
	int rc;

	if ((rc = store_report_visits(r->c, visit_found, r)) != 0 ||
	    (rc = store_report_moves(r->c, move_found, r)) != 0)
		return rc > 0 ? report_out_oom(r) : report_out_dbfail(r);
	if (r->nvisits == 0)
		return 0;
	if ((rc = report_out_open(r, &o, "visits.csv")) != 0)
		return rc;
	fputs("visit", o.f);
	for (k = 0; k < REPORT_OUTCOMES; k++)
		fprintf(o.f, ",%s", outcome(k));
	fputs(",verdict_changed\n", o.f);
	for (i = 0; i < r->nvisits; i++) {
		fprintf(o.f, "%lld", (long long)r->visits[i].visit);
		for (k = 0; k < REPORT_OUTCOMES; k++)
			fprintf(o.f, ",%lld", (long long)r->visits[i].n[k]);
		fprintf(o.f, ",%lld\n", (long long)r->visits[i].moved);
	}
	if ((rc = report_out_close(r, &o)) != 0 ||
	    (rc = report_out_open(r, &o, "visit-moves.csv")) != 0)
		return rc;
	fputs("visit,was,now,pages\n", o.f);
	for (i = 0; i < r->nmoves; i++)
		fprintf(o.f, "%lld,%s,%s,%lld\n", (long long)r->moves[i].visit,
		    r->moves[i].was, r->moves[i].now,
		    (long long)r->moves[i].pages);
	return report_out_close(r, &o);
}

/* Pages the visit asked for again (all but the new ones). */
static int64_t
revisited(const struct rep_visit *v)
{
	int64_t n = 0;
	size_t k;

	for (k = 0; k + 1 < REPORT_OUTCOMES; k++)
		n += v->n[k];
	return n;
}

void
report_visits_text(const struct rep *r, FILE *f)
{
	const struct rep_visit *v;
	char a[40], b[40];
	size_t i, k;

	if (r->nvisits == 0)
		return;
	fputs("\nRecrawls (visit 1 is the first crawl):\n", f);
	for (i = 0; i < r->nvisits; i++) {
		v = &r->visits[i];
		fprintf(f, "  visit %lld: %s pages visited again:",
		    (long long)v->visit,
		    report_out_grouped(revisited(v), a, sizeof(a)));
		for (k = 0; k + 1 < REPORT_OUTCOMES; k++)
			fprintf(f, "%s %s %.1f%%", k ? "," : "", outcome(k),
			    report_out_percent(v->n[k], revisited(v)));
		fprintf(f,
		    "; %s changed pages have another verdict; %s new "
		    "pages\n",
		    report_out_grouped(v->moved, a, sizeof(a)),
		    report_out_grouped(
		        v->n[REPORT_OUTCOMES - 1], b, sizeof(b)));
		for (k = 0; k < r->nmoves; k++)
			if (r->moves[k].visit == v->visit)
				fprintf(f, "    %s -> %s: %lld\n",
				    r->moves[k].was, r->moves[k].now,
				    (long long)r->moves[k].pages);
	}
}

void
report_visits_html(const struct rep *r, FILE *f)
{
	const struct rep_visit *v;
	size_t i, k;

	if (r->nvisits == 0)
		return;
	fputs("<h2>Recrawls</h2>\n<p class=\"note\">Each visit after the "
	      "first (<code>nearcrawl crawl --recrawl</code>) asked for every "
	      "page again, on condition; a changed page was judged again "
	      "against the others.</p>\n<table id=\"visits\">\n<tr>"
	      "<th>visit</th><th>visited</th>",
	    f);
	for (k = 0; k < REPORT_OUTCOMES; k++)
		fprintf(f, "<th>%s</th>", outcome(k));
	fputs("<th>verdict changed</th></tr>\n", f);
	for (i = 0; i < r->nvisits; i++) {
		v = &r->visits[i];
		fprintf(f, "<tr><td>%lld</td><td>%lld</td>",
		    (long long)v->visit, (long long)revisited(v));
		for (k = 0; k < REPORT_OUTCOMES; k++)
			fprintf(f, "<td>%lld</td>", (long long)v->n[k]);
		fprintf(f, "<td>%lld</td></tr>\n", (long long)v->moved);
	}
	fputs("</table>\n", f);
	if (r->nmoves == 0)
		return;
	fputs("<table id=\"visit-moves\">\n<tr><th>visit</th><th>was</th>"
	      "<th>now</th><th>pages</th></tr>\n",
	    f);
	for (i = 0; i < r->nmoves; i++)
		fprintf(f,
		    "<tr><td>%lld</td><td>%s</td><td>%s</td>"
		    "<td>%lld</td></tr>\n",
		    (long long)r->moves[i].visit, r->moves[i].was,
		    r->moves[i].now, (long long)r->moves[i].pages);
	fputs("</table>\n", f);
}
