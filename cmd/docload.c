#include "cmd/docload.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <curl/curl.h>

#include "web/fetch.h"

/* A setting's string, NULL for "none" (libcurl's default). */
static const char *
or_null(const char *v)
{
	return strcmp(v, "none") != 0 ? v : NULL;
}

static size_t
on_body(char *p, size_t size, size_t n, void *arg)
{
	struct buf *b = arg;

	return buf_append(b, p, size * n) == BUF_OK ? size * n : 0;
}

static int
fetch_url(const struct config *cfg, const char *name, struct buf *raw,
    char *ctype, size_t ctsz, char *err, size_t errsz)
{
	static int warned; /* the --insecure warning, once a run */
	struct curl_slist *resolve = NULL, *l;
	char errbuf[CURL_ERROR_SIZE] = "";
	char *ct = NULL;
	long status = 0;
	CURLcode code;
	CURL *e;
	size_t i;
	int rc = 1;

	if ((e = curl_easy_init()) == NULL) {
		snprintf(err, errsz, "cannot set up libcurl");
		return 1;
	}
	for (i = 0; i < cfg->nresolve; i++) {
		if ((l = curl_slist_append(resolve, cfg->resolve[i])) == NULL)
			goto out;
		resolve = l;
	}
	curl_easy_setopt(e, CURLOPT_URL, name);
	curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(e, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(e, CURLOPT_FOLLOWLOCATION, 1L);
	curl_easy_setopt(e, CURLOPT_MAXREDIRS, (long)DOCLOAD_REDIRECTS);
	curl_easy_setopt(e, CURLOPT_USERAGENT, cfg->user_agent);
	curl_easy_setopt(e, CURLOPT_ACCEPT_ENCODING, "");
	curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, cfg->connect_timeout_ms);
	curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, cfg->timeout_ms);
	curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(e, CURLOPT_ERRORBUFFER, errbuf);
	curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(e, CURLOPT_WRITEDATA, raw);
	if (resolve != NULL)
		curl_easy_setopt(e, CURLOPT_RESOLVE, resolve);
	if (fetch_set_tls(e, or_null(cfg->cacert), or_null(cfg->capath),
	    cfg->insecure, or_null(cfg->proxy)) != 0) {
		snprintf(err, errsz, "%s: libcurl refused --cacert, --capath "
		    "or --proxy", name);
		goto out;
	}
	if (cfg->insecure && !warned) {
		fputs(FETCH_INSECURE_WARNING, stderr);
		warned = 1;
	}
	code = curl_easy_perform(e);
	curl_easy_getinfo(e, CURLINFO_RESPONSE_CODE, &status);
	if (code != CURLE_OK) {
		snprintf(err, errsz, "%s: %s", name,
		    errbuf[0] != '\0' ? errbuf : curl_easy_strerror(code));
		goto out;
	}
	if (status < 200 || status >= 300) {
		snprintf(err, errsz, "%s: HTTP status %ld", name, status);
		goto out;
	}
	if (curl_easy_getinfo(e, CURLINFO_CONTENT_TYPE, &ct) == CURLE_OK &&
	    ct != NULL)
		snprintf(ctype, ctsz, "%s", ct);
	rc = 0;
out:
	curl_slist_free_all(resolve);
	curl_easy_cleanup(e);
	return rc;
}

static int
read_path(const char *name, struct buf *raw, char *err, size_t errsz)
{
	int rc;

	errno = 0;
	if ((rc = buf_read_file(raw, name, 0)) == BUF_OK)
		return 0;
	if (rc == BUF_FULL)
		snprintf(err, errsz, "%s: larger than %zu bytes", name,
		    raw->limit);
	else
		snprintf(err, errsz, "%s: %s", name, rc == BUF_NOMEM
		    ? "out of memory" : errno != 0 ? strerror(errno) :
		    "cannot read");
	return 1;
}

int
docload_is_url(const char *name)
{
	return strncmp(name, "http://", 7) == 0 ||
	    strncmp(name, "https://", 8) == 0;
}

int
docload_read(const struct config *cfg, const char *name, struct buf *raw,
    char *ctype, size_t ctsz, char *err, size_t errsz)
{
	if (ctsz > 0)
		ctype[0] = '\0';
	if (docload_is_url(name))
		return fetch_url(cfg, name, raw, ctype, ctsz, err, errsz);
	return read_path(name, raw, err, errsz);
}
