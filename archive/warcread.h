/*
 * warcread: reading web archives record by record, streaming, in constant
 * memory whatever the file's size: a record's header is held (at most
 * WARC_READ_MAX_HEADER bytes), its block only as far as the caller asks
 * for it.
 *
 * Formats: WARC 1.0 and 1.1, and the drafts before them that Heritrix 1.x
 * (WARC/0.17) and ClueWeb09 (WARC/0.18) wrote, which frame records the
 * same way; ARC (version 1, and version 2 as the Internet Archive wrote
 * it), each record made into the WARC fields a reader asks for. Files:
 * per-record gzip (each record one gzip member: what archive/warc.h, GNU
 * wget --warc-file and most crawlers write), one gzip stream for the
 * whole file, or plain, told by the magic bytes and not by the name.
 * Common Crawl WET files (plain-text conversion records) read like any
 * other. A WARC-Target-URI or WARC-Refers-To-Target-URI written in angle
 * brackets (WARC 1.0 as wget writes it) is given without them.
 *
 * Read as leniently as other readers (warcio): header lines may end in
 * CRLF, a bare LF or CR CR LF; a block is what Content-Length says, and
 * whatever run of line ends follows it (two CRLFs as the standard has it,
 * one, LF only, none) is taken, as long as the next record starts after
 * it.
 *
 * Damage does not stop reading: a damaged record is reported (-1 with its
 * offset and what is wrong), then the reader finds the next record start
 * it can: in a gzipped file, the next gzip member header (1f 8b 08) after
 * the damaged member's start whose data starts a record; in a plain
 * file, the next line that starts one ("WARC/" and a digit, or an ARC
 * header line). A record whose framing is whole but whose block digest
 * is wrong is reported without skipping anything else. In a file that is
 * one gzip stream, damage in the compressed data loses the rest of the
 * file, and a record damaged in its framing is resynced from where
 * reading stopped (a record swallowed by a too-large Content-Length is
 * lost with it). A file that ends inside a block (a writer stopped, a
 * copy cut short) gives what there is of the block (-4).
 *
 *	struct warc_reader *r = warc_reader_open(path, err, sizeof(err));
 *	struct warc_head h;
 *	int rc;
 *
 *	while ((rc = warc_reader_next(r, &h, err, sizeof(err))) != 0) {
 *		if (rc == -2)
 *			break;          (I/O error)
 *		if (rc == -1)
 *			continue;       (damage at h.offset: err)
 *		... h.type, h.target_uri; warc_reader_block(r, &b, ...) ...
 *	}
 *	warc_reader_close(r);
 */
#ifndef NC_WARCREAD_H
#define NC_WARCREAD_H

#include <stddef.h>
#include <stdint.h>

struct buf;

/* The largest record header (version line to the blank line) read. */
#define WARC_READ_MAX_HEADER (64 * 1024)

/* The most named fields kept per record header; more are ignored. */
#define WARC_READ_MAX_FIELDS 512

/*
 * The header of the record just read. offset is where the record starts:
 * its byte offset in a plain file; in a gzipped one, the offset of its
 * gzip member, or, when a member holds several records (a file gzipped
 * whole), its offset in the decompressed data (decompressed is 1). The
 * strings are the fields' values, blanks trimmed, NULL when absent; they
 * belong to the reader and are valid until the next warc_reader_next.
 */
struct warc_head {
	uint64_t offset;                  /* where the record starts */
	int decompressed;                 /* offset counts decompressed
	                                     bytes, not the file's */
	int earlier;                      /* -1 only: the damage is not a
	                                     record starting here but in what
	                                     was read before (the block of the
	                                     record returned last, found while
	                                     skipping it; the gzip stream that
	                                     held it): count no new record */
	const char *type;                 /* WARC-Type */
	const char *target_uri;           /* WARC-Target-URI */
	const char *date;                 /* WARC-Date */
	const char *record_id;            /* WARC-Record-ID */
	const char *content_type;         /* Content-Type */
	const char *payload_digest;       /* WARC-Payload-Digest */
	const char *block_digest;         /* WARC-Block-Digest */
	const char *refers_to_target_uri; /* WARC-Refers-To-Target-URI */
	const char *refers_to_date;       /* WARC-Refers-To-Date */
	const char *refers_to;            /* WARC-Refers-To */
	const char *concurrent_to;        /* WARC-Concurrent-To (the first) */
	const char *ip_address;           /* WARC-IP-Address */
	const char *truncated;            /* WARC-Truncated */
	const char *profile;              /* WARC-Profile */
	uint64_t content_length;          /* Content-Length: block bytes */
	const char *version;              /* "WARC/1.0", "WARC/0.17" ...;
	                                     "ARC/1", "ARC/2" for ARC */
	const struct warc_reader *reader; /* for warc_head_field */
};

struct warc_reader;

/*
 * Whether the file at path is a web archive at all: its first bytes
 * (after gunzip when it is gzip) are "WARC/" or an ARC file's
 * "filedesc://", or it is empty. Returns 0; -1 when it is something else
 * (an HTML page, a tarball), with what it starts with in err; -2 when it cannot be read (err says why). A
 * damaged record further on is no reason to refuse a file: this looks at
 * the start only, so that a file given by mistake is refused before
 * anything is stored.
 */
int warc_file_check(const char *path, char *err, size_t errsz);

/*
 * Open the WARC or ARC file at path for reading from its start. "-" (standard
 * input) is not supported: resyncing needs to seek. Returns the reader,
 * freed by warc_reader_close, or NULL with a message in err (cannot open,
 * not a regular file, out of memory).
 */
struct warc_reader *warc_reader_open(const char *path, char *err, size_t errsz);

/*
 * The value of the field called name (case-insensitive) in the header h
 * was filled with, the first when it is repeated; NULL when absent (or h
 * holds no header). Valid until the next warc_reader_next.
 */
const char *warc_head_field(const struct warc_head *h, const char *name);

/*
 * Move to the next record (skipping what is left of the current one's
 * block without holding it in memory) and read its header into *h.
 * Returns:
 *   1  a record's header was read (its block not yet);
 *   0  end of file;
 *  -1  damage at h->offset, err says what: a record that does not read
 *      (bad version line, bad ARC header line, header too long, missing
 *      or bad Content-Length, truncated file, bad gzip data); or, with
 *      h->earlier set, damage found in what was read before: the block
 *      of the record returned last, which the caller did not read
 *      (Content-Length does not end the block, block digest mismatch,
 *      the file ends inside it), or the check of a gzip stream that held
 *      several records failing after the last of them (h->offset is
 *      then where its data ends). Other *h fields are NULL. The reader
 *      has already moved on to the next record start it can find, so
 *      call again;
 *  -2  the file cannot be read (I/O error, out of memory): stop.
 * Any other string in *h is NULL after -1, 0 and -2.
 */
int warc_reader_next(
    struct warc_reader *r, struct warc_head *h, char *err, size_t errsz);

/*
 * Append the current record's block to b: at most the room left under
 * b->limit, the rest read past (*cut = 1 then, else 0; cut may be NULL).
 * The whole block is always read through, so its WARC-Block-Digest (sha1,
 * base32, hex or base64; other algorithms are not checked) is checked,
 * and so is what follows it. Returns 0; -1 when the record is damaged
 * (bad gzip data, no record start after the block, digest mismatch:
 * what was read stays appended) -- the next warc_reader_next then
 * resyncs and does not report the record again; -2 on an I/O error or
 * when b cannot grow (out of memory); -3 when there is no current record
 * (asked twice, or before warc_reader_next returned 1); -4 when the file
 * ends inside the block (a plain file, or a gzip member cut short): what
 * there was is appended, err says how much, and the next
 * warc_reader_next returns 0.
 */
int warc_reader_block(
    struct warc_reader *r, struct buf *b, int *cut, char *err, size_t errsz);

/*
 * Finish the current record as warc_reader_block does, without keeping
 * its block (when it was not read yet), and set *end to the file offset
 * just past it: in a per-record gzip file, the end of its gzip member, so
 * *end - h->offset is the length a CDXJ index gives; in a plain file, the
 * byte after the line ends that close it; in a file with several records in one
 * gzip member, only how far the compressed data has been read. May be
 * called again (same *end) until the next warc_reader_next. Returns 0,
 * -1 damaged (as warc_reader_block: *end is then the damaged record's
 * offset, or, when only its digest is wrong, its end), -2 I/O error, -3
 * no current record, -4 cut short (*end its offset).
 */
int warc_reader_finish(
    struct warc_reader *r, uint64_t *end, char *err, size_t errsz);

/*
 * Go to the record that starts at offset (a CDXJ line's "offset": in a
 * per-record gzip file the start of its gzip member, in a plain file its
 * first byte); the next warc_reader_next reads it. An offset that is no
 * record start reads as a damaged record. Returns 0, or -1 after an
 * earlier I/O error. Not for a file that is one gzip stream.
 */
int warc_reader_seek(struct warc_reader *r, uint64_t offset);

/* Whether the file is gzipped (1) or plain (0). */
int warc_reader_gzipped(const struct warc_reader *r);

/* Close the file and free r. NULL is fine. */
void warc_reader_close(struct warc_reader *r);

#endif
