/*
 * serve_pages: the listing pages of `nearcrawl serve`: the overview, the
 * pages (by verdict and host, in fetch order), the largest clusters, one
 * cluster with every member, the hosts, and one host with its back-off
 * state and robots.txt as fetched. Each answers its request itself
 * (sv_send or sv_error) from one read snapshot, closed before it returns.
 */
#ifndef NC_SERVE_PAGES_H
#define NC_SERVE_PAGES_H

#include <stdint.h>

#include "cmd/serve_out.h"

/* GET / */
void svp_home(struct sv_req *r);
/* GET /pages[?verdict=V][&host=H][&after=SEQ] */
void svp_pages(struct sv_req *r);
/* GET /clusters */
void svp_clusters(struct sv_req *r);
/* GET /cluster/ID[?after=SEQ]: the cluster whose original is page ID */
void svp_cluster(struct sv_req *r, int64_t id);
/* GET /hosts */
void svp_hosts(struct sv_req *r);
/* GET /host?name=H */
void svp_host(struct sv_req *r);

#endif
