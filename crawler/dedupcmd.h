/*
 * dedupcmd: `nearcrawl dedup` -- the pages of WARC files judged as a crawl
 * judges the pages it fetches, with no transfer made: the crawl's parts
 * run in the archive mode (CRAWL_ARCHIVE), which has no seeds, no scope
 * and queues no links.
 */
#ifndef NC_CRAWL_DEDUPCMD_H
#define NC_CRAWL_DEDUPCMD_H

#include "crawler/crawl.h"

/* What `nearcrawl dedup` did (dedupcmd_run). */
struct dedupcmd_summary {
	struct store_counts counts; /* the database's counts at the end */
	int counted;                /* counts could be read */
	int64_t files;              /* files read */
	int64_t records;            /* WARC records read, skipped ones too */
	int64_t pages;              /* rows written by this run */
	int64_t repeated;           /* records left out: their URL and date
	                               were stored already */
	int64_t damaged;            /* damaged records (each an error row),
	                               records cut short by a file's end
	                               among them */
	int64_t unread;             /* files that could not be read whole
	                               (each an error row too) */
	double seconds;             /* wall time of this run */
	int interrupted;            /* stopped by a signal */
	struct crawl_stages stages; /* where the time went */
};

/*
 * `nearcrawl dedup`: the pages held in WARC files (nfiles paths) judged,
 * in file and record order, as a crawl with cfg judges fetched ones, into
 * cfg->db (pages, duplicates ..., seq the record order), so that report,
 * rank and export work on it unchanged. HTML responses and resource
 * records are digested as pages, WET conversion records as plain text;
 * other responses become redirect, error or skipped rows; a revisit
 * record takes the status of its own HTTP head, and a 2xx one is an exact
 * duplicate of the row of the URL it refers to; a damaged record is an
 * error row that says where it is, and the run goes on; so does a file
 * that cannot be read (an error row). Rows are committed every
 * --batch-pages rows or 2 seconds. A rerun resumes after the records
 * already stored. Returns 0, or 1 on a run-time failure (a file that
 * could not be read whole: everything else is stored; a database write:
 * what was committed stays), or 2 when cfg or the database is unusable,
 * or a file given is no web archive, with err set.
 */
int dedupcmd_run(const struct config *cfg, char *const *files, size_t nfiles,
    struct dedupcmd_summary *sum, char *err, size_t errsz);

#endif
