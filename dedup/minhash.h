/*
 * minhash: MinHash signatures of extracted text and an LSH index that finds
 * stored signatures whose estimated Jaccard similarity with a query reaches
 * a threshold, without comparing against all of them.
 *
 * A text is the set of its word shingles (runs of `shingle` words, words as
 * in simhash.c, every all-digit word folded into one). Each of k hash
 * functions h_i maps a shingle to 32 bits; the signature is the k minima.
 * Two sets agree on position i with probability equal to their Jaccard
 * similarity J, so the share of agreeing positions estimates J with
 * standard deviation sqrt(J (1 - J) / k).
 *
 * Index (banding): the signature is cut into b bands of r = k / b rows; two
 * signatures that agree on every row of some band land in the same bucket
 * and become candidates, which happens with probability 1 - (1 - J^r)^b.
 * Candidates are verified on the whole signature. The index keeps the low
 * 8 bits of each minimum (b-bit minwise hashing): it agrees wherever the
 * full values do, and elsewhere with probability 1/256.
 *
 * The shingles and hash functions are part of the stored data's meaning:
 * changing them changes MINHASH_FEATURES_VERSION, which the store records.
 */
#ifndef NC_MINHASH_H
#define NC_MINHASH_H

#include <stddef.h>
#include <stdint.h>

struct words_seq;

#define MINHASH_FEATURES_VERSION 2
#define MINHASH_MAX_PERMS 512 /* longest signature */
#define MINHASH_MIN_PERMS 8   /* shortest: fewer cannot tell 90 % from 100 % */
#define MINHASH_MAX_SHINGLE 8 /* longest shingle, in words */
#define MINHASH_BLOB_MAX (4 * MINHASH_MAX_PERMS) /* bytes of a stored one */

struct minhash_index;

struct minhash_match {
	int64_t id; /* the id given to minhash_index_add */
	int agree;  /* positions equal to the query's, 0..k */
};

/*
 * Signature of text[0..len) (UTF-8) with k hash functions (MINHASH_MIN_PERMS
 * ..MINHASH_MAX_PERMS) over shingles of `shingle` words (1..
 * MINHASH_MAX_SHINGLE) into sig[0..k). A text with fewer words than a
 * shingle is one shingle; a text with no word is the empty set, whose
 * minima are all UINT32_MAX. Position i does not depend on k, so a shorter
 * signature is a prefix of a longer one. Returns 0, or -1 (sig untouched)
 * for k or shingle out of range. Allocates nothing.
 */
int minhash_of_text(
    const char *text, size_t len, int shingle, size_t k, uint32_t *sig);

/* The same, with all-digit words folded into one (fold_digits 1, as
 * minhash_of_text does) or read as they are (0). */
int minhash_of_text_digits(const char *text, size_t len, int shingle,
    size_t k, uint32_t *sig, int fold_digits);

/* minhash_of_text_digits of text[0..len) from its words ws read once
 * already (words.h; NULL: read the text): the same signature either way. */
int minhash_of_text_words(const char *text, size_t len,
    const struct words_seq *ws, int shingle, size_t k, uint32_t *sig,
    int fold_digits);

/* Positions where a[0..k) and b[0..k) agree, 0..k. */
size_t minhash_agree(const uint32_t *a, const uint32_t *b, size_t k);

/* Estimated Jaccard similarity in percent for agree of k positions. */
double minhash_percent(int agree, size_t k);

/*
 * Write sig[0..k) as 4 k bytes, little-endian whatever the machine, into
 * out (MINHASH_BLOB_MAX bytes suffice). Returns the bytes written.
 */
size_t minhash_encode(const uint32_t *sig, size_t k, unsigned char *out);

/*
 * Read a stored signature of k positions back from len bytes. Returns 0, or
 * -1 (sig untouched) when len is not 4 k or k is out of range.
 */
int minhash_decode(const void *blob, size_t len, size_t k, uint32_t *sig);

/*
 * New empty index for signatures of k positions cut into `bands` bands
 * (bands divides k; rows per band = k / bands). NULL when k is out of range,
 * bands does not divide it, or out of memory.
 */
struct minhash_index *minhash_index_new(size_t k, size_t bands);

/* Free the index; NULL is fine. */
void minhash_index_free(struct minhash_index *ix);

/* Store sig[0..k) under id (a copy of its values' low 8 bits is kept).
 * Returns 0, or -1 when out of memory or full (2^25 - 1 signatures; index
 * unchanged). */
int minhash_index_add(
    struct minhash_index *ix, const uint32_t *sig, int64_t id);

/*
 * Forget the signature stored last, undoing its minhash_index_add, so a
 * caller that adds one page to several indexes can keep them consistent
 * when a later add fails. Does nothing on an empty index. Cannot fail.
 */
void minhash_index_pop(struct minhash_index *ix);

/* Candidates one query verifies at most, the newest first. */
#define MINHASH_QUERY_CANDIDATES 4096

/*
 * Find stored signatures that share a band with sig (the LSH candidates)
 * and whose estimated Jaccard similarity is at least threshold percent
 * (agree * 100 >= threshold * k, agree counted on the values' low 8
 * bits; below 1 counts as 1, above 100 finds nothing). Writes up to max matches best first (most agreeing positions,
 * then smallest id) and returns the number found (may exceed max). Every
 * answer is also an answer of minhash_index_scan; a pair of Jaccard J is
 * missed with probability about (1 - J^r)^b. Only the newest
 * MINHASH_QUERY_CANDIDATES candidates are verified: thousands of pages
 * alike (a generated calendar) would otherwise make every query verify
 * them all, the index's time growing with the square of the crawl; an
 * original older than those is missed, and a page is then judged unique,
 * the safe error. Cannot fail: allocates nothing.
 */
size_t minhash_index_query(const struct minhash_index *ix, const uint32_t *sig,
    int threshold, struct minhash_match *out, size_t max);

/*
 * The same question answered by comparing sig with every stored signature:
 * the exact answer the buckets approximate, for tests and measurements.
 * Same threshold, order and return value as minhash_index_query.
 */
size_t minhash_index_scan(const struct minhash_index *ix, const uint32_t *sig,
    int threshold, struct minhash_match *out, size_t max);

/*
 * The keys sig[0..k) is stored under, which are also the keys a lookup for
 * it probes: one per band, the band's number and 8-bit values hashed to
 * 32 bits (the index's own band key), widened to 64. The query follows a
 * band's bucket only to entries with the same values in that band, hence
 * the same key, so any signature it can report
 * shares a key with the query: keys(a) and keys(b) intersect whenever
 * either can find the other. The keys depend only on sig, k and the band count,
 * never on what is stored. Writes the index's band count (at most
 * MINHASH_MAX_PERMS) keys into keys, some perhaps equal, and returns it.
 * Cannot fail.
 */
size_t minhash_index_keys(const struct minhash_index *ix,
    const uint32_t *sig, uint64_t *keys);

/* Number of signatures stored. */
size_t minhash_index_count(const struct minhash_index *ix);

/* Bytes of memory the index holds (for reports). */
size_t minhash_index_bytes(const struct minhash_index *ix);

#endif
