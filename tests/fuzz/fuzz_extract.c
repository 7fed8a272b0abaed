/*
 * Fuzz extract_html: any bytes as an HTML page from a fixed URL.
 *
 * Checks (abort on failure): every string is valid UTF-8 (own validator)
 * and within its cap; text and main_text are collapsed (no controls, no
 * double or edge spaces); main_text is no longer than text and empty only
 * with it; links are http(s), short, fragment-free, escaped and not
 * repeated; nofollow means no links. Then the same page with small caps:
 * its text must be a prefix of the full text within the cap, with
 * truncated set exactly when the full text is longer, and its links the
 * first ones of the full list.
 */
#include "fuzz_extract_check.h"

#include <curl/curl.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	curl_global_init(CURL_GLOBAL_DEFAULT);
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct extract_result full, small;
	struct extract_opts o = { NULL, 0, 0 };
	const char *why = NULL;
	size_t i;

	memset(&full, 0, sizeof(full));
	memset(&small, 0, sizeof(small));
	if (extract_html((const char *)data, size, FUZZ_PAGE_URL, NULL, &full,
	    &why) != 0) {
		FUZZ_CHECK(why != NULL, "failure without a reason");
		return 0;
	}
	fuzz_check_result(&full, EXTRACT_DEFAULT_MAX_TEXT,
	    EXTRACT_DEFAULT_MAX_LINKS);

	/* Caps that real pages reach: a size derived from the input. */
	o.max_text = 1 + size % 97;
	o.max_links = 1 + size % 5;
	if (extract_html((const char *)data, size, FUZZ_PAGE_URL, &o, &small,
	    &why) != 0)
		goto done;
	fuzz_check_result(&small, o.max_text, o.max_links);
	FUZZ_CHECK(small.text_len <= full.text_len &&
	    memcmp(small.text, full.text, small.text_len) == 0,
	    "capped text is not a prefix of the full text");
	FUZZ_CHECK(small.truncated == (full.text_len > o.max_text),
	    "truncated=%d but full text %zu, cap %zu", small.truncated,
	    full.text_len, o.max_text);
	FUZZ_CHECK(small.nlinks == (full.nlinks < o.max_links ? full.nlinks :
	    o.max_links), "capped links %zu, full %zu, cap %zu", small.nlinks,
	    full.nlinks, o.max_links);
	for (i = 0; i < small.nlinks; i++)
		FUZZ_CHECK(strcmp(small.links[i], full.links[i]) == 0,
		    "capped link %zu differs", i);
	FUZZ_CHECK(strcmp(small.title, full.title) == 0 &&
	    strcmp(small.charset, full.charset) == 0 &&
	    small.nofollow == full.nofollow && small.noindex == full.noindex,
	    "caps changed a field they do not cap");
done:
	extract_result_free(&small);
	extract_result_free(&full);
	return 0;
}
