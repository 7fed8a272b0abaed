#!/bin/sh
# Per-host politeness seen from the server's side: two requests to one host
# are never closer than --delay-ms, while two hosts are crawled side by side.
. tests/e2e/lib.sh

e2e_start_server tests/fixtures/sites
DB="$E2E_TMP/p.db"
"$NEARCRAWL" crawl -d "$DB" --quiet --delay-ms 150 --concurrency 8 \
    --max-pages 24 --resolve "www.lab.test:$PORT:127.0.0.1" \
    --resolve "www.small.test:$PORT:127.0.0.1" \
    "http://www.lab.test:$PORT/" "http://www.small.test:$PORT/" 2>/dev/null
eq "crawl stopped by --max-pages exits 3" "$?" 3
eq "page limit honoured" "$(q "$DB" 'SELECT count(*) FROM pages')" 24

# Smallest gap in ms between consecutive arrivals at each host.
gaps=$(sort -k2,2 -k1,1n "$SERVER_LOG" | awk '
	$2 == host { g = ($1 - last) * 1000; if (!(host in min) || g < min[host]) min[host] = g }
	{ host = $2; last = $1; n[host]++ }
	END { for (h in n) printf "%s %d %.0f\n", h, n[h], (h in min) ? min[h] : 99999 }')
echo "$gaps" | sed 's/^/     host, requests, smallest gap ms: /'
eq "both hosts crawled" "$(echo "$gaps" | wc -l | tr -d ' ')" 2
# Arrival times carry scheduling jitter of a few ms on a loaded machine.
eq "no gap below the delay" \
    "$(echo "$gaps" | awk '$3 < 145 { bad++ } END { print bad + 0 }')" 0
# With one host at 150 ms, 24 pages would need 3.5 s; the hosts interleave.
first=$(sort -n "$SERVER_LOG" | head -n 20 | awk '{ print $2 }' | sort -u | wc -l)
eq "hosts interleave" "$first" 2
e2e_finish
