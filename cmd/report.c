/*
 * report: CSV tables, gnuplot plots and a plain summary of one database.
 *
 * Everything is read through a read-only connection of our own
 * (storage/query.h) inside one read transaction (a snapshot), after
 * store_open has checked that the file is a nearcrawl database. Files are
 * created relative to a descriptor of the output directory, so nothing is
 * written outside it.
 */
#include "cmd/report.h"

#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/esc.h"
#include "storage/query.h"
#include "storage/store.h"
#include "util/err.h"

#define GROWTH_THIN_ABOVE 2000 /* longer crawls get thinned rows */
#define GROWTH_ROWS 1000       /* to about this many */
#define SIM_BUCKETS 21         /* 0, 5, ... 95, and 100 for exactly 100 */
#define SIM_PLOT_METHODS 12    /* series drawn; the CSV keeps every method */
#define PLOT_SIZE "900,540"

/* Duplicate counts of one method, per similarity bucket. */
struct method {
	char *name;             /* as stored (untrusted) */
	int64_t n[SIM_BUCKETS]; /* pairs per bucket */
	int64_t total;          /* pairs of this method */
};

struct rep {
	const char *db;       /* database path, for messages */
	const char *dir;      /* output directory, for messages */
	char *err;            /* caller's message buffer */
	size_t errsz;         /* its size */
	struct store_conn *c; /* our read-only connection */
	int dfd;              /* the output directory; files open relative */
	int64_t pages;        /* pages rows */
	int64_t unique;       /* verdict unique */
	int64_t exact;        /* verdict exact */
	int64_t near;         /* verdict near */
	int64_t redirect;     /* verdict redirect */
	int64_t error;        /* verdict error */
	int64_t skipped;      /* verdict skipped */
	int64_t last_new_seq; /* seq of the last unique page, 0 when none */
	int64_t after_new;    /* pages fetched after it */
	int64_t growth_rows;  /* data rows in growth.csv */
	int64_t hosts;        /* distinct hosts */
	int64_t pairs;        /* duplicates rows */
	char *busiest_url;    /* original with most duplicate pages, or NULL */
	int64_t busiest_seq;  /* its seq */
	int64_t busiest_n;    /* its duplicate pages */
	struct method *meth;  /* per method, in name order */
	size_t nmeth;         /* entries in meth */
};

/* An output file being written; write errors are checked once, at close. */
struct out {
	FILE *f;          /* NULL when closed */
	const char *name; /* file name inside the directory */
};

static int set_err(struct rep *r, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* err_set into the caller's buffer. */
static int
set_err(struct rep *r, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	code = err_vset(r->err, r->errsz, code, fmt, ap);
	va_end(ap);
	return code;
}

static int
db_fail(struct rep *r)
{
	return store_conn_fail(r->c, r->err, r->errsz, REPORT_RUNTIME,
	    REPORT_BADDB);
}

static int
oom_fail(struct rep *r)
{
	return set_err(r, REPORT_RUNTIME, "out of memory");
}

/*
 * Untrusted text (anything read from the database) goes out through esc.h,
 * in every file: a terminal obeys control bytes wherever they come from,
 * and a CSV file is read with cat as often as with a spreadsheet. Stored
 * URLs are normalised and never hold such bytes; only a tampered database
 * could, so escaping never changes an honest report.
 */

/* Untrusted text for a human. */
static void
put_clean(FILE *f, const char *s)
{
	esc_fputs(s, f);
}

/* One CSV field, quoted per RFC 4180 only when it must be. Line breaks
 * are escaped, so only a comma or a quote needs quoting. */
static void
put_csv(FILE *f, const char *s)
{
	if (s == NULL)
		s = "";
	if (strpbrk(s, ",\"") == NULL) {
		esc_fputs(s, f);
		return;
	}
	putc('"', f);
	esc_fputq(s, '"', f);
	putc('"', f);
}

/* Untrusted text inside a single-quoted gnuplot string: a quote is doubled;
 * a newline, which would end the command, is escaped like any control. */
static void
put_gp_string(FILE *f, const char *s)
{
	putc('\'', f);
	esc_fputq(s, '\'', f);
	putc('\'', f);
}

/* n with thousands separators, as people read counts: 4,000. */
static const char *
grouped(int64_t n, char *buf, size_t bufsz)
{
	char digits[32];
	size_t len, i, o = 0;
	int neg = n < 0;

	snprintf(digits, sizeof(digits), "%" PRIu64,
	    neg ? (uint64_t)0 - (uint64_t)n : (uint64_t)n);
	len = strlen(digits);
	if (bufsz < len + len / 3 + 2)
		return "?";
	if (neg)
		buf[o++] = '-';
	for (i = 0; i < len; i++) {
		if (i > 0 && (len - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = digits[i];
	}
	buf[o] = '\0';
	return buf;
}

static double
percent(int64_t part, int64_t whole)
{
	return whole > 0 ? 100.0 * (double)part / (double)whole : 0.0;
}

static int
out_open(struct rep *r, struct out *o, const char *name)
{
	int fd, e;

	o->name = name;
	/*
	 * O_NOFOLLOW: a symbolic link left in the directory must not send
	 * the report to a file elsewhere.
	 */
	fd = openat(r->dfd, name,
	    O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd == -1)
		return set_err(r, REPORT_RUNTIME, "%s/%s: %s", r->dir, name,
		    errno == ELOOP ? "is a symbolic link, not followed"
		                   : strerror(errno));
	if ((o->f = fdopen(fd, "w")) == NULL) {
		e = errno;
		close(fd);
		return set_err(
		    r, REPORT_RUNTIME, "%s/%s: %s", r->dir, name, strerror(e));
	}
	return 0;
}

/* Close o; a write error anywhere in the file is reported here. */
static int
out_close(struct rep *r, struct out *o)
{
	int bad;

	if (o->f == NULL)
		return 0;
	bad = ferror(o->f);
	if (fclose(o->f) != 0 && !bad)
		bad = errno != 0 ? errno : EIO;
	else if (bad)
		bad = EIO;
	o->f = NULL;
	if (bad)
		return set_err(r, REPORT_RUNTIME, "%s/%s: cannot write: %s",
		    r->dir, o->name, strerror(bad));
	return 0;
}

/* Close o on a path that already failed: its own error is not wanted. */
static void
out_abort(struct out *o)
{
	if (o->f != NULL)
		fclose(o->f);
	o->f = NULL;
}

/* mkdir -p dir, then hold a descriptor of it. */
static int
open_dir(struct rep *r)
{
	struct stat sb;
	char *path, *p;
	int e;

	if (r->dir[0] == '\0')
		return set_err(r, REPORT_RUNTIME, "empty output directory");
	if (stat(r->dir, &sb) == 0 && !S_ISDIR(sb.st_mode))
		return set_err(r, REPORT_RUNTIME,
		    "%s: exists and is not a directory", r->dir);
	if ((path = strdup(r->dir)) == NULL)
		return oom_fail(r);
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
		return set_err(r, REPORT_RUNTIME, "%s: %s", r->dir,
		    errno == ENOTDIR ? "exists and is not a directory"
		                     : strerror(errno));
	return 0;
fail:
	e = errno;
	set_err(r, REPORT_RUNTIME, "%s: cannot create: %s", path, strerror(e));
	free(path);
	return REPORT_RUNTIME;
}

/* Whether the i-th of total pages (1-based) gets a growth.csv row. */
static int
growth_keeps(int64_t i, int64_t total)
{
	if (total <= GROWTH_THIN_ABOVE || i == 1)
		return 1;
	/* A row each time i crosses the next of GROWTH_ROWS even steps. */
	return i * GROWTH_ROWS / total != (i - 1) * GROWTH_ROWS / total;
}

static void
growth_row(struct rep *r, FILE *f, int64_t fetched)
{
	fprintf(f, "%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 "\n", fetched,
	    r->unique, r->exact, r->near);
	r->growth_rows++;
}

/* write_growth's pass: the file, and where it is. */
struct growth {
	struct rep *r;
	FILE *f;
	int64_t total; /* pages */
	int64_t i;     /* pages so far */
	int64_t new_at; /* i of the last unique page */
	int kept;      /* the last page got a row */
};

static int
growth_page(const struct store_growth_row *row, void *arg)
{
	struct growth *g = arg;
	struct rep *r = g->r;

	g->i++;
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
	g->kept = growth_keeps(g->i, g->total);
	if (g->kept)
		growth_row(r, g->f, g->i);
	return 0;
}

/*
 * growth.csv, and every verdict count, from one pass along seq: the counts
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
		return db_fail(r);
	if ((rc = out_open(r, &o, "growth.csv")) != 0)
		return rc;
	fputs("fetched,unique,exact,near\n", o.f);
	g.f = o.f;
	if (store_report_growth(r->c, growth_page, &g) != 0) {
		rc = db_fail(r);
		out_abort(&o);
		return rc;
	}
	/* The last row always, so the file ends at the database's counts. */
	if (g.i > 0 && !g.kept)
		growth_row(r, o.f, g.i);
	r->pages = g.i;
	r->after_new = g.new_at > 0 ? g.i - g.new_at : 0;
	return out_close(r, &o);
}

/* Where a row function writes: the report and the open file. */
struct rows {
	struct rep *r;
	FILE *f;
};

static int
host_line(const struct store_host_row *h, void *arg)
{
	struct rows *w = arg;
	int64_t dup = h->exact + h->near, judged = h->unique + dup;

	put_csv(w->f, h->host);
	fprintf(w->f,
	    ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%.3f\n",
	    h->pages, h->unique, h->exact, h->near,
	    judged > 0 ? (double)dup / (double)judged : 0.0);
	w->r->hosts++;
	return 0;
}

static int
write_hosts(struct rep *r)
{
	struct out o = {NULL, NULL};
	struct rows w;
	int rc;

	if ((rc = out_open(r, &o, "hosts.csv")) != 0)
		return rc;
	fputs("host,pages,unique,exact,near,duplicate_share\n", o.f);
	w.r = r;
	w.f = o.f;
	if (store_report_hosts(r->c, host_line, &w) != 0) {
		rc = db_fail(r);
		out_abort(&o);
		return rc;
	}
	return out_close(r, &o);
}

static int
cluster_line(const struct store_cluster_row *c, void *arg)
{
	struct rows *w = arg;

	put_csv(w->f, c->original_url);
	putc(',', w->f);
	put_csv(w->f, c->duplicate_url);
	putc(',', w->f);
	put_csv(w->f, c->method);
	fprintf(w->f, ",%.2f,", c->percentage);
	put_csv(w->f, c->canonical_url);
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

	if ((rc = out_open(r, &o, "clusters.csv")) != 0)
		return rc;
	fputs("original_url,duplicate_url,method,percentage,canonical_url\n",
	    o.f);
	w.r = r;
	w.f = o.f;
	if (store_report_clusters(r->c, cluster_line, &w) != 0) {
		rc = db_fail(r);
		out_abort(&o);
		return rc;
	}
	return out_close(r, &o);
}

/* 5-point buckets by lower bound; exactly 100 (and above) is its own. */
static int
bucket_of(double pct)
{
	if (pct >= 100.0)
		return SIM_BUCKETS - 1;
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
		return oom_fail(r);
	r->meth = m;
	m += r->nmeth;
	memset(m, 0, sizeof(*m));
	if ((m->name = strdup(name)) == NULL)
		return oom_fail(r);
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
		return rc == -1 ? db_fail(r) : rc;
	if ((rc = out_open(r, &o, "similarity.csv")) != 0)
		return rc;
	fputs("method,bucket,pages\n", o.f);
	for (i = 0; i < r->nmeth; i++)
		for (b = 0; b < SIM_BUCKETS; b++) {
			put_csv(o.f, r->meth[i].name);
			fprintf(
			    o.f, ",%d,%" PRId64 "\n", b * 5, r->meth[i].n[b]);
		}
	return out_close(r, &o);
}

static int
busiest_found(const struct store_busiest_row *b, void *arg)
{
	struct rep *r = arg;

	r->busiest_seq = b->seq;
	r->busiest_n = b->pages;
	if ((r->busiest_url = strdup(b->url != NULL ? b->url :
	    "(a page no longer stored)")) == NULL)
		return oom_fail(r);
	return 0;
}

/* The original with the most distinct duplicate pages (earliest on ties). */
static int
find_busiest(struct rep *r)
{
	int rc;

	if ((rc = store_report_busiest(r->c, busiest_found, r)) != 0)
		return rc == -1 ? db_fail(r) : rc;
	return 0;
}

static void
summary_line(
    FILE *f, const char *label, int64_t n, int64_t whole, const char *of)
{
	char num[40];

	fprintf(f, "%-20s %9s", label, grouped(n, num, sizeof(num)));
	if (of != NULL)
		fprintf(f, "  (%.1f%%%s)", percent(n, whole), of);
	putc('\n', f);
}

/* The headline figures in plain words, for summary.txt and the terminal. */
static void
put_summary(struct rep *r, FILE *f)
{
	char a[40], b[40], c[40], of[80];
	int64_t judged = r->unique + r->exact + r->near;
	size_t i;

	fputs("nearcrawl report of ", f);
	put_clean(f, r->db);
	fputs("\n\n", f);
	summary_line(f, "Pages fetched:", r->pages, 0, NULL);
	snprintf(of, sizeof(of), " of the %s classified pages",
	    grouped(judged, a, sizeof(a)));
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
		put_clean(f, r->meth[i].name);
		fprintf(f, ": %s\n", grouped(r->meth[i].total, a, sizeof(a)));
	}
	putc('\n', f);
	fprintf(f,
	    "Duplicate content: %.1f%% of the classified pages (%s of "
	    "%s) repeat an earlier page exactly or nearly.\n",
	    percent(r->exact + r->near, judged),
	    grouped(r->exact + r->near, a, sizeof(a)),
	    grouped(judged, b, sizeof(b)));
	if (r->busiest_url != NULL) {
		fputs("Busiest original: ", f);
		put_clean(f, r->busiest_url);
		fprintf(f, " (page %s) has %s duplicate page%s.\n",
		    grouped(r->busiest_seq, a, sizeof(a)),
		    grouped(r->busiest_n, b, sizeof(b)),
		    r->busiest_n == 1 ? "" : "s");
	} else
		fputs("Busiest original: no page has duplicates.\n", f);
	if (r->last_new_seq == 0)
		fputs("New content: no unique page was found.\n", f);
	else if (r->after_new == 0)
		fprintf(f,
		    "New content: the last page fetched (page %s) was "
		    "new; the crawl was still finding new content.\n",
		    grouped(r->last_new_seq, a, sizeof(a)));
	else
		fprintf(f,
		    "New content: the last new unique page was page %s; "
		    "the last %s of %s pages found nothing new.\n",
		    grouped(r->last_new_seq, a, sizeof(a)),
		    grouped(r->after_new, b, sizeof(b)),
		    grouped(r->pages, c, sizeof(c)));
}

static int
write_summary(struct rep *r)
{
	struct out o = {NULL, NULL};
	int rc;

	if ((rc = out_open(r, &o, "summary.txt")) != 0)
		return rc;
	put_summary(r, o.f);
	return out_close(r, &o);
}

/*
 * The svg terminal first; the caller then writes the plot command, and
 * gp_png draws it again with `replot`, so the command is written once.
 */
static void
gp_svg(FILE *f, const char *base)
{
	fprintf(f,
	    "set terminal svg size " PLOT_SIZE " noenhanced "
	    "background rgb 'white'\n"
	    "set output '%s.svg'\n",
	    base);
}

/* The PNG: pngcairo when this gnuplot has it, libgd's png otherwise. */
static void
gp_png(FILE *f, const char *base)
{
	fprintf(f,
	    "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
	    "\tset terminal pngcairo size " PLOT_SIZE " noenhanced\n"
	    "} else {\n"
	    "\tset terminal png size " PLOT_SIZE " noenhanced\n"
	    "}\n"
	    "set output '%s.png'\n"
	    "replot\n"
	    "set output\n",
	    base);
}

/*
 * A plot with no data points is an error to gnuplot, so an empty crawl gets
 * an empty frame with a note instead.
 */
static void
gp_empty(FILE *f, const char *base, const char *note)
{
	fprintf(f,
	    "set label 1 '%s' at graph 0.5, 0.5 center\n"
	    "set xrange [0:1]\nset yrange [0:1]\n",
	    note);
	gp_svg(f, base);
	fputs("plot -1 notitle\n", f);
	gp_png(f, base);
}

/*
 * growth.gp draws growth.csv; it names files relative to its own
 * directory, which is where gnuplot runs.
 */
static int
write_growth_gp(struct rep *r)
{
	struct out o = {NULL, NULL};
	char num[40];
	int rc;

	if ((rc = out_open(r, &o, "growth.gp")) != 0)
		return rc;
	fprintf(o.f,
	    "# nearcrawl report: unique and duplicate pages as the "
	    "crawl advances.\n"
	    "# Edit, then draw again in this directory: gnuplot growth.gp\n"
	    "set datafile separator comma\n"
	    "set title 'Unique and duplicate pages as the crawl advances "
	    "(%s pages fetched)'\n"
	    "set xlabel 'pages fetched'\n"
	    "set ylabel 'pages (cumulative)'\n"
	    "set key top left box opaque\n"
	    "set grid\n",
	    grouped(r->pages, num, sizeof(num)));
	if (r->growth_rows == 0)
		gp_empty(o.f, "growth", "no pages fetched yet");
	else {
		fputs("set xrange [0:*]\nset yrange [0:*]\n", o.f);
		gp_svg(o.f, "growth");
		fputs("plot 'growth.csv' skip 1 using 1:2 with lines lw 2 "
		      "title 'unique', \\\n"
		      "\t'' skip 1 using 1:3 with lines lw 2 "
		      "title 'exact duplicates', \\\n"
		      "\t'' skip 1 using 1:4 with lines lw 2 "
		      "title 'near duplicates'\n",
		    o.f);
		gp_png(o.f, "growth");
	}
	return out_close(r, &o);
}

/*
 * similarity.gp carries its numbers in a data block: method names are
 * untrusted text that gnuplot's CSV reading could split.
 */
static int
write_similarity_gp(struct rep *r)
{
	struct out o = {NULL, NULL};
	size_t i, n = r->nmeth < SIM_PLOT_METHODS ? r->nmeth : SIM_PLOT_METHODS;
	int rc, b;

	if ((rc = out_open(r, &o, "similarity.gp")) != 0)
		return rc;
	fputs("# nearcrawl report: how similar duplicates are to their "
	      "originals, per method.\n"
	      "# Edit, then draw again in this directory: gnuplot "
	      "similarity.gp\n"
	      "# One gnuplot run draws growth.gp first: start afresh.\n"
	      "reset\n"
	      "set datafile separator whitespace\n"
	      "set title 'Similarity of duplicates to their originals'\n"
	      "set xlabel 'similarity in percent (5-point buckets, by lower "
	      "bound)'\n"
	      "set ylabel 'duplicate pairs'\n"
	      "set key top left box opaque\n"
	      "set grid ytics\n",
	    o.f);
	if (n == 0) {
		gp_empty(o.f, "similarity", "no duplicates found");
		return out_close(r, &o);
	}
	fputs("$similarity << EOD\n", o.f);
	for (b = 0; b < SIM_BUCKETS; b++) {
		fprintf(o.f, "%d", b * 5);
		for (i = 0; i < n; i++)
			fprintf(o.f, " %" PRId64, r->meth[i].n[b]);
		putc('\n', o.f);
	}
	fputs("EOD\n"
	      "set style data histograms\n"
	      "set style histogram clustered gap 1\n"
	      "set style fill solid 0.8 border -1\n"
	      "set yrange [0:*]\n",
	    o.f);
	gp_svg(o.f, "similarity");
	fputs("plot", o.f);
	for (i = 0; i < n; i++) {
		fprintf(o.f, "%s $similarity using %zu%s title ",
		    i > 0 ? ", \\\n\t" : "", i + 2, i == 0 ? ":xtic(1)" : "");
		put_gp_string(o.f, r->meth[i].name);
	}
	putc('\n', o.f);
	gp_png(o.f, "similarity");
	return out_close(r, &o);
}

/*
 * Run `gnuplot growth.gp similarity.gp` inside the output directory, so no
 * path (which may hold spaces or quotes) ever passes through a shell or a
 * gnuplot string. A close-on-exec pipe tells the parent why exec failed.
 */
static int
run_gnuplot(struct rep *r)
{
	static char prog[] = "gnuplot", gp1[] = "growth.gp",
	            gp2[] = "similarity.gp";
	char *argv[] = {prog, gp1, gp2, NULL};
	int pfd[2], e = 0, status;
	ssize_t n;
	pid_t pid;

	if (pipe2(pfd, O_CLOEXEC) == -1)
		return set_err(r, REPORT_RUNTIME, "cannot run gnuplot: %s",
		    strerror(errno));
	fflush(NULL);
	if ((pid = fork()) == -1) {
		e = errno;
		close(pfd[0]);
		close(pfd[1]);
		return set_err(
		    r, REPORT_RUNTIME, "cannot run gnuplot: %s", strerror(e));
	}
	if (pid == 0) {
		/* Only exec or report errno from here: we are a fork. */
		close(pfd[0]);
		if (fchdir(r->dfd) == 0)
			execvp(prog, argv);
		e = errno;
		(void)!write(pfd[1], &e, sizeof(e));
		_exit(127);
	}
	close(pfd[1]);
	do
		n = read(pfd[0], &e, sizeof(e));
	while (n == -1 && errno == EINTR);
	close(pfd[0]);
	while (waitpid(pid, &status, 0) == -1)
		if (errno != EINTR)
			return set_err(
			    r, REPORT_RUNTIME, "gnuplot: %s", strerror(errno));
	if (n == (ssize_t)sizeof(e))
		return set_err(r, REPORT_RUNTIME,
		    "%s: the CSV files and "
		    "summary.txt are written, but not the plots: %s",
		    r->dir,
		    e == ENOENT ? "gnuplot is not installed "
		                  "(Debian package gnuplot-nox)"
		                : strerror(e));
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return set_err(r, REPORT_RUNTIME,
		    "%s: gnuplot failed on "
		    "growth.gp or similarity.gp; the CSV files and summary.txt "
		    "are written",
		    r->dir);
	return 0;
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
	put_clean(stdout, r->dir);
	printf(": growth.csv (%s rows), %shosts.csv (%s host%s), "
	       "clusters.csv (%s pair%s), similarity.csv, %ssummary.txt\n",
	    grouped(r->growth_rows, a, sizeof(a)),
	    plotted ? "growth.svg, growth.png, " : "",
	    grouped(r->hosts, b, sizeof(b)), r->hosts == 1 ? "" : "s",
	    grouped(r->pairs, c, sizeof(c)), r->pairs == 1 ? "" : "s",
	    plotted ? "similarity.svg, similarity.png, " : "");
}

int
report_write(
    const char *db, const char *dir, int quiet, char *err, size_t errsz)
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
	set_err(&r, 0, "%s", "");
	/* The database first: a bad one must not leave an empty DIR. */
	if ((rc = open_db(&r)) != 0)
		goto out;
	if ((rc = open_dir(&r)) != 0)
		goto out;
	/* One snapshot, so the files agree while a crawl goes on writing. */
	if (store_conn_begin(r.c) != 0) {
		rc = db_fail(&r);
		goto out;
	}
	if ((rc = write_growth(&r)) != 0 || (rc = write_hosts(&r)) != 0 ||
	    (rc = write_clusters(&r)) != 0 ||
	    (rc = write_similarity(&r)) != 0 || (rc = find_busiest(&r)) != 0)
		goto out;
	/* Let go of the snapshot before the slow part: gnuplot. */
	if (store_conn_commit(r.c) != 0) {
		rc = db_fail(&r);
		goto out;
	}
	if ((rc = write_summary(&r)) != 0 || (rc = write_growth_gp(&r)) != 0 ||
	    (rc = write_similarity_gp(&r)) != 0)
		goto out;
	rc = run_gnuplot(&r);
	if (!quiet)
		print_done(&r, rc == 0);
out:
	store_conn_close(r.c);
	if (r.dfd != -1)
		close(r.dfd);
	for (i = 0; i < r.nmeth; i++)
		free(r.meth[i].name);
	free(r.meth);
	free(r.busiest_url);
	return rc;
}
