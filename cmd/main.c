/*
 * nearcrawl: a polite web crawler that finds exact and near-duplicate pages
 * while it crawls. This file only dispatches subcommands; the work is in the
 * modules.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <curl/curl.h>
#include <libxml/parser.h>

#include "cmd/check.h"
#include "cmd/compare.h"
#include "cmd/eval.h"
#include "cmd/export.h"
#include "cmd/indexcmd.h"
#include "cmd/rank.h"
#include "cmd/report.h"
#include "cmd/search.h"
#include "cmd/serve.h"
#include "cmd/textcmd.h"
#include "config/cmdopt.h"
#include "config/config.h"
#include "crawler/crawl.h"
#include "crawler/dedupcmd.h"
#include "util/buf.h"
#include "util/esc.h"
#include "web/robots.h"
#include "web/url.h"

/* Exit statuses (docs/robustness.md, "Exit status"; README.md). */
/* 3: a crawl stopped with work left (a signal, --max-pages, saturation),
 * which a plain resume goes on with. */
enum { EXIT_DONE = 0, EXIT_RUNTIME = 1, EXIT_USAGE = 2, EXIT_STOPPED = 3 };

/*
 * "nearcrawl: MSG" on stderr. Messages quote untrusted text (file names,
 * URLs, server and database text, config lines), so all of it is escaped.
 */
static void
say(const char *msg)
{
	fputs("nearcrawl: ", stderr);
	esc_fputs(msg, stderr);
	putc('\n', stderr);
}

static void
usage(FILE *out)
{
	fprintf(out,
	    "usage: nearcrawl COMMAND [ARGS]\n"
	    "\n"
	    "commands:\n"
	    "  crawl  [-c FILE] [-d DB] [options] [SEED_URL...]\n"
	    "         crawl from the seeds (or resume DB), classifying every\n"
	    "         page as unique, exact or near duplicate\n"
	    "  report -d DB [-o DIR] [--hosts N] [--quiet]\n"
	    "         index.html tying together plots (growth, per host,\n"
	    "         similarity), hosts, clusters and a summary, with their\n"
	    "         CSV files; DIR defaults to DB.report (also mid-crawl)\n"
	    "  serve  -d DB [--port N] [--addr A] [--refresh S] [--quiet]\n"
	    "         a local web view of the crawl, read-only, also while it\n"
	    "         runs: summary and plots, search with copies folded,\n"
	    "         clusters with every member, a page beside its original\n"
	    "         with its new words marked, hosts and robots.txt\n"
	    "  rank   -d DB [--damping D] [--iterations N] [--epsilon E]\n"
	    "         [--top N] [--quiet]\n"
	    "         PageRank over the crawled links; the best-ranked page\n"
	    "         of each duplicate cluster becomes its canonical\n"
	    "  export -d DB [--format csv|jsonl] [-o FILE] [--clusters]\n"
	    "         every page (verdict, original, canonical) or every\n"
	    "         duplicate cluster as CSV or JSON Lines\n"
	    "  search -d DB [--all] [--k K] [--limit N] [--format F] QUERY\n"
	    "         the pages whose text matches QUERY, best first, each\n"
	    "         with its exact and near copies folded under it;\n"
	    "         --queries FILE runs the query-biased paper's experiment\n"
	    "  index  -d DB [--warc PATH]...\n"
	    "         give a database crawled before the search index its\n"
	    "         index (or finish one), from its WARC files or stored text\n"
	    "  eval   --docs DIR --pairs FILE [--methods L]\n"
	    "         [--thresholds M=L] [--text main|body|both] [--by-class]\n"
	    "         [-c FILE] [--csv]\n"
	    "         precision, recall, F1 and time per page of every method\n"
	    "         and threshold on labelled document pairs\n"
	    "  eval   -d DB --groups FILE [--csv]\n"
	    "         the same of a crawl's verdicts against a group file\n"
	    "  compare [-c FILE] [options] A B\n"
	    "         how alike files or URLs A and B are by every method,\n"
	    "         and the verdict a crawl would give B after A (takes the\n"
	    "         crawl's [dedup] options)\n"
	    "  text   [--main|--body] [--charset L] [options] FILE|URL\n"
	    "         print the page's main text (default) or body text, one\n"
	    "         block per line\n"
	    "  dedup  [-c FILE] [-d DB] [options] FILE.warc[.gz]...\n"
	    "         judge the pages of WARC or ARC files (nearcrawl's,\n"
	    "         wget's, Heritrix's, WET) in record order as a crawl would, into\n"
	    "         DB (takes the crawl's [dedup] options; a rerun resumes)\n"
	    "  check  -d DB [--warc DIR|none]\n"
	    "         whether the database is sound: the file itself, every\n"
	    "         near or exact page's duplicates row, seq without gaps,\n"
	    "         nothing left in flight, the WARC files against their\n"
	    "         CDXJ indexes and the pages (exit 1 with the problems)\n"
	    "  robots FILE AGENT URL\n"
	    "         print whether robots.txt FILE allows AGENT to fetch URL\n"
	    "         (exit 0 allowed, 1 disallowed)\n"
	    "  man    print this manual as a man page (troff; make installs it "
	    "as nearcrawl.1)\n"
	    "  help [COMMAND]\n"
	    "         this text, or COMMAND --help (`help crawl` lists the "
	    "crawl's options)\n"
	    "\n"
	    "exit status: 0 done, 1 failed at run time, 2 bad usage or "
	    "configuration,\n"
	    "3 crawl stopped with work left (a signal, --max-pages, "
	    "saturation): resume it\n");
}

/*
 * Where the time went, per HTML page: the transfer (overlapping everything
 * else), then the stages on the worker threads and on the loop's thread.
 */
static void
print_stages(const struct crawl_stages *t)
{
	double n = (double)t->pages;

	if (t->pages == 0)
		return;
	fprintf(stderr, "nearcrawl: ms per page: transfer %.2f | workers (%d): "
	    "extract %.3f, fingerprints %.3f | loop: index lookups %.3f, "
	    "database and queueing %.3f\n", t->transfer_ms / n, t->threads,
	    t->extract_ms / n, t->fingerprint_ms / n, t->lookup_ms / n,
	    t->store_ms / n);
	/* Whether one thread held the others up: the loop's own CPU against
	 * the workers' and the wall time. */
	if (t->cpu_read)
		fprintf(stderr, "nearcrawl: cpu s: loop %.2f user %.2f sys | "
		    "workers (%d) %.2f user %.2f sys | other %.2f user %.2f "
		    "sys\n", t->cpu.self.user, t->cpu.self.sys, t->cpu.nnamed,
		    t->cpu.named.user, t->cpu.named.sys, t->cpu.other.user,
		    t->cpu.other.sys);
}

/* The closing lines of a crawl that could read its database. */
static void
print_summary(const struct config *cfg, const struct crawl_summary *sum,
    int rc)
{
	const struct store_counts *n = &sum->counts;
	size_t i;

	fprintf(stderr,
	    "nearcrawl: %s: %lld pages fetched in %.1f s (%.1f/s); "
	    "database has %lld pages: unique %lld, exact %lld, "
	    "near %lld, redirect %lld, error %lld, skipped %lld; "
	    "%lld queued\n",
	    sum->interrupted ? "stopped" : rc ? "failed"
	    : sum->saturated ? "saturated"
	    : crawl_stopped_early(sum) ? "stopped at --max-pages" : "done",
	    (long long)sum->fetched, sum->seconds,
	    sum->seconds > 0 ? (double)sum->fetched / sum->seconds : 0.0,
	    (long long)n->pages, (long long)n->unique,
	    (long long)n->exact, (long long)n->near,
	    (long long)n->redirect, (long long)n->error,
	    (long long)n->skipped, (long long)n->queued);
	if (sum->fetched > 0) {
		double mb = (double)sum->bytes / 1e6;

		fprintf(stderr, "nearcrawl: this run: HTTP 2xx %lld, 3xx %lld, "
		    "4xx %lld, 5xx %lld, no answer %lld; %.*f MB downloaded\n",
		    (long long)sum->status[2], (long long)sum->status[3],
		    (long long)sum->status[4], (long long)sum->status[5],
		    (long long)(sum->status[0] + sum->status[1]),
		    mb < 10 ? 2 : 1, mb);
	}
	if (cfg->verbose)
		print_stages(&sum->stages);
	if (sum->visit > 1)
		fprintf(stderr, "nearcrawl: visit %d, this run: unchanged %lld, "
		    "changed %lld (%lld with another verdict), gone %lld, "
		    "moved %lld, error %lld, new %lld\n", sum->visit,
		    (long long)sum->outcomes[STORE_OUTCOME_UNCHANGED],
		    (long long)sum->outcomes[STORE_OUTCOME_CHANGED],
		    (long long)sum->verdicts_moved,
		    (long long)sum->outcomes[STORE_OUTCOME_GONE],
		    (long long)sum->outcomes[STORE_OUTCOME_MOVED],
		    (long long)sum->outcomes[STORE_OUTCOME_ERROR],
		    (long long)sum->outcomes[STORE_OUTCOME_NEW]);
	if (sum->traps.stripped > 0 || sum->traps.trapped > 0 ||
	    sum->traps.capped > 0 || sum->traps.too_long > 0)
		fprintf(stderr,
		    "nearcrawl: trap defences: %lld links "
		    "stripped of parameters; left out: %lld with a "
		    "trap-like path, %lld over --max-query-variants, "
		    "%lld too long\n",
		    (long long)sum->traps.stripped,
		    (long long)sum->traps.trapped,
		    (long long)sum->traps.capped,
		    (long long)sum->traps.too_long);
	if (sum->traps.patterned > 0 || sum->traps.dropped > 0)
		fprintf(stderr, "nearcrawl: --accept-regex/--reject-regex: "
		    "%lld links left out, %lld queued URLs dropped (kept as "
		    "skipped)\n", (long long)sum->traps.patterned,
		    (long long)sum->traps.dropped);
	if (sum->indexed > 0 && cfg->verbose)
		fprintf(stderr, "nearcrawl: index bytes: %llu for %lld "
		    "pages (%.0f bytes/page)\n",
		    (unsigned long long)sum->index_bytes,
		    (long long)sum->indexed,
		    (double)sum->index_bytes / (double)sum->indexed);
	if (sum->indexed > 0 && cfg->verbose) {
		/* Where those bytes are, so a change to one index shows. */
		fputs("nearcrawl: index bytes/page by method:", stderr);
		for (i = 0; i < DEDUP_METHODS; i++)
			if (sum->method_bytes[i] > 0)
				fprintf(stderr, " %s %.0f",
				    dedup_method_at(i)->name,
				    (double)sum->method_bytes[i] /
				    (double)sum->indexed);
		putc('\n', stderr);
	}
	if (sum->hosts_given_up > 0)
		fprintf(stderr, "nearcrawl: %lld hosts given up (why: "
		    "SELECT host, gave_up FROM hosts; another chance: "
		    "--retry-given-up on a resume)\n",
		    (long long)sum->hosts_given_up);
	if (n->queued > 0 || n->inflight > 0) {
		fputs("nearcrawl: resume with: nearcrawl crawl -d ",
		    stderr);
		esc_fputs(cfg->db, stderr);
		/* The limit is stored with the crawl: name the way past it. */
		if (cfg->max_pages > 0 && n->max_seq >= cfg->max_pages)
			fprintf(stderr, " --max-pages N (more than %lld; 0 for "
			    "no limit)", (long long)cfg->max_pages);
		putc('\n', stderr);
	}
}

/*
 * cfg set up and read from argv as `crawl` reads its options (-c FILE
 * included): config_parse_crawl_args's result (0, 1 for --help, or -1
 * with err), or -2 when out of memory, said here; cfg is to be freed
 * with config_free except after -2.
 */
static int
load_config(struct config *cfg, int argc, char **argv, char *err,
    size_t errsz)
{
	if (config_init(cfg) != 0) {
		fprintf(stderr, "nearcrawl: out of memory\n");
		return -2;
	}
	return config_parse_crawl_args(cfg, argc, argv, err, errsz);
}

static int
cmd_crawl(int argc, char **argv)
{
	struct config cfg;
	struct crawl_summary sum;
	char err[1024];
	int rc;

	if ((rc = load_config(&cfg, argc, argv, err, sizeof(err))) == -2)
		return EXIT_RUNTIME;
	if (rc == 1) {
		config_usage(stdout);
		config_free(&cfg);
		return EXIT_DONE;
	}
	if (rc != 0) {
		say(err);
		fprintf(stderr, "try `nearcrawl crawl --help'\n");
		config_free(&cfg);
		return EXIT_USAGE;
	}
	memset(&sum, 0, sizeof(sum));
	rc = crawl_adopt_settings(&cfg, err, sizeof(err));
	/* After the stored settings: a resumed crawl has its own agent. */
	if (rc == 0 && strcmp(cfg.user_agent, CONFIG_DEFAULT_USER_AGENT) == 0 &&
	    !cfg.quiet)
		fprintf(stderr, "nearcrawl: crawling as \"%s\"; please set "
		    "--user-agent with a contact (URL or mailto) for the "
		    "sites' administrators\n", cfg.user_agent);
	if (rc == 0)
		rc = crawl_run(&cfg, &sum, err, sizeof(err));
	if (rc != 0)
		say(err);
	if (rc != EXIT_USAGE && !sum.counted) {
		/* Nothing to say about the database: it could not be read. */
		fprintf(stderr,
		    "nearcrawl: failed: %lld pages fetched in %.1f s\n",
		    (long long)sum.fetched, sum.seconds);
		/* Its server went away: what was committed waits there. */
		if (sum.db_lost) {
			fputs("nearcrawl: resume with: nearcrawl crawl -d ",
			    stderr);
			esc_fputs(cfg.db, stderr);
			putc('\n', stderr);
		}
	} else if (rc != EXIT_USAGE) {
		print_summary(&cfg, &sum, rc);
	}
	config_free(&cfg);
	if (rc == EXIT_DONE && crawl_stopped_early(&sum))
		return EXIT_STOPPED;
	return rc;
}

/*
 * `nearcrawl dedup`: the crawl's options, the files where a crawl has its
 * seeds.
 */
static int
cmd_dedup(int argc, char **argv)
{
	struct config cfg;
	struct dedupcmd_summary sum;
	const struct store_counts *n = &sum.counts;
	char err[1024], **files = NULL;
	size_t nfiles;
	int rc;

	if ((rc = load_config(&cfg, argc, argv, err, sizeof(err))) == -2)
		return EXIT_RUNTIME;
	if (rc == 1) {
		static const char *const parts[] = { "dedup", "storage",
			NULL };

		printf("usage: nearcrawl dedup [-c FILE] [-d DB] [options] "
		    "FILE.warc[.gz]...\n"
		    "Judge the pages of WARC files (gzipped or not; WET and ARC "
		    "files too) in\nrecord order, as a crawl judges the pages it "
		    "fetches, into DB; a rerun resumes.\nExit status: 0 done, "
		    "1 failed at run time (a file that cannot be read is\nan "
		    "error row, and the others are judged), 2 bad usage or a "
		    "file that is not\nWARC or ARC. Of the crawl's options these "
		    "matter (and --threads "
		    "N, -c FILE):\n");
		config_usage_sections(stdout, parts);
		config_free(&cfg);
		return EXIT_DONE;
	}
	if (rc == 0 && cfg.nseeds == 0) {
		snprintf(err, sizeof(err), "no WARC file given");
		rc = -1;
	}
	if (rc != 0) {
		say(err);
		fprintf(stderr, "try `nearcrawl dedup --help'\n");
		config_free(&cfg);
		return EXIT_USAGE;
	}
	/* The files are not seeds: take them away from the settings. */
	files = cfg.seeds;
	nfiles = cfg.nseeds;
	cfg.seeds = NULL;
	cfg.nseeds = 0;
	memset(&sum, 0, sizeof(sum));
	rc = crawl_adopt_settings(&cfg, err, sizeof(err));
	if (rc == 0)
		rc = dedupcmd_run(&cfg, files, nfiles, &sum, err, sizeof(err));
	if (rc != 0)
		say(err);
	if (rc != EXIT_USAGE && sum.counted) {
		fprintf(stderr,
		    "nearcrawl: dedup %s: %lld files, %lld records read, %lld "
		    "pages stored in %.1f s (%.1f pages/s); %lld damaged "
		    "records, %lld repeated captures left out\n"
		    "nearcrawl: database has %lld pages: unique %lld, exact "
		    "%lld, near %lld, redirect %lld, error %lld, skipped %lld\n",
		    sum.interrupted ? "stopped" : rc ? "failed" : "done",
		    (long long)sum.files, (long long)sum.records,
		    (long long)sum.pages, sum.seconds,
		    sum.seconds > 0 ? (double)sum.pages / sum.seconds : 0.0,
		    (long long)sum.damaged, (long long)sum.repeated,
		    (long long)n->pages, (long long)n->unique,
		    (long long)n->exact, (long long)n->near,
		    (long long)n->redirect, (long long)n->error,
		    (long long)n->skipped);
		print_stages(&sum.stages);
	}
	while (nfiles > 0)
		free(files[--nfiles]);
	free(files);
	config_free(&cfg);
	return rc;
}

/* A number option's value: the whole of v, within [lo, hi]. */
static int
number_arg(const char *v, double lo, double hi, double *out)
{
	char *end;
	double d;

	if (v == NULL || *v == '\0')
		return -1;
	d = strtod(v, &end);
	if (*end != '\0' || !(d >= lo && d <= hi))
		return -1;
	*out = d;
	return 0;
}

static void
report_usage(FILE *out)
{
	fprintf(out,
	    "usage: nearcrawl report -d DB [-o DIR] [--hosts N] [-q|--quiet]\n"
	    "Write a crawl's report into DIR: index.html (one page with the "
	    "summary,\n"
	    "the plots, the hosts and the largest duplicate clusters; it opens "
	    "offline),\n"
	    "growth, growth-time, hosts, similarity and share plots (.svg, .png, "
	    ".gp),\ngrowth.csv, growth-time.csv, share.csv, hosts.csv, "
	    "clusters.csv, similarity.csv\nand summary.txt.\n"
	    "  -d DB      the crawl's database (read-only; a crawl may be "
	    "running)\n"
	    "  -o DIR     where to write (made like mkdir -p); default: "
	    "DB.report next to\n"
	    "             the database\n"
	    "  --hosts N  busiest hosts drawn in hosts.svg (1 to %d, default "
	    "%d)\n"
	    "  -q, --quiet  print nothing but errors\n",
	    REPORT_HOSTS_MAX, REPORT_HOSTS_DEFAULT);
}

static int
cmd_report(int argc, char **argv)
{
	struct report_opts o;
	const char *db = NULL, *dir = NULL;
	char err[1024], *made = NULL;
	double v;
	int i, rc;

	memset(&o, 0, sizeof(o));
	o.hosts = REPORT_HOSTS_DEFAULT;
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-h") == 0 ||
		    strcmp(argv[i], "--help") == 0) {
			report_usage(stdout);
			return EXIT_DONE;
		}
		if (strcmp(argv[i], "-d") == 0 && i + 1 < argc)
			db = argv[++i];
		else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc)
			dir = argv[++i];
		else if (strcmp(argv[i], "--hosts") == 0 && i + 1 < argc &&
		    number_arg(argv[i + 1], 1, REPORT_HOSTS_MAX, &v) == 0 &&
		    v == (int)v) {
			o.hosts = (int)v;
			i++;
		} else if ((strcmp(argv[i], "--quiet") == 0 ||
		    strcmp(argv[i], "-q") == 0))
			o.quiet = 1;
		else
			break;
	}
	if (i < argc || db == NULL) {
		if (i < argc) {
			fputs("nearcrawl: report: bad or unknown argument `",
			    stderr);
			esc_fputs(argv[i], stderr);
			fputs("'\n", stderr);
		}
		report_usage(stderr);
		return EXIT_USAGE;
	}
	if (dir == NULL) {
		/* Beside the database, where the user will look for it. */
		if ((made = malloc(strlen(db) + sizeof(".report"))) == NULL) {
			fprintf(stderr, "nearcrawl: out of memory\n");
			return EXIT_RUNTIME;
		}
		strcpy(made, db);
		strcat(made, ".report");
		dir = made;
		if (!o.quiet) {
			fputs("nearcrawl: no -o given: writing the report "
			    "into ", stderr);
			esc_fputs(dir, stderr);
			putc('\n', stderr);
		}
	}
	if ((rc = report_write(db, dir, &o, err, sizeof(err))) != 0)
		say(err);
	free(made);
	return rc;
}

static int
cmd_rank(int argc, char **argv)
{
	static const char use[] = "usage: nearcrawl rank -d DB [--damping D] "
	    "[--iterations N] [--epsilon E]\n"
	    "                      [--top N] [-q|--quiet]\n"
	    "  --damping D     share of a page's score that follows its links\n"
	    "                  (0 to 0.99, default 0.85)\n"
	    "  --iterations N  most rounds (1 to 100000, default 100)\n"
	    "  --epsilon E     stop once a round changes all scores by less "
	    "in sum\n"
	    "                  (default 1e-6)\n"
	    "  --top N         pages listed, best first (0 to 100, default "
	    "5)\n";
	struct rank_opts o;
	const char *db = NULL;
	char err[1024];
	double v;
	int i, quiet = 0, rc;

	rank_opts_default(&o);
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-h") == 0 ||
		    strcmp(argv[i], "--help") == 0) {
			fputs(use, stdout);
			return EXIT_DONE;
		}
		if ((strcmp(argv[i], "--quiet") == 0 ||
		    strcmp(argv[i], "-q") == 0)) {
			quiet = 1;
			continue;
		}
		if (i + 1 >= argc)
			break;
		if (strcmp(argv[i], "-d") == 0)
			db = argv[++i];
		else if (strcmp(argv[i], "--damping") == 0 &&
		    number_arg(argv[i + 1], 0, 0.99, &o.damping) == 0)
			i++;
		else if (strcmp(argv[i], "--iterations") == 0 &&
		    number_arg(argv[i + 1], 1, 100000, &v) == 0 &&
		    v == (int)v) {
			o.max_iter = (int)v;
			i++;
		} else if (strcmp(argv[i], "--epsilon") == 0 &&
		    number_arg(argv[i + 1], 0, 1, &o.epsilon) == 0)
			i++;
		else if (strcmp(argv[i], "--top") == 0 &&
		    number_arg(argv[i + 1], 0, 100, &v) == 0 && v == (int)v) {
			o.top = (int)v;
			i++;
		} else
			break;
	}
	if (i < argc || db == NULL) {
		if (i < argc)
			fprintf(stderr, "nearcrawl: rank: bad or unknown "
			    "argument `%s'\n", argv[i]);
		fputs(use, stderr);
		return EXIT_USAGE;
	}
	if ((rc = rank_run(db, &o, quiet ? NULL : stdout, err,
	    sizeof(err))) != 0)
		fprintf(stderr, "nearcrawl: %s\n", err);
	return rc;
}

static int
cmd_eval(int argc, char **argv)
{
	struct eval_opts o;
	char err[1024];
	int rc;

	rc = eval_parse_args(argc, argv, &o, err, sizeof(err));
	if (rc == 1) {
		eval_usage(stdout);
		return EXIT_DONE;
	}
	if (rc != 0) {
		fprintf(stderr, "nearcrawl: eval: %s\n"
		    "try `nearcrawl eval --help'\n", err);
		return EXIT_USAGE;
	}
	if ((rc = eval_run(&o, stdout, err, sizeof(err))) != 0)
		fprintf(stderr, "nearcrawl: %s\n", err);
	return rc;
}

static int
cmd_compare(int argc, char **argv)
{
	struct config cfg;
	char err[1024];
	int rc;

	if ((rc = load_config(&cfg, argc, argv, err, sizeof(err))) == -2)
		return EXIT_RUNTIME;
	if (rc == 1) {
		static const char *const parts[] = { "dedup", NULL };

		printf("usage: nearcrawl compare [-c FILE] [options] A B\n"
		    "Judge B as a crawl that fetched A, then B, would: each "
		    "method's similarity,\nthe candidate and its source, B's "
		    "own and new words against the share\n(docs/dedup.md, "
		    "\"What near means\") and the verdict. A and B are files or\n"
		    "http(s) URLs; given as URLs, A is B's linker when it links "
		    "to B. Exit status:\n0 judged (whatever the verdict), 1 a "
		    "document could not be read, 2 bad usage.\nThe options "
		    "that matter:\n");
		config_usage_sections(stdout, parts);
		rc = EXIT_DONE;
	} else if (rc != 0 || cfg.nseeds != 2) {
		say(rc != 0 ? err : "compare needs two documents");
		fprintf(stderr, "usage: nearcrawl compare [options] A B\n");
		rc = EXIT_USAGE;
	} else {
		rc = compare_run(&cfg, cfg.seeds[0], cfg.seeds[1], stdout,
		    err, sizeof(err));
		if (rc != 0)
			say(err);
	}
	config_free(&cfg);
	return rc;
}


static void
text_usage(FILE *out)
{
	fprintf(out,
	    "usage: nearcrawl text [--main|--body] [--charset LABEL] "
	    "[-c FILE] [options]\n"
	    "                      FILE|URL\n"
	    "Print the text nearcrawl extracts from an HTML file or http(s) "
	    "URL, UTF-8,\n"
	    "one block (paragraph, heading, list item, table cell, line "
	    "broken by <br>)\n"
	    "per line, white space inside a block collapsed to single "
	    "spaces.\n"
	    "  --main  exactly what the near-duplicate methods read with "
	    "--text main\n"
	    "          (default): the main content, without the site's "
	    "template, or\n"
	    "          the body text when the main content has fewer "
	    "distinct word\n"
	    "          3-shingles than --min-shingles (said on stderr)\n"
	    "  --body  the whole purified body text: what MD5 reads "
	    "(with each line\n"
	    "          break read as a space)\n"
	    "  --charset LABEL  decode the page as LABEL when no "
	    "Content-Type names\n"
	    "          one (a file): before its <meta> charset\n"
	    "Other options are those of `nearcrawl crawl --help' "
	    "(--resolve,\n"
	    "--user-agent, --max-text, --min-shingles... matter).\n");
}

static int
cmd_text(int argc, char **argv)
{
	enum textcmd_which which = TEXTCMD_MAIN;
	const char *charset = NULL;
	struct config cfg;
	char err[1024], **args;
	int rc, i, n = 0;

	if ((args = calloc((size_t)argc + 1, sizeof(*args))) == NULL) {
		fprintf(stderr, "nearcrawl: out of memory\n");
		return EXIT_RUNTIME;
	}
	/* --main and --body are this command's; the rest are the crawl's. */
	for (i = 0; i < argc; i++) {
		if (i > 0 && strcmp(argv[i], "--main") == 0)
			which = TEXTCMD_MAIN;
		else if (i > 0 && strcmp(argv[i], "--body") == 0)
			which = TEXTCMD_BODY;
		else if (i > 0 && strcmp(argv[i], "--charset") == 0 &&
		    i + 1 < argc)
			charset = argv[++i];
		else
			args[n++] = argv[i];
	}
	if ((rc = load_config(&cfg, n, args, err, sizeof(err))) == -2) {
		free(args);
		return EXIT_RUNTIME;
	}
	if (rc == 1) {
		text_usage(stdout);
		rc = EXIT_DONE;
	} else if (rc != 0 || cfg.nseeds != 1) {
		say(rc != 0 ? err : "text needs one file or URL");
		text_usage(stderr);
		rc = EXIT_USAGE;
	} else {
		rc = textcmd_run(&cfg, cfg.seeds[0], which, charset, stdout,
		    err, sizeof(err));
		if (rc != 0)
			say(err);
	}
	config_free(&cfg);
	free(args);
	return rc;
}

/* The path and query of a normalised URL ("/" at least). */
static const char *
path_of(const char *url)
{
	const char *p = strstr(url, "://");

	p = p != NULL ? strchr(p + 3, '/') : NULL;
	return p != NULL ? p : "/";
}

static const char robots_use[] =
    "usage: nearcrawl robots FILE AGENT URL\n"
    "Print whether robots.txt FILE allows user-agent AGENT to fetch URL "
    "(RFC 9309):\n"
    "exit 0 allowed, 1 disallowed, 2 bad usage or input.\n";

static int
cmd_robots(int argc, char **argv)
{
	struct buf b;
	struct robots *r = NULL;
	char token[64], msg[1024], *url = NULL;
	const char *why;
	int rc = EXIT_USAGE, ok;

	if (argc == 2 && (strcmp(argv[1], "--help") == 0 ||
	    strcmp(argv[1], "-h") == 0)) {
		printf("%s", robots_use);
		return EXIT_DONE;
	}
	if (argc != 4) {
		fputs(robots_use, stderr);
		return EXIT_USAGE;
	}
	buf_init(&b, ROBOTS_MAX_BYTES);
	/* Past the parse limit nothing more is read. */
	if (buf_read_file(&b, argv[1], 1) != BUF_OK) {
		snprintf(msg, sizeof(msg), "%s: cannot read", argv[1]);
		say(msg);
		goto out;
	}
	if (robots_product_token(argv[2], token, sizeof(token)) != 0) {
		snprintf(
		    msg, sizeof(msg), "%s: not a user-agent token", argv[2]);
		say(msg);
		goto out;
	}
	if ((url = url_normalize(argv[3], &why)) == NULL) {
		snprintf(msg, sizeof(msg), "%s: %s", argv[3], why);
		say(msg);
		goto out;
	}
	if ((r = robots_parse(b.data != NULL ? b.data : "", b.len,
	         token)) == NULL) {
		fprintf(stderr, "nearcrawl: out of memory\n");
		rc = EXIT_RUNTIME;
		goto out;
	}
	ok = robots_allowed(r, path_of(url));
	printf("%s\n", ok ? "allowed" : "disallowed");
	rc = ok ? 0 : 1;
out:
	robots_free(r);
	free(url);
	buf_free(&b);
	return rc;
}

/*
 * The manual page, troff: the command list is usage()'s text and the
 * options are the settings table (config_man_options), so that neither
 * can disagree with --help. `make` writes it to nearcrawl.1.
 */
static int
man_page(FILE *out)
{
	char *text = NULL, *p;
	size_t len = 0;
	FILE *m;

	if ((m = open_memstream(&text, &len)) == NULL)
		return EXIT_RUNTIME;
	usage(m);
	fclose(m);
	fprintf(out, ".TH NEARCRAWL 1 \"\" \"nearcrawl %s\" \"User Commands\"\n"
	    ".SH NAME\nnearcrawl \\- a polite web crawler that tells unique "
	    "pages from exact and near duplicates\n"
	    ".SH SYNOPSIS\n\\fBnearcrawl\\fR \\fICOMMAND\\fR [\\fIARGS\\fR]\n"
	    ".SH DESCRIPTION\nnearcrawl fetches the pages of the configured "
	    "domains politely (robots.txt, a delay and a connection limit "
	    "per host, Retry-After, back-off), extracts each page's main "
	    "text, and judges it against every page seen before: an exact "
	    "copy (MD5), a near copy (docs/dedup.md, \"What near means\"), or "
	    "unique. Pages, fingerprints and duplicate relations go to SQLite "
	    "(or PostgreSQL); a crawl resumes where it stopped, even after "
	    "kill \\-9.\n.SH COMMANDS\n.nf\n", NEARCRAWL_VERSION);
	/* usage()'s text, preformatted; a backslash or leading dot
	 * escaped. */
	for (p = text; p != NULL && *p != '\0'; p++) {
		if ((p == text || p[-1] == '\n') && (*p == '.' || *p == '\''))
			fputs("\\&", out);
		if (*p == '\\')
			fputs("\\e", out);
		else
			fputc(*p, out);
	}
	free(text);
	fputs(".fi\n.SH OPTIONS\nThe options of \\fBcrawl\\fR; \\fBdedup\\fR "
	    "and \\fBcompare\\fR take the [dedup] and [storage] ones. Each is "
	    "also a key of an INI file given with \\fB\\-c\\fR \\fIFILE\\fR "
	    "(config/example.ini lists them all); the command line wins.\n"
	    ".TP\n\\fB\\-c\\fR, \\fB\\-\\-config\\fR \\fIFILE\\fR\nRead "
	    "settings from this INI file first.\n"
	    ".TP\n\\fB\\-h\\fR, \\fB\\-\\-help\\fR\nPrint the help and "
	    "exit.\n", out);
	config_man_options(out);
	fputs(".SH SEARCH AND INDEX OPTIONS\n", out);
	cmdopt_man(out);
	fputs(".SH EXIT STATUS\n.TP\n0\nDone: the crawl has nothing left to "
	    "fetch.\n.TP\n1\nFailed at run time (a full disk, a write error, "
	    "damage met in the data, out of memory); every committed batch "
	    "is kept.\n.TP\n2\nBad usage, settings or database: refused "
	    "before anything was done.\n.TP\n3\nA crawl stopped with work "
	    "left, everything saved (SIGINT or SIGTERM, \\-\\-max\\-pages, "
	    "\\-\\-stop\\-when\\-saturated): a plain resume goes on.\n"
	    ".SH EXAMPLES\n.nf\nnearcrawl crawl \\-d uni.db \\-\\-allow\\-domain "
	    "uni.example \\-\\-delay 1 https://www.uni.example/\n"
	    "nearcrawl crawl \\-d uni.db        # resume\n"
	    "nearcrawl report \\-d uni.db \\-o report\n"
	    "nearcrawl serve \\-d uni.db     # then open http://127.0.0.1:8077/\n"
	    "nearcrawl compare https://a.example/x https://a.example/x?print=1\n"
	    ".fi\n.SH SEE ALSO\nwget2(1), curl(1); the project's README.md and "
	    "docs/ (dedup.md, politeness.md, robustness.md).\n", out);
	return ferror(out) ? EXIT_RUNTIME : EXIT_DONE;
}

int
main(int argc, char **argv)
{
	int rc;

	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	/* `help COMMAND` is `COMMAND --help`. */
	if (strcmp(argv[1], "help") == 0 && argc == 3) {
		char *again[3] = { argv[0], argv[2], "--help" };

		return main(3, again);
	}
	if (strcmp(argv[1], "help") == 0 || strcmp(argv[1], "--help") == 0 ||
	    strcmp(argv[1], "-h") == 0) {
		usage(stdout);
		return EXIT_DONE;
	}
	if (strcmp(argv[1], "man") == 0)
		return man_page(stdout);
	if (strcmp(argv[1], "--version") == 0) {
		printf("nearcrawl %s\n", NEARCRAWL_VERSION);
		return EXIT_DONE;
	}
	if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
		fprintf(stderr, "nearcrawl: cannot initialise libcurl\n");
		return EXIT_RUNTIME;
	}
	xmlInitParser();
	if (strcmp(argv[1], "crawl") == 0) {
		rc = cmd_crawl(argc - 1, argv + 1);
	} else if (strcmp(argv[1], "report") == 0) {
		rc = cmd_report(argc - 1, argv + 1);
	} else if (strcmp(argv[1], "eval") == 0) {
		rc = cmd_eval(argc - 1, argv + 1);
	} else if (strcmp(argv[1], "serve") == 0) {
		rc = serve_main(argc - 1, argv + 1);
	} else if (strcmp(argv[1], "export") == 0) {
		rc = export_main(argc - 1, argv + 1);
	} else if (strcmp(argv[1], "rank") == 0) {
		rc = cmd_rank(argc - 1, argv + 1);
	} else if (strcmp(argv[1], "compare") == 0) {
		rc = cmd_compare(argc - 1, argv + 1);
	} else if (strcmp(argv[1], "text") == 0) {
		rc = cmd_text(argc - 1, argv + 1);
	} else if (strcmp(argv[1], "robots") == 0) {
		rc = cmd_robots(argc - 1, argv + 1);
	} else if (strcmp(argv[1], "dedup") == 0) {
		rc = cmd_dedup(argc - 1, argv + 1);
	} else if (strcmp(argv[1], "search") == 0) {
		rc = search_main(argc - 1, argv + 1);
	} else if (strcmp(argv[1], "index") == 0) {
		rc = indexcmd_main(argc - 1, argv + 1);
	} else if (strcmp(argv[1], "check") == 0) {
		rc = check_main(argc - 1, argv + 1);
	} else {
		fputs("nearcrawl: unknown command `", stderr);
		esc_fputs(argv[1], stderr);
		fputs("'\n", stderr);
		usage(stderr);
		rc = EXIT_USAGE;
	}
	xmlCleanupParser();
	curl_global_cleanup();
	return rc;
}
