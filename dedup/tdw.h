/*
 * tdw: field-weighted token vectors of web pages (the research's TDW
 * matrix, Das et al.), their similarity by minimum weight overlap (MWO),
 * and an index that finds every stored vector whose overlap with a query
 * reaches a threshold, through prefix and positional filtering (Xiao et
 * al., WWW 2008) instead of a comparison with every page.
 *
 * Vector. Each occurrence of a token adds the weight of the field it is in:
 *
 *   URL (path and query) 2   title 2   headings 2   meta keywords 3
 *   meta description 3   main text 1   text of links to the page's own
 *   site 1, to another site 0.5
 *
 * (a token in two fields gets both). The max_tokens heaviest tokens are
 * kept, ties going to the smaller token id, so that two pages that differ
 * a little keep the same tokens rather than two arbitrary halves of a tie;
 * their weights are scaled to integers that sum to exactly TDW_SCALE
 * (largest remainders round up, tokens that round to 0 go).
 *
 * Tokens: maximal runs of letters and digits. ASCII, Latin-1, Latin
 * Extended-A, Greek and Cyrillic capitals are lower-cased; other code
 * points from U+0080 up count as letters except punctuation, symbols,
 * spaces and emoji (the Latin-1 signs, U+2000-U+2BFF, U+3000-U+303F, the
 * fullwidth signs, U+FFF0 up). Runs longer than TDW_WORD_MAX bytes are not
 * words (hashes, encoded data). Every all-digit run is the one token "#",
 * so dates, counters and calendar grids do not tell pages apart (as SimHash
 * folds numbers). Options: English stop words dropped (a built-in list of
 * about 160), and a light English suffix stripper for ASCII words: plural
 * -ies/-s, then -ing/-ed when a vowel is left (a doubled final consonant
 * undoubled), then final e's, so "makes", "making" and "make" meet. The
 * URL's scheme and host are skipped (mirrors on other hosts stay alike), %XX
 * escapes decoded, and file extensions (html, php, asp ...) left out. A
 * token's id is the top 32 bits of the splitmix64 finaliser of its FNV-1a
 * hash; a collision merges two tokens, harmlessly.
 *
 * Similarity. MWO(a, b) = sum over shared tokens of min(w_a, w_b), in
 * weight units: TDW_SCALE for equal vectors, 0 for disjoint ones.
 *
 * Index. A global order of tokens: the index numbers each token the first
 * time a vector holding it is added, and orders tokens newest first. The
 * numbers never change, so the order is fixed -- which prefix filtering
 * needs: with document frequencies, whose order moves with every page, a
 * prefix computed earlier stops being a prefix and pairs are missed. Newest
 * first is close to rarest first, which keeps posting lists short: the
 * words every page of a site shares (its name, menus, common English) are
 * met on its first pages and go last. A query's tokens the index has never
 * seen go first; no stored vector holds them.
 *
 * With T the threshold in weight units and rest(i) the weight of a vector
 * from its position i to its end (in that order), position i is in the
 * prefix when rest(i) >= T. Let z be the first token (in the order) that
 * vectors x and y share, at position i in x and j in y. No shared token
 * comes before, and min(w_x, w_y) is at most either weight, so
 * MWO(x, y) <= min(rest_x(i), rest_y(j)). Hence MWO(x, y) >= T puts z in
 * both prefixes (prefix filtering): each stored vector posts its prefix
 * tokens (vector, position, rest), and a query walks the postings of its
 * own prefix tokens in order. The first posting of y it meets is z, if the
 * pair can reach T at all; later ones are skipped (a mark per stored
 * vector). The pair is then merged from (i, j) on, and the merge gives up
 * as soon as the overlap so far plus the smaller remaining weight falls
 * short of T (positional filtering; with normalised weights and a fixed T
 * the bound at z itself says no more than prefix membership). What
 * survives is the exact MWO, and the answers are those of a full scan.
 *
 * Before the merge, a cheaper bound: each stored vector keeps a 128-byte
 * sketch, the weight of its tokens in each of 64 buckets (token id hashed),
 * 16 bits each (the weights sum to TDW_SCALE). Tokens in one bucket share
 * at most the smaller bucket weight, so the sum over buckets of the smaller
 * weight bounds MWO from above. It reads two cache lines where the merge
 * reads ten, and runs on vector lanes; on a site whose pages share most of
 * their vocabulary it discards most candidates. Postings are chained per
 * token as they come, and moved into one array grouped by token once the
 * chained ones are a fifth of all, so a walk reads memory in order; a
 * token with 256 postings gets an array of its own, appended to, since
 * the newest postings a query walks of a frequent token were nearly all
 * in the chains.
 *
 * A query's cost grows with the postings of its prefix tokens: on a site
 * whose pages draw on a small vocabulary (generated text; menus) every
 * prefix holds common words and every query would meet a good part of the
 * index, so a query walks each token's newest postings only (below).
 * docs/dedup.md has figures.
 *
 * Memory: 24 bytes per stored vector, 128 of sketch and 4 of mark, 6 per
 * kept token (order number and weight), 8 to 12 per prefix token
 * (posting), about 20 per distinct token.
 */
#ifndef NC_TDW_H
#define NC_TDW_H

#include <stddef.h>
#include <stdint.h>

/* Bump when tokens, weights or scaling change: stored vectors differ. */
#define TDW_FEATURES_VERSION 1

#define TDW_SCALE 65535     /* the weights of a vector sum to this */
#define TDW_TOKENS_MAX 512  /* hard cap on tokens per vector */
#define TDW_TOKENS_DEFAULT 128
#define TDW_WORD_MAX 64     /* longest word, bytes of UTF-8 */
/* Bytes of tdw_pack's output at most: a version byte, 6 per token. */
#define TDW_PACKED_MAX (1 + 6 * TDW_TOKENS_MAX)

struct tdw_opts {
	int stopwords;  /* drop English stop words */
	int stem;       /* strip English suffixes from ASCII words */
	int max_tokens; /* keep this many heaviest tokens, 1..TDW_TOKENS_MAX
	                   (out of range: TDW_TOKENS_DEFAULT) */
};

/* What a page is made of; NULL (or text_len 0) for an absent field. */
struct tdw_fields {
	const char *url;           /* the page's URL */
	const char *title;         /* <title> */
	const char *headings;      /* h1..h6 */
	const char *anchors_same;  /* text of links to its own site */
	const char *anchors_other; /* text of links to other sites */
	const char *keywords;      /* meta keywords */
	const char *description;   /* meta description */
	const char *text;          /* main text, text_len bytes */
	size_t text_len;
};

struct tdw_term {
	uint32_t id; /* token id */
	uint16_t w;  /* weight, > 0 */
};

/* A page's vector: n terms sorted by increasing id, weights summing to
 * TDW_SCALE (or n == 0: no token at all). */
struct tdw_vec {
	uint16_t n;
	struct tdw_term t[TDW_TOKENS_MAX];
};

struct tdw_match {
	int64_t id;       /* the id given to tdw_index_add */
	uint32_t overlap; /* MWO with the query, weight units */
};

struct tdw_index;

/*
 * Build the vector of the page f into v with options o (NULL: no stop
 * words, no stemming, TDW_TOKENS_DEFAULT tokens). Pure: reads only its
 * arguments. Returns 0, or -1 when out of memory (v then empty). A page
 * with more than 128 Ki distinct tokens counts only the first 128 Ki.
 */
int tdw_vector(const struct tdw_fields *f, const struct tdw_opts *o,
    struct tdw_vec *v);

/*
 * The tokens of s[0..len) under o, each as it is hashed, joined by single
 * spaces into out (NUL-terminated, cut at a token when out is short). For
 * tests and diagnostics. Returns the number of tokens written.
 */
size_t tdw_tokens(const char *s, size_t len, const struct tdw_opts *o,
    char *out, size_t outsz);

/* MWO of two vectors, 0..TDW_SCALE. */
uint32_t tdw_overlap(const struct tdw_vec *a, const struct tdw_vec *b);

/* A weight in percent of TDW_SCALE. */
double tdw_percent(uint32_t overlap);

/* The least overlap that reaches percent (clamped to 0..100). */
uint32_t tdw_threshold(int percent);

/* Pack v little-endian into out (TDW_PACKED_MAX bytes); returns bytes. */
size_t tdw_pack(const struct tdw_vec *v, unsigned char *out);

/*
 * Unpack len bytes from tdw_pack into v. Returns 0, or -1 (v empty) when
 * they are not a well-formed vector: another version, a torn length, more
 * than TDW_TOKENS_MAX tokens, ids not increasing, a weight of 0, or
 * weights not summing to TDW_SCALE.
 */
int tdw_unpack(const void *p, size_t len, struct tdw_vec *v);

/* New empty index for threshold percent (1..100); NULL when out of range
 * or out of memory. */
struct tdw_index *tdw_index_new(int percent);

/* Free the index; NULL is fine. */
void tdw_index_free(struct tdw_index *ix);

/*
 * Make room for adding v, so that tdw_index_add(ix, v, ...) cannot fail
 * next. Returns 0, or -1 when out of memory (the index still works).
 */
int tdw_index_reserve(struct tdw_index *ix, const struct tdw_vec *v);

/*
 * Store a copy of v (well formed, as tdw_unpack checks) under id. An empty
 * vector is not stored: it can match nothing. Returns 0, or -1 when out of
 * memory (index unchanged).
 */
int tdw_index_add(struct tdw_index *ix, const struct tdw_vec *v, int64_t id);

/* Postings of one token a query walks at most, the newest first: the
 * default of tdw_index_limit. */
#define TDW_TOKEN_MEETS 256

/*
 * Find the stored vectors whose MWO with v reaches the threshold. Writes
 * up to max of them into out, best first (largest overlap, then smallest
 * id), and returns how many there are (may exceed max). Of each prefix
 * token, only the newest TDW_TOKEN_MEETS postings (tdw_index_limit) are
 * walked: on a site
 * whose pages share most words every query would otherwise meet a good
 * part of the index, its time growing with the crawl (1.35 ms a page at
 * 12,000 pages, 0.2 ms so). An original is missed only when it is older
 * than that many pages in every prefix token the two share; the page is
 * then judged unique, the safe error. Cannot
 * fail: it allocates nothing. It changes nothing but the marks of which
 * vectors the query met, so queries on one index must not run
 * concurrently.
 */
size_t tdw_index_query(struct tdw_index *ix, const struct tdw_vec *v,
    struct tdw_match *out, size_t max);

/*
 * Lock keys of v: token ids such that, for any two vectors the index could
 * report as a match of one another, their keys intersect. The index's own
 * prefixes cannot serve: its token order is the order tokens were first
 * added, which differs from process to process and moves as pages come.
 * But the proof above holds for any fixed order: if MWO(x, y) >= T, the
 * first token x and y share is in both prefixes. So the keys are v's
 * prefix in an order fixed for ever -- by the splitmix64 finaliser of the
 * token id, ascending -- with T the index's threshold: every token at whose
 * position the weight from there to the end is still >= T. The index
 * reports a stored vector only when their overlap reaches T (verify counts
 * shared weight only), so every match it can report shares a key. These
 * keys cover matches, not every vector a query merely meets on the way.
 * They depend only on v and the threshold, never on what is stored. A
 * hashed order knows nothing of rarity, so common tokens are in many
 * prefixes: unrelated pages drawing on one vocabulary often share a key
 * and wait on each other (nine pairs in ten of random pages over 4096
 * words, at 60 %), where the index's newest-first order keeps common
 * tokens out of its prefixes. Correct, but close to one lock per site.
 * Writes the ids, widened to 64 bits, into keys (at most v->n, so at most
 * TDW_TOKENS_MAX) and returns their number: 0 for a vector whose weight is
 * under T, which can match nothing. Cannot fail.
 */
size_t tdw_index_keys(const struct tdw_index *ix, const struct tdw_vec *v,
    uint64_t *keys);

/* Vectors stored. */
/* Walk at most meets postings of each token a query probes, the newest
 * first (0: all of them, and answers are exactly those of a full scan).
 * An index starts at TDW_TOKEN_MEETS. */
void tdw_index_limit(struct tdw_index *ix, size_t meets);

size_t tdw_index_count(const struct tdw_index *ix);

/* Bytes of memory the index holds. */
size_t tdw_index_bytes(const struct tdw_index *ix);

#endif
