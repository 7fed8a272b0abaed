/* dedup/idcol: ids read back as stored, narrow while they fit 32 bits and
 * after one that does not widened the column, also when the widening
 * happens with ids in several chunks. */
#include "check.h"
#include "dedup/idcol.h"

#include <stdint.h>

/* The id of entry i: 32-bit ones, then from wide_at on any int64_t. */
static int64_t
id_of(size_t i, size_t wide_at)
{
	if (i < wide_at)
		return (int64_t)(UINT32_MAX - i * 977);
	switch (i % 3) {
	case 0:
		return -(int64_t)i;
	case 1:
		return INT64_MAX - (int64_t)i;
	default:
		return (int64_t)i;
	}
}

static void
check_ids(size_t wide_at)
{
	enum { N = 5000 };
	struct idcol c;
	size_t i, wrong = 0;

	idcol_init(&c, 8);
	CHECK_INT(idcol_bytes(&c), 0);
	for (i = 0; i < N; i++) {
		CHECK_INT(idcol_reserve(&c, i + 1, id_of(i, wide_at)), 0);
		idcol_set(&c, i, id_of(i, wide_at));
	}
	for (i = 0; i < N; i++)
		wrong += idcol_get(&c, i) != id_of(i, wide_at);
	CHECK_INT(wrong, 0);
	CHECK_INT(c.is_wide, wide_at < N);
	/* 4 bytes an id while narrow, 8 once wide, a chunk of slack. */
	CHECK(idcol_bytes(&c) >= N * (wide_at < N ? 8 : 4));
	CHECK(idcol_bytes(&c) <= N * (wide_at < N ? 8 : 4) + 256 * 8 + 512);
	idcol_free(&c);
	CHECK_INT(idcol_bytes(&c), 0);
	CHECK_INT(c.is_wide, 0);
}

static void
test_narrow(void)
{
	check_ids(SIZE_MAX);
}

static void
test_widens(void)
{
	check_ids(0);
	check_ids(1);
	check_ids(700);
	check_ids(4999);
}

/* An id stored, then overwritten by one that needs widening: the slot is
 * reused (as after an index's pop) and the others keep their values. */
static void
test_reuse_after_pop(void)
{
	struct idcol c;

	idcol_init(&c, 4);
	CHECK_INT(idcol_reserve(&c, 1, 7), 0);
	idcol_set(&c, 0, 7);
	CHECK_INT(idcol_reserve(&c, 2, 8), 0);
	idcol_set(&c, 1, 8);
	/* The second is taken back; its slot gets a wide id. */
	CHECK_INT(idcol_reserve(&c, 2, -5), 0);
	idcol_set(&c, 1, -5);
	CHECK_INT(idcol_get(&c, 0), 7);
	CHECK_INT(idcol_get(&c, 1), -5);
	idcol_free(&c);
}

void
suite_idcol(void)
{
	RUN(test_narrow);
	RUN(test_widens);
	RUN(test_reuse_after_pop);
}
