/*
 * store_resume: what a resumed crawl loads back into its indexes --
 * fingerprints, per-host page counts, TDW vectors and shingle sets -- and
 * the writes of the last two (storage/store_resume.c). The loads limited
 * to a span of pages are a shared crawl's catch-up on the pages other
 * processes judged (storage/store_share.h).
 */
#ifndef NC_STORE_RESUME_H
#define NC_STORE_RESUME_H

#include <stddef.h>
#include <stdint.h>

#include "storage/store.h"

/* One page's stored fingerprints; pointers valid during the callback. */
struct store_fingerprints {
	int64_t id;           /* pages.id */
	const char *md5;      /* hex, or NULL */
	int has_simhash;      /* simhash is set */
	uint64_t simhash;     /* stored as signed int64 */
	const char *ssdeep;   /* or NULL */
	const void *minhash;  /* signature blob, or NULL */
	size_t minhash_len;   /* bytes of minhash */
	int64_t seq;          /* pages.seq */
};

/* Which pages a load reads: seq in (after, upto], none judged by the
 * worker named skip ("" skips none). */
struct store_span {
	int64_t after; /* seq after which to start */
	int64_t upto;  /* last seq to read */
	const char *skip; /* pages.worker to leave out, "" for none */
};

/* Every page. */
extern const struct store_span store_span_all;

/*
 * Resume: call fn for every page that carries fingerprints (verdict unique,
 * exact or near), in seq order. fn returns 0 to go on, non-zero to stop
 * (returned). Returns -1 on a database error, as on a read-only open of a
 * database older than the minhash column.
 */
int store_load_fingerprints(struct store *s,
    int (*fn)(const struct store_fingerprints *f, void *arg), void *arg);

/* The same for the pages in sp only (a shared crawl's catch-up). */
int store_load_fingerprints_in(struct store *s, const struct store_span *sp,
    int (*fn)(const struct store_fingerprints *f, void *arg), void *arg);

/*
 * Keep page page_id's TDW vector: len bytes of tdw_pack's output (vec not
 * NULL, len > 0; replaces an earlier one). The caller keeps vec. Returns 0,
 * or -1 on error (as on a read-only open of a database without the table).
 */
int store_tdw_add(struct store *s, int64_t page_id, const void *vec,
    size_t len);

/*
 * Resume: call fn(page_id, vec, len, arg) for every stored TDW vector, in
 * fetch order; vec is valid during the call only. fn returns 0 to go on,
 * non-zero to stop (which is then returned). A read-only open of a database
 * without the table finds none. Returns 0 or -1 on error.
 */
int store_load_tdw(struct store *s,
    int (*fn)(int64_t id, const void *vec, size_t len, void *arg),
    void *arg);

/* The same for the pages in sp only (a shared crawl's catch-up). */
int store_load_tdw_in(struct store *s, const struct store_span *sp,
    int (*fn)(int64_t id, const void *vec, size_t len, void *arg),
    void *arg);

/*
 * Keep page page_id's shingle set: len bytes of shingles_encode's output
 * (replaces an earlier one). The caller keeps blob. Returns 0, or -1 on
 * error (as on a read-only open of a database without the table).
 */
int store_shingles_add(struct store *s, int64_t page_id, const void *blob,
    size_t len);

/*
 * Page page_id's stored shingle set: *blob malloc'd (the caller frees it)
 * with *len bytes, or NULL with *len 0 when none is stored (or the
 * database has no such table). Returns 0, or -1 on error.
 */
int store_shingles_get(struct store *s, int64_t page_id, void **blob,
    size_t *len);

/*
 * Resume: call fn(host, verdict, blob, len, arg) for every stored shingle
 * set, with its page's host and verdict, in fetch order; blob is valid
 * during the call only. fn
 * returns 0 to go on, non-zero to stop (which is then returned). A
 * database without the table finds none. Returns 0 or -1 on error.
 */
int store_load_blocks(struct store *s,
    int (*fn)(const char *host, const char *verdict, const void *blob,
    size_t len, void *arg),
    void *arg);

/* The same for the pages in sp only (a shared crawl's catch-up). */
int store_load_blocks_in(struct store *s, const struct store_span *sp,
    int (*fn)(const char *host, const char *verdict, const void *blob,
    size_t len, void *arg),
    void *arg);

/*
 * Resume: call fn(host, pages, arg) with the number of pages rows of every
 * host that has any, for per-host page caps. fn returns 0 to go on, non-zero
 * to stop (which is then returned). Returns 0 or -1 on error.
 */
int store_host_pages(struct store *s,
    int (*fn)(const char *host, int64_t pages, void *arg), void *arg);

#endif
