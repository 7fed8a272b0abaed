/* The unit-test runner: every module's suite, then the closing line. */
#include "check.h"

#include <stdlib.h>
#include <string.h>

int check_tests_passed;
int check_tests_failed;
int check_current_fails;

#define SUITE(name) { #name, suite_##name }

/* NC_UNIT_ONLY=NAME runs suite NAME alone (test-pg-ahead.sh and
 * test-pg-restart.sh do, with a server). */
int
main(void)
{
	static const struct {
		const char *name;
		void (*fn)(void);
	} suites[] = {
		SUITE(buf), SUITE(url), SUITE(extract), SUITE(md5),
		SUITE(simhash), SUITE(simindex), SUITE(ssdeep), SUITE(minhash),
		SUITE(dedup), SUITE(store), SUITE(config), SUITE(robots),
		SUITE(hostsched), SUITE(sitemap), SUITE(strmap),
		SUITE(robotscache), SUITE(workpool), SUITE(seen), SUITE(esc),
		SUITE(oom), SUITE(pagerank), SUITE(tdw), SUITE(shingles),
		SUITE(canonical), SUITE(dedup_keys), SUITE(warc), SUITE(decode),
		SUITE(cdxj), SUITE(sdb_pg), SUITE(chunks), SUITE(tagtab), SUITE(radix),
		SUITE(keymap), SUITE(warcread), SUITE(search), SUITE(pg_conn),
		SUITE(fdlimit), SUITE(store_disk), SUITE(idcol), SUITE(threadcpu),
		SUITE(words),
	};
	const char *only = getenv("NC_UNIT_ONLY");
	size_t i, ran = 0;

	for (i = 0; i < sizeof(suites) / sizeof(suites[0]); i++)
		if (only == NULL || strcmp(only, suites[i].name) == 0) {
			suites[i].fn();
			ran++;
		}
	if (ran == 0) {
		fprintf(stderr, "no unit suite %s\n", only);
		check_tests_failed++;
	}
	printf("%d passed, %d failed\n", check_tests_passed,
	    check_tests_failed);
	return check_tests_failed == 0 ? 0 : 1;
}
