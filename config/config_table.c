/*
 * config_table: the settings table of `nearcrawl crawl` (see config.h)
 * and what works on it directly: checking and storing a value, defaults,
 * freeing, validation and the dedup settings. Loading INI files is
 * config_ini.c, the command line config_cli.c, --help and INI output
 * config_write.c; there is no config.c, so that the header config.h and
 * the files behind it depend on each other in one direction only.
 */
#include "config/config_int.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "dedup/dedup.h"
#include "util/err.h"
#include "web/urlfilter.h"

static const char *check_resolve(const char *v);
static const char *check_near_rule(const char *v);
static const char *check_near_text(const char *v);
static const char *check_numbers(const char *v);
static const char *check_novelty(const char *v);
static const char *check_yes_no(const char *v);
static const char *check_saturation(const char *v);
static const char *check_strip_params(const char *v);
static const char *check_regex(const char *v);

#define F(field) offsetof(struct config, field)
#define TERA (1LL << 40)
#define GIGA 1000000000LL
#define TWO_G (1LL << 31)

/* The settings. Rows of one section stay together, in --help order. */
const struct opt config_opts[] = {
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
	{ { "crawl", "accept_regex", "accept-regex", NULL }, OPT_LIST,
	    F(accept_regex), F(naccept_regex), 0, 0, 0, "RE",
	    "follow only links whose URL matches RE (POSIX extended, "
	    "anywhere in it)", "^https?://[^/]*/en/", check_regex },
	{ { "crawl", "reject_regex", "reject-regex", NULL }, OPT_LIST,
	    F(reject_regex), F(nreject_regex), 0, 0, 0, "RE",
	    "never follow links whose URL matches RE; a resume may change "
	    "both", "/(login|search)([/?]|$)", check_regex },
	{ { "crawl", "user_agent", "user-agent", CONFIG_DEFAULT_USER_AGENT },
	    OPT_STR, F(user_agent), 0, 0, 0, 0, "S",
	    "User-Agent: who crawls, how to reach them", NULL,
	    NULL },
	{ { "crawl", "follow_duplicates", "follow-duplicates", "false" },
	    OPT_BOOL, F(follow_duplicates), 0, 0, 1, 0, NULL,
	    "also follow links of exact and near duplicates", NULL, NULL },
	{ { "crawl", "recrawl", "recrawl", "false" }, OPT_BOOL, F(recrawl), 0,
	    0, 1, 0, NULL, "visit every page of the crawl in DB again, with "
	    "If-None-Match / If-Modified-Since, and record what changed "
	    "(a new visit; docs/archives.md)", NULL, NULL },
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
	    "stop when the unique share of the last W pages falls "
	    "under the fraction R (200:0.05: under 5 % of the last 200)",
	    NULL, check_saturation },
	{ { "crawl", "sitemaps", "sitemaps", "false" }, OPT_BOOL,
	    F(sitemaps), 0, 0, 1, 0, NULL,
	    "also queue the URLs of the sitemaps robots.txt lists", NULL,
	    NULL },
	{ { "crawl", "quiet", "quiet", "false" }, OPT_BOOL, F(quiet), 0, 0, 1,
	    'q', NULL, "print no progress lines", NULL, NULL },
	{ { "crawl", "verbose", "verbose", "false" }, OPT_BOOL, F(verbose), 0,
	    0, 1, 'v', NULL, "also print where the time and the index memory "
	    "went, at the end", NULL, NULL },
	{ { "crawl", "concurrency", "concurrency", "16" }, OPT_INT,
	    F(concurrency), 0, 1, 1024, 0, "N",
	    "pages in flight at once (fetching or being parsed); fewer "
	    "transfers when file descriptors are short", NULL, NULL },
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

	{ { "network", "cacert", "cacert", "none" }, OPT_STR, F(cacert), 0,
	    0, 0, 0, "FILE",
	    "trust the CA certificates in this PEM file",
	    NULL, NULL },
	{ { "network", "capath", "capath", "none" }, OPT_STR, F(capath), 0,
	    0, 0, 0, "DIR",
	    "trust the hashed CA certificates in DIR",
	    NULL, NULL },
	{ { "network", "insecure", "insecure", "false" }, OPT_BOOL,
	    F(insecure), 0, 0, 1, 0, NULL,
	    "no TLS certificate or host name checks; warns", NULL,
	    NULL },
	{ { "network", "proxy", "proxy", "none" }, OPT_STR, F(proxy), 0, 0, 0,
	    0, "URL", "send every request through this proxy",
	    "http://proxy.example.edu:3128", NULL },

	{ { "dedup", "methods", "methods", "md5,simhash,minhash" }, OPT_METHODS,
	    F(methods), 0, 0, 0, 0, "LIST",
	    "any of md5,simhash,ssdeep,minhash,tdw; md5 always on", NULL,
	    NULL },
	{ { "dedup", "simhash_k", "simhash-k", "3" }, OPT_INT, F(simhash_k),
	    0, 0, 15, 0, "K",
	    "a near candidate when SimHashes differ in <= K bits", NULL,
	    NULL },
	{ { "dedup", "ssdeep_threshold", "ssdeep-threshold", "90" }, OPT_INT,
	    F(ssdeep_threshold), 0, 1, 100, 0, "T",
	    "a near candidate when the ssdeep score is >= T", NULL, NULL },
	{ { "dedup", "minhash_perms", "minhash-perms", "128" }, OPT_INT,
	    F(minhash_perms), 0, MINHASH_MIN_PERMS, MINHASH_MAX_PERMS, 0, "K",
	    "MinHash signature length: K hash functions", NULL, NULL },
	{ { "dedup", "minhash_bands", "minhash-bands", "32" }, OPT_INT,
	    F(minhash_bands), 0, 1, MINHASH_MAX_PERMS, 0, "B",
	    "MinHash LSH bands of K/B rows; B divides K", NULL, NULL },
	{ { "dedup", "minhash_shingle", "minhash-shingle", "3" }, OPT_INT,
	    F(minhash_shingle), 0, 1, MINHASH_MAX_SHINGLE, 0, "N",
	    "words per MinHash shingle", NULL, NULL },
	{ { "dedup", "minhash_threshold", "minhash-threshold", "60" }, OPT_INT,
	    F(minhash_threshold), 0, 1, 100, 0, "T",
	    "a near candidate when the estimated Jaccard is at least T %",
	    NULL, NULL },
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
	{ { "dedup", "max_novel_percent", "max-novel-percent", "25" },
	    OPT_INT, F(max_novel_percent), 0, 0, 100, 0, "P",
	    "near page has at most P % new words against its original "
	    "(docs/dedup.md)", NULL, NULL },
	{ { "dedup", "novelty", "novelty", "own" }, OPT_STR, F(novelty), 0,
	    0, 0, 0, "own|all",
	    "P % of its own words (outside the site template) and of all; "
	    "or of all words only (older crawls)", NULL, check_novelty },
	{ { "dedup", "linker", "linker", "yes" }, OPT_STR, F(linker), 0, 0,
	    0, 0, "yes|no",
	    "also check the page that linked to a page, and never call a "
	    "page a copy of one that lists it; no: older crawls", NULL,
	    check_yes_no },
	{ { "dedup", "max_novel_words", "max-novel-words", "-1" }, OPT_INT,
	    F(max_novel_words), 0, -1, 1000000, 0, "N",
	    "... and at most N new words; -1 = no such cap", NULL, NULL },
	{ { "dedup", "tdw_threshold", "tdw-threshold", "75" }, OPT_INT,
	    F(tdw_threshold), 0, 1, 100, 0, "T",
	    "a near candidate when the TDW overlap is >= T %", NULL,
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
	{ { "dedup", "dedup_against", "dedup-against", NULL }, OPT_LIST,
	    F(dedup_against), F(ndedup_against), 0, 0, 0, "DB",
	    "an earlier crawl's SQLite database, opened read-only: its pages "
	    "tell new from same-as-before and near-to-before, and with --warc "
	    "a payload it archived becomes a revisit record pointing into its "
	    "WARC files (not PostgreSQL)", "last-week.db", NULL },
	{ { "dedup", "dedup_against_cdx", "dedup-against-cdx", NULL },
	    OPT_LIST, F(dedup_against_cdx), F(ndedup_against_cdx), 0, 0, 0,
	    "FILE", "a CDXJ index of earlier WARC files (any writer's): with "
	    "--warc, a payload it lists becomes a revisit record pointing at "
	    "its record", "last-week/nearcrawl-20261101000000-00001.cdxj",
	    NULL },

	{ { "storage", "db", "db", "nearcrawl.db" }, OPT_STR, F(db), 0, 0, 0,
	    'd', "DB", "SQLite file, or a postgresql:// URI several processes "
	    "may crawl together; an existing one is resumed", NULL, NULL },
	{ { "storage", "worker", "worker", "auto" }, OPT_STR, F(worker), 0, 0, 0,
	    0, "NAME", "this process's name in pages.worker (auto: "
	    "machine:pid)", NULL, NULL },
	{ { "storage", "row_locks", "row-locks", "false" },
	    OPT_BOOL, F(row_locks), 0, 0, 1, 0, NULL,
	    "shared crawls serialise verdicts on rows of verdict_keys, not on "
	    "advisory locks (for distributed PostgreSQL-compatible engines)",
	    NULL, NULL },
	{ { "storage", "db_retry_s", "db-retry-s", "300" }, OPT_INT,
	    F(db_retry_s), 0, 0, 604800, 0, "N", "PostgreSQL: when the "
	    "connection to the server is lost, reconnect and go on for up "
	    "to N seconds, then stop (exit 1); 0 = stop at once", NULL, NULL },
	{ { "storage", "batch_pages", "batch-pages", "2048" }, OPT_INT,
	    F(batch), 0, 1, 100000, 0, "N", "pages written per transaction, "
	    "or 2 seconds' worth if fewer (a crawl shared by several "
	    "processes writes each page on its own)", NULL, NULL },
	{ { "storage", "force_settings", "force-settings", "false" },
	    OPT_BOOL, F(force_settings), 0, 0, 1, 0, NULL,
	    "resume even if dedup settings or scope changed", NULL, NULL },
	{ { "storage", "retry_given_up", "retry-given-up", "false" },
	    OPT_BOOL, F(retry_given_up), 0, 0, 1, 0, NULL,
	    "resume: give the hosts given up another chance", NULL, NULL },
	{ { "storage", "store_text", "store-text", "false" }, OPT_BOOL,
	    F(store_text), 0, 0, 1, 0, NULL,
	    "also store the extracted text of every page", NULL, NULL },
	{ { "storage", "search_index", "search-index", "yes" }, OPT_STR,
	    F(search_index), 0, 0, 0, 0, "yes|no",
	    "index each judged page's title and text for `nearcrawl "
	    "search` (SQLite: in the file DB-search, written by a thread of "
	    "its own); no: less CPU and disk (about 6 KB a page), `nearcrawl "
	    "index` builds it later from --warc or --store-text", NULL,
	    check_yes_no },
	{ { "storage", "warc_dir", "warc", "none" }, OPT_STR, F(warc_dir), 0,
	    0, 0, 0, "DIR", "keep every fetch in WARC 1.1 files in DIR, with "
	    "a CDXJ index each (none: no archive)", NULL, NULL },
	{ { "storage", "warc_max_bytes", "warc-max-bytes", "1073741824" },
	    OPT_LONG, F(warc_max_bytes), 0, 4096, TERA, 0, "N",
	    "start a new WARC file before one passes N bytes", NULL, NULL },
	{ { "storage", "warc_prefix", "warc-prefix", "nearcrawl" }, OPT_STR,
	    F(warc_prefix), 0, 0, 0, 0, "S",
	    "WARC files are named S-TIMESTAMP-SERIAL.warc.gz", NULL, NULL },
};

#define NOPTS (sizeof(config_opts) / sizeof(config_opts[0]))
_Static_assert(NOPTS <= CONFIG_MAX_SETTINGS, "raise CONFIG_MAX_SETTINGS");
const size_t config_nopts = NOPTS;

void
config_mark_given(struct config *c, const struct opt *o)
{
	size_t i = (size_t)(o - config_opts);

	c->given[i / 64] |= (uint64_t)1 << (i % 64);
}

const struct config_section config_sections[] = {
	{ "crawl", "what to fetch" },
	{ "politeness", "how gently" },
	{ "network", "how to connect: TLS trust and proxy" },
	{ "dedup", "what counts as a duplicate" },
	{ "storage", "where results go" },
};

const size_t config_nsections =
    sizeof(config_sections) / sizeof(config_sections[0]);

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
check_novelty(const char *v)
{
	if (strcmp(v, "own") == 0 || strcmp(v, "all") == 0)
		return NULL;
	return "must be own or all";
}

static const char *
check_regex(const char *v)
{
	static _Thread_local char why[240];
	const char *e;

	/* Stored one entry a line: a pattern is one line. */
	if (strpbrk(v, "\n\r") != NULL)
		return "a pattern is one line";
	if ((e = urlfilter_pattern_check(v)) == NULL)
		return NULL;
	snprintf(why, sizeof(why), "not a regular expression: %s", e);
	return why;
}

static const char *
check_yes_no(const char *v)
{
	if (strcmp(v, "yes") == 0 || strcmp(v, "no") == 0)
		return NULL;
	return "must be yes or no";
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
	return strcmp(v, "none") == 0 ? NULL : urlfilter_param_list_check(v);
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

/* Store v into o's field for the types parsed from text: bool (v NULL: a
 * CLI flag, meaning true), int, long, methods. Returns 0 or -1 with why in
 * msg. */
static int
set_scalar(struct config *c, const struct opt *o, const char *v, char *msg,
    size_t msgsz)
{
	long long n, max;
	const char *bad = NULL;
	unsigned bits;
	int b;

	if (o->type == OPT_BOOL) {
		if (v == NULL)
			b = 1;
		else if (parse_bool(v, &b) == -1)
			return err_set(msg, msgsz, -1, "must be true or false "
			    "(or yes/no, on/off, 1/0)");
		*(int *)config_field(c, o) = b;
		return 0;
	}
	if (o->type == OPT_METHODS) {
		if (dedup_parse_methods(v, &bits, &bad) == -1)
			return err_set(msg, msgsz, -1, "unknown method "
			    "\"%.*s\" (known: %s)",
			    (int)strcspn(bad ? bad : v, ","), bad ? bad : v,
			    method_list(0));
		*(unsigned *)config_field(c, o) = bits;
		return 0;
	}
	max = o->max;
	if (o->type == OPT_LONG && max > LONG_MAX)
		max = LONG_MAX;
	if (parse_int(v, o->min, max, &n) == -1)
		return err_set(msg, msgsz, -1, "must be an integer "
		    "from %lld to %lld", o->min, max);
	if (o->type == OPT_INT)
		*(int *)config_field(c, o) = (int)n;
	else
		*(long *)config_field(c, o) = (long)n;
	return 0;
}

/* Store the string v into o's field (OPT_STR) or list (OPT_LIST) after
 * checking it. Returns 0 or -1 with why in msg. */
static int
set_string(struct config *c, const struct opt *o, const char *v, char *msg,
    size_t msgsz)
{
	const char *why, *p;
	char *copy;

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
		if (list_append((char ***)config_field(c, o),
		    (size_t *)((char *)c + o->noff), v) == -1)
			goto nomem;
		return 0;
	}
	copy = strdup(v);
	if (copy == NULL)
		goto nomem;
	free(*(char **)config_field(c, o));
	*(char **)config_field(c, o) = copy;
	return 0;
nomem:
	return err_set(msg, msgsz, -1, "out of memory");
}

int
config_opt_set(struct config *c, const struct opt *o, const char *v,
    char *msg, size_t msgsz)
{
	switch (o->type) {
	case OPT_BOOL:
	case OPT_INT:
	case OPT_LONG:
	case OPT_METHODS:
		return set_scalar(c, o, v, msg, msgsz);
	case OPT_STR:
	case OPT_LIST:
		break;
	}
	return set_string(c, o, v, msg, msgsz);
}

const char *
config_secs_option(const struct opt *o)
{
	return strcmp(o->pub.key, "delay_ms") == 0 ? "delay" : NULL;
}

const struct opt *
config_opt_by_key(const char *section, const char *key)
{
	size_t i;

	for (i = 0; i < NOPTS; i++)
		if (strcasecmp(config_opts[i].pub.section, section) == 0 &&
		    strcasecmp(config_opts[i].pub.key, key) == 0)
			return &config_opts[i];
	return NULL;
}

int
config_section_known(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < config_nsections; i++)
		if (strlen(config_sections[i].name) == len &&
		    strncasecmp(config_sections[i].name, name, len) == 0)
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
		if (config_opts[i].pub.def == NULL)
			continue;
		if (config_opt_set(c, &config_opts[i], config_opts[i].pub.def,
		    msg, sizeof(msg)) == -1)
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
		if (config_opts[i].type == OPT_STR) {
			free(*(char **)config_field(c, &config_opts[i]));
		} else if (config_opts[i].type == OPT_LIST) {
			list = *(char ***)config_field(c, &config_opts[i]);
			n = *(size_t *)((char *)c + config_opts[i].noff);
			for (j = 0; j < n; j++)
				free(list[j]);
			free(list);
		}
	}
	memset(c, 0, sizeof(*c));
}

const struct opt *
config_opt_by_name(const char *key)
{
	size_t i;

	for (i = 0; i < NOPTS; i++)
		if (strcmp(config_opts[i].pub.key, key) == 0)
			return &config_opts[i];
	return NULL;
}

int
config_given(const struct config *c, const char *key)
{
	const struct opt *o = config_opt_by_name(key);
	size_t i;

	if (o == NULL)
		return 0;
	i = (size_t)(o - config_opts);
	return (c->given[i / 64] >> (i % 64)) & 1;
}

int
config_adopt(struct config *c, const char *key, const char *value,
    char *err, size_t errsz)
{
	const struct opt *o = config_opt_by_name(key);
	char msg[256];

	if (o == NULL)
		return err_set(err, errsz, -1, "unknown setting %s", key);
	if (config_given(c, key))
		return 0;
	if (config_opt_set(c, o, value, msg, sizeof(msg)) == -1)
		return err_set(err, errsz, -1, "%s: %s", key, msg);
	return 1;
}

int
config_validate(const struct config *c, char *err, size_t errsz)
{
	unsigned m;

	if (c->near_rule == NULL || check_near_rule(c->near_rule) != NULL)
		return err_set(err, errsz, -1, "--near-rule (near_rule): must "
		    "be one of any, all, %s", method_list(1));
	m = near_method(c->near_rule);
	if (m != 0 && (c->methods & m) == 0)
		return err_set(err, errsz, -1, "--near-rule %s needs %s in "
		    "--methods", c->near_rule, c->near_rule);
	/* Bands cut the signature into equal parts. Named as the command
	 * line spells them, the INI key after: either may have set it. */
	if (c->minhash_bands < 1 || c->minhash_bands > c->minhash_perms ||
	    c->minhash_perms % c->minhash_bands != 0)
		return err_set(err, errsz, -1, "--minhash-bands %d does not "
		    "divide --minhash-perms %d (keys minhash_bands, "
		    "minhash_perms)", c->minhash_bands, c->minhash_perms);
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
	out->own_novelty = strcmp(c->novelty, "own") == 0;
	out->linker = strcmp(c->linker, "yes") == 0;
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

int
config_per_run(const char *key)
{
	static const char *const per_run[] = { "seed", "quiet", "verbose", "db",
		"force_settings", "retry_given_up", "worker", "recrawl" };
	size_t i;

	for (i = 0; i < sizeof(per_run) / sizeof(per_run[0]); i++)
		if (strcmp(per_run[i], key) == 0)
			return 1;
	return 0;
}

char *const *
config_list(const struct config *c, const char *key, size_t *n)
{
	const struct opt *o = config_opt_by_name(key);

	*n = 0;
	if (o == NULL || o->type != OPT_LIST)
		return NULL;
	*n = *(const size_t *)((const char *)c + o->noff);
	return *(char **const *)config_cfield(c, o);
}

const struct config_setting *
config_setting_at(size_t i)
{
	return i < NOPTS ? &config_opts[i].pub : NULL;
}

const struct config_setting *
config_setting_of(const char *key)
{
	const struct opt *o = config_opt_by_name(key);

	return o != NULL ? &o->pub : NULL;
}
