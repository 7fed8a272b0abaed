/*
 * extract: the walk over libxml2's tree of a page that writes its texts
 * (body, main content, title, headings, description, keywords, link text)
 * and gathers its link candidates and meta robots; see extract.h. The
 * bytes are decoded by charset.c, main content is marked by content.c,
 * and the links are resolved by extract_links.c after the walk.
 */
#include "web/extract.h"
#include "web/extract_int.h"

#include "util/buf.h"
#include "util/chars.h"
#include "web/charset.h"
#include "web/content.h"
#include "web/htmlattr.h"
#include "web/url.h"

#include <libxml/HTMLparser.h>
#include <libxml/globals.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/*
 * Link candidates are kept until the walk ends (a <base> may come late);
 * more than this many per kept link would only be spent on duplicates.
 */
#define CANDIDATES_PER_LINK 8
#define CANDIDATES_MIN 4096
#define CANDIDATES_MAX (1u << 20)

/* Links whose text is kept for anchors_same/anchors_other, and the bytes of
 * text they may take together (a template's menus come first). */
#define ANCHOR_LINKS_MAX 4096
#define ANCHOR_TEXT_MAX (64 * 1024)

static const char WHY_NOMEM[] = "out of memory";
static const char WHY_LARGE[] = "too large";

/* White space collapses to one separator: '\n' when a block boundary
 * came since the last character and the text keeps lines, else ' '. */
struct tout {
	struct buf b;     /* the text so far, limit = its cap */
	const char *sep;  /* to put before the next character, if any */
	int space;        /* white space seen since the last character */
	int nl;           /* a block boundary seen since the last character */
	int lines;        /* block boundaries are written as '\n' */
	int full;         /* a character did not fit: text was cut */
	int nomem;        /* an append failed for want of memory */
};

static void
tout_init(struct tout *t, size_t cap, int lines)
{
	memset(t, 0, sizeof(*t));
	buf_init(&t->b, cap);
	t->lines = lines;
}

/*
 * Append n bytes of characters: only the first can need a separator, and
 * the run is one word or the rest of one, or (ascii) plain words with one
 * space between each, as the text writes them. A run that does not fit is
 * cut where the room ends when each byte is a character (ascii), else
 * dropped whole; either way the text is then full. A cut run ends on a
 * character, never on a space: written a word at a time, the text would
 * have stopped before the word that space leads.
 */
static void
tout_run(struct tout *t, const unsigned char *bytes, size_t n, int ascii)
{
	const char *pre = "";
	size_t pl, room;
	int cut = 0;

	if (t->full || t->nomem)
		return;
	if (t->b.len > 0) {
		if (t->sep != NULL)
			pre = t->sep;
		else if (t->nl && t->lines)
			pre = "\n";
		else if (t->space)
			pre = " ";
	}
	pl = strlen(pre);
	room = t->b.limit - t->b.len;
	if (pl + n > room) {
		if (!ascii || room <= pl) {
			t->full = 1;
			return;
		}
		n = room - pl;
		while (n > 0 && bytes[n - 1] == ' ')
			n--;
		cut = 1;
	}
	if (buf_append(&t->b, pre, pl) != BUF_OK ||
	    buf_append(&t->b, bytes, n) != BUF_OK) {
		t->nomem = 1;
		return;
	}
	t->sep = NULL;
	t->space = 0;
	t->nl = 0;
	t->full = cut;
}

/* Printable ASCII: a character that is neither white space nor control. */
static int
is_word_ascii(unsigned char c)
{
	return c > 0x20 && c < 0x7f;
}

/* Outputs one text is written to at once: body, main, headings and
 * anchors. */
#define TOUT_MANY 4

/*
 * Write str[0..n) to each of the nt outputs ts: read once, each run of
 * characters handed to every output that still has room.
 */
static void
tout_text_many(struct tout *const *ts, size_t nt, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	unsigned char enc[4];
	size_t i = 0, k, j, open;
	uint32_t cp;
	int remap;

	while (i < n) {
		for (j = 0, open = 0; j < nt; j++)
			open += !ts[j]->full;
		if (open == 0)
			break;
		if (is_word_ascii(s[i])) {
			/* The common case, plain ASCII words at once, with
			 * the single spaces between them: the text writes
			 * those as they are. */
			for (k = 1; i + k < n; k++)
				if (!is_word_ascii(s[i + k]) && (s[i + k] !=
				    ' ' || i + k + 1 == n ||
				    !is_word_ascii(s[i + k + 1])))
					break;
			for (j = 0; j < nt; j++)
				tout_run(ts[j], s + i, k, 1);
			i += k;
			continue;
		}
		k = chars_utf8_decode(s + i, n - i, &cp);
		remap = k == 1 && cp == 0xfffd;
		/* The raw bytes had their C1 controls blanked; one here came
		 * from a reference like &#150;, which browsers read as
		 * windows-1252. */
		if (cp >= 0x80 && cp <= 0x9f) {
			cp = charset_c1_cp1252(cp);
			remap = 1;
		}
		/* White space, and controls: a character reference can
		 * still make one. A full output writes nothing more, so its
		 * space is never read. */
		if (chars_space_cp(cp)) {
			for (j = 0; j < nt; j++)
				ts[j]->space = 1;
		} else if (remap) {
			size_t el = chars_utf8_encode(cp, enc);

			for (j = 0; j < nt; j++)
				tout_run(ts[j], enc, el, 0);
		} else {
			for (j = 0; j < nt; j++)
				tout_run(ts[j], s + i, k, 0);
		}
		i += k;
	}
}

static void
tout_text(struct tout *t, const char *str)
{
	if (str != NULL)
		tout_text_many(&t, 1, str, strlen(str));
}

/* A block boundary: the next character is preceded by a space, or by a
 * line break when the text keeps lines. */
static void
tout_break(struct tout *t)
{
	t->space = 1;
	t->nl = 1;
}

/* Start a new segment joined to the previous text by sep. */
static void
tout_segment(struct tout *t, const char *sep)
{
	t->sep = sep;
	t->space = 0;
	t->nl = 0;
}

/* ---- the tree walk ---- */

struct walk {
	struct tout text;     /* body text */
	struct tout main;     /* main content's text */
	struct tout title;    /* first <title> */
	struct tout heads;    /* h1..h6 joined by " | " */
	struct tout desc;     /* meta description */
	struct tout keys;     /* meta keywords */
	struct tout anchors;  /* text of links with an href, in order */
	xmlNode *pre;         /* the outermost <pre> being walked, or NULL */
	struct anchor *anch;  /* those links, in document order */
	size_t nanch;         /* entries in anch */
	size_t aanch;         /* entries allocated */
	int in_anchor;        /* text now also goes to anchors */
	xmlNode *drop;        /* outermost dropped element we are in */
	const struct content *ct; /* the main-content marks */
	xmlNode *in_main;     /* outermost CONTENT_IN element we are in */
	xmlNode *boiler;      /* outermost CONTENT_OUT element inside it */
	xmlNode *link;        /* outermost <a> we are in */
	xmlNode *heading;     /* heading being captured */
	xmlNode *title_node;  /* <title> being captured */
	int title_done;       /* a <title> was captured already */
	int have_desc;        /* first description taken */
	int have_keys;        /* first keywords taken */
	int nofollow;         /* meta robots nofollow */
	int noindex;          /* meta robots noindex */
	const char *base;     /* href of the first <base>, in the doc */
	const char *canon;    /* href of the first <link rel=canonical>
	                         outside <body>, in the doc */
	int canon_seen;       /* such a link was met (href or not) */
	const char **cand;    /* raw link targets, in the doc */
	size_t ncand;         /* entries in cand */
	size_t acand;         /* entries allocated */
	size_t maxcand;       /* cap on ncand */
	int nomem;            /* an allocation failed */
};

/*
 * Whether the white-space or comma separated list s holds token tok, in
 * any case.
 */
static int
has_token(const char *s, const char *tok)
{
	size_t tl = strlen(tok), i = 0, st;

	if (s == NULL)
		return 0;
	while (s[i] != '\0') {
		while (s[i] != '\0' && (chars_html_space((unsigned char)s[i]) ||
		    s[i] == ','))
			i++;
		st = i;
		while (s[i] != '\0' && !chars_html_space((unsigned char)s[i]) &&
		    s[i] != ',')
			i++;
		if (i - st == tl && strncasecmp(s + st, tok, tl) == 0)
			return 1;
	}
	return 0;
}

static void
add_candidate(struct walk *w, const char *target)
{
	const char **n;
	size_t a;

	if (target == NULL || w->ncand >= w->maxcand)
		return;
	if (w->ncand == w->acand) {
		a = w->acand ? w->acand * 2 : 64;
		n = realloc(w->cand, a * sizeof(*n));
		if (n == NULL) {
			w->nomem = 1;
			return;
		}
		w->cand = n;
		w->acand = a;
	}
	w->cand[w->ncand++] = target;
}

static void
do_meta(struct walk *w, const xmlNode *n)
{
	const char *name = htmlattr_get(n, "name"), *content = htmlattr_get(n, "content");

	if (name == NULL || content == NULL)
		return;
	if (strcasecmp(name, "description") == 0 && !w->have_desc) {
		w->have_desc = 1;
		tout_text(&w->desc, content);
	} else if (strcasecmp(name, "keywords") == 0 && !w->have_keys) {
		w->have_keys = 1;
		tout_text(&w->keys, content);
	} else if (strcasecmp(name, "robots") == 0) {
		if (has_token(content, "nofollow") || has_token(content, "none"))
			w->nofollow = 1;
		if (has_token(content, "noindex") || has_token(content, "none"))
			w->noindex = 1;
	}
}

/*
 * Whether n lies inside a <body>. A rel=canonical there is not the page's
 * own (it may come from the content: a pasted snippet, a user's post), so
 * it is ignored, as search engines ignore it.
 */
static int
in_body(const xmlNode *n)
{
	for (n = n->parent; n != NULL; n = n->parent)
		if (n->type == XML_ELEMENT_NODE && n->name != NULL &&
		    strcmp((const char *)n->name, "body") == 0)
			return 1;
	return 0;
}

/*
 * Text is taken from everything but dropped elements, <head> among them,
 * rather than from <body> alone: libxml2 puts content found after </body>
 * or </html> into a second <body> or a stray <html> after the body, where
 * a browser would show it as part of the body.
 */
static int
text_active(const struct walk *w)
{
	return w->drop == NULL;
}

/* ---- main text: the text of the main content (content.h) ---- */

static int
main_active(const struct walk *w)
{
	return text_active(w) && w->in_main != NULL && w->boiler == NULL;
}

/* What content.c is told to ignore: what the body text leaves out. */
static int
silent_elem(const xmlNode *n)
{
	return (extract_elem_flags((const char *)n->name) &
	    (E_DROP | E_SKIP)) != 0;
}

/*
 * An <a> opens (the outermost one): with an href, its text is kept apart
 * too, to be split by where the link leads once the walk is over.
 */
static void
anchor_open(struct walk *w, const char *href)
{
	struct anchor *a;
	size_t n;

	if (href == NULL || !text_active(w) || w->anchors.full ||
	    w->nanch >= ANCHOR_LINKS_MAX)
		return;
	if (w->nanch == w->aanch) {
		n = w->aanch ? w->aanch * 2 : 32;
		a = realloc(w->anch, n * sizeof(*a));
		if (a == NULL) {
			w->nomem = 1;
			return;
		}
		w->anch = a;
		w->aanch = n;
	}
	a = &w->anch[w->nanch++];
	a->href = href;
	a->start = a->end = w->anchors.b.len;
	a->tstart = a->tend = w->text.b.len;
	a->mstart = a->mend = w->main.b.len;
	a->in_main = main_active(w);
	w->in_anchor = 1;
}

/* The open link ends; one without text is forgotten. */
static void
anchor_close(struct walk *w)
{
	struct anchor *a;

	if (!w->in_anchor)
		return;
	w->in_anchor = 0;
	tout_break(&w->anchors);
	a = &w->anch[w->nanch - 1];
	a->end = w->anchors.b.len;
	a->tend = w->text.b.len;
	a->mend = w->main.b.len;
	if (a->end == a->start)
		w->nanch--;
}

/*
 * Text inside <pre>: each of its lines is a block of the body and main
 * texts (a header line of a mail, a line of code), so a line repeated
 * across a site's pages can be template while the rest is not. Headings,
 * anchors and the rest read it as any text.
 */
static void
pre_lines(struct walk *w, const char *s)
{
	struct tout *ts[2];
	const char *nl;
	size_t n;

	if (s == NULL)
		return;
	if (w->heading != NULL)
		tout_text(&w->heads, s);
	if (w->in_anchor)
		tout_text(&w->anchors, s);
	ts[0] = &w->text;
	ts[1] = &w->main;
	for (;;) {
		nl = strchr(s, '\n');
		n = nl != NULL ? (size_t)(nl - s) : strlen(s);
		tout_text_many(ts, main_active(w) ? 2 : 1, s, n);
		if (nl == NULL)
			break;
		tout_break(&w->text);
		if (main_active(w))
			tout_break(&w->main);
		s = nl + 1;
	}
}

/* Entering node n; returns whether to walk into its children. */
static int
enter(struct walk *w, xmlNode *n)
{
	struct tout *ts[TOUT_MANY];
	const char *name;
	size_t nt;
	unsigned f;

	if (n->type == XML_TEXT_NODE || n->type == XML_CDATA_SECTION_NODE) {
		if (text_active(w) && w->pre != NULL) {
			pre_lines(w, (const char *)n->content);
		} else if (text_active(w) && n->content != NULL) {
			nt = 0;
			ts[nt++] = &w->text;
			if (main_active(w))
				ts[nt++] = &w->main;
			if (w->heading != NULL)
				ts[nt++] = &w->heads;
			if (w->in_anchor)
				ts[nt++] = &w->anchors;
			tout_text_many(ts, nt, (const char *)n->content,
			    strlen((const char *)n->content));
		}
		if (w->title_node != NULL)
			tout_text(&w->title, (const char *)n->content);
		return 0;
	}
	if (n->type != XML_ELEMENT_NODE)
		return 0;
	name = (const char *)n->name;
	f = extract_elem_flags(name);
	if (f & E_SKIP)
		return 0;
	if ((f & E_BLOCK) && text_active(w)) {
		tout_break(&w->text);
		tout_break(&w->main);
		if (w->heading != NULL)
			tout_break(&w->heads);
		tout_break(&w->anchors);
	}
	if ((f & E_HEADING) && text_active(w) && w->heading == NULL) {
		w->heading = n;
		tout_segment(&w->heads, " | ");
	}
	if (name == NULL)
		return 1;
	switch (content_mark_of(w->ct, n)) {
	case CONTENT_IN:
		if (w->in_main == NULL)
			w->in_main = n;
		break;
	case CONTENT_OUT:
		if (w->in_main != NULL && w->boiler == NULL)
			w->boiler = n;
		break;
	default:
		break;
	}
	if (strcmp(name, "a") == 0 && w->link == NULL) {
		w->link = n;
		anchor_open(w, htmlattr_get(n, "href"));
	}
	if (strcmp(name, "title") == 0 && !w->title_done &&
	    w->title_node == NULL)
		w->title_node = n;
	else if (strcmp(name, "meta") == 0)
		do_meta(w, n);
	else if (strcmp(name, "base") == 0 && w->base == NULL)
		w->base = htmlattr_get(n, "href");
	else if (strcmp(name, "link") == 0 && !w->canon_seen &&
	    has_token(htmlattr_get(n, "rel"), "canonical") && !in_body(n)) {
		w->canon_seen = 1;
		w->canon = htmlattr_get(n, "href");
	}
	else if (strcmp(name, "a") == 0 || strcmp(name, "area") == 0) {
		if (!has_token(htmlattr_get(n, "rel"), "nofollow"))
			add_candidate(w, htmlattr_get(n, "href"));
	} else if (strcmp(name, "frame") == 0 || strcmp(name, "iframe") == 0)
		add_candidate(w, htmlattr_get(n, "src"));
	if ((f & E_DROP) && w->drop == NULL)
		w->drop = n;
	if (w->pre == NULL && strcmp(name, "pre") == 0)
		w->pre = n;
	return 1;
}

static void
leave(struct walk *w, xmlNode *n)
{
	if (n->type != XML_ELEMENT_NODE)
		return;
	if (w->drop == n)
		w->drop = NULL;
	if (w->pre == n)
		w->pre = NULL;
	if (w->title_node == n) {
		w->title_node = NULL;
		w->title_done = 1;
	}
	if (w->heading == n)
		w->heading = NULL;
	if (w->boiler == n)
		w->boiler = NULL;
	if (w->in_main == n)
		w->in_main = NULL;
	if (w->link == n) {
		w->link = NULL;
		anchor_close(w);
	}
	if ((extract_elem_flags((const char *)n->name) & E_BLOCK) &&
	    text_active(w)) {
		tout_break(&w->text);
		tout_break(&w->main);
		if (w->heading != NULL)
			tout_break(&w->heads);
		tout_break(&w->anchors);
	}
}

/* Visit the whole document without recursion: nesting depth is unbounded. */
static void
walk_doc(struct walk *w, xmlDoc *doc)
{
	xmlNode *top = (xmlNode *)doc, *n = doc->children;

	while (n != NULL) {
		if (enter(w, n) && n->children != NULL) {
			n = n->children;
			continue;
		}
		for (;;) {
			leave(w, n);
			if (n->next != NULL) {
				n = n->next;
				break;
			}
			n = n->parent;
			if (n == NULL || n == top) {
				n = NULL;
				break;
			}
		}
	}
}

/* ---- entry points ---- */

static void
silent(void *ctx, const char *msg, ...)
{
	(void)ctx;
	(void)msg;
}

static void
silent_structured(void *ctx, xmlErrorPtr err)
{
	(void)ctx;
	(void)err;
}

/* Parse clean UTF-8; *doc is NULL for a page libxml2 finds empty. */
static int
parse(const unsigned char *u8, size_t n, const char *page_url, xmlDoc **doc)
{
	xmlGenericErrorFunc old_generic = xmlGenericError;
	void *old_generic_ctx = xmlGenericErrorContext;
	xmlStructuredErrorFunc old_structured = xmlStructuredError;
	void *old_structured_ctx = xmlStructuredErrorContext;
	htmlParserCtxtPtr ctxt;
	int nomem;

	*doc = NULL;
	if (n == 0)
		return 0;
	ctxt = htmlNewParserCtxt();
	if (ctxt == NULL)
		return -1;
	/* libxml2 files every id attribute in a table of the document, which
	 * the walk never reads: the filing and the freeing are skipped. */
	ctxt->loadsubset |= XML_SKIP_IDS;
	xmlSetGenericErrorFunc(NULL, silent);
	xmlSetStructuredErrorFunc(NULL, silent_structured);
	/*
	 * Without XML_PARSE_HUGE libxml2 gives up past 256 levels of nesting
	 * and drops the whole tree; unclosed tags in a long list get there.
	 * Its parser and our walk are iterative, and the input is capped.
	 */
	*doc = htmlCtxtReadMemory(ctxt, (const char *)u8, (int)n, page_url,
	    "UTF-8", HTML_PARSE_RECOVER | HTML_PARSE_NOERROR |
	    HTML_PARSE_NOWARNING | HTML_PARSE_NONET | HTML_PARSE_IGNORE_ENC |
	    HTML_PARSE_NODEFDTD | XML_PARSE_HUGE);
	xmlSetGenericErrorFunc(old_generic_ctx, old_generic);
	xmlSetStructuredErrorFunc(old_structured_ctx, old_structured);
	nomem = ctxt->errNo == XML_ERR_NO_MEMORY;
	htmlFreeParserCtxt(ctxt);
	if (nomem) {
		xmlFreeDoc(*doc);
		*doc = NULL;
		return -1;
	}
	return 0;
}

static void
walk_free(struct walk *w)
{
	buf_free(&w->text.b);
	buf_free(&w->main.b);
	buf_free(&w->title.b);
	buf_free(&w->heads.b);
	buf_free(&w->desc.b);
	buf_free(&w->keys.b);
	buf_free(&w->anchors.b);
	free(w->anch);
	free(w->cand);
}

/* Set up w for a page: its outputs with their caps, and the cap on link
 * candidates. */
static void
walk_init(struct walk *w, size_t max_text, size_t max_links)
{
	memset(w, 0, sizeof(*w));
	tout_init(&w->text, max_text, 1);
	tout_init(&w->main, max_text, 1);
	tout_init(&w->title, EXTRACT_FIELD_MAX, 0);
	tout_init(&w->heads, EXTRACT_HEADINGS_MAX, 0);
	tout_init(&w->desc, EXTRACT_FIELD_MAX, 0);
	tout_init(&w->keys, EXTRACT_FIELD_MAX, 0);
	tout_init(&w->anchors, ANCHOR_TEXT_MAX, 0);
	w->maxcand = max_links > CANDIDATES_MAX / CANDIDATES_PER_LINK ?
	    CANDIDATES_MAX : max_links * CANDIDATES_PER_LINK;
	if (w->maxcand < CANDIDATES_MIN)
		w->maxcand = CANDIDATES_MIN;
}

/* Whether the walk ran out of memory anywhere. */
static int
walk_nomem(const struct walk *w)
{
	return w->nomem || w->text.nomem || w->main.nomem || w->title.nomem ||
	    w->heads.nomem || w->desc.nomem || w->keys.nomem ||
	    w->anchors.nomem;
}

/*
 * Decode the len bytes at html (hint: the Content-Type charset or NULL)
 * into *u8, naming the charset in r, and parse them into *doc. Returns 0,
 * or -1 with *why set; free *u8 and *doc either way.
 */
static int
load(const char *html, size_t len, const char *page_url, const char *hint,
    struct extract_result *r, unsigned char **u8, xmlDoc **doc,
    const char **why)
{
	size_t u8len = 0;

	*u8 = NULL;
	*doc = NULL;
	if (html == NULL)
		len = 0;
	*why = WHY_LARGE;
	if (len > INT_MAX / 4)
		return -1;
	*why = WHY_NOMEM;
	*u8 = charset_decode((const unsigned char *)html, len, hint,
	    r->charset, sizeof(r->charset), &u8len);
	if (*u8 == NULL)
		return -1;
	if (u8len > INT_MAX) {
		*why = WHY_LARGE;
		return -1;
	}
	return parse(*u8, u8len, page_url, doc);
}

/*
 * Move the walk's texts into r: text, main_text (the whole text when the
 * template took all of it; found is then cleared), title, headings,
 * description and keywords. Returns 0, or -1 on no memory.
 */
static int
take_texts(struct walk *w, int found, struct extract_result *r)
{
	char *t;

	if ((t = buf_steal(&w->text.b)) == NULL)
		return -1;
	r->text = t;
	r->text_len = strlen(t);
	/* All of it template (a bare menu, say): better the whole text than
	 * nothing to fingerprint. */
	if (w->main.b.len == 0) {
		found = 0;
		r->main_text = strdup(r->text);
	} else {
		r->main_text = buf_steal(&w->main.b);
	}
	if (r->main_text == NULL)
		return -1;
	r->main_len = strlen(r->main_text);
	r->main_found = found;
	r->main_share = r->text_len > 0 ? (double)r->main_len /
	    (double)r->text_len : 0;
	/* The two texts are capped separately and text's trailing space is
	 * trimmed after its cut, so with tiny caps main could come out longer:
	 * keep the promise that it never holds more than text. */
	while (r->main_len > r->text_len || (r->main_len > 0 &&
	    (r->main_text[r->main_len - 1] == ' ' ||
	    r->main_text[r->main_len - 1] == '\n'))) {
		r->main_len--;
		while (r->main_len > 0 &&
		    ((unsigned char)r->main_text[r->main_len] & 0xc0) == 0x80)
			r->main_len--;
		r->main_text[r->main_len] = '\0';
	}
	/* Trimmed to nothing (a cap of a few bytes, blanks only): the whole
	 * text then, as when the template took everything. */
	if (r->main_len == 0 && r->text_len > 0) {
		free(r->main_text);
		if ((r->main_text = strdup(r->text)) == NULL)
			return -1;
		r->main_len = r->text_len;
		r->main_found = 0;
		r->main_share = 1;
	}
	if ((r->title = buf_steal(&w->title.b)) == NULL ||
	    (r->headings = buf_steal(&w->heads.b)) == NULL ||
	    (r->description = buf_steal(&w->desc.b)) == NULL ||
	    (r->keywords = buf_steal(&w->keys.b)) == NULL)
		return -1;
	return 0;
}

/*
 * The page's declared canonical URL: href resolved against the base the
 * links resolve against and normalised as they are; NULL when there is
 * none or it is not an http(s) URL. Returns 0, or -1 on no memory.
 */
static int
take_canonical(const char *href, const struct url_base *eff,
    struct extract_result *r)
{
	const char *why = NULL;

	if (href == NULL)
		return 0;
	r->canonical = url_base_resolve(eff, href, &why);
	return r->canonical == NULL && why != NULL &&
	    strcmp(why, "out of memory") == 0 ? -1 : 0;
}

int
extract_html(const char *html, size_t len, const char *page_url,
    const struct extract_opts *o, struct extract_result *r, const char **why)
{
	const char *dummy;
	size_t max_text = EXTRACT_DEFAULT_MAX_TEXT;
	size_t max_links = EXTRACT_DEFAULT_MAX_LINKS;
	unsigned char *u8 = NULL;
	xmlDoc *doc = NULL;
	struct url_base eff;
	struct walk w;
	struct content *ct = NULL;
	char *base = NULL;
	int found = 0, ret = -1;

	if (why == NULL)
		why = &dummy;
	memset(&eff, 0, sizeof(eff));
	memset(r, 0, sizeof(*r));
	if (o != NULL && o->max_text > 0)
		max_text = o->max_text;
	if (o != NULL && o->max_links > 0)
		max_links = o->max_links;
	walk_init(&w, max_text, max_links);
	if (load(html, len, page_url, o != NULL ? o->charset : NULL, r, &u8,
	    &doc, why) != 0)
		goto done;
	if (doc != NULL) {
		if ((ct = content_analyze(doc, silent_elem, &found)) == NULL)
			goto done;
		w.ct = ct;
		walk_doc(&w, doc);
	}
	if (walk_nomem(&w))
		goto done;
	r->nofollow = w.nofollow;
	r->noindex = w.noindex;
	r->truncated = w.text.full;
	if (extract_link_base(w.base, page_url, &eff, &base) != 0 ||
	    (!w.nofollow && extract_make_links(w.cand, w.ncand, &eff,
	    max_links, r) != 0) ||
	    extract_make_anchors(w.anch, w.nanch, w.anchors.b.data, &eff,
	    page_url, w.main.b.len == 0, r) != 0 ||
	    take_texts(&w, found, r) != 0 ||
	    extract_make_link_spans(w.anch, w.nanch,
	    strcmp(r->main_text, r->text) == 0, r) != 0 ||
	    take_canonical(w.canon, &eff, r) != 0)
		goto done;
	*why = NULL;
	ret = 0;
done:
	if (ret != 0)
		extract_result_free(r);
	url_base_free(&eff);
	free(base);
	content_free(ct);
	xmlFreeDoc(doc);
	free(u8);
	walk_free(&w);
	return ret;
}

void
extract_init_threads(void)
{
	xmlInitParser();
}

void
extract_result_free(struct extract_result *r)
{
	size_t i;

	if (r == NULL)
		return;
	free(r->text);
	free(r->main_text);
	free(r->title);
	free(r->headings);
	free(r->description);
	free(r->keywords);
	free(r->anchors_same);
	free(r->anchors_other);
	free(r->text_links);
	free(r->main_links);
	free(r->canonical);
	for (i = 0; i < r->nlinks; i++)
		free(r->links[i]);
	free(r->links);
	memset(r, 0, sizeof(*r));
}

int
extract_is_html(const char *ct, const char *data, size_t len)
{
	size_t i;

	if (ct != NULL)
		return strncasecmp(ct, "text/html", 9) == 0 ||
		    strncasecmp(ct, "application/xhtml+xml", 21) == 0;
	/* No Content-Type: take it for HTML when it starts like markup,
	 * after a UTF-8 byte-order mark if there is one. */
	i = len >= 3 && memcmp(data, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
	for (; i < len && i < 512; i++) {
		if (data[i] == '<')
			return 1;
		if (data[i] != ' ' && data[i] != '\t' &&
		    data[i] != '\r' && data[i] != '\n')
			return 0;
	}
	return 0;
}

void
extract_charset_of(const char *ct, char *out, size_t outsz)
{
	const char *p;
	size_t n = 0;

	out[0] = '\0';
	if (ct == NULL || (p = strcasestr(ct, "charset=")) == NULL)
		return;
	p += 8;
	if (*p == '"' || *p == '\'')
		p++;
	while (p[n] != '\0' && p[n] != '"' && p[n] != '\'' && p[n] != ';' &&
	    p[n] != ' ' && n + 1 < outsz) {
		out[n] = p[n];
		n++;
	}
	out[n] = '\0';
}
