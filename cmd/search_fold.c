/*
 * search_fold: which matches are one result -- the crawl's duplicate
 * clusters, SimHashes within k bits -- and which of them is shown
 * (cmd/search_int.h). No I/O: the unit tests drive it with pages made up
 * by hand.
 */
#include "cmd/search_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A duplicates row's two pages. */
struct pair {
	int64_t a, b;
};

struct search_clusters {
	struct pair *pairs; /* rows added, freed by build */
	size_t npairs, cap;
	int64_t *ids;       /* every page of a row, ascending */
	uint32_t *up;       /* union-find parent, by index into ids */
	size_t nids;
};

struct search_clusters *
search_clusters_new(void)
{
	return calloc(1, sizeof(struct search_clusters));
}

int
search_clusters_add(struct search_clusters *c, int64_t a, int64_t b)
{
	struct pair *np;
	size_t cap;

	if (c->npairs == c->cap) {
		cap = c->cap > 0 ? c->cap * 2 : 1024;
		if ((np = realloc(c->pairs, cap * sizeof(*np))) == NULL)
			return -1;
		c->pairs = np;
		c->cap = cap;
	}
	c->pairs[c->npairs].a = a;
	c->pairs[c->npairs].b = b;
	c->npairs++;
	return 0;
}

static int
id_cmp(const void *x, const void *y)
{
	int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;

	return a < b ? -1 : a > b;
}

/* The index of id in c->ids, or nids when absent. */
static size_t
find_id(const struct search_clusters *c, int64_t id)
{
	size_t lo = 0, hi = c->nids, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (c->ids[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < c->nids && c->ids[lo] == id ? lo : c->nids;
}

static uint32_t
root_of(uint32_t *up, uint32_t i)
{
	uint32_t r = i, next;

	while (up[r] != r)
		r = up[r];
	while (up[i] != r) { /* path compression */
		next = up[i];
		up[i] = r;
		i = next;
	}
	return r;
}

/* Join i's set and j's; the smaller index is the root, so a cluster's
 * root is its smallest page id. */
static void
join(uint32_t *up, uint32_t i, uint32_t j)
{
	i = root_of(up, i);
	j = root_of(up, j);
	if (i < j)
		up[j] = i;
	else if (j < i)
		up[i] = j;
}

int
search_clusters_build(struct search_clusters *c)
{
	size_t i, n = 0;

	if (c->npairs > SIZE_MAX / 2 || c->npairs * 2 >= UINT32_MAX)
		return -1;
	if ((c->ids = malloc((c->npairs * 2 + 1) * sizeof(*c->ids))) == NULL)
		return -1;
	for (i = 0; i < c->npairs; i++) {
		c->ids[n++] = c->pairs[i].a;
		c->ids[n++] = c->pairs[i].b;
	}
	qsort(c->ids, n, sizeof(*c->ids), id_cmp);
	for (i = 0, c->nids = 0; i < n; i++)
		if (c->nids == 0 || c->ids[c->nids - 1] != c->ids[i])
			c->ids[c->nids++] = c->ids[i];
	if ((c->up = malloc((c->nids + 1) * sizeof(*c->up))) == NULL)
		return -1;
	for (i = 0; i < c->nids; i++)
		c->up[i] = (uint32_t)i;
	for (i = 0; i < c->npairs; i++)
		join(c->up, (uint32_t)find_id(c, c->pairs[i].a),
		    (uint32_t)find_id(c, c->pairs[i].b));
	free(c->pairs);
	c->pairs = NULL;
	c->npairs = c->cap = 0;
	return 0;
}

int64_t
search_clusters_of(const struct search_clusters *c, int64_t id)
{
	size_t i;

	if (c == NULL || c->up == NULL || (i = find_id(c, id)) == c->nids)
		return 0;
	/* Read only: no path compression, so that a built set can be
	 * asked from a const pointer. */
	while (c->up[i] != i)
		i = c->up[i];
	return c->ids[i];
}

void
search_clusters_free(struct search_clusters *c)
{
	if (c == NULL)
		return;
	free(c->pairs);
	free(c->ids);
	free(c->up);
	free(c);
}

int
search_bits(uint64_t a, uint64_t b)
{
	return __builtin_popcountll(a ^ b);
}

/* Index and key of a page for sorting by cluster or by a SimHash block. */
struct keyed {
	uint64_t key;
	uint32_t i;
};

static int
keyed_cmp(const void *x, const void *y)
{
	const struct keyed *a = x, *b = y;

	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	return a->i < b->i ? -1 : a->i > b->i;
}

/* Join the pages of one cluster. */
static void
join_clusters(uint32_t *up, const int64_t *cluster, size_t n,
    struct keyed *kb)
{
	size_t i, m = 0;

	for (i = 0; i < n; i++)
		if (cluster[i] != 0) {
			kb[m].key = (uint64_t)cluster[i];
			kb[m++].i = (uint32_t)i;
		}
	qsort(kb, m, sizeof(*kb), keyed_cmp);
	for (i = 1; i < m; i++)
		if (kb[i].key == kb[i - 1].key)
			join(up, kb[i - 1].i, kb[i].i);
}

/*
 * Join the pages whose SimHashes differ in at most k bits. Pages with the
 * same hash are joined first and stand for one another after, so that a
 * page and its thousand exact copies cost a sort, not a million
 * comparisons. Then two hashes within k bits agree on at least one of
 * k + 1 blocks (pigeonhole), so only hashes that share a block's bits are
 * compared: the distinct hashes sorted by each block in turn, each run
 * of equal blocks compared pairwise. rep is room for n indices.
 */
static void
join_simhash(uint32_t *up, const struct search_page *p, size_t n, int k,
    struct keyed *kb, uint32_t *rep)
{
	int blocks = k + 1 < 64 ? k + 1 : 64, b, lo, width;
	size_t i, j, x, m, nrep = 0, start;
	uint64_t mask;

	for (i = m = 0; i < n; i++)
		if (p[i].has_simhash) {
			kb[m].key = p[i].simhash;
			kb[m++].i = (uint32_t)i;
		}
	qsort(kb, m, sizeof(*kb), keyed_cmp);
	for (i = 0; i < m; i++) {
		if (i > 0 && kb[i].key == kb[i - 1].key)
			join(up, kb[i - 1].i, kb[i].i);
		else
			rep[nrep++] = kb[i].i;
	}
	if (k >= 64) {
		/* Any two 64-bit hashes: every page with one is joined. */
		for (i = 1; i < nrep; i++)
			join(up, rep[0], rep[i]);
		return;
	}
	/* k = 0: the equal hashes were all. */
	for (b = 0, lo = 0; k > 0 && b < blocks; b++, lo += width) {
		width = 64 / blocks + (b < 64 % blocks);
		mask = (((uint64_t)1 << width) - 1) << lo;
		for (i = 0; i < nrep; i++) {
			kb[i].key = p[rep[i]].simhash & mask;
			kb[i].i = rep[i];
		}
		qsort(kb, nrep, sizeof(*kb), keyed_cmp);
		for (start = 0; start < nrep; start = j) {
			for (j = start + 1; j < nrep && kb[j].key ==
			    kb[start].key; j++)
				;
			for (i = start; i < j; i++)
				for (x = i + 1; x < j; x++)
					if (search_bits(p[kb[i].i].simhash,
					    p[kb[x].i].simhash) <= k)
						join(up, kb[i].i, kb[x].i);
		}
	}
}

/*
 * Which of a group's n members (mem: indices into p, score order) the
 * rule shows, as an index into mem, and what decided it.
 */
static size_t
choose(const struct search_page *p, const uint32_t *mem, size_t n,
    enum search_rule rule, enum search_decided *why)
{
	size_t i, j, best = n, vote = n;
	int votes = 0, agree = 1, tie = 0;
	double top = 0;

	if (n == 1) {
		*why = SEARCH_DECIDED_ALONE;
		return 0;
	}
	/* Every declaration that names a member must name the same one. */
	for (i = 0; rule == SEARCH_RULE_CANONICAL && i < n; i++) {
		if (p[mem[i]].declared == NULL)
			continue;
		for (j = 0; j < n; j++)
			if (strcmp(p[mem[i]].declared, p[mem[j]].url) == 0)
				break;
		if (j == n)
			continue;
		if (votes++ > 0 && j != vote)
			agree = 0;
		vote = j;
	}
	if (votes > 0 && agree) {
		*why = SEARCH_DECIDED_DECLARED;
		return vote;
	}
	for (i = 0; i < n; i++)
		if (p[mem[i]].has_pagerank && (best == n ||
		    p[mem[i]].pagerank > p[mem[best]].pagerank))
			best = i;
	if (best != n) {
		top = p[mem[best]].pagerank;
		for (i = 0; i < n; i++)
			if (i != best && p[mem[i]].has_pagerank &&
			    fabs(p[mem[i]].pagerank - top) <= SEARCH_RANK_TIE *
			    fabs(top))
				tie = 1;
		if (!tie) {
			*why = SEARCH_DECIDED_PAGERANK;
			return best;
		}
	}
	/* First seen: among the tied best when PageRank tied, else all. */
	for (i = 0, j = n; i < n; i++) {
		if (best != n && (!p[mem[i]].has_pagerank ||
		    fabs(p[mem[i]].pagerank - top) > SEARCH_RANK_TIE *
		    fabs(top)))
			continue;
		if (j == n || p[mem[i]].seq < p[mem[j]].seq ||
		    (p[mem[i]].seq == p[mem[j]].seq &&
		    p[mem[i]].id < p[mem[j]].id))
			j = i;
	}
	*why = SEARCH_DECIDED_FIRST;
	return j;
}

/* Set g's representative, decision and members from the n indices into
 * p in mem (score order). 0, or -1 when out of memory. */
static int
make_group(struct search_page *p, const int64_t *cluster, uint32_t *mem,
    size_t n, enum search_rule rule, struct search_group *g)
{
	struct search_page *b;
	size_t r, i, o = 0;

	memset(g, 0, sizeof(*g));
	r = choose(p, mem, n, rule, &g->decided);
	b = g->best = &p[mem[r]];
	b->fold = SEARCH_FOLD_NONE;
	b->bits = b->has_simhash ? 0 : -1;
	if (n == 1)
		return 0;
	if ((g->members = malloc((n - 1) * sizeof(*g->members))) == NULL)
		return -1;
	for (i = 0; i < n; i++) {
		struct search_page *m = &p[mem[i]];

		if (i == r)
			continue;
		m->fold = cluster[mem[i]] != 0 &&
		    cluster[mem[i]] == cluster[mem[r]] ? SEARCH_FOLD_CLUSTER :
		    SEARCH_FOLD_SIMHASH;
		m->bits = m->has_simhash && b->has_simhash ?
		    search_bits(m->simhash, b->simhash) : -1;
		g->members[o++] = m;
	}
	g->nmembers = o;
	return 0;
}

int
search_fold(struct search_page *p, const int64_t *cluster, size_t n, int k,
    enum search_rule rule, struct search_group **groups, size_t *ngroups)
{
	struct search_group *g = NULL;
	struct keyed *kb = NULL;
	uint32_t *up = NULL, *order = NULL, *start = NULL, r;
	size_t i, ng = 0, at;
	int ret = -1;

	*groups = NULL;
	*ngroups = 0;
	if (n == 0)
		return 0;
	if (n >= UINT32_MAX ||
	    (up = malloc(n * sizeof(*up))) == NULL ||
	    (kb = malloc(n * sizeof(*kb))) == NULL ||
	    (order = malloc(n * sizeof(*order))) == NULL ||
	    (start = malloc((n + 1) * sizeof(*start))) == NULL ||
	    (g = calloc(n, sizeof(*g))) == NULL)
		goto out;
	for (i = 0; i < n; i++)
		up[i] = (uint32_t)i;
	join_clusters(up, cluster, n, kb);
	/* order is free until the sets are laid out below. */
	if (k >= 0)
		join_simhash(up, p, n, k, kb, order);
	/*
	 * A set's root is its smallest index: its best-scored page. Count
	 * the members of each root, then lay the sets out one after the
	 * other in root order, each in score order (a counting sort).
	 */
	memset(start, 0, (n + 1) * sizeof(*start));
	for (i = 0; i < n; i++)
		start[root_of(up, (uint32_t)i) + 1]++;
	for (i = 0; i < n; i++)
		start[i + 1] += start[i];
	for (i = 0; i < n; i++) {
		r = root_of(up, (uint32_t)i);
		order[start[r]++] = (uint32_t)i;
	}
	/* start[r] is now the end of root r's run. */
	for (i = 0, at = 0; i < n; i++) {
		size_t len;
		uint32_t *mem;

		if (root_of(up, (uint32_t)i) != i)
			continue;
		len = start[i] - at;
		mem = order + at;
		at = start[i];
		if (make_group(p, cluster, mem, len, rule, &g[ng]) != 0)
			goto out;
		ng++;
	}
	*groups = g;
	*ngroups = ng;
	g = NULL;
	ret = 0;
out:
	search_fold_free(g, ng);
	free(up);
	free(kb);
	free(order);
	free(start);
	return ret;
}

void
search_fold_free(struct search_group *groups, size_t ngroups)
{
	size_t i;

	if (groups == NULL)
		return;
	for (i = 0; i < ngroups; i++)
		free(groups[i].members);
	free(groups);
}
