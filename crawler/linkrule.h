/*
 * linkrule: the link rule (docs/dedup.md, "Links of duplicates"). A page is new
 * content when it is unique, or when it is a duplicate one of whose links
 * led to a unique page (store_fruitful_add): the verdict hid something
 * new. A near copy's links are followed while fewer than --dup-hops
 * duplicates that are not new content stand in a row between it and the
 * nearest new content (or seed) that led to it, so a false near verdict
 * cannot cut off what lies behind it, and a run of duplicates that yields
 * nothing new ends after --dup-hops pages. An exact copy's links are not
 * followed: its text, anchor text included, is the original's, so its
 * links are the original's spelt otherwise (session ids, mirrors).
 */
#ifndef NC_CRAWL_LINKRULE_H
#define NC_CRAWL_LINKRULE_H

#include "crawler/state.h"

/*
 * Whether the links of j's page, judged v, are followed, and the dup_hops
 * they are queued with: 1 with *hops set, 0, or -1 on a database error.
 */
int linkrule_followed(struct crawl *c, const struct job *j,
    enum dedup_verdict v, int *hops);

/*
 * j's page is unique: when what linked to it (through redirects) is a
 * duplicate, that duplicate becomes new content. 0, or -1 on a database
 * error.
 */
int linkrule_credit_linker(struct crawl *c, const struct job *j);

#endif
