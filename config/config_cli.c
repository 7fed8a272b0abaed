/*
 * config_cli: the command line of `nearcrawl crawl`
 * (config_parse_crawl_args): getopt tables built from the settings table,
 * -c files loaded first, the other options after, seed URLs last; see
 * config.h.
 */
#include "config/config_int.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/err.h"

/* Long options of the table get values past any char so that getopt's
 * answer tells table rows and short letters apart; a row's option in
 * seconds (opt.secs_option) gets OPTVAL_SECS + row. */
#define OPTVAL_BASE 256
#define OPTVAL_SECS (OPTVAL_BASE + CONFIG_MAX_SETTINGS)

static int duration_ms(const char *v, char *out, size_t outsz, char *msg,
    size_t msgsz);

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
		if (config_secs_option(&config_opts[i]) != NULL) {
			lo[n].name = config_secs_option(&config_opts[i]);
			lo[n].has_arg = required_argument;
			lo[n].flag = NULL;
			lo[n].val = OPTVAL_SECS + (int)i;
			n++;
		}
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

	if (optopt >= OPTVAL_SECS)
		o = &config_opts[optopt - OPTVAL_SECS];
	else if (optopt >= OPTVAL_BASE)
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

/* The argument of getopt's answer ch: optarg, or for an option in
 * seconds its milliseconds written into ms (NULL on a bad duration, why
 * in msg). */
static const char *
o_arg(int ch, const char *optarg_, char *ms, size_t mssz, char *msg,
    size_t msgsz)
{
	if (ch < OPTVAL_SECS)
		return optarg_;
	return duration_ms(optarg_, ms, mssz, msg, msgsz) == 0 ? ms : NULL;
}

/* The long option of lo named exactly name[0..n), or NULL. */
static const struct option *
long_named(const struct option *lo, const char *name, size_t n)
{
	for (; lo->name != NULL; lo++)
		if (strlen(lo->name) == n && strncmp(lo->name, name, n) == 0)
			return lo;
	return NULL;
}

/* The first options of lo that name[0..n) begins, "--a, --b", into out
 * (as many as fit); their number. */
static int
options_begun(const struct option *lo, const char *name, size_t n,
    char *out, size_t outsz)
{
	size_t used = 0;
	int k = 0;

	out[0] = '\0';
	for (; lo->name != NULL && k < 4; lo++)
		if (n > 0 && strncmp(lo->name, name, n) == 0 &&
		    used + strlen(lo->name) + 5 < outsz)
			used += (size_t)snprintf(out + used, outsz - used,
			    "%s--%s", k++ > 0 ? ", " : "", lo->name);
	return k;
}

/*
 * getopt_long takes any unique prefix of a long option for the option
 * ("--delay" for "--delay-ms"): a typo then sets another setting than the
 * user meant, silently. Every long option must be spelt out. Returns 0,
 * or -1 with the message in err.
 */
static int
exact_long_options(int argc, char **argv, const struct option *lo,
    const char *so, char *err, size_t errsz)
{
	const struct option *o;
	const char *name, *sc;
	char meant[160];
	size_t n;
	int i;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			return 0;
		if (argv[i][0] == '-' && argv[i][1] != '-' &&
		    argv[i][1] != '\0' && argv[i][2] == '\0') {
			/* "-d DB": the argument may start with "--". */
			sc = strchr(so, argv[i][1]);
			if (sc != NULL && sc[1] == ':')
				i++;
			continue;
		}
		if (strncmp(argv[i], "--", 2) != 0)
			continue;
		name = argv[i] + 2;
		n = strcspn(name, "=");
		if ((o = long_named(lo, name, n)) != NULL) {
			if (o->has_arg == required_argument && name[n] == '\0')
				i++;
			continue;
		}
		if (options_begun(lo, name, n, meant, sizeof(meant)) > 0)
			return err_set(err, errsz, -1, "unknown option --%.*s "
			    "(options are never abbreviated: %s?)", (int)n,
			    name, meant);
		return err_set(err, errsz, -1, "unknown option --%.*s",
		    (int)n, name);
	}
	return 0;
}

/*
 * A duration for a setting kept in milliseconds: a number of seconds
 * ("2", "0.5") or one with a unit ("500ms", "2s", "1m"). Writes the
 * milliseconds as text into out. 0, or -1 with why in msg.
 */
static int
duration_ms(const char *v, char *out, size_t outsz, char *msg, size_t msgsz)
{
	char *end;
	double x, scale = 1000;

	x = strtod(v, &end);
	if (end == v || x < 0 || x != x)
		return err_set(msg, msgsz, -1, "\"%s\" is not a duration "
		    "(seconds, or with a unit: 500ms, 2s, 1m)", v);
	if (strcmp(end, "ms") == 0)
		scale = 1;
	else if (strcmp(end, "m") == 0 || strcmp(end, "min") == 0)
		scale = 60000;
	else if (*end != '\0' && strcmp(end, "s") != 0)
		return err_set(msg, msgsz, -1, "\"%s\": unknown unit \"%s\" "
		    "(ms, s or m)", v, end);
	if (x * scale > 1e15)
		return err_set(msg, msgsz, -1, "\"%s\" is too long", v);
	snprintf(out, outsz, "%.0f", x * scale);
	return 0;
}

int
config_parse_crawl_args(struct config *c, int argc, char **argv, char *err,
    size_t errsz)
{
	struct option lo[2 * CONFIG_MAX_SETTINGS + 3];
	char so[2 * CONFIG_MAX_SETTINGS + 8], msg[200], ms[32];
	const struct opt *o;
	const char *arg;
	int ch, pass, i;

	build_getopt(lo, so);
	opterr = 0;

	/* Pass 0 looks for --help only, pass 1 loads the -c files, pass 2
	 * applies the rest, so the command line wins wherever -c stands. */
	for (pass = 0; pass < 3; pass++) {
		/* After --help, which wins wherever it stands. */
		if (pass == 1 &&
		    exact_long_options(argc, argv, lo, so, err, errsz) != 0)
			return -1;
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
			arg = o_arg(ch, optarg, ms, sizeof(ms), msg,
			    sizeof(msg));
			o = ch >= OPTVAL_SECS ? &config_opts[ch - OPTVAL_SECS] :
			    ch >= OPTVAL_BASE ? &config_opts[ch - OPTVAL_BASE] :
			    opt_by_short(ch);
			if (o == NULL)
				return err_set(err, errsz, -1,
				    "unknown option -%c", ch);
			if (ch >= OPTVAL_SECS && arg == NULL)
				return err_set(err, errsz, -1, "--%s: %s",
				    config_secs_option(o), msg);
			if (config_opt_set(c, o, o->type == OPT_BOOL ? NULL :
			    arg, msg, sizeof(msg)) == -1)
				return err_set(err, errsz, -1, "--%s: %s",
				    ch >= OPTVAL_SECS ? config_secs_option(o) :
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
