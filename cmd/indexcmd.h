/*
 * indexcmd: `nearcrawl index -d DB [--warc PATH]...` -- the full-text
 * index (storage/store_search.h) of a database crawled before it, or the
 * part of it a crawl left: every judged page without an entry gets one.
 *
 * A crawl indexes each judged page with its row, from the text its near
 * methods read; afterwards that text must be found again, from where it
 * can be:
 *
 *   - a WARC revisit record's page (`nearcrawl dedup`): its original's
 *     entry, the payload being the same;
 *   - the WARC files the crawl wrote (--warc), the ones `nearcrawl dedup`
 *     read, and those given with --warc: each record of a page still
 *     missing is digested again with the crawl's own settings, which
 *     gives back exactly the text the crawl indexed;
 *   - the text the crawl stored (--store-text): the body text, which is
 *     the near text when the crawl read body text (--text body), and
 *     otherwise its superset (the site's menus and footers with the
 *     content), taken when no WARC record is there.
 *
 * A crawl that read body text takes its stored text first (no WARC file
 * to read); one that read main text reads WARC files first. Pages left
 * without either are counted and some named. The work is committed every
 * few hundred pages, so an interrupted run (SIGINT, SIGTERM) keeps what
 * it did and a rerun goes on from there.
 */
#ifndef NC_INDEXCMD_H
#define NC_INDEXCMD_H

/* The command: argv[0] is "index". Returns the exit status: 0 done; 1
 * failed at run time; 2 bad usage or database (or one a crawl is writing);
 * 3 stopped by a signal, what was done kept. */
int indexcmd_main(int argc, char **argv);

#endif
