#include "check.h"
#include "storage/query.h"
#include "storage/store.h"
#include "storage/store_archive.h"
#include "storage/store_frontier.h"
#include "storage/store_int.h"
#include "storage/store_pages.h"
#include "storage/store_resume.h"

#include <sys/stat.h>
#include <sys/wait.h>

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

static char tdir[64];  /* this test's mkdtemp() directory */
static char tpath[128]; /* tdir/crawl.db */

static void
tmp_setup(void)
{
	snprintf(tdir, sizeof(tdir), "/tmp/nc_store_XXXXXX");
	if (mkdtemp(tdir) == NULL) {
		perror("mkdtemp");
		abort();
	}
	snprintf(tpath, sizeof(tpath), "%s/crawl.db", tdir);
}

static void
tmp_teardown(void)
{
	char p[512];
	struct dirent *de;
	DIR *d;

	d = opendir(tdir);
	if (d != NULL) {
		while ((de = readdir(d)) != NULL) {
			if (strcmp(de->d_name, ".") == 0 ||
			    strcmp(de->d_name, "..") == 0)
				continue;
			snprintf(p, sizeof(p), "%s/%s", tdir, de->d_name);
			unlink(p);
		}
		closedir(d);
	}
	rmdir(tdir);
}

/* Files in tdir; proves no -wal, -shm or -journal file appeared. */
static int
tmp_files(void)
{
	struct dirent *de;
	DIR *d;
	int n = 0;

	d = opendir(tdir);
	if (d == NULL)
		return -1;
	while ((de = readdir(d)) != NULL)
		if (de->d_name[0] != '.')
			n++;
	closedir(d);
	return n;
}

static char *
slurp(const char *path, size_t *len)
{
	FILE *f;
	char *data = NULL;
	long n;

	f = fopen(path, "rb");
	if (f == NULL)
		return NULL;
	if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET) != 0)
		goto out;
	data = malloc((size_t)n + 1);
	if (data == NULL)
		goto out;
	if (fread(data, 1, (size_t)n, f) != (size_t)n) {
		free(data);
		data = NULL;
		goto out;
	}
	data[n] = '\0';
	*len = (size_t)n;
out:
	fclose(f);
	return data;
}

static void
spit(const char *path, const char *data, size_t len)
{
	FILE *f = fopen(path, "wb");

	if (f == NULL || fwrite(data, 1, len, f) != len) {
		perror(path);
		abort();
	}
	fclose(f);
}

/* Run SQL on tpath behind the store's back. */
static int
raw_exec(const char *sql)
{
	sqlite3 *db = NULL;
	int rc;

	rc = sqlite3_open_v2(tpath, &db, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_CREATE, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
	sqlite3_close(db);
	return rc;
}

/* The text of the first column of the first row, as a static string. */
static const char *
raw_text(const char *sql)
{
	static char out[256];
	sqlite3_stmt *st = NULL;
	sqlite3 *db = NULL;
	const char *v;

	snprintf(out, sizeof(out), "(failed)");
	if (sqlite3_open_v2(tpath, &db, SQLITE_OPEN_READONLY, NULL) !=
	    SQLITE_OK ||
	    sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		goto out;
	if (sqlite3_step(st) == SQLITE_ROW) {
		v = (const char *)sqlite3_column_text(st, 0);
		snprintf(out, sizeof(out), "%s", v ? v : "(null)");
	} else
		snprintf(out, sizeof(out), "(no row)");
out:
	sqlite3_finalize(st);
	sqlite3_close(db);
	return out;
}

static struct store *
open_new(void)
{
	char err[256];
	struct store *s;

	s = store_open(tpath, STORE_CREATE, err, sizeof(err));
	if (s == NULL)
		fprintf(stderr, "store_open: %s\n", err);
	return s;
}

static struct store_page
page(const char *url, const char *verdict, int64_t seq)
{
	struct store_page p;

	memset(&p, 0, sizeof(p));
	p.url = url;
	p.host = "a.example";
	p.verdict = store_verdict_parse(verdict);
	p.status = 200;
	p.seq = seq;
	p.fetched_at = 1700000000.5;
	return p;
}

static void
expect_refused(const char *suffix, unsigned flags)
{
	char err[256], want[256];

	snprintf(want, sizeof(want), "%s: %s", tpath, suffix);
	CHECK(store_open(tpath, flags, err, sizeof(err)) == NULL);
	CHECK_STR(err, want);
}

/*
 * Each "CREATE TABLE|INDEX [IF NOT EXISTS] name" line of schema text sql:
 * calls fn(type, name) and returns how many. Names are single words.
 */
static int
each_declared(const char *sql, void (*fn)(const char *type,
    const char *name))
{
	const char *p = sql, *w;
	char type[8], name[64];
	size_t n;
	int count = 0;

	for (; p != NULL && *p != '\0'; p = strchr(p, '\n'), p = p ? p + 1 : p) {
		w = p + 13;
		if (strncmp(p, "CREATE TABLE ", 13) == 0)
			snprintf(type, sizeof(type), "table");
		else if (strncmp(p, "CREATE INDEX ", 13) == 0)
			snprintf(type, sizeof(type), "index");
		else if (strncmp(p, "-- [sqlite] CREATE VIRTUAL TABLE ", 33) ==
		    0) {
			/* SQLite's own statement, marked in the file. */
			snprintf(type, sizeof(type), "table");
			w = p + 33;
		} else
			continue;
		if (strncmp(w, "IF NOT EXISTS ", 14) == 0)
			w += 14;
		n = strcspn(w, " (\n");
		CHECK(n > 0 && n < sizeof(name));
		snprintf(name, sizeof(name), "%.*s", (int)n, w);
		fn(type, name);
		count++;
	}
	return count;
}

static void
check_in_master(const char *type, const char *name)
{
	char sql[256];

	snprintf(sql, sizeof(sql), "SELECT type FROM sqlite_master WHERE "
	    "name = '%s'", name);
	CHECK_STR(raw_text(sql), type);
}

/*
 * storage/schema.sql is compiled in byte for byte, and a fresh database
 * holds every table and index it declares and nothing else (SQLite's own
 * autoindexes aside).
 */
static void
test_schema_from_file(void)
{
	const struct store__added *c;
	char want[16];
	size_t len = 0;
	char *file;
	int n;

	file = slurp("storage/schema.sql", &len);
	CHECK(file != NULL);
	if (file == NULL)
		return;
	CHECK_INT(len, strlen(store_schema()));
	CHECK(strcmp(file, store_schema()) == 0);
	/* The marks the code splits on are there. */
	CHECK(store__schema_later() != NULL);
	if (store__schema_later() != NULL)
		CHECK(strncmp(store__schema_later(), "-- [later]", 10) == 0);
	CHECK_STR(store__added_columns[0].table, "pages");
	CHECK_STR(store__added_columns[0].column, "minhash");
	CHECK_STR(store__added_columns[0].decl, "BLOB");
	CHECK_STR(store__added_columns[1].table, "pages");
	CHECK_STR(store__added_columns[1].column, "canonical");
	CHECK_STR(store__added_columns[1].decl, "TEXT");
	CHECK_STR(store__added_columns[2].table, "pages");
	CHECK_STR(store__added_columns[2].column, "worker");
	CHECK_STR(store__added_columns[2].decl, "TEXT");
	CHECK_STR(store__added_columns[3].table, "pages");
	CHECK_STR(store__added_columns[3].column, "etag");
	CHECK_STR(store__added_columns[3].decl, "TEXT");
	CHECK_STR(store__added_columns[4].table, "pages");
	CHECK_STR(store__added_columns[4].column, "last_modified");
	CHECK_STR(store__added_columns[4].decl, "TEXT");
	CHECK_STR(store__added_columns[5].table, "frontier");
	CHECK_STR(store__added_columns[5].column, "dup_hops");
	CHECK_STR(store__added_columns[5].decl, "INTEGER NOT NULL DEFAULT 0");
	CHECK_STR(store__added_columns[6].table, "warc_payloads");
	CHECK_STR(store__added_columns[6].column, "warc_file");
	CHECK_STR(store__added_columns[6].decl, "TEXT");
	CHECK_STR(store__added_columns[7].table, "warc_payloads");
	CHECK_STR(store__added_columns[7].column, "warc_offset");
	CHECK_STR(store__added_columns[7].decl, "INTEGER");
	CHECK_STR(store__added_columns[8].table, "warc_payloads");
	CHECK_STR(store__added_columns[8].column, "record_id");
	CHECK_STR(store__added_columns[8].decl, "TEXT");
	CHECK(store__added_columns[9].table == NULL);
	for (c = store__added_columns; c->table != NULL; c++)
		CHECK_STR(store__column_table(c->column), c->table);

	tmp_setup();
	store_close(open_new());
	n = each_declared(file, check_in_master);
	CHECK(n >= 17);
	snprintf(want, sizeof(want), "%d", n);
	/* FTS5 keeps the search index in shadow tables of its own. */
	CHECK_STR(raw_text("SELECT count(*) FROM sqlite_master WHERE "
	    "name NOT LIKE 'sqlite_autoindex_%' AND name NOT LIKE "
	    "'search_text_%'"), want);
	tmp_teardown();
	free(file);
}

static void
test_create_and_reopen(void)
{
	char err[256];
	struct store *s;
	char *v;

	tmp_setup();
	s = open_new();
	CHECK(s != NULL);
	CHECK_INT(store_meta_set(s, "seeds", "http://a.example/"), 0);
	store_close(s);
	CHECK_STR(raw_text("PRAGMA application_id"), "1313034828");
	CHECK_STR(raw_text("PRAGMA user_version"), "2");
	CHECK_STR(raw_text("PRAGMA journal_mode"), "wal");
	/* 18 (the earlier table among them): the search index is a file
	 * of its own (DB-search). */
	CHECK_STR(raw_text("SELECT count(*) FROM sqlite_master "
	    "WHERE type = 'table'"), "18");

	s = store_open(tpath, 0, err, sizeof(err));
	CHECK(s != NULL);
	v = s ? store_meta_get(s, "seeds", NULL) : NULL;
	CHECK_STR(v, "http://a.example/");
	free(v);
	store_close(s);
	store_close(NULL);
	CHECK_STR(store_errmsg(NULL), "no database");
	tmp_teardown();
}

static void
test_missing_file(void)
{
	struct stat st;

	tmp_setup();
	expect_refused("no such file", 0);
	expect_refused("no such file", STORE_READONLY);
	expect_refused("no such file", STORE_READONLY | STORE_CREATE);
	CHECK_INT(stat(tpath, &st), -1);
	CHECK_INT(tmp_files(), 0);
	tmp_teardown();
}

static void
test_not_sqlite_untouched(void)
{
	static const char *texts[] = {
		"hello\n",
		"# A config file, long enough to fill the 100-byte header of "
		"an SQLite database several times over, with no magic.\n"
		"[crawl]\nmax_pages = 10\n",
	};
	size_t i, len = 0;
	char *after;

	for (i = 0; i < 2; i++) {
		tmp_setup();
		spit(tpath, texts[i], strlen(texts[i]));
		expect_refused("not an SQLite database", STORE_CREATE);
		expect_refused("not an SQLite database", 0);
		expect_refused("not an SQLite database", STORE_READONLY);
		after = slurp(tpath, &len);
		CHECK(after != NULL);
		CHECK_INT(len, strlen(texts[i]));
		CHECK(after != NULL && memcmp(after, texts[i], len) == 0);
		CHECK_INT(tmp_files(), 1);
		free(after);
		tmp_teardown();
	}
}

static void
test_foreign_sqlite_untouched(void)
{
	size_t blen = 0, alen = 0;
	char *before, *after;

	tmp_setup();
	CHECK_INT(raw_exec("CREATE TABLE notes (body TEXT);"
	    "INSERT INTO notes VALUES ('mine')"), SQLITE_OK);
	before = slurp(tpath, &blen);
	expect_refused("not a nearcrawl database", STORE_CREATE);
	expect_refused("not a nearcrawl database", STORE_READONLY);
	after = slurp(tpath, &alen);
	CHECK(before != NULL && after != NULL);
	CHECK_INT(alen, blen);
	CHECK(before && after && memcmp(before, after, blen) == 0);
	CHECK_INT(tmp_files(), 1);
	free(before);
	free(after);
	tmp_teardown();

	/* Another application's mark on an empty database is enough. */
	tmp_setup();
	CHECK_INT(raw_exec("PRAGMA application_id = 42"), SQLITE_OK);
	expect_refused("not a nearcrawl database", STORE_CREATE);
	CHECK_STR(raw_text("SELECT count(*) FROM sqlite_master"), "0");
	tmp_teardown();
}

static void
test_newer_schema_refused(void)
{
	size_t blen = 0, alen = 0;
	char *before, *after;

	tmp_setup();
	store_close(open_new());
	CHECK_INT(raw_exec("PRAGMA user_version = 7"), SQLITE_OK);
	before = slurp(tpath, &blen);
	expect_refused("made by a newer nearcrawl (schema 7)", STORE_CREATE);
	expect_refused("made by a newer nearcrawl (schema 7)",
	    STORE_READONLY);
	after = slurp(tpath, &alen);
	CHECK(before != NULL && after != NULL);
	CHECK_INT(alen, blen);
	CHECK(before && after && memcmp(before, after, blen) == 0);
	free(before);
	free(after);
	tmp_teardown();
}

static void
test_empty_file(void)
{
	struct store *s;

	tmp_setup();
	spit(tpath, "", 0);
	expect_refused("not a nearcrawl database (empty)", 0);
	expect_refused("not a nearcrawl database (empty)", STORE_READONLY);
	s = open_new();
	CHECK(s != NULL);
	store_close(s);
	CHECK_STR(raw_text("PRAGMA user_version"), "2");
	tmp_teardown();
}

/* POSIX (fcntl) locks this process holds on tpath, from /proc/locks. */
static int
posix_locks_held(void)
{
	char line[256], me[32], inode[64];
	struct stat st;
	FILE *f;
	int n = 0;

	if (stat(tpath, &st) == -1 || (f = fopen("/proc/locks", "r")) == NULL)
		return -1;
	snprintf(me, sizeof(me), " %ld ", (long)getpid());
	snprintf(inode, sizeof(inode), ":%lu ", (unsigned long)st.st_ino);
	while (fgets(line, sizeof(line), f) != NULL)
		if (strstr(line, " POSIX ") != NULL &&
		    strstr(line, me) != NULL && strstr(line, inode) != NULL)
			n++;
	fclose(f);
	return n;
}

static void
test_lock_same_process(void)
{
	struct store *s, *t;
	char err[256];
	int held;

	tmp_setup();
	s = open_new();
	CHECK(s != NULL);
	held = posix_locks_held();
	CHECK(held > 0);
	expect_refused("in use by another nearcrawl process", 0);
	expect_refused("in use by another nearcrawl process", STORE_CREATE);
	/* The refused open must not have cost the writer its locks. */
	CHECK_INT(posix_locks_held(), held);
	CHECK_INT(store_frontier_add(s, "http://a.example/", "a.example", 0,
	    0, 0), 1);
	store_close(s);
	t = store_open(tpath, 0, err, sizeof(err));
	CHECK(t != NULL);
	store_close(t);
	tmp_teardown();
}

static void
test_lock_other_process(void)
{
	struct store *s;
	char err[256], want[256];
	pid_t pid;
	int status = -1;

	tmp_setup();
	snprintf(want, sizeof(want), "%s: in use by another nearcrawl process",
	    tpath);
	s = open_new();
	CHECK(s != NULL);
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		struct store *c = store_open(tpath, 0, err, sizeof(err));

		_exit(c == NULL && strcmp(err, want) == 0 ? 0 : 1);
	}
	CHECK(pid > 0);
	if (pid > 0)
		waitpid(pid, &status, 0);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	store_close(s);

	pid = fork();
	if (pid == 0) {
		struct store *c = store_open(tpath, 0, err, sizeof(err));

		_exit(c != NULL ? 0 : 1);
	}
	status = -1;
	if (pid > 0)
		waitpid(pid, &status, 0);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	tmp_teardown();
}

/* The first column of a one-row query on a connection of our own. */
static char *
query_text(const char *sql)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;
	char *out = NULL;

	if (sqlite3_open_v2(tpath, &db, SQLITE_OPEN_READONLY, NULL) ==
	        SQLITE_OK &&
	    sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		out = strdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	sqlite3_close(db);
	return out;
}

/*
 * A full database (the size limit standing in for the disk): the write
 * fails with a message saying so, the batch is lost, every committed row
 * stays, the file stays sound, and without the limit it takes writes.
 */
static void
test_full_keeps_committed(void)
{
	struct store_page p = page("http://a.example/", "unique", 1);
	struct store_page big = page("http://a.example/big", "unique", 2);
	struct store_counts c;
	struct store *s;
	char *text, *check;

	tmp_setup();
	text = malloc(256 * 1024);
	CHECK(text != NULL);
	s = open_new();
	CHECK(s != NULL);
	if (s == NULL || text == NULL)
		goto out;
	memset(text, 'x', 256 * 1024 - 1);
	text[256 * 1024 - 1] = '\0';
	big.text = text;
	CHECK_INT(store_begin(s), 0);
	CHECK(store_page_add(s, &p) > 0);
	CHECK_INT(store_commit(s), 0);
	CHECK_INT(store_limit_pages(s, 0), -1);
	CHECK_INT(store_limit_pages(s, 1), 0); /* = the current size */
	CHECK_INT(store_begin(s), 0);
	CHECK_INT(
	    store_frontier_add(s, "http://a.example/x", "a.example", 1, 0, 0), 1);
	CHECK_INT(store_page_add(s, &big), -1);
	CHECK(strstr(store_errmsg(s), "full") != NULL);
	CHECK(strstr(store_errmsg(s), "what was committed is kept") != NULL);
	store_rollback(s); /* SQLite may have rolled back already */
	CHECK_INT(store_counts(s, &c), 0);
	CHECK_INT(c.pages, 1);
	CHECK_INT(c.queued, 0);
	/* The URL rolled back is not known from memory either. */
	CHECK_INT(store_frontier_known(s, "http://a.example/x"), 0);
	store_close(s);
	check = query_text("PRAGMA integrity_check");
	CHECK_STR(check, "ok");
	free(check);
	s = open_new();
	CHECK(s != NULL);
	if (s != NULL) {
		CHECK_INT(store_begin(s), 0);
		CHECK(store_page_add(s, &big) > 0);
		CHECK_INT(store_commit(s), 0);
	}
	store_close(s);
out:
	free(text);
	tmp_teardown();
}

static void
test_hints(void)
{
	CHECK(store_hint(SQLITE_FULL) != NULL);
	CHECK(strstr(store_hint(SQLITE_CORRUPT), "integrity_check") != NULL);
	CHECK(store_hint(SQLITE_BUSY) != NULL);
	CHECK(store_hint(SQLITE_READONLY_DIRECTORY) != NULL);
	CHECK(strstr(store_hint(SQLITE_IOERR_WRITE), "full") != NULL);
	CHECK(store_hint(SQLITE_IOERR_READ) == NULL);
	CHECK(store_hint(SQLITE_CONSTRAINT) == NULL);
	CHECK(store_hint(SQLITE_OK) == NULL);
}

/* Commands' own connections: an error met while working is run time (1),
 * a database without what they need is the database's fault (2). */
static void
test_conn_fail(void)
{
	sqlite3 *a = NULL, *b = NULL;
	struct sdb *sa = NULL, *sb = NULL;
	char err[256];

	tmp_setup();
	CHECK_INT(sqlite3_open(tpath, &a), SQLITE_OK);
	CHECK_INT(sqlite3_open(tpath, &b), SQLITE_OK);
	CHECK(sqlite3_exec(a, "SELECT * FROM pages", NULL, NULL, NULL) !=
	    SQLITE_OK);
	CHECK((sa = sdb_of_sqlite(a)) != NULL);
	CHECK((sb = sdb_of_sqlite(b)) != NULL);
	CHECK_INT(store__conn_fail(sa, "x.db", err, sizeof(err), 1, 2), 2);
	CHECK_STR(err, "x.db: no such table: pages");
	/* Busy: b wants to write while a holds the lock. */
	CHECK_INT(sqlite3_exec(a, "CREATE TABLE t (x); BEGIN IMMEDIATE; "
	    "INSERT INTO t VALUES (1)", NULL, NULL, NULL), SQLITE_OK);
	CHECK_INT(sqlite3_exec(b, "BEGIN IMMEDIATE", NULL, NULL, NULL),
	    SQLITE_BUSY);
	CHECK_INT(store__conn_fail(sb, "x.db", err, sizeof(err), 1, 2), 1);
	CHECK(strncmp(err, "x.db: database is locked (", 26) == 0);
	CHECK(err[strlen(err) - 1] == ')');
	/* Nowhere to write the message: only the code. */
	CHECK_INT(store__conn_fail(sb, "x.db", NULL, 0, 1, 2), 1);
	sdb_close(sb);
	sdb_close(sa);
	tmp_teardown();
}

/* The same rule through a command's connection, which names its file. */
static void
test_conn_rows_fail(void)
{
	struct store_conn *c = NULL;
	char err[256], want[600];
	int64_t n = -1;

	tmp_setup();
	CHECK_INT(raw_exec("CREATE TABLE t (x)"), SQLITE_OK);
	CHECK_INT(store_conn_open(tpath, STORE_CONN_READ, &c, err,
	    sizeof(err), 1, 2), 0);
	CHECK(c != NULL);
	if (c != NULL) {
		CHECK_INT(store_conn_page_count(c, &n), -1);
		CHECK_INT(store_conn_fail(c, err, sizeof(err), 1, 2), 2);
		snprintf(want, sizeof(want), "%s: no such table: pages", tpath);
		CHECK_STR(err, want);
		CHECK(store_conn_page_url(c, 1) == NULL);
	}
	store_conn_close(c);
	store_conn_close(NULL);
	tmp_teardown();
}

/* Every stored word maps to its enum and back; others are UNKNOWN. */
static void
test_verdict_names(void)
{
	static const char *const words[] = { "unique", "exact", "near",
	    "redirect", "error", "skipped" };
	size_t i;

	CHECK_INT(STORE_VERDICT_COUNT, 7);
	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		CHECK(store_verdict_parse(words[i]) != STORE_VERDICT_UNKNOWN);
		CHECK_STR(store_verdict_name(store_verdict_parse(words[i])),
		    words[i]);
	}
	CHECK_INT(store_verdict_parse("unique"), STORE_VERDICT_UNIQUE);
	CHECK_INT(store_verdict_parse("skipped"), STORE_VERDICT_SKIPPED);
	CHECK_INT(store_verdict_parse(NULL), STORE_VERDICT_UNKNOWN);
	CHECK_INT(store_verdict_parse("Unique"), STORE_VERDICT_UNKNOWN);
	CHECK_INT(store_verdict_parse(""), STORE_VERDICT_UNKNOWN);
	CHECK(store_verdict_name(STORE_VERDICT_UNKNOWN) == NULL);
	CHECK(store_verdict_name(STORE_VERDICT_COUNT) == NULL);
}

static void
test_readonly_beside_writer(void)
{
	struct store_page p = page("http://a.example/", "unique", 1);
	struct store_counts c;
	struct store *w, *r;
	char err[256];

	tmp_setup();
	w = open_new();
	CHECK(w != NULL);
	CHECK_INT(store_page_add(w, &p), 1);
	r = store_open(tpath, STORE_READONLY, err, sizeof(err));
	CHECK(r != NULL);
	if (r != NULL) {
		CHECK_INT(store_counts(r, &c), 0);
		CHECK_INT(c.pages, 1);
		CHECK_INT(c.unique, 1);
		CHECK_INT(store_meta_set(r, "k", "v"), -1);
		CHECK(strstr(store_errmsg(r), "readonly") != NULL);
		CHECK_INT(store_begin(r), 0);
		CHECK_INT(store_commit(r), 0);
	}
	store_close(r);
	store_close(w);
	tmp_teardown();
}

static void
test_frontier_add_and_take_order(void)
{
	struct store_item it;
	struct store *s;

	tmp_setup();
	s = open_new();
	CHECK_INT(store_frontier_add(s, "http://a.example/1", "a.example", 0,
	    0, 0), 1);
	CHECK_INT(store_frontier_add(s, "http://b.example/", "b.example", 0,
	    0, 0), 1);
	CHECK_INT(store_frontier_add(s, "http://a.example/2", "a.example", 3,
	    0, 0), 1);
	CHECK_INT(store_frontier_add(s, "http://a.example/1", "a.example", 5,
	    0, 0), 0);

	memset(&it, 0, sizeof(it));
	CHECK_INT(store_frontier_take(s, "a.example", 0, &it), 1);
	CHECK_STR(it.url, "http://a.example/1");
	CHECK_INT(it.id, 1);
	CHECK_INT(it.depth, 0);
	CHECK_INT(it.parent, 0);
	CHECK_INT(it.tries, 0);
	store_item_clear(&it);
	CHECK(it.url == NULL);
	CHECK_INT(store_frontier_take(s, "a.example", 0, &it), 1);
	CHECK_STR(it.url, "http://a.example/2");
	CHECK_INT(it.id, 3);
	CHECK_INT(it.depth, 3);
	store_item_clear(&it);
	CHECK_INT(store_frontier_take(s, "a.example", 0, &it), 0);
	CHECK_INT(store_frontier_take(s, "c.example", 0, &it), 0);
	CHECK_INT(store_frontier_take(s, "b.example", 0, &it), 1);
	CHECK_STR(it.url, "http://b.example/");
	store_item_clear(&it);
	/* Known in any state: taken, or done. */
	CHECK_INT(store_frontier_add(s, "http://b.example/", "b.example", 0,
	    0, 0), 0);
	CHECK_INT(store_frontier_done(s, 2), 0);
	CHECK_INT(store_frontier_add(s, "http://b.example/", "b.example", 0,
	    0, 0), 0);
	store_close(s);
	tmp_teardown();
}

/* dup_hops goes in and comes out; a queued URL offered again by a page
 * fewer duplicates behind takes its count and parent, so does one in
 * flight (in the table: a URL taken ahead, or asked for again after a
 * crash, keeps it), a done one not. */
static void
test_frontier_dup_hops(void)
{
	struct store_item it;
	struct store *s;

	tmp_setup();
	s = open_new();
	CHECK_INT(store_frontier_add(s, "http://a.example/1", "a.example", 1,
	    0, 3), 1);
	CHECK_INT(store_frontier_add(s, "http://a.example/2", "a.example", 1,
	    0, 2), 1);
	CHECK_INT(store_frontier_add(s, "http://a.example/1", "a.example", 1,
	    0, 5), 0);
	CHECK_STR(raw_text("SELECT dup_hops FROM frontier WHERE id = 1"), "3");
	CHECK_INT(store_frontier_add(s, "http://a.example/1", "a.example", 1,
	    7, 1), 0);
	CHECK_STR(raw_text("SELECT dup_hops || ' ' || parent_id FROM frontier "
	    "WHERE id = 1"), "1 7");
	memset(&it, 0, sizeof(it));
	CHECK_INT(store_frontier_take(s, "a.example", 0, &it), 1);
	CHECK_INT(it.dup_hops, 1);
	CHECK_INT(it.parent, 7);
	store_item_clear(&it);
	CHECK_INT(store_frontier_add(s, "http://a.example/1", "a.example", 1,
	    0, 0), 0);
	CHECK_STR(raw_text("SELECT dup_hops FROM frontier WHERE id = 1"), "0");
	CHECK_INT(store_frontier_done(s, 1), 0);
	CHECK_INT(store_frontier_add(s, "http://a.example/1", "a.example", 1,
	    0, 0), 0);
	CHECK_INT(store_frontier_take(s, "a.example", 0, &it), 1);
	CHECK_INT(it.dup_hops, 2);
	store_item_clear(&it);
	CHECK_INT(store_frontier_add(s, "http://a.example/2", "a.example", 1,
	    0, 1), 0);
	CHECK_INT(store_frontier_done(s, 2), 0);
	CHECK_INT(store_frontier_add(s, "http://a.example/2", "a.example", 1,
	    0, 0), 0);
	CHECK_STR(raw_text("SELECT dup_hops FROM frontier WHERE id = 2"), "1");
	store_close(s);
	tmp_teardown();
}

/* What the link rule reads of a page, and the fruitful mark. */
static void
test_page_lineage(void)
{
	struct store_lineage l;
	struct store_page p;
	struct store *s;

	tmp_setup();
	s = open_new();
	p = page("http://a.example/", "unique", 1);
	CHECK_INT(store_page_add(s, &p), 1);
	p = page("http://a.example/r", "redirect", 2);
	p.parent = 1;
	CHECK_INT(store_page_add(s, &p), 2);
	p = page("http://a.example/n", "near", 3);
	p.parent = 2;
	CHECK_INT(store_page_add(s, &p), 3);
	CHECK_INT(store_page_lineage(s, 1, &l), 1);
	CHECK(l.unique && !l.duplicate && !l.redirect && !l.fruitful);
	CHECK_INT(l.parent, 0);
	CHECK_INT(l.verdict, STORE_VERDICT_UNIQUE);
	CHECK_INT(store_page_lineage(s, 2, &l), 1);
	CHECK(l.redirect && !l.unique && !l.duplicate);
	CHECK_INT(l.parent, 1);
	CHECK_INT(l.verdict, STORE_VERDICT_REDIRECT);
	CHECK_INT(store_page_lineage(s, 3, &l), 1);
	CHECK(l.duplicate && !l.fruitful);
	CHECK_INT(l.parent, 2);
	CHECK_INT(store_fruitful_add(s, 3), 0);
	CHECK_INT(store_fruitful_add(s, 3), 0);
	CHECK_INT(store_page_lineage(s, 3, &l), 1);
	CHECK(l.duplicate && l.fruitful);
	CHECK_INT(store_page_lineage(s, 9, &l), 0);
	CHECK_INT(l.parent, 0);
	store_close(s);
	tmp_teardown();
}

static void
test_frontier_requeue_not_before(void)
{
	struct store_item it;
	struct store *s;

	tmp_setup();
	s = open_new();
	memset(&it, 0, sizeof(it));
	store_frontier_add(s, "http://a.example/1", "a.example", 1, 0, 0);
	store_frontier_add(s, "http://a.example/2", "a.example", 1, 0, 0);
	CHECK_INT(store_frontier_take(s, "a.example", 10, &it), 1);
	CHECK_INT(it.id, 1);
	CHECK_INT(store_frontier_requeue(s, it.id, 100), 0);
	store_item_clear(&it);

	/* The older entry waits; the next one is due. */
	CHECK_INT(store_frontier_take(s, "a.example", 50, &it), 1);
	CHECK_INT(it.id, 2);
	store_item_clear(&it);
	CHECK_INT(store_frontier_take(s, "a.example", 99.5, &it), 0);
	CHECK_INT(store_frontier_take(s, "a.example", 100, &it), 1);
	CHECK_INT(it.id, 1);
	CHECK_INT(it.tries, 1);
	CHECK_INT(store_frontier_requeue(s, it.id, 0), 0);
	store_item_clear(&it);
	CHECK_INT(store_frontier_take(s, "a.example", 0, &it), 1);
	CHECK_INT(it.tries, 2);
	store_item_clear(&it);
	store_close(s);
	tmp_teardown();
}

static void
test_frontier_variants(void)
{
	static const char *urls[] = {
	    "http://a.example/p?x=1",
	    "http://a.example/p?x=2",
	    "http://a.example/p?y=1&x=1",
	    "http://a.example/p",
	    "http://a.example/p2?x=1",
	    "http://a.example/p/q?x=1",
	    "http://a.example/q?x=1",
	    "http://b.example/p?x=3",
	    "https://a.example/p?x=4",
	    "http://a.example/o?x=5",
	};
	struct store *s;
	char plan[1024];
	size_t i;

	tmp_setup();
	s = open_new();
	for (i = 0; i < sizeof(urls) / sizeof(urls[0]); i++)
		CHECK_INT(store_frontier_add(s, urls[i], "h", 0, 0, 0), 1);
	/* Only the three queries of that path on that host and scheme. */
	CHECK_INT(store_frontier_variants(s, "http://a.example/p?z=9", 100), 3);
	CHECK_INT(store_frontier_variants(s, "http://a.example/p?x=1", 100), 3);
	CHECK_INT(store_frontier_variants(s, "http://a.example/p?z=9", 2), 2);
	CHECK_INT(store_frontier_variants(s, "http://a.example/q?", 100), 1);
	CHECK_INT(store_frontier_variants(s, "http://a.example/r?a", 100), 0);
	/* No query, no cap: nothing to count. */
	CHECK_INT(store_frontier_variants(s, "http://a.example/p", 100), 0);
	CHECK_INT(store_frontier_variants(s, "http://a.example/p?x", 0), 0);
	CHECK_INT(store_frontier_known(s, "http://a.example/p?x=2"), 1);
	CHECK_INT(store_frontier_known(s, "http://a.example/p?x=3"), 0);
	/* Known URLs are asked of memory; a hash's match is checked on its
	 * row, found by id, never by a scan. */
	CHECK_INT(store_explain(s, "frontier_url_of", plan, sizeof(plan)), 0);
	CHECK(strstr(plan, "USING INTEGER PRIMARY KEY") != NULL);
	CHECK(strstr(plan, "SCAN") == NULL);
	CHECK_INT(store_explain(s, "frontier_lower_id", plan, sizeof(plan)), 0);
	CHECK(strstr(plan, "SCAN") == NULL);
	/* A new file keeps no index on the frontier's url (only appends). */
	CHECK_STR(raw_text("SELECT count(*) FROM pragma_index_list('frontier') "
	    "WHERE \"unique\""), "0");
	/* Queued again: known, not a second row. */
	CHECK_INT(store_frontier_add(s, "http://a.example/p?x=1", "h", 0, 0, 0),
	    0);
	CHECK_INT(store_frontier_variants(s, "http://a.example/p?z=9", 100), 3);
	store_close(s);
	/* Reopened: memory is built again from the table. */
	s = open_new();
	CHECK(s != NULL);
	if (s != NULL) {
		CHECK_INT(store_frontier_variants(s, "http://a.example/p?z=9",
		    100), 3);
		CHECK_INT(store_frontier_known(s, "http://a.example/o?x=5"), 1);
		CHECK_INT(store_frontier_known(s, "http://a.example/o?x=6"), 0);
		CHECK_INT(store_frontier_add(s, "http://a.example/o?x=5", "h", 0,
		    0, 0), 0);
		CHECK_INT(store_frontier_add(s, "http://a.example/o?x=6", "h", 0,
		    0, 0), 1);
		CHECK_INT(store_frontier_variants(s, "http://a.example/o?", 100),
		    2);
	}
	store_close(s);
	CHECK_STR(raw_text("SELECT count(*) FROM frontier"), "11");
	tmp_teardown();
}

static void
test_frontier_done_and_resume(void)
{
	struct store_counts c;
	struct store_item it;
	struct store *s;
	char err[256];

	tmp_setup();
	s = open_new();
	memset(&it, 0, sizeof(it));
	store_frontier_add(s, "http://a.example/1", "a.example", 0, 0, 0);
	store_frontier_add(s, "http://a.example/2", "a.example", 0, 0, 0);
	store_frontier_add(s, "http://a.example/3", "a.example", 0, 0, 0);
	store_frontier_add(s, "http://b.example/1", "b.example", 0, 0, 0);
	store_frontier_take(s, "a.example", 0, &it);
	CHECK_INT(store_frontier_done(s, it.id), 0);
	store_item_clear(&it);
	store_frontier_take(s, "a.example", 0, &it);
	store_item_clear(&it);
	store_frontier_take(s, "b.example", 0, &it);
	store_item_clear(&it);
	CHECK_INT(store_counts(s, &c), 0);
	CHECK_INT(c.queued, 1);
	CHECK_INT(c.inflight, 2);
	CHECK_INT(c.done, 1);
	store_close(s);

	s = store_open(tpath, 0, err, sizeof(err));
	CHECK(s != NULL);
	CHECK_INT(store_frontier_requeue_inflight(s), 2);
	CHECK_INT(store_frontier_requeue_inflight(s), 0);
	CHECK_INT(store_counts(s, &c), 0);
	CHECK_INT(c.queued, 3);
	CHECK_INT(c.inflight, 0);
	CHECK_INT(c.done, 1);
	CHECK_INT(store_frontier_take(s, "a.example", 0, &it), 1);
	CHECK_INT(it.id, 2);
	CHECK_INT(it.tries, 0);
	store_item_clear(&it);
	store_close(s);
	tmp_teardown();
}

struct host_seen {
	char hosts[4][32];   /* hosts in callback order */
	int64_t queued[4];   /* their counts */
	double not_before[4]; /* their earliest times */
	int n;               /* callbacks made */
	int stop_after;      /* return 7 on this call, 0 = never */
};

static int
host_cb(const char *host, int64_t queued, double not_before, void *arg)
{
	struct host_seen *h = arg;

	if (h->n < 4) {
		snprintf(h->hosts[h->n], sizeof(h->hosts[0]), "%s", host);
		h->queued[h->n] = queued;
		h->not_before[h->n] = not_before;
	}
	h->n++;
	return h->n == h->stop_after ? 7 : 0;
}

static void
test_frontier_hosts(void)
{
	struct host_seen h;
	struct store_item it;
	struct store *s;

	tmp_setup();
	s = open_new();
	memset(&it, 0, sizeof(it));
	store_frontier_add(s, "http://b.example/1", "b.example", 0, 0, 0);
	store_frontier_add(s, "http://a.example/1", "a.example", 0, 0, 0);
	store_frontier_add(s, "http://a.example/2", "a.example", 0, 0, 0);
	store_frontier_add(s, "http://a.example/3", "a.example", 0, 0, 0);
	store_frontier_add(s, "http://c.example/1", "c.example", 0, 0, 0);
	/* a: 1 and 2 requeued later, 3 still at 0 -> min 0 after this */
	store_frontier_take(s, "a.example", 0, &it);
	store_frontier_requeue(s, it.id, 30);
	store_item_clear(&it);
	/* b: its only entry requeued at 20 */
	store_frontier_take(s, "b.example", 0, &it);
	store_frontier_requeue(s, it.id, 20.5);
	store_item_clear(&it);
	/* c: in flight only, so not listed */
	store_frontier_take(s, "c.example", 0, &it);
	store_item_clear(&it);

	memset(&h, 0, sizeof(h));
	CHECK_INT(store_frontier_hosts(s, host_cb, &h), 0);
	CHECK_INT(h.n, 2);
	CHECK_STR(h.hosts[0], "a.example");
	CHECK_INT(h.queued[0], 3);
	CHECK(h.not_before[0] == 0);
	CHECK_STR(h.hosts[1], "b.example");
	CHECK_INT(h.queued[1], 1);
	CHECK(h.not_before[1] == 20.5);

	memset(&h, 0, sizeof(h));
	h.stop_after = 1;
	CHECK_INT(store_frontier_hosts(s, host_cb, &h), 7);
	CHECK_INT(h.n, 1);
	/* Stopping early left the statement reusable. */
	memset(&h, 0, sizeof(h));
	CHECK_INT(store_frontier_hosts(s, host_cb, &h), 0);
	CHECK_INT(h.n, 2);
	store_close(s);
	tmp_teardown();
}

static void
test_pages_duplicates_counts(void)
{
	struct store_page p;
	struct store_counts c;
	struct store *s;
	int64_t a, b, d;

	tmp_setup();
	s = open_new();
	CHECK_INT(store_counts(s, &c), 0);
	CHECK_INT(c.pages, 0);
	CHECK_INT(c.max_seq, 0);

	p = page("http://a.example/", "unique", 1);
	p.title = "Home";
	p.text = "hello world";
	p.md5 = "5eb63bbbe01eeed093cb22bb8f5acdc3";
	a = store_page_add(s, &p);
	CHECK_INT(a, 1);
	p = page("http://a.example/copy", "exact", 2);
	p.parent = a;
	p.depth = 1;
	b = store_page_add(s, &p);
	CHECK_INT(b, 2);
	p = page("http://a.example/near", "near", 3);
	d = store_page_add(s, &p);
	CHECK_INT(d, 3);
	p = page("http://a.example/old", "redirect", 4);
	p.location = "http://a.example/new";
	p.status = 301;
	CHECK_INT(store_page_add(s, &p), 4);
	p = page("http://a.example/x", "error", 5);
	CHECK_INT(store_page_add(s, &p), 5);
	p = page("http://a.example/y", "skipped", 9);
	CHECK_INT(store_page_add(s, &p), 6);

	CHECK_INT(store_duplicate_add(s, b, a, "md5", 100), 0);
	CHECK_INT(store_duplicate_add(s, d, a, "simhash", 96.875), 0);
	CHECK_INT(store_duplicate_add(s, d, b, "ssdeep", 88), 0);

	CHECK_INT(store_counts(s, &c), 0);
	CHECK_INT(c.pages, 6);
	CHECK_INT(c.unique, 1);
	CHECK_INT(c.exact, 1);
	CHECK_INT(c.near, 1);
	CHECK_INT(c.redirect, 1);
	CHECK_INT(c.error, 1);
	CHECK_INT(c.skipped, 1);
	CHECK_INT(c.duplicates, 3);
	CHECK_INT(c.max_seq, 9);
	store_close(s);

	CHECK_STR(raw_text("SELECT parent_id FROM pages WHERE id = 1"),
	    "(null)");
	CHECK_STR(raw_text("SELECT parent_id FROM pages WHERE id = 2"), "1");
	CHECK_STR(raw_text("SELECT title || '|' || text FROM pages "
	    "WHERE id = 1"), "Home|hello world");
	CHECK_STR(raw_text("SELECT location FROM pages WHERE id = 4"),
	    "http://a.example/new");
	CHECK_STR(raw_text("SELECT group_concat(page_id || '>' || "
	    "original_id || ':' || method || ':' || percentage, ' ') "
	    "FROM duplicates"), "2>1:md5:100.0 3>1:simhash:96.875 "
	    "3>2:ssdeep:88.0");
	tmp_teardown();
}

static void
test_constraints_refused(void)
{
	struct store_page p;
	struct store *s;

	tmp_setup();
	s = open_new();
	/* An unknown verdict has no word: never written. */
	p = page("http://a.example/", "maybe", 1);
	CHECK_INT(p.verdict, STORE_VERDICT_UNKNOWN);
	CHECK_INT(store_page_add(s, &p), -1);
	CHECK(strstr(store_errmsg(s), "NOT NULL constraint failed: "
	    "pages.verdict") != NULL);
	p = page("http://a.example/", "unique", 1);
	CHECK_INT(store_page_add(s, &p), 1);
	p = page("http://a.example/", "unique", 2);
	CHECK_INT(store_page_add(s, &p), -1);
	CHECK(strstr(store_errmsg(s), "UNIQUE constraint failed: pages.url")
	    != NULL);
	p = page("http://a.example/b", "unique", 3);
	p.parent = 99;
	CHECK_INT(store_page_add(s, &p), -1);
	CHECK(strstr(store_errmsg(s), "FOREIGN KEY") != NULL);
	CHECK_INT(store_duplicate_add(s, 1, 42, "md5", 100), -1);
	CHECK(strstr(store_errmsg(s), "FOREIGN KEY") != NULL);
	CHECK_INT(store_duplicate_add(s, 1, 1, NULL, 100), -1);
	/* The statement still works after the failures. */
	p = page("http://a.example/c", "unique", 4);
	CHECK_INT(store_page_add(s, &p), 2);
	store_close(s);
	tmp_teardown();
}

struct fp_seen {
	int64_t id[8];      /* ids in callback order */
	uint64_t simhash[8]; /* their simhashes */
	int has[8];         /* has_simhash */
	char md5[8][40];    /* md5 or "(null)" */
	char ssdeep[8][40]; /* ssdeep or "(null)" */
	char minhash[8][16]; /* minhash bytes, or "(null)" */
	size_t minhash_len[8]; /* their length */
	int n;              /* callbacks made */
	int stop_after;     /* return 5 on this call, 0 = never */
};

static int
fp_cb(const struct store_fingerprints *fp, void *arg)
{
	struct fp_seen *f = arg;

	if (f->n < 8) {
		f->id[f->n] = fp->id;
		f->simhash[f->n] = fp->simhash;
		f->has[f->n] = fp->has_simhash;
		snprintf(f->md5[f->n], sizeof(f->md5[0]), "%s",
		    fp->md5 ? fp->md5 : "(null)");
		snprintf(f->ssdeep[f->n], sizeof(f->ssdeep[0]), "%s",
		    fp->ssdeep ? fp->ssdeep : "(null)");
		snprintf(f->minhash[f->n], sizeof(f->minhash[0]), "(null)");
		if (fp->minhash != NULL &&
		    fp->minhash_len < sizeof(f->minhash[0])) {
			memcpy(f->minhash[f->n], fp->minhash,
			    fp->minhash_len);
			f->minhash[f->n][fp->minhash_len] = '\0';
		}
		f->minhash_len[f->n] = fp->minhash_len;
	}
	f->n++;
	return f->n == f->stop_after ? 5 : 0;
}

static void
test_fingerprints_and_simhash(void)
{
	struct store_page p;
	struct fp_seen f;
	struct store *s;

	tmp_setup();
	s = open_new();
	/* Inserted out of seq order: loading must follow seq, not id. */
	p = page("http://a.example/3", "near", 30);
	p.has_simhash = 1;
	p.simhash = UINT64_C(0xFFFFFFFFFFFFFFFF);
	p.md5 = "m3";
	p.ssdeep = "3:abc:def";
	/* A blob: bytes kept as given, NUL included. */
	p.minhash = "mh\0sig";
	p.minhash_len = 6;
	p.canonical = "http://a.example/1";
	CHECK_INT(store_page_add(s, &p), 1);
	p = page("http://a.example/1", "unique", 10);
	p.has_simhash = 1;
	p.simhash = UINT64_C(0x8000000000000000);
	p.md5 = "m1";
	CHECK_INT(store_page_add(s, &p), 2);
	p = page("http://a.example/r", "redirect", 15);
	p.has_simhash = 1;
	p.simhash = 1;
	CHECK_INT(store_page_add(s, &p), 3);
	p = page("http://a.example/2", "exact", 20);
	p.md5 = "m2";
	CHECK_INT(store_page_add(s, &p), 4);
	p = page("http://a.example/e", "error", 25);
	CHECK_INT(store_page_add(s, &p), 5);
	p = page("http://a.example/0", "unique", 5);
	p.has_simhash = 1;
	p.simhash = 0;
	CHECK_INT(store_page_add(s, &p), 6);

	memset(&f, 0, sizeof(f));
	CHECK_INT(store_load_fingerprints(s, fp_cb, &f), 0);
	CHECK_INT(f.n, 4);
	CHECK_INT(f.id[0], 6);
	CHECK_INT(f.has[0], 1);
	CHECK(f.simhash[0] == 0);
	CHECK_STR(f.md5[0], "(null)");
	CHECK_INT(f.id[1], 2);
	CHECK(f.simhash[1] == UINT64_C(0x8000000000000000));
	CHECK_STR(f.md5[1], "m1");
	CHECK_STR(f.ssdeep[1], "(null)");
	CHECK_INT(f.id[2], 4);
	CHECK_INT(f.has[2], 0);
	CHECK_STR(f.md5[2], "m2");
	CHECK_INT(f.id[3], 1);
	CHECK_INT(f.has[3], 1);
	CHECK(f.simhash[3] == UINT64_C(0xFFFFFFFFFFFFFFFF));
	CHECK_STR(f.ssdeep[3], "3:abc:def");
	CHECK_INT(f.minhash_len[3], 6);
	CHECK(memcmp(f.minhash[3], "mh\0sig", 6) == 0);
	CHECK_STR(f.minhash[1], "(null)");
	CHECK_INT(f.minhash_len[1], 0);

	memset(&f, 0, sizeof(f));
	f.stop_after = 2;
	CHECK_INT(store_load_fingerprints(s, fp_cb, &f), 5);
	CHECK_INT(f.n, 2);
	store_close(s);

	CHECK_STR(raw_text("SELECT simhash FROM pages WHERE id = 1"), "-1");
	CHECK_STR(raw_text("SELECT simhash FROM pages WHERE id = 2"),
	    "-9223372036854775808");
	CHECK_STR(raw_text("SELECT typeof(simhash) FROM pages WHERE id = 4"),
	    "null");
	CHECK_STR(raw_text("SELECT typeof(minhash) FROM pages WHERE id = 1"),
	    "blob");
	CHECK_STR(raw_text("SELECT typeof(minhash) FROM pages WHERE id = 4"),
	    "null");
	CHECK_STR(raw_text("SELECT canonical FROM pages WHERE id = 1"),
	    "http://a.example/1");
	CHECK_STR(raw_text("SELECT typeof(canonical) FROM pages WHERE id = 4"),
	    "null");
	tmp_teardown();
}

static void
test_rollback_and_commit(void)
{
	struct store_page p = page("http://a.example/", "unique", 1);
	struct store_counts c;
	struct store *s;
	char err[256], *v;

	tmp_setup();
	s = open_new();
	CHECK_INT(store_begin(s), 0);
	CHECK_INT(store_page_add(s, &p), 1);
	CHECK_INT(store_frontier_add(s, "http://a.example/x", "a.example", 1,
	    1, 0), 1);
	CHECK_INT(store_meta_set(s, "pages", "1"), 0);
	CHECK_INT(store_begin(s), -1);
	CHECK_INT(store_rollback(s), 0);
	CHECK_INT(store_counts(s, &c), 0);
	CHECK_INT(c.pages, 0);
	CHECK_INT(c.queued, 0);
	CHECK(store_meta_get(s, "pages", NULL) == NULL);
	CHECK_INT(store_commit(s), -1);

	CHECK_INT(store_begin(s), 0);
	CHECK_INT(store_page_add(s, &p), 1);
	CHECK_INT(store_commit(s), 0);
	/* Closing inside a batch commits nothing. */
	CHECK_INT(store_begin(s), 0);
	CHECK_INT(store_meta_set(s, "pages", "2"), 0);
	store_close(s);

	s = store_open(tpath, 0, err, sizeof(err));
	CHECK(s != NULL);
	CHECK_INT(store_counts(s, &c), 0);
	CHECK_INT(c.pages, 1);
	v = store_meta_get(s, "pages", NULL);
	CHECK(v == NULL);
	free(v);
	store_close(s);
	tmp_teardown();
}

static void
test_meta(void)
{
	struct store *s;
	char *v;
	int err = 99;

	tmp_setup();
	s = open_new();
	v = store_meta_get(s, "absent", &err);
	CHECK(v == NULL);
	CHECK_INT(err, 0);
	CHECK_INT(store_meta_set(s, "max_pages", "100"), 0);
	CHECK_INT(store_meta_set(s, "max_pages", "250"), 0);
	err = 99;
	v = store_meta_get(s, "max_pages", &err);
	CHECK_STR(v, "250");
	CHECK_INT(err, 0);
	free(v);
	CHECK_INT(store_meta_set(s, "empty", ""), 0);
	v = store_meta_get(s, "empty", NULL);
	CHECK_STR(v, "");
	free(v);
	CHECK_INT(store_meta_set(s, "null", NULL), -1);
	CHECK(strstr(store_errmsg(s), "NOT NULL") != NULL);
	store_close(s);
	CHECK_STR(raw_text("SELECT count(*) FROM meta"), "2");
	tmp_teardown();
}

static void
test_query_plans(void)
{
	struct store *s;
	char plan[1024];

	tmp_setup();
	s = open_new();
	CHECK_INT(store_explain(s, "frontier_take", plan, sizeof(plan)), 0);
	CHECK(strstr(plan, "SEARCH frontier USING INDEX frontier_take "
	    "(host=? AND state=?)") != NULL);
	CHECK(strstr(plan, "SCAN") == NULL);
	CHECK(strstr(plan, "TEMP B-TREE") == NULL);
	CHECK_INT(store_explain(s, "frontier_hosts", plan, sizeof(plan)), 0);
	CHECK(strstr(plan, "SEARCH frontier USING COVERING INDEX "
	    "frontier_queued (state=?)") != NULL);
	CHECK(strstr(plan, "TEMP B-TREE") == NULL);
	CHECK_INT(store_explain(s, "frontier_requeue_inflight", plan,
	    sizeof(plan)), 0);
	CHECK(strstr(plan, "SCAN") == NULL);
	CHECK_INT(store_explain(s, "max_seq", plan, sizeof(plan)), 0);
	CHECK(strstr(plan, "SCAN") == NULL);
	CHECK_INT(store_explain(s, "no_such", plan, sizeof(plan)), -1);
	CHECK_INT(store_explain(s, "frontier_take", plan, 8), -1);
	store_close(s);
	tmp_teardown();
}

static void
test_robots_round_trip(void)
{
	static const char txt[] = "User-agent: *\0Disallow: /x\0\0end";
	struct store_robots r;
	struct store *s;
	size_t big_len = 600 * 1024, i;
	char *big;
	char err[256];

	tmp_setup();
	s = open_new();
	big = malloc(big_len);
	CHECK(s != NULL && big != NULL);
	if (s == NULL || big == NULL)
		goto out;
	/* Every byte value, NULs included, across more than a page. */
	for (i = 0; i < big_len; i++)
		big[i] = (char)(i * 7 % 256);
	CHECK_INT(store_robots_put(s, "http://a.example", 200, txt,
	    sizeof(txt) - 1, 1700000000.25, 1700086400.5, 0), 0);
	CHECK_INT(store_robots_put(s, "https://b.example:8443", 200, big,
	    big_len, 1.5, 2.5, 0), 0);
	CHECK_INT(store_robots_put(s, "http://c.example", 0, NULL, 0, 3, 4, 2),
	    0);
	store_close(s);

	/* A resumed crawl finds them. */
	s = store_open(tpath, 0, err, sizeof(err));
	CHECK(s != NULL);
	if (s == NULL)
		goto out;
	CHECK_INT(store_robots_get(s, "http://a.example", &r), 1);
	CHECK_INT(r.status, 200);
	CHECK_INT(r.len, sizeof(txt) - 1);
	CHECK(r.body != NULL && memcmp(r.body, txt, sizeof(txt) - 1) == 0);
	CHECK(r.body != NULL && r.body[r.len] == '\0');
	CHECK(r.fetched_at == 1700000000.25);
	CHECK(r.expires_at == 1700086400.5);
	CHECK_INT(r.failures, 0);
	store_robots_clear(&r);
	CHECK(r.body == NULL && r.len == 0);

	CHECK_INT(store_robots_get(s, "https://b.example:8443", &r), 1);
	CHECK_INT(r.len, big_len);
	CHECK(r.body != NULL && memcmp(r.body, big, big_len) == 0);
	CHECK(r.body != NULL && r.body[r.len] == '\0');
	store_robots_clear(&r);

	/* A network error has no body; it still comes back as "". */
	CHECK_INT(store_robots_get(s, "http://c.example", &r), 1);
	CHECK_INT(r.status, 0);
	CHECK_INT(r.failures, 2);
	CHECK_STR(r.body, "");
	CHECK_INT(r.len, 0);
	store_robots_clear(&r);
	store_robots_clear(NULL);
out:
	free(big);
	store_close(s);
	tmp_teardown();
}

static void
test_robots_replace(void)
{
	struct store_robots r;
	struct store *s;

	tmp_setup();
	s = open_new();
	CHECK_INT(store_robots_put(s, "http://a.example", 503, NULL, 0, 10, 20,
	    1), 0);
	CHECK_INT(store_robots_put(s, "http://a.example", 200, "Allow: /", 8,
	    30, 40, 0), 0);
	CHECK_INT(store_robots_get(s, "http://a.example", &r), 1);
	CHECK_INT(r.status, 200);
	CHECK_STR(r.body, "Allow: /");
	CHECK(r.fetched_at == 30 && r.expires_at == 40);
	CHECK_INT(r.failures, 0);
	store_robots_clear(&r);
	store_close(s);
	CHECK_STR(raw_text("SELECT count(*) FROM robots"), "1");
	tmp_teardown();
}

static void
test_robots_absent(void)
{
	struct store_robots r;
	struct store *s;

	tmp_setup();
	s = open_new();
	memset(&r, 0xff, sizeof(r));
	CHECK_INT(store_robots_get(s, "http://a.example", &r), 0);
	CHECK(r.body == NULL && r.len == 0 && r.status == 0);
	store_robots_put(s, "http://a.example", 200, "", 0, 1, 2, 0);
	/* Origins are compared exactly: the caller normalises them. */
	CHECK_INT(store_robots_get(s, "http://a.example:80", &r), 0);
	CHECK_INT(store_robots_get(s, "https://a.example", &r), 0);
	CHECK_INT(store_robots_put(s, "http://b.example", 200, NULL, 5, 1, 2,
	    0), -1);
	CHECK_INT(store_robots_put(s, NULL, 200, "", 0, 1, 2, 0), -1);
	CHECK(strstr(store_errmsg(s), "NOT NULL") != NULL);
	store_close(s);
	CHECK_STR(raw_text("SELECT count(*) FROM robots"), "1");
	tmp_teardown();
}

static void
test_host_round_trip(void)
{
	struct store_host h, got;
	struct store *s;
	char err[256];

	tmp_setup();
	s = open_new();
	memset(&h, 0, sizeof(h));
	h.not_before = 1700000123.75;
	h.backoff_ms = 64000;
	h.failures = 3;
	CHECK_INT(store_host_put(s, "a.example", &h), 0);
	CHECK_INT(store_host_put(s, NULL, &h), -1);
	memset(&got, 0xff, sizeof(got));
	CHECK_INT(store_host_get(s, "b.example", &got), 0);
	CHECK(got.gave_up == NULL && got.failures == 0);
	CHECK_INT(store_host_get(s, "a.example", &got), 1);
	CHECK(got.not_before == 1700000123.75);
	CHECK_INT(got.backoff_ms, 64000);
	CHECK_INT(got.failures, 3);
	CHECK(got.gave_up == NULL);
	store_host_clear(&got);

	h.gave_up = "too many consecutive errors";
	h.failures = 10;
	CHECK_INT(store_host_put(s, "a.example", &h), 0);
	store_close(s);
	CHECK_STR(raw_text("SELECT count(*) FROM hosts"), "1");

	s = store_open(tpath, 0, err, sizeof(err));
	CHECK(s != NULL);
	if (s != NULL) {
		CHECK_INT(store_host_get(s, "a.example", &got), 1);
		CHECK_STR(got.gave_up, "too many consecutive errors");
		CHECK_INT(got.failures, 10);
		store_host_clear(&got);
		CHECK(got.gave_up == NULL);
		/* Back to crawled: gave_up NULL again. */
		h.gave_up = NULL;
		h.failures = 0;
		CHECK_INT(store_host_put(s, "a.example", &h), 0);
		CHECK_INT(store_host_get(s, "a.example", &got), 1);
		CHECK(got.gave_up == NULL);
		CHECK_INT(got.failures, 0);
		store_host_clear(&got);
	}
	store_host_clear(NULL);
	store_close(s);
	tmp_teardown();
}

struct page_seen {
	char host[4][32]; /* hosts in call order */
	int64_t pages[4]; /* their counts */
	int n;            /* calls */
	int stop_after;   /* return 7 on this call, 0: never */
};

static int
pages_cb(const char *host, int64_t pages, void *arg)
{
	struct page_seen *ps = arg;

	if (ps->n < 4) {
		snprintf(ps->host[ps->n], sizeof(ps->host[0]), "%s", host);
		ps->pages[ps->n] = pages;
	}
	ps->n++;
	return ps->n == ps->stop_after ? 7 : 0;
}

static void
test_host_pages(void)
{
	static const char *const urls[] = { "http://a.example/1",
	    "http://b.example/1", "http://a.example/2", "http://a.example/3",
	    "http://c.example/1", "http://b.example/2" };
	static const char *const hosts[] = { "a.example", "b.example",
	    "a.example", "a.example", "c.example", "b.example" };
	struct store_page p;
	struct page_seen ps;
	struct store *s;
	size_t i;

	tmp_setup();
	s = open_new();
	memset(&ps, 0, sizeof(ps));
	CHECK_INT(store_host_pages(s, pages_cb, &ps), 0);
	CHECK_INT(ps.n, 0);
	for (i = 0; i < sizeof(urls) / sizeof(urls[0]); i++) {
		p = page(urls[i], i == 2 ? "error" : "unique",
		    (int64_t)i + 1);
		p.host = hosts[i];
		CHECK(store_page_add(s, &p) > 0);
	}
	CHECK_INT(store_host_pages(s, pages_cb, &ps), 0);
	CHECK_INT(ps.n, 3);
	CHECK_STR(ps.host[0], "a.example");
	CHECK_INT(ps.pages[0], 3);
	CHECK_STR(ps.host[1], "b.example");
	CHECK_INT(ps.pages[1], 2);
	CHECK_STR(ps.host[2], "c.example");
	CHECK_INT(ps.pages[2], 1);
	memset(&ps, 0, sizeof(ps));
	ps.stop_after = 2;
	CHECK_INT(store_host_pages(s, pages_cb, &ps), 7);
	CHECK_INT(ps.n, 2);
	/* Stopping early left the statement reusable. */
	memset(&ps, 0, sizeof(ps));
	CHECK_INT(store_host_pages(s, pages_cb, &ps), 0);
	CHECK_INT(ps.n, 3);
	store_close(s);
	tmp_teardown();
}

static void
test_frontier_untake(void)
{
	struct store_counts c;
	struct store_item it;
	struct store *s;

	tmp_setup();
	s = open_new();
	memset(&it, 0, sizeof(it));
	store_frontier_add(s, "http://a.example/1", "a.example", 0, 0, 0);
	store_frontier_add(s, "http://a.example/2", "a.example", 1, 0, 0);
	CHECK_INT(store_frontier_take(s, "a.example", 10, &it), 1);
	CHECK_INT(store_frontier_requeue(s, it.id, 20), 0);
	store_item_clear(&it);
	CHECK_INT(store_frontier_take(s, "a.example", 20, &it), 1);
	CHECK_INT(it.id, 1);
	CHECK_INT(it.tries, 1);
	CHECK_INT(store_frontier_untake(s, it.id), 0);
	store_item_clear(&it);
	CHECK_INT(store_counts(s, &c), 0);
	CHECK_INT(c.queued, 2);
	CHECK_INT(c.inflight, 0);

	/* not_before kept: before 20 only the younger entry is due. */
	CHECK_INT(store_frontier_take(s, "a.example", 19, &it), 1);
	CHECK_INT(it.id, 2);
	CHECK_INT(store_frontier_untake(s, it.id), 0);
	store_item_clear(&it);
	/* Taken again first, its tries not counted. */
	CHECK_INT(store_frontier_take(s, "a.example", 20, &it), 1);
	CHECK_INT(it.id, 1);
	CHECK_INT(it.tries, 1);
	CHECK_INT(store_frontier_done(s, it.id), 0);
	/* A done entry stays done. */
	CHECK_INT(store_frontier_untake(s, it.id), 0);
	store_item_clear(&it);
	CHECK_INT(store_counts(s, &c), 0);
	CHECK_INT(c.done, 1);
	CHECK_INT(c.queued, 1);
	store_close(s);
	CHECK_STR(raw_text("SELECT not_before FROM frontier WHERE id = 1"),
	    "20.0");
	CHECK_STR(raw_text("SELECT tries FROM frontier WHERE id = 2"), "0");
	tmp_teardown();
}

/* The columns of pages, in order. */
#define PAGES_COLUMNS \
	"SELECT group_concat(name, ',') FROM (SELECT name FROM " \
	"pragma_table_info('pages') ORDER BY cid)"
/* ... and of frontier. */
#define FRONTIER_COLUMNS \
	"SELECT group_concat(name, ',') FROM (SELECT name FROM " \
	"pragma_table_info('frontier') ORDER BY cid)"
/* The tables and indexes of a database (SQLite's own aside), by name. */
#define OBJECTS \
	"SELECT group_concat(name, ',') FROM (SELECT name FROM sqlite_master " \
	"WHERE name NOT LIKE 'sqlite_%' ORDER BY name)"

/* In s, the first occurrence of from (which must be there) becomes to. */
static void
replace_in(char *s, size_t size, const char *from, const char *to)
{
	char *at = strstr(s, from);

	CHECK(at != NULL);
	if (at == NULL)
		return;
	CHECK(strlen(s) - strlen(from) + strlen(to) < size);
	memmove(at + strlen(to), at + strlen(from),
	    strlen(at + strlen(from)) + 1);
	memcpy(at, to, strlen(to));
}

/*
 * A database as made before the robots, hosts, links, ranks, page_tdw,
 * fruitful, scale-out, archive and recrawl tables and the pages.minhash,
 * pages.canonical, pages.worker, pages.etag, pages.last_modified and
 * frontier.dup_hops columns
 * existed: today's schema without them, one queued URL and one page.
 */
static void
make_old_db(void)
{
	static const char now[] =
	    "\ttext TEXT, -- extracted text, when kept\n"
	    "\tminhash BLOB, -- [added] MinHash signature: k 32-bit minima, "
	    "little-endian\n"
	    "\tcanonical TEXT, -- [added] declared canonical URL (Link header, "
	    "else\n"
	    "\t-- <link rel=canonical>), absolute and normalised; NULL when "
	    "none\n"
	    "\tworker TEXT, -- [added] the process that judged the page: its\n"
	    "\t-- --worker name, by default \"machine:pid\"\n"
	    "\tetag TEXT, -- [added] the response's ETag, for conditional "
	    "recrawls\n"
	    "\tlast_modified TEXT -- [added] its Last-Modified, likewise\n";
	static const char then[] = "\ttext TEXT -- extracted text, when kept\n";
	static const char fnow[] =
	    "\tparent_id INTEGER, -- pages.id of the linking page, NULL for "
	    "seeds\n"
	    "\tdup_hops INTEGER NOT NULL DEFAULT 0 -- [added] duplicates in a "
	    "row behind it\n";
	static const char fthen[] =
	    "\tparent_id INTEGER -- pages.id of the linking page, NULL for "
	    "seeds\n";
	char sql[16384], *tail;
	size_t n;

	n = (size_t)snprintf(sql, sizeof(sql), "%s", store_schema());
	CHECK(n < sizeof(sql));
	tail = strstr(sql, "\n-- [later]");
	CHECK(tail != NULL);
	if (tail == NULL)
		return;
	*tail = '\0';
	replace_in(sql, sizeof(sql), now, then);
	replace_in(sql, sizeof(sql), fnow, fthen);
	/* Schema 1 kept the frontier's URLs unique by an index. */
	replace_in(sql, sizeof(sql), "\turl TEXT NOT NULL, -- normalised",
	    "\turl TEXT NOT NULL UNIQUE, -- normalised");
	CHECK_INT(raw_exec(sql), SQLITE_OK);
	CHECK_INT(raw_exec("PRAGMA application_id = 1313034828; "
	    "PRAGMA user_version = 1; "
	    "INSERT INTO frontier (url, host, depth) "
	    "VALUES ('http://a.example/', 'a.example', 0); "
	    "INSERT INTO pages (url, host, md5, verdict, depth, seq, "
	    "fetched_at) VALUES ('http://a.example/', 'a.example', 'm1', "
	    "'unique', 0, 1, 1700000000.5)"), SQLITE_OK);
	CHECK_STR(raw_text("SELECT count(*) FROM sqlite_master "
	    "WHERE type = 'table'"), "4");
	CHECK(strstr(raw_text(PAGES_COLUMNS), "minhash") == NULL);
}

/* For reading an older database: any TDW vector is a failure. */
static int
tdw_cb(int64_t id, const void *vec, size_t len, void *arg)
{
	(void)id;
	(void)vec;
	(void)len;
	(void)arg;
	CHECK(0);
	return 0;
}

struct tdw_seen {
	int64_t id[4];     /* page ids in call order */
	char vec[4][8];    /* their vectors, as text */
	int n;             /* calls */
	int stop_after;    /* return 9 on this call, 0: never */
};

static int
tdw_seen_cb(int64_t id, const void *vec, size_t len, void *arg)
{
	struct tdw_seen *t = arg;

	if (t->n < 4 && len < sizeof(t->vec[0])) {
		t->id[t->n] = id;
		memcpy(t->vec[t->n], vec, len);
		t->vec[t->n][len] = '\0';
	}
	t->n++;
	return t->n == t->stop_after ? 9 : 0;
}

static void
test_tdw_round_trip(void)
{
	struct store_page p;
	struct tdw_seen t;
	struct store *s;
	char url[32];
	int i;

	tmp_setup();
	s = open_new();
	for (i = 1; i <= 4; i++) {
		snprintf(url, sizeof(url), "http://a.example/%d", i);
		p = page(url, "unique", i);
		CHECK_INT(store_page_add(s, &p), i);
	}
	/* Added out of order, one replaced, one page without: read back in
	 * page order. Bytes are kept as given, NULs included. */
	CHECK_INT(store_tdw_add(s, 3, "c\0c", 3), 0);
	CHECK_INT(store_tdw_add(s, 1, "a", 1), 0);
	CHECK_INT(store_tdw_add(s, 4, "x", 1), 0);
	CHECK_INT(store_tdw_add(s, 4, "dd", 2), 0);
	CHECK_INT(store_tdw_add(s, 2, NULL, 0), -1);
	CHECK_INT(store_tdw_add(s, 9, "z", 1), -1); /* no such page */
	memset(&t, 0, sizeof(t));
	CHECK_INT(store_load_tdw(s, tdw_seen_cb, &t), 0);
	CHECK_INT(t.n, 3);
	CHECK_INT(t.id[0], 1);
	CHECK_STR(t.vec[0], "a");
	CHECK_INT(t.id[1], 3);
	CHECK(memcmp(t.vec[1], "c\0c", 3) == 0);
	CHECK_INT(t.id[2], 4);
	CHECK_STR(t.vec[2], "dd");
	memset(&t, 0, sizeof(t));
	t.stop_after = 2;
	CHECK_INT(store_load_tdw(s, tdw_seen_cb, &t), 9);
	CHECK_INT(t.n, 2);
	store_close(s);
	CHECK_STR(raw_text("SELECT count(*) FROM page_tdw"), "3");
	tmp_teardown();
}

struct blocks_seen {
	char host[4][16]; /* hosts in call order */
	char verdict[4][8]; /* their pages' verdicts */
	size_t len[4];    /* blob lengths */
	int n;            /* calls */
};

static int
blocks_cb(const char *host, const char *verdict, const void *blob,
    size_t len, void *arg)
{
	struct blocks_seen *b = arg;

	(void)blob;
	if (b->n < 4) {
		snprintf(b->host[b->n], sizeof(b->host[0]), "%s", host);
		snprintf(b->verdict[b->n], sizeof(b->verdict[0]), "%s",
		    verdict);
		b->len[b->n] = len;
	}
	b->n++;
	return 0;
}

/* Shingle sets: kept per page, read back by id and, for the template,
 * in fetch order with the page's host. */
static void
test_shingles_round_trip(void)
{
	struct store_page p;
	struct blocks_seen b;
	struct store *s;
	void *blob;
	size_t len;

	tmp_setup();
	s = open_new();
	p = page("http://a.example/1", "unique", 2);
	CHECK_INT(store_page_add(s, &p), 1);
	p = page("http://b.example/2", "near", 1);
	p.host = "b.example";
	CHECK_INT(store_page_add(s, &p), 2);
	CHECK_INT(store_shingles_add(s, 1, "one", 3), 0);
	CHECK_INT(store_shingles_add(s, 2, "two!", 4), 0);
	CHECK_INT(store_shingles_add(s, 9, "x", 1), -1); /* no such page */
	CHECK_INT(store_shingles_get(s, 1, &blob, &len), 0);
	CHECK(blob != NULL && len == 3 && memcmp(blob, "one", 3) == 0);
	free(blob);
	CHECK_INT(store_shingles_get(s, 3, &blob, &len), 0);
	CHECK(blob == NULL && len == 0);
	memset(&b, 0, sizeof(b));
	CHECK_INT(store_load_blocks(s, blocks_cb, &b), 0);
	CHECK_INT(b.n, 2);
	CHECK_STR(b.host[0], "b.example"); /* seq 1 first */
	CHECK_STR(b.verdict[0], "near");
	CHECK_INT(b.len[0], 4);
	CHECK_STR(b.host[1], "a.example");
	CHECK_STR(b.verdict[1], "unique");
	store_close(s);
	tmp_teardown();
}

/* A database of the politeness era gets page_tdw on a writer open. */
static void
test_tdw_table_added(void)
{
	struct store *s;
	struct tdw_seen t;
	char err[256];

	tmp_setup();
	s = open_new();
	store_close(s);
	CHECK_INT(raw_exec("DROP TABLE page_tdw"), SQLITE_OK);
	s = store_open(tpath, 0, err, sizeof(err));
	CHECK(s != NULL);
	if (s != NULL) {
		memset(&t, 0, sizeof(t));
		CHECK_INT(store_load_tdw(s, tdw_seen_cb, &t), 0);
		CHECK_INT(t.n, 0);
		store_close(s);
	}
	CHECK_STR(raw_text("SELECT count(*) FROM sqlite_master WHERE "
	    "type = 'table' AND name = 'page_tdw'"), "1");
	tmp_teardown();
}

static void
test_old_db_upgraded(void)
{
	struct store_robots r;
	struct store_host h;
	struct store_page p;
	struct fp_seen f;
	struct store_item it;
	struct store *s;
	char err[256], fresh[256], ffresh[256], objects[256];

	/* What a new database's pages and frontier look like. */
	tmp_setup();
	store_close(open_new());
	snprintf(objects, sizeof(objects), "%s", raw_text(OBJECTS));
	snprintf(fresh, sizeof(fresh), "%s", raw_text(PAGES_COLUMNS));
	CHECK(strstr(fresh, ",text,minhash") != NULL);
	snprintf(ffresh, sizeof(ffresh), "%s", raw_text(FRONTIER_COLUMNS));
	CHECK(strstr(ffresh, ",parent_id,dup_hops") != NULL);
	tmp_teardown();

	tmp_setup();
	make_old_db();
	s = store_open(tpath, 0, err, sizeof(err));
	CHECK(s != NULL);
	if (s != NULL) {
		memset(&h, 0, sizeof(h));
		h.backoff_ms = 500;
		CHECK_INT(store_host_put(s, "a.example", &h), 0);
		CHECK_INT(store_robots_put(s, "http://a.example", 404, NULL, 0,
		    1, 2, 0), 0);
		CHECK_INT(store_robots_get(s, "http://a.example", &r), 1);
		CHECK_INT(r.status, 404);
		store_robots_clear(&r);
		p = page("http://a.example/2", "near", 2);
		p.minhash = "sig";
		p.minhash_len = 3;
		CHECK_INT(store_page_add(s, &p), 2);
		memset(&f, 0, sizeof(f));
		CHECK_INT(store_load_fingerprints(s, fp_cb, &f), 0);
		CHECK_INT(f.n, 2);
		CHECK_STR(f.minhash[0], "(null)");
		CHECK_STR(f.minhash[1], "sig");
		memset(&it, 0, sizeof(it));
		CHECK_INT(store_frontier_take(s, "a.example", 0, &it), 1);
		CHECK_INT(it.dup_hops, 0);
		store_item_clear(&it);
		CHECK_INT(store_frontier_add(s, "http://a.example/3",
		    "a.example", 1, 2, 1), 1);
		/* Known from memory, which agrees with the file's index. */
		CHECK_INT(store_frontier_add(s, "http://a.example/",
		    "a.example", 1, 2, 1), 0);
		CHECK_INT(store_frontier_add(s, "http://a.example/3",
		    "a.example", 1, 2, 1), 0);
		CHECK_INT(store_fruitful_add(s, 2), 0);
	}
	store_close(s);
	/* The columns are appended where a new database has them; the URL
	 * queued before counts as linked from new content. */
	CHECK_STR(raw_text(PAGES_COLUMNS), fresh);
	CHECK_STR(raw_text(FRONTIER_COLUMNS), ffresh);
	CHECK_STR(raw_text("SELECT count(*) FROM sqlite_master "
	    "WHERE type = 'table'"), "18");
	/* Every table and index of a new database, no other. */
	CHECK_STR(raw_text(OBJECTS), objects);
	CHECK_STR(raw_text("SELECT group_concat(dup_hops, ' ') FROM frontier"),
	    "0 1");
	CHECK_STR(raw_text("SELECT backoff_ms FROM hosts"), "500");
	/* A schema-1 file stays one: its url index stays too. */
	CHECK_STR(raw_text("PRAGMA user_version"), "1");
	CHECK_STR(raw_text("SELECT count(*) FROM pragma_index_list('frontier') "
	    "WHERE \"unique\""), "1");
	/* The next open finds them and leaves them be. */
	s = store_open(tpath, 0, err, sizeof(err));
	CHECK(s != NULL);
	store_close(s);
	CHECK_STR(raw_text("SELECT count(*) FROM hosts"), "1");
	tmp_teardown();
}

static void
test_old_db_readonly(void)
{
	struct store_robots r;
	struct store_host h;
	struct store_page p;
	struct fp_seen f;
	struct page_seen ps;
	struct store_counts c;
	struct store *s;
	char err[256];

	tmp_setup();
	make_old_db();
	s = store_open(tpath, STORE_READONLY, err, sizeof(err));
	CHECK(s != NULL);
	if (s == NULL) {
		fprintf(stderr, "store_open: %s\n", err);
		goto out;
	}
	CHECK_INT(store_counts(s, &c), 0);
	CHECK_INT(c.queued, 1);
	CHECK_INT(store_robots_get(s, "http://a.example", &r), 0);
	CHECK(r.body == NULL);
	CHECK_INT(store_host_get(s, "a.example", &h), 0);
	CHECK(h.gave_up == NULL);
	memset(&h, 0, sizeof(h));
	CHECK_INT(store_host_put(s, "a.example", &h), -1);
	CHECK_STR(store_errmsg(s), "no hosts table (read-only open of an "
	    "older database)");
	CHECK_INT(store_robots_put(s, "http://a.example", 200, "", 0, 1, 2,
	    0), -1);
	CHECK_INT(store_links_put(s, 1, &(char *){ "http://a.example/" }, 1),
	    -1);
	CHECK_STR(store_errmsg(s), "no links table (read-only open of an "
	    "older database)");
	memset(&ps, 0, sizeof(ps));
	CHECK_INT(store_host_pages(s, pages_cb, &ps), 0);
	CHECK_INT(ps.n, 1);
	CHECK_INT(store_explain(s, "host_get", err, sizeof(err)), -1);
	CHECK_INT(store_load_tdw(s, tdw_cb, &ps), 0);
	CHECK_INT(store_tdw_add(s, 1, "\1", 1), -1);
	CHECK_STR(store_errmsg(s), "no page_tdw table (read-only open of an "
	    "older database)");
	/* Nor the minhash ... last_modified columns: no page can be added
	 * (the insert names last_modified, the latest), none loaded. */
	p = page("http://a.example/2", "unique", 2);
	CHECK_INT(store_page_add(s, &p), -1);
	CHECK_STR(store_errmsg(s), "no pages.last_modified column (read-only "
	    "open of an older database)");
	memset(&f, 0, sizeof(f));
	CHECK_INT(store_load_fingerprints(s, fp_cb, &f), -1);
	CHECK_INT(f.n, 0);
	/* Nor frontier.dup_hops, nor the fruitful table. */
	CHECK_INT(store_frontier_add(s, "http://a.example/9", "a.example", 1,
	    0, 0), -1);
	CHECK_STR(store_errmsg(s), "no frontier.dup_hops column (read-only "
	    "open of an older database)");
	CHECK_INT(store_fruitful_add(s, 1), -1);
	CHECK_STR(store_errmsg(s), "no fruitful table (read-only open of an "
	    "older database)");
	store_close(s);
out:
	/* Untouched: a reader never adds the tables or the column. */
	CHECK_STR(raw_text("SELECT count(*) FROM sqlite_master "
	    "WHERE type = 'table'"), "4");
	CHECK(strstr(raw_text(PAGES_COLUMNS), "minhash") == NULL);
	CHECK(strstr(raw_text(FRONTIER_COLUMNS), "dup_hops") == NULL);
	tmp_teardown();
}

static void
test_politeness_plans(void)
{
	struct store *s;
	char plan[1024];

	tmp_setup();
	s = open_new();
	CHECK_INT(store_explain(s, "robots_get", plan, sizeof(plan)), 0);
	CHECK(strstr(plan, "SEARCH robots USING INDEX") != NULL);
	CHECK_INT(store_explain(s, "host_get", plan, sizeof(plan)), 0);
	CHECK(strstr(plan, "SEARCH hosts USING INDEX") != NULL);
	CHECK_INT(store_explain(s, "host_pages", plan, sizeof(plan)), 0);
	CHECK(strstr(plan, "COVERING INDEX pages_host") != NULL);
	CHECK(strstr(plan, "TEMP B-TREE") == NULL);
	CHECK_INT(store_explain(s, "frontier_untake", plan, sizeof(plan)), 0);
	CHECK(strstr(plan, "SCAN") == NULL);
	/* The link rule's look-ups, once per duplicate, are key look-ups:
	 * on SQLite by the row id memory found (frontier_lower by url is a
	 * shared crawl's only, not prepared here). */
	CHECK_INT(store_explain(s, "frontier_lower_id", plan, sizeof(plan)), 0);
	CHECK(strstr(plan, "SEARCH frontier USING INTEGER PRIMARY KEY") != NULL);
	CHECK(strstr(plan, "SCAN") == NULL);
	CHECK_INT(store_explain(s, "frontier_lower", plan, sizeof(plan)), -1);
	CHECK_INT(store_explain(s, "lineage", plan, sizeof(plan)), 0);
	CHECK(strstr(plan, "SEARCH pages USING INTEGER PRIMARY KEY") != NULL);
	CHECK(strstr(plan, "SCAN") == NULL);
	store_close(s);
	tmp_teardown();
}

/* Runs of redirects are counted up parent_id, stopping at other rows. */
static void
test_redirect_chain(void)
{
	static const char *const urls[] = { "http://a.example/0",
		"http://a.example/1", "http://a.example/2",
		"http://a.example/3" };
	struct store_page p;
	struct store *s;
	int64_t id, prev;
	int hops = -1, seen = -1, i;

	tmp_setup();
	s = open_new();
	/* A page, then three redirects in a row below it. */
	p = page("http://a.example/", "unique", 1);
	prev = store_page_add(s, &p);
	CHECK_INT(prev, 1);
	for (i = 1; i < 4; i++) {
		p = page(urls[i], "redirect", i + 1);
		p.parent = prev;
		id = store_page_add(s, &p);
		CHECK(id > 0);
		prev = id;
	}
	CHECK_INT(store_redirect_chain(s, prev, "http://a.example/x", 20,
	    &hops, &seen), 0);
	CHECK_INT(hops, 3);
	CHECK_INT(seen, 0);
	/* A target already on the run is a loop; the page above is not. */
	CHECK_INT(store_redirect_chain(s, prev, urls[1], 20, &hops, &seen), 0);
	CHECK_INT(seen, 1);
	CHECK_INT(store_redirect_chain(s, prev, "http://a.example/", 20,
	    &hops, &seen), 0);
	CHECK_INT(seen, 0);
	/* Counting stops at max. */
	CHECK_INT(store_redirect_chain(s, prev, urls[1], 2, &hops, &seen), 0);
	CHECK_INT(hops, 2);
	CHECK_INT(seen, 0);
	/* No run: a page that is no redirect, a seed (0), a missing row. */
	CHECK_INT(store_redirect_chain(s, 1, urls[0], 20, &hops, &seen), 0);
	CHECK_INT(hops, 0);
	CHECK_INT(store_redirect_chain(s, 0, urls[0], 20, &hops, &seen), 0);
	CHECK_INT(hops, 0);
	CHECK_INT(store_redirect_chain(s, 99, urls[0], 20, &hops, &seen), 0);
	CHECK_INT(hops + seen, 0);
	store_close(s);
	tmp_teardown();
}

/* The links blob: 8 little-endian bytes per link, hashes pinned. */
static void
test_links(void)
{
	char *urls[] = { "http://a.example/", "http://a.example/b" };
	struct store_page p;
	struct store *s;
	int64_t a;

	CHECK(store_url_hash("http://a.example/") == 0xc56cf94f7aa81da1ULL);
	CHECK(store_url_hash("") == 0xf52a15e9a9b5e89bULL);
	tmp_setup();
	s = open_new();
	CHECK(s != NULL);
	if (s == NULL)
		goto out;
	p = page("http://a.example/", "unique", 1);
	a = store_page_add(s, &p);
	CHECK_INT(store_links_put(s, a, urls, 0), 0);
	CHECK_INT(store_links_put(s, a, urls, 1), 0);
	/* A replay of the page replaces its row. */
	CHECK_INT(store_links_put(s, a, urls, 2), 0);
	/* The foreign key: no links of a page that is not there. */
	CHECK_INT(store_links_put(s, a + 1, urls, 1), -1);
	store_close(s);
	CHECK_STR(raw_text("SELECT count(*) FROM links"), "1");
	CHECK_STR(raw_text("SELECT hex(targets) FROM links"),
	    "A11DA87A4FF96CC5ED9643E7FAB4F458");
out:
	tmp_teardown();
}

/* Where an archived payload's record is, read back by a later crawl
 * through a read-only open, also from a database older than the
 * columns; and a page's relation to earlier crawls. */
static void
test_payload_where(void)
{
	struct store_earlier e = { "near", "old.db", "http://a.example/",
	    "2026-01-01T00:00:00Z", "simhash", 95.5 };
	struct store_payload p;
	struct store_page pg;
	struct store *s;
	char err[256];

	tmp_setup();
	s = open_new();
	CHECK(s != NULL);
	if (s == NULL) {
		tmp_teardown();
		return;
	}
	CHECK_INT(store_begin(s), 0);
	CHECK_INT(store_payload_add(s, "sha1:AAA", "http://a.example/",
	    "2026-01-01T00:00:00Z", "f.warc.gz", 1234, "<urn:uuid:x>"), 0);
	CHECK_INT(store_payload_add(s, "sha1:AAA", "http://b.example/",
	    "2026-01-02T00:00:00Z", "g.warc.gz", 1, "<urn:uuid:y>"), 0);
	pg = page("http://a.example/", "near", 1);
	CHECK_INT(store_page_add(s, &pg), 1);
	CHECK_INT(store_earlier_add(s, 1, &e), 0);
	CHECK_INT(store_commit(s), 0);
	store_close(s);

	s = store_open(tpath, STORE_READONLY, err, sizeof(err));
	CHECK(s != NULL);
	if (s != NULL) {
		CHECK_INT(store_payload_where(s, "sha1:AAA", &p), 1);
		CHECK_STR(p.url, "http://a.example/");
		CHECK_STR(p.date, "2026-01-01T00:00:00Z");
		CHECK_STR(p.file, "f.warc.gz");
		CHECK(p.offset == 1234);
		CHECK_STR(p.record_id, "<urn:uuid:x>");
		store_payload_free(&p);
		CHECK_INT(store_payload_where(s, "sha1:BBB", &p), 0);
		CHECK(p.url == NULL && p.file == NULL && p.offset == -1);
	}
	store_close(s);
	CHECK_STR(raw_text("SELECT relation || ' ' || crawl || ' ' || method "
	    "|| ' ' || percentage FROM earlier"), "near old.db simhash 95.5");

	/* A database from before the columns, read only: URI and date. */
	CHECK_INT(raw_exec("CREATE TABLE w (digest TEXT NOT NULL PRIMARY "
	    "KEY, url TEXT NOT NULL, date TEXT NOT NULL); INSERT INTO w "
	    "SELECT digest, url, date FROM warc_payloads; DROP TABLE "
	    "warc_payloads; ALTER TABLE w RENAME TO warc_payloads"),
	    SQLITE_OK);
	s = store_open(tpath, STORE_READONLY, err, sizeof(err));
	CHECK(s != NULL);
	if (s != NULL) {
		CHECK_INT(store_payload_where(s, "sha1:AAA", &p), 1);
		CHECK_STR(p.url, "http://a.example/");
		CHECK(p.file == NULL && p.offset == -1 && p.record_id == NULL);
		store_payload_free(&p);
	}
	store_close(s);
	/* A writer open adds them. */
	s = store_open(tpath, 0, err, sizeof(err));
	CHECK(s != NULL);
	store_close(s);
	CHECK_STR(raw_text("SELECT count(*) FROM "
	    "pragma_table_info('warc_payloads')"), "6");
	tmp_teardown();
}

void
suite_store(void)
{
	RUN(test_schema_from_file);
	RUN(test_create_and_reopen);
	RUN(test_missing_file);
	RUN(test_not_sqlite_untouched);
	RUN(test_foreign_sqlite_untouched);
	RUN(test_newer_schema_refused);
	RUN(test_empty_file);
	RUN(test_lock_same_process);
	RUN(test_lock_other_process);
	RUN(test_readonly_beside_writer);
	RUN(test_full_keeps_committed);
	RUN(test_hints);
	RUN(test_conn_rows_fail);
	RUN(test_verdict_names);
	RUN(test_conn_fail);
	RUN(test_frontier_add_and_take_order);
	RUN(test_frontier_dup_hops);
	RUN(test_page_lineage);
	RUN(test_frontier_requeue_not_before);
	RUN(test_frontier_done_and_resume);
	RUN(test_frontier_hosts);
	RUN(test_pages_duplicates_counts);
	RUN(test_constraints_refused);
	RUN(test_fingerprints_and_simhash);
	RUN(test_rollback_and_commit);
	RUN(test_meta);
	RUN(test_query_plans);
	RUN(test_robots_round_trip);
	RUN(test_robots_replace);
	RUN(test_robots_absent);
	RUN(test_host_round_trip);
	RUN(test_host_pages);
	RUN(test_frontier_untake);
	RUN(test_old_db_upgraded);
	RUN(test_payload_where);
	RUN(test_tdw_round_trip);
	RUN(test_shingles_round_trip);
	RUN(test_tdw_table_added);
	RUN(test_old_db_readonly);
	RUN(test_politeness_plans);
	RUN(test_redirect_chain);
	RUN(test_frontier_variants);
	RUN(test_links);
}
