#include "util/threadcpu.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * One stat file: the name between the first '(' and the last ')' (a name
 * may hold both), then utime and stime, the 14th and 15th fields. 0, or -1
 * when the file cannot be read or parsed.
 */
static int
read_stat(const char *path, char *name, size_t namesz, double tick,
    struct threadcpu_time *t)
{
	char buf[1024], *open, *close, *p;
	unsigned long long ut, st;
	size_t n, len;
	FILE *f;
	int i;

	if ((f = fopen(path, "r")) == NULL)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	if ((open = strchr(buf, '(')) == NULL ||
	    (close = strrchr(buf, ')')) == NULL || close < open)
		return -1;
	len = (size_t)(close - open - 1);
	if (len >= namesz)
		len = namesz - 1;
	memcpy(name, open + 1, len);
	name[len] = '\0';
	/* After ") " comes field 3 (state); utime is 11 fields on. */
	p = close + 1;
	for (i = 0; i < 11 && p != NULL; i++)
		if ((p = strchr(p + 1, ' ')) == NULL)
			return -1;
	if (sscanf(p, " %llu %llu", &ut, &st) != 2)
		return -1;
	t->user = (double)ut / tick;
	t->sys = (double)st / tick;
	return 0;
}

double
threadcpu_total(const struct threadcpu_time *t)
{
	return t->user + t->sys;
}

int
threadcpu_read(const char *name, struct threadcpu *t)
{
	char path[64], comm[64];
	struct threadcpu_time all, one;
	struct dirent *e;
	long hz = sysconf(_SC_CLK_TCK);
	long self = (long)gettid();
	DIR *d;

	memset(t, 0, sizeof(*t));
	if (hz <= 0 || read_stat("/proc/self/stat", comm, sizeof(comm),
	    (double)hz, &all) != 0 || (d = opendir("/proc/self/task")) == NULL)
		return -1;
	while ((e = readdir(d)) != NULL) {
		char *end;
		long tid = strtol(e->d_name, &end, 10);

		if (*e->d_name == '\0' || *end != '\0')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%ld/stat", tid);
		/* A thread may exit between the listing and the read. */
		if (read_stat(path, comm, sizeof(comm), (double)hz, &one) != 0)
			continue;
		if (tid == self)
			t->self = one;
		else if (strcmp(comm, name) == 0) {
			t->named.user += one.user;
			t->named.sys += one.sys;
			t->nnamed++;
		}
	}
	closedir(d);
	/* Ticks are read at different moments: never below zero. */
	t->other.user = all.user - t->self.user - t->named.user;
	t->other.sys = all.sys - t->self.sys - t->named.sys;
	if (t->other.user < 0)
		t->other.user = 0;
	if (t->other.sys < 0)
		t->other.sys = 0;
	return 0;
}
