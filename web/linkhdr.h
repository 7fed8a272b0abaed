/*
 * linkhdr: the HTTP Link header (RFC 8288), read for one thing: the
 * rel="canonical" target a server declares for the page it sent.
 */
#ifndef NC_LINKHDR_H
#define NC_LINKHDR_H

/*
 * The first link in value (a Link header's value; several headers joined
 * by ", " read the same) whose rel parameter holds the relation type
 * "canonical" (any case, among others: rel="canonical alternate"), its
 * target resolved against page_url (may be NULL: then only an absolute
 * target counts) and normalised as links are (web/url.h); a target that is
 * not http(s) or does not parse is passed over. Commas and semicolons
 * inside <...> and quoted strings are part of them; a malformed link ends
 * the parse. Returns a malloc'd URL the caller frees, or NULL when there
 * is none (value NULL too) or memory ran out.
 */
char *linkhdr_canonical(const char *value, const char *page_url);

#endif
