/*
 * extract_elems: what each HTML element is to the walk (extract.c) --
 * a block, dropped, skipped, a heading; see extract_int.h.
 */
#include "web/extract_int.h"

#include <pthread.h>

static const struct elem {
	const char *name;
	unsigned flags;
} elems[] = {
	{ "address", E_BLOCK }, { "article", E_BLOCK }, { "aside", E_BLOCK },
	{ "audio", E_DROP }, { "base", E_DROP }, { "blockquote", E_BLOCK },
	{ "body", E_BLOCK }, { "br", E_BLOCK }, { "canvas", E_DROP },
	{ "caption", E_BLOCK }, { "center", E_BLOCK }, { "datalist", E_DROP },
	{ "dd", E_BLOCK }, { "details", E_BLOCK }, { "dialog", E_BLOCK },
	{ "dir", E_BLOCK }, { "div", E_BLOCK }, { "dl", E_BLOCK },
	{ "dt", E_BLOCK }, { "embed", E_DROP }, { "fieldset", E_BLOCK },
	{ "figcaption", E_BLOCK }, { "figure", E_BLOCK },
	{ "footer", E_BLOCK }, { "form", E_BLOCK }, { "frame", E_DROP },
	{ "frameset", E_DROP }, { "h1", E_BLOCK | E_HEADING },
	{ "h2", E_BLOCK | E_HEADING }, { "h3", E_BLOCK | E_HEADING },
	{ "h4", E_BLOCK | E_HEADING }, { "h5", E_BLOCK | E_HEADING },
	{ "h6", E_BLOCK | E_HEADING }, { "head", E_DROP },
	{ "header", E_BLOCK }, { "hgroup", E_BLOCK }, { "hr", E_BLOCK },
	{ "html", E_BLOCK }, { "iframe", E_DROP }, { "img", E_DROP },
	{ "legend", E_BLOCK }, { "li", E_BLOCK }, { "link", E_DROP },
	{ "main", E_BLOCK }, { "math", E_SKIP }, { "menu", E_BLOCK },
	{ "meta", E_DROP }, { "nav", E_BLOCK }, { "noembed", E_DROP },
	{ "noframes", E_DROP }, { "noscript", E_DROP }, { "object", E_DROP },
	{ "ol", E_BLOCK }, { "p", E_BLOCK }, { "picture", E_DROP },
	{ "pre", E_BLOCK }, { "script", E_SKIP }, { "search", E_BLOCK },
	{ "section", E_BLOCK }, { "select", E_DROP }, { "style", E_SKIP },
	{ "summary", E_BLOCK }, { "svg", E_SKIP }, { "table", E_BLOCK },
	{ "tbody", E_BLOCK }, { "td", E_BLOCK }, { "template", E_SKIP },
	{ "tfoot", E_BLOCK }, { "th", E_BLOCK }, { "thead", E_BLOCK },
	{ "title", E_DROP }, { "tr", E_BLOCK }, { "ul", E_BLOCK },
	{ "video", E_DROP },
};

/* elems' entries of each first letter a..z: [first[c], first[c + 1]). */
static unsigned char first[27];
static pthread_once_t first_once = PTHREAD_ONCE_INIT;

static void
first_init(void)
{
	size_t i, n = sizeof(elems) / sizeof(elems[0]);
	int c;

	for (c = 0, i = 0; c < 27; c++) {
		while (i < n && elems[i].name[0] - 'a' < c)
			i++;
		first[c] = (unsigned char)i;
	}
}

/* Asked three times an element: looked up among the few entries of its
 * first letter, compared inline (a library call per comparison cost more
 * than a binary search of the whole table). */
unsigned
extract_elem_flags(const char *elem)
{
	const unsigned char *name = (const unsigned char *)elem, *a, *b;
	size_t i, end;

	if (name == NULL || name[0] < 'a' || name[0] > 'z')
		return 0;
	pthread_once(&first_once, first_init);
	end = first[name[0] - 'a' + 1];
	for (i = first[name[0] - 'a']; i < end; i++) {
		a = name + 1;
		b = (const unsigned char *)elems[i].name + 1;
		while (*a != '\0' && *a == *b) {
			a++;
			b++;
		}
		if (*a == *b)
			return elems[i].flags;
	}
	return 0;
}
