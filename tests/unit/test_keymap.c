/* util/keymap: every id filed is found again under its hash, through the
 * growths and across the end of the table, also where many hashes share
 * their top bits; a walk yields exactly the ids whose hashes share those
 * bits; ids out of range are refused and leave the map as it was. */
#include "check.h"
#include "util/keymap.h"

#include <stdint.h>
#include <stdlib.h>

/* How many times the walk for hash yields id, and how many ids it yields. */
static size_t
yields(const struct keymap *m, uint64_t hash, int64_t id, size_t *all)
{
	struct keymap_iter it;
	int64_t got;
	size_t n = 0;

	*all = 0;
	keymap_find(m, hash, &it);
	while (keymap_next(&it, &got)) {
		(*all)++;
		n += got == id;
	}
	return n;
}

static void
test_all_found(void)
{
	enum { N = 50000 };
	uint64_t *h = malloc(N * sizeof(*h));
	struct keymap m;
	uint64_t s = 3;
	size_t i, j, all, lost = 0, wrong = 0, shared = 0;

	CHECK(h != NULL);
	if (h == NULL)
		return;
	keymap_init(&m);
	/* An empty map yields nothing. */
	CHECK_INT(yields(&m, 42, 0, &all), 0);
	CHECK_INT(all, 0);
	for (i = 0; i < N; i++) {
		h[i] = check_splitmix(&s);
		/* Every eighth shares its predecessor's top bits, not its
		 * low ones: two keys the map cannot tell apart. */
		if (i % 8 == 7)
			h[i] = (h[i - 1] & ~(((uint64_t)1 << KEYMAP_ID_BITS) - 1)) |
			    (h[i] & (((uint64_t)1 << KEYMAP_ID_BITS) - 1));
		/* The last ids a slot can hold, and small ones. */
		CHECK_INT(keymap_put(&m, h[i], i % 2 ? KEYMAP_MAX_ID - (int64_t)i :
		    (int64_t)i), 0);
	}
	CHECK_INT(keymap_count(&m), N);
	CHECK(keymap_bytes(&m) >= N * 8 * 4 / 3);
	CHECK(keymap_bytes(&m) <= N * 8 * 2 + 8);
	for (i = 0; i < N; i++) {
		int64_t id = i % 2 ? KEYMAP_MAX_ID - (int64_t)i : (int64_t)i;

		if (yields(&m, h[i], id, &all) != 1)
			lost++;
		/* The ids yielded are those filed under the same top bits. */
		for (j = (i >= 1 ? i - 1 : 0); j <= i + 1 && j < N; j++)
			if (j != i && h[j] >> KEYMAP_ID_BITS ==
			    h[i] >> KEYMAP_ID_BITS)
				shared++;
		if (all < 1)
			wrong++;
	}
	CHECK_INT(lost, 0);
	CHECK_INT(wrong, 0);
	/* Each shared pair is seen from both sides. */
	CHECK(shared >= 2 * (N / 8));
	keymap_free(&m);
	free(h);
}

/* A walk yields exactly the ids of hashes with the same top bits. */
static void
test_walk_exact(void)
{
	struct keymap m;
	struct keymap_iter it;
	uint64_t top = (uint64_t)0x1234567 << KEYMAP_ID_BITS, s = 5;
	int64_t got, sum = 0;
	size_t i, n = 0;

	keymap_init(&m);
	for (i = 0; i < 2000; i++)
		CHECK_INT(keymap_put(&m, check_splitmix(&s), (int64_t)i + 100000), 0);
	/* Ten keys under one tag: a run of ten at one home. */
	for (i = 0; i < 10; i++)
		CHECK_INT(keymap_put(&m, top | check_splitmix(&s) >> KEYMAP_TAG_BITS,
		    (int64_t)i), 0);
	keymap_find(&m, top | 99, &it);
	while (keymap_next(&it, &got)) {
		n++;
		sum += got;
	}
	CHECK_INT(n, 10);
	CHECK_INT(sum, 45);
	keymap_free(&m);
}

static void
test_out_of_range(void)
{
	struct keymap m;
	size_t all;

	keymap_init(&m);
	CHECK_INT(keymap_put(&m, 1, -1), -1);
	CHECK_INT(keymap_put(&m, 1, KEYMAP_MAX_ID + 1), -1);
	CHECK_INT(keymap_count(&m), 0);
	CHECK_INT(keymap_put(&m, 1, 0), 0);
	CHECK_INT(keymap_put(&m, 1, 0), 0);
	/* The same id twice under one hash is kept twice. */
	CHECK_INT(yields(&m, 1, 0, &all), 2);
	keymap_free(&m);
	CHECK_INT(keymap_count(&m), 0);
}

void
suite_keymap(void)
{
	RUN(test_all_found);
	RUN(test_walk_exact);
	RUN(test_out_of_range);
}
