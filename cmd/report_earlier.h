/*
 * report_earlier: how a crawl deduplicated against earlier crawls
 * (nearcrawl crawl --dedup-against, docs/archives.md) stands to them:
 * per host and overall, the judged pages new, the same as before and
 * near to a page of before. earlier.csv, three more columns of hosts.csv,
 * lines of summary.txt, a table of index.html; nothing at all, and every
 * other file byte for byte as before, for a crawl without earlier ones.
 */
#ifndef NC_REPORT_EARLIER_H
#define NC_REPORT_EARLIER_H

#include <stdio.h>

struct rep;

/* Read the relation through r's connection into r, and write earlier.csv
 * when the crawl had earlier crawls. 0, or REPORT_RUNTIME or
 * REPORT_BADDB with the message set. */
int report_earlier_read(struct rep *r);

/* hosts.csv's extra header columns, and host's values: nothing for a
 * crawl without earlier crawls. */
void report_earlier_header(const struct rep *r, FILE *f);
void report_earlier_host(const struct rep *r, const char *host, FILE *f);

/* The relation in plain words (summary.txt, the terminal); nothing for a
 * crawl without earlier crawls. */
void report_earlier_text(const struct rep *r, FILE *f);

/* The relation as an HTML section; likewise. */
void report_earlier_html(const struct rep *r, FILE *f);

#endif
