/*
 * search_run: the API of cmd/search.h -- a handle on one database, and a
 * run: the best matches in one snapshot, folded (search_fold.c), the
 * groups asked for given their snippets.
 */
#include "cmd/search_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "storage/query.h"
#include "storage/store_search.h"
#include "util/chars.h"
#include "util/err.h"

/* A result's own memory (search_result.priv). */
struct priv {
	struct search_page *pages; /* the matches, best first */
	size_t npages, cap;
	int64_t *cluster;          /* each match's cluster, 0 for none */
	struct search_group *all;  /* every group of the window */
	size_t nall;
};

void
search_opts_default(struct search_opts *o)
{
	o->limit = 10;
	o->offset = 0;
	o->top = 1000;
	o->k = -1;
}

const char *
search_decided_name(enum search_decided d)
{
	switch (d) {
	case SEARCH_DECIDED_ALONE:
		return "alone";
	case SEARCH_DECIDED_DECLARED:
		return "declared canonical";
	case SEARCH_DECIDED_PAGERANK:
		return "pagerank";
	case SEARCH_DECIDED_FIRST:
		return "first seen";
	}
	return "?";
}

const char *
search_fold_name(enum search_fold f)
{
	switch (f) {
	case SEARCH_FOLD_NONE:
		return "";
	case SEARCH_FOLD_CLUSTER:
		return "cluster";
	case SEARCH_FOLD_SIMHASH:
		return "simhash";
	}
	return "?";
}

int
search_open(const char *db, struct search **sp, char *err, size_t errsz)
{
	struct search *s;
	struct store *st;
	int exists = 0, rc = SEARCH_RUNTIME;

	*sp = NULL;
	/* store_open refuses what is not ours; the rows come through a
	 * connection of our own, which never writes. */
	if ((st = store_open(db, STORE_READONLY, err, errsz)) == NULL)
		return SEARCH_BADDB;
	store_close(st);
	if ((s = calloc(1, sizeof(*s))) == NULL ||
	    (s->db = strdup(db)) == NULL) {
		free(s);
		return err_set(err, errsz, SEARCH_RUNTIME, "out of memory");
	}
	if ((rc = store_conn_open(db, STORE_CONN_READ, &s->c, err, errsz,
	    SEARCH_RUNTIME, SEARCH_BADDB)) != 0)
		goto fail;
	if (store_search_exists(s->c, &exists) != 0 ||
	    (exists && store_searcher_open(s->c, &s->q) != 0)) {
		rc = store_conn_fail(s->c, err, errsz, SEARCH_RUNTIME,
		    SEARCH_BADDB);
		goto fail;
	}
	if (!exists) {
		/* Not the target: a PostgreSQL URI may hold a password. */
		rc = err_set(err, errsz, SEARCH_BADDB, "no search index (the "
		    "crawl made none, or its file DB-search is gone): run "
		    "`nearcrawl index -d DB` first");
		goto fail;
	}
	*sp = s;
	return SEARCH_OK;
fail:
	search_close(s);
	return rc;
}

void
search_close(struct search *s)
{
	if (s == NULL)
		return;
	store_searcher_close(s->q);
	store_conn_close(s->c);
	search_clusters_free(s->clusters);
	free(s->db);
	free(s);
}

int
search_check_query(const char *query, char *err, size_t errsz)
{
	const unsigned char *q = (const unsigned char *)query;
	size_t i = 0, n = strlen(query), k;
	uint32_t cp;

	if (n > SEARCH_QUERY_MAX)
		return err_set(err, errsz, SEARCH_BADQUERY, "the query is "
		    "longer than %d bytes", SEARCH_QUERY_MAX);
	if (query[strspn(query, " \t\r\n")] == '\0')
		return err_set(err, errsz, SEARCH_BADQUERY, "an empty query");
	while (i < n) {
		k = chars_utf8_decode(q + i, n - i, &cp);
		if ((k == 1 && cp == 0xfffd && q[i] >= 0x80) ||
		    (cp < 0x20 && cp != '\t' && cp != '\n' && cp != '\r') ||
		    cp == 0x7f)
			return err_set(err, errsz, SEARCH_BADQUERY, "the query "
			    "is not UTF-8 text (byte %zu)", i + 1);
		i += k;
	}
	return SEARCH_OK;
}

/* One duplicates row into the clusters. */
static int
pair_in(const struct store_rank_pair *r, void *arg)
{
	return search_clusters_add(arg, r->page_id, r->original_id) != 0;
}

int
search_load_clusters(struct search *s, char *err, size_t errsz)
{
	struct search_clusters *c;
	int64_t mark;
	int rc;

	if (store_search_duplicates_mark(s->c, &mark) != 0)
		return store_conn_fail(s->c, err, errsz, SEARCH_RUNTIME,
		    SEARCH_BADDB);
	/* Rows are only ever added: the same last id, the same clusters. */
	if (s->clusters != NULL && mark == s->clusters_mark)
		return SEARCH_OK;
	if ((c = search_clusters_new()) == NULL)
		return err_set(err, errsz, SEARCH_RUNTIME, "out of memory");
	rc = store_rank_pairs(s->c, pair_in, c);
	if (rc < 0) {
		search_clusters_free(c);
		return store_conn_fail(s->c, err, errsz, SEARCH_RUNTIME,
		    SEARCH_BADDB);
	}
	if (rc > 0 || search_clusters_build(c) != 0) {
		search_clusters_free(c);
		return err_set(err, errsz, SEARCH_RUNTIME, "out of memory");
	}
	search_clusters_free(s->clusters);
	s->clusters = c;
	s->clusters_mark = mark;
	return SEARCH_OK;
}

/* One match into the result; a string that cannot be copied stops the
 * run (1). */
static int
hit_in(const struct store_search_hit *h, void *arg)
{
	struct priv *v = arg;
	struct search_page *p, *np;
	size_t cap;

	if (v->npages == v->cap) {
		cap = v->cap > 0 ? v->cap * 2 : 64;
		if ((np = realloc(v->pages, cap * sizeof(*np))) == NULL)
			return 1;
		v->pages = np;
		v->cap = cap;
	}
	p = &v->pages[v->npages];
	memset(p, 0, sizeof(*p));
	p->id = h->id;
	p->verdict = h->verdict;
	p->seq = h->seq;
	p->hit = (int)v->npages + 1;
	p->score = h->score;
	p->has_pagerank = h->has_pagerank;
	p->pagerank = h->pagerank;
	p->has_simhash = h->has_simhash;
	p->simhash = h->simhash;
	p->bits = -1;
	v->npages++;
	if ((p->url = strdup(h->url)) == NULL ||
	    (h->title != NULL && (p->title = strdup(h->title)) == NULL) ||
	    (h->declared != NULL &&
	    (p->declared = strdup(h->declared)) == NULL))
		return 1;
	return 0;
}

/* Whether the bytes [from, to) of s are all blanks. */
static int
blank_between(const char *s, size_t from, size_t to)
{
	for (; from < to; from++)
		if (s[from] != ' ')
			return 0;
	return 1;
}

/*
 * The snippet as the API gives it: one line (the text's line breaks
 * become spaces), the marks taken out and recorded as byte ranges in g,
 * the marks of words with only blanks between them (a phrase) joined.
 * Takes text (malloc'd, NULL: none). 0, or -1 when out of memory.
 */
static int
take_snippet(struct search_group *g, char *text)
{
	size_t i, o = 0, n = 0, cap = 0, open = 0;
	struct search_mark *m;
	int in = 0;

	if (text == NULL && (text = strdup("")) == NULL)
		return -1;
	g->snippet = text;
	for (i = 0; text[i] != '\0'; i++)
		if (text[i] == STORE_SEARCH_MARK_ON)
			cap++;
	if (cap > 0 && (g->marks = calloc(cap, sizeof(*g->marks))) == NULL)
		return -1;
	for (i = 0; text[i] != '\0'; i++) {
		if (text[i] == STORE_SEARCH_MARK_ON) {
			in = 1;
			open = o;
		} else if (text[i] == STORE_SEARCH_MARK_OFF) {
			m = n > 0 ? &g->marks[n - 1] : NULL;
			if (in && o > open && m != NULL &&
			    blank_between(text, m->off + m->len, open))
				m->len = o - m->off;
			else if (in && o > open && n < cap) {
				m = &g->marks[n++];
				m->off = open;
				m->len = o - open;
			}
			in = 0;
		} else
			text[o++] = text[i] == '\n' || text[i] == '\r' ||
			    text[i] == '\t' ? ' ' : text[i];
	}
	text[o] = '\0';
	g->nmarks = n;
	return 0;
}

/* Free a run's memory. */
static void
priv_free(struct priv *v)
{
	size_t i;

	if (v == NULL)
		return;
	for (i = 0; i < v->nall; i++) {
		free(v->all[i].snippet);
		free(v->all[i].marks);
	}
	search_fold_free(v->all, v->nall);
	for (i = 0; i < v->npages; i++) {
		free((char *)v->pages[i].url);
		free((char *)v->pages[i].title);
		free((char *)v->pages[i].declared);
	}
	free(v->pages);
	free(v->cluster);
	free(v);
}

void
search_result_free(struct search_result *r)
{
	if (r == NULL)
		return;
	priv_free(r->priv);
	free(r);
}

static int
check_opts(const struct search_opts *o, char *err, size_t errsz)
{
	if (o->limit < 1 || o->limit > SEARCH_LIMIT_MAX)
		return err_set(err, errsz, SEARCH_BADQUERY, "limit %d: not "
		    "from 1 to %d", o->limit, SEARCH_LIMIT_MAX);
	if (o->offset < 0)
		return err_set(err, errsz, SEARCH_BADQUERY, "offset %d: "
		    "negative", o->offset);
	if (o->top < 1 || o->top > SEARCH_TOP_MAX)
		return err_set(err, errsz, SEARCH_BADQUERY, "top %d: not from "
		    "1 to %d", o->top, SEARCH_TOP_MAX);
	if (o->k < -1 || o->k > SEARCH_K_MAX)
		return err_set(err, errsz, SEARCH_BADQUERY, "k %d: not from 0 "
		    "to %d", o->k, SEARCH_K_MAX);
	return SEARCH_OK;
}

/* The run itself, in the open snapshot. */
static int
run(struct search *s, const char *query, const struct search_opts *o,
    struct search_result *r, struct priv *v, char *err, size_t errsz)
{
	char why[512];
	size_t i, from, to;
	int rc;
	char *snip;

	if (store_search_ranked(s->c, &r->ranked) != 0 ||
	    store_search_partial(s->c, &r->partial) != 0)
		goto dbfail;
	if ((rc = search_load_clusters(s, err, errsz)) != SEARCH_OK)
		return rc;
	/* One more than the window: whether there are more. */
	rc = store_search_hits(s->q, query, (int64_t)o->top + 1, 0, hit_in, v,
	    why, sizeof(why));
	if (rc == STORE_SEARCH_BADQUERY)
		return err_set(err, errsz, SEARCH_BADQUERY, "bad query: %s",
		    why);
	if (rc < 0)
		goto dbfail;
	if (rc > 0)
		return err_set(err, errsz, SEARCH_RUNTIME, "out of memory");
	if (v->npages > (size_t)o->top) {
		r->more = 1;
		/* The extra match's strings go with the rest at the end. */
		i = --v->npages;
		free((char *)v->pages[i].url);
		free((char *)v->pages[i].title);
		free((char *)v->pages[i].declared);
	}
	r->matches = (int64_t)v->npages;
	if (v->npages > 0 &&
	    (v->cluster = calloc(v->npages, sizeof(*v->cluster))) == NULL)
		return err_set(err, errsz, SEARCH_RUNTIME, "out of memory");
	for (i = 0; i < v->npages; i++) {
		v->cluster[i] = search_clusters_of(s->clusters, v->pages[i].id);
		if (o->k >= 0 && !v->pages[i].has_simhash)
			r->no_simhash++;
	}
	if (search_fold(v->pages, v->cluster, v->npages, o->k,
	    SEARCH_RULE_CANONICAL, &v->all, &v->nall) != 0)
		return err_set(err, errsz, SEARCH_RUNTIME, "out of memory");
	r->ngroups_all = v->nall;
	from = (size_t)o->offset < v->nall ? (size_t)o->offset : v->nall;
	to = v->nall - from > (size_t)o->limit ? from + (size_t)o->limit :
	    v->nall;
	for (i = from; i < to; i++) {
		v->all[i].rank = (int)i + 1;
		if (store_search_snippet(s->q, query, v->all[i].best->id,
		    &snip) != 0)
			goto dbfail;
		if (take_snippet(&v->all[i], snip) != 0)
			return err_set(err, errsz, SEARCH_RUNTIME,
			    "out of memory");
		r->omitted += (int64_t)v->all[i].nmembers;
	}
	r->groups = v->all + from;
	r->ngroups = to - from;
	return SEARCH_OK;
dbfail:
	return store_conn_fail(s->c, err, errsz, SEARCH_RUNTIME, SEARCH_BADDB);
}

int
search_run(struct search *s, const char *query, const struct search_opts *o,
    struct search_result **rp, char *err, size_t errsz)
{
	struct search_opts def;
	struct search_result *r;
	struct priv *v;
	int rc;

	*rp = NULL;
	if (o == NULL) {
		search_opts_default(&def);
		o = &def;
	}
	if ((rc = check_opts(o, err, errsz)) != SEARCH_OK ||
	    (rc = search_check_query(query, err, errsz)) != SEARCH_OK)
		return rc;
	if ((r = calloc(1, sizeof(*r))) == NULL ||
	    (v = calloc(1, sizeof(*v))) == NULL) {
		free(r);
		return err_set(err, errsz, SEARCH_RUNTIME, "out of memory");
	}
	r->priv = v;
	if (store_conn_begin(s->c) != 0)
		rc = store_conn_fail(s->c, err, errsz, SEARCH_RUNTIME,
		    SEARCH_BADDB);
	else
		rc = run(s, query, o, r, v, err, errsz);
	/* A reader's snapshot: nothing to keep, and on PostgreSQL a
	 * failed statement leaves the transaction unusable. */
	if (store_search_rollback(s->c) != 0 && rc == SEARCH_OK)
		rc = store_conn_fail(s->c, err, errsz, SEARCH_RUNTIME,
		    SEARCH_BADDB);
	if (rc != SEARCH_OK) {
		search_result_free(r);
		return rc;
	}
	*rp = r;
	return SEARCH_OK;
}
