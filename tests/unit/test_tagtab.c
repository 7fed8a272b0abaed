/* util/tagtab and dedup/md5map: entries filed under hashes are all found
 * again (also where many share a home run and a tag, and across the end
 * of the table), taking back the newest puts leaves the rest findable,
 * and the MD5 map answers like a plain search over what it holds. */
#include "check.h"
#include "dedup/md5map.h"
#include "util/tagtab.h"

#include <stdint.h>
#include <string.h>

/* Whether entry e is among those the walk for hash yields. */
static int
yields(const struct tagtab *t, uint64_t hash, uint32_t e)
{
	struct tagtab_iter it;
	uint32_t got;

	tagtab_find(t, hash, &it);
	while (tagtab_next(&it, &got))
		if (got == e)
			return 1;
	return 0;
}

static void
test_all_found(void)
{
	enum { N = 3000, SLOTS = 4001 };
	static uint64_t h[N];
	struct tagtab t;
	uint64_t s = 1;
	size_t i, lost = 0, chance = 0;

	tagtab_init(&t);
	CHECK_INT(tagtab_reset(&t, 0), -1);
	CHECK_INT(tagtab_reset(&t, SLOTS), 0);
	for (i = 0; i < N; i++) {
		h[i] = check_splitmix(&s);
		/* Every tenth shares its predecessor's hash: one key, two
		 * entries. */
		if (i % 10 == 9)
			h[i] = h[i - 1];
		tagtab_put(&t, h[i], (uint32_t)i);
	}
	CHECK_INT(t.filled, N);
	for (i = 0; i < N; i++)
		lost += !yields(&t, h[i], (uint32_t)i);
	CHECK_INT(lost, 0);
	/* A walk yields other keys' entries only when tag and run agree:
	 * rarely. */
	for (i = 0; i < N; i++)
		chance += yields(&t, check_splitmix(&s), (uint32_t)i);
	CHECK(chance < 20);
	CHECK_INT(tagtab_bytes(&t), SLOTS * sizeof(uint32_t));
	tagtab_free(&t);
	CHECK_INT(tagtab_bytes(&t), 0);
}

/* Keys whose home is the last slot wrap to the first; the largest entry
 * number survives its shift into the slot word. */
static void
test_wrap_and_limits(void)
{
	struct tagtab t;
	struct tagtab_iter it;
	uint64_t last = UINT64_MAX; /* home = the last slot */
	uint32_t e;
	int n = 0;

	tagtab_init(&t);
	CHECK_INT(tagtab_reset(&t, 8), 0);
	tagtab_put(&t, last, TAGTAB_MAX_ENTRY);
	tagtab_put(&t, last, 0);
	tagtab_put(&t, last, 5);
	CHECK(t.slot[7] != 0 && t.slot[0] != 0 && t.slot[1] != 0);
	tagtab_find(&t, last, &it);
	while (tagtab_next(&it, &e))
		n += e == TAGTAB_MAX_ENTRY || e == 0 || e == 5;
	CHECK_INT(n, 3);
	/* Taken back newest first, the others stay. */
	CHECK_INT(tagtab_remove(&t, last, 5), 1);
	CHECK_INT(tagtab_remove(&t, last, 5), 0);
	CHECK(yields(&t, last, 0) && yields(&t, last, TAGTAB_MAX_ENTRY));
	CHECK_INT(t.filled, 2);
	/* A reset empties the table, and keeps its room. */
	CHECK_INT(tagtab_reset(&t, 4), 0);
	CHECK_INT(t.filled, 0);
	CHECK(!yields(&t, last, 0));
	CHECK_INT(tagtab_bytes(&t), 8 * sizeof(uint32_t));
	tagtab_free(&t);
}

/* Page id of the i-th digest: small ones, then from wide_at on, ids that
 * need 64 bits (negative, huge), so the map's ids widen midway. */
static int64_t
md5map_id(size_t i, size_t wide_at)
{
	if (i < wide_at)
		return (int64_t)i * 3 + 1;
	return i % 2 ? -(int64_t)i : ((int64_t)1 << 40) + (int64_t)i;
}

/* The MD5 map against a linear search: every stored digest finds its
 * first id, every other finds nothing, across many growths; with ids of
 * 32 bits and with ids that widen the column midway. */
static void
check_md5map(size_t wide_at)
{
	enum { N = 20000 };
	static unsigned char keys[N][MD5MAP_RAW];
	struct md5map m;
	unsigned char q[MD5MAP_RAW];
	int64_t got;
	uint64_t s = 7, v;
	size_t i, wrong = 0, ghosts = 0;

	md5map_init(&m);
	CHECK_INT(md5map_find(&m, keys[0], &got), 0);
	for (i = 0; i < N; i++) {
		v = check_splitmix(&s);
		memcpy(keys[i], &v, 8);
		/* Half the digests share their leading 8 bytes with the one
		 * before: the map must compare all 16. */
		if (i % 2 == 1)
			memcpy(keys[i], keys[i - 1], 8);
		v = check_splitmix(&s);
		memcpy(keys[i] + 8, &v, 8);
		CHECK_INT(md5map_reserve(&m, md5map_id(i, wide_at)), 0);
		md5map_add(&m, keys[i], md5map_id(i, wide_at));
	}
	for (i = 0; i < N; i++) {
		got = 0;
		wrong += !md5map_find(&m, keys[i], &got) ||
		    got != md5map_id(i, wide_at);
		memcpy(q, keys[i], MD5MAP_RAW);
		q[15] ^= 1;
		ghosts += md5map_find(&m, q, NULL);
	}
	CHECK_INT(wrong, 0);
	CHECK_INT(ghosts, 0);
	/* 16 bytes a digest, 4 an id (8 once wide) and 4-8 a slot, with a
	 * chunk of slack. */
	if (wide_at >= N) {
		CHECK(md5map_bytes(&m) >= N * (20 + 4));
		CHECK(md5map_bytes(&m) <= N * (20 + 8) + 4096 * 20 + 4096);
	} else {
		CHECK(md5map_bytes(&m) >= N * (24 + 4));
		CHECK(md5map_bytes(&m) <= N * (24 + 8) + 4096 * 24 + 4096);
	}
	md5map_free(&m);
	CHECK_INT(md5map_bytes(&m), 0);
}

static void
test_md5map(void)
{
	check_md5map(SIZE_MAX);
	check_md5map(12345);
	check_md5map(0);
}

void
suite_tagtab(void)
{
	RUN(test_all_found);
	RUN(test_wrap_and_limits);
	RUN(test_md5map);
}
