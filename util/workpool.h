/*
 * workpool: CPU work taken off the event loop's thread.
 *
 * Tasks run on a fixed set of worker threads; when one finishes, its done
 * function is called back on the thread that runs the event loop (woken
 * through a pipe), in the order tasks finished. The loop thread never
 * blocks on a worker. A task's function must touch nothing the loop thread
 * uses meanwhile; everything else belongs in the done function.
 *
 * With zero threads a task runs at submission, on the caller's thread, and
 * its done function is still called from the loop later, as with threads:
 * one code path for both.
 */
#ifndef NC_WORKPOOL_H
#define NC_WORKPOOL_H

#include <stddef.h>

#include <event2/event.h>

/* Most worker threads a pool starts. */
#define WORKPOOL_MAX_THREADS 64

/* The name its threads carry (pthread_setname_np), by which a profile or
 * util/threadcpu tells them from the loop's. */
#define WORKPOOL_THREAD_NAME "nc-worker"

/* The work itself: runs on a worker thread. */
typedef void (*workpool_fn)(void *arg);
/* Its completion: runs on the event loop's thread. */
typedef void (*workpool_done_fn)(void *arg);

struct workpool;

/*
 * A pool of nthreads workers (0 to WORKPOOL_MAX_THREADS) that calls done
 * through base. Returns NULL when out of memory or when a thread or the
 * pipe cannot be made.
 */
struct workpool *workpool_new(struct event_base *base, int nthreads,
    workpool_done_fn done);

/*
 * Queue fn(arg); done(arg) follows on the loop thread. Returns 0, or -1
 * when out of memory (nothing queued: arg is still the caller's).
 */
int workpool_submit(struct workpool *p, workpool_fn fn, void *arg);

/* Tasks submitted whose done function has not been called yet. */
size_t workpool_pending(const struct workpool *p);

/*
 * Stop the workers (a task running finishes first) and free the pool.
 * drop(arg) is called on this thread for every task whose done function
 * was never called, run or not, so its arg can be released. NULL p is fine.
 */
void workpool_free(struct workpool *p, void (*drop)(void *arg));

#endif
