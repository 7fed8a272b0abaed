/*
 * serve_report: the report of `nearcrawl report` inside the view: made by
 * this program's own report command, run apart into a directory of the
 * server's temporary directory, remade (at most every --refresh seconds)
 * when the database has changed since, and swapped in whole once the run
 * ends, so a page never shows half a report. Its files are served under
 * /report/; the overview shows its summary and plots.
 */
#ifndef NC_SERVE_REPORT_H
#define NC_SERVE_REPORT_H

#include <stddef.h>
#include <stdint.h>

#include "cmd/serve_out.h"

/* Make the server's temporary directory. 0, or -1 with err. */
int svr_init(struct sv *s, char *err, size_t errsz);

/*
 * Start a report of the database as it is now at max_seq (its largest
 * seq; -1 forces one), unless one is being made, or the last one was
 * made at the same max_seq, or less than --refresh seconds ago. Cannot
 * fail: a report that cannot start leaves the last one in place.
 */
void svr_start(struct sv *s, int64_t max_seq);

/* A report run may have ended (SIGCHLD): take it in when it did. */
void svr_reap(struct sv *s);

/* Stop a run, remove the temporary directory. */
void svr_cleanup(struct sv *s);

/* Answer /report/NAME: a file of the last report ("" is index.html). */
void svr_file(struct sv_req *r, const char *name);

/* The report's summary and plots, for the overview (or a line saying
 * it is being made). */
void svr_overview(struct sv_req *r);

#endif
