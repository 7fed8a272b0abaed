/* util/threadcpu: a named thread's CPU counts as named while it lives and
 * as other once it has ended; the caller's own time is its own. */
#include "check.h"
#include "util/threadcpu.h"

#include <pthread.h>
#include <time.h>

#define NAME "nc-test-burn"

/* Thread CPU seconds of the calling thread. */
static double
own_cpu(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Burn CPU for at least s seconds of this thread's own time. */
static void
burn(double s)
{
	volatile unsigned long x = 0;
	double t0 = own_cpu();

	while (own_cpu() - t0 < s)
		for (int i = 0; i < 100000; i++)
			x += (unsigned long)i;
}

struct burner {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int burnt;  /* the thread has burnt its share */
	int done;   /* the test has read the figures: the thread may end */
};

static void *
burner(void *arg)
{
	struct burner *b = arg;

	pthread_setname_np(pthread_self(), NAME);
	burn(0.15);
	pthread_mutex_lock(&b->lock);
	b->burnt = 1;
	pthread_cond_broadcast(&b->cond);
	while (!b->done)
		pthread_cond_wait(&b->cond, &b->lock);
	pthread_mutex_unlock(&b->lock);
	return NULL;
}

static void
test_groups(void)
{
	struct burner b = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER,
		0, 0 };
	struct threadcpu live, after;
	pthread_t th;

	burn(0.05);
	CHECK_INT(pthread_create(&th, NULL, burner, &b), 0);
	pthread_mutex_lock(&b.lock);
	while (!b.burnt)
		pthread_cond_wait(&b.cond, &b.lock);
	pthread_mutex_unlock(&b.lock);

	CHECK_INT(threadcpu_read(NAME, &live), 0);
	CHECK_INT(live.nnamed, 1);
	/* Ticks are 10 ms: 0.15 s burnt reads as at least 0.1. */
	CHECK(threadcpu_total(&live.named) >= 0.10);
	CHECK(threadcpu_total(&live.self) >= 0.03);

	pthread_mutex_lock(&b.lock);
	b.done = 1;
	pthread_cond_broadcast(&b.cond);
	pthread_mutex_unlock(&b.lock);
	pthread_join(th, NULL);

	/* Ended, its time is the process's but no longer the name's. */
	CHECK_INT(threadcpu_read(NAME, &after), 0);
	CHECK_INT(after.nnamed, 0);
	CHECK(threadcpu_total(&after.named) == 0);
	CHECK(threadcpu_total(&after.other) >=
	    threadcpu_total(&live.named) - 0.02);
}

void
suite_threadcpu(void)
{
	RUN(test_groups);
}
