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
 * The links of j's digested page (row id, judged v) queued as the rule
 * says, none when the page asks so (its work's nofollow); a unique page
 * first makes the duplicate that led to it new content. 0, or -1 on a
 * database or memory error.
 */
int linkrule_follow(struct crawl *c, const struct job *j, int64_t id,
    enum dedup_verdict v);

#endif
