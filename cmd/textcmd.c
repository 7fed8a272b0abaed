#include "cmd/textcmd.h"

#include <string.h>

#include "cmd/docload.h"
#include "digest/digest.h"
#include "util/buf.h"

int
textcmd_print(FILE *out, const char *text, size_t len)
{
	if (len == 0)
		return 0;
	if (fwrite(text, 1, len, out) != len || putc('\n', out) == EOF)
		return -1;
	return fflush(out) == 0 ? 0 : -1;
}

int
textcmd_run(const struct config *cfg, const char *name,
    enum textcmd_which which, const char *charset, FILE *out, char *err,
    size_t errsz)
{
	struct dedup_config dc;
	struct digest_opts o;
	struct digest g;
	struct dedup *dd = NULL;
	struct buf raw;
	const char *why = NULL;
	char ctype[128], cs[64];
	int rc = 1;

	memset(&g, 0, sizeof(g));
	buf_init(&raw, (size_t)cfg->max_body);
	if (docload_read(cfg, name, &raw, ctype, sizeof(ctype), err,
	    errsz) != 0)
		goto out;
	/* A file is taken for HTML whatever it starts with: that is what
	 * the command is for. A URL says what it serves. */
	if (ctype[0] != '\0' && !extract_is_html(ctype, NULL, 0)) {
		snprintf(err, errsz, "%s: not HTML (%s)", name, ctype);
		goto out;
	}
	/* The crawl's settings choose the near text; only MD5 is computed
	 * besides the shingles that choice needs. */
	config_dedup(cfg, &dc);
	dc.methods = DEDUP_MD5;
	dc.rule = DEDUP_RULE_ANY;
	if ((dd = dedup_new(&dc)) == NULL) {
		snprintf(err, errsz, "out of memory");
		goto out;
	}
	extract_charset_of(ctype, cs, sizeof(cs));
	o.charset = cs[0] != '\0' ? cs : charset;
	o.max_text = (size_t)cfg->max_text;
	o.max_links = 1;
	o.use_main = which == TEXTCMD_MAIN;
	if (digest_page(dd, &o, raw.data, raw.len, 1,
	    docload_is_url(name) ? name : NULL, &g, &why) != 0) {
		snprintf(err, errsz, "%s: %s", name, why);
		goto out;
	}
	if (which == TEXTCMD_MAIN && !g.near_main && g.ex.main_len > 0 &&
	    g.ex.main_len < g.ex.text_len)
		fprintf(stderr, "nearcrawl: text: the main text has %zu "
		    "distinct shingles, under the evidence floor of %d "
		    "(--min-shingles): the near methods read the body text, "
		    "printed here\n", g.main_shingles, cfg->min_shingles);
	else if (which == TEXTCMD_MAIN && g.near_main &&
	    g.sh.distinct < (size_t)cfg->min_shingles)
		fprintf(stderr, "nearcrawl: text: the main text has %zu "
		    "distinct shingles, under the evidence floor of %d "
		    "(--min-shingles): too little to judge near; the page can "
		    "only be exact or unique\n", g.sh.distinct,
		    cfg->min_shingles);
	if (textcmd_print(out, which == TEXTCMD_MAIN ? g.near : g.text,
	    which == TEXTCMD_MAIN ? g.near_len : g.text_len) != 0) {
		snprintf(err, errsz, "cannot write the text");
		goto out;
	}
	rc = 0;
out:
	digest_free(&g);
	dedup_free(dd);
	buf_free(&raw);
	return rc;
}
