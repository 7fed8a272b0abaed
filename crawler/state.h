/*
 * state: the crawl's shared state -- the struct every part of the crawl
 * works on, one transfer's job, a page on its way through a worker -- and
 * the few operations on it that every part needs: failing or stopping the
 * crawl, committing the batch, the running counts, the stage times, the
 * progress line, a pages row's common fields, counting a host's pages.
 * The lowest file of the crawl: it calls none of the others but the host
 * scheduler. Its functions carry the struct's name (crawl_), each other
 * file of the folder its own prefix (frontier_, polite_, page_, ...), and
 * each part's state in struct crawl is a group that part alone writes.
 * The files, lowest first (scripts/check-layers.py holds this list to the
 * folder's):
 *
 *   crawler/hostsched.c    which host may be asked next, and when
 *   crawler/robotscache.c  what each origin's robots.txt says, kept a day
 *   crawler/state.c        this file's functions: fail, stop, count, progress
 *   crawler/frontier.c     queueing URLs: scope, patterns, traps, query cap
 *   crawler/linkrule.c     whether a page's links are followed; queues them
 *   crawler/judge.c        a digested page's verdict; the stored-set cache
 *   crawler/share.c        one crawl, several processes: leases, locks
 *   crawler/indexload.c    stored pages back into the indexes
 *   crawler/fprow.c        which store column holds which fingerprint
 *   crawler/polite.c       robots.txt, sitemaps, Retry-After, back-off
 *   crawler/earlier.c      earlier crawls: their payloads, new/same/near
 *   crawler/warcout.c      the WARC archive of what was fetched
 *   crawler/revisit.c      a recrawl: conditional requests, visits rows
 *   crawler/page.c         a fetched page new to the crawl: row, links
 *   crawler/settings.c     the settings kept with the crawl
 *   crawler/setup.c        opening, scope, resume, seeds
 *   crawler/reconnect.c    a lost database connection: the wait for it
 *   crawler/loop.c         the event loop: the one place transfers start
 *   crawler/dedupcmd.c     nearcrawl dedup: WARC files' pages, no fetch
 */
#ifndef NC_CRAWL_STATE_H
#define NC_CRAWL_STATE_H

#include "crawler/crawl.h"
#include "util/clock.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <curl/curl.h>
#include <event2/event.h>

#include "archive/warc.h"
#include "crawler/hostsched.h"
#include "crawler/robotscache.h"
#include "dedup/dedup.h"
#include "digest/digest.h"
#include "storage/store_frontier.h"
#include "storage/store_visits.h"
#include "util/seen.h"
#include "util/strmap.h"
#include "util/workpool.h"
#include "web/extract.h"
#include "web/fetch.h"
#include "web/sitemap.h"
#include "web/url.h"
#include "web/urlfilter.h"

/* Seconds between commits of a batch that is not full yet. */
#define COMMIT_EVERY_S 2.0
/* Seconds between progress lines. */
#define PROGRESS_EVERY_S 5.0
/* Seconds a graceful stop waits for transfers in flight. */
#define STOP_GRACE_S 5
/* Longest host name we handle (DNS allows 253). */
#define HOST_MAX 256
/* Longest origin: scheme, host, port. */
#define ORIGIN_MAX (HOST_MAX + 16)
/* Redirects followed when fetching robots.txt (RFC 9309: at least five). */
#define ROBOTS_REDIRECTS 5
/* Redirects in a row a page may take before it counts as an error (as in
 * browsers); each is queued and fetched like a link. */
#define REDIRECTS_MAX 20
/* Sitemap files read per host at most (an index may list many). */
#define SITEMAPS_PER_HOST 100
/* Slots (2^this, 8 bytes each) remembering links lately settled. */
#define SETTLED_BITS 18
/* Longest Retry-After we wait for, seconds. */
#define RETRY_AFTER_MAX_S 3600

/* Failures kept word for word, to say why a crawl fetched nothing. */
#define FAILS_KEPT 8

struct crawl_share;
struct dedupcmd;
struct earlier;

/*
 * Where a run's pages come from. A crawl and a recrawl fetch them; the
 * dedup command (crawler/dedupcmd.c) reads them from WARC files: it has no
 * seeds, no scope, makes no transfer and queues no links.
 */
enum crawl_mode {
	CRAWL_FETCH,  /* crawl_run: a crawl, a recrawl, a shared crawl */
	CRAWL_ARCHIVE /* dedupcmd_run: pages read from WARC files */
};

/* Stored shingle sets kept decoded (struct crawl's sets). */
#define CRAWL_SET_CACHE 16

/*
 * The crawl's state. A field or group is written in one file only, named
 * in its comment (scripts/check-layers.py checks it); the other files
 * read it. The parts made once and read by all stay at the top.
 */
struct crawl {
	/* The run: crawler/state.c (crawl_init). */
	const struct config *cfg; /* the settings, read only */
	enum crawl_mode mode;    /* fetching pages, or reading archived ones */
	char *err;               /* where messages go */
	size_t errsz;            /* its size */
	double started;          /* monotonic ms */

	/* The parts every file uses: crawler/setup.c (setup_prepare); freed
	 * by loop_teardown. */
	struct store *st;        /* the database */
	struct dedup *dd;        /* the duplicate indexes */
	struct tmpl *site;       /* each site's template, as learnt */
	struct hostsched *sc;    /* which host may be asked next */

	/* Parts of their own files, NULL when the run has none. */
	struct crawl_share *share; /* other processes crawl this database
	                              too: crawler/share.c */
	struct warc_writer *warc; /* --warc: the archive, crawler/warcout.c */
	struct earlier *earlier; /* --dedup-against: the earlier crawls,
	                            crawler/earlier.c */
	struct dedupcmd *dedupcmd; /* CRAWL_ARCHIVE: the dedup command's run,
	                              crawler/dedupcmd.c */

	/* What is crawled: crawler/setup.c. */
	struct {
		char **seeds;    /* the seeds, normalised (check_seeds) */
		size_t nseeds;   /* their number */
		char **domains;  /* crawl scope */
		size_t ndomains; /* their number */
	} scope;

	/* The event loop and what runs on it: crawler/loop.c. */
	struct {
		struct event_base *base; /* libevent's loop */
		struct fetcher *fe;    /* the transfers (crawl_run only) */
		struct workpool *pool; /* extraction and fingerprints off the
		                          loop */
		struct event *wake;    /* the scheduler's next due time */
		struct event *tick;    /* progress and periodic commits */
		struct event *grace;   /* end of a graceful stop */
		struct event *sigint, *sigterm; /* a graceful stop */
		struct curl_slist *resolve; /* --resolve entries for libcurl */
		int threads;           /* worker threads */
		int done;              /* nothing left to do: leave the loop */
		size_t max_transfers;  /* transfers at once: --concurrency, or
		                          fewer when file descriptors are short */
		double fd_pause_until; /* monotonic ms: no transfer starts
		                          before, after running out of
		                          descriptors with none in flight */
		int fd_said;           /* running out of descriptors was said */
	} loop;

	/* What the frontier leaves out: crawler/frontier.c. */
	struct {
		const char *strip;   /* --strip-params list, NULL for none */
		struct urlfilter_patterns *patterns; /* --accept-regex and
		                        --reject-regex, NULL for none */
		struct seen *settled; /* links lately queued or refused */
		struct crawl_traps traps; /* what the trap defences did this
		                             run */
	} frontier;

	/* Politeness: crawler/polite.c. */
	struct {
		struct robotscache *rc;  /* robots.txt per origin */
		struct strmap *sitemaps; /* host -> struct sitemap_queue
		                            (--sitemaps) */
		int64_t robots_fetches;  /* robots.txt requests made by this
		                            run */
		int64_t hosts_given_up;  /* hosts retired after repeated
		                            failures */
	} polite;

	/* The last pages' stored sets read back: crawler/judge.c. A listing
	 * is the linker of its items, and an original the candidate of its
	 * copies, page after page. */
	struct {
		struct {
			int64_t id;      /* 0: empty */
			struct shingles_ref ref; /* its set, decoded */
		} kept[CRAWL_SET_CACHE];
		unsigned next;           /* the entry to replace next */
	} sets;

	/* --stop-when-saturated W:R: crawler/page.c. */
	struct {
		unsigned char *ring; /* last window judged pages: 1 = unique */
		long window;         /* W, 0 when off */
		double share;        /* R */
		int64_t seen;        /* judged pages noted */
		long unique;         /* unique pages in the ring */
		int saturated;       /* the saturation stop ended the crawl */
	} sat;

	/* This run's fetches: crawler/page.c (page_intake). */
	struct {
		int64_t fetched;     /* pages fetched */
		int64_t status[6];   /* by status class */
		int64_t bytes;       /* and their body bytes */
	} tally;

	/* The recrawl: crawler/revisit.c. */
	struct {
		int visit;           /* the visit under way: 1 the first crawl,
		                        2, 3 ... each --recrawl */
		int64_t outcomes[STORE_OUTCOME_NEW + 1]; /* what this run's
		                        revisits found, by outcome */
		int64_t verdicts_moved; /* changed pages whose verdict
		                           changed */
	} recrawl;

	/* The database as this run keeps it: crawler/state.c. */
	struct {
		struct store_counts n; /* its counts, kept running */
		int64_t seq;         /* last fetch order number used */
		int batch;           /* pages in the open transaction */
		double last_commit;  /* monotonic ms */
	} db;

	/* Where the time went: crawler/state.c (crawl_count_stages,
	 * crawl_count_store); its threads are loop.threads. */
	struct crawl_stages stages;

	/* How the run ends: crawler/state.c (crawl_stop, crawl_fail). */
	struct {
		int stopping;        /* 1: start nothing new (a signal, the
		                        saturation stop), 2: at once */
		int failed;          /* a run-time error ended the crawl */
	} end;

	/* The progress line: crawler/state.c (crawl_progress). */
	struct {
		int tty;             /* stderr is a terminal: live progress */
		int progress_shown;  /* a progress line is on the terminal */
		double last_progress; /* monotonic ms */
	} term;

	/* Failures noted, to say why a crawl fetched nothing:
	 * crawler/state.c (crawl_note_failure). */
	struct {
		char *kept[FAILS_KEPT]; /* the first failures of this run */
		int64_t n;           /* failures noted, kept or not */
	} fails;
};

/*
 * A fetched HTML page on its way through a worker: what the transfer gave
 * (copied, since the transfer is gone by then) and what the worker made.
 * The worker writes only here; the loop thread reads it after the pool
 * hands the job back.
 */
struct page_work {
	struct buf body;          /* the body, taken over from the transfer;
	                             freed by the worker once extracted */
	size_t body_len;          /* its length */
	long status;              /* HTTP status */
	char *content_type;       /* Content-Type or NULL; owned */
	char *x_robots_tag;       /* X-Robots-Tag or NULL; owned */
	char *link;               /* the Link headers or NULL; owned */
	char *etag;               /* ETag or NULL; owned */
	char *last_modified;      /* Last-Modified or NULL; owned */
	char *link_canonical;     /* their rel=canonical, resolved, or NULL;
	                             owned, set by the worker */
	double elapsed_ms;        /* the transfer's time */
	int plain;                /* the body is plain text, not HTML (a WET
	                             conversion record): kept while dg
	                             points into it */
	struct digest dg;         /* extraction, near text, fingerprints */
	const char *why;          /* digesting failed: why (static) */
	int extracted;            /* dg is valid */
	int links_cut;            /* the page had more links than the cap */
	int nofollow;             /* its links are not to be followed: it
	                             says so (markup, X-Robots-Tag), or no
	                             links are taken at all */
	double extract_ms;        /* time spent extracting */
	double fingerprint_ms;    /* time spent fingerprinting */
};

/*
 * What a transfer fetches, which decides where its result goes. Set where
 * the job is made (a page or sitemap taken for a host, a robots.txt fetch
 * made of it) and, for a revisit, when its transfer starts.
 */
enum job_kind {
	JOB_PAGE,    /* a queued URL: it.url (in a recrawl, one the crawl
	                had becomes a revisit when its transfer starts) */
	JOB_REVISIT, /* a queued URL a recrawl had before: it.url, prior */
	JOB_SITEMAP, /* a sitemap file of the host's: it.url */
	JOB_ROBOTS   /* origin's robots.txt */
};

/* One transfer's context. */
struct job {
	struct crawl *c;
	enum job_kind kind;      /* what it fetches */
	struct store_item it;    /* the page (not for robots.txt) */
	char host[HOST_MAX];
	char origin[ORIGIN_MAX]; /* JOB_ROBOTS: whose robots.txt */
	double fetched_at;       /* when it was fetched (Unix), 0: now */
	struct store_prior *prior; /* JOB_REVISIT: the page as the crawl had
	                              it (owned); else NULL */
	struct page_work *work;  /* an HTML page in the pool, or NULL */
	char warc_id[WARC_ID_LEN]; /* its response's record in the archive,
	                              "" when none */
	char warc_digest[WARC_DIGEST_LEN]; /* that response's payload
	                              digest, "" when none (crawler/warcout.c) */
	const char *note;        /* CRAWL_ARCHIVE: what its row's reason
	                            says besides (the record's, say how its
	                            body was read), or NULL; the caller's */
};

/* Sitemap files still to read for one host, taken in its own turns. */
struct sitemap_queue {
	char **url;   /* files not yet fetched, oldest first */
	size_t n;     /* entries in url */
	size_t seen;  /* files ever queued, capped at SITEMAPS_PER_HOST */
};

/*
 * c made empty for a run with cfg in mode, messages into err (errsz
 * bytes), its clocks started; setup_prepare makes its parts, and
 * loop_teardown frees them.
 */
void crawl_init(struct crawl *c, const struct config *cfg,
    enum crawl_mode mode, char *err, size_t errsz);

/* End the crawl with what failed and the database's message. */
void crawl_fail(struct crawl *c, const char *what);

/* End the crawl as failed where c->err already says why (a part that
 * reports its own failure, as warcout_close does). */
void crawl_fail_said(struct crawl *c);

/* Stop the crawl: start nothing new and let what is in flight end (now
 * 0: a signal, the saturation stop), or at once (now 1). Never undoes a
 * stop at once. */
void crawl_stop(struct crawl *c, int now);

/* End the crawl with what failed and why ("WHAT: WHY" in c->err, unless
 * an earlier failure said its own). */
void crawl_fail_because(struct crawl *c, const char *what, const char *why);

/* Commit the open batch and begin the next; 0, or -1 (crawl_fail'ed). */
int crawl_commit(struct crawl *c);

/* One more page in the open batch: commit when the batch is full (after
 * every page when the crawl is shared, to let go of its locks). */
void crawl_batch_page(struct crawl *c);

/* The database's counts and its last fetch order number, read into
 * c->db at the start of a run. 0, or -1 on a database error. */
int crawl_load_counts(struct crawl *c);

/* One more row in the database, judged v, for the progress line. */
void crawl_count_verdict(struct crawl *c, enum store_verdict v);

/* n more URLs queued for this run to fetch (fewer when negative). */
void crawl_count_queued(struct crawl *c, int64_t n);

/* Fetch order numbers up to seq are used (by another process of a shared
 * crawl): the next row numbers after them. */
void crawl_seq_past(struct crawl *c, int64_t seq);

/* The pages --max-pages counts: the database's, but in a recrawl, whose
 * pages have their rows already, this run's fetches. */
int64_t crawl_limit_counted(const struct crawl *c);

/* Print the progress line when one is due at now (monotonic ms): every
 * tick on a terminal, every PROGRESS_EVERY_S to a file, never with
 * --quiet. */
void crawl_progress(struct crawl *c, double now);

/* Leave the terminal's progress line before other output. */
void crawl_end_progress(struct crawl *c);

/* ms more spent on the database outside a page's own rows (reading the
 * frontier), into the run's stages. */
void crawl_count_store(struct crawl *c, double ms);

/* Where a digested page's time went, into the run's stages: the workers'
 * (w) and the loop's own, its index lookups and its storing. */
void crawl_count_stages(struct crawl *c, const struct page_work *w,
    double lookup_ms, double store_ms);

/* The CPU time of the loop's thread, the workers and the rest so far,
 * into the run's stages: read while the workers still run, since an
 * exited thread's time is no longer its own. */
void crawl_count_cpu(struct crawl *c);

/* A pages row for j's URL, numbered next in fetch order. */
void crawl_new_row(struct crawl *c, const struct job *j, struct store_page *p);

/* Free a job and whatever it holds (NULL is fine). */
void crawl_job_free(struct job *j);

/* The site whose template a page of host shares (see state.c). */
const char *crawl_site_of(const struct crawl *c, const char *host);

/* Note a failure (what: a URL or a host; why), so that a crawl that
 * fetched nothing can say why. Never fails: past FAILS_KEPT or without
 * memory it is only counted. */
void crawl_note_failure(struct crawl *c, const char *what, const char *why);

/*
 * A crawl that ended with nothing but errors in its database: print the
 * failures noted on stderr, set c->err and return 1. Otherwise 0.
 */
int crawl_nothing_fetched(struct crawl *c);

/* One more page settled for host; retires it at --max-pages-per-host. */
void crawl_count_page(struct crawl *c, const char *host);

#endif
