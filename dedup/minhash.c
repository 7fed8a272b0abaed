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
 * Index: signatures live in one array (k 32-bit values each); every band of
 * every signature is a posting {entry, next, key} chained from a bucket
 * picked by the key, a 32-bit hash of the band's index and values, newest
 * entry first, as in ssdeep.c. A query merges its bands' chains in
 * descending entry order, so a candidate met in several bands is verified
 * once, without allocating.
 */
#include "dedup/minhash.h"

#include <stdlib.h>
#include <string.h>

#include "util/mix64.h"
#include "dedup/topk.h"
#include "dedup/words.h"

#define NIL UINT32_MAX
#define MAX_POSTINGS ((size_t)UINT32_MAX - 1)
#define FIRST_BUCKETS 64
#define BATCH 256 /* shingle hashes folded into the minima at once */

/*
 * Postings are stored in entry order, bands of an entry together: posting
 * c belongs to entry c / bands, which it need not keep.
 */
struct posting {
	uint32_t next;  /* older posting in the same bucket, or NIL */
	uint32_t key;   /* band key, to skip other keys sharing a bucket */
};

struct minhash_index {
	size_t k;             /* positions per signature */
	size_t bands;         /* bands per signature */
	size_t rows;          /* positions per band: k / bands */
	uint32_t *sig;        /* n signatures of k values, in add order */
	int64_t *id;          /* caller's id of each signature */
	size_t n;             /* signatures stored */
	size_t cap;           /* signatures allocated (sig and id) */
	struct posting *post; /* n * bands postings, in entry order */
	size_t post_cap;      /* postings allocated */
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

/* A band's key: its index and values, hashed to 32 bits. */
static uint32_t
band_key(const uint32_t *sig, size_t band, size_t rows)
{
	const uint32_t *v = sig + band * rows;
	uint64_t h = mix64(0x3c6ef372fe94f82bULL + band);
	size_t i;

	for (i = 0; i < rows; i++)
		h = mix64(h ^ v[i]);
	return (uint32_t)h;
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
	free(ix->sig);
	free(ix->id);
	free(ix->post);
	free(ix->head);
	free(ix);
}

/* Make room for one more signature and its postings; -1 (nothing lost)
 * when out of memory or past the 32-bit posting numbers. */
static int
reserve(struct minhash_index *ix)
{
	size_t cap, pcap, need = (ix->n + 1) * ix->bands;
	uint32_t *sig;
	int64_t *id;
	struct posting *post;

	if (need > MAX_POSTINGS)
		return -1;
	if (ix->n + 1 > ix->cap) {
		cap = ix->cap ? ix->cap * 2 : 16;
		if (cap * ix->bands > MAX_POSTINGS)
			cap = MAX_POSTINGS / ix->bands;
		/* Each realloc that succeeds is kept: the arrays only grow,
		 * and cap rises once both have. */
		if ((sig = realloc(ix->sig, cap * ix->k * sizeof(*sig))) ==
		    NULL)
			return -1;
		ix->sig = sig;
		if ((id = realloc(ix->id, cap * sizeof(*id))) == NULL)
			return -1;
		ix->id = id;
		ix->cap = cap;
	}
	if (need > ix->post_cap) {
		pcap = ix->cap * ix->bands;
		if ((post = realloc(ix->post, pcap * sizeof(*post))) == NULL)
			return -1;
		ix->post = post;
		ix->post_cap = pcap;
	}
	return 0;
}

/* Rebuild the buckets with at least need of them; chains stay newest
 * first because postings are relinked in entry order. */
static int
grow_buckets(struct minhash_index *ix, size_t need)
{
	size_t nbucket = ix->nbucket, i, b, npost = ix->n * ix->bands;
	uint32_t *head;

	while (nbucket < need)
		nbucket *= 2;
	if ((head = malloc(nbucket * sizeof(*head))) == NULL)
		return -1;
	memset(head, 0xff, nbucket * sizeof(*head));
	for (i = 0; i < npost; i++) {
		b = ix->post[i].key & (nbucket - 1);
		ix->post[i].next = head[b];
		head[b] = (uint32_t)i;
	}
	free(ix->head);
	ix->head = head;
	ix->nbucket = nbucket;
	return 0;
}

int
minhash_index_add(struct minhash_index *ix, const uint32_t *sig, int64_t id)
{
	struct posting *p;
	size_t j, b, npost = ix->n * ix->bands;

	if (reserve(ix) != 0)
		return -1;
	/* At most one posting per bucket on average keeps chains short. */
	if (npost + ix->bands > ix->nbucket &&
	    grow_buckets(ix, npost + ix->bands) != 0)
		return -1;
	memcpy(ix->sig + ix->n * ix->k, sig, ix->k * sizeof(*sig));
	ix->id[ix->n] = id;
	for (j = 0; j < ix->bands; j++) {
		p = &ix->post[npost + j];
		p->key = band_key(sig, j, ix->rows);
		b = p->key & (ix->nbucket - 1);
		p->next = ix->head[b];
		ix->head[b] = (uint32_t)(npost + j);
	}
	ix->n++;
	return 0;
}

void
minhash_index_pop(struct minhash_index *ix)
{
	size_t j, first;
	struct posting *p;

	if (ix->n == 0)
		return;
	ix->n--;
	first = ix->n * ix->bands;
	/* The newest entry's postings head their chains, last band on top. */
	for (j = ix->bands; j-- > 0;) {
		p = &ix->post[first + j];
		ix->head[p->key & (ix->nbucket - 1)] = p->next;
	}
}

/* First posting at or after c that carries key. */
static uint32_t
skip_to_key(const struct minhash_index *ix, uint32_t c, uint32_t key)
{
	while (c != NIL && ix->post[c].key != key)
		c = ix->post[c].next;
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

/* Verify entry e against sig; count it in *found and out when it passes. */
static void
verify(const struct minhash_index *ix, size_t e, const uint32_t *sig,
    size_t need, struct minhash_match *out, size_t max, size_t *found)
{
	struct minhash_match m;
	size_t agree = minhash_agree(ix->sig + e * ix->k, sig, ix->k);

	if (agree < need)
		return;
	m.id = ix->id[e];
	m.agree = (int)agree;
	if (out != NULL && max > 0)
		topk_insert(out, max, *found, &m, sizeof(m), better);
	(*found)++;
}

size_t
minhash_index_query(const struct minhash_index *ix, const uint32_t *sig,
    int threshold, struct minhash_match *out, size_t max)
{
	uint32_t keys[MINHASH_MAX_PERMS], cur[MINHASH_MAX_PERMS], top;
	size_t j, found = 0, need, best, seen = 0;

	if (threshold > 100 || ix->n == 0)
		return 0;
	need = needed(ix->k, threshold);
	for (j = 0; j < ix->bands; j++) {
		keys[j] = band_key(sig, j, ix->rows);
		cur[j] = skip_to_key(
		    ix, ix->head[keys[j] & (ix->nbucket - 1)], keys[j]);
	}
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
				cur[j] = skip_to_key(
				    ix, ix->post[cur[j]].next, keys[j]);
		verify(ix, best, sig, need, out, max, &found);
	}
	return found;
}

size_t
minhash_index_scan(const struct minhash_index *ix, const uint32_t *sig,
    int threshold, struct minhash_match *out, size_t max)
{
	size_t e, found = 0, need;

	if (threshold > 100)
		return 0;
	need = needed(ix->k, threshold);
	for (e = ix->n; e-- > 0;)
		verify(ix, e, sig, need, out, max, &found);
	return found;
}

size_t
minhash_index_keys(const struct minhash_index *ix, const uint32_t *sig,
    uint64_t *keys)
{
	size_t j;

	for (j = 0; j < ix->bands; j++)
		keys[j] = band_key(sig, j, ix->rows);
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
	return sizeof(*ix) +
	    ix->cap * (ix->k * sizeof(*ix->sig) + sizeof(*ix->id)) +
	    ix->post_cap * sizeof(struct posting) +
	    ix->nbucket * sizeof(*ix->head);
}
