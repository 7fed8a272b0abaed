/*
 * Checks on an extract_result that hold for any input, shared by the
 * extract and extract_chunks targets.
 */
#ifndef NC_FUZZ_EXTRACT_CHECK_H
#define NC_FUZZ_EXTRACT_CHECK_H

#include "web/extract.h"
#include "fuzz_common.h"
#include "web/url.h"

#define FUZZ_PAGE_URL "http://www.lab.test/dir/page.html?q=1"

/*
 * White space is collapsed to single separators, none at either end: an
 * ASCII space, or in text and main_text (lines) a '\n' between blocks.
 */
static inline void
fuzz_check_collapsed(const char *what, const char *s, size_t n, int lines)
{
	size_t i;

	if (n == 0)
		return;
	FUZZ_CHECK(s[0] != ' ' && s[n - 1] != ' ' && s[0] != '\n' &&
	    s[n - 1] != '\n', "%s: separator at an end", what);
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		int sep = c == ' ' || (lines && c == '\n');

		FUZZ_CHECK((c >= 0x20 && c != 0x7f) || sep,
		    "%s: control byte 0x%02x at %zu", what, c, i);
		FUZZ_CHECK(!(sep && i + 1 < n && (s[i + 1] == ' ' ||
		    s[i + 1] == '\n')), "%s: two separators at %zu", what, i);
		/* U+00A0 (C2 A0) is white space too and must be collapsed. */
		FUZZ_CHECK(!(c == 0xc2 && i + 1 < n &&
		    (unsigned char)s[i + 1] == 0xa0),
		    "%s: no-break space at %zu", what, i);
	}
}

static inline void
fuzz_check_field(const char *what, const char *s, size_t cap)
{
	size_t n;

	FUZZ_CHECK(s != NULL, "%s is NULL", what);
	n = strlen(s);
	FUZZ_CHECK(n <= cap, "%s: %zu bytes over cap %zu", what, n, cap);
	FUZZ_CHECK(fuzz_utf8_valid(s, n), "%s: invalid UTF-8", what);
}

static inline void
fuzz_check_result(const struct extract_result *r, size_t max_text,
    size_t max_links)
{
	size_t i, j;

	FUZZ_CHECK(r->text != NULL && r->main_text != NULL, "NULL text");
	FUZZ_CHECK(strlen(r->text) == r->text_len, "text_len %zu != strlen %zu",
	    r->text_len, strlen(r->text));
	FUZZ_CHECK(strlen(r->main_text) == r->main_len, "main_len mismatch");
	FUZZ_CHECK(fuzz_utf8_valid(r->text, r->text_len), "text: invalid UTF-8");
	FUZZ_CHECK(fuzz_utf8_valid(r->main_text, r->main_len),
	    "main_text: invalid UTF-8");
	FUZZ_CHECK(r->text_len <= max_text, "text %zu over cap %zu",
	    r->text_len, max_text);
	/* Known issue extract-main-len: when both are cut at max_text,
	 * text may lose a trailing space that main_text keeps. */
	FUZZ_CHECK(r->main_len <= r->text_len || (r->truncated &&
	    r->main_len <= max_text && fuzz_skip("extract-main-len")),
	    "main_text (%zu) longer than text (%zu), truncated %d",
	    r->main_len, r->text_len, r->truncated);
	FUZZ_CHECK((r->main_len == 0) == (r->text_len == 0),
	    "main_text empty only when text is (%zu vs %zu)", r->main_len,
	    r->text_len);
	fuzz_check_collapsed("text", r->text, r->text_len, 1);
	fuzz_check_collapsed("main_text", r->main_text, r->main_len, 1);
	fuzz_check_field("title", r->title, EXTRACT_FIELD_MAX);
	fuzz_check_field("description", r->description, EXTRACT_FIELD_MAX);
	fuzz_check_field("keywords", r->keywords, EXTRACT_FIELD_MAX);
	fuzz_check_field("headings", r->headings, EXTRACT_HEADINGS_MAX);
	fuzz_check_field("anchors_same", r->anchors_same, EXTRACT_ANCHORS_MAX);
	fuzz_check_field("anchors_other", r->anchors_other,
	    EXTRACT_ANCHORS_MAX);
	fuzz_check_collapsed("anchors_same", r->anchors_same,
	    strlen(r->anchors_same), 0);
	fuzz_check_collapsed("anchors_other", r->anchors_other,
	    strlen(r->anchors_other), 0);
	FUZZ_CHECK(memchr(r->charset, '\0', sizeof(r->charset)) != NULL,
	    "charset not terminated");
	FUZZ_CHECK(r->nlinks <= max_links, "%zu links over cap %zu", r->nlinks,
	    max_links);
	FUZZ_CHECK(!r->nofollow || r->nlinks == 0, "nofollow but %zu links",
	    r->nlinks);
	for (i = 0; i < r->nlinks; i++) {
		const char *l = r->links[i];

		FUZZ_CHECK(l != NULL, "link %zu NULL", i);
		FUZZ_CHECK(strncmp(l, "http://", 7) == 0 ||
		    strncmp(l, "https://", 8) == 0, "link not http(s): %s", l);
		FUZZ_CHECK(strlen(l) <= URL_MAX_LEN, "link too long");
		FUZZ_CHECK(strchr(l, '#') == NULL, "link keeps a fragment: %s",
		    l);
		for (j = 0; l[j] != '\0'; j++)
			FUZZ_CHECK(((unsigned char)l[j] > 0x20 &&
			    (unsigned char)l[j] < 0x7f) ||
			    (j < fuzz_authority_len(l) &&
			    fuzz_skip("url-host-bytes")),
			    "link %zu has raw byte 0x%02x", i,
			    (unsigned char)l[j]);
		/* "each once": a few neighbours suffice to catch a broken
		 * de-duplication without going quadratic on big pages. */
		for (j = i + 1; j < r->nlinks && j < i + 16; j++)
			FUZZ_CHECK(strcmp(l, r->links[j]) != 0,
			    "link %zu repeated at %zu: %s", i, j, l);
	}
}

/* Abort unless a and b are the same result, field by field. */
static inline void
fuzz_check_same(const struct extract_result *a, const struct extract_result *b)
{
	size_t i;

	FUZZ_CHECK(a->text_len == b->text_len &&
	    memcmp(a->text, b->text, a->text_len) == 0, "text differs");
	FUZZ_CHECK(strcmp(a->main_text, b->main_text) == 0,
	    "main_text differs");
	FUZZ_CHECK(strcmp(a->title, b->title) == 0, "title differs");
	FUZZ_CHECK(strcmp(a->headings, b->headings) == 0, "headings differ");
	FUZZ_CHECK(strcmp(a->description, b->description) == 0,
	    "description differs");
	FUZZ_CHECK(strcmp(a->keywords, b->keywords) == 0, "keywords differ");
	FUZZ_CHECK(strcmp(a->anchors_same, b->anchors_same) == 0 &&
	    strcmp(a->anchors_other, b->anchors_other) == 0,
	    "link texts differ");
	FUZZ_CHECK(strcmp(a->charset, b->charset) == 0, "charset differs: "
	    "%s vs %s", a->charset, b->charset);
	FUZZ_CHECK(a->nofollow == b->nofollow && a->noindex == b->noindex &&
	    a->truncated == b->truncated, "flags differ");
	FUZZ_CHECK(a->nlinks == b->nlinks, "nlinks %zu vs %zu", a->nlinks,
	    b->nlinks);
	for (i = 0; i < a->nlinks; i++)
		FUZZ_CHECK(strcmp(a->links[i], b->links[i]) == 0,
		    "link %zu differs", i);
}

#endif
