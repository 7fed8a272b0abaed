/* util/radix: the sort agrees with qsort on random arrays of every size
 * around its small-array cut, on values that share bytes (skipped
 * passes), and on duplicates. */
#include "check.h"
#include "util/radix.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int
cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* Sort n values drawn with mask (and a few duplicates) both ways. */
static int
agrees(size_t n, uint32_t mask, uint64_t seed)
{
	static uint32_t a[5000], b[5000], tmp[5000];
	uint64_t s = seed;
	size_t i;

	for (i = 0; i < n; i++) {
		a[i] = (uint32_t)check_xorshift(&s) & mask;
		if (i > 0 && i % 7 == 0)
			a[i] = a[i - 1];
	}
	memcpy(b, a, n * sizeof(*a));
	radix_sort_u32(a, tmp, n);
	qsort(b, n, sizeof(*b), cmp);
	return memcmp(a, b, n * sizeof(*a)) == 0;
}

static void
test_agrees_with_qsort(void)
{
	static const size_t sizes[] = { 0, 1, 2, 31, 32, 33, 100, 4999 };
	static const uint32_t masks[] = { UINT32_MAX, 0xff, 0xff00ff00,
		0x0000ffff, 0 };
	size_t i, j, bad = 0;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		for (j = 0; j < sizeof(masks) / sizeof(masks[0]); j++)
			bad += !agrees(sizes[i], masks[j], 1 + i * 10 + j);
	CHECK_INT(bad, 0);
}

static int
cmp_high(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	/* The low half breaks ties: the sort keeps equal keys in their
	 * order, and the test numbers them in order. */
	return x < y ? -1 : x > y;
}

/* High halves drawn with mask, the low half each value's place. */
static int
agrees_high(size_t n, uint32_t mask, uint64_t seed)
{
	static uint64_t a[5000], b[5000], tmp[5000];
	uint64_t s = seed;
	size_t i;

	for (i = 0; i < n; i++) {
		a[i] = (uint64_t)((uint32_t)check_xorshift(&s) & mask) << 32 | i;
		if (i > 0 && i % 7 == 0)
			a[i] = (a[i - 1] & 0xffffffff00000000ULL) | i;
	}
	memcpy(b, a, n * sizeof(*a));
	radix_sort_u64_high(a, tmp, n);
	qsort(b, n, sizeof(*b), cmp_high);
	return memcmp(a, b, n * sizeof(*a)) == 0;
}

static void
test_high_agrees_with_qsort(void)
{
	static const size_t sizes[] = { 0, 1, 2, 31, 32, 33, 100, 4999 };
	static const uint32_t masks[] = { UINT32_MAX, 0xff, 0xff00ff00,
		0x00ffffff, 0 };
	size_t i, j, bad = 0;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		for (j = 0; j < sizeof(masks) / sizeof(masks[0]); j++)
			bad += !agrees_high(sizes[i], masks[j], 1 + i * 10 + j);
	CHECK_INT(bad, 0);
}

void
suite_radix(void)
{
	RUN(test_agrees_with_qsort);
	RUN(test_high_agrees_with_qsort);
}
