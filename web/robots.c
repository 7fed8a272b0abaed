#include "web/robots.h"

#include "util/buf.h"
#include "util/chars.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct robots_rule {
	size_t off;             /* pattern's offset in robots.pats */
	size_t len;             /* pattern octets, final '$' excluded */
	size_t prio;            /* octets as written, '$' included: decides */
	unsigned char allow;    /* 1 allow, 0 disallow */
	unsigned char anchored; /* pattern ended in '$' */
};

struct robots {
	struct robots_rule *rules; /* longest first, allow first on ties */
	size_t nrules;             /* entries in rules */
	char *pats;                /* NUL-separated normalised patterns */
	double delay;              /* Crawl-delay in seconds, -1 when none */
	char **sitemaps;           /* Sitemap: URLs, each malloc'd */
	size_t nsitemaps;          /* entries in sitemaps */
};

/* The rules gathered for one side of the choice: the agent's or "*". */
struct robots_set {
	struct robots_rule *v; /* rules in file order */
	size_t n;              /* entries used */
	size_t cap;            /* entries allocated */
	struct buf pats;       /* the patterns the rules point into */
	double delay;          /* largest Crawl-delay seen, -1 when none */
	int seen;              /* a group for this side exists */
};

struct robots_ctx {
	const char *agent;     /* product token, not NUL-terminated */
	size_t agentlen;       /* its length; 0 matches no named group */
	struct robots_set own; /* groups naming the agent */
	struct robots_set any; /* groups for "*" */
	int in_agents;         /* the last group line was a user-agent */
	int cur_own;           /* the current group names the agent */
	int cur_any;           /* the current group is for "*" */
	char **sitemaps;       /* collected Sitemap: URLs */
	size_t nsitemaps;      /* entries used */
	size_t sitemapcap;     /* entries allocated */
};

static const char robots_hex[] = "0123456789ABCDEF";

static int
robots_unreserved(unsigned char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	    (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' ||
	    c == '~';
}

static int
robots_blank(unsigned char c)
{
	return c == ' ' || c == '\t';
}

/* ASCII-only, so the locale cannot change what a key means. */
static int
robots_caseeq(const char *a, size_t alen, const char *b, size_t blen)
{
	size_t i;

	if (alen != blen)
		return 0;
	for (i = 0; i < alen; i++)
		if (chars_ascii_lower((unsigned char)a[i]) !=
		    chars_ascii_lower((unsigned char)b[i]))
			return 0;
	return 1;
}

static int
robots_key(const char *k, size_t klen, const char *name)
{
	return robots_caseeq(k, klen, name, strlen(name));
}

static void
robots_trim(const char **s, const char **e)
{
	while (*s < *e && robots_blank((unsigned char)**s))
		(*s)++;
	while (*e > *s && robots_blank((unsigned char)(*e)[-1]))
		(*e)--;
}

/*
 * Normalise n octets of a path or pattern into out (see robots.h). Returns
 * the length written, NUL excluded, or SIZE_MAX when out is too small; at
 * most 3 * n + 1 bytes are ever needed.
 */
static size_t
robots_norm(const char *s, size_t n, char *out, size_t outsz)
{
	size_t i, o = 0;
	unsigned char c;
	int hi, lo;

	for (i = 0; i < n; i++) {
		c = (unsigned char)s[i];
		if (outsz - o < 4)
			return SIZE_MAX;
		if (c == '%' && n - i > 2 &&
		    (hi = chars_hex_value((unsigned char)s[i + 1])) >= 0 &&
		    (lo = chars_hex_value((unsigned char)s[i + 2])) >= 0) {
			c = (unsigned char)(hi << 4 | lo);
			i += 2;
			if (robots_unreserved(c)) {
				out[o++] = (char)c;
				continue;
			}
		} else if (c != '%' && c > 0x20 && c < 0x7f) {
			out[o++] = (char)c;
			continue;
		}
		out[o++] = '%';
		out[o++] = robots_hex[c >> 4];
		out[o++] = robots_hex[c & 15];
	}
	out[o] = '\0';
	return o;
}

/*
 * Glob match of a pattern as a prefix of (or, anchored, all of) t. On a
 * mismatch only the last '*' seen is retried one octet further, which is
 * enough for patterns whose only operator is '*' and keeps the cost at
 * O(plen * tlen) however many stars there are.
 */
static int
robots_match(const char *p, size_t plen, int anchored, const char *t,
    size_t tlen)
{
	size_t i = 0, j = 0, star = SIZE_MAX, mark = 0;

	for (;;) {
		if (j < plen && p[j] == '*') {
			star = ++j;
			mark = i;
			continue;
		}
		if (j == plen) {
			if (!anchored || i == tlen)
				return 1;
		} else if (i < tlen && p[j] == t[i]) {
			i++;
			j++;
			continue;
		}
		if (star == SIZE_MAX || mark >= tlen)
			return 0;
		i = ++mark;
		j = star;
	}
}

static void
robots_set_init(struct robots_set *set)
{
	memset(set, 0, sizeof(*set));
	/* Normalised patterns grow at most 3x over the bytes read. */
	buf_init(&set->pats, 4 * (size_t)ROBOTS_MAX_BYTES);
	set->delay = -1;
}

static void
robots_set_free(struct robots_set *set)
{
	free(set->v);
	set->v = NULL;
	buf_free(&set->pats);
}

/* Returns 0, or -1 when out of memory; an over-cap rule is dropped. */
static int
robots_set_add(struct robots_set *set, const char *pat, size_t len,
    int allow)
{
	struct robots_rule *nv, *rule;
	size_t ncap, off;
	int rc;

	if (set->n >= ROBOTS_MAX_RULES)
		return 0;
	if (set->n == set->cap) {
		ncap = set->cap ? set->cap * 2 : 16;
		if (ncap > ROBOTS_MAX_RULES)
			ncap = ROBOTS_MAX_RULES;
		nv = realloc(set->v, ncap * sizeof(*nv));
		if (nv == NULL)
			return -1;
		set->v = nv;
		set->cap = ncap;
	}
	off = set->pats.len;
	rc = buf_append(&set->pats, pat, len + 1);
	if (rc == BUF_NOMEM)
		return -1;
	if (rc != BUF_OK)
		return 0;
	rule = &set->v[set->n++];
	rule->off = off;
	rule->prio = len;
	rule->allow = (unsigned char)(allow != 0);
	rule->anchored = len > 0 && pat[len - 1] == '$';
	rule->len = rule->anchored ? len - 1 : len;
	return 0;
}

/* Returns 0, or -1 when out of memory. */
static int
robots_add_rule(struct robots_ctx *ctx, const char *v, const char *ve,
    int allow)
{
	char pat[ROBOTS_MAX_PATTERN + 8];
	size_t len, o = 0;

	/* An empty value matches nothing (RFC 9309 2.2.2). */
	if (v == ve || (!ctx->cur_own && !ctx->cur_any))
		return 0;
	/* Paths start with '/'; a bare "page.html" is read as "/page.html". */
	if (*v != '/' && *v != '*')
		pat[o++] = '/';
	if ((size_t)(ve - v) > ROBOTS_MAX_PATTERN)
		return 0;
	len = robots_norm(v, (size_t)(ve - v), pat + o, sizeof(pat) - o);
	if (len == SIZE_MAX || (len += o) > ROBOTS_MAX_PATTERN)
		return 0;
	if (ctx->cur_own && robots_set_add(&ctx->own, pat, len, allow) != 0)
		return -1;
	if (ctx->cur_any && robots_set_add(&ctx->any, pat, len, allow) != 0)
		return -1;
	return 0;
}

/*
 * Decimal seconds, "10" or "0.5" or ".5"; signs, exponents and trailing
 * text are refused. Parsed by hand so the locale's decimal point does not
 * matter. Returns -1 when invalid.
 */
static double
robots_parse_delay(const char *v, const char *ve)
{
	double d = 0, scale = 1;
	int digits = 0;

	for (; v < ve && *v >= '0' && *v <= '9'; v++, digits++)
		d = d * 10 + (*v - '0');
	if (v < ve && *v == '.')
		for (v++; v < ve && *v >= '0' && *v <= '9'; v++, digits++)
			d += (*v - '0') * (scale /= 10);
	if (v != ve || digits == 0 || d > 1e300)
		return -1;
	return d;
}

static void
robots_add_delay(struct robots_ctx *ctx, const char *v, const char *ve)
{
	double d = robots_parse_delay(v, ve);

	if (d < 0)
		return;
	if (ctx->cur_own && d > ctx->own.delay)
		ctx->own.delay = d;
	if (ctx->cur_any && d > ctx->any.delay)
		ctx->any.delay = d;
}

/* Returns 0, or -1 when out of memory; unusable URLs are dropped. */
static int
robots_add_sitemap(struct robots_ctx *ctx, const char *v, const char *ve)
{
	size_t len = (size_t)(ve - v), i, ncap;
	char **nv, *s;

	if (len == 0 || len > ROBOTS_MAX_SITEMAP_LEN ||
	    ctx->nsitemaps >= ROBOTS_MAX_SITEMAPS)
		return 0;
	for (i = 0; i < len; i++)
		if ((unsigned char)v[i] <= 0x20 || (unsigned char)v[i] == 0x7f)
			return 0;
	for (i = 0; i < ctx->nsitemaps; i++)
		if (strlen(ctx->sitemaps[i]) == len &&
		    memcmp(ctx->sitemaps[i], v, len) == 0)
			return 0;
	if (ctx->nsitemaps == ctx->sitemapcap) {
		ncap = ctx->sitemapcap ? ctx->sitemapcap * 2 : 4;
		nv = realloc(ctx->sitemaps, ncap * sizeof(*nv));
		if (nv == NULL)
			return -1;
		ctx->sitemaps = nv;
		ctx->sitemapcap = ncap;
	}
	if ((s = malloc(len + 1)) == NULL)
		return -1;
	memcpy(s, v, len);
	s[len] = '\0';
	ctx->sitemaps[ctx->nsitemaps++] = s;
	return 0;
}

/* A character of a product token (RFC 9309 section 2.2.1). */
static int
robots_token_char(unsigned char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' ||
	    c == '-';
}

/*
 * A user-agent value names us if it starts with our product token: the
 * value's leading run of token characters, so "foobot/1.0" and, as in
 * Google's open-source parser, "FooBot Images" both name foobot. "*"
 * alone or before a blank names every crawler.
 */
static void
robots_add_agent(struct robots_ctx *ctx, const char *v, const char *ve)
{
	const char *t;

	if (!ctx->in_agents) {
		ctx->in_agents = 1;
		ctx->cur_own = 0;
		ctx->cur_any = 0;
	}
	robots_trim(&v, &ve);
	for (t = v; t < ve && robots_token_char((unsigned char)*t); t++)
		;
	if (v < ve && *v == '*' &&
	    (ve - v == 1 || robots_blank((unsigned char)v[1]))) {
		ctx->cur_any = 1;
		ctx->any.seen = 1;
	} else if (ctx->agentlen > 0 && t > v &&
	    robots_caseeq(v, (size_t)(t - v), ctx->agent, ctx->agentlen)) {
		ctx->cur_own = 1;
		ctx->own.seen = 1;
	}
}

/*
 * A line without a colon, "disallow /x", read as Google's open-source
 * parser reads it: key and value apart by blanks, when the line holds
 * exactly two words. Returns 0 with the parts set, or -1: not such a line.
 */
static int
robots_split_blank(const char *s, const char *e, const char **k,
    const char **ke, const char **v, const char **ve)
{
	const char *p;

	robots_trim(&s, &e);
	for (p = s; p < e && !robots_blank((unsigned char)*p); p++)
		;
	if (p == s || p == e)
		return -1;
	*k = s;
	*ke = p;
	while (p < e && robots_blank((unsigned char)*p))
		p++;
	*v = p;
	*ve = e;
	for (; p < e; p++)
		if (robots_blank((unsigned char)*p))
			return -1;
	return 0;
}

/* One line, terminator excluded. Returns 0, or -1 when out of memory. */
static int
robots_line(struct robots_ctx *ctx, const char *s, const char *e)
{
	const char *hash, *colon, *k, *ke, *v, *ve;

	if ((hash = memchr(s, '#', (size_t)(e - s))) != NULL)
		e = hash;
	if ((colon = memchr(s, ':', (size_t)(e - s))) != NULL) {
		k = s;
		ke = colon;
		v = colon + 1;
		ve = e;
		robots_trim(&k, &ke);
		robots_trim(&v, &ve);
	} else if (robots_split_blank(s, e, &k, &ke, &v, &ve) != 0) {
		return 0;
	}

	if (robots_key(k, (size_t)(ke - k), "user-agent")) {
		robots_add_agent(ctx, v, ve);
		return 0;
	}
	if (robots_key(k, (size_t)(ke - k), "sitemap"))
		return robots_add_sitemap(ctx, v, ve);
	if (robots_key(k, (size_t)(ke - k), "allow")) {
		ctx->in_agents = 0;
		return robots_add_rule(ctx, v, ve, 1);
	}
	if (robots_key(k, (size_t)(ke - k), "disallow")) {
		ctx->in_agents = 0;
		return robots_add_rule(ctx, v, ve, 0);
	}
	if (robots_key(k, (size_t)(ke - k), "crawl-delay")) {
		ctx->in_agents = 0;
		robots_add_delay(ctx, v, ve);
	}
	/* Other keys (host, clean-param, ...) neither end nor join a group. */
	return 0;
}

static int
robots_rule_cmp(const void *a, const void *b)
{
	const struct robots_rule *x = a, *y = b;

	if (x->prio != y->prio)
		return x->prio > y->prio ? -1 : 1;
	if (x->allow != y->allow)
		return x->allow ? -1 : 1;
	return x->off < y->off ? -1 : (x->off > y->off);
}

static struct robots *
robots_new(void)
{
	struct robots *r;

	if ((r = calloc(1, sizeof(*r))) == NULL)
		return NULL;
	r->delay = -1;
	return r;
}

struct robots *
robots_parse(const char *txt, size_t len, const char *agent)
{
	struct robots_ctx ctx;
	struct robots_set *chosen = NULL;
	struct robots *r = NULL;
	const char *p, *end, *eol, *ae;
	size_t i;

	memset(&ctx, 0, sizeof(ctx));
	robots_set_init(&ctx.own);
	robots_set_init(&ctx.any);
	if (txt == NULL) {
		txt = "";
		len = 0;
	}
	if (agent != NULL) {
		ae = agent + strcspn(agent, "/");
		robots_trim(&agent, &ae);
		ctx.agent = agent;
		ctx.agentlen = (size_t)(ae - agent);
	}
	/* A line cut at the limit could turn "/private" into "/pr": drop it. */
	if (len > ROBOTS_MAX_BYTES) {
		len = ROBOTS_MAX_BYTES;
		if (txt[len] != '\n' && txt[len] != '\r')
			while (len > 0 && txt[len - 1] != '\n' &&
			    txt[len - 1] != '\r')
				len--;
	}
	p = txt;
	end = txt + len;
	if (len >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0)
		p += 3;
	while (p < end) {
		for (eol = p; eol < end && *eol != '\n' && *eol != '\r'; eol++)
			;
		if (robots_line(&ctx, p, eol) != 0)
			goto fail;
		p = eol < end ? eol + 1 : eol;
	}

	if ((r = robots_new()) == NULL)
		goto fail;
	if (ctx.own.seen)
		chosen = &ctx.own;
	else if (ctx.any.seen)
		chosen = &ctx.any;
	if (chosen != NULL && chosen->n > 0) {
		if ((r->pats = buf_steal(&chosen->pats)) == NULL)
			goto fail;
		qsort(chosen->v, chosen->n, sizeof(*chosen->v),
		    robots_rule_cmp);
		r->rules = chosen->v;
		r->nrules = chosen->n;
		chosen->v = NULL;
	}
	if (chosen != NULL)
		r->delay = chosen->delay;
	r->sitemaps = ctx.sitemaps;
	r->nsitemaps = ctx.nsitemaps;
	ctx.sitemaps = NULL;
	ctx.nsitemaps = 0;
	robots_set_free(&ctx.own);
	robots_set_free(&ctx.any);
	return r;

fail:
	robots_free(r);
	robots_set_free(&ctx.own);
	robots_set_free(&ctx.any);
	for (i = 0; i < ctx.nsitemaps; i++)
		free(ctx.sitemaps[i]);
	free(ctx.sitemaps);
	return NULL;
}

struct robots *
robots_allow_all(void)
{
	return robots_new();
}

struct robots *
robots_disallow_all(void)
{
	struct robots *r;

	if ((r = robots_new()) == NULL)
		goto fail;
	if ((r->rules = calloc(1, sizeof(*r->rules))) == NULL)
		goto fail;
	if ((r->pats = strdup("/")) == NULL)
		goto fail;
	r->rules[0].len = 1;
	r->rules[0].prio = 1;
	r->nrules = 1;
	return r;

fail:
	robots_free(r);
	return NULL;
}

void
robots_free(struct robots *r)
{
	size_t i;

	if (r == NULL)
		return;
	for (i = 0; i < r->nsitemaps; i++)
		free(r->sitemaps[i]);
	free(r->sitemaps);
	free(r->rules);
	free(r->pats);
	free(r);
}

int
robots_allowed(const struct robots *r, const char *path)
{
	const struct robots_rule *rule;
	char *norm;
	size_t n, nlen, i;
	int allowed = 1;

	if (r == NULL)
		return 0;
	if (path == NULL || *path == '\0')
		path = "/";
	n = strlen(path);
	if (n > (SIZE_MAX - 1) / 3 || (norm = malloc(3 * n + 1)) == NULL)
		return 0;
	nlen = robots_norm(path, n, norm, 3 * n + 1);
	if (strcmp(norm, "/robots.txt") == 0)
		goto done;
	/* Sorted longest first, allow first: the first match decides. */
	for (i = 0; i < r->nrules; i++) {
		rule = &r->rules[i];
		if (robots_match(r->pats + rule->off, rule->len,
		    rule->anchored, norm, nlen)) {
			allowed = rule->allow;
			break;
		}
	}
done:
	free(norm);
	return allowed;
}

double
robots_crawl_delay(const struct robots *r)
{
	return r->delay;
}

size_t
robots_sitemaps(const struct robots *r, const char ***out)
{
	*out = (const char **)r->sitemaps;
	return r->nsitemaps;
}

size_t
robots_rule_count(const struct robots *r)
{
	return r->nrules;
}

int
robots_product_token(const char *user_agent, char *out, size_t outsz)
{
	const char *s;
	size_t n = 0;
	unsigned char c;

	if (user_agent == NULL || outsz == 0)
		return -1;
	for (s = user_agent; robots_blank((unsigned char)*s); s++)
		;
	for (; (c = (unsigned char)s[n]) != '\0'; n++) {
		if (!robots_token_char(c))
			break;
		if (n + 1 >= outsz)
			return -1;
		out[n] = (char)chars_ascii_lower(c);
	}
	if (n == 0)
		return -1;
	out[n] = '\0';
	return 0;
}
