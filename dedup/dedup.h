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

#include "dedup/md5.h"
#include "dedup/minhash.h"
#include "dedup/shingles.h"
#include "dedup/simindex.h"
#include "dedup/ssdeep.h"
#include "dedup/tdw.h"

enum dedup_method {
	DEDUP_MD5 = 1 << 0,
	DEDUP_SIMHASH = 1 << 1,
	DEDUP_SSDEEP = 1 << 2,
	DEDUP_MINHASH = 1 << 3,
	DEDUP_TDW = 1 << 4,
	/* Not a method but a candidate source: the page that linked to the
	 * page judged (dedup_linker), checked by the same rule. */
	DEDUP_LINKER = 1 << 5,
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
	int minhash_perms;      /* MinHash signature length k */
	int minhash_bands;      /* LSH bands b, dividing k (rows r = k / b) */
	int minhash_shingle;    /* words per MinHash shingle */
	int minhash_threshold;  /* near when estimated Jaccard >= this % */
	int tdw_threshold;      /* near when the TDW overlap is >= this % */
	struct tdw_opts tdw;    /* how TDW vectors are made */
	int fold_numbers;       /* SimHash and MinHash read every all-digit
	                           word as one word (1) or as it is (0) */
	size_t min_shingles;    /* evidence floor: a near verdict needs this
	                           many distinct shingles on both pages */
	long max_novel_words;   /* a near page may hold at most this many
	                           words its original lacks; -1: no cap */
	int max_novel_percent;  /* ... and no more than this share of its
	                           words (0..100; 100: no limit) */
	int own_novelty;        /* 1: the share is of the page's own words
	                           (outside template blocks) and of all its
	                           words, and the template is learnt from
	                           unique pages only; 0: of all its words */
	int linker;             /* 1: the page that linked to a page is a
	                           candidate too (dedup_linker), and a page is
	                           never near one that lists it
	                           (shingles_lists); 0: neither (older
	                           crawls) */
};

struct dedup_fp {
	char md5[MD5_HEX_LEN + 1]; /* hex MD5 of the text */
	uint64_t simhash;          /* valid when have & DEDUP_SIMHASH */
	char ssdeep[SSDEEP_MAX];   /* valid when have & DEDUP_SSDEEP */
	uint32_t minhash[MINHASH_MAX_PERMS]; /* first minhash_perms valid
	                                        when have & DEDUP_MINHASH */
	int minhash_perms;         /* length of that signature */
	struct tdw_vec tdw;        /* valid when have & DEDUP_TDW */
	unsigned have;             /* methods computed */
	size_t text_len;           /* bytes of text fingerprinted */
};

struct dedup_match {
	int64_t original_id;      /* the earlier page */
	enum dedup_method method; /* which method matched */
	double percent;           /* similarity, 100 for exact */
};

/* Most matches one check reports per method, and over all methods. */
#define DEDUP_MAX_PER_METHOD 8
#define DEDUP_NEAR_METHODS 4
#define DEDUP_METHODS (1 + DEDUP_NEAR_METHODS) /* entries of dedup_method_at */
#define DEDUP_MAX_MATCHES (DEDUP_NEAR_METHODS * DEDUP_MAX_PER_METHOD)

struct dedup;

/* Parse "md5,simhash,ssdeep,minhash,tdw" (any order, any subset) into
 * DEDUP_* bits; md5 is added always. Returns 0, or -1 with *bad pointing
 * into s at the unknown name. */
int dedup_parse_methods(const char *s, unsigned *methods, const char **bad);

/* Method name ("md5", "simhash", "ssdeep", "minhash", "tdw") of one DEDUP_*
 * bit; "linker" for DEDUP_LINKER. */
const char *dedup_method_name(enum dedup_method m);

/*
 * What the rest of the project knows of one method, for code that goes
 * over every method (eval, compare, the settings kept with a crawl): what
 * its threshold means, which values are worth trying, which settings
 * decide its verdicts. A method added to the table (dedup/method.h)
 * appears in them without further change.
 */
struct dedup_method_info {
	enum dedup_method method; /* its DEDUP_* bit */
	const char *name;         /* as in --methods and duplicates.method */
	const char *threshold;    /* its threshold ("k", "T"), or NULL when
	                             it only tells equal from not (md5) */
	int distance;             /* 1: alike when value <= threshold;
	                             0: when value >= threshold */
	double lo, hi;            /* thresholds dedup_config_threshold takes */
	const char *sweep;        /* thresholds an evaluation tries, "a,b,c" */
	const char *const *settings; /* INI keys of the settings that decide
	                                its verdicts, NULL-terminated; NULL
	                                for none */
	const char *features_key; /* meta key of its features version (what
	                             its fingerprint reads), or NULL */
	int features;             /* that version, when features_key */
	const char *features_label; /* the version's name in messages */
};

/* Row i of the method table (md5 first), or NULL past the last. */
const struct dedup_method_info *dedup_method_at(size_t i);

/* The row of method m, or NULL for an unknown bit. */
const struct dedup_method_info *dedup_method_info(enum dedup_method m);

/*
 * Set method m's threshold in cfg to t (simhash: simhash_k; ssdeep:
 * ssdeep_threshold; minhash: minhash_threshold). Returns 0, or -1 when m has no threshold or t is
 * outside [lo, hi] or not a whole number where one is needed.
 */
int dedup_config_threshold(struct dedup_config *cfg, enum dedup_method m,
    double t);

/*
 * How alike fingerprints a and b are by method m, in the units of its
 * threshold: md5 1 (equal) or 0, simhash the Hamming distance, ssdeep the
 * fuzzy_compare score, minhash the estimated Jaccard similarity in
 * percent, tdw the weighted overlap in percent. Returns 0 with *value set,
 * or -1 when either lacks m or holds a malformed fingerprint. Cannot fail
 * otherwise.
 */
int dedup_pair_value(enum dedup_method m, const struct dedup_fp *a,
    const struct dedup_fp *b, double *value);

/*
 * What method m says of fingerprints a and b, in words, into what
 * ("distance 3 of 64 bits, 95.3 %"), and the condition under which it
 * proposes a page under cfg's settings into rule ("<= 3"; "" for md5).
 * Both fingerprints must have m (dedup_all_methods makes them). Returns 0,
 * or -1 for an unknown m. Truncates to the sizes given.
 */
int dedup_pair_explain(enum dedup_method m, const struct dedup_config *cfg,
    const struct dedup_fp *a, const struct dedup_fp *b, char *what,
    size_t whatsz, char *rule, size_t rulesz);

/* Every method's DEDUP_* bit: a configuration that computes them all. */
unsigned dedup_all_methods(void);

/* Verdict name ("unique", "exact", "near"). */
const char *dedup_verdict_name(enum dedup_verdict v);

/* The verdict named s ("unique", "exact", "near"); any other name, as a
 * stored redirect or error row has, reads as DEDUP_EXACT (no page to
 * learn from). */
enum dedup_verdict dedup_verdict_of(const char *s);

/* New empty state for cfg (copied). NULL on bad config or out of memory;
 * the minhash_* fields are only looked at when DEDUP_MINHASH is on. */
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
 * near alone. ws: near's words read once already (words.h; shingles_words
 * gives them), which the methods that read words then take instead of
 * reading near again; NULL: each reads near. Pure: reads only d's
 * settings. Returns 0 or -1 as above.
 */
int dedup_fingerprint_page(const struct dedup *d, const char *text,
    size_t len, const char *near, size_t near_len, const struct words_seq *ws,
    const struct tdw_fields *f, struct dedup_fp *fp);

/*
 * Compute method m's fingerprint of text[0..len) into fp, adding m to
 * fp->have and leaving the rest of fp as it was: one method at a time, so
 * a tool can time each (md5 reads the whole text, the near methods the
 * near text: pass each the text it should read). TDW also reads the page's
 * other fields from f (NULL: none; f->text is ignored), the others ignore
 * f. m need not be in d's methods. Returns 0, or -1 for an unknown m or a
 * library failure.
 */
int dedup_fingerprint_method(const struct dedup *d, enum dedup_method m,
    const char *text, size_t len, const struct tdw_fields *f,
    struct dedup_fp *fp);

/*
 * Judge fp against everything added so far. Writes up to max matches into
 * out (exact: the one MD5 match; near: every near match found, at most
 * DEDUP_MAX_PER_METHOD per method, best first; DEDUP_MAX_MATCHES is always
 * enough) and their number into *nout. Returns the verdict. Cannot fail.
 * An empty text (text_len 0) can only be exact, like any text shorter than
 * cfg->min_text; near methods absent from fp->have do not match, nor does a
 * MinHash signature of another length than cfg->minhash_perms. The TDW
 * index marks the vectors a query meets, so checks on one state must not
 * run concurrently (they run on the loop).
 */
enum dedup_verdict dedup_check(const struct dedup *d, const struct dedup_fp *fp,
    struct dedup_match *out, size_t max, size_t *nout);

/*
 * Where dedup_confirm finds an earlier page's shingle set and terms:
 * fills *q (the caller of fn frees it with shingles_ref_free), zeroed
 * when none is stored for id. Returns 0, or -1 on a failure (database,
 * memory) that must stop the caller.
 */
typedef int (*dedup_set_fn)(void *ctx, int64_t id, struct shingles_ref *q);

/* Why dedup_confirm turned a near verdict into unique, or what made it
 * near. */
struct dedup_veto {
	int floor;           /* 1: too few shingles on this page to judge */
	int64_t original_id; /* else the best candidate looked at, or 0 */
	size_t novel;        /* and this page's own words it lacks */
	struct shingles_novelty nv; /* the figures against it */
	int64_t near_id;     /* a near verdict's closest original, or 0 */
	struct shingles_novelty near_nv; /* the figures against it */
};

/* A page with fewer words of its own (outside its site's template) is
 * judged on all its words: too few to measure a share of. */
#define DEDUP_OWN_MIN_WORDS 10

/*
 * Measure page p against the earlier page q under d's settings
 * (shingles_measure, tmpl as there): without own_novelty, q's pairs and
 * link targets are set aside (q's counts of them zeroed), as the rule
 * before it covered words by shingles alone. Cannot fail.
 */
void dedup_measure(const struct dedup *d, const struct shingles *p,
    struct shingles_ref *q, const unsigned char *tmpl,
    struct shingles_novelty *nv);

/*
 * Whether figures nv of a page against an earlier one (shingles_measure)
 * make it a near copy under d's settings (docs/dedup.md, "What near
 * means"): at most max_novel_percent % of its own words new and at most
 * that share of all its words (own_novelty; all words only when it has
 * fewer than DEDUP_OWN_MIN_WORDS own words), or of all its words counting
 * template words as not new (the rule before own_novelty); and at most
 * max_novel_words new own words when that is >= 0. Cannot fail.
 */
int dedup_novelty_holds(const struct dedup *d,
    const struct shingles_novelty *nv);

/* Own words a page needs for its linker to be a candidate: a paragraph,
 * so that the template linker and page share cannot be most of it. */
#define DEDUP_LINKER_MIN_WORDS 50

/* Candidates dedup_confirm loads at most (best first), besides the
 * linker. */
#define DEDUP_CONFIRM_MAX 4

/*
 * Add the page that linked to the page judged (its id, 0 for none) to the
 * candidates of dedup_check's verdict v (matches m[0..*nm), room for max):
 * the sketches estimate resemblance, so a page contained in a much longer
 * earlier one (a print view of an article with comments, a raw file shown
 * in a source view, another view of a catalogue record) is not proposed
 * by them, while the page it comes from links to it. Returns the verdict
 * for dedup_confirm: v when it is exact, when linker is 0 or already a
 * candidate, when cfg->linker is off, or when max_novel_percent is 100:
 * with no share to hold it to, the linker would confirm every page it
 * links to; else near, with the linker appended as a DEDUP_LINKER match.
 * Cannot fail.
 */
enum dedup_verdict dedup_linker(const struct dedup *d, enum dedup_verdict v,
    int64_t linker, struct dedup_match *m, size_t max, size_t *nm);

/*
 * Confirm a near verdict v of dedup_check (its matches m[0..*nm)) against
 * the page's shingles p: the page needs cfg->min_shingles distinct
 * shingles, and so does the original; and the page may hold at most
 * cfg->max_novel_words words the original lacks (shingles.h), and no more
 * than cfg->max_novel_percent % of its words, words in blocks flagged in
 * tmpl (one byte per block of p, or NULL) not counted. Each of the
 * first DEDUP_CONFIRM_MAX distinct originals is loaded through fn; matches
 * with an original that fails (or has no stored set) are dropped, and the
 * near rule is applied again to what is left. Returns the confirmed
 * verdict (v itself unless v is near), with m and *nm cut to the kept
 * matches; when it says unique, *veto (if not NULL) says why. Returns v
 * unchanged when v is not near or both checks are off (min_shingles 0,
 * max_novel_words -1). On a failure of fn sets *err to 1 and returns v.
 */
enum dedup_verdict dedup_confirm(const struct dedup *d,
    const struct shingles *p, const unsigned char *tmpl, enum dedup_verdict v,
    struct dedup_match *m, size_t *nm, dedup_set_fn fn, void *ctx,
    struct dedup_veto *veto, int *err);

/*
 * Remember fp as page id for later checks. An MD5 already known keeps its
 * first page. Only methods both configured and in fp->have are indexed; a
 * malformed MD5 or ssdeep digest, or a MinHash signature of another length
 * than configured, is skipped, not an error. Returns 0, or -1 when out of
 * memory (state unchanged).
 */
int dedup_add(struct dedup *d, const struct dedup_fp *fp, int64_t id);

/*
 * Resume: index page id's method-m fingerprint in fp, for a page given to
 * dedup_add before without it (a fingerprint stored apart from the
 * others, as TDW vectors are). Nothing happens when m is not configured.
 * Returns 0, or -1 when out of memory.
 */
int dedup_add_method(struct dedup *d, enum dedup_method m,
    const struct dedup_fp *fp, int64_t id);

/*
 * Lock keys: several processes judging pages at once each lock a page's
 * keys (in the database) before they catch up on pages the others added,
 * judge it and add it. That is as good as judging one page at a time when
 * any two pages where either could be reported as a match of the other
 * (by dedup_check, after dedup_add of the other) lock a common key. Each
 * method's keys are its index's own, so this holds exactly, not by
 * chance:
 *
 *   md5      the first 8 bytes of the digest: an exact match has the
 *            same digest (1 key).
 *   simhash  one key per table of the block index (simindex_keys): a
 *            match agrees exactly on some table's bits, so shares that
 *            table's key (k + 1: 4 at k = 3; at most SIMINDEX_MAX_TABLES).
 *   ssdeep   the (block size, 7-gram) keys the index stores and probes
 *            (ssdeep_keys): a digest is compared at all only through one
 *            of them (at most SSDEEP_KEYS_MAX, 117).
 *   minhash  the LSH band keys (minhash_index_keys): a candidate shares
 *            a band key (minhash_bands keys; 32 by default).
 *   tdw      the prefix of the vector in a fixed token order at the
 *            configured threshold (tdw_index_keys): a match's overlap
 *            reaches the threshold, and then the pair shares a token in
 *            both prefixes (at most tdw.max_tokens, 128 by default).
 *
 * A method's keys are mixed with its number, so keys of two methods meet
 * only by chance (which costs waiting, not correctness). The keys depend
 * only on the fingerprint and d's settings, never on what d holds, so all
 * processes with the same settings agree. A text shorter than min_text
 * is never judged near, but dedup_add still indexes its near
 * fingerprints, where a later page can find them, so it locks those keys
 * too; only methods usable for fp (configured and in fp->have, a MinHash
 * signature of the configured length, a well-formed MD5 or ssdeep digest)
 * give keys, as only they are checked or indexed.
 */

/* Most lock keys one page has under any settings. */
#define DEDUP_LOCK_KEYS_MAX (1 + SIMINDEX_MAX_TABLES + SSDEEP_KEYS_MAX + \
    MINHASH_MAX_PERMS + TDW_TOKENS_MAX)

/* Most lock keys a page fingerprinted by d has under d's settings (37
 * for the default md5,simhash,minhash with k 3 and 32 bands;
 * TDW adds tdw.max_tokens), never more than DEDUP_LOCK_KEYS_MAX. */
size_t dedup_lock_keys_max(const struct dedup *d);

/*
 * Write fp's lock keys, sorted ascending and without duplicates, into
 * keys[0..cap), and return their number. When that exceeds cap only the
 * first cap were written, which is not enough to lock: call again with
 * room for all (dedup_lock_keys_max(d) always is for a fingerprint d
 * made, DEDUP_LOCK_KEYS_MAX for any). Reads only fp and d's
 * settings. Cannot fail.
 */
size_t dedup_lock_keys(const struct dedup *d, const struct dedup_fp *fp,
    uint64_t *keys, size_t cap);

/* Whether d's settings measure novelty by own words (own_novelty). */
int dedup_own_novelty(const struct dedup *d);

/*
 * Whether a page judged v teaches its site's template (template.h), nv
 * being the figures that made it near (the veto's near_nv; NULL: not
 * known). With own_novelty, pages of other documents teach: a unique
 * page, and a near page whose new words are at least half the allowed
 * share of all its words -- a page that adds that much of its own is as
 * likely another document on the same boilerplate (the second course
 * page of a catalogue) as a copy, and a false near verdict is the worse
 * error; copies that add less (print views, revision boxes, changed
 * dates) never turn the text of one document into template. Without
 * own_novelty, every page that is not an exact copy teaches.
 */
int dedup_learns_template(const struct dedup *d, enum dedup_verdict v,
    const struct shingles_novelty *nv);

struct tmpl;

/*
 * Teach site's template in t the blocks of a stored shingle set (blob,
 * len bytes, as shingles_blob wrote it) of a page judged verdict, when
 * that page teaches it: by the teaches flag the set carries, or, in a set
 * stored without one, by dedup_learns_template. A resume and the web view
 * learn a site's template so, as the crawl learnt it. A malformed set is
 * skipped, as a malformed ssdeep digest is. 0, or -1 when out of memory.
 */
int dedup_learn_stored(const struct dedup *d, struct tmpl *t,
    const char *site, const char *verdict, const void *blob, size_t len);

/* The evidence floor of d's settings (dedup_config.min_shingles). */
size_t dedup_min_shingles(const struct dedup *d);

/* Pages added. */
size_t dedup_count(const struct dedup *d);

/* Bytes of memory all indexes hold. */
size_t dedup_bytes(const struct dedup *d);

/* Bytes of memory method m's index holds (0 when m is off or unknown);
 * over every method these add up to dedup_bytes but for the struct. */
size_t dedup_method_bytes(const struct dedup *d, enum dedup_method m);

#endif
