/*
 * check: `nearcrawl check -d DB [--warc DIR|none]` -- whether a crawl's
 * database is sound, and says what is not, a line each:
 *
 *   integrity  the file itself: SQLite's PRAGMA integrity_check, or on
 *              PostgreSQL amcheck where it is installed (else said);
 *   duplicates every near or exact page has its duplicates row, and
 *              every duplicates row its page and its original;
 *   seq        the fetch order is 1, 2, 3 ... without gaps or repeats;
 *   frontier   no URL is in flight with nobody fetching it (on SQLite,
 *              no crawl at work; on PostgreSQL, no lease on its host);
 *   warc, cdxj when the crawl wrote WARC files: every record reads, each
 *              file's CDXJ index names its response and revisit records
 *              (offset, length, key), and every page that got a response
 *              has its record (a near or exact page its metadata record
 *              too).
 *
 * At most CHECK_LINES lines a kind, then how many more. Nothing is
 * written: a crawl may go on meanwhile (then what is in flight, and the
 * archive it is writing, are its own and left out, as said).
 */
#ifndef NC_CHECK_H
#define NC_CHECK_H

/* Run `nearcrawl check` with argv[0] "check"; returns the exit status: 0
 * sound, 1 problems found (listed on standard output) or a failure while
 * checking, 2 bad usage or a database that is not a crawl's. */
int check_main(int argc, char **argv);

#endif
