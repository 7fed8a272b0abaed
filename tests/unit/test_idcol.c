/* dedup/idcol: ids read back as stored in each of the column's three forms
 * (16-bit distances from a chunk's base, 32-bit ids, 64-bit ids), widened
 * by the first id a form cannot hold, also with ids in several chunks and
 * after an entry is taken back. */
#include "check.h"
#include "dedup/idcol.h"

#include <stdint.h>

enum { N = 5000 };

/* Fill a column of chunks of 256 with id_of(0..N-1), read them back and
 * return the column (to be freed by the caller). */
static void
fill(struct idcol *c, int64_t (*id_of)(size_t))
{
	size_t i, wrong = 0;

	idcol_init(c, 8);
	CHECK_INT(idcol_bytes(c), 0);
	for (i = 0; i < N; i++) {
		CHECK_INT(idcol_reserve(c, i + 1, id_of(i)), 0);
		idcol_set(c, i, id_of(i));
	}
	for (i = 0; i < N; i++)
		wrong += idcol_get(c, i) != id_of(i);
	CHECK_INT(wrong, 0);
}

/* Bytes of a column of N ids of `each` bytes: no less, and at most a chunk
 * of slack and the chunks' pointers and bases beyond. */
static void
check_bytes(const struct idcol *c, size_t each)
{
	CHECK(idcol_bytes(c) >= N * each);
	CHECK(idcol_bytes(c) <= N * each + 256 * each + 1024);
}

/* A crawl's ids: growing, with gaps. */
static int64_t
growing(size_t i)
{
	return 1000 + (int64_t)(i * 3 + i % 7);
}

/* Growing, then falling back a little within each chunk (other processes'
 * pages coming in late), up to the reach of a base. */
static int64_t
near_base(size_t i)
{
	size_t in = i % 256;

	if (in == 0)
		return 100000 + (int64_t)i * 40;
	return 100000 + (int64_t)(i - in) * 40 +
	    (in % 2 ? 32767 - (int64_t)in : -32768 + (int64_t)in);
}

/* Near, until one id jumps out of its base's reach. */
static int64_t
jump_at_700(size_t i)
{
	return (int64_t)i + (i >= 700 ? 40000 : 0);
}

/* 32-bit ones, then any int64_t from 4999 on. */
static int64_t
wide_at_4999(size_t i)
{
	if (i < 4999)
		return (int64_t)(UINT32_MAX - i * 977);
	return -(int64_t)i;
}

static int64_t
wide_at_0(size_t i)
{
	switch (i % 3) {
	case 0:
		return -(int64_t)i;
	case 1:
		return INT64_MAX - (int64_t)i;
	default:
		return INT64_MIN + (int64_t)i;
	}
}

/* The column of id_of(0..N-1) ends in form, at `each` bytes an id, and
 * is empty and in the offset form again once freed. */
static void
check_form(int64_t (*id_of)(size_t), enum idcol_form form, size_t each)
{
	struct idcol c;

	fill(&c, id_of);
	CHECK_INT(c.form, form);
	check_bytes(&c, each);
	idcol_free(&c);
	CHECK_INT(idcol_bytes(&c), 0);
	CHECK_INT(c.form, IDCOL_OFFSET);
}

static void
test_forms(void)
{
	check_form(growing, IDCOL_OFFSET, 2);
	check_form(near_base, IDCOL_OFFSET, 2);
	check_form(jump_at_700, IDCOL_NARROW, 4);
	check_form(wide_at_4999, IDCOL_WIDE, 8);
	check_form(wide_at_0, IDCOL_WIDE, 8);
}

/* Store id as entry i, appended as an index does. */
static void
put(struct idcol *c, size_t i, int64_t id)
{
	CHECK_INT(idcol_reserve(c, i + 1, id), 0);
	idcol_set(c, i, id);
}

/* One past the reach of a base on either side widens; the edges do not. */
static void
test_reach(void)
{
	struct idcol c;

	idcol_init(&c, 4);
	put(&c, 0, 50000);
	put(&c, 1, 50000 - 32768);
	put(&c, 2, 50000 + 32767);
	CHECK_INT(c.form, IDCOL_OFFSET);
	CHECK_INT(idcol_reserve(&c, 4, 50000 + 32768), 0);
	CHECK_INT(c.form, IDCOL_NARROW);
	idcol_set(&c, 3, 50000 + 32768);
	CHECK_INT(idcol_get(&c, 0), 50000);
	CHECK_INT(idcol_get(&c, 1), 50000 - 32768);
	CHECK_INT(idcol_get(&c, 2), 50000 + 32767);
	CHECK_INT(idcol_get(&c, 3), 50000 + 32768);
	idcol_free(&c);
	/* The next chunk starts a base of its own: far ids fit there. */
	idcol_init(&c, 1);
	put(&c, 0, 10);
	put(&c, 1, 11);
	put(&c, 2, 4000000000);
	CHECK_INT(c.form, IDCOL_OFFSET);
	CHECK_INT(idcol_get(&c, 2), 4000000000);
	CHECK_INT(idcol_reserve(&c, 4, 12), 0);
	CHECK_INT(c.form, IDCOL_NARROW);
	idcol_set(&c, 3, 12);
	CHECK_INT(idcol_get(&c, 1), 11);
	CHECK_INT(idcol_get(&c, 2), 4000000000);
	CHECK_INT(idcol_get(&c, 3), 12);
	idcol_free(&c);
}

/* An id stored, then overwritten by one that needs widening: the slot is
 * reused (as after an index's pop) and the others keep their values. */
static void
test_reuse_after_pop(void)
{
	struct idcol c;

	idcol_init(&c, 4);
	put(&c, 0, 7);
	put(&c, 1, 8);
	/* The second is taken back; its slot gets a wide id. */
	put(&c, 1, -5);
	CHECK_INT(c.form, IDCOL_WIDE);
	CHECK_INT(idcol_get(&c, 0), 7);
	CHECK_INT(idcol_get(&c, 1), -5);
	idcol_free(&c);
	/* Taken back and stored again within reach: still offsets. */
	idcol_init(&c, 4);
	put(&c, 0, 7);
	put(&c, 1, 8);
	put(&c, 1, 9);
	CHECK_INT(c.form, IDCOL_OFFSET);
	CHECK_INT(idcol_get(&c, 1), 9);
	idcol_free(&c);
}

void
suite_idcol(void)
{
	RUN(test_forms);
	RUN(test_reach);
	RUN(test_reuse_after_pop);
}
