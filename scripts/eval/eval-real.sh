#!/bin/sh
# Crawl the site built from the real-page corpus (scripts/gen/gen-real-site.sh)
# with the given crawl options and score the verdicts against its labels:
# precision, recall, coverage, every false positive with the duplicates row
# that made it, and every labelled group the crawl missed.
#
#   scripts/eval/eval-real.sh [--nearcrawl BIN] [--keep DIR] [CRAWL OPTIONS...]
#
# Example: scripts/eval/eval-real.sh --text body
# --keep DIR keeps real.db, eval (eval-labels.sh's output), labels.tsv and
# server.log (one line per request the test server saw).
# Nothing leaves loopback: every host resolves to 127.0.0.1 and the crawl is
# kept to real.test. Needs ../shared/corpus/readability (see the generator).
# The last line is machine-readable:
#   precision=P recall=R coverage=C pages=N seconds=S
set -u
cd "$(dirname "$0")/../.."

BIN=./nearcrawl
KEEP=""
# --nearcrawl and --keep may come anywhere; the rest go to the crawl in
# order (each argument is looked at once and rotated to the end).
n=$#
while [ "$n" -gt 0 ]; do
	case $1 in
	--nearcrawl | --keep)
		[ "$n" -ge 2 ] || { echo "eval-real: $1 needs a value" >&2; exit 2; }
		if [ "$1" = --keep ]; then KEEP=$2; else BIN=$2; fi
		shift 2; n=$((n - 2)) ;;
	*) set -- "$@" "$1"; shift; n=$((n - 1)) ;;
	esac
done
SERVER=${NCSERVER:-build/plain/ncserver}
for f in "$BIN" "$SERVER"; do
	[ -x "$f" ] || { echo "eval-real: $f missing: run make first" >&2; exit 2; }
done

TMP=$(mktemp -d "${TMPDIR:-/tmp}/nearcrawl-real.XXXXXX")
PID=""
trap '[ -n "$PID" ] && kill $PID 2>/dev/null; rm -rf "$TMP"' EXIT
trap 'exit 1' INT TERM
mkdir "$TMP/site"
# The server first: cross-host links need its port. It reads files per
# request, so the site may be written after it starts.
. scripts/lib/fixture-server.sh
fixture_server_start "$TMP/site" "$TMP" "$TMP/server.log" || exit 1
PID=$FIXTURE_PID
PORT=$FIXTURE_PORT
scripts/gen/gen-real-site.sh "$TMP/site" "$PORT" || exit 2
resolve=""
for d in "$TMP"/site/*.real.test; do
	resolve="$resolve --resolve ${d##*/}:$PORT:127.0.0.1"
done

start=$(date +%s.%N)
# shellcheck disable=SC2086 # host names have no spaces
"$BIN" crawl -d "$TMP/real.db" --quiet --delay-ms 0 --per-host 1 \
    --concurrency 8 --max-pages 20000 --allow-domain real.test $resolve "$@" \
    "http://www.real.test:$PORT/" || [ $? -eq 3 ] || exit 1
end=$(date +%s.%N)
scripts/eval/eval-labels.sh "$TMP/real.db" "$TMP/site/labels.tsv" \
    >"$TMP/eval" || exit 1
if [ -n "$KEEP" ]; then
	mkdir -p "$KEEP"
	cp "$TMP/real.db" "$TMP/eval" "$TMP/site/labels.tsv" "$TMP/server.log" \
	    "$KEEP/"
fi
pages=$(sqlite3 "$TMP/real.db" 'SELECT count(*) FROM pages')
grep -v '^precision=' "$TMP/eval"

# Every false positive with all its duplicates rows, and every missed group
# with what became of its URLs. Same rules as eval-labels.sh (exact
# //host/path labels and //host/path?* patterns; a page is an expected duplicate when a judged page of
# its group has a smaller seq).
tab=$(printf '\t')
sqlite3 -batch -noheader -separator "$tab" "$TMP/real.db" \
    "SELECT 'J', url, verdict, COALESCE(seq, '') FROM pages
      WHERE verdict IN ('unique', 'exact', 'near')
      ORDER BY seq IS NULL, seq, id;
     SELECT 'D', p.url, o.url, d.method, printf('%.1f', d.percentage)
       FROM duplicates d JOIN pages p ON p.id = d.page_id
       JOIN pages o ON o.id = d.original_id ORDER BY d.id;
     SELECT 'P', url, verdict, COALESCE(status, '') FROM pages;" \
    >"$TMP/rows" || exit 1
LC_ALL=C awk -F "$tab" '
function hp(u,   h) {                     # //host/path?query, no port
	if (!match(u, /^[a-z]+:\/\/[^\/?#]*/)) return u
	h = substr(u, 1, RLENGTH); sub(/^[a-z]+:\/\//, "", h); sub(/:[0-9]*$/, "", h)
	u = substr(u, RLENGTH + 1); sub(/#.*/, "", u)
	if (u == "" || substr(u, 1, 1) == "?") u = "/" u
	return "//" tolower(h) u
}
function grp(u,   i, b) {
	u = hp(u)
	if (u in LG) return LG[u]
	b = 0
	for (i = 1; i <= np; i++)
		if (index(u, PP[i]) == 1 && (b == 0 || length(PP[i]) > length(PP[b])))
			b = i
	if (b) return PG[b]
	sub(/^\/\/[^\/]*/, "", u)             # as eval-labels.sh: by path alone
	return "unlabelled " u
}
FILENAME == ARGV[1] {
	if (FNR == 1 || $0 ~ /^[ \t]*(#|$)/) next
	if ($1 ~ /\*$/) { np++; PP[np] = substr($1, 1, length($1) - 1); PG[np] = $2 }
	else LG[$1] = $2
	if (!($2 in GURLS)) { ng++; GN[ng] = $2 }
	if ($1 !~ /\*$/) GURLS[$2] = GURLS[$2] " " $1
	next
}
$1 == "J" {
	g = grp($2)
	REACHED[g] = 1
	if ((g in FIRST) && (FIRST[g] == "" || $4 == "" || FIRST[g] + 0 < $4 + 0)) next
	if (!(g in FIRST)) FIRST[g] = $4
	if ($3 == "exact" || $3 == "near") { nfp++; FPU[nfp] = $2; FPV[nfp] = $3 }
	next
}
$1 == "D" { nd[$2]++; DR[$2, nd[$2]] = $3 "\t" $4 "\t" $5; next }
$1 == "P" { PV[hp($2)] = $3 " " $4; next }
END {
	printf "\nfalse positives, every one (%d):\n", nfp
	for (i = 1; i <= nfp; i++) {
		u = FPU[i]
		printf "  %s  %s  [%s]\n", u, FPV[i], grp(u)
		for (j = 1; j <= nd[u]; j++) {
			split(DR[u, j], f, "\t")
			printf "      original=%s [%s] method=%s percentage=%s\n",
			    f[1], grp(f[1]), f[2], f[3]
		}
	}
	nm = 0
	for (i = 1; i <= ng; i++) if (!(GN[i] in REACHED)) nm++
	printf "missed groups (%d):\n", nm
	for (i = 1; i <= ng; i++) {
		g = GN[i]
		if (g in REACHED) continue
		printf "  %s:", g
		n = split(GURLS[g], us, " ")
		for (j = 1; j <= n; j++)
			printf " %s (%s)", us[j], (us[j] in PV) ? PV[us[j]] : "not fetched"
		printf "\n"
	}
}' "$TMP/site/labels.tsv" "$TMP/rows"
echo
secs=$(echo "$start $end" | awk '{ printf "%.2f", $2 - $1 }')
echo "$(tail -n 1 "$TMP/eval") pages=$pages seconds=$secs"
