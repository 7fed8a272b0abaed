/*
 * mix64: splitmix64's finaliser, shared by every hash in dedup/ so that a
 * change to it is one change (SimHash features depend on it: see
 * SIMHASH_FEATURES_VERSION). Every input bit reaches every output bit.
 */
#ifndef NC_MIX64_H
#define NC_MIX64_H

#include <stdint.h>

static inline uint64_t
mix64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return x;
}

#endif
