/*
 * Fuzz the near-duplicate fingerprints: simhash_of_text(_opts),
 * ssdeep_of_text, ssdeep_score and the ssdeep index, and md5_of_text.
 *
 * Checks on the input as text: SimHash of "" is 0; the default options
 * give simhash_of_text's value; ASCII case does not change any SimHash
 * (words are lower-cased); distance/percent stay in range; the ssdeep
 * digest is made, is well formed and scores 100 against itself
 * (libfuzzy 2.13+ returns 100 for identical digests before anything
 * else; this is libfuzzy 2.14.1); MD5 is 32 lower-case hex digits.
 *
 * Checks on the input as digests (each line one digest, at most 64):
 * ssdeep_score is -1..100 and symmetric in its -1; a well-formed digest
 * scores 100 with itself; every line goes into an index (ids = line
 * numbers) and every line is queried at a threshold taken from the
 * input: the index must return exactly the stored digests whose
 * ssdeep_score with the query reaches the threshold (brute force over
 * all lines), best first.
 */
#include "fuzz_common.h"
#include "dedup/md5.h"
#include "dedup/simhash.h"
#include "dedup/ssdeep.h"

#include <ctype.h>

#define MAX_LINES 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
check_text(const uint8_t *data, size_t size)
{
	struct simhash_opts o;
	char dig[SSDEEP_MAX], hex[MD5_HEX_LEN + 1];
	uint64_t h, hu, hl, ho;
	char *up, *lo;
	size_t i;
	int d;

	h = simhash_of_text((const char *)data, size);
	if (size == 0)
		FUZZ_CHECK(h == 0, "SimHash of empty text %llx",
		    (unsigned long long)h);
	FUZZ_CHECK(h == simhash_of_text_opts((const char *)data, size, NULL),
	    "NULL options differ from simhash_of_text");
	FUZZ_CHECK(h == simhash_of_text_opts((const char *)data, size,
	    &simhash_default_opts), "default options differ");
	up = fuzz_strndup(data, size);
	lo = fuzz_strndup(data, size);
	for (i = 0; i < size; i++) {
		up[i] = (char)toupper((unsigned char)up[i]);
		lo[i] = (char)tolower((unsigned char)lo[i]);
	}
	hu = simhash_of_text(up, size);
	hl = simhash_of_text(lo, size);
	FUZZ_CHECK(h == hu && h == hl, "ASCII case changed the SimHash");
	d = simhash_distance(h, hu ^ (h & 0xff));
	FUZZ_CHECK(d >= 0 && d <= 64, "distance %d", d);
	FUZZ_CHECK(simhash_percent(d) >= 0 && simhash_percent(d) <= 100,
	    "percent");

	/* Other feature choices, taken from the input's length. */
	o.shingle = (int)(size % 11) - 1;  /* -1..9: clamped to 1..8 */
	o.min_word = (int)(size % 7) - 1;
	o.weighting = (int)(size % 4);     /* 3 is out of range */
	o.fold_numbers = (int)(size & 1);
	ho = simhash_of_text_opts((const char *)data, size, &o);
	FUZZ_CHECK(ho == simhash_of_text_opts(up, size, &o) &&
	    ho == simhash_of_text_opts(lo, size, &o),
	    "ASCII case changed the SimHash (shingle %d, min_word %d, "
	    "weighting %d, fold %d)", o.shingle, o.min_word, o.weighting,
	    o.fold_numbers);
	free(up);
	free(lo);

	FUZZ_CHECK(ssdeep_of_text((const char *)data, size, dig) == 0,
	    "ssdeep_of_text failed");
	FUZZ_CHECK(strlen(dig) > 0 && strlen(dig) < SSDEEP_MAX, "digest '%s'",
	    dig);
	FUZZ_CHECK(ssdeep_score(dig, dig) == 100, "own digest %s scores %d",
	    dig, ssdeep_score(dig, dig));

	FUZZ_CHECK(md5_of_text((const char *)data, size, hex) == 0, "md5");
	FUZZ_CHECK(strlen(hex) == MD5_HEX_LEN, "md5 length");
	for (i = 0; i < MD5_HEX_LEN; i++)
		FUZZ_CHECK(isdigit((unsigned char)hex[i]) ||
		    (hex[i] >= 'a' && hex[i] <= 'f'), "md5 hex %s", hex);
}

static void
check_digests(const uint8_t *data, size_t size)
{
	struct ssdeep_match m[8];
	struct ssdeep_index *ix;
	char *txt, *lines[MAX_LINES], *p;
	int ok[MAX_LINES], threshold, s, best;
	size_t n = 0, i, j, want, got, k;

	txt = fuzz_strndup(data, size);
	for (p = txt; n < MAX_LINES;) {
		lines[n++] = p;
		p = strchr(p, '\n');
		if (p == NULL)
			break;
		*p++ = '\0';
	}
	threshold = size > 0 ? (int)data[0] % 104 - 1 : 0; /* -1..102 */

	ix = ssdeep_index_new();
	if (ix == NULL)
		goto done;
	for (i = 0; i < n; i++) {
		s = ssdeep_score(lines[i], lines[i]);
		FUZZ_CHECK(s >= -1 && s <= 100, "score %d", s);
		FUZZ_CHECK(s == -1 || s == 100, "well-formed %s scores %d with "
		    "itself", lines[i], s);
		if (i > 0) {
			int a = ssdeep_score(lines[i], lines[i - 1]);
			int b = ssdeep_score(lines[i - 1], lines[i]);

			FUZZ_CHECK(a >= -1 && a <= 100, "score %d", a);
			FUZZ_CHECK((a == -1) == (b == -1), "-1 one way only");
		}
		k = ssdeep_index_add(ix, lines[i], (int64_t)i);
		FUZZ_CHECK((int)k == (s == -1 ? -2 : 0) || (int)k == -1,
		    "add of %s gave %d (score %d)", lines[i], (int)k, s);
		ok[i] = (int)k == 0;
	}
	for (i = 0; i < n; i++) {
		int t = threshold < 1 ? 1 : threshold;

		want = 0;
		best = -1;
		for (j = 0; j < n; j++) {
			if (!ok[j])
				continue;
			s = ssdeep_score(lines[j], lines[i]);
			if (s >= t && threshold <= 100) {
				want++;
				if (s > best)
					best = s;
			}
		}
		got = ssdeep_index_query(ix, lines[i], threshold, m, 8);
		FUZZ_CHECK(got == want, "query %zu (%s) at %d: index found %zu, "
		    "brute force %zu", i, lines[i], threshold, got, want);
		for (k = 0; k < got && k < 8; k++) {
			FUZZ_CHECK(m[k].id >= 0 && (size_t)m[k].id < n &&
			    ok[m[k].id], "bad id");
			FUZZ_CHECK(m[k].score == ssdeep_score(lines[m[k].id],
			    lines[i]), "stored score %d differs", m[k].score);
			FUZZ_CHECK(k == 0 || m[k].score < m[k - 1].score ||
			    (m[k].score == m[k - 1].score &&
			    m[k].id > m[k - 1].id), "not best first");
		}
		FUZZ_CHECK(got == 0 || m[0].score == best, "best %d, first %d",
		    best, m[0].score);
	}
	ssdeep_index_free(ix);
done:
	free(txt);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	check_text(data, size);
	check_digests(data, size);
	return 0;
}
