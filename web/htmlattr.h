/*
 * htmlattr: the one attribute reader of the HTML walks (extract.c and
 * the content*.c files) over libxml2's tree. Header only.
 */
#ifndef NC_HTMLATTR_H
#define NC_HTMLATTR_H

#include <stddef.h>

#include <libxml/tree.h>

/* The value of attribute name on n (any case), "" when it has no value,
 * NULL when n has no such attribute. Points into n's tree. */
static inline const char *
htmlattr_get(const xmlNode *n, const char *name)
{
	const xmlAttr *a;

	for (a = n->properties; a != NULL; a = a->next) {
		if (a->name == NULL ||
		    xmlStrcasecmp(a->name, (const xmlChar *)name) != 0)
			continue;
		if (a->children != NULL && a->children->content != NULL)
			return (const char *)a->children->content;
		return "";
	}
	return NULL;
}

#endif
