/*
 * Statements sent ahead (sdb_step_ahead) and URLs taken ahead
 * (storage/store_ahead.c) on a real PostgreSQL server. They need one:
 * tests/e2e/test-pg-ahead.sh starts a throwaway server and runs this suite
 * alone, with the server's URI in NC_TEST_PG (the whole unit run, without
 * it, leaves the suite out; the statements' SQLite side is checked here
 * too, on a file).
 */
#include "check.h"
#include "storage/sdb.h"
#include "storage/store.h"
#include "storage/store_frontier.h"
#include "storage/store_share.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A connection with table t (k, v) fresh, not yet in pipeline mode
 * (statements are prepared first); NULL (and a failed CHECK) when the
 * server cannot be reached. */
static struct sdb *
pg_open(void)
{
	const char *uri = getenv("NC_TEST_PG");
	struct sdb *db;
	char err[512];

	if (uri == NULL)
		return NULL;
	db = sdb_open_pg(uri, 60000, err, sizeof(err));
	CHECK(db != NULL);
	if (db == NULL) {
		fprintf(stderr, "sdb_open_pg: %s\n", err);
		return NULL;
	}
	CHECK_INT(sdb_exec(db, "DROP TABLE IF EXISTS t; CREATE TABLE t "
	    "(k BIGINT PRIMARY KEY, v TEXT NOT NULL)"), SDB_OK);
	return db;
}

static int
insert_later(struct sdb_stmt *ins, int64_t k, const char *v)
{
	sdb_reset(ins);
	sdb_bind_int64(ins, 1, k);
	sdb_bind_text(ins, 2, v);
	return sdb_step_later(ins);
}

/* The one value of a one-row query (db out of pipeline mode). */
static int64_t
one(struct sdb *db, const char *sql)
{
	struct sdb_stmt *st;
	int64_t v = -1;

	if (sdb_prepare(db, sql, &st) != SDB_OK)
		return -1;
	if (sdb_step(st) == SDB_ROW)
		v = sdb_column_int64(st, 0);
	sdb_finalize(st);
	return v;
}

/* An ahead statement sees what was sent before it, not what comes after,
 * and its rows wait for its step while later statements run. */
static void
test_ahead_order(void)
{
	struct sdb *db = pg_open();
	struct sdb_stmt *ins = NULL, *cnt = NULL, *get = NULL;

	if (db == NULL)
		return;
	CHECK_INT(sdb_prepare(db, "INSERT INTO t (k, v) VALUES (?, ?)", &ins),
	    SDB_OK);
	CHECK_INT(sdb_prepare(db, "SELECT count(*) FROM t", &cnt), SDB_OK);
	CHECK_INT(sdb_prepare(db, "SELECT v FROM t WHERE k = ?", &get),
	    SDB_OK);
	CHECK_INT(sdb_pipeline(db, 1), 0);
	CHECK_INT(insert_later(ins, 1, "one"), SDB_DONE);
	CHECK_INT(insert_later(ins, 2, "two"), SDB_DONE);
	CHECK_INT(sdb_step_ahead(cnt), SDB_OK);
	CHECK_INT(insert_later(ins, 3, "three"), SDB_DONE);
	/* A blocking statement in between reads the ahead one's answer
	 * first and keeps it. */
	sdb_bind_int64(get, 1, 3);
	CHECK_INT(sdb_step(get), SDB_ROW);
	CHECK_STR(sdb_column_text(get, 0), "three");
	sdb_reset(get);
	CHECK_INT(sdb_step(cnt), SDB_ROW);
	CHECK_INT(sdb_column_int64(cnt, 0), 2);
	CHECK_INT(sdb_step(cnt), SDB_DONE);
	sdb_reset(cnt);
	/* Stepped as usual afterwards, it runs again. */
	CHECK_INT(sdb_step(cnt), SDB_ROW);
	CHECK_INT(sdb_column_int64(cnt, 0), 3);
	sdb_reset(cnt);
	sdb_finalize(ins);
	sdb_finalize(cnt);
	sdb_finalize(get);
	sdb_close(db);
}

/* Many outstanding at once (more than sdb_pg keeps unread), read in any
 * order: each gets its own rows. */
static void
test_ahead_many(void)
{
	enum { N = 40 };
	struct sdb *db = pg_open();
	struct sdb_stmt *ins = NULL, *q[N];
	char v[16];
	int i, ok = 1;

	if (db == NULL)
		return;
	CHECK_INT(sdb_prepare(db, "INSERT INTO t (k, v) VALUES (?, ?)", &ins),
	    SDB_OK);
	for (i = 0; i < N; i++) {
		snprintf(v, sizeof(v), "v%d", i);
		CHECK_INT(insert_later(ins, i, v), SDB_DONE);
		CHECK_INT(sdb_prepare(db, "SELECT v, (SELECT count(*) FROM t) "
		    "FROM t WHERE k = ?", &q[i]), SDB_OK);
	}
	CHECK_INT(sdb_pipeline(db, 1), 0);
	for (i = 0; i < N; i++) {
		sdb_bind_int64(q[i], 1, i);
		CHECK_INT(sdb_step_ahead(q[i]), SDB_OK);
		CHECK_INT(insert_later(ins, N + i, "later"), SDB_DONE);
	}
	for (i = N - 1; i >= 0; i--) {
		snprintf(v, sizeof(v), "v%d", i);
		if (sdb_step(q[i]) != SDB_ROW ||
		    strcmp(sdb_column_text(q[i], 0), v) != 0 ||
		    sdb_column_int64(q[i], 1) != N + i)
			ok = 0;
		sdb_finalize(q[i]);
	}
	CHECK(ok);
	CHECK_INT(sdb_pipeline(db, 0), 0);
	CHECK_INT(one(db, "SELECT count(*) FROM t"), 2 * N);
	sdb_finalize(ins);
	sdb_close(db);
}

/* A failure sent before an ahead statement comes back from it; its own
 * failure, dropped unread by a reset, comes back from the next wait. */
static void
test_ahead_failures(void)
{
	struct sdb *db = pg_open();
	struct sdb_stmt *ins = NULL, *cnt = NULL, *bad = NULL;

	if (db == NULL)
		return;
	CHECK_INT(sdb_prepare(db, "INSERT INTO t (k, v) VALUES (?, ?)", &ins),
	    SDB_OK);
	CHECK_INT(sdb_prepare(db, "SELECT count(*) FROM t", &cnt), SDB_OK);
	CHECK_INT(sdb_prepare(db, "SELECT 1 / (count(*) - count(*)) FROM t",
	    &bad), SDB_OK);
	CHECK_INT(sdb_pipeline(db, 1), 0);
	CHECK_INT(insert_later(ins, 1, "one"), SDB_DONE);
	CHECK_INT(insert_later(ins, 1, "again"), SDB_DONE); /* duplicate key */
	CHECK_INT(sdb_step_ahead(cnt), SDB_OK);
	CHECK_INT(sdb_step(cnt), SDB_CONSTRAINT);
	sdb_reset(cnt);
	/* The connection goes on after the failed sync; what went with the
	 * failure (one implicit transaction up to the sync) is undone. */
	CHECK_INT(sdb_step(cnt), SDB_ROW);
	CHECK_INT(sdb_column_int64(cnt, 0), 0);
	sdb_reset(cnt);

	CHECK_INT(sdb_step_ahead(bad), SDB_OK);
	sdb_reset(bad); /* division by zero, never stepped */
	CHECK(sdb_flush(db) != SDB_OK);
	CHECK(strstr(sdb_errmsg(db), "division by zero") != NULL);
	CHECK_INT(sdb_flush(db), SDB_OK); /* reported once */
	/* Finalized unread, too. */
	CHECK_INT(sdb_step_ahead(bad), SDB_OK);
	sdb_finalize(bad);
	CHECK(sdb_step(cnt) != SDB_ROW);
	sdb_reset(cnt);
	CHECK_INT(sdb_step(cnt), SDB_ROW);
	sdb_reset(cnt);
	sdb_finalize(ins);
	sdb_finalize(cnt);
	sdb_close(db);
}

/* On SQLite an ahead statement runs at its step, with the same rows. */
static void
test_ahead_sqlite(void)
{
	char path[] = "/tmp/nc_ahead_XXXXXX";
	struct sdb_stmt *st = NULL;
	struct sdb *db = NULL;
	sqlite3 *h = NULL;
	int fd = mkstemp(path);

	CHECK(fd >= 0);
	if (fd < 0)
		return;
	close(fd);
	CHECK_INT(sqlite3_open(path, &h), SQLITE_OK);
	CHECK((db = sdb_of_sqlite(h)) != NULL);
	if (db != NULL) {
		CHECK_INT(sdb_exec(db, "CREATE TABLE t (k INTEGER, v TEXT); "
		    "INSERT INTO t VALUES (1, 'a')"), SDB_OK);
		CHECK_INT(sdb_prepare(db, "SELECT count(*) FROM t", &st),
		    SDB_OK);
		CHECK_INT(sdb_step_ahead(st), SDB_OK);
		CHECK_INT(sdb_exec(db, "INSERT INTO t VALUES (2, 'b')"), SDB_OK);
		CHECK_INT(sdb_step(st), SDB_ROW);
		CHECK_INT(sdb_column_int64(st, 0), 2);
		sdb_finalize(st);
		sdb_close(db);
	}
	unlink(path);
}

/* Whether host's lease is ours, for store_lease_take. */
static int
leased(const struct store_lease *l, void *arg)
{
	(void)l;
	*(int *)arg = 1;
	return 0;
}

/* The database test_store_takes_ahead crawls into. */
static char store_uri[600];

/* The frontier's state of url, read by a connection of its own (what
 * another process sees), or -1. */
static int64_t
url_state(const char *url)
{
	char sql[256], err[256];
	struct sdb *db;
	int64_t v;

	snprintf(sql, sizeof(sql), "SELECT state FROM frontier WHERE url = "
	    "'%s'", url);
	if ((db = sdb_open_pg(store_uri, 60000, err, sizeof(err))) == NULL)
		return -1;
	v = one(db, sql);
	sdb_close(db);
	return v;
}

/*
 * A shared store's takes: each hands out the host's next URL in queue
 * order, the ones behind it taken ahead (in flight in the table); a held
 * URL lowered meanwhile comes out lowered; releasing the lease returns
 * the held ones to the queue.
 */
static void
test_store_takes_ahead(void)
{
	const char *uri = getenv("NC_TEST_PG");
	static const char host[] = "a.test";
	struct store_item it;
	struct store *s;
	char url[64], err[512];
	int i, got = 0, order = 1;

	if (uri == NULL)
		return;
	/* A database of its own: the store makes its schema. */
	{
		struct sdb *db = sdb_open_pg(uri, 60000, err, sizeof(err));

		CHECK(db != NULL);
		if (db == NULL)
			return;
		CHECK_INT(sdb_exec(db, "DROP DATABASE IF EXISTS ahead_t"), SDB_OK);
		CHECK_INT(sdb_exec(db, "CREATE DATABASE ahead_t"), SDB_OK);
		sdb_close(db);
	}
	/* NC_TEST_PG's server and options, database ahead_t. */
	snprintf(store_uri, sizeof(store_uri), "postgresql:///ahead_t%s",
	    strchr(uri, '?') != NULL ? strchr(uri, '?') : "");
	s = store_open(store_uri, STORE_CREATE, err, sizeof(err));
	CHECK(s != NULL);
	if (s == NULL) {
		fprintf(stderr, "store_open: %s\n", err);
		return;
	}
	CHECK(store_shared(s));
	CHECK_INT(store_set_worker(s, "w1"), 0);
	store_ahead_depth(s, 3);
	CHECK_INT(store_begin(s), 0);
	for (i = 0; i < 8; i++) {
		snprintf(url, sizeof(url), "http://a.test/%d", i);
		CHECK(store_frontier_add(s, url, host, 1, 0, 5) >= 0);
	}
	CHECK(store_lease_note(s, host) >= 0);
	CHECK_INT(store_commit(s), 0);
	CHECK_INT(store_begin(s), 0);
	CHECK_INT(store_lease_take(s, host, 4e9, leased, &got), 1);
	CHECK_INT(got, 1);
	CHECK_INT(store_commit(s), 0);
	CHECK_INT(store_begin(s), 0);

	/* The first take: /0, and /1 /2 /3 taken ahead. */
	CHECK_INT(store_frontier_take(s, host, 4e9, &it), 1);
	CHECK_STR(it.url, "http://a.test/0");
	CHECK_INT(it.dup_hops, 5);
	store_item_clear(&it);
	CHECK_INT(store_commit(s), 0);
	CHECK_INT(url_state("http://a.test/1"), 1);
	CHECK_INT(url_state("http://a.test/3"), 1);
	CHECK_INT(url_state("http://a.test/4"), 0);
	CHECK_INT(store_begin(s), 0);
	/* /2 is linked again with fewer duplicates behind it. */
	CHECK(store_frontier_add(s, "http://a.test/2", host, 1, 0, 1) >= 0);
	for (i = 1; i < 4; i++) {
		CHECK_INT(store_frontier_take(s, host, 4e9, &it), 1);
		snprintf(url, sizeof(url), "http://a.test/%d", i);
		if (it.url == NULL || strcmp(it.url, url) != 0)
			order = 0;
		if (i == 2)
			CHECK_INT(it.dup_hops, 1);
		else
			CHECK_INT(it.dup_hops, 5);
		store_item_clear(&it);
	}
	CHECK(order);
	CHECK_INT(store_commit(s), 0);
	/* Held now: /4 /5 /6; given back with the lease. */
	CHECK_INT(url_state("http://a.test/6"), 1);
	CHECK_INT(store_begin(s), 0);
	CHECK_INT(store_lease_release(s, host, 0), 0);
	CHECK_INT(store_commit(s), 0);
	for (i = 4; i < 8; i++) {
		snprintf(url, sizeof(url), "http://a.test/%d", i);
		CHECK_INT(url_state(url), 0);
	}
	store_close(s);
}

void
suite_sdb_pg(void)
{
	RUN(test_ahead_sqlite);
	if (getenv("NC_TEST_PG") == NULL)
		return;
	RUN(test_ahead_order);
	RUN(test_ahead_many);
	RUN(test_ahead_failures);
	RUN(test_store_takes_ahead);
}
