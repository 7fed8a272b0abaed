#include "crawler/state.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/ioctl.h>
#include <unistd.h>

#include "util/esc.h"
#include "util/threadcpu.h"
#include "util/workpool.h"

void
crawl_init(struct crawl *c, const struct config *cfg, enum crawl_mode mode,
    char *err, size_t errsz)
{
	memset(c, 0, sizeof(*c));
	c->cfg = cfg;
	c->mode = mode;
	c->term.tty = isatty(STDERR_FILENO);
	c->err = err;
	c->errsz = errsz;
	err[0] = '\0';
	c->started = clock_mono_ms();
	c->db.last_commit = c->term.last_progress = c->started;
}

void
crawl_fail_said(struct crawl *c)
{
	c->end.failed = 1;
	crawl_stop(c, 1);
	if (c->loop.base != NULL)
		event_base_loopbreak(c->loop.base);
}

void
crawl_fail_because(struct crawl *c, const char *what, const char *why)
{
	if (!c->end.failed)
		snprintf(c->err, c->errsz, "%s: %s", what, why);
	crawl_fail_said(c);
}

void
crawl_fail(struct crawl *c, const char *what)
{
	crawl_fail_because(c, what, store_errmsg(c->st));
}

int
crawl_commit(struct crawl *c)
{
	double t0 = clock_mono_ms();

	if (store_renew(c->st) != 0) {
		crawl_fail(c, "cannot commit to the database");
		return -1;
	}
	c->db.batch = 0;
	c->db.last_commit = clock_mono_ms();
	c->stages.store_ms += c->db.last_commit - t0;
	return 0;
}

void
crawl_batch_page(struct crawl *c)
{
	if (++c->db.batch >= c->cfg->batch || c->share != NULL)
		crawl_commit(c);
}

/* Leave the terminal's progress line before other output. */
void
crawl_end_progress(struct crawl *c)
{
	if (c->term.progress_shown)
		fputs("\r\033[K", stderr);
	c->term.progress_shown = 0;
}

void
crawl_count_stages(struct crawl *c, const struct page_work *w,
    double lookup_ms, double store_ms)
{
	c->stages.pages++;
	c->stages.transfer_ms += w->elapsed_ms;
	c->stages.extract_ms += w->extract_ms;
	c->stages.fingerprint_ms += w->fingerprint_ms;
	c->stages.lookup_ms += lookup_ms;
	c->stages.store_ms += store_ms;
}

void
crawl_count_cpu(struct crawl *c)
{
	c->stages.cpu_read = threadcpu_read(WORKPOOL_THREAD_NAME,
	    &c->stages.cpu) == 0;
}

/* A pages row for j's URL, numbered next in fetch order. */
void
crawl_new_row(struct crawl *c, const struct job *j, struct store_page *p)
{
	memset(p, 0, sizeof(*p));
	p->url = j->it.url;
	p->host = j->host;
	p->depth = j->it.depth;
	p->parent = j->it.parent;
	p->seq = ++c->db.seq;
	p->fetched_at = j->fetched_at > 0 ? j->fetched_at : clock_wall_s();
}

void
crawl_job_free(struct job *j)
{
	struct page_work *w;

	if (j == NULL)
		return;
	if ((w = j->work) != NULL) {
		buf_free(&w->body);
		free(w->content_type);
		free(w->x_robots_tag);
		free(w->link);
		free(w->etag);
		free(w->last_modified);
		free(w->link_canonical);
		digest_free(&w->dg);
		free(w);
	}
	free(j->prior);
	store_item_clear(&j->it);
	free(j);
}

/*
 * The site whose template a page of host shares: the longest domain of the
 * crawl's scope that holds it (--allow-domain uni.example: every server of
 * the university, which one CMS usually dresses alike), else the host.
 */
const char *
crawl_site_of(const struct crawl *c, const char *host)
{
	const char *best = host, *d;
	size_t i, bl = 0;

	for (i = 0; i < c->scope.ndomains; i++) {
		d = c->scope.domains[i][0] == '.' ? c->scope.domains[i] + 1
		                                  : c->scope.domains[i];
		if (strlen(d) > bl &&
		    urlfilter_host_in_domains(host, &c->scope.domains[i], 1)) {
			best = d;
			bl = strlen(d);
		}
	}
	return best;
}

void
crawl_count_page(struct crawl *c, const char *host)
{
	int64_t n = hostsched_add_pages(c->sc, host, 1);

	if (c->cfg->max_pages_per_host > 0 && n >= c->cfg->max_pages_per_host)
		hostsched_retire(c->sc, host);
}

void
crawl_note_failure(struct crawl *c, const char *what, const char *why)
{
	size_t n;

	if (c->fails.n < FAILS_KEPT) {
		n = strlen(what) + strlen(why) + 3;
		if ((c->fails.kept[c->fails.n] = malloc(n)) != NULL)
			snprintf(c->fails.kept[c->fails.n], n, "%s: %s", what,
			    why);
	}
	c->fails.n++;
}

int
crawl_nothing_fetched(struct crawl *c)
{
	const struct store_counts *n = &c->db.n;
	int64_t i;

	if (c->end.failed || c->end.stopping || c->fails.n == 0 ||
	    n->unique + n->exact + n->near + n->redirect + n->skipped > 0)
		return 0;
	crawl_end_progress(c);
	fputs("nearcrawl: nothing could be fetched:\n", stderr);
	for (i = 0; i < c->fails.n && i < FAILS_KEPT; i++)
		if (c->fails.kept[i] != NULL) {
			fputs("  ", stderr);
			/* URLs and curl's words, which may quote a server. */
			esc_fputs(c->fails.kept[i], stderr);
			putc('\n', stderr);
		}
	if (c->fails.n > FAILS_KEPT)
		fprintf(stderr, "  and %lld failures more\n",
		    (long long)(c->fails.n - FAILS_KEPT));
	snprintf(c->err, c->errsz, "no seed could be fetched");
	return 1;
}

void
crawl_count_verdict(struct crawl *c, enum store_verdict v)
{
	switch (v) {
	case STORE_VERDICT_UNIQUE:
		c->db.n.unique++;
		break;
	case STORE_VERDICT_EXACT:
		c->db.n.exact++;
		break;
	case STORE_VERDICT_NEAR:
		c->db.n.near++;
		break;
	case STORE_VERDICT_REDIRECT:
		c->db.n.redirect++;
		break;
	case STORE_VERDICT_ERROR:
		c->db.n.error++;
		break;
	default:
		c->db.n.skipped++;
		break;
	}
	c->db.n.pages++;
}

void
crawl_count_queued(struct crawl *c, int64_t n)
{
	c->db.n.queued += n;
}

int
crawl_load_counts(struct crawl *c)
{
	if (store_counts(c->st, &c->db.n) != 0)
		return -1;
	c->db.seq = c->db.n.max_seq;
	return 0;
}

void
crawl_seq_past(struct crawl *c, int64_t seq)
{
	if (seq > c->db.seq)
		c->db.seq = seq;
}

void
crawl_count_store(struct crawl *c, double ms)
{
	c->stages.store_ms += ms;
}

void
crawl_stop(struct crawl *c, int now)
{
	if (c->end.stopping < (now ? 2 : 1))
		c->end.stopping = now ? 2 : 1;
}

int64_t
crawl_limit_counted(const struct crawl *c)
{
	return c->recrawl.visit > 1 ? c->tally.fetched : c->db.seq;
}

/* A duration for people: "42 s", "7 min", "3.5 h". */
static void
format_duration(double secs, char *out, size_t outsz)
{
	if (secs < 90)
		snprintf(out, outsz, "%.0f s", secs);
	else if (secs < 90 * 60)
		snprintf(out, outsz, "%.0f min", secs / 60);
	else
		snprintf(out, outsz, "%.1f h", secs / 3600);
}

/* Append segment seg to line (len bytes used of size) when it fits in
 * width columns with its " | ". */
static size_t
add_segment(char *line, size_t len, size_t size, size_t width,
    const char *seg)
{
	size_t n = strlen(seg) + (len > 0 ? 3 : 0);

	if (len + n > width || len + n >= size)
		return len;
	return len + (size_t)snprintf(line + len, size - len, "%s%s",
	    len > 0 ? " | " : "", seg);
}

/*
 * Progress: on a terminal one line rewritten every second, as wide as the
 * terminal, its segments most important first (a segment that does not fit
 * is left out whole, so a narrow terminal keeps the pages, the verdicts,
 * the rate and the time); otherwise a plain line every PROGRESS_EVERY_S for
 * logs, whole, with the time of day in front. --quiet silences both. The
 * verdict counts are the database's and add up to its pages; "this run" is
 * what this process fetched. The time left is for what is known: the queue
 * (or the pages left under --max-pages, when fewer) at this run's rate --
 * the queue grows as pages are read, so it is a floor.
 */
static void
print_progress(struct crawl *c)
{
	double now = clock_mono_ms(), secs = (now - c->started) / 1e3;
	double rate = secs > 0 ? (double)c->tally.fetched / secs : 0.0;
	struct hostsched_census hc;
	struct winsize ws;
	char seg[192], took[32], left[32], line[512], stamp[32];
	size_t width = sizeof(line) - 1, len = 0;
	int64_t todo = c->db.n.queued;
	time_t t;
	struct tm tm;

	hostsched_census(c->sc, now, &hc);
	if (c->term.tty && ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 &&
	    ws.ws_col > 1 && ws.ws_col <= sizeof(line))
		width = (size_t)ws.ws_col - 1;
	line[0] = '\0';
	snprintf(seg, sizeof(seg), "%lld pages (%lld this run)",
	    (long long)c->db.n.pages, (long long)c->tally.fetched);
	len = add_segment(line, len, sizeof(line), width, seg);
	snprintf(seg, sizeof(seg), "unique %lld, exact %lld, near %lld, "
	    "other %lld", (long long)c->db.n.unique, (long long)c->db.n.exact,
	    (long long)c->db.n.near,
	    (long long)(c->db.n.redirect + c->db.n.error + c->db.n.skipped));
	len = add_segment(line, len, sizeof(line), width, seg);
	format_duration(secs, took, sizeof(took));
	snprintf(seg, sizeof(seg), "%.1f pages/s, %s", rate, took);
	len = add_segment(line, len, sizeof(line), width, seg);
	if (c->cfg->max_pages > 0 &&
	    c->cfg->max_pages - crawl_limit_counted(c) < todo)
		todo = c->cfg->max_pages - crawl_limit_counted(c);
	if (rate > 0 && todo > 0) {
		format_duration((double)todo / rate, left, sizeof(left));
		snprintf(seg, sizeof(seg), "%lld queued, %s at this rate",
		    (long long)c->db.n.queued, left);
	} else {
		snprintf(seg, sizeof(seg), "%lld queued",
		    (long long)c->db.n.queued);
	}
	len = add_segment(line, len, sizeof(line), width, seg);
	/* Nothing in flight: say what the crawl waits for. */
	if (hc.active == 0 && hc.held > 0)
		snprintf(seg, sizeof(seg), "waiting: %zu host%s backing off "
		    "or held by Retry-After", hc.held, hc.held == 1 ? "" :
		    "s");
	else if (hc.active == 0 && hc.waiting > 0)
		snprintf(seg, sizeof(seg), "waiting: %zu host%s in its "
		    "delay", hc.waiting, hc.waiting == 1 ? "" : "s");
	else
		snprintf(seg, sizeof(seg), "hosts: %zu fetching, %zu ready, "
		    "%zu in delay, %zu backing off, %lld given up", hc.active,
		    hc.ready, hc.waiting, hc.held,
		    (long long)c->polite.hosts_given_up);
	len = add_segment(line, len, sizeof(line), width, seg);
	if (!c->term.tty) {
		t = time(NULL);
		strftime(stamp, sizeof(stamp), "%Y-%m-%d %H:%M:%S",
		    localtime_r(&t, &tm));
		fprintf(stderr, "nearcrawl: %s %s\n", stamp, line);
		return;
	}
	fprintf(stderr, "\r\033[K%s", line);
	c->term.progress_shown = 1;
}

void
crawl_progress(struct crawl *c, double now)
{
	if (c->cfg->quiet || (!c->term.tty &&
	    now - c->term.last_progress < PROGRESS_EVERY_S * 1e3))
		return;
	print_progress(c);
	c->term.last_progress = now;
}
