/*
 * eval: `nearcrawl eval` -- how well duplicate detection does against
 * ground truth, in one of two ways.
 *
 * Pairs (`--docs DIR --pairs FILE`): FILE has one pair a line, "A B LABEL
 * [CLASS]": two documents under DIR, LABEL dup or near (the pair should be
 * found) or distinct (it should not), and an optional class naming the kind
 * of pair (a word; LABEL when absent). Blank lines and lines starting with
 * '#' are skipped. Every document named is read once, extracted as the
 * crawl extracts (HTML; any other file is its own text) and fingerprinted
 * by every method, for the main text and for the whole body text (as the
 * crawl's --text main and --text body). For each text, method and threshold
 * a pair is predicted a duplicate when the method's pair value reaches the
 * threshold (dedup.h: a distance at most k, a score at least T, equal MD5
 * for md5), and a near method never predicts a pair with an empty text or
 * one shorter than the min-text rule. A "crawl" row per text gives the
 * crawl's own verdict with its [dedup] settings: B checked after A is
 * exact or near, as `nearcrawl compare` says. Then TP, FP, FN and TN over the
 * pairs, precision TP/(TP+FP), recall TP/(TP+FN) (1 when the denominator is
 * 0, as scripts/eval/eval-labels.sh has it), F1 their harmonic mean (0 when
 * both are 0), and per page: microseconds to fingerprint by the method alone,
 * and to look up and add each document in turn through the crawl's index
 * at that threshold, with the index's bytes.
 *
 * Groups (`-d DB --groups FILE`): the crawl's verdicts scored against a
 * path<TAB>group<TAB>class file with the definitions of
 * scripts/eval/eval-labels.sh, so the figures are the same: judged pages are
 * those with verdict unique, exact or near, in seq order; a page's group is
 * its path's (the URL after scheme://host[:port], query kept, fragment
 * dropped), an exact label first, then the longest "*" prefix, else a group
 * of its own; a page is an expected duplicate when a judged page of its
 * group has a smaller seq, predicted when its verdict is exact or near. One
 * row for the crawl's verdicts, and one per method in the duplicates table
 * counting a page found by that method or by md5 (always checked first).
 *
 * Output: a table on stdout, or CSV. The methods come from dedup's method
 * table, so a method added there is evaluated without change here.
 */
#ifndef NC_EVAL_H
#define NC_EVAL_H

#include <stddef.h>
#include <stdio.h>

#include "cmd/eval_util.h"

/*
 * Parse the arguments of `nearcrawl eval` (argv[0] is "eval") into o, with
 * the crawl's defaults first. Returns 0; 1 for -h/--help (print
 * eval_usage); -1 with a message in err.
 */
int eval_parse_args(int argc, char **argv, struct eval_opts *o, char *err,
    size_t errsz);

/* The `nearcrawl eval --help` text. */
void eval_usage(FILE *out);

/*
 * Run the evaluation o asks for (pairs or groups) and print it to out.
 * Returns EVAL_OK; EVAL_USAGE when a file is missing, unreadable or
 * malformed (the pairs or groups file, a document, a database that is not
 * nearcrawl's); EVAL_RUNTIME when memory runs out or a library fails. err
 * then holds a one-line message.
 */
int eval_run(const struct eval_opts *o, FILE *out, char *err, size_t errsz);

#endif
