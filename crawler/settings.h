/*
 * settings: the crawl's settings kept in its database (meta), one row per
 * setting. Before a run, crawl_adopt_settings (crawl.h) takes the stored
 * ones the user did not give again; at the start of the run
 * settings_check refuses a change that would mix verdicts (the dedup
 * settings, the scope), says which other settings changed, and records
 * them all. Per-run options (config_per_run) and secrets are never stored.
 */
#ifndef NC_CRAWL_SETTINGS_H
#define NC_CRAWL_SETTINGS_H

#include "crawler/state.h"

/*
 * key must hold value (the option opt names it to the user): stored when
 * new, refused with c->err when the database holds another. 0, or an exit
 * status (1 on a database error, 2 refused).
 */
int settings_match(struct crawl *c, const char *key, const char *value,
    const char *opt);

/* Check the stored settings against ours and record ours; 0, or an exit
 * status (1 or 2) with c->err. */
int settings_check(struct crawl *c);

/*
 * Whether the crawl in database st (an earlier crawl, opened read-only)
 * judged pages as c does: the same methods, their feature versions and
 * every setting that decides verdicts. 0 alike; 1 not, with the first
 * difference said in what (whatsz bytes); -1 on a database error or out
 * of memory.
 */
int settings_alike(const struct crawl *c, struct store *st, char *what,
    size_t whatsz);

/*
 * Every setting of c as it would be stored (credentials and the database
 * location left out), one call of fn per value (a list setting: one per
 * entry), for a record of what a crawl ran with (the WARC warcinfo).
 * 0, or -1 when out of memory.
 */
int settings_each(const struct crawl *c,
    void (*fn)(const char *key, const char *value, void *arg), void *arg);

#endif
