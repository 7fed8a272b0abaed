#include "cmd/pagerank.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int
pagerank_run(const struct pagerank_graph *g, const struct pagerank_opts *o,
    double *score, struct pagerank_stats *st)
{
	struct pagerank_stats s = { 0, 0.0, 1, 0 };
	double *mine, *cur, *next, *t, d, n, dangling, base, share, delta;
	uint64_t e;
	uint32_t u;

	/* The negated tests also refuse NaN. */
	if (g == NULL || o == NULL ||
	    !(o->damping >= 0.0 && o->damping < 1.0) || o->max_iter < 1 ||
	    !(o->epsilon >= 0.0))
		return -1;
	if (g->n == 0) {
		if (st != NULL)
			*st = s;
		return 0;
	}
	if ((mine = malloc((size_t)g->n * sizeof(*mine))) == NULL)
		return -1;
	/* The rounds swap the two vectors; the result is copied home. */
	cur = score;
	next = mine;
	d = o->damping;
	n = (double)g->n;
	for (u = 0; u < g->n; u++) {
		cur[u] = 1.0 / n;
		if (g->off[u + 1] == g->off[u])
			s.dangling++;
	}
	s.converged = 0;
	while (s.iterations < o->max_iter) {
		dangling = 0.0;
		for (u = 0; u < g->n; u++)
			if (g->off[u + 1] == g->off[u])
				dangling += cur[u];
		base = (1.0 - d) / n + d * dangling / n;
		for (u = 0; u < g->n; u++)
			next[u] = base;
		/* Push along the rows: each node's share goes to its targets,
		 * reading the graph once, in order. */
		for (u = 0; u < g->n; u++) {
			if (g->off[u + 1] == g->off[u])
				continue;
			share = d * cur[u] /
			    (double)(g->off[u + 1] - g->off[u]);
			for (e = g->off[u]; e < g->off[u + 1]; e++)
				next[g->to[e]] += share;
		}
		delta = 0.0;
		for (u = 0; u < g->n; u++)
			delta += fabs(next[u] - cur[u]);
		t = cur;
		cur = next;
		next = t;
		s.iterations++;
		s.delta = delta;
		if (delta < o->epsilon) {
			s.converged = 1;
			break;
		}
	}
	if (cur != score)
		memcpy(score, cur, (size_t)g->n * sizeof(*score));
	free(mine);
	if (st != NULL)
		*st = s;
	return 0;
}
