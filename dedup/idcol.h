/*
 * idcol: the page ids of an index's entries, in entry order, in 4 bytes an
 * entry while they allow it.
 *
 * Page ids are database row ids: positive and far below 2^32 in any crawl
 * the indexes can hold (at most 2^25 entries), so storing them as 32 bits
 * halves what they cost. The column starts narrow; the first id outside
 * 0..UINT32_MAX (a negative id, a huge one) widens it to 8 bytes an id
 * for good, copying what it holds, so every int64_t is kept exactly.
 * Grows in chunks (util/chunks.h): ids never move once stored but for the
 * one widening.
 */
#ifndef NC_IDCOL_H
#define NC_IDCOL_H

#include <stddef.h>
#include <stdint.h>

#include "util/chunks.h"

struct idcol {
	struct chunks narrow; /* uint32_t ids while not wide */
	struct chunks wide;   /* int64_t ids once one did not fit */
	int is_wide;          /* 1: wide holds the ids, narrow is freed */
	size_t n;             /* ids the column's room is known to cover */
};

/* An empty column growing 2^shift ids at a time. Allocates nothing. */
void idcol_init(struct idcol *c, unsigned shift);

/* Free everything; c is then as idcol_init left it (narrow, empty). */
void idcol_free(struct idcol *c);

/*
 * Room for ids 0..n-1 and for storing id among them: widens the column
 * when id does not fit 32 bits. Returns 0, or -1 when out of memory (the
 * ids stored are kept and read the same).
 */
int idcol_reserve(struct idcol *c, size_t n, int64_t id);

/* Store id as entry i, after idcol_reserve for i + 1 ids and id. Cannot
 * fail. */
void idcol_set(struct idcol *c, size_t i, int64_t id);

/* The id stored as entry i. */
int64_t idcol_get(const struct idcol *c, size_t i);

/* Bytes the column holds. */
size_t idcol_bytes(const struct idcol *c);

#endif
