/*
 * check_int: what the files of `nearcrawl check` share (cmd/check.h).
 *
 *   cmd/check.c       the command: arguments, the database's checks and
 *                     the closing summary
 *   cmd/check_warc.c  the WARC files and CDXJ indexes of a crawl with
 *                     --warc, against each other and the pages
 *   cmd/check_say.c   the lines: problems, at most CHECK_LINES a kind, and
 *                     notes
 */
#ifndef NC_CHECK_INT_H
#define NC_CHECK_INT_H

#include <stdint.h>
#include <stdio.h>

#include "storage/query.h"

/* Lines said of one kind of problem; past them, only how many more. */
#define CHECK_LINES 20

/* The kinds of problem, in the order they are looked for. */
enum check_kind {
	CHECK_INTEGRITY,
	CHECK_DUPLICATES,
	CHECK_SEQ,
	CHECK_FRONTIER,
	CHECK_WARC,
	CHECK_CDXJ,
	CHECK_SEARCH,
	CHECK_KINDS
};

/* One run of the command. */
struct check {
	const char *db;         /* the database, as given */
	struct store_conn *c;   /* our read-only connection */
	FILE *out;              /* where problems and notes go */
	int busy;               /* a crawl is writing the database now */
	int64_t found[CHECK_KINDS]; /* problems of each kind */
	int64_t pages;          /* pages rows (the summary) */
	int64_t dups;           /* duplicates rows (the summary) */
	int64_t max_seq;        /* the highest seq (the summary) */
	int warc_checked;       /* the archive was read */
	int64_t warc_files;     /* WARC files read */
	int64_t warc_records;   /* response and revisit records in them */
};

/* Say one problem of kind k (printf-like, one line; untrusted text in it
 * is escaped): printed while fewer than CHECK_LINES were, counted always. */
void check_problem(struct check *ck, enum check_kind k, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* After the lines of kind k: how many more there were, if any. */
void check_more(struct check *ck, enum check_kind k);

/* The word a kind's lines start with ("integrity", "seq" ...). */
const char *check_kind_name(enum check_kind k);

/* Say a note: something not checked, and why, or what the user may do.
 * Counts as no problem. */
void check_note(struct check *ck, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/*
 * The archive of a crawl with --warc: dir (NULL: the directory the crawl's
 * settings name; "none": not checked) with files named PREFIX-... .
 * Problems go through check_problem. 0, or -1 with err set when the
 * database cannot be read (out of memory included).
 */
int check_warc(struct check *ck, const char *dir, char *err, size_t errsz);

#endif
