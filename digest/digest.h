/*
 * digest: one page's bytes -> body text, main text, fields, the text the
 * near-duplicate methods read, its word shingles and every fingerprint;
 * and the verdict on it. The crawl, `compare`, `eval` and `text` all go
 * through here, so that they cannot disagree about a page.
 *
 * Which text the near methods read ("near text"): the main content when
 * the settings ask for it (--text main) and the extractor found some;
 * otherwise the body text. A main text under the evidence floor
 * (dedup_config.min_shingles distinct shingles) is too little to judge
 * near: the page can then only be exact or unique. (Crawls made before
 * own_novelty fell back to the body text there instead, and still do.)
 * MD5 reads the body text with its paragraph breaks turned into spaces
 * (the research's purified text).
 */
#ifndef NC_DIGEST_H
#define NC_DIGEST_H

#include <stddef.h>
#include <stdint.h>

#include "config/config.h"
#include "dedup/dedup.h"
#include "web/extract.h"
#include "dedup/shingles.h"
#include "dedup/tdw.h"
#include "dedup/template.h"

struct digest_opts {
	const char *charset; /* from Content-Type, or NULL (extract.h) */
	size_t max_text;     /* extract's caps; 0 = its defaults */
	size_t max_links;
	int use_main;        /* near methods read the main text */
};

struct digest {
	struct extract_result ex; /* the extraction, when html */
	int html;           /* the input was HTML (ex is valid) */
	const char *text;   /* body text (or the plain text input) */
	size_t text_len;
	const char *near;   /* the text the near methods read: into ex or
	                       the input */
	size_t near_len;
	int near_main;      /* near is the main text */
	size_t main_shingles; /* distinct shingles of the main text, when
	                         it was weighed against the floor, else 0 */
	struct shingles sh; /* near's word shingles */
	struct dedup_fp fp; /* fingerprints of text (md5) and near */
	double extract_ms;  /* time spent extracting */
	double fingerprint_ms; /* time spent on shingles and fingerprints */
};

/*
 * Digest page bytes (len, need not be NUL-terminated) fetched from url
 * (may be NULL): extract when html is set, else take data as plain text;
 * choose the near text, read its shingles and fingerprint it with d's
 * methods. Returns 0; -1 with *why set to a static reason when the HTML
 * cannot be parsed ("out of memory", "too large") or fingerprinting fails
 * ("cannot fingerprint"), g then holding nothing to free. On success free g
 * with digest_free; g's strings point into g (and, for plain text, into
 * data, which must outlive g).
 */
int digest_page(const struct dedup *d, const struct digest_opts *o,
    const char *data, size_t len, int html, const char *url,
    struct digest *g, const char **why);

/*
 * Point tf's fields at ex's (URL url, which may be NULL), the way every
 * caller weights TDW tokens; tf's text is left empty, for the caller's
 * choice of body or main text. tf is valid while ex is.
 */
void digest_tdw_fields(const struct extract_result *ex, const char *url,
    struct tdw_fields *tf);

/* Free what g owns and zero it. Safe on a zeroed g. */
void digest_free(struct digest *g);

/*
 * Free g's extraction (texts, fields, links), keeping what judging and
 * remembering it need (fp, sh), for tools that hold many pages at once;
 * text and near become NULL. digest_free still frees the rest.
 */
void digest_shed_texts(struct digest *g);

/*
 * The verdict on g, a page of host, against everything added to d and t:
 * dedup_check, then dedup_confirm with fn (where earlier pages' shingle
 * sets are found) and the host's template as t knows it (t may be NULL:
 * none); linker, the page that linked to g (0: none or unknown), is a
 * candidate too (dedup_linker). Writes the matches as dedup_check does; *veto says why a near
 * candidate was turned down. With own_novelty, a page that is not an
 * exact copy then keeps only the terms of its own lines, outside that
 * template (shingles_keep_own_terms), so that, remembered, it lends a
 * later page only its own words. Returns the verdict; on a failure (fn's,
 * or out of memory) sets *err to 1.
 */
enum dedup_verdict digest_judge(const struct dedup *d, const struct tmpl *t,
    const char *host, struct digest *g, int64_t linker, dedup_set_fn fn,
    void *ctx, struct dedup_match *m, size_t max, size_t *nm,
    struct dedup_veto *veto, int *err);

/*
 * For judging b after a with a held in memory as page id (compare, eval):
 * id when a links to where b is (one of a's links leads to b's URL, which
 * digest_page was given), else 0 -- the linker digest_judge takes.
 */
int64_t digest_linker(const struct digest *a, const struct digest *b,
    int64_t id);

/*
 * A dedup_set_fn for judging one page against another held in memory (as
 * compare and eval do): page id 1 is the one whose shingles ctx points at
 * (a const struct shingles *), every other id has none stored. Returns 0,
 * or -1 when out of memory.
 */
int digest_set_of_first(void *ctx, int64_t id, struct shingles_ref *q);

/*
 * Remember g as page id of host in d, and its blocks in t (may be NULL)
 * when g->sh.teaches (dedup_learns_template, which the caller sets before
 * the set is stored): what a crawl does after judging a page that is not
 * an exact copy. Returns 0, or -1 when out of memory.
 */
int digest_add(struct dedup *d, struct tmpl *t, const char *host,
    const struct digest *g, int64_t id);

/*
 * The options a crawl with cfg digests a page with, served with
 * content_type (or NULL): its charset (into charset, charsetsz bytes),
 * --max-text, --text; max_links as the caller needs links. The crawl and
 * compare both take them from here, so they read a page alike.
 */
void digest_opts_of(const struct config *cfg, const char *content_type,
    size_t max_links, char *charset, size_t charsetsz, struct digest_opts *o);

#endif
