/*
 * httpmsg: the HTTP message inside a WARC request or response block
 * (Content-Type application/http): its start line and header section. No
 * I/O and no allocation except what httpmsg_dechunk appends to its buf.
 * Line ends may be CRLF or a bare LF, as servers send both, or CR CR LF,
 * as a writer that added a CR to each CRLF leaves them.
 */
#ifndef NC_HTTPMSG_H
#define NC_HTTPMSG_H

#include <stddef.h>

struct buf;

/* The longest header section httpmsg_parse looks for its end in. */
#define HTTPMSG_MAX_HEAD (256 * 1024)

struct http_msg {
	int status;        /* response status, 0 for a request */
	size_t head_len;   /* bytes of status line + headers + blank line */
	const char *start; /* the parsed bytes (the caller's, not copied) */
	size_t len;        /* bytes at start; the body follows the head */
};

/*
 * Parse the n bytes at p as an HTTP message: a status line
 * ("HTTP/1.1 200 OK", "HTTP/2 404"; "HTTP/1.0 200" and "HTTP/1.0 302 "
 * without a reason) or a request line ("GET / HTTP/1.1", status 0),
 * header lines (folded continuation lines accepted), a blank line. *m points into p, which
 * must outlive it. Returns 0, or -1 when p does not start with a complete
 * start line and header section (within HTTPMSG_MAX_HEAD bytes); *m is
 * zeroed then.
 */
int httpmsg_parse(const char *p, size_t n, struct http_msg *m);

/*
 * The first header called name (case-insensitive) into out, its value
 * trimmed of blanks and NUL-terminated, cut to fit outsz (a folded
 * continuation is not joined). Returns 1 found, 0 not (out is then "" when
 * outsz > 0).
 */
int httpmsg_header(
    const struct http_msg *m, const char *name, char *out, size_t outsz);

/*
 * Undo Transfer-Encoding: chunked on the n bytes at p (the body after the
 * head), appending the data to out. Chunk extensions and trailer fields
 * are read past. Returns 0 (the last chunk and the trailer section's end
 * were seen; bytes after them are ignored), -1 malformed or truncated,
 * -2 out is full (BUF_FULL of util/buf.h), -3 out of memory (BUF_NOMEM).
 * What was decoded before a failure stays appended.
 */
int httpmsg_dechunk(const char *p, size_t n, struct buf *out);

/*
 * The body of response m (its bytes after the head) as a client reads it,
 * appended to out: the chunked transfer-coding undone when a
 * Transfer-Encoding header says chunked and the body really is (archives
 * keep a chunked body either way), then the Content-Encoding (gzip,
 * deflate, br) decoded, out's limit capping the result. Returns 0 (BUF_OK);
 * BUF_FULL past the cap; BUF_NOMEM; DECODE_BAD for a coding that cannot
 * be undone or bad coded data (util/decode.h). A body that stops short
 * of its coding's end is taken as far as it goes.
 */
int httpmsg_body(const struct http_msg *m, struct buf *out);

#endif
