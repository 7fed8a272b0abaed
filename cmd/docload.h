/*
 * docload: the bytes of a document a user names on the command line, a
 * file or an http(s) URL, for the commands that look at one page at a time
 * (compare, text).
 */
#ifndef NC_DOCLOAD_H
#define NC_DOCLOAD_H

#include <stddef.h>

#include "config/config.h"
#include "util/buf.h"

/* Redirects followed when the user names a URL: it is one request of
 * theirs, not a crawl, so we behave like a browser would. */
#define DOCLOAD_REDIRECTS 5

/*
 * Whether name is loaded as a URL (it starts with http:// or https://)
 * rather than as a file. Returns 1 or 0.
 */
int docload_is_url(const char *name);

/*
 * Read file name, or fetch URL name once with cfg's User-Agent, timeouts
 * and --resolve entries (redirects followed, 2xx required), appending the
 * bytes to raw, whose limit caps them. The Content-Type of a URL is copied
 * to ctype (cut to ctsz - 1 bytes), "" for a file. Returns 0, or 1 with a
 * message naming the document in err (cannot read, too large, network
 * error, HTTP status); raw stays the caller's to free either way.
 */
int docload_read(const struct config *cfg, const char *name, struct buf *raw,
    char *ctype, size_t ctsz, char *err, size_t errsz);

#endif
