#!/bin/sh
# gen-labelled-site.sh -- (re)generate the labelled fixture site www.lab.test
# and its ground-truth labels.
#
#   scripts/gen/gen-labelled-site.sh [OUTDIR]
#
# OUTDIR defaults to tests/fixtures of this repository. Writes, from scratch:
#   OUTDIR/sites/www.lab.test/**   the static site (served as ROOT/<host>/<path>)
#   OUTDIR/labelled.tsv            path<TAB>group<TAB>class, one line per URL
#
# Deterministic: a fixed seed and a self-contained Park-Miller generator (awk's
# own rand() differs between mawk and gawk), indexed arrays only (no "for in"
# order), so every run with any POSIX awk writes the same bytes. All prose is
# synthetic, assembled from the vocabulary below. tests/fixtures/README.md
# describes the page classes and the labels format.
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$top/tests/fixtures}
site=$out/sites/www.lab.test
labels=$out/labelled.tsv
AWK=${AWK:-awk}

prog=$(mktemp "${TMPDIR:-/tmp}/gen-labelled.XXXXXX")
trap 'rm -f "$prog"' EXIT INT TERM

rm -rf "$site"
mkdir -p "$site/news" "$site/archive" "$site/print" "$site/m" \
	"$site/people" "$site/events"

cat >"$prog" <<'AWKEOF'
# ---------------------------------------------------------------- utilities
function rnd(n) {            # 0 .. n-1; 16807 * seed stays below 2^53
	seed = (seed * 16807) % 2147483647
	return int(seed / 2147483647 * n)
}
function pick(a, n) { return a[1 + rnd(n)] }
function wc(s,   t) { return split(s, t, " ") }
function cap(s) { return toupper(substr(s, 1, 1)) substr(s, 2) }
function words(s, a) { return split(s, a, " ") }
function ascii_word(w) { return w ~ /^[a-z]+$/ }
function article_for(w) {
	if (w ~ /^(uni|use|eu)/) return "a " w
	return (index("aeiou", substr(w, 1, 1)) ? "an " : "a ") w
}
function titlecase(s,   a, n, i, r) {
	n = split(s, a, " ")
	r = ""
	for (i = 1; i <= n; i++) {
		if (i > 1 && a[i] ~ /^(of|and|the|in|for|at|to|on|a|an|with)$/)
			r = r " " a[i]
		else
			r = r (i > 1 ? " " : "") cap(a[i])
	}
	return r
}
function slugify(s) {
	s = tolower(s)
	gsub(/[^a-z0-9]+/, "-", s)
	gsub(/^-+|-+$/, "", s)
	return s
}
function hex16(   i, r) {
	r = ""
	for (i = 0; i < 4; i++) r = r sprintf("%04x", rnd(65536))
	return r
}
function datestr(doy,   m) {  # day of year 2026 -> "12 March 2026"
	m = 1
	while (doy > MDAYS[m]) { doy -= MDAYS[m]; m++ }
	return doy " " MONTH[m] " 2026"
}
function isodate(doy,   m) {
	m = 1
	while (doy > MDAYS[m]) { doy -= MDAYS[m]; m++ }
	return sprintf("2026-%02d-%02d", m, doy)
}
function weekday(doy) { return WDAY[1 + (doy - 1 + 3) % 7] }  # 1 Jan 2026: Thu
function stamp(doy) {
	return "Last updated " isodate(doy) sprintf(" %02d:%02d UTC", 7 + rnd(12), rnd(60))
}
function counter() { return "Visitors: " (1000 + rnd(98000)) }

# ---------------------------------------------------------------- prose
function np(   w, d) {       # singular noun phrase, 2 or 3 words
	w = (rnd(3) == 0) ? "" : pick(ADJ, nADJ) " "
	w = w pick(NOUN, nNOUN)
	d = rnd(6)
	if (d == 0) return article_for(w)
	if (d == 1) return "this " w
	if (d == 2) return "our " w
	return "the " w
}
# One base clause, then phrases until exactly L words where possible; each
# kind of adverbial (manner, place, time, closing word) is used at most once.
function clause(L,   s, n, f, fr, k, tries, used) {
	s = np() " " pick(VPAST, nVPAST) " " np()
	n = wc(s)
	split("", used)
	for (tries = 0; n < L && tries < 80; tries++) {
		f = rnd(9)
		if (f == 0) fr = pick(ADV, nADV)
		else if (f <= 2) fr = pick(PREP, nPREP) " " np()
		else if (f == 3) fr = pick(PLACEPREP, nPLACEPREP) " " pick(PLACE, nPLACE)
		else if (f == 4) fr = pick(TIME, nTIME)
		else if (f == 5) fr = ", and " np() " " pick(VPAST, nVPAST) " " np()
		else if (f == 6) fr = "because " np() " " pick(VPAST, nVPAST) " " np()
		else if (f == 7) fr = "so that " np() " " pick(VPAST, nVPAST) " " np()
		else fr = pick(CLOSER, nCLOSER)
		if (f == 1 || f == 2) f = 1                  # repeatable
		if (f == 6 || f == 7) f = 5                  # one subordinate clause
		if (f != 1 && (f in used)) continue
		k = wc(fr) - (substr(fr, 1, 1) == ",")
		if (k > L - n) continue
		if (f != 1) used[f] = 1
		s = (substr(fr, 1, 1) == ",") ? s fr : s " " fr
		n += k
	}
	if (L - n == 1)
		s = s " " pick(FALLBACK, nFALLBACK)
	return s
}
function sentence(L,   s, who) {   # L words, 8 .. 20
	if (L < 8) L = 8
	if (L > 20) L = 20
	if (L >= 14 && rnd(7) == 0) {
		who = "said " PFIRST[1 + rnd(nPEOPLE)] " " PLAST[1 + rnd(nPEOPLE)] ", " pick(ROLE3, nROLE3)
		return "\"" cap(clause(L - wc(who))) ",\" " who "."
	}
	return cap(clause(L)) "."
}
# Paragraphs of 3..7 sentences until at least target words; returns HTML
# <p> elements, the word count in BODYWORDS.
function body(target,   h, p, ns, k, s, n) {
	h = ""; n = 0
	while (n < target) {
		k = 3 + rnd(5); p = ""
		for (ns = 0; ns < k && (n < target || ns < 3); ns++) {
			s = sentence(8 + rnd(13))
			p = p (ns ? " " : "") s
			n += wc(s)
		}
		h = h "<p>" p "</p>\n"
	}
	BODYWORDS = n
	return h
}
# Sentences until about target words (never above it), for short pages.
function shortprose(target, n,   s, L) {
	s = ""
	while (target - n >= 8) {
		L = target - n; if (L > 20) L = 8 + rnd(13)
		if (L > target - n) L = target - n
		s = s (s == "" ? "" : " ") sentence(L)
		n += L
	}
	SHORTWORDS = n
	return s
}

# ---------------------------------------------------------------- template
function head(title, desc) {
	gsub(/"/, "\\&quot;", desc)
	return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n" \
	    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n" \
	    "<title>" title " | Lakeside University</title>\n" \
	    "<meta name=\"description\" content=\"" desc "\">\n" \
	    "<style>body{font-family:Georgia,serif;margin:0}.sidebar{float:right;width:18em}" \
	    ".ads{border:1px solid #ccc;padding:.5em}</style>\n" \
	    "<script>window.dataLayer=window.dataLayer||[];dataLayer.push({site:\"lab\"});</script>\n" \
	    "</head>\n"
}
function header() {
	return "<body>\n<header class=\"site-header\">\n" \
	    "<p class=\"site-name\"><a href=\"/index.html\">Lakeside University</a></p>\n" \
	    "<p class=\"tagline\">News, people and events from the Lakeside campus</p>\n" \
	    "</header>\n" NAV
}
function sidebar(ad) {
	return "<aside class=\"sidebar\">\n<div class=\"ads\">\n<p class=\"ad-label\">Advertisement</p>\n" \
	    "<p>" ad "</p>\n</div>\n" \
	    "<div class=\"box\"><h2>Follow us</h2><p>Newsletter every Friday. Campus radio on 98.4 FM.</p></div>\n" \
	    "</aside>\n"
}
function footer(doy) {
	return "<footer class=\"site-footer\">\n" FOOT \
	    "<p class=\"updated\">" stamp(doy) "</p>\n" \
	    "<p class=\"counter\">" counter() "</p>\n" \
	    "</footer>\n<script>(function(){var c=document.cookie;})();</script>\n</body>\n</html>\n"
}
function page(title, desc, main, doy) {
	LASTAD = 1 + rnd(nAD)
	return head(title, desc) header() sidebar(AD[LASTAD]) \
	    "<main id=\"content\">\n" main "</main>\n" footer(doy)
}
function writefile(path, s) {
	printf "%s", s > (site path)
	close(site path)
	NFILES++
}
function label(path, group, class) {
	printf "%s\t%s\t%s\n", path, group, class > labels
	NLABELS++
}

# ---------------------------------------------------------------- data
function load(   i, n, t) {
	MONTH[1] = "January"; MONTH[2] = "February"; MONTH[3] = "March"
	MONTH[4] = "April"; MONTH[5] = "May"; MONTH[6] = "June"; MONTH[7] = "July"
	MONTH[8] = "August"; MONTH[9] = "September"; MONTH[10] = "October"
	MONTH[11] = "November"; MONTH[12] = "December"
	split("31 28 31 30 31 30 31 31 30 31 30 31", MDAYS, " ")
	split("Monday Tuesday Wednesday Thursday Friday Saturday Sunday", WDAY, " ")

	nNOUN = split("student lecturer researcher laboratory committee campus library " \
	    "seminar grant proposal curriculum semester lecture department survey dataset " \
	    "council budget scholarship archive exhibition conference workshop partnership " \
	    "initiative programme policy study report experiment festival orchestra museum " \
	    "clinic station stadium garden bridge network server algorithm telescope " \
	    "microscope sensor satellite vaccine protein genome climate river forest glacier " \
	    "harbour region village market economy election debate audience volunteer trustee " \
	    "dean provost librarian engineer chemist biologist historian economist physicist " \
	    "poet journalist editor author mentor tutor panel jury award prize medal fellowship " \
	    "residency course module exam thesis dissertation manuscript journal chapter " \
	    "café cafeteria dormitory residence shuttle bicycle trail pavilion atrium " \
	    "auditorium courtyard greenhouse observatory collection catalogue atlas painting " \
	    "sculpture concert rehearsal choir ensemble team season match tournament coach " \
	    "athlete sponsor donor endowment fund tuition enrolment application deadline " \
	    "timetable agenda memo notice bulletin newsletter podcast broadcast interview " \
	    "documentary film screening symposium forum summit retreat tour delegation " \
	    "exchange expedition harvest drought flood storm recovery renovation construction " \
	    "design prototype patent startup factory warehouse hospital reactor battery " \
	    "turbine vineyard orchard fishery lighthouse railway tram ferry", NOUN, " ")
	nADJ = split("new annual ambitious modest historic regional national local remote " \
	    "digital quiet busy careful bold early late recent former final public private " \
	    "shared open closed independent joint major minor rapid gradual unexpected " \
	    "familiar rare common curious patient generous practical theoretical " \
	    "experimental clinical coastal northern southern eastern western urban rural " \
	    "quantum marine tropical arctic ancient modern medieval vibrant crowded empty " \
	    "naïve detailed brief lengthy cautious optimistic sceptical reliable fragile " \
	    "sturdy affordable expensive sustainable renewable seasonal weekly monthly " \
	    "interdisciplinary international collaborative student-led volunteer-run", ADJ, " ")
	nVPAST = split("announced approved launched completed reviewed published described " \
	    "measured surveyed welcomed hosted opened closed expanded reduced funded supported " \
	    "questioned examined tested mapped recorded restored replaced improved delayed " \
	    "postponed celebrated honoured visited organised presented proposed discussed " \
	    "confirmed revised extended shared collected analysed modelled designed built " \
	    "repaired documented translated digitised catalogued photographed interviewed " \
	    "trained mentored recruited invited thanked", VPAST, " ")
	nVERB3 = split("approves launches completes reviews publishes welcomes hosts opens " \
	    "expands funds supports examines tests maps restores improves celebrates honours " \
	    "presents proposes confirms extends shares studies designs builds repairs " \
	    "documents digitises recruits", VERB3, " ")
	nADV = split("quickly carefully quietly formally jointly publicly slowly " \
	    "eventually recently already successfully reluctantly proudly", ADV, " ")
	nFALLBACK = split("locally abroad overnight", FALLBACK, " ")
	nCLOSER = split("again today too instead nonetheless meanwhile", CLOSER, " ")
	nPREP = split("with|without|despite|under|beyond|around|through|after|before|" \
	    "alongside|behind|beside|towards|against|near", PREP, "|")
	nPLACEPREP = split("in|near|across|outside|around", PLACEPREP, "|")
	nPLACE = split("the north campus|Zürich|Geneva|Lisbon|the old town|the harbour district|" \
	    "the science park|Lakeside|the river valley|the east wing|the city centre|" \
	    "the botanical garden|Málaga|Tromsø|the medical quarter|the western suburbs|" \
	    "the student village|the coastal path|Utrecht|Kraków", PLACE, "|")
	nTIME = split("last spring|this semester|next autumn|on Monday|on Friday evening|" \
	    "last week|earlier this year|in the summer|during the winter break|" \
	    "over the weekend|in recent months|this morning", TIME, "|")
	nROLE3 = split("professor of history|head of admissions|dean of students|" \
	    "director of research|lecturer in chemistry|professor of economics|" \
	    "chair of council|head of estates|lecturer in music|director of libraries|" \
	    "professor of physics|head of sport", ROLE3, "|")
	nTOPIC = split("coastal erosion|medieval trade routes|quantum sensors|soil microbiology|" \
	    "urban transport|renewable storage|early modern poetry|labour economics|" \
	    "marine ecology|protein folding|machine translation|public health policy|" \
	    "glacier dynamics|music cognition|Roman archaeology|bridge engineering|" \
	    "child language learning|climate adaptation|financial regulation|" \
	    "café culture in Zürich|naïve physics|sports nutrition|museum studies|" \
	    "vaccine logistics|rural broadband|Arctic shipping|battery chemistry|" \
	    "digital archives|choral performance|migration history", TOPIC, "|")
	nDEPT = split("History|Chemistry|Physics|Economics|Music|Law|Geography|Biology|" \
	    "Engineering|Computer Science|Linguistics|Philosophy|Medicine|Sport Science|" \
	    "Archaeology|Mathematics", DEPT, "|")
	nJOB = split("Lecturer|Senior Lecturer|Professor|Reader|Research Fellow|" \
	    "Teaching Fellow|Research Assistant|Technician|Administrator|Doctoral Researcher|" \
	    "Laboratory Manager|Department Coordinator", JOB, "|")
	nBUILDING = split("Harbour Building|Lister Hall|North Tower|Willow House|" \
	    "Science Centre|Old Mill|Quayside Block|Beacon Building", BUILDING, "|")
	nFIRST = split("Anna|anna|Ben|ben|Chiara|chiara|Dmitri|dmitri|Elif|elif|" \
	    "Fatima|fatima|Gareth|gareth|Hannah|hannah|Ines|ines|José|jose|Kofi|kofi|" \
	    "Lena|lena|Marek|marek|Nadia|nadia|Oliver|oliver|Priya|priya|Quentin|quentin|" \
	    "Rosa|rosa|Samuel|samuel|Tomás|tomas|Uma|uma|Victor|victor|Wen|wen|" \
	    "Yusuf|yusuf|Zoë|zoe|Amir|amir|Bríd|brid|Carlos|carlos|Dana|dana|Emil|emil", t, "|")
	nPF = 0
	for (i = 1; i <= nFIRST; i += 2) { nPF++; FIRST[nPF] = t[i]; FIRSTS[nPF] = t[i + 1] }
	nLAST = split("Abbott|abbott|Berg|berg|Costa|costa|Dubois|dubois|Eriksen|eriksen|" \
	    "Fischer|fischer|García|garcia|Hughes|hughes|Ibrahim|ibrahim|Jansen|jansen|" \
	    "Kowalski|kowalski|Lindqvist|lindqvist|Müller|muller|Nakamura|nakamura|" \
	    "O'Brien|obrien|Petrov|petrov|Quinn|quinn|Rossi|rossi|Schäfer|schafer|" \
	    "Takahashi|takahashi|Usman|usman|Varga|varga|Walsh|walsh|Xu|xu|Yilmaz|yilmaz|" \
	    "Zimmermann|zimmermann|Achebe|achebe|Brennan|brennan|Novak|novak", t, "|")
	nPL = 0
	for (i = 1; i <= nLAST; i += 2) { nPL++; LAST[nPL] = t[i]; LASTS[nPL] = t[i + 1] }

	nAD = split("Summer language courses in Zürich and Geneva: small groups, patient " \
	    "tutors and a free café voucher on your first morning. Book before the end of May.|" \
	    "Lakeside Bikes rents sturdy city bicycles to students from nine pounds a week, " \
	    "including lights, a lock and free repairs at the campus workshop.|" \
	    "Need a quiet room to write up your thesis? Willow Street Study Rooms open early, " \
	    "close late and serve the best flat white near the harbour.|" \
	    "Harbour Lane Dental welcomes new patients. Evening appointments, student discounts " \
	    "and a naïve fear of dentists gently cured since 1998.|" \
	    "Moving house this summer? Two friendly movers, one large van and fixed prices " \
	    "for every student flat within twelve miles of the campus.|" \
	    "The Lakeside Playhouse presents a new comedy every month. Half price tickets " \
	    "for students on Tuesday and Wednesday evenings.|" \
	    "Learn to sail on the lake this term. Beginner courses every Saturday, all " \
	    "equipment included, no experience needed at all.|" \
	    "Print your poster for the conference season at Quayside Print: glossy or matt, " \
	    "ready in two hours, delivery to any building.|" \
	    "Fresh bread, soup and coffee at the Old Mill Bakery, five minutes from the " \
	    "library. Show your card for ten percent off.|" \
	    "Graduate careers fair on the north campus: meet more than sixty employers, bring " \
	    "a printed résumé and ask about paid internships.|" \
	    "Affordable laptop repairs while you wait. Broken screens, tired batteries and " \
	    "spilled coffee are our speciality. Open every day.|" \
	    "Join the Lakeside Choir for the winter concert season. Rehearsals on Thursday " \
	    "evenings in the chapel, all voices welcome.", AD, "|")

	NAV = "<nav class=\"main-nav\" aria-label=\"Main menu\">\n<ul>\n" \
	    "<li><a href=\"/\">Home</a></li>\n" \
	    "<li><a href=\"/news/\">Latest News</a></li>\n" \
	    "<li><a href=\"/archive/\">News Archive</a></li>\n" \
	    "<li><a href=\"/people/\">People and Departments</a></li>\n" \
	    "<li><a href=\"/events/\">Events and Lectures</a></li>\n" \
	    "<li><a href=\"/about.html\">About the University</a></li>\n" \
	    "<li><a href=\"/admissions.html\">Admissions and Fees</a></li>\n" \
	    "<li><a href=\"/research.html\">Research Centres</a></li>\n" \
	    "<li><a href=\"/library.html\">Library Services</a></li>\n" \
	    "<li><a href=\"/campus.html\">Campus Life and Housing</a></li>\n" \
	    "<li><a href=\"/alumni.html\">Alumni Network</a></li>\n" \
	    "<li><a href=\"/jobs.html\">Jobs and Careers</a></li>\n" \
	    "<li><a href=\"/contact.html\">Contact Us</a></li>\n" \
	    "<li><a href=\"/privacy.html\">Privacy Notice</a></li>\n" \
	    "<li><a href=\"/accessibility.html\">Accessibility Statement</a></li>\n" \
	    "</ul>\n<form class=\"search\" action=\"/search\"><label>Search the site " \
	    "<input name=\"q\"></label></form>\n</nav>\n"
	FOOT = "<p>Lakeside University, 14 Harbour Road, Lakeside LK4 9QT. Telephone " \
	    "01632 960 418. Reception is open Monday to Friday from 8:30 to 17:30, " \
	    "and the visitor café is open at weekends.</p>\n" \
	    "<p>&copy; 2026 Lakeside University. All rights reserved. Content on this site " \
	    "may be reused for teaching with attribution.</p>\n" \
	    "<p><a href=\"/privacy.html\">Privacy</a> | <a href=\"/accessibility.html\">Accessibility</a> | " \
	    "<a href=\"/contact.html\">Contact</a> | <a href=\"/jobs.html\">Jobs</a></p>\n"
}

# ---------------------------------------------------------------- build
BEGIN {
	seed = 20260314
	load()
	NART = 120; NPEOPLE_PAGES = 150; NEVENTS = 30; PERPAGE = 10
	NPAGES = int((NART + PERPAGE - 1) / PERPAGE)
	printf "path\tgroup\tclass\n" > labels

	# People first: bylines and quotes draw on them.
	nPEOPLE = 0
	while (nPEOPLE < NPEOPLE_PAGES) {
		i = 1 + rnd(nPF); j = 1 + rnd(nPL)
		if ((i SUBSEP j) in USEDNAME) continue
		USEDNAME[i, j] = 1
		nPEOPLE++
		PFIRST[nPEOPLE] = FIRST[i]; PLAST[nPEOPLE] = LAST[j]
		PSLUG[nPEOPLE] = FIRSTS[i] "-" LASTS[j]
		PJOB[nPEOPLE] = pick(JOB, nJOB); PDEPT[nPEOPLE] = pick(DEPT, nDEPT)
	}

	# Articles: titles, slugs, dates (1 = newest), lengths, duplicate roles.
	for (a = 1; a <= NART; a++) {
		do {
			f = rnd(3)
			do { n1 = pick(NOUN, nNOUN) } while (!ascii_word(n1))
			do { n2 = pick(NOUN, nNOUN) } while (!ascii_word(n2))
			do { ad = pick(ADJ, nADJ) } while (!ascii_word(ad))
			do { ad2 = pick(ADJ, nADJ) } while (!ascii_word(ad2) || ad2 == ad)
			do { n3 = pick(NOUN, nNOUN) } while (!ascii_word(n3) || n3 == n2)
			if (f == 0) t = n1 " " pick(VERB3, nVERB3) " " ad " " n2
			else if (f == 1) t = ad " " n1 " " pick(VERB3, nVERB3) " " n2 " plans"
			else t = n1 " team " pick(VERB3, nVERB3) " " ad " " n2 " " \
			    pick(PLACEPREP, nPLACEPREP) " the " ad2 " " n3
			t = titlecase(t)
			s = slugify(t)
		} while (s in USEDSLUG)
		USEDSLUG[s] = 1
		TITLE[a] = t; SLUG[a] = s
		DOY[a] = 300 - 2 * a + rnd(2)
		AUTH[a] = 1 + rnd(nPEOPLE)
		PRINT[a] = (a % 2 == 1); MOBILE[a] = (a % 4 <= 1); ALIAS[a] = (a % 3 == 0)
		SESSION[a] = (a <= 10) ? hex16() : ""
		CAMPAIGN[a] = 100 + int((300 - DOY[a]) / 7)
	}

	for (a = 1; a <= NART; a++) {
		s = SLUG[a]; grp = sprintf("article-%03d", a)
		target = 150 + rnd(721)
		text = body(target)
		ARTWORDS[a] = BODYWORDS
		match(text, /\. /)
		TEASER[a] = substr(text, 4, RSTART - 3)
		if (RSTART == 0) TEASER[a] = substr(text, 4, 120)
		by = "<p class=\"byline\">By " PFIRST[AUTH[a]] " " PLAST[AUTH[a]] ", " \
		    PJOB[AUTH[a]] " in " PDEPT[AUTH[a]] ". Published " datestr(DOY[a]) ".</p>\n"
		for (k = 1; k <= 3; k++) {
			do {
				r = 1 + rnd(NART)
			} while (r == a || (k > 1 && r == REL[1]) || (k > 2 && r == REL[2]))
			REL[k] = r
		}
		related = "<section class=\"related\">\n<h2>Related articles</h2>\n<ul>\n"
		for (k = 1; k <= 3; k++)
			related = related "<li><a href=\"" ((k == 2) ? "/news/" : "../news/") \
			    SLUG[REL[k]] ".html\">" TITLE[REL[k]] "</a></li>\n"
		related = related "</ul>\n</section>\n"
		share = ((a % 2) ? "/news/" : "../news/") s ".html?utm_source=newsletter&amp;" \
		    "utm_medium=email&amp;utm_campaign=" CAMPAIGN[a]
		tools = "<p class=\"tools\">"
		if (PRINT[a]) tools = tools "<a href=\"../print/" s ".html\">Print this article</a> | "
		if (MOBILE[a]) tools = tools "<a href=\"/m/" s ".html\">Mobile edition</a> | "
		tools = tools "<a href=\"" share "\">Share by email</a></p>\n"
		crumb = "<p class=\"breadcrumb\"><a href=\"/\">Home</a> &gt; <a href=\"../news/\">News</a> &gt; " \
		    TITLE[a] "</p>\n"
		art = "<article>\n<h1>" TITLE[a] "</h1>\n" by text "</article>\n"
		main = crumb art tools related \
		    "<p><a href=\"../news/\">Back to all news</a></p>\n"
		h = page(TITLE[a], TEASER[a], main, DOY[a] + 1 + rnd(20))
		artad = LASTAD
		writefile("/news/" s ".html", h)
		label("/news/" s ".html", grp, "article")
		if (ALIAS[a]) {
			writefile("/archive/" s ".html", h)    # the very same bytes
			label("/archive/" s ".html", grp, "alias")
		}
		gsub(/&amp;/, "\\&", share)
		if (substr(share, 1, 3) == "../") share = substr(share, 3)
		label(share, grp, "tracking")
		if (SESSION[a] != "")
			label("/news/" s ".html?sessionid=" SESSION[a], grp, "tracking")
		if (PRINT[a]) {
			p = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n" \
			    "<title>" TITLE[a] " (print)</title>\n" \
			    "<style>body{font-family:serif;max-width:40em;margin:2em auto}</style>\n" \
			    "</head>\n<body>\n<h1>" TITLE[a] "</h1>\n" \
			    "<p class=\"date\">" datestr(DOY[a]) "</p>\n" text "</body>\n</html>\n"
			writefile("/print/" s ".html", p)
			label("/print/" s ".html", grp, "print")
		}
		if (MOBILE[a]) {
			do { ad1 = 1 + rnd(nAD) } while (ad1 == artad)
			banner = "<p class=\"mobile-banner\">You are reading the mobile edition. " \
			    "<a href=\"../news/" s ".html\">Switch to the full site</a></p>\n"
			m = head(TITLE[a], TEASER[a]) header() banner sidebar(AD[ad1]) \
			    "<main id=\"content\">\n" crumb art related "</main>\n" \
			    footer(DOY[a] + 1 + rnd(40))
			writefile("/m/" s ".html", m)
			label("/m/" s ".html", grp, "variant")
		}
	}

	# News listing: /news/ then /news/page-N.html, PERPAGE articles each.
	for (pg = 1; pg <= NPAGES; pg++) {
		path = (pg == 1) ? "/news/" : "/news/page-" pg ".html"
		main = "<h1>Latest news" ((pg > 1) ? ", page " pg : "") "</h1>\n<ul class=\"listing\">\n"
		for (a = (pg - 1) * PERPAGE + 1; a <= pg * PERPAGE && a <= NART; a++)
			main = main "<li><h2><a href=\"" SLUG[a] ".html\">" TITLE[a] "</a></h2>\n" \
			    "<p class=\"date\">" datestr(DOY[a]) "</p>\n<p>" TEASER[a] "</p></li>\n"
		main = main "</ul>\n<p class=\"pager\">Pages:"
		for (k = 1; k <= NPAGES; k++)
			main = main " " ((k == pg) ? k : "<a href=\"" ((k == 1) ? "/news/" : "page-" k ".html") \
			    "\">" k "</a>")
		main = main "</p>\n"
		writefile(((pg == 1) ? "/news/index.html" : path),
		    page("Latest news" ((pg > 1) ? ", page " pg : ""), "News from Lakeside University", main, 301))
		label(path, "news-" pg, "listing")
	}

	# Archive listing of the aliased stories.
	main = "<h1>News archive</h1>\n<p>Selected stories from earlier this year, kept " \
	    "here for reference. Older items move to the library's digital archive.</p>\n<ul>\n"
	for (a = NART; a >= 1; a--)
		if (ALIAS[a])
			main = main "<li><a href=\"" SLUG[a] ".html\">" TITLE[a] "</a> (" datestr(DOY[a]) ")</li>\n"
	main = main "</ul>\n"
	writefile("/archive/index.html", page("News archive", "Archive of selected stories", main, 290))
	label("/archive/", "archive", "listing")

	# People pages (bait: short distinct bodies in a heavy template).
	for (i = 1; i <= nPEOPLE; i++) {
		name = PFIRST[i] " " PLAST[i]
		hon = (PJOB[i] ~ /Professor|Reader|Lecturer/) ? "Dr " : ""
		facts = "<p class=\"role\">" PJOB[i] ", Department of " PDEPT[i] "</p>\n" \
		    "<p class=\"office\">Office: Room " (1 + rnd(4)) "." sprintf("%02d", 1 + rnd(30)) ", " \
		    pick(BUILDING, nBUILDING) ". Telephone: 01632 960 " sprintf("%03d", rnd(1000)) "</p>\n"
		t1 = pick(TOPIC, nTOPIC)
		do { t2 = pick(TOPIC, nTOPIC) } while (t2 == t1)
		interests = "Research interests include " tolower(substr(t1, 1, 1)) substr(t1, 2) " and " t2 "."
		n = 2 + wc(PJOB[i] " Department of " PDEPT[i]) + 9 + wc(interests)
		target = 25 + rnd(46)
		extra = shortprose((target < n + 8) ? n + 8 : target, n)
		main = "<p class=\"breadcrumb\"><a href=\"/\">Home</a> &gt; <a href=\"./\">People</a></p>\n" \
		    "<h1>" hon name "</h1>\n" facts "<p>" interests (extra == "" ? "" : " " extra) "</p>\n"
		PWORDS[i] = SHORTWORDS
		writefile("/people/" PSLUG[i] ".html",
		    page(hon name, PJOB[i] ", " PDEPT[i], main, 20 + rnd(280)))
		label("/people/" PSLUG[i] ".html", "person-" PSLUG[i], "bait")
	}
	main = "<h1>People and departments</h1>\n<p>Staff listed by name. Use the telephone " \
	    "numbers for appointments; office hours are on each page.</p>\n<ul class=\"people\">\n"
	for (i = 1; i <= nPEOPLE; i++)
		main = main "<li><a href=\"" PSLUG[i] ".html\">" PFIRST[i] " " PLAST[i] "</a>, " \
		    PJOB[i] " (" PDEPT[i] ")</li>\n"
	main = main "</ul>\n"
	writefile("/people/index.html", page("People", "Staff directory", main, 295))
	label("/people/", "people", "listing")

	# Events (bait) and their listing, which opens the calendar trap.
	main = "<h1>Events and lectures</h1>\n<p>Public lectures, concerts and open days. " \
	    "Entry is free unless stated otherwise.</p>\n<ul class=\"events\">\n"
	for (e = 1; e <= NEVENTS; e++) {
		edoy = 300 + 2 * e + rnd(2)
		kind = rnd(4)
		do { n1 = pick(NOUN, nNOUN) } while (!ascii_word(n1))
		do { n2 = pick(NOUN, nNOUN) } while (!ascii_word(n2))
		if (kind == 0) et = "Public lecture: the " n1 " and the " n2
		else if (kind == 1) et = "Concert: the " pick(ADJ, nADJ) " " n1
		else if (kind == 2) et = "Open day at the " n1 " " n2
		else et = "Workshop on " pick(TOPIC, nTOPIC)
		when = weekday(edoy) " " datestr(edoy) ", " (12 + rnd(8)) ":" ((rnd(2)) ? "30" : "00")
		venue = pick(BUILDING, nBUILDING)
		n = wc(et) + wc(when) + wc(venue) + 2
		target = 30 + rnd(31)
		extra = shortprose((target < n + 8) ? n + 8 : target, n)
		emain = "<p class=\"breadcrumb\"><a href=\"/\">Home</a> &gt; <a href=\"/events/\">Events</a></p>\n" \
		    "<h1>" et "</h1>\n<p class=\"when\">Date: " when "</p>\n<p class=\"where\">Venue: " \
		    venue "</p>\n<p>" extra "</p>\n"
		EWORDS[e] = SHORTWORDS
		writefile("/events/" e ".html", page(et, "Event notice", emain, edoy - 30))
		label("/events/" e ".html", "event-" e, "bait")
		main = main "<li><a href=\"" e ".html\">" et "</a>, " when "</li>\n"
	}
	main = main "</ul>\n<p><a href=\"/__nc/calendar/2026/11\">Browse the full events calendar " \
	    "month by month</a></p>\n"
	writefile("/events/index.html", page("Events", "Events and lectures", main, 305))
	label("/events/", "events", "listing")
	label("/__nc/calendar/*", "calendar", "calendar")

	# Plain information pages linked from the menu and footer.
	split("about|admissions|research|library|campus|alumni|jobs|contact|privacy|accessibility", INFO, "|")
	split("About the University|Admissions and Fees|Research Centres|Library Services|" \
	    "Campus Life and Housing|Alumni Network|Jobs and Careers|Contact Us|Privacy Notice|" \
	    "Accessibility Statement", INFOT, "|")
	for (i = 1; i <= 10; i++) {
		main = "<h1>" INFOT[i] "</h1>\n" body(90 + rnd(160))
		if (INFO[i] == "about")
			main = main "<p>Founded beside the lake in 1891, the university now teaches " \
			    "students from Zürich to Lisbon; our naïve early motto survives on the " \
			    "café wall.</p>\n"
		writefile("/" INFO[i] ".html", page(INFOT[i], INFOT[i], main, 200 + rnd(100)))
		label("/" INFO[i] ".html", "info-" INFO[i], "listing")
	}

	# Home page; /index.html is the same file, hence an exact alias.
	main = "<h1>Welcome to Lakeside University</h1>\n<p>A small university with a " \
	    "large lake, a busy harbour and a café that never seems to close.</p>\n" \
	    "<h2>Top stories</h2>\n<ul class=\"top\">\n"
	for (a = 1; a <= NART; a++)
		if (SESSION[a] != "")
			main = main "<li><a href=\"news/" SLUG[a] ".html?sessionid=" SESSION[a] "\">" \
			    TITLE[a] "</a></li>\n"
	main = main "</ul>\n<p><a href=\"news/\">All news</a> | <a href=\"people/\">Find a person</a> | " \
	    "<a href=\"events/\">What is on</a> | <a href=\"archive/\">Archive</a></p>\n"
	writefile("/index.html", page("Home", "Lakeside University news, people and events", main, 302))
	label("/", "home", "listing")
	label("/index.html", "home", "alias")

	close(labels)
	# Statistics for the generator's caller (stderr keeps stdout clean).
	mn = 99999; mx = 0
	for (a = 1; a <= NART; a++) {
		if (ARTWORDS[a] < mn) mn = ARTWORDS[a]
		if (ARTWORDS[a] > mx) mx = ARTWORDS[a]
	}
	pmn = 99999; pmx = 0
	for (i = 1; i <= nPEOPLE; i++) {
		if (PWORDS[i] < pmn) pmn = PWORDS[i]
		if (PWORDS[i] > pmx) pmx = PWORDS[i]
	}
	printf "wrote %d files, %d labels; article bodies %d-%d words; people prose %d-%d words\n",
	    NFILES, NLABELS, mn, mx, pmn, pmx > "/dev/stderr"
}
AWKEOF

LC_ALL=C $AWK -v site="$site" -v labels="$labels" -f "$prog" </dev/null
