/*
 * report_html: index.html, the one page of a report: the summary, the
 * plots, the host table and the largest duplicate clusters.
 */
#ifndef NC_REPORT_HTML_H
#define NC_REPORT_HTML_H

struct rep;

/*
 * Write index.html into the output directory, reading the host table and
 * the largest clusters through r's connection (inside its snapshot, after
 * the passes that count the summary). The page works offline: its CSS is
 * inline and the plots are the SVG files beside it. 0, or REPORT_RUNTIME
 * or REPORT_BADDB with the message set.
 */
int report_html_write(struct rep *r);

#endif
