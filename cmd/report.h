/*
 * report: tables and plots of a crawl, read from its database.
 *
 * `nearcrawl report -d DB -o DIR` writes into DIR (and nowhere else):
 *
 *   growth.csv       fetched,unique,exact,near: cumulative verdict counts
 *                    along the fetch order (seq), thinned to about 1000 rows
 *                    for crawls over 2000 pages; the last row always equals
 *                    the database's counts
 *   growth.gp        the gnuplot script drawing growth.csv (kept so it can
 *                    be edited and run again: cd DIR && gnuplot growth.gp)
 *   growth.svg/.png  unique, exact and near duplicates against pages fetched
 *   hosts.csv        host,pages,unique,exact,near,duplicate_share
 *   clusters.csv     original_url,duplicate_url,method,percentage,
 *                    canonical_url (the cluster's canonical page once
 *                    `nearcrawl rank` has run, else empty)
 *   similarity.csv   method,bucket,pages: percentages in 5-point buckets
 *   similarity.gp, similarity.svg/.png: the same histogram drawn per method
 *   summary.txt      the headline figures in plain words
 *   growth-time.gp/.svg/.png  the growth.csv rows against the time since
 *                    the first fetch
 *   hosts.gp/.svg/.png  small multiples: the growth of the busiest hosts
 *                    (opt->hosts of them), each against its own pages
 *   index.html       one page tying it together: the summary, the plots,
 *                    the host table and the largest duplicate clusters;
 *                    self-contained, it opens offline from DIR
 *
 * The database is opened read-only and takes no lock, so a report can be
 * made while a crawl is writing; every table comes from one read
 * transaction, so the files agree with each other even then.
 *
 * Text from the database (URLs, hosts, methods) is untrusted: CSV fields are
 * quoted per RFC 4180, and everywhere control bytes become \xHH (esc.h), so
 * no escape sequence is ever printed raw; index.html also turns & < > " '
 * into character references and links only http(s) URLs.
 */
#ifndef NC_REPORT_H
#define NC_REPORT_H

#include <stddef.h>
#include <stdio.h>

/* Results of report_write, the same as nearcrawl's exit statuses:
 * REPORT_OK, REPORT_RUNTIME, REPORT_BADDB. */
#include "cmd/report_status.h"

/*
 * Write the report of database db into directory dir, which is created as
 * by `mkdir -p` (mode 0755 less the umask); an existing dir that is not a
 * directory is refused. Unless quiet, the summary and the list of files are
 * printed on stdout. The plots are drawn by running the gnuplot program in
 * dir; when it is missing or fails, the CSV files, summary.txt and
 * index.html are still written, and REPORT_RUNTIME is returned.
 *
 * Returns REPORT_OK; REPORT_RUNTIME when a file cannot be written, gnuplot
 * fails or is missing, or reading fails part way (a damaged page, an I/O
 * error, a lock held too long, no memory); REPORT_BADDB when db is missing,
 * is not a nearcrawl database or cannot be opened, or dir cannot be made
 * or used. On failure err holds a
 * one-line message naming the file concerned; it quotes file names and
 * database text as they are, so print it through esc.h.
 */
struct report_opts {
	int quiet; /* print nothing on stdout */
	int hosts; /* busiest hosts drawn in hosts.svg, 1 and up */
};
#define REPORT_HOSTS_DEFAULT 12
#define REPORT_HOSTS_MAX 100

int report_write(const char *db, const char *dir,
    const struct report_opts *opt, char *err, size_t errsz);

#endif
