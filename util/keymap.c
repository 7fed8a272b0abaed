/*
 * keymap: ids under 64-bit key hashes, one 64-bit word a slot
 * (keymap.h).
 */
#include "util/keymap.h"

#include <stdlib.h>
#include <string.h>

#define FIRST_SLOTS 1024
#define ID_MASK ((((uint64_t)1) << KEYMAP_ID_BITS) - 1)

/* Home slot of a tag: its bits scaled to the table, so the slot count
 * need not be a power of two and a grown table finds homes from slots. */
static size_t
home_of(uint64_t tag, size_t nslot)
{
	return (size_t)((tag * (uint64_t)nslot) >> KEYMAP_TAG_BITS);
}

static void
place(uint64_t *slot, size_t nslot, uint64_t word)
{
	size_t i = home_of(word >> KEYMAP_ID_BITS, nslot);

	while (slot[i] != 0)
		i = i + 1 < nslot ? i + 1 : 0;
	slot[i] = word;
}

void
keymap_init(struct keymap *m)
{
	memset(m, 0, sizeof(*m));
}

void
keymap_free(struct keymap *m)
{
	free(m->slot);
	keymap_init(m);
}

/* Refile every id into a table of nslot slots. 0, or -1 (m unchanged). */
static int
regrow(struct keymap *m, size_t nslot)
{
	uint64_t *slot = calloc(nslot, sizeof(*slot));
	size_t i;

	if (slot == NULL)
		return -1;
	for (i = 0; i < m->nslot; i++)
		if (m->slot[i] != 0)
			place(slot, nslot, m->slot[i]);
	free(m->slot);
	m->slot = slot;
	m->nslot = nslot;
	return 0;
}

int
keymap_put(struct keymap *m, uint64_t hash, int64_t id)
{
	size_t want;

	if (id < 0 || id > KEYMAP_MAX_ID)
		return -1;
	if (4 * (m->filled + 1) > 3 * m->nslot) {
		want = m->nslot == 0 ? FIRST_SLOTS : m->nslot + m->nslot / 2;
		if (want > KEYMAP_MAX_SLOTS)
			want = KEYMAP_MAX_SLOTS;
		if (4 * (m->filled + 1) > 3 * want || regrow(m, want) != 0)
			return -1;
	}
	place(m->slot, m->nslot,
	    (hash >> KEYMAP_ID_BITS) << KEYMAP_ID_BITS | (uint64_t)(id + 1));
	m->filled++;
	return 0;
}

void
keymap_find(const struct keymap *m, uint64_t hash, struct keymap_iter *it)
{
	it->m = m;
	it->tag = hash >> KEYMAP_ID_BITS;
	it->i = m->nslot == 0 ? 0 : home_of(it->tag, m->nslot);
}

int
keymap_next(struct keymap_iter *it, int64_t *id)
{
	const struct keymap *m = it->m;
	uint64_t w;

	if (m->nslot == 0)
		return 0;
	while ((w = m->slot[it->i]) != 0) {
		it->i = it->i + 1 < m->nslot ? it->i + 1 : 0;
		if (w >> KEYMAP_ID_BITS == it->tag) {
			*id = (int64_t)(w & ID_MASK) - 1;
			return 1;
		}
	}
	return 0;
}

size_t
keymap_count(const struct keymap *m)
{
	return m->filled;
}

size_t
keymap_bytes(const struct keymap *m)
{
	return m->nslot * sizeof(*m->slot);
}
