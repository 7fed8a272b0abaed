/*
 * config: every setting of `nearcrawl crawl`, from one table.
 *
 * A setting lives in one row of the table in config_table.c: its INI
 * section and key, its long option, its type, range and default. The INI
 * loader (config_ini.c), the command-line parser (config_cli.c), the
 * --help text and config/example.ini (config_write.c) are all generated
 * from that row, so a setting cannot exist in one and be missing from
 * another.
 *
 * Precedence: defaults (config_init), then INI files (config_load_ini, or -c
 * on the command line), then the other options. A scalar given twice keeps
 * the last value. The list settings (seed, allow_domain, resolve) only ever
 * grow: every INI line and every command-line use adds one entry, so the
 * command line adds to what the file gave, never replaces it.
 *
 * Error messages are written into a caller's buffer err of errsz bytes,
 * always NUL-terminated when errsz > 0, without a trailing newline.
 */
#ifndef NC_CONFIG_H
#define NC_CONFIG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct dedup_config;

/* The release, in --version and the default User-Agent. */
#define NEARCRAWL_VERSION "0.1"

/* The default User-Agent: names the crawler and where to read about it.
 * Operators are asked (at start-up) to put their own contact in. */
#define CONFIG_DEFAULT_USER_AGENT \
	"nearcrawl/" NEARCRAWL_VERSION " (+https://github.com/nearcrawl/nearcrawl)"

/* Room for this many settings in struct config's given bits. */
#define CONFIG_MAX_SETTINGS 128

struct config {
	/* [crawl] */
	char **seeds;          /* start URLs: INI seed keys, then CLI args */
	size_t nseeds;         /* entries in seeds */
	long max_pages;        /* stop after this many pages, 0 = no limit */
	int max_depth;         /* most link hops from a seed, -1 = no limit */
	char **allow_domains;  /* domains in scope with their subdomains;
	                          none = the seeds' hosts (crawler decides) */
	size_t nallow;         /* entries in allow_domains */
	char **accept_regex;   /* links followed only when one matches */
	size_t naccept_regex;
	char **reject_regex;   /* links never followed when one matches */
	size_t nreject_regex;
	char *user_agent;      /* User-Agent header, with a contact */
	int follow_duplicates; /* also follow links of duplicate pages */
	int recrawl;           /* start a new visit of every page in db */
	int dup_hops;          /* near copies in a row whose links are
	                          followed past new content (linkrule.c) */
	int sitemaps;          /* seed from robots.txt's Sitemap: lines */
	char *stop_when_saturated; /* "off" or "W:R": see config_saturation */
	char **resolve;        /* curl-style HOST:PORT:ADDR overrides */
	size_t nresolve;       /* entries in resolve */
	int quiet;             /* no progress output */
	int verbose;           /* the developers' figures at the end too */
	int concurrency;       /* transfers in flight at once */
	int threads;          /* worker threads parsing and hashing, -1 =
	                         one per CPU, 0 = on the loop's thread */
	long max_body;         /* cap on a body, bytes after decompression */
	long max_text;         /* cap on the extracted text, bytes */
	long max_links;        /* links taken from one page at most */
	char *strip_params;    /* "none" or a strip list (urlfilter.h):
	                          parameters dropped from every URL before
	                          it is queued */
	long max_query_variants; /* URLs with a query queued per path, 0 = no
	                            limit */
	/* [politeness] */
	long delay_ms;           /* least gap between requests to one host */
	int per_host;            /* connections to one host at once */
	long connect_timeout_ms; /* give up connecting after this long */
	long timeout_ms;         /* give up a whole transfer after this long */
	long low_speed_bytes;    /* abort below this many bytes/s ... */
	long low_speed_secs;     /* ... sustained this long; 0 = never */
	long max_crawl_delay_ms; /* cap on a robots.txt Crawl-delay */
	long retry_base_ms;      /* first back-off; doubles per failure */
	int max_retries;         /* tries after a 429/503 or robots 5xx */
	int host_max_failures;   /* failures in a row that end a host */
	long max_pages_per_host; /* pages from one host, 0 = no limit */
	/* [network] */
	char *cacert;  /* CA bundle file to trust, "none" = libcurl's */
	char *capath;  /* directory of hashed CA certificates, or "none" */
	int insecure;  /* no TLS peer or host name verification */
	char *proxy;   /* proxy URL (curl's CURLOPT_PROXY), or "none" */
	/* [dedup] */
	unsigned methods;     /* DEDUP_* bits of dedup/dedup.h, md5 always */
	int simhash_k;        /* near when SimHashes differ in <= k bits */
	int ssdeep_threshold; /* near when the ssdeep score is >= this */
	int minhash_perms;    /* MinHash signature length k */
	int minhash_bands;    /* LSH bands, dividing minhash_perms */
	int minhash_shingle;  /* words per MinHash shingle */
	int minhash_threshold; /* near when estimated Jaccard >= this % */
	char *near_rule;      /* "any", "all", or one method: "simhash",
	                         "ssdeep", "minhash", "tdw" */
	char *near_text;      /* near methods read "main" (content without
	                         site template) or "body" (all body text) */
	long min_text;        /* shorter texts are never near duplicates */
	char *numbers;        /* SimHash and MinHash read all-digit words
	                         "keep" (as they are) or "fold" (as one) */
	int min_shingles;     /* evidence floor: distinct word shingles both
	                         pages of a near verdict need */
	int max_novel_words;  /* words a near page may hold that its original
	                         lacks; -1 = no such cap */
	int max_novel_percent; /* ... and at most this share of its words */
	char *novelty;        /* what the share is of: "own" (the page's
	                         words outside its site's template, and all
	                         its words) or "all" (all its words, as
	                         crawls recorded before "own" judged) */
	char *linker;         /* "yes": the linking page is a candidate and
	                         a listing never an original; "no" */
	int tdw_threshold;    /* near when the TDW overlap is >= this % */
	int tdw_stopwords;    /* TDW drops English stop words */
	int tdw_stem;         /* TDW strips English suffixes */
	int tdw_max_tokens;   /* TDW keeps a page's N heaviest tokens */
	char **dedup_against; /* earlier crawls' databases, read only */
	size_t ndedup_against; /* entries in dedup_against */
	char **dedup_against_cdx; /* CDXJ indexes of earlier WARC files */
	size_t ndedup_against_cdx; /* entries in dedup_against_cdx */
	/* [storage] */
	char *db;       /* SQLite database file or PostgreSQL URI */
	char *worker;   /* this process's pages.worker name; "auto": machine:pid */
	int row_locks;  /* shared: verdict locks are rows, not advisory */
	int db_retry_s; /* PostgreSQL: seconds to reconnect after a lost
	                   connection, 0: stop at once */
	int batch;      /* pages written per transaction */
	int store_text; /* also store each page's extracted text */
	char *search_index; /* "yes": index each judged page for search */
	char *warc_dir; /* WARC files go here; "none": no archive */
	long warc_max_bytes; /* rotate WARC files before this size */
	char *warc_prefix;   /* WARC file name prefix */
	int force_settings; /* resume with changed verdict settings anyway */
	int retry_given_up; /* resume: hosts given up get another chance */
	/* which settings came from an INI file or the command line, by their
	   place in the settings table (config_given) */
	uint64_t given[CONFIG_MAX_SETTINGS / 64];
};

/* One row of the settings table as the outside may see it (docs, tests). */
struct config_setting {
	const char *section; /* INI section, without brackets */
	const char *key;     /* INI key */
	const char *option;  /* long option without "--"; NULL: none (seed) */
	const char *def;     /* default as written in INI; NULL for lists */
};

/*
 * Set every field to its default. All strings and lists are owned by c and
 * released by config_free. Returns 0, or -1 when out of memory (c is then
 * empty but safe to config_free).
 */
int config_init(struct config *c);

/* Free everything c owns and zero it. A zeroed struct is fine. */
void config_free(struct config *c);

/*
 * Apply the INI file at path on top of c. Sections and keys are matched
 * case-insensitively; unknown ones are errors; lines may be indented; ";"
 * and "#" start comment lines, " ;" an inline comment; a line holds at most
 * 8190 bytes. Returns 0, or -1 with a message naming the first problem:
 *   "FILE:LINE: [dedup] simhash_k: must be an integer from 0 to 15"
 *   "FILE:LINE: unknown key [crawl] foo"    "FILE:LINE: unknown section [x]"
 *   "FILE:LINE: syntax error"               "FILE: cannot open: <strerror>"
 * On failure c may hold some of the file's settings; it stays valid for
 * config_free. Not thread-safe: inih's options are process globals, which
 * this function sets for the call and restores.
 */
int config_load_ini(struct config *c, const char *path, char *err,
    size_t errsz);

/*
 * Parse the arguments of `nearcrawl crawl`; argv[0] is "crawl". c must hold
 * defaults already (config_init). Every -c/--config FILE is loaded first, in
 * the order given, wherever it stands; then every other option overrides, in
 * order; then the positional arguments are appended to seeds. Finally the
 * result is checked with config_validate. argv may be permuted (GNU getopt).
 * Returns 0; 1 when -h/--help was given anywhere (nothing else is looked at;
 * the caller prints config_usage and exits 0); -1 with a message such as
 * "--simhash-k: must be an integer from 0 to 15", "unknown option --foo",
 * "--resolve: expected HOST:PORT:ADDR", or an INI file's message. Uses and
 * resets getopt's globals (opterr is left 0), so it may be called again.
 */
int config_parse_crawl_args(struct config *c, int argc, char **argv,
    char *err, size_t errsz);

/*
 * Cross-field checks that single values cannot make: a near_rule naming one
 * method needs that method in methods; minhash_bands divides minhash_perms. No seeds is not an error (a resumed
 * crawl needs none). Returns 0, or -1 with a message.
 */
int config_validate(const struct config *c, char *err, size_t errsz);

/*
 * Whether the setting called key (its INI key, e.g. "simhash_k") was given
 * in an INI file or on the command line rather than left at its default.
 */
int config_given(const struct config *c, const char *key);

/*
 * The value of the scalar setting called key as an INI file writes it
 * ("md5,simhash", "true", "90"), malloc'd; NULL for an unknown key, a list
 * setting, or no memory.
 */
char *config_value(const struct config *c, const char *key);

/*
 * Resume: set key to value unless it was given (config_given), checking
 * value as a file's would be; the setting still counts as not given.
 * Returns 1 when set, 0 when left as given, -1 with a message in err for
 * an unknown key or a bad value. Run config_validate after the last one.
 */
int config_adopt(struct config *c, const char *key, const char *value,
    char *err, size_t errsz);

/*
 * Whether the setting called key belongs to one run only and is never
 * stored with a crawl: the seeds (the frontier holds them), max_pages
 * (it counts over the database, so a stored limit would end every resume
 * at once), quiet, db, force_settings, retry_given_up and worker (each
 * process of a shared crawl has its own). Every other
 * setting is stored in the database's meta table and kept on resume.
 */
int config_per_run(const char *key);

/*
 * The entries of the list setting called key (seed, allow_domain,
 * resolve) and their number in *n; NULL with *n 0 for any other key.
 */
char *const *config_list(const struct config *c, const char *key, size_t *n);

/* Fill a dedup configuration (dedup/dedup.h) from c's [dedup] settings;
 * c must have passed config_validate. Cannot fail. */
void config_dedup(const struct config *c, struct dedup_config *out);

/*
 * Parse a --stop-when-saturated value: "off" gives *window 0; "W:R" gives W
 * pages (1..10000000) and the share R (0..1) of unique pages under which
 * the crawl stops. Returns 0, or -1 when v is malformed.
 */
int config_saturation(const char *v, long *window, double *share);

/* The crawl's options as troff (.SS per section, .TP per option), for
 * the man page: the same table, so the two cannot disagree. */
void config_man_options(FILE *out);

/* s for troff: a backslash doubled, a leading dot or quote escaped, and
 * "-" as \- (a minus, so that options can be searched for and copied). */
void config_man_text(FILE *out, const char *s);

/* Print the option lines of the named sections only (a NULL-ended list;
 * NULL: every section), in the table's order, for the commands that take
 * a part of crawl's options (dedup, compare). */
void config_usage_sections(FILE *out, const char *const *sections);

/* Print the `nearcrawl crawl --help` text: synopsis, then every option with
 * its argument, meaning, default, range and INI key, grouped by section. */
void config_usage(FILE *out);

/*
 * Write the text of config/example.ini: every key of every section with a
 * comment saying what it does, set to its default; list keys appear as a
 * commented-out example. Loading it gives exactly the defaults. Returns 0,
 * or -1 when out of memory or writing fails.
 */
int config_write_example(FILE *out);

/*
 * Write c's settings as an INI file that config_load_ini reads back to the
 * same settings (a value holding " ;" would be cut there as a comment).
 * Meant for recording what a crawl ran with. Returns 0, or -1 when writing
 * fails.
 */
int config_dump(const struct config *c, FILE *out);

/* The i-th row of the settings table in help order, or NULL past the end. */
const struct config_setting *config_setting_at(size_t i);

/* The row of the setting whose INI key is key, or NULL. */
const struct config_setting *config_setting_of(const char *key);

#endif
