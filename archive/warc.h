/*
 * warc: writing WARC 1.1 files (ISO 28500:2017), the archive format of web
 * crawls, plus the small pieces a record needs (SHA-1 digests in base32,
 * WARC-Date values, record IDs).
 *
 * A record is written as
 *
 *   WARC/1.1 CRLF
 *   WARC-Type, WARC-Record-ID, WARC-Date, [WARC-Target-URI],
 *   [Content-Type], the caller's fields in their order,
 *   WARC-Block-Digest (sha1 of the block), Content-Length
 *   CRLF block CRLF CRLF
 *
 * where the block is the record's head followed by its body. Each record
 * is one gzip member, built whole in memory and handed to the kernel with
 * one write loop on a file opened O_APPEND, so a crawl killed at any
 * moment (kill -9 included) leaves every record written before it whole
 * and readable; a record cut short by the kill is a damaged tail that
 * archive/warcread.h skips. There is no fsync per record: what the kernel
 * had not written to disk when the machine (not the process) went down is
 * lost. The file and its index are fsync'd when the file is finished
 * (rotation or warc_writer_close).
 *
 * Files are named PREFIX-YYYYMMDDHHMMSS-NNNNN.warc.gz (the UTC time the
 * file was opened, then a serial that continues after the highest one
 * already in the directory for that prefix), are created with O_EXCL and
 * never rewritten: a resumed crawl adds new files. Each file opens with a
 * warcinfo record. Several processes writing into one directory should
 * use distinct prefixes (a clash of names is retried with the next serial,
 * but their serials then interleave).
 *
 * With the CDXJ option, FILE.warc.gz gets FILE.cdxj beside it (see
 * archive/cdxj.h): lines are appended to FILE.cdxj.part as records are
 * written and sorted into FILE.cdxj when the file is finished. Opening a
 * writer rebuilds the index of every file of the prefix that lacks one
 * (the crawl that wrote it was killed).
 *
 * A writer is not thread-safe: one thread writes at a time.
 */
#ifndef NC_WARC_H
#define NC_WARC_H

#include <stddef.h>
#include <stdint.h>

struct buf;

/* Buffer sizes, NUL included: "sha1:" + 32 base32 characters; a record
 * ID "<urn:uuid:8-4-4-4-12>"; a date "2026-11-27T03:22:01Z" with room for
 * a fraction. */
#define WARC_DIGEST_LEN 38
#define WARC_ID_LEN 48
#define WARC_DATE_LEN 32

/* The largest block (head + body) warc_write accepts. */
#define WARC_MAX_BLOCK ((size_t)1 << 30)

/* The longest field name or value, and most fields per record, accepted. */
#define WARC_MAX_FIELD 8192
#define WARC_MAX_FIELDS 256

/* One named field of a record header, or one line of a warcinfo block. */
struct warc_field {
	const char *name;  /* e.g. "WARC-Payload-Digest"; no CR, LF or ':' */
	const char *value; /* no CR or LF; "" allowed */
};

/*
 * The SHA-1 of n bytes at p as a WARC digest: "sha1:" and the 20 bytes in
 * RFC 4648 base32, upper case (160 bits are exactly 32 characters, so no
 * padding). Cannot fail (an OpenSSL failure gives "sha1:" followed by 32
 * '?', which matches no record).
 */
void warc_sha1_of(const void *p, size_t n, char out[WARC_DIGEST_LEN]);

/* An incremental SHA-1, for blocks that arrive in parts. */
struct warc_sha1;

/* A new digest in progress; NULL when out of memory. */
struct warc_sha1 *warc_sha1_new(void);

/* Feed n more bytes (p may be NULL when n is 0). */
void warc_sha1_add(struct warc_sha1 *s, const void *p, size_t n);

/* Write the digest as warc_sha1_of does, and free s. */
void warc_sha1_end(struct warc_sha1 *s, char out[WARC_DIGEST_LEN]);

/* Free s without finishing it; NULL is fine. */
void warc_sha1_free(struct warc_sha1 *s);

/*
 * The WARC-Date of a Unix time: UTC, seconds precision (the fraction is
 * dropped), "YYYY-MM-DDThh:mm:ssZ". A time before 1970 or past 9999 is
 * clamped to the nearest one that can be written.
 */
void warc_date_of(double unix_seconds, char out[WARC_DATE_LEN]);

/*
 * A new random (version 4) UUID as a WARC-Record-ID, "<urn:uuid:...>" in
 * lower-case hex. Returns 0, or -1 when the random generator fails (out
 * is then "").
 */
int warc_new_id(char out[WARC_ID_LEN]);

/*
 * What the caller hands to warc_write; nothing here is kept after it. The
 * block is head followed by body: for a request or response, head is the
 * HTTP status or request line, the headers and the blank line, body the
 * payload; either may be empty. fields are written in their order after
 * the standard fields: WARC-Concurrent-To, WARC-Payload-Digest,
 * WARC-IP-Address, WARC-Refers-To-Target-URI, WARC-Refers-To-Date,
 * WARC-Profile, WARC-Truncated, or any other.
 */
struct warc_record {
	const char *type;                /* WARC-Type: response, revisit, ... */
	const char *target_uri;          /* WARC-Target-URI, or NULL */
	const char *date;                /* WARC-Date, or NULL for now */
	const char *content_type;        /* of the block, or NULL */
	const struct warc_field *fields; /* more named fields, or NULL */
	size_t nfields;                  /* entries in fields */
	const void *head;                /* the block's first part, or NULL */
	size_t head_len;                 /* bytes at head */
	const void *body;                /* the block's second part, or NULL */
	size_t body_len;                 /* bytes at body, 0 when NULL */
	char id[WARC_ID_LEN];            /* out: its WARC-Record-ID */
};

/* Where warc_write put a record; file is valid until the next write or
 * close. */
struct warc_pos {
	const char *file; /* base name of the file it is in */
	uint64_t offset;  /* of the record's gzip member */
	uint64_t length;  /* bytes of that member */
};

/*
 * A writer's settings. max_bytes: a record that would take the open file
 * past it goes to a new file, but a file always gets its warcinfo and at
 * least one record; 0 never rotates. info: more lines of each warcinfo
 * block (the crawl's settings), after software, format and conformsTo.
 */
struct warc_writer_opts {
	const char *dir;      /* where files go; made (one level) if missing */
	const char *prefix;   /* file name prefix, NULL = "nearcrawl"; no '/' */
	uint64_t max_bytes;   /* rotate before passing this; 0 = never */
	const char *software; /* "software:" value, NULL = "nearcrawl" */
	const struct warc_field *info; /* more warcinfo lines */
	size_t ninfo;                  /* entries in info */
	int cdxj;                      /* keep a CDXJ index beside each file */
};

/*
 * Append record r, uncompressed, to out (as one member of a warc.gz holds
 * it): gives it a new WARC-Record-ID (copied to r->id). For plain WARC
 * files and tests. Returns 0, or -1 with a message in err (the checks of
 * warc_write; out full or out of memory: out is then as it was).
 */
int warc_format(
    struct warc_record *r, struct buf *out, char *err, size_t errsz);

struct warc_writer;

/*
 * Check the options, create the directory when missing, find the next
 * serial for the prefix and, with o->cdxj, index every file of the prefix
 * that has no .cdxj yet (removing stale .cdxj.part files). No WARC file is
 * created until the first warc_write. The options' strings are copied.
 * Returns the writer, freed by warc_writer_close, or NULL with a message
 * in err (bad option, directory not usable, an index that cannot be
 * rebuilt, out of memory).
 */
struct warc_writer *warc_writer_open(
    const struct warc_writer_opts *o, char *err, size_t errsz);

/*
 * Append record r (see the top of this file): gives it a new
 * WARC-Record-ID (copied to r->id), opens a new file first when none is
 * open or when r would take the current one past max_bytes, and tells
 * where it went in *pos (pos may be NULL). Returns 0, or -1 with a
 * message in err: a type missing, a name or value containing CR or LF (or
 * a name with ':', a blank or nothing), too many or too long fields, a
 * block over WARC_MAX_BLOCK, out of memory, finishing the full file failed
 * (its fsync or index; the next record then starts a new file), or a
 * failed write. A failed write is cut off the file, which goes on as it
 * was; when it cannot be cut off, the file is closed with a damaged tail
 * (readers skip it) and the next record starts a new one. The writer
 * stays usable after any failure; r was not written.
 *
 * With CDXJ, a response, revisit or resource record gets an index line
 * (archive/cdxj.h) whose digest is its WARC-Payload-Digest field (for a
 * resource without one, its block digest) and whose status and mime come
 * from the HTTP head in r->head (r->body when head is NULL). A record
 * whose line cannot be made (no target URI, an overlong one) is left out
 * of the index, as cdxj_index_file leaves it out.
 */
int warc_write(struct warc_writer *w, struct warc_record *r,
    struct warc_pos *pos, char *err, size_t errsz);

/*
 * Finish the open file (fsync it; with CDXJ, write its sorted index) and
 * free w. NULL is fine. Returns 0, or -1 with a message in err when
 * finishing failed; w is freed either way.
 */
int warc_writer_close(struct warc_writer *w, char *err, size_t errsz);

/*
 * Base name of the file records go to now, or NULL before the first
 * record (or after a failed write, until the next one). Valid until the
 * next write or close.
 */
const char *warc_writer_file(const struct warc_writer *w);

#endif
