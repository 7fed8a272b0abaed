/*
 * report_plot: the report's gnuplot scripts, kept beside the plots so they
 * can be edited and drawn again, and the gnuplot run that draws them.
 *
 *   growth.gp       growth.csv: verdict counts against pages fetched
 *   growth-time.gp  the same rows against the time since the first fetch
 *   hosts.gp        one small plot per busiest host, against its pages
 *   similarity.gp   duplicate pairs per similarity bucket, per method
 *   share.gp        share.csv: the duplicate share of a sliding window
 *
 * Untrusted text (host and method names) goes only into single-quoted
 * strings (report_out_gpstr); numbers go into inline data blocks.
 */
#include "cmd/report_plot.h"

#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cmd/report_out.h"

#define SIM_PLOT_METHODS 12 /* series drawn; the CSV keeps every method */
#define PLOT_SIZE "900,540"
#define HOST_COLS 3        /* small multiples a row */

void
report_plot_svg(FILE *f, const char *base)
{
	fprintf(f,
	    "set terminal svg size " PLOT_SIZE " noenhanced "
	    "background rgb 'white'\n"
	    "set output '%s.svg'\n",
	    base);
}

void
report_plot_png(FILE *f, const char *base)
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
	report_plot_svg(f, base);
	fputs("plot -1 notitle\n", f);
	report_plot_png(f, base);
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

	if ((rc = report_out_open(r, &o, "growth.gp")) != 0)
		return rc;
	fprintf(o.f,
	    "# nearcrawl report: unique and duplicate pages as the "
	    "crawl advances.\n"
	    "# Edit, then draw again in this directory: gnuplot growth.gp\n"
	    "set datafile separator comma\n"
	    "set title 'Unique and duplicate pages as the crawl advances "
	    "(%s pages fetched)'\n"
	    "set xlabel 'pages fetched (errors, redirects and skipped "
	    "pages included)'\n"
	    "set ylabel 'pages (cumulative)'\n"
	    "set key top left box opaque\n"
	    "set grid\n",
	    report_out_grouped(r->pages, num, sizeof(num)));
	if (r->growth_rows == 0)
		gp_empty(o.f, "growth", "no pages fetched yet");
	else {
		/* The axes behind the curves, so that one that stays at
		 * zero (no near duplicates yet) is drawn over the axis, not
		 * hidden by it. */
		fputs("set xrange [0:*]\nset yrange [0:*]\n"
		      "set border back\n", o.f);
		report_plot_svg(o.f, "growth");
		fputs("plot 'growth.csv' skip 1 using 1:2 with lines lw 2 "
		      "title 'unique', \\\n"
		      "\t'' skip 1 using 1:3 with lines lw 2 "
		      "title 'exact duplicates', \\\n"
		      "\t'' skip 1 using 1:4 with lines lw 2 "
		      "title 'near duplicates'\n",
		    o.f);
		report_plot_png(o.f, "growth");
	}
	return report_out_close(r, &o);
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
	int rc, b, lo = REPORT_SIM_BUCKETS, hi = -1;

	if ((rc = report_out_open(r, &o, "similarity.gp")) != 0)
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
	      "set ylabel 'duplicate pairs (log scale)'\n"
	      "set key top left box opaque\n"
	      "set grid ytics\n",
	    o.f);
	if (n == 0) {
		gp_empty(o.f, "similarity", "no duplicates found");
		return report_out_close(r, &o);
	}
	/*
	 * Only the populated buckets, lowest to highest: duplicates are
	 * mostly over 75 %, and empty low buckets would take the width.
	 */
	for (b = 0; b < REPORT_SIM_BUCKETS; b++)
		for (i = 0; i < n; i++)
			if (r->meth[i].n[b] > 0) {
				if (b < lo)
					lo = b;
				hi = b;
			}
	fputs("$similarity << EOD\n", o.f);
	for (b = lo; b <= hi; b++) {
		fprintf(o.f, "%d", b * 5);
		for (i = 0; i < n; i++)
			fprintf(o.f, " %" PRId64, r->meth[i].n[b]);
		putc('\n', o.f);
	}
	fputs("EOD\n"
	      "set style data histograms\n"
	      "set style histogram clustered gap 1\n"
	      "set style fill solid 0.8 border -1\n"
	      /* Log scale: 1,432 md5 pairs must not hide 2 minhash pairs. */
	      "set logscale y\n"
	      "set yrange [0.8:*]\n",
	    o.f);
	report_plot_svg(o.f, "similarity");
	fputs("plot", o.f);
	for (i = 0; i < n; i++) {
		fprintf(o.f, "%s $similarity using %zu%s title ",
		    i > 0 ? ", \\\n\t" : "", i + 2, i == 0 ? ":xtic(1)" : "");
		report_out_gpstr(o.f, r->meth[i].name);
	}
	putc('\n', o.f);
	report_plot_png(o.f, "similarity");
	return report_out_close(r, &o);
}

/* The terminal for pass t of a do-for loop: 1 the SVG, 2 the PNG. */
static void
gp_terminal_pass(FILE *f, const char *base, int w, int h)
{
	fprintf(f,
	    "\tif (t == 1) {\n"
	    "\t\tset terminal svg size %d,%d noenhanced "
	    "background rgb 'white'\n"
	    "\t\tset output '%s.svg'\n"
	    "\t} else {\n"
	    "\t\tif (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
	    "\t\t\tset terminal pngcairo size %d,%d noenhanced\n"
	    "\t\t} else {\n"
	    "\t\t\tset terminal png size %d,%d noenhanced\n"
	    "\t\t}\n"
	    "\t\tset output '%s.png'\n"
	    "\t}\n",
	    w, h, base, w, h, w, h, base);
}

/* A data block of points: x unique exact near. */
static void
gp_block(FILE *f, const char *name, const struct growth_series *s)
{
	size_t i;

	fprintf(f, "$%s << EOD\n", name);
	for (i = 0; i < s->n; i++)
		fprintf(f, "%.3f %" PRId64 " %" PRId64 " %" PRId64 "\n",
		    s->pt[i].x, s->pt[i].unique, s->pt[i].exact,
		    s->pt[i].near);
	fputs("EOD\n", f);
}

/* The three curves of block name. */
static void
gp_curves(FILE *f, const char *name, int key)
{
	fprintf(f,
	    "plot $%s using 1:2 with lines lw 2 title '%s', "
	    "$%s using 1:3 with lines lw 2 title '%s', "
	    "$%s using 1:4 with lines lw 2 title '%s'\n",
	    name, key ? "unique" : "", name, key ? "exact duplicates" : "",
	    name, key ? "near duplicates" : "");
}

/*
 * growth-time.gp: the rows of growth.csv against the time since the first
 * fetch, in seconds, minutes or hours as the crawl's length asks.
 */
static int
write_time_gp(struct rep *r)
{
	struct out o = {NULL, NULL};
	double span = r->max_at - r->first_at, div = 1;
	const char *unit = "seconds";
	size_t i;
	int rc;

	if ((rc = report_out_open(r, &o, "growth-time.gp")) != 0)
		return rc;
	if (span > 3 * 3600) {
		div = 3600;
		unit = "hours";
	} else if (span > 300) {
		div = 60;
		unit = "minutes";
	}
	fprintf(o.f,
	    "# nearcrawl report: unique and duplicate pages against the "
	    "time since the first fetch.\n"
	    "# Edit, then draw again in this directory: gnuplot "
	    "growth-time.gp\n"
	    "reset\n"
	    "set title 'Unique and duplicate pages over the crawl''s time'\n"
	    "set xlabel '%s since the first page was fetched'\n"
	    "set ylabel 'pages (cumulative)'\n"
	    "set key top left box opaque\n"
	    "set grid\n"
	    "set border back\n",
	    unit);
	if (r->time.n == 0) {
		gp_empty(o.f, "growth-time", "no pages fetched yet");
		return report_out_close(r, &o);
	}
	for (i = 0; i < r->time.n; i++)
		r->time.pt[i].x /= div;
	gp_block(o.f, "time", &r->time);
	/* Each resume (a process judging its first page) a dashed line. */
	for (i = 0; i < r->nresumed; i++)
		fprintf(o.f, "set arrow from %.6g, graph 0 to %.6g, graph 1 "
		    "nohead dashtype 2 lc rgb 'gray40'\n"
		    "set label '%s' at %.6g, graph 0.97 right offset -0.5, 0 "
		    "font ',9' tc rgb 'gray40'\n", r->resumed[i] / div,
		    r->resumed[i] / div, i == 0 ? "resumed" : "",
		    r->resumed[i] / div);
	fputs("set xrange [0:*]\nset yrange [0:*]\n", o.f);
	report_plot_svg(o.f, "growth-time");
	gp_curves(o.f, "time", 1);
	report_plot_png(o.f, "growth-time");
	return report_out_close(r, &o);
}

/*
 * hosts.gp: the busiest hosts as small multiples, each against its own
 * pages fetched. A multiplot cannot be replotted, so a loop draws it once
 * per terminal.
 */
static int
write_hosts_gp(struct rep *r)
{
	struct out o = {NULL, NULL};
	char name[32];
	size_t i, cols, rows;
	int rc;

	if ((rc = report_out_open(r, &o, "hosts.gp")) != 0)
		return rc;
	fprintf(o.f,
	    "# nearcrawl report: unique and duplicate pages of the %zu "
	    "busiest hosts,\n# each against its own pages fetched.\n"
	    "# Edit, then draw again in this directory: gnuplot hosts.gp\n"
	    "reset\n",
	    r->ntop);
	if (r->ntop == 0) {
		fputs("set title 'Growth per host'\n", o.f);
		gp_empty(o.f, "hosts", "no pages fetched yet");
		return report_out_close(r, &o);
	}
	for (i = 0; i < r->ntop; i++) {
		snprintf(name, sizeof(name), "h%zu", i + 1);
		gp_block(o.f, name, &r->top[i].s);
	}
	cols = r->ntop < HOST_COLS ? r->ntop : HOST_COLS;
	rows = (r->ntop + cols - 1) / cols;
	fputs("do for [t = 1:2] {\n", o.f);
	gp_terminal_pass(o.f, "hosts", cols < 2 ? 600 : 380 * (int)cols,
	    60 + 260 * (int)rows);
	fprintf(o.f,
	    "\tset multiplot layout %zu,%zu title 'Pages per host, "
	    "against the host''s pages fetched'\n"
	    "\tset grid\n"
	    "\tset xrange [0:*]\n"
	    "\tset yrange [0:*]\n"
	    "\tset border back\n"
	    "\tset xlabel 'pages fetched on the host' font ',9'\n"
	    "\tset ylabel 'pages' font ',9'\n"
	    "\tset key top left font ',8'\n"
	    "\tset tics font ',9'\n",
	    rows, cols);
	for (i = 0; i < r->ntop; i++) {
		snprintf(name, sizeof(name), "h%zu", i + 1);
		fputs("\tset title ", o.f);
		report_out_gpstr(o.f, r->top[i].name);
		putc('\n', o.f);
		putc('\t', o.f);
		gp_curves(o.f, name, i == 0);
		if (i == 0)
			fputs("\tunset key\n", o.f);
	}
	fputs("\tunset multiplot\n"
	      "\tset output\n"
	      "}\n",
	    o.f);
	return report_out_close(r, &o);
}

/* share.gp: share.csv, the duplicate share of a sliding window. */
static int
write_share_gp(struct rep *r)
{
	struct out o = {NULL, NULL};
	int rc;

	if ((rc = report_out_open(r, &o, "share.gp")) != 0)
		return rc;
	fprintf(o.f,
	    "# nearcrawl report: the share of duplicates among the last "
	    "%" PRId64 " pages judged.\n"
	    "# Edit, then draw again in this directory: gnuplot share.gp\n"
	    "reset\n"
	    "set datafile separator comma\n"
	    "set title 'Duplicates among the last %" PRId64 " pages judged'\n"
	    "set xlabel 'pages fetched (errors, redirects and skipped pages "
	    "included)'\n"
	    "set ylabel 'exact and near duplicates (%%)'\n"
	    "set grid\n"
	    "set border back\n",
	    r->share_window, r->share_window);
	if (r->share_rows == 0) {
		gp_empty(o.f, "share", "fewer pages judged than one window");
		return report_out_close(r, &o);
	}
	fputs("set xrange [0:*]\nset yrange [0:100]\n", o.f);
	report_plot_svg(o.f, "share");
	fputs("plot 'share.csv' skip 1 using 1:2 with lines lw 2 notitle\n",
	    o.f);
	report_plot_png(o.f, "share");
	return report_out_close(r, &o);
}

int
report_plot_write(struct rep *r)
{
	int rc;

	if ((rc = write_growth_gp(r)) != 0 ||
	    (rc = write_similarity_gp(r)) != 0 ||
	    (rc = write_time_gp(r)) != 0 || (rc = write_hosts_gp(r)) != 0 ||
	    (rc = write_share_gp(r)) != 0)
		return rc;
	return 0;
}

int
report_plot_gnuplot(int dfd, char *const *scripts, int *e)
{
	static char prog[] = "gnuplot";
	char *argv[REPORT_PLOT_SCRIPTS_MAX + 2];
	int pfd[2], status;
	size_t i;
	ssize_t n;
	pid_t pid;

	*e = 0;
	argv[0] = prog;
	for (i = 0; scripts[i] != NULL && i < REPORT_PLOT_SCRIPTS_MAX; i++)
		argv[i + 1] = scripts[i];
	argv[i + 1] = NULL;
	if (pipe2(pfd, O_CLOEXEC) == -1) {
		*e = errno;
		return -1;
	}
	fflush(NULL);
	if ((pid = fork()) == -1) {
		*e = errno;
		close(pfd[0]);
		close(pfd[1]);
		return -1;
	}
	if (pid == 0) {
		/* Only exec or report errno from here: we are a fork. */
		close(pfd[0]);
		if (fchdir(dfd) == 0)
			execvp(prog, argv);
		*e = errno;
		(void)!write(pfd[1], e, sizeof(*e));
		_exit(127);
	}
	close(pfd[1]);
	do
		n = read(pfd[0], e, sizeof(*e));
	while (n == -1 && errno == EINTR);
	close(pfd[0]);
	while (waitpid(pid, &status, 0) == -1)
		if (errno != EINTR) {
			*e = errno;
			return -1;
		}
	if (n == (ssize_t)sizeof(*e))
		return -1;
	*e = 0;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -2;
}

/*
 * Run `gnuplot growth.gp similarity.gp growth-time.gp hosts.gp share.gp`
 * inside the output directory, so no path (which may hold spaces or
 * quotes) ever passes through a shell or a gnuplot string.
 */
int
report_plot_run(struct rep *r)
{
	static char gp1[] = "growth.gp", gp2[] = "similarity.gp",
	            gp3[] = "growth-time.gp", gp4[] = "hosts.gp",
	            gp5[] = "share.gp";
	char *scripts[] = {gp1, gp2, gp3, gp4, gp5, NULL};
	int e, rc;

	if ((rc = report_plot_gnuplot(r->dfd, scripts, &e)) == 0)
		return 0;
	if (rc == -1)
		return report_out_err(r, REPORT_RUNTIME,
		    "%s: the CSV files, "
		    "summary.txt and index.html are written, but not the "
		    "plots: %s",
		    r->dir,
		    e == ENOENT ? "gnuplot is not installed "
		                  "(Debian package gnuplot-nox)"
		                : strerror(e));
	return report_out_err(r, REPORT_RUNTIME,
	    "%s: gnuplot failed on "
	    "growth.gp, similarity.gp, growth-time.gp or hosts.gp; the "
	    "CSV files, summary.txt and index.html are written",
	    r->dir);
}
