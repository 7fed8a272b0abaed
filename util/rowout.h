/*
 * rowout: CSV fields (RFC 4180) and JSON strings and members written from
 * untrusted text, always valid UTF-8 (a byte that is not part of valid
 * UTF-8 becomes U+FFFD); for the commands that write rows for other
 * programs (export, search).
 */
#ifndef NC_ROWOUT_H
#define NC_ROWOUT_H

#include <stdio.h>

/* str as valid UTF-8, nothing escaped; with quote set, every '"' is
 * doubled, as inside a quoted CSV field. */
void rowout_utf8(FILE *out, const char *str, int quote);

/* One CSV field (NULL: empty), a ',' first unless first is set, quoted
 * when RFC 4180 needs it (a comma, quote, CR or LF inside). */
void rowout_csv_field(FILE *out, const char *s, int first);

/* A JSON string (NULL: null): quotes, backslashes and control characters
 * escaped. */
void rowout_json_str(FILE *out, const char *str);

/* A JSON member's start: '{' when first, else ',', then "name": -- the
 * caller writes the value (name is the program's own, not escaped). */
void rowout_json_key(FILE *out, const char *name, int first);

#endif
