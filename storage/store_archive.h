/*
 * store_archive: what a crawl writing WARC files keeps in the database --
 * the first response archived with each payload digest, so that a later
 * one with the same payload becomes a revisit record -- and the lookups
 * WARC records need: a page's URL for the record that names it as an
 * original, a URL's page for records read back in (`nearcrawl dedup`)
 * (storage/store_archive.c).
 */
#ifndef NC_STORE_ARCHIVE_H
#define NC_STORE_ARCHIVE_H

#include <stdint.h>

#include "storage/store.h"

/*
 * Archives: the first response archived with payload digest (a WARC
 * "sha1:..." digest): *url and *date (its WARC-Target-URI and WARC-Date)
 * are set to copies the caller frees. 1 found, 0 not (*url, *date NULL),
 * -1 on error.
 */
int store_payload_find(struct store *s, const char *digest, char **url,
    char **date);

/* Page id's URL (a copy the caller frees) and fetch time. 1 found, 0
 * not (*url NULL), -1 on error. */
int store_page_url(struct store *s, int64_t id, char **url,
    double *fetched_at);

/* The pages.id of url, 0 when it has no row, -1 on error. */
int64_t store_page_by_url(struct store *s, const char *url);

/* Remember that the response of url archived at date had payload digest
 * (the first one stays). Sent with the open transaction. 0, or -1. */
int store_payload_add(struct store *s, const char *digest, const char *url,
    const char *date);

#endif
