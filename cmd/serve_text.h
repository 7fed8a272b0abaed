/*
 * serve_text: a page's text as the crawl read it, for the page view, and
 * which of its words are new against its original.
 *
 * The bytes come, in this order, from the crawl's WARC files (--warc, or
 * those `nearcrawl dedup` read, found through their CDXJ index: the
 * page as fetched, so the view reads the main text the near methods read,
 * through the same digest step as the crawl and `nearcrawl compare`),
 * from the text the crawl stored (--store-text: the body text, read as
 * plain text), or, only when the user asks, from the URL itself. The
 * words are measured as a crawl measures them (docs/dedup.md, "What near
 * means"): against the original's shingle set as the crawl stored it when
 * there is one, with the lines of its site's template (learnt from the
 * shingle sets of the site's pages fetched before it) told apart.
 */
#ifndef NC_SERVE_TEXT_H
#define NC_SERVE_TEXT_H

#include <stddef.h>
#include <stdint.h>

#include "cmd/serve_out.h"
#include "dedup/shingles.h"
#include "dedup/template.h"
#include "digest/digest.h"
#include "util/buf.h"

/* Where a document's text came from. */
enum svt_source {
	SVT_NONE,    /* nowhere: note says why */
	SVT_WARC,    /* the crawl's WARC files */
	SVT_STORED,  /* the crawl's stored body text */
	SVT_FETCHED  /* fetched now, at the user's request */
};

/* One side of a page view. */
struct svt_doc {
	int64_t id;            /* its pages row */
	char *url;             /* owned */
	char *title;           /* owned, or NULL */
	char *stored;          /* its stored text, owned, or NULL */
	double fetched_at;     /* when the crawl fetched it */
	enum svt_source source;
	char note[300];        /* why there is no text, or what was read */
	struct buf raw;        /* the bytes digested */
	char ctype[128];       /* their Content-Type, "" when unknown */
	int digested;          /* dg holds the digest */
	struct digest dg;
};

/* What the measure found of a page against its original. */
struct svt_marks {
	unsigned char *isnew;  /* per word of the page's near text: new */
	unsigned char *tmpl;   /* per block of it: a template line */
	struct shingles_novelty nv; /* the figures */
	int measured;          /* against an original (else all new) */
	int from_set;          /* against the original's stored set */
	int near_holds;        /* the figures make it near (the rule) */
	int64_t learnt;        /* pages its template was learnt from */
};

/* Zero d with id and copies of url and title. 0, or -1 out of memory. */
int svt_doc_init(struct svt_doc *d, int64_t id, const char *url,
    const char *title, double fetched_at);

/* Free what d owns. */
void svt_doc_free(struct svt_doc *d);

/* Folders of archives besides the crawl's own looked in at most. */
#define SVT_DIRS 8

/*
 * Read d's bytes (the crawl's WARC files, then those in the ndirs
 * folders dirs -- where the files `nearcrawl dedup` read are --, its
 * stored text, the URL when fetch) and digest them. Cannot fail but out
 * of memory (-1); a document without text has source SVT_NONE and a
 * note. 0 otherwise.
 */
int svt_load(struct sv *s, struct svt_doc *d, char *const *dirs,
    size_t ndirs, int fetch);

/*
 * Learn the template of site from one stored shingle set (a page of host
 * judged verdict) into t, as a crawl's resume does. 0, or -1 out of
 * memory.
 */
int svt_learn(struct sv *s, struct tmpl *t, const char *site,
    const char *verdict, const void *blob, size_t len);

/* The site a page of host belongs to: the crawl's longest allowed
 * domain holding it, else the host. */
const char *svt_site(struct sv *s, const char *host);

/*
 * Measure page p (digested) against original a (digested, or NULL) or
 * a's stored set (blob, len; NULL when none), with template t of site.
 * 0, or -1 out of memory; m is freed with svt_marks_free.
 */
int svt_measure(struct sv *s, const struct svt_doc *p,
    const struct svt_doc *a, const void *blob, size_t len,
    const struct tmpl *t, const char *site, struct svt_marks *m);

void svt_marks_free(struct svt_marks *m);

/*
 * d's near text as HTML paragraphs, one a line: words flagged in isnew
 * (NULL: none) in <mark>, lines flagged in tmpl (NULL: none) greyed.
 */
void svt_write(struct sv_req *r, const struct svt_doc *d,
    const unsigned char *isnew, const unsigned char *tmpl);

#endif
