/*
 * simindex: block index over 64-bit SimHashes.
 *
 * The 64 bits are cut into k + 1 blocks. Two fingerprints within distance
 * k differ in at most k blocks, so they agree exactly on at least one, and
 * there is one table per block keyed by its bits (16 bits for k = 3). An
 * earlier layout cut k + 2 blocks and kept a table per pair of them (10
 * for k = 3, keys of 25-26 bits): chance candidates were rare at any size,
 * but the tables cost 40-80 bytes a fingerprint. The price is candidates:
 * a 16-bit key is shared by n / 65,536 of n stored fingerprints, so a
 * lookup reads about 15 a table at a million, each checked by one XOR and
 * popcount. A table's candidates sit side by side, so their fingerprints
 * are prefetched together and the reads overlap.
 *
 * A table has two parts. The merged part holds entries 0..merged-1 sorted
 * by bucket (a power of two of them, one for every 4 to 8 entries, never
 * more than the block has values: 65,536 at k = 3), in add order within a
 * bucket: an array of entry numbers 3 bytes each (4 past 2^24 entries)
 * and one offset a bucket. The recent part holds the entries added since,
 * in a util/tagtab made for a sixteenth of the merged ones (at least
 * RECENT_MIN), at most 75% full. When it is full, every entry is merged
 * again (a counting sort by bucket) before the next is added, so the
 * newest entry is always a recent one and simindex_pop takes it from the
 * tagtab. A table costs 3
 * bytes an entry, 0.5 to 1 for offsets (less past 512K entries at k = 3,
 * 0.03 at ten million) and a third for the recent part, where a tagtab of
 * all entries, growing by half, cost 5.3 to 10.7. Merging costs each
 * entry about 16 placements a table over the index's life. A lookup costs
 * more than in that tagtab (two places a table, and a bucket's other keys
 * are read where a tag told them apart): 0.25 against 0.14 us at 12,000
 * stored, 3.3 against 2 at a million, next to nothing beside a page's
 * other work. Fingerprints and ids grow in chunks (util/chunks.h), never
 * copied; ids take 2 bytes while they stay near each other
 * (dedup/idcol.h).
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
#define MAX_ENTRIES ((size_t)TAGTAB_MAX_ENTRY + 1)
/* The recent part's room: a sixteenth of the merged entries, at least
 * RECENT_MIN; its tagtab at most LOAD_NUM / LOAD_DEN full. */
#define RECENT_MIN 256
#define RECENT_SHARE 16
#define LOAD_NUM 3
#define LOAD_DEN 4
/* Merged entries per bucket at most, but where a block has fewer values
 * than that leaves buckets (a bucket is then one key). */
#define PER_BUCKET 8
/* Entries per chunk of the fingerprints and ids. */
#define CHUNK_SHIFT 10
/* Candidates of one table prefetched before any is checked. */
#define PREFETCH 32

_Static_assert(MAX_BLOCKS <= MAX_TABLES, "a table per block");

struct simtab {
	uint32_t *start;      /* nbucket + 1: where each bucket's entries
	                         begin in post, then where they end */
	unsigned char *post;  /* merged entry numbers by bucket, pw bytes */
	struct tagtab recent; /* entries merged..n-1 by key hash */
};

struct simindex {
	int k;                      /* distance bound */
	int ntables;                /* tables, each keyed by mask[t] */
	int min_width;              /* bits of the narrowest block */
	uint64_t mask[MAX_TABLES];  /* the bits a table's key is made of */
	struct chunks fp;           /* per entry: the fingerprint, add order */
	struct idcol id;            /* per entry: the caller's id */
	size_t n;                   /* entries used */
	size_t merged;              /* entries in the merged parts */
	size_t recent_room;         /* entries the recent parts take */
	unsigned bbits;             /* log2 of the merged parts' buckets */
	unsigned pw;                /* bytes of a merged entry number */
	struct simtab tab[MAX_TABLES];
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

/* Slots of a recent part for room entries at most LOAD_NUM / LOAD_DEN
 * full. */
static size_t
recent_slots(size_t room)
{
	return room * LOAD_DEN / LOAD_NUM + 1;
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
	ix->min_width = 64;
	for (b = 0; b < nblocks; b++) {
		/* Widths differ by at most one bit; the wider ones first. */
		width = 64 / nblocks + (b < 64 % nblocks);
		ix->mask[b] = width == 64 ? UINT64_MAX
		                          : (((uint64_t)1 << width) - 1) << shift;
		shift += width;
		if (width < ix->min_width)
			ix->min_width = width;
	}
	ix->ntables = nblocks;
	ix->recent_room = RECENT_MIN;
	ix->pw = 3;
	for (t = 0; t < ix->ntables; t++)
		if (tagtab_reset(&ix->tab[t].recent,
		    recent_slots(ix->recent_room)) != 0)
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
	for (t = 0; t < ix->ntables; t++) {
		free(ix->tab[t].start);
		free(ix->tab[t].post);
		tagtab_free(&ix->tab[t].recent);
	}
	chunks_free(&ix->fp);
	idcol_free(&ix->id);
	free(ix);
}

/* The merged parts' bucket of a key hash, for 2^bbits buckets. */
static size_t
bucket_of(uint64_t hash, unsigned bbits)
{
	return bbits == 0 ? 0 : (size_t)(hash >> (64 - bbits));
}

static uint32_t
post_get(const unsigned char *post, unsigned pw, size_t i)
{
	const unsigned char *p = post + i * pw;
	uint32_t e = (uint32_t)p[0] | (uint32_t)p[1] << 8 |
	    (uint32_t)p[2] << 16;

	return pw == 4 ? e | (uint32_t)p[3] << 24 : e;
}

static void
post_set(unsigned char *post, unsigned pw, size_t i, uint32_t e)
{
	unsigned char *p = post + i * pw;

	p[0] = (unsigned char)e;
	p[1] = (unsigned char)(e >> 8);
	p[2] = (unsigned char)(e >> 16);
	if (pw == 4)
		p[3] = (unsigned char)(e >> 24);
}

/*
 * Merge every entry into the merged parts, sorted again by bucket, and
 * empty the recent parts, made for the next room entries. -1 with the
 * index as it was when memory runs out: the new arrays are all made
 * before any old one is let go.
 */
static int
merge(struct simindex *ix)
{
	uint32_t *start[MAX_TABLES], *fill = NULL;
	unsigned char *post[MAX_TABLES];
	size_t n = ix->n, room, nb, e, i, b;
	unsigned bbits = 0, pw = n > ((size_t)1 << 24) ? 4 : 3;
	int t, made = 0;

	while (bbits < (unsigned)ix->min_width && bbits < 31 &&
	    ((size_t)PER_BUCKET << bbits) < n)
		bbits++;
	nb = (size_t)1 << bbits;
	room = n / RECENT_SHARE > RECENT_MIN ? n / RECENT_SHARE : RECENT_MIN;
	if ((fill = malloc(nb * sizeof(*fill))) == NULL)
		goto fail;
	for (; made < ix->ntables; made++) {
		start[made] = calloc(nb + 1, sizeof(**start));
		post[made] = malloc(n > 0 ? n * pw : 1);
		if (start[made] == NULL || post[made] == NULL) {
			free(start[made]);
			free(post[made]);
			goto fail;
		}
	}
	/* The recent parts last: a failure there leaves that table's as it
	 * was (tagtab_reset) and those of the tables before it emptied, made
	 * for room entries, which is no fewer than the recent_room they held
	 * (room grows with n): they are refilled. */
	for (t = 0; t < ix->ntables; t++)
		if (tagtab_reset(&ix->tab[t].recent, recent_slots(room)) != 0) {
			for (; t-- > 0;)
				for (e = ix->merged; e < n; e++)
					tagtab_put(&ix->tab[t].recent,
					    key_hash(ix, t, fp_at(ix, e)),
					    (uint32_t)e);
			goto fail;
		}
	for (t = 0; t < ix->ntables; t++) {
		/* Counting sort: sizes, then starts, then entries in add
		 * order. */
		for (e = 0; e < n; e++)
			start[t][bucket_of(key_hash(ix, t, fp_at(ix, e)),
			    bbits) + 1]++;
		for (b = 0; b < nb; b++)
			start[t][b + 1] += start[t][b];
		memcpy(fill, start[t], nb * sizeof(*fill));
		for (e = 0; e < n; e++) {
			i = fill[bucket_of(key_hash(ix, t, fp_at(ix, e)),
			    bbits)]++;
			post_set(post[t], pw, i, (uint32_t)e);
		}
		free(ix->tab[t].start);
		free(ix->tab[t].post);
		ix->tab[t].start = start[t];
		ix->tab[t].post = post[t];
	}
	free(fill);
	ix->merged = n;
	ix->recent_room = room;
	ix->bbits = bbits;
	ix->pw = pw;
	return 0;
fail:
	while (made-- > 0) {
		free(start[made]);
		free(post[made]);
	}
	free(fill);
	return -1;
}

int
simindex_add(struct simindex *ix, uint64_t fp, int64_t id)
{
	int t;

	if (ix->n >= MAX_ENTRIES || chunks_reserve(&ix->fp, ix->n + 1) != 0 ||
	    idcol_reserve(&ix->id, ix->n + 1, id) != 0)
		return -1;
	if (ix->n - ix->merged >= ix->recent_room && merge(ix) != 0)
		return -1;
	*(uint64_t *)chunks_at(&ix->fp, ix->n) = fp;
	idcol_set(&ix->id, ix->n, id);
	for (t = 0; t < ix->ntables; t++)
		tagtab_put(&ix->tab[t].recent, key_hash(ix, t, fp),
		    (uint32_t)ix->n);
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
	/* Added last, it is a recent entry (a merge comes before an add,
	 * never after), at the end of its probe run in each table. */
	for (t = 0; t < ix->ntables; t++)
		(void)tagtab_remove(&ix->tab[t].recent, key_hash(ix, t, fp),
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

/* Check candidates e[0..nb) of table t after prefetching their
 * fingerprints, so that the reads overlap. */
static void
check_batch(const struct simindex *ix, int t, const uint32_t *e, size_t nb,
    uint64_t fp, struct simindex_match *out, size_t max, size_t *found)
{
	size_t i;

	for (i = 0; i < nb; i++)
		__builtin_prefetch(chunks_at(&ix->fp, e[i]));
	for (i = 0; i < nb; i++)
		check(ix, t, e[i], fp, out, max, found);
}

size_t
simindex_query(const struct simindex *ix, uint64_t fp,
    struct simindex_match *out, size_t max)
{
	const struct simtab *tab;
	struct tagtab_iter it;
	size_t found = 0, nb, i, end, b;
	uint32_t e[PREFETCH];
	uint64_t h;
	int t;

	for (t = 0; t < ix->ntables; t++) {
		tab = &ix->tab[t];
		h = key_hash(ix, t, fp);
		if (ix->merged > 0) {
			b = bucket_of(h, ix->bbits);
			end = tab->start[b + 1];
			for (i = tab->start[b]; i < end;) {
				for (nb = 0; nb < PREFETCH && i < end; nb++)
					e[nb] = post_get(tab->post, ix->pw, i++);
				check_batch(ix, t, e, nb, fp, out, max, &found);
			}
		}
		tagtab_find(&tab->recent, h, &it);
		do {
			for (nb = 0; nb < PREFETCH && tagtab_next(&it, &e[nb]);
			     nb++)
				;
			check_batch(ix, t, e, nb, fp, out, max, &found);
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

	for (t = 0; t < ix->ntables; t++) {
		b += tagtab_bytes(&ix->tab[t].recent);
		if (ix->tab[t].start != NULL)
			b += (((size_t)1 << ix->bbits) + 1) * sizeof(uint32_t) +
			    ix->merged * ix->pw;
	}
	return b;
}
