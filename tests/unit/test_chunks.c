/* util/chunks: items stay where they were written across growth, the
 * first chunk grows by doubling, later ones one at a time, and the bytes
 * reported are what was allocated. */
#include "check.h"
#include "util/chunks.h"

#include <stdint.h>

static void
test_items_survive_growth(void)
{
	struct chunks c;
	size_t i, bad = 0;

	chunks_init(&c, sizeof(uint64_t), 4); /* 16 per chunk */
	CHECK_INT(chunks_bytes(&c), 0);
	for (i = 0; i < 1000; i++) {
		CHECK_INT(chunks_reserve(&c, i + 1), 0);
		*(uint64_t *)chunks_at(&c, i) = i * 2654435761u;
	}
	for (i = 0; i < 1000; i++)
		bad += *(uint64_t *)chunks_at(&c, i) != i * 2654435761u;
	CHECK_INT(bad, 0);
	/* 63 chunks of 16 items, and the pointer array (64 slots). */
	CHECK_INT(c.nchunk, 63);
	CHECK_INT(chunks_bytes(&c), 63 * 16 * 8 + 64 * sizeof(void *));
	chunks_free(&c);
	CHECK_INT(chunks_bytes(&c), 0);
	CHECK(c.chunk == NULL);
}

static void
test_first_chunk_doubles(void)
{
	struct chunks c;
	size_t i;
	int zero = 1;

	chunks_init(&c, 3, 10); /* 1024 items of 3 bytes per chunk */
	CHECK_INT(chunks_reserve(&c, 5), 0);
	CHECK_INT(c.first, 16);
	CHECK_INT(chunks_reserve(&c, 17), 0);
	CHECK_INT(c.first, 32);
	/* New items are zeroed, also where the first chunk grew. */
	for (i = 0; i < 32; i++)
		zero &= ((unsigned char *)chunks_at(&c, i))[2] == 0;
	CHECK(zero);
	((unsigned char *)chunks_at(&c, 31))[0] = 7;
	CHECK_INT(chunks_reserve(&c, 3000), 0);
	CHECK_INT(c.first, 1024);
	CHECK_INT(c.nchunk, 3);
	CHECK_INT(((unsigned char *)chunks_at(&c, 31))[0], 7);
	CHECK_INT(((unsigned char *)chunks_at(&c, 2999))[1], 0);
	/* Reserving less than held changes nothing. */
	CHECK_INT(chunks_reserve(&c, 10), 0);
	CHECK_INT(c.nchunk, 3);
	chunks_free(&c);
}

void
suite_chunks(void)
{
	RUN(test_items_survive_growth);
	RUN(test_first_chunk_doubles);
}
