/* Unit tests for tdw: tokens, field weights, MWO, packing, and the index
 * against a full scan. */
#include "check.h"
#include "dedup/tdw.h"

#include <stdint.h>
#include <stdlib.h>

#define TEXT_CAP 32768

static const struct tdw_opts plain = { 0, 0, TDW_TOKENS_MAX };

/* The tokens of s under o must be exactly want. */
static void
tokens_are(const char *s, const struct tdw_opts *o, const char *want)
{
	char out[512];

	tdw_tokens(s, strlen(s), o, out, sizeof(out));
	CHECK_STR(out, want);
}

static void
test_tokens(void)
{
	static const struct tdw_opts stop = { 1, 0, 0 }, stem = { 0, 1, 0 };
	char longword[80], out[16];

	tokens_are("The Cities\xe2\x80\x99 RUNNING caf\xc3\xa9, 2026-08-07! "
	    "\xc3\x89T\xc3\x89 Stra\xc3\x9f" "e", NULL,
	    "the cities running caf\xc3\xa9 # # # \xc3\xa9t\xc3\xa9 "
	    "stra\xc3\x9f" "e");
	/* Greek, Cyrillic and Latin Extended-A capitals; symbols split. */
	tokens_are("\xce\x91\xce\x98\xce\x97\xce\x9d\xce\x91 "
	    "\xd0\x9c\xd0\xbe\xd1\x81\xd0\xba\xd0\xb2\xd0\xb0 "
	    "\xc5\x81\xc3\xb3\x64\xc5\xba\xe2\x86\x92x\xc2\xa9y", NULL,
	    "\xce\xb1\xce\xb8\xce\xb7\xce\xbd\xce\xb1 "
	    "\xd0\xbc\xd0\xbe\xd1\x81\xd0\xba\xd0\xb2\xd0\xb0 "
	    "\xc5\x82\xc3\xb3\x64\xc5\xba x y");
	/* Broken UTF-8 separates; it never joins or ends a word badly. */
	tokens_are("ab\xff" "cd\xe2\x82 ef", NULL, "ab cd ef");
	tokens_are("The student-led survey of an island", &stop,
	    "student led survey island");
	tokens_are("cities boxes classes making makes make stopped stops "
	    "running falling agreed agree analysis bus this series ties",
	    &stem, "city box class mak mak mak stop stop run fall agr agr "
	    "analysis bus this sery tie");
	memset(longword, 'a', 70);
	memcpy(longword + 70, " ok", 4);
	tokens_are(longword, NULL, "ok");
	memset(longword, 'b', TDW_WORD_MAX);
	longword[TDW_WORD_MAX] = '\0';
	tokens_are(longword, NULL, longword);
	/* Cut at a whole token. */
	CHECK_INT(tdw_tokens("one two three", 13, NULL, out, 8), 2);
	CHECK_STR(out, "one two");
	CHECK_INT(tdw_tokens("", 0, NULL, out, sizeof(out)), 0);
	CHECK_STR(out, "");
}

/* The weight of token word in v, 0 when absent. */
static unsigned
weight_of(const struct tdw_vec *v, const char *word)
{
	struct tdw_vec one;
	struct tdw_fields f;
	size_t i;

	memset(&f, 0, sizeof(f));
	f.text = word;
	f.text_len = strlen(word);
	if (tdw_vector(&f, &plain, &one) != 0 || one.n != 1)
		return 0;
	for (i = 0; i < v->n; i++)
		if (v->t[i].id == one.t[0].id)
			return v->t[i].w;
	return 0;
}

static unsigned
sum_of(const struct tdw_vec *v)
{
	unsigned s = 0;
	size_t i;

	for (i = 0; i < v->n; i++)
		s += v->t[i].w;
	return s;
}

static void
test_field_weights(void)
{
	struct tdw_fields f;
	struct tdw_vec v;
	size_t i;

	/* Title 2 against main text 1: two thirds and one third. */
	memset(&f, 0, sizeof(f));
	f.title = "alpha";
	f.text = "beta";
	f.text_len = 4;
	CHECK_INT(tdw_vector(&f, &plain, &v), 0);
	CHECK_INT(v.n, 2);
	CHECK_INT(weight_of(&v, "alpha"), 43690);
	CHECK_INT(weight_of(&v, "beta"), 21845);
	/* Every field at once: URL 2 (path and query, no host: "url", "q"
	 * and "#"), title 2, headings 2, same-site links 1, others 0.5,
	 * keywords 3, description 3, text 1 twice; 19.5 in all. */
	memset(&f, 0, sizeof(f));
	f.url = "https://www.uni.example:8443/u%72l?q=1#frag";
	f.title = "ti";
	f.headings = "he";
	f.anchors_same = "sa";
	f.anchors_other = "ot";
	f.keywords = "ke";
	f.description = "de";
	f.text = "te te";
	f.text_len = 5;
	CHECK_INT(tdw_vector(&f, &plain, &v), 0);
	CHECK_INT(v.n, 10);
	CHECK_INT(sum_of(&v), TDW_SCALE);
	CHECK_INT(weight_of(&v, "www"), 0);
	CHECK_INT(weight_of(&v, "frag"), 0);
	/* 65535 x 2 / 19.5 = 6721.5: rounding gives some one more. */
	CHECK(weight_of(&v, "url") >= 6721 && weight_of(&v, "url") <= 6722);
	CHECK(weight_of(&v, "q") >= 6721 && weight_of(&v, "q") <= 6722);
	CHECK(weight_of(&v, "7") >= 6721 && weight_of(&v, "7") <= 6722);
	CHECK(weight_of(&v, "ke") >= 10082 && weight_of(&v, "ke") <= 10083);
	CHECK(weight_of(&v, "de") >= 10082 && weight_of(&v, "de") <= 10083);
	CHECK(weight_of(&v, "sa") >= 3360 && weight_of(&v, "sa") <= 3361);
	CHECK(weight_of(&v, "ot") >= 1680 && weight_of(&v, "ot") <= 1681);
	CHECK(weight_of(&v, "te") >= 6721 && weight_of(&v, "te") <= 6722);
	for (i = 1; i < v.n; i++)
		CHECK(v.t[i - 1].id < v.t[i].id);
	/* Nothing to read: an empty vector. */
	memset(&f, 0, sizeof(f));
	f.text = " -- ";
	f.text_len = 4;
	CHECK_INT(tdw_vector(&f, NULL, &v), 0);
	CHECK_INT(v.n, 0);
}

/* A random word of 3..8 letters from the stream s into w. */
static size_t
random_word(uint64_t *s, char *w)
{
	size_t j, wl = 3 + check_xorshift(s) % 6;

	for (j = 0; j < wl; j++)
		w[j] = (char)('a' + check_xorshift(s) % 26);
	return wl;
}

/* n words of a pseudo-random text from seed; words from..to replaced by
 * others, the rest unchanged. */
static size_t
make_text(char *out, uint64_t seed, size_t n, size_t from, size_t to)
{
	uint64_t s = seed, alt = seed ^ 0x5eed;
	size_t i, wl, len = 0;
	char w[8];

	for (i = 0; i < n; i++) {
		wl = random_word(&s, w);
		if (i >= from && i < to)
			wl = random_word(&alt, w);
		if (len + wl + 2 >= TEXT_CAP)
			break;
		memcpy(out + len, w, wl);
		len += wl;
		out[len++] = ' ';
	}
	out[len] = '\0';
	return len;
}

static void
text_vector(const char *text, size_t len, struct tdw_vec *v)
{
	struct tdw_fields f;

	memset(&f, 0, sizeof(f));
	f.text = text;
	f.text_len = len;
	CHECK_INT(tdw_vector(&f, NULL, v), 0);
}

static void
test_known_pairs(void)
{
	static char a[TEXT_CAP], b[TEXT_CAP];
	static struct tdw_vec va, vb;
	size_t la = make_text(a, 7, 100, 0, 0), lb;

	text_vector(a, la, &va);
	CHECK(va.n > 90);
	CHECK_INT(sum_of(&va), TDW_SCALE);
	/* Identical: 100 %. */
	CHECK_INT(tdw_overlap(&va, &va), TDW_SCALE);
	CHECK(tdw_percent(tdw_overlap(&va, &va)) == 100.0);
	/* One word of 100 changed: about 99 %. */
	lb = make_text(b, 7, 100, 50, 51);
	CHECK(strcmp(a, b) != 0);
	text_vector(b, lb, &vb);
	CHECK(tdw_percent(tdw_overlap(&va, &vb)) >= 98.0);
	CHECK(tdw_overlap(&va, &vb) < TDW_SCALE);
	CHECK_INT(tdw_overlap(&va, &vb), tdw_overlap(&vb, &va));
	/* A quarter changed: about 75 %. */
	lb = make_text(b, 7, 100, 0, 25);
	text_vector(b, lb, &vb);
	CHECK(tdw_percent(tdw_overlap(&va, &vb)) > 70.0);
	CHECK(tdw_percent(tdw_overlap(&va, &vb)) < 80.0);
	/* Disjoint: 0. */
	lb = make_text(b, 8, 100, 0, 0);
	text_vector(b, lb, &vb);
	CHECK_INT(tdw_overlap(&va, &vb), 0);
	vb.n = 0;
	CHECK_INT(tdw_overlap(&va, &vb), 0);
}

static void
test_max_tokens(void)
{
	static char a[TEXT_CAP];
	static struct tdw_vec v, w;
	struct tdw_opts o = { 0, 0, 16 };
	struct tdw_fields f;
	size_t la = make_text(a, 9, 600, 0, 0), i, j, k;
	unsigned ws, wt;

	memset(&f, 0, sizeof(f));
	f.text = a;
	f.text_len = la;
	f.title = "zzheavy";
	CHECK_INT(tdw_vector(&f, &o, &v), 0);
	CHECK_INT(v.n, 16);
	CHECK_INT(sum_of(&v), TDW_SCALE);
	/* The heaviest is always kept... */
	CHECK(weight_of(&v, "zzheavy") > TDW_SCALE / 16);
	/* ... and every kept token ranks before every dropped one: heavier,
	 * or as heavy (rounding aside) with a smaller id. */
	o.max_tokens = TDW_TOKENS_MAX;
	CHECK_INT(tdw_vector(&f, &o, &w), 0);
	CHECK(w.n > 400);
	for (i = 0; i < v.n; i++) {
		for (k = 0; k < w.n && w.t[k].id != v.t[i].id; k++)
			;
		CHECK(k < w.n);
		if (k == w.n)
			continue;
		ws = w.t[k].w;
		for (j = 0, k = 0; j < w.n; j++) {
			while (k < v.n && v.t[k].id < w.t[j].id)
				k++;
			if (k < v.n && v.t[k].id == w.t[j].id)
				continue;
			wt = w.t[j].w;
			CHECK(ws > wt + 1 || (ws + 1 >= wt &&
			    v.t[i].id < w.t[j].id));
		}
	}
	/* Out of range means the default. */
	o.max_tokens = 0;
	CHECK_INT(tdw_vector(&f, &o, &v), 0);
	CHECK_INT(v.n, TDW_TOKENS_DEFAULT);
	o.max_tokens = TDW_TOKENS_MAX + 1;
	CHECK_INT(tdw_vector(&f, &o, &v), 0);
	CHECK_INT(v.n, TDW_TOKENS_DEFAULT);
}

static void
test_pack(void)
{
	static char a[TEXT_CAP];
	static unsigned char buf[TDW_PACKED_MAX];
	static struct tdw_vec v, w;
	size_t la = make_text(a, 11, 300, 0, 0), n;

	text_vector(a, la, &v);
	n = tdw_pack(&v, buf);
	CHECK_INT(n, 1 + 6 * (size_t)v.n);
	CHECK_INT(tdw_unpack(buf, n, &w), 0);
	CHECK_INT(w.n, v.n);
	CHECK(memcmp(w.t, v.t, v.n * sizeof(v.t[0])) == 0);
	/* Malformed: every way is refused and leaves an empty vector. */
	CHECK_INT(tdw_unpack(buf, n - 1, &w), -1);
	CHECK_INT(w.n, 0);
	CHECK_INT(tdw_unpack(buf, 0, &w), -1);
	CHECK_INT(tdw_unpack(NULL, 7, &w), -1);
	buf[0] = 2;
	CHECK_INT(tdw_unpack(buf, n, &w), -1);
	buf[0] = 1;
	buf[5]++; /* the first weight: the sum is off */
	CHECK_INT(tdw_unpack(buf, n, &w), -1);
	buf[5]--;
	memcpy(buf + 7, buf + 1, 4); /* the second id repeats the first */
	CHECK_INT(tdw_unpack(buf, n, &w), -1);
	/* An empty vector packs to its version byte. */
	v.n = 0;
	CHECK_INT(tdw_pack(&v, buf), 1);
	CHECK_INT(tdw_unpack(buf, 1, &w), 0);
	CHECK_INT(w.n, 0);
	CHECK_INT(tdw_threshold(0), 0);
	CHECK_INT(tdw_threshold(100), TDW_SCALE);
	CHECK_INT(tdw_threshold(50), 32768);
	CHECK_INT(tdw_threshold(1000), TDW_SCALE);
}

/*
 * Pages drawn from a skewed vocabulary (a few words in most pages, as
 * template and common words are), in families of near copies.
 */
#define VOCAB 3000
#define FAMILIES 40
#define STORED 300
#define QUERIES 100

static size_t
zipf_text(uint64_t *s, char *out, size_t words)
{
	size_t i, len = 0, r;

	for (i = 0; i < words && len + 16 < TEXT_CAP; i++) {
		/* Squaring a uniform draw favours small word numbers. */
		r = (size_t)(check_xorshift(s) % VOCAB);
		r = r * r / VOCAB;
		len += (size_t)snprintf(out + len, TEXT_CAP - len, "w%zu ", r);
	}
	return len;
}

/* A family member: the family's text with some words redrawn. */
static void
family_vector(uint64_t family, uint64_t *s, struct tdw_vec *v,
    const struct tdw_opts *o)
{
	static char text[TEXT_CAP];
	struct tdw_fields f;
	uint64_t fs = family * 7919 + 1;
	size_t words = 20 + family % 7 * 40, changed, len = 0, i, r;

	changed = (size_t)(check_xorshift(s) % 5) * words / 8;
	for (i = 0; i < words && len + 16 < TEXT_CAP; i++) {
		r = (size_t)(check_xorshift(&fs) % VOCAB);
		if (i < changed)
			r = (size_t)(check_xorshift(s) % VOCAB);
		r = r * r / VOCAB;
		len += (size_t)snprintf(text + len, TEXT_CAP - len, "w%zu ", r);
	}
	memset(&f, 0, sizeof(f));
	f.text = text;
	f.text_len = len;
	if (check_xorshift(s) % 4 == 0) {
		f.title = "heavy title words";
		f.keywords = "w1 w2 w3";
	}
	CHECK_INT(tdw_vector(&f, o, v), 0);
}

/* Whether a[0..n) and b[0..n) hold the same matches (not memcmp: the
 * struct has padding). */
static int
same_matches(const struct tdw_match *a, const struct tdw_match *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (a[i].id != b[i].id || a[i].overlap != b[i].overlap)
			return 0;
	return 1;
}

static int
match_order(const void *pa, const void *pb)
{
	const struct tdw_match *a = pa, *b = pb;

	if (a->overlap != b->overlap)
		return a->overlap > b->overlap ? -1 : 1;
	return a->id < b->id ? -1 : a->id > b->id;
}

/* Every stored vector reaching percent against q, best first. */
static size_t
brute_force(struct tdw_vec *const *stored, size_t n, const struct tdw_vec *q,
    int percent, struct tdw_match *out)
{
	size_t i, found = 0;
	uint32_t o;

	for (i = 0; i < n; i++) {
		o = tdw_overlap(stored[i], q);
		if (q->n > 0 && stored[i]->n > 0 && o >= tdw_threshold(percent)) {
			out[found].id = (int64_t)i + 1000;
			out[found].overlap = o;
			found++;
		}
	}
	qsort(out, found, sizeof(out[0]), match_order);
	return found;
}

/* Whether each of got[0..ng) is in want[0..nw) with the same overlap. */
static int
subset_matches(const struct tdw_match *got, size_t ng,
    const struct tdw_match *want, size_t nw)
{
	size_t i, j;

	for (i = 0; i < ng; i++) {
		for (j = 0; j < nw && want[j].id != got[i].id; j++)
			;
		if (j == nw || want[j].overlap != got[i].overlap)
			return 0;
	}
	return 1;
}

/*
 * Families of vectors queried as the crawl does. With limit 0 (every
 * posting walked) the index answers exactly as a full scan; with a limit
 * it never invents a match or changes an overlap, and *missed counts the
 * answers it left out.
 */
static void
index_vs_brute_limit(int percent, const struct tdw_opts *o, uint64_t seed,
    size_t limit, size_t *missed)
{
	static struct tdw_vec *stored[STORED], q;
	static struct tdw_match want[STORED], got[STORED], top[3];
	struct tdw_index *ix = tdw_index_new(percent);
	uint64_t s = seed;
	size_t i, j, nw, ng, nt, hits = 0, bad = 0;

	CHECK(ix != NULL);
	if (ix == NULL)
		return;
	tdw_index_limit(ix, limit);
	for (i = 0; i < STORED; i++) {
		stored[i] = malloc(sizeof(*stored[i]));
		if (stored[i] == NULL)
			break;
		family_vector(check_xorshift(&s) % FAMILIES, &s, stored[i], o);
		/* Query as the crawl does, before adding: the index so far
		 * against a scan of what was added so far. */
		nw = brute_force(stored, i, stored[i], percent, want);
		ng = tdw_index_query(ix, stored[i], got, STORED);
		if (limit > 0) {
			bad += ng > nw || !subset_matches(got, ng, want, nw);
			*missed += nw - (ng < nw ? ng : nw);
		} else
			bad += nw != ng || !same_matches(want, got, nw);
		hits += nw;
		CHECK_INT(tdw_index_add(ix, stored[i], (int64_t)i + 1000), 0);
	}
	CHECK_INT(i, STORED);
	for (j = 0; j < QUERIES && i == STORED; j++) {
		/* Fresh family members, and vectors with unseen tokens. */
		if (j % 10 == 9) {
			char text[TEXT_CAP];
			size_t len = zipf_text(&s, text, 50);

			memcpy(text, "zzunseen zzother ", 17);
			text_vector(text, len, &q);
		} else {
			family_vector(check_xorshift(&s) % (FAMILIES + 5), &s, &q, o);
		}
		nw = brute_force(stored, STORED, &q, percent, want);
		ng = tdw_index_query(ix, &q, got, STORED);
		hits += nw;
		if (limit > 0) {
			bad += ng > nw || !subset_matches(got, ng, want, nw);
			*missed += nw - (ng < nw ? ng : nw);
			continue;
		}
		bad += nw != ng || !same_matches(want, got, nw);
		/* A short out keeps the best, in order. */
		nt = tdw_index_query(ix, &q, top, 3);
		CHECK_INT(nt, nw);
		bad += !same_matches(top, want, nw < 3 ? nw : 3);
		CHECK_INT(tdw_index_query(ix, &q, NULL, 0), nw);
	}
	if (bad != 0)
		fprintf(stderr, "  tdw index at %d %%: %zu answers differ from "
		    "a full scan\n", percent, bad);
	CHECK_INT(bad, 0);
	/* The test means something only if there were matches to find. */
	CHECK(hits > 0);
	CHECK_INT(tdw_index_count(ix), STORED);
	CHECK(tdw_index_bytes(ix) > STORED * 24);
	for (i = 0; i < STORED; i++)
		free(stored[i]);
	tdw_index_free(ix);
}

static void
index_vs_brute(int percent, const struct tdw_opts *o, uint64_t seed)
{
	index_vs_brute_limit(percent, o, seed, 0, NULL);
}

static void
test_index_equals_brute_force(void)
{
	static const int percents[] = { 1, 50, 80, 95, 100 };
	struct tdw_opts o = { 0, 0, 64 };
	size_t i;

	for (i = 0; i < sizeof(percents) / sizeof(percents[0]); i++)
		index_vs_brute(percents[i], &o, 0x1234 + i);
	/* Few tokens: many ties and short prefixes. */
	o.max_tokens = 8;
	index_vs_brute(60, &o, 99);
	o.max_tokens = TDW_TOKENS_MAX;
	index_vs_brute(85, &o, 77);
}

/* With the crawl's limit on postings walked, the index finds a subset of
 * the full scan's answers, with their overlaps, and misses few. */
static void
test_index_limited(void)
{
	struct tdw_opts o = { 0, 0, 64 };
	size_t missed = 0;

	index_vs_brute_limit(1, &o, 0x1234, TDW_TOKEN_MEETS, &missed);
	fprintf(stderr, "  tdw index limited to %d postings a token: %zu "
	    "answers missed\n", TDW_TOKEN_MEETS, missed);
	/* The limit binds here (families share most tokens): a limit that
	 * never bound would prove nothing. */
	CHECK(missed > 0);
	index_vs_brute_limit(75, &o, 0x4321, 100000, &missed);
}

static void
test_index_basics(void)
{
	static char a[TEXT_CAP];
	static struct tdw_vec v, e, bad;
	struct tdw_match m[4];
	struct tdw_index *ix;
	size_t la = make_text(a, 21, 200, 0, 0);

	CHECK(tdw_index_new(0) == NULL);
	CHECK(tdw_index_new(101) == NULL);
	tdw_index_free(NULL);
	ix = tdw_index_new(90);
	CHECK(ix != NULL);
	if (ix == NULL)
		return;
	text_vector(a, la, &v);
	e.n = 0;
	/* Nothing stored, and nothing to find with an empty vector. */
	CHECK_INT(tdw_index_query(ix, &v, m, 4), 0);
	CHECK_INT(tdw_index_add(ix, &e, 1), 0);
	CHECK_INT(tdw_index_count(ix), 0);
	CHECK_INT(tdw_index_reserve(ix, &v), 0);
	CHECK_INT(tdw_index_add(ix, &v, 2), 0);
	CHECK_INT(tdw_index_add(ix, &v, 3), 0);
	CHECK_INT(tdw_index_query(ix, &e, m, 4), 0);
	CHECK_INT(tdw_index_query(ix, &v, m, 4), 2);
	CHECK_INT(m[0].id, 2);
	CHECK_INT(m[0].overlap, TDW_SCALE);
	CHECK_INT(m[1].id, 3);
	/* Weights summing past the scale are refused. */
	bad = v;
	bad.t[0].w = 65535;
	CHECK_INT(tdw_index_add(ix, &bad, 4), -1);
	CHECK_INT(tdw_index_count(ix), 2);
	tdw_index_free(ix);
}

/* A rebuilt index (vectors packed, unpacked, added again in order, as a
 * resumed crawl does) answers as the first one did. */
static void
test_index_rebuilt(void)
{
	static struct tdw_vec v[200], w;
	static unsigned char buf[TDW_PACKED_MAX];
	static struct tdw_match m1[16], m2[16];
	struct tdw_opts o = { 0, 0, 32 };
	struct tdw_index *a = tdw_index_new(75), *b = tdw_index_new(75);
	uint64_t s = 5;
	size_t i, n1, n2, n;

	CHECK(a != NULL && b != NULL);
	for (i = 0; a != NULL && b != NULL && i < 200; i++) {
		family_vector(check_xorshift(&s) % 20, &s, &v[i], &o);
		CHECK_INT(tdw_index_add(a, &v[i], (int64_t)i), 0);
		n = tdw_pack(&v[i], buf);
		CHECK_INT(tdw_unpack(buf, n, &w), 0);
		CHECK_INT(tdw_index_add(b, &w, (int64_t)i), 0);
	}
	for (i = 0; a != NULL && b != NULL && i < 200; i++) {
		n1 = tdw_index_query(a, &v[i], m1, 16);
		n2 = tdw_index_query(b, &v[i], m2, 16);
		CHECK_INT(n1, n2);
		CHECK(n1 >= 1);
		CHECK(same_matches(m1, m2, n1 < 16 ? n1 : 16));
	}
	CHECK_INT(tdw_index_bytes(a), tdw_index_bytes(b));
	tdw_index_free(a);
	tdw_index_free(b);
}

/*
 * Thousands of pages alike (a generated trap): a query walks only the
 * newest TDW_TOKEN_MEETS postings of each token, so it finds the newest
 * pages, the time it takes bounded, while a scan finds them all.
 */
static void
test_index_crowded_token(void)
{
	static char a[TEXT_CAP];
	static struct tdw_vec v;
	static struct tdw_vec *one[1];
	static struct tdw_match m[4], all[1];
	struct tdw_index *ix = tdw_index_new(75);
	size_t la = make_text(a, 33, 200, 0, 0), i, n = 3000;

	CHECK(ix != NULL);
	if (ix == NULL)
		return;
	text_vector(a, la, &v);
	for (i = 0; i < n; i++)
		CHECK_INT(tdw_index_add(ix, &v, (int64_t)i + 1), 0);
	CHECK_INT(tdw_index_query(ix, &v, m, 4), TDW_TOKEN_MEETS);
	/* The newest met; ties go to the smallest id among them. */
	CHECK_INT(m[0].id, (int64_t)(n - TDW_TOKEN_MEETS + 1));
	CHECK_INT(m[0].overlap, TDW_SCALE);
	/* A page older than that is still found by its own rarer words. */
	one[0] = &v;
	CHECK_INT(brute_force(one, 1, &v, 75, all), 1);
	/* With no limit every page is found: the tokens' postings, moved
	 * into arrays of their own past OWN_FROM, are all there, once. */
	tdw_index_limit(ix, 0);
	CHECK_INT(tdw_index_query(ix, &v, m, 4), n);
	CHECK_INT(m[0].id, 1);
	tdw_index_free(ix);
}

void
suite_tdw(void)
{
	RUN(test_tokens);
	RUN(test_field_weights);
	RUN(test_known_pairs);
	RUN(test_max_tokens);
	RUN(test_pack);
	RUN(test_index_basics);
	RUN(test_index_equals_brute_force);
	RUN(test_index_rebuilt);
	RUN(test_index_crowded_token);
	RUN(test_index_limited);
}
