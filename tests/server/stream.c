/*
 * stream: bodies that are sent piece by piece -- large, slow, endless,
 * gzip bombs, cut short, generated link lists and nestings -- and requests
 * never answered. Each is driven either by the connection's "output
 * drained" callback (so a client that reads slowly never makes the server
 * buffer more than one piece) or by a timer (slow).
 *
 * The generated documents are "prefix, repeated paragraph, suffix" cut to
 * an exact length, so any byte can be produced from its offset alone and
 * nothing the size of the document is ever held in memory. Sequences
 * (endless, links, nested) are made item by item from a counter instead.
 */
#include "ncserver.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/keyvalq_struct.h>
#include <zlib.h>

/* Bytes handed to libevent per write; bounds memory per connection. */
#define PIECE (64 * 1024)

/* Slow route: never tick faster than this, whatever the rate. */
#define SLOW_MIN_TICK_MS 20

static const char doc_para[] =
    "<p>This paragraph is filler that repeats until the page reaches the "
    "size the test asked for; crawlers should cap what they keep.</p>\n";
#define PARA_LEN (sizeof(doc_para) - 1)

static const char doc_suffix[] = "</body>\n</html>\n";

/*
 * The robots.txt flavour: a rule at the top, comment filler, and a rule at
 * the very end that a crawler reading only the first 500 KiB never sees.
 */
static const char robots_prefix[] =
    "User-agent: *\nDisallow: /private/\n";
static const char robots_para[] =
    "# This comment line is filler that repeats until the file is as "
    "long as the test asked.\n";
static const char robots_suffix[] = "\nDisallow: /late/\n";

/* A generated document (HTML or robots.txt) of an exact length. */
struct doc {
	char prefix[256];   /* head and heading, already cut to plen */
	size_t plen;        /* prefix bytes in the document */
	const char *para;   /* the filler repeated after the prefix */
	size_t para_len;    /* its length */
	const char *suffix; /* the end of the document */
	size_t slen;        /* suffix bytes in the document */
	uint64_t total;     /* document length */
};

/*
 * The gzip bomb repeats one compressed block: raw deflate of GZ_RAW filler
 * bytes, flushed to a byte boundary from a fresh compressor, so copies can
 * simply be concatenated into one valid deflate stream.
 */
#define GZ_RAW ((1024 * 1024 / PARA_LEN) * PARA_LEN)
static unsigned char *gz_block;  /* the compressed block */
static size_t gz_block_len;      /* its length */
static unsigned long gz_block_crc; /* CRC-32 of its GZ_RAW plain bytes */

/* One response being streamed; see stream_start() for ownership. */
struct stream {
	struct evhttp_request *req;      /* libevent's; freed by us only if
	                                    the client left first */
	struct evhttp_connection *evcon; /* whose close callback we hold */
	enum stream_kind kind;           /* what is being sent */
	int status;                      /* status line sent, 0 for none */
	double arrival;                  /* for the log line */
	char host[256];                  /* for the log line */
	char ua[512];                    /* User-Agent, for the log line */
	char method[16];                 /* for the log line */
	char *uri;                       /* for the log line, malloc()ed */
	struct doc doc;                  /* the document (big, slow, gzip) */
	uint64_t off;                    /* next document byte to send;
	                                    sequences: items made so far */
	uint64_t stop;                   /* big: send no byte from here on */
	enum stream_end end;             /* big: what follows byte stop */
	uint64_t items;                  /* links, nested: how many */
	char *link_base;                 /* links: href prefix, malloc()ed */
	int phase;                       /* sequences: which part is next */
	int robots;                      /* the robots.txt flavour */
	uint64_t sent;                   /* body bytes handed to libevent */
	uint64_t rate;                   /* slow: bytes per second */
	struct timespec start;           /* slow: when the body started */
	struct event *ev;                /* slow: pacing timer; silent: watch
	                                    for the client hanging up */
	struct evbuffer *gz_head;        /* gzip: header + compressed prefix */
	struct evbuffer *gz_tail;        /* gzip: last part + trailer */
	uint64_t gz_blocks;              /* gzip: copies of gz_block left */
	int gz_phase;                    /* gzip: 0 head, 1 blocks */
};

/* title names an HTML document; NULL makes the robots.txt flavour. */
static void
doc_init(struct doc *d, uint64_t total, const char *title)
{
	int n;

	if (title != NULL)
		n = snprintf(d->prefix, sizeof(d->prefix),
		    "<!DOCTYPE html>\n<html lang=\"en\"><head>"
		    "<meta charset=\"utf-8\">\n<title>%s</title></head>\n"
		    "<body>\n<h1>%s</h1>\n", title, title);
	else
		n = snprintf(d->prefix, sizeof(d->prefix), "%s",
		    robots_prefix);
	d->plen = n < 0 ? 0 : (size_t)n;
	if (d->plen >= sizeof(d->prefix))
		d->plen = sizeof(d->prefix) - 1;
	if (d->plen > total)
		d->plen = (size_t)total;
	d->para = title != NULL ? doc_para : robots_para;
	d->para_len = title != NULL ? PARA_LEN : sizeof(robots_para) - 1;
	d->suffix = title != NULL ? doc_suffix : robots_suffix;
	d->slen = title != NULL ? sizeof(doc_suffix) - 1
	                        : sizeof(robots_suffix) - 1;
	if (d->slen > total - d->plen)
		d->slen = (size_t)(total - d->plen);
	d->total = total;
}

/* Copy document bytes [off, off + len); the caller keeps it in range. */
static void
doc_read(const struct doc *d, uint64_t off, char *dst, size_t len)
{
	uint64_t fill_end = d->total - d->slen, j;
	size_t n;

	while (len > 0) {
		if (off < d->plen) {
			n = d->plen - (size_t)off;
			if (n > len)
				n = len;
			memcpy(dst, d->prefix + off, n);
		} else if (off < fill_end) {
			j = (off - d->plen) % d->para_len;
			n = d->para_len - (size_t)j;
			if (n > len)
				n = len;
			if (n > fill_end - off)
				n = (size_t)(fill_end - off);
			memcpy(dst, d->para + j, n);
		} else {
			n = len;
			memcpy(dst, d->suffix + (off - fill_end), n);
		}
		dst += n;
		off += n;
		len -= n;
	}
}

/*
 * Raw-deflate n bytes with a fresh compressor and append the result to out:
 * finish ends the deflate stream, otherwise it is flushed to a byte
 * boundary so more independent segments may follow. Returns 0 or -1.
 */
static int
deflate_segment(const void *in, size_t n, int finish, struct evbuffer *out)
{
	unsigned char buf[16384];
	z_stream z;
	int zr, rc = -1;

	memset(&z, 0, sizeof(z));
	if (deflateInit2(&z, 9, Z_DEFLATED, -15, 9, Z_DEFAULT_STRATEGY) != Z_OK)
		return -1;
	z.next_in = (unsigned char *)(uintptr_t)in;
	z.avail_in = (uInt)n;
	do {
		z.next_out = buf;
		z.avail_out = sizeof(buf);
		zr = deflate(&z, finish ? Z_FINISH : Z_SYNC_FLUSH);
		if (zr == Z_STREAM_ERROR)
			goto fail;
		if (evbuffer_add(out, buf, sizeof(buf) - z.avail_out) != 0)
			goto fail;
	} while (z.avail_out == 0 || (finish && zr != Z_STREAM_END));
	rc = 0;
fail:
	deflateEnd(&z);
	return rc;
}

int
stream_init(void)
{
	struct evbuffer *out = NULL;
	struct doc d;
	char *raw;
	int rc = -1;

	/* A document that is all filler from offset 0 yields the block. */
	memset(&d, 0, sizeof(d));
	d.para = doc_para;
	d.para_len = PARA_LEN;
	d.suffix = doc_suffix;
	d.total = GZ_RAW;
	raw = malloc(GZ_RAW);
	out = evbuffer_new();
	if (raw == NULL || out == NULL)
		goto fail;
	doc_read(&d, 0, raw, GZ_RAW);
	gz_block_crc = crc32(crc32(0L, Z_NULL, 0), (unsigned char *)raw,
	    GZ_RAW);
	if (deflate_segment(raw, GZ_RAW, 0, out) != 0)
		goto fail;
	gz_block_len = evbuffer_get_length(out);
	gz_block = malloc(gz_block_len);
	if (gz_block == NULL)
		goto fail;
	evbuffer_remove(out, gz_block, gz_block_len);
	rc = 0;
fail:
	if (out != NULL)
		evbuffer_free(out);
	free(raw);
	return rc;
}

void
stream_cleanup(void)
{
	free(gz_block);
	gz_block = NULL;
}

static void
stream_free(struct stream *s)
{
	if (s->ev != NULL)
		event_free(s->ev);
	if (s->gz_head != NULL)
		evbuffer_free(s->gz_head);
	if (s->gz_tail != NULL)
		evbuffer_free(s->gz_tail);
	free(s->link_base);
	free(s->uri);
	free(s);
}

/* The body is complete: end the reply, log, and forget the request. */
static void
stream_finish(struct stream *s)
{
	/* Ending the reply may close the connection; we are done with it. */
	evhttp_connection_set_closecb(s->evcon, NULL, NULL);
	srv_log(s->arrival, s->host, s->method, s->uri, s->status, s->sent,
	    s->ua);
	evhttp_send_reply_end(s->req);
	stream_free(s);
}

/*
 * The client went away (or the server is shutting down) before the body
 * was complete. libevent has already cut the request loose from the
 * connection if we had not finished it, and then it is ours to free.
 */
static void
on_close(struct evhttp_connection *evcon, void *arg)
{
	struct stream *s = arg;

	srv_log(s->arrival, s->host, s->method, s->uri, s->status, s->sent,
	    s->ua);
	if (evhttp_request_get_connection(s->req) == NULL)
		evhttp_request_free(s->req);
	stream_free(s);
}

/* Hand one piece to libevent, which empties it. */
static void
send_piece(struct stream *s, struct evbuffer *piece,
    void (*cb)(struct evhttp_connection *, void *))
{
	size_t n = evbuffer_get_length(piece);

	if (n == 0)
		return;
	s->sent += n;
	if (cb != NULL)
		evhttp_send_reply_chunk_with_cb(s->req, piece, cb, s);
	else
		evhttp_send_reply_chunk(s->req, piece);
}

/* Add document bytes [s->off, s->off + n) to buf. */
static int
add_doc_bytes(struct stream *s, struct evbuffer *buf, size_t n)
{
	static char scratch[PIECE];
	size_t k;

	while (n > 0) {
		k = n < sizeof(scratch) ? n : sizeof(scratch);
		doc_read(&s->doc, s->off, scratch, k);
		if (evbuffer_add(buf, scratch, k) != 0)
			return -1;
		s->off += k;
		n -= k;
	}
	return 0;
}

/*
 * A body cut short has been handed over: hang up mid-body. A plain close
 * is a FIN after the bytes sent. For a reset, SO_LINGER 0 makes closing
 * the socket send RST; libevent would shut the socket down (a FIN, which
 * the client would read as a clean end) before closing it, so the socket
 * is closed here by putting /dev/null in place of its descriptor, and
 * libevent shuts down and closes that instead. on_close() logs and frees.
 */
static void
cut_off(struct stream *s)
{
	struct linger lg = { 1, 0 };
	evutil_socket_t fd;
	int null;

	if (s->end == STREAM_END_RESET) {
		fd = bufferevent_getfd(evhttp_connection_get_bufferevent(
		    s->evcon));
		null = open("/dev/null", O_RDWR | O_CLOEXEC);
		if (fd >= 0 && null >= 0 && setsockopt(fd, SOL_SOCKET,
		    SO_LINGER, &lg, sizeof(lg)) == 0)
			dup2(null, fd);
		if (null >= 0)
			close(null);
	}
	evhttp_connection_free(s->evcon);
}

/* Big: the previous piece has drained; send the next or end the body. */
static void
big_next(struct evhttp_connection *evcon, void *arg)
{
	struct stream *s = arg;
	struct evbuffer *b;
	uint64_t left = s->stop - s->off;

	if (left == 0) {
		if (s->end == STREAM_END_FINISH)
			stream_finish(s);
		else
			cut_off(s);
		return;
	}
	if (left > PIECE)
		left = PIECE;
	b = evbuffer_new();
	if (b == NULL || add_doc_bytes(s, b, left) != 0) {
		/* Nothing sensible is left to say mid-body: drop the client. */
		if (b != NULL)
			evbuffer_free(b);
		evhttp_connection_free(s->evcon);
		return;
	}
	send_piece(s, b, big_next);
	evbuffer_free(b);
}

/*
 * Sequence fillers: add the next items to b, up to about a quarter piece.
 * Return 1 when the document is complete, 0 when more is to come, -1 when
 * memory runs out.
 */

/* Endless: numbered paragraphs (or comment lines) so none repeats. */
static int
endless_fill(struct stream *s, struct evbuffer *b)
{
	int r = 0;

	if (s->off == 0)
		r = evbuffer_add(b, s->doc.prefix, s->doc.plen);
	while (r == 0 && evbuffer_get_length(b) < PIECE / 4) {
		s->off++;
		if (s->robots)
			r = evbuffer_add_printf(b, "# Line %llu of a robots.txt "
			    "that never ends.\n", (unsigned long long)s->off);
		else
			r = evbuffer_add_printf(b, "<p>Paragraph %llu of a page "
			    "that never ends. Stop reading before your buffer "
			    "fills.</p>\n", (unsigned long long)s->off);
		r = r < 0 ? -1 : 0;
	}
	return r;
}

/* Links: a list of s->items links, each to link_base followed by its
 * number; phase 0 head, 1 the links. */
static int
links_fill(struct stream *s, struct evbuffer *b)
{
	int r = 0;

	if (s->phase == 0) {
		r = evbuffer_add_printf(b, "<!DOCTYPE html>\n<html lang=\"en\">"
		    "<head><meta charset=\"utf-8\">\n<title>Page of %llu "
		    "links</title></head>\n<body>\n<h1>Page of %llu links</h1>\n"
		    "<p>Every link below goes somewhere else.</p>\n<ul>\n",
		    (unsigned long long)s->items,
		    (unsigned long long)s->items) < 0;
		s->phase = 1;
	}
	while (r == 0 && s->off < s->items &&
	    evbuffer_get_length(b) < PIECE / 4) {
		s->off++;
		r = evbuffer_add_printf(b, "<li><a href=\"%s%llu\">Link "
		    "%llu</a></li>\n", s->link_base, (unsigned long long)s->off,
		    (unsigned long long)s->off) < 0;
	}
	if (r != 0)
		return -1;
	if (s->off < s->items)
		return 0;
	return evbuffer_add_printf(b, "</ul>\n</body>\n</html>\n") < 0 ? -1
	                                                                : 1;
}

/* Nested: s->items <div> open, a paragraph, and as many closed; phase 0
 * head, 1 opening, 2 closing. */
static int
nested_fill(struct stream *s, struct evbuffer *b)
{
	static const char open_tag[] = "<div>", close_tag[] = "</div>";
	int r = 0;

	if (s->phase == 0) {
		r = evbuffer_add_printf(b, "<!DOCTYPE html>\n<html lang=\"en\">"
		    "<head><meta charset=\"utf-8\">\n<title>Nested %llu deep"
		    "</title></head>\n<body>\n<p>Before the nesting.</p>\n",
		    (unsigned long long)s->items) < 0;
		s->phase = 1;
	}
	while (r == 0 && s->phase == 1 && evbuffer_get_length(b) < PIECE / 4) {
		if (s->off == s->items) {
			r = evbuffer_add_printf(b, "<p>At the bottom of %llu "
			    "nested elements.</p>", (unsigned long long)s->items)
			    < 0;
			s->phase = 2;
			break;
		}
		r = evbuffer_add(b, open_tag, sizeof(open_tag) - 1);
		s->off++;
	}
	while (r == 0 && s->phase == 2 && s->off > 0 &&
	    evbuffer_get_length(b) < PIECE / 4) {
		r = evbuffer_add(b, close_tag, sizeof(close_tag) - 1);
		s->off--;
	}
	if (r != 0)
		return -1;
	if (s->phase == 1 || s->off > 0)
		return 0;
	return evbuffer_add_printf(b, "\n<p>After the nesting.</p>\n</body>\n"
	    "</html>\n") < 0 ? -1 : 1;
}

/* Sequences: the previous piece has drained; make and send the next. */
static void
seq_next(struct evhttp_connection *evcon, void *arg)
{
	struct stream *s = arg;
	struct evbuffer *b;
	int r;

	if (s->phase == 3) {
		stream_finish(s);
		return;
	}
	b = evbuffer_new();
	if (b == NULL)
		goto fail;
	if (s->kind == STREAM_LINKS)
		r = links_fill(s, b);
	else if (s->kind == STREAM_NESTED)
		r = nested_fill(s, b);
	else
		r = endless_fill(s, b);
	if (r < 0)
		goto fail;
	/* Complete (phase 3): finish once this last piece has drained. */
	if (r == 1)
		s->phase = 3;
	send_piece(s, b, seq_next);
	evbuffer_free(b);
	return;
fail:
	if (b != NULL)
		evbuffer_free(b);
	evhttp_connection_free(s->evcon);
}

/* Gzip: header, then copies of the block, then the tail and trailer. */
static void
gzip_next(struct evhttp_connection *evcon, void *arg)
{
	struct stream *s = arg;
	struct evbuffer *b;
	uint64_t k;

	if (s->gz_phase == 0) {
		s->gz_phase = 1;
		send_piece(s, s->gz_head, gzip_next);
		return;
	}
	if (s->gz_phase == 1 && s->gz_blocks > 0) {
		b = evbuffer_new();
		if (b == NULL) {
			evhttp_connection_free(s->evcon);
			return;
		}
		for (k = 0; s->gz_blocks > 0 && k * gz_block_len < PIECE; k++) {
			if (evbuffer_add_reference(b, gz_block, gz_block_len,
			    NULL, NULL) != 0) {
				evbuffer_free(b);
				evhttp_connection_free(s->evcon);
				return;
			}
			s->gz_blocks--;
		}
		send_piece(s, b, gzip_next);
		evbuffer_free(b);
		return;
	}
	/*
	 * Last piece: ending the reply now is fine, libevent sends the end
	 * only after the queued bytes and drops our callback.
	 */
	send_piece(s, s->gz_tail, gzip_next);
	stream_finish(s);
}

static void
put_le32(unsigned char *p, uint32_t v)
{
	p[0] = v & 0xff;
	p[1] = (v >> 8) & 0xff;
	p[2] = (v >> 16) & 0xff;
	p[3] = (v >> 24) & 0xff;
}

/*
 * Build the gzip member for s->doc: gz_head = header + compressed prefix,
 * gz_blocks copies of gz_block, gz_tail = compressed rest + trailer.
 * Returns the total compressed length, or 0 on failure.
 */
static uint64_t
gzip_prepare(struct stream *s)
{
	static const unsigned char hdr[10] = {
		0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 2, 3
	};
	uint64_t fill, tail_off, i;
	unsigned char trailer[8];
	unsigned long crc;
	size_t tail_len;
	char *tail = NULL;
	uint64_t total = 0;

	s->gz_head = evbuffer_new();
	s->gz_tail = evbuffer_new();
	if (s->gz_head == NULL || s->gz_tail == NULL)
		goto fail;
	fill = s->doc.total - s->doc.plen - s->doc.slen;
	s->gz_blocks = fill / GZ_RAW;
	tail_off = s->doc.plen + s->gz_blocks * GZ_RAW;
	tail_len = (size_t)(s->doc.total - tail_off);
	tail = malloc(tail_len + 1);
	if (tail == NULL)
		goto fail;

	if (evbuffer_add(s->gz_head, hdr, sizeof(hdr)) != 0 ||
	    deflate_segment(s->doc.prefix, s->doc.plen, 0, s->gz_head) != 0)
		goto fail;
	crc = crc32(crc32(0L, Z_NULL, 0), (unsigned char *)s->doc.prefix,
	    (uInt)s->doc.plen);
	/* Combining costs a few microseconds; at most 4096 blocks. */
	for (i = 0; i < s->gz_blocks; i++)
		crc = crc32_combine(crc, gz_block_crc, (z_off_t)GZ_RAW);

	s->off = tail_off;
	doc_read(&s->doc, tail_off, tail, tail_len);
	crc = crc32_combine(crc, crc32(crc32(0L, Z_NULL, 0),
	    (unsigned char *)tail, (uInt)tail_len), (z_off_t)tail_len);
	if (deflate_segment(tail, tail_len, 1, s->gz_tail) != 0)
		goto fail;
	put_le32(trailer, (uint32_t)crc);
	put_le32(trailer + 4, (uint32_t)s->doc.total); /* ISIZE is mod 2^32 */
	if (evbuffer_add(s->gz_tail, trailer, sizeof(trailer)) != 0)
		goto fail;
	total = evbuffer_get_length(s->gz_head) + s->gz_blocks * gz_block_len +
	    evbuffer_get_length(s->gz_tail);
fail:
	free(tail);
	return total;
}

static double
elapsed_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) +
	    (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

/* Slow: send whatever the rate allows by now. */
static void
slow_tick(evutil_socket_t fd, short what, void *arg)
{
	struct stream *s = arg;
	struct evbuffer *b;
	/* A little slack so a tick a hair early still counts its byte. */
	double due_d = (elapsed_since(&s->start) + 0.002) * (double)s->rate;
	uint64_t due;

	due = due_d >= (double)s->doc.total ? s->doc.total : (uint64_t)due_d;
	if (due > s->off + PIECE)
		due = s->off + PIECE;
	if (due > s->off) {
		b = evbuffer_new();
		if (b == NULL || add_doc_bytes(s, b, due - s->off) != 0) {
			if (b != NULL)
				evbuffer_free(b);
			evhttp_connection_free(s->evcon);
			return;
		}
		send_piece(s, b, NULL);
		evbuffer_free(b);
	}
	if (s->off == s->doc.total)
		stream_finish(s);
}

/*
 * Silent: the client sent more bytes or hung up. Bytes are thrown away
 * (nothing will ever answer them); end of file or an error ends it all.
 */
static void
silent_readable(evutil_socket_t fd, short what, void *arg)
{
	struct stream *s = arg;
	char scratch[4096];
	ssize_t n;

	n = recv(fd, scratch, sizeof(scratch), 0);
	if (n > 0 || (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK ||
	    errno == EINTR)))
		return;
	/* Runs on_close(), which frees s and this event. */
	evhttp_connection_free(s->evcon);
}

void
stream_start(struct srv_ctx *c, const struct stream_spec *sp)
{
	struct evkeyvalq *out = evhttp_request_get_output_headers(c->req);
	enum stream_kind kind = sp->kind;
	uint64_t bytes = sp->bytes;
	struct timeval tick;
	struct stream *s;
	uint64_t clen = 0;
	evutil_socket_t fd;
	char num[32], title[96];
	long ms;

	s = calloc(1, sizeof(*s));
	if (s == NULL || (s->uri = strdup(c->uri)) == NULL ||
	    (sp->link_base != NULL &&
	        (s->link_base = strdup(sp->link_base)) == NULL)) {
		if (s != NULL)
			stream_free(s);
		srv_reply_page(c, 500, "Out of memory.");
		return;
	}
	s->req = c->req;
	s->evcon = evhttp_request_get_connection(c->req);
	s->kind = kind;
	s->arrival = c->arrival;
	snprintf(s->host, sizeof(s->host), "%s", c->host);
	snprintf(s->ua, sizeof(s->ua), "%s", c->ua != NULL ? c->ua : "");
	snprintf(s->method, sizeof(s->method), "%s", c->method);
	s->rate = sp->rate > 0 ? sp->rate : 1;
	s->items = sp->items;
	s->robots = sp->robots;

	if (kind == STREAM_SILENT) {
		/*
		 * Say nothing. libevent stops reading while a request is being
		 * answered, so it would never see the client hang up; watch
		 * the socket ourselves.
		 */
		fd = bufferevent_getfd(evhttp_connection_get_bufferevent(
		    s->evcon));
		s->ev = event_new(srv.base, fd, EV_READ | EV_PERSIST,
		    silent_readable, s);
		if (s->ev == NULL || event_add(s->ev, NULL) != 0) {
			stream_free(s);
			srv_reply_page(c, 500, "Out of memory.");
			return;
		}
		evhttp_connection_set_closecb(s->evcon, on_close, s);
		return;
	}

	evhttp_add_header(out, "Content-Type", sp->robots
	    ? "text/plain; charset=utf-8" : "text/html; charset=utf-8");
	switch (kind) {
	case STREAM_BIG:
		snprintf(title, sizeof(title), "Big page of %llu bytes",
		    (unsigned long long)bytes);
		doc_init(&s->doc, bytes, sp->robots ? NULL : title);
		s->stop = sp->stop < bytes ? sp->stop : bytes;
		s->end = sp->end;
		clen = sp->length;
		break;
	case STREAM_SLOW:
		snprintf(title, sizeof(title), "Slow page at %llu bytes per "
		    "second", (unsigned long long)s->rate);
		doc_init(&s->doc, bytes, title);
		break;
	case STREAM_ENDLESS:
		doc_init(&s->doc, 1024, sp->robots ? NULL : "Endless page");
		break;
	case STREAM_GZIP:
		snprintf(title, sizeof(title), "Compressed page of %llu bytes",
		    (unsigned long long)bytes);
		doc_init(&s->doc, bytes, title);
		clen = gzip_prepare(s);
		if (clen == 0) {
			stream_free(s);
			srv_reply_page(c, 500, "Out of memory.");
			return;
		}
		evhttp_add_header(out, "Content-Encoding", "gzip");
		break;
	default:
		break;
	}

	if ((kind == STREAM_BIG && !sp->chunked) || kind == STREAM_GZIP) {
		/* A known length keeps libevent from chunking the body. */
		snprintf(num, sizeof(num), "%llu", (unsigned long long)clen);
		evhttp_add_header(out, "Content-Length", num);
	} else if (kind == STREAM_SLOW && c->head) {
		snprintf(num, sizeof(num), "%llu", (unsigned long long)bytes);
		evhttp_add_header(out, "Content-Length", num);
	}
	if (c->head) {
		/* libevent would never call back for a HEAD body. */
		if (evhttp_find_header(out, "Content-Length") == NULL)
			evhttp_add_header(out, "Transfer-Encoding", "chunked");
		stream_free(s);
		srv_reply(c, 200, NULL);
		return;
	}

	s->status = 200;
	evhttp_send_reply_start(c->req, 200, srv_reason(200));
	evhttp_connection_set_closecb(s->evcon, on_close, s);
	switch (kind) {
	case STREAM_BIG:
		big_next(s->evcon, s);
		break;
	case STREAM_ENDLESS:
	case STREAM_LINKS:
	case STREAM_NESTED:
		seq_next(s->evcon, s);
		break;
	case STREAM_GZIP:
		gzip_next(s->evcon, s);
		break;
	case STREAM_SLOW:
		clock_gettime(CLOCK_MONOTONIC, &s->start);
		ms = s->rate >= 1000 / SLOW_MIN_TICK_MS ? SLOW_MIN_TICK_MS :
		    (long)(1000 / s->rate);
		tick.tv_sec = ms / 1000;
		tick.tv_usec = (ms % 1000) * 1000;
		s->ev = event_new(srv.base, -1, EV_PERSIST, slow_tick, s);
		if (s->ev == NULL || event_add(s->ev, &tick) != 0) {
			evhttp_connection_free(s->evcon);
			return;
		}
		if (bytes == 0)
			stream_finish(s);
		break;
	default:
		break;
	}
}
