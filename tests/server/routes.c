/*
 * routes: the scripted /__nc/ endpoints that play failing, trapping and
 * hostile servers. Each works on any virtual host and ignores the method.
 */
#include "ncserver.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>
#include <event2/keyvalq_struct.h>

#define MAX_SEGS 4

/* In-memory bodies (binary) and header blocks are capped well below RAM. */
#define BINARY_DEFAULT 65536
#define BINARY_MAX ((uint64_t)64 << 20)
#define HEADERS_MAX ((uint64_t)16 << 20)
#define HEADER_LINE 1000
/* Generated link lists and nestings are streamed; these only bound time. */
#define LINKS_MAX 100000000
#define NESTED_MAX 100000000

static const char *const month_names[12] = {
	"January", "February", "March", "April", "May", "June", "July",
	"August", "September", "October", "November", "December"
};

static void
route_status(struct srv_ctx *c, const char *arg)
{
	uint64_t code;

	if (srv_parse_u64(arg, 999, &code) != 0 || code < 200 || code > 599) {
		srv_reply_page(c, 400, "Usage: /__nc/status/CODE, 200..599.");
		return;
	}
	srv_reply_page(c, (int)code, "Scripted status.");
}

static void
route_redirect(struct srv_ctx *c, const char *arg)
{
	struct evkeyvalq *out = evhttp_request_get_output_headers(c->req);
	uint64_t code;
	char *to;

	if (srv_parse_u64(arg, 999, &code) != 0 || code < 300 || code > 399) {
		srv_reply_page(c, 400, "Usage: /__nc/redirect/CODE?to=URL.");
		return;
	}
	to = srv_query_param(c->query, "to");
	/* libevent refuses values with line breaks: no header injection. */
	if (evhttp_add_header(out, "Location", to != NULL ? to : "/") != 0) {
		free(to);
		srv_reply_page(c, 400, "Bad redirect target.");
		return;
	}
	free(to);
	srv_reply_page(c, (int)code, "Scripted redirect.");
}

static void
route_loop(struct srv_ctx *c, const char *arg)
{
	struct evkeyvalq *out = evhttp_request_get_output_headers(c->req);
	uint64_t n;
	char loc[64];

	if (srv_parse_u64(arg, UINT64_MAX - 1, &n) != 0) {
		srv_reply_page(c, 400, "Usage: /__nc/loop/N.");
		return;
	}
	snprintf(loc, sizeof(loc), "/__nc/loop/%llu",
	    (unsigned long long)(n + 1));
	evhttp_add_header(out, "Location", loc);
	srv_reply_page(c, 302, "Redirect loop.");
}

static void
route_retry(struct srv_ctx *c, const char *arg)
{
	struct evkeyvalq *out = evhttp_request_get_output_headers(c->req);
	uint64_t secs, code = 503;
	char *cs, num[32];

	if (srv_parse_u64(arg, 999999999, &secs) != 0) {
		srv_reply_page(c, 400, "Usage: /__nc/retry/SECONDS.");
		return;
	}
	/* ?code=429 plays a rate limiter instead of an overloaded server. */
	cs = srv_query_param(c->query, "code");
	if (cs != NULL && (srv_parse_u64(cs, 999, &code) != 0 ||
	    code < 400 || code > 599))
		code = 503;
	free(cs);
	snprintf(num, sizeof(num), "%llu", (unsigned long long)secs);
	evhttp_add_header(out, "Retry-After", num);
	srv_reply_page(c, (int)code, "Try again later.");
}

/* Deterministic noise: the same bytes every run, no libc state shared. */
static void
route_binary(struct srv_ctx *c, const char *arg)
{
	struct evkeyvalq *out = evhttp_request_get_output_headers(c->req);
	uint64_t n = BINARY_DEFAULT, x = 0x9e3779b97f4a7c15ULL, i;
	struct evbuffer *b;
	unsigned char *p;
	struct evbuffer_iovec v;

	if (arg != NULL && srv_parse_u64(arg, BINARY_MAX, &n) != 0) {
		srv_reply_page(c, 400, "Usage: /__nc/binary[/BYTES].");
		return;
	}
	b = evbuffer_new();
	if (b == NULL || (n > 0 && evbuffer_reserve_space(b, (ev_ssize_t)n,
	    &v, 1) < 1) || (n > 0 && v.iov_len < n)) {
		if (b != NULL)
			evbuffer_free(b);
		srv_reply_page(c, 500, "Out of memory.");
		return;
	}
	if (n > 0) {
		p = v.iov_base;
		for (i = 0; i < n; i++) {
			/* xorshift64* */
			x ^= x >> 12;
			x ^= x << 25;
			x ^= x >> 27;
			p[i] = (unsigned char)((x * 0x2545f4914f6cdd1dULL) >>
			    56);
		}
		v.iov_len = n;
		evbuffer_commit_space(b, &v, 1);
	}
	evhttp_add_header(out, "Content-Type", "text/html");
	srv_reply(c, 200, b);
	evbuffer_free(b);
}

static int
days_in_month(int y, int m)
{
	static const int days[12] = {
		31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31
	};
	int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;

	return days[m - 1] + (m == 2 && leap);
}

/* Day of the week of the first of the month, 0 = Monday (Gregorian). */
static int
first_weekday(int y, int m)
{
	static const int t[12] = { 0, 3, 2, 5, 0, 3, 5, 1, 4, 6, 2, 4 };
	int yy = m < 3 ? y - 1 : y;
	int sunday0 = (yy + yy / 4 - yy / 100 + yy / 400 + t[m - 1] + 1) % 7;

	return (sunday0 + 6) % 7;
}

/*
 * An endless calendar: every month links to its neighbours, forever in
 * both directions (years clamp at 1 and 9999), and every page says the
 * same thing in the same template -- the classic crawler trap.
 */
static void
route_calendar(struct srv_ctx *c, const char *ys, const char *ms)
{
	struct evkeyvalq *out = evhttp_request_get_output_headers(c->req);
	uint64_t y64, m64;
	int y, m, py, pm, ny, nm, day, cell, ndays, first, r = 0;
	struct evbuffer *b;

	if (srv_parse_u64(ys, 99999, &y64) != 0 ||
	    srv_parse_u64(ms, 99, &m64) != 0 || y64 < 1 || y64 > 9999 ||
	    m64 < 1 || m64 > 12) {
		srv_reply_page(c, 404, "No such month.");
		return;
	}
	y = (int)y64;
	m = (int)m64;
	py = m == 1 ? y - 1 : y;
	pm = m == 1 ? 12 : m - 1;
	if (py < 1) {
		py = 1;
		pm = 1;
	}
	ny = m == 12 ? y + 1 : y;
	nm = m == 12 ? 1 : m + 1;
	if (ny > 9999) {
		ny = 9999;
		nm = 12;
	}
	b = evbuffer_new();
	if (b == NULL) {
		srv_reply_page(c, 500, "Out of memory.");
		return;
	}
	r |= evbuffer_add_printf(b,
	    "<!DOCTYPE html>\n<html lang=\"en\">\n"
	    "<head><meta charset=\"utf-8\">\n"
	    "<title>Events calendar %04d-%02d</title></head>\n<body>\n"
	    "<header><p class=\"site\">Community events</p>\n"
	    "<nav><a href=\"/\">Home</a></nav></header>\n<main>\n"
	    "<h1>Events calendar %04d-%02d</h1>\n"
	    "<p><a href=\"/__nc/calendar/%04d/%02d\">Previous month</a> | "
	    "<a href=\"/__nc/calendar/%04d/%02d\">Next month</a></p>\n"
	    "<table class=\"month\">\n<tr><th>Mon</th><th>Tue</th><th>Wed</th>"
	    "<th>Thu</th><th>Fri</th><th>Sat</th><th>Sun</th></tr>\n",
	    y, m, y, m, py, pm, ny, nm) < 0;
	ndays = days_in_month(y, m);
	first = first_weekday(y, m);
	for (cell = 0; cell < first + ndays || cell % 7 != 0; cell++) {
		if (cell % 7 == 0)
			r |= evbuffer_add(b, "<tr>", 4) != 0;
		day = cell - first + 1;
		if (day >= 1 && day <= ndays)
			r |= evbuffer_add_printf(b, "<td>%d</td>", day) < 0;
		else
			r |= evbuffer_add(b, "<td></td>", 9) != 0;
		if (cell % 7 == 6)
			r |= evbuffer_add(b, "</tr>\n", 6) != 0;
	}
	r |= evbuffer_add_printf(b,
	    "</table>\n<p>No events are scheduled for %s %04d.</p>\n</main>\n"
	    "<footer><p>Events are added by the events office. "
	    "<a href=\"/\">Back to the home page</a></p></footer>\n"
	    "</body>\n</html>\n", month_names[m - 1], y) < 0;
	if (r != 0) {
		evbuffer_free(b);
		srv_reply_page(c, 500, "Out of memory.");
		return;
	}
	evhttp_add_header(out, "Content-Type", "text/html; charset=utf-8");
	srv_reply(c, 200, b);
	evbuffer_free(b);
}

/*
 * N bytes of junk header lines ("Name: value\r\n" counted whole), in lines
 * of at most HEADER_LINE bytes; at least 18 bytes are always sent.
 */
static void
route_headers(struct srv_ctx *c, const char *arg)
{
	struct evkeyvalq *out = evhttp_request_get_output_headers(c->req);
	uint64_t n, lines, i, len, j;
	char name[32], *value;

	if (srv_parse_u64(arg, HEADERS_MAX, &n) != 0) {
		srv_reply_page(c, 400, "Usage: /__nc/headers/N.");
		return;
	}
	value = malloc(HEADER_LINE + 1);
	if (value == NULL) {
		srv_reply_page(c, 500, "Out of memory.");
		return;
	}
	lines = (n + HEADER_LINE - 1) / HEADER_LINE;
	if (lines == 0)
		lines = 1;
	for (i = 0; i < lines; i++) {
		/* Spread n over the lines; 17 bytes are name, ": " and CRLF. */
		len = n / lines + (i < n % lines);
		len = len > 17 ? len - 17 : 1;
		for (j = 0; j < len; j++)
			value[j] = (char)('a' + (i + j) % 26);
		value[len] = '\0';
		snprintf(name, sizeof(name), "X-Junk-%06llu",
		    (unsigned long long)i);
		evhttp_add_header(out, name, value);
	}
	free(value);
	srv_reply_page(c, 200, "This page has very large headers.");
}

/* ?as=robots: the generated document is a robots.txt, not HTML. */
static int
wants_robots(const struct srv_ctx *c)
{
	char *as = srv_query_param(c->query, "as");
	int r = as != NULL && strcmp(as, "robots") == 0;

	free(as);
	return r;
}

/* Parse a size segment; answers 400 with usage and returns -1 if bad. */
static int
size_arg(struct srv_ctx *c, const char *arg, uint64_t max, uint64_t *n,
    const char *usage)
{
	if (srv_parse_u64(arg, max, n) == 0)
		return 0;
	srv_reply_page(c, 400, usage);
	return -1;
}

/*
 * A redirect chain: /__nc/chain/N answers 302 to /__nc/chain/N-1, and
 * /__nc/chain/0 is an ordinary page, so N redirects lead to it.
 */
static void
route_chain(struct srv_ctx *c, const char *arg)
{
	struct evkeyvalq *out = evhttp_request_get_output_headers(c->req);
	uint64_t n;
	char loc[64];

	if (size_arg(c, arg, UINT64_MAX, &n, "Usage: /__nc/chain/N.") != 0)
		return;
	if (n == 0) {
		srv_reply_page(c, 200, "The end of a redirect chain.");
		return;
	}
	snprintf(loc, sizeof(loc), "/__nc/chain/%llu",
	    (unsigned long long)(n - 1));
	evhttp_add_header(out, "Location", loc);
	srv_reply_page(c, 302, "One more redirect.");
}

/* The streamed routes; returns 0 when name is not one of them. */
static int
route_stream(struct srv_ctx *c, const char *name, char **seg, int nseg)
{
	struct stream_spec sp;
	uint64_t n, m;
	char *rs, *base;

	memset(&sp, 0, sizeof(sp));
	sp.robots = wants_robots(c);
	if (strcmp(name, "silent") == 0 && nseg == 1) {
		sp.kind = STREAM_SILENT;
	} else if (strcmp(name, "endless") == 0 && nseg == 1) {
		sp.kind = STREAM_ENDLESS;
	} else if (strcmp(name, "big") == 0 && nseg == 2) {
		if (size_arg(c, seg[1], SRV_MAX_GENERATED, &n,
		    "Usage: /__nc/big/BYTES[?chunked=1][&as=robots].") != 0)
			return 1;
		rs = srv_query_param(c->query, "chunked");
		sp.chunked = rs != NULL && strcmp(rs, "1") == 0;
		free(rs);
		sp.kind = STREAM_BIG;
		sp.bytes = sp.stop = sp.length = n;
	} else if (strcmp(name, "gzip") == 0 && nseg == 2) {
		if (size_arg(c, seg[1], SRV_MAX_GENERATED, &n,
		    "Usage: /__nc/gzip/BYTES.") != 0)
			return 1;
		sp.kind = STREAM_GZIP;
		sp.bytes = n;
		sp.robots = 0;
	} else if (strcmp(name, "slow") == 0 && nseg == 2) {
		if (size_arg(c, seg[1], SRV_MAX_GENERATED, &n,
		    "Usage: /__nc/slow/BYTES?rate=R.") != 0)
			return 1;
		sp.rate = 1;
		rs = srv_query_param(c->query, "rate");
		if (rs != NULL && (srv_parse_u64(rs, (uint64_t)1 << 40,
		    &sp.rate) != 0 || sp.rate == 0))
			sp.rate = 1;
		free(rs);
		sp.kind = STREAM_SLOW;
		sp.bytes = n;
		sp.robots = 0;
	} else if (strcmp(name, "length") == 0 && nseg == 3) {
		/* Declare one length, send another. */
		if (size_arg(c, seg[1], SRV_MAX_GENERATED, &n,
		    "Usage: /__nc/length/DECLARED/SENT.") != 0 ||
		    size_arg(c, seg[2], SRV_MAX_GENERATED, &m,
		    "Usage: /__nc/length/DECLARED/SENT.") != 0)
			return 1;
		sp.kind = STREAM_BIG;
		sp.bytes = n > m ? n : m;
		sp.length = n;
		sp.stop = m;
		sp.end = m < n ? STREAM_END_CLOSE : STREAM_END_FINISH;
	} else if ((strcmp(name, "reset") == 0 ||
	    strcmp(name, "truncated") == 0) && nseg == 2) {
		/* Half of a document, then the connection goes. */
		if (size_arg(c, seg[1], SRV_MAX_GENERATED / 2, &n,
		    "Usage: /__nc/{reset,truncated}/BYTES.") != 0)
			return 1;
		sp.kind = STREAM_BIG;
		sp.bytes = sp.length = 2 * n + 1;
		sp.stop = n;
		sp.chunked = name[0] == 't';
		sp.end = name[0] == 't' ? STREAM_END_CLOSE : STREAM_END_RESET;
	} else if (strcmp(name, "links") == 0 && nseg == 2) {
		if (size_arg(c, seg[1], LINKS_MAX, &n,
		    "Usage: /__nc/links/N[?base=PREFIX].") != 0)
			return 1;
		base = srv_query_param(c->query, "base");
		/* The prefix goes into an attribute as it is. */
		if (base != NULL && base[strcspn(base, "\"<>&")] != '\0') {
			free(base);
			srv_reply_page(c, 400,
			    "base may not hold \", <, > or &.");
			return 1;
		}
		sp.kind = STREAM_LINKS;
		sp.items = n;
		sp.link_base = base != NULL ? base : "/link/";
		sp.robots = 0;
		stream_start(c, &sp);
		free(base);
		return 1;
	} else if (strcmp(name, "nested") == 0 && nseg == 2) {
		if (size_arg(c, seg[1], NESTED_MAX, &n,
		    "Usage: /__nc/nested/DEPTH.") != 0)
			return 1;
		sp.kind = STREAM_NESTED;
		sp.items = n;
		sp.robots = 0;
	} else {
		return 0;
	}
	stream_start(c, &sp);
	return 1;
}

void
route_dispatch(struct srv_ctx *c, const char *rest)
{
	char *copy, *seg[MAX_SEGS], *p, *q;
	const char *name;
	int nseg = 0;

	if (trap_route(c, rest))
		return;
	copy = strdup(rest);
	if (copy == NULL) {
		srv_reply_page(c, 500, "Out of memory.");
		return;
	}
	/* Segments after the route name; a trailing slash adds nothing. */
	for (p = copy; p != NULL && nseg < MAX_SEGS; p = q) {
		q = strchr(p, '/');
		if (q != NULL)
			*q++ = '\0';
		if (*p == '\0' && q == NULL)
			break;
		seg[nseg++] = p;
	}
	if (p != NULL || nseg == 0) {
		srv_reply_page(c, 404, "No such scripted route.");
		goto out;
	}
	name = seg[0];

	if (strcmp(name, "status") == 0 && nseg == 2)
		route_status(c, seg[1]);
	else if (strcmp(name, "redirect") == 0 && nseg == 2)
		route_redirect(c, seg[1]);
	else if (strcmp(name, "loop") == 0 && nseg == 2)
		route_loop(c, seg[1]);
	else if (strcmp(name, "chain") == 0 && nseg == 2)
		route_chain(c, seg[1]);
	else if (strcmp(name, "retry") == 0 && nseg == 2)
		route_retry(c, seg[1]);
	else if (strcmp(name, "binary") == 0 && nseg <= 2)
		route_binary(c, nseg == 2 ? seg[1] : NULL);
	else if (strcmp(name, "calendar") == 0 && nseg == 3)
		route_calendar(c, seg[1], seg[2]);
	else if (strcmp(name, "headers") == 0 && nseg == 2)
		route_headers(c, seg[1]);
	else if (!route_stream(c, name, seg, nseg))
		srv_reply_page(c, 404, "No such scripted route.");
out:
	free(copy);
}
