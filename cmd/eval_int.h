/*
 * eval_int: what the parts of the eval module share. Internal: only
 * crawler/eval*.c include it.
 *
 *   eval.c         arguments, the result table, the run
 *   eval_pairs.c   documents and labelled pairs
 *   eval_groups.c  a crawled database and a group file
 */
#ifndef NC_EVAL_INT_H
#define NC_EVAL_INT_H

#include <stdint.h>

#include "cmd/eval.h"

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

/* Set err to a formatted message and return code. */
int eval_err(char *err, size_t errsz, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

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

int eval_pairs(const struct eval_opts *o, FILE *out, char *err, size_t errsz);
int eval_groups(const struct eval_opts *o, FILE *out, char *err,
    size_t errsz);

#endif
