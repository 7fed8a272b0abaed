/*
 * crawl: the pipeline -- frontier -> fetch -> extract -> dedup -> store --
 * run on one event loop until the frontier is exhausted, a limit is reached
 * or the user stops it.
 *
 * An existing database is resumed: its frontier, fingerprints and counters
 * load back, and URLs that were in flight when it stopped are queued again.
 * The settings that decide verdicts (methods, thresholds, rule, scope) are
 * stored in the database; resuming with different ones is refused.
 */
#ifndef NC_CRAWL_H
#define NC_CRAWL_H

#include <stdint.h>

#include "config/config.h"
#include "dedup/dedup.h"
#include "storage/store.h"
#include "storage/store_visits.h"
#include "util/threadcpu.h"

/*
 * Where a crawl's time went, in milliseconds summed over the pages of this
 * run. Transfers overlap one another and the other stages; extraction and
 * fingerprints run on worker threads, beside the loop.
 */
struct crawl_stages {
	int64_t pages;         /* HTML pages extracted */
	double transfer_ms;    /* transfers, request to last byte */
	double extract_ms;     /* HTML parse, text, fields, links */
	double fingerprint_ms; /* MD5, SimHash, ssdeep */
	double lookup_ms;      /* near-duplicate index lookups and inserts */
	double store_ms;       /* SQLite: rows, queueing links, commits */
	int threads;           /* worker threads */
	int cpu_read;          /* cpu below was read (Linux /proc) */
	struct threadcpu cpu;  /* loop thread, workers, the rest: CPU s */
};

/* What the trap defences kept out of the frontier in one run. Stripped
 * and too-long links count each time a page has them; links left out by
 * path or query cap count once while the crawl's memory of settled links
 * holds them. */
struct crawl_traps {
	int64_t stripped; /* links queued without --strip-params parameters */
	int64_t trapped;  /* links left out: repeated or too many segments */
	int64_t capped;   /* new links left out: --max-query-variants */
	int64_t too_long; /* links left out: longer than URL_MAX_LEN */
	int64_t patterned; /* links left out by --accept/--reject-regex */
	int64_t dropped;  /* queued URLs they drop (patterns changed on a
	                     resume), settled as skipped */
};

struct crawl_summary {
	struct store_counts counts; /* the database's counts at the end */
	int64_t fetched;            /* pages fetched by this run */
	int64_t status[6];          /* of them by HTTP status class: [0] no
	                               answer, [2] 2xx ... [5] 5xx */
	int64_t bytes;              /* body bytes they brought, decoded */
	int64_t robots_fetches;     /* robots.txt requests by this run */
	int64_t hosts_given_up;     /* hosts retired after failures */
	struct crawl_traps traps;   /* links the trap defences handled */
	double seconds;             /* wall time of this run */
	int interrupted;            /* stopped by a signal */
	int saturated;              /* stopped by --stop-when-saturated */
	int limited;                /* --max-pages reached */
	struct crawl_stages stages; /* where the time went */
	int counted;                /* counts could be read */
	int db_lost;                /* the run failed on a lost connection to
	                               its database server (and the counts
	                               could not be read): a resume goes on */
	int64_t indexed;            /* pages in the fingerprint indexes */
	uint64_t index_bytes;       /* memory those indexes hold */
	uint64_t method_bytes[DEDUP_METHODS]; /* of it, per dedup_method_at */
	int visit;                  /* the visit: 1 the first crawl, 2 ... */
	int64_t outcomes[STORE_OUTCOME_NEW + 1]; /* a recrawl's findings */
	int64_t verdicts_moved;     /* changed pages with another verdict */
};

/*
 * Crawl with cfg. Returns 0 when the crawl ended normally or was stopped by
 * SIGINT/SIGTERM, --max-pages or saturation with everything saved (sum
 * says which: crawl_stopped_early); 1 on a run-time failure (database
 * write error, full disk, damage met in the data, out of memory, a
 * database server away longer than --db-retry-s: committed batches kept);
 * 2 when cfg or the database is unusable (not ours, newer,
 * read-only, locked, settings conflict, no seeds for a new crawl), with the
 * file untouched, or removed when this run created it. On 1 and 2 a
 * message is in err (print it through esc.h). sum is filled whenever the database could be opened;
 * counts only when counted is set (a damaged file may not allow it).
 * A PostgreSQL crawl whose connection to the server is lost waits for
 * the server and goes on by itself, for up to --db-retry-s
 * (crawler/reconnect.h); sum then adds up the runs on each connection.
 */
int crawl_run(const struct config *cfg, struct crawl_summary *sum, char *err,
    size_t errsz);

/*
 * Whether a run that returned 0 stopped with work left that a plain resume
 * would do: a signal, the saturation stop, or --max-pages with URLs still
 * queued. Not when what is left waits on given-up hosts (a resume would
 * not take it up: --retry-given-up does). sum->counts must be read.
 */
int crawl_stopped_early(const struct crawl_summary *sum);

/*
 * Before crawl_run on an existing database: the settings the database was
 * crawled with (its meta rows) become cfg's wherever the user gave none
 * (config_given), so `nearcrawl crawl -d DB` alone resumes with all of
 * them (User-Agent, delays, --resolve, TLS options, ...; not the per-run
 * ones, config_per_run) and a resume keeps its dedup settings when
 * defaults change between versions. Dedup settings given still must
 * match, as crawl_run checks; other settings given replace the stored
 * ones, and crawl_run says which. A database that cannot be read is left
 * to crawl_run to report. Tells on stderr (unless cfg->quiet) which
 * adopted values differ from the defaults, and (always) when a stored
 * --proxy lost its credentials. Returns 0, or 2 with err when a stored
 * value is refused (with cfg->force_settings a dedup one is skipped, and
 * crawl_run replaces it) or the settings together are not valid.
 */
int crawl_adopt_settings(struct config *cfg, char *err, size_t errsz);

#endif
