#include "config/config.h"

#include <errno.h>
#include <getopt.h>
#include <ini.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "dedup/dedup.h"
#include "util/err.h"
#include "web/urlfilter.h"

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

static const char *check_resolve(const char *v);
static const char *check_near_rule(const char *v);
static const char *check_near_text(const char *v);
static const char *check_numbers(const char *v);
static const char *check_saturation(const char *v);
static const char *check_strip_params(const char *v);

#define F(field) offsetof(struct config, field)
#define TERA (1LL << 40)
#define GIGA 1000000000LL
#define TWO_G (1LL << 31)

/* The settings. Rows of one section stay together, in --help order. */
static const struct opt opts[] = {
	{ { "crawl", "seed", NULL, NULL }, OPT_LIST, F(seeds), F(nseeds), 0, 0,
	    0, "URL", "a URL to start from; repeat the key for more",
	    "https://www.example.edu/", NULL },
	{ { "crawl", "max_pages", "max-pages", "0" }, OPT_LONG, F(max_pages),
	    0, 0, TERA, 0, "N", "stop after N pages; 0 = no limit", NULL,
	    NULL },
	{ { "crawl", "max_depth", "max-depth", "-1" }, OPT_INT, F(max_depth),
	    0, -1, 1000000, 0, "N",
	    "at most N link hops from a seed; -1 = no limit", NULL,
	    NULL },
	{ { "crawl", "allow_domain", "allow-domain", NULL }, OPT_LIST,
	    F(allow_domains), F(nallow), 0, 0, 0, "D",
	    "in scope: D and subdomains; none = seeds' hosts",
	    "example.edu", NULL },
	{ { "crawl", "user_agent", "user-agent", CONFIG_DEFAULT_USER_AGENT },
	    OPT_STR, F(user_agent), 0, 0, 0, 0, "S",
	    "User-Agent: who crawls, how to reach them", NULL,
	    NULL },
	{ { "crawl", "follow_duplicates", "follow-duplicates", "false" },
	    OPT_BOOL, F(follow_duplicates), 0, 0, 1, 0, NULL,
	    "also follow links of exact and near duplicates", NULL, NULL },
	{ { "crawl", "dup_hops", "dup-hops", "2" }, OPT_INT, F(dup_hops), 0,
	    0, 100, 0, "N",
	    "follow near copies' links N hops past new content; 0 = never",
	    NULL, NULL },
	{ { "crawl", "resolve", "resolve", NULL }, OPT_LIST, F(resolve),
	    F(nresolve), 0, 0, 0, "HOST:PORT:ADDR",
	    "connect to ADDR for HOST:PORT, as curl --resolve",
	    "www.example.edu:443:127.0.0.1", check_resolve },
	{ { "crawl", "stop_when_saturated", "stop-when-saturated", "off" },
	    OPT_STR, F(stop_when_saturated), 0, 0, 0, 0, "W:R",
	    "stop when under R of the last W pages were unique",
	    NULL, check_saturation },
	{ { "crawl", "sitemaps", "sitemaps", "false" }, OPT_BOOL,
	    F(sitemaps), 0, 0, 1, 0, NULL,
	    "also queue the URLs of the sitemaps robots.txt lists", NULL,
	    NULL },
	{ { "crawl", "quiet", "quiet", "false" }, OPT_BOOL, F(quiet), 0, 0, 1,
	    'q', NULL, "print no progress lines", NULL, NULL },
	{ { "crawl", "concurrency", "concurrency", "16" }, OPT_INT,
	    F(concurrency), 0, 1, 1024, 0, "N",
	    "pages in flight at once (fetching or being parsed)",
	    NULL, NULL },
	{ { "crawl", "threads", "threads", "-1" }, OPT_INT, F(threads), 0, -1,
	    64, 0, "N",
	    "threads parsing and hashing pages; -1 = one per CPU",
	    NULL, NULL },
	{ { "crawl", "max_body_bytes", "max-body-bytes", "10485760" },
	    OPT_LONG, F(max_body), 0, 1024, TWO_G, 0, "N",
	    "cap on a page body, bytes after decompression", NULL, NULL },
	{ { "crawl", "max_text_bytes", "max-text-bytes", "2097152" },
	    OPT_LONG, F(max_text), 0, 1024, TWO_G, 0, "N",
	    "cap on the text extracted from a page, bytes", NULL, NULL },
	{ { "crawl", "max_links_per_page", "max-links", "5000" }, OPT_LONG,
	    F(max_links), 0, 0, 1000000, 0, "N",
	    "take at most N links from one page", NULL, NULL },
	{ { "crawl", "strip_params", "strip-params", "none" }, OPT_STR,
	    F(strip_params), 0, 0, 0, 0, "LIST",
	    "drop URL parameters named in LIST (x* = prefix)",
	    "utm_*,sessionid,jsessionid,phpsessid,sid,fbclid,gclid",
	    check_strip_params },
	{ { "crawl", "max_query_variants", "max-query-variants", "0" },
	    OPT_LONG, F(max_query_variants), 0, 0, 1000000, 0, "N",
	    "queue at most N queries per path; 0 = no limit",
	    NULL, NULL },

	{ { "politeness", "delay_ms", "delay-ms", "1000" }, OPT_LONG,
	    F(delay_ms), 0, 0, 3600000, 0, "N",
	    "least gap between two requests to one host, ms", NULL, NULL },
	{ { "politeness", "per_host", "per-host", "1" }, OPT_INT, F(per_host),
	    0, 1, 64, 0, "N", "connections to one host at once", NULL, NULL },
	{ { "politeness", "connect_timeout_ms", "connect-timeout-ms",
	      "10000" },
	    OPT_LONG, F(connect_timeout_ms), 0, 100, 600000, 0, "N",
	    "give up connecting after N ms", NULL, NULL },
	{ { "politeness", "timeout_ms", "timeout-ms", "30000" }, OPT_LONG,
	    F(timeout_ms), 0, 100, 3600000, 0, "N",
	    "give up a whole transfer after N ms", NULL, NULL },
	{ { "politeness", "low_speed_bytes", "low-speed-bytes", "100" },
	    OPT_LONG, F(low_speed_bytes), 0, 0, GIGA, 0, "N",
	    "abort a transfer slower than N bytes/s ...", NULL, NULL },
	{ { "politeness", "low_speed_secs", "low-speed-secs", "10" },
	    OPT_LONG, F(low_speed_secs), 0, 0, 3600, 0, "N",
	    "... for N seconds in a row; 0 = never abort", NULL, NULL },

	{ { "politeness", "max_crawl_delay_ms", "max-crawl-delay-ms",
	      "30000" },
	    OPT_LONG, F(max_crawl_delay_ms), 0, 0, 3600000, 0, "N",
	    "obey robots.txt Crawl-delay up to N ms", NULL, NULL },
	{ { "politeness", "retry_base_ms", "retry-base-ms", "30000" },
	    OPT_LONG, F(retry_base_ms), 0, 10, 3600000, 0, "N",
	    "first back-off after 429/503 or errors; doubles", NULL, NULL },
	{ { "politeness", "max_retries", "max-retries", "3" }, OPT_INT,
	    F(max_retries), 0, 0, 100, 0, "N",
	    "retry a 429/503 URL or robots.txt N times", NULL, NULL },
	{ { "politeness", "host_max_failures", "host-max-failures", "5" },
	    OPT_INT, F(host_max_failures), 0, 1, 1000, 0, "N",
	    "give a host up after N failures in a row", NULL, NULL },
	{ { "politeness", "max_pages_per_host", "max-pages-per-host", "0" },
	    OPT_LONG, F(max_pages_per_host), 0, 0, TERA, 0, "N",
	    "fetch at most N pages from one host; 0 = no limit", NULL,
	    NULL },

	{ { "dedup", "methods", "methods", "md5,simhash,ssdeep,minhash" }, OPT_METHODS,
	    F(methods), 0, 0, 0, 0, "LIST",
	    "any of md5,simhash,ssdeep,minhash,tdw; md5 always on", NULL,
	    NULL },
	{ { "dedup", "simhash_k", "simhash-k", "3" }, OPT_INT, F(simhash_k),
	    0, 0, 15, 0, "K", "near when SimHashes differ in at most K bits",
	    NULL, NULL },
	{ { "dedup", "ssdeep_threshold", "ssdeep-threshold", "90" }, OPT_INT,
	    F(ssdeep_threshold), 0, 1, 100, 0, "T",
	    "near when the ssdeep score is at least T", NULL, NULL },
	{ { "dedup", "minhash_perms", "minhash-perms", "128" }, OPT_INT,
	    F(minhash_perms), 0, MINHASH_MIN_PERMS, MINHASH_MAX_PERMS, 0, "K",
	    "MinHash signature length: K hash functions", NULL, NULL },
	{ { "dedup", "minhash_bands", "minhash-bands", "32" }, OPT_INT,
	    F(minhash_bands), 0, 1, MINHASH_MAX_PERMS, 0, "B",
	    "MinHash LSH bands of K/B rows; B divides K", NULL, NULL },
	{ { "dedup", "minhash_shingle", "minhash-shingle", "3" }, OPT_INT,
	    F(minhash_shingle), 0, 1, MINHASH_MAX_SHINGLE, 0, "N",
	    "words per MinHash shingle", NULL, NULL },
	{ { "dedup", "minhash_threshold", "minhash-threshold", "70" }, OPT_INT,
	    F(minhash_threshold), 0, 1, 100, 0, "T",
	    "near when the estimated Jaccard is at least T %", NULL, NULL },
	{ { "dedup", "near_rule", "near-rule", "any" }, OPT_STR, F(near_rule),
	    0, 0, 0, 0, "R",
	    "any, all, or only simhash|ssdeep|minhash|tdw",
	    NULL, check_near_rule },
	{ { "dedup", "text", "text", "main" }, OPT_STR, F(near_text), 0, 0, 0,
	    0, "T", "near methods read main (content) or body text",
	    NULL, check_near_text },
	{ { "dedup", "min_text_bytes", "min-text-bytes", "0" }, OPT_LONG,
	    F(min_text), 0, 0, GIGA, 0, "N",
	    "texts under N bytes are never near duplicates", NULL,
	    NULL },
	{ { "dedup", "numbers", "numbers", "keep" }, OPT_STR, F(numbers), 0,
	    0, 0, 0, "keep|fold",
	    "SimHash/MinHash read numbers as words, or fold them into one",
	    NULL, check_numbers },
	{ { "dedup", "min_shingles", "min-shingles", "20" }, OPT_INT,
	    F(min_shingles), 0, 0, 1000000, 0, "N",
	    "near needs N distinct word 3-shingles on both pages", NULL,
	    NULL },
	{ { "dedup", "max_novel_words", "max-novel-words", "12" }, OPT_INT,
	    F(max_novel_words), 0, -1, 1000000, 0, "N",
	    "near page has at most N words its original lacks; -1 = off",
	    NULL, NULL },
	{ { "dedup", "max_novel_percent", "max-novel-percent", "15" },
	    OPT_INT, F(max_novel_percent), 0, 0, 100, 0, "P",
	    "... and they are at most P % of its words", NULL, NULL },
	{ { "dedup", "tdw_threshold", "tdw-threshold", "75" }, OPT_INT,
	    F(tdw_threshold), 0, 1, 100, 0, "T",
	    "near when the TDW weighted overlap is at least T %", NULL,
	    NULL },
	{ { "dedup", "tdw_stopwords", "tdw-stopwords", "false" }, OPT_BOOL,
	    F(tdw_stopwords), 0, 0, 1, 0, NULL,
	    "TDW leaves out English stop words", NULL, NULL },
	{ { "dedup", "tdw_stem", "tdw-stem", "false" }, OPT_BOOL, F(tdw_stem),
	    0, 0, 1, 0, NULL, "TDW strips English suffixes (-s, -ing, -ed)",
	    NULL, NULL },
	{ { "dedup", "tdw_max_tokens", "tdw-max-tokens", "128" }, OPT_INT,
	    F(tdw_max_tokens), 0, 8, TDW_TOKENS_MAX, 0, "N",
	    "TDW keeps the N heaviest tokens of a page", NULL, NULL },

	{ { "storage", "db", "db", "nearcrawl.db" }, OPT_STR, F(db), 0, 0, 0,
	    'd', "DB", "SQLite file; an existing one is resumed", NULL, NULL },
	{ { "storage", "batch_pages", "batch-pages", "64" }, OPT_INT, F(batch),
	    0, 1, 100000, 0, "N", "pages written per transaction", NULL,
	    NULL },
	{ { "storage", "force_settings", "force-settings", "false" },
	    OPT_BOOL, F(force_settings), 0, 0, 1, 0, NULL,
	    "resume even if dedup settings or scope changed", NULL, NULL },
	{ { "storage", "store_text", "store-text", "false" }, OPT_BOOL,
	    F(store_text), 0, 0, 1, 0, NULL,
	    "also store the extracted text of every page", NULL, NULL },
};

#define NOPTS (sizeof(opts) / sizeof(opts[0]))
_Static_assert(NOPTS <= CONFIG_MAX_SETTINGS, "raise CONFIG_MAX_SETTINGS");

/* Note that o was given, not left at its default. */
static void
mark_given(struct config *c, const struct opt *o)
{
	size_t i = (size_t)(o - opts);

	c->given[i / 64] |= (uint64_t)1 << (i % 64);
}

static const struct {
	const char *name;  /* INI section */
	const char *about; /* its heading in --help and example.ini */
} sections[] = {
	{ "crawl", "what to fetch" },
	{ "politeness", "how gently" },
	{ "dedup", "what counts as a duplicate" },
	{ "storage", "where results go" },
};

#define NSECTIONS (sizeof(sections) / sizeof(sections[0]))

/* Long options of the table get values past any char so that getopt's
 * answer tells table rows and short letters apart. */
#define OPTVAL_BASE 256

/* Longest INI line: long enough for any sane URL. */
#define INI_LINE_MAX 8192

/* "md5, simhash, ..." from dedup's method table: the near ones, or all. */
static const char *
method_list(int near_only)
{
	static char list[128];
	const struct dedup_method_info *mi;
	size_t i, n = 0;

	list[0] = '\0';
	for (i = 0; (mi = dedup_method_at(i)) != NULL; i++)
		if (!near_only || mi->method != DEDUP_MD5)
			n += (size_t)snprintf(list + n, n < sizeof(list) ?
			    sizeof(list) - n : 0, "%s%s", n > 0 ? ", " : "",
			    mi->name);
	return list;
}

/* The near method called v, or 0 (md5 is no near method). */
static unsigned
near_method(const char *v)
{
	const struct dedup_method_info *mi;
	size_t i;

	for (i = 0; (mi = dedup_method_at(i)) != NULL; i++)
		if (mi->method != DEDUP_MD5 && strcmp(v, mi->name) == 0)
			return (unsigned)mi->method;
	return 0;
}

static void *
field(struct config *c, const struct opt *o)
{
	return (char *)c + o->off;
}

static const void *
cfield(const struct config *c, const struct opt *o)
{
	return (const char *)c + o->off;
}

static const char *
check_near_rule(const char *v)
{
	static char msg[160];

	if (strcmp(v, "any") == 0 || strcmp(v, "all") == 0 || near_method(v))
		return NULL;
	snprintf(msg, sizeof(msg), "must be one of any, all, %s",
	    method_list(1));
	return msg;
}

static const char *
check_near_text(const char *v)
{
	if (strcmp(v, "main") == 0 || strcmp(v, "body") == 0)
		return NULL;
	return "must be main or body";
}

static const char *
check_numbers(const char *v)
{
	if (strcmp(v, "keep") == 0 || strcmp(v, "fold") == 0)
		return NULL;
	return "must be keep or fold";
}

static const char *
check_saturation(const char *v)
{
	long w;
	double r;

	if (strcmp(v, "off") == 0)
		return NULL;
	if (config_saturation(v, &w, &r) != 0)
		return "must be off or W:R, W pages (1 to 10000000) and a "
		    "share R from 0 to 1, e.g. 2000:0.01";
	return NULL;
}

int
config_saturation(const char *v, long *window, double *share)
{
	char *end;

	*window = 0;
	*share = 0;
	if (v == NULL || strcmp(v, "off") == 0)
		return 0;
	errno = 0;
	*window = strtol(v, &end, 10);
	if (errno != 0 || end == v || *end != ':' || *window < 1 ||
	    *window > 10000000)
		return -1;
	v = end + 1;
	*share = strtod(v, &end);
	if (end == v || *end != '\0' || !(*share >= 0 && *share <= 1))
		return -1;
	return 0;
}

static const char *
check_strip_params(const char *v)
{
	return strcmp(v, "none") == 0 ? NULL : url_param_list_check(v);
}

/* HOST:PORT:ADDR as curl's --resolve takes it; ADDR may hold colons (IPv6)
 * and commas (several addresses), so only the first two colons split. */
static const char *
check_resolve(const char *v)
{
	const char *p, *q;
	long port;
	char *end;

	p = strchr(v, ':');
	if (p == NULL || p == v)
		goto bad;
	q = p + 1;
	if (*q < '0' || *q > '9')
		goto bad;
	errno = 0;
	port = strtol(q, &end, 10);
	if (errno != 0 || *end != ':' || port < 1 || port > 65535)
		goto bad;
	if (end[1] == '\0')
		goto bad;
	return NULL;
bad:
	return "expected HOST:PORT:ADDR";
}

static int
parse_bool(const char *v, int *out)
{
	static const char *yes[] = { "true", "yes", "on", "1" };
	static const char *no[] = { "false", "no", "off", "0" };
	size_t i;

	for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		if (strcasecmp(v, yes[i]) == 0) {
			*out = 1;
			return 0;
		}
		if (strcasecmp(v, no[i]) == 0) {
			*out = 0;
			return 0;
		}
	}
	return -1;
}

/* The whole string must be a decimal integer within [min, max]. */
static int
parse_int(const char *v, long long min, long long max, long long *out)
{
	long long n;
	char *end;

	if ((*v < '0' || *v > '9') && *v != '-' && *v != '+')
		return -1;
	errno = 0;
	n = strtoll(v, &end, 10);
	if (errno != 0 || end == v || *end != '\0' || n < min || n > max)
		return -1;
	*out = n;
	return 0;
}

static int
list_append(char ***list, size_t *n, const char *v)
{
	char **nl, *copy;

	if (*n >= SIZE_MAX / sizeof(char *) - 1)
		return -1;
	copy = strdup(v);
	if (copy == NULL)
		return -1;
	nl = realloc(*list, (*n + 1) * sizeof(char *));
	if (nl == NULL) {
		free(copy);
		return -1;
	}
	nl[(*n)++] = copy;
	*list = nl;
	return 0;
}

/*
 * Store value v (NULL: a CLI flag, meaning true) into o's field. Returns 0,
 * or -1 with why in msg (the caller adds where).
 */
static int
opt_set(struct config *c, const struct opt *o, const char *v, char *msg,
    size_t msgsz)
{
	long long n, max;
	const char *why, *bad = NULL, *p;
	unsigned bits;
	char *copy;
	int b;

	switch (o->type) {
	case OPT_BOOL:
		if (v == NULL)
			b = 1;
		else if (parse_bool(v, &b) == -1)
			return err_set(msg, msgsz, -1, "must be true or false "
			    "(or yes/no, on/off, 1/0)");
		*(int *)field(c, o) = b;
		return 0;
	case OPT_INT:
	case OPT_LONG:
		max = o->max;
		if (o->type == OPT_LONG && max > LONG_MAX)
			max = LONG_MAX;
		if (parse_int(v, o->min, max, &n) == -1)
			return err_set(msg, msgsz, -1, "must be an integer "
			    "from %lld to %lld", o->min, max);
		if (o->type == OPT_INT)
			*(int *)field(c, o) = (int)n;
		else
			*(long *)field(c, o) = (long)n;
		return 0;
	case OPT_METHODS:
		if (dedup_parse_methods(v, &bits, &bad) == -1)
			return err_set(msg, msgsz, -1, "unknown method "
			    "\"%.*s\" (known: %s)",
			    (int)strcspn(bad ? bad : v, ","), bad ? bad : v,
			    method_list(0));
		*(unsigned *)field(c, o) = bits;
		return 0;
	case OPT_STR:
	case OPT_LIST:
		break;
	}

	/* Strings go into HTTP headers, URLs and file names: no blanks, and
	 * no control characters that could split a header line. */
	if (*v == '\0')
		return err_set(msg, msgsz, -1, "must not be empty");
	for (p = v; *p != '\0'; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return err_set(msg, msgsz, -1,
			    "must not hold control characters");
	if (o->check != NULL && (why = o->check(v)) != NULL)
		return err_set(msg, msgsz, -1, "%s", why);
	if (o->type == OPT_LIST) {
		if (list_append((char ***)field(c, o),
		    (size_t *)((char *)c + o->noff), v) == -1)
			goto nomem;
		return 0;
	}
	copy = strdup(v);
	if (copy == NULL)
		goto nomem;
	free(*(char **)field(c, o));
	*(char **)field(c, o) = copy;
	return 0;
nomem:
	return err_set(msg, msgsz, -1, "out of memory");
}

static const struct opt *
opt_by_key(const char *section, const char *key)
{
	size_t i;

	for (i = 0; i < NOPTS; i++)
		if (strcasecmp(opts[i].pub.section, section) == 0 &&
		    strcasecmp(opts[i].pub.key, key) == 0)
			return &opts[i];
	return NULL;
}

static int
section_known(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < NSECTIONS; i++)
		if (strlen(sections[i].name) == len &&
		    strncasecmp(sections[i].name, name, len) == 0)
			return 1;
	return 0;
}

int
config_init(struct config *c)
{
	char msg[128];
	size_t i;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < NOPTS; i++) {
		if (opts[i].pub.def == NULL)
			continue;
		if (opt_set(c, &opts[i], opts[i].pub.def, msg,
		    sizeof(msg)) == -1)
			goto fail;
	}
	return 0;
fail:
	config_free(c);
	return -1;
}

void
config_free(struct config *c)
{
	char **list;
	size_t i, j, n;

	for (i = 0; i < NOPTS; i++) {
		if (opts[i].type == OPT_STR) {
			free(*(char **)field(c, &opts[i]));
		} else if (opts[i].type == OPT_LIST) {
			list = *(char ***)field(c, &opts[i]);
			n = *(size_t *)((char *)c + opts[i].noff);
			for (j = 0; j < n; j++)
				free(list[j]);
			free(list);
		}
	}
	memset(c, 0, sizeof(*c));
}

/* INI loading: inih calls our reader once per line, so counting reads gives
 * the line each handler call is about (this inih has no line argument). */
struct ini_state {
	struct config *c; /* where settings go */
	FILE *fp;         /* the open file */
	int line;         /* lines read so far */
	int err_line;     /* line of the first problem we found, 0: none */
	char msg[256];    /* that problem, without "FILE:LINE: " */
};

static void
ini_fail(struct ini_state *st, const char *fmt, ...)
{
	va_list ap;

	if (st->err_line != 0)
		return;
	st->err_line = st->line;
	va_start(ap, fmt);
	err_vset(st->msg, sizeof(st->msg), 0, fmt, ap);
	va_end(ap);
}

/*
 * One line for inih, byte by byte: fgets would hide a NUL byte (the line
 * would look cut short, and its tail be taken for the next line). A line
 * that is too long or holds a NUL is reported and handed over blank, so
 * no part of it is ever read as a setting.
 */
static char *
ini_read_line(char *str, int num, void *stream)
{
	struct ini_state *st = stream;
	size_t len = 0, total = 0, max = (size_t)num - 2;
	const char *p, *end;
	int ch, nul = 0;

	if ((ch = getc(st->fp)) == EOF)
		return NULL;
	st->line++;
	for (; ch != EOF && ch != '\n'; ch = getc(st->fp), total++) {
		if (ch == '\0')
			nul = 1;
		if (total < max)
			str[len++] = (char)ch;
	}
	if (nul || total > max) {
		if (nul)
			ini_fail(st, "NUL byte: not a text file");
		else
			ini_fail(st, "line longer than %d bytes", num - 2);
		len = 0;
	}
	str[len++] = '\n';
	str[len] = '\0';
	if (len == 1)
		return str;
	/* inih only tells us about sections that hold keys; an unknown empty
	 * one is still a typo worth reporting. */
	p = str + strspn(str, " \t");
	if (*p == '[' && (end = strchr(p, ']')) != NULL &&
	    !section_known(p + 1, (size_t)(end - p - 1)))
		ini_fail(st, "unknown section [%.*s]", (int)(end - p - 1),
		    p + 1);
	return str;
}

static int
ini_on_key(void *user, const char *section, const char *name,
    const char *value)
{
	struct ini_state *st = user;
	const struct opt *o;
	char msg[200];

	if (name == NULL || value == NULL)
		return 1;
	if (*section == '\0') {
		ini_fail(st, "key %s is outside any section", name);
		return 0;
	}
	if (!section_known(section, strlen(section))) {
		ini_fail(st, "unknown section [%s]", section);
		return 0;
	}
	o = opt_by_key(section, name);
	if (o == NULL) {
		ini_fail(st, "unknown key [%s] %s", section, name);
		return 0;
	}
	if (opt_set(st->c, o, value, msg, sizeof(msg)) == -1) {
		ini_fail(st, "[%s] %s: %s", o->pub.section, o->pub.key, msg);
		return 0;
	}
	mark_given(st->c, o);
	return 1;
}

int
config_load_ini(struct config *c, const char *path, char *err, size_t errsz)
{
	struct ini_state st;
	bool multiline, use_stack, realloc_ok, no_value;
	int max_line, initial_alloc, r, ret = -1;

	memset(&st, 0, sizeof(st));
	st.c = c;
	st.fp = fopen(path, "r");
	if (st.fp == NULL)
		return err_set(err, errsz, -1, "%s: cannot open: %s", path,
		    strerror(errno));

	/* inih's defaults would read an indented key as a continuation of
	 * the key above it and cut lines at 200 bytes, shorter than many
	 * URLs; set ours for this call only. */
	multiline = ini_allow_multiline;
	use_stack = ini_use_stack;
	realloc_ok = ini_allow_realloc;
	no_value = ini_allow_no_value;
	max_line = ini_max_line;
	initial_alloc = ini_initial_alloc;
	ini_allow_multiline = false;
	ini_use_stack = false;
	ini_allow_realloc = false;
	ini_allow_no_value = false;
	ini_max_line = INI_LINE_MAX;
	ini_initial_alloc = INI_LINE_MAX;

	r = ini_parse_stream(ini_read_line, &st, ini_on_key, &st);

	ini_allow_multiline = multiline;
	ini_use_stack = use_stack;
	ini_allow_realloc = realloc_ok;
	ini_allow_no_value = no_value;
	ini_max_line = max_line;
	ini_initial_alloc = initial_alloc;

	if (ferror(st.fp)) {
		err_set(err, errsz, -1, "%s: cannot read: %s", path,
		    strerror(errno));
		goto fail;
	}
	if (r == -2) {
		err_set(err, errsz, -1, "%s: out of memory", path);
		goto fail;
	}
	/* inih reports the first bad line; when we found nothing there, it
	 * is inih's own complaint: a line that is no key, section or
	 * comment. */
	if (r > 0 && (st.err_line == 0 || r < st.err_line)) {
		err_set(err, errsz, -1, "%s:%d: syntax error", path, r);
		goto fail;
	}
	if (st.err_line != 0) {
		err_set(err, errsz, -1, "%s:%d: %s", path, st.err_line,
		    st.msg);
		goto fail;
	}
	ret = 0;
fail:
	fclose(st.fp);
	return ret;
}

/* getopt tables from opts[]; long options get OPTVAL_BASE + row. */
static void
build_getopt(struct option *lo, char *so)
{
	size_t i, n = 0;

	*so++ = ':'; /* a missing argument answers ':', not '?' */
	*so++ = 'c';
	*so++ = ':';
	*so++ = 'h';
	for (i = 0; i < NOPTS; i++) {
		if (opts[i].pub.option == NULL)
			continue;
		lo[n].name = opts[i].pub.option;
		lo[n].has_arg = opts[i].type == OPT_BOOL ? no_argument :
		    required_argument;
		lo[n].flag = NULL;
		lo[n].val = OPTVAL_BASE + (int)i;
		n++;
		if (opts[i].shortopt != 0) {
			*so++ = (char)opts[i].shortopt;
			if (opts[i].type != OPT_BOOL)
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

	for (i = 0; i < NOPTS; i++)
		if (opts[i].shortopt == ch)
			return &opts[i];
	return NULL;
}

/* The message for getopt's '?' or ':' answer; returns -1. */
static int
getopt_error(int ch, char **argv, char *err, size_t errsz)
{
	const char *arg = argv[optind - 1];
	const struct opt *o = NULL;

	if (optopt >= OPTVAL_BASE)
		o = &opts[optopt - OPTVAL_BASE];
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
	struct option lo[NOPTS + 3];
	char so[2 * NOPTS + 8], msg[200];
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
			o = ch >= OPTVAL_BASE ? &opts[ch - OPTVAL_BASE] :
			    opt_by_short(ch);
			if (o == NULL)
				return err_set(err, errsz, -1,
				    "unknown option -%c", ch);
			if (opt_set(c, o, o->type == OPT_BOOL ? NULL : optarg,
			    msg, sizeof(msg)) == -1)
				return err_set(err, errsz, -1, "--%s: %s",
				    o->pub.option, msg);
			mark_given(c, o);
		}
	}
	for (i = optind; i < argc; i++) {
		if (opt_set(c, &opts[0], argv[i], msg, sizeof(msg)) == -1)
			return err_set(err, errsz, -1, "seed URL \"%s\": %s",
			    argv[i], msg);
	}
	return config_validate(c, err, errsz);
}

/* The setting whose INI key is key, in any section; NULL if none. */
static const struct opt *
opt_by_any_key(const char *key)
{
	size_t i;

	for (i = 0; i < NOPTS; i++)
		if (strcmp(opts[i].pub.key, key) == 0)
			return &opts[i];
	return NULL;
}

int
config_given(const struct config *c, const char *key)
{
	const struct opt *o = opt_by_any_key(key);
	size_t i;

	if (o == NULL)
		return 0;
	i = (size_t)(o - opts);
	return (c->given[i / 64] >> (i % 64)) & 1;
}

int
config_adopt(struct config *c, const char *key, const char *value,
    char *err, size_t errsz)
{
	const struct opt *o = opt_by_any_key(key);
	char msg[256];

	if (o == NULL)
		return err_set(err, errsz, -1, "unknown setting %s", key);
	if (config_given(c, key))
		return 0;
	if (opt_set(c, o, value, msg, sizeof(msg)) == -1)
		return err_set(err, errsz, -1, "%s: %s", key, msg);
	return 1;
}

int
config_validate(const struct config *c, char *err, size_t errsz)
{
	unsigned m;

	if (c->near_rule == NULL || check_near_rule(c->near_rule) != NULL)
		return err_set(err, errsz, -1, "near_rule: must be one of any, "
		    "all, %s", method_list(1));
	m = near_method(c->near_rule);
	if (m != 0 && (c->methods & m) == 0)
		return err_set(err, errsz, -1, "near_rule %s needs %s in "
		    "methods", c->near_rule, c->near_rule);
	/* Bands cut the signature into equal parts. */
	if (c->minhash_bands < 1 || c->minhash_bands > c->minhash_perms ||
	    c->minhash_perms % c->minhash_bands != 0)
		return err_set(err, errsz, -1, "minhash_bands: %d does not "
		    "divide minhash_perms %d", c->minhash_bands,
		    c->minhash_perms);
	return 0;
}

void
config_dedup(const struct config *c, struct dedup_config *out)
{
	memset(out, 0, sizeof(*out));
	out->methods = c->methods | DEDUP_MD5;
	out->simhash_k = c->simhash_k;
	out->ssdeep_threshold = c->ssdeep_threshold;
	out->min_text = (size_t)c->min_text;
	out->min_shingles = (size_t)c->min_shingles;
	out->fold_numbers = strcmp(c->numbers, "fold") == 0;
	out->max_novel_words = c->max_novel_words;
	out->max_novel_percent = c->max_novel_percent;
	out->minhash_perms = c->minhash_perms;
	out->minhash_bands = c->minhash_bands;
	out->minhash_shingle = c->minhash_shingle;
	out->minhash_threshold = c->minhash_threshold;
	out->tdw_threshold = c->tdw_threshold;
	out->tdw.stopwords = c->tdw_stopwords;
	out->tdw.stem = c->tdw_stem;
	out->tdw.max_tokens = c->tdw_max_tokens;
	out->rule = DEDUP_RULE_ANY;
	if (strcmp(c->near_rule, "all") == 0) {
		out->rule = DEDUP_RULE_ALL;
	} else if ((out->rule_method = near_method(c->near_rule)) != 0) {
		out->rule = DEDUP_RULE_ONE;
	}
}

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

void
config_usage(FILE *out)
{
	const struct opt *o;
	char left[64];
	size_t s, i;

	fputs("usage: nearcrawl crawl [-c FILE] [-d DB] [options] "
	      "[SEED_URL...]\n\n"
	      "Crawl from the seed URLs and tell unique pages from exact and "
	      "near duplicates.\n"
	      "An existing DB is resumed. Settings come from the defaults, "
	      "then the INI file\n"
	      "(-c), then the other options; repeatable options and SEED_URLs "
	      "add to the\n"
	      "file's lists. In the file, an option is a key of the section "
	      "it is listed\n"
	      "under, spelt with _ for - unless its key is shown.\n\n",
	    out);
	fprintf(out, "  %-28s %s\n", "SEED_URL...",
	    "where to start; adds to the file's seed keys");
	fprintf(out, "  %-28s %s\n", "-c, --config FILE",
	    "read settings from this INI file first");
	fprintf(out, "  %-28s %s\n", "-h, --help",
	    "print this help and exit");
	for (s = 0; s < NSECTIONS; s++) {
		fprintf(out, "\n[%s] %s\n", sections[s].name,
		    sections[s].about);
		for (i = 0; i < NOPTS; i++) {
			o = &opts[i];
			if (strcmp(o->pub.section, sections[s].name) != 0 ||
			    o->pub.option == NULL)
				continue;
			if (o->shortopt != 0)
				snprintf(left, sizeof(left), "-%c, --%s%s%s",
				    o->shortopt, o->pub.option,
				    o->arg ? " " : "", o->arg ? o->arg : "");
			else
				snprintf(left, sizeof(left), "    --%s%s%s",
				    o->pub.option, o->arg ? " " : "",
				    o->arg ? o->arg : "");
			if (strlen(left) >= 28)
				fprintf(out, "  %s\n  %-28s %s\n", left, "",
				    o->help);
			else
				fprintf(out, "  %-28s %s\n", left, o->help);
			fprintf(out, "  %-28s ", "");
			if (o->type == OPT_LIST)
				fprintf(out, "repeatable");
			else
				fprintf(out, "default %s", o->pub.def);
			if (o->type == OPT_INT || o->type == OPT_LONG)
				fprintf(out, ", %lld..%lld", o->min, o->max);
			if (!key_is_option(o))
				fprintf(out, "; key %s", o->pub.key);
			fputc('\n', out);
			if (o->type != OPT_LIST && o->example != NULL)
				fprintf(out, "  %-28s e.g. %s\n", "",
				    o->example);
		}
	}
}

/* A scalar setting's value in INI form (no key, no newline). */
static void
put_value(FILE *out, const struct config *c, const struct opt *o)
{
	unsigned bits, bit;
	const char *sep = "";

	switch (o->type) {
	case OPT_BOOL:
		fputs(*(const int *)cfield(c, o) ? "true" : "false", out);
		break;
	case OPT_INT:
		fprintf(out, "%d", *(const int *)cfield(c, o));
		break;
	case OPT_LONG:
		fprintf(out, "%ld", *(const long *)cfield(c, o));
		break;
	case OPT_STR:
		fputs(*(char *const *)cfield(c, o), out);
		break;
	case OPT_METHODS:
		bits = *(const unsigned *)cfield(c, o);
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
	list = *(char **const *)cfield(c, o);
	n = *(const size_t *)((const char *)c + o->noff);
	for (j = 0; j < n; j++)
		fprintf(out, "%s = %s\n", o->pub.key, list[j]);
	if (n == 0 && commented)
		fprintf(out, "; %s = %s\n", o->pub.key, o->example);
}

char *
config_value(const struct config *c, const char *key)
{
	const struct opt *o = opt_by_any_key(key);
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
	for (s = 0; s < NSECTIONS; s++) {
		if (commented)
			fprintf(out, "\n; %s\n", sections[s].about);
		fprintf(out, "%s[%s]\n", s > 0 && !commented ? "\n" : "",
		    sections[s].name);
		for (i = 0; i < NOPTS; i++) {
			o = &opts[i];
			if (strcmp(o->pub.section, sections[s].name) != 0)
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

const struct config_setting *
config_setting_at(size_t i)
{
	return i < NOPTS ? &opts[i].pub : NULL;
}

const struct config_setting *
config_setting_of(const char *key)
{
	const struct opt *o = opt_by_any_key(key);

	return o != NULL ? &o->pub : NULL;
}
