/*
 * setup: everything before the first transfer -- the database opened, the
 * stored settings checked against ours (crawler/settings.h), the scope,
 * the indexes and the frontier's hosts loaded back on resume, the seeds.
 */
#ifndef NC_CRAWL_SETUP_H
#define NC_CRAWL_SETUP_H

#include "crawler/state.h"

/* Open and load the crawl; 0, or an exit status (1 or 2) with c->err. */
int setup_prepare(struct crawl *c);

#endif
