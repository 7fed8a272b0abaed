/*
 * tagtab: entry numbers under key hashes, one 32-bit word a slot
 * (tagtab.h).
 */
#include "util/tagtab.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* Home slot of a hash: its top 32 bits scaled to the table, so any slot
 * count works, not only powers of two. */
static size_t
home_of(uint64_t hash, size_t nslot)
{
	return (size_t)(((hash >> 32) * (uint64_t)nslot) >> 32);
}

/* Tag of a hash: its low bits, never 0 (0 marks a free slot). */
static uint32_t
tag_of(uint64_t hash)
{
	uint32_t tag = (uint32_t)hash & ((1u << TAGTAB_TAG_BITS) - 1);

	return tag != 0 ? tag : 1;
}

void
tagtab_init(struct tagtab *t)
{
	memset(t, 0, sizeof(*t));
}

void
tagtab_free(struct tagtab *t)
{
	free(t->slot);
	tagtab_init(t);
}

int
tagtab_reset(struct tagtab *t, size_t nslot)
{
	uint32_t *p;

	if (nslot == 0 || nslot > TAGTAB_MAX_SLOTS)
		return -1;
	if (nslot > t->cap) {
		if ((p = realloc(t->slot, nslot * sizeof(*p))) == NULL)
			return -1;
		t->slot = p;
		t->cap = nslot;
	}
	memset(t->slot, 0, nslot * sizeof(*t->slot));
	t->nslot = nslot;
	t->filled = 0;
	return 0;
}

void
tagtab_put(struct tagtab *t, uint64_t hash, uint32_t entry)
{
	size_t i;

	/* The caller keeps a free slot, or the probe below never ends, and
	 * an entry that fits beside the tag. */
	assert(t->filled < t->nslot);
	assert(entry <= TAGTAB_MAX_ENTRY);
	i = home_of(hash, t->nslot);
	while (t->slot[i] != 0)
		i = i + 1 == t->nslot ? 0 : i + 1;
	t->slot[i] = entry << TAGTAB_TAG_BITS | tag_of(hash);
	t->filled++;
}

int
tagtab_remove(struct tagtab *t, uint64_t hash, uint32_t entry)
{
	uint32_t want = entry << TAGTAB_TAG_BITS | tag_of(hash);
	size_t i;

	if (t->nslot == 0)
		return 0;
	for (i = home_of(hash, t->nslot); t->slot[i] != 0;
	     i = i + 1 == t->nslot ? 0 : i + 1)
		if (t->slot[i] == want) {
			t->slot[i] = 0;
			t->filled--;
			return 1;
		}
	return 0;
}

void
tagtab_find(const struct tagtab *t, uint64_t hash, struct tagtab_iter *it)
{
	it->t = t;
	it->i = t->nslot > 0 ? home_of(hash, t->nslot) : 0;
	it->tag = tag_of(hash);
}

size_t
tagtab_bytes(const struct tagtab *t)
{
	return t->cap * sizeof(*t->slot);
}
