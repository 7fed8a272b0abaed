#include "web/fetch.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/clock.h"
#include "util/decode.h"
#include "util/fdlimit.h"

/* Most handles kept for reuse: more than the transfers a crawl runs. */
#define FETCH_IDLE_MAX 32

struct fetcher {
	struct event_base *base; /* the loop everything runs on */
	CURLM *multi;            /* libcurl's multi handle */
	struct event *timer;     /* libcurl's single timeout */
	struct fetch_opts opts;  /* copy of the caller's options */
	struct transfer *head;   /* transfers in flight, doubly linked */
	size_t active;           /* length of that list */
	int aborting;            /* in fetch_abort_all: refuse new transfers */
	CURL *idle[FETCH_IDLE_MAX]; /* handles of transfers that went well,
	                            with the fetcher's options set: a new
	                            transfer takes one before making one */
	size_t nidle;            /* how many */
};

/* One transfer in flight. */
struct transfer {
	struct fetcher *f;
	CURL *easy;
	char *url;
	fetch_done_fn fn;
	void *arg;
	struct buf body;
	int too_large;         /* the body cap was hit */
	int cut;               /* keep the first bytes when over the cap */
	size_t header_bytes;   /* of the response being read */
	int headers_too_large; /* FETCH_MAX_HEADER_BYTES was hit */
	struct timespec started;
	double started_wall;   /* Unix time of the start */
	struct curl_slist *headers; /* conditional request headers, or NULL */
	/* Recording (opts.record): */
	struct buf req;        /* the request head as sent */
	struct buf resp;       /* the response head as received */
	struct buf raw;        /* the body as sent, when it has a coding */
	struct decode_state *dec; /* its decoder, from the first body byte */
	int dec_started;       /* the coding was looked at */
	int bad_coding;        /* the coding is unknown or its data bad */
	int no_fds;            /* a socket could not be made: EMFILE, ENFILE */
	char errbuf[CURL_ERROR_SIZE];
	char why[CURL_ERROR_SIZE + 64]; /* the result's error */
	struct transfer *prev, *next;
};

/* What we keep per socket libcurl asks us to watch. */
struct sockwatch {
	struct event *ev;
	curl_socket_t fd;
};

static void check_done(struct fetcher *f);

static double
ms_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) * 1e3 +
	    (double)(t.tv_nsec - t0->tv_nsec) / 1e6;
}

static const char *header_value(CURL *easy, const char *name);

/*
 * A recorded transfer's body: the bytes as sent go to raw, and decoded to
 * body; a body without a coding goes to body alone. A coding we cannot
 * undo keeps the raw bytes coming (the archive wants them) and fails the
 * page at the end; a decoded body over the cap ends the transfer.
 */
static size_t
on_raw_body(struct transfer *t, char *p, size_t len)
{
	enum decode_coding coding;
	int rc;

	if (!t->dec_started) {
		t->dec_started = 1;
		coding = decode_coding_of(header_value(t->easy,
		    "Content-Encoding"));
		if (coding == DECODE_UNKNOWN)
			t->bad_coding = 1;
		else if (coding != DECODE_IDENTITY &&
		    (t->dec = decode_new(coding)) == NULL)
			return 0;
	}
	if (t->dec == NULL && !t->bad_coding)
		return (size_t)-1; /* no coding: the plain path */
	if (buf_append(&t->raw, p, len) != BUF_OK) {
		t->too_large = 1;
		return 0;
	}
	if (t->bad_coding)
		return len;
	rc = decode_feed(t->dec, p, len, &t->body);
	if (rc == BUF_FULL) {
		t->too_large = 1;
		return 0;
	}
	if (rc == BUF_NOMEM)
		return 0;
	if (rc != BUF_OK)
		t->bad_coding = 1;
	return len;
}

static size_t
on_body(char *p, size_t size, size_t n, void *arg)
{
	struct transfer *t = arg;
	size_t len = size * n, r;

	if (t->f->opts.record && (r = on_raw_body(t, p, len)) != (size_t)-1)
		return r;
	if (buf_append(&t->body, p, len) != BUF_OK) {
		/* Returning less than len makes libcurl abort the transfer. */
		t->too_large = t->body.len + len > t->body.limit;
		if (t->too_large && t->cut)
			buf_append(&t->body, p, t->body.limit - t->body.len);
		return 0;
	}
	return len;
}

/*
 * Count header bytes per response (a status line starts the next one, as
 * after a followed redirect): our own cap, so a flood of headers ends the
 * same way whatever libcurl's own limit is.
 */
static size_t
on_header(char *p, size_t size, size_t n, void *arg)
{
	struct transfer *t = arg;
	size_t len = size * n;

	if (len >= 5 && memcmp(p, "HTTP/", 5) == 0) {
		t->header_bytes = 0;
		buf_reset(&t->resp);
	}
	t->header_bytes += len;
	if (t->header_bytes > FETCH_MAX_HEADER_BYTES) {
		t->headers_too_large = 1;
		return 0;
	}
	if (t->f->opts.record && buf_append(&t->resp, p, len) != BUF_OK)
		return 0;
	return len;
}

/*
 * libcurl's trace, on recorded transfers: keep the request head as it
 * went out (the last request's, when a redirect was followed).
 */
static int
on_trace(CURL *easy, curl_infotype type, char *p, size_t len, void *arg)
{
	struct transfer *t = arg;

	if (type != CURLINFO_HEADER_OUT)
		return 0;
	/* A complete head before this one: a new request begins. */
	if (t->req.len >= 4 &&
	    memcmp(t->req.data + t->req.len - 4, "\r\n\r\n", 4) == 0)
		buf_reset(&t->req);
	buf_append(&t->req, p, len); /* a head over the cap is cut */
	return 0;
}

/*
 * Whether the transfer got as far as sending its request over a working
 * connection (new or reused; TLS handshake done): the time to that point
 * stays 0 when it never came.
 */
static int
connected(CURL *easy)
{
	curl_off_t pre = 0;

	curl_easy_getinfo(easy, CURLINFO_PRETRANSFER_TIME_T, &pre);
	return pre > 0;
}

/*
 * libcurl: make a connection's socket. As libcurl would, but the errno of
 * a failure is kept: running out of descriptors is this process's
 * trouble, and libcurl would report it as a server it cannot connect to.
 */
static curl_socket_t
open_socket(void *arg, curlsocktype purpose, struct curl_sockaddr *a)
{
	struct transfer *t = arg;
	curl_socket_t s;

	s = socket(a->family, a->socktype, a->protocol);
	if (s == CURL_SOCKET_BAD && (errno == EMFILE || errno == ENFILE))
		t->no_fds = 1;
	return s;
}

/*
 * Whether t failed for want of a descriptor: its socket could not be
 * made, libcurl kept EMFILE or ENFILE as the system's reason, or -- for a
 * name lookup or connection that failed before any socket, where libcurl
 * keeps no errno (the resolver's own descriptors) -- none can be opened
 * now.
 */
static int
out_of_fds(struct transfer *t, CURLcode code)
{
	long oserr = 0;

	if (t->no_fds)
		return 1;
	curl_easy_getinfo(t->easy, CURLINFO_OS_ERRNO, &oserr);
	if (oserr == EMFILE || oserr == ENFILE)
		return 1;
	if ((code == CURLE_COULDNT_RESOLVE_HOST ||
	    code == CURLE_COULDNT_CONNECT) && !connected(t->easy))
		return fdlimit_exhausted();
	return 0;
}

static void
on_socket_event(evutil_socket_t fd, short what, void *arg)
{
	struct fetcher *f = arg;
	int running, flags = 0;

	if (what & EV_READ)
		flags |= CURL_CSELECT_IN;
	if (what & EV_WRITE)
		flags |= CURL_CSELECT_OUT;
	curl_multi_socket_action(f->multi, fd, flags, &running);
	check_done(f);
}

static void
on_timer(evutil_socket_t fd, short what, void *arg)
{
	struct fetcher *f = arg;
	int running;

	curl_multi_socket_action(f->multi, CURL_SOCKET_TIMEOUT, 0, &running);
	check_done(f);
}

/* libcurl: start, change or stop watching a socket. */
static int
sock_cb(CURL *easy, curl_socket_t s, int what, void *userp, void *sockp)
{
	struct fetcher *f = userp;
	struct sockwatch *w = sockp;
	short events = EV_PERSIST;

	if (what == CURL_POLL_REMOVE) {
		if (w != NULL) {
			event_free(w->ev);
			free(w);
			curl_multi_assign(f->multi, s, NULL);
		}
		return 0;
	}
	if (what & CURL_POLL_IN)
		events |= EV_READ;
	if (what & CURL_POLL_OUT)
		events |= EV_WRITE;
	if (w == NULL) {
		w = calloc(1, sizeof(*w));
		if (w == NULL)
			return -1;
		w->fd = s;
		curl_multi_assign(f->multi, s, w);
	} else {
		event_free(w->ev);
	}
	w->ev = event_new(f->base, s, events, on_socket_event, f);
	if (w->ev == NULL || event_add(w->ev, NULL) != 0)
		return -1;
	return 0;
}

/* libcurl: wake me in timeout_ms (-1: never). */
static int
timer_cb(CURLM *multi, long timeout_ms, void *userp)
{
	struct fetcher *f = userp;
	struct timeval tv;

	if (timeout_ms < 0)
		return evtimer_del(f->timer);
	tv.tv_sec = timeout_ms / 1000;
	tv.tv_usec = (timeout_ms % 1000) * 1000;
	return evtimer_add(f->timer, &tv);
}

static void
unlink_transfer(struct transfer *t)
{
	struct fetcher *f = t->f;

	if (t->prev != NULL)
		t->prev->next = t->next;
	else
		f->head = t->next;
	if (t->next != NULL)
		t->next->prev = t->prev;
	f->active--;
}

/*
 * Keep e for the next transfer, or free it. Only a handle whose transfer
 * went well is kept: libcurl resets a transfer's results when the next
 * starts, but an error's system errno could linger.
 */
static void
easy_done(struct fetcher *f, CURL *e, int reuse)
{
	if (reuse && f->nidle < FETCH_IDLE_MAX)
		f->idle[f->nidle++] = e;
	else
		curl_easy_cleanup(e);
}

static void
free_transfer(struct transfer *t, int reuse)
{
	curl_multi_remove_handle(t->f->multi, t->easy);
	easy_done(t->f, t->easy, reuse);
	curl_slist_free_all(t->headers);
	decode_free(t->dec);
	buf_free(&t->req);
	buf_free(&t->resp);
	buf_free(&t->raw);
	buf_free(&t->body);
	free(t->url);
	free(t);
}

static const char *
header_value(CURL *easy, const char *name)
{
	struct curl_header *h;

	if (curl_easy_header(easy, name, 0, CURLH_HEADER, -1, &h) != CURLHE_OK)
		return NULL;
	return h->value;
}

/*
 * Every Link header of t's response joined by ", " into b (the same list,
 * RFC 9110 5.3), at most FETCH_LINK_MAX bytes: one header past that is
 * left out. NULL when there is none.
 */
static const char *
link_headers(CURL *easy, struct buf *b)
{
	struct curl_header *h;
	size_t i, amount = 1;

	for (i = 0; i < amount; i++) {
		if (curl_easy_header(easy, "Link", i, CURLH_HEADER, -1, &h) !=
		    CURLHE_OK)
			break;
		amount = h->amount;
		if (b->len + 2 + strlen(h->value) > b->limit)
			continue;
		if ((b->len > 0 && buf_append(b, ", ", 2) != BUF_OK) ||
		    buf_puts(b, h->value) != BUF_OK)
			break;
	}
	return b->len > 0 ? b->data : NULL;
}

/*
 * Why t failed, in words a pages row can keep: a phrase of ours that names
 * what went wrong (see fetch.h), then libcurl's message for the details.
 */
static void
explain(struct transfer *t, CURLcode code, long status)
{
	const char *what = "transfer failed", *msg, *te;
	curl_off_t clen = -1;
	long oserr = 0;

	msg = t->errbuf[0] != '\0' ? t->errbuf : curl_easy_strerror(code);
	if (t->no_fds) {
		snprintf(t->why, sizeof(t->why), "out of file descriptors: %s",
		    msg);
		return;
	}
	if (t->too_large) {
		snprintf(t->why, sizeof(t->why), "body larger than %zu bytes",
		    t->body.limit);
		return;
	}
	if (t->headers_too_large) {
		snprintf(t->why, sizeof(t->why), "headers larger than %d bytes",
		    FETCH_MAX_HEADER_BYTES);
		return;
	}
	if (t->bad_coding && code == CURLE_BAD_CONTENT_ENCODING) {
		snprintf(t->why, sizeof(t->why), "bad content encoding: %s",
		    t->dec == NULL ? "a coding nearcrawl cannot decode"
		                   : "the data is not valid in its coding");
		return;
	}
	switch (code) {
	case CURLE_OPERATION_TIMEDOUT:
		/* Timeouts and the low-speed limit share the code. */
		if (status == 0)
			what = "no response in time";
		else if (strncmp(msg, "Operation too slow", 18) == 0)
			what = "body too slow";
		else
			what = "body not done in time";
		break;
	case CURLE_PARTIAL_FILE:
		curl_easy_getinfo(t->easy, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T,
		    &clen);
		te = header_value(t->easy, "Transfer-Encoding");
		if (clen >= 0)
			what = "body shorter than its Content-Length";
		else if (te != NULL && strcasestr(te, "chunked") != NULL)
			what = "chunked body cut short";
		else
			what = "body cut short";
		break;
	case CURLE_RECV_ERROR:
	case CURLE_SEND_ERROR:
		curl_easy_getinfo(t->easy, CURLINFO_OS_ERRNO, &oserr);
		if (oserr == ECONNRESET)
			what = "connection reset";
		else
			what = code == CURLE_RECV_ERROR ? "receive failed"
			                                : "send failed";
		break;
	case CURLE_GOT_NOTHING:
		what = "empty reply";
		break;
	case CURLE_COULDNT_CONNECT:
		what = "cannot connect";
		break;
	case CURLE_PEER_FAILED_VERIFICATION:
		/* A campus CA is the usual cause: name the way out. */
		what = "certificate not trusted (see --cacert, --capath)";
		break;
	case CURLE_SSL_CONNECT_ERROR:
		what = "TLS handshake failed";
		break;
	case CURLE_COULDNT_RESOLVE_HOST:
		what = "unknown host";
		break;
	case CURLE_WEIRD_SERVER_REPLY:
	case CURLE_UNSUPPORTED_PROTOCOL:
		what = "not an HTTP response";
		break;
	case CURLE_BAD_CONTENT_ENCODING:
		what = "bad content encoding";
		break;
	case CURLE_TOO_MANY_REDIRECTS:
		what = "too many redirects";
		break;
	default:
		break;
	}
	snprintf(t->why, sizeof(t->why), "%s: %s", what, msg);
}

/* Report a finished transfer to its owner and forget it. */
static void
finish(struct transfer *t, CURLcode code)
{
	struct fetch_result r;
	struct buf link;
	curl_off_t retry = -1;
	char *ct = NULL, *loc = NULL;

	memset(&r, 0, sizeof(r));
	r.url = t->url;
	r.code = code;
	r.body = &t->body;
	/* A declared Content-Length over the cap ends the transfer early. */
	if (code == CURLE_FILESIZE_EXCEEDED)
		t->too_large = 1;
	r.body_too_large = t->too_large;
	r.elapsed_ms = ms_since(&t->started);
	curl_easy_getinfo(t->easy, CURLINFO_RESPONSE_CODE, &r.status);
	r.connected = r.status > 0 || connected(t->easy);
	curl_easy_getinfo(t->easy, CURLINFO_CONTENT_TYPE, &ct);
	curl_easy_getinfo(t->easy, CURLINFO_REDIRECT_URL, &loc);
	if (curl_easy_getinfo(t->easy, CURLINFO_RETRY_AFTER, &retry) !=
	    CURLE_OK || retry <= 0)
		retry = -1;
	r.content_type = ct;
	r.location = loc;
	r.retry_after = (long)retry;
	r.x_robots_tag = r.status > 0 ? header_value(t->easy, "X-Robots-Tag")
	                              : NULL;
	r.started_wall = t->started_wall;
	if (r.status > 0) {
		r.etag = header_value(t->easy, "ETag");
		r.last_modified = header_value(t->easy, "Last-Modified");
	}
	/* A coding we could not undo fails a transfer that went well. */
	if (code == CURLE_OK && t->bad_coding)
		code = r.code = CURLE_BAD_CONTENT_ENCODING;
	if (t->f->opts.record && r.status > 0) {
		r.request = t->req.data;
		r.request_len = t->req.len;
		r.response = t->resp.data;
		r.response_len = t->resp.len;
		r.raw = t->dec != NULL || t->bad_coding ? &t->raw : &t->body;
		curl_easy_getinfo(t->easy, CURLINFO_PRIMARY_IP, &r.ip);
		curl_easy_getinfo(t->easy, CURLINFO_EFFECTIVE_URL,
		    &r.final_url);
	}
	buf_init(&link, FETCH_LINK_MAX);
	r.link = r.status > 0 ? link_headers(t->easy, &link) : NULL;
	if (code == CURLE_ABORTED_BY_CALLBACK) {
		r.error = "aborted";
	} else if (code != CURLE_OK) {
		if (r.status == 0 && out_of_fds(t, code))
			r.no_descriptors = t->no_fds = 1;
		explain(t, code, r.status);
		r.error = t->why;
	}
	unlink_transfer(t);
	t->fn(&r, t->arg);
	buf_free(&link);
	free_transfer(t, code == CURLE_OK);
}

static void
check_done(struct fetcher *f)
{
	CURLMsg *m;
	int left;
	struct transfer *t;

	while ((m = curl_multi_info_read(f->multi, &left)) != NULL) {
		if (m->msg != CURLMSG_DONE)
			continue;
		curl_easy_getinfo(m->easy_handle, CURLINFO_PRIVATE, (char **)&t);
		finish(t, m->data.result);
	}
}

struct fetcher *
fetch_new(struct event_base *base, const struct fetch_opts *opts)
{
	struct fetcher *f;

	f = calloc(1, sizeof(*f));
	if (f == NULL)
		return NULL;
	f->base = base;
	f->opts = *opts;
	f->multi = curl_multi_init();
	f->timer = evtimer_new(base, on_timer, f);
	if (f->multi == NULL || f->timer == NULL)
		goto fail;
	curl_multi_setopt(f->multi, CURLMOPT_SOCKETFUNCTION, sock_cb);
	curl_multi_setopt(f->multi, CURLMOPT_SOCKETDATA, f);
	curl_multi_setopt(f->multi, CURLMOPT_TIMERFUNCTION, timer_cb);
	curl_multi_setopt(f->multi, CURLMOPT_TIMERDATA, f);
	curl_multi_setopt(f->multi, CURLMOPT_MAX_HOST_CONNECTIONS,
	    opts->max_host_connections);
	curl_multi_setopt(f->multi, CURLMOPT_MAX_TOTAL_CONNECTIONS,
	    opts->max_total_connections);
	/* Keep idle connections for reuse: one per host we talk to. */
	curl_multi_setopt(f->multi, CURLMOPT_MAXCONNECTS,
	    opts->max_total_connections * 4);
	return f;
fail:
	fetch_free(f);
	return NULL;
}

/* Add "name: value" to t's request headers (value NULL: nothing); a
 * value with a line break is left out. 0, or -1 when out of memory. */
static int
add_condition(struct transfer *t, const char *name, const char *value)
{
	struct curl_slist *l;
	char line[512];

	if (value == NULL || strpbrk(value, "\r\n") != NULL ||
	    (size_t)snprintf(line, sizeof(line), "%s: %s", name, value) >=
	        sizeof(line))
		return 0;
	if ((l = curl_slist_append(t->headers, line)) == NULL)
		return -1;
	t->headers = l;
	return 0;
}

/*
 * A new handle with the options every transfer of f shares; NULL when
 * libcurl refuses. setup_transfer adds the rest.
 */
static CURL *
new_easy(struct fetcher *f)
{
	const struct fetch_opts *o = &f->opts;
	CURL *e;

	if ((e = curl_easy_init()) == NULL)
		return NULL;
	if (curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https") !=
	    CURLE_OK)
		goto fail;
	curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, on_header);
	curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(e, CURLOPT_OPENSOCKETFUNCTION, open_socket);
	curl_easy_setopt(e, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(e, CURLOPT_USERAGENT, o->user_agent);
	if (o->record) {
		/* The body comes as sent; we decode what we offer
		 * (util/decode.c, brotli with libbrotli whether or not
		 * this libcurl was built with it). */
		curl_easy_setopt(e, CURLOPT_ACCEPT_ENCODING,
		    "gzip, deflate, br");
		curl_easy_setopt(e, CURLOPT_HTTP_CONTENT_DECODING, 0L);
		curl_easy_setopt(e, CURLOPT_DEBUGFUNCTION, on_trace);
		curl_easy_setopt(e, CURLOPT_VERBOSE, 1L);
	} else {
		/* "" offers every encoding this libcurl can decode. */
		curl_easy_setopt(e, CURLOPT_ACCEPT_ENCODING, "");
	}
	curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, o->connect_timeout_ms);
	curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, o->timeout_ms);
	curl_easy_setopt(e, CURLOPT_LOW_SPEED_LIMIT, o->low_speed_bytes);
	curl_easy_setopt(e, CURLOPT_LOW_SPEED_TIME, o->low_speed_secs);
	curl_easy_setopt(e, CURLOPT_TCP_KEEPALIVE, 1L);
	if (o->resolve != NULL)
		curl_easy_setopt(e, CURLOPT_RESOLVE, o->resolve);
	if (fetch_set_tls(e, o->cacert, o->capath, o->insecure,
	    o->proxy) != 0)
		goto fail;
	return e;
fail:
	curl_easy_cleanup(e);
	return NULL;
}

/*
 * The options of t's own: every one a transfer may set, each time, as the
 * handle may come from an earlier transfer.
 */
static int
setup_transfer(struct transfer *t, const struct fetch_req *req)
{
	CURL *e = t->easy;

	if (curl_easy_setopt(e, CURLOPT_URL, t->url) != CURLE_OK)
		return -1;
	curl_easy_setopt(e, CURLOPT_PRIVATE, t);
	curl_easy_setopt(e, CURLOPT_ERRORBUFFER, t->errbuf);
	curl_easy_setopt(e, CURLOPT_WRITEDATA, t);
	curl_easy_setopt(e, CURLOPT_HEADERDATA, t);
	curl_easy_setopt(e, CURLOPT_OPENSOCKETDATA, t);
	if (t->f->opts.record)
		curl_easy_setopt(e, CURLOPT_DEBUGDATA, t);
	curl_easy_setopt(e, CURLOPT_FOLLOWLOCATION,
	    req->max_redirects > 0 ? 1L : 0L);
	curl_easy_setopt(e, CURLOPT_MAXREDIRS, req->max_redirects);
	if (req->if_none_match != NULL || req->if_modified_since != NULL) {
		if (add_condition(t, "If-None-Match", req->if_none_match) != 0 ||
		    add_condition(t, "If-Modified-Since",
		        req->if_modified_since) != 0)
			return -1;
	}
	curl_easy_setopt(e, CURLOPT_HTTPHEADER, t->headers);
	/*
	 * A declared length over the cap fails before any body is read,
	 * unless the first bytes are wanted anyway (robots.txt); 0 is no
	 * cap.
	 */
	curl_easy_setopt(e, CURLOPT_MAXFILESIZE_LARGE,
	    req->cut ? (curl_off_t)0 : (curl_off_t)req->max_body);
	return 0;
}

int
fetch_set_tls(CURL *e, const char *cacert, const char *capath,
    int insecure, const char *proxy)
{
	if (cacert != NULL &&
	    curl_easy_setopt(e, CURLOPT_CAINFO, cacert) != CURLE_OK)
		return -1;
	if (capath != NULL &&
	    curl_easy_setopt(e, CURLOPT_CAPATH, capath) != CURLE_OK)
		return -1;
	if (insecure) {
		curl_easy_setopt(e, CURLOPT_SSL_VERIFYPEER, 0L);
		curl_easy_setopt(e, CURLOPT_SSL_VERIFYHOST, 0L);
	}
	if (proxy != NULL &&
	    curl_easy_setopt(e, CURLOPT_PROXY, proxy) != CURLE_OK)
		return -1;
	return 0;
}

int
fetch_start(struct fetcher *f, const char *url, fetch_done_fn fn, void *arg)
{
	struct fetch_req req = { .max_body = f->opts.max_body };

	return fetch_start_req(f, url, &req, fn, arg);
}

int
fetch_start_req(struct fetcher *f, const char *url,
    const struct fetch_req *req, fetch_done_fn fn, void *arg)
{
	struct transfer *t;

	if (f->aborting)
		return -1;
	t = calloc(1, sizeof(*t));
	if (t == NULL)
		return -1;
	t->f = f;
	t->fn = fn;
	t->arg = arg;
	t->cut = req->cut;
	buf_init(&t->body, req->max_body);
	buf_init(&t->raw, req->max_body);
	buf_init(&t->req, FETCH_MAX_HEADER_BYTES);
	buf_init(&t->resp, FETCH_MAX_HEADER_BYTES);
	t->url = strdup(url);
	t->easy = f->nidle > 0 ? f->idle[--f->nidle] : new_easy(f);
	if (t->url == NULL || t->easy == NULL || setup_transfer(t, req) != 0)
		goto fail;
	clock_gettime(CLOCK_MONOTONIC, &t->started);
	t->started_wall = clock_wall_s();
	if (curl_multi_add_handle(f->multi, t->easy) != CURLM_OK)
		goto fail;
	t->next = f->head;
	if (f->head != NULL)
		f->head->prev = t;
	f->head = t;
	f->active++;
	return 0;
fail:
	if (t->easy != NULL)
		curl_easy_cleanup(t->easy);
	curl_slist_free_all(t->headers);
	free(t->url);
	free(t);
	return -1;
}

size_t
fetch_active(const struct fetcher *f)
{
	return f->active;
}

size_t
fetch_abort_all(struct fetcher *f)
{
	size_t n = 0;

	f->aborting = 1;
	while (f->head != NULL) {
		snprintf(f->head->errbuf, sizeof(f->head->errbuf), "aborted");
		finish(f->head, CURLE_ABORTED_BY_CALLBACK);
		n++;
	}
	f->aborting = 0;
	return n;
}

void
fetch_free(struct fetcher *f)
{
	struct transfer *t;

	if (f == NULL)
		return;
	while ((t = f->head) != NULL) {
		unlink_transfer(t);
		free_transfer(t, 0);
	}
	while (f->nidle > 0)
		curl_easy_cleanup(f->idle[--f->nidle]);
	if (f->multi != NULL)
		curl_multi_cleanup(f->multi);
	if (f->timer != NULL)
		event_free(f->timer);
	free(f);
}
