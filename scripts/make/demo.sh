#!/bin/sh
# make demo: serve the bundled sample site on loopback, crawl it with the
# default settings (but a short politeness delay, since the server is ours),
# show what nearcrawl found and write its report. The database and the
# report (demo/report/index.html) stay in demo/ for a look.
set -eu

cd "$(dirname "$0")/../.."
mkdir -p demo
DB=demo/demo.db
rm -f "$DB" "$DB-wal" "$DB-shm"
. scripts/lib/fixture-server.sh
fixture_server_start tests/fixtures/sites demo demo/server.log || exit 1
trap 'kill $FIXTURE_PID 2>/dev/null; wait $FIXTURE_PID 2>/dev/null || true' EXIT INT TERM
PORT=$FIXTURE_PORT
HOST=www.lab.test
echo "demo: sample site http://$HOST:$PORT/ served on 127.0.0.1 (names given with --resolve)"
echo "demo: ./nearcrawl crawl -d $DB --delay-ms 10 --max-pages 2000 --resolve $HOST:$PORT:127.0.0.1 http://$HOST:$PORT/"

# Exit 3 would say it stopped at --max-pages with work left.
./nearcrawl crawl -d "$DB" --delay-ms 10 --max-pages 2000 \
    --resolve "$HOST:$PORT:127.0.0.1" "http://$HOST:$PORT/" || [ $? -eq 3 ]

echo
echo "demo: verdicts"
sqlite3 -column -header "$DB" \
    "SELECT verdict, count(*) AS pages FROM pages GROUP BY verdict ORDER BY pages DESC"
echo
echo "demo: a few duplicates per method (later page -> earlier original)"
sqlite3 -column -header "$DB" "
SELECT page, original, method, pct FROM (
  SELECT substr(p.url, instr(substr(p.url, 8), '/') + 7) AS page,
         substr(o.url, instr(substr(o.url, 8), '/') + 7) AS original,
         d.method, round(d.percentage, 1) AS pct,
         row_number() OVER (PARTITION BY d.method ORDER BY d.id) AS n
  FROM duplicates d JOIN pages p ON p.id = d.page_id
  JOIN pages o ON o.id = d.original_id)
WHERE n <= 4 ORDER BY method, n"
echo
./nearcrawl report -d "$DB" -o demo/report
echo "demo: report: open $(pwd)/demo/report/index.html in a browser"
echo "demo: database: $(pwd)/$DB (tables $(sqlite3 "$DB" \
    "SELECT group_concat(name, ', ') FROM sqlite_master WHERE type = 'table'"))"
