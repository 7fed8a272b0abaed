/*
 * store_err: what an SQLite failure means to a user -- the advice of
 * store_hint and the message every store and connection error carries.
 */
#include "storage/store_int.h"

#include <stdio.h>
#include <string.h>

const char *
store_hint(int code)
{
	return store__hint_kept(code, 1);
}

const char *
store__hint_kept(int code, int kept)
{
	switch (code) {
	case SQLITE_IOERR_WRITE:
	case SQLITE_IOERR_FSYNC:
	case SQLITE_IOERR_TRUNCATE:
	case SQLITE_IOERR_SHMSIZE:
		return kept ? "a write failed: a full disk, a file size limit "
		              "or a failing disk; what was committed is kept"
		            : "a write failed: a full disk, a file size limit "
		              "or a failing disk; no page was stored yet";
	default:
		break;
	}
	switch (code & 0xff) {
	case SQLITE_FULL:
		return kept ? "what was committed is kept"
		            : "no page was stored yet";
	case SQLITE_CORRUPT:
		return "the file is damaged; PRAGMA integrity_check in "
		       "sqlite3 shows where";
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		return "another process holds it; gave up after 5 s";
	case SQLITE_READONLY:
		return "the file or its directory is read-only";
	case SQLITE_CANTOPEN:
		return "the file, or the -wal and -shm files beside it, cannot "
		       "be opened or made";
	default:
		return NULL;
	}
}

/* What a PostgreSQL failure means, in the words store_hint uses. */
static void
pg_why_failed(struct sdb *db, char *out, size_t outsz)
{
	const char *hint, *msg = sdb_errmsg(db);

	/* Some failures come without a message (libpq's for an empty
	 * query): "cannot write: " and nothing would leave the user guessing
	 * whether anything was said at all. */
	if (*msg == '\0')
		msg = "the server reported a failure but gave no reason";
	switch (sdb_errcode(db)) {
	case SDB_IOERR:
		hint = "the database server went away or the connection "
		       "broke; what was committed is kept, and a new run "
		       "resumes";
		break;
	case SDB_BUSY:
		hint = "another process holds a lock the statement needed";
		break;
	case SDB_FULL:
		hint = "the server's disk is full; what was committed is kept";
		break;
	case SDB_CORRUPT:
		hint = "the server reports damaged data";
		break;
	default:
		hint = NULL;
	}
	if (hint == NULL)
		snprintf(out, outsz, "%s", msg);
	else
		snprintf(out, outsz, "%s (%s)", msg, hint);
}

/*
 * A database target as messages show it: a PostgreSQL URI without its
 * password, else the path itself. Returns a static buffer.
 */
const char *
store__target_name(const char *target)
{
	static char buf[512];
	const char *scheme, *at, *colon;
	size_t n;

	if (target == NULL || (scheme = strstr(target, "://")) == NULL ||
	    (at = strchr(scheme + 3, '@')) == NULL)
		return target;
	colon = memchr(scheme + 3, ':', (size_t)(at - (scheme + 3)));
	if (colon == NULL)
		return target;
	n = (size_t)(colon - target);
	snprintf(buf, sizeof(buf), "%.*s%s", (int)n, target, at);
	return buf;
}

/*
 * SQLite's message for db's last failure into out, with the system's
 * reason for an I/O error and store_hint's advice in parentheses.
 */
void
store__why_failed(struct sdb *sdb, char *out, size_t outsz)
{
	store__why_failed_kept(sdb, 1, out, outsz);
}

void
store__why_failed_kept(struct sdb *sdb, int kept, char *out, size_t outsz)
{
	sqlite3 *db = sdb_sqlite(sdb);
	int code, e;
	const char *hint;

	if (db == NULL) {
		pg_why_failed(sdb, out, outsz);
		return;
	}
	code = sqlite3_extended_errcode(db);
	e = sqlite3_system_errno(db);
	hint = store__hint_kept(code, kept);

	/* SQLite keeps errno only for some failures; 0 is unknown. */
	if ((code & 0xff) != SQLITE_IOERR)
		e = 0;
	if (e == 0 && hint == NULL)
		snprintf(out, outsz, "%s", sqlite3_errmsg(db));
	else
		snprintf(out, outsz, "%s (%s%s%s)", sqlite3_errmsg(db),
		    e != 0 ? strerror(e) : "",
		    e != 0 && hint != NULL ? "; " : "",
		    hint != NULL ? hint : "");
}
