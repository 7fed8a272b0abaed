/*
 * Fuzz TDW: tdw_vector, tdw_tokens, tdw_pack/tdw_unpack and the index.
 *
 * The input, cut at its first eight newlines, gives the fields (URL,
 * title, headings, link text to the same and another site, keywords,
 * description, then the rest as main text), with options from its length.
 * Checks: the vector is well formed (ids increasing, weights > 0 summing
 * to TDW_SCALE, or empty; at most max_tokens) and tdw_unpack takes back
 * what tdw_pack made; its overlap with itself is TDW_SCALE; ASCII case in
 * the main text changes nothing; tdw_tokens writes a terminated string
 * within its buffer. The input as raw bytes: if tdw_unpack accepts it,
 * packing gives the same bytes back. Then every line of the input is a
 * page's main text, its vector added to an index at a threshold taken from
 * the first byte and queried: the index must return exactly what a full
 * scan of tdw_overlap finds, best first, with the same overlaps.
 */
#include "fuzz_common.h"
#include "dedup/tdw.h"

#include <ctype.h>

#define MAX_LINES 48

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
check_vector(const struct tdw_vec *v, int max_tokens)
{
	static unsigned char buf[TDW_PACKED_MAX];
	static struct tdw_vec back;
	uint32_t sum = 0;
	size_t i, n;

	FUZZ_CHECK(v->n <= max_tokens, "%u tokens over %d", v->n, max_tokens);
	for (i = 0; i < v->n; i++) {
		FUZZ_CHECK(v->t[i].w > 0, "weight 0 at %zu", i);
		FUZZ_CHECK(i == 0 || v->t[i].id > v->t[i - 1].id,
		    "ids not increasing at %zu", i);
		sum += v->t[i].w;
	}
	FUZZ_CHECK(v->n == 0 || sum == TDW_SCALE, "weights sum to %u", sum);
	FUZZ_CHECK(tdw_overlap(v, v) == sum, "own overlap");
	n = tdw_pack(v, buf);
	FUZZ_CHECK(n == 1 + 6 * (size_t)v->n, "packed %zu bytes", n);
	FUZZ_CHECK(tdw_unpack(buf, n, &back) == 0, "unpack of pack failed");
	FUZZ_CHECK(back.n == v->n && memcmp(back.t, v->t, v->n *
	    sizeof(v->t[0])) == 0, "unpack differs");
}

static void
check_fields(const uint8_t *data, size_t size)
{
	static struct tdw_vec v, vu;
	const char *f[8] = { NULL };
	struct tdw_fields tf;
	struct tdw_opts o;
	char *txt, *p, *up, out[64];
	size_t i, n = 0;

	txt = fuzz_strndup(data, size);
	for (p = txt; n < 8 && p != NULL; n++) {
		f[n] = p;
		if ((p = strchr(p, '\n')) != NULL)
			*p++ = '\0';
	}
	memset(&tf, 0, sizeof(tf));
	tf.url = f[0];
	tf.title = f[1];
	tf.headings = f[2];
	tf.anchors_same = f[3];
	tf.anchors_other = f[4];
	tf.keywords = f[5];
	tf.description = f[6];
	tf.text = f[7];
	tf.text_len = f[7] != NULL ? strlen(f[7]) : 0;
	o.stopwords = (int)(size & 1);
	o.stem = (int)(size >> 1 & 1);
	o.max_tokens = (int)(size % 600); /* out of range: the default */
	FUZZ_CHECK(tdw_vector(&tf, &o, &v) == 0, "tdw_vector failed");
	check_vector(&v, o.max_tokens >= 1 && o.max_tokens <= TDW_TOKENS_MAX ?
	    o.max_tokens : TDW_TOKENS_DEFAULT);
	if (f[7] != NULL) {
		up = fuzz_strndup((const uint8_t *)f[7], tf.text_len);
		for (i = 0; i < tf.text_len; i++)
			up[i] = (char)toupper((unsigned char)up[i]);
		tf.text = up;
		FUZZ_CHECK(tdw_vector(&tf, &o, &vu) == 0, "tdw_vector failed");
		FUZZ_CHECK(vu.n == v.n && memcmp(vu.t, v.t, v.n *
		    sizeof(v.t[0])) == 0, "ASCII case changed the vector");
		free(up);
	}
	memset(out, 'x', sizeof(out));
	tdw_tokens((const char *)data, size, &o, out, sizeof(out) - 8);
	FUZZ_CHECK(memchr(out, '\0', sizeof(out) - 8) != NULL,
	    "tokens not terminated");
	for (i = sizeof(out) - 8; i < sizeof(out); i++)
		FUZZ_CHECK(out[i] == 'x', "tokens written past the buffer");
	free(txt);
}

static void
check_packed(const uint8_t *data, size_t size)
{
	static unsigned char buf[TDW_PACKED_MAX];
	static struct tdw_vec v;

	if (tdw_unpack(data, size, &v) != 0) {
		FUZZ_CHECK(v.n == 0, "refused but not emptied");
		return;
	}
	check_vector(&v, TDW_TOKENS_MAX);
	FUZZ_CHECK(tdw_pack(&v, buf) == size && memcmp(buf, data, size) == 0,
	    "pack does not give the bytes back");
}

static void
check_index(const uint8_t *data, size_t size)
{
	static struct tdw_vec v[MAX_LINES];
	struct tdw_match m[4];
	struct tdw_fields tf;
	struct tdw_index *ix;
	char *txt, *lines[MAX_LINES], *p;
	size_t n = 0, i, j, want, got, k;
	uint32_t best, o;
	int percent;

	txt = fuzz_strndup(data, size);
	for (p = txt; n < MAX_LINES && p != NULL; n++) {
		lines[n] = p;
		if ((p = strchr(p, '\n')) != NULL)
			*p++ = '\0';
	}
	percent = size > 0 ? 1 + data[0] % 100 : 50;
	ix = tdw_index_new(percent);
	if (ix == NULL)
		goto done;
	for (i = 0; i < n; i++) {
		memset(&tf, 0, sizeof(tf));
		tf.text = lines[i];
		tf.text_len = strlen(lines[i]);
		FUZZ_CHECK(tdw_vector(&tf, NULL, &v[i]) == 0, "tdw_vector");
		/* Query before adding, as the crawl does. */
		want = 0;
		best = 0;
		for (j = 0; j < i; j++) {
			o = tdw_overlap(&v[j], &v[i]);
			if (v[i].n > 0 && v[j].n > 0 &&
			    o >= tdw_threshold(percent)) {
				want++;
				if (o > best)
					best = o;
			}
		}
		got = tdw_index_query(ix, &v[i], m, 4);
		FUZZ_CHECK(got == want, "line %zu at %d %%: index found %zu, "
		    "full scan %zu", i, percent, got, want);
		for (k = 0; k < got && k < 4; k++) {
			FUZZ_CHECK(m[k].id >= 0 && (size_t)m[k].id < i,
			    "bad id");
			FUZZ_CHECK(m[k].overlap == tdw_overlap(&v[m[k].id],
			    &v[i]), "overlap %u differs", m[k].overlap);
			FUZZ_CHECK(k == 0 || m[k].overlap < m[k - 1].overlap ||
			    (m[k].overlap == m[k - 1].overlap &&
			    m[k].id > m[k - 1].id), "not best first");
		}
		FUZZ_CHECK(got == 0 || m[0].overlap == best, "best %u, first %u",
		    best, m[0].overlap);
		FUZZ_CHECK(tdw_index_add(ix, &v[i], (int64_t)i) == 0, "add");
	}
	tdw_index_free(ix);
done:
	free(txt);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	check_fields(data, size);
	check_packed(data, size);
	check_index(data, size);
	return 0;
}
