/*
 * eval_pairs: documents are read, extracted and fingerprinted one at a
 * time, in the order the pairs file first names them; only their
 * fingerprints stay (about 400 bytes a document), so a large set needs no
 * more memory than its pairs and fingerprints.
 */
#include "cmd/eval_pairs.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/eval_util.h"
#include "util/buf.h"
#include "util/clock.h"
#include "util/err.h"
#include "digest/digest.h"
#include "web/extract.h"
#include "util/strmap.h"

#define NAME_MAX_BYTES 1024 /* longest document name */
#define CLASSES_MAX 256     /* kinds of pair */
#define SWEEP_MAX 64        /* thresholds of one method */

struct doc {
	char *name;              /* as in the pairs file */
	struct dedup_fp fp[2];   /* [0] main text, [1] body text */
	struct digest dg[2];     /* as the crawl digests it, asked for main
	                            [0] or body [1] text; texts shed */
};

struct pair {
	uint32_t a, b;           /* documents */
	uint32_t cls;            /* class */
	int positive;            /* dup or near */
};

struct ev {
	const struct eval_opts *o;
	char *err;
	size_t errsz;
	struct strmap *names;    /* document name -> index + 1 */
	struct doc *doc;
	size_t ndoc, capdoc;
	struct pair *pair;
	size_t npair, cappair;
	size_t npos;             /* positive pairs */
	struct strmap *clsmap;   /* class name -> index + 1 */
	char *cls[CLASSES_MAX];  /* class names, in order of appearance */
	int clspos[CLASSES_MAX]; /* a class's label: 1 positive */
	const char *clslabel[CLASSES_MAX]; /* ... as first given */
	size_t ncls;
	struct dedup *dd;        /* every method, to fingerprint */
	struct dedup *crawl_dd;  /* the crawl's settings, to digest */
	double fp_us[2][EVAL_MAX_METHODS]; /* summed, per text and row */
	double extract_us;       /* summed */
	double *val;             /* per pair: the method's value */
	unsigned char *usable;   /* per pair: the value counts */
	unsigned char *pred;     /* per pair: predicted a duplicate */
};

/* Monotonic microseconds, for timings. */
static double
now_us(void)
{
	return clock_mono_ms() * 1e3;
}

static int
oom(struct ev *e)
{
	return err_set(e->err, e->errsz, EVAL_RUNTIME, "out of memory");
}

/* A document name must stay under DIR. */
static int
name_ok(const char *n)
{
	const char *p;

	if (n[0] == '/' || strlen(n) >= NAME_MAX_BYTES)
		return 0;
	for (p = n; (p = strstr(p, "..")) != NULL; p += 2)
		if ((p == n || p[-1] == '/') && (p[2] == '\0' || p[2] == '/'))
			return 0;
	return 1;
}

/* Index of document name, added when new; -1 when out of memory. */
static long
doc_index(struct ev *e, const char *name)
{
	struct doc *d;
	void *v = strmap_get(e->names, name);
	size_t cap;

	if (v != NULL)
		return (long)((uintptr_t)v - 1);
	if (e->ndoc == e->capdoc) {
		cap = e->capdoc ? 2 * e->capdoc : 256;
		if ((d = realloc(e->doc, cap * sizeof(*d))) == NULL)
			return -1;
		e->doc = d;
		e->capdoc = cap;
	}
	d = &e->doc[e->ndoc];
	memset(d, 0, sizeof(*d));
	if ((d->name = strdup(name)) == NULL)
		return -1;
	if (strmap_put(e->names, name, (void *)(uintptr_t)(e->ndoc + 1)) !=
	    0) {
		free(d->name);
		return -1;
	}
	return (long)e->ndoc++;
}

/* Index of class name with its label; -1 out of memory, -2 too many, -3 a
 * class seen before with the other label. */
static long
class_index(struct ev *e, const char *name, int positive, const char *label)
{
	void *v = strmap_get(e->clsmap, name);
	size_t i;

	if (v != NULL) {
		i = (size_t)((uintptr_t)v - 1);
		return e->clspos[i] == positive ? (long)i : -3;
	}
	if (e->ncls == CLASSES_MAX)
		return -2;
	if (strmap_put(e->clsmap, name, (void *)(uintptr_t)(e->ncls + 1)) != 0)
		return -1;
	if ((e->cls[e->ncls] = strdup(name)) == NULL)
		return -1;
	e->clspos[e->ncls] = positive;
	e->clslabel[e->ncls] = strcmp(label, "dup") == 0 ? "dup" :
	    positive ? "near" : "distinct";
	return (long)e->ncls++;
}

static int
add_pair(struct ev *e, long a, long b, long cls, int positive)
{
	struct pair *p;
	size_t cap;

	if (e->npair == e->cappair) {
		cap = e->cappair ? 2 * e->cappair : 1024;
		if ((p = realloc(e->pair, cap * sizeof(*p))) == NULL)
			return -1;
		e->pair = p;
		e->cappair = cap;
	}
	p = &e->pair[e->npair++];
	p->a = (uint32_t)a;
	p->b = (uint32_t)b;
	p->cls = (uint32_t)cls;
	p->positive = positive;
	e->npos += positive != 0;
	return 0;
}

/* One pairs line, cut into at most five words: "A B LABEL [CLASS]". */
static int
parse_line(char *line, long ln, void *arg)
{
	struct ev *e = arg;
	const char *file = e->o->pairs;
	char *w[5], *save = NULL, *t;
	long a, b, c;
	int n = 0, positive;

	for (t = strtok_r(line, " \t\r\n", &save); t != NULL && n < 5;
	    t = strtok_r(NULL, " \t\r\n", &save))
		w[n++] = t;
	if (n == 0 || w[0][0] == '#')
		return 0;
	if (n < 3 || n > 4)
		return err_set(e->err, e->errsz, EVAL_USAGE,
		    "%s:%ld: expected A B LABEL [CLASS]", file, ln);
	if (strcmp(w[2], "dup") == 0 || strcmp(w[2], "near") == 0)
		positive = 1;
	else if (strcmp(w[2], "distinct") == 0)
		positive = 0;
	else
		return err_set(e->err, e->errsz, EVAL_USAGE, "%s:%ld: label "
		    "must be dup, near or distinct", file, ln);
	if (!name_ok(w[0]) || !name_ok(w[1]))
		return err_set(e->err, e->errsz, EVAL_USAGE, "%s:%ld: a "
		    "document must be a relative path inside the directory",
		    file, ln);
	if ((a = doc_index(e, w[0])) < 0 || (b = doc_index(e, w[1])) < 0)
		return oom(e);
	c = class_index(e, n == 4 ? w[3] : w[2], positive, w[2]);
	if (c == -2 || c == -3)
		return err_set(e->err, e->errsz, EVAL_USAGE, "%s:%ld: %s",
		    file, ln, c == -2 ? "more than 256 classes" :
		    "a class cannot hold both duplicates and distinct pairs");
	if (c < 0 || add_pair(e, a, b, c, positive) != 0)
		return oom(e);
	return 0;
}

static int
read_pairs(struct ev *e)
{
	int rc;

	rc = eval_read_lines(e->o->pairs, parse_line, e, e->err, e->errsz);
	if (rc == 0 && e->npair == 0)
		rc = err_set(e->err, e->errsz, EVAL_USAGE, "%s: no pairs",
		    e->o->pairs);
	return rc;
}

/* Whether the method of table row mi has rows of its own. */
static int
wanted(const struct ev *e, const struct dedup_method_info *mi)
{
	return (e->o->methods & mi->method) != 0;
}

/* Whether documents need mi's fingerprint: its rows or the crawl's. */
static int
needed(const struct ev *e, const struct dedup_method_info *mi)
{
	return ((e->o->methods | e->o->dc.methods) & mi->method) != 0;
}

/*
 * Fingerprint text (and, for TDW, the fields f) by mi into fp, o->repeat
 * times: *us is the fastest run,
 * the one least disturbed by the rest of the machine.
 */
static int
time_fingerprint(struct ev *e, const struct dedup_method_info *mi,
    const char *text, size_t len, const struct tdw_fields *f,
    struct dedup_fp *fp, double *us)
{
	double t0, t;
	int i;

	*us = -1;
	for (i = 0; i < e->o->repeat; i++) {
		t0 = now_us();
		if (dedup_fingerprint_method(e->dd, mi->method, text, len, f,
		    fp) != 0)
			return -1;
		t = now_us() - t0;
		if (*us < 0 || t < *us)
			*us = t;
	}
	return 0;
}

/*
 * Document i (len bytes of data) as the crawl digests it, for the crawl's
 * row: the near text chosen as the crawl chooses it, its shingles.
 */
static int
crawl_digest(struct ev *e, size_t i, const char *data, size_t len)
{
	struct digest_opts o;
	const char *why;
	int mode;

	for (mode = 0; mode < 2; mode++) {
		if (!(e->o->text & (mode == 0 ? EVAL_MAIN : EVAL_BODY)))
			continue;
		memset(&o, 0, sizeof(o));
		o.max_text = (size_t)e->o->max_text;
		o.max_links = 1;
		o.use_main = mode == 0;
		if (digest_page(e->crawl_dd, &o, data, len,
		    extract_is_html(NULL, data, len), NULL,
		    &e->doc[i].dg[mode], &why) != 0)
			return err_set(e->err, e->errsz, EVAL_RUNTIME,
			    "%s: %s", e->doc[i].name, why);
		digest_shed_texts(&e->doc[i].dg[mode]);
	}
	return 0;
}

/* Read, extract and fingerprint document i, timing each method. */
static int
load_doc(struct ev *e, size_t i)
{
	const struct dedup_method_info *mi;
	struct extract_result ex;
	struct extract_opts eo;
	struct tdw_fields tf;
	struct dedup_fp *fp;
	char path[4096 + NAME_MAX_BYTES];
	const char *why = NULL, *text, *near;
	size_t len, near_len, k;
	struct buf b;
	double t0, us;
	int rc, mode, html = 0;

	memset(&ex, 0, sizeof(ex));
	if ((size_t)snprintf(path, sizeof(path), "%s/%s", e->o->docs,
	    e->doc[i].name) >= sizeof(path))
		return err_set(e->err, e->errsz, EVAL_USAGE, "%s/%s: path "
		    "too long", e->o->docs, e->doc[i].name);
	buf_init(&b, (size_t)e->o->max_body);
	if ((rc = buf_read_file(&b, path, 0)) != BUF_OK) {
		buf_free(&b);
		if (rc == BUF_NOMEM)
			return oom(e);
		return err_set(e->err, e->errsz, EVAL_USAGE, "%s: %s", path,
		    rc == BUF_FULL ? "larger than the body cap" :
		    "cannot read");
	}
	text = b.data != NULL ? b.data : "";
	len = b.len;
	t0 = now_us();
	if (extract_is_html(NULL, text, len)) {
		eo.charset = NULL;
		eo.max_text = (size_t)e->o->max_text;
		eo.max_links = 1;
		if (extract_html(text, len, NULL, &eo, &ex, &why) != 0) {
			buf_free(&b);
			return err_set(e->err, e->errsz, EVAL_RUNTIME,
			    "%s: %s", path, why);
		}
		html = 1;
		/* A document has no URL: TDW weighs its other fields. */
		digest_tdw_fields(&ex, NULL, &tf);
	}
	e->extract_us += now_us() - t0;
	for (mode = 0; mode < 2; mode++) {
		if (!(e->o->text & (mode == 0 ? EVAL_MAIN : EVAL_BODY)))
			continue;
		near = html ? (mode == 0 ? ex.main_text : ex.text) : text;
		near_len = html ? (mode == 0 ? ex.main_len : ex.text_len) :
		    len;
		fp = &e->doc[i].fp[mode];
		memset(fp, 0, sizeof(*fp));
		fp->text_len = near_len;
		for (k = 0; (mi = dedup_method_at(k)) != NULL &&
		    k < EVAL_MAX_METHODS; k++) {
			if (!needed(e, mi))
				continue;
			/* MD5 always reads the whole text, as in the crawl. */
			if (mi->method == DEDUP_MD5)
				rc = time_fingerprint(e, mi, html ? ex.text :
				    text, html ? ex.text_len : len, NULL, fp,
				    &us);
			else
				rc = time_fingerprint(e, mi, near, near_len,
				    html ? &tf : NULL, fp, &us);
			e->fp_us[mode][k] += us;
			if (rc != 0) {
				extract_result_free(&ex);
				buf_free(&b);
				return err_set(e->err, e->errsz, EVAL_RUNTIME,
				    "%s: cannot fingerprint by %s", path,
				    mi->name);
			}
		}
	}
	extract_result_free(&ex);
	rc = crawl_digest(e, i, text, len);
	buf_free(&b);
	return rc;
}

/* The next threshold of a sweep list at *s; 0, 1 at the end, -1 bad. */
static int
next_threshold(const char **s, const struct dedup_method_info *mi,
    double *t)
{
	struct dedup_config c;
	char *end;

	if (**s == '\0')
		return 1;
	*t = strtod(*s, &end);
	if (end == *s || (*end != ',' && *end != '\0'))
		return -1;
	*s = *end == ',' ? end + 1 : end;
	/* The index must take it: the same range and whole numbers. */
	memset(&c, 0, sizeof(c));
	if (mi->threshold != NULL &&
	    dedup_config_threshold(&c, mi->method, *t) != 0)
		return -1;
	return 0;
}

/* Every pair's value by method row k in text mode. */
static void
pair_values(struct ev *e, int mode, const struct dedup_method_info *mi)
{
	const struct dedup_fp *a, *b;
	size_t i;
	int near = mi->method != DEDUP_MD5;

	for (i = 0; i < e->npair; i++) {
		a = &e->doc[e->pair[i].a].fp[mode];
		b = &e->doc[e->pair[i].b].fp[mode];
		e->usable[i] = dedup_pair_value(mi->method, a, b,
		    &e->val[i]) == 0;
		/* The verdict rule: too little text is only for MD5. */
		if (near && (a->text_len == 0 || b->text_len == 0 ||
		    a->text_len < e->o->dc.min_text ||
		    b->text_len < e->o->dc.min_text))
			e->usable[i] = 0;
	}
}

/* Whether pair i is predicted a duplicate by mi at threshold t. */
static int
predicted(const struct ev *e, size_t i, const struct dedup_method_info *mi,
    double t)
{
	if (!e->usable[i])
		return 0;
	return mi->distance ? e->val[i] <= t : e->val[i] >= t;
}

/*
 * Check and add every document, in turn, through the crawl's indexes set
 * up as c: the time (the fastest of o->repeat runs) and the memory per
 * page.
 */
static int
time_index(struct ev *e, int mode, const struct dedup_config *c,
    struct eval_row *r)
{
	const struct dedup_fp *fp;
	struct dedup *d;
	size_t i;
	double t0, t;
	int k;

	r->lookup_us = -1;
	for (k = 0; k < e->o->repeat; k++) {
		if ((d = dedup_new(c)) == NULL)
			return oom(e);
		t0 = now_us();
		for (i = 0; i < e->ndoc; i++) {
			fp = &e->doc[i].fp[mode];
			if (dedup_check(d, fp, NULL, 0, NULL) != DEDUP_EXACT &&
			    dedup_add(d, fp, (int64_t)i + 1) != 0) {
				dedup_free(d);
				return oom(e);
			}
		}
		t = (now_us() - t0) / (double)e->ndoc;
		if (r->lookup_us < 0 || t < r->lookup_us)
			r->lookup_us = t;
		r->index_bytes = (double)dedup_bytes(d) / (double)e->ndoc;
		dedup_free(d);
	}
	return 0;
}

/*
 * Write the result of e->pred for row r: its counts, timed through the
 * indexes set up as c, or with --by-class what it found of each class.
 */
static int
put_result(struct ev *e, struct eval_table *t, int mode, struct eval_row *r,
    const struct dedup_config *c)
{
	int64_t n[CLASSES_MAX], found[CLASSES_MAX];
	size_t i, k;
	int rc;

	if (!e->o->by_class) {
		for (i = 0; i < e->npair; i++) {
			if (e->pair[i].positive && e->pred[i])
				r->tp++;
			else if (e->pair[i].positive)
				r->fn++;
			else if (e->pred[i])
				r->fp++;
			else
				r->tn++;
		}
		if ((rc = time_index(e, mode, c, r)) != 0)
			return rc;
		eval_put_row(t, r);
		return 0;
	}
	memset(n, 0, sizeof(n));
	memset(found, 0, sizeof(found));
	for (i = 0; i < e->npair; i++) {
		n[e->pair[i].cls]++;
		found[e->pair[i].cls] += e->pred[i];
	}
	if (t->rows++ == 0)
		fputs(t->csv ? "text,method,threshold,class,label,pairs,found,"
		    "share\n" : "text  method   threshold class        label   "
		    "  pairs  found share\n", t->out);
	for (k = 0; k < e->ncls; k++)
		fprintf(t->out, t->csv ? "%s,%s,%s,%s,%s,%lld,%lld,%.3f\n" :
		    "%-5s %-8s %-9s %-12s %-8s %6lld %6lld %5.3f\n", r->text,
		    r->method, r->threshold, e->cls[k], e->clslabel[k],
		    (long long)n[k], (long long)found[k],
		    eval_ratio(found[k], n[k]));
	return 0;
}

/* Every threshold of method row k in one text mode. */
static int
eval_method(struct ev *e, struct eval_table *t, int mode, size_t k,
    const struct dedup_method_info *mi)
{
	const char *s = e->o->sweep[k] != NULL ? e->o->sweep[k] : mi->sweep;
	struct dedup_config c;
	struct eval_row r;
	size_t i, n = 0;
	double th;
	int rc;

	pair_values(e, mode, mi);
	while ((rc = next_threshold(&s, mi, &th)) == 0) {
		if (++n > SWEEP_MAX)
			return err_set(e->err, e->errsz, EVAL_USAGE,
			    "%s: more than %d thresholds", mi->name, SWEEP_MAX);
		memset(&r, 0, sizeof(r));
		r.text = mode == 0 ? "main" : "body";
		r.method = mi->name;
		if (mi->threshold == NULL)
			snprintf(r.threshold, sizeof(r.threshold), "-");
		else
			snprintf(r.threshold, sizeof(r.threshold), "%s=%g",
			    mi->threshold, th);
		for (i = 0; i < e->npair; i++)
			e->pred[i] = (unsigned char)predicted(e, i, mi, th);
		r.fp_us = e->fp_us[mode][k] / (double)e->ndoc;
		/* Its index alone (with md5's, which the crawl always has). */
		c = e->o->dc;
		c.methods = DEDUP_MD5 | mi->method;
		c.rule = DEDUP_RULE_ANY;
		c.rule_method = 0;
		if (mi->threshold != NULL)
			dedup_config_threshold(&c, mi->method, th);
		if ((rc = put_result(e, t, mode, &r, &c)) != 0)
			return rc;
	}
	if (rc < 0)
		return err_set(e->err, e->errsz, EVAL_USAGE, "%s: bad "
		    "threshold list (values from %g to %g)", mi->name, mi->lo,
		    mi->hi);
	return 0;
}

/*
 * The row of the crawl's own rule ([dedup] settings): a pair is predicted
 * when B checked after A is exact or near, as `nearcrawl compare` says.
 */
static int
eval_crawl(struct ev *e, struct eval_table *t, int mode)
{
	const struct dedup_method_info *mi;
	struct dedup_match m[DEDUP_MAX_MATCHES];
	struct digest *a, *b;
	struct eval_row r;
	struct dedup *d;
	struct tmpl *site;
	enum dedup_verdict v;
	size_t i, k, nm;
	int err = 0;

	for (i = 0; i < e->npair; i++) {
		a = &e->doc[e->pair[i].a].dg[mode];
		b = &e->doc[e->pair[i].b].dg[mode];
		site = tmpl_new();
		a->sh.teaches = 1; /* A comes first: unique */
		if ((d = dedup_new(&e->o->dc)) == NULL || site == NULL ||
		    digest_add(d, site, "", a, 1) != 0) {
			dedup_free(d);
			tmpl_free(site);
			return oom(e);
		}
		/* B judged after A, as compare judges them. */
		v = digest_judge(d, site, "", b, digest_linker(a, b, 1),
		    digest_set_of_first, &a->sh, m, DEDUP_MAX_MATCHES, &nm, NULL,
		    &err);
		e->pred[i] = v != DEDUP_UNIQUE;
		dedup_free(d);
		tmpl_free(site);
		if (err)
			return oom(e);
	}
	memset(&r, 0, sizeof(r));
	r.text = mode == 0 ? "main" : "body";
	r.method = "crawl";
	snprintf(r.threshold, sizeof(r.threshold), "%s", e->o->rule);
	for (k = 0; (mi = dedup_method_at(k)) != NULL &&
	    k < EVAL_MAX_METHODS; k++)
		if (e->o->dc.methods & mi->method)
			r.fp_us += e->fp_us[mode][k] / (double)e->ndoc;
	return put_result(e, t, mode, &r, &e->o->dc);
}

static void
free_ev(struct ev *e)
{
	size_t i;

	for (i = 0; i < e->ndoc; i++) {
		free(e->doc[i].name);
		digest_free(&e->doc[i].dg[0]);
		digest_free(&e->doc[i].dg[1]);
	}
	for (i = 0; i < e->ncls; i++)
		free(e->cls[i]);
	free(e->doc);
	free(e->pair);
	free(e->val);
	free(e->usable);
	free(e->pred);
	strmap_free(e->names, NULL);
	strmap_free(e->clsmap, NULL);
	dedup_free(e->dd);
	dedup_free(e->crawl_dd);
}

int
eval_pairs(const struct eval_opts *o, FILE *out, char *err, size_t errsz)
{
	const struct dedup_method_info *mi;
	struct dedup_config c = o->dc;
	struct eval_table t = { out, o->csv, 0 };
	struct ev e;
	size_t i, k;
	int rc = 0, mode;

	memset(&e, 0, sizeof(e));
	e.o = o;
	e.err = err;
	e.errsz = errsz;
	/* Every method, so any of them can be computed from this state. */
	c.methods = 0;
	for (k = 0; (mi = dedup_method_at(k)) != NULL; k++)
		c.methods |= mi->method;
	if ((e.names = strmap_new()) == NULL ||
	    (e.clsmap = strmap_new()) == NULL ||
	    (e.dd = dedup_new(&c)) == NULL ||
	    (e.crawl_dd = dedup_new(&o->dc)) == NULL) {
		rc = oom(&e);
		goto out;
	}
	if ((rc = read_pairs(&e)) != 0)
		goto out;
	for (i = 0; i < e.ndoc; i++)
		if ((rc = load_doc(&e, i)) != 0)
			goto out;
	e.val = malloc(e.npair * sizeof(*e.val));
	e.usable = malloc(e.npair);
	e.pred = malloc(e.npair);
	if (e.val == NULL || e.usable == NULL || e.pred == NULL) {
		rc = oom(&e);
		goto out;
	}
	for (mode = 0; mode < 2; mode++) {
		if (!(o->text & (mode == 0 ? EVAL_MAIN : EVAL_BODY)))
			continue;
		for (k = 0; (mi = dedup_method_at(k)) != NULL &&
		    k < EVAL_MAX_METHODS; k++)
			if (wanted(&e, mi) &&
			    (rc = eval_method(&e, &t, mode, k, mi)) != 0)
				goto out;
		if ((rc = eval_crawl(&e, &t, mode)) != 0)
			goto out;
	}
	if (!o->csv)
		fprintf(out, "\n%zu documents, %zu pairs (%zu dup or near, "
		    "%zu distinct); extraction %.1f us per document\n"
		    "fp_us: fingerprint by the method alone; lookup_us and "
		    "index_B: check and add through its index; per document, "
		    "fastest of %d runs\n"
		    "crawl: the verdict of B checked after A with the crawl's "
		    "[dedup] settings (defaults, or -c FILE)\n", e.ndoc,
		    e.npair, e.npos, e.npair - e.npos,
		    e.extract_us / (double)e.ndoc, o->repeat);
out:
	free_ev(&e);
	return rc;
}
