/*
 * Fuzz robots_parse and the matcher with agent "nearcrawl".
 *
 * Paths queried: fixed ones, and the value of every line of the input (the
 * text after its first ':'), so rule patterns get matched against paths
 * that look like them. Checks: "/robots.txt" is always allowed; answers
 * are 0 or 1; a path answers the same after percent-encoding some of its
 * unreserved characters and flipping the case of escape hex digits (the
 * header's normalisation makes them equal); the agent "NearCrawl/9.9"
 * gives the same rules as "nearcrawl"; the crawl-delay is -1 or >= 0;
 * sitemaps are within their caps, non-NULL and not repeated; the rule
 * count is within ROBOTS_MAX_RULES.
 */
#include "fuzz_common.h"
#include "web/robots.h"

#include <ctype.h>
#include <math.h>

#define MAX_QUERIES 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* An equivalent spelling of path p under robots.h's normalisation. */
static char *
respell(const char *p, uint64_t *st)
{
	static const char hexu[] = "0123456789ABCDEF", hexl[] = "0123456789abcdef";
	size_t n = strlen(p), i, o = 0;
	char *out = malloc(3 * n + 1);

	if (out == NULL)
		abort();
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)p[i];
		uint64_t r = fuzz_rand(st);
		int unres = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
		    (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' ||
		    c == '~';

		if (unres && (r & 3) == 0) {
			const char *h = (r & 4) ? hexu : hexl;

			out[o++] = '%';
			out[o++] = h[c >> 4];
			out[o++] = h[c & 15];
		} else if (c == '%' && isxdigit((unsigned char)p[i + 1]) &&
		    isxdigit((unsigned char)p[i + 2])) {
			out[o++] = '%';
			out[o++] = (r & 8) ? (char)toupper((unsigned char)p[i + 1]) :
			    (char)tolower((unsigned char)p[i + 1]);
			out[o++] = (r & 16) ? (char)toupper((unsigned char)p[i + 2]) :
			    (char)tolower((unsigned char)p[i + 2]);
			i += 2;
		} else {
			out[o++] = (char)c;
		}
	}
	out[o] = '\0';
	return out;
}

static void
query(const struct robots *r, const struct robots *r2, const char *path,
    uint64_t *st)
{
	int a = robots_allowed(r, path), b, c;
	char *alt;

	FUZZ_CHECK(a == 0 || a == 1, "answer %d", a);
	b = robots_allowed(r2, path);
	FUZZ_CHECK(a == b, "agent spelling changed the answer for %s", path);
	if (path == NULL)
		return;
	alt = respell(path, st);
	c = robots_allowed(r, alt);
	FUZZ_CHECK(a == c, "%s -> %d but equivalent %s -> %d", path, a, alt, c);
	free(alt);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *fixed[] = { NULL, "", "/", "/index.html",
		"/private/x?y=1", "/a%2Fb", "/%7Euser/", "/%C3%A9t%c3%a9",
		"/*", "/$", "/robots.txt?x", "/ROBOTS.TXT" };
	struct robots *r, *r2;
	const char **sm = NULL;
	char *txt, *line, *end, *colon;
	size_t i, j, nsm, nq = 0;
	uint64_t st = size * 0x9e3779b97f4a7c15ULL + 1;
	double d;

	r = robots_parse((const char *)data, size, "nearcrawl");
	r2 = robots_parse((const char *)data, size, "NearCrawl/9.9");
	if (r == NULL || r2 == NULL)
		goto done; /* out of memory */
	FUZZ_CHECK(robots_allowed(r, "/robots.txt") == 1,
	    "/robots.txt disallowed");
	FUZZ_CHECK(robots_rule_count(r) <= ROBOTS_MAX_RULES, "%zu rules",
	    robots_rule_count(r));
	FUZZ_CHECK(robots_rule_count(r) == robots_rule_count(r2),
	    "agent spelling changed the rule count");
	d = robots_crawl_delay(r);
	FUZZ_CHECK(!isnan(d) && (d == -1 || d >= 0), "crawl delay %g", d);
	FUZZ_CHECK(d == robots_crawl_delay(r2) || (isnan(d) &&
	    isnan(robots_crawl_delay(r2))), "agent spelling changed the delay");
	nsm = robots_sitemaps(r, &sm);
	FUZZ_CHECK(nsm <= ROBOTS_MAX_SITEMAPS, "%zu sitemaps", nsm);
	FUZZ_CHECK((nsm == 0) == (sm == NULL), "sitemaps %zu but array %p", nsm,
	    (void *)sm);
	for (i = 0; i < nsm; i++) {
		FUZZ_CHECK(sm[i] != NULL && strlen(sm[i]) <= ROBOTS_MAX_SITEMAP_LEN,
		    "sitemap %zu", i);
		for (j = i + 1; j < nsm && j < i + 32; j++)
			FUZZ_CHECK(strcmp(sm[i], sm[j]) != 0, "sitemap repeated");
	}

	for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		query(r, r2, fixed[i], &st);

	txt = fuzz_strndup(data, size);
	for (line = txt; line < txt + size && nq < MAX_QUERIES; line = end + 1) {
		end = line + strcspn(line, "\r\n");
		*end = '\0';
		colon = strchr(line, ':');
		if (colon != NULL) {
			colon++;
			while (*colon == ' ' || *colon == '\t')
				colon++;
			query(r, r2, colon, &st);
			nq++;
		}
		if (end >= txt + size)
			break;
	}
	free(txt);
done:
	robots_free(r);
	robots_free(r2);
	return 0;
}
