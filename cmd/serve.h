/*
 * serve: `nearcrawl serve -d DB [--port N] [--addr A] [--refresh S]
 * [--quiet]` -- a local, read-only web view of one crawl (docs/serve.md).
 *
 * libevent's HTTP server, bound to loopback unless --addr says otherwise,
 * answers GET (and HEAD) for: the overview (live counts, the report's
 * summary and plots, remade while a crawl runs), the pages by verdict and
 * host, the largest clusters, a cluster with every member, a page with
 * its metadata, links and its text beside its original's with the new
 * words marked, the hosts with their back-off and robots.txt, and search
 * with duplicates folded. The database is opened read-only and no read
 * transaction outlives a request, so a crawl can write it meanwhile.
 * Requests it cannot serve get a 4xx: 404 for an unknown path or id, 400
 * for a malformed parameter, 405 for another method, 414 for a target
 * over SV_MAX_URI bytes. SIGINT or SIGTERM stop it cleanly (exit 0).
 */
#ifndef NC_SERVE_H
#define NC_SERVE_H

/* Default port. */
#define SERVE_PORT 8077
/* Default seconds between remade reports while the database changes. */
#define SERVE_REFRESH 10

/*
 * Run the command; argv[0] is "serve". Returns the exit status: 0 after
 * SIGINT or SIGTERM (or --help), 1 when it cannot listen or run, 2 for bad
 * usage or a database it cannot open.
 */
int serve_main(int argc, char **argv);

#endif
