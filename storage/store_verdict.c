/*
 * store_verdict: the words pages.verdict holds and the enum the read side
 * hands on (storage/store.h).
 */
#include "storage/store.h"

#include <string.h>

static const char *const verdict_word[STORE_VERDICT_COUNT] = {
	[STORE_VERDICT_UNIQUE] = "unique",
	[STORE_VERDICT_EXACT] = "exact",
	[STORE_VERDICT_NEAR] = "near",
	[STORE_VERDICT_REDIRECT] = "redirect",
	[STORE_VERDICT_ERROR] = "error",
	[STORE_VERDICT_SKIPPED] = "skipped",
};

const char *
store_verdict_name(enum store_verdict v)
{
	if ((unsigned)v >= STORE_VERDICT_COUNT)
		return NULL;
	return verdict_word[v];
}

enum store_verdict
store_verdict_parse(const char *s)
{
	int v;

	if (s == NULL)
		return STORE_VERDICT_UNKNOWN;
	for (v = STORE_VERDICT_UNKNOWN + 1; v < STORE_VERDICT_COUNT; v++)
		if (strcmp(s, verdict_word[v]) == 0)
			return (enum store_verdict)v;
	return STORE_VERDICT_UNKNOWN;
}
