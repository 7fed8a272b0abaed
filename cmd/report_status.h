/*
 * report_status: the results of nearcrawl report, the same as nearcrawl's
 * exit statuses; shared by cmd/report.h and the report's own modules.
 */
#ifndef NC_REPORT_STATUS_H
#define NC_REPORT_STATUS_H

enum { REPORT_OK = 0, REPORT_RUNTIME = 1, REPORT_BADDB = 2 };

#endif
