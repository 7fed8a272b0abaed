/*
 * eval_util: the helpers the parts of `nearcrawl eval` share
 * (cmd/eval_util.h).
 */
#include "cmd/eval_util.h"

#include <errno.h>
#include <string.h>

#include "util/err.h"

int
eval_read_lines(const char *file, int (*fn)(char *line, long ln, void *arg),
    void *arg, char *err, size_t errsz)
{
	char line[EVAL_LINE_MAX];
	size_t len;
	long ln = 0;
	FILE *f;
	int rc = 0;

	if ((f = fopen(file, "r")) == NULL)
		return err_set(err, errsz, EVAL_USAGE, "%s: %s", file,
		    strerror(errno));
	while (rc == 0 && fgets(line, sizeof(line), f) != NULL) {
		ln++;
		len = strlen(line);
		if (len == sizeof(line) - 1 && line[len - 1] != '\n' &&
		    !feof(f))
			rc = err_set(err, errsz, EVAL_USAGE, "%s:%ld: line "
			    "longer than %d bytes", file, ln,
			    EVAL_LINE_MAX - 2);
		else
			rc = fn(line, ln, arg);
	}
	if (rc == 0 && ferror(f))
		rc = err_set(err, errsz, EVAL_USAGE, "%s: cannot read",
		    file);
	fclose(f);
	return rc;
}

double
eval_ratio(int64_t a, int64_t b)
{
	return b == 0 ? 1.0 : (double)a / (double)b;
}

double
eval_f1(double p, double r)
{
	return p + r > 0 ? 2 * p * r / (p + r) : 0.0;
}

/* A measured figure, or "-" (empty in CSV) when there is none. */
static void
put_num(FILE *f, const char *fmt, int width, double v, int csv)
{
	if (v >= 0)
		fprintf(f, fmt, width, v);
	else if (!csv)
		fprintf(f, "%*s", width, "-");
}

void
eval_put_row(struct eval_table *t, const struct eval_row *r)
{
	double p = eval_ratio(r->tp, r->tp + r->fp);
	double rc = eval_ratio(r->tp, r->tp + r->fn);
	FILE *f = t->out;

	if (t->rows++ == 0)
		fputs(t->csv ? "text,method,threshold,tp,fp,fn,tn,precision,"
		    "recall,f1,fingerprint_us,lookup_us,index_bytes\n" :
		    "text  method   threshold     TP     FP     FN     TN "
		    "precision recall    F1   fp_us lookup_us index_B\n", f);
	if (t->csv) {
		fprintf(f, "%s,%s,%s,%lld,%lld,%lld,", r->text, r->method,
		    r->threshold, (long long)r->tp, (long long)r->fp,
		    (long long)r->fn);
		if (r->tn >= 0)
			fprintf(f, "%lld", (long long)r->tn);
		fprintf(f, ",%.3f,%.3f,%.3f,", p, rc, eval_f1(p, rc));
		put_num(f, "%.*f", 2, r->fp_us, 1);
		putc(',', f);
		put_num(f, "%.*f", 2, r->lookup_us, 1);
		putc(',', f);
		put_num(f, "%.*f", 0, r->index_bytes, 1);
		putc('\n', f);
		return;
	}
	fprintf(f, "%-5s %-8s %-9s %6lld %6lld %6lld ", r->text, r->method,
	    r->threshold, (long long)r->tp, (long long)r->fp,
	    (long long)r->fn);
	if (r->tn >= 0)
		fprintf(f, "%6lld", (long long)r->tn);
	else
		fprintf(f, "%6s", "-");
	fprintf(f, " %9.3f %6.3f %5.3f ", p, rc, eval_f1(p, rc));
	put_num(f, "%*.2f", 7, r->fp_us, 0);
	putc(' ', f);
	put_num(f, "%*.2f", 9, r->lookup_us, 0);
	putc(' ', f);
	put_num(f, "%*.0f", 7, r->index_bytes, 0);
	putc('\n', f);
}
