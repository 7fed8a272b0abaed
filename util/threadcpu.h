/*
 * threadcpu: the CPU time this process's threads have used, grouped as a
 * crawl reads it -- the calling thread (the event loop's), the threads of
 * one name (the worker pool's) and every other thread, those that have
 * exited included -- from /proc/self/stat and /proc/self/task/ * /stat
 * (Linux). Where the wall time goes when one thread is busy and a core
 * idles.
 */
#ifndef NC_THREADCPU_H
#define NC_THREADCPU_H

/* Seconds of user and system time. */
struct threadcpu_time {
	double user;
	double sys;
};

struct threadcpu {
	struct threadcpu_time self;   /* the calling thread */
	struct threadcpu_time named;  /* live threads of the given name */
	struct threadcpu_time other;  /* the rest of the process's time */
	int nnamed;                   /* how many threads had the name */
};

/*
 * Fill t for the calling thread and the live threads whose name (comm,
 * at most 15 bytes, see pthread_setname_np) is name; "other" is the
 * process's total less those two, so threads that have exited count
 * there. Returns 0, or -1 when /proc cannot be read (t zeroed).
 */
int threadcpu_read(const char *name, struct threadcpu *t);

/* t's total of user and system seconds. */
double threadcpu_total(const struct threadcpu_time *t);

#endif
