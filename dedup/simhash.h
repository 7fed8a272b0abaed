/*
 * simhash: Charikar's 64-bit SimHash of extracted text.
 *
 * The features and weights are documented in simhash.c and docs/dedup.md;
 * they are part of the stored data's meaning, so changing them changes the
 * value SIMHASH_FEATURES_VERSION, which the store records.
 */
#ifndef NC_SIMHASH_H
#define NC_SIMHASH_H

#include <stddef.h>
#include <stdint.h>

struct words_seq;

#define SIMHASH_FEATURES_VERSION 3

enum simhash_weighting {
	SIMHASH_WEIGHT_TF,     /* a feature counts as often as it occurs */
	SIMHASH_WEIGHT_LOGTF,  /* 1 + ln(occurrences): damps boilerplate */
	SIMHASH_WEIGHT_BINARY, /* every distinct feature counts once */
};

/* Which features a SimHash is built from and how they are weighted. */
struct simhash_opts {
	int shingle;   /* words per feature, 1..8 (clamped) */
	int min_word;  /* skip words shorter than this many bytes; only
	                  when shingle == 1 */
	int weighting; /* enum simhash_weighting */
	int fold_numbers; /* every all-digit word is the same word, so dates,
	                     counters, phone and page numbers do not count */
};

/* The features simhash_of_text uses: 3-word shingles weighted by count. */
extern const struct simhash_opts simhash_default_opts;

/* SimHash of text[0..len) (UTF-8). Empty text hashes to 0. Cannot fail. */
uint64_t simhash_of_text(const char *text, size_t len);

/*
 * SimHash of text[0..len) with the features chosen by o (NULL: defaults).
 * Words are maximal runs of ASCII letters and digits and bytes >= 0x80 (so
 * UTF-8 letters stay inside words), ASCII lower-cased. A text with fewer
 * words than o->shingle is one feature. No feature at all hashes to 0.
 * Cannot fail. TF needs no memory; LOGTF and BINARY count features in a
 * table capped at 512 Ki distinct features (16 MiB): past that, or when
 * memory runs short, counts are flushed early, so their weights are only
 * approximate on huge texts.
 */
uint64_t simhash_of_text_opts(const char *text, size_t len,
    const struct simhash_opts *o);

/*
 * simhash_of_text_opts of text[0..len) from its words ws read once
 * already (words.h; NULL: read the text): the same value either way. The
 * text is read when o->min_word applies, for the words' lengths.
 */
uint64_t simhash_of_text_words(const char *text, size_t len,
    const struct words_seq *ws, const struct simhash_opts *o);

/* Hamming distance of two fingerprints, 0..64. */
int simhash_distance(uint64_t a, uint64_t b);

/* Similarity in percent for a distance: (64 - d) / 64 * 100. */
double simhash_percent(int distance);

#endif
