/*
 * le: a 32-bit value as 4 little-endian bytes, whatever the machine. The
 * byte order of the blobs the dedup methods store (MinHash signatures,
 * shingle set blocks, TDW vectors) and of the MinHash index's packed
 * links. Header only: the compiler turns each into one load or store.
 */
#ifndef NC_LE_H
#define NC_LE_H

#include <stdint.h>

/* The value stored at p[0..4). */
static inline uint32_t
le32_get(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24;
}

/* Store v at p[0..4). */
static inline void
le32_put(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

#endif
