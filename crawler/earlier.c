#include "crawler/earlier.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "archive/cdxj.h"
#include "archive/cdxjread.h"
#include "crawler/fprow.h"
#include "crawler/settings.h"
#include "storage/store_resume.h"
#include "util/esc.h"
#include "util/strmap.h"

/* Captures read from CDXJ files at most: a week's crawl of a large
 * university is a few million. */
#define CDX_MAX ((size_t)1 << 26)

/* An earlier crawl's database. */
struct earlier_db {
	const char *path;  /* as given (the settings' string) */
	struct store *st;  /* opened read-only */
	struct dedup *dd;  /* its pages' fingerprints; NULL when it was
	                      judged with other settings */
};

/* One capture of a CDXJ file, kept under its payload digest. */
struct cdx_capture {
	char *url;                /* the captured URL */
	char date[WARC_DATE_LEN]; /* its WARC-Date */
	char *file;               /* its WARC file, or NULL */
	int64_t offset;           /* of its record there, -1 unknown */
	const char *crawl;        /* the CDXJ file as given */
};

struct earlier {
	struct earlier_db *db;    /* the databases, in the order given */
	size_t ndb;               /* their number */
	struct strmap *cdx;       /* "sha1:..." -> struct cdx_capture, NULL
	                             before the first */
	size_t ncdx;              /* captures kept */
};

static void
cdx_free(struct cdx_capture *k)
{
	if (k == NULL)
		return;
	free(k->url);
	free(k->file);
	free(k);
}

/* cdx_free for strmap_free. */
static void
cdx_free_value(void *k)
{
	cdx_free(k);
}

/* Keep cap under its digest, unless one is kept already (the first
 * capture stays, as the first response does in a crawl). 0, or -1. */
static int
cdx_keep(struct earlier *e, const struct cdxjread_capture *cap,
    const char *crawl)
{
	struct cdx_capture *k;
	int known;

	if (e->cdx == NULL && (e->cdx = strmap_new()) == NULL)
		return -1;
	if (strmap_get(e->cdx, cap->digest) != NULL)
		return 0;
	if ((k = calloc(1, sizeof(*k))) == NULL)
		return -1;
	/* "-" is how CDXJ says a value is not known. */
	known = cap->filename != NULL && strcmp(cap->filename, "-") != 0;
	k->url = strdup(cap->url);
	k->file = known ? strdup(cap->filename) : NULL;
	memcpy(k->date, cap->date, sizeof(k->date));
	k->offset = cap->offset;
	k->crawl = crawl;
	if (k->url == NULL || (known && k->file == NULL) ||
	    strmap_put(e->cdx, cap->digest, k) != 0) {
		cdx_free(k);
		return -1;
	}
	e->ncdx++;
	return 0;
}

/* Read the CDXJ file path whole. 0, or an exit status with c->err. */
static int
load_cdx(struct crawl *c, struct earlier *e, const char *path)
{
	struct cdxjread_capture cap;
	char *line, why[160], shown[512];
	size_t len, n = 0;
	FILE *f;
	int rc = 2, got;

	esc_str(path, shown, sizeof(shown));
	if ((line = malloc(CDXJ_MAX_LINE + 2)) == NULL) {
		snprintf(c->err, c->errsz, "out of memory");
		return 1;
	}
	if ((f = fopen(path, "r")) == NULL) {
		snprintf(c->err, c->errsz, "--dedup-against-cdx %s: cannot "
		    "open it", shown);
		goto out;
	}
	while (fgets(line, CDXJ_MAX_LINE + 2, f) != NULL) {
		n++;
		len = strlen(line);
		if (len > 0 && line[len - 1] == '\n')
			line[--len] = '\0';
		else if (!feof(f)) {
			snprintf(c->err, c->errsz, "--dedup-against-cdx %s "
			    "line %zu: longer than %d bytes", shown, n,
			    CDXJ_MAX_LINE);
			goto out;
		}
		if ((got = cdxjread_line(line, &cap, why, sizeof(why))) < 0) {
			snprintf(c->err, c->errsz, "--dedup-against-cdx %s "
			    "line %zu: not a CDXJ line: %s", shown, n, why);
			goto out;
		}
		/* A revisit's digest is its original's: the original's
		 * capture is the one to point at. */
		if (got == 0 || cap.digest[0] == '\0' || (cap.mime != NULL &&
		    strcmp(cap.mime, "warc/revisit") == 0))
			continue;
		if (e->ncdx == CDX_MAX) {
			snprintf(c->err, c->errsz, "--dedup-against-cdx: more "
			    "than %zu captures", CDX_MAX);
			goto out;
		}
		if (cdx_keep(e, &cap, path) != 0) {
			snprintf(c->err, c->errsz, "out of memory");
			rc = 1;
			goto out;
		}
	}
	if (ferror(f)) {
		snprintf(c->err, c->errsz, "--dedup-against-cdx %s: cannot "
		    "read it", shown);
		goto out;
	}
	rc = 0;
out:
	if (f != NULL)
		fclose(f);
	free(line);
	return rc;
}

/* What load_one needs. */
struct loader {
	const struct config *cfg; /* the crawl's: the methods indexed */
	struct earlier_db *db;    /* whose indexes are filled */
};

/* An earlier page into the indexes of its crawl, as a resume loads its
 * own: exact copies were never indexed. */
static int
load_one(const struct store_fingerprints *f, void *arg)
{
	struct loader *l = arg;
	struct dedup_fp fp;
	size_t nm;

	fprow_get(l->cfg, f, &fp);
	if (dedup_check(l->db->dd, &fp, NULL, 0, &nm) == DEDUP_EXACT)
		return 0;
	return dedup_add(l->db->dd, &fp, f->id) != 0 ? -1 : 0;
}

/* Whether paths a and b are one file. */
static int
same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return stat(a, &sa) == 0 && stat(b, &sb) == 0 &&
	    sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* Open and load the earlier database db->path. 0, or an exit status. */
static int
open_db(struct crawl *c, struct earlier_db *db)
{
	const struct config *cfg = c->cfg;
	struct dedup_config dc;
	struct loader l = { cfg, db };
	char msg[512], shown[512], what[256];
	int rc;

	esc_str(db->path, shown, sizeof(shown));
	if (store_is_server(db->path)) {
		snprintf(c->err, c->errsz, "--dedup-against %s: only an "
		    "SQLite database can be an earlier crawl, not a "
		    "PostgreSQL one", shown);
		return 2;
	}
	if (same_file(db->path, cfg->db)) {
		snprintf(c->err, c->errsz, "--dedup-against %s: that is this "
		    "crawl's own database (-d)", shown);
		return 2;
	}
	if ((db->st = store_open(db->path, STORE_READONLY, msg,
	         sizeof(msg))) == NULL) {
		snprintf(c->err, c->errsz, "--dedup-against: %s", msg);
		return 2;
	}
	if ((rc = settings_alike(c, db->st, what, sizeof(what))) < 0)
		goto dberr;
	/* Said even with --quiet: the relation is not what was asked. */
	if (rc == 1) {
		fprintf(stderr, "nearcrawl: --dedup-against %s was judged "
		    "otherwise (%s): only its archived payloads count, not "
		    "its pages' text\n", shown, what);
		return 0;
	}
	config_dedup(cfg, &dc);
	if ((db->dd = dedup_new(&dc)) == NULL) {
		snprintf(c->err, c->errsz, "out of memory");
		return 1;
	}
	/* One snapshot, as a resume reads its own. */
	if (store_begin(db->st) != 0 ||
	    store_load_fingerprints_in(db->st, &store_span_all, load_one,
	        &l) != 0 ||
	    fprow_load_apart(db->st, &store_span_all, cfg, db->dd) != 0 ||
	    store_commit(db->st) != 0)
		goto dberr;
	if (!cfg->quiet)
		fprintf(stderr, "nearcrawl: --dedup-against %s: %zu "
		    "fingerprints loaded\n", shown, dedup_count(db->dd));
	return 0;
dberr:
	snprintf(c->err, c->errsz, "--dedup-against %s: %s", shown,
	    store_errmsg(db->st));
	return 1;
}

static void
free_earlier(struct earlier *e)
{
	size_t i;

	if (e == NULL)
		return;
	for (i = 0; i < e->ndb; i++) {
		store_close(e->db[i].st);
		dedup_free(e->db[i].dd);
	}
	free(e->db);
	strmap_free(e->cdx, cdx_free_value);
	free(e);
}

int
earlier_open(struct crawl *c)
{
	const struct config *cfg = c->cfg;
	struct earlier *e;
	size_t i;
	int rc = 1;

	if (cfg->ndedup_against == 0 && cfg->ndedup_against_cdx == 0)
		return 0;
	if (cfg->ndedup_against_cdx > 0 && strcmp(cfg->warc_dir, "none") == 0) {
		snprintf(c->err, c->errsz, "--dedup-against-cdx needs --warc: "
		    "a CDXJ index tells which payloads were archived, which "
		    "only this crawl's own archive can refer to");
		return 2;
	}
	if ((e = calloc(1, sizeof(*e))) == NULL ||
	    (cfg->ndedup_against > 0 &&
	    (e->db = calloc(cfg->ndedup_against, sizeof(*e->db))) == NULL)) {
		snprintf(c->err, c->errsz, "out of memory");
		goto fail;
	}
	for (i = 0; i < cfg->ndedup_against; i++) {
		e->db[e->ndb].path = cfg->dedup_against[i];
		rc = open_db(c, &e->db[e->ndb]);
		e->ndb++;
		if (rc != 0)
			goto fail;
	}
	for (i = 0; i < cfg->ndedup_against_cdx; i++)
		if ((rc = load_cdx(c, e, cfg->dedup_against_cdx[i])) != 0)
			goto fail;
	if (cfg->ndedup_against_cdx > 0 && !cfg->quiet)
		fprintf(stderr, "nearcrawl: --dedup-against-cdx: %zu archived "
		    "payloads read\n", e->ncdx);
	c->earlier = e;
	return 0;
fail:
	free_earlier(e);
	return rc;
}

void
earlier_close(struct crawl *c)
{
	free_earlier(c->earlier);
	c->earlier = NULL;
}

void
earlier_ref_free(struct earlier_ref *r)
{
	store_payload_free(&r->p);
	r->crawl = NULL;
}

int
earlier_payload(struct crawl *c, const char *digest, struct earlier_ref *r)
{
	struct earlier *e = c->earlier;
	struct cdx_capture *k;
	size_t i;
	int found;

	memset(r, 0, sizeof(*r));
	r->p.offset = -1;
	if (e == NULL)
		return 0;
	for (i = 0; i < e->ndb; i++) {
		if ((found = store_payload_where(e->db[i].st, digest,
		         &r->p)) < 0) {
			crawl_fail_because(c, e->db[i].path,
			    store_errmsg(e->db[i].st));
			return -1;
		}
		if (found) {
			r->crawl = e->db[i].path;
			return 1;
		}
	}
	if (e->cdx == NULL || (k = strmap_get(e->cdx, digest)) == NULL)
		return 0;
	r->p.url = strdup(k->url);
	r->p.date = strdup(k->date);
	r->p.file = k->file != NULL ? strdup(k->file) : NULL;
	r->p.offset = k->offset;
	r->crawl = k->crawl;
	if (r->p.url == NULL || r->p.date == NULL ||
	    (k->file != NULL && r->p.file == NULL)) {
		earlier_ref_free(r);
		crawl_fail_because(c, "--dedup-against-cdx", "out of memory");
		return -1;
	}
	return 1;
}

/* dedup_set_fn over an earlier crawl's database. */
static int
earlier_set(void *ctx, int64_t id, struct shingles_ref *q)
{
	struct earlier_db *db = ctx;
	void *blob;
	size_t len;

	memset(q, 0, sizeof(*q));
	if (store_shingles_get(db->st, id, &blob, &len) != 0)
		return -1;
	/* A malformed set confirms nothing, as a missing one. */
	if (blob != NULL)
		(void)shingles_ref_decode(blob, len, q);
	free(blob);
	return 0;
}

/* r names page id of db: its URL and date. 0, or -1. */
static int
name_page(struct crawl *c, struct earlier_db *db, int64_t id,
    struct earlier_rel *r)
{
	double at;
	int found;

	if ((found = store_page_url(db->st, id, &r->url, &at)) < 0) {
		crawl_fail_because(c, db->path, store_errmsg(db->st));
		return -1;
	}
	if (found)
		warc_date_of(at, r->date);
	r->e.crawl = db->path;
	r->e.url = r->url;
	r->e.date = found ? r->date : NULL;
	return 0;
}

int
earlier_judge(struct crawl *c, const struct job *j, struct earlier_rel *r)
{
	struct earlier *e = c->earlier;
	struct dedup_match m[DEDUP_MAX_MATCHES];
	struct dedup_veto veto;
	struct earlier_ref ref;
	struct earlier_db *near_db = NULL;
	struct dedup_match near = { 0, DEDUP_MD5, 0 };
	enum dedup_verdict v;
	size_t i, k, nm;
	int err = 0, found;

	memset(r, 0, sizeof(*r));
	if (e == NULL)
		return 0;
	r->judged = 1;
	r->e.relation = "new";
	for (i = 0; i < e->ndb; i++) {
		if (e->db[i].dd == NULL)
			continue;
		/* No template: an earlier site's is not this crawl's, and
		 * without one a near verdict needs more evidence, not
		 * less. The page's own set is left as it is. */
		v = digest_judge(e->db[i].dd, NULL, j->host, &j->work->dg, 0,
		    earlier_set, &e->db[i], m, DEDUP_MAX_MATCHES, &nm, &veto,
		    &err);
		if (err) {
			crawl_fail_because(c, e->db[i].path,
			    store_errmsg(e->db[i].st));
			return -1;
		}
		if (v == DEDUP_EXACT && nm > 0) {
			r->e.relation = "same";
			r->e.method = "md5";
			r->e.percent = 100;
			return name_page(c, &e->db[i], m[0].original_id, r);
		}
		if (v != DEDUP_NEAR || near_db != NULL || nm == 0)
			continue;
		near_db = &e->db[i];
		near = m[0];
		for (k = 0; k < nm; k++)
			if (m[k].original_id == veto.near_id) {
				near = m[k];
				break;
			}
	}
	if (j->warc_digest[0] != '\0') {
		if ((found = earlier_payload(c, j->warc_digest, &ref)) < 0)
			return -1;
		if (found) {
			r->e.relation = "same";
			r->e.method = "payload";
			r->e.percent = 100;
			r->e.crawl = ref.crawl;
			r->url = ref.p.url;
			ref.p.url = NULL;
			snprintf(r->date, sizeof(r->date), "%s", ref.p.date);
			r->e.url = r->url;
			r->e.date = r->date;
			earlier_ref_free(&ref);
			return 0;
		}
	}
	if (near_db == NULL)
		return 0;
	r->e.relation = "near";
	r->e.method = dedup_method_name(near.method);
	r->e.percent = near.percent;
	return name_page(c, near_db, near.original_id, r);
}

int
earlier_record(struct crawl *c, int64_t id, struct earlier_rel *r)
{
	int rc = 0;

	if (r->judged && store_earlier_add(c->st, id, &r->e) != 0)
		rc = -1;
	earlier_rel_free(r);
	return rc;
}

void
earlier_rel_free(struct earlier_rel *r)
{
	free(r->url);
	memset(r, 0, sizeof(*r));
}
