/*
 * method: what dedup.c needs of one method, as one table of operations,
 * so that dedup.c goes over the methods in a loop and knows none of them
 * by name. Each method fills one struct dedup_method_ops in a file of its
 * own (dedup/method_NAME.c); dedup.c lists them in methods[]. Internal to
 * dedup/: the rest of the project sees the methods through dedup.h.
 *
 * An index is the method's own (struct simindex, ...), passed as void *.
 * Every operation on a fingerprint is called only for a fingerprint the
 * method's usable() accepts, and every operation on an index only when
 * the method is configured (its index exists).
 */
#ifndef NC_DEDUP_METHOD_H
#define NC_DEDUP_METHOD_H

#include <stddef.h>
#include <stdint.h>

/* Declared in dedup/dedup.h, which the method files include: this header
 * includes nothing of dedup/, so that dedup.c can include it. */
struct dedup_config;
struct dedup_fp;
struct dedup_match;
struct dedup_method_info;
struct tdw_fields;
struct words_seq;

/* How a method's index takes a page, which decides where dedup_add calls
 * it: an add that can fail must be undone when a later one fails. */
enum dedup_add_kind {
	DEDUP_ADD_UNDO,     /* add may fail; pop undoes the last add */
	DEDUP_ADD_RESERVED, /* reserve may fail, the add after it cannot */
	DEDUP_ADD_LAST,     /* add may fail and cannot be undone: called
	                       after every other fallible add (at most one
	                       method of this kind) */
};

struct dedup_method_ops {
	const struct dedup_method_info *info; /* its bit, name, threshold,
	                                         sweep, settings */
	int exact;                     /* 1: judges exact copies (reads the
	                                  whole text); 0: a near method
	                                  (reads the near text) */
	size_t threshold_at;           /* offsetof the int in struct
	                                  dedup_config holding its threshold;
	                                  unused when info.threshold is NULL */
	enum dedup_add_kind add_kind;  /* see above */

	/* Whether cfg's settings for this method make sense (looked at only
	 * when the method is on). NULL: it has none to check. */
	int (*config_ok)(const struct dedup_config *cfg);

	/* Compute the method's fingerprint of text[0..len) into fp (its own
	 * fields only; ws: text's words read once already, or NULL; f: the
	 * page's other fields, NULL for none). 0, or -1 on a library
	 * failure. */
	int (*fingerprint)(const struct dedup_config *cfg, const char *text,
	    size_t len, const struct words_seq *ws, const struct tdw_fields *f,
	    struct dedup_fp *fp);

	/* Whether fp's fingerprint can be compared under cfg, beyond being
	 * configured and present (a MinHash signature of another length
	 * cannot). NULL: always. */
	int (*comparable)(const struct dedup_config *cfg,
	    const struct dedup_fp *fp);

	/* How alike a and b are, in the units of the threshold (see
	 * dedup_pair_value). 0, or -1 for a malformed fingerprint. */
	int (*pair)(const struct dedup_fp *a, const struct dedup_fp *b,
	    double *value);

	/* What the method says of a and b for `compare`, into what, and the
	 * condition under which it proposes a page, into rule ("" when it
	 * has none). Cannot fail (truncates). */
	void (*explain)(const struct dedup_config *cfg,
	    const struct dedup_fp *a, const struct dedup_fp *b, char *what,
	    size_t whatsz, char *rule, size_t rulesz);

	/* New empty index for cfg; NULL when out of memory. */
	void *(*index_new)(const struct dedup_config *cfg);
	void (*index_free)(void *ix);

	/* The pages within the threshold of fp, best first, into out[0..max)
	 * (method and percent set); returns how many were written. Cannot
	 * fail. NULL for the exact method, which dedup.c asks through
	 * find. */
	size_t (*query)(void *ix, const struct dedup_config *cfg,
	    const struct dedup_fp *fp, struct dedup_match *out, size_t max);

	/* The exact method's page of fp: 1 with the page first added with
	 * the same fingerprint in *id, or 0 when there is none. NULL for a
	 * near method. */
	int (*find)(const void *ix, const struct dedup_fp *fp, int64_t *id);

	/* Make room so that add of fp as page id cannot fail
	 * (DEDUP_ADD_RESERVED only). 0, or -1 when out of memory. */
	int (*reserve)(void *ix, const struct dedup_fp *fp, int64_t id);

	/* Index fp as page id. 0; 1 when fp is not indexed but that is no
	 * error (a malformed stored digest, an MD5 known already); -1 when
	 * out of memory (index unchanged). */
	int (*add)(void *ix, const struct dedup_fp *fp, int64_t id);

	/* Undo the last add (DEDUP_ADD_UNDO only). */
	void (*pop)(void *ix);

	/* Most lock keys one fingerprint gives under cfg, and fp's keys into
	 * raw (room for keys_max), returning their number (dedup.h, "Lock
	 * keys"). ix may be NULL for the exact method. */
	size_t (*keys_max)(const void *ix, const struct dedup_config *cfg);
	size_t (*keys)(const void *ix, const struct dedup_fp *fp,
	    uint64_t *raw);

	/* Bytes of memory the index holds. */
	size_t (*bytes)(const void *ix);
};

/* The methods, one file each. */
extern const struct dedup_method_ops dedup_method_md5;
extern const struct dedup_method_ops dedup_method_simhash;
extern const struct dedup_method_ops dedup_method_ssdeep;
extern const struct dedup_method_ops dedup_method_minhash;
extern const struct dedup_method_ops dedup_method_tdw;

#endif
