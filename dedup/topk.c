#include "dedup/topk.h"

#include <string.h>

void
topk_insert(void *out, size_t max, size_t kept, const void *m, size_t size,
    int (*better)(const void *a, const void *b))
{
	char *o = out;
	size_t i;

	if (kept > max)
		kept = max;
	i = kept;
	while (i > 0 && better(m, o + (i - 1) * size))
		i--;
	if (i >= max)
		return;
	if (kept == max)
		kept--;
	memmove(o + (i + 1) * size, o + i * size, (kept - i) * size);
	memcpy(o + i * size, m, size);
}
