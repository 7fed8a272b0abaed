/*
 * search_queries: `nearcrawl search --queries FILE`, the experiment of the
 * query-biased paper (Pi et al., section III, Table I) on a crawl.
 *
 * For k = 0, 1, 2, 3, each from the same repository (the crawl's indexed
 * pages; nothing is written to the database): the queries in the file's
 * order (most frequent first), each over its top N results among the
 * pages not yet removed; those results grouped by SimHash within k bits
 * (search_fold, without the crawl's verdicts: the paper knows none), the
 * page with the best PageRank of each group kept (the first fetched when
 * rank has not run, or on a tie) and the others removed, so that a page
 * one query removes is gone for the next. Per group of queries -- 1-100,
 * 101-200, 201-300, 301-400, 401-500, 501-1000, 1001-2000, then doubling
 * -- the duplicates removed and the time taken (the searches, the
 * grouping and the removal), as a table, queries.csv and queries.svg.
 */
#include "cmd/search_int.h"

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/eval_util.h"
#include "cmd/report_plot.h"
#include "storage/store_search.h"
#include "util/clock.h"
#include "util/err.h"
#include "util/esc.h"

#define K_FIRST 0
#define K_LAST 3
#define NK (K_LAST - K_FIRST + 1)
#define GROUPS_MAX 40 /* query groups: doubling reaches any count */
#define PROGRESS_MS 5000.0

/* A line of the file. */
struct query {
	char *text;
	long line;
};

/* One k's figures for one group of queries. */
struct cell {
	int64_t queries;  /* queries run */
	int64_t results;  /* results taken */
	int64_t removed;  /* duplicates removed */
	double ms;        /* time taken */
};

struct exp {
	const struct search_queries_opts *o;
	struct search *s;
	struct query *q;          /* the file's queries, in order */
	size_t nq, capq;
	unsigned char *gone;      /* removed pages, a bit a page id */
	size_t gonecap;           /* bytes at gone */
	struct search_page *pg;   /* one query's results */
	size_t npg, cappg;
	int64_t *none;            /* zeros: no clusters, for search_fold */
	struct cell cell[NK][GROUPS_MAX];
	int ngroups;              /* groups the queries fill */
	int ranked;               /* the ranks table has rows */
	int64_t seen;             /* hits read in the current page of them */
	char *err;
	size_t errsz;
	double last_progress;
};

/* The first query (1-based) of group g: 1, 101, ..., 501, 1001, 2001,
 * 4001 ... */
static long
group_first(int g)
{
	if (g <= 5)
		return 100L * g + 1;
	return 500L << (g - 5) > 0 ? (500L << (g - 5)) + 1 : 0;
}

/* The group of query i (0-based). */
static int
group_of(size_t i)
{
	int g;

	for (g = 0; g + 1 < GROUPS_MAX && (size_t)group_first(g + 1) - 1 <= i;
	    g++)
		;
	return g;
}

static void
group_name(int g, char *out, size_t outsz)
{
	snprintf(out, outsz, "%ld-%ld", group_first(g), group_first(g + 1) -
	    1);
}

/* One line: "frequency<TAB>query"; blank lines and # comments skipped. */
static int
line_in(char *line, long ln, void *arg)
{
	struct exp *x = arg;
	char *tab, *end, *q;
	struct query *nq;
	size_t cap;

	line[strcspn(line, "\r\n")] = '\0';
	if (line[strspn(line, " \t")] == '\0' || line[0] == '#')
		return 0;
	if ((tab = strchr(line, '\t')) == NULL)
		return err_set(x->err, x->errsz, 2, "%s:%ld: not "
		    "`frequency<TAB>query'", x->o->file, ln);
	*tab = '\0';
	strtod(line, &end);
	if (end == line || *end != '\0')
		return err_set(x->err, x->errsz, 2, "%s:%ld: %s: not a "
		    "frequency (a number)", x->o->file, ln, line);
	if (search_check_query(tab + 1, x->err, x->errsz) != SEARCH_OK) {
		char why[256];

		snprintf(why, sizeof(why), "%s", x->err);
		return err_set(x->err, x->errsz, 2, "%s:%ld: %s", x->o->file,
		    ln, why);
	}
	if (x->nq == x->capq) {
		cap = x->capq > 0 ? x->capq * 2 : 256;
		if ((nq = realloc(x->q, cap * sizeof(*nq))) == NULL)
			return err_set(x->err, x->errsz, 1, "out of memory");
		x->q = nq;
		x->capq = cap;
	}
	if ((q = strdup(tab + 1)) == NULL)
		return err_set(x->err, x->errsz, 1, "out of memory");
	x->q[x->nq].text = q;
	x->q[x->nq].line = ln;
	x->nq++;
	return 0;
}

static int
is_gone(const struct exp *x, int64_t id)
{
	return id >= 0 && (size_t)(id / 8) < x->gonecap &&
	    (x->gone[id / 8] >> (id % 8) & 1);
}

/* Mark page id removed. 0, or -1 when out of memory. */
static int
set_gone(struct exp *x, int64_t id)
{
	size_t need = (size_t)(id / 8) + 1, cap;
	unsigned char *ng;

	if (id < 0)
		return 0;
	if (need > x->gonecap) {
		cap = need > x->gonecap * 2 ? need + 4096 : x->gonecap * 2;
		if ((ng = realloc(x->gone, cap)) == NULL)
			return -1;
		memset(ng + x->gonecap, 0, cap - x->gonecap);
		x->gone = ng;
		x->gonecap = cap;
	}
	x->gone[id / 8] |= (unsigned char)(1 << (id % 8));
	return 0;
}

/* A hit not yet removed into the query's results; 1 stops the page of
 * hits when the results are full, 2 when memory runs out. */
static int
hit_in(const struct store_search_hit *h, void *arg)
{
	struct exp *x = arg;
	struct search_page *p, *np;
	size_t cap;

	x->seen++;
	if (is_gone(x, h->id))
		return 0;
	if (x->npg == x->cappg) {
		cap = x->cappg > 0 ? x->cappg * 2 : 256;
		if ((np = realloc(x->pg, cap * sizeof(*np))) == NULL)
			return 2;
		x->pg = np;
		x->cappg = cap;
	}
	p = &x->pg[x->npg++];
	memset(p, 0, sizeof(*p));
	p->id = h->id;
	p->seq = h->seq;
	p->hit = (int)x->npg;
	p->score = h->score;
	p->has_pagerank = h->has_pagerank;
	p->pagerank = h->pagerank;
	p->has_simhash = h->has_simhash;
	p->simhash = h->simhash;
	p->url = "";
	return x->npg >= (size_t)x->o->top;
}

/*
 * Query qi's top results among the pages left: the hits read a window
 * of top at a time, removed pages passed over, until top are taken or
 * the matches run out. 0, or an exit status with err set.
 */
static int
take_results(struct exp *x, size_t qi)
{
	char why[512];
	int64_t offset = 0;
	int rc;

	x->npg = 0;
	for (;;) {
		x->seen = 0;
		rc = store_search_hits(x->s->q, x->q[qi].text, x->o->top,
		    offset, hit_in, x, why, sizeof(why));
		if (rc == STORE_SEARCH_BADQUERY)
			return err_set(x->err, x->errsz, 2, "%s:%ld: bad "
			    "query: %s", x->o->file, x->q[qi].line, why);
		if (rc < 0)
			return store_conn_fail(x->s->c, x->err, x->errsz, 1, 2);
		if (rc == 2)
			return err_set(x->err, x->errsz, 1, "out of memory");
		/* Full, or fewer hits than asked: all are read. */
		if (rc == 1 || x->seen < x->o->top)
			return 0;
		offset += x->o->top;
	}
}

/* One query at k: its results grouped, all but each group's best
 * removed. 0, or an exit status with err set. */
static int
run_query(struct exp *x, size_t qi, int k, struct cell *c)
{
	struct search_group *g = NULL;
	size_t ng = 0, i, j;
	int rc;

	if ((rc = take_results(x, qi)) != 0)
		return rc;
	if (search_fold(x->pg, x->none, x->npg, k, SEARCH_RULE_PAGERANK, &g,
	    &ng) != 0)
		return err_set(x->err, x->errsz, 1, "out of memory");
	for (i = 0; i < ng; i++)
		for (j = 0; j < g[i].nmembers; j++) {
			if (set_gone(x, g[i].members[j]->id) != 0) {
				search_fold_free(g, ng);
				return err_set(x->err, x->errsz, 1,
				    "out of memory");
			}
			c->removed++;
		}
	c->queries++;
	c->results += (int64_t)x->npg;
	search_fold_free(g, ng);
	return 0;
}

/* Every query at k, from the whole repository again. */
static int
run_k(struct exp *x, int k)
{
	struct cell *c;
	double t0, now;
	size_t i;
	int rc;

	if (x->gone != NULL)
		memset(x->gone, 0, x->gonecap);
	for (i = 0; i < x->nq; i++) {
		c = &x->cell[k - K_FIRST][group_of(i)];
		t0 = clock_mono_ms();
		if ((rc = run_query(x, i, k, c)) != 0)
			return rc;
		now = clock_mono_ms();
		c->ms += now - t0;
		if (!x->o->quiet && now - x->last_progress > PROGRESS_MS) {
			x->last_progress = now;
			fprintf(stderr, "nearcrawl: search --queries: k = %d, "
			    "query %zu of %zu\n", k, i + 1, x->nq);
		}
	}
	return 0;
}

/* mkdir -p dir. 0, or 2 with err set. */
static int
make_dir(struct exp *x, const char *dir)
{
	struct stat sb;
	char *path, *p;
	int ok = 1;

	if ((path = strdup(dir)) == NULL)
		return err_set(x->err, x->errsz, 1, "out of memory");
	for (p = path + 1; ok && *p != '\0'; p++)
		if (*p == '/') {
			*p = '\0';
			ok = mkdir(path, 0755) == 0 || errno == EEXIST;
			*p = '/';
		}
	if (ok)
		ok = mkdir(path, 0755) == 0 || errno == EEXIST;
	free(path);
	if (!ok || stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode))
		return err_set(x->err, x->errsz, 2, "%s: cannot make the "
		    "directory: %s", dir, ok ? "not a directory" :
		    strerror(errno));
	return 0;
}

/* Open dir/name for writing (a symbolic link is not followed). */
static FILE *
open_out(int dfd, const char *name)
{
	FILE *f;
	int fd;

	fd = openat(dfd, name, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW |
	    O_CLOEXEC, 0644);
	if (fd == -1)
		return NULL;
	if ((f = fdopen(fd, "w")) == NULL)
		close(fd);
	return f;
}

/* Close f, 0 when everything was written. */
static int
close_out(FILE *f)
{
	int bad = ferror(f);

	return fclose(f) != 0 || bad ? -1 : 0;
}

static void
write_csv(const struct exp *x, FILE *f)
{
	const struct cell *c;
	char name[48];
	int k, g;

	fputs("k,queries,first,last,run,results,removed,seconds\n", f);
	for (k = K_FIRST; k <= K_LAST; k++)
		for (g = 0; g < x->ngroups; g++) {
			c = &x->cell[k - K_FIRST][g];
			group_name(g, name, sizeof(name));
			fprintf(f, "%d,%s,%ld,%ld,%lld,%lld,%lld,%.3f\n", k,
			    name, group_first(g), group_first(g + 1) - 1,
			    (long long)c->queries, (long long)c->results,
			    (long long)c->removed, c->ms / 1e3);
		}
}

/* queries.gp: duplicates removed per query group, a bar for each k, as
 * the paper's figures draw them. */
static void
write_gp(const struct exp *x, FILE *f)
{
	char name[48];
	int k, g;

	fputs("# nearcrawl search --queries: duplicates removed per group of "
	    "queries, for each k.\n"
	    "# Edit, then draw again in this directory: gnuplot queries.gp\n"
	    "reset\n"
	    "set title 'Duplicates removed by the queries, most frequent "
	    "first'\n"
	    "set xlabel 'queries (by frequency rank)'\n"
	    "set ylabel 'duplicates removed'\n"
	    "set key top right box opaque\n"
	    "set grid ytics\n"
	    "set style data histograms\n"
	    "set style histogram clustered gap 1\n"
	    "set style fill solid 0.8 border -1\n"
	    "set yrange [0:*]\n"
	    "$removed << EOD\n", f);
	for (g = 0; g < x->ngroups; g++) {
		group_name(g, name, sizeof(name));
		fprintf(f, "%s", name);
		for (k = K_FIRST; k <= K_LAST; k++)
			fprintf(f, " %lld",
			    (long long)x->cell[k - K_FIRST][g].removed);
		putc('\n', f);
	}
	fputs("EOD\n", f);
	report_plot_svg(f, "queries");
	fputs("plot", f);
	for (k = K_FIRST; k <= K_LAST; k++)
		fprintf(f, "%s $removed using %d%s title 'k = %d'",
		    k > K_FIRST ? ", \\\n\t" : "", k - K_FIRST + 2,
		    k == K_FIRST ? ":xtic(1)" : "", k);
	putc('\n', f);
	report_plot_png(f, "queries");
}

/* The CSV, the script and the plot into the output directory. */
static int
write_files(struct exp *x)
{
	static char gp[] = "queries.gp";
	char *scripts[] = {gp, NULL};
	const char *dir = x->o->dir;
	FILE *f;
	int dfd, e, rc;

	if ((rc = make_dir(x, dir)) != 0)
		return rc;
	if ((dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1)
		return err_set(x->err, x->errsz, 2, "%s: %s", dir,
		    strerror(errno));
	rc = 1;
	if ((f = open_out(dfd, "queries.csv")) == NULL) {
		err_set(x->err, x->errsz, 1, "%s/queries.csv: %s", dir,
		    strerror(errno));
		goto out;
	}
	write_csv(x, f);
	if (close_out(f) != 0) {
		err_set(x->err, x->errsz, 1, "%s/queries.csv: cannot write",
		    dir);
		goto out;
	}
	if ((f = open_out(dfd, "queries.gp")) == NULL) {
		err_set(x->err, x->errsz, 1, "%s/queries.gp: %s", dir,
		    strerror(errno));
		goto out;
	}
	write_gp(x, f);
	if (close_out(f) != 0) {
		err_set(x->err, x->errsz, 1, "%s/queries.gp: cannot write",
		    dir);
		goto out;
	}
	if ((rc = report_plot_gnuplot(dfd, scripts, &e)) != 0) {
		err_set(x->err, x->errsz, 1, "%s: queries.csv is written, not "
		    "the plot: %s", dir, rc == -2 ? "gnuplot failed on "
		    "queries.gp" : e == ENOENT ? "gnuplot is not installed "
		    "(Debian package gnuplot-nox)" : strerror(e));
		rc = 1;
		goto out;
	}
	rc = 0;
out:
	close(dfd);
	return rc;
}

/* The table, as the paper's Table I lays it out. */
static void
print_table(const struct exp *x, FILE *out)
{
	const struct cell *c;
	char name[48];
	int64_t total;
	int k, g;

	fprintf(out, "%zu queries, top %d results each; %s\n", x->nq,
	    x->o->top, x->ranked ? "the best PageRank of a group kept" :
	    "no PageRank (run `nearcrawl rank`): the page fetched first of a "
	    "group kept");
	fprintf(out, "%-3s %-11s %7s %9s %10s %9s\n", "k", "queries", "run",
	    "results", "removed", "time (s)");
	for (k = K_LAST; k >= K_FIRST; k--) {
		total = 0;
		for (g = 0; g < x->ngroups; g++) {
			c = &x->cell[k - K_FIRST][g];
			group_name(g, name, sizeof(name));
			fprintf(out, "%-3d %-11s %7lld %9lld %10lld %9.3f\n",
			    k, name, (long long)c->queries,
			    (long long)c->results, (long long)c->removed,
			    c->ms / 1e3);
			total += c->removed;
		}
		fprintf(out, "%-3d %-11s %7s %9s %10lld\n", k, "all", "", "",
		    (long long)total);
	}
}

int
search_queries_run(const struct search_queries_opts *o, FILE *out,
    char *err, size_t errsz)
{
	struct exp x;
	size_t i;
	int rc, k;

	memset(&x, 0, sizeof(x));
	x.o = o;
	x.err = err;
	x.errsz = errsz;
	x.last_progress = clock_mono_ms();
	if ((rc = eval_read_lines(o->file, line_in, &x, err, errsz)) != 0)
		goto out;
	if (x.nq == 0) {
		rc = err_set(err, errsz, 2, "%s: no queries", o->file);
		goto out;
	}
	x.ngroups = group_of(x.nq - 1) + 1;
	if ((x.none = calloc((size_t)o->top, sizeof(*x.none))) == NULL) {
		rc = err_set(err, errsz, 1, "out of memory");
		goto out;
	}
	if ((rc = search_open(o->db, &x.s, err, errsz)) != SEARCH_OK) {
		rc = rc == SEARCH_RUNTIME ? 1 : 2;
		goto out;
	}
	/* One snapshot for the four runs: each k sees the same pages. */
	if (store_conn_begin(x.s->c) != 0 ||
	    store_search_ranked(x.s->c, &x.ranked) != 0) {
		rc = store_conn_fail(x.s->c, err, errsz, 1, 2);
		goto out;
	}
	for (k = K_FIRST; k <= K_LAST; k++)
		if ((rc = run_k(&x, k)) != 0)
			goto out;
	store_search_rollback(x.s->c);
	print_table(&x, out);
	rc = write_files(&x);
	if (rc == 0 && !o->quiet) {
		fputs("nearcrawl: search --queries: written ", stderr);
		esc_fputs(o->dir, stderr);
		fputs("/queries.csv and queries.svg\n", stderr);
	}
out:
	if (x.s != NULL)
		store_search_rollback(x.s->c);
	search_close(x.s);
	for (i = 0; i < x.nq; i++)
		free(x.q[i].text);
	free(x.q);
	free(x.gone);
	free(x.pg);
	free(x.none);
	return rc;
}
