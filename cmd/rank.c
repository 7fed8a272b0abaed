/*
 * rank: the graph is read into arrays indexed by page ordinal (the pages'
 * rank in id order): ids and seqs, the out-links as compressed sparse rows
 * of 32-bit ordinals, and the URL hashes sorted for look-up. Clusters are
 * found with a union-find over the duplicates rows. store_open checks the
 * file, takes the writer lock and adds missing tables; the work runs on a
 * connection of our own (storage/query.h), in one transaction.
 */
#include "cmd/rank.h"

#include "util/esc.h"

#include <assert.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/pagerank.h"
#include "cmd/report.h"
#include "storage/query.h"
#include "storage/store.h"
#include "storage/store_pages.h"
#include "util/err.h"

#define RANK_NONE UINT32_MAX /* no ordinal */
#define RANK_CONFLICT (UINT32_MAX - 1) /* members declare different pages */
#define RANK_TIE 1e-9        /* scores this close (relatively) are equal */
#define RANK_TOP_MAX 100     /* most pages the summary lists */

/* A page's URL hash and ordinal, sorted by hash for look-up. */
struct key {
	uint64_t hash;
	uint32_t ord;
};

struct rk {
	const char *db;      /* path, for messages */
	char *err;           /* caller's message buffer */
	size_t errsz;
	struct store_conn *c; /* our connection */
	uint32_t n;          /* pages */
	uint32_t cap;        /* pages counted, the arrays' room */
	int64_t *id;         /* pages.id by ordinal, ascending */
	int64_t *seq;        /* pages.seq by ordinal */
	struct key *key;     /* n keys by hash */
	uint64_t *off;       /* n + 1 row offsets into to */
	uint32_t *to;        /* link targets */
	uint64_t links;      /* links kept in the graph */
	uint64_t dropped;    /* links to no page, or to their own page */
	double *score;       /* PageRank by ordinal */
	struct pagerank_stats ps;
	uint32_t *up;        /* union-find parent; RANK_NONE: in no cluster */
	uint32_t *best;      /* a cluster root's canonical so far */
	uint32_t *first;     /* a cluster root's first-fetched member */
	uint64_t clusters;   /* clusters */
	uint64_t clustered;  /* pages in clusters */
	uint64_t moved;      /* clusters whose canonical is not the first */
	uint32_t *decl;      /* a cluster root's declared canonical, or
	                        RANK_NONE, or RANK_CONFLICT */
	uint64_t declared;   /* clusters a member of which declares another
	                        member canonical */
	uint64_t agree;      /* ... naming PageRank's choice */
	uint64_t overridden; /* ... naming another member, who is taken */
	uint64_t conflicting; /* ... naming different members: PageRank's
	                         choice stays */
};

static int set_err(struct rk *r, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int
set_err(struct rk *r, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	code = err_vset(r->err, r->errsz, code, fmt, ap);
	va_end(ap);
	return code;
}

static int
db_fail(struct rk *r)
{
	return store_conn_fail(r->c, r->err, r->errsz, RANK_RUNTIME,
	    RANK_BADDB);
}

static int
oom_fail(struct rk *r)
{
	return set_err(r, RANK_RUNTIME, "out of memory");
}

static int
key_cmp(const void *a, const void *b)
{
	const struct key *x = a, *y = b;

	if (x->hash != y->hash)
		return x->hash < y->hash ? -1 : 1;
	return x->ord < y->ord ? -1 : x->ord > y->ord;
}

/* Ordinal of the page with URL hash h, or RANK_NONE. */
static uint32_t
find_hash(const struct rk *r, uint64_t h)
{
	size_t lo = 0, hi = r->n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (r->key[mid].hash < h)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < r->n && r->key[lo].hash == h ? r->key[lo].ord : RANK_NONE;
}

/* Ordinal of pages row id, or RANK_NONE. */
static uint32_t
find_id(const struct rk *r, int64_t id)
{
	size_t lo = 0, hi = r->n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (r->id[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < r->n && r->id[lo] == id ? (uint32_t)lo : RANK_NONE;
}

/* One page into the arrays; rows past the count are not expected (one
 * transaction) and left out. */
static int
page_in(const struct store_rank_page *p, void *arg)
{
	struct rk *r = arg;
	uint32_t i = r->n;

	if (i >= r->cap)
		return 0;
	r->id[i] = p->id;
	r->seq[i] = p->seq;
	r->key[i].hash = store_url_hash(p->url);
	r->key[i].ord = i;
	r->n++;
	return 0;
}

/* Every page's id, seq and URL hash, in id order. */
static int
load_pages(struct rk *r)
{
	int64_t n;

	if (store_conn_page_count(r->c, &n) != 0)
		return db_fail(r);
	if (n >= (int64_t)RANK_CONFLICT)
		return set_err(r, RANK_RUNTIME, "%s: %" PRId64 " pages: more "
		    "than rank handles", r->db, n);
	r->cap = (uint32_t)n;
	if (r->cap == 0)
		return 0;
	r->id = malloc((size_t)r->cap * sizeof(*r->id));
	r->seq = malloc((size_t)r->cap * sizeof(*r->seq));
	r->key = malloc((size_t)r->cap * sizeof(*r->key));
	if (r->id == NULL || r->seq == NULL || r->key == NULL)
		return oom_fail(r);
	if (store_rank_pages(r->c, page_in, r) != 0)
		return db_fail(r);
	qsort(r->key, r->n, sizeof(*r->key), key_cmp);
	return 0;
}

static uint64_t
get_le64(const unsigned char *p)
{
	uint64_t v = 0;
	int k;

	for (k = 7; k >= 0; k--)
		v = v << 8 | p[k];
	return v;
}

/* load_links' place in the graph. */
struct graph_fill {
	struct rk *r;
	uint64_t room; /* link slots in r->to */
	uint32_t u;    /* next row offset to set */
};

static int
links_in(const struct store_rank_links *l, void *arg)
{
	struct graph_fill *gf = arg;
	struct rk *r = gf->r;
	const unsigned char *b = l->targets;
	uint32_t src, v;
	size_t j;

	src = find_id(r, l->page_id);
	if (src == RANK_NONE || b == NULL)
		return 0;
	/* Rows of the pages before this one (and of this one) start here;
	 * ids ascend, so src never goes back. */
	for (; gf->u <= src; gf->u++)
		r->off[gf->u] = r->links;
	for (j = 0; j + 8 <= l->len && r->links < gf->room; j += 8) {
		v = find_hash(r, get_le64(b + j));
		if (v == RANK_NONE || v == src) {
			r->dropped++;
			continue;
		}
		r->to[r->links++] = v;
	}
	return 0;
}

/*
 * The links rows, in page id order, become the rows of the graph: a
 * page's row starts where the previous page's ends. Room for every stored
 * link is taken at once, from the blobs' total length.
 */
static int
load_links(struct rk *r)
{
	struct graph_fill gf;
	int64_t bytes;

	if (store_rank_link_bytes(r->c, &bytes) != 0)
		return db_fail(r);
	r->off = calloc((size_t)r->n + 1, sizeof(*r->off));
	r->to = malloc(bytes / 8 > 0 ? (size_t)(bytes / 8) * sizeof(*r->to) :
	    1);
	if (r->off == NULL || r->to == NULL)
		return oom_fail(r);
	gf.r = r;
	gf.room = (uint64_t)bytes / 8;
	gf.u = 0;
	r->links = 0;
	if (store_rank_links(r->c, links_in, &gf) != 0)
		return db_fail(r);
	for (; gf.u <= r->n; gf.u++)
		r->off[gf.u] = r->links;
	return 0;
}

static uint32_t
find_root(uint32_t *up, uint32_t x)
{
	/* Path halving keeps the trees flat without recursion. */
	while (up[x] != x) {
		up[x] = up[up[x]];
		x = up[x];
	}
	return x;
}

static void
join(uint32_t *up, uint32_t a, uint32_t b)
{
	if (up[a] == RANK_NONE)
		up[a] = a;
	if (up[b] == RANK_NONE)
		up[b] = b;
	a = find_root(up, a);
	b = find_root(up, b);
	/* The smaller ordinal roots: deterministic, and fine for depth
	 * with path halving. */
	if (a < b)
		up[b] = a;
	else if (b < a)
		up[a] = b;
}

/* Page a is a better canonical than page b. */
static int
better(const struct rk *r, uint32_t a, uint32_t b)
{
	double sa = r->score[a], sb = r->score[b];

	if (fabs(sa - sb) > RANK_TIE * (sa > sb ? sa : sb))
		return sa > sb;
	if (r->seq[a] != r->seq[b])
		return r->seq[a] < r->seq[b];
	return r->id[a] < r->id[b];
}

static int
pair_in(const struct store_rank_pair *p, void *arg)
{
	struct rk *r = arg;
	uint32_t a, b;

	a = find_id(r, p->page_id);
	b = find_id(r, p->original_id);
	if (a != RANK_NONE && b != RANK_NONE)
		join(r->up, a, b);
	return 0;
}

static int
find_clusters(struct rk *r)
{
	uint32_t u, root;

	r->up = malloc((size_t)r->n * sizeof(*r->up));
	r->best = malloc((size_t)r->n * sizeof(*r->best));
	r->first = malloc((size_t)r->n * sizeof(*r->first));
	if (r->up == NULL || r->best == NULL || r->first == NULL)
		return oom_fail(r);
	for (u = 0; u < r->n; u++)
		r->up[u] = RANK_NONE;
	if (store_rank_pairs(r->c, pair_in, r) != 0)
		return db_fail(r);
	for (u = 0; u < r->n; u++) {
		if (r->up[u] == RANK_NONE)
			continue;
		r->clustered++;
		root = find_root(r->up, u);
		if (root == u) {
			r->clusters++;
			r->best[u] = r->first[u] = u;
			continue;
		}
		/* A root is the smallest ordinal of its cluster, so it is
		 * met, and set up, before the other members. */
		assert(root < u);
		if (better(r, u, r->best[root]))
			r->best[root] = u;
		if (r->seq[u] < r->seq[r->first[root]])
			r->first[root] = u;
	}
	return 0;
}

/* One declared canonical: a vote of its page's cluster when it names a
 * member of that cluster. */
static int
declared_in(const struct store_rank_declared *d, void *arg)
{
	struct rk *r = arg;
	uint32_t u, v, root;

	u = find_id(r, d->page_id);
	if (u == RANK_NONE || r->up[u] == RANK_NONE)
		return 0;
	v = find_hash(r, store_url_hash(d->canonical));
	if (v == RANK_NONE || r->up[v] == RANK_NONE ||
	    (root = find_root(r->up, u)) != find_root(r->up, v))
		return 0;
	if (r->decl[root] == RANK_NONE)
		r->decl[root] = v;
	else if (r->decl[root] != v)
		r->decl[root] = RANK_CONFLICT;
	return 0;
}

/*
 * The declared canonicals (pages.canonical) inside each cluster: when
 * every member that declares a member of its own cluster names the same
 * one, that page becomes the canonical, whatever PageRank says; when they
 * name different members, PageRank's choice stays. Declarations of pages
 * outside the cluster (or never fetched) are not votes. Then count the
 * clusters whose canonical is not their first-fetched page.
 */
static int
apply_declared(struct rk *r)
{
	uint32_t u, d;

	if ((r->decl = malloc((size_t)r->n * sizeof(*r->decl) + 1)) == NULL)
		return oom_fail(r);
	for (u = 0; u < r->n; u++)
		r->decl[u] = RANK_NONE;
	if (store_rank_declared(r->c, declared_in, r) != 0)
		return db_fail(r);
	for (u = 0; u < r->n; u++) {
		if (r->up[u] != u)
			continue;
		d = r->decl[u];
		if (d != RANK_NONE) {
			r->declared++;
			if (d == RANK_CONFLICT)
				r->conflicting++;
			else if (d == r->best[u])
				r->agree++;
			else {
				r->overridden++;
				r->best[u] = d;
			}
		}
		if (r->best[u] != r->first[u])
			r->moved++;
	}
	return 0;
}

static int
write_ranks(struct rk *r)
{
	uint32_t u, c;

	if (store_ranks_clear(r->c) != 0)
		return db_fail(r);
	for (u = 0; u < r->n; u++) {
		c = r->up[u] == RANK_NONE ? RANK_NONE :
		    r->best[find_root(r->up, u)];
		if (store_rank_put(r->c, r->id[u], r->score[u],
		    c == RANK_NONE ? 0 : r->id[c]) != 0)
			return db_fail(r);
	}
	return 0;
}

/* Page ordinal a ranks before b in the top list. */
static int
higher(const struct rk *r, uint32_t a, uint32_t b)
{
	if (r->score[a] != r->score[b])
		return r->score[a] > r->score[b];
	return r->id[a] < r->id[b];
}

static void
print_summary(struct rk *r, const struct rank_opts *o, FILE *out)
{
	uint32_t top[RANK_TOP_MAX], u, k, i, nt = 0;
	const char *url;

	k = o->top < 0 ? 0 : o->top > RANK_TOP_MAX ? RANK_TOP_MAX :
	    (uint32_t)o->top;
	/* Insertion into a short list: n x top, never a sort of all. */
	for (u = 0; u < r->n && k > 0; u++) {
		if (nt == k && !higher(r, u, top[nt - 1]))
			continue;
		i = nt < k ? nt++ : nt - 1;
		for (; i > 0 && higher(r, u, top[i - 1]); i--)
			top[i] = top[i - 1];
		top[i] = u;
	}
	fprintf(out, "pages: %" PRIu32 ", links between them: %" PRIu64
	    " (%" PRIu64 " to pages not fetched or to themselves left out), "
	    "dead ends: %" PRIu32 "\n", r->n, r->links, r->dropped,
	    r->ps.dangling);
	if (r->links == 0 && r->n > 0)
		fprintf(out, "no links between the pages (a crawl made before "
		    "links were recorded?): every page scores the same and "
		    "the first-fetched page of a cluster stays canonical\n");
	fprintf(out, "PageRank: damping %.2f, %d round%s, last change %.3g "
	    "(%s)\n", o->damping, r->ps.iterations,
	    r->ps.iterations == 1 ? "" : "s", r->ps.delta,
	    r->ps.converged ? "converged" : "round limit reached");
	fprintf(out, "duplicate clusters: %" PRIu64 " with %" PRIu64 " pages; "
	    "canonical is not the first page fetched in %" PRIu64 "\n",
	    r->clusters, r->clustered, r->moved);
	fprintf(out, "declared canonical: %" PRIu64 " cluster%s declare%s one "
	    "of their members, %" PRIu64 " agree with PageRank's choice, %"
	    PRIu64 " override it, %" PRIu64 " disagree among themselves "
	    "(PageRank's choice kept)\n", r->declared,
	    r->declared == 1 ? "" : "s", r->declared == 1 ? "s" : "",
	    r->agree, r->overridden, r->conflicting);
	for (i = 0; i < nt; i++) {
		url = store_conn_page_url(r->c, r->id[top[i]]);
		/* Scores times n: 1 is the average page. */
		fprintf(out, "%s%8.3f  ", i == 0 ? "highest (score x pages):\n"
		    : "", r->score[top[i]] * (double)r->n);
		esc_fputs(url != NULL ? url : "?", out);
		putc('\n', out);
	}
	fprintf(out, "written to the ranks table (page_id, pagerank, "
	    "canonical_id)\n");
}

void
rank_opts_default(struct rank_opts *o)
{
	o->damping = PAGERANK_DAMPING;
	o->max_iter = PAGERANK_MAX_ITER;
	o->epsilon = PAGERANK_EPSILON;
	o->top = 5;
}

int
rank_run(const char *db, const struct rank_opts *o, FILE *out, char *err,
    size_t errsz)
{
	struct pagerank_opts po;
	struct pagerank_graph g;
	struct store *s = NULL;
	struct rk r;
	int rc;

	memset(&r, 0, sizeof(r));
	r.db = db;
	r.err = err;
	r.errsz = errsz;
	set_err(&r, 0, "%s", "");
	po.damping = o->damping;
	po.max_iter = o->max_iter;
	po.epsilon = o->epsilon;
	if (!(po.damping >= 0 && po.damping < 1) || po.max_iter < 1 ||
	    !(po.epsilon >= 0))
		return set_err(&r, RANK_BADDB, "bad PageRank options");
	/* The store checks the file is ours, locks it against a crawl and
	 * adds the links and ranks tables to an older database. */
	if ((s = store_open(db, 0, err, errsz)) == NULL)
		return RANK_BADDB;
	if ((rc = store_conn_open(db, STORE_CONN_WRITE, &r.c, err, errsz,
	    RANK_RUNTIME, RANK_BADDB)) != 0)
		goto out;
	if (store_conn_begin(r.c) != 0) {
		rc = db_fail(&r);
		goto out;
	}
	if ((rc = load_pages(&r)) != 0 || (rc = load_links(&r)) != 0)
		goto out;
	if (r.n > 0 && (r.score = malloc((size_t)r.n * sizeof(*r.score))) ==
	    NULL) {
		rc = oom_fail(&r);
		goto out;
	}
	g.n = r.n;
	g.off = r.off;
	g.to = r.to;
	if (pagerank_run(&g, &po, r.score, &r.ps) != 0) {
		rc = oom_fail(&r);
		goto out;
	}
	/* The graph is done with: give its memory back before clustering.
	 * The URL keys stay: declared canonicals are looked up by them. */
	free(r.to);
	free(r.off);
	r.to = NULL;
	r.off = NULL;
	if ((rc = find_clusters(&r)) != 0 || (rc = apply_declared(&r)) != 0)
		goto out;
	free(r.key);
	r.key = NULL;
	if ((rc = write_ranks(&r)) != 0)
		goto out;
	if (store_conn_commit(r.c) != 0) {
		rc = db_fail(&r);
		goto out;
	}
	if (out != NULL)
		print_summary(&r, o, out);
out:
	store_conn_close(r.c);
	store_close(s);
	free(r.id);
	free(r.seq);
	free(r.key);
	free(r.off);
	free(r.to);
	free(r.score);
	free(r.up);
	free(r.best);
	free(r.first);
	free(r.decl);
	return rc;
}
