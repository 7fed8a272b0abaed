/*
 * md5: hex MD5 of extracted text through the OpenSSL 3 EVP interface (the
 * low-level MD5_* calls are deprecated there).
 */
#include "dedup/md5.h"

#include <openssl/evp.h>

#include <string.h>

#include "util/chars.h"

int
md5_of_text(const char *text, size_t len, char hex[MD5_HEX_LEN + 1])
{
	static const char digits[] = "0123456789abcdef";
	unsigned char raw[EVP_MAX_MD_SIZE];
	char chunk[4096];
	unsigned int rawlen = 0;
	unsigned int i;
	size_t off, n;
	EVP_MD_CTX *ctx;
	int ok;

	hex[0] = '\0';
	if (text == NULL)
		len = 0;
	if ((ctx = EVP_MD_CTX_new()) == NULL)
		return -1;
	ok = EVP_DigestInit_ex(ctx, EVP_md5(), NULL) == 1;
	/* Line breaks are digested as the spaces they were before blocks
	 * became lines, so fingerprints stay those of earlier crawls. */
	for (off = 0; ok && off < len; off += n) {
		n = len - off < sizeof(chunk) ? len - off : sizeof(chunk);
		chars_lines_as_spaces(chunk, text + off, n);
		ok = EVP_DigestUpdate(ctx, chunk, n) == 1;
	}
	ok = ok && EVP_DigestFinal_ex(ctx, raw, &rawlen) == 1 &&
	    rawlen * 2 == MD5_HEX_LEN;
	EVP_MD_CTX_free(ctx);
	if (!ok)
		return -1;
	for (i = 0; i < rawlen; i++) {
		hex[2 * i] = digits[raw[i] >> 4];
		hex[2 * i + 1] = digits[raw[i] & 0x0f];
	}
	hex[MD5_HEX_LEN] = '\0';
	return 0;
}
