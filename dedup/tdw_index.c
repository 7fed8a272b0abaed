/*
 * tdw_index: the index over TDW vectors (declared in tdw.h) that finds
 * every stored vector whose minimum weight overlap with a query reaches
 * the threshold: a global token order, postings of each vector's prefix,
 * positional filtering, a coarse sketch to skip hopeless candidates, and
 * verification by merge. tdw.h has the method and the proof that it
 * misses nothing.
 */
#include "dedup/tdw.h"

#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/mix64.h"
#include "dedup/topk.h"

#define NO_ORD UINT32_MAX   /* token the index has not numbered */
#define ORD_MAX (UINT32_MAX - 1)
#define FIRST_SLOTS 1024
#define COMPACT_MIN 4096    /* recent postings worth compacting */
#define OWN_FROM 256        /* postings after which a token gets an array
                               of its own (TDW_TOKEN_MEETS: a query walks
                               that many of a frequent token's) */
#define SKETCH 64           /* buckets of a vector's sketch */

/* A stored vector's token at a prefix position, added lately. */
struct posting {
	uint32_t vec;  /* stored vector */
	uint32_t next; /* older posting of the same token + 1, or 0 */
	uint16_t pos;  /* position of the token in the vector */
	uint16_t rest; /* weight from pos to the vector's end */
};

/* The same, compacted: the token is the group it is in. */
struct cposting {
	uint32_t vec;
	uint16_t pos;
	uint16_t rest;
};

/* A frequent token's postings, oldest first: a query walks them newest
 * first from the end, in order, where a chain of recent postings would
 * miss the cache at every step. */
struct own {
	struct cposting *p; /* the postings */
	uint32_t n;         /* used */
	uint32_t cap;       /* allocated */
};

struct slot {
	uint32_t id;   /* token id */
	uint32_t ord1; /* its order number + 1; 0 marks a free slot */
};

struct stored {
	int64_t id;     /* the caller's */
	uint64_t off;   /* first token in ord and w */
	uint32_t total; /* its weights' sum */
	uint16_t n;     /* tokens */
};

struct tdw_index {
	uint32_t t;            /* threshold, weight units */
	size_t meets;          /* postings of a token a query walks at most,
	                          newest first; 0: all */
	struct slot *slot;     /* token id -> order number, at most half full */
	size_t nslot;          /* slots, a power of two */
	uint32_t *head;        /* per order number: newest posting + 1, or 0 */
	size_t ntok;           /* order numbers given */
	size_t ahead;          /* head entries allocated */
	uint32_t *cnt;         /* per order number: its postings so far */
	size_t acnt;
	uint32_t *own1;        /* per order number: its entry in own + 1, or
	                          0 while its postings are chained and grouped */
	size_t aown1;
	struct own *own;       /* the frequent tokens' arrays */
	size_t nown;
	size_t aown;
	struct posting *post;  /* postings since the last compaction, in add
	                          order, chained per token from head */
	size_t npost;
	size_t apost;
	struct cposting *cpost; /* the others, grouped by token: walking a
	                           chain would miss the cache at every step */
	size_t ncpost;
	uint32_t *coff;        /* order number k's group: cpost[coff[k]] up to
	                          cpost[coff[k + 1]], for k + 1 < ncoff */
	size_t ncoff;
	struct stored *vec;    /* stored vectors, in add order */
	size_t nvec;
	size_t avec;
	uint16_t *sketch;      /* per stored vector, SKETCH weights: of its
	                          tokens in each bucket (at most TDW_SCALE) */
	size_t asketch;        /* vectors' room in sketch */
	uint32_t *stamp;       /* per stored vector: the last query that met
	                          it, so a query verifies it once */
	size_t astamp;
	uint32_t query;        /* queries made, 0 skipped on wrapping */
	uint32_t *ord;         /* every vector's tokens' order numbers, each
	                          vector's decreasing (newest first) ... */
	uint16_t *w;           /* ... and their weights */
	size_t nterm;          /* entries used in both */
	size_t aord;           /* entries allocated in ord */
	size_t aw;             /* entries allocated in w */
};

/* A vector's token in the global order. */
struct ranked {
	uint64_t key;  /* order number; unknown tokens above every one */
	uint16_t w;    /* weight */
};

static int
by_key_desc(const void *pa, const void *pb)
{
	const struct ranked *a = pa, *b = pb;

	return a->key > b->key ? -1 : a->key < b->key;
}

static struct slot *
slot_probe(struct slot *slot, size_t nslot, uint32_t id)
{
	size_t i = id & (nslot - 1);

	while (slot[i].ord1 != 0 && slot[i].id != id)
		i = (i + 1) & (nslot - 1);
	return &slot[i];
}

static uint32_t
order_of(const struct tdw_index *ix, uint32_t id)
{
	const struct slot *s = slot_probe(ix->slot, ix->nslot, id);

	return s->ord1 == 0 ? NO_ORD : s->ord1 - 1;
}

struct tdw_index *
tdw_index_new(int percent)
{
	struct tdw_index *ix;

	if (percent < 1 || percent > 100)
		return NULL;
	if ((ix = calloc(1, sizeof(*ix))) == NULL)
		return NULL;
	ix->t = tdw_threshold(percent);
	ix->meets = TDW_TOKEN_MEETS;
	ix->nslot = FIRST_SLOTS;
	if ((ix->slot = calloc(ix->nslot, sizeof(*ix->slot))) == NULL) {
		free(ix);
		return NULL;
	}
	return ix;
}

void
tdw_index_free(struct tdw_index *ix)
{
	size_t i;

	if (ix == NULL)
		return;
	for (i = 0; i < ix->nown; i++)
		free(ix->own[i].p);
	free(ix->own);
	free(ix->own1);
	free(ix->cnt);
	free(ix->slot);
	free(ix->head);
	free(ix->post);
	free(ix->cpost);
	free(ix->coff);
	free(ix->vec);
	free(ix->stamp);
	free(ix->sketch);
	free(ix->ord);
	free(ix->w);
	free(ix);
}

/*
 * Room for need elements of size bytes in the array whose pointer is at
 * arrp (any object pointer), of *cap elements, doubling. Returns 0 (the
 * array moved, and *cap raised, if it had to grow), or -1 when out of
 * memory (array and *cap unchanged).
 */
static int
grow(void *arrp, size_t *cap, size_t need, size_t size)
{
	size_t c = *cap ? *cap : 64;
	void *p, *n;

	if (need <= *cap)
		return 0;
	while (c < need) {
		if (c > SIZE_MAX / 2 / size)
			return -1;
		c *= 2;
	}
	memcpy(&p, arrp, sizeof(p));
	if ((n = realloc(p, c * size)) == NULL)
		return -1;
	memcpy(arrp, &n, sizeof(n));
	*cap = c;
	return 0;
}

/* How many postings token k has in its group and its chain. */
static size_t
postings_of(const struct tdw_index *ix, size_t k)
{
	const struct posting *p;
	size_t n = k + 1 < ix->ncoff ? ix->coff[k + 1] - ix->coff[k] : 0;
	uint32_t pr;

	for (pr = ix->head[k]; pr != 0; pr = p->next, n++)
		p = &ix->post[pr - 1];
	return n;
}

/* Copy token k's n postings (postings_of) into dst, oldest first: its
 * group as it is, then its chain, which runs newest first, from the
 * end. */
static void
copy_postings(const struct tdw_index *ix, size_t k, struct cposting *dst,
    size_t n)
{
	const struct posting *p;
	size_t g = k + 1 < ix->ncoff ? ix->coff[k + 1] - ix->coff[k] : 0;
	uint32_t pr;

	if (g > 0)
		memcpy(dst, ix->cpost + ix->coff[k], g * sizeof(*dst));
	for (pr = ix->head[k]; pr != 0; pr = p->next) {
		p = &ix->post[pr - 1];
		n--;
		dst[n].vec = p->vec;
		dst[n].pos = p->pos;
		dst[n].rest = p->rest;
	}
}

/*
 * Move the recent postings into the compacted groups. Done when they are a
 * fifth of all, so each posting is moved a bounded number of times. Returns
 * 0, or -1 when out of memory (nothing changed).
 */
static int
compact(struct tdw_index *ix)
{
	struct cposting *cp;
	uint32_t *off;
	size_t k, at = 0, n;

	off = malloc((ix->ntok + 1) * sizeof(*off));
	cp = malloc((ix->ncpost + ix->npost) * sizeof(*cp));
	if (off == NULL || cp == NULL) {
		free(off);
		free(cp);
		return -1;
	}
	for (k = 0; k < ix->ntok; k++) {
		off[k] = (uint32_t)at;
		/* A token with an array of its own has no group, no chain. */
		if (ix->own1[k] != 0)
			continue;
		/* Oldest first, so that a query can walk the group newest
		 * first from its end. */
		n = postings_of(ix, k);
		copy_postings(ix, k, cp + at, n);
		at += n;
		ix->head[k] = 0;
	}
	off[ix->ntok] = (uint32_t)at;
	free(ix->cpost);
	free(ix->coff);
	ix->cpost = cp;
	ix->ncpost = at;
	ix->coff = off;
	ix->ncoff = ix->ntok + 1;
	ix->npost = 0;
	return 0;
}

/* Move token k's postings, its group's and then its chain's, oldest
 * first, into an array of its own. -1 when out of memory (nothing
 * changed). */
static int
own_make(struct tdw_index *ix, size_t k)
{
	struct own *o;
	size_t n = postings_of(ix, k), cap = n + n / 2 + 16;

	if (cap > UINT32_MAX || ix->nown >= UINT32_MAX - 1 ||
	    grow(&ix->own, &ix->aown, ix->nown + 1, sizeof(*ix->own)) != 0)
		return -1;
	o = &ix->own[ix->nown];
	if ((o->p = malloc(cap * sizeof(*o->p))) == NULL)
		return -1;
	o->cap = (uint32_t)cap;
	o->n = (uint32_t)n;
	copy_postings(ix, k, o->p, n);
	/* The group and chain are left to the next compaction, which
	 * skips the token. */
	ix->head[k] = 0;
	ix->own1[k] = (uint32_t)++ix->nown;
	return 0;
}

/* Room for one more posting of token k: in its own array, made now if
 * the posting would be its OWN_FROM-th. -1 when out of memory. */
static int
own_reserve(struct tdw_index *ix, size_t k)
{
	struct own *o;
	size_t cap;
	void *p;

	if (ix->own1[k] == 0)
		return ix->cnt[k] + 1 < OWN_FROM ? 0 : own_make(ix, k);
	o = &ix->own[ix->own1[k] - 1];
	if (o->n < o->cap)
		return 0;
	cap = (size_t)o->cap + o->cap / 2;
	if (cap > UINT32_MAX ||
	    (p = realloc(o->p, cap * sizeof(*o->p))) == NULL)
		return -1;
	o->p = p;
	o->cap = (uint32_t)cap;
	return 0;
}

int
tdw_index_reserve(struct tdw_index *ix, const struct tdw_vec *v)
{
	struct slot *n;
	size_t want, size, i;
	uint32_t ord;

	if (v->n == 0)
		return 0;
	if (ix->nvec >= UINT32_MAX || ix->ntok + v->n > ORD_MAX ||
	    ix->ncpost + ix->npost + v->n >= UINT32_MAX)
		return -1;
	/* Only for speed: without memory for it, the chains stay. */
	if (ix->npost >= COMPACT_MIN && ix->npost * 4 >= ix->ncpost)
		(void)compact(ix);
	/* Each array keeps what it got even if a later one fails. */
	if (grow(&ix->vec, &ix->avec, ix->nvec + 1, sizeof(*ix->vec)) != 0 ||
	    grow(&ix->sketch, &ix->asketch, ix->nvec + 1,
	    SKETCH * sizeof(*ix->sketch)) != 0 ||
	    grow(&ix->stamp, &ix->astamp, ix->nvec + 1,
	    sizeof(*ix->stamp)) != 0 ||
	    grow(&ix->post, &ix->apost, ix->npost + v->n,
	    sizeof(*ix->post)) != 0 ||
	    grow(&ix->head, &ix->ahead, ix->ntok + v->n,
	    sizeof(*ix->head)) != 0 ||
	    grow(&ix->cnt, &ix->acnt, ix->ntok + v->n, sizeof(*ix->cnt)) != 0 ||
	    grow(&ix->own1, &ix->aown1, ix->ntok + v->n,
	    sizeof(*ix->own1)) != 0 ||
	    grow(&ix->ord, &ix->aord, ix->nterm + v->n,
	    sizeof(*ix->ord)) != 0 ||
	    grow(&ix->w, &ix->aw, ix->nterm + v->n, sizeof(*ix->w)) != 0)
		return -1;
	for (i = 0; i < v->n; i++)
		if ((ord = order_of(ix, v->t[i].id)) != NO_ORD &&
		    own_reserve(ix, ord) != 0)
			return -1;
	want = (ix->ntok + v->n) * 2;
	if (want <= ix->nslot)
		return 0;
	for (size = ix->nslot; size < want; size *= 2)
		;
	if ((n = calloc(size, sizeof(*n))) == NULL)
		return -1;
	for (i = 0; i < ix->nslot; i++)
		if (ix->slot[i].ord1 != 0)
			*slot_probe(n, size, ix->slot[i].id) = ix->slot[i];
	free(ix->slot);
	ix->slot = n;
	ix->nslot = size;
	return 0;
}

/* The weight of v's tokens in each bucket of a sketch. */
static void
sketch_of(const struct tdw_vec *v, uint32_t sum[SKETCH])
{
	size_t i;

	memset(sum, 0, SKETCH * sizeof(sum[0]));
	for (i = 0; i < v->n; i++)
		sum[(v->t[i].id * 0x9e3779b1u) >> 26] += v->t[i].w;
}

/* The sketch as stored: each bucket's weight, which the weights' sum
 * (TDW_SCALE) keeps within 16 bits. */
static void
sketch_store(const struct tdw_vec *v, uint16_t *out)
{
	uint32_t sum[SKETCH];
	size_t b;

	sketch_of(v, sum);
	for (b = 0; b < SKETCH; b++)
		out[b] = (uint16_t)(sum[b] < UINT16_MAX ? sum[b] : UINT16_MAX);
}

int
tdw_index_add(struct tdw_index *ix, const struct tdw_vec *v, int64_t id)
{
	struct ranked r[TDW_TOKENS_MAX];
	struct stored *s;
	struct posting *p;
	struct cposting cp;
	struct own *o;
	struct slot *sl;
	uint32_t rest = 0;
	size_t i, k;

	if (v->n == 0)
		return 0;
	for (i = 0; i < v->n; i++)
		rest += v->t[i].w;
	if (rest > TDW_SCALE || tdw_index_reserve(ix, v) != 0)
		return -1;
	/* New tokens are numbered in id order: a rebuilt index numbers
	 * them as the first one did. */
	for (i = 0; i < v->n; i++) {
		sl = slot_probe(ix->slot, ix->nslot, v->t[i].id);
		if (sl->ord1 == 0) {
			sl->id = v->t[i].id;
			sl->ord1 = (uint32_t)++ix->ntok;
			ix->head[sl->ord1 - 1] = 0;
			ix->cnt[sl->ord1 - 1] = 0;
			ix->own1[sl->ord1 - 1] = 0;
		}
		r[i].key = sl->ord1 - 1;
		r[i].w = v->t[i].w;
	}
	qsort(r, v->n, sizeof(r[0]), by_key_desc);
	s = &ix->vec[ix->nvec];
	s->id = id;
	s->off = ix->nterm;
	s->total = rest;
	s->n = v->n;
	ix->stamp[ix->nvec] = 0;
	sketch_store(v, ix->sketch + ix->nvec * SKETCH);
	for (i = 0; i < v->n; i++) {
		ix->ord[ix->nterm + i] = (uint32_t)r[i].key;
		ix->w[ix->nterm + i] = r[i].w;
		if (rest >= ix->t) {
			k = r[i].key;
			cp.vec = (uint32_t)ix->nvec;
			cp.pos = (uint16_t)i;
			cp.rest = (uint16_t)rest;
			if (ix->own1[k] != 0) {
				/* Room made by tdw_index_reserve. */
				o = &ix->own[ix->own1[k] - 1];
				o->p[o->n++] = cp;
			} else {
				p = &ix->post[ix->npost++];
				p->vec = cp.vec;
				p->pos = cp.pos;
				p->rest = cp.rest;
				p->next = ix->head[k];
				ix->head[k] = (uint32_t)ix->npost;
			}
			ix->cnt[k]++;
		}
		rest -= r[i].w;
	}
	ix->nterm += v->n;
	ix->nvec++;
	return 0;
}

/*
 * The MWO of query x (n tokens in the global order) with stored vector s,
 * whose first token in common with x is x's position a and s's position b,
 * with rx and ry the two vectors' weights from there on; 0 when it falls
 * short of the threshold. No token before those positions is shared, so
 * the merge starts there, and stops as soon as what is left of either
 * vector cannot make up the difference (positional filtering).
 */
static uint32_t
verify(const struct tdw_index *ix, const struct ranked *x, size_t n,
    size_t a, uint32_t rx, const struct stored *s, size_t b, uint32_t ry)
{
	const uint32_t *ord = ix->ord + s->off;
	const uint16_t *w = ix->w + s->off;
	uint32_t acc = 0;

	while (a < n && b < s->n) {
		if (acc + (rx < ry ? rx : ry) < ix->t)
			return 0;
		if (x[a].key == ord[b]) {
			acc += x[a].w < w[b] ? x[a].w : w[b];
			rx -= x[a++].w;
			ry -= w[b++];
		} else if (x[a].key > ord[b]) {
			rx -= x[a++].w;
		} else {
			ry -= w[b++];
		}
	}
	return acc >= ix->t ? acc : 0;
}

static int
better(const void *pa, const void *pb)
{
	const struct tdw_match *a = pa, *b = pb;

	return a->overlap > b->overlap ||
	    (a->overlap == b->overlap && a->id < b->id);
}

/* What a query carries from posting to posting. */
struct probe {
	uint16_t sketch[SKETCH]; /* the query's bucket weights */
	const struct ranked *x; /* the query's tokens, in the global order */
	size_t n;               /* how many */
	size_t i;               /* the position being probed */
	uint32_t rest;          /* its weight from there on */
	uint32_t total;         /* the query's whole weight */
	int cut;                /* an earlier token's postings were cut short
	                           (tdw_index_limit): a vector met now may
	                           share a token before this one */
	struct tdw_match *out;  /* the best so far */
	size_t max;             /* room in out */
	size_t found;           /* matches so far */
};

/* The sum over buckets of the smaller of the query's weight and the
 * stored one: every vector met pays it, so it runs on vector lanes (GCC
 * vectorises at -O3 only), with AVX2 where the machine has it. */
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("O3"), target_clones("avx2", "default")))
#endif
static uint32_t
sketch_bound(const uint16_t *q, const uint16_t *sk)
{
	uint32_t bound = 0;
	size_t b;

	for (b = 0; b < SKETCH; b++)
		bound += q[b] < sk[b] ? q[b] : sk[b];
	return bound;
}

/* The query meets stored vector vec for the first time (the caller checks
 * the stamp: most postings walked are of vectors met already), at its
 * token at pos (weighing rest from there on), the probed one. */
static void
meet(struct tdw_index *ix, struct probe *q, uint32_t vec, uint16_t pos,
    uint16_t rest)
{
	struct tdw_match m;
	const uint16_t *sk;
	uint32_t o;

	assert(ix->stamp[vec] != ix->query);
	ix->stamp[vec] = ix->query;
	/* Tokens sharing a bucket can share at most the smaller of the two
	 * bucket weights: a bound read from 128 bytes, not from the vector. */
	sk = ix->sketch + (size_t)vec * SKETCH;
	if (sketch_bound(q->sketch, sk) < ix->t)
		return;
	o = q->cut ? verify(ix, q->x, q->n, 0, q->total, &ix->vec[vec], 0,
	    ix->vec[vec].total) :
	    verify(ix, q->x, q->n, q->i, q->rest, &ix->vec[vec], pos, rest);
	if (o == 0)
		return;
	m.id = ix->vec[vec].id;
	m.overlap = o;
	if (q->out != NULL && q->max > 0)
		topk_insert(q->out, q->max, q->found, &m, sizeof(m), better);
	q->found++;
}

/* Meet the vectors of the grouped postings [lo, hi), newest (highest)
 * first, at most *left of them (counted down). Returns how many were left
 * unwalked. */
static size_t
walk_group(struct tdw_index *ix, struct probe *q, const struct cposting *lo,
    const struct cposting *hi, size_t *left)
{
	const struct cposting *c;

	for (c = hi; c > lo && *left > 0; c--) {
		(*left)--;
		if (ix->stamp[c[-1].vec] != ix->query)
			meet(ix, q, c[-1].vec, c[-1].pos, c[-1].rest);
	}
	return (size_t)(c - lo);
}

size_t
tdw_index_query(struct tdw_index *ix, const struct tdw_vec *v,
    struct tdw_match *out, size_t max)
{
	struct ranked x[TDW_TOKENS_MAX];
	const struct posting *p;
	const struct own *o;
	struct probe q;
	uint32_t total = 0, ord, pr;
	uint64_t k;
	size_t i, left, unwalked;

	if (v->n == 0 || ix->nvec == 0)
		return 0;
	for (i = 0; i < v->n; i++) {
		ord = order_of(ix, v->t[i].id);
		x[i].key = ord != NO_ORD ? ord :
		    ((uint64_t)1 << 32 | v->t[i].id);
		x[i].w = v->t[i].w;
		total += v->t[i].w;
	}
	qsort(x, v->n, sizeof(x[0]), by_key_desc);
	if (++ix->query == 0) {
		memset(ix->stamp, 0, ix->nvec * sizeof(*ix->stamp));
		ix->query = 1;
	}
	memset(&q, 0, sizeof(q));
	sketch_store(v, q.sketch);
	q.x = x;
	q.n = v->n;
	q.out = out;
	q.max = max;
	q.rest = total;
	q.total = total;
	/* Each token's postings newest first, the recent chain, then the
	 * group from its end, at most TDW_TOKEN_MEETS of them. */
	for (q.i = 0; q.i < v->n && q.rest >= ix->t; q.rest -= x[q.i++].w) {
		if ((k = x[q.i].key) > ORD_MAX)
			continue;
		left = ix->meets > 0 ? ix->meets : SIZE_MAX;
		if (ix->own1[k] != 0) {
			/* A frequent token: its own array, from its end. */
			o = &ix->own[ix->own1[k] - 1];
			if (walk_group(ix, &q, o->p, o->p + o->n, &left) > 0)
				q.cut = 1;
			continue;
		}
		for (pr = ix->head[k]; pr != 0 && left > 0; pr = p->next) {
			p = &ix->post[pr - 1];
			left--;
			if (ix->stamp[p->vec] != ix->query)
				meet(ix, &q, p->vec, p->pos, p->rest);
		}
		unwalked = k + 1 < ix->ncoff ? walk_group(ix, &q,
		    ix->cpost + ix->coff[k], ix->cpost + ix->coff[k + 1],
		    &left) : 0;
		/* Postings left unwalked: later meets merge from the start. */
		if (pr != 0 || unwalked > 0)
			q.cut = 1;
	}
	return q.found;
}

/* A token in the fixed order of lock keys. */
struct fixed {
	uint64_t rank; /* mix64 of its id: a bijection, so no ties */
	uint32_t id;
	uint16_t w;
};

static int
by_rank(const void *pa, const void *pb)
{
	const struct fixed *a = pa, *b = pb;

	return a->rank < b->rank ? -1 : a->rank > b->rank;
}

size_t
tdw_index_keys(const struct tdw_index *ix, const struct tdw_vec *v,
    uint64_t *keys)
{
	struct fixed f[TDW_TOKENS_MAX];
	uint32_t rest = 0;
	size_t i, n = 0;

	for (i = 0; i < v->n; i++) {
		f[i].rank = mix64(v->t[i].id);
		f[i].id = v->t[i].id;
		f[i].w = v->t[i].w;
		rest += v->t[i].w;
	}
	qsort(f, v->n, sizeof(f[0]), by_rank);
	for (i = 0; i < v->n && rest >= ix->t; rest -= f[i++].w)
		keys[n++] = f[i].id;
	return n;
}

void
tdw_index_limit(struct tdw_index *ix, size_t meets)
{
	ix->meets = meets;
}

size_t
tdw_index_count(const struct tdw_index *ix)
{
	return ix->nvec;
}

/* Bytes the frequent tokens' arrays hold. */
static size_t
own_bytes(const struct tdw_index *ix)
{
	size_t i, b = 0;

	for (i = 0; i < ix->nown; i++)
		b += ix->own[i].cap * sizeof(*ix->own[i].p);
	return b;
}

size_t
tdw_index_bytes(const struct tdw_index *ix)
{
	return sizeof(*ix) + ix->nslot * sizeof(*ix->slot) +
	    ix->ahead * sizeof(*ix->head) + ix->apost * sizeof(*ix->post) +
	    ix->acnt * sizeof(*ix->cnt) + ix->aown1 * sizeof(*ix->own1) +
	    ix->aown * sizeof(*ix->own) + own_bytes(ix) +
	    ix->ncpost * sizeof(*ix->cpost) + ix->ncoff * sizeof(*ix->coff) +
	    ix->avec * sizeof(*ix->vec) + ix->astamp * sizeof(*ix->stamp) +
	    ix->asketch * SKETCH * sizeof(*ix->sketch) +
	    ix->aord * sizeof(*ix->ord) +
	    ix->aw * sizeof(*ix->w);
}
