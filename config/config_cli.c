/*
 * config_cli: the command line of `nearcrawl crawl`
 * (config_parse_crawl_args): getopt tables built from the settings table,
 * -c files loaded first, the other options after, seed URLs last; see
 * config.h.
 */
#include "config/config_int.h"

#include <getopt.h>
#include <string.h>

#include "util/err.h"

/* Long options of the table get values past any char so that getopt's
 * answer tells table rows and short letters apart. */
#define OPTVAL_BASE 256

/* getopt tables from config_opts[]; long options get OPTVAL_BASE + row. */
static void
build_getopt(struct option *lo, char *so)
{
	size_t i, n = 0;

	*so++ = ':'; /* a missing argument answers ':', not '?' */
	*so++ = 'c';
	*so++ = ':';
	*so++ = 'h';
	for (i = 0; i < config_nopts; i++) {
		if (config_opts[i].pub.option == NULL)
			continue;
		lo[n].name = config_opts[i].pub.option;
		lo[n].has_arg = config_opts[i].type == OPT_BOOL ? no_argument :
		    required_argument;
		lo[n].flag = NULL;
		lo[n].val = OPTVAL_BASE + (int)i;
		n++;
		if (config_opts[i].shortopt != 0) {
			*so++ = (char)config_opts[i].shortopt;
			if (config_opts[i].type != OPT_BOOL)
				*so++ = ':';
		}
	}
	lo[n++] = (struct option){ "config", required_argument, NULL, 'c' };
	lo[n++] = (struct option){ "help", no_argument, NULL, 'h' };
	lo[n] = (struct option){ NULL, 0, NULL, 0 };
	*so = '\0';
}

static const struct opt *
opt_by_short(int ch)
{
	size_t i;

	for (i = 0; i < config_nopts; i++)
		if (config_opts[i].shortopt == ch)
			return &config_opts[i];
	return NULL;
}

/* The message for getopt's '?' or ':' answer; returns -1. */
static int
getopt_error(int ch, char **argv, char *err, size_t errsz)
{
	const char *arg = argv[optind - 1];
	const struct opt *o = NULL;

	if (optopt >= OPTVAL_BASE)
		o = &config_opts[optopt - OPTVAL_BASE];
	else if (optopt != 0)
		o = opt_by_short(optopt);

	if (o != NULL && ch == ':')
		return err_set(err, errsz, -1, "--%s: missing argument %s",
		    o->pub.option, o->arg);
	if (o != NULL)
		return err_set(err, errsz, -1, "--%s: takes no argument",
		    o->pub.option);
	if (optopt == 'c' && ch == ':')
		return err_set(err, errsz, -1,
		    "--config: missing argument FILE");
	if (optopt == 'h')
		return err_set(err, errsz, -1, "--help: takes no argument");
	if (optopt != 0)
		return err_set(err, errsz, -1, "unknown option -%c", optopt);
	/* An unknown or ambiguous long option: getopt has already stepped
	 * past it. */
	return err_set(err, errsz, -1, "unknown option %.*s",
	    (int)strcspn(arg, "="), arg);
}

int
config_parse_crawl_args(struct config *c, int argc, char **argv, char *err,
    size_t errsz)
{
	struct option lo[CONFIG_MAX_SETTINGS + 3];
	char so[2 * CONFIG_MAX_SETTINGS + 8], msg[200];
	const struct opt *o;
	int ch, pass, i;

	build_getopt(lo, so);
	opterr = 0;

	/* Pass 0 looks for --help only, pass 1 loads the -c files, pass 2
	 * applies the rest, so the command line wins wherever -c stands. */
	for (pass = 0; pass < 3; pass++) {
		optind = 0; /* GNU: start over, forgetting any half-read group */
		while ((ch = getopt_long(argc, argv, so, lo, NULL)) != -1) {
			if (pass == 0) {
				if (ch == 'h')
					return 1;
				continue;
			}
			if (pass == 1) {
				if (ch == 'c' && config_load_ini(c, optarg, err,
				    errsz) == -1)
					return -1;
				continue;
			}
			if (ch == '?' || ch == ':')
				return getopt_error(ch, argv, err, errsz);
			if (ch == 'c')
				continue;
			o = ch >= OPTVAL_BASE ? &config_opts[ch - OPTVAL_BASE] :
			    opt_by_short(ch);
			if (o == NULL)
				return err_set(err, errsz, -1,
				    "unknown option -%c", ch);
			if (config_opt_set(c, o, o->type == OPT_BOOL ? NULL :
			    optarg, msg, sizeof(msg)) == -1)
				return err_set(err, errsz, -1, "--%s: %s",
				    o->pub.option, msg);
			config_mark_given(c, o);
		}
	}
	for (i = optind; i < argc; i++) {
		if (config_opt_set(c, &config_opts[0], argv[i], msg,
		    sizeof(msg)) == -1)
			return err_set(err, errsz, -1, "seed URL \"%s\": %s",
			    argv[i], msg);
	}
	return config_validate(c, err, errsz);
}
