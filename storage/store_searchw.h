/*
 * store_searchw: an SQLite crawl's full-text index, written on a thread of
 * its own into a file of its own (storage/store_search.h says what the
 * index holds; docs/search.md where it lives).
 *
 * Tokenising a page's text for FTS5 costs about a third of what the
 * event loop spends on a page; done on the loop, it made the loop the
 * crawl's bottleneck. The index is therefore kept beside the crawl's
 * database, in DB-search (STORE_SEARCHW_SUFFIX) with its own WAL, and
 * one thread writes it with its own connection. The loop only hands over
 * copies of each page's title and text through a bounded queue, and
 * waits when the queue is full.
 *
 * The writer's transaction follows the crawl's: store_commit first waits
 * until the writer has committed every entry handed over
 * (store_searchw_commit), so the index holds every committed page; a
 * rollback drops what was handed over since (store_searchw_rollback). A
 * kill between the two commits leaves entries whose pages were never
 * committed: their ids are above the database's largest pages.id, and
 * every writer open of the database deletes them (store_searchw_trim)
 * before an id can be drawn again.
 *
 * Internal to storage/: the store (store_open.c, store_search.c,
 * store_conn.c) is its only user. A writer's functions (_start to _stop)
 * are called from one thread, the store's; the others from any.
 */
#ifndef NC_STORE_SEARCHW_H
#define NC_STORE_SEARCHW_H

#include <stddef.h>
#include <stdint.h>

/* The bytes snippets mark matched words with, which the indexed text
 * never holds (store_search.h's STORE_SEARCH_MARK_ON and _OFF). */
#define STORE_SEARCHW_MARK_ON '\002'
#define STORE_SEARCHW_MARK_OFF '\003'

/* What the index file's name adds to the database's. */
#define STORE_SEARCHW_SUFFIX "-search"

/* Entries and bytes of text the queue holds at most before the loop
 * waits: the writer's lag, in memory. */
#define STORE_SEARCHW_QUEUE 256
#define STORE_SEARCHW_BYTES (16 * 1024 * 1024)

/* Entries an idle writer is left to gather before it is woken (a commit,
 * a rollback or a full queue wake it at once): one wake-up, and one
 * system call each side, for that many pages rather than for each. */
#define STORE_SEARCHW_WAKE 16

struct store_searchw;

/*
 * The index file of the SQLite database at db: db + STORE_SEARCHW_SUFFIX,
 * malloc'd (the caller frees it), or NULL when out of memory.
 */
char *store_searchw_path(const char *db);

/*
 * The text as it is indexed: a NUL-terminated copy of the len bytes at
 * text in which the snippet marks and any byte that is not valid UTF-8
 * (which PostgreSQL refuses, ending the transaction) become spaces.
 * malloc'd, or NULL when out of memory. Any thread may call it.
 */
char *store_searchw_clean(const char *text, size_t len);

/*
 * The same cleaning done in place on the len bytes at text (which keep
 * their length); eight bytes at a time where they are plain ASCII.
 * store_searchw_clean_plain does it a byte at a time: the fast path is
 * tested against it. Any thread may call them.
 */
void store_searchw_clean_here(char *text, size_t len);
void store_searchw_clean_plain(char *text, size_t len);

/*
 * Create the index file at side if it is missing (its table, WAL, the
 * merge setting) and leave it closed. 0, or -1 with err saying why.
 */
int store_searchw_create(const char *side, char *err, size_t errsz);

/*
 * Delete the entries of the index file at side whose id is above maxid
 * (the database's largest pages.id), *dropped set to how many; nothing
 * when the file is missing, and a file a kill left without its table
 * gets it (store_searchw_create). Called at a writer open, before any page is
 * added. 0, or -1 with err saying why.
 */
int store_searchw_trim(const char *side, int64_t maxid, int64_t *dropped,
    char *err, size_t errsz);

/*
 * Open (creating it if missing) the index file at side and start its
 * writer thread. 0 with *w set, or -1 with err saying why (the file, out
 * of memory, no thread). Stop it with store_searchw_stop.
 */
int store_searchw_start(const char *side, struct store_searchw **w,
    char *err, size_t errsz);

/*
 * Hand over page id's entry: a copy of title (NULL: none) and of the len
 * bytes of text, indexed as store_search_add does. replace: the page may
 * have an entry already (a recrawl), which the new one takes the place
 * of. Waits while the queue is full. 0, or -1 (store_searchw_errmsg): out
 * of memory, or the writer failed earlier.
 */
int store_searchw_put(struct store_searchw *w, int64_t id, const char *title,
    const char *text, size_t len, int replace);

/* Hand over the removal of page id's entry. 0, or -1 as _put. */
int store_searchw_drop(struct store_searchw *w, int64_t id);

/*
 * Wait until the writer has committed everything handed over. 0, or -1
 * (store_searchw_errmsg) when it failed: the index file's error, which
 * stays, and every later call fails too.
 */
int store_searchw_commit(struct store_searchw *w);

/* Wait until the writer has rolled back what was handed over since the
 * last commit. 0, or -1 as _commit. */
int store_searchw_rollback(struct store_searchw *w);

/* Why the last call failed (never NULL). */
const char *store_searchw_errmsg(const struct store_searchw *w);

/* Roll back what was not committed, stop the thread and close the file.
 * NULL w is fine. */
void store_searchw_stop(struct store_searchw *w);

#endif
