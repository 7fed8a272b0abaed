/*
 * dedup: the verdict on one page's text against every page seen before,
 * combining the methods through their indexes.
 *
 *   exact  the text's MD5 was seen before (match: method "md5", 100 %)
 *   near   otherwise, the near-duplicate rule holds: with rule ANY, some
 *          enabled near method finds an earlier page within its threshold;
 *          with ALL, every enabled near method does; with ONE, the method
 *          named by the rule does (the others still report their matches)
 *   unique otherwise
 *
 * Pages are added after they are checked (dedup_add), so a page never
 * matches itself, and a resumed crawl re-adds stored fingerprints the same
 * way.
 */
#ifndef NC_DEDUP_H
#define NC_DEDUP_H

#include <stddef.h>
#include <stdint.h>

#include "md5.h"
#include "ssdeep.h"
#include "tdw.h"

enum dedup_method {
	DEDUP_MD5 = 1 << 0,
	DEDUP_SIMHASH = 1 << 1,
	DEDUP_SSDEEP = 1 << 2,
	DEDUP_TDW = 1 << 4, /* 1 << 3 is MinHash's */
};

enum dedup_rule {
	DEDUP_RULE_ANY, /* near if any enabled near method matches */
	DEDUP_RULE_ALL, /* near if every enabled near method matches */
	DEDUP_RULE_ONE, /* near if the method in dedup_config.rule_method does */
};

enum dedup_verdict { DEDUP_UNIQUE, DEDUP_EXACT, DEDUP_NEAR };

struct dedup_config {
	unsigned methods;       /* DEDUP_* bits; MD5 is always on */
	int simhash_k;          /* near when Hamming distance <= this */
	int ssdeep_threshold;   /* near when fuzzy_compare score >= this */
	enum dedup_rule rule;   /* how near methods combine */
	unsigned rule_method;   /* the one method for DEDUP_RULE_ONE */
	size_t min_text;        /* texts shorter than this (bytes) are never
	                           near duplicates: too little to judge */
	int tdw_threshold;      /* near when the TDW overlap is >= this % */
	struct tdw_opts tdw;    /* how TDW vectors are made */
};

struct dedup_fp {
	char md5[MD5_HEX_LEN + 1]; /* hex MD5 of the text */
	uint64_t simhash;          /* valid when have & DEDUP_SIMHASH */
	char ssdeep[SSDEEP_MAX];   /* valid when have & DEDUP_SSDEEP */
	struct tdw_vec tdw;        /* valid when have & DEDUP_TDW */
	unsigned have;             /* methods computed */
	size_t text_len;           /* bytes of text fingerprinted */
};

struct dedup_match {
	int64_t original_id;      /* the earlier page */
	enum dedup_method method; /* which method matched */
	double percent;           /* similarity, 100 for exact */
};

/* Most matches one check reports per method. */
#define DEDUP_MAX_PER_METHOD 8

struct dedup;

/* Parse "md5,simhash,ssdeep,tdw" (any order, any subset) into DEDUP_* bits;
 * md5 is added always. Returns 0, or -1 with *bad pointing into s at the
 * unknown name. */
int dedup_parse_methods(const char *s, unsigned *methods, const char **bad);

/* Method name ("md5", "simhash", "ssdeep", "tdw") of one DEDUP_* bit. */
const char *dedup_method_name(enum dedup_method m);

/* Verdict name ("unique", "exact", "near"). */
const char *dedup_verdict_name(enum dedup_verdict v);

/* New empty state for cfg (copied). NULL on bad config or out of memory. */
struct dedup *dedup_new(const struct dedup_config *cfg);

/* Free it; NULL is fine. */
void dedup_free(struct dedup *d);

/* Compute the enabled fingerprints of text into fp. Returns 0, or -1 when a
 * library call fails. */
int dedup_fingerprint(const struct dedup *d, const char *text, size_t len,
    struct dedup_fp *fp);

/*
 * The same, with the near-duplicate methods reading another text than MD5:
 * exact copies are judged on the whole purified text, near copies on near
 * (e.g. the main content without the site's template). text_len and the
 * min_text rule then refer to near_len. Returns 0 or -1 as above.
 */
int dedup_fingerprint_split(const struct dedup *d, const char *text,
    size_t len, const char *near, size_t near_len, struct dedup_fp *fp);

/*
 * The same, with the page's other fields for TDW, which weights a token by
 * where it occurs (f->text and f->text_len are ignored: near is the main
 * text). f may be NULL (as dedup_fingerprint_split passes): then TDW reads
 * near alone. Pure: reads only d's settings. Returns 0 or -1 as above.
 */
int dedup_fingerprint_page(const struct dedup *d, const char *text,
    size_t len, const char *near, size_t near_len, const struct tdw_fields *f,
    struct dedup_fp *fp);

/*
 * Judge fp against everything added so far. Writes up to max matches into
 * out (exact: the one MD5 match; near: every near match found, at most
 * DEDUP_MAX_PER_METHOD per method, best first) and their number into *nout.
 * Returns the verdict. Cannot fail. An empty text (text_len 0) can only be
 * exact, like any text shorter than cfg->min_text; near methods absent from
 * fp->have do not match. The TDW index marks the vectors a query meets, so
 * checks on one state must not run concurrently (they run on the loop).
 */
enum dedup_verdict dedup_check(const struct dedup *d, const struct dedup_fp *fp,
    struct dedup_match *out, size_t max, size_t *nout);

/*
 * Remember fp as page id for later checks. An MD5 already known keeps its
 * first page. Only methods both configured and in fp->have are indexed; a
 * malformed MD5 or ssdeep digest is skipped, not an error. Returns 0, or -1
 * when out of memory (state unchanged).
 */
int dedup_add(struct dedup *d, const struct dedup_fp *fp, int64_t id);

/*
 * Resume: index page id's stored TDW vector v, for a page given to
 * dedup_add before without it (vectors are stored apart from the other
 * fingerprints). Nothing happens when TDW is not configured. Returns 0, or
 * -1 when out of memory.
 */
int dedup_add_tdw(struct dedup *d, const struct tdw_vec *v, int64_t id);

/* Pages added. */
size_t dedup_count(const struct dedup *d);

/* Bytes of memory all indexes hold. */
size_t dedup_bytes(const struct dedup *d);

#endif
