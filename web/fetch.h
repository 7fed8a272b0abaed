/*
 * fetch: many HTTP transfers at once on one libevent loop, driven through
 * libcurl's multi interface and curl_multi_socket_action (libcurl tells us
 * which sockets to watch and when to wake it; libevent does the waiting).
 *
 * Redirects are never followed inside a transfer: the target is reported
 * so the crawler can queue it under its own scope, robots and politeness.
 * Bodies are decompressed (by libcurl, or by util/decode when the exchange
 * is recorded) and capped after decompression: a body over the cap aborts
 * the transfer and is reported as too large. Response headers are capped
 * too (FETCH_MAX_HEADER_BYTES per response), and so is a recorded request
 * head.
 */
#ifndef NC_FETCH_H
#define NC_FETCH_H

#include <stddef.h>

#include <curl/curl.h>
#include <event2/event.h>

#include "util/buf.h"

/* Cap on the header bytes of one response; more aborts the transfer. */
#define FETCH_MAX_HEADER_BYTES (256 * 1024)

struct fetch_opts {
	const char *user_agent;          /* sent on every request */
	long connect_timeout_ms;         /* TCP + TLS connect */
	long timeout_ms;                 /* whole transfer */
	long low_speed_bytes;            /* abort when slower than this ... */
	long low_speed_secs;             /* ... for this many seconds */
	size_t max_body;                 /* decoded body cap, bytes */
	long max_host_connections;       /* libcurl's per-host connection cap */
	long max_total_connections;      /* libcurl's overall connection cap */
	const struct curl_slist *resolve; /* HOST:PORT:ADDR entries, or NULL;
	                                    owned by the caller, must outlive
	                                    the fetcher */
	const char *cacert;              /* CA bundle file, or NULL */
	const char *capath;              /* hashed CA directory, or NULL */
	int insecure;                    /* skip peer and host verification */
	int record;                      /* keep each exchange as it went over
	                                    the wire (for an archive): the
	                                    request head, the response head,
	                                    the body with its content-coding
	                                    (only gzip and deflate are
	                                    offered then) and the address */
	const char *proxy;               /* proxy URL, or NULL for none;
	                                    cacert, capath and proxy are
	                                    borrowed like resolve */
};

/* Most bytes of Link headers a result carries. */
#define FETCH_LINK_MAX 8192

struct fetch_result {
	const char *url;      /* the URL requested */
	CURLcode code;        /* CURLE_OK when a response arrived */
	const char *error;    /* why the transfer failed (code != CURLE_OK):
	                         a phrase of ours, ": ", libcurl's details;
	                         see fetch_start_req for the phrases */
	long status;          /* HTTP status, 0 when none */
	const char *content_type; /* Content-Type header, or NULL */
	const char *location; /* absolute redirect target, or NULL */
	long retry_after;     /* Retry-After in seconds, -1 when absent */
	const char *x_robots_tag; /* X-Robots-Tag header, or NULL */
	const char *link;     /* every Link header, joined by ", " (up to
	                         FETCH_LINK_MAX bytes), or NULL */
	struct buf *body;     /* decoded body received (possibly partial) */
	int body_too_large;   /* the body cap was hit: transfer aborted */
	double elapsed_ms;    /* wall time of the transfer */
	int connected;        /* the request went out over a working
	                         connection: a failure after it (a slow or
	                         silent answer) is the URL's, not the host's */
	int no_descriptors;   /* failed because this process could open no
	                         more file descriptors (EMFILE, ENFILE): the
	                         crawler's own trouble; nothing was asked of
	                         the server */
	double started_wall;  /* Unix time the transfer started */
	const char *etag;     /* ETag header, or NULL */
	const char *last_modified; /* Last-Modified header, or NULL */
	/* With opts.record, when a response arrived (else NULL / 0): */
	const char *request;  /* the last request's head as sent: request
	                         line, headers, blank line */
	size_t request_len;
	const char *response; /* the response's head as received: status
	                         line, headers, blank line */
	size_t response_len;
	const struct buf *raw; /* the body as sent, content-coding kept
	                          (transfer-coding undone by libcurl); the
	                          same buf as body when there is no coding */
	const char *ip;       /* the server's address */
	const char *final_url; /* the URL of the response (url, or where
	                          the redirects followed led) */
};

/*
 * Called once per transfer started, from the event loop, when it ends.
 * Everything r points to is valid only during the call. The callback may
 * start new transfers.
 */
typedef void (*fetch_done_fn)(const struct fetch_result *r, void *arg);

struct fetcher;

/* New fetcher on base with opts (copied; resolve is borrowed). NULL when
 * libcurl cannot be set up. curl_global_init must have been called. */
struct fetcher *fetch_new(struct event_base *base,
    const struct fetch_opts *opts);

/*
 * Start fetching url; fn(result, arg) is called when it ends. Returns 0, or
 * -1 when the transfer cannot be started (out of memory, libcurl refused):
 * then fn is not called.
 */
int fetch_start(struct fetcher *f, const char *url, fetch_done_fn fn,
    void *arg);

/* How one transfer differs from the fetcher's options. */
struct fetch_req {
	size_t max_body;     /* decoded body cap for this transfer, bytes */
	long max_redirects;  /* follow up to this many redirects (robots.txt);
	                        0: report them instead */
	int cut;             /* a body over max_body keeps its first max_body
	                        bytes (still reported too large); otherwise a
	                        declared length over the cap fails at once */
	const char *if_none_match;     /* conditional request: an ETag to send
	                                  as If-None-Match, or NULL */
	const char *if_modified_since; /* ... and a Last-Modified date to
	                                  send as If-Modified-Since, or NULL */
};

/*
 * fetch_start with per-transfer settings; same results. When a transfer
 * fails, error starts with one of these phrases (then ": " and libcurl's
 * message), or is exactly the first two:
 *   "body larger than N bytes"       the body cap (body_too_large is set)
 *   "headers larger than N bytes"    FETCH_MAX_HEADER_BYTES
 *   "no response in time"            timed out before any status line
 *   "body too slow"                  under the low-speed limit mid-body
 *   "body not done in time"          the whole-transfer timeout mid-body
 *   "body shorter than its Content-Length", "chunked body cut short",
 *   "body cut short"                 the server closed the connection early
 *   "connection reset"               a TCP reset
 *   "out of file descriptors"       no_descriptors is set
 *   "empty reply", "cannot connect", "unknown host",
 *   "not an HTTP response", "bad content encoding", "too many redirects",
 *   "certificate not trusted (see --cacert, --capath)",
 *   "TLS handshake failed",
 *   "receive failed", "send failed", "transfer failed" (anything else)
 */
int fetch_start_req(struct fetcher *f, const char *url,
    const struct fetch_req *req, fetch_done_fn fn, void *arg);

/* Transfers started and not yet ended. */
size_t fetch_active(const struct fetcher *f);

/*
 * Abort every transfer in flight; their callbacks are called with
 * code CURLE_ABORTED_BY_CALLBACK and error "aborted"; fetch_start fails
 * while they run. Returns how many.
 */
size_t fetch_abort_all(struct fetcher *f);

/* What a program says on stderr, once per start, with insecure set. */
#define FETCH_INSECURE_WARNING \
	"nearcrawl: warning: --insecure: TLS certificates and host names " \
	"are not verified; anyone between here and the sites can read " \
	"and change what is fetched\n"

/*
 * Set the trust and proxy options on one libcurl handle: the CA file and
 * directory (CURLOPT_CAINFO, CURLOPT_CAPATH), no verification at all
 * (insecure), and the proxy (CURLOPT_PROXY); NULL leaves libcurl's
 * default. The fetcher does this for every transfer; others loading a
 * URL (compare, text) call it to behave alike. 0, or -1 when libcurl
 * refuses one (e.g. CAPATH with a TLS backend that has none).
 */
int fetch_set_tls(CURL *e, const char *cacert, const char *capath,
    int insecure, const char *proxy);

/* Free the fetcher. Transfers still in flight are dropped without their
 * callbacks. NULL is fine. */
void fetch_free(struct fetcher *f);

#endif
