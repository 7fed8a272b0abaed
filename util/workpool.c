#include "util/workpool.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct task {
	workpool_fn fn;     /* the work */
	void *arg;          /* its argument, the caller's */
	struct task *next;  /* next in the list it is on */
};

/* A first-in first-out list of tasks. */
struct tlist {
	struct task *head;  /* oldest, or NULL */
	struct task *tail;  /* newest, or NULL */
};

struct workpool {
	pthread_mutex_t lock;    /* guards todo, finished and quit */
	pthread_cond_t wake;     /* signalled when todo grows or quit is set */
	struct tlist todo;       /* submitted, not started */
	struct tlist finished;   /* run, done function not yet called */
	int quit;                /* workers leave when set */
	size_t pending;          /* submitted, done not called; loop thread
	                            only */
	int fd[2];               /* a byte in fd[0]: finished has tasks */
	struct event *ev;        /* reads fd[0] on the loop */
	workpool_done_fn done;   /* called for each finished task */
	pthread_t th[WORKPOOL_MAX_THREADS];
	int nthreads;            /* threads started */
};

static void
tlist_push(struct tlist *l, struct task *t)
{
	t->next = NULL;
	if (l->tail != NULL)
		l->tail->next = t;
	else
		l->head = t;
	l->tail = t;
}

static struct task *
tlist_pop(struct tlist *l)
{
	struct task *t = l->head;

	if (t != NULL) {
		l->head = t->next;
		if (l->head == NULL)
			l->tail = NULL;
	}
	return t;
}

/* Put t on finished (lock held); returns 1 when the loop must be woken. */
static int
finish_locked(struct workpool *p, struct task *t)
{
	int was_empty = p->finished.head == NULL;

	tlist_push(&p->finished, t);
	return was_empty;
}

static void
poke(struct workpool *p)
{
	ssize_t n;

	/* A full pipe already holds a wake-up: losing this one is fine. */
	do
		n = write(p->fd[1], "", 1);
	while (n < 0 && errno == EINTR);
}

static void *
worker(void *arg)
{
	struct workpool *p = arg;
	struct task *t;
	int wake;

	/* A name is only a label: a failure to set it changes nothing. */
	(void)pthread_setname_np(pthread_self(), WORKPOOL_THREAD_NAME);
	pthread_mutex_lock(&p->lock);
	for (;;) {
		while (!p->quit && p->todo.head == NULL)
			pthread_cond_wait(&p->wake, &p->lock);
		if (p->quit)
			break;
		t = tlist_pop(&p->todo);
		pthread_mutex_unlock(&p->lock);
		t->fn(t->arg);
		pthread_mutex_lock(&p->lock);
		wake = finish_locked(p, t);
		if (wake) {
			/* Not under the lock: the others would wait out the
			 * system call. The loop takes the list only after
			 * the byte, so the task cannot be missed. */
			pthread_mutex_unlock(&p->lock);
			poke(p);
			pthread_mutex_lock(&p->lock);
		}
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

/* On the loop: call done for everything finished so far, oldest first. */
static void
on_finished(evutil_socket_t fd, short what, void *arg)
{
	struct workpool *p = arg;
	struct tlist got;
	struct task *t;
	char sink[64];

	/*
	 * One read is enough: a byte is written only when finished was
	 * empty, and this takes the whole list; a byte left over wakes the
	 * loop once more to find the list empty.
	 */
	(void)!read(p->fd[0], sink, sizeof(sink));
	pthread_mutex_lock(&p->lock);
	got = p->finished;
	memset(&p->finished, 0, sizeof(p->finished));
	pthread_mutex_unlock(&p->lock);
	while ((t = tlist_pop(&got)) != NULL) {
		void *targ = t->arg;

		free(t);
		p->pending--;
		p->done(targ);
	}
}

static int
set_nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	return fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0 ||
	    fcntl(fd, F_SETFD, FD_CLOEXEC) < 0 ? -1 : 0;
}

struct workpool *
workpool_new(struct event_base *base, int nthreads, workpool_done_fn done)
{
	struct workpool *p;

	if (nthreads < 0 || nthreads > WORKPOOL_MAX_THREADS || done == NULL)
		return NULL;
	p = calloc(1, sizeof(*p));
	if (p == NULL)
		return NULL;
	p->fd[0] = p->fd[1] = -1;
	p->done = done;
	if (pthread_mutex_init(&p->lock, NULL) != 0) {
		free(p);
		return NULL;
	}
	if (pthread_cond_init(&p->wake, NULL) != 0) {
		pthread_mutex_destroy(&p->lock);
		free(p);
		return NULL;
	}
	if (pipe(p->fd) != 0 || set_nonblock(p->fd[0]) != 0 ||
	    set_nonblock(p->fd[1]) != 0)
		goto fail;
	p->ev = event_new(base, p->fd[0], EV_READ | EV_PERSIST, on_finished,
	    p);
	if (p->ev == NULL || event_add(p->ev, NULL) != 0)
		goto fail;
	for (; p->nthreads < nthreads; p->nthreads++)
		if (pthread_create(&p->th[p->nthreads], NULL, worker, p) != 0)
			goto fail;
	return p;
fail:
	workpool_free(p, NULL);
	return NULL;
}

int
workpool_submit(struct workpool *p, workpool_fn fn, void *arg)
{
	struct task *t = malloc(sizeof(*t));
	int wake;

	if (t == NULL)
		return -1;
	t->fn = fn;
	t->arg = arg;
	p->pending++;
	if (p->nthreads == 0) {
		fn(arg);
		pthread_mutex_lock(&p->lock);
		wake = finish_locked(p, t);
		pthread_mutex_unlock(&p->lock);
		if (wake)
			event_active(p->ev, EV_READ, 0);
		return 0;
	}
	pthread_mutex_lock(&p->lock);
	tlist_push(&p->todo, t);
	pthread_mutex_unlock(&p->lock);
	/* After the unlock, so the woken worker does not block on the lock
	 * at once; a worker that waits saw todo empty under the lock before,
	 * so this wakes it. */
	pthread_cond_signal(&p->wake);
	return 0;
}

size_t
workpool_pending(const struct workpool *p)
{
	return p->pending;
}

static void
drop_all(struct tlist *l, void (*drop)(void *arg))
{
	struct task *t;

	while ((t = tlist_pop(l)) != NULL) {
		if (drop != NULL)
			drop(t->arg);
		free(t);
	}
}

void
workpool_free(struct workpool *p, void (*drop)(void *arg))
{
	int i;

	if (p == NULL)
		return;
	pthread_mutex_lock(&p->lock);
	p->quit = 1;
	pthread_cond_broadcast(&p->wake);
	pthread_mutex_unlock(&p->lock);
	for (i = 0; i < p->nthreads; i++)
		pthread_join(p->th[i], NULL);
	drop_all(&p->todo, drop);
	drop_all(&p->finished, drop);
	if (p->ev != NULL)
		event_free(p->ev);
	if (p->fd[0] >= 0)
		close(p->fd[0]);
	if (p->fd[1] >= 0)
		close(p->fd[1]);
	pthread_cond_destroy(&p->wake);
	pthread_mutex_destroy(&p->lock);
	free(p);
}
