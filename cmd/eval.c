#include "cmd/eval.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/eval_groups.h"
#include "cmd/eval_pairs.h"
#include "config/config.h"
#include "util/err.h"

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
	    "as scripts/eval/eval-labels.sh scores it.\n"
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
				return err_set(err, errsz, -1, "--thresholds: "
				    "%s has no threshold", mi->name);
			o->sweep[i] = eq + 1;
			return 0;
		}
	return err_set(err, errsz, -1, "--thresholds: expected METHOD=LIST, "
	    "got `%s'", v);
}

/* The defaults eval takes from -c FILE (every one, wherever it stands, as
 * crawl reads them) or from the built-in settings. 0 or -1. */
static int
eval_defaults(int argc, char **argv, struct eval_opts *o, char *err,
    size_t errsz)
{
	struct config cfg;
	int i;

	if (config_init(&cfg) != 0)
		return err_set(err, errsz, -1, "out of memory");
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
	return 0;
}

/* A number from lo to hi in v, for option opt; 0 or -1. */
static int
eval_number(const char *opt, const char *v, long lo, long hi, long *n,
    char *err, size_t errsz)
{
	char *end;

	*n = strtol(v, &end, 10);
	if (*v == '\0' || *end != '\0' || *n < lo || *n > hi)
		return err_set(err, errsz, -1, "%s: a number from %ld to %ld",
		    opt, lo, hi);
	return 0;
}

/* Option opt with its value v into o; 0, or -1 with a message. */
static int
eval_option(const char *opt, const char *v, struct eval_opts *o, char *err,
    size_t errsz)
{
	const char *bad;
	long n;

	if (strcmp(opt, "-c") == 0)
		return 0;
	if (strcmp(opt, "--docs") == 0)
		o->docs = v;
	else if (strcmp(opt, "--pairs") == 0)
		o->pairs = v;
	else if (strcmp(opt, "-d") == 0)
		o->db = v;
	else if (strcmp(opt, "--groups") == 0)
		o->groups = v;
	else if (strcmp(opt, "--methods") == 0) {
		if (dedup_parse_methods(v, &o->methods, &bad) != 0)
			return err_set(err, errsz, -1, "--methods: unknown "
			    "method at `%s'", bad);
	} else if (strcmp(opt, "--thresholds") == 0) {
		return set_sweep(o, v, err, errsz);
	} else if (strcmp(opt, "--text") == 0) {
		if (strcmp(v, "main") == 0)
			o->text = EVAL_MAIN;
		else if (strcmp(v, "body") == 0)
			o->text = EVAL_BODY;
		else if (strcmp(v, "both") == 0)
			o->text = EVAL_MAIN | EVAL_BODY;
		else
			return err_set(err, errsz, -1, "--text: main, body or "
			    "both, not `%s'", v);
	} else if (strcmp(opt, "--min-text-bytes") == 0) {
		if (eval_number(opt, v, 0, 1000000000L, &n, err, errsz) != 0)
			return -1;
		o->dc.min_text = (size_t)n;
	} else if (strcmp(opt, "--repeat") == 0) {
		if (eval_number(opt, v, 1, 1000, &n, err, errsz) != 0)
			return -1;
		o->repeat = (int)n;
	} else
		return err_set(err, errsz, -1, "unknown option %s", opt);
	return 0;
}

int
eval_parse_args(int argc, char **argv, struct eval_opts *o, char *err,
    size_t errsz)
{
	int i;

	memset(o, 0, sizeof(*o));
	if (eval_defaults(argc, argv, o, err, errsz) != 0)
		return -1;
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
			return err_set(err, errsz, -1, "%s: unknown option, "
			    "or its value is missing", argv[i]);
		if (eval_option(argv[i], argv[i + 1], o, err, errsz) != 0)
			return -1;
		i++;
	}
	if ((o->docs != NULL) + (o->pairs != NULL) == 1 ||
	    (o->db != NULL) + (o->groups != NULL) == 1 ||
	    (o->docs != NULL) == (o->db != NULL))
		return err_set(err, errsz, -1, "give --docs DIR --pairs FILE, "
		    "or -d DB --groups FILE");
	return 0;
}

int
eval_run(const struct eval_opts *o, FILE *out, char *err, size_t errsz)
{
	err_set(err, errsz, 0, "%s", "");
	if (o->docs != NULL)
		return eval_pairs(o, out, err, errsz);
	return eval_groups(o, out, err, errsz);
}
