/*
 * store_searchw: the full-text index's writer thread and its file
 * (storage/store_searchw.h).
 */
#include "storage/store_searchw.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "storage/store_int.h"
#include "util/chars.h"
#include "util/err.h"

/* The index file's schema: what storage/schema.sql said of the table when
 * it lived in the database (the words, the merge setting), with a WAL of
 * its own so that readers go on while the writer writes. */
static const char SIDE_SCHEMA[] =
    "PRAGMA journal_mode = WAL;"
    "PRAGMA synchronous = NORMAL;"
    "CREATE VIRTUAL TABLE IF NOT EXISTS search_text USING fts5("
    "title, body, tokenize = 'unicode61 remove_diacritics 2');"
    /* FTS5 merges its segments when 8 of a size are there, not 4: a crawl
     * adds pages all the time, and merging half as often took a sixth off
     * the time 12,000 pages of the bench site took to index. */
    "INSERT INTO search_text (search_text, rank) SELECT 'automerge', 8 "
    "WHERE NOT EXISTS (SELECT 1 FROM search_text_config "
    "WHERE k = 'automerge');";

/*
 * The writer's connection: SQLite's 2 MB page cache made FTS5 read its
 * segments back from the WAL as it merged them, and its checkpoint every
 * 1,000 pages (4 MB) copied pages into the file that the next merges
 * rewrote. 8 MiB of cache (twice that read the WAL no less often over
 * 3,000 bench pages, and held 10 MiB more at 100,000), a checkpoint every
 * 64 MiB of WAL, and the WAL cut back to 64 MiB after one, as the
 * database's own (store_open.c).
 */
static const char SIDE_WRITER[] =
    "PRAGMA cache_size = -8192;"
    "PRAGMA wal_autocheckpoint = 16384;"
    "PRAGMA journal_size_limit = 67108864;";

static const char SQL_PUT[] =
    "INSERT INTO search_text (rowid, title, body) VALUES (?1, ?2, ?3)";
static const char SQL_SET[] =
    "INSERT OR REPLACE INTO search_text (rowid, title, body) "
    "VALUES (?1, ?2, ?3)";
static const char SQL_DROP[] = "DELETE FROM search_text WHERE rowid = ?1";

enum op {
	OP_PUT,      /* a new page's entry */
	OP_SET,      /* a recrawled page's: replaces the one it has */
	OP_DROP,     /* a page gone: its entry goes */
	OP_COMMIT,   /* the crawl commits */
	OP_ROLLBACK, /* the crawl rolls back */
};

struct item {
	enum op op;
	int64_t id;    /* pages.id (PUT, SET, DROP) */
	char *title;   /* malloc'd copy, NULL when none */
	char *text;    /* malloc'd copy of len bytes (PUT, SET) */
	size_t len;
};

struct store_searchw {
	char *side;               /* the file's path, for messages */
	sqlite3 *h;               /* the writer's connection */
	sqlite3_stmt *put, *set, *drop; /* SQL_PUT, SQL_SET, SQL_DROP */
	int intx;                 /* the writer's transaction is open */
	pthread_t th;
	int started;              /* th runs */
	pthread_mutex_t lock;     /* guards what follows */
	pthread_cond_t work;      /* signalled when q grows (see
	                             STORE_SEARCHW_WAKE) or quit is set */
	pthread_cond_t room;      /* signalled when done reaches want */
	struct item q[STORE_SEARCHW_QUEUE]; /* ring: head first, n items */
	size_t head, n;
	size_t bytes;             /* text and titles queued */
	uint64_t pushed;          /* items handed over since the start */
	uint64_t done;            /* ... and finished by the writer */
	int idle;                 /* the writer waits on work, not yet
	                             signalled */
	int waiting;              /* the store's thread waits on room ... */
	uint64_t want;            /* ... until done reaches this */
	int quit;                 /* stop once q is empty */
	int failed;               /* the writer failed: err says why */
	char err[512];            /* the writer's failure, set with failed */
	char own[64];             /* the store's thread's own (memory) */
};

/* err = "SIDE: " and why h's last statement failed. */
static int
side_fail(sqlite3 *h, const char *side, char *err, size_t errsz)
{
	int code = h != NULL ? sqlite3_extended_errcode(h) : SQLITE_NOMEM;
	const char *hint = store_hint(code);

	return err_set(err, errsz, -1, "%s: %s%s%s", side,
	    h != NULL ? sqlite3_errmsg(h) : "out of memory",
	    hint != NULL ? " (" : "", hint != NULL ? hint : "");
}

char *
store_searchw_path(const char *db)
{
	size_t n = strlen(db);
	char *p;

	if ((p = malloc(n + sizeof(STORE_SEARCHW_SUFFIX))) == NULL)
		return NULL;
	memcpy(p, db, n);
	memcpy(p + n, STORE_SEARCHW_SUFFIX, sizeof(STORE_SEARCHW_SUFFIX));
	return p;
}

/* Open side (flags: SQLite's open flags) with the busy timeout the
 * store's connections have. 0 with *h set, or -1 with err set. */
static int
side_open(const char *side, int flags, sqlite3 **h, char *err, size_t errsz)
{
	*h = NULL;
	if (sqlite3_open_v2(side, h, flags, store__vfs()) != SQLITE_OK) {
		side_fail(*h, side, err, errsz);
		sqlite3_close(*h);
		*h = NULL;
		return -1;
	}
	sqlite3_busy_timeout(*h, STORE_BUSY_MS);
	return 0;
}

int
store_searchw_create(const char *side, char *err, size_t errsz)
{
	sqlite3 *h;
	int rc = 0;

	if (side_open(side, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, &h,
	    err, errsz) != 0)
		return -1;
	if (sqlite3_exec(h, SIDE_SCHEMA, NULL, NULL, NULL) != SQLITE_OK)
		rc = side_fail(h, side, err, errsz);
	sqlite3_close(h);
	return rc;
}

int
store_searchw_trim(const char *side, int64_t maxid, int64_t *dropped,
    char *err, size_t errsz)
{
	sqlite3_stmt *st = NULL;
	sqlite3 *h;
	int rc = -1;

	*dropped = 0;
	if (access(side, F_OK) != 0 && errno == ENOENT)
		return 0;
	/* A kill in the file's making may have left it without its table:
	 * made whole first (nothing is done to a whole one). */
	if (store_searchw_create(side, err, errsz) != 0 ||
	    side_open(side, SQLITE_OPEN_READWRITE, &h, err, errsz) != 0)
		return -1;
	if (sqlite3_prepare_v2(h, "DELETE FROM search_text WHERE rowid > ?1",
	    -1, &st, NULL) != SQLITE_OK ||
	    sqlite3_bind_int64(st, 1, maxid) != SQLITE_OK ||
	    sqlite3_step(st) != SQLITE_DONE) {
		side_fail(h, side, err, errsz);
		goto out;
	}
	*dropped = sqlite3_changes(h);
	rc = 0;
out:
	sqlite3_finalize(st);
	sqlite3_close(h);
	return rc;
}

/* Clean the character at t[i] (of len bytes): a mark, a NUL or a byte
 * that is not valid UTF-8 becomes a space. Its length in bytes. */
static size_t
clean_one(unsigned char *t, size_t i, size_t len)
{
	size_t k;
	uint32_t cp;

	if (t[i] < 0x80) {
		if (t[i] == STORE_SEARCHW_MARK_ON ||
		    t[i] == STORE_SEARCHW_MARK_OFF || t[i] == '\0')
			t[i] = ' ';
		return 1;
	}
	k = chars_utf8_decode(t + i, len - i, &cp);
	if (k == 1 && cp == 0xfffd)
		t[i] = ' ';
	return k;
}

void
store_searchw_clean_plain(char *text, size_t len)
{
	size_t i = 0;

	while (i < len)
		i += clean_one((unsigned char *)text, i, len);
}

/* A byte in every lane of a 64-bit word. */
#define LANES(b) ((uint64_t)(b) * 0x0101010101010101ULL)

void
store_searchw_clean_here(char *text, size_t len)
{
	unsigned char *t = (unsigned char *)text;
	size_t i = 0;
	uint64_t x;

	/* Most text is ASCII without control bytes: eight bytes at a time
	 * are passed over when none has its high bit set or is below 4
	 * (NUL and both marks are; a borrow only ever flags more). */
	while (i < len) {
		if (len - i >= sizeof(x)) {
			memcpy(&x, t + i, sizeof(x));
			if (((x | (x - LANES(4))) & LANES(0x80)) == 0) {
				i += sizeof(x);
				continue;
			}
		}
		i += clean_one(t, i, len);
	}
}

char *
store_searchw_clean(const char *text, size_t len)
{
	char *out;

	if ((out = malloc(len + 1)) == NULL)
		return NULL;
	if (len > 0)
		memcpy(out, text, len);
	out[len] = '\0';
	store_searchw_clean_here(out, len);
	return out;
}

/* ---- the writer thread ---- */

/* Note the writer's failure (its thread, w->lock not held: nothing reads
 * err before failed is set under the lock). */
static void
writer_fail(struct store_searchw *w)
{
	char why[sizeof(w->err)];

	side_fail(w->h, w->side, why, sizeof(why));
	if (w->intx)
		sqlite3_exec(w->h, "ROLLBACK", NULL, NULL, NULL);
	w->intx = 0;
	pthread_mutex_lock(&w->lock);
	if (!w->failed) {
		memcpy(w->err, why, sizeof(why));
		w->failed = 1;
	}
	pthread_mutex_unlock(&w->lock);
}

/* Write one entry (put, set) or drop it; its copies are cleaned in
 * place. 0, or -1. */
static int
writer_entry(struct store_searchw *w, struct item *it)
{
	sqlite3_stmt *st;
	int rc = -1;

	st = it->op == OP_PUT ? w->put : it->op == OP_SET ? w->set : w->drop;
	if (!w->intx) {
		if (sqlite3_exec(w->h, "BEGIN", NULL, NULL, NULL) != SQLITE_OK)
			return -1;
		w->intx = 1;
	}
	if (sqlite3_bind_int64(st, 1, it->id) != SQLITE_OK)
		goto out;
	if (it->op != OP_DROP) {
		/* Cleaned here, off the loop: the marks and bad UTF-8. The
		 * copies are the writer's, and keep their length. */
		store_searchw_clean_here(it->text, it->len);
		if (it->title != NULL)
			store_searchw_clean_here(it->title, strlen(it->title));
		if ((it->title != NULL ? sqlite3_bind_text(st, 2, it->title,
		    -1, SQLITE_STATIC) : sqlite3_bind_null(st, 2)) !=
		    SQLITE_OK || sqlite3_bind_text(st, 3, it->text, -1,
		    SQLITE_STATIC) != SQLITE_OK)
			goto out;
	}
	if (sqlite3_step(st) != SQLITE_DONE)
		goto out;
	rc = 0;
out:
	/* Reset after the error is read: a reset must not replace it. */
	if (rc == 0) {
		sqlite3_reset(st);
		sqlite3_clear_bindings(st);
	}
	return rc;
}

/* Do it: 0, or -1 with the connection's error. */
static int
writer_do(struct store_searchw *w, struct item *it)
{
	switch (it->op) {
	case OP_COMMIT:
		if (!w->intx)
			return 0;
		if (sqlite3_exec(w->h, "COMMIT", NULL, NULL, NULL) !=
		    SQLITE_OK)
			return -1;
		w->intx = 0;
		return 0;
	case OP_ROLLBACK:
		if (!w->intx)
			return 0;
		w->intx = 0;
		return sqlite3_exec(w->h, "ROLLBACK", NULL, NULL, NULL) ==
		    SQLITE_OK ? 0 : -1;
	default:
		return writer_entry(w, it);
	}
}

static void *
writer(void *arg)
{
	struct store_searchw *w = arg;
	struct item it;
	size_t sz;
	int failed;

	pthread_mutex_lock(&w->lock);
	for (;;) {
		while (w->n == 0 && !w->quit) {
			w->idle = 1; /* cleared by whoever signals */
			pthread_cond_wait(&w->work, &w->lock);
		}
		if (w->n == 0)
			break;
		it = w->q[w->head];
		sz = it.len + (it.title != NULL ? strlen(it.title) : 0);
		failed = w->failed;
		pthread_mutex_unlock(&w->lock);
		/* After a failure everything is dropped: the crawl learns of
		 * it at its next commit, and stops. */
		if (!failed && writer_do(w, &it) != 0)
			writer_fail(w);
		free(it.title);
		free(it.text);
		pthread_mutex_lock(&w->lock);
		w->q[w->head].title = w->q[w->head].text = NULL;
		w->head = (w->head + 1) % STORE_SEARCHW_QUEUE;
		w->n--;
		w->bytes -= sz;
		w->done++;
		if (w->waiting && w->done >= w->want)
			pthread_cond_signal(&w->room);
	}
	pthread_mutex_unlock(&w->lock);
	/* What the crawl did not commit, it does not keep. */
	if (w->intx)
		sqlite3_exec(w->h, "ROLLBACK", NULL, NULL, NULL);
	w->intx = 0;
	return NULL;
}

/* ---- the store's side ---- */

/* Free w, whose thread has ended or never started, and the lock and
 * conditions that were made (a start that failed half-way made some). */
static void
release(struct store_searchw *w, int locked, int cwork, int croom)
{
	if (croom)
		pthread_cond_destroy(&w->room);
	if (cwork)
		pthread_cond_destroy(&w->work);
	if (locked)
		pthread_mutex_destroy(&w->lock);
	sqlite3_finalize(w->put);
	sqlite3_finalize(w->set);
	sqlite3_finalize(w->drop);
	sqlite3_close(w->h);
	free(w->side);
	free(w);
}

int
store_searchw_start(const char *side, struct store_searchw **out,
    char *err, size_t errsz)
{
	struct store_searchw *w;
	int locked = 0, cwork = 0, croom = 0;

	*out = NULL;
	if ((w = calloc(1, sizeof(*w))) == NULL ||
	    (w->side = strdup(side)) == NULL) {
		free(w);
		return err_set(err, errsz, -1, "%s: out of memory", side);
	}
	if (store_searchw_create(side, err, errsz) != 0 ||
	    /* only the writer thread uses it once started */
	    side_open(side, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, &w->h,
	    err, errsz) != 0)
		goto fail;
	if (sqlite3_exec(w->h, SIDE_WRITER, NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(w->h, SQL_PUT, -1, &w->put, NULL) !=
	    SQLITE_OK || sqlite3_prepare_v2(w->h, SQL_SET, -1, &w->set,
	    NULL) != SQLITE_OK || sqlite3_prepare_v2(w->h, SQL_DROP, -1,
	    &w->drop, NULL) != SQLITE_OK) {
		side_fail(w->h, side, err, errsz);
		goto fail;
	}
	if (!(locked = pthread_mutex_init(&w->lock, NULL) == 0) ||
	    !(cwork = pthread_cond_init(&w->work, NULL) == 0) ||
	    !(croom = pthread_cond_init(&w->room, NULL) == 0) ||
	    pthread_create(&w->th, NULL, writer, w) != 0) {
		err_set(err, errsz, -1, "%s: cannot start the index's "
		    "writer thread", side);
		goto fail;
	}
	w->started = 1;
	*out = w;
	return 0;
fail:
	release(w, locked, cwork, croom);
	return -1;
}

/* Wake the writer if it waits for work (w->lock held). */
static void
wake(struct store_searchw *w)
{
	if (w->idle) {
		w->idle = 0;
		pthread_cond_signal(&w->work);
	}
}

/* Wait until the writer has done item seq (w->lock held). */
static void
wait_done(struct store_searchw *w, uint64_t seq)
{
	w->want = seq;
	w->waiting = 1;
	while (w->done < seq)
		pthread_cond_wait(&w->room, &w->lock);
	w->waiting = 0;
}

/* Queue it, waiting for room; the copies are the writer's from here. Then
 * *seq is its number. 0, or -1 when the writer failed (the copies freed). */
static int
push(struct store_searchw *w, struct item *it, uint64_t *seq)
{
	size_t sz = it->len + (it->title != NULL ? strlen(it->title) : 0);

	pthread_mutex_lock(&w->lock);
	while (!w->failed && (w->n == STORE_SEARCHW_QUEUE ||
	    (w->n > 0 && w->bytes + sz > STORE_SEARCHW_BYTES))) {
		/* Full before the writer was woken (by bytes): room comes
		 * once it has done one more. */
		wake(w);
		wait_done(w, w->done + 1);
	}
	if (w->failed) {
		pthread_mutex_unlock(&w->lock);
		free(it->title);
		free(it->text);
		return -1;
	}
	w->q[(w->head + w->n) % STORE_SEARCHW_QUEUE] = *it;
	w->n++;
	w->bytes += sz;
	*seq = ++w->pushed;
	if (w->n >= STORE_SEARCHW_WAKE || it->op == OP_COMMIT ||
	    it->op == OP_ROLLBACK)
		wake(w);
	pthread_mutex_unlock(&w->lock);
	return 0;
}

/* Queue op and wait until the writer has done it. 0, or -1. */
static int
push_wait(struct store_searchw *w, enum op op)
{
	struct item it = { op, 0, NULL, NULL, 0 };
	uint64_t seq;
	int failed;

	if (push(w, &it, &seq) != 0)
		return -1;
	pthread_mutex_lock(&w->lock);
	wait_done(w, seq);
	failed = w->failed;
	pthread_mutex_unlock(&w->lock);
	return failed ? -1 : 0;
}

int
store_searchw_put(struct store_searchw *w, int64_t id, const char *title,
    const char *text, size_t len, int replace)
{
	struct item it = { replace ? OP_SET : OP_PUT, id, NULL, NULL, len };
	uint64_t seq;

	if ((title != NULL && (it.title = strdup(title)) == NULL) ||
	    (it.text = malloc(len + 1)) == NULL) {
		free(it.title);
		return err_set(w->own, sizeof(w->own), -1, "out of memory");
	}
	if (len > 0)
		memcpy(it.text, text, len);
	it.text[len] = '\0';
	return push(w, &it, &seq);
}

int
store_searchw_drop(struct store_searchw *w, int64_t id)
{
	struct item it = { OP_DROP, id, NULL, NULL, 0 };
	uint64_t seq;

	return push(w, &it, &seq);
}

int
store_searchw_commit(struct store_searchw *w)
{
	return push_wait(w, OP_COMMIT);
}

int
store_searchw_rollback(struct store_searchw *w)
{
	return push_wait(w, OP_ROLLBACK);
}

const char *
store_searchw_errmsg(const struct store_searchw *w)
{
	/* err is written once, before failed is set under the lock, which
	 * the failed call read under it. */
	return w->err[0] != '\0' ? w->err : w->own[0] != '\0' ? w->own :
	    "no error";
}

void
store_searchw_stop(struct store_searchw *w)
{
	size_t i;

	if (w == NULL)
		return;
	if (w->started) {
		pthread_mutex_lock(&w->lock);
		w->quit = 1;
		pthread_cond_signal(&w->work);
		pthread_mutex_unlock(&w->lock);
		pthread_join(w->th, NULL);
	}
	for (i = 0; i < STORE_SEARCHW_QUEUE; i++) {
		free(w->q[i].title);
		free(w->q[i].text);
	}
	release(w, 1, 1, 1);
}
