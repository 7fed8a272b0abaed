/*
 * serve_out: what the pages of `nearcrawl serve` share: the server's state,
 * one request being answered, and writing HTML into its response.
 *
 * Everything that came from the web or the database -- URLs, titles,
 * hosts, text, robots.txt -- goes out through sv_h or sv_hn, which write
 * control and invalid bytes as \xHH (util/esc.h's rule; line breaks and
 * tabs are kept, HTML reads them as blanks) and & < > " ' as
 * character references, so a crawled page titled <script> stays text in
 * element text and in quoted attribute values alike. A URL is a link only
 * when it is http or https. A response is capped at SV_MAX_RESPONSE
 * bytes: listings stop there and say so.
 */
#ifndef NC_SERVE_OUT_H
#define NC_SERVE_OUT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <event2/event.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>

#include "config/config.h"
#include "dedup/dedup.h"
#include "storage/store_view.h"

struct search;

/* Bytes of one response at most (a page view's two texts fit). */
#define SV_MAX_RESPONSE (8 * 1024 * 1024)
/* The longest request target answered; longer is 414. */
#define SV_MAX_URI 4096
/* Rows of a listing a page. */
#define SV_ROWS 200

/* The server: set up once, shared by every request. */
struct sv {
	const char *db;             /* the database, as given */
	struct config cfg;          /* the crawl's settings (for digests) */
	struct dedup *dd;           /* dedup of cfg, for digesting pages */
	struct store_conn *c;       /* our read-only connection, or NULL
	                               after a failure (opened again) */
	struct store_view *v;       /* the view on c */
	struct search *search;      /* the search handle, opened at the
	                               first search, or NULL */
	struct event_base *base;    /* the loop */
	char *self;                 /* this program, to run `report` */
	char *tmp;                  /* our temporary directory */
	char *report;               /* the last whole report's directory in
	                               tmp, or NULL before the first */
	int report_rc;              /* its report's exit status */
	pid_t child;                /* the report being made, 0 when none */
	char *next;                 /* its directory */
	unsigned serial;            /* reports started */
	double report_at;           /* when the last report was started */
	int64_t report_seq;         /* max seq it was started at */
	int64_t seen_seq;           /* max seq at the last look */
	double changed_at;          /* when the database was last seen to
	                               change, 0 never */
	int refresh;                /* seconds between reports at most */
	int quiet;                  /* no messages but errors */
	int loopback;               /* listening on loopback only: the Host
	                               header must name this machine */
};

/* One request being answered. */
struct sv_req {
	struct sv *s;
	struct evhttp_request *req;
	struct evbuffer *out;       /* the response body */
	const char *path;           /* decoded path */
	struct evkeyvalq query;     /* parsed query parameters */
	int full;                   /* the body reached SV_MAX_RESPONSE */
};

/* Raw HTML (our own text only). */
void sv_puts(struct sv_req *r, const char *s);
void sv_printf(struct sv_req *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Untrusted text, escaped for element text or a quoted attribute; NULL
 * writes nothing. sv_hn: the n bytes at s (s[n] need not be NUL, but the
 * bytes must not stop inside a UTF-8 character). */
void sv_h(struct sv_req *r, const char *s);
void sv_hn(struct sv_req *r, const char *s, size_t n);

/* Untrusted text percent-encoded for a query value (then HTML-safe). */
void sv_qv(struct sv_req *r, const char *s);

/* A URL: a link (rel=nofollow noreferrer) when http(s), else text. */
void sv_url(struct sv_req *r, const char *url);

/* Whether the body has reached the cap: listings stop. */
int sv_full(struct sv_req *r);

/* The page's opening (doctype, inline CSS, the navigation) and end.
 * refresh > 0 reloads the page that often (a crawl is running). */
void sv_head(struct sv_req *r, const char *title, int refresh);
void sv_foot(struct sv_req *r);

/* Send the body as HTML with status code. */
void sv_send(struct sv_req *r, int code);

/* An error page with status code (4xx, 5xx) and a line of text. */
void sv_error(struct sv_req *r, int code, const char *msg);

/* The database failed: 503 with its message (and the connection is
 * opened again for the next request). */
void sv_dbfail(struct sv_req *r);

/*
 * Query parameter name as a whole number within [lo, hi]: 1 with *v set,
 * 0 when absent (*v = def), -1 when malformed or out of range.
 */
int sv_query_num(struct sv_req *r, const char *name, int64_t lo, int64_t hi,
    int64_t def, int64_t *v);

/* Query parameter name, or NULL. */
const char *sv_query(struct sv_req *r, const char *name);

/* n with thousands separators, in buf. */
const char *sv_num(int64_t n, char *buf, size_t bufsz);

/* A Unix time as UTC ("2024-05-06 07:08:09"), in buf. */
const char *sv_time(double at, char *buf, size_t bufsz);

/* A verdict as a coloured label. */
void sv_verdict(struct sv_req *r, enum store_verdict v);

/* A page's title as a link to its view (its URL when untitled). */
void sv_page_link(struct sv_req *r, int64_t id, const char *title,
    const char *url);

#endif
