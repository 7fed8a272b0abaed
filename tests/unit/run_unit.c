/* The unit-test runner: every module's suite, then the closing line. */
#include "check.h"

int check_tests_passed;
int check_tests_failed;
int check_current_fails;

int
main(void)
{
	static void (*const suites[])(void) = {
		suite_buf, suite_url, suite_extract, suite_md5, suite_simhash,
		suite_simindex, suite_ssdeep, suite_minhash, suite_dedup,
		suite_store, suite_config, suite_robots, suite_hostsched,
		suite_sitemap, suite_strmap, suite_robotscache, suite_workpool,
		suite_seen, suite_esc, suite_oom, suite_pagerank, suite_tdw,
		suite_shingles, suite_canonical, suite_dedup_keys, suite_warc, suite_decode,
		suite_cdxj,
	};
	size_t i;

	for (i = 0; i < sizeof(suites) / sizeof(suites[0]); i++)
		suites[i]();
	printf("%d passed, %d failed\n", check_tests_passed,
	    check_tests_failed);
	return check_tests_failed == 0 ? 0 : 1;
}
