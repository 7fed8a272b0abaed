/*
 * The words of a text read once by the shingles (shingles_words) give
 * SimHash and MinHash the very fingerprints reading the text gives, on
 * made-up texts of every kind of word and on the real pages of the shared
 * corpus, main and body text.
 */
#include "check.h"
#include "dedup/minhash.h"
#include "dedup/shingles.h"
#include "dedup/simhash.h"
#include "dedup/words.h"
#include "web/extract.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define CORPUS "../shared/corpus/readability/pages"
#define PAGE_MAX (4 * 1024 * 1024)

/* Whether every setting of SimHash and MinHash that reads words gives the
 * same fingerprint of text from ws as from the text. */
static int
same_both_ways(const char *text, size_t len, const struct words_seq *ws)
{
	static const int weightings[] = { SIMHASH_WEIGHT_TF,
		SIMHASH_WEIGHT_LOGTF, SIMHASH_WEIGHT_BINARY };
	struct simhash_opts o = simhash_default_opts;
	uint32_t a[MINHASH_MAX_PERMS], b[MINHASH_MAX_PERMS];
	size_t w;
	int fold, sh, same = 1;

	for (fold = 0; fold <= 1; fold++)
		for (sh = 1; sh <= WORDS_RING; sh++) {
			o.fold_numbers = fold;
			o.shingle = sh;
			for (w = 0; w < sizeof(weightings) / sizeof(*weightings);
			    w++) {
				o.weighting = weightings[w];
				o.min_word = sh == 1 && w == 0 ? 3 : 0;
				same &= simhash_of_text_words(text, len, ws, &o) ==
				    simhash_of_text_opts(text, len, &o);
			}
			memset(a, 0, sizeof(a));
			memset(b, 0, sizeof(b));
			same &= minhash_of_text_words(text, len, ws, sh, 128, a,
			    fold) == 0 && minhash_of_text_digits(text, len, sh,
			    128, b, fold) == 0 && memcmp(a, b, sizeof(a)) == 0;
		}
	return same;
}

/* Read text into shingles and, with compare, the fingerprints both ways;
 * returns 1 when ws covered it. */
static int
check_words(const char *text, size_t len, int compare)
{
	struct shingles s;
	struct words_seq ws;
	int whole;

	if (shingles_of_text(text, len, &s) != 0) {
		CHECK(!"out of memory");
		return 0;
	}
	whole = shingles_words(&s, &ws);
	CHECK_INT(ws.n, whole ? s.words : 0);
	if (whole && compare)
		CHECK(same_both_ways(text, len, &ws));
	shingles_free(&s);
	return whole;
}

static int
check_text(const char *text, size_t len)
{
	return check_words(text, len, 1);
}

static void
test_made_up_texts(void)
{
	static const char *const tokens[] = { "alpha", "Beta", "GAMMA",
		"2024", "0", "007", "12th", "x9", "caf\xc3\xa9", "\xc3\x89t\xc3\xa9",
		"\xe4\xb8\xad\xe6\x96\x87", "\xe3\x81\xb2\xe3\x82\x89",
		"\xef\xbc\xa1", "\xf0\xa0\x80\x80", "\xe2\x80\x94", "\xff\xfe",
		",", ".", "-", " ", " ", "  ", "\n", "\t", "a", "I" };
	char text[4096];
	uint64_t seed = 0x1234;
	size_t len, t, k, n = sizeof(tokens) / sizeof(*tokens);
	int round;

	CHECK(check_text("", 0));
	CHECK(check_text(NULL, 0));
	CHECK(check_text("one", 3));
	CHECK(check_text("one 22", 6));
	CHECK(check_text("...", 3));
	for (round = 0; round < 300; round++) {
		len = 0;
		k = check_xorshift(&seed) % 400;
		while (k-- > 0) {
			t = check_xorshift(&seed) % n;
			if (len + strlen(tokens[t]) + 1 >= sizeof(text))
				break;
			memcpy(text + len, tokens[t], strlen(tokens[t]));
			len += strlen(tokens[t]);
			if (check_xorshift(&seed) % 3 != 0)
				text[len++] = ' ';
		}
		CHECK(check_text(text, len));
	}
}

/* A text of more words than the shingles read: no words then. */
static void
test_cut_text(void)
{
	size_t n = SHINGLES_MAX + 10, len = 2 * n, i;
	char *text = malloc(len);

	CHECK(text != NULL);
	if (text == NULL)
		return;
	for (i = 0; i < n; i++) {
		text[2 * i] = (char)('a' + i % 26);
		text[2 * i + 1] = ' ';
	}
	CHECK(!check_words(text, len, 0));
	/* Exactly as many as it reads: all of them. */
	CHECK(check_words(text, 2 * (SHINGLES_MAX + 2) - 1, 0));
	CHECK(!check_words(text, 2 * (SHINGLES_MAX + 3) - 1, 0));
	free(text);
}

/* The gunzipped file at path into a buffer of *len bytes, or NULL. */
static char *
read_gz(const char *path, size_t *len)
{
	gzFile f = gzopen(path, "rb");
	char *buf = malloc(PAGE_MAX);
	int n = -1;

	if (f != NULL && buf != NULL)
		n = gzread(f, buf, PAGE_MAX);
	if (f != NULL)
		gzclose(f);
	if (n < 0) {
		free(buf);
		return NULL;
	}
	*len = (size_t)n;
	return buf;
}

static void
test_corpus_pages(void)
{
	struct extract_opts eo = { "utf-8", 0, 0 };
	struct extract_result r;
	struct dirent *e;
	char path[1024], *html;
	size_t len, pages = 0;
	DIR *dir = opendir(CORPUS);

	CHECK(dir != NULL);
	if (dir == NULL)
		return;
	while ((e = readdir(dir)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/source.html.gz", CORPUS,
		    e->d_name);
		if ((html = read_gz(path, &len)) == NULL)
			continue;
		if (extract_html(html, len, "http://a.example/", &eo, &r,
		    NULL) == 0) {
			CHECK(check_text(r.text, r.text_len));
			CHECK(check_text(r.main_text, r.main_len));
			pages++;
			extract_result_free(&r);
		}
		free(html);
	}
	closedir(dir);
	CHECK(pages >= 90);
}

void
suite_words(void)
{
	RUN(test_made_up_texts);
	RUN(test_cut_text);
	RUN(test_corpus_pages);
}
