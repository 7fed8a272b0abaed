/*
 * store_visits: recrawls -- a new visit queues every settled URL again, a
 * revisited page's earlier state is read back for its conditional request
 * and comparison, and what the visit found is a visits row
 * (storage/store_visits.c). The rows the report reads of them are in
 * storage/query.h.
 */
#ifndef NC_STORE_VISITS_H
#define NC_STORE_VISITS_H

#include <stdint.h>

#include "storage/store.h"

/* What a page was at its last visit, for the next (store_page_prior). */
struct store_prior {
	int64_t id;                 /* pages.id, 0 when the URL has no row */
	char md5[33];               /* its text MD5, "" when none */
	enum store_verdict verdict; /* its verdict */
	char etag[256];             /* validators for a conditional request, */
	char last_modified[64];     /* "" when none (or too long to keep) */
};

/*
 * Start visit number visit of the crawl: every URL the frontier had
 * settled is queued again and meta's "visit" set. Returns the URLs queued,
 * or -1 on error.
 */
int64_t store_recrawl_start(struct store *s, int visit);

/* url's page row as it was (p->id 0 when there is none): its text MD5
 * and verdict as the last visit that read them found them, its latest
 * validators. 1 found, 0 not, -1 on error. */
int store_page_prior(struct store *s, const char *url, struct store_prior *p);

/* What one visit found at one page: a visits row. */
enum store_outcome {
	STORE_OUTCOME_UNCHANGED, /* 304, or the same text MD5 */
	STORE_OUTCOME_CHANGED,   /* other text */
	STORE_OUTCOME_GONE,      /* 4xx, 410 */
	STORE_OUTCOME_MOVED,     /* 3xx */
	STORE_OUTCOME_ERROR,     /* 5xx, a failed transfer, a bad page */
	STORE_OUTCOME_NEW        /* first seen in this visit */
};
struct store_visit {
	int visit;                  /* 2, 3 ... */
	int64_t page_id;            /* the page */
	double fetched_at;          /* Unix time */
	int status;                 /* HTTP status, 0 when none */
	enum store_outcome outcome;
	const char *md5;            /* text MD5 now, or NULL */
	int has_verdict;            /* verdict is set (changed, new) */
	enum store_verdict verdict; /* the verdict now */
	int has_was;                /* was is set */
	enum store_verdict was;     /* the verdict before */
	const char *location;       /* moved: where to, or NULL */
	const char *reason;         /* or NULL */
};

/* Page id's validators are now etag and last_modified (NULL: none), for
 * the next visit's conditional request. 0, or -1. */
int store_page_validators(struct store *s, int64_t id, const char *etag,
    const char *last_modified);

/* The word of an outcome, as stored. */
const char *store_outcome_name(enum store_outcome o);

/* Add a visits row (sent with the open transaction). 0, or -1. */
int store_visit_add(struct store *s, const struct store_visit *v);

#endif
