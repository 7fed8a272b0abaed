/*
 * cmdopt: the options of the commands that read a crawl rather than
 * make one (`nearcrawl search`, `nearcrawl index`, `nearcrawl serve`),
 * one table a command,
 * so that parsing, `--help` and the man page come from the same rows and
 * cannot disagree -- as the settings table does for `crawl`.
 *
 * A command line is options and operands in any order; "--" ends the
 * options (a query may start with '-'). An option is "--name", "--name
 * VALUE", "--name=VALUE" or "-x VALUE" for its one-letter name.
 */
#ifndef NC_CMDOPT_H
#define NC_CMDOPT_H

#include <stddef.h>
#include <stdio.h>

enum cmdopt_kind {
	CMDOPT_FLAG, /* no value */
	CMDOPT_INT,  /* a whole number within [lo, hi] */
	CMDOPT_STR,  /* any text; its check, if any, is the command's */
	CMDOPT_LIST, /* text, repeatable: each is passed on */
};

struct cmdopt {
	const char *name;      /* the long name, without "--" */
	char letter;           /* the one-letter name, or 0 */
	enum cmdopt_kind kind;
	const char *arg;       /* the value's name in help (N, FILE) */
	long lo, hi;           /* CMDOPT_INT's range */
	const char *def;       /* the default as help shows it, or NULL */
	const char *help;      /* what it does, a sentence or two */
};

struct cmdopt_cmd {
	const char *name;          /* "search" */
	const char *synopsis;      /* the usage lines after "nearcrawl " */
	const char *about;         /* what the command does, a paragraph */
	const char *operand;       /* the operands' name ("QUERY..."), or
	                              NULL for none */
	const char *operands;      /* what they are */
	const struct cmdopt *opts; /* its options, in help order */
	size_t nopts;
};

/* The commands, and their options' places in opts (what cmdopt_parse
 * passes to fn). */
extern const struct cmdopt_cmd cmdopt_search;
enum {
	CMDOPT_SEARCH_DB,
	CMDOPT_SEARCH_LIMIT,
	CMDOPT_SEARCH_ALL,
	CMDOPT_SEARCH_K,
	CMDOPT_SEARCH_TOP,
	CMDOPT_SEARCH_FORMAT,
	CMDOPT_SEARCH_QUERIES,
	CMDOPT_SEARCH_OUT,
	CMDOPT_SEARCH_QUIET,
};
extern const struct cmdopt_cmd cmdopt_index;
enum {
	CMDOPT_INDEX_DB,
	CMDOPT_INDEX_WARC,
	CMDOPT_INDEX_QUIET,
};
extern const struct cmdopt_cmd cmdopt_serve;
enum {
	CMDOPT_SERVE_DB,
	CMDOPT_SERVE_PORT,
	CMDOPT_SERVE_ADDR,
	CMDOPT_SERVE_REFRESH,
	CMDOPT_SERVE_QUIET,
};

/*
 * Read argv (argv[0] is the command's name) by c's table: fn(opt, value,
 * number, arg) for each option in order (value NULL for a flag, number
 * a CMDOPT_INT's value), until it returns non-zero; the operands into
 * operands (room for argc pointers into argv), *noperands their count.
 * Returns 0; 1 when -h or --help was given (nothing else is looked at
 * after it); -1 with a message in err for an unknown option, a missing or
 * bad value, or fn's refusal (fn's non-zero: fn writes err itself).
 */
int cmdopt_parse(const struct cmdopt_cmd *c, int argc, char **argv,
    int (*fn)(int opt, const char *value, long number, void *arg), void *arg,
    char **operands, int *noperands, char *err, size_t errsz);

/* `nearcrawl NAME --help`: synopsis, what it does, operands, options. */
void cmdopt_usage(const struct cmdopt_cmd *c, FILE *out);

/* Every table as troff (.SS per command, .TP per option), for the man
 * page's section on these commands. */
void cmdopt_man(FILE *out);

#endif
