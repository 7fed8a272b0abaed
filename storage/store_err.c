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
	switch (code) {
	case SQLITE_IOERR_WRITE:
	case SQLITE_IOERR_FSYNC:
	case SQLITE_IOERR_TRUNCATE:
	case SQLITE_IOERR_SHMSIZE:
		return "a write failed: a full disk, a file size limit or a "
		       "failing disk; what was committed is kept";
	default:
		break;
	}
	switch (code & 0xff) {
	case SQLITE_FULL:
		return "what was committed is kept";
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

/*
 * SQLite's message for db's last failure into out, with the system's
 * reason for an I/O error and store_hint's advice in parentheses.
 */
void
store__why_failed(sqlite3 *db, char *out, size_t outsz)
{
	int code = sqlite3_extended_errcode(db);
	int e = sqlite3_system_errno(db);
	const char *hint = store_hint(code);

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
