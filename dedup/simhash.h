/*
 * simhash: Charikar's 64-bit SimHash of extracted text.
 *
 * The features and weights are documented in simhash.c and docs/dedup.md;
 * they are part of the stored data's meaning, so changing them changes the
 * value SIMHASH_FEATURES_VERSION, which the store records.
 */
#ifndef NC_SIMHASH_H
#define NC_SIMHASH_H

#include <stddef.h>
#include <stdint.h>

#define SIMHASH_FEATURES_VERSION 1

/* SimHash of text[0..len) (UTF-8). Empty text hashes to 0. Cannot fail. */
uint64_t simhash_of_text(const char *text, size_t len);

/* Hamming distance of two fingerprints, 0..64. */
int simhash_distance(uint64_t a, uint64_t b);

/* Similarity in percent for a distance: (64 - d) / 64 * 100. */
double simhash_percent(int distance);

#endif
