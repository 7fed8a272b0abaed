#include "cmd/eval_int.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"

int
eval_err(char *err, size_t errsz, int code, const char *fmt, ...)
{
	va_list ap;

	if (err != NULL && errsz > 0) {
		va_start(ap, fmt);
		vsnprintf(err, errsz, fmt, ap);
		va_end(ap);
	}
	return code;
}

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
		return eval_err(err, errsz, EVAL_USAGE, "%s: %s", file,
		    strerror(errno));
	while (rc == 0 && fgets(line, sizeof(line), f) != NULL) {
		ln++;
		len = strlen(line);
		if (len == sizeof(line) - 1 && line[len - 1] != '\n' &&
		    !feof(f))
			rc = eval_err(err, errsz, EVAL_USAGE, "%s:%ld: line "
			    "longer than %d bytes", file, ln,
			    EVAL_LINE_MAX - 2);
		else
			rc = fn(line, ln, arg);
	}
	if (rc == 0 && ferror(f))
		rc = eval_err(err, errsz, EVAL_USAGE, "%s: cannot read",
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

void
eval_usage(FILE *out)
{
	const struct dedup_method_info *mi;
	size_t i;

	fprintf(out,
	    "usage: nearcrawl eval --docs DIR --pairs FILE [options]\n"
	    "       nearcrawl eval -d DB --groups FILE [--csv]\n"
	    "\n"
	    "Precision, recall and F1 of each method and threshold on\n"
	    "labelled document pairs (FILE: \"A B dup|near|distinct [CLASS]\"\n"
	    "a line, A and B under DIR), with the time per page; or of a\n"
	    "crawl's verdicts against a path<TAB>group<TAB>class file, scored\n"
	    "as scripts/eval-labels.sh scores it.\n"
	    "\n"
	    "  --methods LIST       methods to evaluate (default: all)\n"
	    "  --thresholds M=LIST  thresholds of method M (repeatable)\n"
	    "  --text main|body|both  near methods read the main content,\n"
	    "                       the whole body text, or each (default\n"
	    "                       both)\n"
	    "  --min-text-bytes N   near methods skip texts under N bytes\n"
	    "  -c FILE              the crawl's INI file: its [dedup]\n"
	    "                       settings make the \"crawl\" rows\n"
	    "                       (default: the defaults)\n"
	    "  --repeat N           time each step N times, keep the fastest\n"
	    "                       (default 3)\n"
	    "  --by-class           pairs: what each method finds per class\n"
	    "  --csv                CSV instead of a table\n"
	    "\n"
	    "methods, their thresholds and the values tried by default:\n");
	for (i = 0; (mi = dedup_method_at(i)) != NULL; i++) {
		if (mi->threshold == NULL)
			fprintf(out, "  %-8s equal texts or not\n", mi->name);
		else
			fprintf(out, "  %-8s %s %s %s: %s\n", mi->name,
			    mi->distance ? "distance" : "score", mi->threshold,
			    mi->distance ? "at most" : "at least", mi->sweep);
	}
	fprintf(out, "\nexit status: 0 done, 1 failed at run time, 2 bad "
	    "usage or input\n");
}

/* "M=LIST": the method's table row gets LIST. */
static int
set_sweep(struct eval_opts *o, const char *v, char *err, size_t errsz)
{
	const struct dedup_method_info *mi;
	const char *eq = strchr(v, '=');
	size_t i;

	for (i = 0; eq != NULL && (mi = dedup_method_at(i)) != NULL; i++)
		if (strlen(mi->name) == (size_t)(eq - v) &&
		    strncmp(mi->name, v, (size_t)(eq - v)) == 0 &&
		    i < EVAL_MAX_METHODS) {
			if (mi->threshold == NULL)
				return eval_err(err, errsz, -1, "--thresholds: "
				    "%s has no threshold", mi->name);
			o->sweep[i] = eq + 1;
			return 0;
		}
	return eval_err(err, errsz, -1, "--thresholds: expected METHOD=LIST, "
	    "got `%s'", v);
}

int
eval_parse_args(int argc, char **argv, struct eval_opts *o, char *err,
    size_t errsz)
{
	struct config cfg;
	const char *bad, *v;
	char *end;
	long n;
	int i;

	memset(o, 0, sizeof(*o));
	if (config_init(&cfg) != 0)
		return eval_err(err, errsz, -1, "out of memory");
	/* Every -c FILE first, wherever it stands, as crawl does. */
	for (i = 1; i + 1 < argc; i++)
		if (strcmp(argv[i], "-c") == 0 &&
		    (config_load_ini(&cfg, argv[++i], err, errsz) != 0 ||
		    config_validate(&cfg, err, errsz) != 0)) {
			config_free(&cfg);
			return -1;
		}
	config_dedup(&cfg, &o->dc);
	snprintf(o->rule, sizeof(o->rule), "%s", cfg.near_rule);
	o->max_body = cfg.max_body;
	o->max_text = cfg.max_text;
	config_free(&cfg);
	o->text = EVAL_MAIN | EVAL_BODY;
	o->methods = ~0u;
	o->repeat = 3;
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-h") == 0 ||
		    strcmp(argv[i], "--help") == 0)
			return 1;
		if (strcmp(argv[i], "--csv") == 0) {
			o->csv = 1;
			continue;
		}
		if (strcmp(argv[i], "--by-class") == 0) {
			o->by_class = 1;
			continue;
		}
		if (i + 1 >= argc)
			return eval_err(err, errsz, -1, "%s: unknown option, "
			    "or its value is missing", argv[i]);
		v = argv[++i];
		if (strcmp(argv[i - 1], "-c") == 0)
			continue;
		if (strcmp(argv[i - 1], "--docs") == 0)
			o->docs = v;
		else if (strcmp(argv[i - 1], "--pairs") == 0)
			o->pairs = v;
		else if (strcmp(argv[i - 1], "-d") == 0)
			o->db = v;
		else if (strcmp(argv[i - 1], "--groups") == 0)
			o->groups = v;
		else if (strcmp(argv[i - 1], "--methods") == 0) {
			if (dedup_parse_methods(v, &o->methods, &bad) != 0)
				return eval_err(err, errsz, -1, "--methods: "
				    "unknown method at `%s'", bad);
		} else if (strcmp(argv[i - 1], "--thresholds") == 0) {
			if (set_sweep(o, v, err, errsz) != 0)
				return -1;
		} else if (strcmp(argv[i - 1], "--text") == 0) {
			if (strcmp(v, "main") == 0)
				o->text = EVAL_MAIN;
			else if (strcmp(v, "body") == 0)
				o->text = EVAL_BODY;
			else if (strcmp(v, "both") == 0)
				o->text = EVAL_MAIN | EVAL_BODY;
			else
				return eval_err(err, errsz, -1, "--text: main, "
				    "body or both, not `%s'", v);
		} else if (strcmp(argv[i - 1], "--min-text-bytes") == 0) {
			n = strtol(v, &end, 10);
			if (*v == '\0' || *end != '\0' || n < 0 ||
			    n > 1000000000L)
				return eval_err(err, errsz, -1,
				    "--min-text-bytes: a number from 0 to "
				    "1000000000");
			o->dc.min_text = (size_t)n;
		} else if (strcmp(argv[i - 1], "--repeat") == 0) {
			n = strtol(v, &end, 10);
			if (*v == '\0' || *end != '\0' || n < 1 || n > 1000)
				return eval_err(err, errsz, -1, "--repeat: a "
				    "number from 1 to 1000");
			o->repeat = (int)n;
		} else
			return eval_err(err, errsz, -1, "unknown option %s",
			    argv[i - 1]);
	}
	if ((o->docs != NULL) + (o->pairs != NULL) == 1 ||
	    (o->db != NULL) + (o->groups != NULL) == 1 ||
	    (o->docs != NULL) == (o->db != NULL))
		return eval_err(err, errsz, -1, "give --docs DIR --pairs FILE, "
		    "or -d DB --groups FILE");
	return 0;
}

int
eval_run(const struct eval_opts *o, FILE *out, char *err, size_t errsz)
{
	eval_err(err, errsz, 0, "%s", "");
	if (o->docs != NULL)
		return eval_pairs(o, out, err, errsz);
	return eval_groups(o, out, err, errsz);
}
