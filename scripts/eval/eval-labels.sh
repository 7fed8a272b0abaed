#!/bin/sh
# eval-labels.sh -- score a crawl database against ground-truth labels.
#
#   scripts/eval/eval-labels.sh [--failures] DB LABELS
#
# DB is a nearcrawl SQLite database (tables pages and duplicates); LABELS is
# a path<TAB>group<TAB>class file such as tests/fixtures/labelled.tsv (see
# tests/fixtures/README.md). Needs only the sqlite3 command-line tool and awk.
#
# Judged pages: verdict unique, exact or near. Each gets the group of its
# path (URL without scheme://host[:port], query kept): the exact label, else
# the longest "*" prefix label, else (unlabelled) a group of its own.
# A label starting with "//" names the host too, "//host/path?query", and
# is matched against the URL without scheme and port (a site of several
# hosts); a plain "/path" label matches that path on any host. An exact
# "//host" label beats an exact plain one, any exact label beats a pattern,
# and of the patterns (both kinds) the longest wins.
#   expected duplicate: an earlier judged page (smaller seq) has the same group
#   predicted duplicate: verdict exact or near
#   TP expected and predicted, FP predicted only, FN expected only
#   precision = TP/(TP+FP), recall = TP/(TP+FN), 1.000 when the sum is 0
#   coverage = labelled groups reached by judged pages / groups in LABELS
#   --failures also tabulates the counts by a page's position in its
#   host's crawl (1-10, 11-50, 51-200, 201-): early pages are judged before
#   the host's template is known
#   distinct pages reached = labelled paths matched by judged pages (a "*"
#                            pattern counts once) / label lines
# --failures adds, before the last line, where the failures fall: false
# positives counted by the class of the page and of its recorded original
# (the class "unique" when no original was recorded), and the labelled
# groups not reached, by class (the class of the group's first label line).
# The last line is machine-readable:
#   precision=0.xxx recall=0.xxx coverage=0.xxx
# Exit status: 0 scored, 1 the database could not be read, 2 bad usage or a
# missing file.
set -u

me=eval-labels
failures=0
if [ $# -gt 0 ] && [ "$1" = --failures ]; then
	failures=1
	shift
fi
if [ $# -ne 2 ]; then
	echo "usage: $0 [--failures] DB LABELS" >&2
	exit 2
fi
db=$1
labels=$2
if [ ! -f "$db" ] || [ ! -r "$db" ]; then
	echo "$me: no readable database file: $db" >&2
	exit 2
fi
if [ ! -f "$labels" ] || [ ! -r "$labels" ]; then
	echo "$me: no readable labels file: $labels" >&2
	exit 2
fi
if ! command -v sqlite3 >/dev/null 2>&1; then
	echo "$me: the sqlite3 command-line tool is not installed" >&2
	exit 2
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/eval-labels.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

tab=$(printf '\t')
# One row per judged page in fetch order (NULL seq last): id, url, verdict,
# seq, url of its first recorded original (md5 match preferred).
if ! sqlite3 -batch -noheader -init /dev/null -separator "$tab" "$db" \
	"SELECT p.id, p.url, p.verdict, COALESCE(p.seq, ''),
	        COALESCE((SELECT o.url FROM duplicates d JOIN pages o ON o.id = d.original_id
	                  WHERE d.page_id = p.id
	                  ORDER BY (d.method = 'md5') DESC, d.rowid LIMIT 1), '')
	   FROM pages p
	  WHERE p.verdict IN ('unique', 'exact', 'near')
	  ORDER BY p.seq IS NULL, p.seq, p.id;" >"$tmp/rows" 2>"$tmp/err"; then
	echo "$me: cannot read $db:" >&2
	cat "$tmp/err" >&2
	exit 1
fi

LC_ALL=C awk -F "$tab" -v dbname="$db" -v labname="$labels" \
    -v failures="$failures" '
function strip(u,   p) {
	p = u
	if (match(p, /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\/?#]*/))
		p = substr(p, RLENGTH + 1)
	sub(/#.*/, "", p)
	if (p == "") p = "/"
	else if (substr(p, 1, 1) == "?") p = "/" p
	return p
}
# "//host/path?query": the URL without scheme, user and port.
function hoststrip(u,   a, s) {
	a = ""
	if (match(u, /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\/?#]*/)) {
		s = index(u, "://")
		a = tolower(substr(u, s + 3, RLENGTH - s - 2))
		sub(/^.*@/, "", a)
		sub(/:[0-9]*$/, "", a)
	}
	return "//" a strip(u)
}
# Sets G (group), C (class), K (key of the label line, "" if unlabelled).
function lookup(url,   path, hpath, i, best, subj) {
	path = strip(url)
	hpath = hoststrip(url)
	if (hpath in EG) { G = EG[hpath]; C = EC[hpath]; K = "=" hpath; return 1 }
	if (path in EG) { G = EG[path]; C = EC[path]; K = "=" path; return 1 }
	best = 0
	for (i = 1; i <= npat; i++) {
		subj = (substr(PPRE[i], 1, 2) == "//") ? hpath : path
		if (index(subj, PPRE[i]) == 1 && (best == 0 || length(PPRE[i]) > length(PPRE[best])))
			best = i
	}
	if (best) { G = PG[best]; C = PC[best]; K = "*" best; return 1 }
	G = "unlabelled " path; C = "unlabelled"; K = ""
	return 0
}
function ratio(a, b) { return (b == 0) ? 1 : a / b }
function addclass(c) {
	if (!(c in CSEEN)) { CSEEN[c] = 1; ncls++; CLS[ncls] = c }
}

FILENAME == ARGV[1] {                           # the labels
	sub(/\r$/, "")
	if (FNR == 1 && $1 == "path") next
	if ($0 ~ /^[ \t]*(#|$)/) next
	if (NF < 3 || $1 == "" || $2 == "" || $3 == "") {
		printf "%s:%d: ignored, not path<TAB>group<TAB>class\n", labname, FNR > "/dev/stderr"
		next
	}
	if (!($2 in LGROUP)) {
		LGROUP[$2] = 1; nlgroups++
		GLIST[nlgroups] = $2; GCLASS[$2] = $3; GFIRST[$2] = $1
	}
	addclass($3)
	if ($1 ~ /\*$/) {
		npat++; nlabelled++
		PPRE[npat] = substr($1, 1, length($1) - 1); PG[npat] = $2; PC[npat] = $3
	} else if (!($1 in EG)) {
		nlabelled++
		EG[$1] = $2; EC[$1] = $3
	}
	next
}

{                                               # the judged pages
	url = $2; verdict = $3; seq = $4; orig = $5
	njudged++
	VCOUNT[verdict]++
	if (!lookup(url)) {
		nunl++
		if (nunl <= 10) UNL[nunl] = url
	} else {
		if (!(K in REACHED)) { REACHED[K] = 1; nreached++ }
		if (!(G in GREACHED)) { GREACHED[G] = 1; ngreached++ }
	}
	addclass(C)
	isexp = 0
	if (G in FIRSTSEQ)
		isexp = (seq == "" || FIRSTSEQ[G] == "" || FIRSTSEQ[G] + 0 < seq + 0)
	else {
		FIRSTSEQ[G] = seq; FIRSTURL[G] = url
	}
	pred = (verdict == "exact" || verdict == "near")
	PAGES[C]++
	if (isexp) EXP[C]++
	if (pred) PRED[C]++
	if (isexp && pred) TP[C]++
	if (pred && !isexp) {
		FP[C]++; nfp++
		if (nfp <= 20) FPL[nfp] = url "  " verdict "  original=" (orig == "" ? "(none recorded)" : orig)
	}
	if (isexp && !pred) {
		FN[C]++; nfn++
		if (nfn <= 20) FNL[nfn] = url "  " verdict "  earlier=" FIRSTURL[G]
	}
	# Where the page stands in the crawl of its host: early pages are judged
	# before the template of the host is known.
	h = hoststrip(url); sub(/^\/\//, "", h); sub(/\/.*/, "", h)
	r = ++HOSTN[h]
	b = (r <= 10) ? 1 : (r <= 50) ? 2 : (r <= 200) ? 3 : 4
	BJ[b]++
	if (isexp && pred) BTP[b]++
	if (pred && !isexp) BFP[b]++
	if (isexp && !pred) BFN[b]++
	fpkey = C " <- unique"
	if (pred && orig != "") {
		g = G; c = C
		lookup(orig)
		if (G != g) wrongorig++
		fpkey = c " <- " C
	}
	if (pred && !isexp) {
		if (!(fpkey in FPBY)) { nfpby++; FPKEYS[nfpby] = fpkey }
		FPBY[fpkey]++
	}
}

END {
	printf "eval-labels: %s against %s\n", dbname, labname
	printf "judged pages: %d (unique %d, exact %d, near %d), unlabelled: %d\n",
	    njudged, VCOUNT["unique"], VCOUNT["exact"], VCOUNT["near"], nunl
	for (i = 1; i <= nunl && i <= 10; i++) printf "  unlabelled: %s\n", UNL[i]
	printf "\n%-12s %6s %8s %9s %6s %6s %6s\n", "class", "pages", "exp_dup", "pred_dup", "TP", "FP", "FN"
	for (i = 1; i <= ncls; i++) {
		c = CLS[i]
		printf "%-12s %6d %8d %9d %6d %6d %6d\n", c, PAGES[c], EXP[c], PRED[c], TP[c], FP[c], FN[c]
		tp += TP[c]; fp += FP[c]; fn += FN[c]; te += EXP[c]; tpred += PRED[c]
	}
	printf "%-12s %6d %8d %9d %6d %6d %6d\n\n", "total", njudged, te, tpred, tp, fp, fn
	printf "distinct pages reached: %d of %d\n", nreached, nlabelled
	printf "groups reached: %d of %d\n", ngreached, nlgroups
	printf "predicted duplicates whose original is in another group: %d\n", wrongorig
	printf "\nfalse positives (%d, first 20):\n", nfp
	for (i = 1; i <= nfp && i <= 20; i++) printf "  %s\n", FPL[i]
	printf "false negatives (%d, first 20):\n", nfn
	for (i = 1; i <= nfn && i <= 20; i++) printf "  %s\n", FNL[i]
	if (failures) {
		printf "\nfalse positives by class (page <- its original):\n"
		for (i = 1; i <= nfpby; i++)
			printf "  %-30s %5d\n", FPKEYS[i], FPBY[FPKEYS[i]]
		if (nfpby == 0) printf "  (none)\n"
		printf "groups not reached, by class:\n"
		for (i = 1; i <= nlgroups; i++) {
			g = GLIST[i]
			if (g in GREACHED) continue
			c = GCLASS[g]
			if (!(c in MISSBY)) { nmissby++; MISSKEYS[nmissby] = c }
			MISSBY[c]++
			nmiss++
			if (nmiss <= 20) MISSL[nmiss] = g "  (" c ")  " GFIRST[g]
		}
		for (i = 1; i <= nmissby; i++)
			printf "  %-30s %5d\n", MISSKEYS[i], MISSBY[MISSKEYS[i]]
		if (nmissby == 0) printf "  (none)\n"
		printf "groups not reached (%d, first 20):\n", nmiss
		for (i = 1; i <= nmiss && i <= 20; i++) printf "  %s\n", MISSL[i]
		printf "\nby position in the crawl of its host (n-th judged page there):\n"
		printf "  %-9s %6s %6s %6s %6s %9s %7s\n", "position", "pages", "TP", "FP", "FN", "precision", "recall"
		split("1-10 11-50 51-200 201-", BNAME, " ")
		for (b = 1; b <= 4; b++)
			if (BJ[b] > 0)
				printf "  %-9s %6d %6d %6d %6d %9.3f %7.3f\n", BNAME[b], BJ[b], BTP[b], BFP[b], BFN[b],
				    ratio(BTP[b], BTP[b] + BFP[b]), ratio(BTP[b], BTP[b] + BFN[b])
	}
	printf "\nprecision=%.3f recall=%.3f coverage=%.3f\n",
	    ratio(tp, tp + fp), ratio(tp, tp + fn), ratio(ngreached, nlgroups)
}
' "$labels" "$tmp/rows"
