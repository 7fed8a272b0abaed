/*
 * ncserver: the loopback-only HTTP server the end-to-end tests, benchmarks
 * and the demo crawl. It serves fixture sites from a directory (one
 * sub-directory per virtual host) and a set of scripted, often hostile,
 * routes under /__nc/ (see README.md).
 *
 * Modules:
 *   ncserver.c  command line, listening, request context, access log
 *   static.c    static files, .headers and .route (prefix static_)
 *   routes.c    scripted /__nc/ routes (prefix route_)
 *   stream.c    bodies sent piece by piece: generated documents, gzip,
 *               bodies cut short, link lists, nestings (prefix stream_,
 *               doc_)
 *   traps.c     scripted crawler traps under /__nc/ (prefix trap_)
 *   proc.c      the endless procedural site on hosts "proc.*" (prefix proc_)
 *   cond.c      validators and conditional GET for static files (prefix
 *               cond_)
 */
#ifndef NC_SERVER_H
#define NC_SERVER_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <event2/event.h>
#include <event2/http.h>

/* Largest body any generated route produces: 4 GiB. */
#define SRV_MAX_GENERATED ((uint64_t)4 << 30)

/* Process-wide settings, filled once by main() before the loop starts. */
struct srv_config {
	struct event_base *base; /* the one event loop */
	char *root;              /* realpath() of --root, no trailing slash */
	FILE *log;               /* --log file, or NULL */
	int quiet;               /* --quiet: no chatter on stderr */
};

extern struct srv_config srv;

/*
 * One incoming request as the handlers see it. Everything here lives as
 * long as the handler that got it, except that streaming handlers copy what
 * they need for the log line (struct stream keeps its own copy).
 */
struct srv_ctx {
	struct evhttp_request *req; /* owned by libevent */
	double arrival;             /* unix time when the request arrived */
	char host[256];             /* Host header, lowercased, port cut */
	int host_ok;                /* host is a safe directory name */
	const char *method;         /* "GET", "HEAD", ... */
	const char *uri;            /* raw request target, for the log */
	const char *path;           /* raw (still encoded) path, never NULL */
	const char *query;          /* raw query string, or NULL */
	const char *ua;             /* User-Agent header, or NULL */
	int head;                   /* HEAD: headers only */
};

/*
 * Write the access-log line for a finished (or abandoned) response:
 * arrival time, host, method, target, status, body bytes sent, User-Agent
 * (percent-encoded, so one field; "-" when absent). status 0 means no
 * response was ever sent. Does nothing without --log.
 */
void srv_log(double arrival, const char *host, const char *method,
    const char *uri, int status, uint64_t bytes, const char *ua);

/*
 * Send a complete response with the given body (may be NULL), log it and
 * release the request to libevent. The body buffer stays owned by the
 * caller and is left empty.
 */
void srv_reply(struct srv_ctx *c, int code, struct evbuffer *body);

/*
 * Send CODE with a small HTML page whose heading is the reason phrase;
 * on allocation failure the response is sent without a body.
 */
void srv_reply_page(struct srv_ctx *c, int code, const char *detail);

/* Reason phrase for a status code; "Unknown" for codes it does not know. */
const char *srv_reason(int code);

/*
 * Value of query parameter NAME in a raw query string, percent-decoded
 * (a '+' stays a '+'). Returns a malloc()ed string the caller frees, or
 * NULL when the parameter is absent, the value holds a NUL byte, or memory
 * runs out.
 */
char *srv_query_param(const char *query, const char *name);

/*
 * Parse a decimal number made only of digits into *out, clamped to max.
 * Returns 0, or -1 if s is empty, holds anything else, or overflows 64 bits.
 */
int srv_parse_u64(const char *s, uint64_t max, uint64_t *out);

struct stat;
struct evkeyvalq;

/* Room cond_etag() needs: quotes, three 64-bit hex numbers, a nanosecond
 * count, separators and the NUL. */
#define COND_ETAG_MAX 64
/* Room cond_http_date() needs: "Sun, 06 Nov 1994 08:49:37 GMT" and NUL. */
#define COND_DATE_MAX 30

/*
 * Write the strong ETag of a file into buf (len >= COND_ETAG_MAX):
 * "SIZE-MTIME.NSEC-INODE", each in lower-case hex, in double quotes.
 * Never fails; a short buf gets a truncated tag.
 */
void cond_etag(const struct stat *st, char *buf, size_t len);

/*
 * Write t as an IMF-fixdate (RFC 9110 5.6.7) into buf (len >=
 * COND_DATE_MAX). Returns 0, or -1 when buf is too small or the year is
 * outside 0-9999 (buf is then left as it was).
 */
int cond_http_date(time_t t, char *buf, size_t len);

/*
 * Read an HTTP-date in any of its three forms (IMF-fixdate, RFC 850,
 * asctime) into *out. Returns 0, or -1 when s is NULL or no valid date
 * (trailing text other than blanks, an unknown month, 31 Feb ...).
 */
int cond_parse_date(const char *s, time_t *out);

/*
 * Given the request headers in and the validators the response would
 * carry (etag, last_modified: header values, each NULL when absent),
 * decide whether to answer 304: any If-None-Match field that matches etag
 * by weak comparison, or "*"; without If-None-Match, an If-Modified-Since
 * at or after last_modified. Unparsable dates count as absent. Returns 1
 * for 304, 0 for the full response. Reads only; keeps nothing.
 */
int cond_not_modified(struct evkeyvalq *in, const char *etag,
    const char *last_modified);

/* Serve a file below the root for GET or HEAD. */
void static_serve(struct srv_ctx *c);

/*
 * Handle a path that starts with "/__nc/" (rest = the text after it,
 * raw). Always answers (or deliberately does not, for /__nc/silent).
 */
void route_dispatch(struct srv_ctx *c, const char *rest);

/* Does host (lowercased, port cut) serve the procedural site? */
int proc_is_site(const char *host);

/*
 * Answer c from the procedural site: a deterministic page generated from
 * the path (query ignored), 404 for paths the site does not have, 500 when
 * memory runs out. See proc.c and README.md for the URL space.
 */
void proc_serve(struct srv_ctx *c);

/*
 * Answer the crawler-trap routes (session, sessredir, pager, facets,
 * deeper; see README.md) when rest (the raw path after "/__nc/") names
 * one. Returns 1 when it answered, 0 when rest is no trap route.
 */
int trap_route(struct srv_ctx *c, const char *rest);

/*
 * Prepare what streaming needs once per process (the compressed filler
 * block for gzip bombs). Returns 0, or -1 when memory or zlib fails.
 */
int stream_init(void);

/* Release what stream_init() made. */
void stream_cleanup(void);

/* Kinds of body the streamer can send. */
enum stream_kind {
	STREAM_BIG,     /* generated document, full speed, Content-Length
	                   known unless chunked; may be cut short */
	STREAM_SLOW,    /* generated HTML, chunked, paced to a byte rate */
	STREAM_ENDLESS, /* chunked HTML (or robots.txt) that never ends */
	STREAM_GZIP,    /* gzip of generated HTML, Content-Length known */
	STREAM_SILENT,  /* never answer at all */
	STREAM_LINKS,   /* chunked HTML listing many links */
	STREAM_NESTED   /* chunked HTML with deeply nested elements */
};

/* How a STREAM_BIG body ends once its stop bytes are sent. */
enum stream_end {
	STREAM_END_FINISH, /* end the response normally */
	STREAM_END_CLOSE,  /* close the connection (FIN) */
	STREAM_END_RESET   /* reset the connection (RST) */
};

/* What to stream; fields a kind does not use are ignored (zero them). */
struct stream_spec {
	enum stream_kind kind;
	uint64_t bytes;        /* document length before compression */
	uint64_t rate;         /* slow: bytes per second */
	uint64_t stop;         /* big: send only the first stop bytes */
	enum stream_end end;   /* big: what follows them */
	uint64_t length;       /* big: Content-Length to declare ... */
	int chunked;           /* big: ... or none, chunked instead */
	int robots;            /* big, endless: a robots.txt, text/plain */
	uint64_t items;        /* links: how many; nested: how deep */
	const char *link_base; /* links: each href is this plus a number
	                          (borrowed; must hold no '"', '<', '&') */
};

/*
 * Start answering c with the body sp describes (sp is read, not kept).
 * The streamer owns the request from here on: it logs the line when the
 * body is done or the client goes away, and frees its state either way.
 * On allocation failure it answers 500 itself.
 */
void stream_start(struct srv_ctx *c, const struct stream_spec *sp);

#endif
