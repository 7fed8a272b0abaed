#!/bin/sh
# Crawl the labelled fixture site with the given crawl options and score the
# verdicts against its labels (precision, recall, coverage), and the speed.
#
#   scripts/eval/eval-fixture.sh [--nearcrawl BIN] [--keep DIR] [OPTIONS...]
#
# OPTIONS go to the crawl, e.g.
#   scripts/eval/eval-fixture.sh --methods md5,ssdeep --ssdeep-threshold 90
# The last line is machine-readable:
#   precision=P recall=R coverage=C pages=N seconds=S
set -u
cd "$(dirname "$0")/../.."

. scripts/lib/eval-opts.sh
eval_opts "$@"
shift "$EVAL_SHIFT"
SERVER=${NCSERVER:-build/plain/ncserver}
for f in "$BIN" "$SERVER"; do
	[ -x "$f" ] || { echo "eval-fixture: $f missing: run make first" >&2; exit 2; }
done

TMP=$(mktemp -d "${TMPDIR:-/tmp}/nearcrawl-eval.XXXXXX")
PID=""
trap '[ -n "$PID" ] && kill $PID 2>/dev/null; rm -rf "$TMP"' EXIT INT TERM
. scripts/lib/fixture-server.sh
fixture_server_start tests/fixtures/sites "$TMP" || exit 1
PID=$FIXTURE_PID
PORT=$FIXTURE_PORT
H=www.lab.test
start=$(date +%s.%N)
"$BIN" crawl -d "$TMP/lab.db" --quiet --delay-ms 0 \
    --per-host 1 --max-pages 5000 --resolve "$H:$PORT:127.0.0.1" "$@" \
    "http://$H:$PORT/" || [ $? -eq 3 ] || exit 1
end=$(date +%s.%N)
scripts/eval/eval-labels.sh "$TMP/lab.db" tests/fixtures/labelled.tsv \
    >"$TMP/eval" || exit 1
[ -n "$KEEP" ] && { mkdir -p "$KEEP"; cp "$TMP/lab.db" "$TMP/eval" "$KEEP/"; }
pages=$(sqlite3 "$TMP/lab.db" 'SELECT count(*) FROM pages')
grep -v '^precision=' "$TMP/eval"
secs=$(echo "$start $end" | awk '{ printf "%.2f", $2 - $1 }')
echo "$(tail -n 1 "$TMP/eval") pages=$pages seconds=$secs"
