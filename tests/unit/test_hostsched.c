#include "check.h"
#include "crawler/hostsched.h"

#include <stdlib.h>

static void
test_due_soonest_first(void)
{
	struct hostsched *s = hostsched_new(1, 1000);
	double wait;
	const char *h;

	CHECK(s != NULL);
	CHECK(hostsched_next(s, 0, &wait) == NULL);
	CHECK(wait == -1);
	CHECK_INT(hostsched_add(s, "a.test", 2, 0), 0);
	CHECK_INT(hostsched_add(s, "b.test", 1, 500), 0);
	h = hostsched_next(s, 0, &wait);
	CHECK_STR(h, "a.test");
	hostsched_started(s, "a.test", 0);
	/* a is busy (per_host 1); b is not due until 500. */
	CHECK(hostsched_next(s, 100, &wait) == NULL);
	CHECK(wait == 400);
	CHECK_STR(hostsched_next(s, 500, &wait), "b.test");
	hostsched_started(s, "b.test", 500);
	CHECK_INT(hostsched_busy_hosts(s), 2);
	/* The gap counts from the end of the response. */
	hostsched_finished(s, "a.test", 800);
	CHECK(hostsched_next(s, 1700, &wait) == NULL);
	CHECK(wait == 100);
	CHECK_STR(hostsched_next(s, 1800, &wait), "a.test");
	hostsched_started(s, "a.test", 1800);
	CHECK_INT(hostsched_queued(s), 0);
	CHECK(hostsched_next(s, 5000, &wait) == NULL);
	CHECK(wait == -1);
	hostsched_free(s);
}

static void
test_per_host_limit_and_defer(void)
{
	struct hostsched *s = hostsched_new(2, 0);
	double wait;

	hostsched_add(s, "h", 5, 0);
	CHECK_STR(hostsched_next(s, 0, &wait), "h");
	hostsched_started(s, "h", 0);
	CHECK_STR(hostsched_next(s, 0, &wait), "h");
	hostsched_started(s, "h", 0);
	CHECK(hostsched_next(s, 0, &wait) == NULL);
	hostsched_finished(s, "h", 10);
	hostsched_defer(s, "h", 5000);
	CHECK(hostsched_next(s, 10, &wait) == NULL);
	CHECK(wait == 4990);
	hostsched_drained(s, "h");
	CHECK_INT(hostsched_queued(s), 0);
	hostsched_set_delay(s, "h", 2000);
	hostsched_add(s, "h", 1, 0);
	CHECK_STR(hostsched_next(s, 5000, &wait), "h");
	hostsched_started(s, "h", 5000);
	hostsched_finished(s, "h", 5100);
	hostsched_add(s, "h", 1, 0);
	CHECK(hostsched_next(s, 7000, &wait) == NULL);
	CHECK_STR(hostsched_next(s, 7100, &wait), "h");
	hostsched_free(s);
}

static void
test_many_hosts(void)
{
	struct hostsched *s = hostsched_new(1, 100);
	char name[32];
	double wait, last = -1;
	int i, n = 0;
	const char *h;

	/* Hosts become due in a scrambled order; they must come out sorted. */
	for (i = 0; i < 1000; i++) {
		snprintf(name, sizeof(name), "h%d", i);
		CHECK_INT(hostsched_add(s, name, 1, (i * 7919) % 1000), 0);
	}
	CHECK_INT(hostsched_hosts(s), 1000);
	while ((h = hostsched_next(s, 1e9, &wait)) != NULL) {
		double due = 0;
		int id = atoi(h + 1);

		due = (id * 7919) % 1000;
		CHECK(due >= last);
		last = due;
		hostsched_started(s, h, 1e9);
		n++;
	}
	CHECK_INT(n, 1000);
	hostsched_free(s);
}

static void
test_failures_retire_and_skip(void)
{
	struct hostsched *s = hostsched_new(1, 0);
	double wait, held = 0;

	hostsched_add(s, "h", 3, 0);
	/* Back-off doubles per failure in a row: 100, 200, 400 ms. */
	CHECK_INT(hostsched_failed(s, "h", 0, 100, NULL), 1);
	CHECK(hostsched_next(s, 99, &wait) == NULL);
	CHECK_STR(hostsched_next(s, 100, &wait), "h");
	CHECK_INT(hostsched_failed(s, "h", 100, 100, NULL), 2);
	CHECK(hostsched_next(s, 299, &wait) == NULL);
	CHECK_INT(hostsched_failed(s, "h", 300, 100, &held), 3);
	CHECK(held == 400);
	CHECK(wait == 1);
	CHECK(hostsched_next(s, 699, &wait) == NULL);
	hostsched_succeeded(s, "h");
	CHECK_INT(hostsched_failed(s, "h", 700, 100, NULL), 1);
	/* A URL settled without a request does not use the host's turn. */
	hostsched_skipped(s, "h");
	CHECK_INT(hostsched_queued(s), 2);
	CHECK_INT(hostsched_add_pages(s, "h", 5), 5);
	CHECK_INT(hostsched_add_pages(s, "h", 1), 6);
	hostsched_retire(s, "h");
	CHECK(hostsched_retired(s, "h"));
	CHECK_INT(hostsched_queued(s), 0);
	CHECK_INT(hostsched_add(s, "h", 4, 0), 0);
	CHECK(hostsched_next(s, 1e9, &wait) == NULL);
	CHECK(wait == -1);
	CHECK(!hostsched_retired(s, "other"));
	hostsched_free(s);
}

void
suite_hostsched(void)
{
	RUN(test_failures_retire_and_skip);
	RUN(test_due_soonest_first);
	RUN(test_per_host_limit_and_defer);
	RUN(test_many_hosts);
}
