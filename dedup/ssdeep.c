/*
 * ssdeep: libfuzzy digests and a 7-gram index over them.
 *
 * fuzzy_compare(a, b) is above 0 only if the block sizes are equal or one
 * is double the other and the parts compared at a common block size share
 * a 7-character substring after runs of more than three equal characters
 * are cut to three, or if both digests are identical after that cut. So
 * every stored digest is indexed under keys (block size, gram) for each
 * 7-gram of its first part and (2 x block size, gram) for its second part;
 * a digest whose parts are both too short for a gram is indexed under one
 * key for the whole cut digest instead (only an identical digest can score
 * with it). A query's keys formed the same way reach every digest it can
 * score with, and fuzzy_compare decides.
 *
 * Layout, chosen for bytes per digest (65-80 keys each): one util/tagtab,
 * at most 80% full, of 4-byte slots: the entry number and a 7-bit tag from
 * the key's hash. The key itself is not stored: a key's occurrences all
 * sit in the run of filled slots that starts at its home slot, a query
 * scans that run's tags, and a slot whose tag matches is checked against
 * the entry's stored digest (does it hold the gram at that block size?),
 * which also throws out other keys that share the tag. The table grows by
 * half and is refilled from the stored digests, in place (realloc), so
 * growing never holds two tables. Each entry keeps its caller's id (8
 * bytes), the offset of its cut digest in one arena (4) and a query mark
 * (4): a query stamps each entry it compared, so an entry reached
 * through several shared grams is compared once, without the query
 * allocating anything.
 */
#include "dedup/ssdeep.h"

#include <assert.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/chars.h"
#include "util/mix64.h"
#include "util/tagtab.h"
#include "dedup/topk.h"

#define GRAM 7                  /* libfuzzy's ROLLING_WINDOW */
#define PART_MAX SPAMSUM_LENGTH /* longest part fuzzy_compare takes */
#define MAX_KEYS (1 + 2 * (PART_MAX - GRAM + 1))
_Static_assert(MAX_KEYS == SSDEEP_KEYS_MAX, "ssdeep.h counts the keys");
#define NORM_MAX (24 + 2 * PART_MAX) /* "bs:part1:part2" */
#define MAX_ITEMS ((size_t)TAGTAB_MAX_ENTRY + 1)
#define MAX_SLOTS TAGTAB_MAX_SLOTS
#define FIRST_SLOTS 1024
/* Filled slots at most LOAD_NUM / LOAD_DEN of all: runs stay short. */
#define LOAD_NUM 4
#define LOAD_DEN 5

/* A digest as fuzzy_compare sees it: block size, both parts run-cut. */
struct parsed {
	unsigned long bs;  /* block size of part 1; part 2 is at 2 x bs */
	char p1[PART_MAX]; /* first part, runs cut to three */
	size_t n1;
	char p2[PART_MAX]; /* second part (up to ',' or the end), cut */
	size_t n2;
};

/* One key of a digest and what a stored digest must hold to share it. */
struct key {
	uint64_t hash;       /* home slot and tag come from it */
	unsigned long level; /* block size the gram is compared at */
	const char *text;    /* GRAM bytes, or the whole cut digest */
	int whole;           /* the key of a digest without grams */
};

struct ssdeep_index {
	int64_t *id;      /* caller's id of each entry */
	uint32_t *off;    /* offset of each entry's cut digest in arena */
	uint32_t *mark;   /* [0]: last query's stamp; [1 + e]: stamp of
	                     the last query that compared entry e */
	size_t n;         /* entries */
	size_t cap;       /* entries allocated (mark has cap + 1) */
	char *arena;      /* NUL-terminated cut digests, back to back */
	size_t arena_len; /* bytes used */
	size_t arena_cap; /* bytes allocated */
	struct tagtab tab; /* entry numbers by key */
};

int
ssdeep_of_text(const char *text, size_t len, char out[SSDEEP_MAX])
{
	struct fuzzy_state *st;
	char chunk[4096];
	size_t off, n;
	int ok;

	out[0] = '\0';
	if (text == NULL)
		len = 0;
	if ((st = fuzzy_new()) == NULL)
		return -1;
	/* Knowing the length up front lets libfuzzy skip the block sizes it
	 * will not choose (as fuzzy_hash_buf does): the same digest, for
	 * about half the work. */
	ok = fuzzy_set_total_input_length(st, (uint_least64_t)len) == 0;
	/* Line breaks are read as the spaces they were before blocks became
	 * lines: piecewise hashing sees every byte. */
	for (off = 0; ok && off < len; off += n) {
		n = len - off < sizeof(chunk) ? len - off : sizeof(chunk);
		chars_lines_as_spaces(chunk, text + off, n);
		ok = fuzzy_update(st, (const unsigned char *)chunk, n) == 0;
	}
	ok = ok && fuzzy_digest(st, out, 0) == 0;
	fuzzy_free(st);
	if (!ok) {
		out[0] = '\0';
		return -1;
	}
	return 0;
}

/* Copy up to a stop character, cutting runs as libfuzzy does; -1 when the
 * cut part is too long for fuzzy_compare. */
static int
cut_part(const char **sp, const char *stops, char *out, size_t *n)
{
	const char *s = *sp;

	*n = 0;
	for (; *s != '\0' && strchr(stops, *s) == NULL; s++) {
		if (*n >= 3 && out[*n - 1] == *s && out[*n - 2] == *s &&
		    out[*n - 3] == *s)
			continue;
		if (*n >= PART_MAX)
			return -1;
		out[(*n)++] = *s;
	}
	*sp = s;
	return 0;
}

/*
 * Parse "bs:part1:part2[,...]". Stricter than fuzzy_compare's sscanf (no
 * sign, no blanks, ':' right after the digits), so whatever passes here is
 * read the same way by libfuzzy.
 */
static int
parse_digest(const char *s, struct parsed *p)
{
	unsigned long bs = 0;
	int digits = 0;

	if (s == NULL)
		return -1;
	for (; *s >= '0' && *s <= '9'; s++, digits++) {
		if (bs > (ULONG_MAX / 2 - 9) / 10)
			return -1;
		bs = bs * 10 + (unsigned long)(*s - '0');
	}
	if (digits == 0 || *s != ':')
		return -1;
	s++;
	p->bs = bs;
	if (cut_part(&s, ":", p->p1, &p->n1) != 0 || *s != ':')
		return -1;
	s++;
	if (cut_part(&s, ",", p->p2, &p->n2) != 0)
		return -1;
	return 0;
}

static size_t
format_digest(const struct parsed *p, char out[NORM_MAX])
{
	int n = snprintf(out, NORM_MAX, "%lu:%.*s:%.*s", p->bs, (int)p->n1,
	    p->p1, (int)p->n2, p->p2);

	return n < 0 ? 0 : (size_t)n;
}

int
ssdeep_score(const char *a, const char *b)
{
	struct parsed pa, pb;

	/* fuzzy_compare returns 0 for block sizes too far apart before it
	 * looks at the rest; check both fully so -1 always means malformed. */
	if (parse_digest(a, &pa) != 0 || parse_digest(b, &pb) != 0)
		return -1;
	return fuzzy_compare(a, b);
}

static uint64_t
key_hash(unsigned kind, uint64_t level, const char *s, size_t n)
{
	uint64_t h = mix64(level * 0x9e3779b97f4a7c15ULL + kind);
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 0x100000001b3ULL;
	}
	return mix64(h);
}

static int
same_key(const struct key *a, const struct key *b)
{
	if (a->hash != b->hash || a->whole != b->whole)
		return 0;
	if (a->whole)
		return strcmp(a->text, b->text) == 0;
	return a->level == b->level && memcmp(a->text, b->text, GRAM) == 0;
}

/* Append k to keys[0..*nk) unless an equal key is there: a 256-slot set
 * of key numbers + 1 (MAX_KEYS < 256) finds equals in a step or two. */
static void
add_key(struct key keys[MAX_KEYS], size_t *nk, uint8_t set[256],
    const struct key *k)
{
	size_t i = (size_t)(k->hash >> 56);

	for (; set[i] != 0; i = (i + 1) & 255)
		if (same_key(&keys[set[i] - 1], k))
			return;
	keys[*nk] = *k;
	*nk += 1;
	set[i] = (uint8_t)*nk;
}

/*
 * The distinct keys of a digest: every gram of each part at that part's
 * block size, or, when neither part is long enough for a gram, its whole
 * cut form norm. The keys point into p and norm.
 */
static size_t
keys_of(const struct parsed *p, const char *norm, size_t normlen,
    struct key keys[MAX_KEYS])
{
	uint8_t set[256];
	struct key k;
	size_t i, nk = 0;

	memset(set, 0, sizeof(set));
	k.whole = 0;
	k.level = p->bs;
	for (i = 0; i + GRAM <= p->n1; i++) {
		k.text = p->p1 + i;
		k.hash = key_hash(0, k.level, k.text, GRAM);
		add_key(keys, &nk, set, &k);
	}
	k.level = p->bs * 2;
	for (i = 0; i + GRAM <= p->n2; i++) {
		k.text = p->p2 + i;
		k.hash = key_hash(0, k.level, k.text, GRAM);
		add_key(keys, &nk, set, &k);
	}
	if (nk == 0) {
		keys[0].hash = key_hash(1, p->bs, norm, normlen);
		keys[0].level = p->bs;
		keys[0].text = norm;
		keys[0].whole = 1;
		nk = 1;
	}
	return nk;
}

/* Split a stored cut digest "bs:p1:p2" (well formed: we wrote it). */
static void
split_stored(const char *s, unsigned long *bs, const char **p1, size_t *n1,
    const char **p2, size_t *n2)
{
	const char *c;

	*bs = 0;
	for (; *s >= '0' && *s <= '9'; s++)
		*bs = *bs * 10 + (unsigned long)(*s - '0');
	*p1 = s + 1;
	c = strchr(*p1, ':');
	*n1 = (size_t)(c - *p1);
	*p2 = c + 1;
	*n2 = strlen(*p2);
}

static int
has_gram(const char *part, size_t n, const char *gram)
{
	size_t i;

	for (i = 0; i + GRAM <= n; i++)
		if (part[i] == gram[0] && memcmp(part + i, gram, GRAM) == 0)
			return 1;
	return 0;
}

/* Does stored entry e really have key k (not just its tag)? */
static int
entry_has_key(const struct ssdeep_index *ix, uint32_t e, const struct key *k)
{
	const char *s = ix->arena + ix->off[e], *p1, *p2;
	unsigned long bs;
	size_t n1, n2;

	if (k->whole)
		return strcmp(s, k->text) == 0;
	split_stored(s, &bs, &p1, &n1, &p2, &n2);
	return (bs == k->level && has_gram(p1, n1, k->text)) ||
	    (bs * 2 == k->level && has_gram(p2, n2, k->text));
}

struct ssdeep_index *
ssdeep_index_new(void)
{
	struct ssdeep_index *ix = calloc(1, sizeof(*ix));

	if (ix == NULL)
		return NULL;
	ix->mark = calloc(1, sizeof(*ix->mark));
	if (ix->mark == NULL || tagtab_reset(&ix->tab, FIRST_SLOTS) != 0)
		goto fail;
	return ix;
fail:
	ssdeep_index_free(ix);
	return NULL;
}

void
ssdeep_index_free(struct ssdeep_index *ix)
{
	if (ix == NULL)
		return;
	free(ix->id);
	free(ix->off);
	free(ix->mark);
	free(ix->arena);
	tagtab_free(&ix->tab);
	free(ix);
}

/* Make *cap at least need for an array of size-byte items, growing by
 * half (not doubling), so at most a third of an array is slack. */
static int
reserve(void **arr, size_t *cap, size_t need, size_t size, size_t limit)
{
	size_t ncap = *cap ? *cap : 64;
	void *p;

	if (need <= *cap)
		return 0;
	if (need > limit)
		return -1;
	while (ncap < need)
		ncap = ncap > limit / 3 * 2 ? limit : ncap + ncap / 2 + 16;
	p = realloc(*arr, ncap * size);
	if (p == NULL)
		return -1;
	*arr = p;
	*cap = ncap;
	return 0;
}

/* Room for one more entry in id, off and mark; -1 with nothing lost. */
static int
reserve_entry(struct ssdeep_index *ix)
{
	size_t idcap = ix->cap, offcap = ix->cap, markcap = ix->cap + 1;

	if (reserve((void **)&ix->id, &idcap, ix->n + 1, sizeof(*ix->id),
	        MAX_ITEMS) != 0 ||
	    reserve((void **)&ix->off, &offcap, ix->n + 1, sizeof(*ix->off),
	        MAX_ITEMS) != 0 ||
	    reserve((void **)&ix->mark, &markcap, ix->n + 2, sizeof(*ix->mark),
	        MAX_ITEMS + 1) != 0)
		return -1;
	/* Arrays grown before a failure are only larger, which is harmless. */
	ix->cap = idcap < offcap ? idcap : offcap;
	if (markcap - 1 < ix->cap)
		ix->cap = markcap - 1;
	return 0;
}

/*
 * Grow the table to nslot slots and put every stored entry's keys back.
 * The arrays are grown in place by realloc (large blocks are remapped, not
 * copied), then refilled from the stored digests. -1 with the table as it
 * was when memory runs out.
 */
static int
grow_table(struct ssdeep_index *ix, size_t nslot)
{
	struct key keys[MAX_KEYS];
	struct parsed p;
	const char *s;
	size_t e, i, nk;
	int bad;

	if (tagtab_reset(&ix->tab, nslot) != 0)
		return -1;
	for (e = 0; e < ix->n; e++) {
		s = ix->arena + ix->off[e];
		/* Stored digests parsed once already: cannot fail. */
		bad = parse_digest(s, &p) != 0;
		assert(!bad);
		if (bad)
			continue;
		nk = keys_of(&p, s, strlen(s), keys);
		for (i = 0; i < nk; i++)
			tagtab_put(&ix->tab, keys[i].hash, (uint32_t)e);
	}
	return 0;
}

int
ssdeep_index_add(struct ssdeep_index *ix, const char *digest, int64_t id)
{
	struct parsed p;
	char norm[NORM_MAX];
	struct key keys[MAX_KEYS];
	size_t normlen, nk, i, want;

	if (parse_digest(digest, &p) != 0)
		return -2;
	normlen = format_digest(&p, norm);
	nk = keys_of(&p, norm, normlen, keys);

	/* Reserve everything first: from here on nothing can fail. */
	if (reserve_entry(ix) != 0 ||
	    reserve((void **)&ix->arena, &ix->arena_cap,
	        ix->arena_len + normlen + 1, 1, UINT32_MAX) != 0)
		return -1;
	if ((ix->tab.filled + nk) * LOAD_DEN > ix->tab.nslot * LOAD_NUM) {
		want = ix->tab.nslot + ix->tab.nslot / 2;
		while ((ix->tab.filled + nk) * LOAD_DEN > want * LOAD_NUM)
			want += want / 2;
		if (want > MAX_SLOTS || grow_table(ix, want) != 0)
			return -1;
	}
	/* Reserved above: the writes below need no check. */
	assert(ix->n < ix->cap &&
	    ix->arena_len + normlen + 1 <= ix->arena_cap);

	ix->id[ix->n] = id;
	ix->off[ix->n] = (uint32_t)ix->arena_len;
	ix->mark[1 + ix->n] = 0;
	memcpy(ix->arena + ix->arena_len, norm, normlen + 1);
	ix->arena_len += normlen + 1;
	for (i = 0; i < nk; i++)
		tagtab_put(&ix->tab, keys[i].hash, (uint32_t)ix->n);
	ix->n++;
	return 0;
}

static int
better(const void *va, const void *vb)
{
	const struct ssdeep_match *a = va, *b = vb;

	if (a->score != b->score)
		return a->score > b->score;
	return a->id < b->id;
}

/* A new stamp for a query; on wrap-around every old stamp is cleared. */
static uint32_t
next_stamp(const struct ssdeep_index *ix)
{
	if (++ix->mark[0] == 0) {
		memset(ix->mark, 0, (ix->n + 1) * sizeof(*ix->mark));
		ix->mark[0] = 1;
	}
	return ix->mark[0];
}

size_t
ssdeep_index_query(const struct ssdeep_index *ix, const char *digest,
    int threshold, struct ssdeep_match *out, size_t max)
{
	struct parsed p;
	struct ssdeep_match m;
	char norm[NORM_MAX];
	struct key keys[MAX_KEYS];
	struct tagtab_iter it;
	size_t normlen, nk, k, found = 0;
	uint32_t stamp, e;

	if (parse_digest(digest, &p) != 0 || threshold > 100)
		return 0;
	/* Score 0 means unrelated, never a match. */
	if (threshold < 1)
		threshold = 1;
	normlen = format_digest(&p, norm);
	nk = keys_of(&p, norm, normlen, keys);
	stamp = next_stamp(ix);
	for (k = 0; k < nk; k++) {
		tagtab_find(&ix->tab, keys[k].hash, &it);
		while (tagtab_next(&it, &e)) {
			if (ix->mark[1 + e] == stamp ||
			    !entry_has_key(ix, e, &keys[k]))
				continue;
			ix->mark[1 + e] = stamp;
			m.score = fuzzy_compare(ix->arena + ix->off[e], norm);
			if (m.score < threshold)
				continue;
			m.id = ix->id[e];
			if (out != NULL && max > 0)
				topk_insert(
				    out, max, found, &m, sizeof(m), better);
			found++;
		}
	}
	return found;
}

size_t
ssdeep_keys(const char *digest, uint64_t keys[SSDEEP_KEYS_MAX])
{
	struct parsed p;
	char norm[NORM_MAX];
	struct key k[MAX_KEYS];
	size_t normlen, nk, i;

	if (parse_digest(digest, &p) != 0)
		return 0;
	normlen = format_digest(&p, norm);
	nk = keys_of(&p, norm, normlen, k);
	for (i = 0; i < nk; i++)
		keys[i] = k[i].hash;
	return nk;
}

size_t
ssdeep_index_count(const struct ssdeep_index *ix)
{
	return ix->n;
}

size_t
ssdeep_index_bytes(const struct ssdeep_index *ix)
{
	return sizeof(*ix) + ix->cap * (sizeof(*ix->id) + sizeof(*ix->off)) +
	    (ix->cap + 1) * sizeof(*ix->mark) + ix->arena_cap +
	    tagtab_bytes(&ix->tab);
}
