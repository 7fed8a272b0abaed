/*
 * report: CSV tables, gnuplot plots, a plain summary and an HTML page of
 * one database.
 *
 * Everything is read through a read-only connection of our own
 * (storage/query.h) inside one read transaction (a snapshot), after
 * store_open has checked that the file is a nearcrawl database. Files are
 * created relative to a descriptor of the output directory, so nothing is
 * written outside it. The plots are in report_plot.c, index.html in
 * report_html.c; what they share is in report_out.h.
 */
#include "cmd/report.h"

#include <sys/stat.h>
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/report_html.h"
#include "cmd/report_out.h"
#include "cmd/report_plot.h"
#include "cmd/report_earlier.h"
#include "cmd/report_visits.h"
#include "storage/query.h"
#include "storage/store.h"
#include "util/esc.h"

#define GROWTH_THIN_ABOVE 2000 /* longer crawls get thinned rows */
#define GROWTH_ROWS 1000       /* to about this many */
#define HOST_THIN_ABOVE 400    /* a host's own curve: thinned above */
#define HOST_ROWS 200          /* to about this many points */

/* mkdir -p dir, then hold a descriptor of it. A directory that cannot be
 * made or used is refused before anything is written, as a database that
 * cannot be opened: REPORT_BADDB (exit 2, as crawl says of its files). */
static int
open_dir(struct rep *r)
{
	struct stat sb;
	char *path, *p;
	int e;

	if (r->dir[0] == '\0')
		return report_out_err(r, REPORT_BADDB, "empty output directory");
	if (stat(r->dir, &sb) == 0 && !S_ISDIR(sb.st_mode))
		return report_out_err(r, REPORT_BADDB,
		    "%s: exists and is not a directory", r->dir);
	if ((path = strdup(r->dir)) == NULL)
		return report_out_oom(r);
	for (p = path + 1; *p != '\0'; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0755) == -1 && errno != EEXIST)
			goto fail;
		*p = '/';
	}
	if (mkdir(path, 0755) == -1 && errno != EEXIST)
		goto fail;
	free(path);
	r->dfd = open(r->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (r->dfd == -1)
		return report_out_err(r, REPORT_BADDB, "%s: %s", r->dir,
		    errno == ENOTDIR ? "exists and is not a directory"
		                     : strerror(errno));
	return 0;
fail:
	e = errno;
	report_out_err(r, REPORT_BADDB, "%s: cannot create: %s", path, strerror(e));
	free(path);
	return REPORT_BADDB;
}

/*
 * Whether the i-th of total points (1-based) is kept: all of them up to
 * above, else about rows evenly spread, the first always.
 */
static int
thin_keeps(int64_t i, int64_t total, int64_t above, int64_t rows)
{
	if (total <= above || i == 1)
		return 1;
	/* A row each time i crosses the next of rows even steps. */
	return i * rows / total != (i - 1) * rows / total;
}

/* A page judged by a process not seen before (pages.worker, "machine:pid"):
 * the crawl was resumed then. 0, or an error when out of memory. */
static int
note_worker(struct rep *r, const struct store_growth_row *row)
{
	size_t i;

	if (row->worker == NULL || r->nworkers > REPORT_RESUMES_MAX)
		return 0;
	for (i = 0; i < r->nworkers; i++)
		if (strcmp(r->workers[i], row->worker) == 0)
			return 0;
	if ((r->workers[r->nworkers] = strdup(row->worker)) == NULL)
		return report_out_oom(r);
	if (r->nworkers++ > 0 && r->nresumed < REPORT_RESUMES_MAX)
		r->resumed[r->nresumed++] = row->fetched_at - r->first_at;
	return 0;
}

/* A growth.csv row, and the same point against time for growth-time.gp. */
static int
growth_row(struct rep *r, FILE *f, int64_t fetched, double at)
{
	fprintf(f, "%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 "\n", fetched,
	    r->unique, r->exact, r->near);
	r->growth_rows++;
	if (report_out_add_pt(&r->time, at - r->first_at, r->unique,
	    r->exact, r->near) != 0 ||
	    report_out_add_pt(&r->bypage, (double)fetched, r->unique,
	    r->exact, r->near) != 0)
		return report_out_oom(r);
	return 0;
}

/* The page's host among the busiest, or NULL. */
static struct top_host *
top_of(struct rep *r, const char *host)
{
	size_t i;

	for (i = 0; i < r->ntop; i++)
		if (strcmp(r->top[i].name, host) == 0)
			return &r->top[i];
	return NULL;
}

/* Count the page in its host's own curve, when the host is drawn. */
static int
host_point(struct rep *r, const struct store_growth_row *row)
{
	struct top_host *h = top_of(r, row->host);

	if (h == NULL)
		return 0;
	h->i++;
	h->unique += row->verdict == STORE_VERDICT_UNIQUE;
	h->exact += row->verdict == STORE_VERDICT_EXACT;
	h->near += row->verdict == STORE_VERDICT_NEAR;
	if (!thin_keeps(h->i, h->total, HOST_THIN_ABOVE, HOST_ROWS) &&
	    h->i != h->total)
		return 0;
	if (report_out_add_pt(&h->s, (double)h->i, h->unique, h->exact,
	    h->near) != 0)
		return report_out_oom(r);
	return 0;
}

/* write_growth's pass: the file, and where it is. */
struct growth {
	struct rep *r;
	FILE *f;
	int64_t total; /* pages */
	int64_t i;     /* pages so far */
	int64_t new_at; /* i of the last unique page */
	int kept;      /* the last page got a row */
	double at;     /* the last page's fetched_at */
};

static int
growth_page(const struct store_growth_row *row, void *arg)
{
	struct growth *g = arg;
	struct rep *r = g->r;

	int rc;

	g->i++;
	if (g->i == 1)
		r->first_at = r->min_at = r->max_at = row->fetched_at;
	if (row->fetched_at < r->min_at)
		r->min_at = row->fetched_at;
	if (row->fetched_at > r->max_at)
		r->max_at = row->fetched_at;
	g->at = row->fetched_at;
	if ((rc = note_worker(r, row)) != 0)
		return rc;
	switch (row->verdict) {
	case STORE_VERDICT_UNIQUE:
		r->unique++;
		r->last_new_seq = row->seq;
		g->new_at = g->i;
		break;
	case STORE_VERDICT_EXACT:
		r->exact++;
		break;
	case STORE_VERDICT_NEAR:
		r->near++;
		break;
	case STORE_VERDICT_REDIRECT:
		r->redirect++;
		break;
	case STORE_VERDICT_ERROR:
		r->error++;
		break;
	case STORE_VERDICT_SKIPPED:
		r->skipped++;
		break;
	default:
		break;
	}
	g->kept = thin_keeps(g->i, g->total, GROWTH_THIN_ABOVE, GROWTH_ROWS);
	if (g->kept && (rc = growth_row(r, g->f, g->i, row->fetched_at)) != 0)
		return rc;
	return host_point(r, row);
}

/* growth-time.csv: growth.csv's rows against the seconds since the first
 * fetch, the numbers growth-time.svg draws. */
static int
write_growth_time(struct rep *r)
{
	struct out o = {NULL, NULL};
	size_t i;
	int rc;

	if ((rc = report_out_open(r, &o, "growth-time.csv")) != 0)
		return rc;
	fputs("seconds,unique,exact,near\n", o.f);
	for (i = 0; i < r->time.n; i++)
		fprintf(o.f, "%.3f,%" PRId64 ",%" PRId64 ",%" PRId64 "\n",
		    r->time.pt[i].x, r->time.pt[i].unique, r->time.pt[i].exact,
		    r->time.pt[i].near);
	return report_out_close(r, &o);
}

/*
 * share.csv: the share of duplicates (exact and near) among the pages
 * judged in a sliding window of about a twentieth of the crawl (at least
 * 100 pages), at each growth.csv row past the first window: what an
 * argument that a crawl has saturated needs, where the cumulative curves
 * flatten too slowly to see. Rows as bypage holds them.
 */
static int
write_share(struct rep *r)
{
	const struct growth_pt *p = r->bypage.pt;
	struct out o = {NULL, NULL};
	int64_t judged, dup, w;
	size_t i, j = 0;
	int rc;

	w = r->pages / 20 > 100 ? r->pages / 20 : 100;
	r->share_window = w;
	if ((rc = report_out_open(r, &o, "share.csv")) != 0)
		return rc;
	fprintf(o.f, "fetched,duplicate_share_of_last_%" PRId64 "_judged\n",
	    w);
	for (i = 0; i < r->bypage.n; i++) {
		/* The latest row at least a window of judged pages back. */
		while (j + 1 < i && (p[i].unique + p[i].exact + p[i].near) -
		    (p[j + 1].unique + p[j + 1].exact + p[j + 1].near) >= w)
			j++;
		judged = (p[i].unique + p[i].exact + p[i].near) -
		    (p[j].unique + p[j].exact + p[j].near);
		if (judged < w)
			continue;
		dup = (p[i].exact + p[i].near) - (p[j].exact + p[j].near);
		fprintf(o.f, "%.0f,%.1f\n", p[i].x,
		    100.0 * (double)dup / (double)judged);
		r->share_rows++;
	}
	return report_out_close(r, &o);
}

/*
 * growth.csv, every verdict count, the curve against time and those of the
 * busiest hosts (found by write_hosts) from one pass along seq: the counts
 * are cumulative, so one ordered scan gives every row.
 */
static int
write_growth(struct rep *r)
{
	struct out o = {NULL, NULL};
	struct growth g;
	int rc;

	memset(&g, 0, sizeof(g));
	g.r = r;
	if (store_conn_page_count(r->c, &g.total) != 0)
		return report_out_dbfail(r);
	if ((rc = report_out_open(r, &o, "growth.csv")) != 0)
		return rc;
	fputs("fetched,unique,exact,near\n", o.f);
	g.f = o.f;
	if ((rc = store_report_growth(r->c, growth_page, &g)) != 0) {
		if (rc == -1)
			rc = report_out_dbfail(r);
		report_out_abort(&o);
		return rc;
	}
	/* The last row always, so the file ends at the database's counts. */
	if (g.i > 0 && !g.kept && (rc = growth_row(r, o.f, g.i, g.at)) != 0) {
		report_out_abort(&o);
		return rc;
	}
	r->pages = g.i;
	r->after_new = g.new_at > 0 ? g.i - g.new_at : 0;
	if ((rc = report_out_close(r, &o)) != 0 ||
	    (rc = write_growth_time(r)) != 0)
		return rc;
	return write_share(r);
}

/* Where a row function writes: the report and the open file. */
struct rows {
	struct rep *r;
	FILE *f;
	int64_t gone;  /* clusters.csv: rows naming a page not stored */
};

/* One more of the busiest hosts, drawn in hosts.svg. */
static int
add_top(struct rep *r, const struct store_host_row *h)
{
	struct top_host *t;

	if (r->top == NULL &&
	    (r->top = calloc((size_t)r->max_hosts, sizeof(*t))) == NULL)
		return report_out_oom(r);
	t = &r->top[r->ntop];
	if ((t->name = strdup(h->host != NULL ? h->host : "")) == NULL)
		return report_out_oom(r);
	t->total = h->pages;
	r->ntop++;
	return 0;
}

static int
host_line(const struct store_host_row *h, void *arg)
{
	struct rows *w = arg;
	int64_t dup = h->exact + h->near, judged = h->unique + dup;

	report_out_csv(w->f, h->host);
	fprintf(w->f,
	    ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%.3f",
	    h->pages, h->unique, h->exact, h->near,
	    judged > 0 ? (double)dup / (double)judged : 0.0);
	report_earlier_host(w->r, h->host, w->f);
	putc('\n', w->f);
	w->r->hosts++;
	return (size_t)w->r->ntop < (size_t)w->r->max_hosts ?
	    add_top(w->r, h) : 0;
}

static int
write_hosts(struct rep *r)
{
	struct out o = {NULL, NULL};
	struct rows w;
	int rc;

	if ((rc = report_out_open(r, &o, "hosts.csv")) != 0)
		return rc;
	fputs("host,pages,unique,exact,near,duplicate_share", o.f);
	report_earlier_header(r, o.f);
	putc('\n', o.f);
	w.r = r;
	w.f = o.f;
	if ((rc = store_report_hosts(r->c, host_line, &w)) != 0) {
		if (rc == -1)
			rc = report_out_dbfail(r);
		report_out_abort(&o);
		return rc;
	}
	return report_out_close(r, &o);
}

static int
cluster_line(const struct store_cluster_row *c, void *arg)
{
	struct rows *w = arg;

	if (c->original_url == NULL || c->duplicate_url == NULL)
		w->gone++;
	report_out_csv(w->f, c->original_url);
	putc(',', w->f);
	report_out_csv(w->f, c->duplicate_url);
	putc(',', w->f);
	report_out_csv(w->f, c->method);
	fprintf(w->f, ",%.2f,", c->percentage);
	report_out_csv(w->f, c->canonical_url);
	putc('\n', w->f);
	return 0;
}

/*
 * clusters.csv: one line per duplicates row, with an empty URL for a page
 * that is gone. The canonical comes last, so scripts reading the first
 * four columns keep working; it is empty until `nearcrawl rank` has run.
 */
static int
write_clusters(struct rep *r)
{
	struct out o = {NULL, NULL};
	struct rows w;
	int rc;

	if ((rc = report_out_open(r, &o, "clusters.csv")) != 0)
		return rc;
	fputs("original_url,duplicate_url,method,percentage,canonical_url\n",
	    o.f);
	w.r = r;
	w.f = o.f;
	w.gone = 0;
	if (store_report_clusters(r->c, cluster_line, &w) != 0) {
		rc = report_out_dbfail(r);
		report_out_abort(&o);
		return rc;
	}
	if (w.gone > 0) {
		fprintf(stderr, "nearcrawl: report: %lld duplicates rows name a "
		    "page that is not stored (an empty URL in clusters.csv): "
		    "`nearcrawl check -d ", (long long)w.gone);
		esc_fputs(r->db, stderr);
		fputs("` says what else is amiss\n", stderr);
	}
	return report_out_close(r, &o);
}

/* 5-point buckets by lower bound; exactly 100 (and above) is its own. */
static int
bucket_of(double pct)
{
	if (pct >= 100.0)
		return REPORT_SIM_BUCKETS - 1;
	if (!(pct > 0.0))
		return 0;
	return (int)(pct / 5.0);
}

static int
add_method(struct rep *r, const char *name)
{
	struct method *m;

	m = realloc(r->meth, (r->nmeth + 1) * sizeof(*m));
	if (m == NULL)
		return report_out_oom(r);
	r->meth = m;
	m += r->nmeth;
	memset(m, 0, sizeof(*m));
	if ((m->name = strdup(name)) == NULL)
		return report_out_oom(r);
	r->nmeth++;
	return 0;
}

/* One duplicates row into its method's buckets; rows come in method
 * order, one group each. */
static int
similarity_pair(const struct store_similarity_row *p, void *arg)
{
	struct rep *r = arg;
	const char *name = p->method != NULL ? p->method : "";
	struct method *m;
	int rc;

	if ((r->nmeth == 0 || strcmp(r->meth[r->nmeth - 1].name, name) != 0) &&
	    (rc = add_method(r, name)) != 0)
		return rc;
	m = &r->meth[r->nmeth - 1];
	m->n[bucket_of(p->percentage)]++;
	m->total++;
	r->pairs++;
	return 0;
}

/* similarity.csv. */
static int
write_similarity(struct rep *r)
{
	struct out o = {NULL, NULL};
	size_t i;
	int rc, b;

	if ((rc = store_report_similarity(r->c, similarity_pair, r)) != 0)
		return rc == -1 ? report_out_dbfail(r) : rc;
	if ((rc = report_out_open(r, &o, "similarity.csv")) != 0)
		return rc;
	fputs("method,bucket,pages\n", o.f);
	for (i = 0; i < r->nmeth; i++)
		for (b = 0; b < REPORT_SIM_BUCKETS; b++) {
			report_out_csv(o.f, r->meth[i].name);
			fprintf(
			    o.f, ",%d,%" PRId64 "\n", b * 5, r->meth[i].n[b]);
		}
	return report_out_close(r, &o);
}

static int
busiest_found(const struct store_busiest_row *b, void *arg)
{
	struct rep *r = arg;

	r->busiest_seq = b->seq;
	r->busiest_n = b->pages;
	if ((r->busiest_url = strdup(b->url != NULL ? b->url :
	    "(a page no longer stored)")) == NULL)
		return report_out_oom(r);
	return 0;
}

/* The original with the most distinct duplicate pages (earliest on ties),
 * and how the declared canonicals stand against rank's choice. */
static int
find_busiest(struct rep *r)
{
	int rc;

	if ((rc = store_report_busiest(r->c, busiest_found, r)) != 0)
		return rc == -1 ? report_out_dbfail(r) : rc;
	if (store_rank_canonical_counts(r->c, &r->canon) != 0)
		return report_out_dbfail(r);
	return 0;
}

static void
summary_line(
    FILE *f, const char *label, int64_t n, int64_t whole, const char *of)
{
	char num[40];

	fprintf(f, "%-20s %9s", label, report_out_grouped(n, num, sizeof(num)));
	if (of != NULL)
		fprintf(f, "  (%.1f%%%s)", report_out_percent(n, whole), of);
	putc('\n', f);
}

/* The headline figures in plain words, for summary.txt and the terminal. */
static void
put_summary(struct rep *r, FILE *f)
{
	char a[40], b[40], c[40], of[256];
	int64_t judged = r->unique + r->exact + r->near;
	size_t i;

	fputs("nearcrawl report of ", f);
	report_out_clean(f, r->db);
	fputs("\n\n", f);
	summary_line(f, "Pages fetched:", r->pages, 0, NULL);
	snprintf(of, sizeof(of), " of the %s classified pages",
	    report_out_grouped(judged, a, sizeof(a)));
	summary_line(f, "  unique:", r->unique, judged, of);
	summary_line(f, "  exact duplicates:", r->exact, judged, "");
	summary_line(f, "  near duplicates:", r->near, judged, "");
	summary_line(f, "  redirects:", r->redirect, 0, NULL);
	summary_line(f, "  errors:", r->error, 0, NULL);
	summary_line(f, "  skipped:", r->skipped, 0, NULL);
	summary_line(f, "Hosts:", r->hosts, 0, NULL);
	summary_line(f, "Duplicate pairs:", r->pairs, 0, NULL);
	for (i = 0; i < r->nmeth; i++) {
		fputs("  ", f);
		report_out_clean(f, r->meth[i].name);
		fprintf(f, ": %s\n", report_out_grouped(r->meth[i].total, a, sizeof(a)));
	}
	putc('\n', f);
	fprintf(f,
	    "Duplicate content: %.1f%% of the classified pages (%s of "
	    "%s) repeat an earlier page exactly or nearly.\n",
	    report_out_percent(r->exact + r->near, judged),
	    report_out_grouped(r->exact + r->near, a, sizeof(a)),
	    report_out_grouped(judged, b, sizeof(b)));
	if (r->busiest_url != NULL) {
		fputs("Busiest original: ", f);
		report_out_clean(f, r->busiest_url);
		fprintf(f, " (page %s) has %s duplicate page%s.\n",
		    report_out_grouped(r->busiest_seq, a, sizeof(a)),
		    report_out_grouped(r->busiest_n, b, sizeof(b)),
		    r->busiest_n == 1 ? "" : "s");
	} else
		fputs("Busiest original: no page has duplicates.\n", f);
	report_canonical_words(r, of, sizeof(of));
	fprintf(f, "Declared canonicals: %s\n", of);
	if (r->last_new_seq == 0)
		fputs("New content: no unique page was found.\n", f);
	else if (r->after_new == 0)
		fprintf(f,
		    "New content: the last page fetched (page %s) was "
		    "new; the crawl was still finding new content.\n",
		    report_out_grouped(r->last_new_seq, a, sizeof(a)));
	else
		fprintf(f,
		    "New content: the last new unique page was page %s; "
		    "the last %s of %s pages found nothing new.\n",
		    report_out_grouped(r->last_new_seq, a, sizeof(a)),
		    report_out_grouped(r->after_new, b, sizeof(b)),
		    report_out_grouped(r->pages, c, sizeof(c)));
	report_visits_text(r, f);
	report_earlier_text(r, f);
}

static int
write_summary(struct rep *r)
{
	struct out o = {NULL, NULL};
	int rc;

	if ((rc = report_out_open(r, &o, "summary.txt")) != 0)
		return rc;
	put_summary(r, o.f);
	return report_out_close(r, &o);
}


/* Open the database: store_open refuses files that are not ours. */
static int
open_db(struct rep *r)
{
	struct store *s;
	int rc;

	if ((s = store_open(r->db, STORE_READONLY, r->err, r->errsz)) == NULL)
		return REPORT_BADDB;
	/*
	 * The report's rows come through a read-only connection of our own
	 * (storage/query.h), opened while the store still holds the file, so
	 * it is the file just checked.
	 */
	rc = store_conn_open(r->db, STORE_CONN_READ, &r->c, r->err, r->errsz,
	    REPORT_BADDB, REPORT_BADDB);
	store_close(s);
	return rc;
}

/* The summary and what was written; plots only when gnuplot drew them. */
static void
print_done(struct rep *r, int plotted)
{
	char a[40], b[40], c[40];

	put_summary(r, stdout);
	fputs("\nReport in ", stdout);
	report_out_clean(stdout, r->dir);
	printf(": index.html, growth.csv (%s rows), hosts.csv (%s host%s), "
	       "clusters.csv (%s pair%s), similarity.csv, growth-time.csv, "
	       "share.csv, summary.txt%s%s\n",
	    report_out_grouped(r->growth_rows, a, sizeof(a)),
	    report_out_grouped(r->hosts, b, sizeof(b)), r->hosts == 1 ? "" : "s",
	    report_out_grouped(r->pairs, c, sizeof(c)), r->pairs == 1 ? "" : "s",
	    r->nbefore > 0 ? ", earlier.csv" : "",
	    plotted ? "; plots growth, growth-time, hosts, similarity and "
	              "share (.svg, .png)" : "");
}

static void
free_series(struct growth_series *s)
{
	free(s->pt);
}

int
report_write(const char *db, const char *dir, const struct report_opts *opt,
    char *err, size_t errsz)
{
	struct rep r;
	size_t i;
	int rc;

	memset(&r, 0, sizeof(r));
	r.db = db;
	r.dir = dir;
	r.err = err;
	r.errsz = errsz;
	r.dfd = -1;
	r.max_hosts = opt->hosts;
	report_out_err(&r, 0, "%s", "");
	/* The database first: a bad one must not leave an empty DIR. */
	if ((rc = open_db(&r)) != 0)
		goto out;
	if ((rc = open_dir(&r)) != 0)
		goto out;
	/* One snapshot, so the files agree while a crawl goes on writing. */
	if (store_conn_begin(r.c) != 0) {
		rc = report_out_dbfail(&r);
		goto out;
	}
	/* hosts first: the growth pass draws the busiest hosts' curves;
	 * the relation to earlier crawls before them, for their columns. */
	if ((rc = report_earlier_read(&r)) != 0 ||
	    (rc = write_hosts(&r)) != 0 || (rc = write_growth(&r)) != 0 ||
	    (rc = write_clusters(&r)) != 0 || (rc = report_visits_read(&r)) != 0 ||
	    (rc = write_similarity(&r)) != 0 || (rc = find_busiest(&r)) != 0 ||
	    (rc = report_html_write(&r)) != 0)
		goto out;
	/* Let go of the snapshot before the slow part: gnuplot. */
	if (store_conn_commit(r.c) != 0) {
		rc = report_out_dbfail(&r);
		goto out;
	}
	if ((rc = write_summary(&r)) != 0 || (rc = report_plot_write(&r)) != 0)
		goto out;
	rc = report_plot_run(&r);
	r.plotted = rc == 0;
	if (!opt->quiet)
		print_done(&r, r.plotted);
out:
	store_conn_close(r.c);
	if (r.dfd != -1)
		close(r.dfd);
	for (i = 0; i < r.nmeth; i++)
		free(r.meth[i].name);
	free(r.meth);
	for (i = 0; i < r.ntop; i++) {
		free(r.top[i].name);
		free_series(&r.top[i].s);
	}
	free(r.top);
	free_series(&r.time);
	free_series(&r.bypage);
	for (i = 0; i < r.nworkers; i++)
		free(r.workers[i]);
	free(r.busiest_url);
	free(r.visits);
	free(r.moves);
	for (i = 0; i < r.nbefore; i++)
		free(r.before[i].host);
	free(r.before);
	return rc;
}
