/*
 * search: full-text search of a crawl with its duplicates folded -- what
 * `nearcrawl search` prints and what a view of the crawl shows, so that
 * neither works out a result's group, representative or snippet itself.
 *
 * The index (storage/store_search.h) holds every judged page's title and
 * the text its near-duplicate methods read. A query is FTS5's syntax on
 * both engines (docs/search.md): SQLite runs it as it is, and ranks by
 * BM25; PostgreSQL gets it translated into a tsquery, and ranks by
 * ts_rank_cd.
 *
 * A run takes the best `top` matches (the window), then folds them:
 * matches in one duplicate cluster (a connected component of the
 * duplicates table, the crawl's own verdicts, as `nearcrawl rank` reads
 * it) are one group; with k >= 0, matches whose SimHashes differ in at
 * most k bits are one group too, as the query-biased paper groups a
 * query's results. A group stands where its best-scored member stands,
 * and shows its representative: the page its members' rel=canonical
 * declarations all name (declared canonical), else the member with the
 * highest PageRank (the ranks table of `nearcrawl rank`), else the one
 * fetched first (the smallest seq); the others are folded under it.
 * Counts and members are of the window: a member further down the whole
 * list of matches is not seen.
 *
 *	struct search *s;
 *	struct search_opts o;
 *	struct search_result *r;
 *
 *	if (search_open(db, &s, err, sizeof(err)) != SEARCH_OK) ...
 *	search_opts_default(&o);
 *	rc = search_run(s, "\"open day\" OR admissions", &o, &r, err, ...);
 *	if (rc == SEARCH_BADQUERY) ... (err says what is wrong with it)
 *	for (i = 0; i < r->ngroups; i++) ... r->groups[i].best->url ...
 *	search_result_free(r);
 *	search_close(s);
 *
 * A handle reads: it never writes, takes no lock and may stay open while
 * a crawl writes the same database; each run reads one snapshot. It is
 * not to be shared by threads at once.
 */
#ifndef NC_SEARCH_H
#define NC_SEARCH_H

#include <stddef.h>
#include <stdint.h>

#include "storage/store.h"

/* An open database to search (search_open). */
struct search;

/* Results of search_open and search_run. The command exits 1 for
 * RUNTIME and 2 for BADDB and BADQUERY. */
enum search_status {
	SEARCH_OK = 0,
	SEARCH_RUNTIME = 1,  /* out of memory, a damaged file, I/O, busy */
	SEARCH_BADDB = 2,    /* missing, not ours, no index to search */
	SEARCH_BADQUERY = 3, /* the query is not valid: err says why */
};

/* Upper bounds of search_opts, checked by search_run. */
#define SEARCH_LIMIT_MAX 10000 /* groups returned by one run */
#define SEARCH_TOP_MAX 100000  /* matches folded by one run */
#define SEARCH_K_MAX 64        /* SimHash bits */
#define SEARCH_QUERY_MAX 4096  /* bytes of a query */

struct search_opts {
	int limit;  /* groups returned, after offset; default 10 */
	int offset; /* groups skipped first (a page of results); default 0 */
	int top;    /* matches folded, best first; default 1000 */
	int k;      /* also group SimHashes within k bits; -1 (default): the
	               crawl's verdicts only */
};

/* What chose a group's representative. */
enum search_decided {
	SEARCH_DECIDED_ALONE,    /* nothing is folded under it */
	SEARCH_DECIDED_DECLARED, /* every member's rel=canonical that names a
	                            member names it */
	SEARCH_DECIDED_PAGERANK, /* the highest PageRank of the members */
	SEARCH_DECIDED_FIRST,    /* fetched first: no PageRank told them
	                            apart (rank not run, or a tie) */
};

/* Why a page is folded under its group's representative. */
enum search_fold {
	SEARCH_FOLD_NONE,    /* it is the representative */
	SEARCH_FOLD_CLUSTER, /* the crawl's verdicts join it to the group */
	SEARCH_FOLD_SIMHASH, /* only its SimHash does (within k bits) */
};

/* One matching page. Strings belong to the result. */
struct search_page {
	int64_t id;             /* pages.id */
	const char *url;        /* as crawled */
	const char *title;      /* NULL when the page has none */
	enum store_verdict verdict; /* the crawl's */
	int64_t seq;            /* fetch order */
	int hit;                /* place among the matches by score, 1.. */
	double score;           /* relevance, higher better: -BM25 on SQLite,
	                           ts_rank_cd on PostgreSQL (not comparable) */
	int has_pagerank;       /* the ranks table has the page */
	double pagerank;        /* its PageRank, a share of 1 */
	int has_simhash;        /* the crawl computed its SimHash */
	uint64_t simhash;
	const char *declared;   /* its rel=canonical URL, or NULL */
	enum search_fold fold;  /* why it is folded, NONE for the shown one */
	int bits;               /* SimHash bits from the representative's, -1
	                           when either has none */
};

/* A matched word's place in a snippet: bytes [off, off + len). */
struct search_mark {
	size_t off;
	size_t len;
};

/* One result as shown: a representative and what is folded under it. */
struct search_group {
	int rank;                     /* 1, 2 ... counting the offset */
	struct search_page *best;     /* the representative */
	char *snippet;                /* best's text around the matched
	                                 words, UTF-8 with no markup; "" when
	                                 it has no text */
	struct search_mark *marks;    /* the matched words in snippet, in
	                                 order; NULL when none */
	size_t nmarks;
	enum search_decided decided;  /* what chose best */
	struct search_page **members; /* the folded pages, best score first;
	                                 NULL when none */
	size_t nmembers;              /* the "N similar pages omitted" */
};

struct search_result {
	struct search_group *groups; /* in order, at most opts.limit */
	size_t ngroups;
	size_t ngroups_all;   /* groups of the whole window */
	int64_t matches;      /* matches folded (at most opts.top) */
	int more;             /* the query matches more than opts.top pages */
	int64_t omitted;      /* pages folded in the groups returned */
	int ranked;           /* the ranks table has rows: PageRank could
	                         decide (else say: run `nearcrawl rank`) */
	int64_t no_simhash;   /* with k >= 0: matches without a SimHash,
	                         which only their verdicts can group */
	int partial;          /* judged pages are missing from the index
	                         (say: run `nearcrawl index`) */
	void *priv;           /* the pages and their strings */
};

/* limit 10, offset 0, top 1000, k -1. */
void search_opts_default(struct search_opts *o);

/*
 * Open database db (an SQLite file or a postgresql:// URI) for searching:
 * checked as store_open does (read-only, no lock), then a connection of
 * its own. SEARCH_OK with *s set; else *s NULL, a one-line message in err,
 * and SEARCH_BADDB (missing, not a nearcrawl database, made before the
 * index and opened read-only: the message says to run `nearcrawl index`)
 * or SEARCH_RUNTIME (out of memory, busy, damaged).
 */
int search_open(const char *db, struct search **s, char *err, size_t errsz);

/*
 * Run query (FTS5 syntax, at most SEARCH_QUERY_MAX bytes) with options o
 * (NULL: the defaults) and fold its best matches. SEARCH_OK with *r set,
 * to be freed with search_result_free (no match: ngroups 0); else *r
 * NULL, a one-line message in err, and SEARCH_BADQUERY (an empty or
 * malformed query, options out of range: the message names the problem),
 * SEARCH_RUNTIME or SEARCH_BADDB (as store_conn_fail classifies the
 * database's failure).
 */
int search_run(struct search *s, const char *query,
    const struct search_opts *o, struct search_result **r, char *err,
    size_t errsz);

/* Free a result; NULL is fine. */
void search_result_free(struct search_result *r);

/* Close the handle; NULL is fine. */
void search_close(struct search *s);

/* "alone", "declared canonical", "pagerank", "first seen". */
const char *search_decided_name(enum search_decided d);

/* "", "cluster", "simhash". */
const char *search_fold_name(enum search_fold f);

/*
 * `nearcrawl search`: argv[0] is "search". Prints the results, or runs
 * the paper's experiment with --queries; returns the exit status (0, 1,
 * or 2 for bad usage, a bad query or a database it cannot search).
 */
int search_main(int argc, char **argv);

#endif
