/*
 * report_out: the report's shared helpers (cmd/report_out.h): messages,
 * untrusted text, numbers in words and output files.
 */
#include "cmd/report_out.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "storage/query.h"
#include "util/err.h"
#include "util/esc.h"
#include "util/esc.h"

/* err_set into the caller's buffer. */
int
report_out_err(struct rep *r, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	code = err_vset(r->err, r->errsz, code, fmt, ap);
	va_end(ap);
	return code;
}

int
report_out_dbfail(struct rep *r)
{
	return store_conn_fail(r->c, r->err, r->errsz, REPORT_RUNTIME,
	    REPORT_BADDB);
}

int
report_out_oom(struct rep *r)
{
	return report_out_err(r, REPORT_RUNTIME, "out of memory");
}

/*
 * Untrusted text (anything read from the database) goes out through esc.h,
 * in every file: a terminal obeys control bytes wherever they come from,
 * and a CSV file is read with cat as often as with a spreadsheet. Stored
 * URLs are normalised and never hold such bytes; only a tampered database
 * could, so escaping never changes an honest report.
 */

/* Untrusted text for a human. */
void
report_out_clean(FILE *f, const char *s)
{
	esc_fputs(s, f);
}


/* Untrusted text inside a single-quoted gnuplot string: a quote is doubled;
 * a newline, which would end the command, is escaped like any control. */
void
report_out_gpstr(FILE *f, const char *s)
{
	putc('\'', f);
	esc_fputq(s, '\'', f);
	putc('\'', f);
}

/* n with thousands separators, as people read counts: 4,000. */
const char *
report_out_grouped(int64_t n, char *buf, size_t bufsz)
{
	char digits[32];
	size_t len, i, o = 0;
	int neg = n < 0;

	snprintf(digits, sizeof(digits), "%" PRIu64,
	    neg ? (uint64_t)0 - (uint64_t)n : (uint64_t)n);
	len = strlen(digits);
	if (bufsz < len + len / 3 + 2)
		return "?";
	if (neg)
		buf[o++] = '-';
	for (i = 0; i < len; i++) {
		if (i > 0 && (len - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = digits[i];
	}
	buf[o] = '\0';
	return buf;
}

double
report_out_percent(int64_t part, int64_t whole)
{
	return whole > 0 ? 100.0 * (double)part / (double)whole : 0.0;
}

int
report_out_open(struct rep *r, struct out *o, const char *name)
{
	int fd, e;

	o->name = name;
	/*
	 * O_NOFOLLOW: a symbolic link left in the directory must not send
	 * the report to a file elsewhere.
	 */
	fd = openat(r->dfd, name,
	    O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd == -1)
		return report_out_err(r, REPORT_RUNTIME, "%s/%s: %s", r->dir, name,
		    errno == ELOOP ? "is a symbolic link, not followed"
		                   : strerror(errno));
	if ((o->f = fdopen(fd, "w")) == NULL) {
		e = errno;
		close(fd);
		return report_out_err(
		    r, REPORT_RUNTIME, "%s/%s: %s", r->dir, name, strerror(e));
	}
	return 0;
}

/* Close o; a write error anywhere in the file is reported here. */
int
report_out_close(struct rep *r, struct out *o)
{
	int bad;

	if (o->f == NULL)
		return 0;
	bad = ferror(o->f);
	if (fclose(o->f) != 0 && !bad)
		bad = errno != 0 ? errno : EIO;
	else if (bad)
		bad = EIO;
	o->f = NULL;
	if (bad)
		return report_out_err(r, REPORT_RUNTIME, "%s/%s: cannot write: %s",
		    r->dir, o->name, strerror(bad));
	return 0;
}

/* Close o on a path that already failed: its own error is not wanted. */
void
report_out_abort(struct out *o)
{
	if (o->f != NULL)
		fclose(o->f);
	o->f = NULL;
}
int
report_out_add_pt(struct growth_series *s, double x, int64_t unique,
    int64_t exact, int64_t near)
{
	struct growth_pt *p;
	size_t cap;

	if (s->n == s->cap) {
		cap = s->cap > 0 ? 2 * s->cap : 64;
		if ((p = realloc(s->pt, cap * sizeof(*p))) == NULL)
			return -1;
		s->pt = p;
		s->cap = cap;
	}
	p = &s->pt[s->n++];
	p->x = x;
	p->unique = unique;
	p->exact = exact;
	p->near = near;
	return 0;
}

/*
 * How often the canonical a cluster's pages declare (rel=canonical) is the
 * page the crawl keeps for the cluster, in words; into out.
 */
void
report_canonical_words(const struct rep *r, char *out, size_t outsz)
{
	const struct store_canonical_counts *n = &r->canon;

	if (n->declared == 0)
		snprintf(out, outsz, "no duplicate cluster declares one of its "
		    "own pages canonical (rel=canonical; counted once "
		    "`nearcrawl rank` has run).");
	else
		snprintf(out, outsz, "%lld duplicate cluster%s one of %s "
		    "own pages canonical (rel=canonical): in %lld the "
		    "declared page is the one the crawl keeps, in %lld it is "
		    "not.", (long long)n->declared,
		    n->declared == 1 ? " declares" : "s declare",
		    n->declared == 1 ? "its" : "their", (long long)n->agree,
		    (long long)n->disagree);
}

void
report_out_csv(FILE *f, const char *s)
{
	if (s == NULL)
		s = "";
	if (strpbrk(s, ",\"") == NULL) {
		esc_fputs(s, f);
		return;
	}
	putc('"', f);
	esc_fputq(s, '"', f);
	putc('"', f);
}
