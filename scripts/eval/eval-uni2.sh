#!/bin/sh
# Crawl labelled site uni2 (../shared/sites/uni2: five hosts of a
# university subdomain, made by another generator than the project's own
# fixtures, with its own labels and scorer) with the given crawl options,
# and score the verdicts with its scorer.
#
#   scripts/eval/eval-uni2.sh [--nearcrawl BIN] [--keep DIR] [CRAWL OPTIONS...]
#
# The site's up2.sh generates it into /tmp/uni2-site and serves it with
# nginx on 127.0.2.1-5:8087 (as root it installs nginx-light and
# python3-doc when they are missing; scripts/make/install-deps.sh installs them
# too). An nginx this script started is stopped at its end. Prints the
# scorer's report (recall by class, false positives with the method that
# matched) and, last, a machine-readable line:
#   precision=P recall=R coverage=C pages=N seconds=S
# --keep DIR keeps uni2.db and the report. Exit 0, 1 when the site cannot
# be brought up or the crawl fails, 2 on bad usage.
set -u
cd "$(dirname "$0")/../.." || exit 2

. scripts/lib/eval-opts.sh
eval_opts "$@"
shift "$EVAL_SHIFT"
SITE=${UNI2_DIR:-../shared/sites/uni2}
[ -x "$BIN" ] || { echo "eval-uni2: $BIN missing: run make first" >&2; exit 2; }
[ -f "$SITE/up2.sh" ] || { echo "eval-uni2: $SITE/up2.sh missing" >&2; exit 2; }

PIDFILE=/tmp/uni2-nginx/nginx.pid
started=""
if ! { [ -f "$PIDFILE" ] && kill -0 "$(cat "$PIDFILE")" 2>/dev/null; }; then
	started=yes
fi
if ! bash "$SITE/up2.sh" >/dev/null 2>&1; then
	echo "eval-uni2: $SITE/up2.sh could not bring the site up" >&2
	exit 1
fi
TMP=$(mktemp -d "${TMPDIR:-/tmp}/nearcrawl-uni2.XXXXXX")
stop() {
	if [ -n "$started" ] && [ -f "$PIDFILE" ]; then
		kill "$(cat "$PIDFILE")" 2>/dev/null
	fi
	rm -rf "$TMP"
}
trap stop EXIT
trap 'exit 1' INT TERM

R=""
for h in www:1 cs:2 bio:3 library:4 events:5; do
	R="$R --resolve ${h%:*}.uni2.test:8087:127.0.2.${h#*:}"
done
start=$(date +%s.%N)
# shellcheck disable=SC2086 # the --resolve options are split on purpose
"$BIN" crawl -d "$TMP/uni2.db" --quiet --delay-ms 0 --per-host 4 \
    --concurrency 16 --max-pages 5000 $R --allow-domain uni2.test "$@" \
    http://www.uni2.test:8087/index.html || [ $? -eq 3 ] || exit 1
end=$(date +%s.%N)
python3 "$SITE/score2.py" "$TMP/uni2.db" /tmp/uni2-site/truth.tsv \
    >"$TMP/report"
[ -n "$KEEP" ] && { mkdir -p "$KEEP"; cp "$TMP/uni2.db" "$TMP/report" "$KEEP/"; }
grep -v '^pages=' "$TMP/report"
last=$(tail -n 1 "$TMP/report")
val() { echo "$last" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
secs=$(echo "$start $end" | awk '{ printf "%.2f", $2 - $1 }')
echo "precision=$(val precision) recall=$(val recall) coverage=$(val coverage) pages=$(val pages) seconds=$secs"
