/*
 * shingles: word 3-shingles of a text and the novel-words measure; see
 * shingles.h.
 */
#include "dedup/shingles.h"

#include <stdlib.h>
#include <string.h>

#include "util/chars.h"
#include "util/le.h"
#include "util/mix64.h"
#include "util/radix.h"
#include "dedup/words.h"

#define SHINGLE_WORDS 3
#define SHINGLE_SEED 0x2545f4914f6cdd1dULL
#define TERM_SEED 0x9fb21c651e98df25ULL
#define ITEM_SEED 0x6a09e667f3bcc909ULL
/* Words a link's text needs to be an item, whose target counts. */
#define LINK_ITEM_WORDS 3
/* The flags byte that ends a blob of version 2 or later. */
#define BLOB_TEACHES 1
#define FIRST_CAP 256

static int
push(struct shingles *s, size_t *cap, uint32_t h)
{
	uint32_t *grown;

	if (s->n == *cap) {
		*cap = *cap == 0 ? FIRST_CAP : *cap * 2;
		if ((grown = realloc(s->seq, *cap * sizeof(*grown))) == NULL)
			return -1;
		s->seq = grown;
	}
	s->seq[s->n++] = h;
	return 0;
}

static uint32_t
top32(const uint64_t *ring, size_t first, size_t n)
{
	return (uint32_t)(words_shingle_hash(ring, first, n, SHINGLE_SEED) >>
	    32);
}

/* *out = the n values of in sorted, each once, zeros dropped when
 * skip_zero; their number in *nout. 0, or -1 when out of memory. */
static int
sorted_once(const uint32_t *in, size_t n, int skip_zero, uint32_t **out,
    size_t *nout)
{
	uint32_t *tmp;
	size_t i, k = 0;

	*out = NULL;
	*nout = 0;
	if (n == 0)
		return 0;
	if ((*out = malloc(n * sizeof(**out))) == NULL)
		return -1;
	/* Zeros left out before sorting: link targets and items are zero
	 * for most words. */
	if (skip_zero) {
		for (i = 0; i < n; i++)
			if (in[i] != 0)
				(*out)[k++] = in[i];
		n = k;
		k = 0;
	} else {
		memcpy(*out, in, n * sizeof(**out));
	}
	if (n == 0) {
		free(*out);
		*out = NULL;
		return 0;
	}
	if ((tmp = malloc(n * sizeof(*tmp))) == NULL) {
		free(*out);
		*out = NULL;
		return -1;
	}
	radix_sort_u32(*out, tmp, n);
	free(tmp);
	for (i = 0; i < n; i++)
		if (k == 0 || (*out)[k - 1] != (*out)[i])
			(*out)[k++] = (*out)[i];
	*nout = k;
	if (k == 0) {
		free(*out);
		*out = NULL;
	}
	return 0;
}

/*
 * terms = the non-zero terms sorted, each once (sorted_once's), and each
 * word's rank: the place of its term among them. 0, or -1 when out of
 * memory.
 */
static int
rank_terms(struct shingles *s)
{
	uint64_t *a = NULL, *tmp = NULL;
	size_t j, n = 0, k = 0;
	uint32_t t;
	int rc = -1;

	if (s->words == 0)
		return 0;
	if ((a = malloc(s->words * sizeof(*a))) == NULL ||
	    (tmp = malloc(s->words * sizeof(*tmp))) == NULL ||
	    (s->rank = malloc(s->words * sizeof(*s->rank))) == NULL ||
	    (s->terms = malloc(s->words * sizeof(*s->terms))) == NULL)
		goto out;
	for (j = 0; j < s->words; j++)
		if (s->term[j] != 0)
			a[n++] = (uint64_t)s->term[j] << 32 | j;
	radix_sort_u64_high(a, tmp, n);
	for (j = 0; j < n; j++) {
		t = (uint32_t)(a[j] >> 32);
		if (k == 0 || s->terms[k - 1] != t)
			s->terms[k++] = t;
		s->rank[(uint32_t)a[j]] = (uint32_t)(k - 1);
	}
	s->nterms = k;
	if (k == 0) {
		free(s->terms);
		s->terms = NULL;
	}
	rc = 0;
out:
	free(a);
	free(tmp);
	return rc;
}

/* set = seq sorted, duplicates dropped; terms (ranked) and targets
 * likewise, without zeros. */
static int copy_u32(const uint32_t *in, size_t n, uint32_t **out);

static int
make_set(struct shingles *s)
{
	if (sorted_once(s->seq, s->n, 0, &s->set, &s->distinct) != 0 ||
	    rank_terms(s) != 0 ||
	    copy_u32(s->terms, s->nterms, &s->pairs) != 0)
		return -1;
	s->npairs = s->nterms;
	if (sorted_once(s->target, s->words, 1, &s->targets,
	    &s->ntargets) != 0)
		return -1;
	return sorted_once(s->item, s->words, 1, &s->items, &s->nitems);
}

/* Append one word's block, pair, kind and link target, growing the
 * per-word arrays like seq. */
static int
push_word(struct shingles *s, size_t *cap, uint32_t blk, uint32_t term,
    int number, uint32_t target, uint64_t wh)
{
	unsigned char *grown_n;
	uint32_t *grown;
	uint64_t *grown_h;

	if (s->words == *cap) {
		*cap = *cap == 0 ? FIRST_CAP : *cap * 2;
		if ((grown = realloc(s->word, *cap * sizeof(*grown))) == NULL)
			return -1;
		s->word = grown;
		if ((grown = realloc(s->term, *cap * sizeof(*grown))) == NULL)
			return -1;
		s->term = grown;
		if ((grown_n = realloc(s->number, *cap)) == NULL)
			return -1;
		s->number = grown_n;
		if ((grown = realloc(s->target, *cap * sizeof(*grown))) ==
		    NULL)
			return -1;
		s->target = grown;
		if ((grown = realloc(s->item, *cap * sizeof(*grown))) == NULL)
			return -1;
		s->item = grown;
		if ((grown_h = realloc(s->hash, *cap * sizeof(*grown_h))) ==
		    NULL)
			return -1;
		s->hash = grown_h;
	}
	s->hash[s->words] = wh;
	s->word[s->words] = blk;
	s->term[s->words] = term;
	s->number[s->words] = (unsigned char)number;
	s->target[s->words] = target;
	s->item[s->words] = 0;
	return 0;
}

/* Whether word w[0..n) is a number: digits only. */
static int
is_number(const unsigned char *w, size_t n)
{
	size_t i;

	for (i = 0; i < n && w[i] >= '0' && w[i] <= '9'; i++)
		;
	return i == n;
}

/*
 * The term of the pair of words with hashes a then b: 24 bits, never 0.
 * A page's pairs are a few hundred to a few thousand, so a pair matches
 * one of another page's by chance once in about 10,000 look-ups, and the
 * sorted set codes in 3 bytes a pair instead of 4.
 */
static uint32_t
pair_of(uint64_t a, uint64_t b)
{
	uint32_t t = (uint32_t)(mix64(mix64(a ^ TERM_SEED) ^ b) >> 40);

	return t != 0 ? t : 1;
}

/* The hash a line of words chained into h (mix64(h ^ word) from 0) has:
 * a block's, or a link title's. */
static uint32_t
line_hash(uint64_t h)
{
	return (uint32_t)(mix64(h) >> 32);
}

uint32_t
shingles_item(uint32_t target, uint32_t title)
{
	uint32_t v = (uint32_t)(mix64(((uint64_t)target << 32 | title) ^
	    ITEM_SEED) >> 32);

	return v != 0 ? v : 1;
}

static int
push_block(struct shingles *s, size_t *cap, uint64_t h)
{
	uint32_t *grown;

	if (s->nblocks == *cap) {
		*cap = *cap == 0 ? 16 : *cap * 2;
		if ((grown = realloc(s->block, *cap * sizeof(*grown))) == NULL)
			return -1;
		s->block = grown;
	}
	s->block[s->nblocks++] = line_hash(h);
	return 0;
}

/* Count one word (its hash wh, its pair term with the word before it,
 * in block blk) into s. */
static int
add_word(struct shingles *s, uint64_t *ring, uint64_t wh, uint32_t term,
    int number, uint32_t target, size_t blk, size_t *cap, size_t *wcap)
{
	if (push_word(s, wcap, (uint32_t)blk, term, number, target, wh) != 0)
		return -1;
	ring[s->words % WORDS_RING] = wh;
	s->words++;
	if (s->words >= SHINGLE_WORDS &&
	    push(s, cap, top32(ring, (s->words - SHINGLE_WORDS) % WORDS_RING,
	        SHINGLE_WORDS)) != 0)
		return -1;
	return 0;
}

int
shingles_of_text(const char *text, size_t len, struct shingles *s)
{
	return shingles_of_text_links(text, len, NULL, 0, s);
}

int
shingles_of_text_links(const char *text, size_t len,
    const struct shingles_link *links, size_t nlinks, struct shingles *s)
{
	const unsigned char *p = (const unsigned char *)text;
	uint64_t ring[WORDS_RING], wh, bh = 0, prev = 0, *title = NULL;
	size_t i = 0, start, cap = 0, wcap = 0, bcap = 0, gap, blk = 0, n;
	size_t k = 0, j, *count = NULL;
	uint32_t target;
	int open = 0, first = 1;

	memset(s, 0, sizeof(*s));
	if (nlinks > 0 && ((count = calloc(nlinks, sizeof(*count))) == NULL ||
	    (title = calloc(nlinks, sizeof(*title))) == NULL)) {
		free(count);
		return -1;
	}
	while (p != NULL && i < len && s->n < SHINGLES_MAX) {
		gap = i;
		if (words_next(p, len, &i, &start) == 0)
			break;
		/* A line break before the word closes the block. */
		if (open && memchr(p + gap, '\n', start - gap) != NULL) {
			if (push_block(s, &bcap, bh) != 0)
				goto fail;
			blk++;
			bh = 0;
			first = 1;
		}
		open = 1;
		n = i - start;
		wh = words_hash(p + start, n, 0);
		bh = mix64(bh ^ wh);
		/* For now the link's number + 1; its target once counted. */
		while (k < nlinks && links[k].end <= start)
			k++;
		target = 0;
		if (k < nlinks && links[k].start <= start) {
			target = (uint32_t)k + 1;
			count[k]++;
			title[k] = mix64(title[k] ^ wh);
		}
		if (add_word(s, ring, wh, first ? 0 : pair_of(prev, wh),
		    is_number(p + start, n), target, blk, &cap, &wcap) != 0)
			goto fail;
		prev = wh;
		first = 0;
	}
	/* Cut short at SHINGLES_MAX, the words are not all of the text's. */
	gap = i;
	s->whole = s->n < SHINGLES_MAX || p == NULL ||
	    words_next(p, len, &gap, &start) == 0;
	if (open && push_block(s, &bcap, bh) != 0)
		goto fail;
	if (s->words > 0 && s->words < SHINGLE_WORDS &&
	    push(s, &cap, top32(ring, 0, s->words)) != 0)
		goto fail;
	/* A link of one or two words (next, previous, a page number) is
	 * navigation; an item has a title. */
	for (j = 0; j < s->words; j++) {
		if (s->target[j] == 0)
			continue;
		k = s->target[j] - 1;
		s->target[j] = count[k] >= LINK_ITEM_WORDS ? links[k].target :
		    0;
		if (s->target[j] != 0)
			s->item[j] = shingles_item(links[k].target,
			    line_hash(title[k]));
	}
	if (make_set(s) != 0)
		goto fail;
	free(count);
	free(title);
	return 0;
fail:
	free(count);
	free(title);
	shingles_free(s);
	return -1;
}

void
shingles_free(struct shingles *s)
{
	free(s->seq);
	free(s->set);
	free(s->word);
	free(s->block);
	free(s->term);
	free(s->terms);
	free(s->number);
	free(s->target);
	free(s->targets);
	free(s->item);
	free(s->items);
	free(s->title);
	free(s->pairs);
	free(s->hash);
	free(s->rank);
	memset(s, 0, sizeof(*s));
}

int
shingles_words(const struct shingles *s, struct words_seq *ws)
{
	memset(ws, 0, sizeof(*ws));
	if (!s->whole)
		return 0;
	ws->hash = s->hash;
	ws->number = s->number;
	ws->n = s->words;
	return 1;
}

int
shingles_keep_own_terms(struct shingles *s, const unsigned char *tmpl)
{
	uint32_t *ownt, *owni, *terms = NULL, *targets = NULL;
	uint32_t *items = NULL;
	unsigned char *own = NULL;
	size_t j, k = 0, n = 0, nt, ni;
	int rc = -1;

	if (s->words == 0)
		return 0;
	/* Which of all the pairs an own word has, by the ranks the worker
	 * found: the own terms in order without sorting them again. */
	own = calloc(s->npairs + 1, 1);
	ownt = malloc(s->words * sizeof(*ownt));
	owni = malloc(s->words * sizeof(*owni));
	if (own == NULL || ownt == NULL || owni == NULL)
		goto out;
	for (j = 0; j < s->words; j++)
		if (!tmpl[s->word[j]]) {
			if (s->term[j] != 0)
				own[s->rank[j]] = 1;
			owni[k] = s->item[j];
			ownt[k++] = s->target[j];
		}
	for (j = 0; j < s->npairs; j++)
		n += own[j];
	if (n > 0 && (terms = malloc(n * sizeof(*terms))) == NULL)
		goto out;
	for (j = 0, n = 0; j < s->npairs; j++)
		if (own[j])
			terms[n++] = s->pairs[j];
	if (sorted_once(ownt, k, 1, &targets, &nt) != 0 ||
	    sorted_once(owni, k, 1, &items, &ni) != 0)
		goto out;
	free(s->terms);
	free(s->targets);
	free(s->items);
	s->terms = terms;
	s->nterms = n;
	s->targets = targets;
	s->ntargets = nt;
	s->items = items;
	s->nitems = ni;
	terms = targets = items = NULL;
	rc = 0;
out:
	free(own);
	free(ownt);
	free(owni);
	free(terms);
	free(targets);
	free(items);
	return rc;
}

void
shingles_ref_free(struct shingles_ref *r)
{
	free(r->set);
	free(r->terms);
	free(r->targets);
	free(r->items);
	memset(r, 0, sizeof(*r));
}

/* *out = a copy of in[0..n); 0, or -1 when out of memory. */
static int
copy_u32(const uint32_t *in, size_t n, uint32_t **out)
{
	*out = NULL;
	if (n == 0)
		return 0;
	if ((*out = malloc(n * sizeof(**out))) == NULL)
		return -1;
	memcpy(*out, in, n * sizeof(**out));
	return 0;
}

int
shingles_ref_of(const struct shingles *s, struct shingles_ref *r)
{
	/* A view of s's arrays, copied as any reference is. */
	struct shingles_ref view;

	memset(&view, 0, sizeof(view));
	view.set = s->set;
	view.n = s->distinct;
	view.terms = s->terms;
	view.nterms = s->nterms;
	view.targets = s->targets;
	view.ntargets = s->ntargets;
	view.has_targets = 1;
	view.items = s->items;
	view.nitems = s->nitems;
	return shingles_ref_copy(&view, r);
}

int
shingles_ref_copy(const struct shingles_ref *r, struct shingles_ref *q)
{
	*q = *r;
	q->set = q->terms = q->targets = q->items = NULL;
	if (copy_u32(r->set, r->n, &q->set) != 0 ||
	    copy_u32(r->terms, r->nterms, &q->terms) != 0 ||
	    copy_u32(r->targets, r->ntargets, &q->targets) != 0 ||
	    copy_u32(r->items, r->nitems, &q->items) != 0) {
		shingles_ref_free(q);
		return -1;
	}
	return 0;
}

static int
in_set(const uint32_t *set, size_t n, uint32_t v)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (set[mid] < v)
			lo = mid + 1;
		else if (set[mid] > v)
			hi = mid;
		else
			return 1;
	}
	return 0;
}

/*
 * The values of a (n, sorted) that b (nb, sorted) has too, in order, into
 * out (room for n); their number. A merge when b is not much longer, else
 * a search of b for each. Cannot fail.
 */
static size_t
common(const uint32_t *a, size_t n, const uint32_t *b, size_t nb,
    uint32_t *out)
{
	size_t i, k = 0, m = 0;

	for (i = 0; i < n; i++) {
		if (nb > 8 * n) {
			if (!in_set(b, nb, a[i]))
				continue;
		} else {
			while (k < nb && b[k] < a[i])
				k++;
			if (k == nb || b[k] != a[i])
				continue;
		}
		out[m++] = a[i];
	}
	return m;
}

/* Whether shingle i of p is among the shared ones (false past the last
 * shingle). */
static int
shared(const struct shingles *p, size_t i, const uint32_t *sh, size_t nsh)
{
	return i < p->n && in_set(sh, nsh, p->seq[i]);
}

int
shingles_add_title(struct shingles *s, const char *text, size_t len)
{
	const unsigned char *p = (const unsigned char *)text;
	size_t i = 0, start;
	uint64_t h = 0;
	uint32_t *grown;
	int any = 0;

	while (words_next(p, len, &i, &start)) {
		h = mix64(h ^ words_hash(p + start, i - start, 0));
		any = 1;
	}
	if (!any || s->ntitles >= SHINGLES_TITLES_MAX)
		return 0;
	if (s->ntitles == 0) {
		if ((grown = malloc(SHINGLES_TITLES_MAX * sizeof(*grown))) ==
		    NULL)
			return -1;
		s->title = grown;
	}
	s->title[s->ntitles++] = line_hash(h);
	return 0;
}

int
shingles_lists(const struct shingles_ref *q, const struct shingles *p)
{
	size_t b;

	if (p->self == 0 || q->nitems == 0)
		return 0;
	for (b = 0; b < p->nblocks + p->ntitles; b++)
		if (in_set(q->items, q->nitems, shingles_item(p->self,
		    b < p->nblocks ? p->block[b] : p->title[b - p->nblocks])))
			return 1;
	return 0;
}

/* The measure; isnew, when not NULL, gets a byte per word of p (1: new),
 * for the words read before a cut (the rest are left as they were). */
static void
measure(const struct shingles *p, const struct shingles_ref *q,
    const unsigned char *tmpl, size_t max_new, struct shingles_novelty *out,
    unsigned char *isnew)
{
	/* Shingle i holds words i .. i + span - 1, so word j is covered by
	 * shingles j - span + 1 .. j: a window of the last span answers. */
	int win[SHINGLE_WORDS] = { 0 };
	uint32_t *sh, *tm;
	size_t j, k, span, nsh = 0, ntm = 0;
	int covered, own;

	memset(out, 0, sizeof(*out));
	out->words = p->words;
	/* The shingles and pairs p and q share, found once (a merge of the
	 * sorted lists); a page unrelated to q shares few or none, and the
	 * words then ask a short list. */
	sh = malloc((p->distinct + p->npairs + 1) * sizeof(*sh));
	if (sh != NULL) {
		tm = sh + p->distinct;
		nsh = common(p->set, p->distinct, q->set, q->n, sh);
		ntm = common(p->pairs, p->npairs, q->terms, q->nterms, tm);
	}
	if (sh == NULL || nsh + ntm == 0) {
		/* Nothing shared (or, out of memory, nothing known to be):
		 * every word is new; no copy without evidence. */
		for (j = 0; j < p->words; j++)
			out->own += tmpl == NULL || !tmpl[p->word[j]];
		out->new_all = p->words;
		out->new_own = out->own;
		if (isnew != NULL && p->words > 0)
			memset(isnew, 1, p->words);
		free(sh);
		return;
	}
	span = p->words < SHINGLE_WORDS ? p->words : SHINGLE_WORDS;
	for (j = 0; j < p->words; j++) {
		win[j % SHINGLE_WORDS] = p->words < SHINGLE_WORDS ?
		    shared(p, 0, sh, nsh) : shared(p, j, sh, nsh);
		for (k = 0, covered = 0; k < span && k <= j; k++)
			covered |= win[(j - k) % SHINGLE_WORDS];
		/* A word but a number is also in q when one of its pairs
		 * (with the word before or after it on its line) is. */
		if (!covered && !p->number[j])
			covered = (p->term[j] != 0 &&
			    in_set(tm, ntm, p->term[j])) ||
			    (j + 1 < p->words && p->term[j + 1] != 0 &&
			    in_set(tm, ntm, p->term[j + 1]));
		/* An item of a listing is its title and where it leads. */
		if (covered && p->target[j] != 0 && q->has_targets)
			covered = in_set(q->targets, q->ntargets,
			    p->target[j]);
		own = tmpl == NULL || !tmpl[p->word[j]];
		out->own += own;
		out->new_all += !covered;
		out->new_own += own && !covered;
		if (isnew != NULL)
			isnew[j] = !covered;
		if (out->new_all > max_new) {
			out->cut = 1;
			break;
		}
	}
	free(sh);
}

void
shingles_measure(const struct shingles *p, const struct shingles_ref *q,
    const unsigned char *tmpl, struct shingles_novelty *out)
{
	measure(p, q, tmpl, SIZE_MAX, out, NULL);
}

void
shingles_measure_upto(const struct shingles *p, const struct shingles_ref *q,
    const unsigned char *tmpl, size_t max_new, struct shingles_novelty *out)
{
	measure(p, q, tmpl, max_new, out, NULL);
}

void
shingles_measure_words(const struct shingles *p, const struct shingles_ref *q,
    const unsigned char *tmpl, struct shingles_novelty *out,
    unsigned char *isnew)
{
	measure(p, q, tmpl, SIZE_MAX, out, isnew);
}

static unsigned char *
put_varint(unsigned char *o, uint32_t v)
{
	while (v >= 0x80) {
		*o++ = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	*o++ = (unsigned char)v;
	return o;
}

/* A varint at *p (before end) into *v; 0, or -1 when cut or too long. */
static int
get_varint(const unsigned char **p, const unsigned char *end, uint32_t *v)
{
	uint64_t x = 0;
	int shift;

	for (shift = 0; shift <= 28; shift += 7) {
		if (*p >= end)
			return -1;
		x |= (uint64_t)(**p & 0x7f) << shift;
		if ((*(*p)++ & 0x80) == 0) {
			if (x > UINT32_MAX)
				return -1;
			*v = (uint32_t)x;
			return 0;
		}
	}
	return -1;
}

/* The count n, then the n ascending values as varint differences: what
 * get_sorted reads back. Returns the byte after them. */
static unsigned char *
put_sorted(unsigned char *o, const uint32_t *v, size_t n)
{
	uint32_t prev = 0;
	size_t i;

	o = put_varint(o, (uint32_t)n);
	for (i = 0; i < n; i++) {
		o = put_varint(o, v[i] - prev);
		prev = v[i];
	}
	return o;
}

unsigned char *
shingles_encode(const struct shingles *s, size_t *len)
{
	unsigned char *blob, *o;
	size_t i;

	/* Version, count, at most five bytes a value, the blocks, the terms
	 * and the targets as the values, then the flags. */
	if ((blob = malloc(1 + 5 + s->distinct * 5 + 5 + s->nblocks * 4 + 5 +
	    s->nterms * 5 + 5 + s->ntargets * 5 + 5 + s->nitems * 5 + 1)) ==
	    NULL)
		return NULL;
	o = blob;
	*o++ = SHINGLES_BLOB_VERSION;
	o = put_sorted(o, s->set, s->distinct);
	o = put_varint(o, (uint32_t)s->nblocks);
	for (i = 0; i < s->nblocks; i++) {
		le32_put(o, s->block[i]);
		o += 4;
	}
	o = put_sorted(o, s->terms, s->nterms);
	o = put_sorted(o, s->targets, s->ntargets);
	o = put_sorted(o, s->items, s->nitems);
	*o++ = s->teaches ? BLOB_TEACHES : 0;
	*len = (size_t)(o - blob);
	return blob;
}

/* Past the version byte and the set's count: *p at its first value;
 * *version set. 0, or -1 when malformed. */
static int
skip_head(const unsigned char **p, const unsigned char *end, int *version,
    uint32_t *count)
{
	if (end - *p < 2)
		return -1;
	*version = *(*p)++;
	if (*version < 1 || *version > SHINGLES_BLOB_VERSION ||
	    get_varint(p, end, count) != 0 || *count > SHINGLES_MAX)
		return -1;
	return 0;
}

/*
 * count increasing varint differences at *p into a malloc'd *out (NULL
 * for none), or only past them when out is NULL. 0, or -1 when malformed
 * or out of memory.
 */
static int
get_sorted(const unsigned char **p, const unsigned char *end, uint32_t count,
    uint32_t **out)
{
	uint32_t d, v = 0;
	size_t i;

	if (out != NULL) {
		*out = NULL;
		if (count > 0 && (*out = malloc(count * sizeof(**out))) == NULL)
			return -1;
	}
	for (i = 0; i < count; i++) {
		if (get_varint(p, end, &d) != 0 || (i > 0 && d == 0) ||
		    (uint64_t)v + d > UINT32_MAX)
			goto fail;
		v += d;
		if (out != NULL)
			(*out)[i] = v;
	}
	return 0;
fail:
	if (out != NULL) {
		free(*out);
		*out = NULL;
	}
	return -1;
}

/*
 * Walk a whole blob: the set, terms and targets into *r when r is not
 * NULL (none of the latter two in version 1), the blocks (*blocks, *nb)
 * and whether the page teaches (*teaches; -1 in version 1). 0, or -1 when
 * malformed or out of memory, with nothing allocated.
 */
static int
walk_blob(const void *blob, size_t len, struct shingles_ref *r,
    const unsigned char **blocks, uint32_t *nb, int *teaches)
{
	const unsigned char *p = blob, *end = p + len;
	uint32_t count, nterms = 0, ntargets = 0, nitems = 0;
	int version;

	*teaches = -1;
	if (r != NULL)
		memset(r, 0, sizeof(*r));
	if (skip_head(&p, end, &version, &count) != 0 ||
	    get_sorted(&p, end, count, r != NULL ? &r->set : NULL) != 0)
		return -1;
	if (get_varint(&p, end, nb) != 0 || (size_t)(end - p) / 4 < *nb)
		goto fail;
	*blocks = p;
	p += (size_t)*nb * 4;
	if (version > 1 && (get_varint(&p, end, &nterms) != 0 ||
	    nterms > SHINGLES_MAX ||
	    get_sorted(&p, end, nterms, r != NULL ? &r->terms : NULL) != 0 ||
	    get_varint(&p, end, &ntargets) != 0 || ntargets > SHINGLES_MAX ||
	    get_sorted(&p, end, ntargets, r != NULL ? &r->targets : NULL) !=
	    0))
		goto fail;
	if (version > 2 && (get_varint(&p, end, &nitems) != 0 ||
	    nitems > SHINGLES_MAX ||
	    get_sorted(&p, end, nitems, r != NULL ? &r->items : NULL) != 0))
		goto fail;
	if (version > 1 && (end - p != 1 || (*p & ~BLOB_TEACHES) != 0))
		goto fail;
	if (version > 1)
		*teaches = *p++ & BLOB_TEACHES;
	if (p != end)
		goto fail;
	if (r != NULL) {
		r->n = count;
		r->nterms = nterms;
		r->ntargets = ntargets;
		r->nitems = nitems;
		r->has_targets = version > 1;
	}
	return 0;
fail:
	if (r != NULL)
		shingles_ref_free(r);
	return -1;
}

int
shingles_ref_decode(const void *blob, size_t len, struct shingles_ref *r)
{
	const unsigned char *blocks;
	uint32_t nb;
	int teaches;

	return walk_blob(blob, len, r, &blocks, &nb, &teaches);
}

int
shingles_decode(const void *blob, size_t len, uint32_t **set, size_t *n)
{
	struct shingles_ref r;

	*set = NULL;
	*n = 0;
	if (shingles_ref_decode(blob, len, &r) != 0)
		return -1;
	free(r.terms);
	free(r.targets);
	free(r.items);
	*set = r.set;
	*n = r.n;
	return 0;
}

int
shingles_blocks(const void *blob, size_t len, const unsigned char **blocks,
    size_t *n, int *teaches)
{
	uint32_t nb;
	int t;

	*blocks = NULL;
	*n = 0;
	if (walk_blob(blob, len, NULL, blocks, &nb, &t) != 0) {
		*blocks = NULL;
		return -1;
	}
	*n = nb;
	if (teaches != NULL)
		*teaches = t;
	return 0;
}

uint32_t
shingles_block_at(const unsigned char *blocks, size_t i)
{
	return le32_get(blocks + i * 4);
}
