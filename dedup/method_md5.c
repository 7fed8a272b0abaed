/*
 * method_md5: exact copies. The fingerprint is the MD5 of the whole
 * purified text; the index maps a digest to the first page that had it.
 */
#include "dedup/method.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dedup/dedup.h"
#include "dedup/md5map.h"
#include "util/chars.h"

/* 32 hex digits to 16 bytes; -1 for anything else. */
static int
parse(const char *hex, unsigned char raw[MD5MAP_RAW])
{
	int i, hi, lo;

	for (i = 0; i < MD5MAP_RAW; i++) {
		hi = chars_hex_value(hex[2 * i]);
		lo = hi < 0 ? -1 : chars_hex_value(hex[2 * i + 1]);
		if (lo < 0)
			return -1;
		raw[i] = (unsigned char)(hi << 4 | lo);
	}
	return hex[2 * MD5MAP_RAW] == '\0' ? 0 : -1;
}

static int
fingerprint(const struct dedup_config *cfg, const char *text, size_t len,
    const struct words_seq *ws, const struct tdw_fields *f,
    struct dedup_fp *fp)
{
	return md5_of_text(text, len, fp->md5);
}

static int
pair(const struct dedup_fp *a, const struct dedup_fp *b, double *value)
{
	*value = strcmp(a->md5, b->md5) == 0;
	return 0;
}

static void
explain(const struct dedup_config *cfg, const struct dedup_fp *a,
    const struct dedup_fp *b, char *what, size_t whatsz, char *rule,
    size_t rulesz)
{
	snprintf(what, whatsz, "%s", strcmp(a->md5, b->md5) == 0 ?
	    "equal texts" : "different texts");
	rule[0] = '\0';
}

static void *
index_new(const struct dedup_config *cfg)
{
	struct md5map *m = malloc(sizeof(*m));

	if (m != NULL)
		md5map_init(m);
	return m;
}

static void
index_free(void *ix)
{
	if (ix != NULL)
		md5map_free(ix);
	free(ix);
}

static int
find(const void *ix, const struct dedup_fp *fp, int64_t *id)
{
	unsigned char key[MD5MAP_RAW];

	return parse(fp->md5, key) == 0 && md5map_find(ix, key, id);
}

/* Room only for a digest the map will take: a well-formed new one. */
static int
reserve(void *ix, const struct dedup_fp *fp, int64_t id)
{
	unsigned char key[MD5MAP_RAW];

	if (parse(fp->md5, key) != 0 || md5map_find(ix, key, NULL))
		return 0;
	return md5map_reserve(ix, id);
}

/* An MD5 already known keeps its first page. */
static int
add(void *ix, const struct dedup_fp *fp, int64_t id)
{
	unsigned char key[MD5MAP_RAW];

	if (parse(fp->md5, key) != 0 || md5map_find(ix, key, NULL))
		return 1;
	md5map_add(ix, key, id);
	return 0;
}

static size_t
keys_max(const void *ix, const struct dedup_config *cfg)
{
	return 1;
}

/* The first 8 bytes of the digest, byte by byte rather than memcpy:
 * processes on machines of either byte order must agree. */
static size_t
keys(const void *ix, const struct dedup_fp *fp, uint64_t *raw)
{
	unsigned char md5[MD5MAP_RAW];
	int b;

	if (parse(fp->md5, md5) != 0)
		return 0;
	for (raw[0] = 0, b = 0; b < 8; b++)
		raw[0] = raw[0] << 8 | md5[b];
	return 1;
}

static size_t
bytes(const void *ix)
{
	return md5map_bytes(ix);
}

static const struct dedup_method_info info = {
	.method = DEDUP_MD5,
	.name = "md5",
	.lo = 1,
	.hi = 1,
	.sweep = "1",
};

const struct dedup_method_ops dedup_method_md5 = {
	.info = &info,
	.exact = 1,
	.add_kind = DEDUP_ADD_RESERVED,
	.fingerprint = fingerprint,
	.pair = pair,
	.explain = explain,
	.index_new = index_new,
	.index_free = index_free,
	.find = find,
	.reserve = reserve,
	.add = add,
	.keys_max = keys_max,
	.keys = keys,
	.bytes = bytes,
};
