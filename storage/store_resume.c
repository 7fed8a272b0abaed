/*
 * store_resume: what a resumed crawl loads back into its indexes --
 * fingerprints, per-host page counts, TDW vectors and shingle sets -- and
 * the writes of the last two.
 */
#include "storage/store_resume.h"
#include "storage/store_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct store_span store_span_all = { 0, INT64_MAX, "" };

/* Bind a load's span: seq after and up to, and the worker to skip. */
static int
bind_span(struct store *s, struct sdb_stmt *st, const struct store_span *sp)
{
	struct binder b;

	store__bind_start(&b, st);
	store__bind_int(&b, sp->after);
	store__bind_int(&b, sp->upto);
	store__bind_text(&b, sp->skip != NULL ? sp->skip : "");
	if (b.rc != SDB_OK) {
		store__bind_fail(s, &b);
		store__stmt_done(st);
		return -1;
	}
	return 0;
}

int
store_load_fingerprints_in(struct store *s, const struct store_span *sp,
    int (*fn)(const struct store_fingerprints *f, void *arg), void *arg)
{
	struct sdb_stmt *st = s->st[ST_FINGERPRINTS];
	struct store_fingerprints f;
	int rc, ret = 0;

	if (st == NULL)
		return store__no_column(s, ST_FINGERPRINTS);
	if (bind_span(s, st, sp) != 0)
		return -1;
	while ((rc = sdb_step(st)) == SDB_ROW) {
		memset(&f, 0, sizeof(f));
		f.id = sdb_column_int64(st, 0);
		f.md5 = (const char *)sdb_column_text(st, 1);
		f.has_simhash = sdb_column_type(st, 2) != SDB_NULL;
		if (f.has_simhash)
			f.simhash = store__u64_of_i64(sdb_column_int64(st, 2));
		f.ssdeep = (const char *)sdb_column_text(st, 3);
		/* Blob before bytes: the size is of the value as returned. */
		if (sdb_column_type(st, 4) == SDB_BLOB) {
			f.minhash = sdb_column_blob(st, 4);
			f.minhash_len = (size_t)sdb_column_bytes(st, 4);
		}
		f.seq = sdb_column_int64(st, 5);
		ret = fn(&f, arg);
		if (ret != 0)
			goto out;
	}
	if (rc != SDB_DONE)
		ret = store__db_fail(s);
out:
	store__stmt_done(st);
	return ret;
}

int
store_host_pages(struct store *s,
    int (*fn)(const char *host, int64_t pages, void *arg), void *arg)
{
	struct sdb_stmt *st = s->st[ST_HOST_PAGES];
	const char *host;
	int rc, ret = 0;

	while ((rc = sdb_step(st)) == SDB_ROW) {
		host = (const char *)sdb_column_text(st, 0);
		if (host == NULL) {
			ret = store__oom_fail(s);
			goto out;
		}
		ret = fn(host, sdb_column_int64(st, 1), arg);
		if (ret != 0)
			goto out;
	}
	if (rc != SDB_DONE)
		ret = store__db_fail(s);
out:
	store__stmt_done(st);
	return ret;
}

int
store_tdw_add(struct store *s, int64_t page_id, const void *vec, size_t len)
{
	struct binder b;

	if (s->st[ST_TDW_ADD] == NULL)
		return store__no_table(s, ST_TDW_ADD);
	if (vec == NULL || len == 0)
		return store__fail(s, "empty TDW vector");
	store__bind_start(&b, s->st[ST_TDW_ADD]);
	store__bind_int(&b, page_id);
	store__bind_blob(&b, vec, len);
	return store__exec_later(s, b.st, &b);
}

int
store_load_tdw_in(struct store *s, const struct store_span *sp,
    int (*fn)(int64_t id, const void *vec, size_t len, void *arg), void *arg)
{
	struct sdb_stmt *st = s->st[ST_TDW_LOAD];
	const void *vec;
	size_t len;
	int rc, ret = 0;

	if (st == NULL)
		return 0;
	if (bind_span(s, st, sp) != 0)
		return -1;
	while ((rc = sdb_step(st)) == SDB_ROW) {
		/* Blob before bytes; a NULL with bytes is SQLite's OOM. */
		vec = sdb_column_blob(st, 1);
		len = (size_t)sdb_column_bytes(st, 1);
		if (vec == NULL && len > 0) {
			ret = store__oom_fail(s);
			goto out;
		}
		ret = fn(sdb_column_int64(st, 0), vec, len, arg);
		if (ret != 0)
			goto out;
	}
	if (rc != SDB_DONE)
		ret = store__db_fail(s);
out:
	store__stmt_done(st);
	return ret;
}

int
store_shingles_add(struct store *s, int64_t page_id, const void *blob,
    size_t len)
{
	struct binder b;

	if (s->st[ST_SHINGLES_ADD] == NULL)
		return store__no_table(s, ST_SHINGLES_ADD);
	store__bind_start(&b, s->st[ST_SHINGLES_ADD]);
	store__bind_int(&b, page_id);
	store__bind_blob(&b, blob, len);
	return store__exec_later(s, b.st, &b);
}

int
store_shingles_get(struct store *s, int64_t page_id, void **blob,
    size_t *len)
{
	struct sdb_stmt *st = s->st[ST_SHINGLES_GET];
	const void *v;
	int rc, ret = 0;

	*blob = NULL;
	*len = 0;
	if (st == NULL)
		return 0;
	if (sdb_bind_int64(st, 1, page_id) != SDB_OK) {
		ret = store__db_fail(s);
		goto out;
	}
	if ((rc = sdb_step(st)) == SDB_ROW) {
		v = sdb_column_blob(st, 0);
		*len = (size_t)sdb_column_bytes(st, 0);
		if (v == NULL && *len > 0) {
			ret = store__oom_fail(s);
			goto out;
		}
		if (*len > 0 && (*blob = malloc(*len)) == NULL) {
			*len = 0;
			ret = store__oom_fail(s);
			goto out;
		}
		if (*len > 0)
			memcpy(*blob, v, *len);
	} else if (rc != SDB_DONE) {
		ret = store__db_fail(s);
	}
out:
	store__stmt_done(st);
	return ret;
}

int
store_load_blocks_in(struct store *s, const struct store_span *sp,
    int (*fn)(const char *host, const char *verdict, const void *blob,
    size_t len, void *arg),
    void *arg)
{
	struct sdb_stmt *st = s->st[ST_SHINGLES_LOAD];
	const unsigned char *host, *verdict;
	const void *blob;
	size_t len;
	int rc, ret = 0;

	if (st == NULL)
		return 0;
	if (bind_span(s, st, sp) != 0)
		return -1;
	while ((rc = sdb_step(st)) == SDB_ROW) {
		host = (const unsigned char *)sdb_column_text(st, 0);
		blob = sdb_column_blob(st, 1);
		len = (size_t)sdb_column_bytes(st, 1);
		verdict = (const unsigned char *)sdb_column_text(st, 2);
		if (blob == NULL && len > 0) {
			ret = store__oom_fail(s);
			goto out;
		}
		ret = fn(host != NULL ? (const char *)host : "",
		    verdict != NULL ? (const char *)verdict : "", blob, len,
		    arg);
		if (ret != 0)
			goto out;
	}
	if (rc != SDB_DONE)
		ret = store__db_fail(s);
out:
	store__stmt_done(st);
	return ret;
}

int
store_load_fingerprints(struct store *s,
    int (*fn)(const struct store_fingerprints *f, void *arg), void *arg)
{
	return store_load_fingerprints_in(s, &store_span_all, fn, arg);
}

int
store_load_tdw(struct store *s,
    int (*fn)(int64_t id, const void *vec, size_t len, void *arg), void *arg)
{
	return store_load_tdw_in(s, &store_span_all, fn, arg);
}

int
store_load_blocks(struct store *s,
    int (*fn)(const char *host, const char *verdict, const void *blob,
    size_t len, void *arg),
    void *arg)
{
	return store_load_blocks_in(s, &store_span_all, fn, arg);
}
