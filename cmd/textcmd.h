/*
 * textcmd: `nearcrawl text [--main|--body] FILE|URL` -- the text the
 * near-duplicate methods (main) or MD5 (body) read from a page, one block
 * (paragraph, heading, list item, table cell...) per line.
 *
 * The text is chosen by the crawl's own digest step (digest/digest.c):
 * --main prints exactly what the near methods read, the body text when the
 * main text is under the evidence floor (and says so on stderr).
 */
#ifndef NC_TEXTCMD_H
#define NC_TEXTCMD_H

#include <stdio.h>

#include "config/config.h"
#include "web/extract.h"

enum textcmd_which {
	TEXTCMD_MAIN, /* main_text: the content without the site template */
	TEXTCMD_BODY, /* text: the purified body text MD5 reads */
};

/*
 * Print text (len bytes, blocks separated by single '\n') to out, one block
 * a line, every line ended by '\n'; nothing for "". Returns 0, or -1 when
 * out reports a write error.
 */
int textcmd_print(FILE *out, const char *text, size_t len);

/*
 * Read or fetch name (docload_read, with cfg's caps, User-Agent and
 * --resolve entries), digest it as the crawl does and print the text
 * which names to out: the near methods' text, or the body text. charset, when not NULL, stands in for the
 * Content-Type's charset (a file has none; a URL's own wins over it).
 * Returns 0; 1 when the document cannot be read, fetched or extracted, or
 * out cannot be written (message in err).
 */
int textcmd_run(const struct config *cfg, const char *name,
    enum textcmd_which which, const char *charset, FILE *out, char *err,
    size_t errsz);

#endif
