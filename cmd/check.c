/*
 * check: `nearcrawl check` (cmd/check.h). The file's integrity is asked
 * first, outside any transaction (on PostgreSQL a damaged index raises an
 * error, which would end one); the tables are then read in one snapshot,
 * so that what they must agree on is seen at one moment while a crawl
 * goes on writing.
 */
#include "cmd/check.h"
#include "cmd/check_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "storage/store.h"
#include "storage/store_search.h"
#include "util/clock.h"
#include "util/esc.h"

enum { CK_SOUND = 0, CK_FOUND = 1, CK_USAGE = 2 };

static const char USAGE[] =
    "usage: nearcrawl check -d DB [--warc DIR|none]\n"
    "Check a crawl's database: the file itself (SQLite's integrity check;\n"
    "amcheck on PostgreSQL, where it is installed), every near or exact "
    "page\nhas its duplicates row and every duplicates row its two pages, "
    "seq is\n1, 2, 3 ... without gaps or repeats, no URL is in flight "
    "with nobody\nfetching it; and when the crawl wrote WARC files, that "
    "their records read,\ntheir CDXJ indexes name them, and every page "
    "that got a response has its\nrecord; the full-text index has no "
    "entry of a page that is not judged.\nA line per problem (at most 20 "
    "of a kind), then a summary.\n"
    "  -d DB        the crawl's database (read only; a crawl may go on)\n"
    "  --warc DIR   where the crawl's WARC files are, when not where it "
    "wrote\n"
    "               them; none: leave them out\n"
    "Exit status: 0 sound, 1 problems found (or a failure while checking),"
    "\n2 bad usage or a database that is not a crawl's.\n";

static void
say(const char *msg)
{
	fputs("nearcrawl: check: ", stderr);
	esc_fputs(msg, stderr);
	putc('\n', stderr);
}

static int
integrity_line(const char *line, void *arg)
{
	check_problem(arg, CHECK_INTEGRITY, "%s", line);
	return 0;
}

static int
unmatched(const struct store_check_page *r, void *arg)
{
	const char *v = store_verdict_name(r->verdict);

	check_problem(arg, CHECK_DUPLICATES, "%s page %s (seq %lld) has no "
	    "duplicates row naming its original", v != NULL ? v : "?", r->url,
	    (long long)r->seq);
	return 0;
}

static int
dangling(const struct store_check_dup *r, void *arg)
{
	struct check *ck = arg;

	if (r->page_url == NULL)
		check_problem(ck, CHECK_DUPLICATES, "row %lld (%s) is of page "
		    "%lld, which is not in pages", (long long)r->id, r->method,
		    (long long)r->page_id);
	else if (r->original_url == NULL)
		check_problem(ck, CHECK_DUPLICATES, "row %lld (%s) of %s names "
		    "original %lld, which is not in pages", (long long)r->id,
		    r->method, r->page_url, (long long)r->original_id);
	else
		check_problem(ck, CHECK_DUPLICATES, "row %lld (%s) names %s as "
		    "its own original", (long long)r->id, r->method,
		    r->page_url);
	return 0;
}

/* The walk through seq: the next one due, and the run of the last. */
struct seqwalk {
	struct check *ck;
	int64_t next;  /* the seq due next */
	int64_t last;  /* the last seen */
	int64_t run;   /* rows with it, 0 before the first */
};

static void
seq_run_end(struct seqwalk *w)
{
	if (w->run > 1)
		check_problem(w->ck, CHECK_SEQ, "%lld repeated (%lld pages)",
		    (long long)w->last, (long long)w->run);
}

static int
seq_one(int64_t seq, void *arg)
{
	struct seqwalk *w = arg;

	if (w->run > 0 && seq == w->last) {
		w->run++;
		return 0;
	}
	seq_run_end(w);
	if (seq < 1)
		check_problem(w->ck, CHECK_SEQ, "%lld: seq starts at 1",
		    (long long)seq);
	else if (seq == w->next + 1)
		check_problem(w->ck, CHECK_SEQ, "%lld missing",
		    (long long)w->next);
	else if (seq > w->next)
		check_problem(w->ck, CHECK_SEQ, "%lld to %lld missing (%lld)",
		    (long long)w->next, (long long)seq - 1,
		    (long long)(seq - w->next));
	if (seq >= w->next)
		w->next = seq + 1;
	w->last = seq;
	w->run = 1;
	return 0;
}

static int
in_flight(const struct store_check_flight *r, void *arg)
{
	struct check *ck = arg;

	if (store_is_server(ck->db))
		check_problem(ck, CHECK_FRONTIER, "%s in flight, and no "
		    "process holds a lease on its host %s", r->url, r->host);
	else
		check_problem(ck, CHECK_FRONTIER, "%s in flight, and no crawl "
		    "is at work on the database", r->url);
	return 0;
}

static int
stray(int64_t id, void *arg)
{
	check_problem(arg, CHECK_SEARCH, "index entry %lld is no judged "
	    "page's", (long long)id);
	return 0;
}

/*
 * The full-text index (on SQLite its own file, DB-search) against the
 * pages, in the tables' snapshot: an entry of no judged page is a
 * problem; entries a killed crawl left, judged pages not indexed and no
 * index at all are notes, which the next writer open or `nearcrawl
 * index` mends. 0, or -1.
 */
static int
check_search(struct check *ck)
{
	struct store_search_counts n;
	int64_t beyond;
	int exists, rc;

	if (store_search_exists(ck->c, &exists) != 0)
		return -1;
	if (!exists) {
		check_note(ck, "search: no full-text index (the crawl made "
		    "none, or its file DB-search is gone): `nearcrawl index "
		    "-d DB` makes it");
		return 0;
	}
	if ((rc = store_check_search(ck->c, &beyond, stray, ck)) != 0 ||
	    store_search_counts(ck->c, &n) != 0)
		return rc != 0 ? rc : -1;
	check_more(ck, CHECK_SEARCH);
	if (beyond > 0)
		check_note(ck, "search: %lld index entries of pages a crawl "
		    "killed meanwhile never committed: the next crawl or "
		    "`nearcrawl index` deletes them", (long long)beyond);
	if (n.judged > n.indexed)
		check_note(ck, "search: %lld judged pages are not indexed: "
		    "`nearcrawl index -d DB` adds them",
		    (long long)(n.judged - n.indexed));
	return 0;
}

/*
 * The tables, in one snapshot. 0, or -1 on a database error; 2 when out
 * of memory.
 */
static int
check_tables(struct check *ck, const char *warc, char *err, size_t errsz)
{
	struct seqwalk w = { ck, 1, 0, 0 };
	int64_t live = 0;
	int rc;

	if (store_conn_begin(ck->c) != 0 ||
	    store_conn_page_count(ck->c, &ck->pages) != 0 ||
	    store_check_live(ck->c, clock_wall_s(), &live) != 0)
		return -1;
	if (live > 0)
		ck->busy = 1;
	if ((rc = store_check_unmatched(ck->c, unmatched, ck)) != 0 ||
	    (rc = store_check_dangling(ck->c, dangling, ck)) != 0)
		return rc;
	check_more(ck, CHECK_DUPLICATES);
	if ((rc = store_check_seqs(ck->c, seq_one, &w)) != 0)
		return rc;
	seq_run_end(&w);
	ck->max_seq = w.next - 1;
	check_more(ck, CHECK_SEQ);
	if (ck->busy)
		check_note(ck, "frontier: a crawl is at work on the database: "
		    "its URLs in flight are its own, and are not checked");
	else if ((rc = store_check_in_flight(ck->c, clock_wall_s(), in_flight,
	    ck)) != 0)
		return rc;
	if (ck->found[CHECK_FRONTIER] > 0) {
		check_more(ck, CHECK_FRONTIER);
		check_note(ck, "frontier: a resume queues URLs in flight again "
		    "(on PostgreSQL, the next process to lease their host)");
	}
	if ((rc = check_search(ck)) != 0)
		return rc;
	if (check_warc(ck, warc, err, errsz) != 0)
		return 3;
	check_more(ck, CHECK_WARC);
	check_more(ck, CHECK_CDXJ);
	return store_conn_commit(ck->c) != 0 ? -1 : 0;
}

/* The closing line: sound, or how many problems of which kinds. */
static int
summary(struct check *ck, const char *why_not)
{
	int64_t all = 0;
	int k, first = 1;

	for (k = 0; k < CHECK_KINDS; k++)
		all += ck->found[k];
	esc_fputs(store_check_name(ck->db), ck->out);
	if (all == 0) {
		fprintf(ck->out, ": sound: %s, %lld pages, seq 1 to %lld, "
		    "nothing in flight unattended",
		    why_not != NULL ? "integrity not checked" : "integrity ok",
		    (long long)ck->pages, (long long)ck->max_seq);
		if (ck->warc_checked)
			fprintf(ck->out, ", %lld WARC files with %lld "
			    "responses and revisits agreeing with their CDXJ "
			    "indexes and the pages", (long long)ck->warc_files,
			    (long long)ck->warc_records);
		fputs("\n", ck->out);
		return CK_SOUND;
	}
	fprintf(ck->out, ": %lld problem%s:", (long long)all,
	    all == 1 ? "" : "s");
	for (k = 0; k < CHECK_KINDS; k++) {
		if (ck->found[k] == 0)
			continue;
		fprintf(ck->out, "%s %s %lld", first ? "" : ",",
		    check_kind_name(k), (long long)ck->found[k]);
		first = 0;
	}
	fputs("\n", ck->out);
	return CK_FOUND;
}

/*
 * A database store_open refused: damaged where SQLite reads first (then
 * the integrity check says how, and that is a problem found), or not a
 * crawl's at all (bad usage). The exit status.
 */
static int
refused(struct check *ck, const char *why)
{
	const char *why_not;
	char err[1024];
	int rc;

	if (store_is_server(ck->db) ||
	    store_conn_open(ck->db, STORE_CONN_READ, &ck->c, err, sizeof(err),
	        CK_FOUND, CK_USAGE) != 0) {
		say(why);
		return CK_USAGE;
	}
	rc = store_check_integrity(ck->c, integrity_line, ck, &why_not);
	if (rc == -1 && store_conn_fail(ck->c, err, sizeof(err), CK_FOUND,
	    CK_USAGE) == CK_FOUND)
		check_problem(ck, CHECK_INTEGRITY, "%s", err);
	if (ck->found[CHECK_INTEGRITY] == 0) {
		say(why);
		return CK_USAGE;
	}
	check_more(ck, CHECK_INTEGRITY);
	esc_fputs(store_check_name(ck->db), ck->out);
	fprintf(ck->out, ": %lld problem%s: integrity %lld (the file is "
	    "damaged: nothing else could be checked)\n",
	    (long long)ck->found[CHECK_INTEGRITY],
	    ck->found[CHECK_INTEGRITY] == 1 ? "" : "s",
	    (long long)ck->found[CHECK_INTEGRITY]);
	return CK_FOUND;
}

static int
run(struct check *ck, const char *warc)
{
	const char *why_not = NULL;
	struct store *s;
	char err[1024];
	int rc;

	/* Before this process opens the file: the probe's descriptor,
	 * closed, would drop SQLite's locks. */
	if ((ck->busy = store_in_use(ck->db)) < 0) {
		snprintf(err, sizeof(err), "%s: %s", ck->db,
		    errno == ENOENT ? "no such file" : strerror(errno));
		say(err);
		return CK_USAGE;
	}
	if ((s = store_open(ck->db, STORE_READONLY, err, sizeof(err))) == NULL)
		return refused(ck, err);
	rc = store_conn_open(ck->db, STORE_CONN_READ, &ck->c, err, sizeof(err),
	    CK_FOUND, CK_USAGE);
	store_close(s);
	if (rc != 0) {
		say(err);
		return rc;
	}
	rc = store_check_integrity(ck->c, integrity_line, ck, &why_not);
	if (rc == 0) {
		check_more(ck, CHECK_INTEGRITY);
		if (why_not != NULL)
			check_note(ck, "integrity: not checked: %s", why_not);
		rc = check_tables(ck, warc, err, sizeof(err));
	}
	if (rc == 2) {
		say("out of memory");
		return CK_FOUND;
	}
	if (rc == 3) {
		say(err);
		return CK_FOUND;
	}
	if (rc != 0) {
		rc = store_conn_fail(ck->c, err, sizeof(err), CK_FOUND,
		    CK_USAGE);
		/* Damage the integrity check found, met again: a problem
		 * found, which ends the checks. */
		if (ck->found[CHECK_INTEGRITY] == 0) {
			say(err);
			return rc;
		}
		check_problem(ck, CHECK_INTEGRITY, "%s", err);
		check_note(ck, "the damage ended the checks: what comes after "
		    "it was not checked");
	}
	return summary(ck, why_not);
}

int
check_main(int argc, char **argv)
{
	struct check ck;
	const char *warc = NULL;
	int i, rc;

	memset(&ck, 0, sizeof(ck));
	ck.out = stdout;
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-h") == 0 ||
		    strcmp(argv[i], "--help") == 0) {
			fputs(USAGE, stdout);
			return CK_SOUND;
		}
		if (strcmp(argv[i], "-d") == 0 && i + 1 < argc)
			ck.db = argv[++i];
		else if (strcmp(argv[i], "--warc") == 0 && i + 1 < argc)
			warc = argv[++i];
		else
			break;
	}
	if (i < argc || ck.db == NULL) {
		if (i < argc) {
			fputs("nearcrawl: check: bad or unknown argument `",
			    stderr);
			esc_fputs(argv[i], stderr);
			fputs("'\n", stderr);
		} else {
			fputs("nearcrawl: check: -d DB is required\n", stderr);
		}
		fputs(USAGE, stderr);
		return CK_USAGE;
	}
	rc = run(&ck, warc);
	store_conn_close(ck.c);
	if (fflush(stdout) != 0 && rc == CK_SOUND)
		rc = CK_FOUND;
	return rc;
}
