/*
 * proc: an endless procedural news site for scale benchmarks. Every host
 * whose name starts with "proc." serves it at every path (a directory of
 * that name under the root is never read). Nothing is stored: each page is
 * a pure function of its path, so the same URL always gives the same bytes
 * and the site never ends.
 *
 *   /                          home: the newest articles, the sections
 *   /about.html /contact.html /privacy.html
 *   /SECTION/                  listing page 1 of a section
 *   /SECTION/page/K.html       listing page K (20 teasers, pager), any K
 *   /SECTION/ID-slug.html      article ID (1 .. PROC_MAX_ID); the section
 *                              must be the ID's and the slug its title's
 *   /robots.txt                disallows /search only
 *
 * Articles come in groups of GROUP consecutive ids. In each group, in
 * positions a hash of the group chooses, EXACT_PER_GROUP articles are
 * byte-identical copies of another article of the group (the same text
 * under another URL: "exact") and NEAR_PER_GROUP are copies with one
 * sentence of the body replaced and another footer counter, timestamp,
 * sidebar and ad ("near"); the rest are originals. Related links stay in
 * the group, so a crawler that enters a group finds its copies too; "more
 * stories" links jump to random ids anywhere in the id space, which is
 * what makes the frontier grow without end.
 *
 * Pages are built in one fixed buffer by a splitmix64 generator seeded
 * from the article (or the path): a few microseconds a page.
 */
#include "ncserver.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <event2/buffer.h>
#include <event2/keyvalq_struct.h>

#define PAGE_MAX (64 * 1024) /* the largest page is about 14 KiB */
#define PROC_MAX_ID 1000000000000ULL
#define PROC_MAX_LISTING (PROC_MAX_ID / 200)
#define GROUP 20          /* articles per group */
#define EXACT_PER_GROUP 2 /* byte-identical copies per group */
#define NEAR_PER_GROUP 2  /* one-sentence variants per group */
#define PER_LISTING 20    /* teasers on a listing page */
#define POPULAR 2000      /* "most read" links go to ids 1..this */
#define SLUG_WORDS 4
/* A near copy changes one of the first REPLACE_WITHIN sentences; every
 * body (250 words or more, 20 words a sentence at most) has more. */
#define REPLACE_WITHIN 12

static const char *const sections[] = {"news", "research", "teaching", "campus",
    "events", "library", "alumni", "sport", "culture", "health"};
#define NSECTIONS (sizeof(sections) / sizeof(sections[0]))

/* Frequent short words, drawn a quarter of the time, as in real prose. */
static const char *const common[] = {"the", "of", "and", "to", "in", "a", "is",
    "that", "for", "on", "with", "as", "by", "at", "from", "this", "are", "was",
    "be", "it"};

static const char *const words[] = {"university", "students", "research",
    "faculty", "campus", "program", "study", "department", "course", "lecture",
    "professor", "laboratory", "science", "data", "analysis", "project", "team",
    "library", "semester", "graduate", "community", "public", "results",
    "report", "funding", "grant", "center", "institute", "policy", "network",
    "system", "model", "energy", "climate", "health", "medical", "clinical",
    "patient", "biology", "chemistry", "physics", "mathematics", "engineering",
    "computer", "software", "history", "language", "literature", "music", "art",
    "culture", "society", "economy", "market", "water", "city", "region",
    "national", "international", "global", "local", "new", "first", "annual",
    "recent", "important", "several", "many", "open", "early", "major", "final",
    "future", "support", "develop", "improve", "present", "discuss", "announce",
    "publish", "describe", "explore", "measure", "compare", "observe", "design",
    "build", "test", "launch", "award", "invite", "welcome", "host",
    "collaboration", "partnership", "initiative", "workshop", "conference",
    "seminar", "symposium", "exhibition", "performance", "festival", "season",
    "competition", "championship", "match", "coach", "player", "athlete",
    "alumni", "donor", "volunteer", "staff", "member", "committee", "board",
    "council", "researchers", "scientists", "engineers", "artists", "scholars",
    "teachers", "leaders", "year", "month", "week", "day", "morning", "evening",
    "today", "spring", "summer", "autumn", "winter", "building", "hall", "room",
    "garden", "museum", "archive", "collection", "catalogue", "journal",
    "article", "book", "chapter", "paper", "thesis", "experiment", "survey",
    "interview", "method", "evidence", "theory", "practice", "approach",
    "framework", "question", "answer", "problem", "solution", "challenge",
    "opportunity", "change", "growth", "impact", "effect", "outcome", "benefit",
    "risk", "cost", "quality", "access", "equity", "diversity", "safety",
    "security", "privacy", "ethics", "digital", "online", "virtual", "hybrid",
    "mobile", "remote", "physical", "social", "economic", "political",
    "environmental", "sustainable", "renewable", "efficient", "innovative",
    "creative", "critical", "careful", "detailed", "broad", "deep", "long",
    "short", "large", "small", "high", "low", "strong", "clear", "because",
    "while", "although", "since", "however", "therefore", "also", "only",
    "often", "together", "across", "through", "between", "during", "after",
    "before", "around", "within", "without", "will", "can", "may", "should",
    "must", "could", "would", "might", "has", "have", "river", "forest",
    "ocean", "mountain", "island", "harbour", "bridge", "street", "village",
    "county", "province", "border", "machine", "robot", "sensor", "satellite",
    "telescope", "microscope", "genome", "protein", "cell", "vaccine",
    "therapy", "hospital", "clinic", "nurse", "doctor", "surgeon", "pharmacy",
    "nutrition"};
#define NWORDS (sizeof(words) / sizeof(words[0]))

static const char *const ads[] = {"Summer school applications open now",
    "Visit the campus bookshop sale", "New evening master's programme",
    "Alumni travel: spring tours", "Support the scholarship fund",
    "Concert tickets at the box office", "Library late opening this week",
    "Join the sports centre today"};
#define NADS (sizeof(ads) / sizeof(ads[0]))

/* The page being built: a fixed buffer, so no page can grow without end. */
struct page {
	char buf[PAGE_MAX]; /* the HTML */
	size_t len;         /* bytes used */
	int full;           /* something did not fit: answer 500 */
};

/* What an article id shows. */
struct article {
	uint64_t id;      /* the URL's id */
	uint64_t content; /* the id whose text it shows (itself if original) */
	uint64_t variant; /* 0, or the near copy's own seed */
};

static uint64_t
mix(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return x;
}

/* splitmix64: tiny state, good enough, the same on every platform. */
static uint64_t
rnd(uint64_t *s)
{
	*s += 0x9e3779b97f4a7c15ULL;
	return mix(*s);
}

static uint64_t
below(uint64_t *s, uint64_t n)
{
	return rnd(s) % n;
}

static void
put(struct page *pg, const char *s, size_t n)
{
	if (pg->full || n > sizeof(pg->buf) - pg->len) {
		pg->full = 1;
		return;
	}
	memcpy(pg->buf + pg->len, s, n);
	pg->len += n;
}

static void
puts_(struct page *pg, const char *s)
{
	put(pg, s, strlen(s));
}

static void __attribute__((format(printf, 2, 3)))
putf(struct page *pg, const char *fmt, ...)
{
	size_t room = sizeof(pg->buf) - pg->len;
	va_list ap;
	int n;

	if (pg->full)
		return;
	va_start(ap, fmt);
	n = vsnprintf(pg->buf + pg->len, room, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= room) {
		pg->full = 1;
		return;
	}
	pg->len += (size_t)n;
}

static const char *
word(uint64_t *s)
{
	uint64_t r = rnd(s);

	if ((r & 3) == 0)
		return common[(r >> 2) % (sizeof(common) / sizeof(common[0]))];
	return words[(r >> 2) % NWORDS];
}

/* One sentence of 6..20 words, capitalised, into pg (or nowhere when pg
 * is NULL, to draw it without writing it). Returns its words. */
static size_t
sentence(struct page *pg, uint64_t *s)
{
	size_t n = 6 + below(s, 15), i;
	const char *w;
	char cap;

	for (i = 0; i < n; i++) {
		w = word(s);
		if (pg == NULL)
			continue;
		if (i == 0) {
			cap = (char)(w[0] - 'a' + 'A');
			put(pg, &cap, 1);
			puts_(pg, w + 1);
		} else {
			put(pg, " ", 1);
			puts_(pg, w);
		}
	}
	if (below(s, 8) == 0) {
		if (pg != NULL)
			put(pg, "?", 1);
	} else if (pg != NULL)
		put(pg, ".", 1);
	return n;
}

/*
 * The title of content id c: the first words its generator draws, so a
 * listing can name an article without writing its body. The slug is the
 * first SLUG_WORDS of them joined by '-'.
 */
static void
title_of(uint64_t c, char *title, size_t tsz, char *slug, size_t ssz)
{
	uint64_t s = mix(c ^ 0x7469746c65ULL);
	size_t n = 3 + below(&s, 4), i, tl = 0, sl = 0;
	const char *w;
	int m;

	title[0] = slug[0] = '\0';
	for (i = 0; i < n; i++) {
		w = words[below(&s, NWORDS)];
		m = snprintf(title + tl, tsz - tl, "%s%c%s", i ? " " : "",
		    i ? w[0] : w[0] - 'a' + 'A', w + 1);
		if (m > 0 && (size_t)m < tsz - tl)
			tl += (size_t)m;
		if (i < SLUG_WORDS) {
			m = snprintf(
			    slug + sl, ssz - sl, "%s%s", i ? "-" : "", w);
			if (m > 0 && (size_t)m < ssz - sl)
				sl += (size_t)m;
		}
	}
}

/*
 * Where article id shows its text from: a group's positions are rotated
 * by a hash of the group; the first EXACT_PER_GROUP rotated positions are
 * exact copies, the next NEAR_PER_GROUP near copies, each of an original
 * of the same group.
 */
static struct article
article_of(uint64_t id)
{
	struct article a = {id, id, 0};
	uint64_t g = id / GROUP, h = mix(g ^ 0x67726f7570ULL);
	uint64_t rot = h % GROUP, r = (id % GROUP + GROUP - rot) % GROUP;
	uint64_t originals = GROUP - EXACT_PER_GROUP - NEAR_PER_GROUP, src;

	if (r >= EXACT_PER_GROUP + NEAR_PER_GROUP)
		return a;
	src =
	    EXACT_PER_GROUP + NEAR_PER_GROUP + ((h >> 16) + r * 7) % originals;
	a.content = g * GROUP + (src + rot) % GROUP;
	/* Id 0 does not exist: group 0's copies of it stay originals. */
	if (a.content == 0) {
		a.content = id;
		return a;
	}
	if (r >= EXACT_PER_GROUP)
		a.variant = mix(id ^ 0x6e656172ULL) | 1;
	return a;
}

static const char *
section_of(uint64_t id)
{
	return sections[id % NSECTIONS];
}

static void
article_link(
    struct page *pg, uint64_t id, const char *before, const char *after)
{
	char title[128], slug[128];

	title_of(
	    article_of(id).content, title, sizeof(title), slug, sizeof(slug));
	putf(pg, "%s<a href=\"/%s/%llu-%s.html\">%s</a>%s", before,
	    section_of(id), (unsigned long long)id, slug, title, after);
}

static void
head(struct page *pg, const char *title)
{
	size_t i;

	putf(pg,
	    "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	    "<meta charset=\"utf-8\">\n"
	    "<meta name=\"viewport\" content=\"width=device-width, "
	    "initial-scale=1\">\n"
	    "<title>%s | Procedural University</title>\n"
	    "<link rel=\"stylesheet\" href=\"/static/site.css\">\n"
	    "<script>window.dataLayer=window.dataLayer||[];</script>\n"
	    "</head>\n<body class=\"page has-sidebar\">\n"
	    "<header class=\"site-header\" role=\"banner\">\n"
	    "<a class=\"logo\" href=\"/\">Procedural University</a>\n"
	    "<form class=\"search\" action=\"/search\" method=\"get\">"
	    "<input name=\"q\" placeholder=\"Search\"><button>Go</button>"
	    "</form>\n</header>\n"
	    "<nav class=\"main-nav\" role=\"navigation\"><ul>\n"
	    "<li><a href=\"/\">Home</a></li>\n",
	    title);
	for (i = 0; i < NSECTIONS; i++)
		putf(pg, "<li><a href=\"/%s/\">%c%s</a></li>\n", sections[i],
		    sections[i][0] - 'a' + 'A', sections[i] + 1);
	puts_(pg, "</ul></nav>\n");
}

/* Sidebar and footer: "most read", an ad, a counter and a timestamp, all
 * from s, so a near copy gets other ones than its original. */
static void
tail(struct page *pg, uint64_t *s)
{
	int i;

	puts_(pg,
	    "<aside class=\"sidebar\" role=\"complementary\">\n"
	    "<h2>Most read</h2>\n<ul>\n");
	for (i = 0; i < 5; i++)
		article_link(pg, 1 + below(s, POPULAR), "<li>", "</li>\n");
	putf(pg,
	    "</ul>\n<div class=\"ad\">Advertisement: %s</div>\n"
	    "</aside>\n",
	    ads[below(s, NADS)]);
	putf(pg,
	    "<footer class=\"site-footer\" role=\"contentinfo\">\n"
	    "<p>&copy; 2024 Procedural University. "
	    "<a href=\"/about.html\">About</a> "
	    "<a href=\"/contact.html\">Contact</a> "
	    "<a href=\"/privacy.html\">Privacy</a></p>\n"
	    "<p class=\"counter\">Visitors today: %llu. Page generated "
	    "2024-%02d-%02d %02d:%02d:%02d in %d ms.</p>\n"
	    "</footer>\n<script src=\"/static/analytics.js\"></script>\n"
	    "</body>\n</html>\n",
	    (unsigned long long)(1000 + below(s, 90000)),
	    (int)(1 + below(s, 12)), (int)(1 + below(s, 28)), (int)below(s, 24),
	    (int)below(s, 60), (int)below(s, 60), (int)(20 + below(s, 400)));
}

/*
 * Paragraphs of prose until at least want words. With replace > 0 the
 * sentence of that number (1-based) is drawn from alt instead, while s
 * still draws the original one, so everything after it stays the same.
 */
static void
prose(
    struct page *pg, uint64_t *s, size_t want, uint64_t replace, uint64_t *alt)
{
	size_t done = 0, k, first;
	uint64_t n = 0;

	while (done < want) {
		puts_(pg, "<p>");
		for (k = 2 + below(s, 5), first = 1; k > 0 && done < want;
		     k--, first = 0) {
			if (!first)
				put(pg, " ", 1);
			if (++n == replace) {
				done += sentence(NULL, s);
				sentence(pg, alt);
			} else
				done += sentence(pg, s);
		}
		puts_(pg, "</p>\n");
	}
}

static void
serve_article(struct page *pg, uint64_t id)
{
	struct article a = article_of(id);
	uint64_t s = mix(a.content ^ 0x626f6479ULL), t, alt, g;
	char title[128], slug[128];
	size_t want, i;
	const char *sec = section_of(a.content), *w1, *w2;
	int month, day;

	title_of(a.content, title, sizeof(title), slug, sizeof(slug));
	/* The page's own variable parts: a near copy's differ. */
	t = mix(a.content ^ a.variant ^ 0x7461696cULL);
	alt = a.variant;
	/* Author and date come first from the body's generator. */
	w1 = words[below(&s, NWORDS)];
	w2 = words[below(&s, NWORDS)];
	month = (int)(1 + below(&s, 12));
	day = (int)(1 + below(&s, 28));
	head(pg, title);
	putf(pg,
	    "<main id=\"content\">\n<nav class=\"breadcrumb\">"
	    "<a href=\"/\">Home</a> &rsaquo; <a href=\"/%s/\">%c%s</a></nav>\n"
	    "<article>\n<h1>%s</h1>\n<p class=\"byline\">By %c%s %c%sson, "
	    "2024-%02d-%02d</p>\n",
	    sec, sec[0] - 'a' + 'A', sec + 1, title, w1[0] - 'a' + 'A', w1 + 1,
	    w2[0] - 'a' + 'A', w2 + 1, month, day);
	want = 250 + below(&s, 650);
	prose(pg, &s, want, a.variant != 0 ? 1 + a.variant % REPLACE_WITHIN : 0,
	    &alt);
	puts_(pg, "<p class=\"tags\">Tags: ");
	for (i = 0; i < 3; i++)
		putf(pg, "%s%s", i ? ", " : "", words[below(&s, NWORDS)]);
	puts_(pg,
	    "</p>\n</article>\n<section class=\"related\">\n"
	    "<h2>Related</h2>\n<ul>\n");
	g = a.content / GROUP * GROUP;
	for (i = 0; i < 5; i++) {
		uint64_t r = g + below(&s, GROUP);

		if (r == 0 || r == a.content)
			continue;
		article_link(pg, r, "<li>", "</li>\n");
	}
	puts_(pg,
	    "</ul>\n</section>\n<section class=\"more\">\n"
	    "<h2>More stories</h2>\n<ul>\n");
	for (i = 0; i < 2; i++)
		article_link(pg, 1 + below(&s, PROC_MAX_ID), "<li>", "</li>\n");
	puts_(pg, "</ul>\n</section>\n</main>\n");
	tail(pg, &t);
}

static void
teaser(struct page *pg, uint64_t id)
{
	uint64_t s = mix(article_of(id).content ^ 0x7465617365ULL);

	article_link(pg, id, "<div class=\"teaser\">\n<h2>", "</h2>\n<p>");
	putf(pg, "2024-%02d-%02d. ", (int)(1 + below(&s, 12)),
	    (int)(1 + below(&s, 28)));
	sentence(pg, &s);
	puts_(pg, "</p>\n</div>\n");
}

/* Listing page k (1 ..) of section si: its articles in id order. */
static void
serve_listing(struct page *pg, size_t si, uint64_t k)
{
	const char *sec = sections[si];
	uint64_t s = mix(si * 0x100000001ULL ^ k ^ 0x6c697374ULL), j, id, p;
	char title[64];

	snprintf(title, sizeof(title), "%c%s%s", sec[0] - 'a' + 'A', sec + 1,
	    k > 1 ? " - older stories" : "");
	head(pg, title);
	putf(pg, "<main id=\"content\">\n<h1>%s</h1>\n<p class=\"intro\">",
	    title);
	sentence(pg, &s);
	puts_(pg, "</p>\n");
	for (j = (k - 1) * PER_LISTING; j < k * PER_LISTING; j++) {
		id = si + NSECTIONS * j;
		if (id >= 1 && id <= PROC_MAX_ID)
			teaser(pg, id);
	}
	puts_(pg, "<nav class=\"pager\">");
	if (k > 1)
		putf(pg, "<a href=\"/%s/\">First</a> ", sec);
	if (k == 2)
		putf(pg, "<a href=\"/%s/\">Previous</a> ", sec);
	else if (k > 2)
		putf(pg, "<a href=\"/%s/page/%llu.html\">Previous</a> ", sec,
		    (unsigned long long)(k - 1));
	for (p = k > 2 ? k - 2 : 1; p <= k + 2 && p <= PROC_MAX_LISTING; p++) {
		if (p == k)
			putf(pg, "<span>%llu</span> ", (unsigned long long)p);
		else if (p == 1)
			putf(pg, "<a href=\"/%s/\">1</a> ", sec);
		else
			putf(pg, "<a href=\"/%s/page/%llu.html\">%llu</a> ",
			    sec, (unsigned long long)p, (unsigned long long)p);
	}
	if (k < PROC_MAX_LISTING)
		putf(pg, "<a href=\"/%s/page/%llu.html\">Next</a>", sec,
		    (unsigned long long)(k + 1));
	puts_(pg, "</nav>\n</main>\n");
	tail(pg, &s);
}

static void
serve_home(struct page *pg)
{
	uint64_t s = mix(0x686f6d65ULL), id;
	size_t i;

	head(pg, "Home");
	puts_(pg,
	    "<main id=\"content\">\n<h1>Welcome to Procedural "
	    "University</h1>\n<p class=\"intro\">");
	sentence(pg, &s);
	puts_(pg, " ");
	sentence(pg, &s);
	puts_(pg, "</p>\n");
	for (id = 1; id <= PER_LISTING; id++)
		teaser(pg, id);
	puts_(pg, "<h2>Sections</h2>\n<ul class=\"sections\">\n");
	for (i = 0; i < NSECTIONS; i++)
		putf(pg, "<li><a href=\"/%s/\">%c%s</a></li>\n", sections[i],
		    sections[i][0] - 'a' + 'A', sections[i] + 1);
	puts_(pg, "</ul>\n</main>\n");
	tail(pg, &s);
}

static void
serve_static(struct page *pg, const char *title, uint64_t seed, size_t want)
{
	uint64_t s = mix(seed);

	head(pg, title);
	putf(pg, "<main id=\"content\">\n<article>\n<h1>%s</h1>\n", title);
	prose(pg, &s, want, 0, NULL);
	puts_(pg, "</article>\n</main>\n");
	tail(pg, &s);
}

/* Digits only, 1 .. max, up to the end or a stop character. */
static int
parse_number(const char **sp, int stop, uint64_t max, uint64_t *out)
{
	const char *s = *sp;
	uint64_t v = 0;

	if (*s < '0' || *s > '9' || *s == '0')
		return -1;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (v > (max - (uint64_t)(*s - '0')) / 10)
			return -1;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	if (*s != stop)
		return -1;
	*sp = s;
	*out = v;
	return 0;
}

/*
 * Below "/SECTION/": "" (listing 1), "page/K.html" (K >= 2) or
 * "ID-slug.html" with the id's own section and slug. Returns 0 with the
 * page built, or -1 for a path the site does not have.
 */
static int
serve_section_path(struct page *pg, size_t si, const char *rest)
{
	char title[128], slug[128];
	uint64_t n;
	size_t len;

	if (*rest == '\0') {
		serve_listing(pg, si, 1);
		return 0;
	}
	if (strncmp(rest, "page/", 5) == 0) {
		rest += 5;
		if (parse_number(&rest, '.', PROC_MAX_LISTING, &n) != 0 ||
		    n < 2 || strcmp(rest, ".html") != 0)
			return -1;
		serve_listing(pg, si, n);
		return 0;
	}
	if (parse_number(&rest, '-', PROC_MAX_ID, &n) != 0 ||
	    n % NSECTIONS != si)
		return -1;
	rest++;
	title_of(
	    article_of(n).content, title, sizeof(title), slug, sizeof(slug));
	len = strlen(slug);
	if (strncmp(rest, slug, len) != 0 || strcmp(rest + len, ".html") != 0)
		return -1;
	serve_article(pg, n);
	return 0;
}

int
proc_is_site(const char *host)
{
	return strncmp(host, "proc.", 5) == 0 && host[5] != '\0';
}

void
proc_serve(struct srv_ctx *c)
{
	struct evkeyvalq *out = evhttp_request_get_output_headers(c->req);
	const char *p = c->path, *type = "text/html; charset=utf-8";
	struct page *pg = NULL;
	struct evbuffer *b = NULL;
	size_t i, n;
	int found = 0;

	/* 64 KiB is more than a stack frame should take. */
	pg = malloc(sizeof(*pg));
	b = evbuffer_new();
	if (pg == NULL || b == NULL)
		goto oom;
	pg->len = 0;
	pg->full = 0;
	if (strcmp(p, "/") == 0) {
		serve_home(pg);
		found = 1;
	} else if (strcmp(p, "/robots.txt") == 0) {
		puts_(pg, "User-agent: *\nDisallow: /search\n");
		type = "text/plain; charset=utf-8";
		found = 1;
	} else if (strcmp(p, "/about.html") == 0) {
		serve_static(pg, "About the university", 1, 300);
		found = 1;
	} else if (strcmp(p, "/contact.html") == 0) {
		serve_static(pg, "Contact", 2, 160);
		found = 1;
	} else if (strcmp(p, "/privacy.html") == 0) {
		serve_static(pg, "Privacy notice", 3, 400);
		found = 1;
	} else {
		for (i = 0; i < NSECTIONS && !found; i++) {
			n = strlen(sections[i]);
			if (p[0] == '/' &&
			    strncmp(p + 1, sections[i], n) == 0 &&
			    p[1 + n] == '/')
				found =
				    serve_section_path(pg, i, p + 2 + n) == 0;
		}
	}
	if (!found) {
		free(pg);
		evbuffer_free(b);
		srv_reply_page(c, 404, "No such page on the procedural site.");
		return;
	}
	if (pg->full || evbuffer_add(b, pg->buf, pg->len) != 0)
		goto oom;
	evhttp_add_header(out, "Content-Type", type);
	srv_reply(c, 200, b);
	free(pg);
	evbuffer_free(b);
	return;
oom:
	free(pg);
	if (b != NULL)
		evbuffer_free(b);
	srv_reply_page(c, 500, "Out of memory or page too large.");
}
