/*
 * md5: exact-duplicate fingerprint of extracted text (OpenSSL libcrypto EVP).
 */
#ifndef NC_MD5_H
#define NC_MD5_H

#include <stddef.h>

#define MD5_HEX_LEN 32

/*
 * Write the lower-case hex MD5 of text[0..len), each '\n' read as ' ', and
 * a NUL into hex: extracted text separates blocks by line breaks where it
 * once had spaces, and its fingerprint is that of the spaced form. Returns
 * 0, or -1 when libcrypto fails (hex is then "").
 */
int md5_of_text(const char *text, size_t len, char hex[MD5_HEX_LEN + 1]);

#endif
