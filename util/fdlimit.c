#include "util/fdlimit.h"

#include <sys/resource.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <unistd.h>

long
fdlimit_raise(void)
{
	struct rlimit rl;
	rlim_t want;

	if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
		return -1;
	want = rl.rlim_max;
#ifdef OPEN_MAX
	/* macOS refuses an unlimited soft limit and anything past this. */
	if (want == RLIM_INFINITY || want > OPEN_MAX)
		want = OPEN_MAX;
#endif
	if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < want) {
		rl.rlim_cur = want;
		/* Refused: the limit stays what it was, read again below. */
		(void)setrlimit(RLIMIT_NOFILE, &rl);
	}
	if (getrlimit(RLIMIT_NOFILE, &rl) != 0 ||
	    rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > LONG_MAX)
		return -1;
	return (long)rl.rlim_cur;
}

long
fdlimit_open_count(void)
{
	static const char *const dirs[] = { "/proc/self/fd", "/dev/fd" };
	struct dirent *e;
	size_t i;
	long n;
	DIR *d;

	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		if ((d = opendir(dirs[i])) == NULL)
			continue;
		n = 0;
		while ((e = readdir(d)) != NULL)
			if (e->d_name[0] != '.')
				n++;
		closedir(d);
		/* The directory's own descriptor was listed too. */
		return n > 0 ? n - 1 : 0;
	}
	return -1;
}

int
fdlimit_exhausted(void)
{
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);

	if (fd == -1)
		return errno == EMFILE || errno == ENFILE;
	close(fd);
	return 0;
}
