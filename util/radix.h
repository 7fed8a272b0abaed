/*
 * radix: sorting 32-bit values by their bytes (LSD radix sort), for the
 * sets of shingle hashes every page builds: linear in n, where qsort's
 * comparisons through a function pointer were a tenth of a page's work;
 * and 64-bit values by their high half, to sort keys with what they
 * belong to.
 */
#ifndef NC_RADIX_H
#define NC_RADIX_H

#include <stddef.h>
#include <stdint.h>

/* Sort a[0..n) ascending, using tmp[0..n) as scratch (its contents are
 * then undefined). Cannot fail. */
void radix_sort_u32(uint32_t *a, uint32_t *tmp, size_t n);

/*
 * Sort a[0..n) ascending by the high 32 bits alone, values of equal high
 * halves kept in their order (a key in the high half, what it belongs to
 * in the low), using tmp[0..n) as scratch. Cannot fail.
 */
void radix_sort_u64_high(uint64_t *a, uint64_t *tmp, size_t n);

#endif
