/*
 * store_pages: what a crawl records of each page besides its pages row
 * (storage/store.h) -- the duplicates rows, the lineage and fruitful marks
 * the link rule reads, redirect chains, and the link graph `nearcrawl
 * rank` walks (storage/store_pages.c).
 */
#ifndef NC_STORE_PAGES_H
#define NC_STORE_PAGES_H

#include <stddef.h>
#include <stdint.h>

#include "storage/store.h"

/* Insert a duplicates row. */
int store_duplicate_add(struct store *s, int64_t page_id, int64_t original_id,
    const char *method, double percentage);

/* What the link rule asks about a pages row. */
struct store_lineage {
	int64_t parent; /* pages.id of its linking page, 0 for a seed */
	enum store_verdict verdict; /* the row's verdict */
	int unique;     /* verdict unique */
	int duplicate;  /* verdict exact or near */
	int redirect;   /* verdict redirect */
	int fruitful;   /* marked by store_fruitful_add */
};

/* Fill l for pages row page_id. Returns 1, 0 when there is no such row
 * (l zeroed), -1 on error. */
int store_page_lineage(struct store *s, int64_t page_id,
    struct store_lineage *l);

/* Mark duplicate page_id as one whose links led to a unique page; marking
 * it again does nothing. 0, or -1 on error. */
int store_fruitful_add(struct store *s, int64_t page_id);

/*
 * The run of redirects that ends at pages row id: how many rows in a row,
 * following parent_id up from id, have verdict redirect (*hops, counted
 * up to max; 0 when id is no redirect or 0), and whether one of them was
 * for url (*seen: the chain would loop). Returns 0, or -1 on error (then
 * both are 0).
 */
int store_redirect_chain(struct store *s, int64_t id, const char *url,
    int max, int *hops, int *seen);

/* Most links store_links_put takes for one page (the crawl caps a page's
 * links well below this). */
#define STORE_LINKS_MAX 1000000

/*
 * The 64-bit hash the links table keeps of a normalised URL: FNV-1a 64 of
 * its bytes, then splitmix64's finaliser. Part of the file format: a rank
 * finds a link's page by hashing pages.url the same way. Two URLs share a
 * hash with odds of about n * n / 2^65 for n URLs. Cannot fail.
 */
uint64_t store_url_hash(const char *url);

/*
 * Record the n outgoing links of page_id (normalised URLs, kept by the
 * caller) as one links row of their hashes, replacing an earlier row of the
 * page. n == 0 writes nothing. Returns 0, or -1 on error: more than
 * STORE_LINKS_MAX links, out of memory, a database error, or a read-only
 * open of a database without the table.
 */
int store_links_put(struct store *s, int64_t page_id, char *const *urls,
    size_t n);

#endif
