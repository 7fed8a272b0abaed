/*
 * warcout: what a crawl with --warc DIR writes into its WARC files
 * (docs/archives.md), through archive/warc.h.
 *
 * Every fetch that got a response -- pages, robots.txt, sitemaps, errors
 * and redirects alike -- leaves a response record (the body as the server
 * sent it, content-coding kept) and the request record that asked for it.
 * A response whose payload digest was archived before becomes a revisit
 * record pointing at the first one -- of this crawl, or of an earlier
 * crawl it is deduplicated against (crawler/earlier.h), whose file,
 * offset and record ID it names where they are known. A page judged a duplicate then gets a
 * metadata record beside its response, naming its original(s), method(s)
 * and similarity.
 */
#ifndef NC_CRAWL_WARCOUT_H
#define NC_CRAWL_WARCOUT_H

#include "crawler/state.h"

/*
 * Open c->warc when the settings ask for an archive (warc_dir not
 * "none"); files of an earlier run in the directory stay as they are and
 * new ones follow them. 0; 2 with c->err when the directory cannot be
 * used; 1 when out of memory.
 */
int warcout_open(struct crawl *c);

/*
 * Archive j's finished transfer r (nothing when it got no response): the
 * response or revisit record, then the request record. The response's
 * record ID goes to j->warc_id for warcout_verdict, its payload digest
 * to j->warc_digest (when it was whole). 0, or -1 with c->err
 * set (a write failed: the crawl stops, as on a database failure).
 */
int warcout_fetch(struct crawl *c, struct job *j, const struct fetch_result *r);

/*
 * After j's page (row id) was judged v with matches m: for exact and
 * near duplicates, a metadata record concurrent to its response naming
 * each original's URL, the method and the similarity. 0, or -1 with
 * c->err set.
 */
int warcout_verdict(struct crawl *c, const struct job *j, enum dedup_verdict v,
    const struct dedup_match *m, size_t nm);

/* Finish the open file and its index. 0, or -1 with c->err set. NULL
 * c->warc is fine. */
int warcout_close(struct crawl *c);

#endif
