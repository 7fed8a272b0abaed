/*
 * config_write: the settings written out -- the --help text
 * (config_usage), config/example.ini (config_write_example), a dump of the
 * settings in use (config_dump) and one value as text (config_value), all
 * from the settings table; see config.h.
 */
#include "config/config_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dedup/dedup.h"

/* Whether o's INI key is its long option with '_' for '-'. */
static int
key_is_option(const struct opt *o)
{
	const char *k = o->pub.key, *op = o->pub.option;

	for (; *k != '\0' && *op != '\0'; k++, op++)
		if (*k != (*op == '-' ? '_' : *op))
			return 0;
	return *k == *op;
}

/* Columns of --help, and where an option's text starts. */
#define HELP_WIDTH 80
#define HELP_INDENT 31

/*
 * text at column HELP_INDENT of a line already indented, broken at blanks
 * so that no line is wider than HELP_WIDTH; continuation lines start at
 * HELP_INDENT too. A word longer than a line stands alone.
 */
static void
wrap(FILE *out, const char *text)
{
	const char *w = text, *end;
	int n, col = HELP_INDENT;

	while (*w != '\0') {
		end = w + strcspn(w, " ");
		/* A list too long for the rest of the line breaks after a
		 * comma. */
		if (end - w > HELP_WIDTH - col - 1) {
			const char *c = w + (HELP_WIDTH - col - 1) - 1;

			while (c > w && *c != ',')
				c--;
			if (c > w)
				end = c + 1;
		}
		n = (int)(end - w);
		if (col > HELP_INDENT && col + 1 + n > HELP_WIDTH) {
			fprintf(out, "\n%*s", HELP_INDENT, "");
			col = HELP_INDENT;
		} else if (col > HELP_INDENT) {
			fputc(' ', out);
			col++;
		}
		fwrite(w, 1, (size_t)n, out);
		col += n;
		w = end + strspn(end, " ");
	}
	fputc('\n', out);
}

/* The lines of --help about the command-line option of o. */
static void
usage_option(FILE *out, const struct opt *o)
{
	char left[64], more[256];
	int col;

	if (o->shortopt != 0)
		snprintf(left, sizeof(left), "-%c, --%s%s%s", o->shortopt,
		    o->pub.option, o->arg ? " " : "", o->arg ? o->arg : "");
	else
		snprintf(left, sizeof(left), "    --%s%s%s", o->pub.option,
		    o->arg ? " " : "", o->arg ? o->arg : "");
	if (strlen(left) >= 28)
		fprintf(out, "  %s\n%*s", left, HELP_INDENT, "");
	else
		fprintf(out, "  %-28s ", left);
	wrap(out, o->help);
	if (o->type == OPT_LIST)
		col = snprintf(more, sizeof(more), "repeatable");
	else
		col = snprintf(more, sizeof(more), "default %s", o->pub.def);
	if (o->type == OPT_INT || o->type == OPT_LONG)
		col += snprintf(more + col, sizeof(more) - (size_t)col,
		    ", %lld..%lld", o->min, o->max);
	if (!key_is_option(o))
		snprintf(more + col, sizeof(more) - (size_t)col, "; key %s",
		    o->pub.key);
	fprintf(out, "%*s", HELP_INDENT, "");
	wrap(out, more);
	if (o->type != OPT_LIST && o->example != NULL) {
		snprintf(more, sizeof(more), "e.g. %s", o->example);
		fprintf(out, "%*s", HELP_INDENT, "");
		wrap(out, more);
	}
	if (config_secs_option(o) != NULL) {
		fprintf(out, "      --%s %-*s ", config_secs_option(o),
		    (int)(21 - strlen(config_secs_option(o))), "DURATION");
		wrap(out, "the same in seconds, or with a unit: 2, 0.5s, "
		    "500ms, 1m");
	}
}

void
config_usage_sections(FILE *out, const char *const *sections)
{
	const struct opt *o;
	size_t s, i, k;

	for (s = 0; s < config_nsections; s++) {
		for (k = 0; sections != NULL && sections[k] != NULL &&
		    strcmp(sections[k], config_sections[s].name) != 0; k++)
			;
		if (sections != NULL && sections[k] == NULL)
			continue;
		fprintf(out, "\n[%s] %s\n", config_sections[s].name,
		    config_sections[s].about);
		for (i = 0; i < config_nopts; i++) {
			o = &config_opts[i];
			if (strcmp(o->pub.section,
			    config_sections[s].name) == 0 &&
			    o->pub.option != NULL)
				usage_option(out, o);
		}
	}
}

void
config_man_text(FILE *out, const char *s)
{
	if (*s == '.' || *s == '\'')
		fputs("\\&", out);
	for (; *s != '\0'; s++) {
		if (*s == '\\')
			fputs("\\e", out);
		else if (*s == '-')
			fputs("\\-", out);
		else
			fputc(*s, out);
	}
}

void
config_man_options(FILE *out)
{
	const struct opt *o;
	char more[256];
	size_t s, i;
	int col;

	for (s = 0; s < config_nsections; s++) {
		fputs(".SS \"[", out);
		config_man_text(out, config_sections[s].name);
		fputs("] ", out);
		config_man_text(out, config_sections[s].about);
		fputs("\"\n", out);
		for (i = 0; i < config_nopts; i++) {
			o = &config_opts[i];
			if (strcmp(o->pub.section, config_sections[s].name) !=
			    0 || o->pub.option == NULL)
				continue;
			fputs(".TP\n", out);
			if (o->shortopt != 0)
				fprintf(out, "\\fB\\-%c\\fR, ", o->shortopt);
			fputs("\\fB\\-\\-", out);
			config_man_text(out, o->pub.option);
			fputs("\\fR", out);
			if (o->arg != NULL) {
				fputs(" \\fI", out);
				config_man_text(out, o->arg);
				fputs("\\fR", out);
			}
			if (config_secs_option(o) != NULL) {
				fputs(", \\fB\\-\\-", out);
				config_man_text(out, config_secs_option(o));
				fputs("\\fR \\fIDURATION\\fR", out);
			}
			fputc('\n', out);
			config_man_text(out, o->help);
			fputs(".\n", out);
			if (o->type == OPT_LIST)
				col = snprintf(more, sizeof(more), "Repeatable");
			else
				col = snprintf(more, sizeof(more), "Default %s",
				    o->pub.def);
			if (o->type == OPT_INT || o->type == OPT_LONG)
				col += snprintf(more + col, sizeof(more) -
				    (size_t)col, ", %lld..%lld", o->min,
				    o->max);
			snprintf(more + col, sizeof(more) - (size_t)col,
			    "; INI key [%s] %s", o->pub.section, o->pub.key);
			config_man_text(out, more);
			fputs(".", out);
			if (o->type != OPT_LIST && o->example != NULL) {
				fputs(" For example: ", out);
				config_man_text(out, o->example);
				fputs(".", out);
			}
			if (config_secs_option(o) != NULL)
				fputs(" The second form takes seconds, or a "
				    "unit: 2, 0.5s, 500ms, 1m.", out);
			fputc('\n', out);
		}
	}
}

void
config_usage(FILE *out)
{
	fputs("usage: nearcrawl crawl [-c FILE] [-d DB] [options] "
	      "[SEED_URL...]\n\n"
	      "Crawl from the seed URLs and tell unique pages from exact and "
	      "near duplicates.\n"
	      "An existing DB is resumed with every setting it was crawled "
	      "with (stored in\n"
	      "it); options given again replace them and are said, but the "
	      "[dedup] ones and\n"
	      "the scope must match. Never stored: SEED_URLs, -d, --quiet, "
	      "--force-settings,\n"
	      "--retry-given-up, and a --proxy URL's user:password (give it "
	      "again). --max-pages\n"
	      "is stored and counts the database's pages: raise it, or give "
	      "0, to go on.\n\n"
	      "Settings come from the defaults, then the INI file (-c), then "
	      "the other\n"
	      "options; repeatable options and SEED_URLs add to the file's "
	      "lists. In the\n"
	      "file, an option is a key of the section it is listed under, "
	      "spelt with _\n"
	      "for - unless its key is shown.\n\n",
	    out);
	fputs("Exit status: 0 nothing left to fetch; 3 stopped with work "
	      "left, everything saved\n"
	      "(a signal, --max-pages, --stop-when-saturated): a plain resume "
	      "goes on; 1 failed\n"
	      "at run time; 2 bad usage, settings or database.\n\n", out);
	fprintf(out, "  %-28s %s\n", "SEED_URL...",
	    "where to start; adds to the file's seed keys");
	fprintf(out, "  %-28s %s\n", "-c, --config FILE",
	    "read settings from this INI file first");
	fprintf(out, "  %-28s %s\n", "-h, --help",
	    "print this help and exit");
	config_usage_sections(out, NULL);
}

/* A scalar setting's value in INI form (no key, no newline). */
static void
put_value(FILE *out, const struct config *c, const struct opt *o)
{
	unsigned bits, bit;
	const char *sep = "";

	switch (o->type) {
	case OPT_BOOL:
		fputs(*(const int *)config_cfield(c, o) ? "true" : "false",
		    out);
		break;
	case OPT_INT:
		fprintf(out, "%d", *(const int *)config_cfield(c, o));
		break;
	case OPT_LONG:
		fprintf(out, "%ld", *(const long *)config_cfield(c, o));
		break;
	case OPT_STR:
		fputs(*(char *const *)config_cfield(c, o), out);
		break;
	case OPT_METHODS:
		bits = *(const unsigned *)config_cfield(c, o);
		for (bit = 1; bit != 0; bit <<= 1) {
			if ((bits & bit) == 0)
				continue;
			fprintf(out, "%s%s", sep,
			    dedup_method_name((enum dedup_method)bit));
			sep = ",";
		}
		break;
	case OPT_LIST:
		break;
	}
}

/* One key's value in INI form; lists write one line per entry. */
static void
write_value(FILE *out, const struct config *c, const struct opt *o,
    int commented)
{
	char *const *list;
	size_t j, n;

	if (o->type != OPT_LIST) {
		fprintf(out, "%s = ", o->pub.key);
		put_value(out, c, o);
		fputc('\n', out);
		return;
	}
	list = *(char **const *)config_cfield(c, o);
	n = *(const size_t *)((const char *)c + o->noff);
	for (j = 0; j < n; j++)
		fprintf(out, "%s = %s\n", o->pub.key, list[j]);
	if (n == 0 && commented)
		fprintf(out, "; %s = %s\n", o->pub.key, o->example);
}

char *
config_value(const struct config *c, const char *key)
{
	const struct opt *o = config_opt_by_name(key);
	char *v = NULL;
	size_t n;
	FILE *f;

	if (o == NULL || o->type == OPT_LIST ||
	    (f = open_memstream(&v, &n)) == NULL)
		return NULL;
	put_value(f, c, o);
	if (fclose(f) != 0) {
		free(v);
		return NULL;
	}
	return v;
}

static int
write_ini(const struct config *c, FILE *out, int commented)
{
	const struct opt *o;
	size_t s, i;

	if (commented)
		fputs("; nearcrawl crawl settings: every key with its default."
		      "\n; Written by config_write_example(); options on the "
		      "command line win.\n; List keys (seed, allow_domain, "
		      "resolve) take one entry per line;\n; repeat the key for "
		      "more.\n",
		    out);
	for (s = 0; s < config_nsections; s++) {
		if (commented)
			fprintf(out, "\n; %s\n", config_sections[s].about);
		fprintf(out, "%s[%s]\n", s > 0 && !commented ? "\n" : "",
		    config_sections[s].name);
		for (i = 0; i < config_nopts; i++) {
			o = &config_opts[i];
			if (strcmp(o->pub.section,
			    config_sections[s].name) != 0)
				continue;
			if (commented) {
				fprintf(out, "\n; %s", o->help);
				if (o->type == OPT_INT || o->type == OPT_LONG)
					fprintf(out, " (%lld to %lld)", o->min,
					    o->max);
				fputc('\n', out);
				if (o->type != OPT_LIST && o->example != NULL)
					fprintf(out, "; e.g. %s = %s\n",
					    o->pub.key, o->example);
			}
			write_value(out, c, o, commented);
		}
	}
	if (fflush(out) != 0 || ferror(out))
		return -1;
	return 0;
}

int
config_write_example(FILE *out)
{
	struct config c;
	int ret;

	if (config_init(&c) == -1)
		return -1;
	ret = write_ini(&c, out, 1);
	config_free(&c);
	return ret;
}

int
config_dump(const struct config *c, FILE *out)
{
	return write_ini(c, out, 0);
}
