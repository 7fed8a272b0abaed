/*
 * Search: the clusters' union-find, the folding of matches into groups
 * and the choice of what each shows (cmd/search_fold.c), the SimHash
 * block index against a plain pairwise scan, the checks on a query, the
 * FTS5 query as a tsquery, and a run over a real SQLite index: folding,
 * a bad query, a database without its index file; the index file's
 * writer: rollback, recrawl, the entries a kill leaves, a lost file.
 */
#include "check.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "cmd/search_int.h"
#include "storage/store.h"
#include "storage/store_pages.h"
#include "storage/store_search.h"
#include "storage/store_searchw.h"

/* A page of a made-up result list: id, seq, its URL "u<id>". */
static void
mk(struct search_page *p, int64_t id, int64_t seq)
{
	static char urls[64][16];

	memset(p, 0, sizeof(*p));
	p->id = id;
	p->seq = seq;
	snprintf(urls[id % 64], sizeof(urls[0]), "u%lld", (long long)id);
	p->url = urls[id % 64];
	p->bits = -1;
}

static void
test_clusters(void)
{
	struct search_clusters *c = search_clusters_new();

	CHECK(c != NULL);
	if (c == NULL)
		return;
	/* 5 and 7 copy 3; 9 copies 8; 12 copies 7: {3 5 7 12} {8 9}. */
	CHECK_INT(search_clusters_add(c, 5, 3), 0);
	CHECK_INT(search_clusters_add(c, 7, 3), 0);
	CHECK_INT(search_clusters_add(c, 9, 8), 0);
	CHECK_INT(search_clusters_add(c, 12, 7), 0);
	CHECK_INT(search_clusters_build(c), 0);
	CHECK(search_clusters_of(c, 3) == 3);
	CHECK(search_clusters_of(c, 5) == 3);
	CHECK(search_clusters_of(c, 12) == 3);
	CHECK(search_clusters_of(c, 9) == 8);
	CHECK(search_clusters_of(c, 8) == 8);
	CHECK(search_clusters_of(c, 4) == 0);
	CHECK(search_clusters_of(NULL, 4) == 0);
	search_clusters_free(c);
}

/*
 * Five matches, best first: 10 (cluster 1), 20 (alone), 30 (cluster 1),
 * 40 (cluster 2), 50 (cluster 2). Groups in the order of their best
 * member; without PageRank the page fetched first is shown.
 */
static void
test_fold_clusters(void)
{
	struct search_page p[5];
	struct search_group *g = NULL;
	int64_t cl[5] = { 1, 0, 1, 2, 2 };
	size_t ng = 0;

	mk(&p[0], 10, 9);
	mk(&p[1], 20, 2);
	mk(&p[2], 30, 3);
	mk(&p[3], 40, 4);
	mk(&p[4], 50, 5);
	CHECK_INT(search_fold(p, cl, 5, -1, SEARCH_RULE_CANONICAL, &g, &ng),
	    0);
	CHECK(ng == 3);
	if (ng != 3)
		goto out;
	/* Cluster 1 stands first (10 scored best) but shows 30, fetched
	 * before 10. */
	CHECK(g[0].best->id == 30);
	CHECK(g[0].decided == SEARCH_DECIDED_FIRST);
	CHECK(g[0].nmembers == 1 && g[0].members[0]->id == 10);
	CHECK(g[0].members[0]->fold == SEARCH_FOLD_CLUSTER);
	CHECK(g[1].best->id == 20 && g[1].nmembers == 0);
	CHECK(g[1].decided == SEARCH_DECIDED_ALONE);
	CHECK(g[2].best->id == 40 && g[2].nmembers == 1);
	CHECK(g[2].members[0]->id == 50);
out:
	search_fold_free(g, ng);
}

/* Declared canonicals first, when all that name a member name one; then
 * PageRank; a tie falls to the page fetched first. */
static void
test_fold_rules(void)
{
	struct search_page p[3];
	struct search_group *g = NULL;
	int64_t cl[3] = { 7, 7, 7 };
	size_t ng = 0;

	mk(&p[0], 1, 1);
	mk(&p[1], 2, 2);
	mk(&p[2], 3, 3);
	p[0].has_pagerank = p[1].has_pagerank = p[2].has_pagerank = 1;
	p[0].pagerank = 0.1;
	p[1].pagerank = 0.3;
	p[2].pagerank = 0.2;
	/* 1 and 3 declare 3; a declaration outside the group is no vote. */
	p[0].declared = "u3";
	p[2].declared = "u3";
	p[1].declared = "http://elsewhere.example/";
	CHECK_INT(search_fold(p, cl, 3, -1, SEARCH_RULE_CANONICAL, &g, &ng),
	    0);
	CHECK(ng == 1 && g[0].best->id == 3 &&
	    g[0].decided == SEARCH_DECIDED_DECLARED);
	search_fold_free(g, ng);

	/* The paper's rule knows no declarations: PageRank. */
	CHECK_INT(search_fold(p, cl, 3, -1, SEARCH_RULE_PAGERANK, &g, &ng), 0);
	CHECK(ng == 1 && g[0].best->id == 2 &&
	    g[0].decided == SEARCH_DECIDED_PAGERANK);
	search_fold_free(g, ng);

	/* Members that declare different members say nothing. */
	p[0].declared = "u1";
	CHECK_INT(search_fold(p, cl, 3, -1, SEARCH_RULE_CANONICAL, &g, &ng),
	    0);
	CHECK(ng == 1 && g[0].best->id == 2 &&
	    g[0].decided == SEARCH_DECIDED_PAGERANK);
	search_fold_free(g, ng);

	/* A tie within a part in a billion: the page fetched first of the
	 * tied ones (3 before 2 here), not of all. */
	p[0].declared = p[1].declared = p[2].declared = NULL;
	p[1].pagerank = 0.3;
	p[2].pagerank = 0.3 * (1 + 1e-12);
	p[1].seq = 5;
	p[2].seq = 4;
	CHECK_INT(search_fold(p, cl, 3, -1, SEARCH_RULE_CANONICAL, &g, &ng),
	    0);
	CHECK(ng == 1 && g[0].best->id == 3 &&
	    g[0].decided == SEARCH_DECIDED_FIRST);
	search_fold_free(g, ng);
}

/* --k: SimHashes within k bits join; how many bits, and why folded. */
static void
test_fold_simhash(void)
{
	struct search_page p[4];
	struct search_group *g = NULL;
	int64_t cl[4] = { 0, 0, 0, 0 };
	size_t ng = 0;

	mk(&p[0], 1, 1);
	mk(&p[1], 2, 2);
	mk(&p[2], 3, 3);
	mk(&p[3], 4, 4);
	p[0].has_simhash = p[1].has_simhash = p[2].has_simhash = 1;
	p[0].simhash = 0xf0f0f0f0f0f0f0f0ULL;
	p[1].simhash = p[0].simhash ^ 0x3; /* 2 bits away */
	p[2].simhash = ~p[0].simhash;      /* 64 bits away */
	/* p[3] has none: never joined by a SimHash. */
	CHECK_INT(search_fold(p, cl, 4, 1, SEARCH_RULE_CANONICAL, &g, &ng),
	    0);
	CHECK(ng == 4);
	search_fold_free(g, ng);
	CHECK_INT(search_fold(p, cl, 4, 2, SEARCH_RULE_CANONICAL, &g, &ng),
	    0);
	CHECK(ng == 3);
	if (ng == 3) {
		CHECK(g[0].best->id == 1 && g[0].nmembers == 1);
		CHECK(g[0].members[0]->fold == SEARCH_FOLD_SIMHASH);
		CHECK(g[0].members[0]->bits == 2);
		CHECK(g[0].best->bits == 0);
		CHECK(g[2].best->id == 4 && g[2].best->bits == -1);
	}
	search_fold_free(g, ng);
	/* 64 bits: every page with a SimHash is one group. */
	CHECK_INT(search_fold(p, cl, 4, 64, SEARCH_RULE_CANONICAL, &g, &ng),
	    0);
	CHECK(ng == 2);
	search_fold_free(g, ng);
	/* Nothing to fold. */
	CHECK_INT(search_fold(p, cl, 0, 3, SEARCH_RULE_CANONICAL, &g, &ng), 0);
	CHECK(ng == 0 && g == NULL);
}

/* The groups of a brute-force pairwise scan, as each page's smallest
 * partner reached (a naive union-find). */
static void
brute_groups(const struct search_page *p, size_t n, int k, size_t *root)
{
	size_t i, j, a, b;

	for (i = 0; i < n; i++)
		root[i] = i;
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++) {
			if (search_bits(p[i].simhash, p[j].simhash) > k)
				continue;
			for (a = i; root[a] != a; a = root[a])
				;
			for (b = j; root[b] != b; b = root[b])
				;
			if (a < b)
				root[b] = a;
			else if (b < a)
				root[a] = b;
		}
	for (i = 0; i < n; i++) {
		for (a = i; root[a] != a; a = root[a])
			;
		root[i] = a;
	}
}

/* The block index finds exactly the pairs a pairwise scan finds, for
 * every k the paper uses and more, on hashes made to cluster. */
static void
test_simhash_blocks(void)
{
	enum { N = 300 };
	static struct search_page p[N];
	static int64_t cl[N];
	static size_t root[N];
	struct search_group *g = NULL;
	uint64_t s = 42, base[12];
	size_t ng, i, j, m, groups;
	int k, ok;

	for (i = 0; i < 12; i++)
		base[i] = check_splitmix(&s);
	for (i = 0; i < N; i++) {
		mk(&p[i], (int64_t)i + 1, (int64_t)i + 1);
		p[i].has_simhash = 1;
		/* Near one of 12 centres: 0 to 5 random bits flipped. */
		p[i].simhash = base[check_splitmix(&s) % 12];
		for (j = check_splitmix(&s) % 6; j > 0; j--)
			p[i].simhash ^= (uint64_t)1 <<
			    (check_splitmix(&s) % 64);
	}
	for (k = 0; k <= 6; k++) {
		brute_groups(p, N, k, root);
		for (i = 0, groups = 0; i < N; i++)
			groups += root[i] == i;
		CHECK_INT(search_fold(p, cl, N, k, SEARCH_RULE_CANONICAL, &g,
		    &ng), 0);
		CHECK(ng == groups);
		/* Every member shares its group's brute-force root. */
		for (i = 0, ok = 1; i < ng; i++)
			for (m = 0; m < g[i].nmembers; m++)
				if (root[g[i].members[m]->id - 1] !=
				    root[g[i].best->id - 1])
					ok = 0;
		CHECK(ok);
		search_fold_free(g, ng);
		g = NULL;
	}
}

static void
test_check_query(void)
{
	char err[128], big[SEARCH_QUERY_MAX + 2];

	CHECK_INT(search_check_query("lake", err, sizeof(err)), SEARCH_OK);
	CHECK_INT(search_check_query("café \"open day\"", err, sizeof(err)),
	    SEARCH_OK);
	CHECK_INT(search_check_query("  \t", err, sizeof(err)),
	    SEARCH_BADQUERY);
	CHECK_STR(err, "an empty query");
	CHECK_INT(search_check_query("a\001b", err, sizeof(err)),
	    SEARCH_BADQUERY);
	CHECK_INT(search_check_query("caf\xe9", err, sizeof(err)),
	    SEARCH_BADQUERY);
	CHECK_STR(err, "the query is not UTF-8 text (byte 4)");
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	CHECK_INT(search_check_query(big, err, sizeof(err)), SEARCH_BADQUERY);
}

/* One query as a tsquery, or "ERR: why". */
static const char *
ts(const char *q)
{
	static char out[1024];
	char why[256];

	if (store_search_tsquery(q, out, sizeof(out), why, sizeof(why)) != 0)
		snprintf(out, sizeof(out), "ERR: %s", why);
	return out;
}

static void
test_tsquery(void)
{
	CHECK_STR(ts("lake"), "((('lake')))");
	CHECK_STR(ts("open day"), "((('open') & ('day')))");
	CHECK_STR(ts("\"open day\""), "((('open' <-> 'day')))");
	CHECK_STR(ts("lake*"), "((('lake':*)))");
	CHECK_STR(ts("a OR b"), "((('a')) | (('b')))");
	CHECK_STR(ts("a NOT b"), "(((('a')) & !(('b'))))");
	CHECK_STR(ts("a AND (b OR c)"),
	    "((('a')) & (((('b')) | (('c')))))");
	CHECK_STR(ts("title:lake"), "((('lake':A)))");
	CHECK_STR(ts("-title:lake*"), "((('lake':*D)))");
	CHECK_STR(ts("{title body}:lake"), "((('lake')))");
	CHECK_STR(ts("title:(a OR b)"), "((((('a':A)) | (('b':A)))))");
	CHECK_STR(ts("NEAR(a b, 5)"), "(((('a') & ('b'))))");
	CHECK_STR(ts("a + b"), "((('a' <-> 'b')))");
	/* The tokenizer's split: "a_b" is two words, '"' is doubled. */
	CHECK_STR(ts("a_b"), "((('a' <-> 'b')))");
	CHECK_STR(ts("\"say \"\"hi\"\"\""), "((('say' <-> 'hi')))");
	CHECK_STR(ts("café"), "((('café')))");
	/* Refusals, in FTS5's words where it refuses too. */
	CHECK_STR(ts("a AND"), "ERR: fts5: syntax error near \"\"");
	CHECK_STR(ts("OR a"), "ERR: fts5: syntax error near \"OR\"");
	CHECK_STR(ts("\"open"), "ERR: unterminated string");
	CHECK_STR(ts("(a"), "ERR: fts5: syntax error near \"\"");
	CHECK_STR(ts("a)"), "ERR: fts5: syntax error near \")\"");
	CHECK_STR(ts("url:x"), "ERR: no such column: url");
	CHECK_STR(ts(""), "ERR: an empty query");
	CHECK(strncmp(ts("^a"), "ERR: ^", 6) == 0);
	CHECK(strncmp(ts("\"...\""), "ERR: a phrase without words", 27) ==
	    0);
	CHECK(strncmp(ts("title:body:x"), "ERR: fts5: syntax error", 23) ==
	    0);
	/* FTS5 finds nothing there; PostgreSQL would need a query that
	 * matches nothing, which tsquery cannot say. */
	CHECK(strncmp(ts("title:(body:x)"), "ERR: the column filters", 23) ==
	    0);
}

static char sdir[64];  /* a temporary directory */
static char spath[96]; /* its crawl.db */

static void
sdir_clean(void)
{
	char p[384];
	struct dirent *de;
	DIR *d;

	if ((d = opendir(sdir)) != NULL) {
		while ((de = readdir(d)) != NULL)
			if (de->d_name[0] != '.') {
				snprintf(p, sizeof(p), "%s/%s", sdir,
				    de->d_name);
				unlink(p);
			}
		closedir(d);
	}
	rmdir(sdir);
}

/* A new crawl.db in a new sdir, in a batch; NULL (checked) when it
 * cannot be made. */
static struct store *
sdir_store(char *err, size_t errsz)
{
	struct store *s;

	snprintf(sdir, sizeof(sdir), "/tmp/nc_search_XXXXXX");
	if (mkdtemp(sdir) == NULL)
		abort();
	snprintf(spath, sizeof(spath), "%s/crawl.db", sdir);
	s = store_open(spath, STORE_CREATE, err, errsz);
	CHECK(s != NULL);
	if (s != NULL)
		CHECK_INT(store_begin(s), 0);
	return s;
}

/* A judged page with its index entry. */
static int64_t
add_page(struct store *s, const char *url, const char *verdict, int64_t seq,
    uint64_t simhash, const char *title, const char *text)
{
	struct store_page p;
	int64_t id;

	memset(&p, 0, sizeof(p));
	p.url = url;
	p.host = "a.example";
	p.verdict = store_verdict_parse(verdict);
	p.status = 200;
	p.seq = seq;
	p.fetched_at = 1700000000.0 + (double)seq;
	p.has_simhash = 1;
	p.simhash = simhash;
	p.title = title;
	if ((id = store_page_add(s, &p)) <= 0)
		return -1;
	if (store_search_add(s, id, title, text, strlen(text)) != 0)
		return -1;
	return id;
}

/* Remove spath's index file, its WAL and shared memory. */
static void
side_unlink(void)
{
	static const char *const suffix[] = { "-search", "-search-wal",
	    "-search-shm" };
	char p[128];
	size_t i;

	for (i = 0; i < sizeof(suffix) / sizeof(suffix[0]); i++) {
		snprintf(p, sizeof(p), "%s%s", spath, suffix[i]);
		unlink(p);
	}
}

/* The one value of sql on spath's index file, as text ("" on error). */
static const char *
side_text(const char *sql)
{
	static char out[256];
	sqlite3_stmt *st = NULL;
	sqlite3 *h = NULL;
	char p[128];

	out[0] = '\0';
	snprintf(p, sizeof(p), "%s-search", spath);
	if (sqlite3_open_v2(p, &h, SQLITE_OPEN_READWRITE, NULL) == SQLITE_OK &&
	    sqlite3_prepare_v2(h, sql, -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		snprintf(out, sizeof(out), "%s",
		    (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	sqlite3_close(h);
	return out;
}

/* The text as indexed: the word-at-a-time path against the byte-at-a-time
 * one, over strings of every kind of byte at every alignment, and what
 * each kind becomes. */
static void
test_clean(void)
{
	/* Pieces the strings are made of: plain ASCII, the marks, NUL,
	 * byte 1 (below 4 but kept), good UTF-8 of 2 to 4 bytes, U+FFFD
	 * itself, a lone lead byte, a stray continuation, an overlong and a
	 * surrogate. */
	static const char *const piece[] = { "abcdefgh", "x", " ", "\002",
	    "\003", "\001", "\303\251", "\342\202\254", "\360\237\230\200",
	    "\357\277\275", "\303", "\200", "\300\257", "\355\240\200",
	    "0123456789abcdef" };
	char a[256], b[256];
	unsigned seed = 12345;
	size_t n, len, k;
	int t, bad = 0;
	char *c;

	for (t = 0; t < 4000; t++) {
		for (len = 0, n = (t % 13) + 1; n > 0; n--) {
			seed = seed * 1103515245u + 12345u;
			k = strlen(piece[(seed >> 8) % (sizeof(piece) /
			    sizeof(piece[0]))]);
			if (len + k > sizeof(a) - 1)
				break;
			memcpy(a + len, piece[(seed >> 8) % (sizeof(piece) /
			    sizeof(piece[0]))], k);
			len += k;
		}
		if (t % 7 == 0 && len > 0)
			a[len / 2] = '\0';
		memcpy(b, a, len);
		store_searchw_clean_here(a, len);
		store_searchw_clean_plain(b, len);
		if (memcmp(a, b, len) != 0)
			bad++;
	}
	CHECK_INT(bad, 0);

	memcpy(a, "0123456789\002ab\003\000\303\251\303x\001", 20);
	store_searchw_clean_here(a, 20);
	CHECK(memcmp(a, "0123456789 ab  \303\251 x\001", 20) == 0);
	c = store_searchw_clean("abcdefgh\355\240\200abcdefgh", 19);
	CHECK(c != NULL && strcmp(c, "abcdefgh   abcdefgh") == 0);
	free(c);
}

/*
 * The index file and its writer thread: a rollback drops what it handed
 * over (the id, drawn again, is indexed without a clash), a recrawl's
 * entry replaces the page's and a gone page's goes, a writer open deletes
 * the entries of pages never committed (a kill between the two commits),
 * and a lost file is made again by the next entry.
 */
static void
test_index_file(void)
{
	struct store *s;
	char err[256], side[160];
	int64_t a, b, b2;
	FILE *f;

	if ((s = sdir_store(err, sizeof(err))) == NULL)
		goto out;
	a = add_page(s, "http://a.example/lake", "unique", 1, 0xff,
	    "The lake", "The lake is wide.");
	CHECK(a > 0);
	CHECK_INT(store_commit(s), 0);
	CHECK_STR(side_text("SELECT count(*) FROM search_text"), "1");

	CHECK_INT(store_begin(s), 0);
	b = add_page(s, "http://a.example/pond", "unique", 2, 0xfc, "Pond",
	    "A pond, rolled back.");
	CHECK(b > a);
	CHECK_INT(store_rollback(s), 0);
	CHECK_STR(side_text("SELECT count(*) FROM search_text"), "1");
	CHECK_INT(store_begin(s), 0);
	b2 = add_page(s, "http://a.example/pond", "unique", 2, 0xfc, "Pond",
	    "A pond, kept.");
	CHECK(b2 == b);
	CHECK_INT(store_commit(s), 0);
	CHECK_STR(side_text("SELECT group_concat(body, '|') FROM "
	    "(SELECT body FROM search_text ORDER BY rowid)"),
	    "The lake is wide.|A pond, kept.");

	/* A recrawl: the lake's text changed, the pond is gone. */
	CHECK_INT(store_begin(s), 0);
	CHECK_INT(store_search_set(s, a, "The lake", "The lake froze.", 15),
	    0);
	CHECK_INT(store_search_drop(s, b2), 0);
	CHECK_INT(store_commit(s), 0);
	CHECK_STR(side_text("SELECT group_concat(rowid || ':' || body, '|') "
	    "FROM search_text"), "1:The lake froze.");
	CHECK_STR(side_text("SELECT count(*) FROM search_text WHERE "
	    "search_text MATCH 'wide'"), "0");
	store_close(s);

	/* Entries the database never committed, as a kill leaves them. */
	CHECK_STR(side_text("INSERT INTO search_text (rowid, title, body) "
	    "VALUES (7, 'x', 'orphan'), (8, 'y', 'orphan') RETURNING 1"), "1");
	CHECK_STR(side_text("SELECT count(*) FROM search_text"), "3");
	s = store_open(spath, 0, err, sizeof(err));
	CHECK(s != NULL);
	CHECK_STR(side_text("SELECT count(*) FROM search_text"), "1");
	store_close(s);

	/* A lost file: the next entry makes it again. */
	side_unlink();
	s = store_open(spath, 0, err, sizeof(err));
	CHECK(s != NULL);
	if (s == NULL)
		goto out;
	CHECK_INT(store_begin(s), 0);
	CHECK_INT(store_search_add(s, a, "The lake", "Again.", 6), 0);
	CHECK_INT(store_commit(s), 0);
	store_close(s);
	CHECK_STR(side_text("SELECT body FROM search_text WHERE rowid = 1"),
	    "Again.");

	/* A file made but given no table, as a kill in its making leaves
	 * it: a writer open completes it. */
	side_unlink();
	snprintf(side, sizeof(side), "%s-search", spath);
	if ((f = fopen(side, "w")) != NULL)
		fclose(f);
	s = store_open(spath, 0, err, sizeof(err));
	CHECK(s != NULL);
	if (s == NULL)
		goto out;
	store_close(s);
	CHECK_STR(side_text("SELECT count(*) FROM search_text"), "0");
out:
	sdir_clean();
}

/*
 * A run on an SQLite index: an article, its exact copy (folded), an
 * unrelated page within 2 SimHash bits (folded only with --k 2), and a
 * page without the word; a bad query; a database whose index table is
 * gone.
 */
static void
test_run_sqlite(void)
{
	struct search_result *r = NULL;
	struct search_opts o;
	struct search *sr = NULL;
	struct store *s;
	char err[256];
	int64_t a, b;

	if ((s = sdir_store(err, sizeof(err))) == NULL)
		goto out;
	a = add_page(s, "http://a.example/lake", "unique", 1, 0xff, "The lake",
	    "The lake is wide and the harbour \002busy\003 at noon.");
	b = add_page(s, "http://a.example/lake?x=1", "exact", 2, 0xff,
	    "The lake", "The lake is wide and the harbour busy at noon.");
	CHECK(add_page(s, "http://a.example/pond", "unique", 3, 0xfc,
	    "A pond", "A pond by the lake, small and still.") > 0);
	CHECK(add_page(s, "http://a.example/hills", "unique", 4, 0x0f00,
	    "Hills", "Nothing about water here.") > 0);
	CHECK(a > 0 && b > 0);
	CHECK_INT(store_duplicate_add(s, b, a, "md5", 100.0), 0);
	CHECK_INT(store_commit(s), 0);
	store_close(s);

	CHECK_INT(search_open(spath, &sr, err, sizeof(err)), SEARCH_OK);
	if (sr == NULL)
		goto out;
	search_opts_default(&o);
	CHECK_INT(search_run(sr, "lake", &o, &r, err, sizeof(err)),
	    SEARCH_OK);
	CHECK(r != NULL && r->matches == 3 && r->ngroups == 2);
	CHECK(r != NULL && !r->ranked && !r->partial && r->omitted == 1);
	if (r != NULL && r->ngroups == 2) {
		/* The copy folds under the page fetched first. */
		CHECK(r->groups[0].best->id == a || r->groups[1].best->id == a);
		/* The marks in the stored text were blanked: only the
		 * matched word is marked, and "busy" is plain. */
		CHECK(strstr(r->groups[0].snippet, "busy") != NULL ||
		    strstr(r->groups[1].snippet, "busy") != NULL);
		CHECK(r->groups[0].nmarks >= 1);
		CHECK(r->groups[0].nmarks >= 1 &&
		    strncmp(r->groups[0].snippet + r->groups[0].marks[0].off,
		    "lake", 4) == 0 && r->groups[0].marks[0].len == 4);
	}
	search_result_free(r);
	r = NULL;
	/* --k 2: the pond (2 bits from the lake pages) joins them. */
	o.k = 2;
	CHECK_INT(search_run(sr, "lake", &o, &r, err, sizeof(err)),
	    SEARCH_OK);
	CHECK(r != NULL && r->ngroups == 1 && r->omitted == 2);
	search_result_free(r);
	r = NULL;
	o.k = -1;
	/* A phrase, and a page of results past the end. */
	CHECK_INT(search_run(sr, "\"harbour busy\"", &o, &r, err,
	    sizeof(err)), SEARCH_OK);
	CHECK(r != NULL && r->matches == 2 && r->ngroups == 1);
	search_result_free(r);
	r = NULL;
	o.offset = 5;
	CHECK_INT(search_run(sr, "lake", &o, &r, err, sizeof(err)),
	    SEARCH_OK);
	CHECK(r != NULL && r->ngroups == 0 && r->ngroups_all == 2);
	search_result_free(r);
	r = NULL;
	o.offset = 0;
	/* Bad queries and options: refused, nothing returned. */
	CHECK_INT(search_run(sr, "lake AND", &o, &r, err, sizeof(err)),
	    SEARCH_BADQUERY);
	CHECK(r == NULL);
	CHECK_STR(err, "bad query: fts5: syntax error near \"\"");
	CHECK_INT(search_run(sr, "url:lake", &o, &r, err, sizeof(err)),
	    SEARCH_BADQUERY);
	CHECK_STR(err, "bad query: no such column: url");
	o.top = 0;
	CHECK_INT(search_run(sr, "lake", &o, &r, err, sizeof(err)),
	    SEARCH_BADQUERY);
	o.top = 1000;
	/* The handle works on after a refusal. */
	CHECK_INT(search_run(sr, "hills", &o, &r, err, sizeof(err)),
	    SEARCH_OK);
	CHECK(r != NULL && r->matches == 1);
	search_result_free(r);
	r = NULL;
	search_close(sr);
	sr = NULL;

	/* A database whose index file is gone (or made before the index),
	 * read without a writer's open: told to run nearcrawl index. */
	side_unlink();
	CHECK_INT(search_open(spath, &sr, err, sizeof(err)), SEARCH_BADDB);
	CHECK(sr == NULL);
	CHECK(strstr(err, "no search index") != NULL &&
	    strstr(err, "nearcrawl index -d") != NULL);
out:
	search_result_free(r);
	search_close(sr);
	sdir_clean();
}

void
suite_search(void)
{
	RUN(test_clusters);
	RUN(test_fold_clusters);
	RUN(test_fold_rules);
	RUN(test_fold_simhash);
	RUN(test_simhash_blocks);
	RUN(test_check_query);
	RUN(test_tsquery);
	RUN(test_run_sqlite);
	RUN(test_index_file);
	RUN(test_clean);
}
