/*
 * minhash: signatures over word shingles and an LSH banding index.
 *
 * Features (MINHASH_FEATURES_VERSION 1): words are what simhash.c calls
 * words (maximal runs of ASCII letters/digits and bytes >= 0x80, ASCII
 * lower-cased, every all-digit word the same word, so dates and counters do
 * not tell pages apart); a shingle is a run of `shingle` words, hashed
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
 * r = 4), and every band of every signature is a posting chained from a
 * bucket picked by the key, a hash of the band's index and values, newest
 * entry first, as in ssdeep.c. A posting is only its link (4 bytes): posting c is band
 * c % bands of entry c / bands, whose values it is checked against; the
 * buckets hold up to POSTINGS_PER_BUCKET postings on average. A
 * query merges its bands' chains in descending entry order, so a
 * candidate met in several bands is verified once, without allocating.
 * Signatures, ids and links grow in chunks (util/chunks.h), never copied.
 */
#include "dedup/minhash.h"

#include <stdlib.h>
#include <string.h>

#include "util/chunks.h"
#include "util/mix64.h"
#include "dedup/topk.h"
#include "dedup/words.h"

#define NIL UINT32_MAX
/* Bits of each minimum the index keeps (b of b-bit minwise hashing). */
typedef uint8_t minv_t;
/* Postings per bucket on average at most: chains a query walks stay this
 * short, and the heads cost a byte or two a posting. */
#define POSTINGS_PER_BUCKET 4
#define MAX_POSTINGS ((size_t)UINT32_MAX - 1)
#define FIRST_BUCKETS 64
#define BATCH 256 /* shingle hashes folded into the minima at once */

/* Entries per chunk of the index's arrays. */
#define CHUNK_SHIFT 12

struct minhash_index {
	size_t k;             /* positions per signature */
	size_t bands;         /* bands per signature */
	size_t rows;          /* positions per band: k / bands */
	struct chunks sig;    /* per entry: the minima's k low bytes */
	struct chunks id;     /* per entry: the caller's id */
	struct chunks next;   /* per entry: each band posting's older posting
	                         in its bucket, or NIL */
	size_t n;             /* signatures stored */
	uint32_t *head;       /* newest posting of each bucket, or NIL */
	size_t nbucket;       /* buckets, a power of two */
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
		out[4 * i] = (unsigned char)sig[i];
		out[4 * i + 1] = (unsigned char)(sig[i] >> 8);
		out[4 * i + 2] = (unsigned char)(sig[i] >> 16);
		out[4 * i + 3] = (unsigned char)(sig[i] >> 24);
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
		sig[i] = (uint32_t)p[4 * i] | (uint32_t)p[4 * i + 1] << 8 |
		    (uint32_t)p[4 * i + 2] << 16 | (uint32_t)p[4 * i + 3] << 24;
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

static minv_t *
sig_of(const struct minhash_index *ix, size_t e)
{
	return chunks_at(&ix->sig, e);
}

/* Posting c's link. */
static uint32_t *
next_of(const struct minhash_index *ix, size_t c)
{
	return (uint32_t *)chunks_at(&ix->next, c / ix->bands) + c % ix->bands;
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
	chunks_init(&ix->next, bands * sizeof(uint32_t), CHUNK_SHIFT);
	ix->nbucket = FIRST_BUCKETS;
	ix->head = malloc(ix->nbucket * sizeof(*ix->head));
	if (ix->head == NULL)
		goto fail;
	memset(ix->head, 0xff, ix->nbucket * sizeof(*ix->head));
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
	chunks_free(&ix->next);
	free(ix->head);
	free(ix);
}

/* Rebuild the buckets with at least need of them; chains stay newest
 * first because postings are relinked in entry order. */
static int
grow_buckets(struct minhash_index *ix, size_t need)
{
	size_t nbucket = ix->nbucket, e, j, b;
	uint32_t *head;

	while (nbucket < need)
		nbucket *= 2;
	if ((head = malloc(nbucket * sizeof(*head))) == NULL)
		return -1;
	memset(head, 0xff, nbucket * sizeof(*head));
	for (e = 0; e < ix->n; e++)
		for (j = 0; j < ix->bands; j++) {
			b = band_key(sig_of(ix, e), j, ix->rows) & (nbucket - 1);
			*next_of(ix, e * ix->bands + j) = head[b];
			head[b] = (uint32_t)(e * ix->bands + j);
		}
	free(ix->head);
	ix->head = head;
	ix->nbucket = nbucket;
	return 0;
}

int
minhash_index_add(struct minhash_index *ix, const uint32_t *sig, int64_t id)
{
	size_t j, b, c, npost = ix->n * ix->bands;
	minv_t *v;

	if ((ix->n + 1) * ix->bands > MAX_POSTINGS ||
	    chunks_reserve(&ix->sig, ix->n + 1) != 0 ||
	    chunks_reserve(&ix->id, ix->n + 1) != 0 ||
	    chunks_reserve(&ix->next, ix->n + 1) != 0)
		return -1;
	if (npost + ix->bands > POSTINGS_PER_BUCKET * ix->nbucket &&
	    grow_buckets(ix, (npost + ix->bands + POSTINGS_PER_BUCKET - 1) /
	    POSTINGS_PER_BUCKET) != 0)
		return -1;
	v = sig_of(ix, ix->n);
	low_bits(sig, ix->k, v);
	*(int64_t *)chunks_at(&ix->id, ix->n) = id;
	for (j = 0; j < ix->bands; j++) {
		c = npost + j;
		b = band_key(v, j, ix->rows) & (ix->nbucket - 1);
		*next_of(ix, c) = ix->head[b];
		ix->head[b] = (uint32_t)c;
	}
	ix->n++;
	return 0;
}

void
minhash_index_pop(struct minhash_index *ix)
{
	size_t j, first;
	minv_t *v;

	if (ix->n == 0)
		return;
	ix->n--;
	first = ix->n * ix->bands;
	v = sig_of(ix, ix->n);
	/* The newest entry's postings head their chains, last band on top. */
	for (j = ix->bands; j-- > 0;)
		ix->head[band_key(v, j, ix->rows) & (ix->nbucket - 1)] =
		    *next_of(ix, first + j);
}

/* First posting at or after c of band j whose values are the query's. */
static uint32_t
skip_to_band(const struct minhash_index *ix, uint32_t c, size_t j,
    const minv_t *q)
{
	size_t off = j * ix->rows, bytes = ix->rows * sizeof(*q);

	while (c != NIL && (c % ix->bands != j ||
	    memcmp(sig_of(ix, c / ix->bands) + off, q + off, bytes) != 0))
		c = *next_of(ix, c);
	return c;
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
	size_t j, found = 0, need, best, seen = 0;

	if (threshold > 100 || ix->n == 0)
		return 0;
	need = needed(ix->k, threshold);
	low_bits(sig, ix->k, q);
	for (j = 0; j < ix->bands; j++)
		cur[j] = skip_to_band(ix, ix->head[band_key(q, j, ix->rows) &
		    (ix->nbucket - 1)], j, q);
	for (;;) {
		/* Every band's postings run newest entry first: take the
		 * newest entry any band still points at (the highest
		 * posting's), then step past it. */
		top = NIL;
		for (j = 0; j < ix->bands; j++)
			if (cur[j] != NIL && (top == NIL || cur[j] > top))
				top = cur[j];
		if (top == NIL || seen++ == MINHASH_QUERY_CANDIDATES)
			break;
		best = top / ix->bands;
		for (j = 0; j < ix->bands; j++)
			if (cur[j] != NIL && cur[j] / ix->bands == best)
				cur[j] = skip_to_band(ix, *next_of(ix, cur[j]), j,
				    q);
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
	    chunks_bytes(&ix->next) + ix->nbucket * sizeof(*ix->head);
}
