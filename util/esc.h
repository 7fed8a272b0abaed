/*
 * esc: untrusted text made safe to show on a terminal or in a log line.
 *
 * Untrusted is whatever nearcrawl did not write itself: URLs, server
 * messages, page fields, database values, file names and file contents
 * echoed in an error. A terminal obeys what such text may hold: ESC
 * (0x1b) starts sequences that move the cursor, rewrite earlier lines,
 * retitle the window or (on some terminals) type into the shell; the C1
 * controls (U+0080..U+009F, and the raw bytes 0x80..0x9f on a terminal not
 * in UTF-8 mode) do the same without ESC; a newline or carriage return
 * lets a value forge a log line of its own.
 *
 * So one rule, used by every printer of such text: a byte that is a C0
 * control (0x00..0x1f, tab and newline included), DEL (0x7f), part of a
 * UTF-8-encoded C1 control, or not part of valid UTF-8 (a stray 0x9b is
 * the 8-bit CSI) is written as the four characters \xHH; anything else,
 * valid UTF-8 in any script included, is kept as it is. A backslash is not
 * doubled: the output is for people, not for parsing back.
 */
#ifndef NC_ESC_H
#define NC_ESC_H

#include <stddef.h>
#include <stdio.h>

/*
 * The next unit of the NUL-terminated s (not at its end): sets *bad to
 * whether its bytes must be escaped, and returns its length in bytes --
 * a whole UTF-8 character (1 to 4 bytes) when *bad is 0; when *bad is 1,
 * one byte, or two for a UTF-8-encoded C1 control. For printers with
 * their own quoting (CSV, gnuplot strings).
 */
size_t esc_next(const char *s, int *bad);

/* Write s to f with unsafe bytes escaped. NULL writes nothing. */
void esc_fputs(const char *s, FILE *f);

/*
 * As esc_fputs, and every byte equal to quote (a printable ASCII quote
 * character) is written twice, as in a quoted CSV field or a gnuplot
 * single-quoted string; the caller writes the enclosing quotes.
 */
void esc_fputq(const char *s, char quote, FILE *f);

/*
 * Write s to f for an HTML page, as element text or inside a double- or
 * single-quoted attribute value: the esc_fputs rule first (unsafe bytes
 * become the text \xHH), then &, <, >, " and ' become character
 * references (&amp; &lt; &gt; &quot; &#39;). NULL writes nothing.
 */
void esc_html_fputs(const char *s, FILE *f);

/*
 * Write s escaped into out of outsz bytes, NUL-terminated when outsz > 0.
 * Text that does not fit is cut between units (never inside an escape or
 * a character) and marked with a closing "...". NULL gives "". Returns
 * out, so a call can be a printf argument.
 */
char *esc_str(const char *s, char *out, size_t outsz);

#endif
