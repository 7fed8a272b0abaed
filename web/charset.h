/*
 * charset: the bytes of a page, in whatever charset they came in, to clean
 * UTF-8 for the HTML parser (extract.c).
 *
 * Charset order: a byte-order mark, then the hint (from Content-Type), then
 * a <meta charset> or <meta http-equiv=Content-Type> in the first 8 KiB,
 * then UTF-8 if the bytes are valid UTF-8, else windows-1252. Labels are
 * read as browsers do (iso-8859-1 and us-ascii mean windows-1252, gb2312
 * means gb18030); an unknown label is ignored. Bytes invalid in the
 * charset become U+FFFD, controls other than HTML white space become
 * spaces and non-characters U+FFFD.
 */
#ifndef NC_CHARSET_H
#define NC_CHARSET_H

#include <stddef.h>
#include <stdint.h>

/*
 * Decode the n bytes at s (hint: a charset label or NULL) into a malloc'd
 * NUL-terminated UTF-8 buffer of *outlen bytes, and write the name of the
 * charset used into cs (cut to cssz - 1 bytes). Returns the buffer, or
 * NULL when out of memory.
 */
unsigned char *charset_decode(const unsigned char *s, size_t n,
    const char *hint, char *cs, size_t cssz, size_t *outlen);

/*
 * What a C1 control code point (0x80..0x9f) means read as windows-1252, as
 * browsers read a character reference like &#150;; other code points are
 * returned unchanged.
 */
uint32_t charset_c1_cp1252(uint32_t cp);

#endif
