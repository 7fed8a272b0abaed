#include "check.h"
#include "cmd/pagerank.h"

#include <math.h>

#define NEAR(a, b) (fabs((a) - (b)) < 1e-9)

static const struct pagerank_opts tight = { 0.85, 1000, 1e-13 };

static int
run(uint32_t n, const uint64_t *off, const uint32_t *to,
    const struct pagerank_opts *o, double *score, struct pagerank_stats *st)
{
	struct pagerank_graph g = { n, off, to };

	return pagerank_run(&g, o, score, st);
}

/* A -> B -> C -> A: by symmetry 1/3 each, from the first round on. */
static void
test_cycle(void)
{
	static const uint64_t off[] = { 0, 1, 2, 3 };
	static const uint32_t to[] = { 1, 2, 0 };
	struct pagerank_stats st;
	double s[3];

	CHECK_INT(run(3, off, to, &tight, s, &st), 0);
	CHECK(NEAR(s[0], 1.0 / 3) && NEAR(s[1], 1.0 / 3) &&
	    NEAR(s[2], 1.0 / 3));
	CHECK(st.converged);
	CHECK_INT(st.iterations, 1);
	CHECK_INT(st.dangling, 0);
}

/*
 * Three leaves link to a centre that links nowhere (dangling). With
 * leaf = (1 - d) / 4 + d c / 4 and c = 1 - 3 leaf: leaf = 1/4 / (1 + 3d/4)
 * = 20/131 and c = 71/131 for d = 0.85.
 */
static void
test_star_dangling_centre(void)
{
	static const uint64_t off[] = { 0, 0, 1, 2, 3 };
	static const uint32_t to[] = { 0, 0, 0 };
	struct pagerank_stats st;
	double s[4];

	CHECK_INT(run(4, off, to, &tight, s, &st), 0);
	CHECK(NEAR(s[0], 71.0 / 131));
	CHECK(NEAR(s[1], 20.0 / 131) && NEAR(s[2], 20.0 / 131) &&
	    NEAR(s[3], 20.0 / 131));
	CHECK(st.converged);
	CHECK_INT(st.dangling, 1);
}

/*
 * A -> B, A -> C, B -> C, C dangling. With x = (1 - d) / 3 + d C / 3:
 * A = x, B = x (1 + d/2), C = x (1 + d/2)(1 + d); solving for d = 0.85
 * gives A = 800/4049, B = 1140/4049, C = 2109/4049.
 */
static void
test_dangling_chain(void)
{
	static const uint64_t off[] = { 0, 2, 3, 3 };
	static const uint32_t to[] = { 1, 2, 2 };
	struct pagerank_stats st;
	double s[3];

	CHECK_INT(run(3, off, to, &tight, s, &st), 0);
	CHECK(NEAR(s[0], 800.0 / 4049));
	CHECK(NEAR(s[1], 1140.0 / 4049));
	CHECK(NEAR(s[2], 2109.0 / 4049));
	CHECK(NEAR(s[0] + s[1] + s[2], 1.0));
	CHECK(st.converged && st.delta < 1e-13);
}

/*
 * Centre and three leaves linked both ways: c = (1 - d) / 4 + 3 d l and
 * l = (1 - d) / 4 + d c / 3 give c = 0.133125 / 0.2775 = 0.4797297...
 */
static void
test_star_both_ways(void)
{
	static const uint64_t off[] = { 0, 3, 4, 5, 6 };
	static const uint32_t to[] = { 1, 2, 3, 0, 0, 0 };
	double s[4], c = 0.133125 / 0.2775;

	CHECK_INT(run(4, off, to, &tight, s, NULL), 0);
	CHECK(NEAR(s[0], c));
	CHECK(NEAR(s[1], (1 - c) / 3) && NEAR(s[3], (1 - c) / 3));
}

/* Nodes without any link: all dangling, uniform. Also d = 0. */
static void
test_no_links(void)
{
	static const uint64_t off[] = { 0, 0, 0, 0, 0 };
	static const uint64_t off2[] = { 0, 1, 1 };
	static const uint32_t to2[] = { 1 };
	struct pagerank_opts o = { 0.0, 10, 0.0 };
	struct pagerank_stats st;
	double s[4];

	CHECK_INT(run(4, off, NULL, &tight, s, &st), 0);
	CHECK(NEAR(s[0], 0.25) && NEAR(s[3], 0.25));
	CHECK_INT(st.dangling, 4);
	/* No damping: links do not matter, every node gets 1/n. */
	CHECK_INT(run(2, off2, to2, &o, s, &st), 0);
	CHECK(NEAR(s[0], 0.5) && NEAR(s[1], 0.5));
}

/* The round cap holds and says it did not converge; the vector still
 * sums to 1 (an odd round count ends in the internal vector). */
static void
test_round_cap(void)
{
	static const uint64_t off[] = { 0, 2, 3, 3 };
	static const uint32_t to[] = { 1, 2, 2 };
	struct pagerank_opts o = { 0.85, 3, 0.0 };
	struct pagerank_stats st;
	double s[3];

	CHECK_INT(run(3, off, to, &o, s, &st), 0);
	CHECK_INT(st.iterations, 3);
	CHECK(!st.converged);
	CHECK(st.delta > 0);
	CHECK(NEAR(s[0] + s[1] + s[2], 1.0));
	/* From 1/3 each, round 1 gives A = 0.05 + 0.85/9. */
	o.max_iter = 1;
	CHECK_INT(run(3, off, to, &o, s, &st), 0);
	CHECK(NEAR(s[0], 0.05 + 0.85 / 9));
}

static void
test_bad_options(void)
{
	static const uint64_t off[] = { 0, 0 };
	struct pagerank_opts o;
	double s[1] = { 42 };

	o = tight;
	o.damping = 1.0;
	CHECK_INT(run(1, off, NULL, &o, s, NULL), -1);
	o.damping = NAN;
	CHECK_INT(run(1, off, NULL, &o, s, NULL), -1);
	o = tight;
	o.max_iter = 0;
	CHECK_INT(run(1, off, NULL, &o, s, NULL), -1);
	o = tight;
	o.epsilon = -1;
	CHECK_INT(run(1, off, NULL, &o, s, NULL), -1);
	CHECK(s[0] == 42);
	/* No nodes is fine; one node has everything. */
	CHECK_INT(run(0, off, NULL, &tight, s, NULL), 0);
	CHECK_INT(run(1, off, NULL, &tight, s, NULL), 0);
	CHECK(NEAR(s[0], 1.0));
}

void
suite_pagerank(void)
{
	RUN(test_cycle);
	RUN(test_star_dangling_centre);
	RUN(test_dangling_chain);
	RUN(test_star_both_ways);
	RUN(test_no_links);
	RUN(test_round_cap);
	RUN(test_bad_options);
}
