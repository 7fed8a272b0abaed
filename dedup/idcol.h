/*
 * idcol: the page ids of an index's entries, in entry order, in 2 bytes an
 * entry while they allow it.
 *
 * Page ids are database row ids, and an index is given them in growing
 * order: the entries of one chunk (2^shift of them) have ids a few hundred
 * apart. While they allow it, an entry keeps only its id's distance from
 * its chunk's base (the first id stored in the chunk) in 16 bits, from
 * 32768 below the base to 32767 above it, for ids in 0..UINT32_MAX; a base
 * takes 8 bytes a chunk. The first id that does not fit widens the column
 * to 4 bytes an id, and one outside 0..UINT32_MAX to 8 bytes, for good,
 * copying what it holds, so every int64_t is kept exactly. Grows in chunks
 * (util/chunks.h): ids never move once stored but for a widening.
 */
#ifndef NC_IDCOL_H
#define NC_IDCOL_H

#include <stddef.h>
#include <stdint.h>

#include "util/chunks.h"

enum idcol_form {
	IDCOL_OFFSET, /* 16-bit distances from a base a chunk */
	IDCOL_NARROW, /* uint32_t ids */
	IDCOL_WIDE    /* int64_t ids */
};

struct idcol {
	struct chunks off;    /* uint16_t distances, biased by 32768 */
	struct chunks base;   /* int64_t: each chunk's base */
	size_t nbase;         /* chunks whose base is set: 0..nbase-1 */
	struct chunks narrow; /* uint32_t ids */
	struct chunks wide;   /* int64_t ids */
	enum idcol_form form; /* which of the three holds the ids */
	unsigned shift;       /* entries per chunk: 1 << shift */
	size_t n;             /* ids the column's room is known to cover */
};

/* An empty column growing 2^shift ids at a time. Allocates nothing. */
void idcol_init(struct idcol *c, unsigned shift);

/* Free everything; c is then as idcol_init left it (offsets, empty). */
void idcol_free(struct idcol *c);

/*
 * Room for ids 0..n-1 (n at least 1) and for storing id as entry n - 1:
 * widens the column when id does not fit its form there. Returns 0, or -1
 * when out of memory (the ids stored are kept and read the same).
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
