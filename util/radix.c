/*
 * radix: LSD radix sort by a 32-bit key, a byte a pass (radix.h).
 */
#include "util/radix.h"

#include <string.h>

/* Below this a plain insertion sort is quicker than four passes. */
#define SMALL 32

/*
 * One sort for each kind of value: NAME sorts values of type T by the
 * 32-bit key KEY(v), stably. Written once as a macro so that each kind
 * gets its key inlined: through a function pointer the key would cost
 * more than the sort.
 */
#define RADIX_SORT(NAME, T, KEY)                                              \
static void                                                                  \
NAME##_small(T *a, size_t n)                                                 \
{                                                                            \
	size_t i, j;                                                         \
	T v;                                                                 \
                                                                             \
	for (i = 1; i < n; i++) {                                            \
		v = a[i];                                                    \
		for (j = i; j > 0 && KEY(a[j - 1]) > KEY(v); j--)            \
			a[j] = a[j - 1];                                     \
		a[j] = v;                                                    \
	}                                                                    \
}                                                                            \
                                                                             \
void                                                                         \
NAME(T *a, T *tmp, size_t n)                                                 \
{                                                                            \
	size_t count[4][256], pos[256], i, sum;                              \
	T *from = a, *to = tmp, *t;                                          \
	unsigned b;                                                          \
                                                                             \
	if (n < SMALL) {                                                     \
		NAME##_small(a, n);                                          \
		return;                                                      \
	}                                                                    \
	memset(count, 0, sizeof(count));                                     \
	for (i = 0; i < n; i++)                                              \
		for (b = 0; b < 4; b++)                                      \
			count[b][(KEY(a[i]) >> (8 * b)) & 0xff]++;           \
	for (b = 0; b < 4; b++) {                                            \
		/* A byte all values share orders nothing: skip its pass. */ \
		if (count[b][(KEY(a[0]) >> (8 * b)) & 0xff] == n)            \
			continue;                                            \
		for (i = 0, sum = 0; i < 256; i++) {                         \
			pos[i] = sum;                                        \
			sum += count[b][i];                                  \
		}                                                            \
		for (i = 0; i < n; i++)                                      \
			to[pos[(KEY(from[i]) >> (8 * b)) & 0xff]++] =        \
			    from[i];                                         \
		t = from;                                                    \
		from = to;                                                   \
		to = t;                                                      \
	}                                                                    \
	if (from != a)                                                       \
		memcpy(a, from, n * sizeof(*a));                             \
}

#define KEY_ITSELF(v) ((uint32_t)(v))
#define KEY_HIGH(v) ((uint32_t)((v) >> 32))

RADIX_SORT(radix_sort_u32, uint32_t, KEY_ITSELF)
RADIX_SORT(radix_sort_u64_high, uint64_t, KEY_HIGH)
