#include "crawler/hostsched.h"

#include <stdlib.h>
#include <string.h>

#include "util/strmap.h"

struct host {
	char *name;         /* host name, lower-case */
	int64_t queued;     /* URLs waiting in the store */
	int active;         /* transfers in flight */
	double next_ok;     /* earliest start of the next request */
	long delay_ms;      /* gap after each response */
	size_t heap_pos;    /* index in heap, or NOT_IN_HEAP */
	int retired;        /* given up or capped: never scheduled again */
	int failures;       /* failed requests in a row */
	int answered;       /* some request got an answer in this run */
	int64_t pages;      /* pages settled for this host */
	double held_until;  /* end of the last hold (back-off, Retry-After,
	                       robots.txt), 0 when never held */
};

/* Back-off stops doubling at one hour. */
#define BACKOFF_MAX_MS 3600000.0

#define NOT_IN_HEAP ((size_t)-1)

struct hostsched {
	int per_host;         /* transfers in flight allowed per host */
	long delay_ms;        /* default gap */
	struct strmap *hosts; /* name -> struct host */
	struct host **heap;   /* hosts that may start: min-heap on next_ok */
	size_t nheap, heapcap;
	size_t busy;          /* hosts with active > 0 */
	int64_t queued;       /* sum of queued */
};

static struct host *
find(const struct hostsched *s, const char *name)
{
	return strmap_get(s->hosts, name);
}

static void
heap_swap(struct hostsched *s, size_t a, size_t b)
{
	struct host *t = s->heap[a];

	s->heap[a] = s->heap[b];
	s->heap[b] = t;
	s->heap[a]->heap_pos = a;
	s->heap[b]->heap_pos = b;
}

static void
heap_up(struct hostsched *s, size_t i)
{
	while (i > 0 && s->heap[(i - 1) / 2]->next_ok > s->heap[i]->next_ok) {
		heap_swap(s, i, (i - 1) / 2);
		i = (i - 1) / 2;
	}
}

static void
heap_down(struct hostsched *s, size_t i)
{
	size_t l, m;

	for (;;) {
		l = 2 * i + 1;
		m = i;
		if (l < s->nheap && s->heap[l]->next_ok < s->heap[m]->next_ok)
			m = l;
		if (l + 1 < s->nheap &&
		    s->heap[l + 1]->next_ok < s->heap[m]->next_ok)
			m = l + 1;
		if (m == i)
			return;
		heap_swap(s, i, m);
		i = m;
	}
}

static void
heap_remove(struct hostsched *s, struct host *h)
{
	size_t i = h->heap_pos;

	if (i == NOT_IN_HEAP)
		return;
	h->heap_pos = NOT_IN_HEAP;
	s->nheap--;
	if (i == s->nheap)
		return;
	s->heap[i] = s->heap[s->nheap];
	s->heap[i]->heap_pos = i;
	heap_down(s, i);
	heap_up(s, i);
}

/*
 * Put h in the heap, move it, or take it out, to match its state. The heap
 * has room for every host (grown in hostsched_add), so this cannot fail.
 */
static void
place(struct hostsched *s, struct host *h)
{
	int eligible = !h->retired && h->queued > 0 &&
	    h->active < s->per_host;

	if (!eligible) {
		heap_remove(s, h);
		return;
	}
	if (h->heap_pos == NOT_IN_HEAP) {
		h->heap_pos = s->nheap;
		s->heap[s->nheap++] = h;
	}
	heap_up(s, h->heap_pos);
	heap_down(s, h->heap_pos);
}

struct hostsched *
hostsched_new(int per_host, long delay_ms)
{
	struct hostsched *s;

	if (per_host < 1 || delay_ms < 0)
		return NULL;
	s = calloc(1, sizeof(*s));
	if (s == NULL)
		return NULL;
	s->per_host = per_host;
	s->delay_ms = delay_ms;
	s->hosts = strmap_new();
	if (s->hosts == NULL) {
		free(s);
		return NULL;
	}
	return s;
}

static void
free_host(void *p)
{
	struct host *h = p;

	free(h->name);
	free(h);
}

void
hostsched_free(struct hostsched *s)
{
	if (s == NULL)
		return;
	strmap_free(s->hosts, free_host);
	free(s->heap);
	free(s);
}

static struct host *
get_or_create(struct hostsched *s, const char *name)
{
	struct host *h = find(s, name), **nh;
	size_t n = strmap_count(s->hosts);

	if (h != NULL)
		return h;
	if (n + 1 > s->heapcap) {
		nh = realloc(s->heap, (s->heapcap * 2 + 16) * sizeof(*nh));
		if (nh == NULL)
			return NULL;
		s->heap = nh;
		s->heapcap = s->heapcap * 2 + 16;
	}
	h = calloc(1, sizeof(*h));
	if (h == NULL)
		return NULL;
	h->name = strdup(name);
	if (h->name == NULL || strmap_put(s->hosts, name, h) != 0) {
		free(h->name);
		free(h);
		return NULL;
	}
	h->delay_ms = s->delay_ms;
	h->heap_pos = NOT_IN_HEAP;
	return h;
}

int
hostsched_add(struct hostsched *s, const char *host, int64_t n, double not_before)
{
	struct host *h = get_or_create(s, host);

	if (h == NULL)
		return -1;
	if (h->retired)
		return 0;
	if (h->queued == 0 && not_before > h->next_ok)
		h->next_ok = not_before;
	h->queued += n;
	s->queued += n;
	place(s, h);
	return 0;
}

const char *
hostsched_next(struct hostsched *s, double now, double *wait)
{
	struct host *h;

	if (s->nheap == 0) {
		*wait = -1;
		return NULL;
	}
	h = s->heap[0];
	if (h->next_ok > now) {
		*wait = h->next_ok - now;
		return NULL;
	}
	*wait = 0;
	return h->name;
}

void
hostsched_started(struct hostsched *s, const char *host, double now)
{
	struct host *h = find(s, host);

	if (h == NULL)
		return;
	if (h->queued > 0) {
		h->queued--;
		s->queued--;
	}
	if (h->active++ == 0)
		s->busy++;
	h->next_ok = now + (double)h->delay_ms;
	place(s, h);
}

void
hostsched_finished(struct hostsched *s, const char *host, double now)
{
	struct host *h = find(s, host);

	if (h == NULL || h->active == 0)
		return;
	if (--h->active == 0)
		s->busy--;
	if (now + (double)h->delay_ms > h->next_ok)
		h->next_ok = now + (double)h->delay_ms;
	place(s, h);
}

void
hostsched_drained(struct hostsched *s, const char *host)
{
	struct host *h = find(s, host);

	if (h == NULL)
		return;
	s->queued -= h->queued;
	h->queued = 0;
	place(s, h);
}

void
hostsched_defer(struct hostsched *s, const char *host, double not_before)
{
	struct host *h = find(s, host);

	if (h == NULL || not_before <= h->next_ok)
		return;
	h->next_ok = not_before;
	h->held_until = not_before;
	place(s, h);
}

void
hostsched_census(const struct hostsched *s, double now,
    struct hostsched_census *out)
{
	const struct host *h;
	size_t i;

	memset(out, 0, sizeof(*out));
	out->active = s->busy;
	for (i = 0; i < s->nheap; i++) {
		h = s->heap[i];
		if (h->active > 0)
			continue;
		if (h->next_ok <= now)
			out->ready++;
		else if (h->held_until >= h->next_ok)
			out->held++;
		else
			out->waiting++;
	}
}

void
hostsched_set_delay(struct hostsched *s, const char *host, long delay_ms)
{
	struct host *h = get_or_create(s, host);

	if (h != NULL && delay_ms > s->delay_ms)
		h->delay_ms = delay_ms;
}

size_t
hostsched_hosts(const struct hostsched *s)
{
	return strmap_count(s->hosts);
}

void
hostsched_skipped(struct hostsched *s, const char *host)
{
	struct host *h = find(s, host);

	if (h == NULL || h->queued == 0)
		return;
	h->queued--;
	s->queued--;
	place(s, h);
}

void
hostsched_retire(struct hostsched *s, const char *host)
{
	struct host *h = get_or_create(s, host);

	if (h == NULL)
		return;
	h->retired = 1;
	s->queued -= h->queued;
	h->queued = 0;
	place(s, h);
}

void
hostsched_host(const struct hostsched *s, const char *host, int64_t *queued,
    int *active, double *next_ok)
{
	struct host *h = find(s, host);

	*queued = h != NULL ? h->queued : 0;
	*active = h != NULL ? h->active : 0;
	*next_ok = h != NULL ? h->next_ok : 0;
}

int
hostsched_retired(const struct hostsched *s, const char *host)
{
	struct host *h = find(s, host);

	return h != NULL && h->retired;
}

size_t
hostsched_busy_hosts(const struct hostsched *s)
{
	return s->busy;
}

int64_t
hostsched_queued(const struct hostsched *s)
{
	return s->queued;
}

int
hostsched_failed(struct hostsched *s, const char *host, double now,
    long base_ms, double *held_ms)
{
	struct host *h = find(s, host);
	double ms = (double)base_ms;
	int i;

	if (h == NULL)
		return 0;
	h->failures++;
	for (i = 1; i < h->failures && ms < BACKOFF_MAX_MS; i++)
		ms *= 2;
	if (ms > BACKOFF_MAX_MS)
		ms = BACKOFF_MAX_MS;
	hostsched_defer(s, host, now + ms);
	if (held_ms != NULL)
		*held_ms = ms;
	return h->failures;
}

void
hostsched_succeeded(struct hostsched *s, const char *host)
{
	struct host *h = find(s, host);

	if (h != NULL) {
		h->failures = 0;
		h->answered = 1;
	}
}

int
hostsched_worked(struct hostsched *s, const char *host)
{
	struct host *h = find(s, host);

	return h != NULL && (h->answered || h->pages > 0);
}

int64_t
hostsched_add_pages(struct hostsched *s, const char *host, int64_t n)
{
	struct host *h = get_or_create(s, host);

	if (h == NULL)
		return -1;
	h->pages += n;
	return h->pages;
}
