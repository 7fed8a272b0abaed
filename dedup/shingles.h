/*
 * shingles: a text's word 3-shingles and the pairs of words on its lines,
 * for judging a near-duplicate verdict by containment (Broder 1997: the
 * share of one document's shingles found in another) rather than by a
 * sketch's estimate: the measure of docs/dedup.md, "What near means".
 *
 * Words are what words.h reads (runs of ASCII letters and digits and bytes
 * >= 0x80, ASCII lower-cased; each Han or kana character a word of its
 * own). Numbers are NOT folded: they are words like any other, so two
 * timetables or result tables with other figures do not share their
 * shingles. Each shingle is the 32-bit top of words.h's shingle hash (its
 * own seed); a text of one or two words is one shingle. Each word but the
 * first of a line also makes a pair with the word before it (24 bits).
 *
 * The index methods (SimHash, ssdeep, MinHash, TDW) find candidates; this
 * module answers the question a crawler cares about: how much of page P is
 * text that candidate Q does not have? A word of P is not new when some
 * shingle holding it is also one of Q's, or (not for a number) when one of
 * its pairs is a pair of Q's own lines wherever they stand; it is P's own
 * when its block (a line of the text: extract.c puts one block element a
 * line) is not known template of the site (template.h). One changed word
 * costs about one new word, a new sentence of n words n, a table of other
 * figures one a figure, lines moved nothing, and text P shares with Q
 * (its template, a long policy paragraph) nothing, wherever it sits.
 */
#ifndef NC_SHINGLES_H
#define NC_SHINGLES_H

#include <stddef.h>
#include <stdint.h>

struct words_seq;

/* Most shingles read from one text; the rest of a longer text is left
 * out of both the sequence and the set (about 1.5 MB of prose). */
#define SHINGLES_MAX 262144
/* The first byte of an encoded set (version 1: no terms; version 2: no
 * items). */
#define SHINGLES_BLOB_VERSION 3

struct shingles {
	uint32_t *seq;   /* shingle hashes in text order, n of them; NULL
	                    when n is 0 */
	size_t n;        /* entries in seq */
	size_t words;    /* words read: n + 2 for three words or more */
	uint32_t *set;   /* seq sorted, each value once; NULL when n is 0 */
	size_t distinct; /* entries in set */
	uint32_t *word;  /* per word read: its block's index */
	uint32_t *block; /* per block (line with words), a 32-bit hash of
	                    its words */
	size_t nblocks;  /* entries in block */
	uint32_t *term;  /* per word read: a 32-bit hash of the pair it
	                    ends (the word before it on its line, then it),
	                    or 0 for the first word of a line */
	unsigned char *number; /* per word read: 1 for a number (digits
	                    only), which is shared only in its shingles */
	uint32_t *target; /* per word read: where the link it is in leads
	                    (shingles_link.target), or 0 outside links */
	uint32_t *targets; /* the non-zero targets, sorted, each once */
	size_t ntargets;  /* entries in targets */
	uint32_t *terms; /* the non-zero pairs, sorted, each once */
	size_t nterms;   /* entries in terms */
	uint32_t *item;  /* per word read: its link's item (where it leads
	                    and its title, shingles_item), or 0 outside
	                    items */
	uint32_t *items; /* the non-zero items, sorted, each once */
	size_t nitems;   /* entries in items */
	uint32_t *pairs; /* every non-zero pair, sorted, each once (terms
	                    before shingles_keep_own_terms) */
	size_t npairs;   /* entries in pairs */
	uint32_t self;   /* where the page itself is (shingles_link.target
	                    of its URL), 0 when unknown: set by the caller */
	uint32_t *title; /* line hashes of its titles (shingles_add_title:
	                    <title>, headings), besides its blocks */
	size_t ntitles;  /* entries in title */
	int teaches;     /* the page teaches its site's template: set by the
	                    caller (dedup_learns_template), stored in the
	                    blob */
	uint32_t *rank;  /* per word read with a non-zero term: the place
	                    of its term in pairs */
	uint64_t *hash;  /* per word read: words_hash of it, unfolded
	                    (words.h), for shingles_words */
	int whole;       /* every word of the text was read (not cut at
	                    SHINGLES_MAX) */
};

/* What the measure needs of an earlier page: its shingle set and its
 * terms (both sorted ascending), as shingles or a stored blob give them.
 * Whoever fills one owns the arrays (shingles_ref_free). */
struct shingles_ref {
	uint32_t *set;    /* shingle hashes; NULL when n is 0 */
	size_t n;
	uint32_t *terms;  /* term hashes; NULL when nterms is 0 (a set
	                     stored before terms were) */
	size_t nterms;
	uint32_t *targets; /* where its own lines' links lead, sorted */
	size_t ntargets;
	int has_targets;  /* targets are known (0: a set stored before they
	                     were, whose links cannot be told apart) */
	uint32_t *items;  /* its own lines' items (shingles_item), sorted;
	                     none in a set stored before version 3 */
	size_t nitems;
};

/* Free what r owns and zero it. Safe on a zeroed r. */
void shingles_ref_free(struct shingles_ref *r);

/*
 * r filled with copies of s's set and terms. Returns 0, or -1 when out of
 * memory (r zeroed).
 */
int shingles_ref_of(const struct shingles *s, struct shingles_ref *r);

/* q = a copy of r. Returns 0, or -1 when out of memory (q zeroed). */
int shingles_ref_copy(const struct shingles_ref *r, struct shingles_ref *q);

/*
 * r filled from a blob of shingles_encode (either version). Returns 0, or
 * -1 on a malformed blob or when out of memory (r zeroed).
 */
int shingles_ref_decode(const void *blob, size_t len, struct shingles_ref *r);

/*
 * Read text[0..len) into s (which need not be initialised). Returns 0, or
 * -1 when out of memory, when s is left empty (safe to free).
 */
int shingles_of_text(const char *text, size_t len, struct shingles *s);

/*
 * The words s read, for the methods that read the same text (words.h):
 * 1 with ws pointing into s (valid while s is unchanged), or 0 when s
 * read only part of its text (ws empty).
 */
int shingles_words(const struct shingles *s, struct words_seq *ws);

/* A link's text in a text, and where it leads. */
struct shingles_link {
	size_t start, end; /* its bytes: text[start..end) */
	uint32_t target;   /* a hash of its resolved URL, never 0 */
};

/*
 * The same, with the n links of the text (in text order, not
 * overlapping): each word starting inside one of three words or more (an
 * item, with a title; a link of one or two words -- next, previous, a page
 * number -- is navigation) is of that link. Returns 0 or -1 as
 * shingles_of_text.
 */
int shingles_of_text_links(const char *text, size_t len,
    const struct shingles_link *links, size_t n, struct shingles *s);

/* Free what s owns and zero it. Safe on a zeroed s. */
void shingles_free(struct shingles *s);

/*
 * Keep in s->terms, s->targets and s->items only the pairs, link targets
 * and items of lines whose tmpl flag is clear (tmpl: one byte per block
 * of s): a page is remembered with the pairs of its own content, so that
 * a later page's words are not found "in" it through its menus and
 * footer, nor listed by its menus. Returns 0, or -1 when out of memory
 * (s unchanged).
 */
int shingles_keep_own_terms(struct shingles *s, const unsigned char *tmpl);

/*
 * An item of a listing as the measure knows it: a link of three words or
 * more, by where it leads (target) and its title (title: the hash a line
 * of exactly the link's words has in shingles.block). Never 0.
 */
uint32_t shingles_item(uint32_t target, uint32_t title);

/* Most titles shingles_add_title keeps. */
#define SHINGLES_TITLES_MAX 32

/*
 * Add text[0..len) as a title of s: a line its page is known by outside
 * its text (its <title>, a part of it, a heading the main text left out),
 * which a listing's item may show. 0, or -1 when out of memory; past
 * SHINGLES_TITLES_MAX titles, or for a text without words, nothing is
 * added.
 */
int shingles_add_title(struct shingles *s, const char *text, size_t len);

/*
 * Whether q lists p: one of q's own lines holds an item that leads to
 * where p is (p->self) with one of p's lines or titles for its title -- a listing,
 * an index or a table of contents showing p as one of its entries, which
 * p is not a copy of however much of p it shows. A print link ("Printer
 * friendly version") is not p's title and lists nothing. 0 when p->self
 * is 0 or q has no items (stored before version 3). Cannot fail.
 */
int shingles_lists(const struct shingles_ref *q, const struct shingles *p);

/* What shingles_measure finds of page p against an earlier page q. */
struct shingles_novelty {
	size_t words;   /* p's words */
	size_t own;     /* of them outside template blocks */
	size_t new_all; /* p's words that no shingle shared with q holds */
	size_t new_own; /* of them outside template blocks */
	int listed;     /* q lists p (shingles_lists): never near, set by
	                   dedup_measure */
	int cut;        /* shingles_measure_upto stopped early: the counts
	                   are partial, the page is no copy */
};

/*
 * Measure p against q: a word of p is new when no shingle of p found in
 * q's set holds it, and, unless it is a number, neither of its pairs
 * (with the word before or after it on its line) is among q's terms, the
 * pairs of q's own lines wherever they stand; and a word of a link is new
 * whatever its text when q's own lines have no link to where it leads (a
 * listing's items are their titles and their targets: the same titles
 * leading elsewhere are other items). So a page that shows
 * another's lines in another order or layout (a citation or an export of
 * a record, a listing sorted otherwise) is measured by what it adds,
 * while other prose stays new (its pairs are other pairs, though its
 * words are common) and a table of other figures is new figure by
 * figure. A word is own when its block's tmpl flag is clear (tmpl: one
 * byte per block of p, or NULL: every word is own). Cannot fail: out of
 * memory, it counts every word new (no copy without evidence).
 */
void shingles_measure(const struct shingles *p, const struct shingles_ref *q,
    const unsigned char *tmpl, struct shingles_novelty *out);

/*
 * The same, stopping once more than max_new words are new (out->cut set,
 * the counts then partial): enough to know the page is no copy of q, for
 * a candidate whose figures nobody reads. Cannot fail.
 */
void shingles_measure_upto(const struct shingles *p,
    const struct shingles_ref *q, const unsigned char *tmpl, size_t max_new,
    struct shingles_novelty *out);

/*
 * shingles_measure, and which words are new: isnew[j] (p->words bytes,
 * the caller's) is set to 1 for each word j of p that the measure counts
 * new, 0 for the others -- what a person reading p against q is shown
 * (nearcrawl serve marks them). Cannot fail.
 */
void shingles_measure_words(const struct shingles *p,
    const struct shingles_ref *q, const unsigned char *tmpl,
    struct shingles_novelty *out, unsigned char *isnew);

/*
 * s's set as a blob for the database: the version byte, the count, then
 * the sorted values as differences, each an unsigned LEB128 varint (about
 * 3.5 bytes a shingle); then the number of blocks and each block hash as
 * four bytes, little-endian, in text order (for rebuilding the site
 * template on resume); then the count of terms and the sorted terms as
 * differences, varints as the set; the link targets likewise; the items
 * likewise; then a flags byte (1: s->teaches).
 * Returns a malloc'd blob with its length in *len (the caller frees it),
 * or NULL when out of memory. An empty text encodes to five bytes.
 */
unsigned char *shingles_encode(const struct shingles *s, size_t *len);

/*
 * Decode a blob of shingles_encode into a malloc'd sorted array *set of
 * *n values (NULL when *n is 0; the caller frees it). Returns 0, or -1 on a
 * malformed blob (wrong version, truncated, values not increasing, count
 * past SHINGLES_MAX) or when out of memory; then *set is NULL.
 */
int shingles_decode(const void *blob, size_t len, uint32_t **set, size_t *n);

/*
 * The block hashes of a blob of shingles_encode: *blocks points into blob
 * (four bytes each, little-endian: read them with shingles_block_at) and
 * *n is their number; and, when teaches is not NULL, whether the page
 * teaches its site's template: 1 or 0, or -1 for a version-1 blob, which
 * does not say (the caller decides by the page's verdict). Returns 0, or
 * -1 on a malformed blob.
 */
int shingles_blocks(const void *blob, size_t len, const unsigned char **blocks,
    size_t *n, int *teaches);

/* Block i of what shingles_blocks found. */
uint32_t shingles_block_at(const unsigned char *blocks, size_t i);

#endif
