/*
 * simindex: find every stored 64-bit SimHash within Hamming distance k of a
 * query without scanning all of them.
 *
 * Block index: the 64 bits are cut into k + 1 blocks; two fingerprints
 * within distance k differ in at most k blocks, so they agree exactly on
 * at least one (pigeonhole). There is one table per block (4 tables of
 * 16-bit keys for k = 3), giving a candidate set that contains every
 * answer; candidates are checked exactly. A key of b bits is shared by
 * chance by about n / 2^b of n stored fingerprints, each one candidate
 * read: 15 a table at a million stored for k = 3, 30 at two million.
 * Memory: 10 bytes per stored fingerprint (8 and an id in 2 while ids
 * stay near each other, in 4 or 8 else: dedup/idcol.h) plus 3.4 to 4.4
 * per table: 24 to 28 bytes for k = 3. An index
 * holds at most 2^25 (33,554,432) fingerprints (util/tagtab.h).
 */
#ifndef NC_SIMINDEX_H
#define NC_SIMINDEX_H

#include <stddef.h>
#include <stdint.h>

#define SIMINDEX_MAX_K 15
/* Most tables an index has, so most keys simindex_keys writes: k + 1
 * at SIMINDEX_MAX_K. */
#define SIMINDEX_MAX_TABLES (SIMINDEX_MAX_K + 1)

struct simindex;

struct simindex_match {
	int64_t id;   /* the id given to simindex_add */
	int distance; /* Hamming distance to the query, 0..k */
};

/* New empty index for distance k (0..SIMINDEX_MAX_K). NULL on bad k or
 * out of memory. */
struct simindex *simindex_new(int k);

/* Free the index; NULL is fine. */
void simindex_free(struct simindex *ix);

/* Store fp under id. Returns 0, or -1 when out of memory or full (index
 * unchanged). */
int simindex_add(struct simindex *ix, uint64_t fp, int64_t id);

/*
 * Forget the fingerprint stored last, undoing its simindex_add, so a caller
 * that adds one page to several indexes can keep them consistent when a
 * later add fails. Does nothing on an empty index. Cannot fail.
 */
void simindex_pop(struct simindex *ix);

/*
 * Find stored fingerprints within distance k of fp. Writes up to max matches
 * into out, best first (smallest distance, then smallest id), and returns the
 * total number found (which may exceed max). Cannot fail.
 */
size_t simindex_query(const struct simindex *ix, uint64_t fp,
    struct simindex_match *out, size_t max);

/*
 * The keys fp is stored under, which are also the keys a lookup for fp
 * probes: one per table, the table's number and fp's bits in that table's
 * blocks, hashed to 64 bits (the index's own bucket hash). The query
 * reports a stored fingerprint only after checking that it agrees with
 * the query exactly on some table's bits, so any fingerprint it can
 * report shares that table's key with the query: keys(a) and keys(b)
 * intersect whenever either can find the other. The keys depend only on
 * fp and k, never on what is stored, so every index made with the same k
 * (in any process) gives the same ones. Writes the index's table count
 * (k + 1, at most SIMINDEX_MAX_TABLES) keys into keys and returns it.
 * Cannot fail.
 */
size_t simindex_keys(const struct simindex *ix, uint64_t fp,
    uint64_t keys[SIMINDEX_MAX_TABLES]);

/* Number of fingerprints stored. */
size_t simindex_count(const struct simindex *ix);

/* Bytes of memory the index holds (for reports). */
size_t simindex_bytes(const struct simindex *ix);

#endif
