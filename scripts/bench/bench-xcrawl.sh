#!/bin/sh
# Cross-crawl dedup: the WARC bytes a page costs in a first crawl and in a
# second crawl of the same, unchanged site with --dedup-against the first
# (docs/archives.md).
#
#   scripts/bench/bench-xcrawl.sh [--nearcrawl BIN]
#
# Serves the labelled fixture site (tests/fixtures/sites/www.lab.test) on
# a free loopback port, crawls it with --warc, then again with --warc and
# --dedup-against the first database, and prints for each crawl its pages,
# its archive's bytes and bytes per page, and per record type the records,
# their bytes as stored (one gzip member each) and before compression, of
# which the WARC header. Sizes, not times: the same on any machine. Exit 0
# when it ran, 1 when something failed, 2 for bad usage.
set -u
cd "$(dirname "$0")/../.." || exit 1

BIN=./nearcrawl
while [ $# -gt 0 ]; do
	case $1 in
	--nearcrawl) [ $# -ge 2 ] || { echo "usage: $0 [--nearcrawl BIN]" >&2;
	    exit 2; }; BIN=$2; shift 2 ;;
	-h|--help) sed -n '2,14s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) echo "usage: $0 [--nearcrawl BIN]" >&2; exit 2 ;;
	esac
done
command -v python3 >/dev/null || { echo "$0: needs python3" >&2; exit 2; }

. scripts/lib/fixture-server.sh
TMP=$(mktemp -d "${TMPDIR:-/tmp}/nearcrawl-xcrawl.XXXXXX") || exit 1
trap 'kill "$FIXTURE_PID" 2>/dev/null; rm -rf "$TMP"' EXIT
trap 'exit 1' INT TERM HUP
fixture_server_start tests/fixtures/sites "$TMP" || exit 1
H=www.lab.test
set -- --quiet --delay-ms 0 --per-host 1 --resolve "$H:$FIXTURE_PORT:127.0.0.1"
"$BIN" crawl -d "$TMP/first.db" "$@" --warc "$TMP/first" \
    "http://$H:$FIXTURE_PORT/" || exit 1
"$BIN" crawl -d "$TMP/second.db" "$@" --warc "$TMP/second" \
    --dedup-against "$TMP/first.db" "http://$H:$FIXTURE_PORT/" || exit 1

# The records of the files given, by type: each file is gzip members, one
# per record, so each member is measured on its own.
sizes() {
	python3 - "$@" <<'EOF'
import sys, zlib
kinds = {}
for path in sys.argv[1:]:
    data, pos = open(path, "rb").read(), 0
    while pos < len(data):
        d = zlib.decompressobj(31)
        raw = d.decompress(data[pos:])
        used = len(data) - pos - len(d.unused_data)
        kind = raw.split(b"WARC-Type: ", 1)[1].split(b"\r\n", 1)[0].decode()
        k = kinds.setdefault(kind, [0, 0, 0, 0])
        k[0] += 1
        k[1] += used
        k[2] += len(raw)
        k[3] += len(raw.split(b"\r\n\r\n", 1)[0]) + 4
        pos += used
print("  %-9s %7s %10s %8s %10s %8s %8s" % ("type", "records", "stored",
      "/record", "raw", "/record", "header"))
for kind, (n, gz, raw, head) in sorted(kinds.items()):
    print("  %-9s %7d %10d %8.0f %10d %8.0f %8.0f" % (kind, n, gz, gz / n,
          raw, raw / n, head / n))
EOF
}

for run in first second; do
	pages=$(sqlite3 "$TMP/$run.db" 'SELECT count(*) FROM pages' 2>/dev/null ||
	    "$BIN" report -d "$TMP/$run.db" -o "$TMP/$run.rep" |
	    sed -n 's/^Pages fetched: *\([0-9,]*\).*/\1/p' | tr -d ,)
	bytes=$(cat "$TMP/$run"/*.warc.gz | wc -c)
	echo "$run crawl: $pages pages, $bytes WARC bytes," \
	    "$((bytes / pages)) a page"
	sizes "$TMP/$run"/*.warc.gz || exit 1
done
