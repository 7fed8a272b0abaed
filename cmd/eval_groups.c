/*
 * eval_groups: scripts/eval/eval-labels.sh's scoring, in C, so `nearcrawl eval
 * -d` and the script give the same figures on the same database (a test
 * holds them to it). Label paths sit in hash maps; the "*" patterns are
 * looked up by the path's prefixes of each pattern length, longest first,
 * so a page costs a few look-ups however many labels there are.
 */
#include "cmd/eval_groups.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/eval_util.h"
#include "storage/query.h"
#include "storage/store.h"
#include "util/err.h"
#include "util/strmap.h"

/* A group's first judged page: its seq, or none yet. */
struct first {
	int seen;      /* a judged page of the group came */
	int null_seq;  /* ... and its seq was NULL */
	int64_t seq;   /* ... else this */
};

struct eg {
	const struct eval_opts *o;
	char *err;
	size_t errsz;
	struct strmap *labels;   /* label path -> label line + 1 */
	struct strmap *pattern;  /* pattern prefix -> label line + 1 */
	struct strmap *group;    /* group name -> group + 1 */
	struct strmap *unlab;    /* unlabelled path -> group + 1 */
	size_t *plen;            /* distinct pattern lengths, longest first */
	size_t nplen;
	size_t *line_group;      /* per label line: its group */
	unsigned char *reached;  /* per label line: a judged page matched */
	size_t nline, capline;
	size_t nlabel_groups;    /* groups named in the labels */
	size_t ngroups;          /* and the unlabelled ones after them */
	struct first *first;     /* per group */
	size_t capgroup;
	char *meth[EVAL_MAX_METHODS]; /* methods in the duplicates table */
	size_t nmeth;
	size_t md5;              /* md5's index in meth, nmeth if absent */
	int64_t tp[EVAL_MAX_METHODS + 1], fp[EVAL_MAX_METHODS + 1],
	    fn[EVAL_MAX_METHODS + 1]; /* [0]: the crawl; [1 + i]: meth[i] */
	int64_t judged, unique, exact, near, unlabelled, lines_reached,
	    groups_reached, ignored;
	struct store_conn *c;    /* our read-only connection */
	char *path, *hpath;      /* read_pages' buffers */
	size_t pathsz;
};

static int
oom(struct eg *g)
{
	return err_set(g->err, g->errsz, EVAL_RUNTIME, "out of memory");
}

/* Room for group index n; -1 when out of memory. */
static int
grow_groups(struct eg *g, size_t n)
{
	struct first *f;
	size_t cap;

	if (n < g->capgroup)
		return 0;
	cap = g->capgroup ? 2 * g->capgroup : 1024;
	while (cap <= n)
		cap *= 2;
	if ((f = realloc(g->first, cap * sizeof(*f))) == NULL)
		return -1;
	memset(f + g->capgroup, 0, (cap - g->capgroup) * sizeof(*f));
	g->first = f;
	g->capgroup = cap;
	return 0;
}

/* Index of group name, added when new; -1 when out of memory. */
static long
group_of(struct eg *g, struct strmap *m, const char *name)
{
	void *v = strmap_get(m, name);

	if (v != NULL)
		return (long)((uintptr_t)v - 1);
	if (grow_groups(g, g->ngroups) != 0 ||
	    strmap_put(m, name, (void *)(uintptr_t)(g->ngroups + 1)) != 0)
		return -1;
	return (long)g->ngroups++;
}

static int
add_line(struct eg *g, size_t grp)
{
	size_t cap, *lg;
	unsigned char *r;

	if (g->nline == g->capline) {
		cap = g->capline ? 2 * g->capline : 1024;
		if ((lg = realloc(g->line_group, cap * sizeof(*lg))) == NULL)
			return -1;
		g->line_group = lg;
		if ((r = realloc(g->reached, cap)) == NULL)
			return -1;
		g->reached = r;
		g->capline = cap;
	}
	g->line_group[g->nline] = grp;
	g->reached[g->nline] = 0;
	g->nline++;
	return 0;
}

static int
add_plen(struct eg *g, size_t len)
{
	size_t i, *p;

	for (i = 0; i < g->nplen; i++)
		if (g->plen[i] == len)
			return 0;
	if ((p = realloc(g->plen, (g->nplen + 1) * sizeof(*p))) == NULL)
		return -1;
	g->plen = p;
	/* Kept longest first: the first prefix found is the longest. */
	for (i = g->nplen; i > 0 && p[i - 1] < len; i--)
		p[i] = p[i - 1];
	p[i] = len;
	g->nplen++;
	return 0;
}

/* One labels line: path<TAB>group<TAB>class[<TAB>...]. */
static int
label_line(struct eg *g, char *line, long ln)
{
	char *f[3], *p;
	size_t n = 0, len;
	long grp;
	int exists;

	len = strlen(line);
	while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		line[--len] = '\0';
	for (p = line; *p == ' ' || *p == '\t'; p++)
		;
	if (*p == '\0' || *p == '#')
		return 0;
	for (p = line; n < 3; n++) {
		f[n] = p;
		if ((p = strchr(p, '\t')) == NULL) {
			n++;
			break;
		}
		*p++ = '\0';
	}
	if (ln == 1 && strcmp(f[0], "path") == 0)
		return 0;
	if (n < 3 || f[0][0] == '\0' || f[1][0] == '\0' || f[2][0] == '\0') {
		g->ignored++;
		return 0;
	}
	exists = strmap_get(g->group, f[1]) != NULL;
	if ((grp = group_of(g, g->group, f[1])) < 0)
		return -1;
	if (!exists)
		g->nlabel_groups++;
	len = strlen(f[0]);
	if (f[0][len - 1] == '*') {
		f[0][len - 1] = '\0';
		/* Every pattern line counts; a repeated one cannot win. */
		if (strmap_get(g->pattern, f[0]) == NULL &&
		    (strmap_put(g->pattern, f[0], (void *)(uintptr_t)
		    (g->nline + 1)) != 0 || add_plen(g, len - 1) != 0))
			return -1;
		return add_line(g, (size_t)grp);
	}
	if (strmap_get(g->labels, f[0]) != NULL)
		return 0;
	if (strmap_put(g->labels, f[0], (void *)(uintptr_t)(g->nline + 1)) != 0)
		return -1;
	return add_line(g, (size_t)grp);
}

/* eval_read_lines' callback: a line that cannot be kept is memory. */
static int
labels_cb(char *line, long ln, void *arg)
{
	struct eg *g = arg;

	return label_line(g, line, ln) != 0 ? oom(g) : 0;
}

static int
read_labels(struct eg *g)
{
	return eval_read_lines(g->o->groups, labels_cb, g, g->err, g->errsz);
}

/*
 * The path of url as the script's strip() makes it: after a leading
 * "scheme://authority", without a fragment, "/" when empty, and a query
 * alone gets a "/" before it. Writes into out (cap outsz, cut there).
 */
static void
strip_url(const char *url, char *out, size_t outsz)
{
	const char *p = url, *q, *hash;
	size_t n;

	if (isalpha((unsigned char)*p)) {
		for (q = p + 1; isalnum((unsigned char)*q) || *q == '+' ||
		    *q == '.' || *q == '-'; q++)
			;
		if (strncmp(q, "://", 3) == 0) {
			for (q += 3; *q != '\0' && *q != '/' && *q != '?' &&
			    *q != '#'; q++)
				;
			p = q;
		}
	}
	hash = strchr(p, '#');
	n = hash != NULL ? (size_t)(hash - p) : strlen(p);
	if (n == 0) {
		snprintf(out, outsz, "/");
		return;
	}
	snprintf(out, outsz, "%s%.*s", *p == '?' ? "/" : "", (int)n, p);
}

/*
 * "//host" and path, as the script's hoststrip() makes it, for labels of
 * sites with several hosts: the host of url lower-cased, without user and
 * port ("" when url has no "scheme://"). Writes into out (cap outsz).
 */
static void
host_path(const char *url, const char *path, char *out, size_t outsz)
{
	const char *a = strstr(url, "://"), *e, *at, *colon;
	size_t i, n = 0;

	if (a != NULL && a != url) {
		a += 3;
		for (e = a; *e != '\0' && *e != '/' && *e != '?' && *e != '#';
		    e++)
			;
		for (at = a; at < e; at++)
			if (*at == '@')
				a = at + 1;
		colon = memchr(a, ':', (size_t)(e - a));
		n = (size_t)((colon != NULL ? colon : e) - a);
	}
	snprintf(out, outsz, "//%.*s%s", (int)n, n > 0 ? a : "", path);
	for (i = 2; i < 2 + n && out[i] != '\0'; i++)
		out[i] = (char)tolower((unsigned char)out[i]);
}

/* The pattern of length len that s starts with, as a label line, or -1. */
static long
pattern_of(struct eg *g, char *s, size_t len)
{
	void *v;
	char c;

	if (len > strlen(s))
		return -1;
	c = s[len];
	s[len] = '\0';
	v = strmap_get(g->pattern, s);
	s[len] = c;
	return v != NULL ? (long)((uintptr_t)v - 1) : -1;
}

/* The label line matching path or its //host form hpath (an exact label,
 * the host's first, else the longest pattern), or -1 when none does. */
static long
find_label(struct eg *g, char *path, char *hpath)
{
	void *v;
	size_t i;
	long line;

	if ((v = strmap_get(g->labels, hpath)) != NULL ||
	    (v = strmap_get(g->labels, path)) != NULL)
		return (long)((uintptr_t)v - 1);
	for (i = 0; i < g->nplen; i++)
		if ((line = pattern_of(g, hpath, g->plen[i])) >= 0 ||
		    (line = pattern_of(g, path, g->plen[i])) >= 0)
			return line;
	return -1;
}

/* Bit of method name among the ones the duplicates table holds. */
static unsigned
method_bits(struct eg *g, const char *list)
{
	const char *p = list, *e;
	unsigned bits = 0;
	size_t i, n;

	while (p != NULL && *p != '\0') {
		e = strchr(p, ',');
		n = e != NULL ? (size_t)(e - p) : strlen(p);
		for (i = 0; i < g->nmeth; i++)
			if (strlen(g->meth[i]) == n &&
			    strncmp(g->meth[i], p, n) == 0)
				bits |= 1u << i;
		p = e != NULL ? e + 1 : NULL;
	}
	return bits;
}

static void
score(struct eg *g, size_t k, int expected, int predicted)
{
	if (expected && predicted)
		g->tp[k]++;
	else if (predicted)
		g->fp[k]++;
	else if (expected)
		g->fn[k]++;
}

/* One judged page, in seq order. */
static int
judge(struct eg *g, const char *url, enum store_verdict verdict,
    int null_seq, int64_t seq, const char *methods, char *path, char *hpath,
    size_t pathsz)
{
	struct first *f;
	unsigned bits;
	size_t i;
	long line, grp;
	int expected = 0, exact, pred;

	g->judged++;
	exact = verdict == STORE_VERDICT_EXACT;
	pred = exact || verdict == STORE_VERDICT_NEAR;
	g->unique += verdict == STORE_VERDICT_UNIQUE;
	g->exact += exact;
	g->near += verdict == STORE_VERDICT_NEAR;
	strip_url(url, path, pathsz);
	host_path(url, path, hpath, pathsz);
	if ((line = find_label(g, path, hpath)) >= 0) {
		grp = (long)g->line_group[line];
		if (!g->reached[line]) {
			g->reached[line] = 1;
			g->lines_reached++;
		}
	} else {
		g->unlabelled++;
		if ((grp = group_of(g, g->unlab, path)) < 0)
			return -1;
	}
	f = &g->first[grp];
	if (f->seen)
		expected = null_seq || f->null_seq || f->seq < seq;
	else {
		f->seen = 1;
		f->null_seq = null_seq;
		f->seq = seq;
		if ((size_t)grp < g->nlabel_groups)
			g->groups_reached++;
	}
	score(g, 0, expected, pred);
	bits = method_bits(g, methods);
	for (i = 0; i < g->nmeth; i++)
		score(g, 1 + i, expected, i == g->md5 ? exact :
		    exact || (bits & (1u << i)) != 0);
	return 0;
}

/* load_methods' list so far. */
struct found {
	char *m[EVAL_MAX_METHODS];
	size_t n;
};

static int
method_in(const char *method, void *arg)
{
	struct found *f = arg;

	/* More than the table holds: the rest are left out. */
	if (f->n >= EVAL_MAX_METHODS)
		return 0;
	if ((f->m[f->n] = strdup(method)) == NULL)
		return 1;
	f->n++;
	return 0;
}

/* The methods of the duplicates table: the method table's order, then
 * any other in name order. Returns 0, -1 out of memory, -2 on SQLite. */
static int
load_methods(struct eg *g)
{
	const struct dedup_method_info *mi;
	struct found f;
	char **found = f.m, *t;
	size_t i, k, n;
	int rc;

	f.n = 0;
	rc = store_eval_methods(g->c, method_in, &f);
	n = f.n;
	if (rc != 0) {
		for (i = 0; i < n; i++)
			free(found[i]);
		return rc == 1 ? -1 : -2;
	}
	/* Known methods move to the front, in table order. */
	for (k = 0; (mi = dedup_method_at(k)) != NULL; k++)
		for (i = g->nmeth; i < n; i++)
			if (strcmp(found[i], mi->name) == 0) {
				t = found[i];
				memmove(&found[g->nmeth + 1], &found[g->nmeth],
				    (i - g->nmeth) * sizeof(*found));
				found[g->nmeth++] = t;
				break;
			}
	for (i = 0; i < n; i++)
		g->meth[i] = found[i];
	g->nmeth = n;
	g->md5 = n;
	for (i = 0; i < n; i++)
		if (strcmp(g->meth[i], "md5") == 0)
			g->md5 = i;
	return 0;
}

static int
db_fail(struct eg *g)
{
	return store_conn_fail(g->c, g->err, g->errsz, EVAL_RUNTIME,
	    EVAL_USAGE);
}

static int
page_in(const struct store_eval_page *p, void *arg)
{
	struct eg *g = arg;
	size_t need;

	/* Room for the whole URL, the "/" a query may get and the "//" of
	 * the host form. */
	need = strlen(p->url) + 4;
	if (need > g->pathsz) {
		free(g->path);
		free(g->hpath);
		g->pathsz = need * 2;
		g->path = malloc(g->pathsz);
		g->hpath = malloc(g->pathsz);
		if (g->path == NULL || g->hpath == NULL)
			return oom(g);
	}
	if (judge(g, p->url, p->verdict, p->null_seq, p->seq, p->methods,
	    g->path, g->hpath, g->pathsz) != 0)
		return oom(g);
	return 0;
}

static int
read_pages(struct eg *g)
{
	int rc;

	if ((rc = store_eval_pages(g->c, page_in, g)) != 0)
		return rc == -1 ? db_fail(g) : rc;
	return 0;
}

static void
put_rows(struct eg *g, FILE *out)
{
	struct eval_table t = { out, g->o->csv, 0 };
	struct eval_row r;
	size_t k;

	for (k = 0; k <= g->nmeth; k++) {
		memset(&r, 0, sizeof(r));
		r.text = "-";
		r.method = k == 0 ? "crawl" : g->meth[k - 1];
		snprintf(r.threshold, sizeof(r.threshold), "-");
		r.tp = g->tp[k];
		r.fp = g->fp[k];
		r.fn = g->fn[k];
		r.tn = -1;
		r.fp_us = r.lookup_us = r.index_bytes = -1;
		eval_put_row(&t, &r);
	}
	if (g->o->csv)
		return;
	fprintf(out, "\nrows: the crawl's verdicts, then each method's "
	    "duplicates rows (with md5, which is checked first)\n"
	    "judged pages: %lld (unique %lld, exact %lld, near %lld), "
	    "unlabelled: %lld\n"
	    "distinct pages reached: %lld of %zu\n"
	    "groups reached: %lld of %zu\n",
	    (long long)g->judged, (long long)g->unique, (long long)g->exact,
	    (long long)g->near, (long long)g->unlabelled,
	    (long long)g->lines_reached, g->nline,
	    (long long)g->groups_reached, g->nlabel_groups);
	if (g->ignored > 0)
		fprintf(out, "label lines ignored (not path<TAB>group<TAB>"
		    "class): %lld\n", (long long)g->ignored);
	/* The script's last line, to the digit. */
	fprintf(out, "precision=%.3f recall=%.3f coverage=%.3f\n",
	    eval_ratio(g->tp[0], g->tp[0] + g->fp[0]),
	    eval_ratio(g->tp[0], g->tp[0] + g->fn[0]),
	    eval_ratio(g->groups_reached, (int64_t)g->nlabel_groups));
}

int
eval_groups(const struct eval_opts *o, FILE *out, char *err, size_t errsz)
{
	struct store *s;
	struct eg g;
	size_t i;
	int rc;

	memset(&g, 0, sizeof(g));
	g.o = o;
	g.err = err;
	g.errsz = errsz;
	if ((g.labels = strmap_new()) == NULL ||
	    (g.pattern = strmap_new()) == NULL ||
	    (g.group = strmap_new()) == NULL ||
	    (g.unlab = strmap_new()) == NULL) {
		rc = oom(&g);
		goto out;
	}
	if ((rc = read_labels(&g)) != 0)
		goto out;
	/* The store refuses what is not ours; then a reader of our own,
	 * in one snapshot, as the report does. */
	if ((s = store_open(o->db, STORE_READONLY, err, errsz)) == NULL) {
		rc = EVAL_USAGE;
		goto out;
	}
	rc = store_conn_open(o->db, STORE_CONN_READ, &g.c, err, errsz,
	    EVAL_RUNTIME, EVAL_USAGE);
	store_close(s);
	if (rc != 0)
		goto out;
	if (store_conn_begin(g.c) != 0) {
		rc = db_fail(&g);
		goto out;
	}
	if ((rc = load_methods(&g)) != 0) {
		rc = rc == -1 ? oom(&g) : db_fail(&g);
		goto out;
	}
	if ((rc = read_pages(&g)) != 0)
		goto out;
	put_rows(&g, out);
out:
	store_conn_close(g.c);
	free(g.path);
	free(g.hpath);
	strmap_free(g.labels, NULL);
	strmap_free(g.pattern, NULL);
	strmap_free(g.group, NULL);
	strmap_free(g.unlab, NULL);
	for (i = 0; i < g.nmeth; i++)
		free(g.meth[i]);
	free(g.plen);
	free(g.line_group);
	free(g.reached);
	free(g.first);
	return rc;
}
