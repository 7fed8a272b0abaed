/*
 * check_warc: the archive of a crawl with --warc, for `nearcrawl check`
 * (cmd/check_int.h). Each WARC file is read record by record; its
 * response and revisit records are kept by offset (with their length and
 * CDXJ key), and every capture's URL by a 64-bit hash, so memory grows
 * with the records, not their bytes. Then each file's CDXJ index must
 * name exactly those records, and every page of the crawl that got a
 * response after the first file was opened must have a record (a near or
 * exact page its metadata record too).
 *
 * A record cut short at the very end of a file is what a crawl killed
 * while writing leaves; readers skip it, and its page was fetched again
 * (its row was never committed): it is noted, not counted. Damage
 * anywhere else is a problem.
 */
#include "cmd/check_int.h"

#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "archive/cdxj.h"
#include "archive/warcread.h"
#include "storage/store.h"
#include "util/seen.h"

/* A response or revisit record of the file being checked. */
struct rec {
	uint64_t offset;  /* where it starts */
	uint64_t length;  /* its bytes in the file */
	uint64_t key;     /* seen_hash of its CDXJ key */
	int indexed;      /* a CDXJ line names it */
};

/* A growing array of T. */
#define ARRAY(T) struct { T *v; size_t n, cap; }

struct warcck {
	struct check *ck;
	const char *dir;                 /* the directory read */
	ARRAY(struct rec) recs;          /* the file being checked */
	ARRAY(uint64_t) captured;        /* URLs with a response or revisit */
	ARRAY(uint64_t) described;       /* URLs with a metadata record */
	double start;                    /* the first warcinfo's date */
	int nomem;                       /* an array could not grow */
};

/*
 * v (an array of n elements of sz bytes, room for *cap) with room for one
 * more: v itself, or a larger copy (*cap updated); NULL when out of
 * memory, v then unchanged.
 */
static void *
grow(void *v, size_t *cap, size_t n, size_t sz)
{
	size_t nc;
	void *nv;

	if (n < *cap)
		return v;
	nc = *cap > 0 ? *cap * 2 : 256;
	if ((nv = realloc(v, nc * sz)) == NULL)
		return NULL;
	*cap = nc;
	return nv;
}

static void
add_hash(struct warcck *w, int meta, const char *url)
{
	uint64_t h = seen_hash(url, strlen(url)), *v;

	if (meta) {
		if ((v = grow(w->described.v, &w->described.cap,
		    w->described.n, sizeof(*v))) == NULL) {
			w->nomem = 1;
			return;
		}
		w->described.v = v;
		w->described.v[w->described.n++] = h;
	} else {
		if ((v = grow(w->captured.v, &w->captured.cap, w->captured.n,
		    sizeof(*v))) == NULL) {
			w->nomem = 1;
			return;
		}
		w->captured.v = v;
		w->captured.v[w->captured.n++] = h;
	}
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int
has_hash(const uint64_t *v, size_t n, const char *url)
{
	uint64_t h = seen_hash(url, strlen(url));

	return bsearch(&h, v, n, sizeof(*v), cmp_u64) != NULL;
}

/* The hash of url's CDXJ key: its SURT, or the URI itself when it has
 * none (dns:, urn:), as cdxj_entry_line makes it. */
static uint64_t
key_of(const char *url)
{
	char key[CDXJ_MAX_LINE];

	if (cdxj_surt(url, key, sizeof(key)) != 0)
		return seen_hash(url, strlen(url));
	return seen_hash(key, strlen(key));
}

/* A WARC-Date ("2025-01-31T12:00:00Z", fractions allowed) as Unix
 * seconds, whole; 0 when it is not one. */
static double
warc_date(const char *s)
{
	struct tm tm;
	const char *end;

	memset(&tm, 0, sizeof(tm));
	if (s == NULL || (end = strptime(s, "%Y-%m-%dT%H:%M:%S", &tm)) == NULL)
		return 0;
	return (double)timegm(&tm);
}

/*
 * Keep what record h says: a capture, a description, the start. 0, or
 * -1 with err when the record is damaged.
 */
static int
note_record(struct warcck *w, struct warc_reader *r,
    const struct warc_head *h, char *err, size_t errsz)
{
	struct rec *v;
	uint64_t end;
	double d;

	if (strcmp(h->type, "warcinfo") == 0) {
		d = warc_date(h->date);
		if (d > 0 && (w->start == 0 || d < w->start))
			w->start = d;
		return 0;
	}
	if (h->target_uri == NULL)
		return 0;
	if (strcmp(h->type, "metadata") == 0) {
		add_hash(w, 1, h->target_uri);
		return 0;
	}
	if (strcmp(h->type, "response") != 0 &&
	    strcmp(h->type, "revisit") != 0)
		return 0;
	if (warc_reader_finish(r, &end, err, errsz) != 0)
		return -1;
	add_hash(w, 0, h->target_uri);
	if ((v = grow(w->recs.v, &w->recs.cap, w->recs.n, sizeof(*v))) ==
	    NULL) {
		w->nomem = 1;
		return 0;
	}
	w->recs.v = v;
	v[w->recs.n].offset = h->offset;
	v[w->recs.n].length = end - h->offset;
	v[w->recs.n].key = key_of(h->target_uri);
	v[w->recs.n].indexed = 0;
	w->recs.n++;
	w->ck->warc_records++;
	return 0;
}

/* Every record of the WARC file name in w->dir. */
static void
read_warc(struct warcck *w, const char *name)
{
	struct warc_reader *r;
	struct warc_head h;
	char path[PATH_MAX], err[512], bad[600];
	uint64_t bad_at = 0;
	int rc, damaged = 0;

	snprintf(path, sizeof(path), "%s/%s", w->dir, name);
	if ((r = warc_reader_open(path, err, sizeof(err))) == NULL) {
		check_problem(w->ck, CHECK_WARC, "%s: %s", name, err);
		return;
	}
	while ((rc = warc_reader_next(r, &h, err, sizeof(err))) != 0 &&
	    !w->nomem) {
		/* Damage before another record is no cut-short tail. */
		if (damaged)
			check_problem(w->ck, CHECK_WARC, "%s: damaged record "
			    "at offset %llu: %s", name,
			    (unsigned long long)bad_at, bad);
		damaged = 0;
		if (rc == -2) {
			check_problem(w->ck, CHECK_WARC, "%s: cannot be read: "
			    "%s", name, err);
			break;
		}
		if (rc == 1 && (h.type == NULL ||
		    note_record(w, r, &h, err, sizeof(err)) == 0))
			continue;
		damaged = 1;
		bad_at = h.offset;
		snprintf(bad, sizeof(bad), "%s", err);
	}
	if (damaged)
		check_note(w->ck, "warc: %s ends in a record cut short at "
		    "offset %llu (a crawl killed while writing it; readers "
		    "skip it)", name, (unsigned long long)bad_at);
	warc_reader_close(r);
}

/* The value of "key": "..." in a CDXJ line's JSON into out, unescaped
 * only as far as its digits and file names need (none). 0, or -1. */
static int
json_value(const char *json, const char *key, char *out, size_t outsz)
{
	char pat[32];
	const char *p, *e;

	snprintf(pat, sizeof(pat), "\"%s\": \"", key);
	if ((p = strstr(json, pat)) == NULL)
		return -1;
	p += strlen(pat);
	if ((e = strchr(p, '"')) == NULL || (size_t)(e - p) >= outsz)
		return -1;
	memcpy(out, p, (size_t)(e - p));
	out[e - p] = '\0';
	return 0;
}

static int
cmp_rec_offset(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a;
	uint64_t y = ((const struct rec *)b)->offset;

	return x < y ? -1 : x > y;
}

/* One line (number n) of name's index against its records. */
static void
check_line(struct warcck *w, const char *name, const char *cdxj, long n,
    char *line)
{
	char off[32], len[32], file[NAME_MAX + 1], *sp, *json, *end;
	unsigned long long o, l;
	struct rec *r;

	if ((sp = strchr(line, ' ')) == NULL ||
	    (json = strchr(sp + 1, ' ')) == NULL || json[1] != '{' ||
	    json_value(json, "offset", off, sizeof(off)) != 0 ||
	    json_value(json, "length", len, sizeof(len)) != 0 ||
	    json_value(json, "filename", file, sizeof(file)) != 0) {
		check_problem(w->ck, CHECK_CDXJ, "%s: line %ld is not a CDXJ "
		    "line", cdxj, n);
		return;
	}
	*sp = '\0';
	o = strtoull(off, &end, 10);
	l = strtoull(len, &end, 10);
	if (strcmp(file, name) != 0) {
		check_problem(w->ck, CHECK_CDXJ, "%s: line %ld names another "
		    "file, %s", cdxj, n, file);
		return;
	}
	r = bsearch(&o, w->recs.v, w->recs.n, sizeof(*r), cmp_rec_offset);
	if (r == NULL)
		check_problem(w->ck, CHECK_CDXJ, "%s: line %ld: no response or "
		    "revisit record starts at offset %llu of %s", cdxj, n, o,
		    name);
	else if (r->length != l)
		check_problem(w->ck, CHECK_CDXJ, "%s: line %ld: the record at "
		    "offset %llu is %llu bytes, not %llu", cdxj, n, o,
		    (unsigned long long)r->length, l);
	else if (r->key != seen_hash(line, strlen(line)))
		check_problem(w->ck, CHECK_CDXJ, "%s: line %ld: the record at "
		    "offset %llu is of another URL than %s", cdxj, n, o, line);
	else if (r->indexed)
		check_problem(w->ck, CHECK_CDXJ, "%s: line %ld names the "
		    "record at offset %llu again", cdxj, n, o);
	else
		r->indexed = 1;
}

/* name's CDXJ index (the same name, .cdxj for .warc.gz) against the
 * records just read from it. */
static void
read_cdxj(struct warcck *w, const char *name)
{
	char base[NAME_MAX + 1], cdxj[NAME_MAX + 16], path[PATH_MAX];
	char *line = NULL, *prev = NULL;
	size_t cap = 0, i, blen = strlen(name);
	struct stat st;
	ssize_t got;
	long n = 0;
	int unsorted = 0;
	FILE *f;

	if (blen > 8 && strcmp(name + blen - 8, ".warc.gz") == 0)
		blen -= 8;
	else if (blen > 5 && strcmp(name + blen - 5, ".warc") == 0)
		blen -= 5;
	snprintf(base, sizeof(base), "%.*s", (int)blen, name);
	snprintf(cdxj, sizeof(cdxj), "%s.cdxj", base);
	snprintf(path, sizeof(path), "%s/%s", w->dir, cdxj);
	if ((f = fopen(path, "r")) == NULL) {
		snprintf(path, sizeof(path), "%s/%s.part", w->dir, cdxj);
		check_problem(w->ck, CHECK_CDXJ, "%s has no index %s%s", name,
		    cdxj, stat(path, &st) == 0 ? " (only its .cdxj.part: the "
		    "crawl writing it was killed; the next crawl with --warc "
		    "into the directory makes it)" : "");
		return;
	}
	while ((got = getline(&line, &cap, f)) > 0) {
		n++;
		if (line[got - 1] == '\n')
			line[--got] = '\0';
		if (prev != NULL && strcmp(prev, line) > 0 && !unsorted) {
			check_problem(w->ck, CHECK_CDXJ, "%s: line %ld is out "
			    "of order (an index is sorted)", cdxj, n);
			unsorted = 1;
		}
		free(prev);
		if ((prev = strdup(line)) == NULL) {
			w->nomem = 1;
			break;
		}
		check_line(w, name, cdxj, n, line);
	}
	if (ferror(f))
		check_problem(w->ck, CHECK_CDXJ, "%s: cannot be read", cdxj);
	fclose(f);
	free(prev);
	free(line);
	for (i = 0; i < w->recs.n; i++)
		if (!w->recs.v[i].indexed)
			check_problem(w->ck, CHECK_CDXJ, "%s: the record at "
			    "offset %llu has no line in %s", name,
			    (unsigned long long)w->recs.v[i].offset, cdxj);
}

static int
page_archived(const struct store_check_fetch *p, void *arg)
{
	struct warcck *w = arg;
	const char *v = store_verdict_name(p->verdict);

	/* No response, no record; nor before the archive began. */
	if (p->status <= 0 || p->fetched_at < w->start)
		return 0;
	if (!has_hash(w->captured.v, w->captured.n, p->url))
		check_problem(w->ck, CHECK_WARC, "page %s (seq %lld, HTTP "
		    "%lld) has no response or revisit record", p->url,
		    (long long)p->seq, (long long)p->status);
	else if ((p->verdict == STORE_VERDICT_NEAR ||
	    p->verdict == STORE_VERDICT_EXACT) &&
	    !has_hash(w->described.v, w->described.n, p->url))
		check_problem(w->ck, CHECK_WARC, "%s page %s (seq %lld) has no "
		    "metadata record naming its original", v, p->url,
		    (long long)p->seq);
	return 0;
}

static int
cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Whether name is a WARC file of prefix's: PREFIX-...warc[.gz]. */
static int
is_warc(const char *name, const char *prefix)
{
	size_t n = strlen(name), p = strlen(prefix);

	return strncmp(name, prefix, p) == 0 && name[p] == '-' &&
	    ((n > 8 && strcmp(name + n - 8, ".warc.gz") == 0) ||
	    (n > 5 && strcmp(name + n - 5, ".warc") == 0));
}

/* The WARC file names of prefix in w->dir, sorted, into *names. */
static int
list_files(struct warcck *w, DIR *d, const char *prefix, char ***names,
    size_t *n)
{
	ARRAY(char *) l = { NULL, 0, 0 };
	struct dirent *e;
	char *s;

	char **v;

	while ((e = readdir(d)) != NULL) {
		if (!is_warc(e->d_name, prefix))
			continue;
		if ((v = grow(l.v, &l.cap, l.n, sizeof(*v))) == NULL ||
		    (s = strdup(e->d_name)) == NULL) {
			if (v != NULL)
				l.v = v;
			while (l.n > 0)
				free(l.v[--l.n]);
			free(l.v);
			return -1;
		}
		l.v = v;
		l.v[l.n++] = s;
	}
	if (l.n > 0)
		qsort(l.v, l.n, sizeof(*l.v), cmp_name);
	*names = l.v;
	*n = l.n;
	return 0;
}

/*
 * Open the archive's directory: as given, or, when the crawl's setting
 * is relative and not there from here, beside the database.
 */
static DIR *
open_dir(struct check *ck, const char *dir, char *path, size_t pathsz)
{
	const char *slash;
	DIR *d;

	snprintf(path, pathsz, "%s", dir);
	if ((d = opendir(path)) != NULL || dir[0] == '/' ||
	    store_is_server(ck->db) || (slash = strrchr(ck->db, '/')) == NULL)
		return d;
	snprintf(path, pathsz, "%.*s/%s", (int)(slash - ck->db), ck->db, dir);
	return opendir(path);
}

int
check_warc(struct check *ck, const char *given, char *err, size_t errsz)
{
	struct warcck w;
	char *dir = NULL, *prefix = NULL, path[PATH_MAX], **names = NULL;
	size_t i, n = 0;
	int e1 = 0, e2 = 0, rc = -1;
	DIR *d;

	memset(&w, 0, sizeof(w));
	w.ck = ck;
	if (given != NULL && strcmp(given, "none") == 0)
		return 0;
	if ((dir = store_check_meta(ck->c, "warc_dir", &e1)) == NULL && e1 == 0
	    && given == NULL)
		return 0;
	prefix = store_check_meta(ck->c, "warc_prefix", &e2);
	if (e1 != 0 || e2 != 0) {
		if (e1 == 2 || e2 == 2)
			snprintf(err, errsz, "out of memory");
		else
			store_conn_fail(ck->c, err, errsz, 1, 1);
		goto out;
	}
	rc = 0;
	if (given == NULL && strcmp(dir, "none") == 0)
		goto out;
	if (ck->busy) {
		check_note(ck, "warc: a crawl is at work and writing its "
		    "files: the archive is not checked");
		goto out;
	}
	if ((d = open_dir(ck, given != NULL ? given : dir, path,
	    sizeof(path))) == NULL) {
		check_note(ck, "warc: the crawl's WARC files are not in %s "
		    "(%s) from here; --warc DIR checks them where they are",
		    given != NULL ? given : dir, strerror(errno));
		goto out;
	}
	w.dir = path;
	rc = list_files(&w, d, prefix != NULL ? prefix : "nearcrawl", &names,
	    &n);
	closedir(d);
	if (rc != 0)
		goto nomem;
	ck->warc_checked = 1;
	for (i = 0; i < n && !w.nomem; i++) {
		w.recs.n = 0;
		read_warc(&w, names[i]);
		ck->warc_files++;
		if (!w.nomem)
			read_cdxj(&w, names[i]);
	}
	if (w.nomem)
		goto nomem;
	if (w.captured.n > 0)
		qsort(w.captured.v, w.captured.n, sizeof(uint64_t), cmp_u64);
	if (w.described.n > 0)
		qsort(w.described.v, w.described.n, sizeof(uint64_t), cmp_u64);
	if ((rc = store_check_fetches(ck->c, page_archived, &w)) != 0) {
		store_conn_fail(ck->c, err, errsz, 1, 1);
		rc = -1;
	}
	goto out;
nomem:
	snprintf(err, errsz, "out of memory");
	rc = -1;
out:
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(w.recs.v);
	free(w.captured.v);
	free(w.described.v);
	free(dir);
	free(prefix);
	return rc;
}
