/*
 * traps: scripted /__nc/ routes that play crawler traps -- session ids in
 * URLs, a session id added by redirect, endless pagination, faceted
 * navigation whose filters multiply, and relative links that make paths
 * grow forever. Every page is generated and deterministic, except the
 * session ids, which come from a counter so that every link is new.
 */
#include "ncserver.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>
#include <event2/keyvalq_struct.h>

/* Pages of the session-id site and of the redirecting one. */
#define SESSION_PAGES 8
#define SESSREDIR_PAGES 4
/* Pager: result pages with results, results on each, last page number. */
#define PAGER_FULL 4
#define PAGER_PER_PAGE 10
#define PAGER_LAST 1000000
/* Products in the faceted shop. */
#define SHOP_PRODUCTS 30
/* Bytes of one segment that /__nc/deeper/long adds, with its slash. */
#define LONG_SEGMENT 100

static const char *const vocab[64] = {"library", "student", "lecture", "river",
    "archive", "garden", "theory", "bridge", "method", "harbour", "sample",
    "window", "journal", "engine", "valley", "studio", "record", "signal",
    "forest", "market", "pattern", "council", "mineral", "voyage", "chapter",
    "circuit", "meadow", "lantern", "protein", "canvas", "orbit", "ledger",
    "quarry", "thesis", "glacier", "festival", "compass", "harvest", "museum",
    "network", "pigment", "seminar", "tunnel", "crystal", "dialect", "furnace",
    "island", "lattice", "monsoon", "notebook", "opera", "pavilion", "reactor",
    "saddle", "telescope", "umbrella", "vessel", "workshop", "yardstick",
    "zenith", "beacon", "cathedral", "delta", "estuary"};

static const char *const colors[] = {"any", "red", "green", "blue", "black"};
static const char *const sizes[] = {"any", "s", "m", "l"};
static const char *const sorts[] = {"name", "price", "new"};
static const char *const views[] = {"list", "grid"};

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* Session ids handed out so far: every link gets a fresh one. */
static uint64_t sessions;

static uint64_t
mix(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* FNV-1a of a string, to seed a page's text from its path. */
static uint64_t
hash_str(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (; *s != '\0'; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return h;
}

/* n words of prose chosen by seed, in sentences. Returns 0 or -1. */
static int
add_words(struct evbuffer *b, uint64_t seed, int n)
{
	uint64_t x = mix(seed + 1);
	int i, r = 0;

	for (i = 0; i < n; i++) {
		x = mix(x + (uint64_t)i);
		r |= evbuffer_add_printf(b, "%s%s", vocab[x % 64],
		         i % 12 == 11 || i == n - 1 ? ". " : " ") < 0;
	}
	return r ? -1 : 0;
}

static void
send_html(struct srv_ctx *c, struct evbuffer *b, int failed)
{
	struct evkeyvalq *out = evhttp_request_get_output_headers(c->req);

	if (failed) {
		srv_reply_page(c, 500, "Out of memory.");
		return;
	}
	evhttp_add_header(out, "Content-Type", "text/html; charset=utf-8");
	srv_reply(c, 200, b);
}

/* A fresh session id: 16 upper-case hex digits, as servlet containers
 * write them. */
static void
new_session(char *out, size_t outsz)
{
	snprintf(out, outsz, "%016llX", (unsigned long long)mix(++sessions));
}

/*
 * The page number at the start of seg, before any ";param"; -1 when it is
 * not a number below max.
 */
static int
page_of(const char *seg, int max)
{
	char num[16];
	size_t n = strcspn(seg, ";");
	uint64_t v;

	if (n == 0 || n >= sizeof(num))
		return -1;
	memcpy(num, seg, n);
	num[n] = '\0';
	if (srv_parse_u64(num, UINT64_MAX, &v) != 0 || v >= (uint64_t)max)
		return -1;
	return (int)v;
}

/*
 * /__nc/session/P (P < SESSION_PAGES), with or without ";jsessionid=X" or
 * "?sid=X": the same page whatever the id, linking to every page of the
 * site twice, once with "?sid=" and once with ";jsessionid=", each time
 * with a new id.
 */
static void
trap_session(struct srv_ctx *c, const char *seg)
{
	struct evbuffer *b;
	char id[32];
	int p = page_of(seg, SESSION_PAGES), q, r = 0;

	if (p < 0) {
		srv_reply_page(c, 404, "No such guide.");
		return;
	}
	if ((b = evbuffer_new()) == NULL) {
		srv_reply_page(c, 500, "Out of memory.");
		return;
	}
	r |= evbuffer_add_printf(b,
	         "<!DOCTYPE html>\n<html><head>"
	         "<title>Library guide %d</title></head>\n<body>\n"
	         "<h1>Library guide %d</h1>\n<p>",
	         p, p) < 0;
	r |= add_words(b, 1000 + (uint64_t)p, 80);
	r |= evbuffer_add_printf(b, "</p>\n<ul>\n") < 0;
	for (q = 0; q < SESSION_PAGES; q++) {
		new_session(id, sizeof(id));
		r |= evbuffer_add_printf(b,
		         "<li><a href=\"/__nc/session/%d"
		         "?sid=%s\">Guide %d</a> ",
		         q, id, q) < 0;
		new_session(id, sizeof(id));
		r |= evbuffer_add_printf(b,
		         "<a href=\"/__nc/session/%d"
		         ";jsessionid=%s\">print</a></li>\n",
		         q, id) < 0;
	}
	r |= evbuffer_add_printf(b, "</ul>\n</body></html>\n") < 0;
	send_html(c, b, r);
	evbuffer_free(b);
}

/*
 * /__nc/sessredir/P (P < SESSREDIR_PAGES): without ";jsessionid=" a 302
 * to the same page with a new one, as a servlet container does for a
 * client without cookies; with it, the page, whose links all carry that
 * same session.
 */
static void
trap_sessredir(struct srv_ctx *c, const char *seg)
{
	struct evkeyvalq *out = evhttp_request_get_output_headers(c->req);
	const char *sess = strstr(seg, ";jsessionid=");
	struct evbuffer *b;
	char id[32], loc[96];
	int p = page_of(seg, SESSREDIR_PAGES), q, r = 0;

	if (p < 0) {
		srv_reply_page(c, 404, "No such page.");
		return;
	}
	if (sess == NULL || sess[12] == '\0' || strlen(sess + 12) >= 32) {
		new_session(id, sizeof(id));
		snprintf(loc, sizeof(loc), "/__nc/sessredir/%d;jsessionid=%s",
		    p, id);
		evhttp_add_header(out, "Location", loc);
		srv_reply_page(c, 302, "A session is needed.");
		return;
	}
	if ((b = evbuffer_new()) == NULL) {
		srv_reply_page(c, 500, "Out of memory.");
		return;
	}
	r |= evbuffer_add_printf(b,
	         "<!DOCTYPE html>\n<html><head>"
	         "<title>Course page %d</title></head>\n<body>\n"
	         "<h1>Course page %d</h1>\n<p>",
	         p, p) < 0;
	r |= add_words(b, 2000 + (uint64_t)p, 80);
	r |= evbuffer_add_printf(b, "</p>\n") < 0;
	for (q = 0; q < SESSREDIR_PAGES; q++)
		r |= evbuffer_add_printf(b,
		         "<p><a href=\"/__nc/sessredir/%d"
		         ";jsessionid=%s\">Course page %d</a></p>\n",
		         q, sess + 12, q) < 0;
	r |= evbuffer_add_printf(b, "</body></html>\n") < 0;
	send_html(c, b, r);
	evbuffer_free(b);
}

/*
 * /__nc/pager?page=N (1..PAGER_LAST, default 1): search results, with
 * results on the first PAGER_FULL pages and after that the same "no more
 * results" advice under a new page number, with a next link, forever.
 */
static void
trap_pager(struct srv_ctx *c)
{
	struct evbuffer *b;
	char *ps = srv_query_param(c->query, "page");
	uint64_t n = 1;
	int i, r = 0;

	if (ps != NULL && (srv_parse_u64(ps, PAGER_LAST, &n) != 0 || n == 0)) {
		free(ps);
		srv_reply_page(c, 404, "No such results page.");
		return;
	}
	free(ps);
	if ((b = evbuffer_new()) == NULL) {
		srv_reply_page(c, 500, "Out of memory.");
		return;
	}
	r |=
	    evbuffer_add_printf(b,
	        "<!DOCTYPE html>\n<html><head>"
	        "<title>Search results, page %llu</title></head>\n<body>\n"
	        "<header><p>University search</p><nav><a "
	        "href=\"/__nc/pager\">New search</a>"
	        "</nav></header>\n<main>\n<h1>Search results, page %llu</h1>\n",
	        (unsigned long long)n, (unsigned long long)n) < 0;
	if (n <= PAGER_FULL) {
		for (i = 0; i < PAGER_PER_PAGE; i++) {
			r |= evbuffer_add_printf(b, "<h2>Result %llu</h2>\n<p>",
			         (unsigned long long)((n - 1) * PAGER_PER_PAGE +
			             (uint64_t)i + 1)) < 0;
			r |= add_words(b, 3000 + n * 100 + (uint64_t)i, 30);
			r |= evbuffer_add_printf(b, "</p>\n") < 0;
		}
	} else {
		r |=
		    evbuffer_add_printf(b,
		        "<p>There are no more results for "
		        "your search. All matching documents were shown on the "
		        "earlier pages. Make sure that all words are spelled "
		        "correctly, try different or more general keywords, or "
		        "use fewer keywords. You can also browse the directory "
		        "of "
		        "departments, the library catalogue, the list of "
		        "courses "
		        "and the staff pages, or ask the help desk, which "
		        "answers "
		        "questions about the search every working day from "
		        "nine "
		        "in the morning to five in the afternoon.</p>\n") < 0;
	}
	r |= evbuffer_add_printf(b,
	         "<p><a href=\"/__nc/pager?page=1\">First "
	         "page</a>") < 0;
	if (n > 1)
		r |= evbuffer_add_printf(b,
		         " | <a href=\"/__nc/pager?page="
		         "%llu\">Previous page</a>",
		         (unsigned long long)(n - 1)) < 0;
	if (n < PAGER_LAST)
		r |= evbuffer_add_printf(b,
		         " | <a href=\"/__nc/pager?page="
		         "%llu\">Next page</a>",
		         (unsigned long long)(n + 1)) < 0;
	r |= evbuffer_add_printf(b,
	         "</p>\n</main>\n<footer><p>Search help: "
	         "help desk, room 1.01</p></footer>\n</body></html>\n") < 0;
	send_html(c, b, r);
	evbuffer_free(b);
}

/* Index of query parameter name's value in values; 0 when absent or
 * unknown, so every URL is some page. */
static size_t
facet(const char *query, const char *name, const char *const *values, size_t n)
{
	char *v = srv_query_param(query, name);
	size_t i, found = 0;

	for (i = 0; v != NULL && i < n; i++)
		if (strcmp(v, values[i]) == 0)
			found = i;
	free(v);
	return found;
}

/* Products in the order sort asks for: index, or -1 past the end. */
static int
nth_product(size_t sort, int k)
{
	int order[SHOP_PRODUCTS], i, j, t;
	uint64_t key[SHOP_PRODUCTS];

	for (i = 0; i < SHOP_PRODUCTS; i++) {
		order[i] = i;
		key[i] = sort == 0 ? mix((uint64_t)i)
		    : sort == 1    ? (uint64_t)(5 + (i * 37) % 90)
		                   : (uint64_t)((i * 11) % SHOP_PRODUCTS);
	}
	/* Insertion sort of thirty: stable, and plenty fast. */
	for (i = 1; i < SHOP_PRODUCTS; i++)
		for (j = i; j > 0 && key[order[j - 1]] > key[order[j]]; j--) {
			t = order[j];
			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	return k < SHOP_PRODUCTS ? order[k] : -1;
}

/* Link to the shop with one facet changed from the current ones. */
static int
facet_link(struct evbuffer *b, const size_t cur[4], int which, size_t value,
    const char *label)
{
	size_t v[4];

	memcpy(v, cur, sizeof(v));
	v[which] = value;
	return evbuffer_add_printf(b,
	           "<a href=\"/__nc/facets?color=%s&amp;"
	           "size=%s&amp;sort=%s&amp;view=%s\">%s</a> ",
	           colors[v[0]], sizes[v[1]], sorts[v[2]], views[v[3]],
	           label) < 0;
}

/*
 * /__nc/facets?color=C&size=S&sort=O&view=V: a shop listing filtered by
 * colour and size, in one of three orders, as a list or a grid (the same
 * text). Every page links to every value of every facet, so the 120
 * combinations are all reachable, and each filter gives other content.
 */
static void
trap_facets(struct srv_ctx *c)
{
	struct evbuffer *b;
	size_t cur[4], i;
	int k, p, shown = 0, r = 0;

	cur[0] = facet(c->query, "color", colors, NELEM(colors));
	cur[1] = facet(c->query, "size", sizes, NELEM(sizes));
	cur[2] = facet(c->query, "sort", sorts, NELEM(sorts));
	cur[3] = facet(c->query, "view", views, NELEM(views));
	if ((b = evbuffer_new()) == NULL) {
		srv_reply_page(c, 500, "Out of memory.");
		return;
	}
	r |= evbuffer_add_printf(b,
	         "<!DOCTYPE html>\n<html><head>"
	         "<title>Campus shop</title></head>\n<body>\n<h1>Campus "
	         "shop</h1>"
	         "\n<nav><p>Colour: ") < 0;
	for (i = 0; i < NELEM(colors); i++)
		r |= facet_link(b, cur, 0, i, colors[i]);
	r |= evbuffer_add_printf(b, "</p><p>Size: ") < 0;
	for (i = 0; i < NELEM(sizes); i++)
		r |= facet_link(b, cur, 1, i, sizes[i]);
	r |= evbuffer_add_printf(b, "</p><p>Sort by: ") < 0;
	for (i = 0; i < NELEM(sorts); i++)
		r |= facet_link(b, cur, 2, i, sorts[i]);
	r |= evbuffer_add_printf(b, "</p><p>View: ") < 0;
	for (i = 0; i < NELEM(views); i++)
		r |= facet_link(b, cur, 3, i, views[i]);
	r |= evbuffer_add_printf(
	         b, "</p></nav>\n%s\n", cur[3] == 0 ? "<ul>" : "<table>") < 0;
	for (k = 0; (p = nth_product(cur[2], k)) >= 0; k++) {
		if ((cur[0] != 0 && (size_t)(1 + p % 4) != cur[0]) ||
		    (cur[1] != 0 && (size_t)(1 + (p / 4) % 3) != cur[1]))
			continue;
		shown++;
		r |= evbuffer_add_printf(
		         b, cur[3] == 0 ? "<li><b>" : "<tr><td><b>") < 0;
		r |= add_words(b, 4000 + (uint64_t)p, 2);
		r |= evbuffer_add_printf(b, "</b> %s, size %s, %d euros. ",
		         colors[1 + p % 4], sizes[1 + (p / 4) % 3],
		         5 + (p * 37) % 90) < 0;
		r |= add_words(b, 5000 + (uint64_t)p, 20);
		r |= evbuffer_add_printf(
		         b, cur[3] == 0 ? "</li>\n" : "</td></tr>\n") < 0;
	}
	if (shown == 0)
		r |= evbuffer_add_printf(b,
		         cur[3] == 0
		             ? "<li>No product matches these filters.</li>\n"
		             : "<tr><td>No product matches these "
		               "filters.</td></tr>\n") < 0;
	r |= evbuffer_add_printf(b, "%s\n</body></html>\n",
	         cur[3] == 0 ? "</ul>" : "</table>") < 0;
	send_html(c, b, r);
	evbuffer_free(b);
}

/*
 * /__nc/deeper/MODE/...: a page of its own prose (seeded by the path) with
 * one relative link one level down, so paths grow forever:
 *   repeat  "a/b/": /a/b/a/b/... -- a repeated run of segments
 *   grow    "N/", N the depth: /1/2/3/... -- ever more segments
 *   long    "N-xxxx.../", LONG_SEGMENT bytes a level -- ever longer URLs
 */
static void
trap_deeper(struct srv_ctx *c, const char *rest)
{
	const char *mode = rest, *p;
	struct evbuffer *b;
	size_t depth = 0, i;
	int r = 0;

	if (strncmp(mode, "repeat/", 7) != 0 &&
	    strncmp(mode, "grow/", 5) != 0 && strncmp(mode, "long/", 5) != 0) {
		srv_reply_page(
		    c, 404, "Usage: /__nc/deeper/{repeat,grow,long}/.");
		return;
	}
	/* Segments below the mode; the trailing slash adds none. */
	for (p = strchr(mode, '/') + 1; *p != '\0'; p++)
		if (*p == '/')
			depth++;
	if ((b = evbuffer_new()) == NULL) {
		srv_reply_page(c, 500, "Out of memory.");
		return;
	}
	r |= evbuffer_add_printf(b,
	         "<!DOCTYPE html>\n<html><head>"
	         "<title>Directory level %zu</title></head>\n<body>\n"
	         "<h1>Directory level %zu</h1>\n<p>",
	         depth, depth) < 0;
	r |= add_words(b, hash_str(c->path), 60);
	r |= evbuffer_add_printf(b, "</p>\n<p><a href=\"") < 0;
	if (mode[0] == 'r') {
		r |= evbuffer_add_printf(b, "a/b/") < 0;
	} else if (mode[0] == 'g') {
		r |= evbuffer_add_printf(b, "%zu/", depth + 1) < 0;
	} else {
		r |= evbuffer_add_printf(b, "%02zu-", depth + 1) < 0;
		for (i = 3; i < LONG_SEGMENT - 1; i++)
			r |= evbuffer_add(b, "x", 1) != 0;
		r |= evbuffer_add(b, "/", 1) != 0;
	}
	r |= evbuffer_add_printf(b,
	         "\">One level down</a></p>\n"
	         "</body></html>\n") < 0;
	send_html(c, b, r);
	evbuffer_free(b);
}

int
trap_route(struct srv_ctx *c, const char *rest)
{
	if (strncmp(rest, "session/", 8) == 0 && strchr(rest + 8, '/') == NULL)
		trap_session(c, rest + 8);
	else if (strncmp(rest, "sessredir/", 10) == 0 &&
	    strchr(rest + 10, '/') == NULL)
		trap_sessredir(c, rest + 10);
	else if (strcmp(rest, "pager") == 0)
		trap_pager(c);
	else if (strcmp(rest, "facets") == 0)
		trap_facets(c);
	else if (strncmp(rest, "deeper/", 7) == 0)
		trap_deeper(c, rest + 7);
	else
		return 0;
	return 1;
}
