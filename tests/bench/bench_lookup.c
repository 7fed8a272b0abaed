/*
 * bench_lookup: does the cost of a near-duplicate lookup stay flat as the
 * store grows? For each N, N synthetic fingerprints are stored in the
 * SimHash block index (simindex) and in the ssdeep 7-gram index
 * (ssdeep_index); the same queries are then answered by the index and by a
 * brute-force scan of all N, and the answers are checked to be the same.
 *
 *   bench_lookup [-m simhash|ssdeep] [-q QUERIES] [-b BRUTE] [-B BRUTE]
 *                [-r RUNS] [-k K] [-t T] [-s SEED] N...
 *
 * SimHash: random 64-bit values, a tenth of them near copies (0..k bits
 * flipped) of an earlier one. ssdeep: digests (libfuzzy's fuzzy_hash_buf)
 * of texts of 1-8 KB (log-uniform) drawn from a word list, a tenth of them
 * edited copies of an earlier text. Queries: half near copies of stored
 * values or texts, half new ones; QUERIES for SimHash (default 20000), a
 * tenth of that for ssdeep. The index answers them RUNS times (default 3,
 * median reported); brute force answers the first of them once: -B
 * (default all) for SimHash, -b (default 100) for ssdeep, whose scan calls
 * fuzzy_compare N times; its rate is per lookup of that sample.
 * Instructions per lookup come from the CPU's counter (perf_event_open)
 * when the kernel allows it, "-" otherwise: they are steady where times on
 * a shared machine are not.
 *
 * Prints one table row per method and N; exit 1 when an index answer
 * differs from brute force, 2 on bad usage or no memory.
 */
#include <errno.h>
#include <inttypes.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <fuzzy.h>

#include "dedup/simindex.h"
#include "dedup/ssdeep.h"

#define MAX_N 100000000
#define OUT_MAX 16
#define TEXT_MIN 1024
#define TEXT_MAX 8192
#define EDIT_MAX 256
#define MAX_RUNS 15

static const char *const vocab[] = {"the", "of", "and", "to", "in", "a", "is",
    "for", "on", "with", "university", "students", "research", "faculty",
    "campus", "program", "study", "department", "course", "lecture",
    "professor", "laboratory", "science", "data", "analysis", "project", "team",
    "library", "semester", "graduate", "community", "public", "results",
    "report", "funding", "grant", "center", "institute", "policy", "network",
    "system", "model", "energy", "climate", "health", "medical", "clinical",
    "patient", "biology", "chemistry", "physics", "mathematics", "engineering",
    "computer", "software", "history", "language", "literature", "music", "art",
    "culture", "society", "economy", "market", "water", "city", "region",
    "national", "global", "local", "new", "first", "annual", "recent",
    "important", "several", "many", "open", "early", "major", "final", "future",
    "support", "develop", "improve", "present", "discuss", "announce",
    "publish", "describe", "explore", "measure", "compare", "observe", "design",
    "build", "test", "launch", "award", "invite", "welcome", "host", "workshop",
    "conference", "seminar", "exhibition", "festival", "season", "match",
    "coach", "player", "alumni", "donor", "volunteer", "staff", "member",
    "committee", "board", "council", "year", "month", "week", "day", "morning",
    "evening", "spring", "summer", "autumn", "winter", "building", "hall",
    "room", "garden", "museum", "archive", "journal", "article", "book",
    "paper", "thesis", "experiment", "survey", "method", "evidence", "theory",
    "practice", "question", "answer", "problem", "solution", "change", "growth",
    "impact", "effect", "benefit", "risk", "cost", "quality", "access",
    "safety", "privacy", "ethics", "digital", "online", "mobile", "social",
    "economic", "political", "sustainable", "river", "forest", "ocean",
    "mountain", "island", "bridge", "street", "village", "machine", "robot",
    "sensor", "satellite", "telescope", "genome", "protein", "cell", "vaccine",
    "therapy", "hospital"};
#define NVOCAB (sizeof(vocab) / sizeof(vocab[0]))

static int k_dist = 3;     /* SimHash distance */
static int threshold = 90; /* ssdeep score */
static uint64_t seed = 20240611;

static uint64_t
mix(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return x;
}

static uint64_t
rnd(uint64_t *s)
{
	*s += 0x9e3779b97f4a7c15ULL;
	return mix(*s);
}

static double
now_s(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The CPU's user-space instruction counter, or -1 when not allowed. */
static int
counter_open(void)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_HARDWARE;
	a.size = sizeof(a);
	a.config = PERF_COUNT_HW_INSTRUCTIONS;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	return (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
}

static uint64_t
counter_read(int fd)
{
	uint64_t v = 0;

	if (fd < 0 || read(fd, &v, sizeof(v)) != (ssize_t)sizeof(v))
		return 0;
	return v;
}

/* One timed stretch: wall seconds and instructions. */
struct span {
	double t0;
	uint64_t i0;
};

static void
span_start(struct span *sp, int fd)
{
	sp->i0 = counter_read(fd);
	sp->t0 = now_s(CLOCK_PROCESS_CPUTIME_ID);
}

static void
span_end(const struct span *sp, int fd, double *secs, double *instr)
{
	*secs = now_s(CLOCK_PROCESS_CPUTIME_ID) - sp->t0;
	*instr = fd >= 0 ? (double)(counter_read(fd) - sp->i0) : -1;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double
median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* What one method measured at one N. */
struct result {
	const char *method;
	size_t n;      /* stored */
	double bytes;  /* index bytes per stored item */
	double build;  /* seconds to add all */
	double rate;   /* index lookups/s, median of the runs */
	double instr;  /* index instructions per lookup, median; < 0 none */
	double brate;  /* brute-force lookups/s on the sample */
	double binstr; /* brute-force instructions per lookup; < 0 none */
	size_t agree;  /* sample queries answered the same */
	size_t sample; /* brute-force sample */
	size_t hits;   /* sample queries with at least one match */
};

static void
print_header(void)
{
	printf("%-7s %8s %10s %8s %12s %11s %12s %11s %8s %8s %s\n", "method",
	    "stored", "bytes/page", "build_s", "index_look/s", "index_instr",
	    "brute_look/s", "brute_instr", "speedup", "instr_x",
	    "agree (sample, with matches)");
}

static void
print_row(const struct result *r)
{
	char ii[32] = "-", bi[32] = "-", ix[32] = "-";

	if (r->instr >= 0 && r->binstr >= 0) {
		snprintf(ii, sizeof(ii), "%.0f", r->instr);
		snprintf(bi, sizeof(bi), "%.0f", r->binstr);
		snprintf(ix, sizeof(ix), "%.0f", r->binstr / r->instr);
	}
	printf("%-7s %8zu %10.1f %8.2f %12.0f %11s %12.1f %11s %8.0f %8s "
	       "%zu/%zu (%zu)\n",
	    r->method, r->n, r->bytes, r->build, r->rate, ii, r->brate, bi,
	    r->rate / r->brate, ix, r->agree, r->sample, r->hits);
	fflush(stdout);
}

/* --- texts ---------------------------------------------------------- */

/* Words from the list into out until about len bytes; returns the length. */
static size_t
words_into(uint64_t *s, char *out, size_t len)
{
	size_t n = 0, w;
	const char *word;

	while (n < len) {
		word = vocab[rnd(s) % NVOCAB];
		w = strlen(word);
		if (n + w + 1 > len)
			break;
		memcpy(out + n, word, w);
		n += w;
		out[n++] = ' ';
	}
	return n;
}

/* The base text of item i: 1-8 KB, log-uniform. */
static size_t
base_text(uint64_t i, char *out)
{
	uint64_t s = mix(seed ^ (i * 0x9e3779b97f4a7c15ULL));
	double u = (double)(rnd(&s) >> 11) / 9007199254740992.0;
	size_t len = (size_t)(TEXT_MIN *
	    __builtin_exp(u * __builtin_log((double)TEXT_MAX / TEXT_MIN)));

	return words_into(&s, out, len);
}

/* Edit text in place: 1-3 spans replaced, inserted or deleted. */
static size_t
edit_text(uint64_t *s, char *text, size_t n)
{
	char piece[EDIT_MAX];
	size_t edits = 1 + rnd(s) % 3, pos, span, m;

	while (edits-- > 0 && n > EDIT_MAX) {
		pos = rnd(s) % (n - EDIT_MAX);
		span = 20 + rnd(s) % (EDIT_MAX - 20);
		m = words_into(s, piece, span);
		switch (rnd(s) % 3) {
		case 0: /* replace */
			memcpy(text + pos, piece, m < span ? m : span);
			break;
		case 1: /* insert */
			if (n + m > TEXT_MAX + EDIT_MAX * 3)
				break;
			memmove(text + pos + m, text + pos, n - pos);
			memcpy(text + pos, piece, m);
			n += m;
			break;
		default: /* delete */
			memmove(text + pos, text + pos + span, n - pos - span);
			n -= span;
			break;
		}
	}
	return n;
}

/* --- SimHash -------------------------------------------------------- */

static uint64_t
flip(uint64_t *s, uint64_t v, int bits)
{
	while (bits-- > 0)
		v ^= (uint64_t)1 << (rnd(s) % 64);
	return v;
}

static int
better_sim(const struct simindex_match *a, const struct simindex_match *b)
{
	if (a->distance != b->distance)
		return a->distance < b->distance;
	return a->id < b->id;
}

/* Brute force: count within k, keep the best OUT_MAX like the index. */
static size_t
sim_brute(const uint64_t *fp, size_t n, uint64_t q, struct simindex_match *out)
{
	struct simindex_match m, t;
	size_t i, found = 0, kept = 0, j;

	for (i = 0; i < n; i++) {
		m.distance = __builtin_popcountll(fp[i] ^ q);
		if (m.distance > k_dist)
			continue;
		m.id = (int64_t)i;
		found++;
		if (kept < OUT_MAX)
			out[kept++] = m;
		else if (better_sim(&m, &out[kept - 1]))
			out[kept - 1] = m;
		else
			continue;
		for (j = kept - 1; j > 0 && better_sim(&out[j], &out[j - 1]);
		     j--) {
			t = out[j];
			out[j] = out[j - 1];
			out[j - 1] = t;
		}
	}
	return found;
}

static int
bench_simhash(size_t n, size_t nq, size_t nbrute, int runs, int fd)
{
	struct simindex *ix = simindex_new(k_dist);
	uint64_t *fp = malloc(n * sizeof(*fp)), *q = malloc(nq * sizeof(*q));
	uint64_t s = seed ^ 0x73696dULL;
	struct simindex_match a[OUT_MAX], *b = NULL;
	size_t *nb = NULL, i, j, na, sink = 0;
	double secs, instr, rate[MAX_RUNS], ins[MAX_RUNS];
	struct result res = {"simhash", n, 0, 0, 0, 0, 0, 0, 0, 0, 0};
	struct span sp;
	int r, rc = 2;

	if (nbrute > nq)
		nbrute = nq;
	b = malloc((nbrute + 1) * OUT_MAX * sizeof(*b));
	nb = malloc((nbrute + 1) * sizeof(*nb));
	if (ix == NULL || fp == NULL || q == NULL || b == NULL || nb == NULL)
		goto out;
	for (i = 0; i < n; i++)
		fp[i] = i > 0 && rnd(&s) % 10 == 0
		    ? flip(&s, fp[rnd(&s) % i], (int)(rnd(&s) % (k_dist + 1)))
		    : rnd(&s);
	for (i = 0; i < nq; i++)
		q[i] = i % 2
		    ? rnd(&s)
		    : flip(&s, fp[rnd(&s) % n], (int)(rnd(&s) % (k_dist + 2)));
	res.build = now_s(CLOCK_PROCESS_CPUTIME_ID);
	for (i = 0; i < n; i++)
		if (simindex_add(ix, fp[i], (int64_t)i) != 0)
			goto out;
	res.build = now_s(CLOCK_PROCESS_CPUTIME_ID) - res.build;
	res.bytes = (double)simindex_bytes(ix) / (double)n;
	for (r = 0; r < runs; r++) {
		span_start(&sp, fd);
		for (i = 0; i < nq; i++)
			sink += simindex_query(ix, q[i], a, OUT_MAX);
		span_end(&sp, fd, &secs, &instr);
		rate[r] = (double)nq / secs;
		ins[r] = instr / (double)nq;
	}
	res.rate = median(rate, runs);
	res.instr = median(ins, runs);
	span_start(&sp, fd);
	for (i = 0; i < nbrute; i++)
		nb[i] = sim_brute(fp, n, q[i], b + i * OUT_MAX);
	span_end(&sp, fd, &secs, &instr);
	res.brate = (double)nbrute / secs;
	res.binstr = instr < 0 ? -1 : instr / (double)nbrute;
	res.sample = nbrute;
	for (i = 0; i < nbrute; i++) {
		na = simindex_query(ix, q[i], a, OUT_MAX);
		res.hits += nb[i] > 0;
		for (j = 0; na == nb[i] && j < na && j < OUT_MAX; j++)
			if (a[j].id != b[i * OUT_MAX + j].id ||
			    a[j].distance != b[i * OUT_MAX + j].distance)
				break;
		res.agree += na == nb[i] && (j == na || j == OUT_MAX);
	}
	print_row(&res);
	rc = res.agree == nbrute ? 0 : 1;
	if (sink == 42)
		fputc(' ', stderr);
out:
	simindex_free(ix);
	free(fp);
	free(q);
	free(b);
	free(nb);
	return rc;
}

/* --- ssdeep --------------------------------------------------------- */

struct digests {
	char *arena; /* NUL-terminated digests */
	size_t *off; /* of each */
	size_t n, len, cap;
};

static int
digests_add(struct digests *d, const char *dig)
{
	size_t l = strlen(dig) + 1;
	char *p;

	if (d->len + l > d->cap) {
		p = realloc(d->arena, d->cap * 2 + l + 4096);
		if (p == NULL)
			return -1;
		d->arena = p;
		d->cap = d->cap * 2 + l + 4096;
	}
	memcpy(d->arena + d->len, dig, l);
	d->off[d->n++] = d->len;
	d->len += l;
	return 0;
}

static int
better_ssd(const struct ssdeep_match *a, const struct ssdeep_match *b)
{
	if (a->score != b->score)
		return a->score > b->score;
	return a->id < b->id;
}

static size_t
ssd_brute(const struct digests *d, const char *q, struct ssdeep_match *out)
{
	struct ssdeep_match m, t;
	size_t i, found = 0, kept = 0, j;

	for (i = 0; i < d->n; i++) {
		m.score = fuzzy_compare(d->arena + d->off[i], q);
		if (m.score < threshold)
			continue;
		m.id = (int64_t)i;
		found++;
		if (kept < OUT_MAX)
			out[kept++] = m;
		else if (better_ssd(&m, &out[kept - 1]))
			out[kept - 1] = m;
		else
			continue;
		for (j = kept - 1; j > 0 && better_ssd(&out[j], &out[j - 1]);
		     j--) {
			t = out[j];
			out[j] = out[j - 1];
			out[j - 1] = t;
		}
	}
	return found;
}

/* Text of stored item i: its base text, or an edited copy of an earlier
 * item's base text for a tenth of them. */
static size_t
stored_text(size_t i, char *buf)
{
	uint64_t s = mix(seed ^ 0x706c616e74ULL ^ i);
	size_t n;

	if (i > 0 && rnd(&s) % 10 == 0) {
		n = base_text(rnd(&s) % i, buf);
		return edit_text(&s, buf, n);
	}
	return base_text(i, buf);
}

static int
bench_ssdeep(size_t n, size_t nq, size_t nbrute, int runs, int fd)
{
	struct ssdeep_index *ix = ssdeep_index_new();
	struct digests d = {NULL, NULL, 0, 0, 0}, qd = {NULL, NULL, 0, 0, 0};
	char *buf = malloc(TEXT_MAX + 4 * EDIT_MAX), dig[FUZZY_MAX_RESULT];
	struct ssdeep_match a[OUT_MAX], *b = NULL;
	double secs, instr, rate[MAX_RUNS], ins[MAX_RUNS], gen, bytes = 0;
	size_t i, j, na, *nb = NULL, len, sink = 0;
	uint64_t s = seed ^ 0x7175657279ULL;
	struct result res = {"ssdeep", n, 0, 0, 0, 0, 0, 0, 0, 0, 0};
	struct span sp;
	int r, rc = 2;

	if (nbrute > nq)
		nbrute = nq;
	d.off = malloc(n * sizeof(*d.off));
	qd.off = malloc(nq * sizeof(*qd.off));
	b = malloc((nbrute + 1) * OUT_MAX * sizeof(*b));
	nb = malloc((nbrute + 1) * sizeof(*nb));
	if (ix == NULL || buf == NULL || d.off == NULL || qd.off == NULL ||
	    b == NULL || nb == NULL)
		goto out;
	gen = now_s(CLOCK_PROCESS_CPUTIME_ID);
	for (i = 0; i < n; i++) {
		len = stored_text(i, buf);
		bytes += (double)len;
		if (fuzzy_hash_buf((unsigned char *)buf, (uint32_t)len, dig) !=
		        0 ||
		    digests_add(&d, dig) != 0)
			goto out;
	}
	gen = now_s(CLOCK_PROCESS_CPUTIME_ID) - gen;
	fprintf(stderr,
	    "bench_lookup: %zu texts (%.0f MB) hashed in %.1f s "
	    "(%.0f digests/s)\n",
	    n, bytes / 1e6, gen, (double)n / gen);
	for (i = 0; i < nq; i++) {
		if (i % 2 == 0) {
			len = base_text(rnd(&s) % n, buf);
			len = edit_text(&s, buf, len);
		} else
			len = base_text((uint64_t)MAX_N + i, buf);
		if (fuzzy_hash_buf((unsigned char *)buf, (uint32_t)len, dig) !=
		        0 ||
		    digests_add(&qd, dig) != 0)
			goto out;
	}
	res.build = now_s(CLOCK_PROCESS_CPUTIME_ID);
	for (i = 0; i < n; i++)
		if (ssdeep_index_add(ix, d.arena + d.off[i], (int64_t)i) != 0)
			goto out;
	res.build = now_s(CLOCK_PROCESS_CPUTIME_ID) - res.build;
	res.bytes = (double)ssdeep_index_bytes(ix) / (double)n;
	for (r = 0; r < runs; r++) {
		span_start(&sp, fd);
		for (i = 0; i < nq; i++)
			sink += ssdeep_index_query(
			    ix, qd.arena + qd.off[i], threshold, a, OUT_MAX);
		span_end(&sp, fd, &secs, &instr);
		rate[r] = (double)nq / secs;
		ins[r] = instr / (double)nq;
	}
	res.rate = median(rate, runs);
	res.instr = median(ins, runs);
	span_start(&sp, fd);
	for (i = 0; i < nbrute; i++)
		nb[i] = ssd_brute(&d, qd.arena + qd.off[i], b + i * OUT_MAX);
	span_end(&sp, fd, &secs, &instr);
	res.brate = (double)nbrute / secs;
	res.binstr = instr < 0 ? -1 : instr / (double)nbrute;
	res.sample = nbrute;
	for (i = 0; i < nbrute; i++) {
		na = ssdeep_index_query(
		    ix, qd.arena + qd.off[i], threshold, a, OUT_MAX);
		res.hits += nb[i] > 0;
		for (j = 0; na == nb[i] && j < na && j < OUT_MAX; j++)
			if (a[j].id != b[i * OUT_MAX + j].id ||
			    a[j].score != b[i * OUT_MAX + j].score)
				break;
		res.agree += na == nb[i] && (j == na || j == OUT_MAX);
	}
	print_row(&res);
	rc = res.agree == nbrute ? 0 : 1;
	if (sink == 42)
		fputc(' ', stderr);
out:
	ssdeep_index_free(ix);
	free(buf);
	free(d.arena);
	free(d.off);
	free(qd.arena);
	free(qd.off);
	free(b);
	free(nb);
	return rc;
}

static int
number(const char *s, long min, long max, long *out)
{
	char *end;

	errno = 0;
	*out = strtol(s, &end, 10);
	return errno == 0 && end != s && *end == '\0' && *out >= min &&
	        *out <= max
	    ? 0
	    : -1;
}

int
main(int argc, char **argv)
{
	long nq = 20000, nbs = -1, nbd = 100, runs = 3, v;
	int ch, fd, rc = 0, r, sim = 1, ssd = 1;

	while ((ch = getopt(argc, argv, "m:q:b:B:r:k:t:s:")) != -1) {
		if (ch == 'm') {
			sim = strcmp(optarg, "ssdeep") != 0;
			ssd = strcmp(optarg, "simhash") != 0;
			if (!sim && !ssd)
				goto usage;
			continue;
		}
		if (optarg == NULL || number(optarg, 0, MAX_N, &v) != 0)
			goto usage;
		switch (ch) {
		case 'q':
			nq = v;
			break;
		case 'b':
			nbd = v;
			break;
		case 'B':
			nbs = v;
			break;
		case 'r':
			runs = v;
			break;
		case 'k':
			k_dist = (int)v;
			break;
		case 't':
			threshold = (int)v;
			break;
		case 's':
			seed = (uint64_t)v;
			break;
		default:
			goto usage;
		}
	}
	if (optind >= argc || nq < 2 || runs < 1 || runs > MAX_RUNS ||
	    k_dist > SIMINDEX_MAX_K || threshold < 1 || threshold > 100)
		goto usage;
	fd = counter_open();
	printf(
	    "SimHash k=%d over %ld queries, ssdeep threshold %d over %ld; "
	    "%ld runs, medians; brute force on the first %ld and %ld of them; "
	    "instructions %s\n",
	    k_dist, nq, threshold, nq / 10, runs, nbs < 0 ? nq : nbs, nbd,
	    fd >= 0 ? "from the CPU counter" : "not available");
	print_header();
	for (; optind < argc; optind++) {
		if (number(argv[optind], 1, MAX_N, &v) != 0)
			goto usage;
		if (sim) {
			r = bench_simhash((size_t)v, (size_t)nq,
			    (size_t)(nbs < 0 ? nq : nbs), (int)runs, fd);
			rc = r > rc ? r : rc;
		}
		if (ssd) {
			r = bench_ssdeep((size_t)v,
			    (size_t)nq / 10 > 0 ? (size_t)nq / 10 : 1,
			    (size_t)nbd, (int)runs, fd);
			rc = r > rc ? r : rc;
		}
	}
	if (fd >= 0)
		close(fd);
	return rc;
usage:
	fprintf(stderr,
	    "usage: bench_lookup [-m simhash|ssdeep] [-q QUERIES] [-b BRUTE] "
	    "[-B BRUTE] "
	    "[-r RUNS] [-k K] [-t T] [-s SEED] N...\n");
	return 2;
}
