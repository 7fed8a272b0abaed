/*
 * eval_util: what the parts of `nearcrawl eval` share -- the options and
 * results, the result table, and reading a pairs or group file by lines.
 * Below them all:
 *
 *   eval.c         arguments and the run (cmd/eval.h)
 *   eval_pairs.c   documents and labelled pairs (cmd/eval_pairs.h)
 *   eval_groups.c  a crawled database and a group file (cmd/eval_groups.h)
 *   eval_util.c    this
 */
#ifndef NC_EVAL_UTIL_H
#define NC_EVAL_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "dedup/dedup.h"

/* Results, the same as nearcrawl's exit statuses. */
enum { EVAL_OK = 0, EVAL_RUNTIME = 1, EVAL_USAGE = 2 };

/* Methods the table may hold at most. */
#define EVAL_MAX_METHODS 32

enum eval_text { EVAL_MAIN = 1 << 0, EVAL_BODY = 1 << 1 };

struct eval_opts {
	const char *docs;     /* --docs DIR */
	const char *pairs;    /* --pairs FILE */
	const char *db;       /* -d DB */
	const char *groups;   /* --groups FILE */
	unsigned methods;     /* DEDUP_* bits evaluated (md5 always) */
	const char *sweep[EVAL_MAX_METHODS]; /* thresholds per method table
	                        row ("2,3,4"); NULL: the row's own sweep */
	unsigned text;        /* EVAL_MAIN and/or EVAL_BODY */
	int csv;              /* CSV instead of a table */
	int by_class;         /* pairs: rows per class of pair as well */
	struct dedup_config dc; /* the crawl's [dedup] settings (defaults, or
	                        -c FILE): min_text and the crawl row's rule */
	char rule[16];        /* their near_rule, for the crawl row */
	int repeat;           /* timings: the fastest of this many runs */
	long max_body;        /* cap on a document, bytes */
	long max_text;        /* cap on its extracted text, bytes */
};

/* One line of the result table. */
struct eval_row {
	const char *text;      /* "main", "body", or "-" (as crawled) */
	const char *method;    /* method name, or "crawl" */
	char threshold[32];    /* "k=3", "T=90", or "-" */
	int64_t tp, fp, fn;    /* pairs or pages */
	int64_t tn;            /* < 0: not counted (groups) */
	double fp_us;          /* fingerprint us per page, < 0: unknown */
	double lookup_us;      /* index check and add per page, < 0: unknown */
	double index_bytes;    /* index bytes per page, < 0: unknown */
};

/* How a run writes its rows. */
struct eval_table {
	FILE *out;
	int csv;
	int rows;              /* rows written so far */
};

/* Precision and recall: 1 for an empty denominator, as eval-labels.sh. */
double eval_ratio(int64_t a, int64_t b);

/* F1 of precision p and recall r: 0 when both are 0. */
double eval_f1(double p, double r);

/* Write one row, and the header before the first. */
void eval_put_row(struct eval_table *t, const struct eval_row *r);

/* Longest line of a pairs or group file, with its newline and NUL. */
#define EVAL_LINE_MAX 8192

/*
 * Call fn(line, lineno, arg) for each line of file in order (the line
 * with its newline, writable), until fn returns non-zero, which is then
 * returned. A file that cannot be opened or read, or a line longer than
 * EVAL_LINE_MAX - 2 bytes, is EVAL_USAGE with a message in err.
 */
int eval_read_lines(const char *file, int (*fn)(char *line, long ln,
    void *arg), void *arg, char *err, size_t errsz);

#endif
