#include "crawler/settings.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "util/esc.h"

/* Compare a stored setting with ours; store it when new. */
int
settings_match(struct crawl *c, const char *key, const char *value, const char *opt)
{
	char *old;
	int err = 0, rc = 0;

	old = store_meta_get(c->st, key, &err);
	if (err) {
		snprintf(c->err, c->errsz, "%s: %s", c->cfg->db,
		    store_errmsg(c->st));
		return 1;
	}
	if (old == NULL) {
		if (store_meta_set(c->st, key, value) != 0) {
			snprintf(c->err, c->errsz, "%s: %s", c->cfg->db,
			    store_errmsg(c->st));
			rc = 1;
		}
	} else if (strcmp(old, value) != 0 && c->cfg->force_settings) {
		char msg[1024];

		/* The user accepts verdicts made under two settings. The
		 * old value is the database's: escaped like any other. */
		snprintf(msg, sizeof(msg),
		    "%s: %s changes from %s to %s "
		    "(--force-settings)",
		    c->cfg->db, opt, old, value);
		fputs("nearcrawl: ", stderr);
		esc_fputs(msg, stderr);
		putc('\n', stderr);
		if (store_meta_set(c->st, key, value) != 0) {
			snprintf(c->err, c->errsz, "%s: %s", c->cfg->db,
			    store_errmsg(c->st));
			rc = 1;
		}
	} else if (strcmp(old, value) != 0) {
		snprintf(c->err, c->errsz,
		    "%s was crawled with %s %s; resuming with %s would mix "
		    "verdicts (use a new database, or --force-settings)",
		    c->cfg->db, opt, old, value);
		rc = 2;
	}
	free(old);
	return rc;
}

/*
 * Record a setting that decides which links are queued from now on but not
 * how a page is judged (--strip-params, --max-query-variants). A resumed
 * crawl may change it: URLs queued before keep their form, and a page
 * fetched under two URLs is still an exact duplicate, so nothing is mixed
 * up. The change is noted, and the database says what the last run used.
 */
static int
note_setting(
    struct crawl *c, const char *key, const char *value, const char *opt)
{
	char *old;
	int err = 0, rc = 0;

	old = store_meta_get(c->st, key, &err);
	if (!err && old != NULL && strcmp(old, value) != 0 && !c->cfg->quiet)
		fprintf(stderr,
		    "nearcrawl: %s: %s changes from %s to %s; "
		    "URLs queued before keep their form\n",
		    c->cfg->db, opt, old, value);
	if (err ||
	    ((old == NULL || strcmp(old, value) != 0) &&
	        store_meta_set(c->st, key, value) != 0)) {
		snprintf(c->err, c->errsz, "%s: %s", c->cfg->db,
		    store_errmsg(c->st));
		rc = 1;
	}
	free(old);
	return rc;
}

static int
int_setting(struct crawl *c, const char *key, int value, const char *opt)
{
	char num[32];

	snprintf(num, sizeof(num), "%d", value);
	return settings_match(c, key, num, opt);
}

/* One setting that decides verdicts, or a feature version of the code. */
struct verdict_key {
	const char *key;    /* meta key */
	unsigned method;    /* recorded only when this method is on; 0: always */
	int version;        /* > 0: a features version, not a setting */
	const char *label;  /* a version's name in messages */
	const char *legacy; /* the value that describes a crawl recorded
	                       before the key existed, or NULL */
};

/*
 * What decides verdicts, recorded in meta by a crawl's first run and held
 * on every resume: settings (by their INI keys, which the meta keys are)
 * and the code's feature versions. A resume takes the settings the user
 * did not give from here (crawl_adopt_settings); the versions belong to
 * the code. The order is the order of the checks: the methods, then each
 * method's own (dedup's method table: its features version and
 * settings), then these.
 */
static const struct verdict_key common_keys[] = {
	{ "min_text_bytes", 0, 0, NULL, NULL },
	/* Crawls from before these keys folded numbers and stored no
	 * shingle sets: resumed, they keep judging as they did. */
	{ "numbers", 0, 0, NULL, "fold" },
	{ "min_shingles", 0, 0, NULL, "0" },
	{ "max_novel_words", 0, 0, NULL, "-1" },
	{ "max_novel_percent", 0, 0, NULL, "100" },
	/* Crawls from before own words measured new words over all of a
	 * page's words and learnt the template from every judged page. */
	{ "novelty", 0, 0, NULL, "all" },
	/* Crawls from before the linker was a candidate. */
	{ "linker", 0, 0, NULL, "no" },
	{ "text", 0, 0, NULL, NULL },
	{ "near_rule", 0, 0, NULL, NULL },
	/* Processes sharing a crawl must all lock the same way, or two could
	 * judge matching pages at once: not a setting one run may change. */
	{ "row_locks", 0, 0, NULL, "false" },
};

#define NCOMMON_KEYS (sizeof(common_keys) / sizeof(common_keys[0]))

/* Verdict key i into *k: 1, or 0 past the last. */
static int
verdict_key(size_t i, struct verdict_key *k)
{
	const struct dedup_method_info *mi;
	size_t m, s;

	memset(k, 0, sizeof(*k));
	if (i == 0) {
		k->key = "methods";
		return 1;
	}
	i--;
	for (m = 0; (mi = dedup_method_at(m)) != NULL; m++) {
		if (mi->features_key != NULL && i-- == 0) {
			k->key = mi->features_key;
			k->method = (unsigned)mi->method;
			k->version = mi->features;
			k->label = mi->features_label;
			return 1;
		}
		for (s = 0; mi->settings != NULL && mi->settings[s] != NULL;
		    s++)
			if (i-- == 0) {
				k->key = mi->settings[s];
				k->method = (unsigned)mi->method;
				return 1;
			}
	}
	if (i >= NCOMMON_KEYS)
		return 0;
	*k = common_keys[i];
	return 1;
}

/*
 * The value meta holds for verdict key i; for a key that came later, in a
 * crawl recorded before it (one with "methods"), the key's legacy value.
 * NULL when neither (or on a database error: *dberr). Freed by the caller.
 */
static char *
stored_value(struct store *st, const struct verdict_key *k, int *dberr)
{
	char *v;

	if ((v = store_meta_get(st, k->key, dberr)) != NULL ||
	    *dberr || k->legacy == NULL)
		return v;
	if ((v = store_meta_get(st, "methods", dberr)) == NULL)
		return NULL;
	free(v);
	return strdup(k->legacy);
}

/*
 * Every other setting is stored too, one meta row per setting under its
 * INI key, and kept on resume unless given again: all but the per-run
 * ones (config_per_run), the verdict settings above (which must match)
 * and the scope (set_scope, meta key allow_domains).
 */
static int
kept_setting(const char *key)
{
	struct verdict_key k;
	size_t i;

	if (config_per_run(key) || strcmp(key, "allow_domain") == 0)
		return 0;
	for (i = 0; verdict_key(i, &k); i++)
		if (strcmp(k.key, key) == 0)
			return 0;
	return 1;
}

/* Kept settings that settings_check records with note_setting. */
static int
noted_setting(const char *key)
{
	return strcmp(key, "strip_params") == 0 ||
	    strcmp(key, "max_query_variants") == 0 ||
	    strcmp(key, "dup_hops") == 0;
}

/* url without the user:password@ of its authority, malloc'd; *removed
 * says whether there was one. NULL when out of memory. */
static char *
without_credentials(const char *url, int *removed)
{
	const char *host, *end, *at = NULL, *p;
	char *out;

	host = strstr(url, "://");
	host = host != NULL ? host + 3 : url;
	end = host + strcspn(host, "/?#");
	for (p = host; p < end; p++)
		if (*p == '@')
			at = p;
	*removed = at != NULL;
	if (at == NULL)
		return strdup(url);
	if (asprintf(&out, "%.*s%s", (int)(host - url), url, at + 1) < 0)
		return NULL;
	return out;
}

/*
 * Setting key of cfg as its meta row holds it, malloc'd: a scalar as an
 * INI file writes it, a list one entry a line (entries hold no control
 * characters), a CA file or directory as an absolute path, a proxy URL
 * without its credentials (*removed set when
 * there were some: secrets are never stored). NULL when out of memory.
 */
static char *
stored_form(const struct config *cfg, const char *key, int *removed)
{
	const struct config_setting *cs;
	char *const *list, *v = NULL, *p;
	size_t i, n, len = 1;

	*removed = 0;
	if (strcmp(key, "proxy") == 0)
		return without_credentials(cfg->proxy, removed);
	/* A CA file or directory as an absolute path: a resume may start
	 * from another working directory. */
	if ((strcmp(key, "cacert") == 0 || strcmp(key, "capath") == 0) &&
	    (v = config_value(cfg, key)) != NULL && strcmp(v, "none") != 0 &&
	    (p = realpath(v, NULL)) != NULL) {
		free(v);
		return p;
	} else if (v != NULL) {
		return v;
	}
	list = config_list(cfg, key, &n);
	if (list == NULL && n == 0 && (cs = config_setting_of(key)) != NULL &&
	    cs->def != NULL)
		return config_value(cfg, key);
	for (i = 0; i < n; i++)
		len += strlen(list[i]) + 1;
	if ((v = p = malloc(len)) == NULL)
		return NULL;
	*p = '\0';
	for (i = 0; i < n; i++)
		p += sprintf(p, "%s%s", i > 0 ? "\n" : "", list[i]);
	return v;
}

/* Add "--option value" (a list's entries each as one) to note. */
static void
note_add(char *note, size_t notesz, size_t *n, const char *option,
    const char *v)
{
	size_t len;

	while (*n < notesz) {
		len = strcspn(v, "\n");
		*n += (size_t)snprintf(note + *n, notesz - *n, "%s--%s %.*s",
		    *n > 0 ? "; " : "", option, (int)len, v);
		if (v[len] == '\0')
			break;
		v += len + 1;
	}
}

/*
 * Adopt the kept settings st holds wherever cfg has none given. The
 * ones that differ from the defaults are added to note. 0, or 2 with err
 * when a stored value is refused.
 */
static int
adopt_kept(struct config *cfg, struct store *st, char *note, size_t notesz,
    char *err, size_t errsz)
{
	const struct config_setting *cs;
	char msg[512], *v, *line, *save;
	size_t i, n = 0;
	int dberr = 0, set, rc = 0;

	for (i = 0; rc == 0 && (cs = config_setting_at(i)) != NULL; i++) {
		if (!kept_setting(cs->key) || config_given(cfg, cs->key))
			continue;
		if ((v = store_meta_get(st, cs->key, &dberr)) == NULL)
			continue;
		if (cs->def != NULL) {
			set = config_adopt(cfg, cs->key, v, msg, sizeof(msg));
			if (set > 0 && strcmp(cs->def, v) != 0)
				note_add(note, notesz, &n, cs->option, v);
		} else {
			/* A list: one entry a line; none is an empty row. */
			if (v[0] != '\0')
				note_add(note, notesz, &n, cs->option, v);
			set = 0;
			for (line = strtok_r(v, "\n", &save);
			    line != NULL && set >= 0;
			    line = strtok_r(NULL, "\n", &save))
				set = config_adopt(cfg, cs->key, line, msg,
				    sizeof(msg));
		}
		free(v);
		if (set < 0) {
			snprintf(err, errsz, "%s: stored setting %s", cfg->db,
			    msg);
			rc = 2;
		}
	}
	return rc;
}

int
crawl_adopt_settings(struct config *cfg, char *err, size_t errsz)
{
	const struct config_setting *cs;
	struct verdict_key k;
	char note[512], kept[2048], msg[512], *v;
	const char *key;
	struct store *st;
	size_t i, n = 0;
	int dberr = 0, rc = 0, set, creds = 0;

	/* No file, no crawl to resume (a server's database is looked at). */
	if (!store_is_server(cfg->db) && access(cfg->db, F_OK) != 0)
		return 0;
	if ((st = store_open(cfg->db, STORE_READONLY, msg, sizeof(msg))) ==
	    NULL)
		return 0;
	note[0] = '\0';
	for (i = 0; verdict_key(i, &k); i++) {
		key = k.key;
		if (k.version > 0 || config_given(cfg, key))
			continue;
		if ((v = stored_value(st, &k, &dberr)) == NULL)
			continue;
		set = config_adopt(cfg, key, v, msg, sizeof(msg));
		/* Which differ from this version's default, to tell. */
		cs = config_setting_of(key);
		if (set > 0 && cs != NULL && cs->def != NULL &&
		    cs->option != NULL && strcmp(cs->def, v) != 0 &&
		    n < sizeof(note))
			n += (size_t)snprintf(note + n, sizeof(note) - n,
			    "%s--%s %s", n > 0 ? "; " : "", cs->option, v);
		free(v);
		/* --force-settings: a value we cannot take is replaced, as
		 * crawl_run then says. */
		if (set < 0 && !cfg->force_settings) {
			snprintf(err, errsz, "%s: stored setting %s", cfg->db,
			    msg);
			rc = 2;
			break;
		}
	}
	kept[0] = '\0';
	if (rc == 0)
		rc = adopt_kept(cfg, st, kept, sizeof(kept), err, errsz);
	if (rc == 0 && !config_given(cfg, "proxy") &&
	    (v = store_meta_get(st, "proxy_credentials", &dberr)) != NULL) {
		creds = strcmp(v, "removed") == 0;
		free(v);
	}
	store_close(st);
	if (rc == 0 && config_validate(cfg, msg, sizeof(msg)) != 0) {
		snprintf(err, errsz, "%s: with the settings it was crawled "
		    "with: %s", cfg->db, msg);
		rc = 2;
	}
	if (rc == 0 && note[0] != '\0' && !cfg->quiet) {
		/* Escaped: the path is the user's, the values the file's. */
		fputs("nearcrawl: resuming ", stderr);
		esc_fputs(cfg->db, stderr);
		fputs(" with the settings it was crawled with, not today's "
		    "defaults: ", stderr);
		esc_fputs(note, stderr);
		putc('\n', stderr);
	}
	if (rc == 0 && kept[0] != '\0' && !cfg->quiet) {
		fputs("nearcrawl: resuming ", stderr);
		esc_fputs(cfg->db, stderr);
		fputs(" with its stored settings: ", stderr);
		esc_fputs(kept, stderr);
		putc('\n', stderr);
	}
	if (rc == 0 && creds) {
		/* Said even with --quiet: the crawl will fail without them. */
		fputs("nearcrawl: the --proxy URL is stored without its "
		    "user name and password (secrets are never stored): "
		    "give --proxy with them again\n", stderr);
	}
	return rc;
}

/* Print a stored or given value, a list's entries separated by spaces, escaped (a stored value is the file's). */
static void
put_value(const char *v)
{
	char *copy = strdup(v), *p;

	if (copy == NULL || copy[0] == '\0') {
		fputs(copy == NULL ? "?" : "(none)", stderr);
		free(copy);
		return;
	}
	for (p = copy; *p != '\0'; p++)
		if (*p == '\n')
			*p = ' ';
	esc_fputs(copy, stderr);
	free(copy);
}

/* Record in meta whether the stored --proxy URL lost credentials, unless
 * it says so already (a resume that changes nothing writes nothing). 0,
 * or -1 on a database error. */
static int
note_credentials(struct crawl *c, int removed)
{
	const char *want = removed ? "removed" : "none";
	char *old;
	int err = 0, rc = 0;

	old = store_meta_get(c->st, "proxy_credentials", &err);
	if (err || ((old == NULL || strcmp(old, want) != 0) &&
	    store_meta_set(c->st, "proxy_credentials", want) != 0))
		rc = -1;
	free(old);
	return rc;
}

/* Store one kept setting's value; a value given that differs from the
 * stored one is said, one line a setting. 0, or 1 with c->err. */
static int
record_one(struct crawl *c, const struct config_setting *cs)
{
	char *v, *old;
	int err = 0, removed, rc = 0;

	if ((v = stored_form(c->cfg, cs->key, &removed)) == NULL) {
		snprintf(c->err, c->errsz, "out of memory");
		return 1;
	}
	old = store_meta_get(c->st, cs->key, &err);
	if (!err && old != NULL && strcmp(old, v) != 0) {
		fprintf(stderr, "nearcrawl: --%s ", cs->option);
		put_value(v);
		fputs(" (was ", stderr);
		put_value(old);
		fputs(")\n", stderr);
	}
	if (err || ((old == NULL || strcmp(old, v) != 0) &&
	    store_meta_set(c->st, cs->key, v) != 0) ||
	    (strcmp(cs->key, "proxy") == 0 && note_credentials(c, removed))) {
		snprintf(c->err, c->errsz, "%s: %s", c->cfg->db,
		    store_errmsg(c->st));
		rc = 1;
	}
	free(old);
	free(v);
	return rc;
}

/*
 * Every kept setting into meta, so that `nearcrawl crawl -d DB` alone
 * resumes with all of them (crawl_adopt_settings reads them back).
 */
static int
record_kept(struct crawl *c)
{
	const struct config_setting *cs;
	size_t i;
	int rc;

	for (i = 0; (cs = config_setting_at(i)) != NULL; i++) {
		if (!kept_setting(cs->key) || noted_setting(cs->key))
			continue;
		if ((rc = record_one(c, cs)) != 0)
			return rc;
	}
	return 0;
}

/* Record the settings that decide verdicts, or check them on resume. */
int
settings_check(struct crawl *c)
{
	const struct config_setting *cs;
	const struct config *cfg = c->cfg;
	struct verdict_key k;
	char label[64], num[32], *v;
	size_t i;
	int rc;

	for (i = 0; verdict_key(i, &k); i++) {
		if (k.method != 0 && (cfg->methods & k.method) == 0)
			continue;
		if (k.version > 0) {
			rc = int_setting(c, k.key, k.version, k.label);
		} else {
			cs = config_setting_of(k.key);
			if ((v = config_value(cfg, k.key)) ==
			    NULL) {
				snprintf(c->err, c->errsz, "out of memory");
				return 1;
			}
			snprintf(label, sizeof(label), "--%s",
			    cs != NULL && cs->option != NULL ? cs->option :
			    k.key);
			rc = settings_match(c, k.key, v, label);
			free(v);
		}
		if (rc != 0)
			return rc;
	}
	if ((rc = note_setting(
	         c, "strip_params", cfg->strip_params, "--strip-params")) != 0)
		return rc;
	snprintf(num, sizeof(num), "%ld", cfg->max_query_variants);
	if ((rc = note_setting(
	         c, "max_query_variants", num, "--max-query-variants")) != 0)
		return rc;
	/* Like the two above it decides what is queued, not verdicts. */
	snprintf(num, sizeof(num), "%d", cfg->dup_hops);
	if ((rc = note_setting(c, "dup_hops", num, "--dup-hops")) != 0)
		return rc;
	return record_kept(c);
}

int
settings_alike(const struct crawl *c, struct store *st, char *what,
    size_t whatsz)
{
	const struct config *cfg = c->cfg;
	struct verdict_key k;
	char num[32], *ours, *theirs;
	size_t i;
	int dberr = 0, rc = 0;

	for (i = 0; rc == 0 && verdict_key(i, &k); i++) {
		if (k.method != 0 && (cfg->methods & k.method) == 0)
			continue;
		theirs = stored_value(st, &k, &dberr);
		if (dberr)
			return -1;
		if (k.version > 0) {
			snprintf(num, sizeof(num), "%d", k.version);
			ours = strdup(num);
		} else {
			ours = config_value(cfg, k.key);
		}
		if (ours == NULL) {
			free(theirs);
			return -1;
		}
		if (theirs == NULL || strcmp(theirs, ours) != 0) {
			snprintf(what, whatsz, "%s %s, this crawl %s",
			    k.label != NULL ? k.label : k.key,
			    theirs != NULL ? theirs : "unset", ours);
			rc = 1;
		}
		free(ours);
		free(theirs);
	}
	return rc;
}

int
settings_each(const struct crawl *c,
    void (*fn)(const char *key, const char *value, void *arg), void *arg)
{
	const struct config_setting *cs;
	char *v, *line, *save;
	size_t i;
	int removed;

	for (i = 0; (cs = config_setting_at(i)) != NULL; i++) {
		if (strcmp(cs->key, "db") == 0)
			continue;
		if ((v = stored_form(c->cfg, cs->key, &removed)) == NULL)
			return -1;
		for (line = strtok_r(v, "\n", &save); line != NULL;
		    line = strtok_r(NULL, "\n", &save))
			fn(cs->key, line, arg);
		free(v);
	}
	return 0;
}
