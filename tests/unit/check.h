/*
 * check: the unit-test harness. A test is a void function; RUN() calls it and
 * counts it as passed when none of its CHECKs failed. run_unit.c prints the
 * closing "N passed, N failed" line.
 */
#ifndef NC_CHECK_H
#define NC_CHECK_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Write n bytes of p to the file path (made or emptied): 0, or -1. */
static inline int
check_write_file(const char *path, const void *p, size_t n)
{
	FILE *f = fopen(path, "wb");
	int ok;

	if (f == NULL)
		return -1;
	ok = fwrite(p, 1, n, f) == n;
	return fclose(f) == 0 && ok ? 0 : -1;
}

/* Test data: xorshift64, a fast sequence from any seed but 0. */
static inline uint64_t
check_xorshift(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Test data: splitmix64, from any seed; its outputs are distinct for
 * 2^64 calls, and every bit of them is mixed. */
static inline uint64_t
check_splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

extern int check_tests_passed;  /* tests whose CHECKs all held */
extern int check_tests_failed;  /* tests with at least one failed CHECK */
extern int check_current_fails; /* failed CHECKs in the running test */

#define CHECK(cond)                                                        \
	do {                                                               \
		if (!(cond)) {                                             \
			check_current_fails++;                             \
			fprintf(stderr, "%s:%d: CHECK failed: %s\n",       \
			    __FILE__, __LINE__, #cond);                    \
		}                                                          \
	} while (0)

#define CHECK_STR(a, b)                                                    \
	do {                                                               \
		const char *check_a_ = (a), *check_b_ = (b);               \
		if (check_a_ == NULL || check_b_ == NULL ||                \
		    strcmp(check_a_, check_b_) != 0) {                     \
			check_current_fails++;                             \
			fprintf(stderr, "%s:%d: CHECK_STR failed: %s\n"    \
			    "  got:      \"%s\"\n  expected: \"%s\"\n",     \
			    __FILE__, __LINE__, #a,                        \
			    check_a_ ? check_a_ : "(null)",                \
			    check_b_ ? check_b_ : "(null)");               \
		}                                                          \
	} while (0)

#define CHECK_INT(a, b)                                                    \
	do {                                                               \
		long long check_a_ = (long long)(a);                       \
		long long check_b_ = (long long)(b);                       \
		if (check_a_ != check_b_) {                                \
			check_current_fails++;                             \
			fprintf(stderr, "%s:%d: CHECK_INT failed: %s\n"    \
			    "  got: %lld  expected: %lld\n", __FILE__,      \
			    __LINE__, #a, check_a_, check_b_);             \
		}                                                          \
	} while (0)

#define RUN(fn)                                                            \
	do {                                                               \
		check_current_fails = 0;                                   \
		fn();                                                      \
		if (check_current_fails == 0) {                            \
			check_tests_passed++;                              \
		} else {                                                   \
			check_tests_failed++;                              \
			fprintf(stderr, "FAIL %s\n", #fn);                 \
		}                                                          \
	} while (0)

/* Each unit-test file defines one suite function that RUN()s its tests. */
void suite_buf(void);
void suite_url(void);
void suite_extract(void);
void suite_md5(void);
void suite_simhash(void);
void suite_simindex(void);
void suite_ssdeep(void);
void suite_minhash(void);
void suite_tdw(void);
void suite_dedup(void);
void suite_store(void);
void suite_config(void);
void suite_robots(void);
void suite_hostsched(void);
void suite_sitemap(void);
void suite_strmap(void);
void suite_robotscache(void);
void suite_workpool(void);
void suite_seen(void);
void suite_esc(void);
void suite_oom(void);
void suite_pagerank(void);
void suite_shingles(void);
void suite_canonical(void);
void suite_dedup_keys(void);
void suite_warc(void);
void suite_decode(void);

/* Temporary directories for the archive tests (test_warc.c). */
void unit_make_dir(const char *tag, char *dir, size_t dirsz);
void unit_remove_dir(const char *dir);
void suite_cdxj(void);
void suite_sdb_pg(void);
void suite_chunks(void);
void suite_tagtab(void);
void suite_radix(void);
void suite_keymap(void);
void suite_warcread(void);
void suite_search(void);
void suite_pg_conn(void);
void suite_fdlimit(void);
void suite_store_disk(void);
void suite_idcol(void);
void suite_threadcpu(void);
void suite_words(void);

#endif
