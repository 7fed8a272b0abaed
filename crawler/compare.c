#include "compare.h"

#include <stdlib.h>
#include <string.h>

#include <curl/curl.h>

#include "buf.h"
#include "dedup.h"
#include "extract.h"
#include "simhash.h"

/* Redirects followed when the user names a URL: it is one request of
 * theirs, not a crawl, so we behave like a browser would. */
#define COMPARE_REDIRECTS 5

/* One side of the comparison. */
struct doc {
	const char *name;      /* as given */
	struct buf raw;        /* bytes read or fetched */
	char ctype[128];       /* Content-Type of a URL, "" for a file */
	struct extract_result ex; /* when HTML */
	int html;              /* ex is set */
	struct dedup_fp fp;    /* fingerprints */
};

static size_t
on_body(char *p, size_t size, size_t n, void *arg)
{
	struct buf *b = arg;

	return buf_append(b, p, size * n) == BUF_OK ? size * n : 0;
}

static int
fetch_url(const struct config *cfg, struct doc *d, char *err, size_t errsz)
{
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
	curl_easy_setopt(e, CURLOPT_URL, d->name);
	curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(e, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(e, CURLOPT_FOLLOWLOCATION, 1L);
	curl_easy_setopt(e, CURLOPT_MAXREDIRS, (long)COMPARE_REDIRECTS);
	curl_easy_setopt(e, CURLOPT_USERAGENT, cfg->user_agent);
	curl_easy_setopt(e, CURLOPT_ACCEPT_ENCODING, "");
	curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, cfg->connect_timeout_ms);
	curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, cfg->timeout_ms);
	curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(e, CURLOPT_ERRORBUFFER, errbuf);
	curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(e, CURLOPT_WRITEDATA, &d->raw);
	if (resolve != NULL)
		curl_easy_setopt(e, CURLOPT_RESOLVE, resolve);
	code = curl_easy_perform(e);
	curl_easy_getinfo(e, CURLINFO_RESPONSE_CODE, &status);
	if (code != CURLE_OK) {
		snprintf(err, errsz, "%s: %s", d->name,
		    errbuf[0] != '\0' ? errbuf : curl_easy_strerror(code));
		goto out;
	}
	if (status < 200 || status >= 300) {
		snprintf(err, errsz, "%s: HTTP status %ld", d->name, status);
		goto out;
	}
	if (curl_easy_getinfo(e, CURLINFO_CONTENT_TYPE, &ct) == CURLE_OK &&
	    ct != NULL)
		snprintf(d->ctype, sizeof(d->ctype), "%s", ct);
	rc = 0;
out:
	curl_slist_free_all(resolve);
	curl_easy_cleanup(e);
	return rc;
}

static int
read_path(struct doc *d, char *err, size_t errsz)
{
	int rc = buf_read_file(&d->raw, d->name, 0);

	if (rc == BUF_OK)
		return 0;
	if (rc == BUF_FULL)
		snprintf(err, errsz, "%s: larger than %zu bytes", d->name,
		    d->raw.limit);
	else
		snprintf(err, errsz, "%s: %s", d->name, rc == BUF_NOMEM
		    ? "out of memory" : "cannot read");
	return 1;
}

/* Read or fetch d, extract its text and fingerprint it as the crawl would. */
static int
load(const struct config *cfg, const struct dedup *dd, struct doc *d,
    char *err, size_t errsz)
{
	struct extract_opts eo;
	struct tdw_fields tf, *fields = NULL;
	const char *why = NULL, *text, *near, *url = NULL;
	char charset[64];
	size_t len, near_len;
	int use_main = strcmp(cfg->near_text, "main") == 0;

	if (strncmp(d->name, "http://", 7) == 0 ||
	    strncmp(d->name, "https://", 8) == 0) {
		if (fetch_url(cfg, d, err, errsz) != 0)
			return 1;
		url = d->name;
	} else if (read_path(d, err, errsz) != 0) {
		return 1;
	}
	text = d->raw.data != NULL ? d->raw.data : "";
	len = near_len = d->raw.len;
	near = text;
	d->html = extract_is_html(d->ctype[0] != '\0' ? d->ctype : NULL, text,
	    len);
	if (d->html) {
		extract_charset_of(d->ctype, charset, sizeof(charset));
		eo.charset = charset[0] != '\0' ? charset : NULL;
		eo.max_text = (size_t)cfg->max_text;
		eo.max_links = 1;
		if (extract_html(text, len, url, &eo, &d->ex, &why) != 0) {
			snprintf(err, errsz, "%s: %s", d->name, why);
			d->html = 0;
			return 1;
		}
		text = d->ex.text;
		len = d->ex.text_len;
		near = use_main ? d->ex.main_text : d->ex.text;
		near_len = use_main ? d->ex.main_len : d->ex.text_len;
		/* The fields the crawl weights TDW tokens by. */
		memset(&tf, 0, sizeof(tf));
		tf.url = url;
		tf.title = d->ex.title;
		tf.headings = d->ex.headings;
		tf.anchors_same = d->ex.anchors_same;
		tf.anchors_other = d->ex.anchors_other;
		tf.keywords = d->ex.keywords;
		tf.description = d->ex.description;
		fields = &tf;
	}
	if (dedup_fingerprint_page(dd, text, len, near, near_len, fields,
	    &d->fp) != 0) {
		snprintf(err, errsz, "%s: cannot fingerprint", d->name);
		return 1;
	}
	return 0;
}

static void
print_doc(FILE *out, const char *label, const struct doc *d)
{
	fprintf(out, "%s: %s\n   %s, %zu bytes", label, d->name,
	    d->html ? "HTML" : "plain text", d->raw.len);
	if (d->html)
		fprintf(out, ", text %zu bytes, main text %zu bytes",
		    d->ex.text_len, d->ex.main_len);
	fprintf(out, "\n");
}

int
compare_run(const struct config *cfg, const char *a, const char *b,
    FILE *out, char *err, size_t errsz)
{
	struct dedup_config dc;
	struct dedup_match m[4 * DEDUP_MAX_PER_METHOD];
	struct dedup *dd;
	struct doc da, db;
	enum dedup_verdict v;
	size_t nm;
	int rc = 1, dist, score;

	memset(&da, 0, sizeof(da));
	memset(&db, 0, sizeof(db));
	da.name = a;
	db.name = b;
	buf_init(&da.raw, (size_t)cfg->max_body);
	buf_init(&db.raw, (size_t)cfg->max_body);
	config_dedup(cfg, &dc);
	if ((dd = dedup_new(&dc)) == NULL) {
		snprintf(err, errsz, "bad dedup settings or out of memory");
		goto out;
	}
	if (load(cfg, dd, &da, err, errsz) != 0 ||
	    load(cfg, dd, &db, err, errsz) != 0)
		goto out;
	if (dedup_add(dd, &da.fp, 1) != 0) {
		snprintf(err, errsz, "out of memory");
		goto out;
	}
	v = dedup_check(dd, &db.fp, m, sizeof(m) / sizeof(m[0]), &nm);
	print_doc(out, "A", &da);
	print_doc(out, "B", &db);
	fprintf(out, "near methods read: %s text\n", cfg->near_text);
	fprintf(out, "md5:     %s\n", strcmp(da.fp.md5, db.fp.md5) == 0
	    ? "equal texts" : "different texts");
	if (cfg->methods & DEDUP_SIMHASH) {
		dist = simhash_distance(da.fp.simhash, db.fp.simhash);
		fprintf(out, "simhash: distance %d of 64 bits, %.1f %% "
		    "(near when <= %d)\n", dist, simhash_percent(dist),
		    cfg->simhash_k);
	}
	if (cfg->methods & DEDUP_SSDEEP) {
		score = ssdeep_score(da.fp.ssdeep, db.fp.ssdeep);
		fprintf(out, "ssdeep:  score %d (near when >= %d)\n", score,
		    cfg->ssdeep_threshold);
	}
	if (cfg->methods & DEDUP_TDW)
		fprintf(out, "tdw:     weighted overlap %.1f %% of %u and %u "
		    "tokens (near when >= %d %%)\n",
		    tdw_percent(tdw_overlap(&da.fp.tdw, &db.fp.tdw)),
		    (unsigned)da.fp.tdw.n, (unsigned)db.fp.tdw.n,
		    cfg->tdw_threshold);
	fprintf(out, "verdict: %s (B after A, rule %s)\n",
	    dedup_verdict_name(v), cfg->near_rule);
	rc = 0;
out:
	extract_result_free(&da.ex);
	extract_result_free(&db.ex);
	buf_free(&da.raw);
	buf_free(&db.raw);
	dedup_free(dd);
	return rc;
}
