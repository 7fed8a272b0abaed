/*
 * store_stmt: the statements a store prepares at open, the binder that
 * fills their parameters, the recording of failures, and store_explain.
 */
#include "storage/store_int.h"
#include "storage/store_searchw.h"

#include <stdio.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/err.h"

const struct store__stmt_def store__stmt_def[ST_NUM] = {
	/* A writer takes the write lock at once: waiting for it inside a
	 * batch would risk a deadlock with a reader upgrading. */
	[ST_BEGIN] = { "begin", "BEGIN IMMEDIATE", .pg = "BEGIN" },
	[ST_COMMIT] = { "commit", "COMMIT" },
	[ST_ROLLBACK] = { "rollback", "ROLLBACK" },
	[ST_META_SET] = { "meta_set",
	    "INSERT INTO meta (key, value) VALUES (?, ?) "
	    "ON CONFLICT (key) DO UPDATE SET value = excluded.value" },
	[ST_META_GET] = { "meta_get", "SELECT value FROM meta WHERE key = ?" },
	[ST_FRONTIER_ADD] = { "frontier_add",
	    "INSERT INTO frontier (url, host, depth, parent_id, dup_hops) "
	    "VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING", NULL,
	    "dup_hops" },
	/* The unary + keeps the planner on frontier_take, whose (host,
	 * state) entries are already in id order; a range on not_before
	 * would make it sort every due entry of the host. */
	[ST_FRONTIER_TAKE] = { "frontier_take",
	    "SELECT id, url, depth, parent_id, tries, dup_hops FROM frontier "
	    "WHERE host = ? AND state = 0 AND +not_before <= ? "
	    "ORDER BY id LIMIT 1", NULL, "dup_hops" },
	/* Only a queued entry: a process whose host lease ran out while it
	 * stalled must not take what the host's next owner took. */
	/* Shared: take and mark in one round trip. */
	[ST_FRONTIER_TAKE_MARK] = { "frontier_take_mark", NULL, .pg =
	    "UPDATE frontier SET state = 1 WHERE id = (SELECT id FROM frontier "
	    "WHERE host = ? AND state = 0 AND not_before <= ? ORDER BY id "
	    "LIMIT 1) AND state = 0 RETURNING id, url, depth, parent_id, "
	    "tries, dup_hops" },
	[ST_FRONTIER_MARK] = { "frontier_mark",
	    "UPDATE frontier SET state = 1 WHERE id = ? AND state = 0" },
	[ST_FRONTIER_DONE] = { "frontier_done",
	    "UPDATE frontier SET state = 2 WHERE id = ?" },
	[ST_FRONTIER_REQUEUE] = { "frontier_requeue",
	    "UPDATE frontier SET state = 0, not_before = ?, tries = tries + 1 "
	    "WHERE id = ?" },
	[ST_FRONTIER_REQUEUE_INFLIGHT] = { "frontier_requeue_inflight",
	    "UPDATE frontier SET state = 0 WHERE state = 1" },
	[ST_FRONTIER_HOSTS] = { "frontier_hosts",
	    "SELECT host, count(*), min(not_before) FROM frontier "
	    "WHERE state = 0 GROUP BY host" },
	[ST_PAGE_ADD] = { "page_add",
	    "INSERT INTO pages (url, host, simhash, md5, ssdeep, verdict, "
	    "reason, status, content_type, depth, seq, fetched_at, parent_id, "
	    "location, title, headings, description, keywords, charset, "
	    "body_bytes, text_bytes, links, elapsed_ms, text, minhash, "
	    "canonical, worker, etag, last_modified) VALUES "
	    "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
	    "?, ?, ?, ?, ?, ?, ?)", NULL, "last_modified",
	    /* SQLite's id is its last rowid: RETURNING would cost a quarter
	     * of the insert (a trigger, a table of the rows returned).
	     * Shared: seq is the clock's, bumped just before (seq_next). */
	    .pg = "INSERT INTO pages (url, host, simhash, md5, ssdeep, verdict, "
	    "reason, status, content_type, depth, seq, fetched_at, parent_id, "
	    "location, title, headings, description, keywords, charset, "
	    "body_bytes, text_bytes, links, elapsed_ms, text, minhash, "
	    "canonical, worker, etag, last_modified) VALUES "
	    "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
	    "coalesce(?, (SELECT seq FROM clock WHERE id = 1)), ?, ?, ?, ?, ?, "
	    "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id, seq" },
	/* The same with the id given: sent without waiting for one back. */
	[ST_PAGE_ADD_ID] = { "page_add_id", NULL, .pg =
	    "INSERT INTO pages (url, host, simhash, md5, ssdeep, verdict, "
	    "reason, status, content_type, depth, seq, fetched_at, parent_id, "
	    "location, title, headings, description, keywords, charset, "
	    "body_bytes, text_bytes, links, elapsed_ms, text, minhash, "
	    "canonical, worker, etag, last_modified, id) VALUES "
	    "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
	    "coalesce(?, (SELECT seq FROM clock WHERE id = 1)), ?, ?, ?, ?, ?, "
	    "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)" },
	[ST_PAGE_IDS] = { "page_ids", NULL, .pg =
	    "SELECT nextval(pg_get_serial_sequence('pages', 'id')) "
	    "FROM generate_series(1, ?)" },
	[ST_DUPLICATE_ADD] = { "duplicate_add",
	    "INSERT INTO duplicates (page_id, original_id, method, percentage) "
	    "VALUES (?, ?, ?, ?)" },
	[ST_COUNT_VERDICTS] = { "count_verdicts",
	    "SELECT verdict, count(*) FROM pages GROUP BY verdict" },
	[ST_COUNT_DUPLICATES] = { "count_duplicates",
	    "SELECT count(*) FROM duplicates" },
	[ST_COUNT_FRONTIER] = { "count_frontier",
	    "SELECT state, count(*) FROM frontier GROUP BY state" },
	[ST_MAX_SEQ] = { "max_seq", "SELECT coalesce(max(seq), 0) FROM pages" },
	[ST_FINGERPRINTS] = { "fingerprints",
	    "SELECT id, md5, simhash, ssdeep, minhash, seq FROM pages "
	    "WHERE verdict IN ('unique', 'exact', 'near') AND seq > ?1 AND "
	    "seq <= ?2 AND (worker IS NULL OR worker <> ?3) ORDER BY seq",
	    NULL, "worker" },
	/* Only in-flight entries: a stray id must not revive a done one. */
	[ST_FRONTIER_UNTAKE] = { "frontier_untake",
	    "UPDATE frontier SET state = 0 WHERE id = ? AND state = 1" },
	[ST_HOST_PAGES] = { "host_pages",
	    "SELECT host, count(*) FROM pages GROUP BY host" },
	[ST_ROBOTS_PUT] = { "robots_put",
	    "INSERT INTO robots (origin, status, body, fetched_at, "
	    "expires_at, failures) VALUES (?, ?, ?, ?, ?, ?) "
	    "ON CONFLICT (origin) DO UPDATE SET status = excluded.status, "
	    "body = excluded.body, fetched_at = excluded.fetched_at, "
	    "expires_at = excluded.expires_at, failures = excluded.failures",
	    "robots" },
	[ST_ROBOTS_GET] = { "robots_get",
	    "SELECT status, body, fetched_at, expires_at, failures FROM robots "
	    "WHERE origin = ?", "robots" },
	[ST_HOST_PUT] = { "host_put",
	    "INSERT INTO hosts (host, not_before, backoff_ms, failures, "
	    "gave_up) VALUES (?, ?, ?, ?, ?) ON CONFLICT (host) DO UPDATE "
	    "SET not_before = excluded.not_before, "
	    "backoff_ms = excluded.backoff_ms, failures = excluded.failures, "
	    "gave_up = excluded.gave_up", "hosts" },
	[ST_HOST_GET] = { "host_get",
	    "SELECT not_before, backoff_ms, failures, gave_up FROM hosts "
	    "WHERE host = ?", "hosts" },
	/* Up the parent_id links while the rows are redirects, at most ?2
	 * of them: each step is a primary-key look-up. */
	[ST_REDIRECT_CHAIN] = { "redirect_chain",
	    "WITH RECURSIVE up(id, parent, url, n) AS ("
	    "SELECT id, parent_id, url, 1 FROM pages "
	    "WHERE id = ?1 AND verdict = 'redirect' "
	    "UNION ALL SELECT p.id, p.parent_id, p.url, up.n + 1 "
	    "FROM pages p JOIN up ON p.id = up.parent "
	    "WHERE p.verdict = 'redirect' AND up.n < ?2) "
	    "SELECT coalesce(max(n), 0), "
	    "coalesce(max(CASE WHEN url = ?3 THEN 1 ELSE 0 END), 0) FROM up" },
	/* These two (and frontier_lower) look a URL up by the url index,
	 * which only a shared crawl's frontier has: SQLite's are answered
	 * from memory (store_urls.c), its file having no such index. Here a
	 * range of the index, read no further than the cap: the URLs that
	 * start with "...path?" lie between it and "...path@", bytes
	 * compared whatever the database's locale. */
	[ST_FRONTIER_VARIANTS] = { "frontier_variants", NULL,
	    .pg = "SELECT count(*) FROM (SELECT 1 FROM frontier "
	    "WHERE url COLLATE \"C\" >= ? AND url COLLATE \"C\" < ? "
	    "LIMIT ?) AS v" },
	[ST_FRONTIER_KNOWN] = { "frontier_known", NULL,
	    .pg = "SELECT 1 FROM frontier WHERE url = ?" },
	/* REPLACE: a page's links are written with its row, once; a replay
	 * after a crash must not fail on the key. */
	[ST_LINKS_PUT] = { "links_put",
	    "INSERT INTO links (page_id, targets) VALUES (?, ?) "
	    "ON CONFLICT (page_id) DO UPDATE SET targets = excluded.targets",
	    "links" },
	[ST_TDW_ADD] = { "tdw_add",
	    "INSERT INTO page_tdw (page_id, vec) VALUES (?, ?) "
	    "ON CONFLICT (page_id) DO UPDATE SET vec = excluded.vec",
	    "page_tdw" },
	/* page_id order is fetch order: ids are given as pages are added. */
	[ST_TDW_LOAD] = { "tdw_load",
	    "SELECT t.page_id, t.vec FROM page_tdw t JOIN pages p "
	    "ON p.id = t.page_id WHERE p.seq > ?1 AND p.seq <= ?2 AND "
	    "(p.worker IS NULL OR p.worker <> ?3) ORDER BY p.seq", "page_tdw",
	    "worker" },
	[ST_SHINGLES_ADD] = { "shingles_add",
	    "INSERT INTO page_shingles (page_id, shingles) VALUES (?, ?) "
	    "ON CONFLICT (page_id) DO UPDATE SET shingles = excluded.shingles",
	    "page_shingles" },
	[ST_SHINGLES_GET] = { "shingles_get",
	    "SELECT shingles FROM page_shingles WHERE page_id = ?",
	    "page_shingles" },
	[ST_SHINGLES_LOAD] = { "shingles_load",
	    "SELECT p.host, s.shingles, p.verdict FROM page_shingles s "
	    "JOIN pages p ON p.id = s.page_id WHERE p.seq > ?1 AND "
	    "p.seq <= ?2 AND (p.worker IS NULL OR p.worker <> ?3) "
	    "ORDER BY p.seq", "page_shingles", "worker" },
	/* A queued URL offered again by a page fewer duplicates behind
	 * takes that page's count and becomes its child. */
	[ST_FRONTIER_LOWER] = { "frontier_lower", NULL, NULL, "dup_hops",
	    .pg = "UPDATE frontier SET dup_hops = ?1, parent_id = ?2 "
	    "WHERE url = ?3 AND state < 2 AND dup_hops > ?1" },
	[ST_FRUITFUL_ADD] = { "fruitful_add",
	    "INSERT INTO fruitful (page_id) VALUES (?) ON CONFLICT DO NOTHING",
	    "fruitful" },
	[ST_LINEAGE] = { "lineage",
	    "SELECT coalesce(parent_id, 0), verdict, EXISTS (SELECT 1 FROM "
	    "fruitful WHERE page_id = pages.id) FROM pages WHERE id = ?",
	    "fruitful" },

	/* A shared crawl's (store_share.c). */
	[ST_SEQ_NEXT] = { "seq_next", NULL, .pg =
	    "UPDATE clock SET seq = seq + 1 WHERE id = 1" },
	[ST_CLOCK_GET] = { "clock_get", NULL, .pg =
	    "SELECT seq FROM clock WHERE id = 1" },
	/* Heartbeats on the server's clock: machines' clocks may differ. */
	[ST_BEAT] = { "beat", NULL, .pg =
	    "INSERT INTO workers (name, seen) VALUES "
	    "(?, extract(epoch FROM clock_timestamp())) "
	    "ON CONFLICT (name) DO UPDATE SET seen = excluded.seen" },
	[ST_LIVE] = { "live", NULL, .pg =
	    "SELECT count(*) FROM workers WHERE "
	    "seen >= extract(epoch FROM clock_timestamp()) - ?" },
	[ST_LEASE_NOTE] = { "lease_note", NULL, .pg =
	    "INSERT INTO leases (host) VALUES (?) ON CONFLICT DO NOTHING" },
	/* Free hosts with URLs queued or in flight (left in flight by an
	 * owner that died or lost its connection: the claim queues them
	 * again); a host another process is claiming at this moment is
	 * skipped, not waited for. */
	[ST_LEASE_CLAIM] = { "lease_claim", NULL, .pg =
	    "UPDATE leases u SET owner = ?1, expires = ?2 FROM ("
	    "SELECT l.host, l.owner AS was FROM leases l WHERE (l.owner IS NULL "
	    "OR l.expires < ?3) AND EXISTS (SELECT 1 FROM frontier f "
	    "WHERE f.host = l.host AND f.state < 2) AND NOT EXISTS (SELECT 1 "
	    "FROM hosts h WHERE h.host = l.host AND h.gave_up IS NOT NULL) "
	    "AND (?5 <= 0 OR (SELECT count(*) FROM pages p "
	    "WHERE p.host = l.host) < ?5) ORDER BY l.host "
	    "LIMIT ?4 FOR UPDATE SKIP LOCKED) AS c WHERE u.host = c.host "
	    "RETURNING u.host, u.not_before, c.was" },
	/* A host just seen, taken at once by the process that saw it. */
	[ST_LEASE_TAKE] = { "lease_take", NULL, .pg =
	    "UPDATE leases SET owner = ?1, expires = ?2 WHERE host = ?3 AND "
	    "owner IS NULL RETURNING host, not_before, CAST(NULL AS TEXT)" },
	[ST_LEASE_RENEW] = { "lease_renew", NULL, .pg =
	    "UPDATE leases SET expires = ? WHERE owner = ?" },
	[ST_LEASE_OWNED] = { "lease_owned", NULL, .pg =
	    "SELECT host FROM leases WHERE owner = ?" },
	[ST_LEASE_RELEASE] = { "lease_release", NULL, .pg =
	    "UPDATE leases SET owner = NULL, expires = 0, not_before = ?1 "
	    "WHERE host = ?2 AND owner = ?3" },
	[ST_LEASE_RELEASE_ALL] = { "lease_release_all", NULL, .pg =
	    "UPDATE leases SET owner = NULL, expires = 0 WHERE owner = ?" },
	[ST_WORK_HOSTS] = { "work_hosts", NULL, .pg =
	    "SELECT count(*) FROM leases l WHERE EXISTS (SELECT 1 FROM "
	    "frontier f WHERE f.host = l.host AND f.state < 2) AND NOT EXISTS "
	    "(SELECT 1 FROM hosts h WHERE h.host = l.host AND "
	    "h.gave_up IS NOT NULL) AND (?1 <= 0 OR (SELECT count(*) "
	    "FROM pages p WHERE p.host = l.host) < ?1)" },
	[ST_IN_FLIGHT_ANY] = { "in_flight_any", NULL, .pg =
	    "SELECT count(*) FROM (SELECT 1 FROM frontier WHERE state = 1 "
	    "LIMIT 1) AS v" },
	[ST_HOST_RECLAIM] = { "host_reclaim", NULL, .pg =
	    "UPDATE frontier SET state = 0 WHERE host = ? AND state = 1" },
	[ST_HOST_QUEUE] = { "host_queue", NULL, .pg =
	    "SELECT count(*) FROM frontier WHERE host = ? AND state = 0" },
	/* Rows locked in key order, each made or updated in one pass (an
	 * insert of a missing row and a lock of a present one in separate
	 * passes could wait for each other across two pages). */
	[ST_KEYS_LOCK] = { "keys_lock", NULL, .pg =
	    "INSERT INTO verdict_keys (k) SELECT unnest(CAST(? AS BIGINT[])) "
	    "ON CONFLICT (k) DO UPDATE SET k = excluded.k" },
	/* The same on advisory locks, taken in the array's (sorted) order. */
	[ST_KEYS_ADVISORY] = { "keys_advisory", NULL, .pg =
	    "SELECT count(pg_advisory_xact_lock(k)) FROM "
	    "unnest(CAST(? AS BIGINT[])) AS t(k)" },
	[ST_PAYLOAD_FIND] = { "payload_find",
	    "SELECT url, date FROM warc_payloads WHERE digest = ?",
	    "warc_payloads" },
	[ST_PAYLOAD_ADD] = { "payload_add",
	    "INSERT INTO warc_payloads (digest, url, date, warc_file, "
	    "warc_offset, record_id) VALUES (?, ?, ?, ?, ?, ?) "
	    "ON CONFLICT DO NOTHING", "warc_payloads", "record_id" },
	/* Where the record is too, when the crawl kept it (an earlier
	 * crawl's database, read only, may be older than the columns). */
	[ST_PAYLOAD_WHERE] = { "payload_where",
	    "SELECT url, date, warc_file, warc_offset, record_id FROM "
	    "warc_payloads WHERE digest = ?", "warc_payloads", "record_id" },
	[ST_EARLIER_ADD] = { "earlier_add",
	    "INSERT INTO earlier (page_id, relation, crawl, url, date, "
	    "method, percentage) VALUES (?, ?, ?, ?, ?, ?, ?) "
	    "ON CONFLICT DO NOTHING", "earlier" },
	[ST_PAGE_URL] = { "page_url",
	    "SELECT url, fetched_at FROM pages WHERE id = ?" },
	[ST_PAGE_BY_URL] = { "page_by_url",
	    "SELECT id FROM pages WHERE url = ?" },
	/* Every URL settled goes back in the queue for the next visit. */
	[ST_RECRAWL_REQUEUE] = { "recrawl_requeue",
	    "UPDATE frontier SET state = 0, not_before = 0, tries = 0 "
	    "WHERE state = 2" },
	/* The text and verdict as the last visit that read them found them
	 * (a visits row), else as the first crawl did. */
	[ST_PAGE_PRIOR] = { "page_prior",
	    "SELECT id, coalesce((SELECT md5 FROM visits v WHERE v.page_id = "
	    "pages.id AND v.md5 IS NOT NULL ORDER BY v.visit DESC LIMIT 1), "
	    "md5), coalesce((SELECT verdict FROM visits v WHERE v.page_id = "
	    "pages.id AND v.verdict IS NOT NULL ORDER BY v.visit DESC "
	    "LIMIT 1), verdict), etag, last_modified FROM pages WHERE url = ?",
	    "visits", "last_modified" },
	/* A URL taken ahead whose later lowerings were too many to keep. */
	[ST_FRONTIER_HOPS] = { "frontier_hops",
	    "SELECT dup_hops, parent_id FROM frontier WHERE id = ?",
	    NULL, "dup_hops" },
	/* A URL taken ahead back to the queue, while this process holds
	 * its host (store_ahead.c). */
	[ST_AHEAD_RETURN] = { "ahead_return", NULL, .pg =
	    "UPDATE frontier SET state = 0 WHERE id = ?1 AND state = 1 AND "
	    "EXISTS (SELECT 1 FROM leases l WHERE l.host = frontier.host AND "
	    "l.owner = ?2)" },
	[ST_PAGE_VALIDATORS] = { "page_validators",
	    "UPDATE pages SET etag = ?, last_modified = ? WHERE id = ?", NULL,
	    "last_modified" },
	[ST_VISIT_ADD] = { "visit_add",
	    "INSERT INTO visits (visit, page_id, fetched_at, status, outcome, "
	    "md5, verdict, was, location, reason) "
	    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", "visits" },
	/* The frontier's URLs held in memory (store_urls.c): all of them
	 * at the first use, one by id to check a hash's match, and a known
	 * one lowered by id. */
	[ST_FRONTIER_URLS] = { "frontier_urls",
	    "SELECT id, url FROM frontier" },
	[ST_FRONTIER_URL_OF] = { "frontier_url_of",
	    "SELECT url FROM frontier WHERE id = ?" },
	[ST_FRONTIER_LOWER_ID] = { "frontier_lower_id",
	    "UPDATE frontier SET dup_hops = ?1, parent_id = ?2 "
	    "WHERE id = ?3 AND state < 2 AND dup_hops > ?1", NULL,
	    "dup_hops" },
	[ST_SEARCH_ADD] = { "search_add", STORE__SEARCH_ADD, "search_text",
	    .pg = STORE__SEARCH_ADD_PG },
	[ST_SEARCH_SET] = { "search_set", STORE__SEARCH_SET, "search_text",
	    .pg = STORE__SEARCH_SET_PG },
	[ST_SEARCH_DROP] = { "search_drop", STORE__SEARCH_DROP, "search_text",
	    .pg = STORE__SEARCH_DROP_PG },
};

/*
 * Whether statement i uses the full-text index inside the database: on
 * SQLite only a database made by an earlier nearcrawl has it there (now
 * it is a file of its own, store_searchw.h), so a writer too prepares
 * them only where the table is.
 */
static int
in_db_index(const struct store *s, int i)
{
	return !sdb_is_pg(s->db) && (i == ST_SEARCH_ADD ||
	    i == ST_SEARCH_SET || i == ST_SEARCH_DROP);
}

/* err = "PATH: " and why s's database failed. */
static void
open_fail(struct store *s, const char *path, char *err, size_t errsz)
{
	char why[320];

	store__why_failed(s->db, why, sizeof(why));
	err_set(err, errsz, -1, "%s: %s", path, why);
}

/*
 * Whether a reader can prepare statement i: a reader may not add the
 * tables or columns an older database lacks, so a statement that needs
 * one stays NULL and its function finds nothing. Sets *ok; 0, or -1.
 */
static int
reader_can(struct store *s, int i, int *ok, const char *path, char *err,
    size_t errsz)
{
	const struct store__stmt_def *d = &store__stmt_def[i];
	int exists = 1;

	if (d->table != NULL &&
	    store__table_exists(s->db, d->table, &exists) != SDB_OK) {
		open_fail(s, path, err, errsz);
		return -1;
	}
	if (exists && d->column != NULL &&
	    store__column_exists(s->db, store__column_table(d->column),
	    d->column, &exists) != SDB_OK)
		return err_set(err, errsz, -1, "%s: %s", path,
		    sdb_errmsg(s->db));
	*ok = exists;
	return 0;
}

int
store__prepare_all(struct store *s, const char *path, int readonly, char *err,
    size_t errsz)
{
	const char *sql;
	int i, ok = 1;

	for (i = 0; i < ST_NUM; i++) {
		sql = store__stmt_def[i].sql;
		if (sql == NULL && !sdb_is_pg(s->db))
			continue; /* a shared crawl's */
		if (readonly || in_db_index(s, i)) {
			if (reader_can(s, i, &ok, path, err, errsz) != 0)
				return -1;
			if (!ok)
				continue;
		}
		/* A reader's batch is a snapshot and must not ask to write. */
		if (i == ST_BEGIN && readonly)
			sql = "BEGIN";
		if (sdb_is_pg(s->db) && store__stmt_def[i].pg != NULL)
			sql = store__stmt_def[i].pg;
		if (sdb_prepare(s->db, sql, &s->st[i]) != SDB_OK) {
			open_fail(s, path, err, errsz);
			return -1;
		}
	}
	return 0;
}

void
store__release(struct store *s)
{
	int i;

	/* Takes ahead left unread are read and dropped. */
	for (i = 0; i < STORE_AHEADS; i++)
		sdb_finalize(s->ahead_st[i]);
	free(s->ahead);
	for (i = 0; i < ST_NUM; i++)
		sdb_finalize(s->st[i]);
	/* What the crawl did not commit the index does not keep either. */
	store_searchw_stop(s->sw);
	/* Closing before SQLite would drop its POSIX locks on the file. */
	sdb_close(s->db);
	if (s->lockfd != -1)
		close(s->lockfd);
	free(s->links);
	free(s->worker);
	free(s);
}

int
store__db_fail(struct store *s)
{
	/* A COMMIT that failed in its checkpoint: that is the news. */
	if (store__checkpoint_report(s))
		return -1;
	/* A new file with no page committed yet keeps nothing worth the
	 * name: its first batch failed. */
	store__why_failed_kept(s->db, !s->created || s->committed > 0,
	    s->err, sizeof(s->err));
	return -1;
}

int
store__fail(struct store *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	err_vset(s->err, sizeof(s->err), -1, fmt, ap);
	va_end(ap);
	return -1;
}

int
store__oom_fail(struct store *s)
{
	return store__fail(s, "out of memory");
}

void
store__stmt_done(struct sdb_stmt *st)
{
	sdb_reset(st);
	sdb_clear_bindings(st);
}

void
store__bind_start(struct binder *b, struct sdb_stmt *st)
{
	b->st = st;
	b->idx = 0;
	b->rc = SDB_OK;
}

void
store__bind_rc(struct binder *b, int rc)
{
	if (b->rc == SDB_OK)
		b->rc = rc;
}

/* The caller steps before the strings can change, so SQLite need not copy. */
void
store__bind_text(struct binder *b, const char *v)
{
	b->idx++;
	store__bind_rc(b, sdb_bind_text(b->st, b->idx, v));
}

void
store__bind_int(struct binder *b, int64_t v)
{
	b->idx++;
	store__bind_rc(b, sdb_bind_int64(b->st, b->idx, v));
}

/* Row ids of other rows, where 0 means none (a foreign key must be NULL). */
void
store__bind_ref(struct binder *b, int64_t v)
{
	if (v == 0) {
		b->idx++;
		store__bind_rc(b, sdb_bind_null(b->st, b->idx));
	} else
		store__bind_int(b, v);
}

void
store__bind_double(struct binder *b, double v)
{
	b->idx++;
	store__bind_rc(b, sdb_bind_double(b->st, b->idx, v));
}

/* An empty blob rather than NULL for len 0, so "" round-trips as itself. */
void
store__bind_blob(struct binder *b, const void *v, size_t len)
{
	b->idx++;
	store__bind_rc(b, sdb_bind_blob(b->st, b->idx, len == 0 ? NULL : v, len));
}

int
store__bind_fail(struct store *s, struct binder *b)
{
	return store__fail(s, "cannot bind parameter %d: %s",
	    b->idx, sqlite3_errstr(b->rc));
}

/* Run a statement that returns no rows, now or when convenient (later);
 * reset it whatever happens. */
static int
exec_one(struct store *s, struct sdb_stmt *st, struct binder *b, int later)
{
	int ret = -1;

	if (b != NULL && b->rc != SDB_OK) {
		store__bind_fail(s, b);
		goto out;
	}
	if ((later ? sdb_step_later(st) : sdb_step(st)) != SDB_DONE) {
		store__db_fail(s);
		goto out;
	}
	ret = 0;
out:
	store__stmt_done(st);
	return ret;
}

int
store__exec_stmt(struct store *s, struct sdb_stmt *st, struct binder *b)
{
	return exec_one(s, st, b, 0);
}

int
store__exec_later(struct store *s, struct sdb_stmt *st, struct binder *b)
{
	return exec_one(s, st, b, 1);
}

int
store__one_int(struct store *s, struct sdb_stmt *st, struct binder *b,
    int64_t *v)
{
	int rc = store__step_row(s, st, b);

	if (rc == 1)
		*v = sdb_column_int64(st, 0);
	else if (rc == 0)
		store__fail(s, "no row where one was due");
	store__stmt_done(st);
	return rc == 1 ? 0 : -1;
}

int
store__exec_rows(struct store *s, struct sdb_stmt *st, struct binder *b)
{
	int rc, ret = 0;

	while ((rc = store__step_row(s, st, b)) == 1)
		;
	if (rc < 0)
		ret = -1;
	store__stmt_done(st);
	return ret;
}

int
store__step_row(struct store *s, struct sdb_stmt *st, struct binder *b)
{
	int rc;

	if (b != NULL && b->rc != SDB_OK) {
		store__bind_fail(s, b);
		return -1;
	}
	rc = sdb_step(st);
	if (rc == SDB_ROW)
		return 1;
	if (rc == SDB_DONE)
		return 0;
	store__db_fail(s);
	return -1;
}

/*
 * Bind key to st's one parameter and step once. Returns 1 with a row to
 * read, 0 when there is none, -1 on an error (recorded in s). The caller
 * resets st with store__stmt_done in every case.
 */
int
store__step_by_key(struct store *s, struct sdb_stmt *st, const char *key)
{
	struct binder b;

	store__bind_start(&b, st);
	store__bind_text(&b, key);
	return store__step_row(s, st, &b);
}

/* A write to a table a read-only open found missing. */
int
store__no_table(struct store *s, int id)
{
	return store__fail(s, "no %s table (read-only open of an "
	    "older database)", store__stmt_def[id].table);
}

/* A statement naming a column a read-only open found missing. */
int
store__no_column(struct store *s, int id)
{
	return store__fail(s, "no %s.%s column (read-only open "
	    "of an older database)", store__column_table(store__stmt_def[id].column),
	    store__stmt_def[id].column);
}

int
store_explain(struct store *s, const char *name, char *out, size_t outsz)
{
	struct sdb_stmt *st = NULL;
	char *sql = NULL;
	const char *detail;
	size_t len = 0, n;
	int i, rc, ret = -1;

	if (outsz > 0)
		out[0] = '\0';
	for (i = 0; i < ST_NUM; i++)
		if (strcmp(store__stmt_def[i].name, name) == 0)
			break;
	if (i == ST_NUM)
		return store__fail(s, "no statement named %s",
		    name);
	sql = sqlite3_mprintf("EXPLAIN QUERY PLAN %s", store__stmt_def[i].sql);
	if (sql == NULL) {
		store__oom_fail(s);
		goto out;
	}
	if (sdb_prepare(s->db, sql, &st) != SDB_OK) {
		store__db_fail(s);
		goto out;
	}
	while ((rc = sdb_step(st)) == SDB_ROW) {
		detail = (const char *)sdb_column_text(st, 3);
		if (detail == NULL)
			continue;
		n = strlen(detail);
		if (len + n + 2 > outsz) {
			store__fail(s, "plan too long");
			goto out;
		}
		memcpy(out + len, detail, n);
		len += n;
		out[len++] = '\n';
		out[len] = '\0';
	}
	if (rc != SDB_DONE) {
		store__db_fail(s);
		goto out;
	}
	ret = 0;
out:
	sdb_finalize(st);
	sqlite3_free(sql);
	return ret;
}
