/* Unit tests for seen: the bounded memory of settled links. */
#include "check.h"
#include "util/seen.h"

#include <stdio.h>
#include <string.h>

static void
test_seen_remembers(void)
{
	struct seen *s = seen_new(10);
	char url[64];
	int i, hits = 0;

	CHECK(s != NULL);
	if (s == NULL)
		return;
	CHECK_INT(seen_has(s, seen_hash("http://a.test/", 14)), 0);
	seen_add(s, seen_hash("http://a.test/", 14));
	CHECK_INT(seen_has(s, seen_hash("http://a.test/", 14)), 1);
	CHECK_INT(seen_has(s, seen_hash("http://a.test/x", 15)), 0);
	/* Far more strings than slots: old ones are forgotten, never
	 * confused with new ones. */
	for (i = 0; i < 100000; i++) {
		snprintf(url, sizeof(url), "http://a.test/page/%d", i);
		if (seen_has(s, seen_hash(url, strlen(url))))
			hits++;
		seen_add(s, seen_hash(url, strlen(url)));
	}
	CHECK_INT(hits, 0);
	CHECK_INT(seen_has(s, seen_hash(url, strlen(url))), 1);
	seen_free(s);
	seen_free(NULL);
	CHECK(seen_new(SEEN_MIN_BITS - 1) == NULL);
	CHECK(seen_new(SEEN_MAX_BITS + 1) == NULL);
}

/* Every byte, length and position counts in the hash. */
static void
test_seen_hash_spreads(void)
{
	char a[40], b[40];
	size_t n, i;
	int same = 0;

	memset(a, 'x', sizeof(a));
	for (n = 0; n <= sizeof(a); n++) {
		if (n > 0 && seen_hash(a, n) == seen_hash(a, n - 1))
			same++;
		for (i = 0; i < n; i++) {
			memcpy(b, a, n);
			b[i] ^= 1;
			if (seen_hash(a, n) == seen_hash(b, n))
				same++;
		}
	}
	CHECK_INT(same, 0);
	CHECK(seen_hash("", 0) != 0);
}

void
suite_seen(void)
{
	RUN(test_seen_remembers);
	RUN(test_seen_hash_spreads);
}
