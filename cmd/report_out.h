/*
 * report_out: what the report's modules share: the state of one report
 * (struct rep), its output files and its error messages. report.c reads
 * the database into it; report_plot.c writes and runs the gnuplot scripts,
 * report_html.c writes index.html.
 */
#ifndef NC_REPORT_OUT_H
#define NC_REPORT_OUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cmd/report_status.h"
#include "storage/query.h"
#include "storage/store_visits.h"

#define REPORT_SIM_BUCKETS 21 /* 0, 5, ... 95, and 100 for exactly 100 */

/* Outcomes of a revisit (storage/store_visits.h's enum store_outcome). */
#define REPORT_OUTCOMES (STORE_OUTCOME_NEW + 1)

/* What one visit after the first found (report_visits.c). */
struct rep_visit {
	int64_t visit;                 /* 2, 3 ... */
	int64_t n[REPORT_OUTCOMES];    /* pages per outcome */
	int64_t moved;                 /* changed pages with another verdict */
};

/* Changed pages of one visit whose verdict went from was to now. */
struct rep_move {
	int64_t visit;
	char was[16], now[16];         /* verdict words ("?" when odd) */
	int64_t pages;
};

/* Duplicate counts of one method, per similarity bucket. */
struct method {
	char *name;                    /* as stored (untrusted) */
	int64_t n[REPORT_SIM_BUCKETS]; /* pairs per bucket */
	int64_t total;                 /* pairs of this method */
};

/* One point of a growth curve: x, and the running verdict counts. */
/* Resumes marked on the time plot at most. */
#define REPORT_RESUMES_MAX 32

struct growth_pt {
	double x; /* pages fetched, or seconds since the first fetch */
	int64_t unique, exact, near;
};

/* A growing array of points. */
struct growth_series {
	struct growth_pt *pt;
	size_t n, cap;
};

/* How one host's judged pages stand to the earlier crawls
 * (report_earlier.c). */
struct rep_earlier {
	char *host;   /* as stored (untrusted) */
	int64_t n[3]; /* new, same as before, near to before */
};

/* One of the hosts drawn as a small multiple. */
struct top_host {
	char *name;      /* as stored (untrusted) */
	int64_t total;   /* its pages */
	int64_t i;       /* its pages so far, in the growth pass */
	int64_t unique, exact, near;
	struct growth_series s; /* against its own pages fetched */
};

struct rep {
	const char *db;       /* database path, for messages */
	const char *dir;      /* output directory, for messages */
	char *err;            /* caller's message buffer */
	size_t errsz;         /* its size */
	struct store_conn *c; /* our read-only connection */
	int dfd;              /* the output directory; files open relative */
	int max_hosts;        /* hosts drawn as small multiples */
	int64_t pages;        /* pages rows */
	int64_t unique;       /* verdict unique */
	int64_t exact;        /* verdict exact */
	int64_t near;         /* verdict near */
	int64_t redirect;     /* verdict redirect */
	int64_t error;        /* verdict error */
	int64_t skipped;      /* verdict skipped */
	int64_t last_new_seq; /* seq of the last unique page, 0 when none */
	int64_t after_new;    /* pages fetched after it */
	int64_t growth_rows;  /* data rows in growth.csv */
	double first_at;      /* fetched_at of the first page (seq order) */
	/* When a process judged its first page, after the first process:
	 * a resume (or one more process of a shared crawl), in seconds
	 * since first_at, for the time plot. */
	double resumed[REPORT_RESUMES_MAX];
	size_t nresumed;
	char *workers[REPORT_RESUMES_MAX + 1]; /* the processes seen */
	size_t nworkers;
	double min_at, max_at; /* earliest and latest fetched_at */
	struct growth_series time; /* the growth.csv rows against time */
	struct growth_series bypage; /* the same rows against pages fetched */
	int64_t share_window; /* pages judged a window of share.csv holds */
	int64_t share_rows;   /* its data rows */
	int64_t hosts;        /* distinct hosts */
	struct top_host *top; /* the max_hosts busiest, busiest first */
	size_t ntop;          /* entries in top */
	int64_t pairs;        /* duplicates rows */
	char *busiest_url;    /* original with most duplicate pages, or NULL */
	int64_t busiest_seq;  /* its seq */
	struct store_canonical_counts canon; /* declared canonicals against
	                                        rank's choice (query.h) */
	int64_t busiest_n;    /* its duplicate pages */
	struct method *meth;  /* per method, in name order */
	size_t nmeth;         /* entries in meth */
	int plotted;          /* gnuplot drew every plot */
	struct rep_visit *visits; /* the recrawls, by visit */
	size_t nvisits;
	struct rep_move *moves;   /* their verdict changes */
	size_t nmoves;
	struct rep_earlier *before; /* per host against the earlier crawls,
	                               in byte order; NULL without them */
	size_t nbefore;
	int64_t before_all[3];    /* the same over all hosts */
};

/* An output file being written; write errors are checked once, at close. */
struct out {
	FILE *f;          /* NULL when closed */
	const char *name; /* file name inside the directory */
};

/* Set r's message; returns code. */
int report_out_err(struct rep *r, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The message of the connection's last error, and its status. */
int report_out_dbfail(struct rep *r);

/* How often the canonical a cluster's pages declare (rel=canonical) is
 * the page the crawl keeps for the cluster, in words, into out. */
void report_canonical_words(const struct rep *r, char *out, size_t outsz);
/* "out of memory", REPORT_RUNTIME. */
int report_out_oom(struct rep *r);

/* Untrusted text for a human (esc.h). */
void report_out_clean(FILE *f, const char *s);
/* Untrusted text as a single-quoted gnuplot string, quotes included. */
void report_out_gpstr(FILE *f, const char *s);
/* n with thousands separators (4,000), in buf; "?" when it does not fit. */
const char *report_out_grouped(int64_t n, char *buf, size_t bufsz);
/* 100 * part / whole, 0 when whole is 0. */
double report_out_percent(int64_t part, int64_t whole);

/* One CSV field, quoted per RFC 4180 only when it must be (NULL is
 * empty). Line breaks are escaped, so only a comma or a quote needs
 * quoting. */
void report_out_csv(FILE *f, const char *s);

/* Create (or empty) name inside the output directory, never following a
 * symbolic link. 0, or REPORT_RUNTIME with the message set. */
int report_out_open(struct rep *r, struct out *o, const char *name);
/* Close o; a write error anywhere in the file is reported here. */
int report_out_close(struct rep *r, struct out *o);
/* Close o on a path that already failed. */
void report_out_abort(struct out *o);

/* Add a point to s. 0, or -1 out of memory. */
int report_out_add_pt(struct growth_series *s, double x, int64_t unique,
    int64_t exact, int64_t near);

#endif
