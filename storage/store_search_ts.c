/*
 * store_search_ts: an FTS5 query as a PostgreSQL tsquery
 * (store_search_tsquery), so that `nearcrawl search` takes one syntax on
 * both engines.
 *
 * The grammar is FTS5's (SQLite's fts5parse.y), precedence lowest first:
 *
 *   or     := and (OR and)*
 *   and    := not (AND not)*
 *   not    := unit (NOT unit)*
 *   unit   := [colspec ':'] '(' or ')' | near+      (near+: implicit AND)
 *   near   := [colspec ':'] (NEAR '(' phrase+ [',' N] ')' | phrase)
 *   phrase := ['^'] string ['*'] ('+' string ['*'])*
 *   colspec:= ['-'] (column | '{' column+ '}')
 *
 * A string is a bareword (ASCII letters and digits, '_', bytes above
 * 0x7f) or a "double-quoted" one ("" is a quote); AND, OR, NOT and NEAR
 * are operators only in capitals. A string's words are split where FTS5's
 * tokenizer splits ASCII (at anything but a letter or digit); PostgreSQL's
 * parser splits what else it sees, a quoted operand of several words
 * becoming a phrase there as here.
 */
#include "storage/store_search.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define COL_TITLE 1
#define COL_BODY 2
#define COL_ALL (COL_TITLE | COL_BODY)
#define DEPTH_MAX 100 /* nested parentheses */

struct ts {
	const char *p;    /* next byte of the query */
	char *out;        /* the tsquery so far */
	size_t o, cap;
	char *why;        /* why it is refused */
	size_t whysz;
	char *s;          /* a string's text, its quotes undone */
	size_t ssz;       /* bytes at s: the query's length and one */
	int failed;       /* why is set */
	int depth;        /* parentheses open */
};

static int
fail(struct ts *t, const char *fmt, ...)
{
	va_list ap;

	if (!t->failed) {
		va_start(ap, fmt);
		vsnprintf(t->why, t->whysz, fmt, ap);
		va_end(ap);
		t->failed = 1;
	}
	return -1;
}

/* FTS5's words for a syntax error at the current place. */
static int
syntax(struct ts *t)
{
	size_t n = strcspn(t->p, " \t\r\n");

	return fail(t, "fts5: syntax error near \"%.*s\"", (int)(n > 40 ? 40 :
	    n), t->p);
}

static int
put(struct ts *t, const char *s, size_t n)
{
	if (n >= t->cap - t->o)
		return fail(t, "the query is too long");
	memcpy(t->out + t->o, s, n);
	t->o += n;
	t->out[t->o] = '\0';
	return 0;
}

static int
puts_(struct ts *t, const char *s)
{
	return put(t, s, strlen(s));
}

static void
blanks(struct ts *t)
{
	while (*t->p == ' ' || *t->p == '\t' || *t->p == '\r' ||
	    *t->p == '\n')
		t->p++;
}

/* A byte of a bareword. */
static int
bare(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '_' || c >= 0x80 || c == 0x1a;
}

/* A byte of a word inside a string: where the tokenizer does not split. */
static int
wordbyte(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c >= 0x80;
}

/* The bareword at p: its length, 0 when there is none. */
static size_t
bareword(const char *p)
{
	size_t n = 0;

	while (bare((unsigned char)p[n]))
		n++;
	return n;
}

/* Whether the next bareword is operator op, in capitals. */
static int
is_op(struct ts *t, const char *op)
{
	size_t n = strlen(op);

	blanks(t);
	return strncmp(t->p, op, n) == 0 && bareword(t->p) == n;
}

/* The string at t->p (a bareword or a quoted one) into t->s, its quotes
 * undone. 0, or -1. */
static int
string(struct ts *t)
{
	char *s = t->s;
	size_t n = 0, sz = t->ssz;

	blanks(t);
	if (*t->p == '"') {
		for (t->p++;; t->p++) {
			if (*t->p == '\0')
				return fail(t, "unterminated string");
			if (*t->p == '"' && t->p[1] != '"')
				break;
			if (*t->p == '"')
				t->p++;
			if (n + 1 >= sz)
				return fail(t, "the query is too long");
			s[n++] = *t->p;
		}
		t->p++;
	} else {
		if ((n = bareword(t->p)) == 0)
			return syntax(t);
		if (n >= sz)
			return fail(t, "the query is too long");
		memcpy(s, t->p, n);
		t->p += n;
	}
	s[n] = '\0';
	return 0;
}

/* ":A", ":D" or nothing for the columns cols, after a word's ":*". */
static int
label(struct ts *t, int cols, int prefix)
{
	if (prefix && puts_(t, ":*") != 0)
		return -1;
	if (cols == COL_ALL)
		return 0;
	return puts_(t, cols == COL_TITLE ? (prefix ? "A" : ":A") :
	    (prefix ? "D" : ":D"));
}

/* Whether s holds a word byte. */
static int
has_word(const char *s)
{
	for (; *s != '\0'; s++)
		if (wordbyte((unsigned char)*s))
			return 1;
	return 0;
}

/*
 * A phrase: its words joined by <->, each quoted and labelled with cols,
 * a string's last word a prefix when a '*' follows the string.
 */
static int
phrase(struct ts *t, int cols)
{
	const char *s = t->s;
	size_t i, n, words = 0, start = t->o;
	int prefix;

	blanks(t);
	if (*t->p == '^')
		return fail(t, "^ (a phrase at the start of a column) is not "
		    "supported on PostgreSQL");
	if (put(t, "(", 1) != 0)
		return -1;
	for (;;) {
		if (string(t) != 0)
			return -1;
		blanks(t);
		prefix = *t->p == '*';
		if (prefix)
			t->p++;
		for (i = 0; s[i] != '\0';) {
			if (!wordbyte((unsigned char)s[i])) {
				i++;
				continue;
			}
			for (n = 0; wordbyte((unsigned char)s[i + n]); n++)
				;
			if ((words++ > 0 && puts_(t, " <-> ") != 0) ||
			    put(t, "'", 1) != 0 || put(t, s + i, n) != 0 ||
			    put(t, "'", 1) != 0)
				return -1;
			i += n;
			if (label(t, cols, prefix && !has_word(s + i)) != 0)
				return -1;
		}
		blanks(t);
		if (*t->p != '+')
			break;
		t->p++;
	}
	if (words == 0) {
		t->o = start;
		return fail(t, "a phrase without words (\"\") is not supported "
		    "on PostgreSQL");
	}
	return put(t, ")", 1);
}

/*
 * A column filter, when one starts here: *cols narrowed to it, 1; 0 when
 * none starts here (nothing read); -1 on an error.
 */
static int
colspec(struct ts *t, int *cols)
{
	const char *p, *save = t->p;
	int neg = 0, set = 0, c;
	size_t n;

	blanks(t);
	p = t->p;
	if (*p == '-') {
		neg = 1;
		p++;
		while (*p == ' ' || *p == '\t')
			p++;
	}
	if (*p == '{') {
		for (p++;;) {
			while (*p == ' ' || *p == '\t')
				p++;
			if (*p == '}')
				break;
			if ((n = bareword(p)) == 0) {
				t->p = p;
				return syntax(t);
			}
			if (n == 5 && strncasecmp(p, "title", 5) == 0)
				c = COL_TITLE;
			else if (n == 4 && strncasecmp(p, "body", 4) == 0)
				c = COL_BODY;
			else
				return fail(t, "no such column: %.*s",
				    (int)(n > 40 ? 40 : n), p);
			set |= c;
			p += n;
		}
		p++;
	} else {
		n = bareword(p);
		/* A word followed by ':' (or after '-'): a column name. */
		if (n == 0 || (!neg && p[n + strspn(p + n, " \t")] != ':'))
			return neg ? syntax(t) : 0;
		if (n == 5 && strncasecmp(p, "title", 5) == 0)
			set = COL_TITLE;
		else if (n == 4 && strncasecmp(p, "body", 4) == 0)
			set = COL_BODY;
		else
			return fail(t, "no such column: %.*s",
			    (int)(n > 40 ? 40 : n), p);
		p += n;
	}
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p != ':') {
		t->p = save;
		return syntax(t);
	}
	t->p = p + 1;
	*cols &= neg ? COL_ALL & ~set : set;
	if (*cols == 0)
		return fail(t, "the column filters leave no column");
	return 1;
}

static int or_expr(struct ts *t, int cols);

/* NEAR(phrase phrase ... [, N]): its phrases ANDed (PostgreSQL has no
 * "within N words"). */
static int
near(struct ts *t, int cols)
{
	int n = 0;

	t->p += 4;
	blanks(t);
	if (*t->p != '(')
		return syntax(t);
	t->p++;
	if (put(t, "(", 1) != 0)
		return -1;
	for (;;) {
		blanks(t);
		if (*t->p == ')' || *t->p == ',')
			break;
		if ((n++ > 0 && puts_(t, " & ") != 0) || phrase(t, cols) != 0)
			return -1;
	}
	if (n == 0)
		return syntax(t);
	if (*t->p == ',') {
		t->p++;
		blanks(t);
		if (*t->p < '0' || *t->p > '9')
			return syntax(t);
		while (*t->p >= '0' && *t->p <= '9')
			t->p++;
		blanks(t);
	}
	if (*t->p != ')')
		return syntax(t);
	t->p++;
	return put(t, ")", 1);
}

/* Whether a near item (a phrase or NEAR group, a column filter first)
 * starts here, rather than an operator, a parenthesis or the end. */
static int
item_starts(struct ts *t)
{
	blanks(t);
	if (*t->p == '\0' || *t->p == ')' || *t->p == '(' || *t->p == ',')
		return 0;
	return !is_op(t, "AND") && !is_op(t, "OR") && !is_op(t, "NOT");
}

/* A unit: a parenthesised expression (a column filter first), or one or
 * more near items ANDed. */
static int
unit(struct ts *t, int cols)
{
	const char *save;
	int c = cols, n = 0, rc;

	blanks(t);
	save = t->p;
	if ((rc = colspec(t, &c)) < 0)
		return -1;
	blanks(t);
	if (*t->p == '(') {
		if (++t->depth > DEPTH_MAX)
			return fail(t, "parentheses nested too deep");
		t->p++;
		if (put(t, "(", 1) != 0 || or_expr(t, c) != 0)
			return -1;
		blanks(t);
		if (*t->p != ')')
			return syntax(t);
		t->p++;
		t->depth--;
		return put(t, ")", 1);
	}
	t->p = save;
	if (put(t, "(", 1) != 0)
		return -1;
	while (item_starts(t)) {
		c = cols;
		if (colspec(t, &c) < 0 ||
		    (n++ > 0 && puts_(t, " & ") != 0))
			return -1;
		if (is_op(t, "NEAR") && t->p[4 + strspn(t->p + 4, " \t")] ==
		    '(')
			rc = near(t, c);
		else
			rc = phrase(t, c);
		if (rc != 0)
			return -1;
	}
	if (n == 0)
		return syntax(t);
	return put(t, ")", 1);
}

/* Wrap what was written since start in parentheses. 0, or -1. */
static int
wrap(struct ts *t, size_t start)
{
	if (t->o + 2 >= t->cap)
		return fail(t, "the query is too long");
	memmove(t->out + start + 1, t->out + start, t->o - start);
	t->out[start] = '(';
	t->o++;
	t->out[t->o++] = ')';
	t->out[t->o] = '\0';
	return 0;
}

/* a NOT b NOT c: ((a & !b) & !c). */
static int
not_expr(struct ts *t, int cols)
{
	size_t start = t->o;

	if (unit(t, cols) != 0)
		return -1;
	while (is_op(t, "NOT")) {
		t->p += 3;
		if (put(t, " & !", 4) != 0 || unit(t, cols) != 0 ||
		    wrap(t, start) != 0)
			return -1;
	}
	return 0;
}

/* One level of a left-associative binary operator. */
static int
binary(struct ts *t, int cols, const char *op, const char *as,
    int (*next)(struct ts *, int))
{
	if (next(t, cols) != 0)
		return -1;
	while (is_op(t, op)) {
		t->p += strlen(op);
		if (puts_(t, as) != 0 || next(t, cols) != 0)
			return -1;
	}
	return 0;
}

static int
and_expr(struct ts *t, int cols)
{
	return binary(t, cols, "AND", " & ", not_expr);
}

static int
or_expr(struct ts *t, int cols)
{
	size_t start = t->o;

	/* Wrapped: an OR inside an AND keeps its grouping. */
	if (binary(t, cols, "OR", " | ", and_expr) != 0)
		return -1;
	return wrap(t, start);
}

int
store_search_tsquery(const char *query, char *out, size_t outsz, char *why,
    size_t whysz)
{
	struct ts t;
	int rc = -1;

	memset(&t, 0, sizeof(t));
	t.p = query;
	t.out = out;
	t.cap = outsz;
	t.why = why;
	t.whysz = whysz;
	t.ssz = strlen(query) + 1;
	if (outsz == 0)
		return fail(&t, "no room");
	out[0] = '\0';
	if ((t.s = malloc(t.ssz)) == NULL)
		return fail(&t, "out of memory");
	blanks(&t);
	if (*t.p == '\0')
		fail(&t, "an empty query");
	else if (or_expr(&t, COL_ALL) == 0) {
		blanks(&t);
		rc = *t.p == '\0' ? 0 : syntax(&t);
	}
	free(t.s);
	return rc;
}
