/*
 * cdxjread: reading the lines of a CDXJ index (the format archive/cdxj.h
 * writes, as pywb and the Internet Archive's tools write it) back, for a
 * crawl that deduplicates against WARC files written earlier, by
 * nearcrawl or by anyone else.
 *
 * A line is "SURT TIMESTAMP {json}": the JSON object's values may be
 * strings (as pywb and nearcrawl write them) or numbers (as some other
 * tools do); its keys url, digest, filename, offset, length, mime and
 * status are read, the others skipped. A line that is blank or starts
 * with "!" (a header such as "!meta") holds no capture.
 */
#ifndef NC_CDXJREAD_H
#define NC_CDXJREAD_H

#include <stddef.h>
#include <stdint.h>

#include "archive/warc.h"

/* One capture of a CDXJ line; the strings point into the line parsed. */
struct cdxjread_capture {
	const char *url;      /* the captured URL */
	char date[WARC_DATE_LEN]; /* the timestamp as a WARC-Date */
	const char *mime;     /* "warc/revisit" for a revisit, or NULL */
	const char *status;   /* the HTTP status, or NULL */
	char digest[WARC_DIGEST_LEN + 16]; /* payload digest, "sha1:..." (a
	                         bare base32 one gets the label), or "" */
	const char *filename; /* the WARC file, or NULL */
	int64_t offset;       /* of the record in it, -1 when not given */
	int64_t length;       /* of the record, -1 when not given */
};

/*
 * Parse line (NUL-terminated, no newline; changed in place: the JSON
 * strings are unescaped where they stand) into *cap. Returns 1 with a
 * capture, 0 for a line that holds none (blank, "!" header), or -1 with
 * why (whysz bytes) for a malformed one: fewer than three parts, a
 * timestamp that is not 4 to 14 digits, JSON that is not an object of
 * strings and numbers, no url, a digest, offset or length that is not
 * one. A capture with an unknown digest ("-") has digest "".
 */
int cdxjread_line(char *line, struct cdxjread_capture *cap, char *why,
    size_t whysz);

#endif
