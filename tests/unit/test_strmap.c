#include "check.h"
#include "util/strmap.h"

#include <stdio.h>
#include <stdlib.h>

static void
count_each(const char *key, void *value, void *arg)
{
	size_t *n = arg;

	if (atoi(key) == *(int *)value)
		(*n)++;
}

static void
test_put_get_grow(void)
{
	struct strmap *m = strmap_new();
	static int vals[5000];
	char key[32];
	size_t i, same = 0;

	CHECK(m != NULL);
	for (i = 0; i < 5000; i++) {
		vals[i] = (int)i;
		snprintf(key, sizeof(key), "%zu", i);
		CHECK_INT(strmap_put(m, key, &vals[i]), 0);
	}
	CHECK_INT(strmap_count(m), 5000);
	CHECK(strmap_get(m, "4999") == &vals[4999]);
	CHECK(strmap_get(m, "0") == &vals[0]);
	CHECK(strmap_get(m, "5000") == NULL);
	CHECK_INT(strmap_put(m, "7", &vals[8]), 0);
	CHECK(strmap_get(m, "7") == &vals[8]);
	CHECK_INT(strmap_count(m), 5000);
	strmap_each(m, count_each, &same);
	CHECK_INT(same, 4999);
	strmap_free(m, NULL);
}

static void
test_free_values(void)
{
	struct strmap *m = strmap_new();
	char *v = malloc(8);

	CHECK(m != NULL && v != NULL);
	CHECK_INT(strmap_put(m, "a", v), 0);
	/* ASan reports a leak if the value is not freed. */
	strmap_free(m, free);
	strmap_free(NULL, free);
}

void
suite_strmap(void)
{
	RUN(test_put_get_grow);
	RUN(test_free_values);
}
