/*
 * md5: hex MD5 of extracted text through the OpenSSL 3 EVP interface (the
 * low-level MD5_* calls are deprecated there).
 */
#include "md5.h"

#include <openssl/evp.h>

int
md5_of_text(const char *text, size_t len, char hex[MD5_HEX_LEN + 1])
{
	static const char digits[] = "0123456789abcdef";
	unsigned char raw[EVP_MAX_MD_SIZE];
	unsigned int rawlen = 0;
	unsigned int i;

	hex[0] = '\0';
	/* EVP_Digest wants a non-NULL pointer even for empty input. */
	if (text == NULL)
		text = "";
	if (EVP_Digest(text, len, raw, &rawlen, EVP_md5(), NULL) != 1 ||
	    rawlen * 2 != MD5_HEX_LEN)
		return -1;
	for (i = 0; i < rawlen; i++) {
		hex[2 * i] = digits[raw[i] >> 4];
		hex[2 * i + 1] = digits[raw[i] & 0x0f];
	}
	hex[MD5_HEX_LEN] = '\0';
	return 0;
}
