#!/bin/sh
# gen-pairs.sh -- (re)generate the labelled pairs set for `nearcrawl eval`:
# a directory of HTML documents and a file of labelled document pairs.
#
#   scripts/gen/gen-pairs.sh [OUTDIR]
#
# OUTDIR defaults to tests/fixtures/pairs of this repository. Writes, from
# scratch:
#   OUTDIR/docs/*.html   the documents (UTF-8, a few KB each)
#   OUTDIR/pairs.txt     "A B LABEL CLASS" per line: two file names under
#                        docs/, dup|near|distinct, and the kind of pair
#
# Deterministic: a fixed seed, a Park-Miller generator of our own (awk's
# rand() differs between mawk and gawk) and indexed arrays only, so every
# run with any POSIX awk writes the same bytes. All prose is made up from
# the word lists below. tests/fixtures/README.md describes the classes.
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$top/tests/fixtures/pairs}
AWK=${AWK:-awk}

prog=$(mktemp "${TMPDIR:-/tmp}/gen-pairs.XXXXXX")
trap 'rm -f "$prog"' EXIT INT TERM

rm -rf "$out/docs"
mkdir -p "$out/docs"

cat >"$prog" <<'AWKEOF'
# ---------------------------------------------------------------- utilities
function rnd(n) {            # 0 .. n-1; 16807 * seed stays below 2^53
	seed = (seed * 16807) % 2147483647
	return int(seed / 2147483647 * n)
}
function pick(a, n) { return a[1 + rnd(n)] }
function cap(s) { return toupper(substr(s, 1, 1)) substr(s, 2) }
function nwords(s,   t) { return split(s, t, " ") }
function an(w) { return (index("aeiou", substr(w, 1, 1)) ? "an " : "a ") w }
function stamp() {
	return sprintf("2026-%02d-%02d %02d:%02d", 1 + rnd(12), 1 + rnd(28),
	    6 + rnd(14), rnd(60))
}
function counter() { return 1000 + rnd(90000) }
function writedoc(name, s) {
	printf "%s", s > (docs "/" name)
	close(docs "/" name)
	NDOCS++
}
function pair(a, b, label, class) {
	printf "%s %s %s %s\n", a, b, label, class > pairs
	NPAIRS++
}

# ---------------------------------------------------------------- prose
function np(   w) {           # a noun phrase of 2 or 3 words
	w = (rnd(2) ? pick(ADJ, nADJ) " " : "") pick(NOUN, nNOUN)
	return rnd(3) ? "the " w : an(w)
}
# A sentence of about 8 to 18 words.
function sentence(   s, k) {
	s = np() " " pick(VERB, nVERB) " " np()
	k = rnd(6)
	if (k == 0) s = s " " pick(PREP, nPREP) " " np()
	else if (k == 1) s = s " " pick(ADV, nADV) " " pick(WHEN, nWHEN)
	else if (k == 2) s = s ", and " np() " " pick(VERB, nVERB) " " np()
	else if (k == 3) s = s " " pick(PREP, nPREP) " " np() " " pick(WHEN, nWHEN)
	else if (k == 4) s = s " because " np() " " pick(VERB, nVERB) " " np()
	else s = s " " pick(ADV, nADV)
	if (rnd(8) == 0)
		return cap(s) ", " pick(NAME, nNAME) " said."
	return cap(s) "."
}
# A paragraph of 3 to 5 sentences, as text.
function paragraph(   p, i, k) {
	k = 3 + rnd(3)
	p = sentence()
	for (i = 1; i < k; i++) p = p " " sentence()
	return p
}
# Fills P[1..n] with n paragraphs; returns n.
function paragraphs(P, lo, hi,   n, i) {
	n = lo + rnd(hi - lo + 1)
	for (i = 1; i <= n; i++) P[i] = paragraph()
	return n
}
function title(   t) {
	t = cap(pick(ADJ, nADJ)) " " pick(NOUN, nNOUN) " " pick(VERB, nVERB) \
	    " " pick(NOUN, nNOUN)
	return rnd(2) ? t : t " " pick(WHEN, nWHEN)
}
function byline() {
	return "By " pick(NAME, nNAME) ", " (1 + rnd(28)) " " pick(MONTH, 12) \
	    " 2026"
}

# ---------------------------------------------------------------- markup
# The article: heading, byline, paragraphs P[1..n] in the order O[1..n].
function article(t, by, P, O, n,   s, i) {
	s = "<article>\n<h1>" t "</h1>\n<p class=\"byline\">" by "</p>\n"
	for (i = 1; i <= n; i++) s = s "<p>" P[O[i]] "</p>\n"
	return s "</article>\n"
}
# The same text in other markup: attributes, white space, inline wrappers.
function article_markup(t, by, P, O, n,   s, i, w, k, j, q) {
	s = "<article class=\"story\" data-id=\"" (100 + rnd(900)) "\">\n" \
	    "  <h1 class=\"headline\">\n    " t "\n  </h1>\n" \
	    "  <p class=\"meta byline\"><span>" by "</span></p>\n"
	for (i = 1; i <= n; i++) {
		k = split(P[O[i]], w, " ")
		q = "  <p class=\"para\">\n   "
		for (j = 1; j <= k; j++) {
			if (j % 7 == 3) q = q " <span class=\"w\">" w[j] "</span>"
			else if (j % 11 == 0) q = q "\n\t" w[j]
			else q = q " " w[j]
		}
		s = s q "\n  </p>\n"
	}
	return s "</article>\n"
}
function head(t, lang) {
	return "<!DOCTYPE html>\n<html lang=\"" lang "\">\n<head>\n" \
	    "<meta charset=\"utf-8\">\n<title>" t " | " L[lang, "site"] \
	    "</title>\n<style>body{margin:0;font:16px/1.5 serif}" \
	    ".sidebar{float:right;width:16em}</style>\n" \
	    "<script>var visits=0;</script>\n</head>\n"
}
# Site A's template around main, in language lang (en, de, fr, es).
function site_a(t, main, lang, ad, when, count,   s, i) {
	s = head(t, lang) "<body>\n<header class=\"site-header\">\n" \
	    "<p class=\"site-name\"><a href=\"/\">" L[lang, "site"] "</a></p>\n" \
	    "<p class=\"tagline\">" L[lang, "tagline"] "</p>\n</header>\n" \
	    "<nav class=\"menu\">\n<ul>\n"
	for (i = 1; i <= nMENU; i++)
		s = s "<li><a href=\"/" MENU[i] ".html\">" L[lang, "menu" i] \
		    "</a></li>\n"
	s = s "</ul>\n</nav>\n<aside class=\"sidebar\">\n<div class=\"ads\">\n" \
	    "<p class=\"ad-label\">" L[lang, "ad"] "</p>\n<p>" \
	    (lang == "en" ? AD[ad] : L[lang, "adtext" (1 + (ad % 3))]) \
	    "</p>\n</div>\n<div class=\"box\"><h2>" L[lang, "follow"] \
	    "</h2><p>" L[lang, "news"] "</p></div>\n</aside>\n" \
	    "<main id=\"content\">\n" main "</main>\n" \
	    "<footer class=\"site-footer\">\n<p>" L[lang, "address"] "</p>\n" \
	    "<p>&copy; 2026 " L[lang, "site"] ". " L[lang, "rights"] "</p>\n" \
	    "<p><a href=\"/privacy.html\">" L[lang, "menu9"] "</a> " \
	    "<a href=\"/contact.html\">" L[lang, "menu8"] "</a></p>\n" \
	    "<p class=\"updated\">" L[lang, "updated"] " " when " UTC</p>\n" \
	    "<p class=\"counter\">" L[lang, "visitors"] ": " count "</p>\n" \
	    "</footer>\n</body>\n</html>\n"
	return s
}
# Site B: another publisher's template around the same kind of main.
function site_b(t, main,   s, i) {
	s = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n" \
	    "<title>" t " - The Riverside Gazette</title>\n</head>\n<body>\n" \
	    "<div class=\"cookie-consent\"><p>We use cookies to count readers. " \
	    "<a href=\"/cookies\">Fine by me</a></p></div>\n" \
	    "<header><h2 class=\"masthead\">The Riverside Gazette</h2>\n" \
	    "<p>Independent local news, every morning</p></header>\n" \
	    "<nav><a href=\"/\">Front page</a> | <a href=\"/town\">Town</a> | " \
	    "<a href=\"/sport\">Sport</a> | <a href=\"/letters\">Letters</a> | " \
	    "<a href=\"/weather\">Weather</a></nav>\n<div id=\"page\">\n" main \
	    "<div class=\"related\"><h3>Also on the Gazette</h3><ul>\n"
	for (i = 1; i <= 4; i++)
		s = s "<li><a href=\"/story/" (rnd(9000) + 1000) "\">" title() \
		    "</a></li>\n"
	return s "</ul></div>\n</div>\n<footer><p>The Riverside Gazette, " \
	    "12 Mill Street. Letters to the editor welcome.</p>\n" \
	    "<p>Subscribe for a year and get the winter almanac free.</p>" \
	    "</footer>\n</body>\n</html>\n"
}
function print_view(t, by, P, n,   s, i) {
	s = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n" \
	    "<title>" t " (print)</title>\n</head>\n<body onload=\"print()\">\n" \
	    "<h1>" t "</h1>\n<p>" by "</p>\n<p>Printed from " \
	    "northfield.example on " (1 + rnd(28)) " " pick(MONTH, 12) " 2026</p>\n"
	for (i = 1; i <= n; i++) s = s "<p>" P[i] "</p>\n"
	return s "</body>\n</html>\n"
}

# ---------------------------------------------------------------- the set
# Identity order of n paragraphs into O.
function straight(O, n,   i) { for (i = 1; i <= n; i++) O[i] = i }
# Paragraphs of P (n of them) from the first, until share of the words.
function prefix_for(P, n, share,   total, i, w) {
	total = 0
	for (i = 1; i <= n; i++) total += nwords(P[i])
	w = 0
	for (i = 1; i <= n; i++) {
		w += nwords(P[i])
		if (w >= share * total) return i
	}
	return n
}
# A page holding the first share of base's words, then its own paragraphs
# until it is about as long as the base.
function partial(name, share,   k, i, m, total, own, Q, O, t) {
	total = 0
	for (i = 1; i <= nB; i++) total += nwords(B[i])
	k = prefix_for(B, nB, share)
	for (i = 1; i <= k; i++) Q[i] = B[i]
	m = k; own = 0
	for (i = 1; i <= k; i++) own += nwords(B[i])
	while (own < total) {
		Q[++m] = paragraph()
		own += nwords(Q[m])
	}
	straight(O, m)
	t = title()
	writedoc(name, site_a(t, article(t, byline(), Q, O, m), "en",
	    1 + rnd(nAD), stamp(), counter()))
}

function gen_base(i,   t, by, O, base, ad, when, cnt, j, k, n, w, tmp, lang,
    P) {
	split("", B)
	nB = paragraphs(B, 5, 8)
	t = title(); by = byline()
	ad = 1 + rnd(nAD); when = stamp(); cnt = counter()
	straight(O, nB)
	base = sprintf("%03d", i)
	BASE[i] = base "-base.html"
	writedoc(BASE[i], site_a(t, article(t, by, B, O, nB), "en", ad, when, cnt))
	# Byte-identical copy.
	writedoc(base "-exact.html", site_a(t, article(t, by, B, O, nB), "en",
	    ad, when, cnt))
	pair(BASE[i], base "-exact.html", "dup", "exact")
	# The same text in other markup.
	writedoc(base "-markup.html", site_a(t, article_markup(t, by, B, O, nB),
	    "en", ad, when, cnt))
	pair(BASE[i], base "-markup.html", "dup", "markup")
	# Another publisher's template.
	writedoc(base "-template.html", site_b(t, article(t, by, B, O, nB)))
	pair(BASE[i], base "-template.html", "near", "template")
	# Print view: the article alone, with a "printed from" line.
	writedoc(base "-print.html", print_view(t, by, B, nB))
	pair(BASE[i], base "-print.html", "near", "print")
	PRINT[i] = base "-print.html"
	# Other advertisement, timestamp and counter.
	writedoc(base "-ads.html", site_a(t, article(t, by, B, O, nB), "en",
	    1 + (ad % nAD), stamp(), counter()))
	pair(BASE[i], base "-ads.html", "near", "ads")
	# Paragraphs reordered: a rotation, then one more swap.
	k = 1 + rnd(nB - 1)
	for (j = 1; j <= nB; j++) O[j] = 1 + (j - 1 + k) % nB
	j = 1 + rnd(nB - 1); tmp = O[j]; O[j] = O[j + 1]; O[j + 1] = tmp
	writedoc(base "-reorder.html", site_a(t, article(t, by, B, O, nB), "en",
	    ad, when, cnt))
	pair(BASE[i], base "-reorder.html", "near", "reorder")
	straight(O, nB)
	# Partial copies: 80 % is still the same document, 50 % is not.
	partial(base "-partial80.html", 0.8)
	pair(BASE[i], base "-partial80.html", "near", "partial80")
	partial(base "-partial50.html", 0.5)
	pair(BASE[i], base "-partial50.html", "distinct", "partial50")
	# The template translated, the article as it was.
	lang = LANG[1 + i % 3]
	TRANS[i] = base "-" lang ".html"
	writedoc(TRANS[i], site_a(t, article(t, by, B, O, nB), lang, ad, stamp(),
	    counter()))
	pair(BASE[i], TRANS[i], "near", "translation")
	# One word of the middle paragraph replaced.
	for (j = 1; j <= nB; j++) P[j] = B[j]
	j = int((nB + 1) / 2)
	n = split(P[j], w, " ")
	k = 2 + rnd(n - 2)
	w[k] = (w[k] == "harbour") ? "meadow" : "harbour"
	tmp = w[1]
	for (k = 2; k <= n; k++) tmp = tmp " " w[k]
	P[j] = tmp
	writedoc(base "-oneword.html", site_a(t, article(t, by, P, O, nB), "en",
	    ad, when, cnt))
	pair(BASE[i], base "-oneword.html", "near", "oneword")
}

function gen_short(i,   t, s, name) {
	t = title()
	s = "<article>\n<h1>" t "</h1>\n<p>" sentence() " " sentence() " " \
	    sentence() "</p>\n</article>\n"
	name = sprintf("s%02d.html", i)
	SHORT[i] = name
	writedoc(name, site_a(t, s, "en", 1 + rnd(nAD), stamp(), counter()))
}

# ---------------------------------------------------------------- data
function load(   i) {
	split("January February March April May June July August September " \
	    "October November December", MONTH, " ")
	nNOUN = split("archive bridge budget canal harbour library meadow orchard " \
	    "quarry river school theatre tower valley village workshop garden " \
	    "market station museum council festival lecture seminar journal " \
	    "laboratory telescope engine lantern ferry glacier island forest " \
	    "mountain highway cottage kitchen bakery clinic stadium harvest pottery " \
	    "violin choir painting sculpture manuscript ledger treaty charter tunnel " \
	    "reservoir windmill lighthouse vineyard dairy brewery mill foundry " \
	    "shipyard observatory greenhouse pavilion courtyard boulevard parish " \
	    "county province tribunal assembly committee survey census election " \
	    "voyage expedition migration drought flood frost meteor comet orbit " \
	    "satellite circuit battery compass atlas chronicle almanac", NOUN, " ")
	nADJ = split("ancient broad careful civic coastal damp distant early " \
	    "eastern faded fertile formal frozen gentle golden hidden humble icy " \
	    "local lively modest narrow northern noisy patient quiet rapid rural " \
	    "rusty sacred silent southern steep sturdy tidy urban vast western " \
	    "wooden young", ADJ, " ")
	nVERB = split("admired built carried checked cleaned closed counted " \
	    "crossed delayed described designed doubled drained extended filmed " \
	    "funded guarded hosted inspected joined launched measured mended moved " \
	    "opened painted planned praised printed rebuilt recorded repaired " \
	    "restored sketched studied surveyed tested visited widened watched", VERB, " ")
	nPREP = split("near beside behind across along under above beyond around " \
	    "towards", PREP, " ")
	nADV = split("slowly quickly quietly carefully finally recently gladly " \
	    "rarely openly briefly", ADV, " ")
	nWHEN = split("last winter|this spring|in the autumn|on Tuesday|before dawn|" \
	    "after the storm|during the fair|in March|at midsummer|every Sunday", WHEN, "|")
	nNAME = split("Ada Lowe|Bruno Keller|Chloe Marsh|Dario Conti|Edith Nolan|" \
	    "Felix Brandt|Greta Holm|Hugo Ferreira|Iris Novak|Jonas Weber|" \
	    "Karin Dahl|Luis Moreno|Maja Lund|Noah Fischer|Olga Petrova", NAME, "|")
	nAD = split("Bicycle hire by the station: sturdy bikes, fair prices and " \
	    "free lights for every student who rents for a term.|" \
	    "The Old Foundry Cafe serves soup, bread and strong coffee until " \
	    "late every weekday, with a quiet room upstairs.|" \
	    "Learn to row on the canal this spring. Beginner crews meet on " \
	    "Saturday mornings and all the kit is provided.|" \
	    "Print shop on Mill Street: posters, theses and flyers printed " \
	    "while you wait, with delivery to the campus.|" \
	    "Room to let near the river, furnished, bills included, ten minutes " \
	    "by foot to the library and the market.|" \
	    "Winter concerts at the chapel: a choir, a string quartet and mulled " \
	    "cider in the interval, tickets at the door.", AD, "|")
	nMENU = split("index news study research library events people contact " \
	    "privacy", MENU, " ")
	split("de fr es", LANG, " ")
	lang_en(); lang_de(); lang_fr(); lang_es()
}
function menu(lang, s,   t, i, n) {
	n = split(s, t, "|")
	for (i = 1; i <= n; i++) L[lang, "menu" i] = t[i]
}
function lang_en() {
	L["en", "site"] = "Northfield College"
	L["en", "tagline"] = "Teaching and research by the river since 1887"
	menu("en", "Home|News|Study|Research|Library|Events|People|Contact|Privacy")
	L["en", "ad"] = "Advertisement"
	L["en", "follow"] = "Follow us"
	L["en", "news"] = "Our newsletter comes out every Friday morning."
	L["en", "address"] = "Northfield College, 4 River Lane, Northfield"
	L["en", "rights"] = "All rights reserved."
	L["en", "updated"] = "Last updated"
	L["en", "visitors"] = "Visitors"
}
function lang_de() {
	L["de", "site"] = "Hochschule Nordfeld"
	L["de", "tagline"] = "Lehre und Forschung am Fluss seit 1887"
	menu("de", "Startseite|Aktuelles|Studium|Forschung|Bibliothek|" \
	    "Veranstaltungen|Personen|Kontakt|Datenschutz")
	L["de", "ad"] = "Anzeige"
	L["de", "adtext1"] = "Fahrradverleih am Bahnhof: robuste Räder, faire " \
	    "Preise und Licht gratis für alle Studierenden."
	L["de", "adtext2"] = "Das Café in der alten Gießerei hat werktags bis " \
	    "spät geöffnet, oben gibt es einen ruhigen Raum."
	L["de", "adtext3"] = "Rudern lernen auf dem Kanal: Anfängerkurse jeden " \
	    "Samstagmorgen, die Ausrüstung stellen wir."
	L["de", "follow"] = "Folgen Sie uns"
	L["de", "news"] = "Unser Rundbrief erscheint jeden Freitagmorgen."
	L["de", "address"] = "Hochschule Nordfeld, Flussgasse 4, Nordfeld"
	L["de", "rights"] = "Alle Rechte vorbehalten."
	L["de", "updated"] = "Zuletzt aktualisiert"
	L["de", "visitors"] = "Besucher"
}
function lang_fr() {
	L["fr", "site"] = "École de Nordfeld"
	L["fr", "tagline"] = "Enseignement et recherche au bord du fleuve depuis 1887"
	menu("fr", "Accueil|Actualités|Études|Recherche|Bibliothèque|Événements|" \
	    "Personnes|Contact|Confidentialité")
	L["fr", "ad"] = "Publicité"
	L["fr", "adtext1"] = "Location de vélos à la gare : vélos solides, prix " \
	    "justes et éclairage offert aux étudiants."
	L["fr", "adtext2"] = "Le café de la vieille fonderie sert soupe et pain " \
	    "jusqu'au soir, avec une salle calme à l'étage."
	L["fr", "adtext3"] = "Apprenez l'aviron sur le canal : cours pour " \
	    "débutants le samedi matin, matériel fourni."
	L["fr", "follow"] = "Suivez-nous"
	L["fr", "news"] = "Notre lettre d'information paraît chaque vendredi matin."
	L["fr", "address"] = "École de Nordfeld, 4 rue du Fleuve, Nordfeld"
	L["fr", "rights"] = "Tous droits réservés."
	L["fr", "updated"] = "Dernière mise à jour"
	L["fr", "visitors"] = "Visiteurs"
}
function lang_es() {
	L["es", "site"] = "Escuela de Nordfeld"
	L["es", "tagline"] = "Docencia e investigación junto al río desde 1887"
	menu("es", "Inicio|Noticias|Estudios|Investigación|Biblioteca|Eventos|" \
	    "Personas|Contacto|Privacidad")
	L["es", "ad"] = "Publicidad"
	L["es", "adtext1"] = "Alquiler de bicicletas junto a la estación: " \
	    "bicicletas robustas, precios justos y luces gratis."
	L["es", "adtext2"] = "El café de la antigua fundición sirve sopa y pan " \
	    "hasta tarde, con una sala tranquila arriba."
	L["es", "adtext3"] = "Aprende a remar en el canal: cursos para " \
	    "principiantes los sábados por la mañana, equipo incluido."
	L["es", "follow"] = "Síguenos"
	L["es", "news"] = "Nuestro boletín sale cada viernes por la mañana."
	L["es", "address"] = "Escuela de Nordfeld, calle del Río 4, Nordfeld"
	L["es", "rights"] = "Todos los derechos reservados."
	L["es", "updated"] = "Última actualización"
	L["es", "visitors"] = "Visitantes"
}

BEGIN {
	seed = 20260401
	load()
	printf "# nearcrawl labelled pairs, written by " \
	    "scripts/gen/gen-pairs.sh: do not edit.\n# A B LABEL CLASS: documents under docs/; LABEL dup " \
	    "(same text), near (same document), distinct.\n" > pairs
	for (i = 1; i <= NBASE; i++) gen_base(i)
	for (i = 1; i <= NSHORT; i++) gen_short(i)
	# Distinct articles on the same template, two neighbours each.
	for (i = 1; i <= NBASE; i++) {
		pair(BASE[i], BASE[1 + i % NBASE], "distinct", "distinct")
		pair(BASE[i], BASE[1 + (i + 1) % NBASE], "distinct", "distinct")
	}
	# Short notices: the template outweighs the text.
	for (i = 1; i <= NSHORT; i++) {
		pair(SHORT[i], SHORT[1 + i % NSHORT], "distinct", "short")
		pair(SHORT[i], SHORT[1 + (i + 1) % NSHORT], "distinct", "short")
	}
	# Distinct articles in the same translated template (3 languages).
	for (i = 1; i <= NBASE; i++)
		pair(TRANS[i], TRANS[1 + (i + 2) % NBASE], "distinct",
		    "translated")
	printf "gen-pairs: %d documents, %d pairs\n", NDOCS, NPAIRS
}
AWKEOF

LC_ALL=C "$AWK" -v docs="$out/docs" -v pairs="$out/pairs.txt" \
    -v NBASE=30 -v NSHORT=30 -f "$prog"
