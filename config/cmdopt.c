/*
 * cmdopt: the tables of `nearcrawl search`, `nearcrawl index` and
 * `nearcrawl serve`, and the
 * parsing, --help and man page made from them (config/cmdopt.h).
 */
#include "config/cmdopt.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "util/err.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define HELP_COL 22 /* where help text starts in --help */
#define WIDTH 79    /* --help's lines end before this column */

/* Rows in the order of cmdopt.h's CMDOPT_SEARCH_* values. */
static const struct cmdopt search_opts[] = {
	{ "db", 'd', CMDOPT_STR, "DB", 0, 0, NULL,
	    "the crawl's database: an SQLite file or a postgresql:// URI "
	    "(read only; a crawl may be writing it)" },
	{ "limit", 0, CMDOPT_INT, "N", 1, 10000, "10",
	    "results shown, each a page with its similar pages folded "
	    "under it" },
	{ "all", 0, CMDOPT_FLAG, NULL, 0, 0, NULL,
	    "also list the similar pages folded under each result" },
	{ "k", 0, CMDOPT_INT, "K", 0, 64, NULL,
	    "also fold results whose SimHashes differ in at most K bits, "
	    "as the query-biased paper groups a query's results (the "
	    "crawl's own verdicts always fold)" },
	{ "top", 0, CMDOPT_INT, "N", 1, 100000, "1000",
	    "best matches folded (with --queries: taken per query)" },
	{ "format", 0, CMDOPT_STR, "F", 0, 0, "text",
	    "text, csv (one row a page, RFC 4180) or jsonl (one JSON "
	    "object a result)" },
	{ "queries", 0, CMDOPT_STR, "FILE", 0, 0, NULL,
	    "run the paper's experiment instead: FILE has one "
	    "`frequency<TAB>query' a line, most frequent first; for k = 0, "
	    "1, 2, 3 each query's top results are grouped by SimHash and "
	    "all but the best-ranked of a group removed, per query group "
	    "the pages removed and the time" },
	{ "out", 'o', CMDOPT_STR, "DIR", 0, 0, "DB.report",
	    "where --queries writes queries.csv and its plot (made like "
	    "mkdir -p)" },
	{ "quiet", 'q', CMDOPT_FLAG, NULL, 0, 0, NULL,
	    "no notes or progress on stderr" },
};

const struct cmdopt_cmd cmdopt_search = {
	"search",
	"search -d DB [--limit N] [--all] [--k K] [--top N]\n"
	"                        [--format text|csv|jsonl] [--] QUERY...\n"
	"       nearcrawl search -d DB --queries FILE [--top N] [-o DIR]",
	"Search the text of a crawl's pages (docs/search.md): the best "
	"matches, each with its title, URL and a snippet with the matched "
	"words marked, and its exact and near copies folded under it (\"N "
	"similar pages omitted\"): the pages one duplicate cluster joins, "
	"shown by their declared canonical, else their best PageRank "
	"(`nearcrawl rank`), else the page fetched first. Exit status: 0 "
	"done (a query with no match too); 1 failed at run time; 2 bad "
	"usage, a bad query or a database without an index (`nearcrawl "
	"index`).",
	"QUERY...",
	"FTS5 syntax on SQLite and PostgreSQL alike: words (all must "
	"match), \"a phrase\", prefix*, OR, AND, NOT, (grouping), NEAR(a b, "
	"10), title:word; several operands are joined by spaces",
	search_opts, N(search_opts),
};

static const struct cmdopt index_opts[] = {
	{ "db", 'd', CMDOPT_STR, "DB", 0, 0, NULL,
	    "the database: an SQLite file or a postgresql:// URI (a writer: "
	    "not while a crawl writes it)" },
	{ "warc", 0, CMDOPT_LIST, "PATH", 0, 0, NULL,
	    "also read pages from this WARC file, or the WARC files of this "
	    "directory, besides the crawl's own --warc directory and the "
	    "files `nearcrawl dedup` read" },
	{ "quiet", 'q', CMDOPT_FLAG, NULL, 0, 0, NULL,
	    "no progress on stderr" },
};

const struct cmdopt_cmd cmdopt_index = {
	"index",
	"index -d DB [--warc PATH]... [-q|--quiet]",
	"Give a crawl made before the full-text index its index, or finish "
	"one a crawl left (a crawl and `nearcrawl dedup` index each page as "
	"they store it). Each page's text is read back from the WARC files "
	"the crawl kept, else from the text it stored (--store-text); pages "
	"with neither are counted and named. Resumable: a rerun indexes only "
	"what is missing. Exit status: 0 done (every page that could be "
	"indexed is); 1 failed at run time; 2 bad usage or database, or one "
	"a crawl is writing; 3 stopped by a signal, what was done kept.",
	NULL, NULL,
	index_opts, N(index_opts),
};

/* Rows in the order of cmdopt.h's CMDOPT_SERVE_* values. */
static const struct cmdopt serve_opts[] = {
	{ "db", 'd', CMDOPT_STR, "DB", 0, 0, NULL,
	    "the crawl's database: an SQLite file or a postgresql:// URI "
	    "(read only; a crawl may be writing it)" },
	{ "port", 0, CMDOPT_INT, "N", 0, 65535, "8077",
	    "port to listen on; 0 takes a free one (the first line on "
	    "stderr says which)" },
	{ "addr", 0, CMDOPT_STR, "A", 0, 0, "127.0.0.1",
	    "address to listen on: this machine only by default; the view "
	    "has no login, so think before opening it to others" },
	{ "refresh", 0, CMDOPT_INT, "S", 1, 3600, "10",
	    "while the database changes, remake the report's plots at most "
	    "every S seconds" },
	{ "quiet", 'q', CMDOPT_FLAG, NULL, 0, 0, NULL,
	    "print nothing but errors" },
};

const struct cmdopt_cmd cmdopt_serve = {
	"serve",
	"serve -d DB [--port N] [--addr A] [--refresh S] [-q|--quiet]",
	"A local web view of a crawl (docs/serve.md), read only, also while "
	"a crawl writes it: the report's summary and plots, search with "
	"duplicates folded, the clusters with every member, a page beside "
	"its original with the words that are new marked, the hosts with "
	"their back-off and robots.txt. Ctrl-C (SIGINT) or SIGTERM stops it. "
	"Exit status: 0 stopped by a signal; 1 it cannot listen or run; 2 "
	"bad usage or a database it cannot open.",
	NULL, NULL,
	serve_opts, N(serve_opts),
};

static const struct cmdopt_cmd *const commands[] = {
	&cmdopt_search, &cmdopt_index, &cmdopt_serve,
};

/* The option of c called name (len bytes), or NULL. */
static const struct cmdopt *
find_long(const struct cmdopt_cmd *c, const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < c->nopts; i++)
		if (strlen(c->opts[i].name) == len &&
		    strncmp(c->opts[i].name, name, len) == 0)
			return &c->opts[i];
	return NULL;
}

static const struct cmdopt *
find_letter(const struct cmdopt_cmd *c, char letter)
{
	size_t i;

	for (i = 0; i < c->nopts; i++)
		if (c->opts[i].letter == letter)
			return &c->opts[i];
	return NULL;
}

/* Pass option o with value v (NULL for a flag) to fn. 0, or -1. */
static int
take(const struct cmdopt_cmd *c, const struct cmdopt *o, const char *v,
    int (*fn)(int, const char *, long, void *), void *arg, char *err,
    size_t errsz)
{
	long n = 0;
	char *end;

	if (o->kind == CMDOPT_INT) {
		errno = 0;
		n = strtol(v, &end, 10);
		if (errno != 0 || end == v || *end != '\0' || n < o->lo ||
		    n > o->hi)
			return err_set(err, errsz, -1, "--%s %s: not a whole "
			    "number from %ld to %ld", o->name, v, o->lo, o->hi);
	}
	if (fn((int)(o - c->opts), v, n, arg) != 0)
		return -1;
	return 0;
}

int
cmdopt_parse(const struct cmdopt_cmd *c, int argc, char **argv,
    int (*fn)(int opt, const char *value, long number, void *arg), void *arg,
    char **operands, int *noperands, char *err, size_t errsz)
{
	const struct cmdopt *o;
	const char *a, *eq, *v;
	int i, ended = 0;
	size_t len;

	*noperands = 0;
	for (i = 1; i < argc; i++) {
		a = argv[i];
		if (ended || a[0] != '-' || a[1] == '\0') {
			operands[(*noperands)++] = argv[i];
			continue;
		}
		if (strcmp(a, "--") == 0) {
			ended = 1;
			continue;
		}
		if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0)
			return 1;
		eq = NULL;
		if (a[1] == '-') {
			eq = strchr(a + 2, '=');
			len = eq != NULL ? (size_t)(eq - a - 2) : strlen(a + 2);
			o = find_long(c, a + 2, len);
		} else
			o = a[2] == '\0' ? find_letter(c, a[1]) : NULL;
		if (o == NULL)
			return err_set(err, errsz, -1, "unknown option %s", a);
		if (o->kind == CMDOPT_FLAG) {
			if (eq != NULL)
				return err_set(err, errsz, -1, "--%s takes no "
				    "value", o->name);
			v = NULL;
		} else if (eq != NULL)
			v = eq + 1;
		else if (i + 1 < argc)
			v = argv[++i];
		else
			return err_set(err, errsz, -1, "%s needs a value (%s)",
			    a, o->arg);
		if (take(c, o, v, fn, arg, err, errsz) != 0)
			return -1;
	}
	return 0;
}

/*
 * text written from column col on (the cursor is there), wrapped before
 * WIDTH, each line after the first starting at column indent.
 */
static void
wrap(FILE *out, const char *text, int col, int indent)
{
	const char *w = text, *e;
	int len, first = 1;

	while (*w != '\0') {
		for (e = w; *e != '\0' && *e != ' '; e++)
			;
		len = (int)(e - w);
		if (!first && col + 1 + len >= WIDTH) {
			fprintf(out, "\n%*s", indent, "");
			col = indent;
		} else if (!first) {
			putc(' ', out);
			col++;
		}
		fwrite(w, 1, (size_t)len, out);
		col += len;
		first = 0;
		w = *e == ' ' ? e + 1 : e;
	}
	putc('\n', out);
}

void
cmdopt_usage(const struct cmdopt_cmd *c, FILE *out)
{
	const struct cmdopt *o;
	char head[64], text[640];
	size_t i;
	int col;

	fprintf(out, "usage: nearcrawl %s\n\n", c->synopsis);
	wrap(out, c->about, 0, 0);
	putc('\n', out);
	if (c->operand != NULL) {
		fprintf(out, "  %-*s", HELP_COL - 2, c->operand);
		wrap(out, c->operands, HELP_COL, HELP_COL);
	}
	for (i = 0; i < c->nopts; i++) {
		o = &c->opts[i];
		if (o->letter != 0)
			snprintf(head, sizeof(head), "  -%c, --%s%s%s",
			    o->letter, o->name, o->arg ? " " : "",
			    o->arg ? o->arg : "");
		else
			snprintf(head, sizeof(head), "      --%s%s%s", o->name,
			    o->arg ? " " : "", o->arg ? o->arg : "");
		/* A long head gets a line of its own. */
		if ((col = fprintf(out, "%s", head)) >= HELP_COL - 1)
			fprintf(out, "\n%*s", HELP_COL, "");
		else
			fprintf(out, "%*s", HELP_COL - col, "");
		if (o->kind == CMDOPT_INT)
			snprintf(text, sizeof(text), "%s (%ld to %ld%s%s)",
			    o->help, o->lo, o->hi, o->def ? ", default " : "",
			    o->def ? o->def : "");
		else if (o->def != NULL)
			snprintf(text, sizeof(text), "%s (default %s)", o->help,
			    o->def);
		else
			snprintf(text, sizeof(text), "%s%s", o->help,
			    o->kind == CMDOPT_LIST ? " (repeatable)" : "");
		wrap(out, text, HELP_COL, HELP_COL);
	}
}

void
cmdopt_man(FILE *out)
{
	const struct cmdopt_cmd *c;
	const struct cmdopt *o;
	char more[96];
	size_t k, i;

	for (k = 0; k < N(commands); k++) {
		c = commands[k];
		fputs(".SS \"nearcrawl ", out);
		config_man_text(out, c->name);
		fputs("\"\n", out);
		config_man_text(out, c->about);
		fputc('\n', out);
		if (c->operand != NULL) {
			fputs(".TP\n\\fI", out);
			config_man_text(out, c->operand);
			fputs("\\fR\n", out);
			config_man_text(out, c->operands);
			fputs(".\n", out);
		}
		for (i = 0; i < c->nopts; i++) {
			o = &c->opts[i];
			fputs(".TP\n", out);
			if (o->letter != 0)
				fprintf(out, "\\fB\\-%c\\fR, ", o->letter);
			fputs("\\fB\\-\\-", out);
			config_man_text(out, o->name);
			fputs("\\fR", out);
			if (o->arg != NULL) {
				fputs(" \\fI", out);
				config_man_text(out, o->arg);
				fputs("\\fR", out);
			}
			fputc('\n', out);
			config_man_text(out, o->help);
			more[0] = '\0';
			if (o->kind == CMDOPT_INT)
				snprintf(more, sizeof(more), "; %ld..%ld",
				    o->lo, o->hi);
			if (o->def != NULL)
				snprintf(more + strlen(more), sizeof(more) -
				    strlen(more), "; default %s", o->def);
			if (o->kind == CMDOPT_LIST)
				snprintf(more + strlen(more), sizeof(more) -
				    strlen(more), "; repeatable");
			config_man_text(out, more);
			fputs(".\n", out);
		}
	}
}
