/*
 * cdxj: the CDXJ index of a WARC file, as pywb and the Internet Archive's
 * tools read it: one line per capture,
 *
 *   SURT TIMESTAMP14 {"url": ..., "mime": ..., "status": ..., "digest":
 *   ..., "length": ..., "offset": ..., "filename": ...}
 *
 * sorted in byte order (as LC_ALL=C sort), so a capture is found by binary
 * search on its SURT key. Every JSON value is a string, written as Python's
 * json.dumps writes it: ", " and ": " between items, '"', '\\' and control
 * characters escaped, non-ASCII as \uXXXX (a byte that is not valid UTF-8
 * as \u00XX). A value that is not known is "-".
 *
 * The indexed records are response, revisit and resource; the rest
 * (request, metadata, warcinfo, conversion) get no line.
 */
#ifndef NC_CDXJ_H
#define NC_CDXJ_H

#include <stddef.h>
#include <stdint.h>

/* The longest line cdxj_index_file writes; a longer one is left out. */
#define CDXJ_MAX_LINE 16384

/* The most bytes of index lines sorted at once (per WARC file). */
#define CDXJ_MAX_INDEX ((size_t)1 << 30)

/*
 * The SURT key of url into out (NUL-terminated), as pywb and the IA
 * canonicaliser make it: scheme and userinfo dropped, host lower-cased, a
 * leading "www." (and "wwwN.") dropped, the default port (80 for http, 443
 * for https) dropped, host labels reversed and joined by ",", then ")",
 * then path and query lower-cased, the query's arguments sorted (an empty
 * query dropped), the fragment dropped; an empty path is "/". E.g.
 * "http://www.Example.com:80/A/b?z=1&a=2#x" -> "com,example)/a/b?a=2&z=1",
 * "https://h.example.org:8443/" -> "org,example,h:8443)/". Returns 0, or
 * -1 when url is not "scheme://host..." (or has blanks or control
 * characters) or the key does not fit in outsz bytes.
 */
int cdxj_surt(const char *url, char *out, size_t outsz);

/* One capture to index: what cdxj_entry_line reads. */
struct cdxj_entry {
	const char *target_uri;   /* WARC-Target-URI */
	const char *warc_date;    /* WARC-Date, for the 14-digit timestamp */
	const char *warc_type;    /* response, revisit or resource */
	const char *content_type; /* the record's Content-Type, or NULL */
	const char *http_head; /* the block's start (an HTTP head), or NULL */
	size_t head_len;       /* bytes at http_head */
	const char *payload_digest; /* WARC-Payload-Digest, or NULL ("-") */
	uint64_t offset;            /* of the record in the file */
	uint64_t length;            /* of the record in the file */
	const char *filename;       /* base name of the WARC file */
};

/*
 * One CDXJ line (no newline) into out: "SURT TIMESTAMP14 {json}" with the
 * keys url, mime, status, digest, length, offset, filename in that order.
 * mime is "warc/revisit" for a revisit record, the HTTP head's
 * Content-Type (parameters and blanks dropped) for a response, the
 * record's Content-Type (the same way) for a resource; status is the HTTP
 * status, or "200" for a resource. digest is the payload digest without
 * its "sha1:" prefix, as pywb writes it (another algorithm's label is
 * kept). A URI that is not "scheme://..." (dns:, urn:) is its own key.
 * Returns 0, or -1 when a value is missing or malformed (no URI, no
 * 14-digit date) or the line does not fit in outsz bytes.
 */
int cdxj_entry_line(const struct cdxj_entry *e, char *out, size_t outsz);

/*
 * cdxj_entry_line without the record's Content-Type (a resource record's
 * mime is then "-"): the arguments are the fields of struct cdxj_entry.
 * Returns 0, or -1 when it does not fit (or a value is malformed).
 */
int cdxj_line(const char *target_uri, const char *warc_date,
    const char *warc_type, const char *http_head, size_t head_len,
    const char *payload_digest, uint64_t offset, uint64_t length,
    const char *filename, char *out, size_t outsz);

/*
 * Read the whole WARC file at warc_path (archive/warcread.h: damaged
 * records and a damaged tail are skipped) and write its sorted index to
 * cdxj_path, through cdxj_path.tmp and a rename, so an index is either
 * whole or absent. The filename of each line is warc_path's base name.
 * Returns 0, or -1 with a message in err (unreadable file, I/O error,
 * more than CDXJ_MAX_INDEX bytes of lines, out of memory).
 */
int cdxj_index_file(
    const char *warc_path, const char *cdxj_path, char *err, size_t errsz);

/*
 * Sort the lines of the file at part_path (byte order; a last line
 * without a newline is kept) into cdxj_path, through cdxj_path.tmp, a
 * fsync and a rename; part_path is left in place. Returns 0, or -1 with
 * a message in err.
 */
int cdxj_sort_file(
    const char *part_path, const char *cdxj_path, char *err, size_t errsz);

#endif
