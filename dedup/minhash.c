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
 * newest first, through a link per entry and band: the older entry's
 * number, whose values are checked against the query's, since a chain
 * also holds other keys. Buckets hold up to POSTINGS_PER_BUCKET entries
 * on average, so entry numbers stay below POSTINGS_PER_BUCKET times the
 * buckets of a band, and a link is just that wide: log2 of it, 20 bits at
 * a million entries (80 bytes for 32 bands), 14 at ten thousand, where a
 * fixed 25 bits took 100 bytes. A link to the entry itself ends a chain
 * (a link always names an older entry), so no value is spent on "none".
 * Bucket heads are packed a bit wider (entry + 1, 0 for empty). When the
 * buckets double the links and heads gain a bit and are rebuilt, as the
 * chains are. A query walks its bands' chains a step at a time together,
 * so their memory reads overlap, and merges them in descending entry
 * order, so a candidate met in several bands is verified once, without
 * allocating. At most 2^25 - 1 entries. Signatures, ids (2 bytes while
 * they stay near each other: dedup/idcol.h) and links grow in chunks
 * (util/chunks.h), never copied but for a rebuild of the links.
 */
#include "dedup/minhash.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "util/chunks.h"
#include "util/le.h"
#include "util/mix64.h"
#include "dedup/idcol.h"
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

/* Entries per chunk of the index's arrays: 32 KiB of minima at k = 128,
 * a small share of even a small crawl's index left unused. */
#define CHUNK_SHIFT 8

struct minhash_index {
	size_t k;             /* positions per signature */
	size_t bands;         /* bands per signature */
	size_t rows;          /* positions per band: k / bands */
	struct chunks sig;    /* per entry: the minima's k low bytes */
	struct idcol id;      /* per entry: the caller's id */
	struct chunks link;   /* per entry: per band, width bits packed: the
	                         older entry in the band's bucket, or the
	                         entry itself for none */
	size_t n;             /* signatures stored */
	unsigned char *head;  /* bands x nbucket fields of width + 1 bits:
	                         each bucket's newest entry + 1, or 0 */
	size_t nbucket;       /* buckets per band, a power of two */
	unsigned width;       /* bits of a link: log2(POSTINGS_PER_BUCKET x
	                         nbucket) */
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
	return minhash_of_text_words(text, len, NULL, shingle, k, sig,
	    fold_digits);
}

int
minhash_of_text_words(const char *text, size_t len,
    const struct words_seq *ws, int shingle, size_t k, uint32_t *sig,
    int fold_digits)
{
	struct hashes hs;
	struct words_reader r;
	uint64_t ring[MINHASH_MAX_SHINGLE], h;
	uint32_t x[BATCH];
	size_t words = 0, nx = 0, sh;

	if (k < MINHASH_MIN_PERMS || k > MINHASH_MAX_PERMS || shingle < 1 ||
	    shingle > MINHASH_MAX_SHINGLE)
		return -1;
	sh = (size_t)shingle;
	hashes_init(&hs, k);
	memset(sig, 0xff, k * sizeof(*sig));
	words_reader_init(&r, text, len, ws, fold_digits, 0);
	while (words_reader_next(&r, &h)) {
		ring[words % MINHASH_MAX_SHINGLE] = h;
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

/*
 * Links and bucket heads are bit fields of width bits (at most 26, at a
 * shift of at most 7: five bytes). A field with 8 bytes of its array
 * after its first byte (avail counts them) is read in one load; one near
 * the end of a row or array a byte at a time, so that no byte past it is
 * read.
 */
static uint32_t
bits_get(const unsigned char *p, size_t bit, unsigned width, size_t avail)
{
	unsigned shift = (unsigned)(bit & 7), i, nb = (shift + width + 7) / 8;
	uint64_t v = 0;

	p += bit / 8;
	if (avail >= bit / 8 + 8) {
		memcpy(&v, p, sizeof(v));
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
		v = __builtin_bswap64(v);
#endif
	} else {
		for (i = 0; i < nb; i++)
			v |= (uint64_t)p[i] << (8 * i);
	}
	return (uint32_t)(v >> shift) & (((uint32_t)1 << width) - 1);
}

static void
bits_set(unsigned char *p, size_t bit, unsigned width, uint32_t to)
{
	unsigned shift = (unsigned)(bit & 7), i, nb = (shift + width + 7) / 8;
	uint64_t v = 0, mask = (((uint64_t)1 << width) - 1) << shift;

	assert(width < 32 && to >> width == 0);
	p += bit / 8;
	for (i = 0; i < nb; i++)
		v |= (uint64_t)p[i] << (8 * i);
	v = (v & ~mask) | (uint64_t)to << shift;
	for (i = 0; i < nb; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

/* Entries at most: 2^25 - 1, as before links were sized to the index. */
#define MAX_ENTRIES ((((size_t)1) << 25) - 1)
/* No entry, in a walk's cursor. */
#define NIL UINT32_MAX

static minv_t *
sig_of(const struct minhash_index *ix, size_t e)
{
	return chunks_at(&ix->sig, e);
}

/* Bits of a link for nbucket buckets a band: entries stay below
 * POSTINGS_PER_BUCKET * nbucket, so an entry number fits; a bucket head
 * takes one more bit, for its "empty". */
static unsigned
link_bits(size_t nbucket)
{
	unsigned w = 0;

	while (((size_t)1 << w) < POSTINGS_PER_BUCKET * nbucket)
		w++;
	return w;
}

static size_t
link_row_bytes(size_t bands, unsigned width)
{
	return (bands * width + 7) / 8;
}

/* The entry before e in band j's bucket, or NIL: a link to e itself says
 * there is none, since a link always names an older entry. */
static uint32_t
link_get(const struct minhash_index *ix, size_t e, size_t j)
{
	uint32_t to = bits_get(chunks_at(&ix->link, e), j * ix->width,
	    ix->width, ix->link.size);

	return to == e ? NIL : to;
}

static void
link_set(struct chunks *link, unsigned width, size_t e, size_t j,
    uint32_t to)
{
	bits_set(chunks_at(link, e), j * width, width, to == NIL ?
	    (uint32_t)e : to);
}

/* Where band j's bucket for the band key of sig is among the heads. */
static size_t
head_at(const struct minhash_index *ix, const minv_t *sig, size_t j)
{
	return j * ix->nbucket +
	    (band_key(sig, j, ix->rows) & (ix->nbucket - 1));
}

static size_t
heads_bytes(size_t bands, size_t nbucket, unsigned width)
{
	return (bands * nbucket * (width + 1) + 7) / 8;
}

/* A bucket's newest entry, or NIL: heads hold entry + 1, 0 when empty. */
static uint32_t
head_get(const struct minhash_index *ix, size_t h)
{
	return bits_get(ix->head, h * (ix->width + 1), ix->width + 1,
	    heads_bytes(ix->bands, ix->nbucket, ix->width)) - 1;
}

static void
head_set(unsigned char *head, unsigned width, size_t h, uint32_t e)
{
	bits_set(head, h * (width + 1), width + 1, e + 1);
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
	ix->nbucket = FIRST_BUCKETS;
	ix->width = link_bits(ix->nbucket);
	chunks_init(&ix->sig, k * sizeof(minv_t), CHUNK_SHIFT);
	idcol_init(&ix->id, CHUNK_SHIFT);
	chunks_init(&ix->link, link_row_bytes(bands, ix->width), CHUNK_SHIFT);
	/* calloc: every head 0, every bucket empty. */
	ix->head = calloc(1, heads_bytes(bands, ix->nbucket, ix->width));
	if (ix->head == NULL)
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
	idcol_free(&ix->id);
	chunks_free(&ix->link);
	free(ix->head);
	free(ix);
}

/* File entry e's bands at the heads of their buckets, into link and head
 * of width bits for nbucket buckets a band. */
static void
link_entry(struct minhash_index *ix, struct chunks *link,
    unsigned char *head, unsigned width, size_t nbucket, size_t e)
{
	const minv_t *v = sig_of(ix, e);
	size_t j, h;

	for (j = 0; j < ix->bands; j++) {
		h = j * nbucket + (band_key(v, j, ix->rows) & (nbucket - 1));
		link_set(link, width, e, j, bits_get(head, h * (width + 1),
		    width + 1, heads_bytes(ix->bands, nbucket, width)) - 1);
		head_set(head, width, h, (uint32_t)e);
	}
}

/*
 * Rebuild the buckets with twice as many per band, and the links and
 * heads a bit wider, for the entries they will number; chains stay newest
 * first because entries are relinked in order. Room is made for `room`
 * entries. -1 with the index as it was when memory runs out.
 */
static int
grow_buckets(struct minhash_index *ix, size_t room)
{
	size_t nbucket = 2 * ix->nbucket, e;
	unsigned width = link_bits(nbucket);
	struct chunks link;
	unsigned char *head;

	chunks_init(&link, link_row_bytes(ix->bands, width), CHUNK_SHIFT);
	if (chunks_reserve(&link, room) != 0 ||
	    (head = calloc(1, heads_bytes(ix->bands, nbucket, width))) ==
	    NULL) {
		chunks_free(&link);
		return -1;
	}
	for (e = 0; e < ix->n; e++)
		link_entry(ix, &link, head, width, nbucket, e);
	chunks_free(&ix->link);
	ix->link = link;
	free(ix->head);
	ix->head = head;
	ix->nbucket = nbucket;
	ix->width = width;
	return 0;
}

int
minhash_index_add(struct minhash_index *ix, const uint32_t *sig, int64_t id)
{
	if (ix->n + 1 > MAX_ENTRIES ||
	    chunks_reserve(&ix->sig, ix->n + 1) != 0 ||
	    idcol_reserve(&ix->id, ix->n + 1, id) != 0)
		return -1;
	if (ix->n + 1 > POSTINGS_PER_BUCKET * ix->nbucket) {
		if (grow_buckets(ix, ix->n + 1) != 0)
			return -1;
	} else if (chunks_reserve(&ix->link, ix->n + 1) != 0)
		return -1;
	low_bits(sig, ix->k, sig_of(ix, ix->n));
	idcol_set(&ix->id, ix->n, id);
	link_entry(ix, &ix->link, ix->head, ix->width, ix->nbucket, ix->n);
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
		head_set(ix->head, ix->width, head_at(ix, sig_of(ix, ix->n), j),
		    link_get(ix, ix->n, j));
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

	while (np > 0) {
		for (i = 0; i < np; i++) {
			j = pend[i];
			if (cur[j] == NIL)
				continue;
			__builtin_prefetch(sig_of(ix, cur[j]) + j * ix->rows);
			__builtin_prefetch((unsigned char *)chunks_at(
			    &ix->link, cur[j]) + j * ix->width / 8);
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
	m.id = idcol_get(&ix->id, e);
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
		cur[j] = head_get(ix, head_at(ix, q, j));
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
	return sizeof(*ix) + chunks_bytes(&ix->sig) + idcol_bytes(&ix->id) +
	    chunks_bytes(&ix->link) +
	    heads_bytes(ix->bands, ix->nbucket, ix->width);
}
