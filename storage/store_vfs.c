/*
 * store_vfs: SQLite's own file layer with the writes to a write-ahead log
 * gathered into few system calls (store_int.h's store__vfs).
 *
 * SQLite writes each frame of the WAL with two pwrite calls, its 24-byte
 * header and its page: with the database's 1 KiB pages a crawl made some
 * 23 calls a page. Here the writes that follow one another in the file
 * wait in a buffer, and go out in one call when the buffer is full, when
 * a write lands elsewhere, before the file is read, synced, truncated,
 * sized or closed -- and when the commit frame of a transaction (the one
 * whose header gives the database size) is complete: SQLite publishes a
 * commit in the WAL index only after writing that frame, so no reader
 * ever looks for a frame still in the buffer, and the commit's write
 * error is returned by the write of that frame, as before. A process
 * killed with frames still in the buffer had not committed them.
 *
 * Every other file (the database, its shared memory, journals) is the
 * default layer's, untouched.
 */
#include "storage/store_int.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* Bytes of WAL a buffer holds before they are written: under 128 KiB,
 * the most the default layer writes in one call (it masks a write's size
 * to 17 bits, its pages being at most 64 KiB). */
#define WALBUF_BYTES (96 * 1024)
/* A WAL frame's header (SQLite's file format). */
#define FRAME_HEADER 24

#define VFS_NAME "nearcrawl-wal"

/* A WAL file: the default layer's file after it, in the same memory. */
struct walfile {
	sqlite3_file base;        /* methods: walfile_methods */
	sqlite3_file *real;       /* the default layer's file */
	unsigned char *buf;       /* writes not yet made, WALBUF_BYTES */
	sqlite3_int64 off;        /* file offset of buf[0] */
	int len;                  /* bytes in buf */
	int commit;               /* the last write was a commit frame's
	                             header: its page ends the commit */
};

static sqlite3_vfs vfs;           /* ours: the default one's, but xOpen */
static sqlite3_vfs *base_vfs;     /* the default one */
static sqlite3_io_methods walfile_methods;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static int registered;            /* vfs is registered */

/* Write out what buf holds. An SQLite result code. */
static int
flush(struct walfile *w)
{
	int rc;

	if (w->len == 0)
		return SQLITE_OK;
	rc = w->real->pMethods->xWrite(w->real, w->buf, w->len, w->off);
	w->len = 0;
	return rc;
}

static int
wal_close(sqlite3_file *f)
{
	struct walfile *w = (struct walfile *)f;
	int rc = flush(w), rc2;

	rc2 = w->real->pMethods->xClose(w->real);
	free(w->buf);
	w->buf = NULL;
	return rc != SQLITE_OK ? rc : rc2;
}

static int
wal_read(sqlite3_file *f, void *p, int n, sqlite3_int64 off)
{
	struct walfile *w = (struct walfile *)f;
	int rc = flush(w);

	return rc != SQLITE_OK ? rc : w->real->pMethods->xRead(w->real, p, n,
	    off);
}

static int
wal_write(sqlite3_file *f, const void *p, int n, sqlite3_int64 off)
{
	struct walfile *w = (struct walfile *)f;
	int rc, commit = w->commit;

	w->commit = 0;
	if (w->len > 0 && (off != w->off + w->len || w->len + n >
	    WALBUF_BYTES) && (rc = flush(w)) != SQLITE_OK)
		return rc;
	if (n > WALBUF_BYTES)
		return w->real->pMethods->xWrite(w->real, p, n, off);
	if (w->len == 0)
		w->off = off;
	memcpy(w->buf + w->len, p, (size_t)n);
	w->len += n;
	/* A frame header whose database size is not 0 begins the commit
	 * frame (big-endian, bytes 4 to 7). */
	if (n == FRAME_HEADER)
		w->commit = memcmp((const unsigned char *)p + 4,
		    "\0\0\0\0", 4) != 0;
	return commit ? flush(w) : SQLITE_OK;
}

static int
wal_truncate(sqlite3_file *f, sqlite3_int64 size)
{
	struct walfile *w = (struct walfile *)f;
	int rc = flush(w);

	return rc != SQLITE_OK ? rc : w->real->pMethods->xTruncate(w->real,
	    size);
}

static int
wal_sync(sqlite3_file *f, int flags)
{
	struct walfile *w = (struct walfile *)f;
	int rc = flush(w);

	return rc != SQLITE_OK ? rc : w->real->pMethods->xSync(w->real,
	    flags);
}

static int
wal_size(sqlite3_file *f, sqlite3_int64 *size)
{
	struct walfile *w = (struct walfile *)f;
	int rc = flush(w);

	return rc != SQLITE_OK ? rc : w->real->pMethods->xFileSize(w->real,
	    size);
}

static int
wal_lock(sqlite3_file *f, int level)
{
	struct walfile *w = (struct walfile *)f;

	return w->real->pMethods->xLock(w->real, level);
}

static int
wal_unlock(sqlite3_file *f, int level)
{
	struct walfile *w = (struct walfile *)f;

	return w->real->pMethods->xUnlock(w->real, level);
}

static int
wal_reserved(sqlite3_file *f, int *out)
{
	struct walfile *w = (struct walfile *)f;

	return w->real->pMethods->xCheckReservedLock(w->real, out);
}

static int
wal_control(sqlite3_file *f, int op, void *arg)
{
	struct walfile *w = (struct walfile *)f;
	int rc = flush(w);

	return rc != SQLITE_OK ? rc : w->real->pMethods->xFileControl(w->real,
	    op, arg);
}

static int
wal_sector(sqlite3_file *f)
{
	struct walfile *w = (struct walfile *)f;

	return w->real->pMethods->xSectorSize(w->real);
}

static int
wal_device(sqlite3_file *f)
{
	struct walfile *w = (struct walfile *)f;

	return w->real->pMethods->xDeviceCharacteristics(w->real);
}

/* Open: a WAL file is wrapped, any other is the default layer's own. */
static int
vfs_open(sqlite3_vfs *v, const char *name, sqlite3_file *f, int flags,
    int *out)
{
	struct walfile *w = (struct walfile *)f;
	int rc;

	(void)v;
	if (!(flags & SQLITE_OPEN_WAL))
		return base_vfs->xOpen(base_vfs, name, f, flags, out);
	memset(w, 0, sizeof(*w));
	w->real = (sqlite3_file *)(w + 1);
	if ((w->buf = malloc(WALBUF_BYTES)) == NULL)
		return SQLITE_NOMEM;
	rc = base_vfs->xOpen(base_vfs, name, w->real, flags, out);
	if (rc != SQLITE_OK) {
		/* The default layer's file needs no close once it failed. */
		free(w->buf);
		w->buf = NULL;
		return rc;
	}
	w->base.pMethods = &walfile_methods;
	return SQLITE_OK;
}

static void
vfs_register(void)
{
	if ((base_vfs = sqlite3_vfs_find(NULL)) == NULL)
		return;
	vfs = *base_vfs;
	vfs.zName = VFS_NAME;
	vfs.pNext = NULL;
	/* Room for a walfile and the default layer's file after it, which
	 * a file not wrapped uses from the start. */
	vfs.szOsFile = (int)((sizeof(struct walfile) + 7) / 8 * 8) +
	    base_vfs->szOsFile;
	vfs.xOpen = vfs_open;
	memset(&walfile_methods, 0, sizeof(walfile_methods));
	/* Version 1: a WAL file is never mapped nor given shared memory. */
	walfile_methods.iVersion = 1;
	walfile_methods.xClose = wal_close;
	walfile_methods.xRead = wal_read;
	walfile_methods.xWrite = wal_write;
	walfile_methods.xTruncate = wal_truncate;
	walfile_methods.xSync = wal_sync;
	walfile_methods.xFileSize = wal_size;
	walfile_methods.xLock = wal_lock;
	walfile_methods.xUnlock = wal_unlock;
	walfile_methods.xCheckReservedLock = wal_reserved;
	walfile_methods.xFileControl = wal_control;
	walfile_methods.xSectorSize = wal_sector;
	walfile_methods.xDeviceCharacteristics = wal_device;
	registered = sqlite3_vfs_register(&vfs, 0) == SQLITE_OK;
}

const char *
store__vfs(void)
{
	pthread_once(&once, vfs_register);
	return registered ? VFS_NAME : NULL;
}
