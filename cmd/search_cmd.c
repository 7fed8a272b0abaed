/*
 * search_cmd: `nearcrawl search` -- its options (config/cmdopt.h's
 * table), the query from its operands, and the results as text, CSV or
 * JSON Lines; --queries hands over to search_queries.c.
 */
#include "cmd/search_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/cmdopt.h"
#include "util/err.h"
#include "util/esc.h"
#include "util/rowout.h"

enum format { FMT_TEXT, FMT_CSV, FMT_JSONL };

struct cmd {
	const char *db;          /* -d */
	struct search_opts so;   /* --limit, --k, --top */
	int all;                 /* --all */
	int quiet;               /* -q */
	enum format format;      /* --format */
	const char *queries;     /* --queries FILE */
	const char *out;         /* -o DIR */
	char *err;               /* the message buffer */
	size_t errsz;
};

static int
opt_in(int opt, const char *v, long n, void *arg)
{
	struct cmd *c = arg;

	switch (opt) {
	case CMDOPT_SEARCH_DB:
		c->db = v;
		break;
	case CMDOPT_SEARCH_LIMIT:
		c->so.limit = (int)n;
		break;
	case CMDOPT_SEARCH_ALL:
		c->all = 1;
		break;
	case CMDOPT_SEARCH_K:
		c->so.k = (int)n;
		break;
	case CMDOPT_SEARCH_TOP:
		c->so.top = (int)n;
		break;
	case CMDOPT_SEARCH_FORMAT:
		if (strcmp(v, "text") == 0)
			c->format = FMT_TEXT;
		else if (strcmp(v, "csv") == 0)
			c->format = FMT_CSV;
		else if (strcmp(v, "jsonl") == 0)
			c->format = FMT_JSONL;
		else
			return err_set(c->err, c->errsz, -1, "--format %s: "
			    "not text, csv or jsonl", v);
		break;
	case CMDOPT_SEARCH_QUERIES:
		c->queries = v;
		break;
	case CMDOPT_SEARCH_OUT:
		c->out = v;
		break;
	case CMDOPT_SEARCH_QUIET:
		c->quiet = 1;
		break;
	}
	return 0;
}

/*
 * The operands joined by spaces into a malloc'd query, NULL when out of
 * memory.
 */
static char *
join(char **ops, int n)
{
	size_t len = 1;
	char *q;
	int i;

	for (i = 0; i < n; i++)
		len += strlen(ops[i]) + 1;
	if ((q = malloc(len)) == NULL)
		return NULL;
	q[0] = '\0';
	for (i = 0; i < n; i++) {
		if (i > 0)
			strcat(q, " ");
		strcat(q, ops[i]);
	}
	return q;
}

/*
 * g's snippet with its matched words between on and off (the terminal's
 * bold, or brackets), the rest escaped for a terminal (esc_fputs) when
 * esc is set, else as it is.
 */
static void
put_snippet(FILE *f, const struct search_group *g, const char *on,
    const char *off, int esc)
{
	const char *s = g->snippet;
	size_t at = 0, i, n = strlen(s);
	char *piece;

	if ((piece = malloc(n + 1)) == NULL) {
		fputs(s, f);
		return;
	}
	for (i = 0; i <= g->nmarks; i++) {
		size_t end = i < g->nmarks ? g->marks[i].off : n;

		memcpy(piece, s + at, end - at);
		piece[end - at] = '\0';
		esc ? esc_fputs(piece, f) : rowout_utf8(f, piece, 0);
		if (i == g->nmarks)
			break;
		memcpy(piece, s + end, g->marks[i].len);
		piece[g->marks[i].len] = '\0';
		fputs(on, f);
		esc ? esc_fputs(piece, f) : rowout_utf8(f, piece, 0);
		fputs(off, f);
		at = end + g->marks[i].len;
	}
	free(piece);
}

/* "unique", "exact" ... */
static const char *
verdict_word(enum store_verdict v)
{
	const char *w = store_verdict_name(v);

	return w != NULL ? w : "?";
}

static void
print_text(FILE *f, const struct search_result *r, const struct cmd *c)
{
	int tty = isatty(fileno(f)), first = 1;
	const char *on = tty ? "\033[1m" : "[", *off = tty ? "\033[0m" : "]";
	const struct search_group *g;
	const struct search_page *m;
	size_t i, j;

	for (i = 0; i < r->ngroups; i++) {
		g = &r->groups[i];
		if (!first)
			putc('\n', f);
		first = 0;
		fprintf(f, "%d. ", g->rank);
		esc_fputs(g->best->title != NULL && g->best->title[0] != '\0' ?
		    g->best->title : "(no title)", f);
		fputs("\n   ", f);
		esc_fputs(g->best->url, f);
		if (g->snippet[0] != '\0') {
			fputs("\n   ", f);
			put_snippet(f, g, on, off, 1);
		}
		fprintf(f, "\n   %s, score %.4g",
		    verdict_word(g->best->verdict), g->best->score);
		if (g->nmembers > 0)
			fprintf(f, "; %zu similar page%s omitted (shown: %s)",
			    g->nmembers, g->nmembers == 1 ? "" : "s",
			    search_decided_name(g->decided));
		putc('\n', f);
		for (j = 0; c->all && j < g->nmembers; j++) {
			m = g->members[j];
			fputs("     - ", f);
			esc_fputs(m->url, f);
			fprintf(f, "  %s, %s", verdict_word(m->verdict),
			    m->fold == SEARCH_FOLD_CLUSTER ? "same cluster" :
			    "SimHash");
			if (m->bits >= 0)
				fprintf(f, ", %d bit%s from it", m->bits,
				    m->bits == 1 ? "" : "s");
			putc('\n', f);
		}
	}
	if (r->ngroups == 0 && r->matches == 0) {
		fputs("no page matches\n", f);
		return;
	}
	if (!first)
		putc('\n', f);
	if (r->ngroups == 0)
		fprintf(f, "no results past %d (of %zu)\n", c->so.offset,
		    r->ngroups_all);
	else
		fprintf(f, "results %d-%d of %zu (%lld page%s match%s; %lld "
		    "similar page%s omitted%s)\n", r->groups[0].rank,
		    r->groups[r->ngroups - 1].rank, r->ngroups_all,
		    (long long)r->matches, r->matches == 1 ? "" : "s",
		    r->more ? ", the best of more" : "",
		    (long long)r->omitted, r->omitted == 1 ? "" : "s",
		    r->omitted > 0 && !c->all ? ", --all lists them" : "");
}

static void
csv_num(FILE *f, const char *fmt, double v, int have)
{
	char num[48];

	snprintf(num, sizeof(num), fmt, v);
	rowout_csv_field(f, have ? num : NULL, 0);
}

/* One CSV row: a shown page (g set) or a page folded under one; the
 * snippet's marks are brackets. */
static void
csv_row(FILE *f, const struct search_page *p, const struct search_group *g,
    int rank)
{
	char num[32];
	FILE *m;
	char *snip = NULL;
	size_t len = 0;

	snprintf(num, sizeof(num), "%d", rank);
	rowout_csv_field(f, num, 1);
	rowout_csv_field(f, g != NULL ? "shown" : "omitted", 0);
	rowout_csv_field(f, p->url, 0);
	rowout_csv_field(f, p->title, 0);
	rowout_csv_field(f, verdict_word(p->verdict), 0);
	csv_num(f, "%.6g", p->score, 1);
	csv_num(f, "%.9g", p->pagerank, p->has_pagerank);
	csv_num(f, "%.0f", (double)p->seq, 1);
	csv_num(f, "%.0f", g != NULL ? (double)g->nmembers : 0, g != NULL);
	rowout_csv_field(f, g != NULL ? search_decided_name(g->decided) :
	    NULL, 0);
	rowout_csv_field(f, g == NULL ? search_fold_name(p->fold) : NULL, 0);
	csv_num(f, "%.0f", (double)p->bits, g == NULL && p->bits >= 0);
	if (g != NULL && (m = open_memstream(&snip, &len)) != NULL) {
		put_snippet(m, g, "[", "]", 0);
		fclose(m);
	}
	rowout_csv_field(f, snip, 0);
	free(snip);
	putc('\n', f);
}

static void
print_csv(FILE *f, const struct search_result *r, const struct cmd *c)
{
	const struct search_group *g;
	size_t i, j;

	fputs("rank,role,url,title,verdict,score,pagerank,seq,omitted,"
	    "shown_by,fold,bits,snippet\n", f);
	for (i = 0; i < r->ngroups; i++) {
		g = &r->groups[i];
		csv_row(f, g->best, g, g->rank);
		for (j = 0; c->all && j < g->nmembers; j++)
			csv_row(f, g->members[j], NULL, g->rank);
	}
}

static void
json_num(FILE *f, const char *key, const char *fmt, double v, int have)
{
	rowout_json_key(f, key, 0);
	if (have)
		fprintf(f, fmt, v);
	else
		fputs("null", f);
}

/* A page's members common to results and folded pages. */
static void
json_page(FILE *f, const struct search_page *p, int first)
{
	rowout_json_key(f, "url", first);
	rowout_json_str(f, p->url);
	rowout_json_key(f, "title", 0);
	rowout_json_str(f, p->title);
	rowout_json_key(f, "verdict", 0);
	rowout_json_str(f, verdict_word(p->verdict));
	json_num(f, "score", "%.6g", p->score, 1);
	json_num(f, "pagerank", "%.9g", p->pagerank, p->has_pagerank);
	json_num(f, "seq", "%.0f", (double)p->seq, 1);
}

static void
print_jsonl(FILE *f, const struct search_result *r, const struct cmd *c)
{
	const struct search_group *g;
	const struct search_page *m;
	size_t i, j;

	for (i = 0; i < r->ngroups; i++) {
		g = &r->groups[i];
		rowout_json_key(f, "rank", 1);
		fprintf(f, "%d", g->rank);
		json_page(f, g->best, 0);
		rowout_json_key(f, "snippet", 0);
		rowout_json_str(f, g->snippet);
		/* Byte offsets into the snippet, as the API gives them. */
		rowout_json_key(f, "marks", 0);
		putc('[', f);
		for (j = 0; j < g->nmarks; j++)
			fprintf(f, "%s[%zu,%zu]", j > 0 ? "," : "",
			    g->marks[j].off, g->marks[j].len);
		putc(']', f);
		rowout_json_key(f, "omitted", 0);
		fprintf(f, "%zu", g->nmembers);
		rowout_json_key(f, "shown_by", 0);
		rowout_json_str(f, search_decided_name(g->decided));
		if (c->all) {
			rowout_json_key(f, "members", 0);
			putc('[', f);
			for (j = 0; j < g->nmembers; j++) {
				m = g->members[j];
				if (j > 0)
					putc(',', f);
				json_page(f, m, 1);
				rowout_json_key(f, "fold", 0);
				rowout_json_str(f, search_fold_name(m->fold));
				json_num(f, "bits", "%.0f", (double)m->bits,
				    m->bits >= 0);
				putc('}', f);
			}
			putc(']', f);
		}
		fputs("}\n", f);
	}
}

/* What the user should know about a result, on stderr. */
static void
notes(const struct search_result *r, const struct cmd *c)
{
	size_t i;
	int folded = 0;

	if (c->quiet)
		return;
	for (i = 0; i < r->ngroups; i++)
		if (r->groups[i].nmembers > 0)
			folded = 1;
	if (folded && !r->ranked) {
		fputs("nearcrawl: search: no PageRank yet, so each group shows "
		    "its declared canonical or the page fetched first (run "
		    "`nearcrawl rank -d ", stderr);
		esc_fputs(c->db, stderr);
		fputs("`)\n", stderr);
	}
	if (r->partial) {
		fputs("nearcrawl: search: judged pages are missing from the "
		    "index (crawled before it?): `nearcrawl index -d ",
		    stderr);
		esc_fputs(c->db, stderr);
		fputs("` adds what it can\n", stderr);
	}
	if (r->more)
		fprintf(stderr, "nearcrawl: search: more than %d pages match; "
		    "the results fold the best %d (--top)\n", c->so.top,
		    c->so.top);
	if (r->no_simhash > 0)
		fprintf(stderr, "nearcrawl: search: %lld matching pages have "
		    "no SimHash (the crawl's --methods had no simhash): --k "
		    "leaves them to the crawl's verdicts\n",
		    (long long)r->no_simhash);
}

/* Say err as nearcrawl's message; return code. */
static int
say(int code, const char *err)
{
	fputs("nearcrawl: search: ", stderr);
	esc_fputs(err, stderr);
	putc('\n', stderr);
	return code;
}

int
search_main(int argc, char **argv)
{
	struct search_queries_opts qo;
	struct search_result *r = NULL;
	struct search *s = NULL;
	struct cmd c;
	char err[1024], **ops = NULL, *query = NULL, *dir = NULL;
	int nops, rc;

	memset(&c, 0, sizeof(c));
	search_opts_default(&c.so);
	c.err = err;
	c.errsz = sizeof(err);
	err[0] = '\0';
	if ((ops = calloc((size_t)argc + 1, sizeof(*ops))) == NULL)
		return say(1, "out of memory");
	rc = cmdopt_parse(&cmdopt_search, argc, argv, opt_in, &c, ops, &nops,
	    err, sizeof(err));
	if (rc == 1) {
		cmdopt_usage(&cmdopt_search, stdout);
		rc = 0;
		goto out;
	}
	if (rc == 0 && c.db == NULL)
		rc = err_set(err, sizeof(err), -1, "no database (-d DB)");
	else if (rc == 0 && c.queries == NULL && nops == 0)
		rc = err_set(err, sizeof(err), -1, "no query");
	else if (rc == 0 && c.queries != NULL && nops > 0)
		rc = err_set(err, sizeof(err), -1, "--queries takes its "
		    "queries from the file, not the command line");
	if (rc != 0) {
		say(2, err);
		fputs("try `nearcrawl search --help'\n", stderr);
		rc = 2;
		goto out;
	}
	if (c.queries != NULL) {
		if (c.out == NULL) {
			/* Beside the crawl's report, where the plots are. */
			if ((dir = malloc(strlen(c.db) + 8)) == NULL) {
				rc = say(1, "out of memory");
				goto out;
			}
			snprintf(dir, strlen(c.db) + 8, "%s.report", c.db);
		}
		memset(&qo, 0, sizeof(qo));
		qo.db = c.db;
		qo.file = c.queries;
		qo.dir = c.out != NULL ? c.out : dir;
		qo.top = c.so.top;
		qo.quiet = c.quiet;
		if ((rc = search_queries_run(&qo, stdout, err, sizeof(err))) !=
		    0)
			say(rc, err);
		goto out;
	}
	if ((query = join(ops, nops)) == NULL) {
		rc = say(1, "out of memory");
		goto out;
	}
	if ((rc = search_open(c.db, &s, err, sizeof(err))) != SEARCH_OK ||
	    (rc = search_run(s, query, &c.so, &r, err, sizeof(err))) !=
	    SEARCH_OK) {
		/* A bad query is bad usage. */
		rc = say(rc == SEARCH_RUNTIME ? 1 : 2, err);
		goto out;
	}
	if (c.format == FMT_TEXT)
		print_text(stdout, r, &c);
	else if (c.format == FMT_CSV)
		print_csv(stdout, r, &c);
	else
		print_jsonl(stdout, r, &c);
	notes(r, &c);
	if (fflush(stdout) != 0 || ferror(stdout))
		rc = say(1, "cannot write the results");
out:
	search_result_free(r);
	search_close(s);
	free(query);
	free(ops);
	free(dir);
	return rc;
}
