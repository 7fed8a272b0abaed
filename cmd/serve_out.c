/*
 * serve_out: HTML out of `nearcrawl serve` (cmd/serve_out.h).
 */
#include "cmd/serve_out.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <event2/buffer.h>

#include "util/esc.h"

void
sv_puts(struct sv_req *r, const char *s)
{
	evbuffer_add(r->out, s, strlen(s));
}

void
sv_printf(struct sv_req *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	evbuffer_add_vprintf(r->out, fmt, ap);
	va_end(ap);
}

/*
 * The n bytes at s for HTML: esc.h's units, a bad one as \xHH (but for a
 * line break or a tab, which HTML reads as a blank), the five
 * characters that mean something in HTML as references. Runs of safe
 * bytes go out in one piece.
 */
void
sv_hn(struct sv_req *r, const char *s, size_t n)
{
	char tmp[8];
	size_t i = 0, run = 0, u;
	int bad;

	if (s == NULL)
		return;
	while (i < n) {
		/* esc_next needs a NUL-terminated string: a unit never
		 * passes n, as the caller promises (and a NUL ends it). */
		if (s[i] == '\0') {
			bad = 1;
			u = 1;
		} else if (s[i] == '\n' || s[i] == '\t') {
			/* White space to HTML, safe in text and attributes:
			 * a <pre> keeps a text's lines. */
			bad = 0;
			u = 1;
		} else
			u = esc_next(s + i, &bad);
		if (u > n - i)
			u = n - i;
		if (!bad && u == 1 && strchr("&<>\"'", s[i]) == NULL) {
			i++;
			run++;
			continue;
		}
		if (run > 0)
			evbuffer_add(r->out, s + i - run, run);
		run = 0;
		if (bad) {
			for (size_t k = 0; k < u; k++) {
				snprintf(tmp, sizeof(tmp), "\\x%02x",
				    (unsigned char)s[i + k]);
				evbuffer_add(r->out, tmp, 4);
			}
		} else if (u > 1) {
			evbuffer_add(r->out, s + i, u);
		} else {
			switch (s[i]) {
			case '&':
				sv_puts(r, "&amp;");
				break;
			case '<':
				sv_puts(r, "&lt;");
				break;
			case '>':
				sv_puts(r, "&gt;");
				break;
			case '"':
				sv_puts(r, "&quot;");
				break;
			default:
				sv_puts(r, "&#39;");
				break;
			}
		}
		i += u;
	}
	if (run > 0)
		evbuffer_add(r->out, s + i - run, run);
}

void
sv_h(struct sv_req *r, const char *s)
{
	if (s != NULL)
		sv_hn(r, s, strlen(s));
}

void
sv_qv(struct sv_req *r, const char *s)
{
	char *e;

	if (s == NULL)
		return;
	/* Percent-encoded, so only [A-Za-z0-9-._~%] and '+' are left. */
	if ((e = evhttp_uriencode(s, -1, 1)) == NULL)
		return;
	sv_h(r, e);
	free(e);
}

void
sv_url(struct sv_req *r, const char *url)
{
	if (url == NULL || *url == '\0') {
		sv_puts(r, "<em>(none)</em>");
		return;
	}
	if (strncasecmp(url, "http://", 7) != 0 &&
	    strncasecmp(url, "https://", 8) != 0) {
		sv_h(r, url);
		return;
	}
	sv_puts(r, "<a class=\"ext\" rel=\"nofollow noreferrer\" href=\"");
	sv_h(r, url);
	sv_puts(r, "\">");
	sv_h(r, url);
	sv_puts(r, "</a>");
}

int
sv_full(struct sv_req *r)
{
	if (evbuffer_get_length(r->out) >= SV_MAX_RESPONSE)
		r->full = 1;
	return r->full;
}

static const char style[] =
    "body{font-family:sans-serif;margin:0;color:#222;background:#fff}\n"
    "nav{background:#243447;color:#fff;padding:.5em 1.5em;"
    "display:flex;gap:1.2em;align-items:center;flex-wrap:wrap}\n"
    "nav a{color:#fff;text-decoration:none}nav a:hover{"
    "text-decoration:underline}\n"
    "nav .db{color:#b8c7d9;font-size:.9em}\n"
    "nav form{margin-left:auto}nav input{padding:.2em .4em;width:18em}\n"
    "main{margin:1em 1.5em;max-width:1400px}\n"
    "h1{font-size:1.4em;overflow-wrap:anywhere}h2{font-size:1.15em;"
    "margin-top:1.5em;border-bottom:1px solid #ccc}\n"
    "table{border-collapse:collapse;margin:.5em 0}\n"
    "th,td{border:1px solid #ccc;padding:.2em .5em;text-align:left;"
    "vertical-align:top}\n"
    "th{background:#f0f0f0}td.n{text-align:right;"
    "font-variant-numeric:tabular-nums}\n"
    "td.u,dd.u{overflow-wrap:anywhere;max-width:50em}\n"
    "tr.me td{background:#fff7d6}\n"
    "dl{display:grid;grid-template-columns:max-content auto;"
    "gap:.2em 1em}dt{font-weight:bold}dd{margin:0;"
    "overflow-wrap:anywhere}\n"
    ".v{display:inline-block;padding:0 .4em;border-radius:.3em;"
    "font-size:.85em;color:#fff;background:#777}\n"
    ".v-unique{background:#2e7d32}.v-exact{background:#c62828}"
    ".v-near{background:#ef6c00}.v-redirect{background:#1565c0}"
    ".v-error{background:#6d4c41}\n"
    ".note{color:#555;font-size:.9em}\n"
    ".cols{display:grid;grid-template-columns:1fr 1fr;gap:1em}\n"
    ".text{border:1px solid #ccc;padding:.5em;font-size:.9em;"
    "line-height:1.45;max-height:70em;overflow:auto;"
    "overflow-wrap:anywhere}\n"
    ".text p{margin:0 0 .35em}.text p.tmpl{color:#999}\n"
    "mark{background:#ffe066;color:#000;padding:0 .1em}\n"
    "pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#f7f7f7;"
    "border:1px solid #ddd;padding:.5em;max-height:40em;overflow:auto}\n"
    "img{max-width:100%;height:auto;border:1px solid #ddd}\n"
    ".figs{display:grid;grid-template-columns:1fr 1fr;gap:1em}\n"
    ".hit{margin:.8em 0}.hit .s{color:#333}.fold{margin-left:1.5em;"
    "font-size:.9em}\n"
    ".fig{display:flex;gap:2em;flex-wrap:wrap}.fig div{font-size:1.6em}"
    ".fig span{display:block;font-size:.55em;color:#555}\n";

void
sv_head(struct sv_req *r, const char *title, int refresh)
{
	sv_puts(r, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	    "<meta charset=\"utf-8\">\n"
	    "<meta name=\"viewport\" content=\"width=device-width\">\n"
	    "<link rel=\"icon\" href=\"data:,\">\n");
	if (refresh > 0)
		sv_printf(r, "<meta http-equiv=\"refresh\" content=\"%d\">\n",
		    refresh);
	sv_puts(r, "<title>");
	sv_h(r, title);
	sv_puts(r, " - nearcrawl</title>\n<style>\n");
	sv_puts(r, style);
	sv_puts(r, "</style>\n</head>\n<body>\n<nav><a href=\"/\"><b>"
	    "nearcrawl</b></a><span class=\"db\">");
	sv_h(r, r->s->db);
	sv_puts(r, "</span><a href=\"/\">overview</a>"
	    "<a href=\"/pages\">pages</a>"
	    "<a href=\"/clusters\">clusters</a>"
	    "<a href=\"/hosts\">hosts</a>"
	    "<a href=\"/report/\">report</a>");
	sv_puts(r, "<form action=\"/search\" method=\"get\" role=\"search\">"
	    "<input type=\"search\" name=\"q\" placeholder=\"search the "
	    "crawl\" value=\"");
	sv_h(r, strcmp(r->path, "/search") == 0 ? sv_query(r, "q") : NULL);
	sv_puts(r, "\"></form>");
	sv_puts(r, "</nav>\n<main>\n");
}

void
sv_foot(struct sv_req *r)
{
	if (r->full)
		sv_puts(r, "<p class=\"note\">(cut: the page reached its "
		    "size limit)</p>\n");
	sv_puts(r, "</main>\n</body>\n</html>\n");
}

void
sv_send(struct sv_req *r, int code)
{
	struct evkeyvalq *h = evhttp_request_get_output_headers(r->req);

	evhttp_add_header(h, "Content-Type", "text/html; charset=utf-8");
	/* No script runs on these pages, and nothing loads from
	 * elsewhere: should escaping ever fail, the browser still runs
	 * nothing. */
	evhttp_add_header(h, "Content-Security-Policy", "default-src 'none'; "
	    "style-src 'unsafe-inline'; img-src 'self' data:; "
	    "form-action 'self'; base-uri 'none'; frame-ancestors 'none'");
	evhttp_add_header(h, "X-Content-Type-Options", "nosniff");
	evhttp_add_header(h, "Referrer-Policy", "no-referrer");
	evhttp_add_header(h, "Cache-Control", "no-store");
	evhttp_send_reply(r->req, code, NULL, r->out);
}

void
sv_error(struct sv_req *r, int code, const char *msg)
{
	char title[32];

	evbuffer_drain(r->out, evbuffer_get_length(r->out));
	r->full = 0;
	snprintf(title, sizeof(title), "%d", code);
	sv_head(r, title, 0);
	sv_printf(r, "<h1>%d</h1>\n<p>", code);
	sv_h(r, msg);
	sv_puts(r, "</p>\n");
	sv_foot(r);
	sv_send(r, code);
}

void
sv_dbfail(struct sv_req *r)
{
	char err[512];

	store_conn_fail(r->s->c, err, sizeof(err), 1, 2);
	/* A broken connection (a restarted server) is opened again. */
	store_view_free(r->s->v);
	store_conn_close(r->s->c);
	r->s->v = NULL;
	r->s->c = NULL;
	sv_error(r, 503, err);
}

const char *
sv_query(struct sv_req *r, const char *name)
{
	return evhttp_find_header(&r->query, name);
}

int
sv_query_num(struct sv_req *r, const char *name, int64_t lo, int64_t hi,
    int64_t def, int64_t *v)
{
	const char *s = sv_query(r, name);
	long long n;
	char *end;

	*v = def;
	if (s == NULL)
		return 0;
	if (*s < '0' || *s > '9')
		return -1;
	n = strtoll(s, &end, 10);
	if (*end != '\0' || n < lo || n > hi)
		return -1;
	*v = n;
	return 1;
}

const char *
sv_num(int64_t n, char *buf, size_t bufsz)
{
	char raw[32];
	size_t len, i, o = 0;
	int neg = n < 0;

	snprintf(raw, sizeof(raw), "%lld", neg ? -(long long)n : (long long)n);
	len = strlen(raw);
	if (bufsz < len + len / 3 + 2) {
		snprintf(buf, bufsz, "?");
		return buf;
	}
	if (neg)
		buf[o++] = '-';
	for (i = 0; i < len; i++) {
		if (i > 0 && (len - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = raw[i];
	}
	buf[o] = '\0';
	return buf;
}

const char *
sv_time(double at, char *buf, size_t bufsz)
{
	time_t t = (time_t)at;
	struct tm tm;

	if (!(at > 0) || gmtime_r(&t, &tm) == NULL ||
	    strftime(buf, bufsz, "%Y-%m-%d %H:%M:%S", &tm) == 0)
		snprintf(buf, bufsz, "-");
	return buf;
}

void
sv_verdict(struct sv_req *r, enum store_verdict v)
{
	const char *name = store_verdict_name(v);

	if (name == NULL)
		name = "?";
	sv_printf(r, "<span class=\"v v-%s\">%s</span>", name, name);
}

void
sv_page_link(struct sv_req *r, int64_t id, const char *title,
    const char *url)
{
	sv_printf(r, "<a href=\"/page/%lld\">", (long long)id);
	if (title != NULL && *title != '\0')
		sv_h(r, title);
	else if (url != NULL && *url != '\0')
		sv_h(r, url);
	else
		sv_printf(r, "page %lld", (long long)id);
	sv_puts(r, "</a>");
}
