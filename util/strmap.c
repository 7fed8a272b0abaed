#include "util/strmap.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct entry {
	char *key;
	void *value;
	struct entry *next; /* chain within a bucket */
};

struct strmap {
	struct entry **bucket; /* nbucket chains */
	size_t nbucket;        /* a power of two */
	size_t count;          /* entries stored */
};

static uint64_t
hash_key(const char *s)
{
	uint64_t h = 1469598103934665603ULL; /* FNV-1a */

	while (*s != '\0') {
		h ^= (unsigned char)*s++;
		h *= 1099511628211ULL;
	}
	return h;
}

struct strmap *
strmap_new(void)
{
	struct strmap *m = calloc(1, sizeof(*m));

	if (m == NULL)
		return NULL;
	m->nbucket = 64;
	m->bucket = calloc(m->nbucket, sizeof(*m->bucket));
	if (m->bucket == NULL) {
		free(m);
		return NULL;
	}
	return m;
}

void
strmap_free(struct strmap *m, void (*free_value)(void *))
{
	struct entry *e, *next;
	size_t i;

	if (m == NULL)
		return;
	for (i = 0; i < m->nbucket; i++)
		for (e = m->bucket[i]; e != NULL; e = next) {
			next = e->next;
			if (free_value != NULL)
				free_value(e->value);
			free(e->key);
			free(e);
		}
	free(m->bucket);
	free(m);
}

static struct entry *
find(const struct strmap *m, const char *key)
{
	struct entry *e = m->bucket[hash_key(key) & (m->nbucket - 1)];

	while (e != NULL && strcmp(e->key, key) != 0)
		e = e->next;
	return e;
}

void *
strmap_get(const struct strmap *m, const char *key)
{
	struct entry *e = find(m, key);

	return e != NULL ? e->value : NULL;
}

/* Double the buckets to keep chains short; on failure keep the old ones. */
static void
grow(struct strmap *m)
{
	size_t n = m->nbucket * 2, i, b;
	struct entry **nb, *e, *next;

	nb = calloc(n, sizeof(*nb));
	if (nb == NULL)
		return;
	for (i = 0; i < m->nbucket; i++)
		for (e = m->bucket[i]; e != NULL; e = next) {
			next = e->next;
			b = hash_key(e->key) & (n - 1);
			e->next = nb[b];
			nb[b] = e;
		}
	free(m->bucket);
	m->bucket = nb;
	m->nbucket = n;
}

int
strmap_put(struct strmap *m, const char *key, void *value)
{
	struct entry *e = find(m, key);
	size_t b;

	if (e != NULL) {
		e->value = value;
		return 0;
	}
	e = calloc(1, sizeof(*e));
	if (e == NULL || (e->key = strdup(key)) == NULL) {
		free(e);
		return -1;
	}
	e->value = value;
	if (m->count + 1 > m->nbucket)
		grow(m);
	b = hash_key(key) & (m->nbucket - 1);
	e->next = m->bucket[b];
	m->bucket[b] = e;
	m->count++;
	return 0;
}

size_t
strmap_count(const struct strmap *m)
{
	return m->count;
}

void
strmap_each(const struct strmap *m,
    void (*fn)(const char *key, void *value, void *arg), void *arg)
{
	struct entry *e;
	size_t i;

	for (i = 0; i < m->nbucket; i++)
		for (e = m->bucket[i]; e != NULL; e = e->next)
			fn(e->key, e->value, arg);
}
