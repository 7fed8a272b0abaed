#include "util/err.h"

#include <stdio.h>

int
err_vset(char *err, size_t errsz, int code, const char *fmt, va_list ap)
{
	if (err != NULL && errsz > 0)
		vsnprintf(err, errsz, fmt, ap);
	return code;
}

int
err_set(char *err, size_t errsz, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	err_vset(err, errsz, code, fmt, ap);
	va_end(ap);
	return code;
}
