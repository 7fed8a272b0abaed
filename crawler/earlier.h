/*
 * earlier: a crawl deduplicated against earlier crawls (docs/archives.md).
 *
 * --dedup-against DB names an earlier crawl's SQLite database, opened
 * read-only and never changed: the payloads its WARC files hold
 * (warc_payloads) make this crawl's identical responses revisit records
 * pointing into those files, and its pages' fingerprints, loaded into a
 * second set of indexes as a resume loads its own, tell whether a page
 * this crawl judges is new, the same as before (its text, or its bytes)
 * or near a page of before. --dedup-against-cdx FILE names a CDXJ index
 * of WARC files written by anyone: its captures' payload digests make
 * revisit records too (it holds no text, so it tells "same" by bytes
 * only). None of this changes the crawl's own verdicts, links followed
 * or coverage: only what is archived, and the earlier table.
 */
#ifndef NC_CRAWL_EARLIER_H
#define NC_CRAWL_EARLIER_H

#include "crawler/state.h"
#include "storage/store_archive.h"

/* An earlier crawl's record of a payload. */
struct earlier_ref {
	const char *crawl;      /* the earlier crawl as given (not owned) */
	struct store_payload p; /* its record: URI, date, where (owned) */
};

/* How a judged page stands to the earlier crawls, made before its row is
 * stored and recorded with it. */
struct earlier_rel {
	struct store_earlier e;   /* the row; its strings point below */
	char *url;                /* the earlier page's URL, owned */
	char date[WARC_DATE_LEN]; /* its date */
	int judged;               /* 1: there are earlier crawls to judge by */
};

/*
 * Open the earlier crawls the settings name into c->earlier (left NULL
 * when there are none), before anything is fetched: each database
 * read-only, its fingerprints loaded (unless it was judged with other
 * settings: then its payloads alone count, and the crawl says so), each
 * CDXJ file read whole. 0; 2 with c->err for a file that is missing, not
 * a nearcrawl database (or is this crawl's own), a PostgreSQL database,
 * a malformed CDXJ line, --dedup-against-cdx without --warc; 1 on a
 * database failure or out of memory.
 */
int earlier_open(struct crawl *c);

/*
 * Where an earlier crawl archived a response with payload digest, the
 * databases first, in the order given, then the CDXJ files. 1 with *r
 * set (free it with earlier_ref_free), 0 when none did, -1 with c->err on
 * a database failure or out of memory.
 */
int earlier_payload(struct crawl *c, const char *digest,
    struct earlier_ref *r);

/* Free what r owns; a zeroed r is fine. */
void earlier_ref_free(struct earlier_ref *r);

/*
 * How j's digested page (j->work, before judge_page changes its shingle
 * set) stands to the earlier crawls, into *r: the same text as a page of
 * one (md5), else the same payload (j->warc_digest), else near a page of
 * one by the crawl's own near rule, else new. Nothing when c has no
 * earlier crawls (r->judged 0). 0, or -1 with c->err set.
 */
int earlier_judge(struct crawl *c, const struct job *j,
    struct earlier_rel *r);

/* Store r for page id (nothing when not judged) and free it. 0, or -1. */
int earlier_record(struct crawl *c, int64_t id, struct earlier_rel *r);

/* Free r without storing it. */
void earlier_rel_free(struct earlier_rel *r);

/* Close the earlier crawls; NULL c->earlier is fine. */
void earlier_close(struct crawl *c);

#endif
