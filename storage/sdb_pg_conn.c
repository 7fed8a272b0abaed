/*
 * sdb_pg_conn: a PostgreSQL connection's health (storage/sdb_pg_int.h) --
 * opening it so that a dead peer is found, waiting for answers with a
 * bound, marking it lost when it breaks, and keeping the server's notices,
 * which libpq would print on stderr.
 */
#include "storage/sdb_pg.h"
#include "storage/sdb_pg_int.h"

#include <ctype.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>

#include "storage/sdb_codes.h"

/* How often a wait for an answer looks at the connection again. */
#define POLL_MS 1000

/*
 * Connection settings given before the caller's, which override them: a
 * connect that gives up, and TCP keepalives that find a peer gone without
 * a word (a server's machine that died, a network cut) within about 30 s
 * instead of the system's two hours. A Unix socket ignores them.
 */
static const char *const CONN_KEYS[] = { "connect_timeout",
	"keepalives_idle", "keepalives_interval", "keepalives_count",
	"tcp_user_timeout", "dbname", NULL };
#define CONN_DEFAULTS(timeout, conninfo) \
	{ (timeout), "15", "5", "3", "30000", (conninfo), NULL }

/*
 * A line break and the indent after it become a space, or ". " where a new
 * sentence starts without a stop before it ("No such file or
 * directory\n\tIs the server running ..."): messages are printed
 * escaped, and a line break would show as \x0a.
 */
void
sdb_pg__one_line(char *out, size_t outsz, const char *m)
{
	size_t o = 0;
	const char *p = m;
	int brk;

	if (outsz == 0)
		return;
	while (*p != '\0' && o + 3 < outsz) {
		if (*p != '\n' && *p != '\r') {
			out[o++] = *p == '\t' ? ' ' : *p;
			p++;
			continue;
		}
		for (brk = 0; *p == '\n' || *p == '\r' || *p == '\t' ||
		    *p == ' '; p++)
			brk = 1;
		while (o > 0 && out[o - 1] == ' ')
			o--;
		if (!brk || *p == '\0' || o == 0)
			continue;
		if (isupper((unsigned char)*p) &&
		    strchr(".:;?!", out[o - 1]) == NULL)
			out[o++] = '.';
		out[o++] = ' ';
	}
	while (o > 0 && (out[o - 1] == ' ' || out[o - 1] == '\n'))
		o--;
	out[o] = '\0';
}

int
sdb_pg__lose(struct sdb_pg *pg, const char *why)
{
	char first[sizeof(pg->msg) - sizeof(pg->notice) - 2];

	if (pg->lost && pg->code == SDB_IOERR)
		return SDB_IOERR;
	pg->lost = 1;
	if (why != NULL)
		snprintf(first, sizeof(first), "%s", why);
	else {
		sdb_pg__one_line(first, sizeof(first),
		    PQerrorMessage(pg->conn));
		/* The first sentence: libpq's guesses follow it. */
		first[strcspn(first, ".")] = '\0';
	}
	if (first[0] == '\0')
		snprintf(first, sizeof(first), "connection lost");
	if (pg->notice[0] != '\0')
		snprintf(pg->msg, sizeof(pg->msg), "%s: %s", first,
		    pg->notice);
	else
		snprintf(pg->msg, sizeof(pg->msg), "%s", first);
	pg->state[0] = '\0';
	pg->code = SDB_IOERR;
	return SDB_IOERR;
}

/* libpq hands the server's notices here instead of printing them: the
 * last is kept for the message of a failure that follows. */
static void
on_notice(void *arg, const PGresult *res)
{
	struct sdb_pg *pg = arg;
	const char *m = PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY);

	sdb_pg__one_line(pg->notice, sizeof(pg->notice),
	    m != NULL ? m : PQresultErrorMessage(res));
}

int
sdb_pg__dial(struct sdb_pg *pg, const char *conninfo, char *err,
    size_t errsz)
{
	const char *vals[] = CONN_DEFAULTS("10", conninfo);
	char why[400];

	pg->conn = PQconnectdbParams(CONN_KEYS, vals, 1);
	if (pg->conn == NULL || PQstatus(pg->conn) != CONNECTION_OK) {
		sdb_pg__one_line(why, sizeof(why), pg->conn != NULL ?
		    PQerrorMessage(pg->conn) : "out of memory");
		snprintf(err, errsz, "cannot connect: %s", why);
		return -1;
	}
	PQsetNoticeReceiver(pg->conn, on_notice, pg);
	return 0;
}

/*
 * No limit on the wait itself: a server silent for minutes may be busy (a
 * count over a billion rows), and one that went away without a word is
 * found by the TCP keepalives, which its kernel answers while it works.
 */
int
sdb_pg__await(struct sdb_pg *pg)
{
	struct pollfd pfd;
	int n, out;

	while (PQisBusy(pg->conn)) {
		if ((out = PQflush(pg->conn)) < 0 || PQsocket(pg->conn) < 0)
			return sdb_pg__lose(pg, NULL);
		pfd.fd = PQsocket(pg->conn);
		pfd.events = POLLIN | (out > 0 ? POLLOUT : 0);
		pfd.revents = 0;
		if ((n = poll(&pfd, 1, POLL_MS)) < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return sdb_pg__lose(pg, strerror(errno));
		if (n == 0)
			continue;
		if (PQconsumeInput(pg->conn) != 1 ||
		    PQstatus(pg->conn) == CONNECTION_BAD)
			return sdb_pg__lose(pg, NULL);
	}
	return SDB_OK;
}

int
sdb_pg_lost(struct sdb_pg *pg)
{
	return pg->lost || PQstatus(pg->conn) == CONNECTION_BAD;
}

int
sdb_pg_ping(const char *conninfo)
{
	const char *vals[] = CONN_DEFAULTS("2", conninfo);

	switch (PQpingParams(CONN_KEYS, vals, 1)) {
	case PQPING_OK:
		return 1;
	case PQPING_REJECT:
	case PQPING_NO_RESPONSE:
		return 0;
	default:
		return -1;
	}
}
