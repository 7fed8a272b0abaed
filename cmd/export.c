/*
 * export: a crawl's pages or clusters as CSV or JSON Lines (cmd/export.h).
 * store_open checks the file (read-only, no lock: a crawl may go on
 * writing), the rows come through a read-only connection of our own in
 * one snapshot, each written as it arrives.
 */
#include "cmd/export.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "storage/query.h"
#include "storage/store.h"
#include "util/buf.h"
#include "util/esc.h"
#include "util/rowout.h"

enum { EX_OK = 0, EX_RUNTIME = 1, EX_BADDB = 2 };

#define MEMBERS_DEFAULT 10
#define MEMBERS_MAX 1000

static const char USAGE[] =
    "usage: nearcrawl export -d DB [--format csv|jsonl] [-o FILE]\n"
    "                        [--clusters [--members N]]\n"
    "  -d DB          the crawl's database (read only; a crawl may go on)\n"
    "  --format F     csv (RFC 4180, the default) or jsonl (one JSON\n"
    "                 object a line)\n"
    "  -o FILE        write to FILE instead of standard output\n"
    "  --clusters     one row per duplicate cluster instead of one per\n"
    "                 page (run `nearcrawl rank -d DB` first)\n"
    "  --members N    member URLs listed per cluster, in fetch order\n"
    "                 (0 to 1000, default 10)\n"
    "page columns: url, host, seq, fetched_at (UTC), status, verdict,\n"
    "reason, original (the earlier page it repeats, its strongest match),\n"
    "method, percentage, canonical (its cluster's, once rank has run),\n"
    "declared_canonical (the page's rel=canonical)\n"
    "cluster columns: cluster, canonical, size, members\n";

struct ex {
	FILE *out;
	int jsonl;
	long members;      /* member URLs listed per cluster */
	int64_t rows;
	/* --clusters: the cluster being gathered */
	int in_cluster;
	int64_t cluster;
	char *canonical;   /* its canonical URL, or NULL */
	int64_t size;
	long shown;
	struct buf list;   /* the members shown, each NUL-terminated */
	int64_t odd;       /* pages whose verdict and duplicates rows
	                      disagree (said at the end) */
};

/* Unix time t as UTC ISO 8601 with milliseconds. */
static void
iso_time(double t, char *out, size_t outsz)
{
	time_t sec = (time_t)t;
	struct tm tm;
	long ms;

	ms = (long)((t - (double)sec) * 1000.0 + 0.5);
	if (ms >= 1000) {
		sec++;
		ms -= 1000;
	}
	if (ms < 0)
		ms = 0;
	if (gmtime_r(&sec, &tm) == NULL ||
	    strftime(out, outsz, "%Y-%m-%dT%H:%M:%S", &tm) == 0) {
		snprintf(out, outsz, "%.3f", t);
		return;
	}
	snprintf(out + strlen(out), outsz - strlen(out), ".%03ldZ", ms);
}

static int
page_out(const struct store_export_row *r, void *arg)
{
	struct ex *x = arg;
	FILE *out = x->out;
	char seq[24], status[24], when[48], pct[32];

	/* A near or exact page has a duplicates row, and that row its
	 * original. */
	if ((r->has_match && r->original_url == NULL) || (!r->has_match &&
	    (strcmp(r->verdict, "near") == 0 ||
	    strcmp(r->verdict, "exact") == 0)))
		x->odd++;
	snprintf(seq, sizeof(seq), "%" PRId64, r->seq);
	snprintf(status, sizeof(status), "%" PRId64, r->status);
	iso_time(r->fetched_at, when, sizeof(when));
	snprintf(pct, sizeof(pct), "%.2f", r->percentage);
	if (!x->jsonl) {
		rowout_csv_field(out, r->url, 1);
		rowout_csv_field(out, r->host, 0);
		rowout_csv_field(out, seq, 0);
		rowout_csv_field(out, when, 0);
		rowout_csv_field(out, status, 0);
		rowout_csv_field(out, r->verdict, 0);
		rowout_csv_field(out, r->reason, 0);
		rowout_csv_field(out, r->has_match ? r->original_url : NULL, 0);
		rowout_csv_field(out, r->has_match ? r->method : NULL, 0);
		rowout_csv_field(out, r->has_match ? pct : NULL, 0);
		rowout_csv_field(out, r->canonical_url, 0);
		rowout_csv_field(out, r->declared, 0);
		fputs("\r\n", out);
	} else {
		rowout_json_key(out, "url", 1);
		rowout_json_str(out, r->url);
		rowout_json_key(out, "host", 0);
		rowout_json_str(out, r->host);
		rowout_json_key(out, "seq", 0);
		fputs(seq, out);
		rowout_json_key(out, "fetched_at", 0);
		rowout_json_str(out, when);
		rowout_json_key(out, "status", 0);
		fputs(status, out);
		rowout_json_key(out, "verdict", 0);
		rowout_json_str(out, r->verdict);
		rowout_json_key(out, "reason", 0);
		rowout_json_str(out, r->reason);
		rowout_json_key(out, "original", 0);
		rowout_json_str(out, r->has_match ? r->original_url : NULL);
		rowout_json_key(out, "method", 0);
		rowout_json_str(out, r->has_match ? r->method : NULL);
		rowout_json_key(out, "percentage", 0);
		fputs(r->has_match ? pct : "null", out);
		rowout_json_key(out, "canonical", 0);
		rowout_json_str(out, r->canonical_url);
		rowout_json_key(out, "declared_canonical", 0);
		rowout_json_str(out, r->declared);
		fputs("}\n", out);
	}
	x->rows++;
	return ferror(out) ? 1 : 0;
}

/* Write the cluster gathered so far, if any. */
static int
cluster_flush(struct ex *x)
{
	FILE *out = x->out;
	char id[24], size[24];
	const char *m;
	size_t at;
	long i;
	int q;

	if (!x->in_cluster)
		return 0;
	snprintf(id, sizeof(id), "%" PRId64, x->cluster);
	snprintf(size, sizeof(size), "%" PRId64, x->size);
	if (!x->jsonl) {
		rowout_csv_field(out, id, 1);
		rowout_csv_field(out, x->canonical, 0);
		rowout_csv_field(out, size, 0);
		/* Normalised URLs hold no space: one separates them. The
		 * field is quoted when any of them needs it. */
		for (i = 0, at = 0, q = 0; i < x->shown; i++) {
			m = x->list.data + at;
			at += strlen(m) + 1;
			q |= strpbrk(m, ",\"\r\n") != NULL;
		}
		fputs(q ? ",\"" : ",", out);
		for (i = 0, at = 0; i < x->shown; i++) {
			m = x->list.data + at;
			at += strlen(m) + 1;
			if (i > 0)
				putc(' ', out);
			rowout_utf8(out, m, q);
		}
		if (q)
			putc('"', out);
		fputs("\r\n", out);
	} else {
		rowout_json_key(out, "cluster", 1);
		fputs(id, out);
		rowout_json_key(out, "canonical", 0);
		rowout_json_str(out, x->canonical);
		rowout_json_key(out, "size", 0);
		fputs(size, out);
		rowout_json_key(out, "members", 0);
		putc('[', out);
		for (i = 0, at = 0; i < x->shown; i++) {
			m = x->list.data + at;
			at += strlen(m) + 1;
			if (i > 0)
				putc(',', out);
			rowout_json_str(out, m);
		}
		fputs("]}\n", out);
	}
	x->rows++;
	x->in_cluster = 0;
	free(x->canonical);
	x->canonical = NULL;
	buf_reset(&x->list);
	return ferror(out) ? 1 : 0;
}

static int
member_in(const struct store_export_member *r, void *arg)
{
	struct ex *x = arg;
	int rc;

	if (!x->in_cluster || r->cluster != x->cluster) {
		if ((rc = cluster_flush(x)) != 0)
			return rc;
		x->in_cluster = 1;
		x->cluster = r->cluster;
		x->size = 0;
		x->shown = 0;
		if (r->canonical_url != NULL &&
		    (x->canonical = strdup(r->canonical_url)) == NULL)
			return 2;
	}
	x->size++;
	if (x->shown < x->members) {
		rc = buf_append(&x->list, r->url, strlen(r->url) + 1);
		if (rc == BUF_NOMEM)
			return 2;
		if (rc == BUF_OK)
			x->shown++;
	}
	return 0;
}

static void
say(const char *msg)
{
	fputs("nearcrawl: export: ", stderr);
	esc_fputs(msg, stderr);
	putc('\n', stderr);
}

/* The database's rows into x->out; the exit status. */
static int
run(struct ex *x, const char *db, int clusters)
{
	struct store_conn *c = NULL;
	struct store *s;
	char err[1024];
	int64_t ranked;
	int rc;

	/* store_open refuses what is not ours; the rows come through a
	 * read-only connection opened while it still holds the file. */
	if ((s = store_open(db, STORE_READONLY, err, sizeof(err))) == NULL) {
		say(err);
		return EX_BADDB;
	}
	rc = store_conn_open(db, STORE_CONN_READ, &c, err, sizeof(err),
	    EX_BADDB, EX_BADDB);
	store_close(s);
	if (rc != 0) {
		say(err);
		return rc;
	}
	if (store_conn_begin(c) != 0)
		goto db_fail;
	if (clusters) {
		if (store_export_ranked(c, &ranked) != 0)
			goto db_fail;
		if (ranked == 0) {
			store_conn_close(c);
			snprintf(err, sizeof(err), "%s: no clusters yet: run "
			    "`nearcrawl rank -d DB` first", db);
			say(err);
			return EX_BADDB;
		}
		if (!x->jsonl)
			fputs("cluster,canonical,size,members\r\n", x->out);
		rc = store_export_members(c, member_in, x);
		if (rc == 0)
			rc = cluster_flush(x);
	} else {
		if (!x->jsonl)
			fputs("url,host,seq,fetched_at,status,verdict,reason,"
			    "original,method,percentage,canonical,"
			    "declared_canonical\r\n", x->out);
		rc = store_export_pages(c, page_out, x);
	}
	if (rc == -1)
		goto db_fail;
	store_conn_close(c);
	if (rc == 2) {
		say("out of memory");
		return EX_RUNTIME;
	}
	if (x->odd > 0) {
		snprintf(err, sizeof(err), "%lld near or exact pages have no "
		    "original: their duplicates rows, or the pages those name, "
		    "are not there; `nearcrawl check -d %s` says what else is "
		    "amiss", (long long)x->odd, db);
		say(err);
	}
	return rc == 0 ? EX_OK : EX_RUNTIME; /* 1: a write failed */
db_fail:
	rc = store_conn_fail(c, err, sizeof(err), EX_RUNTIME, EX_BADDB);
	store_conn_close(c);
	say(err);
	return rc;
}

/* A whole number in [lo, hi], or -1. */
static long
count_arg(const char *v, long lo, long hi)
{
	char *end;
	long n;

	if (v == NULL || *v < '0' || *v > '9')
		return -1;
	n = strtol(v, &end, 10);
	return *end == '\0' && n >= lo && n <= hi ? n : -1;
}

/* What the command line asks for. */
struct export_args {
	const char *db, *file, *format;
	int clusters;
};

/*
 * Read argv into a and x->members. Returns -1 when read, EX_OK after
 * --help, or 2 after saying what is wrong (usage on stderr).
 */
static int
parse_args(int argc, char **argv, struct export_args *a, struct ex *x)
{
	int i, members_given = 0;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-h") == 0 ||
		    strcmp(argv[i], "--help") == 0) {
			fputs(USAGE, stdout);
			return EX_OK;
		}
		if (strcmp(argv[i], "--clusters") == 0) {
			a->clusters = 1;
			continue;
		}
		if (i + 1 >= argc)
			break;
		if (strcmp(argv[i], "-d") == 0)
			a->db = argv[++i];
		else if (strcmp(argv[i], "-o") == 0)
			a->file = argv[++i];
		else if (strcmp(argv[i], "--format") == 0 &&
		    (strcmp(argv[i + 1], "csv") == 0 ||
		    strcmp(argv[i + 1], "jsonl") == 0))
			a->format = argv[++i];
		else if (strcmp(argv[i], "--members") == 0 &&
		    (x->members = count_arg(argv[i + 1], 0, MEMBERS_MAX)) >= 0) {
			members_given = 1;
			i++;
		} else
			break;
	}
	if (i >= argc && a->db != NULL && (!members_given || a->clusters))
		return -1;
	if (i < argc) {
		fputs("nearcrawl: export: bad or unknown argument `", stderr);
		esc_fputs(argv[i], stderr);
		fputs("'\n", stderr);
	} else if (a->db == NULL) {
		fputs("nearcrawl: export: -d DB is required\n", stderr);
	} else {
		fputs("nearcrawl: export: --members goes with --clusters\n",
		    stderr);
	}
	fputs(USAGE, stderr);
	return 2;
}

/* Flush and close x->out (file, or NULL for stdout); rc as it ends. */
static int
finish_output(struct ex *x, const char *file, int rc)
{
	if (fflush(x->out) != 0 || ferror(x->out)) {
		if (rc == EX_OK || rc == EX_RUNTIME) {
			fputs("nearcrawl: export: write failed: ", stderr);
			esc_fputs(file != NULL ? file : "standard output",
			    stderr);
			putc('\n', stderr);
		}
		if (rc == EX_OK)
			rc = EX_RUNTIME;
	}
	if (file != NULL && fclose(x->out) != 0 && rc == EX_OK) {
		fputs("nearcrawl: export: write failed\n", stderr);
		rc = EX_RUNTIME;
	}
	/* A half-written file is no export. */
	if (file != NULL && rc != EX_OK)
		remove(file);
	return rc;
}

int
export_main(int argc, char **argv)
{
	struct export_args a = { NULL, NULL, "csv", 0 };
	struct ex x;
	int rc;

	memset(&x, 0, sizeof(x));
	x.members = MEMBERS_DEFAULT;
	if ((rc = parse_args(argc, argv, &a, &x)) >= 0)
		return rc;
	x.jsonl = strcmp(a.format, "jsonl") == 0;
	/* Every member URL is at most URL_MAX_LEN bytes, so this is room
	 * enough; past it a member is simply left out. */
	buf_init(&x.list, (size_t)(x.members + 1) * 4096);
	if (a.file != NULL && (x.out = fopen(a.file, "w")) == NULL) {
		fputs("nearcrawl: export: cannot write ", stderr);
		esc_fputs(a.file, stderr);
		fputs(": ", stderr);
		perror(NULL);
		buf_free(&x.list);
		return EX_RUNTIME;
	}
	if (a.file == NULL)
		x.out = stdout;
	rc = finish_output(&x, a.file, run(&x, a.db, a.clusters));
	free(x.canonical);
	buf_free(&x.list);
	return rc;
}
