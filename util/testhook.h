/*
 * testhook: faults the test suite injects through the environment, so a
 * full disk or a failed allocation can be tested end to end on any machine
 * and as any user. Nothing happens unless a variable is set:
 *
 *   NEARCRAWL_TEST_MAX_PAGE_COUNT=N
 *       the crawl's database may grow to N pages (store_limit_pages);
 *       a write past that fails as on a full disk.
 *   NEARCRAWL_TEST_FAIL_ALLOC=N:URL
 *       while the page at URL (as queued: normalised) is extracted, the
 *       N-th buffer allocation (1 is the first) fails as if memory had run
 *       out (buf_fail_alloc_after), once.
 *   NEARCRAWL_TEST_JUDGE_TICK_MS=N
 *       a process of a shared crawl, once it has read the other
 *       processes' pages, waits for the next multiple of N ms of the
 *       system clock before it judges its own: processes on one machine
 *       then judge in step, at the same moments
 *       (tests/e2e/test-scale-out-stress.sh); `nearcrawl dedup` waits N
 *       ms after each page it stores, so that a test can kill it midway
 *       (tests/e2e/test-warc.sh).
 *   NEARCRAWL_TEST_MAX_TRANSFERS=N
 *       a crawl runs up to N transfers at once (--concurrency still
 *       applies) instead of as many as its file descriptors allow, so
 *       that running out of them is met for real
 *       (tests/e2e/test-fd-limit.sh).
 *
 * They are compiled in, not built separately, so the suite tests the
 * binary that ships; unset, each costs a compare where it applies. The
 * state is process-wide: set once by testhook_load, before the crawl.
 */
#ifndef NC_TESTHOOK_H
#define NC_TESTHOOK_H

#include <stdint.h>
#include <stdio.h>

/*
 * Read the variables. Each one set is announced as a line on note (when
 * not NULL), so a hook left in an environment does not go unseen. Returns
 * 0, or -1 with a message in err when a value is malformed.
 */
int testhook_load(FILE *note, char *err, size_t errsz);

/* NEARCRAWL_TEST_JUDGE_TICK_MS, or 0 when unset. */
long testhook_judge_tick_ms(void);

/* NEARCRAWL_TEST_MAX_TRANSFERS, or 0 when unset. */
long testhook_max_transfers(void);

/* NEARCRAWL_TEST_MAX_PAGE_COUNT, or 0 when unset. */
int64_t testhook_max_db_pages(void);

/* Around the extraction of the page at url: arm and disarm the failure
 * NEARCRAWL_TEST_FAIL_ALLOC asks for, when url is its URL. */
void testhook_page_begin(const char *url);
void testhook_page_end(void);

#endif
