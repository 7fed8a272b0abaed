/*
 * check_say: how `nearcrawl check` says what it finds (cmd/check_int.h):
 * a line a problem, "KIND: what", at most CHECK_LINES of a kind, and
 * notes.
 */
#include "cmd/check_int.h"

#include <stdarg.h>
#include <stdio.h>

#include "util/esc.h"

static const char *const kind_name[CHECK_KINDS] = {
	[CHECK_INTEGRITY] = "integrity",
	[CHECK_DUPLICATES] = "duplicates",
	[CHECK_SEQ] = "seq",
	[CHECK_FRONTIER] = "frontier",
	[CHECK_WARC] = "warc",
	[CHECK_CDXJ] = "cdxj",
	[CHECK_SEARCH] = "search",
};

const char *
check_kind_name(enum check_kind k)
{
	return kind_name[k];
}

void
check_problem(struct check *ck, enum check_kind k, const char *fmt, ...)
{
	char line[2048];
	va_list ap;

	if (++ck->found[k] > CHECK_LINES)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	fprintf(ck->out, "%s: ", kind_name[k]);
	esc_fputs(line, ck->out);
	putc('\n', ck->out);
}

void
check_more(struct check *ck, enum check_kind k)
{
	if (ck->found[k] > CHECK_LINES)
		fprintf(ck->out, "%s: ... and %lld more\n", kind_name[k],
		    (long long)(ck->found[k] - CHECK_LINES));
}

void
check_note(struct check *ck, const char *fmt, ...)
{
	char line[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	fputs("note: ", ck->out);
	esc_fputs(line, ck->out);
	putc('\n', ck->out);
}
