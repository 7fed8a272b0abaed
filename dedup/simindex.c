/*
 * simindex: pigeonhole block index over 64-bit SimHashes.
 *
 * Layout, chosen to stay compact: the fingerprints and ids sit in one array;
 * each of the k+1 blocks has a bucket-head array and a next-index array
 * parallel to the entries, so a stored fingerprint costs 16 bytes plus
 * 4 bytes per block for its chain link plus 4-8 bytes per block of bucket
 * heads (the head arrays double when there are more entries than buckets).
 * Chains hold entry indices, newest first.
 */
#include "simindex.h"

#include <stdlib.h>
#include <string.h>

#include "mix64.h"
#include "topk.h"

#define NIL UINT32_MAX
#define MAX_BLOCKS (SIMINDEX_MAX_K + 1)
#define FIRST_BUCKETS 16
#define MAX_ENTRIES ((size_t)UINT32_MAX - 1)

struct entry {
	uint64_t fp; /* the fingerprint */
	int64_t id;  /* caller's id */
};

struct simindex {
	int k;                        /* distance bound */
	int nblocks;                  /* k + 1 */
	uint64_t mask[MAX_BLOCKS];    /* bits of each block */
	struct entry *entry;          /* stored fingerprints, in add order */
	size_t n;                     /* entries used */
	size_t cap;                   /* entries (and next slots) allocated */
	uint32_t *next[MAX_BLOCKS];   /* per block: chain link of each entry */
	uint32_t *head[MAX_BLOCKS];   /* per block: first entry of a bucket */
	size_t nbucket;               /* buckets per block, a power of two */
};


static size_t
bucket_of(const struct simindex *ix, int b, uint64_t fp, size_t nbucket)
{
	return (size_t)mix64(fp & ix->mask[b]) & (nbucket - 1);
}

struct simindex *
simindex_new(int k)
{
	struct simindex *ix;
	int b, shift = 0, width;

	if (k < 0 || k > SIMINDEX_MAX_K)
		return NULL;
	ix = calloc(1, sizeof(*ix));
	if (ix == NULL)
		return NULL;
	ix->k = k;
	ix->nblocks = k + 1;
	for (b = 0; b < ix->nblocks; b++) {
		/* Widths differ by at most one bit; the wider ones first. */
		width = 64 / ix->nblocks + (b < 64 % ix->nblocks);
		ix->mask[b] = width == 64 ? UINT64_MAX :
		    (((uint64_t)1 << width) - 1) << shift;
		shift += width;
	}
	ix->nbucket = FIRST_BUCKETS;
	for (b = 0; b < ix->nblocks; b++) {
		ix->head[b] = malloc(ix->nbucket * sizeof(uint32_t));
		if (ix->head[b] == NULL)
			goto fail;
		memset(ix->head[b], 0xff, ix->nbucket * sizeof(uint32_t));
	}
	return ix;
fail:
	simindex_free(ix);
	return NULL;
}

void
simindex_free(struct simindex *ix)
{
	int b;

	if (ix == NULL)
		return;
	for (b = 0; b < ix->nblocks; b++) {
		free(ix->next[b]);
		free(ix->head[b]);
	}
	free(ix->entry);
	free(ix);
}

/* Room for one more entry; -1 with the index unchanged when out of memory. */
static int
reserve_entry(struct simindex *ix)
{
	size_t cap = ix->cap ? ix->cap * 2 : 64;
	struct entry *e;
	uint32_t *nx;
	int b;

	if (ix->n < ix->cap)
		return 0;
	if (ix->n >= MAX_ENTRIES)
		return -1;
	if (cap > MAX_ENTRIES)
		cap = MAX_ENTRIES;
	/* Arrays grown before a failure are only larger, which is harmless:
	 * cap changes once all of them have grown. */
	e = realloc(ix->entry, cap * sizeof(*e));
	if (e == NULL)
		return -1;
	ix->entry = e;
	for (b = 0; b < ix->nblocks; b++) {
		nx = realloc(ix->next[b], cap * sizeof(*nx));
		if (nx == NULL)
			return -1;
		ix->next[b] = nx;
	}
	ix->cap = cap;
	return 0;
}

/* Twice the buckets once entries outnumber them, so chains stay short. */
static int
grow_buckets(struct simindex *ix)
{
	uint32_t *head[MAX_BLOCKS];
	size_t nbucket = ix->nbucket * 2, e, h;
	int b;

	memset(head, 0, sizeof(head));
	for (b = 0; b < ix->nblocks; b++) {
		head[b] = malloc(nbucket * sizeof(uint32_t));
		if (head[b] == NULL)
			goto fail;
		memset(head[b], 0xff, nbucket * sizeof(uint32_t));
	}
	/* Relinking in add order keeps every chain newest first. */
	for (b = 0; b < ix->nblocks; b++) {
		for (e = 0; e < ix->n; e++) {
			h = bucket_of(ix, b, ix->entry[e].fp, nbucket);
			ix->next[b][e] = head[b][h];
			head[b][h] = (uint32_t)e;
		}
		free(ix->head[b]);
		ix->head[b] = head[b];
	}
	ix->nbucket = nbucket;
	return 0;
fail:
	for (b = 0; b < ix->nblocks; b++)
		free(head[b]);
	return -1;
}

int
simindex_add(struct simindex *ix, uint64_t fp, int64_t id)
{
	size_t e, h;
	int b;

	if (reserve_entry(ix) != 0)
		return -1;
	if (ix->n + 1 > ix->nbucket && grow_buckets(ix) != 0)
		return -1;
	e = ix->n;
	ix->entry[e].fp = fp;
	ix->entry[e].id = id;
	for (b = 0; b < ix->nblocks; b++) {
		h = bucket_of(ix, b, fp, ix->nbucket);
		ix->next[b][e] = ix->head[b][h];
		ix->head[b][h] = (uint32_t)e;
	}
	ix->n++;
	return 0;
}

void
simindex_pop(struct simindex *ix)
{
	uint32_t *link, last;
	int b;

	if (ix->n == 0)
		return;
	last = (uint32_t)(ix->n - 1);
	for (b = 0; b < ix->nblocks; b++) {
		link = &ix->head[b][bucket_of(ix, b, ix->entry[last].fp,
		    ix->nbucket)];
		/* The newest entry heads its chains; walk anyway rather than
		 * rely on it. */
		while (*link != NIL && *link != last)
			link = &ix->next[b][*link];
		if (*link == last)
			*link = ix->next[b][last];
	}
	ix->n--;
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
	size_t found = 0;
	uint64_t x;
	uint32_t e;
	int b, prev, earlier;

	for (b = 0; b < ix->nblocks; b++) {
		e = ix->head[b][bucket_of(ix, b, fp, ix->nbucket)];
		for (; e != NIL; e = ix->next[b][e]) {
			x = ix->entry[e].fp ^ fp;
			if ((x & ix->mask[b]) != 0)
				continue;
			m.distance = __builtin_popcountll(x);
			if (m.distance > ix->k)
				continue;
			/* Once per match: in its first agreeing block. */
			earlier = 0;
			for (prev = 0; prev < b && !earlier; prev++)
				earlier = (x & ix->mask[prev]) == 0;
			if (earlier)
				continue;
			m.id = ix->entry[e].id;
			if (out != NULL && max > 0)
				topk_insert(out, max, found, &m, sizeof(m),
				    better);
			found++;
		}
	}
	return found;
}

size_t
simindex_count(const struct simindex *ix)
{
	return ix->n;
}

size_t
simindex_bytes(const struct simindex *ix)
{
	return sizeof(*ix) + ix->cap * (sizeof(struct entry) +
	    (size_t)ix->nblocks * sizeof(uint32_t)) +
	    ix->nbucket * (size_t)ix->nblocks * sizeof(uint32_t);
}
