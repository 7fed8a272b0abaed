/*
 * config_int: the settings table and what the files of config/ share
 * about it. config_table.c owns the table and storing values;
 * config_ini.c, config_cli.c and config_write.c read it. Not for use
 * outside config/.
 */
#ifndef NC_CONFIG_INT_H
#define NC_CONFIG_INT_H

#include <stddef.h>

#include "config/config.h"

enum opt_type {
	OPT_INT,     /* int field, range-checked */
	OPT_LONG,    /* long field, range-checked */
	OPT_BOOL,    /* int field, 0 or 1; a flag without argument on the CLI */
	OPT_STR,     /* owned char * field */
	OPT_LIST,    /* owned char ** field plus a size_t count */
	OPT_METHODS, /* unsigned DEDUP_* bits */
};

struct opt {
	struct config_setting pub; /* section, key, option, default */
	enum opt_type type;        /* how the value is parsed and stored */
	size_t off;                /* offsetof the field in struct config */
	size_t noff;               /* OPT_LIST: offsetof the count */
	long long min, max;        /* OPT_INT, OPT_LONG: inclusive range */
	int shortopt;              /* short option letter, 0 if none */
	const char *arg;           /* argument name in --help, NULL for flags */
	const char *help;          /* one line: what it does */
	const char *example;       /* OPT_LIST: a sample entry for example.ini;
	                              others: a suggested value, or NULL */
	const char *(*check)(const char *v); /* extra check of a string value;
	                                        returns why it is bad or NULL */
};

/*
 * A millisecond setting's second long option, which takes a duration whose
 * bare number is seconds, as wget's --wait ("delay": 2, 0.5, 500ms, 1m);
 * NULL for the others.
 */
const char *config_secs_option(const struct opt *o);

/* An INI section, in --help and example.ini order. */
struct config_section {
	const char *name;  /* INI section */
	const char *about; /* its heading in --help and example.ini */
};

/* The settings, rows of one section together, in --help order. */
extern const struct opt config_opts[];
extern const size_t config_nopts;

extern const struct config_section config_sections[];
extern const size_t config_nsections;

/* The field of c that setting o stores into. */
static inline void *
config_field(struct config *c, const struct opt *o)
{
	return (char *)c + o->off;
}

static inline const void *
config_cfield(const struct config *c, const struct opt *o)
{
	return (const char *)c + o->off;
}

/*
 * Store value v (NULL: a CLI flag, meaning true) into o's field. Returns 0,
 * or -1 with why in msg (the caller adds where).
 */
int config_opt_set(struct config *c, const struct opt *o, const char *v,
    char *msg, size_t msgsz);

/* Note that o was given, not left at its default. */
void config_mark_given(struct config *c, const struct opt *o);

/* The setting of key in section (any case); NULL if none. */
const struct opt *config_opt_by_key(const char *section, const char *key);

/* The setting whose INI key is key, in any section; NULL if none. */
const struct opt *config_opt_by_name(const char *key);

/* Whether the len bytes at name are a known section (any case). */
int config_section_known(const char *name, size_t len);

#endif
