/*
 * eval_pairs: `nearcrawl eval` on documents and labelled pairs (--docs
 * DIR --pairs FILE); cmd/eval.h says what is measured.
 */
#ifndef NC_EVAL_PAIRS_H
#define NC_EVAL_PAIRS_H

#include <stddef.h>
#include <stdio.h>

#include "cmd/eval_util.h"

/* Run it and print the table to out. Returns EVAL_OK, or EVAL_USAGE or
 * EVAL_RUNTIME with a message in err (eval_run's statuses). */
int eval_pairs(const struct eval_opts *o, FILE *out, char *err,
    size_t errsz);

#endif
