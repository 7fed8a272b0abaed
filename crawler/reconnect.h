/*
 * reconnect: a crawl on PostgreSQL rides through a lost connection to the
 * server (a restart, a failover, a network cut) by itself.
 *
 * The run that lost it ends as a failure would: its transfers stop and
 * the pages it had not committed are dropped, as the server dropped them.
 * crawl_run then waits here for the server, with back-off, and starts a
 * new run on a new connection, which resumes from what was committed as
 * a new process would: the indexes, counts and leases are read again
 * (the server may have lost its last commits, so nothing kept in memory
 * is trusted), the leases the old connection held are given back, and
 * the URLs it had in flight return to the queue when their host is next
 * claimed (crawler/share.c). The wait lasts at most --db-retry-s from the
 * loss; a SIGINT or SIGTERM ends it at once.
 */
#ifndef NC_RECONNECT_H
#define NC_RECONNECT_H

#include <signal.h>

#include "crawler/state.h"

/* Seconds between tries: the first after RECONNECT_FIRST_S, doubling up
 * to RECONNECT_MAX_S. */
#define RECONNECT_FIRST_S 0.5
#define RECONNECT_MAX_S 5.0

/* The connection's state across the runs of one crawl_run. */
struct reconnect {
	double lost_at;      /* monotonic ms of the loss, 0: not lost */
	double wait_s;       /* the next wait between tries */
	int lost;            /* the last run ended on a lost connection */
};

/*
 * After a run that failed (rc its exit status): whether it failed because
 * its database connection was lost (or, while waiting for the server
 * already, because the server turned connections away again) and waiting
 * is allowed (--db-retry-s > 0). Sets r->lost and, at a new loss, its
 * time, and says so on stderr with c->err. c is read only, before
 * loop_teardown.
 */
int reconnect_lost(struct reconnect *r, const struct crawl *c, int rc);

/*
 * Wait until the server of cfg->db accepts connections again: 0 (start a
 * new run), or 1 with err set when --db-retry-s has run out since the
 * loss, *stop became non-zero (a signal), or the target is unusable. Tries
 * every RECONNECT_FIRST_S to RECONNECT_MAX_S; each try waits at most a
 * connect's timeout (store_server_ready). Unless --quiet, a progress line
 * says what it waits for.
 */
int reconnect_wait(struct reconnect *r, const struct config *cfg,
    volatile sig_atomic_t *stop, char *err, size_t errsz);

/* A new run is under way after a loss: say so, and forget the loss. */
void reconnect_back(struct reconnect *r);

/* Add what the run summed up in from did (fetches, requests, trap
 * defences, stage times, a recrawl's outcomes) to to. */
void reconnect_carry(struct crawl_summary *to,
    const struct crawl_summary *from);

#endif
