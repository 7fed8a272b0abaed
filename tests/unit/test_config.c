/* Unit tests of config: the settings table, INI files, the command line. */
#include "check.h"
#include "config/config.h"
#include "dedup/dedup.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void suite_config(void);

static char err[512];  /* the last error message */
static char path[64];  /* the last temporary INI file */

/* Write text to a fresh temporary file, remembered in path. */
static int
write_tmp(const char *text)
{
	FILE *fp;
	int fd;

	snprintf(path, sizeof(path), "/tmp/nc_config_XXXXXX");
	fd = mkstemp(path);
	if (fd == -1)
		return -1;
	fp = fdopen(fd, "w");
	if (fp == NULL) {
		close(fd);
		return -1;
	}
	fputs(text, fp);
	return fclose(fp) == 0 ? 0 : -1;
}

/* Load text as an INI file into a config that holds the defaults. */
static int
load_text(struct config *c, const char *text)
{
	int r;

	err[0] = '\0';
	if (write_tmp(text) == -1)
		return -2;
	r = config_load_ini(c, path, err, sizeof(err));
	unlink(path);
	return r;
}

/* "PATH:rest", for comparing messages that name the temporary file. */
static const char *
at(const char *rest)
{
	static char buf[256];

	snprintf(buf, sizeof(buf), "%s:%s", path, rest);
	return buf;
}

#define ARGS(...) ((char *[]){ "crawl", __VA_ARGS__, NULL })

static int
parse(struct config *c, char **argv)
{
	int argc = 0;

	while (argv[argc] != NULL)
		argc++;
	err[0] = '\0';
	return config_parse_crawl_args(c, argc, argv, err, sizeof(err));
}

/* c as INI text (config_dump), malloc'ed; NULL on failure. */
static char *
dump(const struct config *c)
{
	char *text = NULL;
	size_t len = 0;
	FILE *fp;

	fp = open_memstream(&text, &len);
	if (fp == NULL)
		return NULL;
	if (config_dump(c, fp) == -1) {
		fclose(fp);
		free(text);
		return NULL;
	}
	fclose(fp);
	return text;
}

static void
test_defaults(void)
{
	struct config c;

	CHECK_INT(config_init(&c), 0);
	CHECK_INT(c.nseeds, 0);
	CHECK(c.seeds == NULL);
	CHECK_INT(c.max_pages, 0);
	CHECK_INT(c.max_depth, -1);
	CHECK_INT(c.nallow, 0);
	CHECK_STR(c.user_agent,
	    "nearcrawl/0.1 (+https://github.com/nearcrawl/nearcrawl)");
	CHECK_INT(c.follow_duplicates, 0);
	CHECK_INT(c.nresolve, 0);
	CHECK_INT(c.quiet, 0);
	CHECK_INT(c.concurrency, 16);
	CHECK_INT(c.max_body, 10485760);
	CHECK_INT(c.max_text, 2097152);
	CHECK_INT(c.max_links, 5000);
	CHECK_INT(c.delay_ms, 1000);
	CHECK_INT(c.per_host, 1);
	CHECK_INT(c.connect_timeout_ms, 10000);
	CHECK_INT(c.timeout_ms, 30000);
	CHECK_INT(c.low_speed_bytes, 100);
	CHECK_INT(c.low_speed_secs, 10);
	CHECK_INT(c.methods, DEDUP_MD5 | DEDUP_SIMHASH | DEDUP_MINHASH);
	CHECK_INT(c.simhash_k, 3);
	CHECK_INT(c.ssdeep_threshold, 90);
	CHECK_STR(c.near_rule, "any");
	CHECK_INT(c.min_text, 0);
	CHECK_STR(c.db, "nearcrawl.db");
	CHECK_INT(c.batch, 2048);
	CHECK_INT(c.store_text, 0);
	CHECK_STR(c.strip_params, "none");
	CHECK_INT(c.max_query_variants, 0);
	CHECK_INT(config_validate(&c, err, sizeof(err)), 0);
	config_free(&c);
	CHECK(c.user_agent == NULL);
	config_free(&c); /* a freed config is zeroed: freeing again is fine */
}

static void
test_ini_types(void)
{
	struct config c;
	char text[1024], url[400];

	/* A URL longer than inih's usual 200-byte line. */
	memset(url, 'a', sizeof(url));
	memcpy(url, "https://x.example/", 18);
	url[sizeof(url) - 1] = '\0';
	snprintf(text, sizeof(text),
	    "; comment\n"
	    "# comment too\n"
	    "[crawl]\n"
	    "  seed = https://a.example/\n"
	    "  max_pages = 1099511627776\n"
	    "seed = %s\n"
	    "Max_Depth = 7 ; inline comment\n"
	    "follow_duplicates = YES\n"
	    "quiet = on\n"
	    "user_agent = testbot/1 (+mailto:me@example.org)\n"
	    "allow_domain = example.edu\n"
	    "resolve = a.example:443:127.0.0.1\n"
	    "[POLITENESS]\n"
	    "delay_ms = 0\n"
	    "[dedup]\n"
	    "methods = ssdeep\n"
	    "near_rule = ssdeep\n"
	    "[storage]\n"
	    "db = /tmp/x.db\n"
	    "store_text = 1\n",
	    url);
	CHECK_INT(config_init(&c), 0);
	CHECK_INT(load_text(&c, text), 0);
	CHECK_STR(err, "");
	CHECK_INT(c.nseeds, 2);
	if (c.nseeds == 2) {
		CHECK_STR(c.seeds[0], "https://a.example/");
		CHECK_STR(c.seeds[1], url);
	}
	CHECK_INT(c.max_pages, 1LL << 40);
	CHECK_INT(c.max_depth, 7);
	CHECK_INT(c.follow_duplicates, 1);
	CHECK_INT(c.quiet, 1);
	CHECK_STR(c.user_agent, "testbot/1 (+mailto:me@example.org)");
	CHECK_INT(c.nallow, 1);
	CHECK_INT(c.nresolve, 1);
	CHECK_INT(c.delay_ms, 0);
	CHECK_INT(c.methods, DEDUP_MD5 | DEDUP_SSDEEP);
	CHECK_STR(c.near_rule, "ssdeep");
	CHECK_STR(c.db, "/tmp/x.db");
	CHECK_INT(c.store_text, 1);
	CHECK_INT(config_validate(&c, err, sizeof(err)), 0);
	/* Booleans go back to false the same ways. */
	CHECK_INT(load_text(&c, "[crawl]\nquiet = Off\nfollow_duplicates = "
	    "no\n[storage]\nstore_text = FALSE\n"), 0);
	CHECK_INT(c.quiet, 0);
	CHECK_INT(c.follow_duplicates, 0);
	CHECK_INT(c.store_text, 0);
	config_free(&c);
}

static void
test_ini_unknown(void)
{
	struct config c;

	CHECK_INT(config_init(&c), 0);
	CHECK_INT(load_text(&c, "[crawl]\nmax_pages = 3\nfoo = 1\n"), -1);
	CHECK_STR(err, at("3: unknown key [crawl] foo"));
	/* An empty unknown section is caught at its own line... */
	CHECK_INT(load_text(&c, "[crawl]\n[bar]\n[dedup]\nsimhash_k = 1\n"),
	    -1);
	CHECK_STR(err, at("2: unknown section [bar]"));
	/* ...and a key before any section is no setting at all. */
	CHECK_INT(load_text(&c, "\nseed = http://x/\n"), -1);
	CHECK_STR(err, at("2: key seed is outside any section"));
	/* Keys belong to their own section only. */
	CHECK_INT(load_text(&c, "[dedup]\ndb = x.db\n"), -1);
	CHECK_STR(err, at("2: unknown key [dedup] db"));
	config_free(&c);
}

static void
test_ini_bad_values(void)
{
	struct config c;

	CHECK_INT(config_init(&c), 0);
	CHECK_INT(load_text(&c, "[dedup]\n\nsimhash_k = 16\n"), -1);
	CHECK_STR(err, at("3: [dedup] simhash_k: must be an integer from 0 "
	    "to 15"));
	CHECK_INT(load_text(&c, "[dedup]\nsimhash_k = 3x\n"), -1);
	CHECK_STR(err, at("2: [dedup] simhash_k: must be an integer from 0 "
	    "to 15"));
	CHECK_INT(load_text(&c, "[dedup]\nsimhash_k =\n"), -1);
	CHECK_STR(err, at("2: [dedup] simhash_k: must be an integer from 0 "
	    "to 15"));
	CHECK_INT(load_text(&c, "[crawl]\nmax_pages = 99999999999999999999"
	    "\n"), -1);
	CHECK_STR(err, at("2: [crawl] max_pages: must be an integer from 0 "
	    "to 1099511627776"));
	CHECK_INT(load_text(&c, "[crawl]\nquiet = maybe\n"), -1);
	CHECK_STR(err, at("2: [crawl] quiet: must be true or false (or "
	    "yes/no, on/off, 1/0)"));
	CHECK_INT(load_text(&c, "[storage]\ndb =\n"), -1);
	CHECK_STR(err, at("2: [storage] db: must not be empty"));
	CHECK_INT(load_text(&c, "[dedup]\nmethods = md5,winnow\n"), -1);
	CHECK_STR(err, at("2: [dedup] methods: unknown method \"winnow\" "
	    "(known: md5, simhash, ssdeep, minhash, tdw)"));
	/* Failed values left the defaults alone. */
	CHECK_INT(c.simhash_k, 3);
	CHECK_INT(c.quiet, 0);
	CHECK_STR(c.db, "nearcrawl.db");
	config_free(&c);
}

static void
test_ini_syntax_and_files(void)
{
	struct config c;
	char *text;

	CHECK_INT(config_init(&c), 0);
	CHECK_INT(load_text(&c, "[crawl]\nno equals sign here\n"), -1);
	CHECK_STR(err, at("2: syntax error"));
	/* The first problem is reported, whoever found it. */
	CHECK_INT(load_text(&c, "[crawl]\ngarbage\nquiet = maybe\n"), -1);
	CHECK_STR(err, at("2: syntax error"));
	CHECK_INT(load_text(&c, "[crawl]\nquiet = maybe\ngarbage\n"), -1);
	CHECK_STR(err, at("2: [crawl] quiet: must be true or false (or "
	    "yes/no, on/off, 1/0)"));
	CHECK_INT(load_text(&c, "[crawl\nquiet = 1\n"), -1);
	CHECK_STR(err, at("1: syntax error"));

	CHECK_INT(config_load_ini(&c, "/nonexistent/nc.ini", err,
	    sizeof(err)), -1);
	CHECK_STR(err, "/nonexistent/nc.ini: cannot open: No such file or "
	    "directory");

	/* Longer than a line may be: refused, and its tail is not read as
	 * a line of its own. */
	text = malloc(9000 + 64);
	CHECK(text != NULL);
	if (text != NULL) {
		strcpy(text, "[crawl]\nseed = http://x/");
		memset(text + strlen(text), 'a', 9000);
		strcpy(text + 24 + 9000, "\nquiet = 1\n");
		CHECK_INT(load_text(&c, text), -1);
		CHECK_STR(err, at("2: line longer than 8190 bytes"));
		CHECK_INT(c.quiet, 1);
		CHECK_INT(c.nseeds, 0);
		free(text);
	}
	config_free(&c);
}

static void
test_cli_overrides_ini(void)
{
	struct config c;

	CHECK_INT(write_tmp("[crawl]\nmax_pages = 5\nconcurrency = 4\n"
	    "[dedup]\nsimhash_k = 9\n"), 0);
	/* -c after the option: the option still wins. */
	CHECK_INT(config_init(&c), 0);
	CHECK_INT(parse(&c, ARGS("--max-pages", "7", "-c", path)), 0);
	CHECK_STR(err, "");
	CHECK_INT(c.max_pages, 7);
	CHECK_INT(c.concurrency, 4);
	CHECK_INT(c.simhash_k, 9);
	config_free(&c);
	/* -c first, --config=FILE form. */
	CHECK_INT(config_init(&c), 0);
	CHECK_INT(parse(&c, ARGS("--config=x", "--simhash-k=2")), -1);
	CHECK_STR(err, "x: cannot open: No such file or directory");
	config_free(&c);
	CHECK_INT(config_init(&c), 0);
	{
		char opt[80];

		snprintf(opt, sizeof(opt), "--config=%s", path);
		CHECK_INT(parse(&c, ARGS(opt, "--simhash-k=2")), 0);
	}
	CHECK_INT(c.max_pages, 5);
	CHECK_INT(c.simhash_k, 2);
	config_free(&c);
	unlink(path);
}

static void
test_cli_config_order(void)
{
	struct config c;
	char first[64];

	CHECK_INT(write_tmp("[crawl]\nmax_pages = 5\nconcurrency = 4\n"
	    "seed = http://one/\n"), 0);
	snprintf(first, sizeof(first), "%s", path);
	CHECK_INT(write_tmp("[crawl]\nmax_pages = 6\nseed = http://two/\n"),
	    0);
	CHECK_INT(config_init(&c), 0);
	CHECK_INT(parse(&c, ARGS("-c", first, "--concurrency", "8", "-c",
	    path)), 0);
	CHECK_INT(c.max_pages, 6);    /* the later file wins */
	CHECK_INT(c.concurrency, 8);  /* the command line wins over both */
	CHECK_INT(c.nseeds, 2);       /* lists of both files add up */
	if (c.nseeds == 2) {
		CHECK_STR(c.seeds[0], "http://one/");
		CHECK_STR(c.seeds[1], "http://two/");
	}
	config_free(&c);
	unlink(path);
	/* A bad file stops the parse with the file's message. */
	CHECK_INT(config_init(&c), 0);
	CHECK_INT(write_tmp("[crawl]\nbogus = 1\n"), 0);
	CHECK_INT(parse(&c, ARGS("-q", "-c", path)), -1);
	CHECK_STR(err, at("2: unknown key [crawl] bogus"));
	config_free(&c);
	unlink(path);
	unlink(first);
}

static void
test_cli_lists_accumulate(void)
{
	struct config c;

	CHECK_INT(write_tmp("[crawl]\nseed = http://ini/\nallow_domain = "
	    "ini.example\n"), 0);
	CHECK_INT(config_init(&c), 0);
	CHECK_INT(parse(&c, ARGS("http://pos1/", "--allow-domain", "a.example",
	    "-c", path, "--allow-domain=b.example", "http://pos2/",
	    "--resolve", "a.example:80:127.0.0.1", "--resolve",
	    "b.example:8080:[::1]")), 0);
	CHECK_STR(err, "");
	CHECK_INT(c.nseeds, 3);
	if (c.nseeds == 3) {
		CHECK_STR(c.seeds[0], "http://ini/");
		CHECK_STR(c.seeds[1], "http://pos1/");
		CHECK_STR(c.seeds[2], "http://pos2/");
	}
	CHECK_INT(c.nallow, 3);
	if (c.nallow == 3) {
		CHECK_STR(c.allow_domains[0], "ini.example");
		CHECK_STR(c.allow_domains[1], "a.example");
		CHECK_STR(c.allow_domains[2], "b.example");
	}
	CHECK_INT(c.nresolve, 2);
	if (c.nresolve == 2)
		CHECK_STR(c.resolve[1], "b.example:8080:[::1]");
	config_free(&c);
	unlink(path);
	/* "--" ends the options: what follows is a seed even if it looks
	 * like one. */
	CHECK_INT(config_init(&c), 0);
	CHECK_INT(parse(&c, ARGS("-q", "--", "--max-pages")), 0);
	CHECK_INT(c.quiet, 1);
	CHECK_INT(c.nseeds, 1);
	if (c.nseeds == 1)
		CHECK_STR(c.seeds[0], "--max-pages");
	config_free(&c);
}

static void
test_cli_flags_and_short(void)
{
	struct config c;

	CHECK_INT(config_init(&c), 0);
	CHECK_INT(parse(&c, ARGS("-qd", "x.db", "--follow-duplicates",
	    "--store-text", "--user-agent", "bot/2 (+mailto:a@b)",
	    "--delay-ms", "250", "--per-host", "2", "--max-depth", "-1",
	    "--max-body-bytes", "1024", "--max-text-bytes", "2147483648",
	    "--max-links", "0", "--connect-timeout-ms", "100",
	    "--timeout-ms", "3600000", "--low-speed-bytes", "0",
	    "--low-speed-secs", "3600", "--ssdeep-threshold", "100",
	    "--min-text-bytes", "200", "--batch-pages", "1")), 0);
	CHECK_STR(err, "");
	CHECK_INT(c.quiet, 1);
	CHECK_STR(c.db, "x.db");
	CHECK_INT(c.follow_duplicates, 1);
	CHECK_INT(c.store_text, 1);
	CHECK_STR(c.user_agent, "bot/2 (+mailto:a@b)");
	CHECK_INT(c.delay_ms, 250);
	CHECK_INT(c.per_host, 2);
	CHECK_INT(c.max_depth, -1);
	CHECK_INT(c.max_body, 1024);
	CHECK_INT(c.max_text, 1LL << 31);
	CHECK_INT(c.max_links, 0);
	CHECK_INT(c.connect_timeout_ms, 100);
	CHECK_INT(c.timeout_ms, 3600000);
	CHECK_INT(c.low_speed_bytes, 0);
	CHECK_INT(c.low_speed_secs, 3600);
	CHECK_INT(c.ssdeep_threshold, 100);
	CHECK_INT(c.min_text, 200);
	CHECK_INT(c.batch, 1);
	CHECK_INT(c.nseeds, 0);
	config_free(&c);
}

static void
test_cli_help(void)
{
	struct config c;

	CHECK_INT(config_init(&c), 0);
	CHECK_INT(parse(&c, ARGS("--help")), 1);
	CHECK_INT(parse(&c, ARGS("-h")), 1);
	/* Help wins over anything else on the line, even a missing file. */
	CHECK_INT(parse(&c, ARGS("--bogus", "-c", "/nonexistent.ini",
	    "--max-pages", "x", "-h")), 1);
	config_free(&c);
}

static void
test_cli_errors(void)
{
	struct config c;

	CHECK_INT(config_init(&c), 0);
	CHECK_INT(parse(&c, ARGS("--foo")), -1);
	CHECK_STR(err, "unknown option --foo");
	CHECK_INT(parse(&c, ARGS("http://x/", "--foo=bar")), -1);
	CHECK_STR(err, "unknown option --foo");
	CHECK_INT(parse(&c, ARGS("-x")), -1);
	CHECK_STR(err, "unknown option -x");
	CHECK_INT(parse(&c, ARGS("--max-pages")), -1);
	CHECK_STR(err, "--max-pages: missing argument N");
	CHECK_INT(parse(&c, ARGS("-d")), -1);
	CHECK_STR(err, "--db: missing argument DB");
	CHECK_INT(parse(&c, ARGS("-c")), -1);
	CHECK_STR(err, "--config: missing argument FILE");
	CHECK_INT(parse(&c, ARGS("--quiet=yes")), -1);
	CHECK_STR(err, "--quiet: takes no argument");
	CHECK_INT(parse(&c, ARGS("--simhash-k", "16")), -1);
	CHECK_STR(err, "--simhash-k: must be an integer from 0 to 15");
	CHECK_INT(parse(&c, ARGS("--simhash-k", " 3")), -1);
	CHECK_STR(err, "--simhash-k: must be an integer from 0 to 15");
	CHECK_INT(parse(&c, ARGS("--concurrency", "0")), -1);
	CHECK_STR(err, "--concurrency: must be an integer from 1 to 1024");
	CHECK_INT(parse(&c, ARGS("--user-agent", "a\r\nX-Evil: 1")), -1);
	CHECK_STR(err, "--user-agent: must not hold control characters");
	CHECK_INT(parse(&c, ARGS("")), -1);
	CHECK_STR(err, "seed URL \"\": must not be empty");
	config_free(&c);
}

/* Load len bytes (NULs included) as an INI file. */
static int
load_bytes(struct config *c, const char *bytes, size_t len)
{
	FILE *fp;
	int fd, r;

	err[0] = '\0';
	snprintf(path, sizeof(path), "/tmp/nc_config_XXXXXX");
	if ((fd = mkstemp(path)) == -1)
		return -2;
	if ((fp = fdopen(fd, "w")) == NULL) {
		close(fd);
		unlink(path);
		return -2;
	}
	r = fwrite(bytes, 1, len, fp) == len ? 0 : -2;
	if (fclose(fp) != 0)
		r = -2;
	if (r == 0)
		r = config_load_ini(c, path, err, sizeof(err));
	unlink(path);
	return r;
}

/* Files that are no INI text at all: refused with the line, never read
 * as settings, never a crash. */
static void
test_ini_garbage(void)
{
	static const char nul[] = "[crawl]\nquiet = 1\0 = 2\nmax_pages = 3\n";
	char junk[4096];
	unsigned x = 12345;
	struct config c;
	size_t i;

	CHECK_INT(config_init(&c), 0);
	/* fgets would have cut line 2 at the NUL and read its tail as a
	 * line of its own. */
	CHECK_INT(load_bytes(&c, nul, sizeof(nul) - 1), -1);
	CHECK_STR(err, at("2: NUL byte: not a text file"));
	CHECK_INT(c.quiet, 0);
	CHECK_INT(c.max_pages, 3);
	for (i = 0; i < sizeof(junk); i++) {
		x = x * 1103515245u + 12345u;
		junk[i] = (char)(x >> 16);
	}
	CHECK_INT(load_bytes(&c, junk, sizeof(junk)), -1);
	CHECK(strncmp(err, path, strlen(path)) == 0);
	/* A terminal escape in a key comes back in the message as it is;
	 * main prints messages through esc.h. */
	CHECK_INT(load_text(&c, "[crawl]\n\x1b[2J = 1\n"), -1);
	CHECK_STR(err, at("2: unknown key [crawl] \x1b[2J"));
	CHECK_INT(config_load_ini(&c, "/", err, sizeof(err)), -1);
	CHECK_STR(err, "/: cannot read: Is a directory");
	CHECK_INT(load_text(&c, ""), 0);
	config_free(&c);

	CHECK_INT(config_init(&c), 0);
	CHECK_INT(parse(&c, ARGS("--max-pages", "abc")), -1);
	CHECK_STR(err,
	    "--max-pages: must be an integer from 0 to "
	    "1099511627776");
	CHECK_INT(parse(&c, ARGS("--max-pages", "")), -1);
	CHECK_INT(parse(&c, ARGS("--max-pages", "-1")), -1);
	CHECK_INT(parse(&c, ARGS("--delay-ms", "1e3")), -1);
	CHECK_INT(parse(&c, ARGS("--near-rule", "most")), -1);
	config_free(&c);
}

static void
test_cli_resolve(void)
{
	static const char *bad[] = {
		"host", "host:80", "host:80:", ":80:127.0.0.1",
		"host:0:127.0.0.1", "host:65536:127.0.0.1", "host:x:1.2.3.4",
		"host:-1:1.2.3.4", "host::1.2.3.4",
	};
	struct config c;
	size_t i;

	CHECK_INT(config_init(&c), 0);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK_INT(parse(&c, ARGS("--resolve", (char *)bad[i])), -1);
		CHECK_STR(err, "--resolve: expected HOST:PORT:ADDR");
	}
	CHECK_INT(c.nresolve, 0);
	CHECK_INT(parse(&c, ARGS("--resolve", "h:65535:10.0.0.1,10.0.0.2")),
	    0);
	CHECK_INT(parse(&c, ARGS("--resolve", "h:1:::1")), 0);
	CHECK_INT(c.nresolve, 2);
	CHECK_INT(load_text(&c, "[crawl]\nresolve = h:80\n"), -1);
	CHECK_STR(err, at("2: [crawl] resolve: expected HOST:PORT:ADDR"));
	config_free(&c);
}

static void
test_methods(void)
{
	struct config c;

	CHECK_INT(config_init(&c), 0);
	CHECK_INT(parse(&c, ARGS("--methods", "simhash")), 0);
	CHECK_INT(c.methods, DEDUP_MD5 | DEDUP_SIMHASH);
	CHECK_INT(parse(&c, ARGS("--methods", "ssdeep,md5")), 0);
	CHECK_INT(c.methods, DEDUP_MD5 | DEDUP_SSDEEP);
	CHECK_INT(parse(&c, ARGS("--methods", "md5,foo,simhash")), -1);
	CHECK_STR(err, "--methods: unknown method \"foo\" (known: md5, "
	    "simhash, ssdeep, minhash, tdw)");
	CHECK_INT(c.methods, DEDUP_MD5 | DEDUP_SSDEEP);
	CHECK_INT(parse(&c, ARGS("--methods", "tdw")), 0);
	CHECK_INT(c.methods, DEDUP_MD5 | DEDUP_TDW);
	config_free(&c);
}

static void
test_near_rule(void)
{
	struct dedup_config d;
	struct config c;

	CHECK_INT(config_init(&c), 0);
	config_dedup(&c, &d);
	CHECK_INT(d.rule, DEDUP_RULE_ANY);
	CHECK_INT(d.methods, DEDUP_MD5 | DEDUP_SIMHASH | DEDUP_MINHASH);
	CHECK_INT(d.simhash_k, 3);
	CHECK_INT(d.ssdeep_threshold, 90);
	CHECK_INT(parse(&c, ARGS("--near-rule", "most")), -1);
	CHECK_STR(err, "--near-rule: must be one of any, all, simhash, "
	    "ssdeep, minhash, tdw");
	CHECK_INT(parse(&c, ARGS("--near-rule", "all", "--min-text-bytes",
	    "50")), 0);
	config_dedup(&c, &d);
	CHECK_INT(d.rule, DEDUP_RULE_ALL);
	CHECK_INT(d.min_text, 50);
	/* ssdeep is not among the default methods. */
	CHECK_INT(parse(&c, ARGS("--near-rule", "ssdeep")), -1);
	CHECK_STR(err, "--near-rule ssdeep needs ssdeep in --methods");
	CHECK_INT(parse(&c, ARGS("--near-rule", "ssdeep", "--methods",
	    "md5,ssdeep", "--simhash-k", "5")), 0);
	config_dedup(&c, &d);
	CHECK_INT(d.rule, DEDUP_RULE_ONE);
	CHECK_INT(d.rule_method, DEDUP_SSDEEP);
	CHECK_INT(d.simhash_k, 5);
	/* The one method of the rule must be computed. */
	CHECK_INT(parse(&c, ARGS("--methods", "md5,simhash")), -1);
	CHECK_STR(err, "--near-rule ssdeep needs ssdeep in --methods");
	CHECK_INT(parse(&c, ARGS("--near-rule", "simhash")), 0);
	config_dedup(&c, &d);
	CHECK_INT(d.rule_method, DEDUP_SIMHASH);
	CHECK_INT(load_text(&c, "[dedup]\nmethods = md5\n"), 0);
	CHECK_INT(config_validate(&c, err, sizeof(err)), -1);
	CHECK_STR(err, "--near-rule simhash needs simhash in --methods");
	config_free(&c);
}

static void
test_minhash_settings(void)
{
	struct dedup_config d;
	struct config c;

	CHECK_INT(config_init(&c), 0);
	config_dedup(&c, &d);
	CHECK_INT(d.minhash_perms, 128);
	CHECK_INT(d.minhash_bands, 32);
	CHECK_INT(d.minhash_shingle, 3);
	CHECK_INT(d.minhash_threshold, 60);
	CHECK_INT(d.max_novel_words, -1);
	CHECK_INT(d.own_novelty, 1);
	CHECK_INT(d.max_novel_percent, 25);
	CHECK_INT(d.min_shingles, 20);
	CHECK_INT(d.fold_numbers, 0);
	CHECK_INT(parse(&c, ARGS("--methods", "md5,minhash", "--minhash-perms",
	    "64", "--minhash-bands", "16", "--minhash-shingle", "5",
	    "--minhash-threshold", "85", "--near-rule", "minhash")), 0);
	config_dedup(&c, &d);
	CHECK_INT(d.methods, DEDUP_MD5 | DEDUP_MINHASH);
	CHECK_INT(d.minhash_perms, 64);
	CHECK_INT(d.minhash_bands, 16);
	CHECK_INT(d.minhash_shingle, 5);
	CHECK_INT(d.minhash_threshold, 85);
	CHECK_INT(d.rule, DEDUP_RULE_ONE);
	CHECK_INT(d.rule_method, DEDUP_MINHASH);
	/* Bands must cut the signature into equal parts. */
	CHECK_INT(parse(&c, ARGS("--minhash-bands", "24")), -1);
	CHECK_STR(err, "--minhash-bands 24 does not divide --minhash-perms 64 (keys minhash_bands, minhash_perms)");
	CHECK_INT(load_text(&c, "[dedup]\nminhash_perms = 96\n"
	    "minhash_bands = 24\n"), 0);
	CHECK_INT(config_validate(&c, err, sizeof(err)), 0);
	CHECK_INT(parse(&c, ARGS("--minhash-perms", "4")), -1);
	CHECK_STR(err, "--minhash-perms: must be an integer from 8 to 512");
	CHECK_INT(parse(&c, ARGS("--minhash-threshold", "0")), -1);
	CHECK_INT(parse(&c, ARGS("--minhash-shingle", "9")), -1);
	/* The rule's method must be computed. */
	CHECK_INT(parse(&c, ARGS("--methods", "md5,simhash")), -1);
	CHECK_STR(err, "--near-rule minhash needs minhash in --methods");
	config_free(&c);
}

/* What the user gave, from a file or the command line, is kept; the rest
 * may be adopted from a database. */
static void
test_given_and_adopt(void)
{
	struct config c;
	char *v;

	CHECK_INT(config_init(&c), 0);
	CHECK_INT(config_given(&c, "simhash_k"), 0);
	CHECK_INT(config_given(&c, "no_such_key"), 0);
	CHECK_INT(load_text(&c, "[dedup]\nssdeep_threshold = 80\n"), 0);
	CHECK_INT(parse(&c, ARGS("--simhash-k", "5")), 0);
	CHECK_INT(config_given(&c, "simhash_k"), 1);
	CHECK_INT(config_given(&c, "ssdeep_threshold"), 1);
	CHECK_INT(config_given(&c, "methods"), 0);
	/* Given: left alone. Not given: set, and still not given. */
	CHECK_INT(config_adopt(&c, "simhash_k", "4", err, sizeof(err)), 0);
	CHECK_INT(c.simhash_k, 5);
	CHECK_INT(config_adopt(&c, "methods", "md5,simhash", err,
	    sizeof(err)), 1);
	CHECK_INT(c.methods, DEDUP_MD5 | DEDUP_SIMHASH);
	CHECK_INT(config_given(&c, "methods"), 0);
	CHECK_INT(config_adopt(&c, "tdw_stem", "true", err, sizeof(err)), 1);
	CHECK_INT(c.tdw_stem, 1);
	/* Checked as any value. */
	CHECK_INT(config_adopt(&c, "minhash_threshold", "0", err,
	    sizeof(err)), -1);
	CHECK_STR(err, "minhash_threshold: must be an integer from 1 to 100");
	CHECK_INT(config_adopt(&c, "no_such_key", "1", err, sizeof(err)), -1);
	CHECK_STR(err, "unknown setting no_such_key");
	/* Values as an INI file writes them, which meta holds. */
	v = config_value(&c, "methods");
	CHECK_STR(v != NULL ? v : "(null)", "md5,simhash");
	free(v);
	v = config_value(&c, "tdw_stem");
	CHECK_STR(v != NULL ? v : "(null)", "true");
	free(v);
	v = config_value(&c, "min_text_bytes");
	CHECK_STR(v != NULL ? v : "(null)", "0");
	free(v);
	CHECK(config_value(&c, "seed") == NULL);
	CHECK(config_value(&c, "no_such_key") == NULL);
	CHECK_STR(config_setting_of("simhash_k")->option, "simhash-k");
	CHECK(config_setting_of("no_such_key") == NULL);
	config_free(&c);
}

static void
test_tdw_settings(void)
{
	struct dedup_config d;
	struct config c;

	CHECK_INT(config_init(&c), 0);
	config_dedup(&c, &d);
	CHECK_INT(d.tdw_threshold, 75);
	CHECK_INT(d.tdw.stopwords, 0);
	CHECK_INT(d.tdw.stem, 0);
	CHECK_INT(d.tdw.max_tokens, 128);
	CHECK_INT(parse(&c, ARGS("--methods", "md5,tdw", "--near-rule", "tdw",
	    "--tdw-threshold", "60", "--tdw-stopwords", "--tdw-stem",
	    "--tdw-max-tokens", "256")), 0);
	config_dedup(&c, &d);
	CHECK_INT(d.methods, DEDUP_MD5 | DEDUP_TDW);
	CHECK_INT(d.rule, DEDUP_RULE_ONE);
	CHECK_INT(d.rule_method, DEDUP_TDW);
	CHECK_INT(d.tdw_threshold, 60);
	CHECK_INT(d.tdw.stopwords, 1);
	CHECK_INT(d.tdw.stem, 1);
	CHECK_INT(d.tdw.max_tokens, 256);
	CHECK_INT(parse(&c, ARGS("--tdw-threshold", "0")), -1);
	CHECK_STR(err, "--tdw-threshold: must be an integer from 1 to 100");
	CHECK_INT(parse(&c, ARGS("--tdw-max-tokens", "513")), -1);
	CHECK_STR(err, "--tdw-max-tokens: must be an integer from 8 to 512");
	CHECK_INT(load_text(&c, "[dedup]\ntdw_stem = no\n"), 0);
	CHECK_INT(c.tdw_stem, 0);
	CHECK_INT(parse(&c, ARGS("--methods", "md5,simhash")), -1);
	CHECK_STR(err, "--near-rule tdw needs tdw in --methods");
	config_free(&c);
}

static void
test_example_ini(void)
{
	const struct config_setting *s;
	struct config def, ex;
	char *want = NULL, *got = NULL, *d1, *d2, line[256];
	size_t wlen = 0, glen = 0, i;
	FILE *fp;

	/* The committed file is exactly what the table writes. */
	fp = open_memstream(&want, &wlen);
	CHECK(fp != NULL);
	if (fp == NULL)
		return;
	CHECK_INT(config_write_example(fp), 0);
	fclose(fp);
	fp = fopen("config/example.ini", "r");
	CHECK(fp != NULL);
	if (fp != NULL) {
		got = malloc(wlen + 2);
		CHECK(got != NULL);
		if (got != NULL) {
			glen = fread(got, 1, wlen + 1, fp);
			got[glen] = '\0';
			CHECK_INT(glen, wlen);
			CHECK_STR(got, want);
		}
		fclose(fp);
	}

	/* Every key is there with its default, lists as an example. */
	for (i = 0; (s = config_setting_at(i)) != NULL; i++) {
		if (s->def != NULL)
			snprintf(line, sizeof(line), "\n%s = %s\n", s->key,
			    s->def);
		else
			snprintf(line, sizeof(line), "\n; %s = ", s->key);
		if (strstr(want, line) == NULL) {
			CHECK(!"example.ini misses a key");
			fprintf(stderr, "  missing: %s\n", line + 1);
		}
	}
	CHECK(i > 20);

	/* Loading it gives exactly the defaults. */
	CHECK_INT(config_init(&def), 0);
	CHECK_INT(config_init(&ex), 0);
	CHECK_INT(config_load_ini(&ex, "config/example.ini", err,
	    sizeof(err)), 0);
	d1 = dump(&def);
	d2 = dump(&ex);
	CHECK(d1 != NULL && d2 != NULL);
	if (d1 != NULL && d2 != NULL)
		CHECK_STR(d2, d1);
	free(d1);
	free(d2);
	config_free(&def);
	config_free(&ex);
	free(want);
	free(got);
}

static void
test_dump_round_trip(void)
{
	struct config a, b;
	char *da, *db;
	FILE *fp;

	CHECK_INT(config_init(&a), 0);
	CHECK_INT(config_init(&b), 0);
	CHECK_INT(parse(&a, ARGS("http://s1/", "http://s2/", "-q",
	    "--allow-domain", "d.example", "--resolve", "h:443:1.2.3.4",
	    "--max-pages", "12", "--methods", "simhash", "--near-rule",
	    "simhash", "-d", "r.db", "--store-text")), 0);
	da = dump(&a);
	CHECK(da != NULL);
	CHECK(da != NULL && strstr(da, "methods = md5,simhash\n") != NULL);
	CHECK(da != NULL && strstr(da, "seed = http://s2/\n") != NULL);
	CHECK_INT(write_tmp(da ? da : ""), 0);
	CHECK_INT(config_load_ini(&b, path, err, sizeof(err)), 0);
	unlink(path);
	db = dump(&b);
	CHECK(da != NULL && db != NULL);
	if (da != NULL && db != NULL)
		CHECK_STR(db, da);
	/* Writing to a stream that fails is reported. */
	fp = fopen("/dev/full", "w");
	if (fp != NULL) {
		CHECK_INT(config_dump(&a, fp), -1);
		fclose(fp);
	}
	free(da);
	free(db);
	config_free(&a);
	config_free(&b);
}

static void
test_usage(void)
{
	const struct config_setting *s;
	char *text = NULL, *flat, opt[96];
	size_t len = 0, i, k;
	FILE *fp;

	fp = open_memstream(&text, &len);
	CHECK(fp != NULL);
	if (fp == NULL)
		return;
	config_usage(fp);
	fclose(fp);
	CHECK(strstr(text, "usage: nearcrawl crawl [-c FILE] [-d DB] "
	    "[options] [SEED_URL...]\n") == text);
	/* The text wrapped at 80 columns read as one line: a newline and
	 * the indent after it are one blank. */
	CHECK((flat = malloc(len + 1)) != NULL);
	if (flat == NULL) {
		free(text);
		return;
	}
	for (i = 0, k = 0; text[i] != '\0'; i++) {
		if (text[i] == '\n' && text[i + 1] == ' ') {
			flat[k++] = ' ';
			while (text[i + 1] == ' ')
				i++;
		} else {
			flat[k++] = text[i];
		}
	}
	flat[k] = '\0';
	CHECK(strstr(text, "-c, --config FILE") != NULL);
	CHECK(strstr(text, "-h, --help") != NULL);
	CHECK(strstr(text, "-q, --quiet") != NULL);
	CHECK(strstr(text, "-d, --db DB") != NULL);
	for (i = 0; (s = config_setting_at(i)) != NULL; i++) {
		if (s->option == NULL)
			continue;
		snprintf(opt, sizeof(opt), "--%s ", s->option);
		if (strstr(text, opt) == NULL) {
			snprintf(opt, sizeof(opt), "--%s\n", s->option);
			if (strstr(text, opt) == NULL) {
				CHECK(!"usage misses an option");
				fprintf(stderr, "  missing: --%s\n",
				    s->option);
			}
		}
		if (s->def != NULL) {
			snprintf(opt, sizeof(opt), "default %s", s->def);
			CHECK(strstr(flat, opt) != NULL);
		}
		/* Every option is accepted by the parser, too. */
	}
	CHECK(strstr(flat, "key max_links_per_page") != NULL);
	free(flat);
	free(text);
}

/* Every option of the table parses with its own default as argument. */
static void
test_every_option_parses(void)
{
	const struct config_setting *s;
	struct config c;
	char opt[80];
	size_t i;

	CHECK_INT(config_init(&c), 0);
	for (i = 0; (s = config_setting_at(i)) != NULL; i++) {
		if (s->option == NULL)
			continue;
		if (s->def == NULL || strcmp(s->def, "false") == 0)
			snprintf(opt, sizeof(opt), "--%s", s->option);
		else
			snprintf(opt, sizeof(opt), "--%s=%s", s->option,
			    s->def);
		if (s->def == NULL)
			CHECK_INT(parse(&c, ARGS(opt, strcmp(s->key,
			    "resolve") == 0 ? "h:1:a" : "x.example")), 0);
		else
			CHECK_INT(parse(&c, ARGS(opt)), 0);
		if (err[0] != '\0')
			fprintf(stderr, "  %s: %s\n", opt, err);
	}
	config_free(&c);
}

static void
test_trap_settings(void)
{
	struct config c;
	char *text = NULL;
	size_t len = 0;
	FILE *fp;

	CHECK_INT(config_init(&c), 0);
	CHECK_INT(load_text(&c,
	              "[crawl]\nstrip_params = utm_*, sid\n"
	              "max_query_variants = 50\n"),
	    0);
	CHECK_STR(c.strip_params, "utm_*, sid");
	CHECK_INT(c.max_query_variants, 50);
	CHECK_INT(parse(&c,
	              ARGS("--strip-params", "jsessionid",
	                  "--max-query-variants", "0")),
	    0);
	CHECK_STR(c.strip_params, "jsessionid");
	CHECK_INT(c.max_query_variants, 0);
	CHECK_INT(parse(&c, ARGS("--strip-params=none")), 0);
	CHECK_STR(c.strip_params, "none");
	/* A list the URL code could not read is refused up front. */
	CHECK_INT(parse(&c, ARGS("--strip-params", "a,,b")), -1);
	CHECK_STR(err, "--strip-params: an entry of the list is empty");
	CHECK_INT(parse(&c, ARGS("--strip-params", "ut*m")), -1);
	CHECK_STR(err, "--strip-params: '*' may only end a name");
	CHECK_INT(load_text(&c, "[crawl]\nstrip_params = a=b\n"), -1);
	CHECK_STR(err,
	    at("2: [crawl] strip_params: a name may not hold "
	       "blanks, controls or any of %&=;#?/"));
	CHECK_INT(parse(&c, ARGS("--max-query-variants", "-1")), -1);
	CHECK_STR(err,
	    "--max-query-variants: must be an integer from 0 to "
	    "1000000");
	/* The suggested list is shown where people look for it. */
	fp = open_memstream(&text, &len);
	CHECK(fp != NULL);
	if (fp != NULL) {
		config_usage(fp);
		fclose(fp);
		CHECK(strstr(text, "e.g. utm_*,sessionid,jsessionid,") != NULL);
	}
	free(text);
	config_free(&c);
}

void
suite_config(void)
{
	RUN(test_defaults);
	RUN(test_ini_types);
	RUN(test_ini_unknown);
	RUN(test_ini_bad_values);
	RUN(test_ini_syntax_and_files);
	RUN(test_cli_overrides_ini);
	RUN(test_cli_config_order);
	RUN(test_cli_lists_accumulate);
	RUN(test_cli_flags_and_short);
	RUN(test_cli_help);
	RUN(test_cli_errors);
	RUN(test_cli_resolve);
	RUN(test_ini_garbage);
	RUN(test_methods);
	RUN(test_near_rule);
	RUN(test_minhash_settings);
	RUN(test_tdw_settings);
	RUN(test_given_and_adopt);
	RUN(test_example_ini);
	RUN(test_dump_round_trip);
	RUN(test_usage);
	RUN(test_every_option_parses);
	RUN(test_trap_settings);
}
