/*
 * minhash: signatures over word shingles and an LSH banding index.
 *
 * Features (MINHASH_FEATURES_VERSION 2): words are what simhash.c calls
 * words (words.h: maximal runs of ASCII letters/digits and bytes >= 0x80,
 * ASCII lower-cased, each Han or kana character a word alone -- version 1
 * read a CJK sentence as one word -- and with --numbers fold every
 * all-digit word the same word); a shingle is a run of `shingle` words, hashed
 * through mix64 to 64 bits of which the top 32 are kept.
 *
 * Hash functions: h_i(x) = (a_i x + b_i) mod 2^64, top 32 bits, with a_i
 * and b_i 64-bit constants drawn from mix64 of i. For 32-bit x this is
 * Dietzfelbinger's multiply-add-shift family, which is strongly universal;
 * x is itself a good hash, so the family's small bias towards structured
 * inputs does not arise. One multiply and one add per shingle and position:
 * a loop the compiler turns into vector code.
 *
 * Minima are kept as 32 bits: two different shingles collide with
 * probability 2^-32 per position, far below the estimator's own error
 * (1/sqrt(k), about 9 % at k = 128), and the signature takes half the room
 * of 64-bit minima in memory and in the database.
 *
 * Index: each stored signature keeps the low 8 bits of its minima (b-bit
 * minwise hashing, Li and Koenig, with b = 8): two signatures agree on a
 * position's 8 bits whenever they agree on its 32, and otherwise with
 * probability 1/256, so the count of agreeing positions can only gain --
 * no pair the full values would accept is lost. The gain is small against
 * the estimate's own noise: a pair of Jaccard 0.65 at k = 128 disagrees on
 * about 45 positions and gains 0.18 of a position on average, where the
 * estimate's standard deviation is 5 positions; and a near verdict is
 * confirmed on the pages' shingle sets (dedup_confirm), not on these
 * bits. Bands are keyed on the same 8-bit values (32 bits of a band at
 * r = 4). Each band has its own buckets, picked by the key (a hash of the
 * band's index and values); a bucket chains the entries filed in it,
 * newest first, through a link per entry and band of 25 bits packed (100
 * bytes for 32 bands where 32-bit links took 128): the older entry's
 * number, whose values are checked against the query's, since a chain
 * also holds other keys. Buckets hold up to POSTINGS_PER_BUCKET entries
 * on average. A query walks its bands' chains a step at a time together,
 * so their memory reads overlap, and merges them in descending entry
 * order, so a candidate met in several bands is verified once, without
 * allocating. At most 2^25 - 1 entries (the links' range).
 * Signatures, ids and links grow in chunks (util/chunks.h), never copied.
 */
#include "dedup/minhash.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "util/chunks.h"
#include "util/le.h"
#include "util/mix64.h"
#include "dedup/topk.h"
#include "dedup/words.h"

/* Bits of each minimum the index keeps (b of b-bit minwise hashing). */
typedef uint8_t minv_t;
/* Entries per bucket of a band on average at most: the chains a query
 * walks stay this short, and a band's heads cost 4 to 8 bits an entry.
 * With the bands walked together, chains of up to 8 cost less time than
 * chains of up to 4 walked one band after another did. */
#define POSTINGS_PER_BUCKET 8
#define FIRST_BUCKETS 16
#define BATCH 256 /* shingle hashes folded into the minima at once */

/* Entries per chunk of the index's arrays. */
#define CHUNK_SHIFT 10

struct minhash_index {
	size_t k;             /* positions per signature */
	size_t bands;         /* bands per signature */
	size_t rows;          /* positions per band: k / bands */
	struct chunks sig;    /* per entry: the minima's k low bytes */
	struct chunks id;     /* per entry: the caller's id */
	struct chunks link;   /* per entry: per band, LINK_BITS bits packed:
	                         the older entry in the band's bucket, or NIL */
	size_t n;             /* signatures stored */
	uint32_t *head;       /* bands x nbucket: each bucket's newest entry,
	                         or NIL */
	size_t nbucket;       /* buckets per band, a power of two */
};

/* The hash functions' constants, one pair per signature position. */
struct hashes {
	/* a_i split in halves: see fold. */
	uint32_t alo[MINHASH_MAX_PERMS];
	uint32_t ahi[MINHASH_MAX_PERMS];
	uint64_t b[MINHASH_MAX_PERMS];
};

_Static_assert(MINHASH_MAX_SHINGLE == WORDS_RING, "one ring of words");

/* 32 bits of an order-dependent hash of n word hashes from a ring. */
static uint32_t
shingle_hash(const uint64_t *ring, size_t first, size_t n)
{
	return (uint32_t)(words_shingle_hash(ring, first, n,
	    0x243f6a8885a308d3ULL) >> 32);
}

static void
hashes_init(struct hashes *hs, size_t k)
{
	size_t i;

	uint64_t a;

	for (i = 0; i < k; i++) {
		a = mix64(0x6a09e667f3bcc909ULL + i);
		hs->alo[i] = (uint32_t)a;
		hs->ahi[i] = (uint32_t)(a >> 32);
		hs->b[i] = mix64(0xbb67ae8584caa73bULL + i);
	}
}

/*
 * Lower sig[i] to min over x[0..nx) of h_i(x) = ((a_i x + b_i) mod 2^64)
 * >> 32. With a_i = ahi 2^32 + alo that is the top half of alo x + b_i
 * (mod 2^64) plus ahi x (mod 2^32): the same bits from a 32 x 32 -> 64 bit
 * multiply and a 32-bit one, which the compiler runs on vector lanes where
 * a 64 x 64 bit multiply would not vectorise. Position by position, all
 * shingles of the batch at once.
 */
#if defined(__GNUC__) && !defined(__clang__)
/* GCC vectorises this loop at -O3 only; clang at -O2 already. AVX2 has the
 * 32-bit multiply SSE2 lacks: a copy for it, chosen at load time. */
__attribute__((optimize("O3"), target_clones("avx2", "default")))
#endif
static void
fold(uint32_t *sig, size_t k, const struct hashes *hs, const uint32_t *x,
    size_t nx)
{
	uint64_t b;
	uint32_t m, h, alo, ahi;
	size_t i, j;

	for (i = 0; i < k; i++) {
		alo = hs->alo[i];
		ahi = hs->ahi[i];
		b = hs->b[i];
		m = sig[i];
		for (j = 0; j < nx; j++) {
			h = (uint32_t)(((uint64_t)alo * x[j] + b) >> 32) +
			    ahi * x[j];
			m = h < m ? h : m;
		}
		sig[i] = m;
	}
}

int
minhash_of_text(
    const char *text, size_t len, int shingle, size_t k, uint32_t *sig)
{
	return minhash_of_text_digits(text, len, shingle, k, sig, 1);
}

int
minhash_of_text_digits(const char *text, size_t len, int shingle, size_t k,
    uint32_t *sig, int fold_digits)
{
	struct hashes hs;
	const unsigned char *p = (const unsigned char *)text;
	uint64_t ring[MINHASH_MAX_SHINGLE];
	uint32_t x[BATCH];
	size_t i, start, words = 0, nx = 0, sh;

	if (k < MINHASH_MIN_PERMS || k > MINHASH_MAX_PERMS || shingle < 1 ||
	    shingle > MINHASH_MAX_SHINGLE)
		return -1;
	sh = (size_t)shingle;
	hashes_init(&hs, k);
	memset(sig, 0xff, k * sizeof(*sig));
	i = 0;
	while (p != NULL && i < len) {
		if (words_next(p, len, &i, &start) == 0)
			continue;
		ring[words % MINHASH_MAX_SHINGLE] =
		    words_hash(p + start, i - start, fold_digits);
		words++;
		if (words < sh)
			continue;
		x[nx++] =
		    shingle_hash(ring, (words - sh) % MINHASH_MAX_SHINGLE, sh);
		if (nx == BATCH) {
			fold(sig, k, &hs, x, nx);
			nx = 0;
		}
	}
	if (words > 0 && words < sh)
		x[nx++] = shingle_hash(ring, 0, words);
	fold(sig, k, &hs, x, nx);
	return 0;
}

size_t
minhash_agree(const uint32_t *a, const uint32_t *b, size_t k)
{
	size_t i, n = 0;

	for (i = 0; i < k; i++)
		n += a[i] == b[i];
	return n;
}

double
minhash_percent(int agree, size_t k)
{
	if (k == 0 || agree < 0)
		return 0.0;
	if ((size_t)agree > k)
		return 100.0;
	return agree * 100.0 / (double)k;
}

size_t
minhash_encode(const uint32_t *sig, size_t k, unsigned char *out)
{
	size_t i;

	for (i = 0; i < k; i++) {
		le32_put(out + 4 * i, sig[i]);
	}
	return 4 * k;
}

int
minhash_decode(const void *blob, size_t len, size_t k, uint32_t *sig)
{
	const unsigned char *p = blob;
	size_t i;

	if (p == NULL || k < MINHASH_MIN_PERMS || k > MINHASH_MAX_PERMS ||
	    len != 4 * k)
		return -1;
	for (i = 0; i < k; i++)
		sig[i] = le32_get(p + 4 * i);
	return 0;
}

/* A band's key: its index and low-bit values, hashed to 32 bits. */
static uint32_t
band_key(const minv_t *sig, size_t band, size_t rows)
{
	const minv_t *v = sig + band * rows;
	uint64_t h = mix64(0x3c6ef372fe94f82bULL + band);
	size_t i;

	for (i = 0; i < rows; i++)
		h = mix64(h ^ v[i]);
	return (uint32_t)h;
}

/* The low bits of sig[0..k), as the index keeps them. */
static void
low_bits(const uint32_t *sig, size_t k, minv_t *out)
{
	size_t i;

	for (i = 0; i < k; i++)
		out[i] = (minv_t)sig[i];
}

/* Bits of one link: an entry number, or NIL. */
#define LINK_BITS 25
#define NIL (((uint32_t)1 << LINK_BITS) - 1)
#define MAX_ENTRIES ((size_t)NIL)

static minv_t *
sig_of(const struct minhash_index *ix, size_t e)
{
	return chunks_at(&ix->sig, e);
}

/* Where band j's link of entry e starts: its first byte and bit. Four
 * bytes from there hold all 25 bits (a shift of at most 7), and they end
 * inside the entry's row (link_row_bytes). */
static unsigned char *
link_at(const struct minhash_index *ix, size_t e, size_t j, unsigned *shift)
{
	size_t bit = j * LINK_BITS;

	*shift = (unsigned)(bit & 7);
	return (unsigned char *)chunks_at(&ix->link, e) + bit / 8;
}

static size_t
link_row_bytes(size_t bands)
{
	return (bands * LINK_BITS + 7) / 8;
}

/* The entry before e in band j's bucket, or NIL. */
static uint32_t
link_get(const struct minhash_index *ix, size_t e, size_t j)
{
	unsigned shift;
	const unsigned char *p = link_at(ix, e, j, &shift);

	return (le32_get(p) >> shift) & NIL;
}

static void
link_set(const struct minhash_index *ix, size_t e, size_t j, uint32_t to)
{
	unsigned shift;
	unsigned char *p = link_at(ix, e, j, &shift);
	uint32_t w = le32_get(p);

	/* An entry number (below MAX_ENTRIES) or NIL: LINK_BITS hold it. */
	assert(to <= NIL);
	le32_put(p, (w & ~(NIL << shift)) | to << shift);
}

/* Band j's bucket for the band key of sig. */
static uint32_t *
head_of(const struct minhash_index *ix, const minv_t *sig, size_t j)
{
	return &ix->head[j * ix->nbucket +
	    (band_key(sig, j, ix->rows) & (ix->nbucket - 1))];
}

/* Bucket heads for bands x nbucket buckets, every one empty (NIL), or
 * NULL when out of memory. */
static uint32_t *
empty_heads(size_t bands, size_t nbucket)
{
	uint32_t *head = malloc(bands * nbucket * sizeof(*head));
	size_t i;

	for (i = 0; head != NULL && i < bands * nbucket; i++)
		head[i] = NIL;
	return head;
}

struct minhash_index *
minhash_index_new(size_t k, size_t bands)
{
	struct minhash_index *ix;

	if (k < MINHASH_MIN_PERMS || k > MINHASH_MAX_PERMS || bands < 1 ||
	    bands > k || k % bands != 0)
		return NULL;
	if ((ix = calloc(1, sizeof(*ix))) == NULL)
		return NULL;
	ix->k = k;
	ix->bands = bands;
	ix->rows = k / bands;
	chunks_init(&ix->sig, k * sizeof(minv_t), CHUNK_SHIFT);
	chunks_init(&ix->id, sizeof(int64_t), CHUNK_SHIFT);
	chunks_init(&ix->link, link_row_bytes(bands), CHUNK_SHIFT);
	ix->nbucket = FIRST_BUCKETS;
	if ((ix->head = empty_heads(bands, ix->nbucket)) == NULL)
		goto fail;
	return ix;
fail:
	minhash_index_free(ix);
	return NULL;
}

void
minhash_index_free(struct minhash_index *ix)
{
	if (ix == NULL)
		return;
	chunks_free(&ix->sig);
	chunks_free(&ix->id);
	chunks_free(&ix->link);
	free(ix->head);
	free(ix);
}

/* File entry e's bands at the heads of their buckets. */
static void
link_entry(struct minhash_index *ix, size_t e)
{
	const minv_t *v = sig_of(ix, e);
	uint32_t *h;
	size_t j;

	for (j = 0; j < ix->bands; j++) {
		h = head_of(ix, v, j);
		link_set(ix, e, j, *h);
		*h = (uint32_t)e;
	}
}

/* Rebuild the buckets with twice as many per band; chains stay newest
 * first because entries are relinked in order. */
static int
grow_buckets(struct minhash_index *ix)
{
	size_t nbucket = 2 * ix->nbucket, e;
	uint32_t *head;

	if ((head = empty_heads(ix->bands, nbucket)) == NULL)
		return -1;
	free(ix->head);
	ix->head = head;
	ix->nbucket = nbucket;
	for (e = 0; e < ix->n; e++)
		link_entry(ix, e);
	return 0;
}

int
minhash_index_add(struct minhash_index *ix, const uint32_t *sig, int64_t id)
{
	if (ix->n + 1 > MAX_ENTRIES ||
	    chunks_reserve(&ix->sig, ix->n + 1) != 0 ||
	    chunks_reserve(&ix->id, ix->n + 1) != 0 ||
	    chunks_reserve(&ix->link, ix->n + 1) != 0)
		return -1;
	if (ix->n + 1 > POSTINGS_PER_BUCKET * ix->nbucket &&
	    grow_buckets(ix) != 0)
		return -1;
	low_bits(sig, ix->k, sig_of(ix, ix->n));
	*(int64_t *)chunks_at(&ix->id, ix->n) = id;
	link_entry(ix, ix->n);
	ix->n++;
	return 0;
}

void
minhash_index_pop(struct minhash_index *ix)
{
	size_t j;

	if (ix->n == 0)
		return;
	ix->n--;
	/* The newest entry heads the chain of each of its buckets. */
	for (j = 0; j < ix->bands; j++)
		*head_of(ix, sig_of(ix, ix->n), j) = link_get(ix, ix->n, j);
}

/*
 * Move each band pend[0..np) of cur along its chain to the first entry
 * whose band values are the query's, or NIL (a chain also holds other
 * keys of the same bucket). The bands go a step at a time together: their
 * chains are independent, so the memory reads of one step overlap instead
 * of each waiting on the one before. pend is overwritten.
 */
static void
settle(const struct minhash_index *ix, uint32_t *cur, size_t *pend,
    size_t np, const minv_t *q)
{
	size_t i, j, keep, bytes = ix->rows * sizeof(*q);
	unsigned shift;

	while (np > 0) {
		for (i = 0; i < np; i++) {
			j = pend[i];
			if (cur[j] == NIL)
				continue;
			__builtin_prefetch(sig_of(ix, cur[j]) + j * ix->rows);
			__builtin_prefetch(link_at(ix, cur[j], j, &shift));
		}
		for (i = keep = 0; i < np; i++) {
			j = pend[i];
			if (cur[j] == NIL || memcmp(sig_of(ix, cur[j]) +
			    j * ix->rows, q + j * ix->rows, bytes) == 0)
				continue;
			cur[j] = link_get(ix, cur[j], j);
			pend[keep++] = j;
		}
		np = keep;
	}
}

static int
better(const void *va, const void *vb)
{
	const struct minhash_match *a = va, *b = vb;

	if (a->agree != b->agree)
		return a->agree > b->agree;
	return a->id < b->id;
}

/* Agreeing positions needed: agree * 100 >= threshold * k. */
static size_t
needed(size_t k, int threshold)
{
	if (threshold < 1)
		threshold = 1;
	return (k * (size_t)threshold + 99) / 100;
}

/* Positions where the kept bits of a[0..k) and b[0..k) agree. */
static size_t
agree_low(const minv_t *a, const minv_t *b, size_t k)
{
	size_t i, n = 0;

	for (i = 0; i < k; i++)
		n += a[i] == b[i];
	return n;
}

/* Verify entry e against q; count it in *found and out when it passes. */
static void
verify(const struct minhash_index *ix, size_t e, const minv_t *q,
    size_t need, struct minhash_match *out, size_t max, size_t *found)
{
	struct minhash_match m;
	size_t agree = agree_low(sig_of(ix, e), q, ix->k);

	if (agree < need)
		return;
	m.id = *(const int64_t *)chunks_at(&ix->id, e);
	m.agree = (int)agree;
	if (out != NULL && max > 0)
		topk_insert(out, max, *found, &m, sizeof(m), better);
	(*found)++;
}

size_t
minhash_index_query(const struct minhash_index *ix, const uint32_t *sig,
    int threshold, struct minhash_match *out, size_t max)
{
	uint32_t cur[MINHASH_MAX_PERMS], top;
	minv_t q[MINHASH_MAX_PERMS];
	size_t pend[MINHASH_MAX_PERMS];
	size_t j, np, found = 0, need, best, seen = 0;

	if (threshold > 100 || ix->n == 0)
		return 0;
	need = needed(ix->k, threshold);
	low_bits(sig, ix->k, q);
	for (j = 0; j < ix->bands; j++) {
		cur[j] = *head_of(ix, q, j);
		pend[j] = j;
	}
	settle(ix, cur, pend, ix->bands, q);
	for (;;) {
		/* Every band's chain runs newest entry first: take the newest
		 * entry any band still points at, then step past it. */
		top = NIL;
		for (j = 0; j < ix->bands; j++)
			if (cur[j] != NIL && (top == NIL || cur[j] > top))
				top = cur[j];
		if (top == NIL || seen++ == MINHASH_QUERY_CANDIDATES)
			break;
		best = top;
		for (j = np = 0; j < ix->bands; j++)
			if (cur[j] == best) {
				cur[j] = link_get(ix, best, j);
				pend[np++] = j;
			}
		settle(ix, cur, pend, np, q);
		verify(ix, best, q, need, out, max, &found);
	}
	return found;
}

size_t
minhash_index_scan(const struct minhash_index *ix, const uint32_t *sig,
    int threshold, struct minhash_match *out, size_t max)
{
	minv_t q[MINHASH_MAX_PERMS];
	size_t e, found = 0, need;

	if (threshold > 100)
		return 0;
	need = needed(ix->k, threshold);
	low_bits(sig, ix->k, q);
	for (e = ix->n; e-- > 0;)
		verify(ix, e, q, need, out, max, &found);
	return found;
}

size_t
minhash_index_keys(const struct minhash_index *ix, const uint32_t *sig,
    uint64_t *keys)
{
	minv_t q[MINHASH_MAX_PERMS];
	size_t j;

	low_bits(sig, ix->k, q);
	for (j = 0; j < ix->bands; j++)
		keys[j] = band_key(q, j, ix->rows);
	return ix->bands;
}

size_t
minhash_index_count(const struct minhash_index *ix)
{
	return ix->n;
}

size_t
minhash_index_bytes(const struct minhash_index *ix)
{
	return sizeof(*ix) + chunks_bytes(&ix->sig) + chunks_bytes(&ix->id) +
	    chunks_bytes(&ix->link) +
	    ix->bands * ix->nbucket * sizeof(*ix->head);
}
