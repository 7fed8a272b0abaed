/*
 * template: per-host counts of block hashes; see template.h.
 */
#include "dedup/template.h"

#include <stdlib.h>
#include <string.h>

#include "util/mix64.h"
#include "util/radix.h"

#define FIRST_SLOTS 64   /* a host's first table */
#define FIRST_HOSTS 16   /* the first host table */

struct slot {
	uint32_t hash;  /* block hash */
	uint32_t count; /* pages it was on; 0: free */
};

struct host {
	uint64_t key;      /* hash of the host name; 0: free */
	struct slot *slot; /* open addressing, linear probing */
	size_t cap;        /* slots, a power of two */
	size_t used;       /* occupied slots */
};

struct tmpl {
	struct host *host; /* open addressing over key */
	size_t cap;        /* a power of two */
	size_t used;       /* hosts */
	size_t bytes;      /* memory of all slot arrays */
	size_t cleanups;   /* full tables cleaned (clean) */
};

static uint64_t
host_key(const char *host)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (; *host != '\0'; host++) {
		h ^= (unsigned char)*host;
		h *= 0x100000001b3ULL;
	}
	h = mix64(h);
	return h != 0 ? h : 1;
}

struct tmpl *
tmpl_new(void)
{
	struct tmpl *t = calloc(1, sizeof(*t));

	if (t == NULL)
		return NULL;
	if ((t->host = calloc(FIRST_HOSTS, sizeof(*t->host))) == NULL) {
		free(t);
		return NULL;
	}
	t->cap = FIRST_HOSTS;
	return t;
}

void
tmpl_free(struct tmpl *t)
{
	size_t i;

	if (t == NULL)
		return;
	for (i = 0; i < t->cap; i++)
		free(t->host[i].slot);
	free(t->host);
	free(t);
}

static struct host *
find_host(const struct tmpl *t, uint64_t key)
{
	size_t i = (size_t)key & (t->cap - 1);

	while (t->host[i].key != 0 && t->host[i].key != key)
		i = (i + 1) & (t->cap - 1);
	return &t->host[i];
}

static struct slot *
find_slot(const struct host *h, uint32_t hash)
{
	size_t i = (size_t)(mix64(hash) & (h->cap - 1));

	while (h->slot[i].count != 0 && h->slot[i].hash != hash)
		i = (i + 1) & (h->cap - 1);
	return &h->slot[i];
}

void
tmpl_mark(const struct tmpl *t, const char *host, const uint32_t *blocks,
    size_t n, unsigned char *flags)
{
	const struct host *h = find_host(t, host_key(host));
	const struct slot *s;
	size_t i;

	for (i = 0; i < n; i++) {
		flags[i] = 0;
		if (h->key == 0)
			continue;
		s = find_slot(h, blocks[i]);
		flags[i] = s->count >= TMPL_PAGES;
	}
}

/* Rehash h into cap slots, keeping entries counted at least min times. */
static int
rehash(struct tmpl *t, struct host *h, size_t cap, uint32_t min)
{
	struct host nh = *h;
	size_t i;

	if ((nh.slot = calloc(cap, sizeof(*nh.slot))) == NULL)
		return -1;
	nh.cap = cap;
	nh.used = 0;
	for (i = 0; i < h->cap; i++)
		if (h->slot[i].count >= min && h->slot[i].count > 0) {
			*find_slot(&nh, h->slot[i].hash) = h->slot[i];
			nh.used++;
		}
	t->bytes += cap * sizeof(*nh.slot);
	t->bytes -= h->cap * sizeof(*h->slot);
	free(h->slot);
	*h = nh;
	return 0;
}

/*
 * A full table keeps the blocks seen on most pages: those seen on fewer
 * than a floor are dropped, the floor chosen (from a histogram of the
 * counts, one pass) as the lowest that leaves at most KEEP_NUM/KEEP_DEN
 * of the table's load (half its slots) in use. Dropping only what made
 * room for one block cost a full rehash on nearly every page of a large
 * site, where many blocks are seen twice; with a quarter of the load
 * freed, the next clean-up is at least cap / 8 new blocks away.
 */
#define KEEP_NUM 3
#define KEEP_DEN 4
#define FLOORS 64 /* counts told apart by the histogram; more share the last */

static int
clean(struct tmpl *t, struct host *h)
{
	size_t hist[FLOORS] = { 0 }, kept = h->used;
	size_t target = h->cap / 2 * KEEP_NUM / KEEP_DEN;
	uint32_t min = 2;
	size_t i;

	for (i = 0; i < h->cap; i++)
		if (h->slot[i].count > 0)
			hist[h->slot[i].count < FLOORS ? h->slot[i].count :
			    FLOORS - 1]++;
	kept -= hist[1];
	while (kept > target && min < FLOORS - 1)
		kept -= hist[min++];
	if (rehash(t, h, h->cap, min) != 0)
		return -1;
	/* Nearly every block on FLOORS pages or more: drop by rising floor
	 * until one more fits. */
	while ((h->used + 1) * 2 > h->cap && min < UINT32_MAX)
		if (rehash(t, h, h->cap, ++min) != 0)
			return -1;
	t->cleanups++;
	return 0;
}

/* Room for one more block in h: grow, or forget the rarest blocks. */
static int
make_room(struct tmpl *t, struct host *h)
{
	if ((h->used + 1) * 2 <= h->cap)
		return 0;
	if (h->cap < TMPL_HOST_MAX)
		return rehash(t, h, h->cap * 2, 0);
	return clean(t, h);
}

static struct host *
add_host(struct tmpl *t, uint64_t key)
{
	struct host *old = t->host, *h;
	size_t i, cap = t->cap;

	if ((t->used + 1) * 2 > t->cap) {
		if ((t->host = calloc(cap * 2, sizeof(*t->host))) == NULL) {
			t->host = old;
			return NULL;
		}
		t->cap = cap * 2;
		for (i = 0; i < cap; i++)
			if (old[i].key != 0)
				*find_host(t, old[i].key) = old[i];
		free(old);
	}
	h = find_host(t, key);
	if ((h->slot = calloc(FIRST_SLOTS, sizeof(*h->slot))) == NULL)
		return NULL;
	h->key = key;
	h->cap = FIRST_SLOTS;
	h->used = 0;
	t->used++;
	t->bytes += FIRST_SLOTS * sizeof(*h->slot);
	return h;
}

int
tmpl_learn(struct tmpl *t, const char *host, const uint32_t *blocks,
    size_t n)
{
	uint64_t key = host_key(host);
	struct host *h = find_host(t, key);
	struct slot *s;
	uint32_t *sorted;
	size_t i;
	int rc = 0;

	if (n == 0)
		return 0;
	/* The copy to sort, and as much scratch after it. */
	if (n > SIZE_MAX / 2 / sizeof(*sorted) ||
	    (sorted = malloc(2 * n * sizeof(*sorted))) == NULL)
		return -1;
	memcpy(sorted, blocks, n * sizeof(*sorted));
	radix_sort_u32(sorted, sorted + n, n);
	if (h->key == 0 && (h = add_host(t, key)) == NULL) {
		rc = -1;
		goto out;
	}
	for (i = 0; i < n; i++) {
		if (i > 0 && sorted[i] == sorted[i - 1])
			continue;
		s = find_slot(h, sorted[i]);
		if (s->count == 0) {
			if (make_room(t, h) != 0) {
				rc = -1;
				goto out;
			}
			s = find_slot(h, sorted[i]);
			s->hash = sorted[i];
			h->used++;
		}
		if (s->count < UINT32_MAX)
			s->count++;
	}
out:
	free(sorted);
	return rc;
}

size_t
tmpl_cleanups(const struct tmpl *t)
{
	return t->cleanups;
}

size_t
tmpl_bytes(const struct tmpl *t)
{
	return sizeof(*t) + t->cap * sizeof(*t->host) + t->bytes;
}
