/*
 * topk: keep the best max results of a query, best first, without sorting
 * all of them (the indexes may find many more matches than they report).
 */
#ifndef NC_TOPK_H
#define NC_TOPK_H

#include <stddef.h>

/*
 * Insert the element m (size bytes) into out[0..min(kept, max)), which is
 * ordered best first by better(a, b) ("a ranks before b"); an element that
 * falls past max is dropped. Cannot fail.
 */
void topk_insert(void *out, size_t max, size_t kept, const void *m,
    size_t size, int (*better)(const void *a, const void *b));

#endif
