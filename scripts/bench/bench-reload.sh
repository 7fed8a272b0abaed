#!/bin/sh
# How fast a resumed crawl rebuilds its indexes: fills a nearcrawl database
# with N synthetic fingerprinted pages (random MD5, SimHash and ssdeep
# digests of realistic shape), then resumes it with nothing queued and
# prints the reload rate nearcrawl reports.
#
#   scripts/bench/bench-reload.sh [N ...]      default: 100000 1000000
set -eu
cd "$(dirname "$0")/../.."
[ -x ./nearcrawl ] || { echo "bench-reload: run make first" >&2; exit 2; }
[ $# -gt 0 ] || set -- 100000 1000000
TMP=$(mktemp -d "${TMPDIR:-/tmp}/nearcrawl-reload.XXXXXX")
trap 'rm -rf "$TMP"' EXIT INT TERM

for n in "$@"; do
	db="$TMP/r$n.db"
	# An unreachable seed creates the schema and the crawl's settings.
	./nearcrawl crawl -d "$db" --quiet --connect-timeout-ms 100 \
	    --max-retries 0 --host-max-failures 1 http://127.0.0.1:9/ \
	    >/dev/null 2>&1 || true
	sqlite3 "$db" "
WITH RECURSIVE i(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM i WHERE k < $n)
INSERT INTO pages(url, host, simhash, md5, ssdeep, verdict, depth, seq,
                  fetched_at)
SELECT 'http://h' || (k % 997) || '.bench.test/p' || k, 'h' || (k % 997),
       random(), lower(hex(randomblob(16))),
       '96:' || hex(randomblob(24)) || ':' || hex(randomblob(12)),
       'unique', 1, 1000 + k, 0 FROM i;"
	start=$(date +%s.%N)
	./nearcrawl crawl -d "$db" 2>"$TMP/err" >/dev/null || true
	end=$(date +%s.%N)
	line=$(grep 'fingerprints loaded' "$TMP/err" || echo "no reload line")
	rss=$( (command -v /usr/bin/time >/dev/null &&
	    /usr/bin/time -f %M ./nearcrawl crawl -d "$db" --quiet 2>&1 >/dev/null |
	    tail -n 1) || echo "?")
	printf '%8d pages: %s; whole run %.2f s; peak RSS %s KiB\n' "$n" \
	    "${line#*: }" "$(echo "$start $end" | awk '{ print $2 - $1 }')" "$rss"
done
