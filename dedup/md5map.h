/*
 * md5map: the exact-copy map, raw 16-byte MD5 digests to the first page
 * id seen with each.
 *
 * Entries (digest and id, 24 bytes) sit in add order in a util/chunks
 * array, never moved; a util/tagtab of their numbers, at most 3/4 full,
 * finds them by the digest's leading 8 bytes (already uniform, so no
 * hashing). About 30 bytes an entry; at most 2^25 (33,554,432) entries.
 */
#ifndef NC_MD5MAP_H
#define NC_MD5MAP_H

#include <stddef.h>
#include <stdint.h>

#include "util/chunks.h"
#include "util/tagtab.h"

#define MD5MAP_RAW 16 /* bytes of a raw digest */

struct md5map {
	struct chunks entry; /* per entry: digest, then the first id */
	size_t n;            /* entries */
	struct tagtab tab;   /* entry numbers by digest */
};

/* An empty map. Allocates nothing. */
void md5map_init(struct md5map *m);

/* Free everything; m is then empty, as md5map_init left it. */
void md5map_free(struct md5map *m);

/* The first id stored under key, or NULL. Cannot fail. */
const int64_t *md5map_find(const struct md5map *m,
    const unsigned char key[MD5MAP_RAW]);

/* Room for one more entry: 0, or -1 when out of memory or full (the map
 * unchanged in what it answers). */
int md5map_reserve(struct md5map *m);

/* Store key (not yet in the map) under id, after md5map_reserve. Cannot
 * fail. */
void md5map_add(struct md5map *m, const unsigned char key[MD5MAP_RAW],
    int64_t id);

/* Bytes of memory the map holds. */
size_t md5map_bytes(const struct md5map *m);

#endif
