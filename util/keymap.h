/*
 * keymap: ids filed under 64-bit key hashes, for a set whose keys are kept
 * elsewhere and are too many to hold twice in memory: the URLs a crawl has
 * queued, whose text is in the database.
 *
 * A slot is one 64-bit word: the top KEYMAP_TAG_BITS bits of the key's
 * hash and the id (plus one, so a free slot is the word 0). Linear probing
 * from a home slot given by the same top bits, so the table can grow
 * without the keys: every id filed under a hash sits in the run of filled
 * slots from its home, and a lookup yields those whose stored bits match.
 * Other keys share those bits one time in 2^28: the caller checks each id
 * it is given against its key. The table is at most 3/4 full and grows by
 * half, so a key costs 11 to 16 bytes.
 */
#ifndef NC_KEYMAP_H
#define NC_KEYMAP_H

#include <stddef.h>
#include <stdint.h>

#define KEYMAP_TAG_BITS 28
#define KEYMAP_ID_BITS (64 - KEYMAP_TAG_BITS)
/* Largest id a slot holds (2^36 - 2). */
#define KEYMAP_MAX_ID ((int64_t)((((uint64_t)1) << KEYMAP_ID_BITS) - 2))
/* Most slots: the home slot comes from the tag's bits. */
#define KEYMAP_MAX_SLOTS ((size_t)1 << KEYMAP_TAG_BITS)

struct keymap {
	uint64_t *slot; /* tag << KEYMAP_ID_BITS | (id + 1); 0 free */
	size_t nslot;   /* slots */
	size_t filled;  /* slots holding an id */
};

/* A walk over the ids filed under one hash (keymap_find). */
struct keymap_iter {
	const struct keymap *m; /* the table walked */
	size_t i;               /* next slot to look at */
	uint64_t tag;           /* the hash's tag */
};

/* An empty map. Allocates nothing. */
void keymap_init(struct keymap *m);

/* Free the slots; m is then as keymap_init left it. */
void keymap_free(struct keymap *m);

/* File id (0..KEYMAP_MAX_ID) under hash; the same id or hash may be filed
 * more than once. Returns 0, or -1 when id is out of range, out of memory
 * or full (KEYMAP_MAX_SLOTS * 3/4 ids), with m unchanged. */
int keymap_put(struct keymap *m, uint64_t hash, int64_t id);

/* Start a walk over the ids filed under hash (and under hashes sharing
 * its top bits). */
void keymap_find(const struct keymap *m, uint64_t hash,
    struct keymap_iter *it);

/* The walk's next id: 1 with *id set, 0 when there are no more. */
int keymap_next(struct keymap_iter *it, int64_t *id);

/* Ids filed. */
size_t keymap_count(const struct keymap *m);

/* Bytes of memory the map holds. */
size_t keymap_bytes(const struct keymap *m);

#endif
