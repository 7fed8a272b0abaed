/*
 * idcol: page ids in 4 bytes each until one needs 8 (idcol.h).
 */
#include "dedup/idcol.h"

#include <assert.h>

void
idcol_init(struct idcol *c, unsigned shift)
{
	chunks_init(&c->narrow, sizeof(uint32_t), shift);
	chunks_init(&c->wide, sizeof(int64_t), shift);
	c->is_wide = 0;
	c->n = 0;
}

void
idcol_free(struct idcol *c)
{
	chunks_free(&c->narrow);
	chunks_free(&c->wide);
	idcol_init(c, c->narrow.shift);
}

static int
fits(int64_t id)
{
	return id >= 0 && id <= (int64_t)UINT32_MAX;
}

/* Copy every id the narrow column has room for into the wide one, then
 * drop the narrow one; -1 with the column still narrow. */
static int
widen(struct idcol *c)
{
	size_t i;

	if (chunks_reserve(&c->wide, c->n > 0 ? c->n : 1) != 0) {
		chunks_free(&c->wide);
		return -1;
	}
	for (i = 0; i < c->n; i++)
		*(int64_t *)chunks_at(&c->wide, i) =
		    *(const uint32_t *)chunks_at(&c->narrow, i);
	chunks_free(&c->narrow);
	c->is_wide = 1;
	return 0;
}

int
idcol_reserve(struct idcol *c, size_t n, int64_t id)
{
	if (!c->is_wide && !fits(id) && widen(c) != 0)
		return -1;
	if (chunks_reserve(c->is_wide ? &c->wide : &c->narrow, n) != 0)
		return -1;
	if (n > c->n)
		c->n = n;
	return 0;
}

void
idcol_set(struct idcol *c, size_t i, int64_t id)
{
	assert(i < c->n);
	if (c->is_wide) {
		*(int64_t *)chunks_at(&c->wide, i) = id;
		return;
	}
	/* idcol_reserve widened the column for an id that does not fit. */
	assert(fits(id));
	*(uint32_t *)chunks_at(&c->narrow, i) = (uint32_t)id;
}

int64_t
idcol_get(const struct idcol *c, size_t i)
{
	if (c->is_wide)
		return *(const int64_t *)chunks_at(&c->wide, i);
	return *(const uint32_t *)chunks_at(&c->narrow, i);
}

size_t
idcol_bytes(const struct idcol *c)
{
	return chunks_bytes(&c->narrow) + chunks_bytes(&c->wide);
}
