/*
 * ncserver: command line, listening sockets, the request context every
 * handler gets, and the access log the politeness tests read.
 */
#include "ncserver.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/keyvalq_struct.h>

#define MAX_ADDRS 16

struct srv_config srv;

static void
usage(FILE *fp)
{
	fprintf(fp,
	    "usage: ncserver --root DIR [--addr 127.0.0.1]... [--port N]\n"
	    "                [--port-file FILE] [--log FILE] [--quiet]\n"
	    "  --root DIR       serve DIR/<host>/ when it exists, else DIR/\n"
	    "  --addr A         listen on A, which must be in 127.0.0.0/8;\n"
	    "                   repeatable (default 127.0.0.1)\n"
	    "  --port N         port for every address; 0 (default) = any\n"
	    "  --port-file F    once listening, write the port to F\n"
	    "  --log F          one line per request: time host method\n"
	    "                   target status bytes\n"
	    "  --quiet          print nothing but errors\n");
}

static double
now_unix(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

void
srv_log(double arrival, const char *host, const char *method,
    const char *uri, int status, uint64_t bytes, const char *ua)
{
	const unsigned char *p;

	if (srv.log == NULL)
		return;
	fprintf(srv.log, "%.3f %s %s %s %d %" PRIu64 " ", arrival,
	    host[0] != '\0' ? host : "-", method, uri, status, bytes);
	/* The agent is the last field: blanks, '%' and anything not
	 * printable ASCII percent-encoded keep the line's fields apart. */
	if (ua == NULL || ua[0] == '\0')
		fputc('-', srv.log);
	for (p = (const unsigned char *)ua; p != NULL && *p != '\0'; p++) {
		if (*p > 0x20 && *p < 0x7f && *p != '%')
			fputc(*p, srv.log);
		else
			fprintf(srv.log, "%%%02X", *p);
	}
	fputc('\n', srv.log);
	/* Tests read the log while the server runs; never keep lines back. */
	fflush(srv.log);
}

const char *
srv_reason(int code)
{
	switch (code) {
	case 200: return "OK";
	case 201: return "Created";
	case 202: return "Accepted";
	case 203: return "Non-Authoritative Information";
	case 204: return "No Content";
	case 206: return "Partial Content";
	case 300: return "Multiple Choices";
	case 301: return "Moved Permanently";
	case 302: return "Found";
	case 303: return "See Other";
	case 304: return "Not Modified";
	case 307: return "Temporary Redirect";
	case 308: return "Permanent Redirect";
	case 400: return "Bad Request";
	case 401: return "Unauthorized";
	case 403: return "Forbidden";
	case 404: return "Not Found";
	case 405: return "Method Not Allowed";
	case 406: return "Not Acceptable";
	case 408: return "Request Timeout";
	case 410: return "Gone";
	case 413: return "Content Too Large";
	case 414: return "URI Too Long";
	case 418: return "I'm a teapot";
	case 429: return "Too Many Requests";
	case 451: return "Unavailable For Legal Reasons";
	case 500: return "Internal Server Error";
	case 501: return "Not Implemented";
	case 502: return "Bad Gateway";
	case 503: return "Service Unavailable";
	case 504: return "Gateway Timeout";
	default: return "Unknown";
	}
}

/* Responses that carry no body whatever the method. */
static int
code_has_body(int code)
{
	return code >= 200 && code != 204 && code != 304;
}

void
srv_reply(struct srv_ctx *c, int code, struct evbuffer *body)
{
	struct evkeyvalq *out = evhttp_request_get_output_headers(c->req);
	size_t len = body != NULL ? evbuffer_get_length(body) : 0;
	uint64_t sent = 0;
	char num[32];

	/*
	 * libevent sends no body for HEAD and adds no Content-Length either,
	 * so say how long the GET body would be, as a server should.
	 */
	if (c->head && code_has_body(code) &&
	    evhttp_find_header(out, "Content-Length") == NULL &&
	    evhttp_find_header(out, "Transfer-Encoding") == NULL) {
		snprintf(num, sizeof(num), "%zu", len);
		evhttp_add_header(out, "Content-Length", num);
	}
	if (!c->head && code_has_body(code))
		sent = len;
	srv_log(c->arrival, c->host, c->method, c->uri, code, sent, c->ua);
	evhttp_send_reply(c->req, code, srv_reason(code), body);
}

void
srv_reply_page(struct srv_ctx *c, int code, const char *detail)
{
	struct evkeyvalq *out = evhttp_request_get_output_headers(c->req);
	struct evbuffer *b;
	const char *reason = srv_reason(code);

	b = evbuffer_new();
	if (b != NULL && evbuffer_add_printf(b,
	    "<!DOCTYPE html>\n<html><head><title>%d %s</title></head>\n"
	    "<body><h1>%s</h1>\n<p>%s</p>\n</body></html>\n", code, reason,
	    reason, detail != NULL ? detail : reason) < 0)
		evbuffer_drain(b, evbuffer_get_length(b));
	evhttp_remove_header(out, "Content-Type");
	evhttp_add_header(out, "Content-Type", "text/html; charset=utf-8");
	srv_reply(c, code, b);
	if (b != NULL)
		evbuffer_free(b);
}

char *
srv_query_param(const char *query, const char *name)
{
	size_t nlen = strlen(name), vlen, dlen;
	const char *p, *end;
	char *raw, *dec;

	for (p = query; p != NULL && *p != '\0'; p = *end ? end + 1 : end) {
		end = p + strcspn(p, "&;");
		if ((size_t)(end - p) < nlen + 1 ||
		    strncmp(p, name, nlen) != 0 || p[nlen] != '=')
			continue;
		vlen = (size_t)(end - p) - nlen - 1;
		raw = strndup(p + nlen + 1, vlen);
		if (raw == NULL)
			return NULL;
		/* decode_plus 0: a redirect target may hold a literal '+'. */
		dec = evhttp_uridecode(raw, 0, &dlen);
		free(raw);
		if (dec != NULL && strlen(dec) != dlen) {
			free(dec);
			return NULL;
		}
		return dec;
	}
	return NULL;
}

int
srv_parse_u64(const char *s, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;

	if (s == NULL || *s == '\0')
		return -1;
	for (; *s != '\0'; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		if (v > (UINT64_MAX - 9) / 10)
			return -1;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	*out = v > max ? max : v;
	return 0;
}

/*
 * Lowercase the Host header and cut the port. host_ok says whether the
 * name may be used as a directory name below the root: only letters,
 * digits, '-', '_' and '.', and not starting with a dot.
 */
static void
ctx_set_host(struct srv_ctx *c, const char *h)
{
	size_t i, n;
	const char *colon;

	c->host[0] = '\0';
	c->host_ok = 0;
	if (h == NULL)
		return;
	if (h[0] == '[') {
		n = strcspn(h, "]");
		if (h[n] == ']')
			n++;
	} else {
		colon = strrchr(h, ':');
		n = colon != NULL ? (size_t)(colon - h) : strlen(h);
	}
	if (n >= sizeof(c->host))
		n = sizeof(c->host) - 1;
	c->host_ok = n > 0 && h[0] != '.';
	for (i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)tolower((unsigned char)h[i]);

		if (!isalnum(ch) && ch != '-' && ch != '_' && ch != '.')
			c->host_ok = 0;
		/* Keep the log one line of space-separated fields. */
		c->host[i] = isgraph(ch) ? (char)ch : '?';
	}
	c->host[n] = '\0';
}

static const char *
method_name(enum evhttp_cmd_type t)
{
	switch (t) {
	case EVHTTP_REQ_GET: return "GET";
	case EVHTTP_REQ_POST: return "POST";
	case EVHTTP_REQ_HEAD: return "HEAD";
	case EVHTTP_REQ_PUT: return "PUT";
	case EVHTTP_REQ_DELETE: return "DELETE";
	case EVHTTP_REQ_OPTIONS: return "OPTIONS";
	case EVHTTP_REQ_TRACE: return "TRACE";
	case EVHTTP_REQ_CONNECT: return "CONNECT";
	case EVHTTP_REQ_PATCH: return "PATCH";
	default: return "OTHER";
	}
}

static void
on_request(struct evhttp_request *req, void *arg)
{
	const struct evhttp_uri *u = evhttp_request_get_evhttp_uri(req);
	struct srv_ctx c;

	memset(&c, 0, sizeof(c));
	c.req = req;
	c.arrival = now_unix();
	ctx_set_host(&c, evhttp_find_header(
	    evhttp_request_get_input_headers(req), "Host"));
	c.method = method_name(evhttp_request_get_command(req));
	c.head = evhttp_request_get_command(req) == EVHTTP_REQ_HEAD;
	c.uri = evhttp_request_get_uri(req);
	if (c.uri == NULL || c.uri[0] == '\0')
		c.uri = "/";
	c.path = u != NULL ? evhttp_uri_get_path(u) : NULL;
	if (c.path == NULL || c.path[0] == '\0')
		c.path = "/";
	c.query = u != NULL ? evhttp_uri_get_query(u) : NULL;
	c.ua = evhttp_find_header(evhttp_request_get_input_headers(req),
	    "User-Agent");

	if (u == NULL || c.path[0] != '/') {
		srv_reply_page(&c, 400, "The request target is not a path.");
		return;
	}
	if (strncmp(c.path, "/__nc/", 6) == 0)
		route_dispatch(&c, c.path + 6);
	else if (proc_is_site(c.host))
		proc_serve(&c);
	else
		static_serve(&c);
}

static void
on_signal(evutil_socket_t sig, short what, void *arg)
{
	event_base_loopexit(srv.base, NULL);
}

/* Only loopback: the server must never be reachable from elsewhere. */
static int
addr_is_loopback(const char *a)
{
	struct in_addr in;

	if (inet_pton(AF_INET, a, &in) != 1)
		return 0;
	return (ntohl(in.s_addr) >> 24) == 127;
}

static int
bound_port(struct evhttp_bound_socket *bs)
{
	struct sockaddr_in sin;
	socklen_t len = sizeof(sin);

	if (getsockname(evhttp_bound_socket_get_fd(bs),
	    (struct sockaddr *)&sin, &len) != 0 || sin.sin_family != AF_INET)
		return -1;
	return ntohs(sin.sin_port);
}

/* Write "PORT\n" to path through a temporary name so readers never see half. */
static int
write_port_file(const char *path, int port)
{
	char *tmp = NULL;
	FILE *fp = NULL;
	int rc = -1;

	if (asprintf(&tmp, "%s.tmp.%ld", path, (long)getpid()) < 0) {
		tmp = NULL;
		goto fail;
	}
	fp = fopen(tmp, "w");
	if (fp == NULL)
		goto fail;
	if (fprintf(fp, "%d\n", port) < 0)
		goto fail;
	if (fclose(fp) != 0) {
		fp = NULL;
		goto fail;
	}
	fp = NULL;
	if (rename(tmp, path) != 0)
		goto fail;
	rc = 0;
fail:
	if (fp != NULL)
		fclose(fp);
	if (rc != 0 && tmp != NULL)
		unlink(tmp);
	free(tmp);
	return rc;
}

int
main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "root", required_argument, NULL, 'r' },
		{ "addr", required_argument, NULL, 'a' },
		{ "port", required_argument, NULL, 'p' },
		{ "port-file", required_argument, NULL, 'f' },
		{ "log", required_argument, NULL, 'l' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *addrs[MAX_ADDRS];
	const char *root = NULL, *port_file = NULL, *log_path = NULL;
	struct event *sigterm = NULL, *sigint = NULL;
	struct evhttp *http = NULL;
	struct evhttp_bound_socket *bs;
	struct stat st;
	uint64_t port64 = 0;
	int naddr = 0, port, i, ch, rc = 1;

	while ((ch = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (ch) {
		case 'r':
			root = optarg;
			break;
		case 'a':
			if (naddr == MAX_ADDRS) {
				fprintf(stderr, "ncserver: too many --addr\n");
				return 2;
			}
			if (!addr_is_loopback(optarg)) {
				fprintf(stderr, "ncserver: --addr %s is not in "
				    "127.0.0.0/8; refusing\n", optarg);
				return 2;
			}
			addrs[naddr++] = optarg;
			break;
		case 'p':
			if (srv_parse_u64(optarg, UINT64_MAX, &port64) != 0 ||
			    port64 > 65535) {
				fprintf(stderr, "ncserver: bad --port %s\n",
				    optarg);
				return 2;
			}
			break;
		case 'f':
			port_file = optarg;
			break;
		case 'l':
			log_path = optarg;
			break;
		case 'q':
			srv.quiet = 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc || root == NULL) {
		usage(stderr);
		return 2;
	}
	if (naddr == 0)
		addrs[naddr++] = "127.0.0.1";
	srv.root = realpath(root, NULL);
	if (srv.root == NULL || stat(srv.root, &st) != 0 ||
	    !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "ncserver: --root %s is not a directory\n",
		    root);
		free(srv.root);
		return 2;
	}
	if (log_path != NULL) {
		srv.log = fopen(log_path, "a");
		if (srv.log == NULL) {
			fprintf(stderr, "ncserver: %s: %s\n", log_path,
			    strerror(errno));
			free(srv.root);
			return 2;
		}
	}

	/* A client that vanishes mid-write must not kill the server. */
	signal(SIGPIPE, SIG_IGN);

	if (stream_init() != 0) {
		fprintf(stderr, "ncserver: out of memory\n");
		goto out;
	}
	srv.base = event_base_new();
	if (srv.base == NULL)
		goto out;
	http = evhttp_new(srv.base);
	if (http == NULL)
		goto out;
	/*
	 * /__nc/silent must keep its connection open until the client gives
	 * up, so the idle timeout is an hour, not libevent's 50 seconds.
	 */
	evhttp_set_timeout(http, 3600);
	evhttp_set_max_body_size(http, 1 << 20);
	evhttp_set_gencb(http, on_request, NULL);

	port = (int)port64;
	for (i = 0; i < naddr; i++) {
		bs = evhttp_bind_socket_with_handle(http, addrs[i],
		    (ev_uint16_t)port);
		if (bs == NULL) {
			fprintf(stderr, "ncserver: cannot listen on %s:%d\n",
			    addrs[i], port);
			goto out;
		}
		/* Port 0: the other addresses take the port the first got. */
		if (port == 0 && (port = bound_port(bs)) <= 0) {
			fprintf(stderr, "ncserver: getsockname failed\n");
			goto out;
		}
	}

	sigterm = evsignal_new(srv.base, SIGTERM, on_signal, NULL);
	sigint = evsignal_new(srv.base, SIGINT, on_signal, NULL);
	if (sigterm == NULL || sigint == NULL || event_add(sigterm, NULL) ||
	    event_add(sigint, NULL))
		goto out;

	if (port_file != NULL && write_port_file(port_file, port) != 0) {
		fprintf(stderr, "ncserver: cannot write %s: %s\n", port_file,
		    strerror(errno));
		goto out;
	}
	if (!srv.quiet) {
		for (i = 0; i < naddr; i++)
			fprintf(stderr, "ncserver: listening on http://%s:%d/ "
			    "root %s\n", addrs[i], port, srv.root);
	}

	if (event_base_dispatch(srv.base) < 0)
		goto out;
	rc = 0;
	if (!srv.quiet)
		fprintf(stderr, "ncserver: stopped\n");
out:
	/* Freeing the server closes every connection and ends every stream. */
	if (http != NULL)
		evhttp_free(http);
	if (sigterm != NULL)
		event_free(sigterm);
	if (sigint != NULL)
		event_free(sigint);
	if (srv.base != NULL)
		event_base_free(srv.base);
	stream_cleanup();
	if (srv.log != NULL)
		fclose(srv.log);
	free(srv.root);
	return rc;
}
