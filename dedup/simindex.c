/*
 * simindex: block index over 64-bit SimHashes, with lookups whose cost
 * does not grow with the number stored.
 *
 * The 64 bits are cut into nblocks blocks. Two fingerprints within
 * distance k differ in at most k blocks, so they agree exactly on at least
 * nblocks - k of them. With nblocks = k + 2 (k <= PAIR_MAX_K) they agree on
 * some pair of blocks, and there is one table per pair (C(k+2, 2) tables,
 * 10 for k = 3) keyed by the bits of both blocks: 26 bits for k = 3, so a
 * key is shared by chance only once the store nears 2^26 fingerprints.
 * Larger k would need too many pair tables; there nblocks = k + 1 and each
 * table is keyed by one block (the plain pigeonhole index), whose buckets
 * fill up as the store grows.
 *
 * Each table is a util/tagtab, at most 75% full: one 32-bit word a slot,
 * the entry number and a 7-bit tag of the key's hash. A key's entries all
 * sit in the run of filled slots from its home slot; a lookup scans that
 * run's tags and reads a stored fingerprint only on a tag match, checking
 * the table's bits exactly. The tables grow by half and are refilled from
 * the stored fingerprints, in place. A stored fingerprint costs 16 bytes
 * plus 4-8 bytes per table.
 */
#include "dedup/simindex.h"

#include <stdlib.h>
#include <string.h>

#include "util/mix64.h"
#include "util/tagtab.h"
#include "dedup/topk.h"

#define PAIR_MAX_K 3
#define MAX_BLOCKS (SIMINDEX_MAX_K + 2)
/* Enough for C(PAIR_MAX_K + 2, 2) = 10 pair tables and for the
 * SIMINDEX_MAX_K + 1 single-block ones. */
#define MAX_TABLES SIMINDEX_MAX_TABLES
#define FIRST_SLOTS 64
#define MAX_ENTRIES ((size_t)TAGTAB_MAX_ENTRY + 1)
#define MAX_SLOTS TAGTAB_MAX_SLOTS
/* Filled slots at most LOAD_NUM / LOAD_DEN of a table. */
#define LOAD_NUM 3
#define LOAD_DEN 4

struct entry {
	uint64_t fp; /* the fingerprint */
	int64_t id;  /* caller's id */
};

struct simindex {
	int k;                      /* distance bound */
	int ntables;                /* tables, each keyed by mask[t] */
	uint64_t mask[MAX_TABLES];  /* the bits a table's key is made of */
	struct entry *entry;        /* stored fingerprints, in add order */
	size_t n;                   /* entries used */
	size_t cap;                 /* entries allocated */
	struct tagtab tab[MAX_TABLES]; /* per table: entry numbers by key,
	                                  every table the same size */
};

static uint64_t
key_hash(const struct simindex *ix, int t, uint64_t fp)
{
	return mix64((fp & ix->mask[t]) ^ (uint64_t)t);
}

struct simindex *
simindex_new(int k)
{
	struct simindex *ix;
	uint64_t block[MAX_BLOCKS];
	int b, c, t, nblocks, shift = 0, width;

	if (k < 0 || k > SIMINDEX_MAX_K)
		return NULL;
	ix = calloc(1, sizeof(*ix));
	if (ix == NULL)
		return NULL;
	ix->k = k;
	nblocks = k <= PAIR_MAX_K ? k + 2 : k + 1;
	for (b = 0; b < nblocks; b++) {
		/* Widths differ by at most one bit; the wider ones first. */
		width = 64 / nblocks + (b < 64 % nblocks);
		block[b] = width == 64 ? UINT64_MAX
		                       : (((uint64_t)1 << width) - 1) << shift;
		shift += width;
	}
	if (k <= PAIR_MAX_K) {
		for (b = 0; b < nblocks; b++)
			for (c = b + 1; c < nblocks; c++)
				ix->mask[ix->ntables++] = block[b] | block[c];
	} else {
		for (b = 0; b < nblocks; b++)
			ix->mask[ix->ntables++] = block[b];
	}
	for (t = 0; t < ix->ntables; t++)
		if (tagtab_reset(&ix->tab[t], FIRST_SLOTS) != 0)
			goto fail;
	return ix;
fail:
	simindex_free(ix);
	return NULL;
}

void
simindex_free(struct simindex *ix)
{
	int t;

	if (ix == NULL)
		return;
	for (t = 0; t < ix->ntables; t++)
		tagtab_free(&ix->tab[t]);
	free(ix->entry);
	free(ix);
}

/* Room for one more entry, growing by half; -1 with nothing lost. */
static int
reserve_entry(struct simindex *ix)
{
	size_t cap = ix->cap + ix->cap / 2 + 64;
	struct entry *e;

	if (ix->n < ix->cap)
		return 0;
	if (ix->n >= MAX_ENTRIES)
		return -1;
	if (cap > MAX_ENTRIES)
		cap = MAX_ENTRIES;
	e = realloc(ix->entry, cap * sizeof(*e));
	if (e == NULL)
		return -1;
	ix->entry = e;
	ix->cap = cap;
	return 0;
}

/*
 * Make every table nslot slots and put the stored fingerprints back, in
 * add order. -1 with the tables as they were (same size, same contents)
 * when memory runs out: a table that cannot grow is refilled at its old
 * size, which never allocates.
 */
static int
grow_tables(struct simindex *ix, size_t nslot)
{
	size_t e, old = ix->tab[0].nslot;
	int t, failed = 0;

	for (t = 0; t < ix->ntables && !failed; t++)
		failed = tagtab_reset(&ix->tab[t], nslot) != 0;
	if (failed)
		nslot = old;
	for (t = 0; t < ix->ntables; t++) {
		(void)tagtab_reset(&ix->tab[t], nslot);
		for (e = 0; e < ix->n; e++)
			tagtab_put(&ix->tab[t], key_hash(ix, t, ix->entry[e].fp),
			    (uint32_t)e);
	}
	return failed ? -1 : 0;
}

int
simindex_add(struct simindex *ix, uint64_t fp, int64_t id)
{
	size_t want;
	int t;

	if (reserve_entry(ix) != 0)
		return -1;
	if ((ix->n + 1) * LOAD_DEN > ix->tab[0].nslot * LOAD_NUM) {
		want = ix->tab[0].nslot + ix->tab[0].nslot / 2;
		if (want > MAX_SLOTS || grow_tables(ix, want) != 0)
			return -1;
	}
	ix->entry[ix->n].fp = fp;
	ix->entry[ix->n].id = id;
	for (t = 0; t < ix->ntables; t++)
		tagtab_put(&ix->tab[t], key_hash(ix, t, fp), (uint32_t)ix->n);
	ix->n++;
	return 0;
}

void
simindex_pop(struct simindex *ix)
{
	uint64_t fp;
	int t;

	if (ix->n == 0)
		return;
	ix->n--;
	fp = ix->entry[ix->n].fp;
	/* Added last, it sits at the end of its probe run in each table. */
	for (t = 0; t < ix->ntables; t++)
		(void)tagtab_remove(&ix->tab[t], key_hash(ix, t, fp),
		    (uint32_t)ix->n);
}

static int
better(const void *va, const void *vb)
{
	const struct simindex_match *a = va, *b = vb;

	if (a->distance != b->distance)
		return a->distance < b->distance;
	return a->id < b->id;
}

size_t
simindex_query(const struct simindex *ix, uint64_t fp,
    struct simindex_match *out, size_t max)
{
	struct simindex_match m;
	struct tagtab_iter it;
	size_t found = 0;
	uint64_t x;
	uint32_t e;
	int t, prev, earlier;

	for (t = 0; t < ix->ntables; t++) {
		tagtab_find(&ix->tab[t], key_hash(ix, t, fp), &it);
		while (tagtab_next(&it, &e)) {
			x = ix->entry[e].fp ^ fp;
			if ((x & ix->mask[t]) != 0)
				continue;
			m.distance = __builtin_popcountll(x);
			if (m.distance > ix->k)
				continue;
			/* Once per match: in its first agreeing table. */
			earlier = 0;
			for (prev = 0; prev < t && !earlier; prev++)
				earlier = (x & ix->mask[prev]) == 0;
			if (earlier)
				continue;
			m.id = ix->entry[e].id;
			if (out != NULL && max > 0)
				topk_insert(
				    out, max, found, &m, sizeof(m), better);
			found++;
		}
	}
	return found;
}

size_t
simindex_keys(const struct simindex *ix, uint64_t fp,
    uint64_t keys[SIMINDEX_MAX_TABLES])
{
	int t;

	/* The table's number is inside the hash: equal masked bits in two
	 * tables are two keys, as they are two buckets. */
	for (t = 0; t < ix->ntables; t++)
		keys[t] = key_hash(ix, t, fp);
	return (size_t)ix->ntables;
}

size_t
simindex_count(const struct simindex *ix)
{
	return ix->n;
}

size_t
simindex_bytes(const struct simindex *ix)
{
	size_t b = sizeof(*ix) + ix->cap * sizeof(struct entry);
	int t;

	for (t = 0; t < ix->ntables; t++)
		b += tagtab_bytes(&ix->tab[t]);
	return b;
}
