/*
 * chunks: a growable array of fixed-size items kept in chunks of
 * 2^shift items. The first chunk grows by doubling, from 16 items, as a
 * small array would; past it, growing allocates one more chunk: items
 * never move again, the array is never held twice (as a doubling realloc
 * holds it), and at most one chunk is allocated beyond what is used --
 * where a doubling array keeps a third of its memory unused on average.
 *
 * Items are zeroed when made. chunks_at is valid for i below the room
 * last reserved; an item of the first chunk may move when it grows.
 */
#ifndef NC_CHUNKS_H
#define NC_CHUNKS_H

#include <stddef.h>

struct chunks {
	size_t size;          /* bytes per item */
	unsigned shift;       /* items per chunk: 1 << shift */
	unsigned char **chunk; /* the chunks, in order */
	size_t nchunk;        /* chunks made */
	size_t cap;           /* pointers chunk has room for */
	size_t first;         /* items the first chunk has room for */
};

/* An empty array of items of size bytes, 2^shift per chunk (shift at most
 * 24). Allocates nothing. */
void chunks_init(struct chunks *c, size_t size, unsigned shift);

/* Room for n items: 0, or -1 when out of memory (c as it was, or with
 * more room). */
int chunks_reserve(struct chunks *c, size_t n);

/* Item i (i below the room reserved). */
static inline void *
chunks_at(const struct chunks *c, size_t i)
{
	return c->chunk[i >> c->shift] +
	    (i & (((size_t)1 << c->shift) - 1)) * c->size;
}

/* Bytes the array holds: its chunks and their pointers. */
size_t chunks_bytes(const struct chunks *c);

/* Free every chunk; c is then empty, as chunks_init left it. */
void chunks_free(struct chunks *c);

#endif
