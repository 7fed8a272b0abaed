/*
 * Fuzz config_load_ini: the input is written to a temporary file (created
 * once, rewritten per input) and loaded on top of the defaults.
 *
 * Checks: 0 or -1; on -1 a non-empty message, NUL-terminated inside err
 * even when err is small (a canary after a short buffer must survive);
 * on 0 the settings written by config_dump load back (into fresh defaults)
 * to settings that dump to the same text, unless a value holds " ;"
 * (documented as cut there) -- a round trip of whatever the loader
 * accepted. config_validate and config_free must cope either way.
 */
#include "config/config.h"
#include "fuzz_common.h"

#include <unistd.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char in_path[] = "/tmp/nearcrawl-fuzz-ini-XXXXXX";
static char dump_path[] = "/tmp/nearcrawl-fuzz-dump-XXXXXX";

static void
cleanup(void)
{
	unlink(in_path);
	unlink(dump_path);
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	int fd;

	(void)argc;
	(void)argv;
	if ((fd = mkstemp(in_path)) < 0)
		abort();
	close(fd);
	if ((fd = mkstemp(dump_path)) < 0)
		abort();
	close(fd);
	atexit(cleanup);
	return 0;
}

static void
write_file(const char *path, const void *p, size_t n)
{
	FILE *f = fopen(path, "wb");

	if (f == NULL || (n > 0 && fwrite(p, 1, n, f) != n) || fclose(f) != 0)
		abort();
}

/* config_dump of c into a malloc'd string. */
static char *
dump(const struct config *c, size_t *len)
{
	char *s = NULL;
	FILE *f = open_memstream(&s, len);

	if (f == NULL)
		abort();
	FUZZ_CHECK(config_dump(c, f) == 0, "config_dump failed");
	if (fclose(f) != 0)
		abort();
	return s;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct config c, c2;
	char err[512], small[24 + 8];
	size_t len1, len2, errsz;
	char *d1, *d2;
	int rc, rc2;

	write_file(in_path, data, size);
	if (config_init(&c) != 0)
		return 0;
	err[0] = 'X';
	rc = config_load_ini(&c, in_path, err, sizeof(err));
	FUZZ_CHECK(rc == 0 || rc == -1, "rc %d", rc);
	if (rc != 0) {
		FUZZ_CHECK(memchr(err, '\0', sizeof(err)) != NULL &&
		    err[0] != '\0', "bad error message");
		FUZZ_CHECK(strchr(err, '\n') == NULL, "newline in message: %s",
		    err);
		/* The same error into a short buffer: cut, terminated, and
		 * nothing written past errsz. */
		config_free(&c);
		if (config_init(&c) != 0)
			return 0;
		errsz = 1 + size % 24;
		memset(small, 'Z', sizeof(small));
		rc2 = config_load_ini(&c, in_path, small, errsz);
		FUZZ_CHECK(rc2 == -1, "second load gave %d", rc2);
		FUZZ_CHECK(memchr(small, '\0', errsz) != NULL,
		    "short message not terminated");
		FUZZ_CHECK(small[errsz] == 'Z', "wrote past errsz %zu", errsz);
		config_free(&c);
		return 0;
	}
	(void)config_validate(&c, err, sizeof(err));

	d1 = dump(&c, &len1);
	if (strstr(d1, " ;") == NULL) {
		write_file(dump_path, d1, len1);
		if (config_init(&c2) != 0)
			abort();
		rc2 = config_load_ini(&c2, dump_path, err, sizeof(err));
		FUZZ_CHECK(rc2 == 0, "dump of accepted settings refused: %s\n%s",
		    err, d1);
		d2 = dump(&c2, &len2);
		FUZZ_CHECK(len1 == len2 && memcmp(d1, d2, len1) == 0,
		    "round trip changed the settings:\n--- first\n%s\n--- "
		    "again\n%s", d1, d2);
		free(d2);
		config_free(&c2);
	}
	free(d1);
	config_free(&c);
	return 0;
}
