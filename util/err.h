/*
 * err: the one formatter of error messages. Functions that can fail take
 * a caller's buffer (err, errsz) and write one line into it, without a
 * trailing newline; a NULL or empty buffer is allowed and ignored.
 */
#ifndef NC_ERR_H
#define NC_ERR_H

#include <stdarg.h>
#include <stddef.h>

/*
 * Write the formatted message into err (truncated to errsz - 1 bytes) and
 * return code, so that a failing path reads `return err_set(err, errsz,
 * -1, "...", ...);`.
 */
int err_set(char *err, size_t errsz, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* The same with a va_list, for callers that wrap it. */
int err_vset(char *err, size_t errsz, int code, const char *fmt, va_list ap)
    __attribute__((format(printf, 4, 0)));

#endif
