/* chunks: see chunks.h. */
#include "util/chunks.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void
chunks_init(struct chunks *c, size_t size, unsigned shift)
{
	c->size = size;
	c->shift = shift > 24 ? 24 : shift;
	c->chunk = NULL;
	c->nchunk = 0;
	c->cap = 0;
	c->first = 0;
}

/* Grow the first chunk to hold n items (at most a chunk's worth). */
static int
grow_first(struct chunks *c, size_t n)
{
	size_t per = (size_t)1 << c->shift, want = c->first ? c->first : 16;
	unsigned char *grown;

	while (want < n)
		want *= 2;
	if (want > per)
		want = per;
	if ((grown = realloc(c->chunk[0], want * c->size)) == NULL)
		return -1;
	memset(grown + c->first * c->size, 0, (want - c->first) * c->size);
	c->chunk[0] = grown;
	c->first = want;
	return 0;
}

int
chunks_reserve(struct chunks *c, size_t n)
{
	size_t per = (size_t)1 << c->shift, need = (n + per - 1) / per, cap;
	unsigned char **grown, *one;

	if (c->size == 0 || c->size > SIZE_MAX / per)
		return -1;
	if (c->nchunk > 0 && c->first < per && n > c->first &&
	    grow_first(c, n) != 0)
		return -1;
	while (c->nchunk < need) {
		if (c->nchunk == c->cap) {
			cap = c->cap ? c->cap * 2 : 8;
			if (cap > SIZE_MAX / sizeof(*grown) ||
			    (grown = realloc(c->chunk, cap * sizeof(*grown))) ==
			    NULL)
				return -1;
			c->chunk = grown;
			c->cap = cap;
		}
		if (c->nchunk == 0) {
			c->chunk[0] = NULL;
			c->first = 0;
			c->nchunk = 1;
			if (grow_first(c, n) != 0) {
				c->nchunk = 0;
				return -1;
			}
			continue;
		}
		if ((one = calloc(per, c->size)) == NULL)
			return -1;
		c->chunk[c->nchunk++] = one;
	}
	return 0;
}

size_t
chunks_bytes(const struct chunks *c)
{
	size_t full = c->nchunk > 1 ? c->nchunk - 1 : 0;

	return (c->first + full * ((size_t)1 << c->shift)) * c->size +
	    c->cap * sizeof(*c->chunk);
}

void
chunks_free(struct chunks *c)
{
	size_t i;

	for (i = 0; i < c->nchunk; i++)
		free(c->chunk[i]);
	free(c->chunk);
	c->chunk = NULL;
	c->nchunk = 0;
	c->cap = 0;
	c->first = 0;
}
