#!/bin/sh
# The read-side commands on PostgreSQL: the same fixture site crawled into
# SQLite and into a fresh PostgreSQL database gives the same pages and
# verdicts, and then the same `report` tables, the same `rank` summary and
# ranks, the same `export` rows (csv, jsonl, --clusters) and the same
# `eval -d` scores -- byte for byte, once the wall-clock columns are gone.
# Every comparison also asks for output that is not empty, so two commands
# failing alike do not pass.
. tests/e2e/lib.sh

[ -n "${PG_URI:-}" ] || e2e_start_pg
if [ -z "${PG_URI:-}" ]; then
	eq "a PostgreSQL server to test on (PG_URI)" "" "set"
	e2e_finish
fi
e2e_start_server tests/fixtures/sites

# A name of our own on a server other tests may share.
PGPREFIX=ncpgcmd_$$
PGDBS=""

# pg_uri NAME: PG_URI with its database replaced by NAME.
pg_uri() {
	printf '%s\n' "$PG_URI" |
	    sed "s|^\(postgres[a-z]*://[^/?]*/\)[^?]*|\1$1|"
}

# pg NAME SQL: one query's rows, fields joined by "|" as q does.
pg() {
	psql -X -q -A -t -F '|' "$(pg_uri "$1")" -c "$2"
}

# crawl_both NAME SEEDS [CRAWL OPTIONS...]: crawl the seed hosts (one
# word, hosts joined by spaces) into $E2E_TMP/NAME.db and into a new
# PostgreSQL database; sets SQ, PGDB and PG. One transfer at a time, so
# both crawls fetch in the same order.
crawl_both() {
	cname=$1
	seeds=""
	for h in $2; do
		set -- "$@" --resolve "$h:$PORT:127.0.0.1"
		seeds="$seeds http://$h:$PORT/"
	done
	shift 2
	SQ=$E2E_TMP/$cname.db
	PGDB=${PGPREFIX}_$cname
	psql -X -q "$PG_URI" -c "CREATE DATABASE $PGDB"
	eq "$cname: PostgreSQL database created" "$?" 0
	PGDBS="$PGDBS $PGDB"
	PG=$(pg_uri "$PGDB")
	for engine in SQLite PostgreSQL; do
		db=$SQ
		[ $engine = SQLite ] || db=$PG
		# shellcheck disable=SC2086
		"$NEARCRAWL" crawl -d "$db" --quiet --delay-ms 0 \
		    --concurrency 1 --per-host 1 "$@" $seeds 2>"$E2E_TMP/err"
		eq "$cname: crawl into $engine exits 0" "$?" 0
	done
	VERDICTS="SELECT verdict, count(*) FROM pages GROUP BY verdict
	    ORDER BY verdict"
	sqv=$(q "$SQ" "$VERDICTS")
	ok "$cname: the crawl found duplicates" sh -c \
	    'printf "%s\n" "$1" | grep -Eq "^(exact|near)\|"' sh "$sqv"
	eq "$cname: same page count" \
	    "$(pg "$PGDB" 'SELECT count(*) FROM pages')" \
	    "$(q "$SQ" 'SELECT count(*) FROM pages')"
	eq "$cname: same verdict counts" "$(pg "$PGDB" "$VERDICTS")" "$sqv"
	eq "$cname: same verdict of every URL, in the same order" \
	    "$(pg "$PGDB" 'SELECT seq, url, verdict FROM pages ORDER BY seq')" \
	    "$(q "$SQ" 'SELECT seq, url, verdict FROM pages ORDER BY seq')"
}

# same NAME A B: files A and B are identical and A is not empty.
same() {
	if [ -s "$2" ] && cmp -s "$2" "$3"; then
		eq "$1" same same
	else
		eq "$1" "$(diff "$2" "$3" 2>&1 | head -n 6 | tr '\n' ' ')" \
		    "(identical, not empty)"
	fi
}

# run_both NAME OUT ARGS...: run nearcrawl ARGS with -d on each database,
# stdout to OUT.sq and OUT.pg; each must exit 0 and say nothing on stderr.
run_both() {
	cname=$1
	out=$2
	shift 2
	"$NEARCRAWL" "$@" -d "$SQ" >"$out.sq" 2>"$E2E_TMP/err.sq"
	eq "$cname: on SQLite exits 0" "$?" 0
	"$NEARCRAWL" "$@" -d "$PG" >"$out.pg" 2>"$E2E_TMP/err.pg"
	eq "$cname: on PostgreSQL exits 0" "$?" 0
	eq "$cname: on PostgreSQL nothing on stderr" "$(cat "$E2E_TMP/err.pg")" ""
}

# export_both NAME ARGS...: `export ARGS` on both, the same rows once the
# fetched_at column (a wall-clock time) is dropped.
export_both() {
	cname=$1
	shift
	run_both "$cname" "$E2E_TMP/exp" export "$@"
	for e in sq pg; do
		case " $* " in
		*" jsonl "*)
			sed 's/"fetched_at":[^,}]*[,]\{0,1\}//' \
			    "$E2E_TMP/exp.$e" >"$E2E_TMP/exp.$e.cut" ;;
		*" --clusters "*)
			cp "$E2E_TMP/exp.$e" "$E2E_TMP/exp.$e.cut" ;;
		*)
			awk -F , -v OFS=, 'NR == 1 {
				for (i = 1; i <= NF; i++) if ($i == "fetched_at") t = i
			} { if (t) $t = ""; print }' \
			    "$E2E_TMP/exp.$e" >"$E2E_TMP/exp.$e.cut" ;;
		esac
	done
	same "$cname: same rows on both" "$E2E_TMP/exp.sq.cut" \
	    "$E2E_TMP/exp.pg.cut"
}

# report_both NAME: `report` on both, the same tables.
report_both() {
	cname=$1
	rm -rf "$E2E_TMP/rep.sq" "$E2E_TMP/rep.pg"
	"$NEARCRAWL" report -d "$SQ" -o "$E2E_TMP/rep.sq" --quiet \
	    >/dev/null 2>&1
	eq "$cname: report on SQLite exits 0" "$?" 0
	"$NEARCRAWL" report -d "$PG" -o "$E2E_TMP/rep.pg" --quiet \
	    >/dev/null 2>"$E2E_TMP/err"
	eq "$cname: report on PostgreSQL exits 0" "$?" 0
	eq "$cname: report on PostgreSQL nothing on stderr" \
	    "$(cat "$E2E_TMP/err")" ""
	for f in growth.csv hosts.csv clusters.csv similarity.csv; do
		same "$cname: report $f the same" "$E2E_TMP/rep.sq/$f" \
		    "$E2E_TMP/rep.pg/$f"
	done
	# The summary's first line names the database; the page names it
	# too, with the time of the report and the crawl's first and last.
	for e in sq pg; do
		sed 1d "$E2E_TMP/rep.$e/summary.txt" >"$E2E_TMP/sum.$e"
		grep -v -e '^<title>' -e '^<p>Database <code>' \
		    -e '<th>duration</th>' "$E2E_TMP/rep.$e/index.html" \
		    >"$E2E_TMP/page.$e"
	done
	same "$cname: report summary.txt the same but its title" \
	    "$E2E_TMP/sum.sq" "$E2E_TMP/sum.pg"
	same "$cname: report index.html the same but names and times" \
	    "$E2E_TMP/page.sq" "$E2E_TMP/page.pg"
}

# ---- www.lab.test: the labelled site, exact and near copies -------------
crawl_both lab www.lab.test
report_both lab
export_both "lab: export csv before rank"
export_both "lab: export jsonl" --format jsonl
run_both "lab: rank" "$E2E_TMP/rank" rank
same "lab: rank prints the same" "$E2E_TMP/rank.sq" "$E2E_TMP/rank.pg"
# The stored scores, to twelve places (printf is SQLite's, to_char is
# PostgreSQL's), and the canonical of every page.
q "$SQ" "SELECT p.url, printf('%.12f', k.pagerank), c.url FROM ranks k
    JOIN pages p ON p.id = k.page_id
    LEFT JOIN pages c ON c.id = k.canonical_id ORDER BY p.seq" \
    >"$E2E_TMP/ranks.sq"
pg "$PGDB" "SELECT p.url, to_char(k.pagerank, 'FM0.000000000000'), c.url
    FROM ranks k JOIN pages p ON p.id = k.page_id
    LEFT JOIN pages c ON c.id = k.canonical_id ORDER BY p.seq" \
    >"$E2E_TMP/ranks.pg"
same "lab: the same ranks rows" "$E2E_TMP/ranks.sq" "$E2E_TMP/ranks.pg"
report_both "lab: after rank"
export_both "lab: export csv after rank"
export_both "lab: export jsonl after rank" --format jsonl
export_both "lab: export --clusters" --clusters
export_both "lab: export --clusters jsonl" --clusters --format jsonl
run_both "lab: eval -d" "$E2E_TMP/eval" eval \
    --groups tests/fixtures/labelled.tsv
same "lab: eval -d prints the same" "$E2E_TMP/eval.sq" "$E2E_TMP/eval.pg"
run_both "lab: eval -d --csv" "$E2E_TMP/eval" eval --csv \
    --groups tests/fixtures/labelled.tsv
same "lab: eval -d --csv prints the same" "$E2E_TMP/eval.sq" \
    "$E2E_TMP/eval.pg"

# ---- www.canon.test: declared canonicals, a sessionid copy -------------
crawl_both canon www.canon.test
run_both "canon: rank" "$E2E_TMP/rank" rank
same "canon: rank prints the same" "$E2E_TMP/rank.sq" "$E2E_TMP/rank.pg"
report_both canon
export_both "canon: export csv"
export_both "canon: export jsonl" --format jsonl
export_both "canon: export --clusters" --clusters
export_both "canon: export --clusters --members 1 jsonl" --clusters \
    --members 1 --format jsonl

# ---- the five-host uni site: per-host tables, clusters across hosts -----
crawl_both uni \
    "www.uni.test cs.uni.test lib.uni.test events.uni.test sport.uni.test"
ok "uni: more than one host crawled" test \
    "$(q "$SQ" 'SELECT count(DISTINCT host) FROM pages')" -gt 1
report_both uni
run_both "uni: rank" "$E2E_TMP/rank" rank
same "uni: rank prints the same" "$E2E_TMP/rank.sq" "$E2E_TMP/rank.pg"
export_both "uni: export csv"
export_both "uni: export --clusters" --clusters
run_both "uni: eval -d" "$E2E_TMP/eval" eval --groups \
    tests/fixtures/labelled-uni.tsv
same "uni: eval -d prints the same" "$E2E_TMP/eval.sq" "$E2E_TMP/eval.pg"

# ---- the same, at most 50 pages a host: hosts tie on pages -------------
# The ties leave the order of hosts.csv to the host names: byte order on
# both, whatever collation the PostgreSQL database has.
crawl_both capped \
    "www.uni.test cs.uni.test lib.uni.test events.uni.test sport.uni.test" \
    --max-pages-per-host 50
report_both capped
ok "capped: hosts tie on pages" sh -c \
    'test "$(cut -d , -f 2 "$1" | sed 1d | sort | uniq -d)" != ""' \
    sh "$E2E_TMP/rep.sq/hosts.csv"

for db in $PGDBS; do
	psql -X -q "$PG_URI" -c "DROP DATABASE $db" >/dev/null 2>&1
done
e2e_finish
