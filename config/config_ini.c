/*
 * config_ini: loading settings from an INI file (config_load_ini) through
 * inih, with the line of every problem in its message; see config.h.
 */
#include "config/config_int.h"

#include <errno.h>
#include <ini.h>
#include <stdarg.h>
#include <stdbool.h>
#include <string.h>

#include "util/err.h"

/* Longest INI line: long enough for any sane URL. */
#define INI_LINE_MAX 8192

/* INI loading: inih calls our reader once per line, so counting reads gives
 * the line each handler call is about (this inih has no line argument). */
struct ini_state {
	struct config *c; /* where settings go */
	FILE *fp;         /* the open file */
	int line;         /* lines read so far */
	int err_line;     /* line of the first problem we found, 0: none */
	char msg[256];    /* that problem, without "FILE:LINE: " */
};

static void
ini_fail(struct ini_state *st, const char *fmt, ...)
{
	va_list ap;

	if (st->err_line != 0)
		return;
	st->err_line = st->line;
	va_start(ap, fmt);
	err_vset(st->msg, sizeof(st->msg), 0, fmt, ap);
	va_end(ap);
}

/*
 * One line for inih, byte by byte: fgets would hide a NUL byte (the line
 * would look cut short, and its tail be taken for the next line). A line
 * that is too long or holds a NUL is reported and handed over blank, so
 * no part of it is ever read as a setting.
 */
static char *
ini_read_line(char *str, int num, void *stream)
{
	struct ini_state *st = stream;
	size_t len = 0, total = 0, max = (size_t)num - 2;
	const char *p, *end;
	int ch, nul = 0;

	if ((ch = getc(st->fp)) == EOF)
		return NULL;
	st->line++;
	for (; ch != EOF && ch != '\n'; ch = getc(st->fp), total++) {
		if (ch == '\0')
			nul = 1;
		if (total < max)
			str[len++] = (char)ch;
	}
	if (nul || total > max) {
		if (nul)
			ini_fail(st, "NUL byte: not a text file");
		else
			ini_fail(st, "line longer than %d bytes", num - 2);
		len = 0;
	}
	str[len++] = '\n';
	str[len] = '\0';
	if (len == 1)
		return str;
	/* inih only tells us about sections that hold keys; an unknown empty
	 * one is still a typo worth reporting. */
	p = str + strspn(str, " \t");
	if (*p == '[' && (end = strchr(p, ']')) != NULL &&
	    !config_section_known(p + 1, (size_t)(end - p - 1)))
		ini_fail(st, "unknown section [%.*s]", (int)(end - p - 1),
		    p + 1);
	return str;
}

static int
ini_on_key(void *user, const char *section, const char *name,
    const char *value)
{
	struct ini_state *st = user;
	const struct opt *o;
	char msg[200];

	if (name == NULL || value == NULL)
		return 1;
	if (*section == '\0') {
		ini_fail(st, "key %s is outside any section", name);
		return 0;
	}
	if (!config_section_known(section, strlen(section))) {
		ini_fail(st, "unknown section [%s]", section);
		return 0;
	}
	o = config_opt_by_key(section, name);
	if (o == NULL) {
		ini_fail(st, "unknown key [%s] %s", section, name);
		return 0;
	}
	if (config_opt_set(st->c, o, value, msg, sizeof(msg)) == -1) {
		ini_fail(st, "[%s] %s: %s", o->pub.section, o->pub.key, msg);
		return 0;
	}
	config_mark_given(st->c, o);
	return 1;
}

int
config_load_ini(struct config *c, const char *path, char *err, size_t errsz)
{
	struct ini_state st;
	bool multiline, use_stack, realloc_ok, no_value;
	int max_line, initial_alloc, r, ret = -1;

	memset(&st, 0, sizeof(st));
	st.c = c;
	st.fp = fopen(path, "r");
	if (st.fp == NULL)
		return err_set(err, errsz, -1, "%s: cannot open: %s", path,
		    strerror(errno));

	/* inih's defaults would read an indented key as a continuation of
	 * the key above it and cut lines at 200 bytes, shorter than many
	 * URLs; set ours for this call only. */
	multiline = ini_allow_multiline;
	use_stack = ini_use_stack;
	realloc_ok = ini_allow_realloc;
	no_value = ini_allow_no_value;
	max_line = ini_max_line;
	initial_alloc = ini_initial_alloc;
	ini_allow_multiline = false;
	ini_use_stack = false;
	ini_allow_realloc = false;
	ini_allow_no_value = false;
	ini_max_line = INI_LINE_MAX;
	ini_initial_alloc = INI_LINE_MAX;

	r = ini_parse_stream(ini_read_line, &st, ini_on_key, &st);

	ini_allow_multiline = multiline;
	ini_use_stack = use_stack;
	ini_allow_realloc = realloc_ok;
	ini_allow_no_value = no_value;
	ini_max_line = max_line;
	ini_initial_alloc = initial_alloc;

	if (ferror(st.fp)) {
		err_set(err, errsz, -1, "%s: cannot read: %s", path,
		    strerror(errno));
		goto fail;
	}
	if (r == -2) {
		err_set(err, errsz, -1, "%s: out of memory", path);
		goto fail;
	}
	/* inih reports the first bad line; when we found nothing there, it
	 * is inih's own complaint: a line that is no key, section or
	 * comment. */
	if (r > 0 && (st.err_line == 0 || r < st.err_line)) {
		err_set(err, errsz, -1, "%s:%d: syntax error", path, r);
		goto fail;
	}
	if (st.err_line != 0) {
		err_set(err, errsz, -1, "%s:%d: %s", path, st.err_line,
		    st.msg);
		goto fail;
	}
	ret = 0;
fail:
	fclose(st.fp);
	return ret;
}
