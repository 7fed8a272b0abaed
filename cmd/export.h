/*
 * export: `nearcrawl export -d DB [--format csv|jsonl] [-o FILE]
 * [--clusters [--members N]]` -- a crawl's pages (or its duplicate
 * clusters) as CSV (RFC 4180) or JSON Lines, for a spreadsheet, pandas, jq
 * or another tool.
 *
 * One row a page, in fetch order: url, host, seq, fetched_at (UTC, ISO
 * 8601 with milliseconds), status, verdict, reason, original (the URL the
 * page repeats: of its duplicates rows the one with the highest
 * percentage, ties going to the earliest-fetched original, then to the
 * method's name, so an exact copy names its MD5 original), method,
 * percentage, canonical (its duplicate cluster's canonical page as
 * `nearcrawl rank` chose it; empty when the page is in no cluster, when
 * rank has not run, or for pages crawled after it ran) and
 * declared_canonical (the URL the page declares, pages.canonical).
 *
 * --clusters: one row per cluster of the ranks table (rank must have run):
 * cluster (the canonical page's id), canonical, size, members (the first N
 * member URLs in fetch order, N = --members, default 10; the canonical
 * among them when it is one of those; in CSV joined by a space, in JSON an
 * array). The page rows' canonical column gives every member.
 *
 * Rows are read by one SELECT and written as they come: memory does not
 * grow with the database. Text from the web is written as valid UTF-8:
 * bytes that are not become U+FFFD. CSV fields holding a comma, a quote,
 * CR or LF are quoted, quotes doubled; lines end in CRLF as RFC 4180 says.
 * JSON strings escape quotes, backslashes and every control character; a
 * missing value is null (an empty field in CSV).
 */
#ifndef NC_EXPORT_H
#define NC_EXPORT_H

/* Run `nearcrawl export` with argv[0] "export"; returns the exit status:
 * 0 done, 1 failed at run time (a write failed), 2 bad usage or database
 * (missing, not a nearcrawl database, unreadable, not ranked for
 * --clusters). */
int export_main(int argc, char **argv);

#endif
