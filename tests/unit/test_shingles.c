/*
 * Shingle sets, novel words, the site template and the confirmation of
 * near verdicts (dedup_confirm).
 */
#include "check.h"
#include "dedup/dedup.h"
#include "dedup/shingles.h"
#include "dedup/template.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static const char ARTICLE[] =
    "The committee met on Tuesday to review the budget for the new "
    "library wing and agreed to fund the reading rooms first.\n"
    "Students asked for longer opening hours during the examination "
    "period and the board promised an answer within a month.\n"
    "The architect presented three designs and the second one won "
    "a clear majority of the votes cast by the members present.";

/* shingles_measure of text b against text a, with b's template flags. */
static struct shingles_novelty
measure(const char *a, const char *b, const unsigned char *tmpl)
{
	struct shingles sa, sb;
	struct shingles_novelty nv;
	struct shingles_ref q;

	memset(&nv, 0, sizeof(nv));
	CHECK(shingles_of_text(a, strlen(a), &sa) == 0);
	CHECK(shingles_of_text(b, strlen(b), &sb) == 0);
	CHECK(shingles_ref_of(&sa, &q) == 0);
	shingles_measure(&sb, &q, tmpl, &nv);
	shingles_ref_free(&q);
	shingles_free(&sa);
	shingles_free(&sb);
	return nv;
}

/* New own words of text b against text a. */
static size_t
novel(const char *a, const char *b, const unsigned char *tmpl)
{
	return measure(a, b, tmpl).new_own;
}

static void
test_novel_words(void)
{
	char buf[2048];

	CHECK_INT(novel(ARTICLE, ARTICLE, NULL), 0);
	/* One word changed in the middle: one novel word. */
	snprintf(buf, sizeof(buf), "%s", ARTICLE);
	memcpy(strstr(buf, "budget"), "gadget", 6);
	CHECK_INT(novel(ARTICLE, buf, NULL), 1);
	/* A new sentence of eleven words: eleven, though the other page has
	 * "of" (not in these pairs). */
	snprintf(buf, sizeof(buf), "%s\nEvery course page repeats this "
	    "line of ten fresh words here.", ARTICLE);
	CHECK_INT(novel(ARTICLE, buf, NULL), 11);
	/* The page's text contained in a longer one: nothing new. */
	CHECK_INT(novel(buf, ARTICLE, NULL), 0);
	/* Numbers are words, shared only in their shingles: a changed date
	 * and time is five new words, and the "at" between them, which no
	 * shared shingle or pair holds. */
	CHECK_INT(novel("Page footer. Last updated 2026 11 24 at 10 32 by the "
	    "web team", "Page footer. Last updated 2025 03 07 at 09 15 by the "
	    "web team", NULL), 6);
	/* At the very start a change also takes the words before it. */
	CHECK_INT(novel("Updated 2026 11 24 by the web team",
	    "Updated 2025 03 07 by the web team", NULL), 4);
	/* Lines in another order are not new (their pairs are the other
	 * page's wherever its lines stand); words in another order within a
	 * line are, but for pairs kept. */
	CHECK_INT(novel("Lindqvist, Ana\nPublished\nLondon: Harbour Books, 2019",
	    "Harbour Books, 2019\nLindqvist, Ana", NULL), 0);
	CHECK_INT(novel("Lindqvist, Ana. Published London: Harbour Books.",
	    "Harbour Books, London. By Ana Lindqvist.", NULL), 4);
	/* A filled-in line is new where it is filled in: the figures and
	 * the word after the last one. */
	CHECK_INT(novel("Room B0.12 is a seminar room with 30 seats",
	    "Room B0.03 is a seminar room with 60 seats", NULL), 3);
	/* A table of other figures: every cell counts. */
	CHECK(novel("Team A 3 Team B 1 Team C 2 Team D 0 Team E 4 Team F 1",
	    "Team A 1 Team B 2 Team C 0 Team D 3 Team E 1 Team F 2",
	    NULL) >= 5);
	/* Nothing in common: every word. */
	CHECK_INT(novel("alpha beta gamma delta", "one two three four five",
	    NULL), 5);
	CHECK_INT(novel("alpha beta", "", NULL), 0);
}

static void
test_unspaced_scripts(void)
{
	struct shingles s;
	const char *t = "\xe5\xae\x87\xe8\x88\xaa\xe5\x91\x98 news "
	    "\xe3\x81\x8b\xe3\x81\xaa caf\xc3\xa9";

	/* Three Han characters, "news", two kana, "cafe" with its accent:
	 * a character each for the unspaced scripts, words for the rest. */
	CHECK(shingles_of_text(t, strlen(t), &s) == 0);
	CHECK_INT(s.words, 7);
	shingles_free(&s);
	/* One character changed in a Chinese line is one novel word, not
	 * the whole line. */
	CHECK_INT(novel("\xe4\xbb\x8a\xe5\xa4\xa9\xe5\xa4\xa9\xe6\xb0\x94"
	    "\xe5\xbe\x88\xe5\xa5\xbd\xe6\x88\x91\xe4\xbb\xac\xe5\x8e\xbb",
	    "\xe4\xbb\x8a\xe5\xa4\xa9\xe5\xa4\xa9\xe6\xb0\x94"
	    "\xe4\xb8\x8d\xe5\xa5\xbd\xe6\x88\x91\xe4\xbb\xac\xe5\x8e\xbb",
	    NULL), 1);
}

static void
test_blocks_and_template(void)
{
	struct shingles s;
	const char *page = "Menu Home News\nA distinct paragraph of words\n"
	    "Footer contact line";
	unsigned char flags[3] = { 1, 0, 1 };
	struct tmpl *t = tmpl_new();
	unsigned char got[3];

	CHECK(shingles_of_text(page, strlen(page), &s) == 0);
	CHECK_INT(s.nblocks, 3);
	CHECK_INT(s.words, 11);
	/* Blocks 0 and 2 are template: only block 1's words are own, and
	 * against nothing all of them new. */
	{
		struct shingles_ref none;
		struct shingles_novelty nv;

		memset(&none, 0, sizeof(none));
		shingles_measure(&s, &none, flags, &nv);
		CHECK_INT(nv.words, 11);
		CHECK_INT(nv.own, 5);
		CHECK_INT(nv.new_own, 5);
		CHECK_INT(nv.new_all, 11);
	}
	CHECK(t != NULL);
	tmpl_mark(t, "www.uni.test", s.block, s.nblocks, got);
	CHECK(got[0] == 0 && got[1] == 0 && got[2] == 0);
	CHECK(tmpl_learn(t, "www.uni.test", s.block, s.nblocks) == 0);
	tmpl_mark(t, "www.uni.test", s.block, s.nblocks, got);
	CHECK(got[0] == 0); /* one page is not a template */
	/* The same block twice on one page counts once. */
	{
		uint32_t twice[2] = { s.block[0], s.block[0] };

		CHECK(tmpl_learn(t, "www.uni.test", twice, 2) == 0);
	}
	tmpl_mark(t, "www.uni.test", s.block, s.nblocks, got);
	CHECK(got[0] == 1 && got[1] == 0 && got[2] == 0);
	/* Another host knows nothing of it. */
	tmpl_mark(t, "lib.uni.test", s.block, s.nblocks, got);
	CHECK(got[0] == 0);
	CHECK(tmpl_bytes(t) > 0);
	tmpl_free(t);
	shingles_free(&s);
}

static void
test_template_bounded(void)
{
	struct tmpl *t = tmpl_new();
	uint32_t b[1], keep = 0xdeadbeef;
	unsigned char f;
	size_t i, before;

	CHECK(t != NULL);
	/* A block on every page survives a flood of one-page blocks. */
	for (i = 0; i < 4 * TMPL_HOST_MAX; i++) {
		b[0] = (uint32_t)(i * 2654435761u) | 1;
		CHECK(tmpl_learn(t, "h", b, 1) == 0);
		if (i % 64 == 0)
			CHECK(tmpl_learn(t, "h", &keep, 1) == 0);
	}
	tmpl_mark(t, "h", &keep, 1, &f);
	CHECK(f == 1);
	before = tmpl_bytes(t);
	for (i = 0; i < TMPL_HOST_MAX; i++) {
		b[0] = (uint32_t)(i * 40503u) ^ 0x55555555u;
		CHECK(tmpl_learn(t, "h", b, 1) == 0);
	}
	CHECK(tmpl_bytes(t) == before);
	CHECK(tmpl_bytes(t) <= 2 * TMPL_HOST_MAX * 8 + 4096);
	tmpl_free(t);
}

/* Blocks 20 * p to 20 * p + 19, the new ones of page p, into page[]. */
static void
page_blocks(size_t p, uint32_t *page)
{
	size_t i;

	for (i = 0; i < 20; i++)
		page[i] = (uint32_t)((p * 20 + i) * 2654435761u) | 1;
}

/*
 * A large site where most blocks recur on a second page (a listing and the
 * item it links to): a full table must not be cleaned up on every page.
 * Each clean-up frees a quarter of the table's load, so learning B new
 * blocks may clean it up at most B / (TMPL_HOST_MAX / 8) + 1 times; and
 * the blocks seen on the most pages are the ones kept.
 */
static void
test_template_cleanup_amortized(void)
{
	struct tmpl *t = tmpl_new();
	uint32_t page[21], often = 0xabcdef01u;
	unsigned char f;
	size_t p, blocks = 0, before;

	CHECK(t != NULL);
	/* Fill the table: each page's new blocks come again on the next. */
	for (p = 0; p < 2 * TMPL_HOST_MAX / 20; p++) {
		page_blocks(p, page);
		CHECK(tmpl_learn(t, "big", page, 20) == 0);
		if (p > 0) {
			page_blocks(p - 1, page);
			CHECK(tmpl_learn(t, "big", page, 20) == 0);
		}
		if (p % 4 == 0)
			CHECK(tmpl_learn(t, "big", &often, 1) == 0);
	}
	before = tmpl_cleanups(t);
	CHECK(before >= 1);
	for (; p < 8 * TMPL_HOST_MAX / 20; p++) {
		page_blocks(p, page);
		page[20] = often;
		CHECK(tmpl_learn(t, "big", page, 21) == 0);
		page_blocks(p - 1, page);
		CHECK(tmpl_learn(t, "big", page, 20) == 0);
		blocks += 20;
	}
	CHECK(tmpl_cleanups(t) - before <= blocks / (TMPL_HOST_MAX / 8) + 1);
	tmpl_mark(t, "big", &often, 1, &f);
	CHECK(f == 1);
	CHECK(tmpl_bytes(t) <= 2 * TMPL_HOST_MAX * 8 + 4096);
	tmpl_free(t);
}

static void
test_encode_decode(void)
{
	struct shingles s;
	const unsigned char *blocks;
	unsigned char *blob;
	uint32_t *set;
	size_t len, n, nb, i;

	CHECK(shingles_of_text(ARTICLE, strlen(ARTICLE), &s) == 0);
	CHECK((blob = shingles_encode(&s, &len)) != NULL);
	CHECK(shingles_decode(blob, len, &set, &n) == 0);
	CHECK_INT(n, s.distinct);
	for (i = 0; i < n && set != NULL; i++)
		CHECK(set[i] == s.set[i]);
	free(set);
	CHECK(shingles_blocks(blob, len, &blocks, &nb, NULL) == 0);
	CHECK_INT(nb, 3);
	for (i = 0; i < nb; i++)
		CHECK(shingles_block_at(blocks, i) == s.block[i]);
	/* The pairs come back too, sorted (one a word but the first of
	 * each of the three lines), and whether the page teaches. */
	{
		struct shingles_ref r;
		int teaches;

		CHECK(shingles_ref_decode(blob, len, &r) == 0);
		CHECK_INT(r.n, s.distinct);
		CHECK_INT(r.nterms, s.nterms);
		CHECK(s.nterms > 10 && s.nterms <= s.words - 3);
		for (i = 0; i < r.nterms; i++)
			CHECK(r.terms[i] == s.terms[i] &&
			    (i == 0 || r.terms[i - 1] < r.terms[i]));
		shingles_ref_free(&r);
		CHECK(shingles_blocks(blob, len, &blocks, &nb, &teaches) == 0 &&
		    teaches == 0);
		free(blob);
		s.teaches = 1;
		CHECK((blob = shingles_encode(&s, &len)) != NULL);
		CHECK(shingles_blocks(blob, len, &blocks, &nb, &teaches) == 0 &&
		    teaches == 1);
		/* An unknown flag is damage. */
		blob[len - 1] = 2;
		CHECK(shingles_blocks(blob, len, &blocks, &nb, &teaches) == -1);
		blob[len - 1] = 1;
	}
	/* Damage of every kind is refused, never read past. */
	CHECK(shingles_decode(blob, len - 1, &set, &n) == -1 && set == NULL);
	CHECK(shingles_decode(blob, 1, &set, &n) == -1);
	blob[0] = 9;
	CHECK(shingles_decode(blob, len, &set, &n) == -1);
	CHECK(shingles_blocks(blob, len, &blocks, &nb, NULL) == -1);
	free(blob);
	shingles_free(&s);
	/* An empty text: seven bytes, and an empty set back. */
	CHECK(shingles_of_text("", 0, &s) == 0);
	CHECK((blob = shingles_encode(&s, &len)) != NULL);
	CHECK_INT(len, 7);
	CHECK(shingles_decode(blob, len, &set, &n) == 0 && n == 0);
	/* Version 2 (before items): the same without the items' count. */
	blob[0] = 2;
	blob[5] = blob[6];
	CHECK(shingles_decode(blob, 6, &set, &n) == 0 && n == 0);
	CHECK(shingles_blocks(blob, 6, &blocks, &nb, NULL) == 0);
	free(blob);
	shingles_free(&s);
}

/* A set stored by a version-1 nearcrawl (no terms) still reads, with
 * its blocks, and lends no terms. */
static void
test_decode_version1(void)
{
	/* Version 1, two shingles (5, then 5 + 3), one block, no terms. */
	static const unsigned char v1[] = { 1, 2, 5, 3, 1, 0x78, 0x56, 0x34,
		0x12 };
	struct shingles_ref r;
	const unsigned char *blocks;
	size_t nb;

	CHECK(shingles_ref_decode(v1, sizeof(v1), &r) == 0);
	{
		int teaches;

		CHECK(shingles_blocks(v1, sizeof(v1), &blocks, &nb,
		    &teaches) == 0 && teaches == -1);
	}
	CHECK_INT(r.n, 2);
	CHECK(r.set != NULL && r.set[0] == 5 && r.set[1] == 8);
	CHECK_INT(r.nterms, 0);
	shingles_ref_free(&r);
	CHECK(shingles_blocks(v1, sizeof(v1), &blocks, &nb, NULL) == 0);
	CHECK_INT(nb, 1);
	CHECK(shingles_block_at(blocks, 0) == 0x12345678u);
	/* Trailing bytes are damage in either version. */
	{
		unsigned char longer[sizeof(v1) + 1];

		memcpy(longer, v1, sizeof(v1));
		longer[sizeof(v1)] = 0;
		CHECK(shingles_ref_decode(longer, sizeof(longer), &r) == -1);
	}
}

/* dedup_set_fn: page 1's set is the article's; page 2 has none. */
static struct shingles fn_article;
static int fn_fail;

static int
set_fn(void *ctx, int64_t id, struct shingles_ref *q)
{
	(void)ctx;
	memset(q, 0, sizeof(*q));
	if (fn_fail)
		return -1;
	if (id != 1)
		return 0;
	return shingles_ref_of(&fn_article, q);
}

static void
test_confirm(void)
{
	struct dedup_config c;
	struct dedup_match m[4];
	struct dedup_veto veto;
	struct shingles p;
	struct dedup *d;
	char buf[2048];
	size_t nm;
	int err = 0;

	memset(&c, 0, sizeof(c));
	c.methods = DEDUP_MD5 | DEDUP_SIMHASH;
	c.simhash_k = 3;
	c.ssdeep_threshold = 90;
	c.min_shingles = 20;
	c.max_novel_words = 8;
	c.max_novel_percent = 10;
	CHECK((d = dedup_new(&c)) != NULL);
	CHECK(shingles_of_text(ARTICLE, strlen(ARTICLE), &fn_article) == 0);
	m[0].original_id = 1;
	m[0].method = DEDUP_SIMHASH;
	m[0].percent = 98;
	/* The article again with a changed word: confirmed. */
	snprintf(buf, sizeof(buf), "%s", ARTICLE);
	memcpy(strstr(buf, "budget"), "gadget", 6);
	CHECK(shingles_of_text(buf, strlen(buf), &p) == 0);
	nm = 1;
	CHECK(dedup_confirm(d, &p, NULL, DEDUP_NEAR, m, &nm, set_fn, NULL,
	    &veto, &err) == DEDUP_NEAR);
	CHECK_INT(nm, 1);
	/* Not near is left alone. */
	CHECK(dedup_confirm(d, &p, NULL, DEDUP_EXACT, m, &nm, set_fn, NULL,
	    &veto, &err) == DEDUP_EXACT);
	shingles_free(&p);
	/* A course page: the shared text plus its own description. */
	snprintf(buf, sizeof(buf), "%s\nCourse CS101 introduces programming "
	    "in C with weekly laboratory sessions and a final project.",
	    ARTICLE);
	CHECK(shingles_of_text(buf, strlen(buf), &p) == 0);
	nm = 1;
	CHECK(dedup_confirm(d, &p, NULL, DEDUP_NEAR, m, &nm, set_fn, NULL,
	    &veto, &err) == DEDUP_UNIQUE);
	CHECK_INT(nm, 0);
	CHECK(veto.original_id == 1 && veto.novel == 14 && !veto.floor);
	/* Its description known as the host's template: near again. */
	{
		unsigned char flags[4] = { 0, 0, 0, 1 };

		nm = 1;
		CHECK(dedup_confirm(d, &p, flags, DEDUP_NEAR, m, &nm, set_fn,
		    NULL, &veto, &err) == DEDUP_NEAR);
	}
	/* An original with no stored set confirms nothing. */
	m[0].original_id = 2;
	nm = 1;
	CHECK(dedup_confirm(d, &p, NULL, DEDUP_NEAR, m, &nm, set_fn, NULL,
	    &veto, &err) == DEDUP_UNIQUE);
	shingles_free(&p);
	/* Below the evidence floor a page cannot be near. */
	CHECK(shingles_of_text("News page 2", 11, &p) == 0);
	m[0].original_id = 1;
	nm = 1;
	CHECK(dedup_confirm(d, &p, NULL, DEDUP_NEAR, m, &nm, set_fn, NULL,
	    &veto, &err) == DEDUP_UNIQUE);
	CHECK(veto.floor == 1);
	/* A failing look-up is reported, the verdict left. */
	fn_fail = 1;
	shingles_free(&p);
	CHECK(shingles_of_text(ARTICLE, strlen(ARTICLE), &p) == 0);
	nm = 1;
	CHECK(dedup_confirm(d, &p, NULL, DEDUP_NEAR, m, &nm, set_fn, NULL,
	    &veto, &err) == DEDUP_NEAR);
	CHECK(err == 1);
	fn_fail = 0;
	shingles_free(&p);
	shingles_free(&fn_article);
	dedup_free(d);
}

/*
 * The definition of docs/dedup.md ("What near means"), case by case, with
 * a share of 15 % (the default is 20) and the default floors: B, a page
 * after A, is near when at most 15 % of its own words (outside the site
 * template) and of all its words are new.
 */
/* The definition's settings with a share of pct %, SimHash proposing. */
static void
definition_config(struct dedup_config *c, int pct)
{
	memset(c, 0, sizeof(*c));
	c->methods = DEDUP_MD5 | DEDUP_SIMHASH;
	c->simhash_k = 3;
	c->ssdeep_threshold = 90;
	c->min_shingles = 20;
	c->max_novel_words = -1;
	c->max_novel_percent = pct;
	c->own_novelty = 1;
}

static struct dedup *
definition_dedup(void)
{
	struct dedup_config c;

	definition_config(&c, 15);
	return dedup_new(&c);
}

/* The verdict on b after a (a's set stored as page 1), with b's blocks
 * flagged by tmpl (NULL: none is template). */
static enum dedup_verdict
after(struct dedup *d, const char *a, const char *b,
    const unsigned char *tmpl, struct dedup_veto *veto)
{
	struct dedup_match m[1];
	struct shingles p;
	enum dedup_verdict v;
	size_t nm = 1;
	int err = 0;

	CHECK(shingles_of_text(a, strlen(a), &fn_article) == 0);
	CHECK(shingles_of_text(b, strlen(b), &p) == 0);
	m[0].original_id = 1;
	m[0].method = DEDUP_SIMHASH;
	m[0].percent = 95;
	v = dedup_confirm(d, &p, tmpl, DEDUP_NEAR, m, &nm, set_fn, NULL, veto,
	    &err);
	CHECK(err == 0);
	shingles_free(&p);
	shingles_free(&fn_article);
	return v;
}

/* ARTICLE three times over with other words: about 180 words of prose. */
static const char LONG_ARTICLE[] =
    "The committee met on Tuesday to review the budget for the new "
    "library wing and agreed to fund the reading rooms first.\n"
    "Students asked for longer opening hours during the examination "
    "period and the board promised an answer within a month.\n"
    "The architect presented three designs and the second one won "
    "a clear majority of the votes cast by the members present.\n"
    "Building work will start in the spring once the planning office "
    "has approved the drawings and the contractor has been chosen.\n"
    "During the works the old reading room stays open, although the "
    "east entrance will be closed and visitors must use the garden gate.\n"
    "The librarians will move the rare books collection to a store in "
    "the science park, where readers can ask for items a day ahead.\n"
    "A public meeting on the plans is held next Thursday evening in the "
    "main hall, and everyone who uses the library is welcome to attend.";

static void
test_definition(void)
{
	struct dedup *d = definition_dedup();
	struct dedup_veto veto;
	char a[4096], b[4096];

	CHECK(d != NULL);
	if (d == NULL)
		return;
	/* A revision box of 16 words above the unchanged article: 16 of
	 * about 200 words are new, near. */
	snprintf(b, sizeof(b), "This is an old revision of this page, as "
	    "edited by Ann Smith at 10:42 on 3 May.\n%s", LONG_ARTICLE);
	CHECK(after(d, LONG_ARTICLE, b, NULL, &veto) == DEDUP_NEAR);
	/* A print view inside a longer original (the article and its
	 * comments): nothing of it is new, near. */
	snprintf(a, sizeof(a), "%s\nComment by Joe: the garden gate is "
	    "always locked after six, so evening visitors cannot get in at "
	    "all, which makes the meeting hard to reach for most of us.",
	    LONG_ARTICLE);
	CHECK(after(d, a, LONG_ARTICLE, NULL, &veto) == DEDUP_NEAR);
	/* A raw view of a message with its mail headers: near. */
	snprintf(b, sizeof(b), "From: Ann Smith\nDate: 3 May 2024\n"
	    "Subject: library wing\n%s", LONG_ARTICLE);
	CHECK(after(d, LONG_ARTICLE, b, NULL, &veto) == DEDUP_NEAR);
	/* The same article under a new paragraph of its own as long as a
	 * third of it: new content. */
	snprintf(b, sizeof(b), "%s\nThe university also announced that "
	    "the sports centre will close for a year while its pool is "
	    "rebuilt, that the swimming club will train in the city baths "
	    "instead, and that members keep their discount there. Buses to "
	    "the baths leave from the main gate every twenty minutes on "
	    "weekdays, and a timetable is available at the reception desk "
	    "of the sports centre until it closes in June.", LONG_ARTICLE);
	CHECK(after(d, LONG_ARTICLE, b, NULL, &veto) == DEDUP_UNIQUE);
	CHECK(veto.original_id == 1 && veto.nv.new_own * 100 >
	    15 * veto.nv.own && veto.nv.own == veto.nv.words);
	/* Another layout of one record: the citation repeats the record's
	 * fields in another order; only the style names are new. */
	snprintf(a, sizeof(a), "Author\nLindqvist, Ana; Okafor, Ben\n"
	    "Published\nLondon: Harbour Books, 2019\n%s", LONG_ARTICLE);
	snprintf(b, sizeof(b), "Cite this item\nAPA\nLindqvist, A. & "
	    "Okafor, B. (2019). Harbour Books.\nMLA\nLindqvist, Ana, et al. "
	    "Harbour Books, 2019.\n%s", LONG_ARTICLE);
	CHECK(after(d, a, b, NULL, &veto) == DEDUP_NEAR);
	/* A thin page on a heavy template: its own line differs from the
	 * other page's in most words, the template (flagged) in none. */
	{
		static const char tmpl_text[] = "Home\nStudy\nNews\nResearch\n"
		    "Contact us\nThe University is a charity registered in "
		    "Scotland and a company limited by guarantee; we use "
		    "cookies to make this site work and to understand how it "
		    "is used, and you can change your cookie settings.\n"
		    "Information on this page is correct at the time of "
		    "publication; the university reserves the right to change "
		    "courses, services and facilities without notice.\n";
		unsigned char flags[8] = { 1, 1, 1, 1, 1, 1, 1, 0 };

		snprintf(a, sizeof(a), "%sRegistry: open Monday to Thursday, "
		    "08:30 to 17:00, Room A2.09, Main Building, telephone "
		    "496 1289.", tmpl_text);
		snprintf(b, sizeof(b), "%sAdmissions: open weekdays, 09:00 to "
		    "16:30, Room A1.22, Main Building, telephone 496 1732.",
		    tmpl_text);
		CHECK(after(d, a, b, flags, &veto) == DEDUP_UNIQUE);
		/* Without the template known, the same pair is near by all
		 * of its words: the template is what makes it content. */
		CHECK(after(d, a, b, NULL, &veto) == DEDUP_NEAR);
	}
	/* Listings whose items recur on other listings (flagged template):
	 * under one heading, with other items, they have a few own words
	 * only, and are judged on all their words: new content. */
	{
		static const char items_a[] = "Events\nSeminar on compilers and "
		    "type systems, Tuesday\nConcert of the university choir in "
		    "the great hall, Friday\nWorkshop on writing grant "
		    "proposals for early career staff, Monday\nOpen day for "
		    "prospective students and their families, Saturday\n";
		static const char items_b[] = "Events\nLecture on the history "
		    "of the printing press, Wednesday\nReading group on "
		    "climate fiction and the novel, Thursday\nExhibition of "
		    "student photography in the library foyer, Sunday\nCareers "
		    "fair with employers from the city region, Tuesday\n";
		unsigned char flags[5] = { 0, 1, 1, 1, 1 };

		CHECK(after(d, items_a, items_b, flags, &veto) == DEDUP_UNIQUE);
		/* The same items in another order: near. */
		static const char items_c[] = "Events\nOpen day for "
		    "prospective students and their families, Saturday\n"
		    "Workshop on writing grant proposals for early career "
		    "staff, Monday\nConcert of the university choir in the "
		    "great hall, Friday\nSeminar on compilers and type "
		    "systems, Tuesday\n";

		CHECK(after(d, items_a, items_c, flags, &veto) == DEDUP_NEAR);
	}
	/* A listing is its items: the same titles leading elsewhere (the
	 * timetables of another department under the same names) are other
	 * items; the same items in another order are not; and links of one
	 * or two words (next, a page number) are navigation, not items. */
	{
		static const char lst[] = "Timetables\nAutumn 2026, year 1, "
		    "group A\nAutumn 2026, year 1, group B\nAutumn 2026, year 2, "
		    "group A\nAutumn 2026, year 2, group B\nSpring 2026, year 1, "
		    "group A\nSpring 2026, year 1, group B\nNext\n";
		struct shingles_link la[7], lb[7];
		struct shingles pa, pb;
		struct shingles_novelty nv;
		struct shingles_ref q;
		const char *line = strchr(lst, '\n') + 1, *nl;
		size_t i = 0;

		while ((nl = strchr(line, '\n')) != NULL && i < 7) {
			la[i].start = lb[i].start = (size_t)(line - lst);
			la[i].end = lb[i].end = (size_t)(nl - lst);
			la[i].target = 100 + (uint32_t)i;  /* cs's pages */
			lb[i].target = 200 + (uint32_t)i;  /* bio's pages */
			line = nl + 1;
			i++;
		}
		CHECK_INT(i, 7);
		CHECK(shingles_of_text_links(lst, strlen(lst), la, 7, &pa) ==
		    0);
		CHECK(shingles_of_text_links(lst, strlen(lst), lb, 7, &pb) ==
		    0);
		CHECK(shingles_ref_of(&pa, &q) == 0);
		shingles_measure(&pb, &q, NULL, &nv);
		/* Every item word is new; "Timetables" and "Next" are not. */
		CHECK_INT(nv.new_all, nv.words - 2);
		CHECK(!dedup_novelty_holds(d, &nv));
		shingles_measure(&pa, &q, NULL, &nv);
		CHECK_INT(nv.new_all, 0);
		/* "Next" leading elsewhere is navigation: not new. */
		la[6].target = 999;
		shingles_free(&pb);
		CHECK(shingles_of_text_links(lst, strlen(lst), la, 7, &pb) ==
		    0);
		shingles_measure(&pb, &q, NULL, &nv);
		CHECK_INT(nv.new_all, 0);
		/* A set stored before link targets were kept tells nothing
		 * of them: the titles alone decide. */
		free(q.targets);
		q.targets = NULL;
		q.ntargets = 0;
		q.has_targets = 0;
		shingles_free(&pb);
		CHECK(shingles_of_text_links(lst, strlen(lst), lb, 7, &pb) ==
		    0);
		shingles_measure(&pb, &q, NULL, &nv);
		CHECK_INT(nv.new_all, 0);
		shingles_ref_free(&q);
		shingles_free(&pa);
		shingles_free(&pb);
	}
	/* A page whose text is too thin to judge: unique, said so. */
	CHECK(after(d, LONG_ARTICLE, "Registry: open Monday.", NULL, &veto) ==
	    DEDUP_UNIQUE);
	CHECK(veto.floor == 1);
	dedup_free(d);
}

/* The links of text t (to its '\n'-ended lines) that a starts, each a
 * whole line, leading to targets[i]; their number. */
static size_t
line_links(const char *t, const char *const *starts, const uint32_t *targets,
    size_t n, struct shingles_link *out)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const char *at = strstr(t, starts[i]);

		CHECK(at != NULL);
		out[i].start = (size_t)(at - t);
		out[i].end = (size_t)(strchr(at, '\n') - t);
		out[i].target = targets[i];
	}
	return n;
}

/*
 * The linker and listings (docs/dedup.md, "What near means"): a page is
 * never near a page that lists it -- an item leading to it under one of
 * its lines -- however much of it the listing shows; a print link is no
 * such item. The linker is a candidate beyond the sketches' first few.
 */
static void
test_listing_and_linker(void)
{
	static const char title[] = "Seminar: the garden of forking paths";
	static const char desc[] = "A reading of the story with the "
	    "department of comparative literature, followed by a discussion "
	    "of labyrinths, time and the books that hold them all at once "
	    "for every reader.";
	const char *starts[1];
	uint32_t targets[1] = { 77 };
	struct shingles_link links[1];
	struct shingles la, lb, lc;
	struct shingles_novelty nv;
	struct shingles_ref q;
	struct dedup *d, *d0;
	struct dedup_config c;
	struct dedup_match m[8];
	struct dedup_veto veto;
	unsigned char flags[8];
	unsigned char *blob;
	char a[4096], b[2048];
	size_t nm, len, i;
	int err = 0;

	definition_config(&c, 25);
	c.linker = 1;
	CHECK((d = dedup_new(&c)) != NULL);
	/* The listing shows the event whole, under its title. */
	snprintf(a, sizeof(a), "Upcoming events\n%s\n%s\nMonday 12:00, Great "
	    "Hall\n", title, desc);
	snprintf(b, sizeof(b), "%s\nMonday 12:00, Great Hall\n%s\n", title,
	    desc);
	starts[0] = title;
	line_links(a, starts, targets, 1, links);
	CHECK(shingles_of_text_links(a, strlen(a), links, 1, &la) == 0);
	CHECK(shingles_of_text(b, strlen(b), &lb) == 0);
	CHECK_INT(la.nitems, 1);
	CHECK(shingles_ref_of(&la, &q) == 0);
	lb.self = 77;
	dedup_measure(d, &lb, &q, NULL, &nv);
	CHECK_INT(nv.new_all, 0);
	CHECK(nv.listed == 1 && !dedup_novelty_holds(d, &nv));
	/* Another page under the same title is not the item. */
	lb.self = 78;
	dedup_measure(d, &lb, &q, NULL, &nv);
	CHECK(nv.listed == 0 && dedup_novelty_holds(d, &nv));
	/* Without the linker setting (older crawls) nothing is listed. */
	c.linker = 0;
	CHECK((d0 = dedup_new(&c)) != NULL);
	lb.self = 77;
	dedup_measure(d0, &lb, &q, NULL, &nv);
	CHECK(nv.listed == 0);
	nm = 0;
	CHECK(dedup_linker(d0, DEDUP_UNIQUE, 1, m, 8, &nm) == DEDUP_UNIQUE);
	CHECK_INT(nm, 0);
	dedup_free(d0);
	c.linker = 1;
	shingles_ref_free(&q);
	/* Stored and read back, the listing still lists it. */
	CHECK((blob = shingles_encode(&la, &len)) != NULL);
	CHECK(shingles_ref_decode(blob, len, &q) == 0);
	CHECK_INT(q.nitems, 1);
	CHECK(shingles_lists(&q, &lb) == 1);
	shingles_ref_free(&q);
	free(blob);
	/* An item on a template line (a menu) lists nothing. */
	memset(flags, 0, sizeof(flags));
	flags[1] = 1;
	CHECK(shingles_keep_own_terms(&la, flags) == 0);
	CHECK_INT(la.nitems, 0);
	CHECK(shingles_ref_of(&la, &q) == 0);
	CHECK(shingles_lists(&q, &lb) == 0);
	shingles_ref_free(&q);
	shingles_free(&la);
	/* An article that links to its print view: "Printer friendly
	 * version of this page" is not a line of the print view, which
	 * stays near it. */
	snprintf(a, sizeof(a), "%s\nPrinter friendly version of this page\n"
	    "Comment by Joe: the garden gate is always locked after six.\n",
	    b);
	starts[0] = "Printer friendly";
	line_links(a, starts, targets, 1, links);
	CHECK(shingles_of_text_links(a, strlen(a), links, 1, &lc) == 0);
	CHECK(shingles_ref_of(&lc, &q) == 0);
	dedup_measure(d, &lb, &q, NULL, &nv);
	CHECK(nv.listed == 0 && dedup_novelty_holds(d, &nv));
	shingles_ref_free(&q);
	shingles_free(&lc);
	shingles_free(&lb);

	/* Measured up to a bound, a page stops once it is no copy: the
	 * same answer, partial counts, said so. */
	{
		struct shingles_novelty all, upto;
		struct shingles plus;

		snprintf(a, sizeof(a), "%s\n%s", ARTICLE, desc);
		CHECK(shingles_of_text(a, strlen(a), &plus) == 0);
		CHECK(shingles_of_text(ARTICLE, strlen(ARTICLE), &lc) == 0);
		CHECK(shingles_of_text(LONG_ARTICLE, strlen(LONG_ARTICLE),
		    &la) == 0);
		CHECK(shingles_ref_of(&la, &q) == 0);
		shingles_measure(&plus, &q, NULL, &all);
		shingles_measure_upto(&plus, &q, NULL, 5, &upto);
		CHECK(all.new_all > 5 && upto.cut == 1 && upto.new_all == 6 &&
		    all.cut == 0);
		shingles_free(&plus);
		shingles_measure_upto(&lc, &q, NULL, 5, &upto);
		shingles_measure(&lc, &q, NULL, &all);
		CHECK(upto.cut == 0 && upto.new_all == all.new_all &&
		    upto.words == all.words && upto.own == all.own);
		/* Nothing shared at all: every word new, at once. */
		shingles_ref_free(&q);
		CHECK(shingles_ref_of(&lb, &q) == 0);
		shingles_measure(&la, &q, NULL, &all);
		CHECK(all.new_all == all.words && all.words > 100 &&
		    all.own == all.words && all.cut == 0);
		shingles_ref_free(&q);
		shingles_free(&la);
		shingles_free(&lc);
	}

	/* dedup_linker: the linker joins the candidates of a verdict that
	 * is not exact, once. */
	nm = 0;
	CHECK(dedup_linker(d, DEDUP_UNIQUE, 1, m, 8, &nm) == DEDUP_NEAR);
	CHECK(nm == 1 && m[0].original_id == 1 &&
	    m[0].method == DEDUP_LINKER);
	CHECK(dedup_linker(d, DEDUP_NEAR, 1, m, 8, &nm) == DEDUP_NEAR);
	CHECK_INT(nm, 1);
	CHECK(dedup_linker(d, DEDUP_EXACT, 2, m, 8, &nm) == DEDUP_EXACT);
	CHECK(dedup_linker(d, DEDUP_UNIQUE, 0, m, 8, &nm) == DEDUP_UNIQUE);
	CHECK_INT(nm, 1);
	CHECK(strcmp(dedup_method_name(DEDUP_LINKER), "linker") == 0);
	/* Four sketch candidates with nothing stored, then the linker (page
	 * 1, the article whose print view this is): the linker confirms. */
	CHECK(shingles_of_text(LONG_ARTICLE, strlen(LONG_ARTICLE),
	    &fn_article) == 0);
	snprintf(b, sizeof(b), "%s", LONG_ARTICLE);
	*strrchr(b, '\n') = '\0';
	CHECK(shingles_of_text(b, strlen(b), &lb) == 0);
	for (i = 0; i < 4; i++) {
		m[i].original_id = 2 + (int64_t)i;
		m[i].method = DEDUP_SIMHASH;
		m[i].percent = 90;
	}
	nm = 4;
	CHECK(dedup_linker(d, DEDUP_NEAR, 1, m, 8, &nm) == DEDUP_NEAR);
	CHECK_INT(nm, 5);
	CHECK(dedup_confirm(d, &lb, NULL, DEDUP_NEAR, m, &nm, set_fn, NULL,
	    &veto, &err) == DEDUP_NEAR);
	CHECK(err == 0 && nm == 1 && m[0].original_id == 1 &&
	    m[0].method == DEDUP_LINKER && m[0].percent == 100.0);
	/* With no share to hold it to (100 %), a linker would confirm
	 * every page: it proposes nothing. */
	c.max_novel_percent = 100;
	CHECK((d0 = dedup_new(&c)) != NULL);
	nm = 0;
	CHECK(dedup_linker(d0, DEDUP_UNIQUE, 1, m, 8, &nm) == DEDUP_UNIQUE);
	CHECK_INT(nm, 0);
	dedup_free(d0);
	shingles_free(&lb);
	shingles_free(&fn_article);
	dedup_free(d);
}

/*
 * Who teaches the template (dedup_learns_template): unique pages, and
 * near pages whose new words are half the allowed share or more. Three
 * course pages that share a long policy and differ in a description of
 * their own: the second is judged before the policy is template (near
 * the first, 12 % new, at a 20 % share); it teaches, so the policy is
 * template for the third, whose own words are then its description:
 * unique. A print view that adds nothing does not teach.
 */
static void
test_who_teaches(void)
{
	static const char policy[] = "Policy\nStudents must have passed every "
	    "prerequisite before they register, or hold an equivalent "
	    "qualification approved by the convenor in writing.\nEach piece "
	    "of assessed work is marked on the common scale, and the final "
	    "mark is the weighted average of the marks for its components, "
	    "rounded to the nearest whole number.\nCoursework submitted late "
	    "without an extension loses five marks for each working day, and "
	    "work more than five days late receives a mark of zero.\nRequests "
	    "for extensions must be made through the portal before the "
	    "deadline and supported by evidence from a doctor or adviser.\n";
	static const char *const desc[] = {
		"Compilers: lexical analysis, parsing, type checking, register "
		    "allocation and code generation for a small language.",
		"Databases: relational algebra, normal forms, indexing, query "
		    "optimisation and concurrency control of transactions.",
		"Robotics: kinematics of arms, sensors, feedback loops, "
		    "localisation and the planning of paths around obstacles.",
	};
	struct dedup_config c;
	struct shingles_novelty nv;
	struct shingles pg[3];
	struct shingles_ref q;
	struct tmpl *t = tmpl_new();
	struct dedup *d;
	unsigned char flags[16];
	char text[2048];
	size_t i;

	memset(&c, 0, sizeof(c));
	c.methods = DEDUP_MD5 | DEDUP_SIMHASH;
	c.simhash_k = 3;
	c.ssdeep_threshold = 90;
	c.min_shingles = 20;
	c.max_novel_words = -1;
	c.max_novel_percent = 20;
	c.own_novelty = 1;
	CHECK((d = dedup_new(&c)) != NULL && t != NULL);
	if (d == NULL || t == NULL)
		return;
	for (i = 0; i < 3; i++) {
		snprintf(text, sizeof(text), "%s\n%s", desc[i], policy);
		CHECK(shingles_of_text(text, strlen(text), &pg[i]) == 0);
		CHECK(pg[i].nblocks <= sizeof(flags));
	}
	/* The first is unique: it teaches. */
	CHECK(dedup_learns_template(d, DEDUP_UNIQUE, NULL) == 1);
	CHECK(tmpl_learn(t, "s", pg[0].block, pg[0].nblocks) == 0);
	/* The second: nothing is template yet, 12 % new: near, and half
	 * the share or more: it teaches. */
	tmpl_mark(t, "s", pg[1].block, pg[1].nblocks, flags);
	CHECK(shingles_ref_of(&pg[0], &q) == 0);
	shingles_measure(&pg[1], &q, flags, &nv);
	shingles_ref_free(&q);
	CHECK(nv.own == nv.words);
	CHECK(dedup_novelty_holds(d, &nv));
	CHECK(dedup_learns_template(d, DEDUP_NEAR, &nv) == 1);
	CHECK(tmpl_learn(t, "s", pg[1].block, pg[1].nblocks) == 0);
	/* The third: the policy is template now; its own words are its
	 * description, all new: not near. */
	tmpl_mark(t, "s", pg[2].block, pg[2].nblocks, flags);
	CHECK(shingles_ref_of(&pg[1], &q) == 0);
	shingles_measure(&pg[2], &q, flags, &nv);
	shingles_ref_free(&q);
	CHECK(nv.own < 20 && nv.new_own * 2 > nv.own);
	CHECK(!dedup_novelty_holds(d, &nv));
	/* A copy that adds nothing, or little, does not teach; without
	 * own_novelty every judged page did. */
	memset(&nv, 0, sizeof(nv));
	nv.words = nv.own = 100;
	nv.new_all = nv.new_own = 9;
	CHECK(dedup_learns_template(d, DEDUP_NEAR, &nv) == 0);
	CHECK(dedup_learns_template(d, DEDUP_NEAR, NULL) == 0);
	CHECK(dedup_learns_template(d, DEDUP_EXACT, NULL) == 0);
	dedup_free(d);
	c.own_novelty = 0;
	CHECK((d = dedup_new(&c)) != NULL);
	CHECK(dedup_learns_template(d, DEDUP_NEAR, NULL) == 1);
	dedup_free(d);
	for (i = 0; i < 3; i++)
		shingles_free(&pg[i]);
	tmpl_free(t);
}

/*
 * shingles_measure_words marks exactly the words the measure counts new:
 * one changed word in the middle of the article is the word marked.
 */
static void
test_new_words_marked(void)
{
	static const char b[] =
	    "The committee met on Tuesday to review the budget for the new "
	    "library wing and agreed to fund the reading rooms first.\n"
	    "Students asked for longer opening hours during the examination "
	    "period and the board promised an answer within a fortnight.\n"
	    "The architect presented three designs and the second one won "
	    "a clear majority of the votes cast by the members present.";
	struct shingles sa, sb;
	struct shingles_novelty nv, plain;
	struct shingles_ref q;
	unsigned char *isnew;
	size_t j, marked = 0, at = 0;

	CHECK(shingles_of_text(ARTICLE, strlen(ARTICLE), &sa) == 0);
	CHECK(shingles_of_text(b, strlen(b), &sb) == 0);
	CHECK(shingles_ref_of(&sa, &q) == 0);
	CHECK((isnew = calloc(sb.words, 1)) != NULL);
	shingles_measure_words(&sb, &q, NULL, &nv, isnew);
	shingles_measure(&sb, &q, NULL, &plain);
	CHECK(nv.new_all == plain.new_all && nv.words == plain.words);
	for (j = 0; j < sb.words; j++)
		if (isnew[j]) {
			marked++;
			at = j;
		}
	CHECK(marked == nv.new_all);
	/* "fortnight" (word 40, 0-based) and nothing else. */
	CHECK(marked == 1 && at == 40);
	shingles_ref_free(&q);
	free(isnew);
	shingles_free(&sb);
	shingles_free(&sa);
}

static int
cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * shingles_keep_own_terms, which filters all the pairs by the words'
 * ranks, keeps what sorting the own words' pairs anew keeps: the pairs of
 * the words outside template lines, each once, on texts of many lines
 * with repeated words and random template flags.
 */
static void
test_own_terms_by_rank(void)
{
	static const char *const w[] = { "alpha", "beta", "gamma", "delta",
		"2024", "epsilon", "zeta", "eta", "theta", "iota" };
	char text[8192];
	uint32_t *want;
	unsigned char *flags;
	struct shingles s;
	uint64_t seed = 99;
	size_t len, j, k, n, round, bad = 0;

	for (round = 0; round < 200; round++) {
		len = 0;
		n = check_xorshift(&seed) % 600;
		for (j = 0; j < n; j++) {
			k = check_xorshift(&seed) % 10;
			len += (size_t)snprintf(text + len, sizeof(text) - len,
			    "%s%c", w[k], check_xorshift(&seed) % 6 == 0 ?
			    '\n' : ' ');
		}
		CHECK(shingles_of_text(text, len, &s) == 0);
		flags = malloc(s.nblocks + 1);
		want = malloc((s.words + 1) * sizeof(*want));
		CHECK(flags != NULL && want != NULL);
		if (flags == NULL || want == NULL)
			break;
		for (j = 0; j < s.nblocks; j++)
			flags[j] = (unsigned char)(check_xorshift(&seed) % 3 == 0);
		for (j = 0, n = 0; j < s.words; j++)
			if (!flags[s.word[j]] && s.term[j] != 0)
				want[n++] = s.term[j];
		qsort(want, n, sizeof(*want), cmp_u32);
		for (j = 0, k = 0; j < n; j++)
			if (k == 0 || want[k - 1] != want[j])
				want[k++] = want[j];
		CHECK(shingles_keep_own_terms(&s, flags) == 0);
		bad += s.nterms != k || (k > 0 &&
		    memcmp(s.terms, want, k * sizeof(*want)) != 0);
		free(flags);
		free(want);
		shingles_free(&s);
	}
	CHECK_INT(bad, 0);
}

void
suite_shingles(void)
{
	RUN(test_own_terms_by_rank);
	RUN(test_novel_words);
	RUN(test_new_words_marked);
	RUN(test_unspaced_scripts);
	RUN(test_blocks_and_template);
	RUN(test_template_bounded);
	RUN(test_template_cleanup_amortized);
	RUN(test_encode_decode);
	RUN(test_decode_version1);
	RUN(test_confirm);
	RUN(test_definition);
	RUN(test_who_teaches);
	RUN(test_listing_and_linker);
}
