/*
 * tdw: field-weighted token vectors (tokens, stop words, stemming, field
 * weights, scaling), their minimum weight overlap and their packed form.
 * The prefix-filtered index over them is tdw_index.c. The method is in
 * tdw.h.
 */
#include "dedup/tdw.h"

#include <stdlib.h>
#include <string.h>

#include "util/chars.h"
#include "util/le.h"
#include "util/mix64.h"

/* Field weights in half units, so that the research's 0.5 is an integer. */
enum {
	W_URL = 4,
	W_TITLE = 4,
	W_HEADINGS = 4,
	W_ANCHORS_SAME = 2,
	W_ANCHORS_OTHER = 1,
	W_KEYWORDS = 6,
	W_DESCRIPTION = 6,
	W_TEXT = 2,
};

#define ACC_STACK 1024      /* counting slots before the heap is needed */
#define ACC_CAP (1u << 18)  /* slots at most (4 MiB): half of them used */
#define URL_DECODED_MAX 4096 /* bytes of a decoded URL looked at */
#define PACK_VERSION 1

/* ---- words ---- */

/* English words too common to tell pages apart; sorted for bsearch. */
static const char *const stop_words[] = {
	"a", "about", "above", "after", "again", "against", "all", "also",
	"am", "among", "an", "and", "any", "are", "as", "at", "be",
	"because", "been", "before", "being", "below", "between", "both",
	"but", "by", "can", "could", "d", "did", "do", "does", "doing",
	"down", "during", "each", "either", "even", "ever", "every", "few",
	"for", "from", "further", "had", "has", "have", "having", "he",
	"her", "here", "hers", "herself", "him", "himself", "his", "how",
	"however", "i", "if", "in", "into", "is", "it", "its", "itself",
	"just", "ll", "m", "may", "me", "might", "more", "most", "much",
	"must", "my", "myself", "neither", "no", "nor", "not", "now", "o",
	"of", "off", "on", "once", "only", "onto", "or", "other", "others",
	"ought", "our", "ours", "ourselves", "out", "over", "own", "per",
	"re", "s", "same", "shall", "she", "should", "since", "so", "some",
	"such", "t", "than", "that", "the", "their", "theirs", "them",
	"themselves", "then", "there", "therefore", "these", "they", "this",
	"those", "though", "through", "thus", "to", "too", "under", "until",
	"up", "upon", "us", "ve", "very", "via", "was", "we", "were", "what",
	"whatever", "when", "where", "whether", "which", "while", "who",
	"whom", "whose", "why", "will", "with", "within", "without",
	"would", "yet", "you", "your", "yours", "yourself", "yourselves",
};

/* URL words that say how a page is served, not what it holds; sorted. */
static const char *const url_noise[] = {
	"asp", "aspx", "cfm", "cgi", "htm", "html", "jsp", "php", "shtml",
	"xhtml",
};

static int
cmp_word(const void *key, const void *elem)
{
	return strcmp(key, *(const char *const *)elem);
}

static int
is_stop_word(const char *w)
{
	return bsearch(w, stop_words, sizeof(stop_words) /
	    sizeof(stop_words[0]), sizeof(stop_words[0]), cmp_word) != NULL;
}

/* Whether code point c belongs inside a word (see tdw.h). */
static int
is_word_cp(uint32_t c)
{
	if (c < 0x80)
		return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9');
	if (c < 0xc0)
		return c == 0xaa || c == 0xb5 || c == 0xba;
	if (c == 0xd7 || c == 0xf7)
		return 0;
	if ((c >= 0x2000 && c <= 0x2bff) || (c >= 0x3000 && c <= 0x303f) ||
	    (c >= 0xfe30 && c <= 0xfe6f) || (c >= 0xff00 && c <= 0xff0f) ||
	    (c >= 0xff1a && c <= 0xff20) || (c >= 0xff3b && c <= 0xff40) ||
	    (c >= 0xff5b && c <= 0xff65) || c >= 0xfff0)
		return 0;
	return !(c >= 0x1f000 && c <= 0x1faff);
}

/* Lower case for the scripts a university site mostly holds. */
static uint32_t
lower_cp(uint32_t c)
{
	if (c >= 'A' && c <= 'Z')
		return c + 32;
	if (c < 0xc0)
		return c;
	if (c <= 0xde && c != 0xd7)
		return c + 32;
	if (c == 0x130)
		return 'i';
	if (c == 0x178)
		return 0xff;
	if (((c >= 0x100 && c <= 0x137) || (c >= 0x14a && c <= 0x177)) &&
	    c % 2 == 0)
		return c + 1;
	if (((c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17e)) &&
	    c % 2 == 1)
		return c + 1;
	if (c >= 0x391 && c <= 0x3a9 && c != 0x3a2)
		return c + 32;
	if (c >= 0x410 && c <= 0x42f)
		return c + 32;
	if (c >= 0x400 && c <= 0x40f)
		return c + 80;
	return c;
}

static int
is_vowel(char c)
{
	return c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u' ||
	    c == 'y';
}

static int
ends_with(const char *w, size_t n, const char *suffix)
{
	size_t k = strlen(suffix);

	return n >= k && memcmp(w + n - k, suffix, k) == 0;
}

static int
has_vowel(const char *w, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (is_vowel(w[i]))
			return 1;
	return 0;
}

/* "runn" -> "run", "stopp" -> "stop"; l, s and z stay doubled (fall). */
static size_t
undouble(const char *w, size_t n)
{
	if (n >= 2 && w[n - 1] == w[n - 2] && !is_vowel(w[n - 1]) &&
	    w[n - 1] != 'l' && w[n - 1] != 's' && w[n - 1] != 'z')
		return n - 1;
	return n;
}

/*
 * A light suffix stripper for lower-case ASCII words; returns the new
 * length (w is changed in place). It need not make real stems, only make
 * a word's common forms meet: cities/city, boxes/box, making/makes/make,
 * stopped/stops/stop, agreed/agree.
 */
static size_t
stem(char *w, size_t n)
{
	if (n <= 3)
		return n;
	if (n > 4 && ends_with(w, n, "ies") && w[n - 4] != 'a' &&
	    w[n - 4] != 'e') {
		w[n - 3] = 'y';
		n -= 2;
	} else if (w[n - 1] == 's' && w[n - 2] != 's' && w[n - 2] != 'u' &&
	    w[n - 2] != 'i') {
		n--;
	}
	if (n >= 6 && ends_with(w, n, "ing") && has_vowel(w, n - 3))
		n = undouble(w, n - 3);
	else if (n >= 5 && ends_with(w, n, "ed") && has_vowel(w, n - 2))
		n = undouble(w, n - 2);
	while (n > 3 && w[n - 1] == 'e')
		n--;
	return n;
}

/* A token's id: the word's FNV-1a, mixed, top 32 bits. */
static uint32_t
token_id(const char *w, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= (unsigned char)w[i];
		h *= 0x100000001b3ULL;
	}
	return (uint32_t)(mix64(h) >> 32);
}

/*
 * Call fn(arg, token, len) for every token of s[0..len) under o: lower-case
 * letters and digits, numbers folded to "#", stop words dropped, stems.
 */
static void
each_token(const char *s, size_t len, const struct tdw_opts *o,
    void (*fn)(void *arg, const char *tok, size_t n), void *arg)
{
	const unsigned char *p = (const unsigned char *)s;
	char w[TDW_WORD_MAX + 1];
	unsigned char enc[4];
	size_t i = 0, k, n, e;
	uint32_t c;
	int ascii, digits, over;

	while (s != NULL && i < len) {
		n = 0;
		ascii = digits = 1;
		over = 0;
		for (;;) {
			if (i >= len) {
				c = ' ';
				k = 0;
			} else if (p[i] < 0x80) {
				c = p[i];
				k = 1;
			} else {
				k = chars_utf8_decode(p + i, len - i, &c);
			}
			if (!is_word_cp(c))
				break;
			i += k;
			c = lower_cp(c);
			ascii &= c < 0x80;
			digits &= c >= '0' && c <= '9';
			if (c < 0x80) {
				/* Most words: a byte each, nothing to encode. */
				if (n + 1 > TDW_WORD_MAX)
					over = 1;
				else
					w[n++] = (char)c;
				continue;
			}
			e = chars_utf8_encode(c, enc);
			if (n + e > TDW_WORD_MAX) {
				over = 1;
			} else {
				memcpy(w + n, enc, e);
				n += e;
			}
		}
		i += k;
		if (n == 0 || over)
			continue;
		if (digits) {
			w[0] = '#';
			n = 1;
		}
		w[n] = '\0';
		if (o->stopwords && is_stop_word(w))
			continue;
		if (o->stem && ascii)
			n = stem(w, n);
		fn(arg, w, n);
	}
}

/* ---- vectors ---- */

struct acc_slot {
	uint32_t id; /* token id */
	uint64_t w;  /* summed weight in half units; 0 marks a free slot */
};

/* Weights per token of one page, in an open-addressing table. */
struct acc {
	struct acc_slot *slot; /* size slots, linear probing */
	size_t size;           /* a power of two */
	size_t used;           /* slots holding a token */
	int on_heap;           /* slot was malloc'd */
	int nomem;             /* growing failed for want of memory */
	int url;               /* the field being read is the URL */
	uint64_t weight;       /* weight of the field being read */
};

static struct acc_slot *
acc_probe(struct acc_slot *slot, size_t size, uint32_t id)
{
	size_t i = id & (size - 1);

	while (slot[i].w != 0 && slot[i].id != id)
		i = (i + 1) & (size - 1);
	return &slot[i];
}

/* Double the table; -1 (table unchanged) when capped or out of memory. */
static int
acc_grow(struct acc *a)
{
	struct acc_slot *n;
	size_t i, size = a->size * 2;

	if (size > ACC_CAP)
		return -1;
	if ((n = calloc(size, sizeof(*n))) == NULL) {
		a->nomem = 1;
		return -1;
	}
	for (i = 0; i < a->size; i++)
		if (a->slot[i].w != 0)
			*acc_probe(n, size, a->slot[i].id) = a->slot[i];
	if (a->on_heap)
		free(a->slot);
	a->slot = n;
	a->size = size;
	a->on_heap = 1;
	return 0;
}

static void
acc_token(void *arg, const char *tok, size_t n)
{
	struct acc *a = arg;
	uint32_t id;
	struct acc_slot *s;
	char w[8];

	/* Every page of a site shares its file extension. */
	if (a->url && n < sizeof(w)) {
		memcpy(w, tok, n);
		w[n] = '\0';
		if (bsearch(w, url_noise, sizeof(url_noise) /
		    sizeof(url_noise[0]), sizeof(url_noise[0]), cmp_word) != NULL)
			return;
	}
	id = token_id(tok, n);
	s = acc_probe(a->slot, a->size, id);

	if (s->w == 0) {
		/* At most half full, or probes get long; past the cap, new
		 * tokens of a huge page are left out. */
		if ((a->used + 1) * 2 > a->size) {
			if (acc_grow(a) != 0)
				return;
			s = acc_probe(a->slot, a->size, id);
		}
		s->id = id;
		a->used++;
	}
	s->w += a->weight;
}

static void
acc_field(struct acc *a, const char *s, size_t len, uint64_t weight,
    const struct tdw_opts *o)
{
	if (s == NULL || len == 0)
		return;
	a->weight = weight;
	each_token(s, len, o, acc_token, a);
}

/* The URL's path and query with %XX decoded: no scheme, host or port. */
static size_t
url_words(const char *url, char *out, size_t outsz)
{
	const char *p = url, *sep = strstr(url, "://");
	size_t n = 0;
	int hi, lo;

	if (sep != NULL && (size_t)(sep - url) < 16) {
		p = sep + 3;
		p += strcspn(p, "/?#");
	}
	while (*p != '\0' && *p != '#' && n + 1 < outsz) {
		if (p[0] == '%' && (hi = chars_hex_value(p[1])) >= 0 &&
		    (lo = chars_hex_value(p[2])) >= 0) {
			out[n++] = (char)(hi << 4 | lo);
			p += 3;
		} else {
			out[n++] = *p++;
		}
	}
	out[n] = '\0';
	return n;
}

static int
by_weight(const void *pa, const void *pb)
{
	const struct acc_slot *a = pa, *b = pb;

	if (a->w != b->w)
		return a->w > b->w ? -1 : 1;
	return a->id < b->id ? -1 : a->id > b->id;
}

/* Whether a comes before b in by_weight's order (heavier, then lower id). */
static int
heavier(const struct acc_slot *a, const struct acc_slot *b)
{
	return a->w != b->w ? a->w > b->w : a->id < b->id;
}

static void
swap_slots(struct acc_slot *a, struct acc_slot *b)
{
	struct acc_slot t = *a;

	*a = *b;
	*b = t;
}

/*
 * Move the k first of slot[0..n) in by_weight's order to the front, in
 * no particular order (the caller needs the set only): quickselect, a
 * linear pass or two where sorting every counted token was a good part of
 * a vector's cost. Past 64 rounds (an unlucky run of pivots) it sorts.
 */
static void
select_heaviest(struct acc_slot *slot, size_t n, size_t k)
{
	size_t lo = 0, hi = n, i, store, mid, rounds = 0;
	struct acc_slot *a, *b, *c;

	if (k == 0 || k >= n)
		return;
	while (hi - lo > 1) {
		if (++rounds > 64) {
			qsort(slot + lo, hi - lo, sizeof(*slot), by_weight);
			return;
		}
		/* The median of three as pivot, moved to the end. */
		mid = lo + (hi - lo) / 2;
		a = &slot[lo], b = &slot[mid], c = &slot[hi - 1];
		if (heavier(b, a))
			swap_slots(a, b);
		if (heavier(c, a))
			swap_slots(a, c);
		if (heavier(c, b))
			swap_slots(b, c);
		swap_slots(b, c); /* the median at hi - 1 */
		for (i = store = lo; i < hi - 1; i++)
			if (heavier(&slot[i], &slot[hi - 1]))
				swap_slots(&slot[i], &slot[store++]);
		swap_slots(&slot[store], &slot[hi - 1]);
		/* slot[store] is in its final place. */
		if (store == k || store + 1 == k)
			return;
		if (store > k)
			hi = store;
		else
			lo = store + 1;
	}
}

struct share {
	uint32_t id;   /* token id */
	uint64_t q;    /* its scaled weight, rounded down */
	uint64_t rem;  /* what rounding down left out */
};

static int
by_remainder(const void *pa, const void *pb)
{
	const struct share *a = pa, *b = pb;

	if (a->rem != b->rem)
		return a->rem > b->rem ? -1 : 1;
	return a->id < b->id ? -1 : a->id > b->id;
}

static int
by_id(const void *pa, const void *pb)
{
	const struct tdw_term *a = pa, *b = pb;

	return a->id < b->id ? -1 : a->id > b->id;
}

/*
 * Keep the k heaviest of the n counted tokens (moved to the front of
 * slot) and scale them to TDW_SCALE into v.
 */
static void
scale(struct acc_slot *slot, size_t n, size_t k, struct tdw_vec *v)
{
	struct share sh[TDW_TOKENS_MAX];
	uint64_t total = 0, given = 0;
	size_t i;

	if (k > n)
		k = n;
	select_heaviest(slot, n, k);
	for (i = 0; i < k; i++)
		total += slot[i].w;
	for (i = 0; i < k; i++) {
		sh[i].id = slot[i].id;
		sh[i].q = slot[i].w * TDW_SCALE / total;
		sh[i].rem = slot[i].w * TDW_SCALE % total;
		given += sh[i].q;
	}
	/* Largest remainders first get the units rounding left over. */
	qsort(sh, k, sizeof(sh[0]), by_remainder);
	for (i = 0; given < TDW_SCALE && i < k; i++, given++)
		sh[i].q++;
	v->n = 0;
	for (i = 0; i < k; i++)
		if (sh[i].q > 0) {
			v->t[v->n].id = sh[i].id;
			v->t[v->n].w = (uint16_t)sh[i].q;
			v->n++;
		}
	qsort(v->t, v->n, sizeof(v->t[0]), by_id);
}

int
tdw_vector(const struct tdw_fields *f, const struct tdw_opts *o,
    struct tdw_vec *v)
{
	static const struct tdw_opts defaults = { 0, 0, TDW_TOKENS_DEFAULT };
	struct acc_slot stack_slot[ACC_STACK];
	struct tdw_opts opts = o != NULL ? *o : defaults;
	char url[URL_DECODED_MAX];
	struct acc a;
	size_t i, n;
	int rc = 0;

	v->n = 0;
	if (opts.max_tokens < 1 || opts.max_tokens > TDW_TOKENS_MAX)
		opts.max_tokens = TDW_TOKENS_DEFAULT;
	memset(&a, 0, sizeof(a));
	memset(stack_slot, 0, sizeof(stack_slot));
	a.slot = stack_slot;
	a.size = ACC_STACK;
	if (f->url != NULL) {
		n = url_words(f->url, url, sizeof(url));
		a.url = 1;
		acc_field(&a, url, n, W_URL, &opts);
		a.url = 0;
	}
	acc_field(&a, f->title, f->title ? strlen(f->title) : 0, W_TITLE,
	    &opts);
	acc_field(&a, f->headings, f->headings ? strlen(f->headings) : 0,
	    W_HEADINGS, &opts);
	acc_field(&a, f->anchors_same, f->anchors_same ?
	    strlen(f->anchors_same) : 0, W_ANCHORS_SAME, &opts);
	acc_field(&a, f->anchors_other, f->anchors_other ?
	    strlen(f->anchors_other) : 0, W_ANCHORS_OTHER, &opts);
	acc_field(&a, f->keywords, f->keywords ? strlen(f->keywords) : 0,
	    W_KEYWORDS, &opts);
	acc_field(&a, f->description, f->description ?
	    strlen(f->description) : 0, W_DESCRIPTION, &opts);
	acc_field(&a, f->text, f->text_len, W_TEXT, &opts);
	if (a.nomem) {
		rc = -1;
		goto out;
	}
	/* The table is not needed any more: pack its tokens to the front. */
	for (i = n = 0; i < a.size; i++)
		if (a.slot[i].w != 0)
			a.slot[n++] = a.slot[i];
	if (n > 0)
		scale(a.slot, n, (size_t)opts.max_tokens, v);
out:
	if (a.on_heap)
		free(a.slot);
	return rc;
}

struct token_out {
	char *out;    /* where tokens go */
	size_t size;  /* bytes there */
	size_t len;   /* bytes written */
	size_t count; /* tokens written */
	int full;     /* a token did not fit: stop */
};

static void
put_token(void *arg, const char *tok, size_t n)
{
	struct token_out *t = arg;
	size_t sep = t->count > 0;

	if (t->full || t->len + sep + n + 1 > t->size) {
		t->full = 1;
		return;
	}
	if (sep)
		t->out[t->len++] = ' ';
	memcpy(t->out + t->len, tok, n);
	t->len += n;
	t->out[t->len] = '\0';
	t->count++;
}

size_t
tdw_tokens(const char *s, size_t len, const struct tdw_opts *o, char *out,
    size_t outsz)
{
	static const struct tdw_opts defaults = { 0, 0, TDW_TOKENS_DEFAULT };
	struct token_out t = { out, outsz, 0, 0, 0 };

	if (outsz == 0)
		return 0;
	out[0] = '\0';
	each_token(s, len, o != NULL ? o : &defaults, put_token, &t);
	return t.count;
}

uint32_t
tdw_overlap(const struct tdw_vec *a, const struct tdw_vec *b)
{
	size_t i = 0, j = 0;
	uint32_t sum = 0;

	while (i < a->n && j < b->n) {
		if (a->t[i].id == b->t[j].id) {
			sum += a->t[i].w < b->t[j].w ? a->t[i].w : b->t[j].w;
			i++;
			j++;
		} else if (a->t[i].id < b->t[j].id) {
			i++;
		} else {
			j++;
		}
	}
	return sum;
}

double
tdw_percent(uint32_t overlap)
{
	return overlap * 100.0 / TDW_SCALE;
}

uint32_t
tdw_threshold(int percent)
{
	if (percent < 0)
		percent = 0;
	if (percent > 100)
		percent = 100;
	return ((uint32_t)percent * TDW_SCALE + 99) / 100;
}

size_t
tdw_pack(const struct tdw_vec *v, unsigned char *out)
{
	size_t i, n = 0;

	out[n++] = PACK_VERSION;
	for (i = 0; i < v->n && i < TDW_TOKENS_MAX; i++) {
		le32_put(out + n, v->t[i].id);
		n += 4;
		out[n++] = (unsigned char)v->t[i].w;
		out[n++] = (unsigned char)(v->t[i].w >> 8);
	}
	return n;
}

int
tdw_unpack(const void *p, size_t len, struct tdw_vec *v)
{
	const unsigned char *b = p;
	uint32_t sum = 0;
	size_t i, n;

	v->n = 0;
	if (b == NULL || len < 1 || b[0] != PACK_VERSION || (len - 1) % 6 != 0)
		return -1;
	n = (len - 1) / 6;
	if (n > TDW_TOKENS_MAX)
		return -1;
	for (i = 0, b++; i < n; i++, b += 6) {
		v->t[i].id = le32_get(b);
		v->t[i].w = (uint16_t)(b[4] | b[5] << 8);
		if (v->t[i].w == 0 || (i > 0 && v->t[i].id <= v->t[i - 1].id))
			return -1;
		sum += v->t[i].w;
	}
	if (n > 0 && sum != TDW_SCALE)
		return -1;
	v->n = (uint16_t)n;
	return 0;
}
