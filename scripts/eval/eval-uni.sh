#!/bin/sh
# Crawl the five-host labelled fixture *.uni.test with the given crawl
# options and score the verdicts against tests/fixtures/labelled-uni.tsv
# (precision, recall, coverage, per class), and say which classes the
# false positives and the groups not reached fall into.
#
#   scripts/eval/eval-uni.sh [--nearcrawl BIN] [--keep DIR] [CRAWL OPTIONS...]
#
# Example: scripts/eval/eval-uni.sh --text body
# The sites' cross-host links carry the placeholder port NCPORT; they are
# copied to a temporary root with the test server's port put in its place
# (the bytes of a page otherwise stay as committed). Seeds: every host's
# home page. The last line is machine-readable:
#   precision=P recall=R coverage=C pages=N seconds=S
set -u
cd "$(dirname "$0")/../.." || exit 2

. scripts/lib/eval-opts.sh
eval_opts "$@"
shift "$EVAL_SHIFT"
SERVER=${NCSERVER:-build/plain/ncserver}
for f in "$BIN" "$SERVER"; do
	[ -x "$f" ] || { echo "eval-uni: $f missing: run make first" >&2; exit 2; }
done
HOSTS="www.uni.test cs.uni.test lib.uni.test events.uni.test sport.uni.test"
LABELS=tests/fixtures/labelled-uni.tsv
for h in $HOSTS; do
	[ -d "tests/fixtures/sites/$h" ] || {
		echo "eval-uni: tests/fixtures/sites/$h missing:" \
		    "run scripts/gen/gen-uni-site.py" >&2
		exit 2
	}
done

TMP=$(mktemp -d "${TMPDIR:-/tmp}/nearcrawl-uni.XXXXXX")
PID=""
trap '[ -n "$PID" ] && kill $PID 2>/dev/null; rm -rf "$TMP"' EXIT INT TERM
mkdir "$TMP/sites"
. scripts/lib/fixture-server.sh
fixture_server_start "$TMP/sites" "$TMP" || exit 1
PID=$FIXTURE_PID
PORT=$FIXTURE_PORT

# Copy the sites, the port in place of NCPORT (the server reads files per
# request, so they may appear after it started).
(
	cd tests/fixtures/sites || exit 1
	for h in $HOSTS; do
		find "$h" -type d | while IFS= read -r d; do
			mkdir -p "$TMP/sites/$d" || exit 1
		done
		find "$h" -type f
	done
) >"$TMP/files" || exit 1
LC_ALL=C awk -v src=tests/fixtures/sites -v dst="$TMP/sites" -v port="$PORT" '
{
	from = src "/" $0; to = dst "/" $0
	while ((r = (getline line < from)) > 0) {
		gsub(/:NCPORT\//, ":" port "/", line)
		print line > to
	}
	if (r < 0) { print "eval-uni: cannot read " from > "/dev/stderr"; exit 1 }
	close(from); close(to)
}' "$TMP/files" || exit 1
if grep -rl NCPORT "$TMP/sites" >/dev/null 2>&1; then
	echo "eval-uni: a placeholder port was left in the copied sites" >&2
	exit 1
fi

set --  "$@" --allow-domain uni.test
seeds=""
for h in $HOSTS; do
	set -- "$@" --resolve "$h:$PORT:127.0.0.1"
	seeds="$seeds http://$h:$PORT/"
done
start=$(date +%s.%N)
# shellcheck disable=SC2086 # the seeds are split on purpose
"$BIN" crawl -d "$TMP/uni.db" --quiet --delay-ms 0 --per-host 1 \
    --max-pages 5000 "$@" $seeds || [ $? -eq 3 ] || exit 1
end=$(date +%s.%N)
scripts/eval/eval-labels.sh --failures "$TMP/uni.db" "$LABELS" >"$TMP/eval" ||
    exit 1
[ -n "$KEEP" ] && { mkdir -p "$KEEP"; cp "$TMP/uni.db" "$TMP/eval" "$KEEP/"; }
pages=$(sqlite3 "$TMP/uni.db" 'SELECT count(*) FROM pages')
grep -v '^precision=' "$TMP/eval"
echo "pages per host (judged of fetched):"
sqlite3 -batch -noheader -separator ' ' "$TMP/uni.db" \
    "SELECT url, verdict IN ('unique', 'exact', 'near') FROM pages" |
    awk -v hosts="$HOSTS" '
	{ h = $1; sub(/^[a-z]+:\/\//, "", h); sub(/[:\/].*/, "", h)
	  n[h]++; j[h] += $2 }
	END { k = split(hosts, H, " ")
	      for (i = 1; i <= k; i++) printf "  %-16s %4d of %4d\n", H[i], j[H[i]], n[H[i]] }'
secs=$(echo "$start $end" | awk '{ printf "%.2f", $2 - $1 }')
echo "$(tail -n 1 "$TMP/eval") pages=$pages seconds=$secs"
