/*
 * md5map: the exact-copy map, raw 16-byte MD5 digests to the first page
 * id seen with each.
 *
 * Entries sit in add order, never moved: the digests (16 bytes) in a
 * util/chunks array, the ids beside them in a dedup/idcol (2 bytes while
 * they stay near each other). A util/tagtab of their numbers, at most 3/4
 * full, finds them by the digest's leading 8 bytes (already uniform, so
 * no hashing). About 24 bytes an entry; at most 2^25 (33,554,432)
 * entries.
 */
#ifndef NC_MD5MAP_H
#define NC_MD5MAP_H

#include <stddef.h>
#include <stdint.h>

#include "util/chunks.h"
#include "util/tagtab.h"
#include "dedup/idcol.h"

#define MD5MAP_RAW 16 /* bytes of a raw digest */

struct md5map {
	struct chunks key;   /* per entry: the raw digest */
	struct idcol id;     /* per entry: the first page with it */
	size_t n;            /* entries */
	struct tagtab tab;   /* entry numbers by digest */
};

/* An empty map. Allocates nothing. */
void md5map_init(struct md5map *m);

/* Free everything; m is then empty, as md5map_init left it. */
void md5map_free(struct md5map *m);

/* Whether key is stored: 1 with the first id stored under it in *id
 * (id may be NULL), or 0. Cannot fail. */
int md5map_find(const struct md5map *m, const unsigned char key[MD5MAP_RAW],
    int64_t *id);

/* Room for one more entry, to be stored under id: 0, or -1 when out of
 * memory or full (the map unchanged in what it answers). */
int md5map_reserve(struct md5map *m, int64_t id);

/* Store key (not yet in the map) under id, after md5map_reserve for
 * that id. Cannot fail. */
void md5map_add(struct md5map *m, const unsigned char key[MD5MAP_RAW],
    int64_t id);

/* Bytes of memory the map holds. */
size_t md5map_bytes(const struct md5map *m);

#endif
