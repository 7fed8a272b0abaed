#include "util/testhook.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"

#define MAX_PAGES_VAR "NEARCRAWL_TEST_MAX_PAGE_COUNT"
#define JUDGE_TICK_VAR "NEARCRAWL_TEST_JUDGE_TICK_MS"
#define FAIL_ALLOC_VAR "NEARCRAWL_TEST_FAIL_ALLOC"
#define MAX_TRANSFERS_VAR "NEARCRAWL_TEST_MAX_TRANSFERS"

static int64_t max_db_pages; /* 0: no limit */
static long judge_tick_ms;  /* 0: none */
static long max_transfers;  /* 0: as the file descriptors allow */
static const char *fail_url; /* page whose extraction fails, or NULL */
static long fail_nth;        /* which allocation, from 1 */
static _Thread_local int fail_armed; /* the countdown runs for fail_url,
                                        on this thread */

/* A whole decimal number from 1 to max, ending at *end. */
static int
positive(const char *s, long long max, long long *v, const char **end)
{
	char *e;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	*v = strtoll(s, &e, 10);
	if (errno != 0 || *v < 1 || *v > max)
		return -1;
	*end = e;
	return 0;
}

int
testhook_load(FILE *note, char *err, size_t errsz)
{
	const char *v, *end;
	long long n;

	max_db_pages = 0;
	fail_url = NULL;
	fail_armed = 0;
	if ((v = getenv(MAX_PAGES_VAR)) != NULL) {
		if (positive(v, INT64_MAX, &n, &end) != 0 || *end != '\0') {
			snprintf(err, errsz, "%s: expected a number of pages",
			    MAX_PAGES_VAR);
			return -1;
		}
		max_db_pages = n;
		if (note != NULL)
			fprintf(note,
			    "nearcrawl: test hook: the database may "
			    "grow to %lld pages (%s)\n",
			    n, MAX_PAGES_VAR);
	}
	judge_tick_ms = 0;
	if ((v = getenv(JUDGE_TICK_VAR)) != NULL) {
		if (positive(v, 10000, &n, &end) != 0 || *end != '\0') {
			snprintf(err, errsz, "%s: expected milliseconds, 1 to "
			    "10000", JUDGE_TICK_VAR);
			return -1;
		}
		judge_tick_ms = (long)n;
		if (note != NULL)
			fprintf(note, "nearcrawl: test hook: verdicts of a shared "
			    "crawl on %ld ms ticks (%s)\n", judge_tick_ms,
			    JUDGE_TICK_VAR);
	}
	max_transfers = 0;
	if ((v = getenv(MAX_TRANSFERS_VAR)) != NULL) {
		if (positive(v, 100000, &n, &end) != 0 || *end != '\0') {
			snprintf(err, errsz, "%s: expected a number of transfers, "
			    "1 to 100000", MAX_TRANSFERS_VAR);
			return -1;
		}
		max_transfers = (long)n;
		if (note != NULL)
			fprintf(note, "nearcrawl: test hook: up to %ld transfers "
			    "at once, whatever the file descriptors allow (%s)\n",
			    max_transfers, MAX_TRANSFERS_VAR);
	}
	if ((v = getenv(FAIL_ALLOC_VAR)) != NULL) {
		if (positive(v, 1000000000, &n, &end) != 0 || *end != ':' ||
		    end[1] == '\0') {
			snprintf(
			    err, errsz, "%s: expected N:URL", FAIL_ALLOC_VAR);
			return -1;
		}
		fail_nth = (long)n;
		fail_url = end + 1;
		if (note != NULL)
			fprintf(note,
			    "nearcrawl: test hook: allocation %ld "
			    "fails on one page (%s)\n",
			    fail_nth, FAIL_ALLOC_VAR);
	}
	return 0;
}

long
testhook_judge_tick_ms(void)
{
	return judge_tick_ms;
}

long
testhook_max_transfers(void)
{
	return max_transfers;
}

int64_t
testhook_max_db_pages(void)
{
	return max_db_pages;
}

void
testhook_page_begin(const char *url)
{
	/* Read and cleared by whichever worker thread extracts the page. */
	const char *u = __atomic_load_n(&fail_url, __ATOMIC_ACQUIRE);

	if (u == NULL || strcmp(url, u) != 0)
		return;
	buf_fail_alloc_after(fail_nth - 1);
	fail_armed = 1;
}

void
testhook_page_end(void)
{
	if (!fail_armed)
		return;
	buf_fail_alloc_after(-1);
	fail_armed = 0;
	/* once: a refetch of the page goes through */
	__atomic_store_n(&fail_url, NULL, __ATOMIC_RELEASE);
}
