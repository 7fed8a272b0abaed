/*
 * radix: sorting 32-bit values by their bytes (LSD radix sort), for the
 * sets of shingle hashes every page builds: linear in n, where qsort's
 * comparisons through a function pointer were a tenth of a page's work.
 */
#ifndef NC_RADIX_H
#define NC_RADIX_H

#include <stddef.h>
#include <stdint.h>

/* Sort a[0..n) ascending, using tmp[0..n) as scratch (its contents are
 * then undefined). Cannot fail. */
void radix_sort_u32(uint32_t *a, uint32_t *tmp, size_t n);

#endif
