/*
 * tagtab: an open-addressing table of entry numbers filed under 64-bit key
 * hashes, for indexes whose keys can be recomputed from their entries.
 *
 * The key itself is not stored. A slot is one 32-bit word: the entry
 * number in its high TAGTAB_ENTRY_BITS bits and a tag of TAGTAB_TAG_BITS
 * bits from the key's hash in the low ones, never 0, so a free slot is the
 * word 0. Linear probing: every entry filed under a key sits in the run of
 * filled slots that starts at the key's home slot, so a lookup walks that
 * run and yields the entries whose tag matches; the caller checks each
 * against its key (other keys share a tag one time in 2^TAGTAB_TAG_BITS).
 *
 * The table never grows by itself: the caller keeps it below its load
 * limit with tagtab_reset and puts every entry back (it has the keys).
 */
#ifndef NC_TAGTAB_H
#define NC_TAGTAB_H

#include <stddef.h>
#include <stdint.h>

#define TAGTAB_TAG_BITS 7
#define TAGTAB_ENTRY_BITS (32 - TAGTAB_TAG_BITS)
/* Highest entry number a slot holds: 33,554,431 entries in all. */
#define TAGTAB_MAX_ENTRY ((((uint32_t)1) << TAGTAB_ENTRY_BITS) - 1)
/* Most slots a table has (home slots are scaled from 32 bits). */
#define TAGTAB_MAX_SLOTS ((size_t)UINT32_MAX)

struct tagtab {
	uint32_t *slot; /* entry << TAGTAB_TAG_BITS | tag; 0 free */
	size_t nslot;   /* slots in use */
	size_t cap;     /* slots allocated */
	size_t filled;  /* slots holding an entry */
};

/* A walk over the entries filed under one hash (tagtab_find). */
struct tagtab_iter {
	const struct tagtab *t; /* the table walked */
	size_t i;               /* next slot to look at */
	uint32_t tag;           /* the hash's tag */
};

/* An empty table of no slots. Allocates nothing. */
void tagtab_init(struct tagtab *t);

/* Free the slots; t is then as tagtab_init left it. */
void tagtab_free(struct tagtab *t);

/*
 * Make t nslot slots (1..TAGTAB_MAX_SLOTS), every one free: the caller
 * puts its entries back. The slots are reallocated in place (large blocks
 * are remapped, not copied). Returns 0, or -1 when out of memory or nslot
 * is out of range, with t as it was.
 */
int tagtab_reset(struct tagtab *t, size_t nslot);

/* File entry (0..TAGTAB_MAX_ENTRY) under hash. The table must have a free
 * slot (the caller keeps it below its load limit). Cannot fail. */
void tagtab_put(struct tagtab *t, uint64_t hash, uint32_t entry);

/*
 * Take entry back from under hash. Only safe for the puts made last, taken
 * back newest first: a slot freed in the middle of a run would cut off the
 * entries filed after it. Returns 1, or 0 when it is not there.
 */
int tagtab_remove(struct tagtab *t, uint64_t hash, uint32_t entry);

/* Start a walk over the entries filed under hash (and a few others whose
 * hashes share its home run and tag). */
void tagtab_find(const struct tagtab *t, uint64_t hash, struct tagtab_iter *it);

/* The walk's next entry into *entry: 1, or 0 at the end of the run. */
static inline int
tagtab_next(struct tagtab_iter *it, uint32_t *entry)
{
	const uint32_t *slot = it->t->slot;
	size_t n = it->t->nslot;
	uint32_t w;

	if (n == 0)
		return 0;
	while ((w = slot[it->i]) != 0) {
		it->i = it->i + 1 == n ? 0 : it->i + 1;
		if ((w & ((1u << TAGTAB_TAG_BITS) - 1)) == it->tag) {
			*entry = w >> TAGTAB_TAG_BITS;
			return 1;
		}
	}
	return 0;
}

/* Bytes the table holds. */
size_t tagtab_bytes(const struct tagtab *t);

#endif
