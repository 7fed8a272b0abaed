/*
 * radix: LSD radix sort of 32-bit values (radix.h).
 */
#include "util/radix.h"

#include <string.h>

/* Below this a plain insertion sort is quicker than four passes. */
#define SMALL 32

static void
insertion_sort(uint32_t *a, size_t n)
{
	size_t i, j;
	uint32_t v;

	for (i = 1; i < n; i++) {
		v = a[i];
		for (j = i; j > 0 && a[j - 1] > v; j--)
			a[j] = a[j - 1];
		a[j] = v;
	}
}

void
radix_sort_u32(uint32_t *a, uint32_t *tmp, size_t n)
{
	size_t count[4][256], pos[256], i, sum;
	uint32_t *from = a, *to = tmp, *t;
	unsigned b;

	if (n < SMALL) {
		insertion_sort(a, n);
		return;
	}
	memset(count, 0, sizeof(count));
	for (i = 0; i < n; i++)
		for (b = 0; b < 4; b++)
			count[b][(a[i] >> (8 * b)) & 0xff]++;
	for (b = 0; b < 4; b++) {
		/* A byte all values share orders nothing: skip its pass. */
		if (count[b][(a[0] >> (8 * b)) & 0xff] == n)
			continue;
		for (i = 0, sum = 0; i < 256; i++) {
			pos[i] = sum;
			sum += count[b][i];
		}
		for (i = 0; i < n; i++)
			to[pos[(from[i] >> (8 * b)) & 0xff]++] = from[i];
		t = from;
		from = to;
		to = t;
	}
	if (from != a)
		memcpy(a, from, n * sizeof(*a));
}

/* Stable insertion sort by the high halves. */
static void
insertion_sort_high(uint64_t *a, size_t n)
{
	size_t i, j;
	uint64_t v;

	for (i = 1; i < n; i++) {
		v = a[i];
		for (j = i; j > 0 && a[j - 1] >> 32 > v >> 32; j--)
			a[j] = a[j - 1];
		a[j] = v;
	}
}

void
radix_sort_u64_high(uint64_t *a, uint64_t *tmp, size_t n)
{
	size_t count[4][256], pos[256], i, sum;
	uint64_t *from = a, *to = tmp, *t;
	unsigned b;

	if (n < SMALL) {
		insertion_sort_high(a, n);
		return;
	}
	memset(count, 0, sizeof(count));
	for (i = 0; i < n; i++)
		for (b = 0; b < 4; b++)
			count[b][(a[i] >> (32 + 8 * b)) & 0xff]++;
	for (b = 0; b < 4; b++) {
		if (count[b][(a[0] >> (32 + 8 * b)) & 0xff] == n)
			continue;
		for (i = 0, sum = 0; i < 256; i++) {
			pos[i] = sum;
			sum += count[b][i];
		}
		for (i = 0; i < n; i++)
			to[pos[(from[i] >> (32 + 8 * b)) & 0xff]++] = from[i];
		t = from;
		from = to;
		to = t;
	}
	if (from != a)
		memcpy(a, from, n * sizeof(*a));
}
