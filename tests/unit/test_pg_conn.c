/*
 * A PostgreSQL server's faults (storage/sdb_pg_conn.c, storage/store_pg.c,
 * storage/store_share.c): a connection the server closes is found lost at
 * once, and so is one whose answers libpq no longer expects (it used to
 * spin there); the server's notices and libpq's messages come out as one
 * line; a database marked by a newer nearcrawl is refused as SQLite's is;
 * a host whose last URL its owner left in flight is claimed again.
 * The server tests need one: tests/e2e/test-pg-restart.sh starts a
 * throwaway server and runs this suite alone, with its URI in NC_TEST_PG
 * (the whole unit run, without it, runs only the tests that need none).
 */
#include "check.h"
#include "storage/sdb.h"
#include "storage/sdb_pg.h"
#include "storage/sdb_pg_int.h"
#include "storage/store.h"
#include "storage/store_frontier.h"
#include "storage/store_share.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* A hang here is a failure, not a stuck test run: the alarm's default
 * action ends the process, and the runner's status says so. */
#define HANG_S 20

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void
test_one_line(void)
{
	char out[128];

	sdb_pg__one_line(out, sizeof(out), "connection to server on socket "
	    "\"/x/.s.PGSQL.5432\" failed: No such file or directory\n\tIs the "
	    "server running locally and accepting connections on that "
	    "socket?\n");
	CHECK(strchr(out, '\n') == NULL && strchr(out, '\t') == NULL);
	CHECK(strstr(out, "directory. Is the server running") != NULL);
	CHECK(out[strlen(out) - 1] != ' ');
	sdb_pg__one_line(out, sizeof(out), "server closed the connection "
	    "unexpectedly\n\tThis probably means the server terminated "
	    "abnormally\n\tbefore or while processing the request.\n");
	CHECK(strstr(out, "unexpectedly. This probably means the server "
	    "terminated abnormally before or while") != NULL);
	sdb_pg__one_line(out, sizeof(out), "a: \n\n  B\r\n");
	CHECK_STR(out, "a: B");
	sdb_pg__one_line(out, 8, "0123456789");
	CHECK(strlen(out) < 8);
}

/* The backend of a connection in pipeline mode is terminated: the next
 * statement fails at once, says why, and so does every later call. */
static void
test_terminated(void)
{
	const char *uri = getenv("NC_TEST_PG");
	struct sdb *db, *other;
	struct sdb_stmt *st = NULL, *pid = NULL;
	char err[512], sql[96];
	double t0;

	if ((db = sdb_open_pg(uri, 60000, err, sizeof(err))) == NULL ||
	    (other = sdb_open_pg(uri, 60000, err, sizeof(err))) == NULL) {
		CHECK(!"connect");
		sdb_close(db);
		return;
	}
	CHECK_INT(sdb_prepare(db, "SELECT pg_backend_pid()", &pid), SDB_OK);
	CHECK_INT(sdb_prepare(db, "SELECT 1", &st), SDB_OK);
	CHECK_INT(sdb_pipeline(db, 1), 0);
	CHECK_INT(sdb_step(pid), SDB_ROW);
	snprintf(sql, sizeof(sql), "SELECT pg_terminate_backend(%lld)",
	    (long long)sdb_column_int64(pid, 0));
	sdb_reset(pid);
	CHECK(!sdb_lost(db));
	CHECK_INT(sdb_exec(other, sql), SDB_OK);
	usleep(200000);
	alarm(HANG_S);
	t0 = now_s();
	CHECK_INT(sdb_step(st), SDB_IOERR);
	CHECK(sdb_lost(db));
	CHECK(strstr(sdb_errmsg(db), "terminating connection") != NULL);
	CHECK(strchr(sdb_errmsg(db), '\n') == NULL);
	sdb_reset(st);
	CHECK_INT(sdb_step(st), SDB_IOERR);
	CHECK_INT(sdb_step_later(st), SDB_IOERR);
	CHECK_INT(sdb_exec(db, "SELECT 1"), SDB_IOERR);
	CHECK_INT(sdb_flush(db), SDB_IOERR);
	CHECK(now_s() - t0 < 5);
	sdb_finalize(st);
	sdb_finalize(pid);
	sdb_close(db);
	alarm(0);
	/* The other connection is untouched. */
	CHECK(!sdb_lost(other));
	CHECK_INT(sdb_exec(other, "SELECT 1"), SDB_OK);
	sdb_close(other);
}

/* libpq hands out the answers to a statement sent ahead before its owner
 * reads them (as when libpq loses count of what it awaits): the read
 * finds nothing more expected and calls the connection lost, where it
 * used to wait for a sync that never came, spinning. */
static void
test_out_of_step(void)
{
	const char *uri = getenv("NC_TEST_PG");
	struct sdb_pgstmt *st = NULL;
	struct sdb_pg *pg;
	PGresult *res;
	char err[512];
	int n = 0;

	if ((pg = sdb_pg_connect(uri, 60000, err, sizeof(err))) == NULL) {
		CHECK(!"connect");
		return;
	}
	CHECK_INT(sdb_pg_prepare(pg, "SELECT 1", &st), SDB_OK);
	CHECK_INT(sdb_pg_pipeline(pg, 1), 0);
	CHECK_INT(sdb_pg_ahead(st), SDB_OK);
	while (n < 10) {
		res = PQgetResult(pg->conn);
		n++;
		if (res != NULL && PQresultStatus(res) == PGRES_PIPELINE_SYNC) {
			PQclear(res);
			break;
		}
		PQclear(res);
	}
	CHECK(n < 10);
	CHECK(!sdb_pg_lost(pg));
	alarm(HANG_S);
	CHECK_INT(sdb_pg_step(st), SDB_IOERR);
	CHECK(sdb_pg_lost(pg));
	CHECK(strstr(sdb_pg_errmsg(pg), "lost count") != NULL);
	sdb_pg_finalize(st);
	sdb_pg_close(pg);
	alarm(0);
}

/* store_open of a database whose meta table carries mark; err gets its
 * message. Whether it opened. */
static int
open_marked(const char *uri, const char *mark, char *err, size_t errsz)
{
	struct sdb *db;
	struct store *s;
	char sql[128];

	if ((db = sdb_open_pg(uri, 60000, err, errsz)) == NULL)
		return 0;
	snprintf(sql, sizeof(sql), "COMMENT ON TABLE meta IS '%s'", mark);
	CHECK_INT(sdb_exec(db, sql), SDB_OK);
	sdb_close(db);
	err[0] = '\0';
	if ((s = store_open(uri, STORE_CREATE, err, errsz)) == NULL)
		return 0;
	store_close(s);
	return 1;
}

/* A database of its own on NC_TEST_PG's server, made empty: its URI into
 * dburi. 0, or -1. */
static int
new_db(const char *name, char *dburi, size_t dburisz)
{
	const char *uri = getenv("NC_TEST_PG");
	char err[512], sql[96];
	struct sdb *db;
	int rc;

	if ((db = sdb_open_pg(uri, 60000, err, sizeof(err))) == NULL)
		return -1;
	snprintf(sql, sizeof(sql), "DROP DATABASE IF EXISTS %s", name);
	rc = sdb_exec(db, sql);
	snprintf(sql, sizeof(sql), "CREATE DATABASE %s", name);
	if (rc == SDB_OK)
		rc = sdb_exec(db, sql);
	sdb_close(db);
	snprintf(dburi, dburisz, "postgresql:///%s%s", name,
	    strchr(uri, '?') != NULL ? strchr(uri, '?') : "");
	return rc == SDB_OK ? 0 : -1;
}

/* The schema's mark: a newer number is refused in SQLite's words, an
 * older or equal one opens, anything else is another program's. */
static void
test_newer_schema(void)
{
	char err[512], dburi[512], msg[64];
	struct store *s;

	if (new_db("schema_t", dburi, sizeof(dburi)) != 0) {
		CHECK(!"a new database");
		return;
	}
	s = store_open(dburi, STORE_CREATE, err, sizeof(err));
	CHECK(s != NULL);
	store_close(s);
	CHECK(!open_marked(dburi, "nearcrawl schema 99", err, sizeof(err)));
	CHECK(strstr(err, ": made by a newer nearcrawl (schema 99)") != NULL);
	snprintf(msg, sizeof(msg), "nearcrawl schema %d",
	    STORE_SCHEMA_VERSION + 1);
	CHECK(!open_marked(dburi, msg, err, sizeof(err)));
	CHECK(strstr(err, "made by a newer nearcrawl") != NULL);
	snprintf(msg, sizeof(msg), "nearcrawl schema %d",
	    STORE_SCHEMA_VERSION);
	CHECK(open_marked(dburi, msg, err, sizeof(err)));
	CHECK(open_marked(dburi, "nearcrawl schema 1", err, sizeof(err)));
	CHECK(!open_marked(dburi, "nearcrawl schema x", err, sizeof(err)));
	CHECK(strstr(err, "not a nearcrawl database (it has a meta table of "
	    "its own)") != NULL);
	CHECK(!open_marked(dburi, "my own meta", err, sizeof(err)));
	CHECK(strstr(err, "not a nearcrawl database") != NULL);
}

static int
count_lease(const struct store_lease *l, void *arg)
{
	(void)l;
	++*(int *)arg;
	return 0;
}

/* An owner whose lease ran out (it died, or lost its connection) left a
 * host's last URL in flight, none queued: another process claims the
 * host and queues the URL again. The claim used to want queued URLs, so
 * nobody took the host and the crawl waited for the URL for ever. */
static void
test_claim_in_flight(void)
{
	static const char host[] = "a.test";
	char err[512], dburi[512];
	struct store_item it;
	struct store *s;
	int n = 0;

	if (new_db("claim_t", dburi, sizeof(dburi)) != 0) {
		CHECK(!"a new database");
		return;
	}
	if ((s = store_open(dburi, STORE_CREATE, err, sizeof(err))) == NULL) {
		CHECK(!"store_open");
		return;
	}
	CHECK_INT(store_set_worker(s, "w1"), 0);
	CHECK_INT(store_begin(s), 0);
	CHECK(store_frontier_add(s, "http://a.test/", host, 0, 0, 0) >= 0);
	CHECK(store_lease_note(s, host) >= 0);
	/* A lease that ran out long ago. */
	CHECK_INT(store_lease_take(s, host, 1.0, count_lease, &n), 1);
	CHECK_INT(store_frontier_take(s, host, 4e9, &it), 1);
	store_item_clear(&it);
	CHECK_INT(store_commit(s), 0);
	CHECK_INT(store_set_worker(s, "w2"), 0);
	CHECK_INT(store_begin(s), 0);
	n = 0;
	CHECK_INT(store_lease_claim(s, 2e9, 2e9 + 10, 10, 0, count_lease, &n),
	    1);
	CHECK_INT(n, 1);
	CHECK_INT(store_host_reclaim(s, host), 1);
	CHECK_INT(store_commit(s), 0);
	store_close(s);
}

void
suite_pg_conn(void)
{
	RUN(test_one_line);
	if (getenv("NC_TEST_PG") == NULL)
		return;
	RUN(test_terminated);
	RUN(test_out_of_step);
	RUN(test_newer_schema);
	RUN(test_claim_in_flight);
}
