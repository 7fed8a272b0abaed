#include "util/seen.h"

#include <stdlib.h>
#include <string.h>

#include "util/mix64.h"

struct seen {
	uint64_t *slot; /* hashes, 0 for empty (hash 0 is stored as 1) */
	uint64_t mask;  /* slots - 1 */
};

struct seen *
seen_new(unsigned bits)
{
	struct seen *s;

	if (bits < SEEN_MIN_BITS || bits > SEEN_MAX_BITS)
		return NULL;
	s = malloc(sizeof(*s));
	if (s == NULL)
		return NULL;
	s->mask = ((uint64_t)1 << bits) - 1;
	s->slot = calloc((size_t)s->mask + 1, sizeof(*s->slot));
	if (s->slot == NULL) {
		free(s);
		return NULL;
	}
	return s;
}

void
seen_free(struct seen *s)
{
	if (s == NULL)
		return;
	free(s->slot);
	free(s);
}

uint64_t
seen_hash(const void *p, size_t n)
{
	const unsigned char *b = p;
	uint64_t h = mix64(0x9e3779b97f4a7c15ULL ^ n), w;

	/* Eight bytes at a time, each word mixed into the running state:
	 * every byte reaches every bit of the result. */
	for (; n >= 8; b += 8, n -= 8) {
		memcpy(&w, b, 8);
		h = mix64(h ^ w) + 0x9e3779b97f4a7c15ULL;
	}
	w = 0;
	memcpy(&w, b, n);
	h = mix64(h ^ w ^ ((uint64_t)n << 56));
	return h != 0 ? h : 1;
}

int
seen_has(const struct seen *s, uint64_t h)
{
	h = h != 0 ? h : 1;
	return s->slot[h & s->mask] == h;
}

void
seen_add(struct seen *s, uint64_t h)
{
	h = h != 0 ? h : 1;
	s->slot[h & s->mask] = h;
}
