/*
 * serve: `nearcrawl serve` (cmd/serve.h): the command line, the database
 * and the crawl's settings, libevent's HTTP server, and the dispatch of a
 * request to its page. The pages are in serve_pages.c (overview, pages,
 * clusters, hosts), serve_view.c (a page), serve_search.c (search),
 * serve_report.c (the report's files and its remaking); serve_out.c
 * writes HTML for them all.
 */
#include "cmd/serve.h"

#include <sys/queue.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <limits.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/event.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>

#include "cmd/serve_out.h"
#include "cmd/serve_pages.h"
#include "cmd/search.h"
#include "cmd/serve_report.h"
#include "cmd/serve_search.h"
#include "cmd/serve_view.h"
#include "config/cmdopt.h"
#include "crawler/crawl.h"
#include "storage/query.h"
#include "util/esc.h"

enum { SV_DONE = 0, SV_RUNTIME = 1, SV_USAGE = 2 };

/* Request headers, all together, at most: a browser's fit. */
#define SV_MAX_HEADERS (16 * 1024)
/* A request body at most: no page takes one. */
#define SV_MAX_BODY 1024
/* Seconds an idle or slow connection is kept. */
#define SV_TIMEOUT 30

/* The command line. */
struct args {
	const char *db;   /* -d */
	const char *addr; /* --addr */
	long port;        /* --port */
	long refresh;     /* --refresh */
	int quiet;        /* -q */
};

/* One option of the command line (config/cmdopt.h's serve table). */
static int
opt_in(int opt, const char *value, long number, void *arg)
{
	struct args *a = arg;

	switch (opt) {
	case CMDOPT_SERVE_DB:
		a->db = value;
		break;
	case CMDOPT_SERVE_PORT:
		a->port = number;
		break;
	case CMDOPT_SERVE_ADDR:
		a->addr = value;
		break;
	case CMDOPT_SERVE_REFRESH:
		a->refresh = number;
		break;
	case CMDOPT_SERVE_QUIET:
		a->quiet = 1;
		break;
	}
	return 0;
}

/* 0 parsed, 1 --help, -1 bad usage (said). */
static int
parse_args(int argc, char **argv, struct args *a)
{
	char err[512], **ops;
	int rc, nops = 0;

	a->addr = "127.0.0.1";
	a->port = SERVE_PORT;
	a->refresh = SERVE_REFRESH;
	if ((ops = calloc((size_t)argc + 1, sizeof(*ops))) == NULL) {
		fprintf(stderr, "nearcrawl: out of memory\n");
		return -1;
	}
	rc = cmdopt_parse(&cmdopt_serve, argc, argv, opt_in, a, ops, &nops,
	    err, sizeof(err));
	free(ops);
	if (rc == 1)
		return 1;
	if (rc == 0 && nops > 0)
		snprintf(err, sizeof(err), "serve takes no operand");
	else if (rc == 0 && a->db == NULL)
		snprintf(err, sizeof(err), "no database given (-d DB)");
	else if (rc == 0 && *a->addr == '\0')
		snprintf(err, sizeof(err), "--addr: an address");
	else if (rc == 0)
		return 0;
	fputs("nearcrawl: serve: ", stderr);
	esc_fputs(err, stderr);
	fputs("\ntry `nearcrawl serve --help'\n", stderr);
	return -1;
}

/* Our connection, opened again after a failure. 0, or -1. */
static int
connect_db(struct sv *s, char *err, size_t errsz)
{
	if (s->v != NULL)
		return 0;
	if (store_conn_open(s->db, STORE_CONN_READ, &s->c, err, errsz, 1,
	    2) != 0)
		return -1;
	if ((s->v = store_view_new(s->c)) == NULL) {
		store_conn_close(s->c);
		s->c = NULL;
		snprintf(err, errsz, "out of memory");
		return -1;
	}
	return 0;
}

/* "/page/123" and the like: the id after prefix, and what follows it in
 * *rest. 1 with *id, 0 when path is not prefix + digits. */
static int
path_id(const char *path, const char *prefix, int64_t *id, const char **rest)
{
	size_t n = strlen(prefix);
	long long v = 0;
	const char *p;

	if (strncmp(path, prefix, n) != 0)
		return 0;
	for (p = path + n; *p >= '0' && *p <= '9'; p++) {
		if (v > (LLONG_MAX - 9) / 10)
			return 0;
		v = v * 10 + (*p - '0');
	}
	if (p == path + n || v <= 0)
		return 0;
	*id = v;
	*rest = p;
	return 1;
}

/*
 * Whether the request's Host names this machine, when the server listens
 * on loopback only: a page elsewhere that a browser is made to load from
 * a name resolving to 127.0.0.1 (DNS rebinding) must not read the view.
 */
static int
host_ok(const struct sv *s, struct evhttp_request *req)
{
	const char *h = evhttp_find_header(evhttp_request_get_input_headers(
	    req), "Host");
	size_t n;

	if (!s->loopback || h == NULL)
		return 1;
	if (*h == '[') {
		n = strcspn(h, "]");
		return n == 4 && strncmp(h, "[::1", 4) == 0;
	}
	n = strcspn(h, ":");
	return (n == 9 && strncasecmp(h, "localhost", 9) == 0) ||
	    strncmp(h, "127.", 4) == 0;
}

/* The page for r's path, by method; 0 when the path is unknown. */
static int
route(struct sv_req *r, enum evhttp_cmd_type m)
{
	const char *p = r->path, *rest;
	int64_t id;
	int get = m == EVHTTP_REQ_GET || m == EVHTTP_REQ_HEAD;

	if (strcmp(p, "/report") == 0 && get) {
		/* The report's files are named relative to its folder. */
		evhttp_add_header(evhttp_request_get_output_headers(r->req),
		    "Location", "/report/");
		sv_error(r, 301, "the report is at /report/");
		return 1;
	}
	if (strncmp(p, "/report/", 8) == 0 && get) {
		svr_file(r, p + 8);
		return 1;
	}
	if (path_id(p, "/page/", &id, &rest)) {
		if (strcmp(rest, "") == 0 && get)
			svv_page(r, id, 0);
		else if (strcmp(rest, "/fetch") == 0 && m == EVHTTP_REQ_POST)
			svv_page(r, id, 1);
		else if (strcmp(rest, "") == 0 || strcmp(rest, "/fetch") == 0)
			return -1;
		else
			return 0;
		return 1;
	}
	if (path_id(p, "/cluster/", &id, &rest) && *rest == '\0') {
		if (!get)
			return -1;
		svp_cluster(r, id);
		return 1;
	}
	if (!get && (strcmp(p, "/") == 0 || strcmp(p, "/pages") == 0 ||
	    strcmp(p, "/clusters") == 0 || strcmp(p, "/hosts") == 0 ||
	    strcmp(p, "/host") == 0 || strcmp(p, "/search") == 0))
		return -1;
	if (strcmp(p, "/") == 0)
		svp_home(r);
	else if (strcmp(p, "/pages") == 0)
		svp_pages(r);
	else if (strcmp(p, "/clusters") == 0)
		svp_clusters(r);
	else if (strcmp(p, "/hosts") == 0)
		svp_hosts(r);
	else if (strcmp(p, "/host") == 0)
		svp_host(r);
	else if (strcmp(p, "/search") == 0)
		svs_search(r);
	else
		return 0;
	return 1;
}

static void
on_request(struct evhttp_request *req, void *arg)
{
	struct sv_req r;
	struct evhttp_uri *u = NULL;
	enum evhttp_cmd_type m = evhttp_request_get_command(req);
	const char *uri = evhttp_request_get_uri(req), *q;
	char err[512], *path = NULL;
	size_t len = 0;
	int rc;

	memset(&r, 0, sizeof(r));
	r.s = arg;
	r.req = req;
	r.path = "/";
	TAILQ_INIT(&r.query);
	if ((r.out = evbuffer_new()) == NULL) {
		evhttp_send_error(req, 503, NULL);
		return;
	}
	if (!host_ok(r.s, req)) {
		sv_error(&r, 400, "this view answers only to this machine's "
		    "names (127.0.0.1, localhost)");
		goto out;
	}
	if (uri == NULL || strlen(uri) > SV_MAX_URI) {
		sv_error(&r, 414, "request target too long");
		goto out;
	}
	if ((u = evhttp_uri_parse_with_flags(uri, 0)) == NULL ||
	    evhttp_uri_get_path(u) == NULL || *evhttp_uri_get_path(u) != '/' ||
	    (path = evhttp_uridecode(evhttp_uri_get_path(u), 0, &len)) ==
	    NULL || strlen(path) != len ||
	    ((q = evhttp_uri_get_query(u)) != NULL &&
	    evhttp_parse_query_str(q, &r.query) != 0)) {
		sv_error(&r, 400, "malformed request target");
		goto out;
	}
	r.path = path;
	if (m != EVHTTP_REQ_GET && m != EVHTTP_REQ_HEAD &&
	    m != EVHTTP_REQ_POST) {
		evhttp_add_header(evhttp_request_get_output_headers(req),
		    "Allow", "GET, HEAD");
		sv_error(&r, 405, "method not allowed: the view only reads");
		goto out;
	}
	if (connect_db(r.s, err, sizeof(err)) != 0) {
		sv_error(&r, 503, err);
		goto out;
	}
	if ((rc = route(&r, m)) == 0)
		sv_error(&r, 404, "no such page");
	else if (rc < 0) {
		evhttp_add_header(evhttp_request_get_output_headers(req),
		    "Allow", strstr(r.path, "/fetch") != NULL ? "POST" :
		    "GET, HEAD");
		sv_error(&r, 405, "method not allowed here");
	}
out:
	evhttp_clear_headers(&r.query);
	if (u != NULL)
		evhttp_uri_free(u);
	free(path);
	evbuffer_free(r.out);
}

static void
on_stop(evutil_socket_t sig, short what, void *arg)
{
	event_base_loopexit(arg, NULL);
}

static void
on_child(evutil_socket_t sig, short what, void *arg)
{
	svr_reap(arg);
}

/* The address and port the server listens on, for the user. */
static void
say_where(struct evhttp_bound_socket *bs, const char *db)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	char host[INET6_ADDRSTRLEN + 2] = "?";
	int port = 0;

	if (getsockname(evhttp_bound_socket_get_fd(bs),
	    (struct sockaddr *)&ss, &sl) == 0) {
		if (ss.ss_family == AF_INET6) {
			struct sockaddr_in6 *a = (struct sockaddr_in6 *)&ss;

			host[0] = '[';
			inet_ntop(AF_INET6, &a->sin6_addr, host + 1,
			    INET6_ADDRSTRLEN);
			strcat(host, "]");
			port = ntohs(a->sin6_port);
		} else {
			struct sockaddr_in *a = (struct sockaddr_in *)&ss;

			inet_ntop(AF_INET, &a->sin_addr, host, sizeof(host));
			port = ntohs(a->sin_port);
		}
	}
	fputs("nearcrawl: serving ", stderr);
	esc_fputs(db, stderr);
	fprintf(stderr, " at http://%s:%d/ (read-only; Ctrl-C stops)\n", host,
	    port);
}

/* The server's state from the database and the crawl's settings. */
static int
set_up(struct sv *s, const struct args *a)
{
	struct dedup_config dc;
	struct store_counts n;
	struct store *st;
	char err[1024], self[PATH_MAX];
	ssize_t len;
	int rc;

	s->db = a->db;
	s->loopback = strncmp(a->addr, "127.", 4) == 0 ||
	    strcmp(a->addr, "::1") == 0 || strcmp(a->addr, "localhost") == 0;
	s->refresh = (int)a->refresh;
	s->quiet = a->quiet;
	if ((st = store_open(a->db, STORE_READONLY, err, sizeof(err))) ==
	    NULL) {
		fputs("nearcrawl: ", stderr);
		esc_fputs(err, stderr);
		putc('\n', stderr);
		return SV_USAGE;
	}
	store_close(st);
	if (config_init(&s->cfg) != 0) {
		fprintf(stderr, "nearcrawl: out of memory\n");
		return SV_RUNTIME;
	}
	/* Where the crawl's settings are read from. */
	free(s->cfg.db);
	if ((s->cfg.db = strdup(a->db)) == NULL) {
		fprintf(stderr, "nearcrawl: out of memory\n");
		return SV_RUNTIME;
	}
	s->cfg.quiet = 1;
	if ((rc = crawl_adopt_settings(&s->cfg, err, sizeof(err))) != 0) {
		fputs("nearcrawl: ", stderr);
		esc_fputs(err, stderr);
		putc('\n', stderr);
		return rc;
	}
	config_dedup(&s->cfg, &dc);
	if ((s->dd = dedup_new(&dc)) == NULL) {
		fprintf(stderr, "nearcrawl: bad dedup settings or out of "
		    "memory\n");
		return SV_RUNTIME;
	}
	if (connect_db(s, err, sizeof(err)) != 0 ||
	    store_view_begin(s->v) != 0 || store_view_counts(s->v, &n) != 0 ||
	    store_view_end(s->v) != 0) {
		if (s->v != NULL)
			store_conn_fail(s->c, err, sizeof(err), 1, 2);
		fputs("nearcrawl: ", stderr);
		esc_fputs(err, stderr);
		putc('\n', stderr);
		return SV_USAGE;
	}
	/* The first report is of the database as it is now. */
	s->seen_seq = n.max_seq;
	/* The report is this program's `report` command, run apart. */
	if ((len = readlink("/proc/self/exe", self, sizeof(self) - 1)) < 0) {
		fprintf(stderr, "nearcrawl: cannot find this program: %s\n",
		    strerror(errno));
		return SV_RUNTIME;
	}
	self[len] = '\0';
	if ((s->self = strdup(self)) == NULL || svr_init(s, err,
	    sizeof(err)) != 0) {
		fprintf(stderr, "nearcrawl: %s\n", s->self == NULL ?
		    "out of memory" : err);
		return SV_RUNTIME;
	}
	return SV_DONE;
}

static void
tear_down(struct sv *s)
{
	svr_cleanup(s);
	search_close(s->search);
	store_view_free(s->v);
	store_conn_close(s->c);
	dedup_free(s->dd);
	config_free(&s->cfg);
	free(s->self);
}

int
serve_main(int argc, char **argv)
{
	struct event *ev_int = NULL, *ev_term = NULL, *ev_chld = NULL;
	struct evhttp_bound_socket *bs;
	struct evhttp *http = NULL;
	struct args a;
	struct sv s;
	int rc;

	memset(&a, 0, sizeof(a));
	if ((rc = parse_args(argc, argv, &a)) != 0) {
		if (rc > 0)
			cmdopt_usage(&cmdopt_serve, stdout);
		return rc > 0 ? SV_DONE : SV_USAGE;
	}
	memset(&s, 0, sizeof(s));
	/* A client gone while we write is its business, not a signal. */
	signal(SIGPIPE, SIG_IGN);
	if ((rc = set_up(&s, &a)) != SV_DONE)
		goto out;
	rc = SV_RUNTIME;
	if ((s.base = event_base_new()) == NULL ||
	    (http = evhttp_new(s.base)) == NULL) {
		fprintf(stderr, "nearcrawl: cannot start the event loop\n");
		goto out;
	}
	/* Every method reaches on_request, which answers 405 itself:
	 * libevent's own answer would be a 501. */
	evhttp_set_allowed_methods(http, EVHTTP_REQ_GET | EVHTTP_REQ_HEAD |
	    EVHTTP_REQ_POST | EVHTTP_REQ_PUT | EVHTTP_REQ_DELETE |
	    EVHTTP_REQ_OPTIONS | EVHTTP_REQ_TRACE | EVHTTP_REQ_CONNECT |
	    EVHTTP_REQ_PATCH);
	evhttp_set_max_headers_size(http, SV_MAX_HEADERS);
	evhttp_set_max_body_size(http, SV_MAX_BODY);
	evhttp_set_timeout(http, SV_TIMEOUT);
	evhttp_set_gencb(http, on_request, &s);
	if ((bs = evhttp_bind_socket_with_handle(http, a.addr,
	    (ev_uint16_t)a.port)) == NULL) {
		fputs("nearcrawl: serve: cannot listen on ", stderr);
		esc_fputs(a.addr, stderr);
		fprintf(stderr, " port %ld: %s\n", a.port, strerror(errno));
		goto out;
	}
	if ((ev_int = evsignal_new(s.base, SIGINT, on_stop, s.base)) == NULL ||
	    (ev_term = evsignal_new(s.base, SIGTERM, on_stop, s.base)) ==
	    NULL || (ev_chld = evsignal_new(s.base, SIGCHLD, on_child, &s)) ==
	    NULL || event_add(ev_int, NULL) != 0 ||
	    event_add(ev_term, NULL) != 0 || event_add(ev_chld, NULL) != 0) {
		fprintf(stderr, "nearcrawl: cannot catch signals\n");
		goto out;
	}
	if (!a.quiet)
		say_where(bs, a.db);
	/* The first report at once: the overview shows it. */
	svr_start(&s, 1);
	if (event_base_dispatch(s.base) == -1) {
		fprintf(stderr, "nearcrawl: the event loop failed\n");
		goto out;
	}
	if (!a.quiet)
		fprintf(stderr, "nearcrawl: serve stopped\n");
	rc = SV_DONE;
out:
	if (ev_int != NULL)
		event_free(ev_int);
	if (ev_term != NULL)
		event_free(ev_term);
	if (ev_chld != NULL)
		event_free(ev_chld);
	if (http != NULL)
		evhttp_free(http);
	tear_down(&s);
	if (s.base != NULL)
		event_base_free(s.base);
	return rc;
}
