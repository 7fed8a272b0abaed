/*
 * store_settings: what a resumed crawl may change about the hosts it
 * gave up (--retry-given-up). The settings themselves are meta rows
 * (store_meta_get, store_meta_set).
 */
#include "storage/store_frontier.h"
#include "storage/store_int.h"

int64_t
store_hosts_retry_given_up(struct store *s)
{
	struct sdb_stmt *st = NULL;
	int rc;

	/* The mark, the failures in a row and any back-off go: the host
	 * starts over as if it had never failed. Its frontier rows were
	 * never taken out of the queue, so they are scheduled again. */
	rc = sdb_prepare(s->db,
	    "UPDATE hosts SET gave_up = NULL, failures = 0, backoff_ms = 0, "
	    "not_before = 0 WHERE gave_up IS NOT NULL", &st);
	if (rc == SDB_OK)
		rc = sdb_step(st);
	sdb_finalize(st);
	if (rc != SDB_DONE)
		return store__db_fail(s);
	return (int64_t)sdb_changes(s->db);
}
