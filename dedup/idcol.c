/*
 * idcol: page ids in 2 bytes each while they stay near their chunk's
 * first, then in 4, then in 8 (idcol.h).
 */
#include "dedup/idcol.h"

#include <assert.h>

#define BIAS 32768 /* an offset of 0 is this far below the base */
#define BASE_SHIFT 6 /* bases per chunk of bases */

void
idcol_init(struct idcol *c, unsigned shift)
{
	chunks_init(&c->off, sizeof(uint16_t), shift);
	chunks_init(&c->base, sizeof(int64_t), BASE_SHIFT);
	chunks_init(&c->narrow, sizeof(uint32_t), shift);
	chunks_init(&c->wide, sizeof(int64_t), shift);
	c->nbase = 0;
	c->form = IDCOL_OFFSET;
	c->shift = shift;
	c->n = 0;
}

void
idcol_free(struct idcol *c)
{
	chunks_free(&c->off);
	chunks_free(&c->base);
	chunks_free(&c->narrow);
	chunks_free(&c->wide);
	idcol_init(c, c->shift);
}

static int
fits_narrow(int64_t id)
{
	return id >= 0 && id <= (int64_t)UINT32_MAX;
}

/* Whether id can be stored as entry i in the offset form: it fits 32 bits
 * (so the narrow form can take every id the offsets hold) and its chunk
 * has no base yet (id will be it) or id lies within reach of the base. */
static int
fits_offset(const struct idcol *c, size_t i, int64_t id)
{
	size_t ci = i >> c->shift;
	int64_t d;

	if (!fits_narrow(id))
		return 0;
	if (ci >= c->nbase)
		return 1;
	d = id - *(const int64_t *)chunks_at(&c->base, ci);
	return d >= -BIAS && d < BIAS;
}

/* Copy every id the column has room for into the form `to` (wider than
 * the current one), then drop the old one; -1 with the column as it was. */
static int
widen(struct idcol *c, enum idcol_form to)
{
	struct chunks *dst = to == IDCOL_WIDE ? &c->wide : &c->narrow;
	size_t i;

	if (chunks_reserve(dst, c->n > 0 ? c->n : 1) != 0) {
		chunks_free(dst);
		return -1;
	}
	for (i = 0; i < c->n; i++) {
		int64_t id = idcol_get(c, i);

		if (to == IDCOL_WIDE)
			*(int64_t *)chunks_at(dst, i) = id;
		else
			*(uint32_t *)chunks_at(dst, i) = (uint32_t)id;
	}
	chunks_free(&c->off);
	chunks_free(&c->base);
	c->nbase = 0;
	if (to == IDCOL_WIDE)
		chunks_free(&c->narrow);
	c->form = to;
	return 0;
}

int
idcol_reserve(struct idcol *c, size_t n, int64_t id)
{
	size_t i = n > 0 ? n - 1 : 0;
	struct chunks *room;

	/* Every id the offsets hold fits 32 bits (fits_offset). */
	if (c->form == IDCOL_OFFSET && !fits_offset(c, i, id) &&
	    widen(c, fits_narrow(id) ? IDCOL_NARROW : IDCOL_WIDE) != 0)
		return -1;
	if (c->form == IDCOL_NARROW && !fits_narrow(id) &&
	    widen(c, IDCOL_WIDE) != 0)
		return -1;
	if (c->form == IDCOL_OFFSET) {
		if (chunks_reserve(&c->base, (i >> c->shift) + 1) != 0)
			return -1;
		room = &c->off;
	} else
		room = c->form == IDCOL_NARROW ? &c->narrow : &c->wide;
	if (chunks_reserve(room, n) != 0)
		return -1;
	if (n > c->n)
		c->n = n;
	return 0;
}

void
idcol_set(struct idcol *c, size_t i, int64_t id)
{
	size_t ci = i >> c->shift;
	int64_t base;

	assert(i < c->n);
	switch (c->form) {
	case IDCOL_WIDE:
		*(int64_t *)chunks_at(&c->wide, i) = id;
		return;
	case IDCOL_NARROW:
		/* idcol_reserve widened the column for an id that does not
		 * fit. */
		assert(fits_narrow(id));
		*(uint32_t *)chunks_at(&c->narrow, i) = (uint32_t)id;
		return;
	case IDCOL_OFFSET:
		break;
	}
	assert(fits_offset(c, i, id));
	/* The chunk's first id is its base (and any chunk skipped before
	 * it gets one too, so bases stay set from 0 to nbase - 1). */
	for (; c->nbase <= ci; c->nbase++)
		*(int64_t *)chunks_at(&c->base, c->nbase) = id;
	base = *(const int64_t *)chunks_at(&c->base, ci);
	*(uint16_t *)chunks_at(&c->off, i) = (uint16_t)(id - base + BIAS);
}

int64_t
idcol_get(const struct idcol *c, size_t i)
{
	switch (c->form) {
	case IDCOL_WIDE:
		return *(const int64_t *)chunks_at(&c->wide, i);
	case IDCOL_NARROW:
		return *(const uint32_t *)chunks_at(&c->narrow, i);
	case IDCOL_OFFSET:
		break;
	}
	if ((i >> c->shift) >= c->nbase)
		return 0; /* room never set: what a fresh narrow slot reads */
	return *(const int64_t *)chunks_at(&c->base, i >> c->shift) +
	    (int64_t)*(const uint16_t *)chunks_at(&c->off, i) - BIAS;
}

size_t
idcol_bytes(const struct idcol *c)
{
	return chunks_bytes(&c->off) + chunks_bytes(&c->base) +
	    chunks_bytes(&c->narrow) + chunks_bytes(&c->wide);
}
