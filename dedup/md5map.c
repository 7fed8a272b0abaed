/*
 * md5map: digests to first ids (md5map.h).
 */
#include "dedup/md5map.h"

#include <string.h>

#define FIRST_SLOTS 64
#define CHUNK_SHIFT 12
/* Filled slots at most LOAD_NUM / LOAD_DEN of the table. */
#define LOAD_NUM 3
#define LOAD_DEN 4

static unsigned char *
key_at(const struct md5map *m, size_t e)
{
	return chunks_at(&m->key, e);
}

/* A digest's leading bytes are already uniform: use them as the hash. */
static uint64_t
hash_of(const unsigned char key[MD5MAP_RAW])
{
	uint64_t h;

	memcpy(&h, key, sizeof(h));
	return h;
}

void
md5map_init(struct md5map *m)
{
	chunks_init(&m->key, MD5MAP_RAW, CHUNK_SHIFT);
	idcol_init(&m->id, CHUNK_SHIFT);
	m->n = 0;
	tagtab_init(&m->tab);
}

void
md5map_free(struct md5map *m)
{
	chunks_free(&m->key);
	idcol_free(&m->id);
	tagtab_free(&m->tab);
	md5map_init(m);
}

int
md5map_find(const struct md5map *m, const unsigned char key[MD5MAP_RAW],
    int64_t *id)
{
	struct tagtab_iter it;
	uint32_t e;

	tagtab_find(&m->tab, hash_of(key), &it);
	while (tagtab_next(&it, &e))
		if (memcmp(key_at(m, e), key, MD5MAP_RAW) == 0) {
			if (id != NULL)
				*id = idcol_get(&m->id, e);
			return 1;
		}
	return 0;
}

int
md5map_reserve(struct md5map *m, int64_t id)
{
	size_t nslot, e;

	if (m->n > TAGTAB_MAX_ENTRY || chunks_reserve(&m->key, m->n + 1) != 0 ||
	    idcol_reserve(&m->id, m->n + 1, id) != 0)
		return -1;
	if ((m->n + 1) * LOAD_DEN <= m->tab.nslot * LOAD_NUM)
		return 0;
	nslot = m->tab.nslot ? m->tab.nslot + m->tab.nslot / 2 : FIRST_SLOTS;
	if (nslot > TAGTAB_MAX_SLOTS || tagtab_reset(&m->tab, nslot) != 0) {
		/* The old table was not touched: nothing was lost. */
		return -1;
	}
	for (e = 0; e < m->n; e++)
		tagtab_put(&m->tab, hash_of(key_at(m, e)), (uint32_t)e);
	return 0;
}

void
md5map_add(struct md5map *m, const unsigned char key[MD5MAP_RAW], int64_t id)
{
	memcpy(key_at(m, m->n), key, MD5MAP_RAW);
	idcol_set(&m->id, m->n, id);
	tagtab_put(&m->tab, hash_of(key), (uint32_t)m->n);
	m->n++;
}

size_t
md5map_bytes(const struct md5map *m)
{
	return chunks_bytes(&m->key) + idcol_bytes(&m->id) +
	    tagtab_bytes(&m->tab);
}
