#include "check.h"
#include "util/fdlimit.h"

#include <sys/resource.h>

#include <fcntl.h>
#include <unistd.h>

/* Opening one more descriptor counts one more. */
static void
test_open_count(void)
{
	long before = fdlimit_open_count();
	int fd = open("/dev/null", O_RDONLY);

	CHECK(before >= 0);
	CHECK(fd >= 0);
	CHECK_INT(fdlimit_open_count(), before + 1);
	close(fd);
	CHECK_INT(fdlimit_open_count(), before);
}

/* The soft limit set at the lowest free descriptor: the next open fails
 * with EMFILE, which fdlimit_exhausted sees; raised again, it is the hard
 * limit (or what the system allows) and descriptors open again. */
static void
test_exhausted_and_raised(void)
{
	struct rlimit rl, low;
	int fd = open("/dev/null", O_RDONLY);

	CHECK(fd >= 0);
	if (fd < 0 || getrlimit(RLIMIT_NOFILE, &rl) != 0)
		return;
	close(fd);
	CHECK_INT(fdlimit_exhausted(), 0);
	low = rl;
	low.rlim_cur = (rlim_t)fd;
	CHECK_INT(setrlimit(RLIMIT_NOFILE, &low), 0);
	CHECK_INT(fdlimit_exhausted(), 1);
	CHECK(fdlimit_raise() > fd || rl.rlim_max == RLIM_INFINITY);
	CHECK_INT(fdlimit_exhausted(), 0);
	setrlimit(RLIMIT_NOFILE, &rl);
}

void
suite_fdlimit(void)
{
	RUN(test_open_count);
	RUN(test_exhausted_and_raised);
}
