/*
 * warcread_int: the reader's state, shared by warcread_rec.c (records),
 * warcread_head.c (a record's header, WARC or ARC, into fields) and
 * warcread_data.c (the data window, gzip members, resync); not for other
 * modules.
 */
#ifndef NC_WARCREAD_INT_H
#define NC_WARCREAD_INT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <openssl/evp.h>
#include <zlib.h>

#include "archive/warc.h"
#include "archive/warcread.h"

#define RD_RAW (64 * 1024)                /* compressed bytes read at once */
#define RD_WIN (2 * WARC_READ_MAX_HEADER) /* the data window */
#define RD_MEMBERS 16                     /* members remembered */
#define RD_PROBE_MAX (1024 * 1024)        /* input a resync candidate gets */
#define RD_START_MAX 512 /* bytes that tell whether a record starts */
#define RD_SYNTH 256     /* room for an ARC header's fields made anew */

enum rd_state {
	RD_NONE,  /* between records: the next one is read from wpos */
	RD_BLOCK, /* a header was read; left bytes of its block follow */
	RD_DONE,  /* the current record was read to its end */
	RD_BAD,   /* damage: resync before reading on */
	RD_EOF    /* nothing more */
};

/* How a resync looks for the next record. */
enum rd_sync {
	RD_SYNC_DATA, /* the next line that starts a record, in the data */
	RD_SYNC_RAW   /* the next gzip member whose data starts one */
};

/* What kind of damage was found, which decides the resync. */
enum rd_damage {
	RD_DMG_GZIP,  /* compressed data: fail_raw tells where */
	RD_DMG_HEAD,  /* a header at wpos that is not one */
	RD_DMG_BLOCK, /* no record start where the block should end */
	RD_DMG_DIGEST /* framing whole, digest wrong: nothing to skip */
};

/* A gzip member started: where its data and its bytes begin. */
struct rd_member {
	uint64_t data; /* data offset of its first decompressed byte */
	uint64_t raw;  /* file offset of its header */
};

/* One field of the current header, both strings inside hdr. */
struct rd_field {
	const char *name;  /* as written, blanks trimmed */
	const char *value; /* blanks trimmed, folded lines joined */
};

struct warc_reader {
	int fd;                    /* the file */
	int gz;                    /* gzipped (1) or plain (0) */
	int arc;                   /* an ARC file (it starts "filedesc://") */
	int arc_fields;            /* fields of an ARC record's header line:
	                              5 (version 1), 10 (version 2) */
	int failed;                /* an I/O error happened: -2 from now on */
	z_stream zs;               /* the inflater, when gz */
	int zinit;                 /* zs is set up */
	int zended;                /* the member inflated last has ended */
	int fail_eof;              /* the damage in fail_raw is the file
	                              ending inside a member */
	char zbad[96];             /* the member's data went bad after the
	                              bytes delivered last: why ("" none) */
	int mem_multi;             /* a record started inside the member
	                              being inflated: it holds several */
	uint64_t zend_raw;         /* file offset just past that member */
	unsigned char raw[RD_RAW]; /* compressed bytes read, when gz */
	size_t rawpos;             /* the next one inflate takes */
	size_t rawend;             /* bytes valid in raw */
	uint64_t rawoff;           /* file offset of raw[0] */
	unsigned char win[RD_WIN]; /* the data window */
	size_t wpos;               /* the next byte not consumed */
	size_t wend;               /* bytes valid in win */
	uint64_t woff;             /* data offset of win[0] (plain: file's) */
	struct rd_member mem[RD_MEMBERS]; /* the members started last */
	size_t nmem;                      /* members started in all */
	uint64_t fail_raw;  /* where compressed data was found damaged */
	int state;          /* enum rd_state */
	int have_rec;       /* warc_reader_next gave the current record */
	int digest_bad;     /* the current record's digest did not match */
	uint64_t rec_off;   /* the current record's offset (warc_head) */
	int rec_member;     /* it starts its own gzip member */
	int rec_data;       /* rec_off counts decompressed bytes */
	int cut_short;      /* the file ended inside the current block */
	int pending;        /* damage found past the last block read, not
	                       in a record: the next call reports it */
	uint64_t pending_off;  /* its decompressed offset */
	char pending_err[160]; /* what it is */
	uint64_t cl;        /* its block's length (Content-Length) */
	uint64_t left;      /* bytes of its block not consumed */
	uint64_t end;       /* where it ends, once RD_DONE */
	int sync;           /* how to resync from RD_BAD: enum rd_sync */
	uint64_t sync_from; /* RD_SYNC_RAW: scan from this file offset */
	int sync_line;      /* RD_SYNC_DATA: wpos starts a line */
	EVP_MD_CTX *md;     /* SHA-1 of the block being read */
	int md_ok;          /* md is usable */
	char want[WARC_DIGEST_LEN]; /* expected block digest, "" = none */
	char hdr[WARC_READ_MAX_HEADER + 1]; /* the header, cut into strings */
	char synth[RD_SYNTH]; /* an ARC header's date and type, made anew */
	struct rd_field fields[WARC_READ_MAX_FIELDS]; /* the fields in hdr */
	size_t nfields;                               /* entries in fields */
};

/* pread that retries on EINTR. */
ssize_t warcread_pread(struct warc_reader *r, void *p, size_t n, uint64_t off);

/* Mark r failed (every later call answers -2) and return -2 with err. */
int warcread_ioerr(
    struct warc_reader *r, char *err, size_t errsz, const char *what);

/* The file offset of the member holding data offset d, and whether d is
 * its first byte (d itself and 0 in a plain file). */
void warcread_where(
    const struct warc_reader *r, uint64_t d, uint64_t *raw, int *first);

/*
 * More data at the window's end (sliding it first when it is full).
 * cross: may start the next gzip member. Returns the bytes added; 0 at
 * a clean end (end of file, or of the member when !cross); -1 damaged
 * compressed data (fail_raw set, err says what); -2 I/O error.
 */
int warcread_more(struct warc_reader *r, int cross, char *err, size_t errsz);

/*
 * At least k data bytes from wpos (cross: from the next gzip members too).
 * Returns 1, 0 when the data ends before (wend - wpos tells how many there
 * are), -1 or -2 as warcread_more.
 */
int warcread_avail(
    struct warc_reader *r, size_t k, int cross, char *err, size_t errsz);

/*
 * Whether the n bytes at p start a record of r's kind: a version line
 * "WARC/" and a digit, or an ARC header line (a URI, a blank, at least
 * four more fields). 1 yes, 0 no, -1 when n bytes cannot tell (eof: no
 * more will come, so answer 0 or 1).
 */
int warcread_is_start(
    const struct warc_reader *r, const unsigned char *p, size_t n, int eof);

/*
 * The header at wpos (have bytes in the window): its length through its
 * blank line (a WARC header) or its one line (ARC), 0 when it does not
 * end within have bytes (*from: where to look on from next time, 0 at
 * first).
 */
size_t warcread_head_len(
    const struct warc_reader *r, size_t have, size_t *from);

/*
 * Cut the header copied into hdr (len bytes) into fields, and fill h from
 * them: WARC's named fields, or an ARC header line's (made into WARC's:
 * a response, its HTTP message the block, for an http or https URI).
 * Returns 0, or -1 with err (bad version line, missing or bad
 * Content-Length, an ARC line of too few fields).
 */
int warcread_parse_head(struct warc_reader *r, size_t len,
    struct warc_head *h, char *err, size_t errsz);

/* The value of field name in the header read last, or NULL. */
const char *warcread_field(const struct warc_reader *r, const char *name);

/* The expected digest of a WARC-Block-Digest value in canonical form
 * ("sha1:" and upper-case base32), or "" when it is not a SHA-1. */
void warcread_want_digest(const char *v, char want[WARC_DIGEST_LEN]);

/*
 * Inflate the gzip member at file offset off into out (n bytes at most).
 * Returns the bytes got (fewer when the data ends or is bad), or -2.
 */
ssize_t warcread_peek(struct warc_reader *r, uint64_t off,
    unsigned char *out, size_t n);

/*
 * Find the next record start after damage, as r->sync says. Returns 1
 * with wpos there (or the next member to inflate), 0 when there is none,
 * -2 on an I/O error.
 */
int warcread_resync(struct warc_reader *r, char *err, size_t errsz);

#endif
