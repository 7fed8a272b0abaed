/*
 * compare: `nearcrawl compare A B` -- how alike two documents are by every
 * method, and the verdict a crawl with the same settings would reach on B
 * after having seen A. A and B are files or http(s) URLs.
 */
#ifndef NC_COMPARE_H
#define NC_COMPARE_H

#include <stdio.h>

#include "config/config.h"

/*
 * Compare a and b with cfg's [dedup] settings and caps (a URL is fetched
 * once with cfg's User-Agent, timeouts and --resolve entries) and print the
 * figures to out. Returns 0, 1 when a document cannot be read or fetched
 * (message in err), 2 on bad arguments.
 */
int compare_run(const struct config *cfg, const char *a, const char *b,
    FILE *out, char *err, size_t errsz);

#endif
