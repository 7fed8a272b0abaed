/*
 * seen: a fixed-size memory of strings met lately, kept as 64-bit hashes.
 *
 * The crawl asks it before asking SQLite whether a link is queued already:
 * a site's template repeats the same links on every page, and a hit here
 * saves a statement. The memory is bounded (one slot per hash, overwritten
 * by later strings), so a miss says nothing; a hit means the string was
 * added, unless two strings share a 64-bit hash (about n * n / 2^65 for n
 * strings: 3e-6 for ten million).
 */
#ifndef NC_SEEN_H
#define NC_SEEN_H

#include <stddef.h>
#include <stdint.h>

/* Slots of a seen set are 2^bits, bits in this range. */
#define SEEN_MIN_BITS 4
#define SEEN_MAX_BITS 30

struct seen;

/* A set of 2^bits slots (8 bytes each). NULL on bad bits or no memory. */
struct seen *seen_new(unsigned bits);

/* Free it; NULL is fine. */
void seen_free(struct seen *s);

/* The 64-bit hash the set keeps for the n bytes at p. */
uint64_t seen_hash(const void *p, size_t n);

/* Whether the string with hash h is remembered: 1 or 0. */
int seen_has(const struct seen *s, uint64_t h);

/* Remember the string with hash h, maybe forgetting an older one. */
void seen_add(struct seen *s, uint64_t h);

#endif
