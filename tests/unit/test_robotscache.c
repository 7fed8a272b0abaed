#include "check.h"
#include "crawler/robotscache.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct store *
temp_store(char *dir, char *path, size_t pathsz)
{
	char err[256];

	strcpy(dir, "/tmp/nc-rc.XXXXXX");
	if (mkdtemp(dir) == NULL)
		return NULL;
	snprintf(path, pathsz, "%s/t.db", dir);
	return store_open(path, STORE_CREATE, err, sizeof(err));
}

static void
remove_store(const char *dir, const char *path)
{
	char p[512];

	unlink(path);
	snprintf(p, sizeof(p), "%s-wal", path);
	unlink(p);
	snprintf(p, sizeof(p), "%s-shm", path);
	unlink(p);
	rmdir(dir);
}

static void
test_status_rules(void)
{
	char dir[64], path[128];
	struct store *st = temp_store(dir, path, sizeof(path));
	struct robotscache *rc;
	const struct robots *r = NULL;
	const char *txt = "User-agent: *\nDisallow: /x/\nCrawl-delay: 2\n";
	double retry;
	int f;

	CHECK(st != NULL);
	if (st == NULL)
		return;
	rc = robotscache_new(st, "nearcrawl", 1000);
	CHECK(rc != NULL);
	CHECK_INT(robotscache_lookup(rc, "http://a.test", 100, &r, &retry, &f),
	    ROBOTSCACHE_MISSING);
	CHECK_INT(robotscache_pending(rc, "http://a.test"), 0);
	CHECK_INT(robotscache_lookup(rc, "http://a.test", 100, &r, &retry, &f),
	    ROBOTSCACHE_PENDING);
	CHECK_INT(robotscache_result(rc, "http://a.test", 200, txt,
	    strlen(txt), 100), ROBOTSCACHE_READY);
	CHECK_INT(robotscache_lookup(rc, "http://a.test", 200, &r, &retry, &f),
	    ROBOTSCACHE_READY);
	CHECK(r != NULL && !robots_allowed(r, "/x/1") &&
	    robots_allowed(r, "/y"));
	/* Expired after 24 hours: fetch again. */
	CHECK_INT(robotscache_lookup(rc, "http://a.test",
	    100 + ROBOTSCACHE_TTL_S, &r, &retry, &f), ROBOTSCACHE_MISSING);
	/* 404: allow all. */
	CHECK_INT(robotscache_result(rc, "http://b.test", 404, "", 0, 100),
	    ROBOTSCACHE_READY);
	robotscache_lookup(rc, "http://b.test", 100, &r, &retry, &f);
	CHECK(robots_allowed(r, "/anything"));
	/* 503 twice: wait, with a doubling back-off. */
	CHECK_INT(robotscache_result(rc, "http://c.test", 503, "", 0, 100),
	    ROBOTSCACHE_WAIT);
	CHECK_INT(robotscache_lookup(rc, "http://c.test", 100.5, &r, &retry,
	    &f), ROBOTSCACHE_WAIT);
	CHECK(retry == 101 && f == 1);
	CHECK_INT(robotscache_lookup(rc, "http://c.test", 101, &r, &retry, &f),
	    ROBOTSCACHE_MISSING);
	CHECK_INT(robotscache_result(rc, "http://c.test", 0, "", 0, 101),
	    ROBOTSCACHE_WAIT);
	robotscache_lookup(rc, "http://c.test", 101, &r, &retry, &f);
	CHECK(retry == 103 && f == 2);
	CHECK_INT(robotscache_failures(rc, "http://c.test"), 2);
	robotscache_free(rc);

	/* A new cache (a resumed crawl) finds the answers in the store. */
	rc = robotscache_new(st, "nearcrawl", 1000);
	CHECK_INT(robotscache_lookup(rc, "http://a.test", 200, &r, &retry, &f),
	    ROBOTSCACHE_READY);
	CHECK(r != NULL && !robots_allowed(r, "/x/2"));
	CHECK(r != NULL && robots_crawl_delay(r) == 2);
	CHECK_INT(robotscache_lookup(rc, "http://c.test", 102, &r, &retry, &f),
	    ROBOTSCACHE_WAIT);
	CHECK_INT(f, 2);
	robotscache_free(rc);
	store_close(st);
	remove_store(dir, path);
}

void
suite_robotscache(void)
{
	RUN(test_status_rules);
}
