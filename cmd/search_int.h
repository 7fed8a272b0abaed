/*
 * search_int: what the files of the search module share (cmd/search.h).
 * Internal: only they and the unit tests include it.
 *
 *   search_run.c      the API: open, run (one snapshot), results
 *   search_fold.c     clusters, groups and representatives (no I/O)
 *   search_cmd.c      `nearcrawl search`: options, text, CSV and JSON Lines
 *   search_queries.c  --queries: the query-biased paper's experiment
 *
 * There is no search.c: each file implements its part of search.h, which
 * this header includes, so that no file and its header circle.
 */
#ifndef NC_SEARCH_INT_H
#define NC_SEARCH_INT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cmd/search.h"

struct store_conn;
struct store_searcher;

/* PageRanks this close (relatively) are a tie, as `nearcrawl rank` says. */
#define SEARCH_RANK_TIE 1e-9

/* --- search_fold.c --- */

/*
 * The duplicate clusters of a crawl: a union-find over the duplicates
 * rows' two pages. Add every row, build once, then ask. About 32 bytes a
 * row while building, 12 a page once built.
 */
struct search_clusters;

/* An empty set, or NULL when out of memory. */
struct search_clusters *search_clusters_new(void);

/* One duplicates row joining pages a and b. 0, or -1 when out of memory. */
int search_clusters_add(struct search_clusters *c, int64_t a, int64_t b);

/* Join the rows added into clusters. 0, or -1 when out of memory. */
int search_clusters_build(struct search_clusters *c);

/* The cluster of page id: the smallest page id in it, 0 when the page is
 * in no duplicates row. */
int64_t search_clusters_of(const struct search_clusters *c, int64_t id);

/* Free c; NULL is fine. */
void search_clusters_free(struct search_clusters *c);

/* How search_fold picks a representative. */
enum search_rule {
	/* declared canonical, then PageRank, then first seen */
	SEARCH_RULE_CANONICAL,
	/* PageRank, then first seen: the paper's, which knows no
	 * declarations */
	SEARCH_RULE_PAGERANK,
};

/*
 * Fold the n pages p (best score first) into groups: pages in one
 * cluster (cluster[i], 0 for none) are one group, and with k >= 0 so are
 * pages whose SimHashes differ in at most k bits (a block index of k + 1
 * blocks finds the pairs, as the paper does). The groups come in the
 * order of their best-scored members; each gets its representative
 * (rule), what decided it, and its other members in score order, whose
 * fold and bits are set (the representative's fold is NONE). rank is
 * left 0, snippets NULL. Sets *groups (malloc'd, with their members
 * arrays: search_fold_free) and *ngroups; 0, or -1 when out of memory.
 */
int search_fold(struct search_page *p, const int64_t *cluster, size_t n,
    int k, enum search_rule rule, struct search_group **groups,
    size_t *ngroups);

/* Free groups (and their members arrays, not the pages). */
void search_fold_free(struct search_group *groups, size_t ngroups);

/* The bits two SimHashes differ in. */
int search_bits(uint64_t a, uint64_t b);

/* --- search_run.c --- */

struct search {
	char *db;                 /* the target, for messages */
	struct store_conn *c;     /* a connection of our own */
	struct store_searcher *q; /* its prepared statements */
	struct search_clusters *clusters; /* NULL until a run needs them */
	int64_t clusters_mark;    /* the duplicates mark they were built at */
};

/*
 * Load (or keep, when the duplicates are unchanged) s's clusters, inside
 * the open snapshot. SEARCH_OK, or SEARCH_RUNTIME / SEARCH_BADDB with
 * err set.
 */
int search_load_clusters(struct search *s, char *err, size_t errsz);

/* Whether the query is one a run takes: not empty, not too long, UTF-8
 * without control bytes. SEARCH_OK, or SEARCH_BADQUERY with err set. */
int search_check_query(const char *query, char *err, size_t errsz);

/* --- search_queries.c --- */

/* What --queries was given. */
struct search_queries_opts {
	const char *db;      /* the database */
	const char *file;    /* frequency TAB query, most frequent first */
	const char *dir;     /* where the CSV and the plot go */
	int top;             /* results taken per query */
	int quiet;           /* no progress on stderr */
};

/*
 * Run the paper's experiment (cmd/search_cmd.c's --queries), printing its
 * table on out and writing DIR/queries.csv and the plot. Returns the exit
 * status: 0; 1 at run time; 2 for a bad file, a bad query in it (its line
 * named) or a database it cannot search. err holds the message.
 */
int search_queries_run(const struct search_queries_opts *o, FILE *out,
    char *err, size_t errsz);

#endif
