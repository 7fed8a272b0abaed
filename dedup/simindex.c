/*
 * simindex: block index over 64-bit SimHashes.
 *
 * The 64 bits are cut into k + 1 blocks. Two fingerprints within distance
 * k differ in at most k blocks, so they agree exactly on at least one, and
 * there is one table per block keyed by its bits (16 bits for k = 3). An
 * earlier layout cut k + 2 blocks and kept a table per pair of them (10
 * for k = 3, keys of 25-26 bits): chance candidates were rare at any size,
 * but the tables cost 40-80 bytes a fingerprint where these four cost
 * 16-32. The price is candidates: a 16-bit key is shared by n / 65,536 of
 * n stored fingerprints, so a lookup reads about 15 a table at a million,
 * each checked by one XOR and popcount. A table's candidates sit in one
 * run of slots, so their fingerprints are prefetched together and the
 * reads overlap.
 *
 * Each table is a util/tagtab, at most 75% full: one 32-bit word a slot,
 * the entry number and a 7-bit tag of the key's hash. A key's entries all
 * sit in the run of filled slots from its home slot; a lookup scans that
 * run's tags and reads a stored fingerprint only on a tag match, checking
 * the table's bits exactly. The tables grow by half and are refilled from
 * the stored fingerprints, in place. Fingerprints and ids grow in chunks
 * (util/chunks.h), never copied; ids take 2 bytes while they stay near
 * each other (dedup/idcol.h).
 */
#include "dedup/simindex.h"

#include <stdlib.h>
#include <string.h>

#include "util/chunks.h"
#include "util/mix64.h"
#include "util/tagtab.h"
#include "dedup/idcol.h"
#include "dedup/topk.h"

#define MAX_BLOCKS (SIMINDEX_MAX_K + 1)
#define MAX_TABLES SIMINDEX_MAX_TABLES
#define FIRST_SLOTS 64
#define MAX_ENTRIES ((size_t)TAGTAB_MAX_ENTRY + 1)
#define MAX_SLOTS TAGTAB_MAX_SLOTS
/* Filled slots at most LOAD_NUM / LOAD_DEN of a table. */
#define LOAD_NUM 3
#define LOAD_DEN 4
/* Entries per chunk of the fingerprints and ids. */
#define CHUNK_SHIFT 10
/* Candidates of one table prefetched before any is checked. */
#define PREFETCH 32

_Static_assert(MAX_BLOCKS <= MAX_TABLES, "a table per block");

struct simindex {
	int k;                      /* distance bound */
	int ntables;                /* tables, each keyed by mask[t] */
	uint64_t mask[MAX_TABLES];  /* the bits a table's key is made of */
	struct chunks fp;           /* per entry: the fingerprint, add order */
	struct idcol id;            /* per entry: the caller's id */
	size_t n;                   /* entries used */
	struct tagtab tab[MAX_TABLES]; /* per table: entry numbers by key,
	                                  every table the same size */
};

static uint64_t
key_hash(const struct simindex *ix, int t, uint64_t fp)
{
	return mix64((fp & ix->mask[t]) ^ (uint64_t)t);
}

static uint64_t
fp_at(const struct simindex *ix, size_t e)
{
	return *(const uint64_t *)chunks_at(&ix->fp, e);
}

struct simindex *
simindex_new(int k)
{
	struct simindex *ix;
	int b, t, nblocks, shift = 0, width;

	if (k < 0 || k > SIMINDEX_MAX_K)
		return NULL;
	ix = calloc(1, sizeof(*ix));
	if (ix == NULL)
		return NULL;
	ix->k = k;
	chunks_init(&ix->fp, sizeof(uint64_t), CHUNK_SHIFT);
	idcol_init(&ix->id, CHUNK_SHIFT);
	nblocks = k + 1;
	for (b = 0; b < nblocks; b++) {
		/* Widths differ by at most one bit; the wider ones first. */
		width = 64 / nblocks + (b < 64 % nblocks);
		ix->mask[b] = width == 64 ? UINT64_MAX
		                          : (((uint64_t)1 << width) - 1) << shift;
		shift += width;
	}
	ix->ntables = nblocks;
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
	chunks_free(&ix->fp);
	idcol_free(&ix->id);
	free(ix);
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
			tagtab_put(&ix->tab[t], key_hash(ix, t, fp_at(ix, e)),
			    (uint32_t)e);
	}
	return failed ? -1 : 0;
}

int
simindex_add(struct simindex *ix, uint64_t fp, int64_t id)
{
	size_t want;
	int t;

	if (ix->n >= MAX_ENTRIES || chunks_reserve(&ix->fp, ix->n + 1) != 0 ||
	    idcol_reserve(&ix->id, ix->n + 1, id) != 0)
		return -1;
	if ((ix->n + 1) * LOAD_DEN > ix->tab[0].nslot * LOAD_NUM) {
		want = ix->tab[0].nslot + ix->tab[0].nslot / 2;
		if (want > MAX_SLOTS || grow_tables(ix, want) != 0)
			return -1;
	}
	*(uint64_t *)chunks_at(&ix->fp, ix->n) = fp;
	idcol_set(&ix->id, ix->n, id);
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
	fp = fp_at(ix, ix->n);
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

/* Check entry e, a candidate of table t, against fp; count it in *found
 * and out when it is within k and t is the first table it agrees on. */
static void
check(const struct simindex *ix, int t, size_t e, uint64_t fp,
    struct simindex_match *out, size_t max, size_t *found)
{
	struct simindex_match m;
	uint64_t x = fp_at(ix, e) ^ fp;
	int prev;

	if ((x & ix->mask[t]) != 0)
		return;
	m.distance = __builtin_popcountll(x);
	if (m.distance > ix->k)
		return;
	/* Once per match: in its first agreeing table. */
	for (prev = 0; prev < t; prev++)
		if ((x & ix->mask[prev]) == 0)
			return;
	m.id = idcol_get(&ix->id, e);
	if (out != NULL && max > 0)
		topk_insert(out, max, *found, &m, sizeof(m), better);
	(*found)++;
}

size_t
simindex_query(const struct simindex *ix, uint64_t fp,
    struct simindex_match *out, size_t max)
{
	struct tagtab_iter it;
	size_t found = 0, nb, i;
	uint32_t e[PREFETCH];
	int t;

	for (t = 0; t < ix->ntables; t++) {
		tagtab_find(&ix->tab[t], key_hash(ix, t, fp), &it);
		do {
			/* A batch of candidates first, so that their
			 * fingerprints are read at once, not one by one. */
			for (nb = 0; nb < PREFETCH && tagtab_next(&it, &e[nb]);
			     nb++)
				__builtin_prefetch(chunks_at(&ix->fp, e[nb]));
			for (i = 0; i < nb; i++)
				check(ix, t, e[i], fp, out, max, &found);
		} while (nb == PREFETCH);
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
	size_t b = sizeof(*ix) + chunks_bytes(&ix->fp) + idcol_bytes(&ix->id);
	int t;

	for (t = 0; t < ix->ntables; t++)
		b += tagtab_bytes(&ix->tab[t]);
	return b;
}
