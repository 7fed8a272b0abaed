/*
 * ssdeep: context-triggered piecewise hashes (libfuzzy) of extracted text
 * and an index that finds every stored digest whose fuzzy_compare score with
 * a query reaches a threshold, without comparing against all of them.
 *
 * Index: two digests score above 0 only when their block sizes are equal or
 * one is double the other and, after libfuzzy's removal of runs of more than
 * three equal characters, the compared signature parts share a 7-character
 * substring (or are identical). Each stored digest's 7-grams are indexed under
 * (block size, gram) for its first part and (2 x block size, gram) for its
 * second part; a query looks up its own grams the same way, and candidates
 * are verified with fuzzy_compare, so answers equal a scan of every stored
 * digest. About 65-80 keys of 4-8 bytes each plus the digest: some
 * 400-650 bytes per stored digest (ssdeep.c has the layout); at most 2^25
 * (33,554,432) digests.
 */
#ifndef NC_SSDEEP_H
#define NC_SSDEEP_H

#include <stddef.h>
#include <stdint.h>

#include <fuzzy.h>

#define SSDEEP_MAX FUZZY_MAX_RESULT
/* Most keys ssdeep_keys writes: every 7-gram of two 64-character parts,
 * or the one key of a digest without grams. */
#define SSDEEP_KEYS_MAX (1 + 2 * (SPAMSUM_LENGTH - 7 + 1))

struct ssdeep_index;

struct ssdeep_match {
	int64_t id; /* the id given to ssdeep_index_add */
	int score;  /* fuzzy_compare score, 0..100 */
};

/* Digest of text[0..len), each '\n' read as ' ' (blocks were once joined
 * by spaces), into out. Returns 0, or -1 on libfuzzy failure (out is then
 * ""). */
int ssdeep_of_text(const char *text, size_t len, char out[SSDEEP_MAX]);

/*
 * fuzzy_compare of two digests: 0..100, or -1 if either is malformed.
 * Well formed is "BLOCKSIZE:PART1:PART2" with an optional ",..." suffix
 * (ignored), decimal digits only in BLOCKSIZE, and parts no longer than 64
 * characters once runs of more than three equal characters are cut; this
 * is slightly stricter than libfuzzy (no blanks or sign before the digits).
 */
int ssdeep_score(const char *a, const char *b);

/* New empty index; NULL when out of memory. */
struct ssdeep_index *ssdeep_index_new(void);

/* Free the index; NULL is fine. */
void ssdeep_index_free(struct ssdeep_index *ix);

/* Store digest under id. Returns 0, -1 when out of memory or full, -2 when
 * the digest is malformed (index unchanged on failure). */
int ssdeep_index_add(struct ssdeep_index *ix, const char *digest, int64_t id);

/*
 * Find stored digests scoring >= threshold (1..100) against digest. Writes up
 * to max matches best first (highest score, then smallest id) and returns the
 * number found (may exceed max); returns 0 for a malformed digest. A
 * threshold below 1 counts as 1 (score 0 means unrelated); above 100 finds
 * nothing. Cannot fail: it allocates nothing. It does write scratch marks
 * inside the index (which entries this query compared), so two queries on
 * one index must not run at the same time, const or not.
 */
size_t ssdeep_index_query(const struct ssdeep_index *ix, const char *digest,
    int threshold, struct ssdeep_match *out, size_t max);

/*
 * The keys digest is stored under, which are also the keys a lookup for it
 * probes (the index's own key hashes): (block size, gram) for each
 * distinct 7-gram of the run-cut first part, (2 x block size, gram) for
 * each of the second part, or, when neither part has a gram, one key for
 * the whole cut digest. The query compares a stored digest only after
 * checking that it really holds one of the query's keys (the gram at that
 * block size, or the same whole cut digest), so any digest it compares --
 * let alone reports -- shares a key with the query: keys(a) and keys(b)
 * intersect whenever either can find the other. The keys depend only on
 * the digest. Writes them (at most SSDEEP_KEYS_MAX) into keys
 * and returns their number; 0 for a malformed digest, which the index
 * neither stores nor looks up. Cannot fail.
 */
size_t ssdeep_keys(const char *digest, uint64_t keys[SSDEEP_KEYS_MAX]);

/* Number of digests stored. */
size_t ssdeep_index_count(const struct ssdeep_index *ix);

/* Bytes of memory the index holds (for reports). */
size_t ssdeep_index_bytes(const struct ssdeep_index *ix);

#endif
