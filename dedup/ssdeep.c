/*
 * ssdeep: libfuzzy digests and a 7-gram index over them.
 *
 * fuzzy_compare(a, b) is above 0 only if the block sizes are equal or one
 * is double the other and the parts compared at a common block size share
 * a 7-character substring after runs of more than three equal characters
 * are cut to three, or if both digests are identical after that cut. So
 * every stored digest is indexed under keys (block size, gram) for each
 * 7-gram of its first part, (2 x block size, gram) for its second part and
 * one key for the whole cut digest; a query's keys formed the same way
 * reach every digest it can score with, and fuzzy_compare decides.
 *
 * Keys are 32-bit hashes. Postings {entry, next, key} are chained per
 * bucket, newest entry first; a query merges its keys' chains in
 * descending entry order, so each candidate is compared once without any
 * allocation.
 */
#include "ssdeep.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mix64.h"
#include "topk.h"

#define GRAM 7                       /* libfuzzy's ROLLING_WINDOW */
#define PART_MAX SPAMSUM_LENGTH      /* longest part fuzzy_compare takes */
#define MAX_KEYS (1 + 2 * (PART_MAX - GRAM + 1))
#define NORM_MAX (24 + 2 * PART_MAX) /* "bs:part1:part2" */
#define NIL UINT32_MAX
#define MAX_ITEMS ((size_t)UINT32_MAX - 1)
#define FIRST_BUCKETS 64

/* A digest as fuzzy_compare sees it: block size, both parts run-cut. */
struct parsed {
	unsigned long bs;   /* block size of part 1; part 2 is at 2 x bs */
	char p1[PART_MAX];  /* first part, runs cut to three */
	size_t n1;
	char p2[PART_MAX];  /* second part (up to ',' or the end), cut */
	size_t n2;
};

struct posting {
	uint32_t entry; /* index into id/off */
	uint32_t next;  /* older posting in the same bucket, or NIL */
	uint32_t key;   /* key hash, to skip other keys sharing a bucket */
};

struct ssdeep_index {
	int64_t *id;          /* caller's id of each entry */
	uint32_t *off;        /* offset of each entry's cut digest in arena */
	size_t n;             /* entries */
	size_t cap;           /* entries allocated */
	char *arena;          /* NUL-terminated cut digests, back to back */
	size_t arena_len;     /* bytes used */
	size_t arena_cap;     /* bytes allocated */
	struct posting *post; /* all postings, in entry order */
	size_t npost;         /* postings used */
	size_t post_cap;      /* postings allocated */
	uint32_t *head;       /* newest posting of each bucket, or NIL */
	size_t nbucket;       /* buckets, a power of two */
};

int
ssdeep_of_text(const char *text, size_t len, char out[SSDEEP_MAX])
{
	out[0] = '\0';
	if (len > UINT32_MAX)
		return -1;
	if (text == NULL)
		text = "";
	if (fuzzy_hash_buf((const unsigned char *)text, (uint32_t)len,
	    out) != 0) {
		out[0] = '\0';
		return -1;
	}
	return 0;
}

/* Copy up to a stop character, cutting runs as libfuzzy does; -1 when the
 * cut part is too long for fuzzy_compare. */
static int
cut_part(const char **sp, const char *stops, char *out, size_t *n)
{
	const char *s = *sp;

	*n = 0;
	for (; *s != '\0' && strchr(stops, *s) == NULL; s++) {
		if (*n >= 3 && out[*n - 1] == *s && out[*n - 2] == *s &&
		    out[*n - 3] == *s)
			continue;
		if (*n >= PART_MAX)
			return -1;
		out[(*n)++] = *s;
	}
	*sp = s;
	return 0;
}

/*
 * Parse "bs:part1:part2[,...]". Stricter than fuzzy_compare's sscanf (no
 * sign, no blanks, ':' right after the digits), so whatever passes here is
 * read the same way by libfuzzy.
 */
static int
parse_digest(const char *s, struct parsed *p)
{
	unsigned long bs = 0;
	int digits = 0;

	if (s == NULL)
		return -1;
	for (; *s >= '0' && *s <= '9'; s++, digits++) {
		if (bs > (ULONG_MAX / 2 - 9) / 10)
			return -1;
		bs = bs * 10 + (unsigned long)(*s - '0');
	}
	if (digits == 0 || *s != ':')
		return -1;
	s++;
	p->bs = bs;
	if (cut_part(&s, ":", p->p1, &p->n1) != 0 || *s != ':')
		return -1;
	s++;
	if (cut_part(&s, ",", p->p2, &p->n2) != 0)
		return -1;
	return 0;
}

static size_t
format_digest(const struct parsed *p, char out[NORM_MAX])
{
	int n = snprintf(out, NORM_MAX, "%lu:%.*s:%.*s", p->bs, (int)p->n1,
	    p->p1, (int)p->n2, p->p2);

	return n < 0 ? 0 : (size_t)n;
}

int
ssdeep_score(const char *a, const char *b)
{
	struct parsed pa, pb;

	/* fuzzy_compare returns 0 for block sizes too far apart before it
	 * looks at the rest; check both fully so -1 always means malformed. */
	if (parse_digest(a, &pa) != 0 || parse_digest(b, &pb) != 0)
		return -1;
	return fuzzy_compare(a, b);
}


static uint32_t
key_hash(unsigned kind, uint64_t level, const char *s, size_t n)
{
	uint64_t h = mix64(level * 0x9e3779b97f4a7c15ULL + kind);
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 0x100000001b3ULL;
	}
	return (uint32_t)mix64(h);
}

static int
cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* The distinct keys of a digest: its whole cut form and every gram of each
 * part at that part's block size. */
static size_t
keys_of(const struct parsed *p, const char *norm, size_t normlen,
    uint32_t keys[MAX_KEYS])
{
	size_t i, nk = 0, u;

	keys[nk++] = key_hash(1, p->bs, norm, normlen);
	for (i = 0; i + GRAM <= p->n1; i++)
		keys[nk++] = key_hash(0, p->bs, p->p1 + i, GRAM);
	for (i = 0; i + GRAM <= p->n2; i++)
		keys[nk++] = key_hash(0, (uint64_t)p->bs * 2, p->p2 + i, GRAM);
	qsort(keys, nk, sizeof(keys[0]), cmp_u32);
	for (i = 1, u = 1; i < nk; i++)
		if (keys[i] != keys[u - 1])
			keys[u++] = keys[i];
	return u;
}

struct ssdeep_index *
ssdeep_index_new(void)
{
	struct ssdeep_index *ix = calloc(1, sizeof(*ix));

	if (ix == NULL)
		return NULL;
	ix->nbucket = FIRST_BUCKETS;
	ix->head = malloc(ix->nbucket * sizeof(*ix->head));
	if (ix->head == NULL)
		goto fail;
	memset(ix->head, 0xff, ix->nbucket * sizeof(*ix->head));
	return ix;
fail:
	ssdeep_index_free(ix);
	return NULL;
}

void
ssdeep_index_free(struct ssdeep_index *ix)
{
	if (ix == NULL)
		return;
	free(ix->id);
	free(ix->off);
	free(ix->arena);
	free(ix->post);
	free(ix->head);
	free(ix);
}

/* Make *cap at least need (doubling) for an array of size-byte items. */
static int
reserve(void **arr, size_t *cap, size_t need, size_t size, size_t limit)
{
	size_t ncap = *cap ? *cap : 64;
	void *p;

	if (need <= *cap)
		return 0;
	if (need > limit)
		return -1;
	while (ncap < need)
		ncap = ncap > limit / 2 ? limit : ncap * 2;
	p = realloc(*arr, ncap * size);
	if (p == NULL)
		return -1;
	*arr = p;
	*cap = ncap;
	return 0;
}

/* Rebuild the buckets with at least need of them; chains stay newest
 * first because postings are relinked in entry order. */
static int
grow_buckets(struct ssdeep_index *ix, size_t need)
{
	size_t nbucket = ix->nbucket, i, b;
	uint32_t *head;

	while (nbucket < need)
		nbucket *= 2;
	head = malloc(nbucket * sizeof(*head));
	if (head == NULL)
		return -1;
	memset(head, 0xff, nbucket * sizeof(*head));
	for (i = 0; i < ix->npost; i++) {
		b = ix->post[i].key & (nbucket - 1);
		ix->post[i].next = head[b];
		head[b] = (uint32_t)i;
	}
	free(ix->head);
	ix->head = head;
	ix->nbucket = nbucket;
	return 0;
}

int
ssdeep_index_add(struct ssdeep_index *ix, const char *digest, int64_t id)
{
	struct parsed p;
	char norm[NORM_MAX];
	uint32_t keys[MAX_KEYS];
	size_t normlen, nk, i, b, idcap, offcap;

	if (parse_digest(digest, &p) != 0)
		return -2;
	normlen = format_digest(&p, norm);
	nk = keys_of(&p, norm, normlen, keys);

	/* Reserve everything first: from here on nothing can fail. */
	idcap = ix->cap;
	offcap = ix->cap;
	if (reserve((void **)&ix->id, &idcap, ix->n + 1, sizeof(*ix->id),
	    MAX_ITEMS) != 0 ||
	    reserve((void **)&ix->off, &offcap, ix->n + 1, sizeof(*ix->off),
	    MAX_ITEMS) != 0)
		return -1;
	ix->cap = idcap < offcap ? idcap : offcap;
	if (reserve((void **)&ix->arena, &ix->arena_cap,
	    ix->arena_len + normlen + 1, 1, UINT32_MAX) != 0 ||
	    reserve((void **)&ix->post, &ix->post_cap, ix->npost + nk,
	    sizeof(*ix->post), MAX_ITEMS) != 0)
		return -1;
	if (ix->npost + nk > ix->nbucket &&
	    grow_buckets(ix, ix->npost + nk) != 0)
		return -1;

	ix->id[ix->n] = id;
	ix->off[ix->n] = (uint32_t)ix->arena_len;
	memcpy(ix->arena + ix->arena_len, norm, normlen + 1);
	ix->arena_len += normlen + 1;
	for (i = 0; i < nk; i++) {
		b = keys[i] & (ix->nbucket - 1);
		ix->post[ix->npost].entry = (uint32_t)ix->n;
		ix->post[ix->npost].key = keys[i];
		ix->post[ix->npost].next = ix->head[b];
		ix->head[b] = (uint32_t)ix->npost;
		ix->npost++;
	}
	ix->n++;
	return 0;
}

/* First posting at or after c that carries key. */
static uint32_t
skip_to_key(const struct ssdeep_index *ix, uint32_t c, uint32_t key)
{
	while (c != NIL && ix->post[c].key != key)
		c = ix->post[c].next;
	return c;
}

static int
better(const void *va, const void *vb)
{
	const struct ssdeep_match *a = va, *b = vb;

	if (a->score != b->score)
		return a->score > b->score;
	return a->id < b->id;
}


size_t
ssdeep_index_query(const struct ssdeep_index *ix, const char *digest,
    int threshold, struct ssdeep_match *out, size_t max)
{
	struct parsed p;
	struct ssdeep_match m;
	char norm[NORM_MAX];
	uint32_t keys[MAX_KEYS], cur[MAX_KEYS], best;
	size_t normlen, nk, i, found = 0;

	if (parse_digest(digest, &p) != 0 || threshold > 100)
		return 0;
	/* Score 0 means unrelated, never a match. */
	if (threshold < 1)
		threshold = 1;
	normlen = format_digest(&p, norm);
	nk = keys_of(&p, norm, normlen, keys);
	for (i = 0; i < nk; i++)
		cur[i] = skip_to_key(ix, ix->head[keys[i] & (ix->nbucket - 1)],
		    keys[i]);
	for (;;) {
		/* Every key's postings run newest entry first: take the
		 * newest entry any key still points at, then step past it. */
		best = NIL;
		for (i = 0; i < nk; i++)
			if (cur[i] != NIL && (best == NIL ||
			    ix->post[cur[i]].entry > best))
				best = ix->post[cur[i]].entry;
		if (best == NIL)
			break;
		for (i = 0; i < nk; i++)
			if (cur[i] != NIL && ix->post[cur[i]].entry == best)
				cur[i] = skip_to_key(ix, ix->post[cur[i]].next,
				    keys[i]);
		m.score = fuzzy_compare(ix->arena + ix->off[best], norm);
		if (m.score < threshold)
			continue;
		m.id = ix->id[best];
		if (out != NULL && max > 0)
			topk_insert(out, max, found, &m, sizeof(m), better);
		found++;
	}
	return found;
}

size_t
ssdeep_index_count(const struct ssdeep_index *ix)
{
	return ix->n;
}

size_t
ssdeep_index_bytes(const struct ssdeep_index *ix)
{
	return sizeof(*ix) + ix->cap * (sizeof(*ix->id) + sizeof(*ix->off)) +
	    ix->arena_cap + ix->post_cap * sizeof(*ix->post) +
	    ix->nbucket * sizeof(*ix->head);
}
