#include "crawler/reconnect.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "util/esc.h"

/* How often the wait looks at the stop flag and the clock. */
#define NAP_MS 100

int
reconnect_lost(struct reconnect *r, const struct crawl *c, int rc)
{
	const struct config *cfg = c->cfg;
	int again;

	r->lost = 0;
	if (rc != 1 && rc != 2)
		return 0;
	if (!store_is_server(cfg->db) || cfg->db_retry_s <= 0)
		return 0;
	/* The run's connection broke; or, waiting already, the next one
	 * could not be made because the server went away again. */
	again = r->lost_at > 0 && c->st == NULL &&
	    store_server_ready(cfg->db) == 0;
	if (!again && (c->st == NULL || !store_lost(c->st)))
		return 0;
	r->lost = 1;
	if (r->lost_at > 0)
		return 1;
	r->lost_at = clock_mono_ms();
	r->wait_s = RECONNECT_FIRST_S;
	fputs("nearcrawl: lost the connection to the database: ", stderr);
	esc_fputs(c->err, stderr);
	fprintf(stderr, "; reconnecting for up to %d s (--db-retry-s)\n",
	    cfg->db_retry_s);
	return 1;
}

/* The progress line of the wait: on a terminal rewritten every second,
 * otherwise a line every PROGRESS_EVERY_S. */
static void
say_waiting(const struct reconnect *r, const struct config *cfg, int tty,
    double next_ms, double *last_said)
{
	double now = clock_mono_ms();
	char stamp[32];
	struct tm tm;
	time_t t;

	if (cfg->quiet || (*last_said > 0 && now - *last_said <
	    (tty ? 1e3 : PROGRESS_EVERY_S * 1e3)))
		return;
	*last_said = now;
	if (tty)
		fputs("\r\033[K", stderr);
	else {
		t = time(NULL);
		strftime(stamp, sizeof(stamp), "%Y-%m-%d %H:%M:%S",
		    localtime_r(&t, &tm));
		fprintf(stderr, "nearcrawl: %s ", stamp);
	}
	fprintf(stderr, "waiting for the database: connection lost %.0f s "
	    "ago, next try in %.0f s, giving up after %d s (--db-retry-s)",
	    (now - r->lost_at) / 1e3, next_ms > now ? (next_ms - now) / 1e3 :
	    0.0, cfg->db_retry_s);
	if (!tty)
		putc('\n', stderr);
}

int
reconnect_wait(struct reconnect *r, const struct config *cfg,
    volatile sig_atomic_t *stop, char *err, size_t errsz)
{
	int tty = isatty(STDERR_FILENO), ready = 0, ret = 1;
	double bound = r->lost_at + cfg->db_retry_s * 1e3, next;
	struct timespec nap = { 0, NAP_MS * 1000000L };
	/* The loss was just said: the first progress line comes later. */
	double said = clock_mono_ms();

	while (*stop == 0) {
		next = clock_mono_ms() + r->wait_s * 1e3;
		if (next > bound)
			next = bound;
		while (*stop == 0 && clock_mono_ms() < next) {
			say_waiting(r, cfg, tty, next, &said);
			nanosleep(&nap, NULL);
		}
		if (*stop != 0)
			break;
		if ((ready = store_server_ready(cfg->db)) != 0)
			break;
		if (clock_mono_ms() >= bound)
			break;
		r->wait_s = r->wait_s * 2 > RECONNECT_MAX_S ? RECONNECT_MAX_S :
		    r->wait_s * 2;
	}
	if (tty && !cfg->quiet)
		fputs("\r\033[K", stderr);
	/* What the loss was is said above: these say how the wait ended. */
	if (*stop != 0)
		snprintf(err, errsz, "stopped while waiting for the database "
		    "(connection lost %.0f s before)",
		    (clock_mono_ms() - r->lost_at) / 1e3);
	else if (ready < 0)
		snprintf(err, errsz, "cannot connect to the database again: "
		    "libpq refuses the connection string");
	else if (ready == 0)
		snprintf(err, errsz, "the database did not come back within "
		    "%d s (--db-retry-s)", cfg->db_retry_s);
	else
		ret = 0;
	return ret;
}

void
reconnect_back(struct reconnect *r)
{
	if (r->lost_at <= 0)
		return;
	fprintf(stderr, "nearcrawl: connected to the database again after "
	    "%.0f s: the crawl goes on from what was committed\n",
	    (clock_mono_ms() - r->lost_at) / 1e3);
	r->lost_at = 0;
}

void
reconnect_carry(struct crawl_summary *to, const struct crawl_summary *from)
{
	size_t i;

	to->fetched += from->fetched;
	for (i = 0; i < sizeof(to->status) / sizeof(to->status[0]); i++)
		to->status[i] += from->status[i];
	to->bytes += from->bytes;
	to->robots_fetches += from->robots_fetches;
	to->hosts_given_up += from->hosts_given_up;
	to->traps.stripped += from->traps.stripped;
	to->traps.trapped += from->traps.trapped;
	to->traps.capped += from->traps.capped;
	to->traps.too_long += from->traps.too_long;
	to->traps.patterned += from->traps.patterned;
	to->traps.dropped += from->traps.dropped;
	to->stages.pages += from->stages.pages;
	to->stages.transfer_ms += from->stages.transfer_ms;
	to->stages.extract_ms += from->stages.extract_ms;
	to->stages.fingerprint_ms += from->stages.fingerprint_ms;
	to->stages.lookup_ms += from->stages.lookup_ms;
	to->stages.store_ms += from->stages.store_ms;
	for (i = 0; i < sizeof(to->outcomes) / sizeof(to->outcomes[0]); i++)
		to->outcomes[i] += from->outcomes[i];
	to->verdicts_moved += from->verdicts_moved;
}
