/*
 * fdlimit: how many file descriptors the process may open. A crawl opens
 * one socket (two while libcurl resolves a name) per transfer besides its
 * database, archive and event loop, and a common soft limit is 1,024
 * descriptors in all: the crawl raises the soft limit to the hard one and
 * sizes its transfers to what is left (crawler/loop.c).
 */
#ifndef NC_FDLIMIT_H
#define NC_FDLIMIT_H

/*
 * Raise the soft RLIMIT_NOFILE to the hard limit (on systems that refuse
 * an unlimited one, to the most they take). Returns the soft limit in
 * effect afterwards, or -1 when it is unlimited or cannot be read; a
 * raise the system refuses leaves the limit as it was, and that is
 * returned.
 */
long fdlimit_raise(void);

/*
 * The descriptors open in this process now, counted in /proc/self/fd or
 * /dev/fd (the one used to count them left out). Returns -1 when neither
 * can be read.
 */
long fdlimit_open_count(void);

/*
 * Whether the process is out of descriptors right now: a descriptor is
 * opened and closed again to see; 1 when that fails with EMFILE or ENFILE,
 * else 0. For failures whose errno the caller never saw (a library that
 * opens descriptors of its own).
 */
int fdlimit_exhausted(void);

#endif
