/*
 * report_visits: what the recrawls (nearcrawl crawl --recrawl) found, per
 * visit: how many pages were unchanged, changed, gone, moved, failed or
 * new, and how the changed pages' verdicts moved (unique to near ...).
 * visits.csv and visit-moves.csv, lines of summary.txt, a table of
 * index.html; nothing at all for a crawl never recrawled.
 */
#ifndef NC_REPORT_VISITS_H
#define NC_REPORT_VISITS_H

#include <stdio.h>

struct rep;

/* Read the visits through r's connection into r, and write visits.csv
 * and visit-moves.csv when there are any. 0, or REPORT_RUNTIME or
 * REPORT_BADDB with the message set. */
int report_visits_read(struct rep *r);

/* The visits in plain words (summary.txt, the terminal); nothing when
 * there are none. */
void report_visits_text(const struct rep *r, FILE *f);

/* The visits as an HTML section; nothing when there are none. */
void report_visits_html(const struct rep *r, FILE *f);

#endif
