/*
 * rank: `nearcrawl rank -d DB` -- PageRank over a crawl's link graph, and
 * the canonical page of every duplicate cluster.
 *
 * Nodes are the rows of pages (every verdict: a redirect passes its score
 * on to its target, an error or skipped page is a dead end). Edges are the
 * links table's links between pages of the database; links to URLs never
 * fetched, links of a page to itself and links whose hash matches no page
 * are left out. PageRank itself is pagerank.h's.
 *
 * A duplicate cluster is a connected component of the duplicates table:
 * pages joined by any row, whatever the method, so an original, its copies
 * and the copies of those copies are one cluster, as clusters.csv lists
 * them. Its canonical page is the member with the highest score; scores
 * within one part in a billion are a tie, won by the page fetched first
 * (smallest seq), so a graph without links keeps the crawl's originals.
 * A declared canonical (pages.canonical) overrides that choice when every
 * member that declares a member of its own cluster names the same page
 * (docs/rank.md, "Declared canonicals come first").
 *
 * Results go to the ranks table (page_id, pagerank, canonical_id), written
 * afresh in one transaction with everything read. Memory: about 74 bytes a
 * page and 4 bytes a link, all freed before returning.
 */
#ifndef NC_RANK_H
#define NC_RANK_H

#include <stddef.h>
#include <stdio.h>

/* Results of rank_run, the same as nearcrawl's exit statuses. */
enum { RANK_OK = 0, RANK_RUNTIME = 1, RANK_BADDB = 2 };

struct rank_opts {
	double damping; /* share of a page's score that follows its links */
	int max_iter;   /* most PageRank rounds */
	double epsilon; /* stop once a round changes the scores by less */
	int top;        /* pages listed in the summary, highest first */
};

/* Options with pagerank.h's defaults and a top 5. */
void rank_opts_default(struct rank_opts *o);

/*
 * Rank database db (a writer open: it must not be crawled meanwhile) and
 * write the ranks table; unless out is NULL, print a summary there: pages,
 * links, rounds, clusters, how many canonicals differ from the cluster's
 * first-fetched page, and the top pages. Returns RANK_OK; RANK_BADDB when
 * db is missing, not a nearcrawl database, in use by a crawl or unreadable,
 * or o is out of range; RANK_RUNTIME when memory runs out or a write fails.
 * On failure err holds a one-line message.
 */
int rank_run(const char *db, const struct rank_opts *o, FILE *out, char *err,
    size_t errsz);

#endif
