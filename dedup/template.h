/*
 * template: each site's template, learnt as the crawl goes, as the blocks
 * (lines of extracted text) that repeat across its pages.
 *
 * Following template detection by repeated page fragments across a site
 * (Bar-Yossef and Rajagopalan, "Template detection via data mining and its
 * applications", WWW 2002) and the paragraph-level deduplication of
 * web-corpus pipelines (e.g. CCNet, Wenzek et al. 2019: a paragraph seen
 * in other documents is not the document's own text), a block whose hash
 * was seen on at least TMPL_PAGES earlier judged pages of the same site is
 * template there, whatever element holds it: menus and footers that
 * escaped the extractor, a policy paragraph under every course, a
 * disclaimer. Template words do not count as a page's novel words
 * (shingles.h); nothing else about a verdict changes.
 *
 * Before a site's template is known its pages only lose that allowance:
 * they need more of their own text to be called near copies, never less.
 *
 * A site is a name the caller chooses: the crawl takes the domain of its
 * scope that holds the page's host (the servers of one university share
 * one CMS template), else the host.
 *
 * Memory is bounded: each site's table has at most TMPL_HOST_MAX slots,
 * at most half of them used; when it is full, the blocks seen on the
 * fewest pages are dropped until a quarter of that room is free (a count
 * that is too low errs toward "not template", the safe side), so a
 * clean-up, which reads the whole table, comes at most once every
 * TMPL_HOST_MAX / 8 new blocks. Sites are told apart by a 64-bit hash of
 * their name.
 */
#ifndef NC_TEMPLATE_H
#define NC_TEMPLATE_H

#include <stddef.h>
#include <stdint.h>

/* Earlier pages a block must be on to be template. The functions below
 * name the site "host". */
#define TMPL_PAGES 2
/* Slots of a host's table at most (8 bytes each; at most half are used). */
#define TMPL_HOST_MAX 16384

struct tmpl;

/* An empty state; NULL when out of memory. */
struct tmpl *tmpl_new(void);

/* Free it; NULL is fine. */
void tmpl_free(struct tmpl *t);

/*
 * For each of the n block hashes of a page of host, set flags[i] to 1 when
 * it is template there, else 0. Cannot fail.
 */
void tmpl_mark(const struct tmpl *t, const char *host, const uint32_t *blocks,
    size_t n, unsigned char *flags);

/*
 * Count the n block hashes of one judged page of host (each distinct one
 * once). Returns 0, or -1 when out of memory (the counts stay as they
 * were, possibly short of this page: the safe side).
 */
int tmpl_learn(struct tmpl *t, const char *host, const uint32_t *blocks,
    size_t n);

/* How many times a full table of t was cleaned up (see above). */
size_t tmpl_cleanups(const struct tmpl *t);

/* Bytes of memory t holds. */
size_t tmpl_bytes(const struct tmpl *t);

#endif
