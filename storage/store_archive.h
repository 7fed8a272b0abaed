/*
 * store_archive: what a crawl writing WARC files keeps in the database --
 * the first response archived with each payload digest, so that a later
 * one with the same payload becomes a revisit record -- and the lookups
 * WARC records need: a page's URL for the record that names it as an
 * original, a URL's page for records read back in (`nearcrawl dedup`) --
 * and a page's relation to earlier crawls (storage/store_archive.c).
 */
#ifndef NC_STORE_ARCHIVE_H
#define NC_STORE_ARCHIVE_H

#include <stdint.h>

#include "storage/store.h"

/* Where an archived payload's first response is, as store_payload_where
 * reads it; the strings are owned (store_payload_free). */
struct store_payload {
	char *url;       /* its WARC-Target-URI */
	char *date;      /* its WARC-Date */
	char *file;      /* base name of its WARC file; NULL when not kept */
	int64_t offset;  /* of its record in file; -1 when not kept */
	char *record_id; /* its WARC-Record-ID; NULL when not kept */
};

/*
 * Archives: the first response archived with payload digest (a WARC
 * "sha1:..." digest) and where its record is, for a revisit record of
 * this crawl or a later one (s may be an earlier crawl's database opened
 * read-only; one older than the file columns gives them as not kept). A
 * database without the table finds nothing. 1 found, 0 not (*p zeroed,
 * offset -1), -1 on error.
 */
int store_payload_where(struct store *s, const char *digest,
    struct store_payload *p);

/* Free p's strings and zero it; a zeroed p is fine. */
void store_payload_free(struct store_payload *p);

/* Page id's URL (a copy the caller frees) and fetch time. 1 found, 0
 * not (*url NULL), -1 on error. */
int store_page_url(struct store *s, int64_t id, char **url,
    double *fetched_at);

/* The pages.id of url, 0 when it has no row, -1 on error. */
int64_t store_page_by_url(struct store *s, const char *url);

/* Remember that the response of url archived at date had payload digest,
 * in record record_id at offset of WARC file file (the first one stays).
 * Sent with the open transaction. 0, or -1. */
int store_payload_add(struct store *s, const char *digest, const char *url,
    const char *date, const char *file, int64_t offset,
    const char *record_id);

/* How a page of a crawl with earlier crawls stands to them (the earlier
 * table, docs/archives.md). */
struct store_earlier {
	const char *relation; /* "new", "same" or "near" */
	const char *crawl;    /* the earlier crawl as given; NULL for new */
	const char *url;      /* the earlier page's URL, or NULL */
	const char *date;     /* its WARC-Date, or NULL */
	const char *method;   /* what matched: md5, payload, a near method */
	double percent;       /* similarity, 100 for the same */
};

/* Record e for page id, with the open transaction (the first row for a
 * page stays). 0, or -1. */
int store_earlier_add(struct store *s, int64_t id,
    const struct store_earlier *e);

#endif
