/*
 * serve_warc: a page's bytes read back from the WARC files a crawl kept
 * (--warc DIR), for the page view: the capture is found through the CDXJ
 * index beside each file (a binary search of a sorted .cdxj, a scan of
 * the .cdxj.part of a file still being written), read from its offset,
 * and its HTTP body undone as the crawl read it (chunked, gzip, deflate).
 */
#ifndef NC_SERVE_WARC_H
#define NC_SERVE_WARC_H

#include <stddef.h>

#include "util/buf.h"

/*
 * The body of url's capture in the WARC files of dir nearest in time to
 * fetched_at (Unix time), appended to body (its limit caps it), with its
 * Content-Type in ctype ("" when none). A revisit record is followed to
 * the response it names. Returns 0; 1 when there is no capture or it
 * cannot be read, with why in note; -1 when out of memory.
 */
int svw_read(const char *dir, const char *url, double fetched_at,
    struct buf *body, char *ctype, size_t ctsz, char *note, size_t notesz);

#endif
