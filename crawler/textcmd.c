#include "textcmd.h"

#include <string.h>

#include "buf.h"
#include "docload.h"

const char *
textcmd_choose(const struct extract_result *r, enum textcmd_which which,
    size_t *len)
{
	if (which == TEXTCMD_BODY) {
		*len = r->text_len;
		return r->text;
	}
	*len = r->main_len;
	return r->main_text;
}

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
	struct extract_opts eo;
	struct extract_result ex;
	struct buf raw;
	const char *why = NULL, *text;
	char ctype[128], cs[64];
	size_t len;
	int rc = 1;

	memset(&ex, 0, sizeof(ex));
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
	extract_charset_of(ctype, cs, sizeof(cs));
	eo.charset = cs[0] != '\0' ? cs : charset;
	eo.max_text = (size_t)cfg->max_text;
	eo.max_links = 1;
	if (extract_html(raw.data, raw.len, docload_is_url(name) ? name : NULL,
	    &eo, &ex, &why) != 0) {
		snprintf(err, errsz, "%s: %s", name, why);
		goto out;
	}
	text = textcmd_choose(&ex, which, &len);
	if (textcmd_print(out, text, len) != 0) {
		snprintf(err, errsz, "cannot write the text");
		goto out;
	}
	rc = 0;
out:
	extract_result_free(&ex);
	buf_free(&raw);
	return rc;
}
