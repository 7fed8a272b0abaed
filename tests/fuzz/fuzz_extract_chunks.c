/*
 * Fuzz the body path of the crawler: the input arrives in chunks, as
 * libcurl hands them to the write callback, cut at pseudo-random points
 * derived from the first bytes; each chunk is appended to a struct buf
 * capped the way fetch.c caps a body (buf_init with max_body, append
 * failing as a whole past it). Then the buffer is extracted.
 *
 * Checks: appends fail only with BUF_FULL and only when the total would
 * pass the cap, and leave the buffer unchanged; the buffer holds exactly
 * the bytes appended, NUL-terminated; extracting it gives the same result,
 * field by field, as extracting the same bytes in one piece (the whole
 * input, or the prefix that fit when the cap was hit); the result passes
 * the extract target's checks.
 */
#include "util/buf.h"
#include "fuzz_extract_check.h"

#include <curl/curl.h>

/* The crawler's default max_body (config/config_table.c: max_body_bytes). */
#define CRAWL_MAX_BODY (10 * 1024 * 1024)

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
	struct extract_result whole, chunked;
	struct buf b;
	const char *why = NULL;
	uint64_t seed = 0, st;
	size_t i, off = 0, cap, fitted;
	int rc, full = 0, r1, r2;

	for (i = 0; i < size && i < 8; i++)
		seed = seed << 8 | data[i];
	st = seed ^ size;
	/* Mostly the crawler's cap; sometimes one the input passes. */
	cap = (seed & 3) == 0 && size > 0 ? (size_t)(fuzz_rand(&st) % size) :
	    CRAWL_MAX_BODY;
	buf_init(&b, cap);
	while (off < size) {
		size_t n, before = b.len;

		/* libcurl delivers 1 byte up to CURL_MAX_WRITE_SIZE (16 KiB);
		 * small chunks are the interesting ones for boundaries. */
		switch (fuzz_rand(&st) % 4) {
		case 0: n = 1; break;
		case 1: n = 1 + fuzz_rand(&st) % 8; break;
		case 2: n = 1 + fuzz_rand(&st) % 256; break;
		default: n = 1 + fuzz_rand(&st) % 16384; break;
		}
		if (n > size - off)
			n = size - off;
		rc = buf_append(&b, data + off, n);
		if (rc != BUF_OK) {
			FUZZ_CHECK(rc == BUF_FULL, "append failed with %d", rc);
			FUZZ_CHECK(before + n > cap, "BUF_FULL under the cap: "
			    "%zu + %zu <= %zu", before, n, cap);
			FUZZ_CHECK(b.len == before, "failed append changed len");
			full = 1;
			break;
		}
		FUZZ_CHECK(b.len == before + n && b.len <= cap,
		    "len %zu after appending %zu to %zu (cap %zu)", b.len, n,
		    before, cap);
		off += n;
	}
	fitted = b.len;
	FUZZ_CHECK(full || fitted == size, "lost bytes: %zu of %zu", fitted,
	    size);
	if (b.data != NULL) {
		FUZZ_CHECK(b.data[b.len] == '\0', "buffer not NUL-terminated");
		FUZZ_CHECK(memcmp(b.data, data, fitted) == 0,
		    "buffer differs from the input");
	} else {
		FUZZ_CHECK(fitted == 0, "NULL data with %zu bytes", fitted);
	}

	memset(&whole, 0, sizeof(whole));
	memset(&chunked, 0, sizeof(chunked));
	r1 = extract_html((const char *)data, fitted, FUZZ_PAGE_URL, NULL,
	    &whole, &why);
	r2 = extract_html(b.data, b.len, FUZZ_PAGE_URL, NULL, &chunked, &why);
	FUZZ_CHECK(r1 == r2, "whole %d, chunked %d", r1, r2);
	if (r1 == 0) {
		fuzz_check_result(&chunked, EXTRACT_DEFAULT_MAX_TEXT,
		    EXTRACT_DEFAULT_MAX_LINKS);
		fuzz_check_same(&whole, &chunked);
	}
	extract_result_free(&whole);
	extract_result_free(&chunked);
	buf_free(&b);
	return 0;
}
