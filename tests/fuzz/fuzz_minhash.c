/*
 * Fuzz MinHash: minhash_of_text, the blob encoding and the LSH index.
 *
 * Checks on the input as text (shingle size from its length): the
 * signature is unchanged by ASCII case; a shorter signature is a prefix of
 * a longer one; a signature agrees with itself everywhere; the blob
 * round-trips and refuses other lengths.
 *
 * Checks on the input as sets (each line one text, at most 64; bands and
 * threshold from the first two bytes): every line's signature goes into
 * an index (ids = line numbers) and every line is queried. The index may
 * miss pairs but never invents one: every answer is an answer of
 * minhash_index_scan, with the same agreement, best first; and a stored
 * signature disagreeing with the query in fewer positions than there are
 * bands must be found (it agrees on a whole band).
 */
#include "fuzz_common.h"
#include "dedup/minhash.h"

#include <ctype.h>

#define MAX_LINES 64
#define K 128

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
check_text(const uint8_t *data, size_t size)
{
	uint32_t sig[K], other[K], back[K];
	unsigned char blob[MINHASH_BLOB_MAX];
	int shingle = (int)(size % MINHASH_MAX_SHINGLE) + 1;
	char *up;
	size_t i;

	FUZZ_CHECK(
	    minhash_of_text((const char *)data, size, shingle, K, sig) == 0,
	    "minhash_of_text failed");
	up = fuzz_strndup(data, size);
	for (i = 0; i < size; i++)
		up[i] = (char)toupper((unsigned char)up[i]);
	FUZZ_CHECK(minhash_of_text(up, size, shingle, K, other) == 0,
	    "minhash_of_text failed");
	free(up);
	FUZZ_CHECK(memcmp(sig, other, sizeof(sig)) == 0,
	    "ASCII case changed the signature (shingle %d)", shingle);
	FUZZ_CHECK(minhash_of_text((const char *)data, size, shingle,
	               MINHASH_MIN_PERMS, other) == 0,
	    "minhash_of_text failed");
	FUZZ_CHECK(memcmp(sig, other, MINHASH_MIN_PERMS * sizeof(*sig)) == 0,
	    "a shorter signature is not a prefix");
	FUZZ_CHECK(minhash_agree(sig, sig, K) == K, "disagrees with itself");
	FUZZ_CHECK(minhash_encode(sig, K, blob) == 4 * K, "blob length");
	FUZZ_CHECK(minhash_decode(blob, 4 * K, K, back) == 0 &&
	        memcmp(sig, back, sizeof(sig)) == 0,
	    "blob round trip");
	FUZZ_CHECK(minhash_decode(blob, 4 * K - 1, K, back) == -1,
	    "a short blob decoded");
}

static int
ranks_before(const struct minhash_match *a, const struct minhash_match *b)
{
	return a->agree > b->agree || (a->agree == b->agree && a->id < b->id);
}

static void
check_sets(const uint8_t *data, size_t size)
{
	static uint32_t sig[MAX_LINES][K];
	struct minhash_match got[MAX_LINES], want[MAX_LINES];
	struct minhash_index *ix;
	char *txt, *lines[MAX_LINES], *p;
	size_t n = 0, i, j, l, bands, ngot, nwant;
	int threshold, found;

	/* Bands from the divisors of 128; thresholds -1..102. */
	bands = size > 0 ? (size_t)1 << (data[0] % 8) : 32;
	threshold = size > 1 ? (int)data[1] % 104 - 1 : 50;
	txt = fuzz_strndup(data, size);
	for (p = txt; n < MAX_LINES;) {
		lines[n++] = p;
		p = strchr(p, '\n');
		if (p == NULL)
			break;
		*p++ = '\0';
	}
	ix = minhash_index_new(K, bands);
	FUZZ_CHECK(ix != NULL, "index of %zu bands", bands);
	for (i = 0; i < n; i++) {
		FUZZ_CHECK(minhash_of_text(
		               lines[i], strlen(lines[i]), 1, K, sig[i]) == 0,
		    "minhash_of_text failed");
		FUZZ_CHECK(minhash_index_add(ix, sig[i], (int64_t)i) == 0,
		    "add failed");
	}
	for (i = 0; i < n; i++) {
		ngot =
		    minhash_index_query(ix, sig[i], threshold, got, MAX_LINES);
		nwant =
		    minhash_index_scan(ix, sig[i], threshold, want, MAX_LINES);
		FUZZ_CHECK(
		    ngot <= nwant, "index found %zu, scan %zu", ngot, nwant);
		FUZZ_CHECK(threshold > 100 || nwant > 0,
		    "line %zu does not find itself", i);
		for (j = 0; j < ngot; j++) {
			FUZZ_CHECK(
			    got[j].id >= 0 && (size_t)got[j].id < n, "bad id");
			FUZZ_CHECK((size_t)got[j].agree ==
			        minhash_agree(sig[got[j].id], sig[i], K),
			    "stored agreement differs");
			FUZZ_CHECK(j == 0 || ranks_before(&got[j - 1], &got[j]),
			    "not best first");
			for (l = 0, found = 0; l < nwant && !found; l++)
				found = want[l].id == got[j].id;
			FUZZ_CHECK(found, "id %lld not in the scan",
			    (long long)got[j].id);
		}
		for (l = 0; l < nwant; l++) {
			if (K - (size_t)want[l].agree >= bands)
				continue;
			for (j = 0, found = 0; j < ngot && !found; j++)
				found = got[j].id == want[l].id;
			FUZZ_CHECK(found,
			    "id %lld agrees in %d of %d positions "
			    "with %zu bands but was missed",
			    (long long)want[l].id, want[l].agree, K, bands);
		}
	}
	minhash_index_free(ix);
	free(txt);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	check_text(data, size);
	check_sets(data, size);
	return 0;
}
