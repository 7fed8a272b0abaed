/*
 * static: fixture files below the root, one directory per virtual host,
 * with optional .headers (extra headers, status) and .route (a scripted
 * route answers for a missing file) companions.
 * The query string does not matter unless a file is named for it
 * ("search/index.html?q=thesis"), so URLs that differ only in tracking
 * parameters get the very same bytes, which is what the duplicate tests
 * need.
 */
#include "ncserver.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <event2/buffer.h>

/* A .headers file larger than this is a fixture mistake; it is ignored. */
#define HEADERS_FILE_MAX (64 * 1024)
/* Longest route a .route file may name. */
#define ROUTE_FILE_MAX 1024

static const struct {
	const char *ext;
	const char *type;
} static_types[] = {
	{ ".html", "text/html; charset=utf-8" },
	{ ".htm", "text/html; charset=utf-8" },
	{ ".txt", "text/plain; charset=utf-8" },
	{ ".xml", "application/xml" },
	{ ".css", "text/css" },
	{ ".js", "text/javascript" },
	{ ".json", "application/json" },
	{ ".png", "image/png" },
	{ ".jpg", "image/jpeg" },
	{ ".jpeg", "image/jpeg" },
	{ ".gif", "image/gif" },
	{ ".svg", "image/svg+xml" },
	{ ".pdf", "application/pdf" },
	{ ".gz", "application/gzip" },
};

static const char *
static_type(const char *path)
{
	const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
	size_t i;

	if (dot == NULL || (slash != NULL && dot < slash))
		return "application/octet-stream";
	for (i = 0; i < sizeof(static_types) / sizeof(static_types[0]); i++)
		if (strcasecmp(dot, static_types[i].ext) == 0)
			return static_types[i].type;
	return "application/octet-stream";
}

static int
ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* Does the decoded path hold a ".." segment? */
static int
has_dotdot(const char *p)
{
	const char *seg = p;

	for (;;) {
		size_t n = strcspn(seg, "/");

		if (n == 2 && seg[0] == '.' && seg[1] == '.')
			return 1;
		if (seg[n] == '\0')
			return 0;
		seg += n + 1;
	}
}

/* Is real (a realpath) the root itself or below it? */
static int
inside_root(const char *real)
{
	size_t n = strlen(srv.root);

	if (strncmp(real, srv.root, n) != 0)
		return 0;
	return real[n] == '\0' || real[n] == '/' || strcmp(srv.root, "/") == 0;
}

/*
 * Apply "<file>.headers": each "Name: value" line replaces that header,
 * and "Name:" with an empty value removes it (so a fixture can go without
 * the ETag or Last-Modified every file gets); "Status: NNN" changes the
 * status code. Blank lines and lines starting with '#' are skipped. A
 * missing or unreadable file changes nothing.
 */
static void
apply_headers_file(const char *file, struct evkeyvalq *out, int *code)
{
	char *path = NULL, *text = NULL, *line, *next, *colon, *v, *e;
	FILE *fp = NULL;
	size_t n;

	if (asprintf(&path, "%s.headers", file) < 0)
		return;
	fp = fopen(path, "r");
	free(path);
	if (fp == NULL)
		return;
	text = malloc(HEADERS_FILE_MAX + 1);
	if (text == NULL)
		goto out;
	n = fread(text, 1, HEADERS_FILE_MAX + 1, fp);
	if (n > HEADERS_FILE_MAX)
		goto out;
	text[n] = '\0';
	for (line = text; line != NULL; line = next) {
		next = strchr(line, '\n');
		if (next != NULL)
			*next++ = '\0';
		line[strcspn(line, "\r")] = '\0';
		if (line[0] == '\0' || line[0] == '#')
			continue;
		colon = strchr(line, ':');
		if (colon == NULL || colon == line)
			continue;
		*colon = '\0';
		for (v = colon + 1; *v == ' ' || *v == '\t'; v++)
			;
		for (e = v + strlen(v); e > v && isspace((unsigned char)e[-1]);)
			*--e = '\0';
		if (strcasecmp(line, "Status") == 0) {
			int s = atoi(v);

			if (s >= 200 && s <= 599)
				*code = s;
			continue;
		}
		while (evhttp_remove_header(out, line) == 0)
			;
		if (*v != '\0')
			evhttp_add_header(out, line, v);
	}
out:
	free(text);
	fclose(fp);
}

/*
 * "<file>.route" stands in for a file that does not exist: its first line
 * names a scripted route ("/__nc/...", with a query if wanted) that
 * answers instead, so a fixed path such as /robots.txt can behave like
 * any route. Returns 1 when it answered, 0 when there is no usable
 * .route file (the caller answers 404).
 */
static int
serve_route_file(struct srv_ctx *c, const char *file)
{
	char *path = NULL, *real = NULL, line[ROUTE_FILE_MAX + 2], *q;
	FILE *fp = NULL;
	int done = 0;

	if (asprintf(&path, "%s.route", file) < 0)
		return 0;
	real = realpath(path, NULL);
	free(path);
	if (real == NULL || !inside_root(real) ||
	    (fp = fopen(real, "r")) == NULL ||
	    fgets(line, sizeof(line), fp) == NULL)
		goto out;
	line[strcspn(line, "\r\n")] = '\0';
	if (strlen(line) > ROUTE_FILE_MAX || strncmp(line, "/__nc/", 6) != 0)
		goto out;
	q = strchr(line, '?');
	if (q != NULL)
		*q++ = '\0';
	/* The log keeps the target the client asked for (c->uri). */
	c->path = line;
	c->query = q;
	route_dispatch(c, line + 6);
	done = 1;
out:
	if (fp != NULL)
		fclose(fp);
	free(real);
	return done;
}

/*
 * 304 without a body: the validators and any other header stay, the
 * fields that describe a body that is not sent go (RFC 9110 15.4.5).
 */
static void
reply_not_modified(struct srv_ctx *c, struct evkeyvalq *out)
{
	static const char *const body_fields[] = {
		"Content-Type", "Content-Length", "Content-Encoding",
		"Transfer-Encoding"
	};
	size_t i;

	for (i = 0; i < sizeof(body_fields) / sizeof(body_fields[0]); i++)
		while (evhttp_remove_header(out, body_fields[i]) == 0)
			;
	srv_reply(c, 304, NULL);
}

/* Permanent redirect from a directory to its slash-terminated URL. */
static void
redirect_to_dir(struct srv_ctx *c)
{
	struct evkeyvalq *out = evhttp_request_get_output_headers(c->req);
	char *loc = NULL;

	if (asprintf(&loc, "%s/%s%s", c->path, c->query ? "?" : "",
	    c->query ? c->query : "") < 0) {
		srv_reply_page(c, 500, "Out of memory.");
		return;
	}
	evhttp_add_header(out, "Location", loc);
	free(loc);
	srv_reply_page(c, 301, "This directory moved to its URL with a slash.");
}

void
static_serve(struct srv_ctx *c)
{
	struct evkeyvalq *out = evhttp_request_get_output_headers(c->req);
	char *decoded = NULL, *file = NULL, *real = NULL, *hostdir = NULL;
	char *qfile = NULL;         /* the query-less name when a query file won */
	char *swap;
	struct evbuffer_file_segment *seg;
	struct evbuffer *body = NULL;
	struct stat st;
	size_t dlen;
	int fd = -1, code = 200, r;
	char num[32], validator[COND_ETAG_MAX];

	if (!c->head && strcmp(c->method, "GET") != 0) {
		evhttp_add_header(out, "Allow", "GET, HEAD");
		srv_reply_page(c, 405, "Fixture files are read-only.");
		return;
	}
	decoded = evhttp_uridecode(c->path, 0, &dlen);
	if (decoded == NULL) {
		srv_reply_page(c, 500, "Out of memory.");
		return;
	}
	if (strlen(decoded) != dlen || decoded[0] != '/') {
		srv_reply_page(c, 400, "Bad path.");
		goto out;
	}
	if (has_dotdot(decoded)) {
		srv_reply_page(c, 403, "Paths may not climb out of the site.");
		goto out;
	}

	/* The host's own directory if it has one, else the shared root. */
	if (c->host_ok) {
		if (asprintf(&hostdir, "%s/%s", srv.root, c->host) < 0) {
			hostdir = NULL;
			srv_reply_page(c, 500, "Out of memory.");
			goto out;
		}
		if (stat(hostdir, &st) != 0 || !S_ISDIR(st.st_mode)) {
			free(hostdir);
			hostdir = NULL;
		}
	}
	r = asprintf(&file, "%s%s%s", hostdir ? hostdir : srv.root, decoded,
	    ends_with(decoded, "/") ? "index.html" : "");
	if (r < 0) {
		file = NULL;
		srv_reply_page(c, 500, "Out of memory.");
		goto out;
	}
	if (ends_with(file, ".headers") || ends_with(file, ".route")) {
		srv_reply_page(c, 404, "The requested URL was not found.");
		goto out;
	}
	/*
	 * "<file>?<query>" answers for that exact query (search results that
	 * differ by query); any other query gets <file>. Its type is still
	 * the one of <file>'s name.
	 */
	if (c->query != NULL && c->query[0] != '\0' &&
	    strchr(c->query, '/') == NULL) {
		if (asprintf(&qfile, "%s?%s", file, c->query) < 0) {
			qfile = NULL;
			srv_reply_page(c, 500, "Out of memory.");
			goto out;
		}
		if (stat(qfile, &st) != 0 || !S_ISREG(st.st_mode)) {
			free(qfile);
			qfile = NULL;
		}
	}
	if (qfile != NULL) {
		swap = file;
		file = qfile;
		qfile = swap;
	}
	if (stat(file, &st) != 0) {
		if (!serve_route_file(c, file))
			srv_reply_page(c, 404,
			    "The requested URL was not found.");
		goto out;
	}
	if (S_ISDIR(st.st_mode)) {
		redirect_to_dir(c);
		goto out;
	}
	/* Symbolic links must not lead out of the root either. */
	real = realpath(file, NULL);
	if (real == NULL || !inside_root(real) || !S_ISREG(st.st_mode)) {
		srv_reply_page(c, 403, "Not a file below the root.");
		goto out;
	}
	fd = open(real, O_RDONLY);
	if (fd < 0 || fstat(fd, &st) != 0) {
		srv_reply_page(c, errno == EACCES ? 403 : 404,
		    "The file cannot be read.");
		goto out;
	}

	evhttp_add_header(out, "Content-Type",
	    static_type(qfile != NULL ? qfile : file));
	/* Validators first, so that .headers can replace or drop them. */
	cond_etag(&st, validator, sizeof(validator));
	evhttp_add_header(out, "ETag", validator);
	if (cond_http_date(st.st_mtim.tv_sec, validator,
	    sizeof(validator)) == 0)
		evhttp_add_header(out, "Last-Modified", validator);
	apply_headers_file(file, out, &code);
	/* RFC 9110 13.2.1: preconditions only for what would be a 2xx. */
	if (code >= 200 && code < 300 && cond_not_modified(
	    evhttp_request_get_input_headers(c->req),
	    evhttp_find_header(out, "ETag"),
	    evhttp_find_header(out, "Last-Modified"))) {
		reply_not_modified(c, out);
		goto out;
	}
	body = evbuffer_new();
	if (body == NULL) {
		srv_reply_page(c, 500, "Out of memory.");
		goto out;
	}
	if (c->head) {
		snprintf(num, sizeof(num), "%lld", (long long)st.st_size);
		if (evhttp_find_header(out, "Content-Length") == NULL)
			evhttp_add_header(out, "Content-Length", num);
	} else if (st.st_size > 0) {
		/* Once the segment exists it owns the descriptor. */
		seg = evbuffer_file_segment_new(fd, 0, st.st_size,
		    EVBUF_FS_CLOSE_ON_FREE);
		if (seg != NULL)
			fd = -1;
		r = seg != NULL ? evbuffer_add_file_segment(body, seg, 0,
		    st.st_size) : -1;
		if (seg != NULL)
			evbuffer_file_segment_free(seg);
		if (r != 0) {
			srv_reply_page(c, 500, "The file cannot be read.");
			goto out;
		}
	}
	srv_reply(c, code, body);
out:
	if (fd >= 0)
		close(fd);
	if (body != NULL)
		evbuffer_free(body);
	free(real);
	free(file);
	free(qfile);
	free(hostdir);
	free(decoded);
}
