/*
 * Fuzz sitemap_parse: any bytes as a sitemap (XML, text or gzip).
 *
 * Checks: 0, or -1 with a reason and *out zeroed; URL counts within
 * SITEMAP_MAX_URLS; every URL is http(s), at most URL_MAX_LEN bytes and
 * already in normal form (url_normalize gives it back unchanged). Then the
 * input is gzip-compressed here and parsed again: the result must be the
 * same (unless the input was gzip already, or the inflated cap could
 * differ).
 */
#include "fuzz_common.h"
#include "web/sitemap.h"
#include "web/url.h"

#include <curl/curl.h>
#include <zlib.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	curl_global_init(CURL_GLOBAL_DEFAULT);
	return 0;
}

static void
check_list(char **v, size_t n)
{
	const char *why;
	size_t i;
	char *again;

	FUZZ_CHECK(n == 0 || v != NULL, "%zu URLs, NULL array", n);
	for (i = 0; i < n; i++) {
		FUZZ_CHECK(v[i] != NULL, "URL %zu NULL", i);
		FUZZ_CHECK(strncmp(v[i], "http://", 7) == 0 ||
		    strncmp(v[i], "https://", 8) == 0, "not http(s): %s", v[i]);
		FUZZ_CHECK(strlen(v[i]) <= URL_MAX_LEN, "URL too long");
		again = url_normalize(v[i], &why);
		FUZZ_CHECK(again != NULL && strcmp(again, v[i]) == 0,
		    "URL not in normal form: %s -> %s", v[i],
		    again ? again : why);
		free(again);
	}
}

/* gzip data[0..size) into a malloc'd buffer; NULL on failure. */
static unsigned char *
gzip(const uint8_t *data, size_t size, size_t *outlen)
{
	z_stream z;
	unsigned char *out;
	size_t cap;

	memset(&z, 0, sizeof(z));
	if (deflateInit2(&z, 6, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return NULL;
	cap = deflateBound(&z, size) + 32;
	out = malloc(cap);
	if (out == NULL) {
		deflateEnd(&z);
		return NULL;
	}
	z.next_in = (unsigned char *)data;
	z.avail_in = (uInt)size;
	z.next_out = out;
	z.avail_out = (uInt)cap;
	if (deflate(&z, Z_FINISH) != Z_STREAM_END) {
		deflateEnd(&z);
		free(out);
		return NULL;
	}
	*outlen = z.total_out;
	deflateEnd(&z);
	return out;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sitemap s, g;
	const char *why = NULL, *gwhy = NULL;
	unsigned char *gz;
	size_t gzlen = 0, i;
	int rc, grc;

	rc = sitemap_parse((const char *)data, size, &s, &why);
	if (rc != 0) {
		FUZZ_CHECK(rc == -1 && why != NULL, "rc %d", rc);
		FUZZ_CHECK(s.urls == NULL && s.nurls == 0 && s.sitemaps == NULL &&
		    s.nsitemaps == 0 && s.truncated == 0, "failure left data");
	} else {
		FUZZ_CHECK(s.nurls + s.nsitemaps <= SITEMAP_MAX_URLS,
		    "%zu + %zu URLs", s.nurls, s.nsitemaps);
		check_list(s.urls, s.nurls);
		check_list(s.sitemaps, s.nsitemaps);
	}

	if (size >= 2 && data[0] == 0x1f && data[1] == 0x8b)
		goto done;
	gz = gzip(data, size, &gzlen);
	if (gz == NULL)
		goto done;
	grc = sitemap_parse((const char *)gz, gzlen, &g, &gwhy);
	free(gz);
	if (size == 0) {
		/* Empty data is "not a sitemap"; its gzip form is a valid
		 * stream of nothing, which may read either way. */
		if (grc == 0)
			sitemap_free(&g);
		goto done;
	}
	FUZZ_CHECK(grc == rc, "plain rc %d (%s), gzip rc %d (%s)", rc,
	    why ? why : "", grc, gwhy ? gwhy : "");
	if (rc == 0) {
		FUZZ_CHECK(g.nurls == s.nurls && g.nsitemaps == s.nsitemaps &&
		    g.truncated == s.truncated, "gzip changed the counts: "
		    "%zu/%zu/%d vs %zu/%zu/%d", s.nurls, s.nsitemaps,
		    s.truncated, g.nurls, g.nsitemaps, g.truncated);
		for (i = 0; i < s.nurls; i++)
			FUZZ_CHECK(strcmp(s.urls[i], g.urls[i]) == 0,
			    "gzip changed URL %zu", i);
		for (i = 0; i < s.nsitemaps; i++)
			FUZZ_CHECK(strcmp(s.sitemaps[i], g.sitemaps[i]) == 0,
			    "gzip changed sitemap %zu", i);
		sitemap_free(&g);
	}
done:
	if (rc == 0)
		sitemap_free(&s);
	return 0;
}
