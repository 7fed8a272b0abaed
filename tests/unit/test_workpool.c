/* Unit tests for workpool: tasks run off the loop, done comes back on it. */
#include "check.h"
#include "util/workpool.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#define NTASKS 500

struct wp_task {
	uint64_t in, out;      /* out = f(in), computed by the worker */
	pthread_t ran_on;      /* the thread the work ran on */
	int done;              /* the done function saw it */
	struct wp_state *st;
};

struct wp_state {
	struct event_base *base;
	struct workpool *pool;
	pthread_t loop;        /* the test's own thread */
	int ndone, nbad_thread, nlate;
	int stop_at;           /* break the loop after this many */
	int dropped;
};

static void
wp_work(void *arg)
{
	struct wp_task *t = arg;
	uint64_t x = t->in;
	int i;

	for (i = 0; i < 1000; i++)
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
	t->out = x;
	t->ran_on = pthread_self();
}

static uint64_t
wp_expect(uint64_t x)
{
	int i;

	for (i = 0; i < 1000; i++)
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
	return x;
}


static void
wp_done(void *arg)
{
	struct wp_task *t = arg;
	struct wp_state *st = t->st;

	if (!pthread_equal(pthread_self(), st->loop))
		st->nbad_thread++;
	if (t->out != wp_expect(t->in))
		st->nlate++;
	t->done = 1;
	if (++st->ndone == st->stop_at ||
	    workpool_pending(st->pool) == 0)
		event_base_loopbreak(st->base);
}

static void
wp_drop(void *arg)
{
	struct wp_task *t = arg;

	t->st->dropped++;
}

static void
run_pool(int nthreads)
{
	static struct wp_task tasks[NTASKS];
	struct wp_state st = { 0 };
	int i, ok = 1;

	st.base = event_base_new();
	st.loop = pthread_self();
	st.stop_at = NTASKS;
	st.pool = workpool_new(st.base, nthreads, wp_done);
	CHECK(st.pool != NULL);
	if (st.pool == NULL)
		return;
	for (i = 0; i < NTASKS; i++) {
		tasks[i] = (struct wp_task){ .in = (uint64_t)i, .st = &st };
		ok &= workpool_submit(st.pool, wp_work, &tasks[i]) == 0;
	}
	CHECK(ok);
	CHECK_INT((int)workpool_pending(st.pool), NTASKS);
	/* With no threads the work is done already, but done waits for the
	 * loop. */
	CHECK_INT(st.ndone, 0);
	event_base_dispatch(st.base);
	CHECK_INT(st.ndone, NTASKS);
	CHECK_INT((int)workpool_pending(st.pool), 0);
	CHECK_INT(st.nbad_thread, 0);
	CHECK_INT(st.nlate, 0);
	for (i = 0; i < NTASKS; i++)
		if (nthreads == 0 &&
		    !pthread_equal(tasks[i].ran_on, pthread_self()))
			ok = 0;
	CHECK(ok);
	workpool_free(st.pool, wp_drop);
	CHECK_INT(st.dropped, 0);
	event_base_free(st.base);
}

static void
test_workpool_inline(void)
{
	run_pool(0);
}

static void
test_workpool_threads(void)
{
	run_pool(1);
	run_pool(4);
}

/* Freed with work outstanding: every task is either done or dropped. */
static void
test_workpool_free_drops(void)
{
	static struct wp_task tasks[NTASKS];
	struct wp_state st = { 0 };
	int i;

	st.base = event_base_new();
	st.loop = pthread_self();
	st.stop_at = 10;
	st.pool = workpool_new(st.base, 2, wp_done);
	CHECK(st.pool != NULL);
	if (st.pool == NULL)
		return;
	for (i = 0; i < NTASKS; i++) {
		tasks[i] = (struct wp_task){ .in = (uint64_t)i, .st = &st };
		CHECK_INT(workpool_submit(st.pool, wp_work, &tasks[i]), 0);
	}
	event_base_dispatch(st.base);
	CHECK(st.ndone >= 10);
	workpool_free(st.pool, wp_drop);
	CHECK_INT(st.ndone + st.dropped, NTASKS);
	for (i = 0; i < NTASKS; i++)
		if (!tasks[i].done)
			st.dropped--;
	CHECK_INT(st.dropped, 0);
	event_base_free(st.base);
}

static void
test_workpool_bad_args(void)
{
	struct event_base *base = event_base_new();

	CHECK(workpool_new(base, -1, wp_done) == NULL);
	CHECK(workpool_new(base, WORKPOOL_MAX_THREADS + 1, wp_done) == NULL);
	CHECK(workpool_new(base, 1, NULL) == NULL);
	workpool_free(NULL, NULL);
	event_base_free(base);
}

void
suite_workpool(void)
{
	RUN(test_workpool_inline);
	RUN(test_workpool_threads);
	RUN(test_workpool_free_drops);
	RUN(test_workpool_bad_args);
}
