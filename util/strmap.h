/*
 * strmap: a hash table from NUL-terminated strings to pointers, for the
 * crawler's per-host and per-origin state. Keys are copied; values are the
 * caller's.
 */
#ifndef NC_STRMAP_H
#define NC_STRMAP_H

#include <stddef.h>

struct strmap;

/* New empty map; NULL when out of memory. */
struct strmap *strmap_new(void);

/* Free the map and its key copies; free_value (may be NULL) is called on
 * every value. NULL map is fine. */
void strmap_free(struct strmap *m, void (*free_value)(void *));

/* The value stored under key, or NULL. */
void *strmap_get(const struct strmap *m, const char *key);

/* Store value under key, replacing (not freeing) an earlier one. Returns 0,
 * or -1 when out of memory (map unchanged). */
int strmap_put(struct strmap *m, const char *key, void *value);

/* Entries stored. */
size_t strmap_count(const struct strmap *m);

/* Call fn(key, value, arg) for every entry, in no particular order. */
void strmap_each(const struct strmap *m,
    void (*fn)(const char *key, void *value, void *arg), void *arg);

#endif
