/*
 * pagerank: PageRank by power iteration over a graph in compressed sparse
 * rows, nodes numbered 0 .. n-1.
 *
 * Each round gives every node (1 - d) / n, plus d times the score of every
 * node linking to it divided by that node's out-degree, plus d / n of the
 * summed score of the dangling nodes (no out-links): a surfer on such a
 * page jumps anywhere, so no score leaks out and the scores sum to 1. The
 * rounds stop when the L1 change of the whole vector falls below epsilon,
 * or after max_iter rounds. Memory: the caller's graph and scores, plus one
 * more vector of n doubles.
 */
#ifndef NC_PAGERANK_H
#define NC_PAGERANK_H

#include <stddef.h>
#include <stdint.h>

/* The graph: the out-links of node u are to[off[u] .. off[u + 1]). */
struct pagerank_graph {
	uint32_t n;          /* nodes */
	const uint64_t *off; /* n + 1 offsets into to, off[0] == 0 */
	const uint32_t *to;  /* link targets, each < n */
};

struct pagerank_opts {
	double damping; /* d: the share that follows links, 0 <= d < 1 */
	int max_iter;   /* most rounds, >= 1 */
	double epsilon; /* stop once the L1 change is below this, >= 0 */
};

/* How the iteration ended. */
struct pagerank_stats {
	int iterations; /* rounds run */
	double delta;   /* L1 change of the last round */
	int converged;  /* delta < epsilon */
	uint32_t dangling; /* nodes without out-links */
};

/*
 * Defaults: d = 0.85 (Brin and Page); the change shrinks by about d a
 * round, so 1e-6 is reached within 100 rounds from the uniform start.
 */
#define PAGERANK_DAMPING 0.85
#define PAGERANK_MAX_ITER 100
#define PAGERANK_EPSILON 1e-6

/*
 * Score every node of g into score[0 .. g->n). Links are taken as given:
 * a self-link or a repeated link counts like any other (the caller drops
 * what it does not want). A graph without nodes is fine. Returns 0 and
 * fills st (may be NULL); -1 on bad options (score untouched) or when out
 * of memory.
 */
int pagerank_run(const struct pagerank_graph *g, const struct pagerank_opts *o,
    double *score, struct pagerank_stats *st);

#endif
