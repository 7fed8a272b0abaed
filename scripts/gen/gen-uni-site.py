#!/usr/bin/env python3
"""gen-uni-site.py -- (re)generate the labelled multi-host fixture *.uni.test
and its ground-truth labels.

    scripts/gen/gen-uni-site.py [OUTDIR]

OUTDIR defaults to tests/fixtures of this repository. Writes, from scratch:
    OUTDIR/sites/{www,cs,lib,events,sport}.uni.test/**   five static sites
    OUTDIR/labelled-uni.tsv    //host/path?query<TAB>group<TAB>class

A second generator, written apart from scripts/gen/gen-labelled-site.sh, so that
the extractor and the dedup rules can be measured on page structures they
were not built together with: table-layout templates without <main>,
paginated listings, tag pages, an A-Z directory, search results, a course
catalogue whose pages share a long paragraph, number-heavy tables, thin
contact pages, one-row differences, language versions and cross-host
mirrors. tests/fixtures/README.md describes the classes.

Deterministic: Python 3 standard library only, a self-contained SplitMix64
generator seeded per purpose from a fixed seed (never Python's own random,
never set or dict iteration order for anything written), so every run
writes the same bytes. All prose is synthetic, assembled from the
vocabulary below.

Cross-host links are written as http://HOST:NCPORT/path: the committed
pages are not crawlable across hosts as they stand (NCPORT is not a port);
scripts/eval/eval-uni.sh copies the sites and puts the test server's port in
place of NCPORT before it crawls. Search results live in files named
"search/index.html?q=TERM", which the test server serves for exactly
/search/?q=TERM.
"""

import html
import os
import shutil
import sys

SEED = 20261124
PORT_TOKEN = "NCPORT"
M64 = (1 << 64) - 1


# ------------------------------------------------------------------ random
class Rng:
    """SplitMix64: tiny, well mixed, and the same on every Python."""

    def __init__(self, *names):
        h = 0xCBF29CE484222325 ^ SEED
        for n in names:
            for b in str(n).encode("utf-8") + b"\x00":
                h = ((h ^ b) * 0x100000001B3) & M64
        self.s = h

    def next(self):
        self.s = (self.s + 0x9E3779B97F4A7C15) & M64
        z = self.s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
        return z ^ (z >> 31)

    def below(self, n):
        return self.next() % n

    def between(self, a, b):
        return a + self.below(b - a + 1)

    def pick(self, seq):
        return seq[self.below(len(seq))]

    def chance(self, num, den):
        return self.below(den) < num

    def shuffled(self, seq):
        a = list(seq)
        for i in range(len(a) - 1, 0, -1):
            j = self.below(i + 1)
            a[i], a[j] = a[j], a[i]
        return a

    def sample(self, seq, k):
        return self.shuffled(seq)[:k]


# -------------------------------------------------------------- vocabulary
W = lambda s: s.split()

NOUNS = W("""
student lecture campus library building council committee research project
budget semester course module seminar workshop laboratory colleague professor
faculty department proposal survey report exhibition archive collection
network server dataset experiment method theory model result conference
journal article chapter thesis grant partner region city community school
teacher audience visitor volunteer team season garden bridge river harbour
museum theatre orchestra choir festival market street station tram bicycle
energy climate forest soil water sensor robot algorithm compiler database
protocol interface prototype device measurement sample microscope telescope
satellite observatory scholarship stipend residence canteen kitchen menu
timetable deadline schedule exam assessment rubric portfolio essay review
workshop hackathon meetup podcast newsletter interview debate panel lecture
statue courtyard fountain tower clock window staircase corridor garden
""")
VERBS = W("""
presents discusses examines opens supports extends reviews explains describes
welcomes celebrates announces publishes measures improves compares tests
builds designs plans funds hosts organises launches completes delays moves
replaces restores records maps tracks collects shares teaches questions
challenges revises expands reduces connects invites joins leads follows
documents simulates analyses predicts surveys visits renovates upgrades
""")
ADJS = W("""
new old large small quiet busy open early late annual weekly public local
regional national international digital practical theoretical careful
ambitious modest detailed brief formal informal joint shared independent
sustainable coastal northern southern eastern western historic modern
experimental applied rapid gradual unusual familiar remote central
interdisciplinary collaborative green bright narrow wide temporary permanent
""")
ADVS = W("""
recently carefully quickly slowly finally already again together openly
quietly jointly gradually successfully briefly regularly
""")
PREPS = W("in on at with for from near across during after before about under")
DETS = W("the the the a this every each another our their")
CONJ = W("and but while because although so")
PLACES = ["Zürich", "Málaga", "Tromsø", "Kraków", "Göteborg", "Brno",
          "Lyon", "Porto", "Gdańsk", "Bergen", "Graz", "Aarhus", "Lund",
          "Tartu", "Coimbra", "Leuven", "Ghent", "Turku", "Bilbao",
          "Trieste"]

DE_NOUNS = W("""
Studium Vorlesung Bibliothek Gebäude Forschung Projekt Haushalt Semester
Seminar Labor Fakultät Bericht Ausstellung Sammlung Konferenz Zeitschrift
Stadt Gemeinde Schule Brücke Garten Museum Theater Bahnhof Energie Klima
Wald Boden Wasser Gerät Messung Prüfung Frist Stipendium Mensa Wohnheim
Verwaltung Einschreibung Beratung Rektorat Hörsaal Campus Lehrstuhl Anmeldung
Öffnungszeit Zugang Ausweis Semesterbeitrag Austausch Praktikum Abschluss
""")
DE_VERBS = W("""
präsentiert erklärt öffnet unterstützt erweitert prüft beschreibt begrüßt
feiert veröffentlicht misst verbessert vergleicht baut plant fördert
organisiert startet verlegt ersetzt sammelt teilt lehrt verbindet lädt
führt dokumentiert untersucht besucht renoviert
""")
DE_ADJS = W("""
neue alte große kleine ruhige öffentliche lokale regionale internationale
digitale praktische gemeinsame unabhängige nachhaltige historische moderne
angewandte schnelle übliche zentrale offene frühe späte jährliche wöchentliche
""")
DE_DETS = W("die der das eine jede unsere ihre diese")
DE_PREPS = W("in an mit für aus nach vor über unter während bei")
DE_CONJ = W("und aber während weil obwohl")

FIRST = W("""
Anna Ben Carla David Elif Farid Greta Hugo Ines Jonas Karin Lars Maja Nils
Olga Paul Rosa Sami Tara Uwe Vera Wim Xenia Yusuf Zoë José Søren Łukasz
Amélie Björn Chiara Dmitri Emre Fatima Gustav Hanna Igor Julia Kofi Lena
Marco Nadia Oskar Priya Quentin Rania Stefan Tomás Ulla Viktor Wanda
""")
LAST = W("""
Abbott Albers Bauer Becker Brandt Costa Dietz Dubois Eriksen Fischer Frank
Garcia Graf Hansen Hoffmann Ivanova Jansen Jung Kaya Keller Klein Koch
Lang Lehmann Lindqvist Maier Martin Müller Nowak Olsen Ortega Petrov Quinn
Richter Rossi Sato Schmidt Schulz Sørensen Thomas Ullrich Urban Vogel Varga
Wagner Weber Xu Yilmaz Young Zhang Ziegler Çelik Østergaard Ibáñez Nakamura
Ekström Haddad Iqbal Lopez Okafor Park Reyes Singh Tanaka Vidal Wójcik
""")

TOPICS = W("""
algorithms databases networks graphics security compilers robotics logic
statistics optimisation cryptography visualisation linguistics bioinformatics
semantics verification geometry learning systems cloud sensors audio vision
ethics accessibility usability simulation parallelism storage
""")


def sentence(r, lo=8, hi=20):
    """One sentence of lo..hi words: noun phrases and verb phrases."""
    want = r.between(lo, hi)
    out = []
    while len(out) < want:
        np = [r.pick(DETS)]
        if r.chance(1, 2):
            np.append(r.pick(ADJS))
        np.append(r.pick(NOUNS))
        vp = []
        if r.chance(1, 5):
            vp.append(r.pick(ADVS))
        vp.append(r.pick(VERBS))
        vp += [r.pick(DETS), r.pick(NOUNS)]
        if r.chance(1, 2):
            vp += [r.pick(PREPS), r.pick(PLACES) if r.chance(1, 4)
                   else r.pick(NOUNS)]
        if out:
            out.append(r.pick(CONJ))
        out += np + vp
    out = out[:want]
    while (out[-1] in CONJ or out[-1] in DETS or out[-1] in PREPS or
           out[-1] in ADJS or out[-1] in ADVS):
        out.pop()
    s = " ".join(out)
    return s[0].upper() + s[1:] + "."


def de_sentence(r, lo=8, hi=18):
    want = r.between(lo, hi)
    out = []
    while len(out) < want:
        part = [r.pick(DE_DETS)]
        if r.chance(1, 2):
            part.append(r.pick(DE_ADJS))
        part += [r.pick(DE_NOUNS), r.pick(DE_VERBS), r.pick(DE_DETS),
                 r.pick(DE_NOUNS)]
        if r.chance(1, 2):
            part += [r.pick(DE_PREPS), r.pick(DE_NOUNS)]
        if out:
            out.append(r.pick(DE_CONJ))
        out += part
    out = out[:want]
    while (out[-1] in DE_CONJ or out[-1] in DE_DETS or out[-1] in DE_PREPS
           or out[-1] in DE_ADJS):
        out.pop()
    s = " ".join(out)
    return s[0].upper() + s[1:] + "."


def words_of(r, n, maker=sentence):
    """Sentences until at least n words; returns a list of sentences."""
    sents, count = [], 0
    while count < n:
        s = maker(r)
        sents.append(s)
        count += len(s.split())
    return sents


def paragraphs(r, total, maker=sentence):
    """About total words in paragraphs of 2..6 sentences."""
    sents = words_of(r, total, maker)
    paras = []
    while sents:
        k = r.between(2, 6)
        paras.append(" ".join(sents[:k]))
        sents = sents[k:]
    return paras


def title_words(r, lo=4, hi=8):
    n = r.between(lo, hi)
    ws = [r.pick(ADJS) if i % 3 == 1 else r.pick(NOUNS) for i in range(n)]
    return " ".join(w.capitalize() for w in ws)


def person(r):
    return r.pick(FIRST), r.pick(LAST)


E = html.escape

# ------------------------------------------------------------------- dates
MONTHS = W("January February March April May June July August September "
           "October November December")
MDAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
WEEKDAYS = W("Monday Tuesday Wednesday Thursday Friday Saturday Sunday")


def day_number(y, m, d):
    """Days since 2000-01-01 (for weekday and stepping; no leap years
    other than those divisible by 4 occur in this range)."""
    n = 0
    for yy in range(2000, y):
        n += 366 if yy % 4 == 0 else 365
    for mm in range(1, m):
        n += MDAYS[mm - 1] + (1 if mm == 2 and y % 4 == 0 else 0)
    return n + d - 1


def from_day_number(n):
    y = 2000
    while True:
        ylen = 366 if y % 4 == 0 else 365
        if n < ylen:
            break
        n -= ylen
        y += 1
    m = 1
    while True:
        mlen = MDAYS[m - 1] + (1 if m == 2 and y % 4 == 0 else 0)
        if n < mlen:
            break
        n -= mlen
        m += 1
    return y, m, n + 1


def weekday(y, m, d):
    return (day_number(y, m, d) + 5) % 7      # 2000-01-01 was a Saturday


def long_date(y, m, d):
    return "%d %s %d" % (d, MONTHS[m - 1], y)


def iso(y, m, d):
    return "%04d-%02d-%02d" % (y, m, d)


TODAY = day_number(2026, 11, 20)


# -------------------------------------------------------------- the site
class Site:
    def __init__(self):
        self.pages = {}     # url key //host/path?query -> (bytes, links)
        self.order = []     # url keys in the order written
        self.labels = []    # (key, group, class)

    def add(self, host, path, text, links, group, cls, label=True):
        key = "//%s%s" % (host, path)
        if key in self.pages:
            raise SystemExit("gen-uni-site: %s written twice" % key)
        data = text.encode("utf-8")
        self.pages[key] = (data, links)
        self.order.append(key)
        if label:
            self.labels.append((key, group, cls))
        return key

    def label_only(self, host, path, group, cls):
        """A URL served by another file (a tracking query)."""
        self.labels.append(("//%s%s" % (host, path), group, cls))


def file_of(key):
    """//host/path?query -> host/relative file name."""
    host, rest = key[2:].split("/", 1)
    rest = "/" + rest
    path, _, query = rest.partition("?")
    if path.endswith("/"):
        path += "index.html"
    name = host + path
    # Tracking queries are served by the plain file; only search pages
    # have files of their own (their key is made with query_file=True).
    return name, query


def url_to(host, path, here_host):
    if host == here_host:
        return path
    return "http://%s:%s%s" % (host, PORT_TOKEN, path)


def link(host, path, text, here, cls=None):
    """An <a> element; records the link target on the page being built."""
    here.links.append("//%s%s" % (host, path))
    c = ' class="%s"' % cls if cls else ""
    return '<a href="%s"%s>%s</a>' % (E(url_to(host, path, here.host)), c,
                                       E(text))


class Page:
    """The page being built: its host and the links it holds."""

    def __init__(self, host):
        self.host = host
        self.links = []


WWW, CS, LIB, EV, SP = ("www.uni.test", "cs.uni.test", "lib.uni.test",
                        "events.uni.test", "sport.uni.test")
HOSTS = [WWW, CS, LIB, EV, SP]
HOST_NAMES = {WWW: "University of Uniton", CS: "Computer Science",
              LIB: "University Library", EV: "Events at Uniton",
              SP: "Uniton Sport"}

ADS = [
    "Rent a bicycle at the station: the first hour is free for students.",
    "The bookshop in the main hall has new notebooks and a winter sale.",
    "Learn a language this winter: evening courses start every Monday.",
    "The canteen serves a vegetarian menu every day until half past two.",
    "Student insurance explained in five minutes at the service desk.",
    "Summer school places are open: apply before the end of the month.",
    "The sports centre opens a new climbing wall in the east courtyard.",
    "Print and bind your thesis at the copy shop next to the library.",
    "Volunteers wanted for the open day: a free lunch and a t-shirt.",
    "Concert tickets for staff and students at half price this week.",
]


def stamp(r):
    """A 'last updated' timestamp and a visitor count for a template."""
    y, m, d = from_day_number(TODAY - r.below(400))
    return ("Last updated %s %02d:%02d" % (iso(y, m, d), r.below(24),
                                            r.below(60)),
            "Visitors: %d" % r.between(120, 98000))


# ------------------------------------------------------------ templates
def other_hosts(here):
    return " | ".join(link(h, "/", HOST_NAMES[h], here)
                      for h in HOSTS if h != here.host)


def tpl_www(here, title, content, r, lang="en", crumbs=()):
    """www: semantic markup (header, nav, main, article, aside, footer)."""
    upd, vis = stamp(r)
    if lang == "de":
        menu = [("/", "Startseite"), ("/news/", "Nachrichten"),
                ("/de/about.html", "Über uns"),
                ("/de/admissions.html", "Zulassung"),
                ("/contact/", "Kontakt")]
        site, skip = "Universität Uniton", "Zum Inhalt springen"
        foot = ("Universität Uniton, Campusallee 1, 12345 Uniton. Alle Rechte "
                "vorbehalten.")
    else:
        menu = [("/", "Home"), ("/news/", "News"), ("/news/notes/",
                "Short notes"), ("/archive/", "Archive"),
                ("/en/about.html", "About"), ("/en/admissions.html",
                "Admissions"), ("/en/research.html", "Research"),
                ("/contact/", "Contact")]
        site, skip = "University of Uniton", "Skip to content"
        foot = ("University of Uniton, 1 Campus Avenue, Uniton 12345. "
                "All rights reserved.")
    nav = "\n".join("<li>%s</li>" % link(WWW, p, t, here) for p, t in menu)
    tags = " ".join(link(WWW, "/news/tag/%s.html" % t, t, here)
                    for t in NEWS_TAGS[:6])
    crumb = " &rsaquo; ".join([link(WWW, "/", site, here)] +
                              [link(WWW, p, t, here) for p, t in crumbs])
    return """<!DOCTYPE html>
<html lang="%s">
<head>
<meta charset="utf-8">
<title>%s | %s</title>
<link rel="stylesheet" href="/static/site.css">
</head>
<body>
<a class="skip" href="#content">%s</a>
<header class="site-header">
<p class="logo">%s</p>
<p class="tagline">Teaching, research and the city since 1871</p>
</header>
<nav class="main-nav" aria-label="Main">
<ul>
%s
</ul>
</nav>
<nav class="breadcrumb" aria-label="Breadcrumb">%s</nav>
<main id="content">
%s
</main>
<aside class="sidebar">
<h2>Popular topics</h2>
<p>%s</p>
<div class="ad"><h2>Advertisement</h2><p>%s</p></div>
</aside>
<footer class="site-footer">
<p>%s</p>
<p>Our sites: %s</p>
<p>%s</p>
<p>%s</p>
</footer>
</body>
</html>
""" % (lang, E(title), site, skip, site, nav, crumb, content, tags,
       r.pick(ADS), foot, other_hosts(here), upd, vis)


def tpl_table(here, title, content, r, variant):
    """cs and sport: an old CMS with <table> layout and no semantic markup."""
    upd, vis = stamp(r)
    if variant == "cs":
        banner = ("Department of Computer Science",
                  "School of Science and Engineering, University of Uniton")
        menu = [("/", "Department home"), ("/courses/", "Course catalogue"),
                ("/staff/", "Staff A-Z"), ("/timetable/", "Timetables"),
                ("/exams/", "Exam schedules"), ("/news/", "Department news"),
                ("/contact.html", "Contact")]
        foot = ("Department of Computer Science, Building B, 1 Campus Avenue,"
                " Uniton 12345. Webmaster: cs-web at uni.test")
        colour = "#003366"
    else:
        banner = ("Uniton Sport", "University sports clubs and leagues")
        menu = [("/", "Sport home"), ("/results/", "Results"),
                ("/standings/", "Standings"), ("/fixtures/", "Fixtures"),
                ("/contact.html", "Contact")]
        foot = ("Sports Centre, 7 Riverside Road, Uniton 12346. "
                "Opening times at the reception.")
        colour = "#660000"
    nav = "<br>\n".join(link(here.host, p, t, here) for p, t in menu)
    return """<html>
<head>
<title>%s - %s</title>
<meta http-equiv="Content-Type" content="text/html; charset=utf-8">
</head>
<body bgcolor="#ffffff" leftmargin="0" topmargin="0">
<table width="100%%" border="0" cellspacing="0" cellpadding="4">
<tr><td colspan="3" bgcolor="%s"><font color="#ffffff" size="5"><b>%s</b></font><br>
<font color="#ffffff" size="2">%s</font></td></tr>
<tr>
<td width="170" valign="top" bgcolor="#eeeeee"><font size="2">
%s
<br><br>University:<br>
%s
</font></td>
<td valign="top">
%s
</td>
<td width="160" valign="top" bgcolor="#f4f4f4"><font size="1"><b>Notice</b><br>%s</font></td>
</tr>
<tr><td colspan="3" bgcolor="#dddddd"><font size="1">%s<br>%s &middot; %s</font></td></tr>
</table>
</body>
</html>
""" % (E(title), banner[0], colour, banner[0], banner[1], nav,
       "<br>\n".join(link(h, "/", HOST_NAMES[h], here) for h in HOSTS
                     if h != here.host),
       content, r.pick(ADS), foot, upd, vis)


def tpl_lib(here, title, content, r, lang="en"):
    """lib: semantic, but <main> without <article>, roles, a search form."""
    upd, vis = stamp(r)
    if lang == "de":
        menu = [("/", "Start"), ("/catalogue/", "Katalog"),
                ("/hours/", "Öffnungszeiten"), ("/contact/", "Kontakt"),
                ("/de/guide-borrowing.html", "Ausleihe")]
        foot = "Universitätsbibliothek Uniton, Bücherweg 3, 12345 Uniton"
        search = "Katalog durchsuchen"
    else:
        menu = [("/", "Library home"), ("/search/", "Search"),
                ("/catalogue/", "New in the catalogue"),
                ("/hours/", "Opening hours"), ("/contact/", "Branches"),
                ("/en/guide-borrowing.html", "Borrowing")]
        foot = "University Library, 3 Book Lane, Uniton 12345"
        search = "Search the catalogue"
    nav = "\n".join("<li>%s</li>" % link(LIB, p, t, here) for p, t in menu)
    return """<!DOCTYPE html>
<html lang="%s">
<head><meta charset="utf-8"><title>%s &ndash; University Library</title></head>
<body>
<header role="banner">
<div class="brand">University Library</div>
<form role="search" action="/search/" method="get"><label>%s <input name="q"></label><button>Go</button></form>
</header>
<nav role="navigation"><ul>
%s
</ul></nav>
<main id="main" role="main">
%s
</main>
<div class="notice" role="complementary"><p>%s</p></div>
<footer role="contentinfo">
<p>%s &middot; %s</p>
<p>%s &middot; %s</p>
</footer>
</body>
</html>
""" % (lang, E(title), search, nav, content, r.pick(ADS), foot,
       other_hosts(here), upd, vis)


def tpl_events(here, title, content, r):
    """events: div soup, no semantic elements, a right-hand column."""
    upd, vis = stamp(r)
    menu = [("/", "All events"), ("/archive/", "Calendar archive"),
            ("/category/lecture.html", "Lectures"),
            ("/category/concert.html", "Concerts"),
            ("/contact.html", "Submit an event")]
    nav = " | ".join(link(EV, p, t, here) for p, t in menu)
    cats = "<br>".join(link(EV, "/category/%s.html" % c, c.capitalize(), here)
                       for c in EVENT_CATS)
    return """<!DOCTYPE html>
<html>
<head><meta charset="utf-8"><title>%s :: Events at Uniton</title></head>
<body>
<div id="wrapper">
<div class="top"><div class="logo">Events at Uniton</div><div class="strap">What is on at the university</div></div>
<div class="menu">%s</div>
<div class="cols">
<div class="col-left">
%s
</div>
<div class="col-right">
<div class="box"><div class="box-title">Categories</div>%s</div>
<div class="box"><div class="box-title">Newsletter</div>Get the weekly events mail every Thursday morning.</div>
<div class="box ad">%s</div>
</div>
</div>
<div class="bottom">Events office, 1 Campus Avenue, Uniton 12345 &middot; %s<br>%s &middot; %s</div>
</div>
</body>
</html>
""" % (E(title), nav, content, cats, r.pick(ADS), other_hosts(here), upd,
       vis)


def tpl_mobile(here, title, content, r):
    """www's mobile edition: another template around the same article."""
    upd, vis = stamp(r)
    return """<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>%s</title></head>
<body class="mobile">
<div class="m-bar">Uniton mobile &middot; %s &middot; %s</div>
<div class="m-banner">You are reading the mobile edition.</div>
%s
<div class="m-ad">%s</div>
<div class="m-foot">%s &middot; %s</div>
</body>
</html>
""" % (E(title), link(WWW, "/", "Home", here), link(WWW, "/news/", "News",
                                                     here),
       content, r.pick(ADS), upd, vis)


# --------------------------------------------------------------- www.uni
NEWS_TAGS = W("research students campus teaching international awards "
              "sustainability culture")
N_NEWS = 200
NEWS_PER_PAGE = 10
N_NOTES = 40
LANG_PAGES = W("about admissions campus history research international")
OFFICES = [("admissions", "Admissions office"),
           ("student-services", "Student services"),
           ("press", "Press office"), ("alumni", "Alumni relations"),
           ("it-helpdesk", "IT helpdesk")]


def make_news():
    """The news articles, newest first: dict list."""
    arts = []
    used = set()
    for i in range(1, N_NEWS + 1):
        r = Rng("news", i)
        title = title_words(r)
        slug = "-".join(title.lower().split()[:3])
        while slug in used:
            slug += "-%d" % i
        used.add(slug)
        y, m, d = from_day_number(TODAY - i * 2 - r.below(2))
        paras = paragraphs(r, r.between(150, 480))
        tags = r.sample(NEWS_TAGS, r.between(1, 2))
        arts.append(dict(i=i, title=title, slug=slug, date=(y, m, d),
                         paras=paras, tags=sorted(tags),
                         teaser=paras[0].split(". ")[0] + ".",
                         mirror=(i % 8 == 2), author=person(r)))
    for a in arts:
        mir = a["mirror"]
        a["alias"] = not mir and a["i"] % 5 == 0
        a["print"] = not mir and a["i"] % 3 == 1
        a["mobile"] = not mir and a["i"] % 4 == 3
        a["share"] = not mir and a["i"] % 2 == 1
    return arts


def article_body(a, here, with_tools):
    """The article inside <article>; links are absolute paths so that an
    alias or tracking copy links to the very same URLs."""
    y, m, d = a["date"]
    parts = ["<article>", "<h1>%s</h1>" % E(a["title"]),
             '<p class="meta">%s &middot; by %s %s</p>' %
             (long_date(y, m, d), E(a["author"][0]), E(a["author"][1]))]
    parts += ["<p>%s</p>" % E(p) for p in a["paras"]]
    parts.append("</article>")
    if with_tools:
        tools = []
        if a["print"]:
            tools.append(link(WWW, "/news/print/%s.html" % a["slug"],
                              "Print view", here))
        if a["mobile"]:
            tools.append(link(WWW, "/m/news/%s.html" % a["slug"],
                              "Mobile edition", here))
        if a["share"]:
            tools.append(link(WWW, "/news/%s.html?utm_source=newsletter&"
                              "utm_medium=email&utm_campaign=w%d" %
                              (a["slug"], 47 - a["i"] // 20),
                              "Share by newsletter", here))
        if tools:
            parts.append('<p class="tools">%s</p>' % " | ".join(tools))
        parts.append('<p class="tags">Tags: %s</p>' % ", ".join(
            link(WWW, "/news/tag/%s.html" % t, t, here) for t in a["tags"]))
    return "\n".join(parts)


def gen_www(S, arts):
    g = lambda s: "www:" + s
    # Articles, their aliases, print views, mobile variants, tracking URLs.
    for a in arts:
        here = Page(WWW)
        body = article_body(a, here, True)
        # "Most read": three of the ten newest stories, so an older story
        # is linked from its listing page (and maybe a tag page) only.
        rel = [b for b in (arts[(a["i"] * 7 + k * 3) % 10] for k in (1, 2, 3))
               if b is not a]
        body += "\n<h2>Most read</h2>\n<ul>%s</ul>" % "".join(
            "<li>%s</li>" % link(WWW, "/news/%s.html" % b["slug"], b["title"],
                                 here) for b in rel)
        page = tpl_www(here, a["title"], body, Rng("www-tpl", a["i"]),
                       crumbs=[("/news/", "News")])
        grp = g("article-%03d" % a["i"])
        S.add(WWW, "/news/%s.html" % a["slug"], page, here.links, grp,
              "article")
        if a["alias"]:
            S.add(WWW, "/archive/%s.html" % a["slug"], page, here.links, grp,
                  "alias")
        if a["share"]:
            S.label_only(WWW, "/news/%s.html?utm_source=newsletter&"
                         "utm_medium=email&utm_campaign=w%d" %
                         (a["slug"], 47 - a["i"] // 20), grp, "tracking")
        if a["i"] <= 10:
            S.label_only(WWW, "/news/%s.html?utm_source=homepage" %
                         a["slug"], grp, "tracking")
        if a["print"]:
            y, m, d = a["date"]
            pv = ("<!DOCTYPE html>\n<html lang=\"en\">\n<head><meta charset="
                  "\"utf-8\"><title>%s</title></head>\n<body>\n<h1>%s</h1>\n"
                  "<p>%s</p>\n%s\n</body>\n</html>\n" %
                  (E(a["title"]), E(a["title"]), long_date(y, m, d),
                   "\n".join("<p>%s</p>" % E(p) for p in a["paras"])))
            S.add(WWW, "/news/print/%s.html" % a["slug"], pv, [], grp,
                  "print")
        if a["mobile"]:
            mh = Page(WWW)
            mb = article_body(a, mh, False)
            S.add(WWW, "/m/news/%s.html" % a["slug"],
                  tpl_mobile(mh, a["title"], mb, Rng("www-m", a["i"])),
                  mh.links, grp, "variant")

    # Paginated news listing with teasers: /news/ and page-2..page-20.
    npages = (N_NEWS + NEWS_PER_PAGE - 1) // NEWS_PER_PAGE
    for p in range(1, npages + 1):
        here = Page(WWW)
        items = arts[(p - 1) * NEWS_PER_PAGE:p * NEWS_PER_PAGE]
        lis = []
        for a in items:
            y, m, d = a["date"]
            lis.append('<li class="teaser"><h2>%s</h2><p class="date">%s</p>'
                       '<p>%s</p></li>' % (link(WWW, "/news/%s.html" %
                                                a["slug"], a["title"], here),
                                           long_date(y, m, d), E(a["teaser"])))
        pager = []
        if p > 1:
            pager.append(link(WWW, "/news/" if p == 2 else
                              "/news/page-%d.html" % (p - 1), "Newer", here))
        for q in range(1, npages + 1):
            pager.append(link(WWW, "/news/" if q == 1 else
                              "/news/page-%d.html" % q, str(q), here))
        if p < npages:
            pager.append(link(WWW, "/news/page-%d.html" % (p + 1), "Older",
                              here))
        body = ('<h1>News</h1>\n<p class="count">Page %d of %d</p>\n<ul class='
                '"news-list">\n%s\n</ul>\n<p class="pager">%s</p>' %
                (p, npages, "\n".join(lis), " ".join(pager)))
        path = "/news/" if p == 1 else "/news/page-%d.html" % p
        S.add(WWW, path, tpl_www(here, "News, page %d" % p, body,
                                 Rng("www-list", p), crumbs=[("/news/",
                                                              "News")]),
              here.links, g("news-page-%d" % p), "listing")

    # Tag pages: the ten newest articles with the tag, titles and dates.
    for t in NEWS_TAGS:
        here = Page(WWW)
        tagged = [a for a in arts if t in a["tags"]][:10]
        lis = "\n".join("<li>%s <span>%s</span></li>" % (
            link(WWW, "/news/%s.html" % a["slug"], a["title"], here),
            iso(*a["date"])) for a in tagged)
        body = ("<h1>News tagged &ldquo;%s&rdquo;</h1>\n<ul>\n%s\n</ul>" %
                (t, lis))
        S.add(WWW, "/news/tag/%s.html" % t,
              tpl_www(here, "Tag: " + t, body, Rng("www-tag", t),
                      crumbs=[("/news/", "News")]),
              here.links, g("tag-" + t), "tag")

    # Short notes: different articles of 25-45 words on the full template.
    notes = []
    for n in range(1, N_NOTES + 1):
        r = Rng("note", n)
        title = title_words(r, 3, 5)
        text = " ".join(words_of(r, r.between(25, 40)))
        notes.append((n, title))
        here = Page(WWW)
        body = "<article>\n<h1>%s</h1>\n<p>%s</p>\n</article>" % (E(title),
                                                                 E(text))
        S.add(WWW, "/news/notes/%d.html" % n,
              tpl_www(here, title, body, Rng("www-note-tpl", n),
                      crumbs=[("/news/notes/", "Short notes")]),
              here.links, g("note-%d" % n), "bait")
    here = Page(WWW)
    body = "<h1>Short notes</h1>\n<ul>\n%s\n</ul>" % "\n".join(
        "<li>%s</li>" % link(WWW, "/news/notes/%d.html" % n, t, here)
        for n, t in notes)
    S.add(WWW, "/news/notes/", tpl_www(here, "Short notes", body,
                                        Rng("www-notes")),
          here.links, g("notes"), "nav")

    # Archive index: the aliases, as an old CMS kept them.
    here = Page(WWW)
    body = "<h1>Archive</h1>\n<p>Stories kept from the old website, whose " \
        "home page was %s.</p>\n<ul>\n%s\n</ul>" % (
            link(WWW, "/index.html", "index.html", here), "\n".join(
            "<li>%s</li>" % link(WWW, "/archive/%s.html" % a["slug"],
                                 a["title"], here) for a in arts
                if a["alias"]))
    S.add(WWW, "/archive/", tpl_www(here, "Archive", body, Rng("www-arch")),
          here.links, g("archive"), "nav")

    # Language versions: same topic, English and German text.
    for pg in LANG_PAGES:
        for lang in ("en", "de"):
            r = Rng("lang", pg, lang)
            here = Page(WWW)

            if lang == "en":
                head = pg.capitalize()
                paras = paragraphs(r, r.between(130, 240))
                sw = link(WWW, "/de/%s.html" % pg, "Deutsch", here)
            else:
                head = r.pick(DE_NOUNS)
                paras = paragraphs(r, r.between(130, 240), de_sentence)
                sw = link(WWW, "/en/%s.html" % pg, "English", here)
            body = ('<article lang="%s">\n<h1>%s</h1>\n%s\n<p class="lang">'
                    '%s</p>\n</article>' % (lang, E(head), "\n".join(
                        "<p>%s</p>" % E(p) for p in paras), sw))
            S.add(WWW, "/%s/%s.html" % (lang, pg),
                  tpl_www(here, head, body, Rng("www-lang-tpl", pg, lang),
                          lang=lang),
                  here.links, g("%s-%s" % (lang, pg)), "lang")

    # Contact offices: thin pages.
    for slug, name in OFFICES:
        r = Rng("office", slug)
        here = Page(WWW)
        body = ('<h1>%s</h1>\n<p>Room %s%d.%02d, %d Campus Avenue<br>\nPhone '
                '+49 555 %04d %03d<br>\nOpen %s to %s, %d:00 to %d:00</p>' %
                (name, r.pick("ABCDEFGH"), r.between(1, 4), r.between(1, 40),
                 r.between(1, 9), r.between(1000, 9999), r.between(100, 999),
                 r.pick(WEEKDAYS[:2]), r.pick(WEEKDAYS[3:5]), r.between(8, 10),
                 r.between(14, 17)))
        S.add(WWW, "/contact/%s.html" % slug,
              tpl_www(here, name, body, Rng("www-office-tpl", slug),
                      crumbs=[("/contact/", "Contact")]),
              here.links, g("contact-" + slug), "thin")
    here = Page(WWW)
    body = "<h1>Contact</h1>\n<ul>\n%s\n</ul>" % "\n".join(
        "<li>%s</li>" % link(WWW, "/contact/%s.html" % s, n, here)
        for s, n in OFFICES)
    S.add(WWW, "/contact/", tpl_www(here, "Contact", body, Rng("www-cont")),
          here.links, g("contact"), "nav")

    # Home: top stories through tracking links, and everything else.
    here = Page(WWW)
    r = Rng("www-home")
    top = "\n".join('<li>%s</li>' % link(
        WWW, "/news/%s.html?utm_source=homepage" % a["slug"], a["title"],
        here) for a in arts[:10])
    langs = " ".join(link(WWW, "/en/%s.html" % p, p.capitalize(), here)
                     for p in LANG_PAGES)
    body = ("<h1>Welcome to the University of Uniton</h1>\n<p>%s</p>\n"
            "<h2>Top stories</h2>\n<ul>\n%s\n</ul>\n<p>%s</p>\n"
            "<h2>About the university</h2>\n<p>%s</p>\n<p>%s</p>" %
            (E(" ".join(words_of(r, 45))), top,
             link(WWW, "/news/", "All news", here), langs,
             link(WWW, "/de/about.html", "Deutsch", here)))
    home = tpl_www(here, "Home", body, Rng("www-home-tpl"))
    S.add(WWW, "/", home, here.links, g("home"), "nav")
    S.add(WWW, "/index.html", home, here.links, g("home"), "alias")
    return notes


# ---------------------------------------------------------------- cs.uni
def shared_rules():
    """The long assessment-regulations paragraph on every course page."""
    r = Rng("cs-rules")
    sents = words_of(r, 190)
    return ("Assessment regulations. " + " ".join(sents))


def gen_cs(S, arts):
    g = lambda s: "cs:" + s
    rules = shared_rules()
    access = ("Accessibility: teaching rooms have step-free access; ask the "
              "course office for recorded lectures and adjusted exams.")
    staff = []
    seen = set()
    r = Rng("cs-staff")
    while len(staff) < 150:
        f, l = person(r)
        if (f, l) in seen:
            continue
        seen.add((f, l))
        staff.append((l, f, "+49 555 %04d %03d" % (r.between(1000, 9999),
                                                   r.between(100, 999)),
                      "%s%d.%03d" % (r.pick("ABCDE"), r.between(0, 4),
                                     r.between(1, 140))))
    staff.sort(key=lambda s: (s[0].lower(), s[1].lower()))

    def initial(name):
        c = name[0].upper()
        return {"Ç": "C", "Ø": "O", "Ł": "L", "Ö": "O", "Ü": "U",
                "Ä": "A", "É": "E", "Í": "I"}.get(c, c)

    letters = []
    for s in staff:
        if initial(s[0]) not in letters:
            letters.append(initial(s[0]))
    letters.sort()
    for L in letters:
        here = Page(CS)
        rows = "\n".join(
            "<tr><td>%s, %s</td><td>%s</td><td>%s</td></tr>" % (
                E(s[0]), E(s[1]), s[2], s[3])
            for s in staff if initial(s[0]) == L)
        az = " ".join(link(CS, "/staff/%s.html" % x.lower(), x, here)
                      for x in letters)
        body = ("<h2>Staff: %s</h2>\n<p>%s</p>\n<table border=\"1\" "
                "cellpadding=\"2\">\n<tr><th>Name</th><th>Phone</th><th>Room"
                "</th></tr>\n%s\n</table>" % (L, az, rows))
        S.add(CS, "/staff/%s.html" % L.lower(),
              tpl_table(here, "Staff " + L, body, Rng("cs-az-tpl", L), "cs"),
              here.links, g("staff-" + L.lower()), "az")
    here = Page(CS)
    body = "<h2>Staff A-Z</h2>\n<p>%s</p>" % " ".join(
        link(CS, "/staff/%s.html" % x.lower(), x, here) for x in letters)
    S.add(CS, "/staff/", tpl_table(here, "Staff A-Z", body, Rng("cs-az"),
                                   "cs"),
          here.links, g("staff"), "nav")

    # Course catalogue: one template, a long shared text, a short own part.
    courses = []
    used = set()
    r = Rng("cs-courses")
    for n in range(60):
        level = r.pick(["1", "2", "3", "4", "6"])
        code = "CS%s%02d" % (level, n + 10)
        t = r.pick(TOPICS)
        title = "%s %s" % (r.pick(ADJS).capitalize(), t)
        while title in used:
            title = "%s %s" % (r.pick(ADJS).capitalize(), t)
        used.add(title)
        lect = staff[r.below(len(staff))]
        courses.append((code, title, lect, r.between(1, 4) * 5,
                        r.pick(["autumn", "spring"]),
                        " ".join(words_of(Rng("cs-desc", code),
                                          Rng("cs-dl", code).between(30, 55)))))
    for code, title, lect, credits, sem, desc in courses:
        here = Page(CS)
        body = ("<h2>%s %s</h2>\n<table border=\"0\">\n<tr><td>Code</td><td>%s"
                "</td></tr>\n<tr><td>Credits</td><td>%d ECTS</td></tr>\n<tr>"
                "<td>Semester</td><td>%s</td></tr>\n<tr><td>Lecturer</td><td>"
                "%s</td></tr>\n</table>\n<p>%s</p>\n<p><b>Regulations</b></p>\n"
                "<p>%s</p>\n<p>%s</p>" %
                (code, E(title), code, credits, sem,
                 link(CS, "/staff/%s.html" % initial(lect[0]).lower(),
                      "%s %s" % (lect[1], lect[0]), here),
                 E(desc), E(rules), E(access)))
        S.add(CS, "/courses/%s.html" % code.lower(),
              tpl_table(here, "%s %s" % (code, title), body,
                        Rng("cs-course-tpl", code), "cs"),
              here.links, g("course-" + code.lower()), "catalogue")
    here = Page(CS)
    body = "<h2>Course catalogue</h2>\n<table>\n%s\n</table>" % "\n".join(
        "<tr><td>%s</td><td>%s</td></tr>" % (
            code, link(CS, "/courses/%s.html" % code.lower(), title, here))
        for code, title, _, _, _, _ in sorted(courses))
    S.add(CS, "/courses/", tpl_table(here, "Course catalogue", body,
                                     Rng("cs-cat"), "cs"),
          here.links, g("courses"), "nav")

    # Timetables: a table per programme and week; five programmes have
    # a second week that differs in one row (same group, class onerow).
    progs = ["bsc-1", "bsc-2", "bsc-3", "msc-1", "msc-2", "phd",
             "minor", "evening"]
    times = ["08:15", "09:15", "10:15", "11:15", "12:15", "13:15", "14:15",
             "15:15", "16:15", "17:15"]
    tt_links = []
    for pi, prog in enumerate(progs):
        r = Rng("cs-tt", prog)
        rows = []
        for _ in range(r.between(14, 20)):
            c = courses[r.below(len(courses))]
            rows.append([r.below(5), r.below(len(times)), c[0],
                         "%s%d.%03d" % (r.pick("ABCDE"), r.between(0, 4),
                                        r.between(1, 140)),
                         c[2][0], r.pick(["lecture", "lab", "tutorial"])])
        rows.sort(key=lambda x: (x[0], x[1], x[2]))
        weeks = [(45, rows)]
        if pi < 5:
            alt = [list(x) for x in rows]
            k = r.below(len(alt))
            alt[k][3] = "%s%d.%03d" % (r.pick("FGH"), r.between(0, 4),
                                       r.between(1, 140))
            alt[k][5] = "moved"
            weeks.append((46, alt))
        for wk, rws in weeks:
            here = Page(CS)
            tr = "\n".join(
                "<tr><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td>"
                "<td>%s</td></tr>" % (WEEKDAYS[x[0]], times[x[1]], x[2], x[3],
                                      E(x[4]), x[5]) for x in rws)
            body = ("<h2>Timetable %s, week %d</h2>\n<table border=\"1\">\n"
                    "<tr><th>Day</th><th>Time</th><th>Course</th><th>Room</th>"
                    "<th>Lecturer</th><th>Type</th></tr>\n%s\n</table>" %
                    (prog, wk, tr))
            path = "/timetable/%s-week-%d.html" % (prog, wk)
            S.add(CS, path, tpl_table(here, "Timetable %s" % prog, body,
                                      Rng("cs-tt-tpl", prog), "cs"),
                  here.links, g("timetable-" + prog),
                  "numeric" if wk == 45 else "onerow")
            tt_links.append((path, "%s, week %d" % (prog, wk)))
    here = Page(CS)
    body = "<h2>Timetables</h2>\n<ul>\n%s\n</ul>" % "\n".join(
        "<li>%s</li>" % link(CS, p, t, here) for p, t in tt_links)
    S.add(CS, "/timetable/", tpl_table(here, "Timetables", body,
                                       Rng("cs-tt-idx"), "cs"),
          here.links, g("timetables"), "nav")

    # Exam schedules: dates, times, rooms, durations.
    terms = ["2025-autumn", "2026-spring", "2026-autumn", "2026-resits"]
    for term in terms:
        r = Rng("cs-exam", term)
        here = Page(CS)
        base = day_number(int(term[:4]), 6 if "spring" in term else 1, 10)
        rows = []
        for c in r.sample(courses, r.between(18, 26)):
            y, m, d = from_day_number(base + r.below(20))
            rows.append((iso(y, m, d), r.pick(times[:8]), c[0],
                         "%s%d.%03d" % (r.pick("ABCDE"), r.between(0, 4),
                                        r.between(1, 140)),
                         r.pick([60, 90, 120, 180])))
        rows.sort()
        tr = "\n".join("<tr><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>"
                       "%d min</td></tr>" % x for x in rows)
        body = ("<h2>Exam schedule %s</h2>\n<table border=\"1\">\n<tr><th>Date"
                "</th><th>Time</th><th>Course</th><th>Room</th><th>Duration"
                "</th></tr>\n%s\n</table>" % (term, tr))
        S.add(CS, "/exams/%s.html" % term,
              tpl_table(here, "Exams " + term, body, Rng("cs-ex-tpl", term),
                        "cs"),
              here.links, g("exams-" + term), "numeric")
    here = Page(CS)
    body = "<h2>Exam schedules</h2>\n<ul>\n%s\n</ul>" % "\n".join(
        "<li>%s</li>" % link(CS, "/exams/%s.html" % t, t, here) for t in terms)
    S.add(CS, "/exams/", tpl_table(here, "Exam schedules", body,
                                   Rng("cs-ex-idx"), "cs"),
          here.links, g("exams"), "nav")

    # Department news: www articles mirrored in this host's template.
    mirrored = [a for a in arts if a["mirror"]]
    for a in mirrored:
        here = Page(CS)
        y, m, d = a["date"]
        body = ("<h2>%s</h2>\n<p><i>%s, from the university news</i></p>\n%s\n"
                "<p>%s</p>" % (E(a["title"]), long_date(y, m, d), "\n".join(
                    "<p>%s</p>" % E(p) for p in a["paras"]),
                    link(WWW, "/news/%s.html" % a["slug"], "Original story",
                         here)))
        S.add(CS, "/news/%s.html" % a["slug"],
              tpl_table(here, a["title"], body, Rng("cs-news-tpl", a["i"]),
                        "cs"),
              here.links, "www:article-%03d" % a["i"], "mirror")
    here = Page(CS)
    body = "<h2>Department news</h2>\n<ul>\n%s\n</ul>" % "\n".join(
        "<li>%s (%s)</li>" % (link(CS, "/news/%s.html" % a["slug"],
                                   a["title"], here), iso(*a["date"]))
        for a in mirrored)
    S.add(CS, "/news/", tpl_table(here, "Department news", body,
                                  Rng("cs-news-idx"), "cs"),
          here.links, g("news"), "nav")

    here = Page(CS)
    body = ("<h2>Contact</h2>\n<p>Department office, Building B, room B0.012"
            "<br>Phone +49 555 2040 100<br>Monday to Friday 9:00 to 12:00</p>")
    S.add(CS, "/contact.html", tpl_table(here, "Contact", body,
                                         Rng("cs-contact"), "cs"),
          here.links, g("contact"), "thin")

    here = Page(CS)
    r = Rng("cs-home")
    body = ("<h2>Welcome to Computer Science</h2>\n<p>%s</p>\n<ul>\n<li>%s"
            "</li>\n<li>%s</li>\n<li>%s</li>\n<li>%s</li>\n<li>%s</li>\n</ul>"
            % (E(" ".join(words_of(r, 60))),
               link(CS, "/courses/", "All courses", here),
               link(CS, "/staff/", "Who is who", here),
               link(CS, "/timetable/", "This week's timetables", here),
               link(CS, "/exams/", "Exams", here),
               link(CS, "/news/", "News from the department", here)))
    S.add(CS, "/", tpl_table(here, "Home", body, Rng("cs-home-tpl"), "cs"),
          here.links, g("home"), "nav")


# --------------------------------------------------------------- lib.uni
BRANCHES = [("main", "Main library"), ("science", "Science library"),
            ("law", "Law library"), ("medicine", "Medical library"),
            ("music", "Music library"), ("east", "East campus reading room")]
SEARCH_TERMS = W("""
thesis climate robotics statistics history music law medicine energy
algorithms ethics water cities language economics architecture poetry
genetics finance databases astronomy education migration film geology
""")


def gen_lib(S):
    g = lambda s: "lib:" + s
    recs = []
    for n in range(1, 49):
        r = Rng("lib-rec", n)
        recs.append(dict(
            id="b%05d" % (10000 + n * 37), title=title_words(r, 3, 7),
            authors=[person(r) for _ in range(r.between(1, 3))],
            year=r.between(1968, 2026), pub="%s Press" % r.pick(PLACES),
            isbn="978-%d-%04d-%04d-%d" % (r.between(1, 9), r.below(10000),
                                          r.below(10000), r.below(10)),
            shelf="%s %d.%d" % (r.pick(["QA", "HB", "KZ", "ML", "R", "PN",
                                         "GE"]), r.between(1, 999),
                                r.between(1, 99)),
            subjects=r.sample(SEARCH_TERMS, r.between(1, 3)),
            copies=[(r.pick(BRANCHES)[1], r.pick(["available", "on loan",
                                                  "reference only"]),
                     iso(*from_day_number(TODAY + r.between(3, 40))))
                    for _ in range(r.between(1, 3))]))
    for rec in recs:
        here = Page(LIB)
        auth = "; ".join("%s, %s" % (l, f) for f, l in rec["authors"])
        cp = "\n".join("<tr><td>%s</td><td>%s</td><td>%s</td></tr>" % (
            E(b), s, d if s == "on loan" else "") for b, s, d in rec["copies"])
        subj = ", ".join(link(LIB, "/search/?q=%s" % s, s, here)
                         for s in rec["subjects"])
        body = ("<h1>%s</h1>\n<dl>\n<dt>Author</dt><dd>%s</dd>\n<dt>Published"
                "</dt><dd>%s, %d</dd>\n<dt>ISBN</dt><dd>%s</dd>\n<dt>Shelf mark"
                "</dt><dd>%s</dd>\n<dt>Subjects</dt><dd>%s</dd>\n</dl>\n<table>"
                "\n<tr><th>Branch</th><th>Status</th><th>Due</th></tr>\n%s\n"
                "</table>" % (E(rec["title"]), E(auth), E(rec["pub"]),
                              rec["year"], rec["isbn"], rec["shelf"], subj, cp))
        S.add(LIB, "/catalogue/%s.html" % rec["id"],
              tpl_lib(here, rec["title"], body, Rng("lib-rec-tpl", rec["id"])),
              here.links, g("record-" + rec["id"]), "record")
    here = Page(LIB)
    body = "<h1>New in the catalogue</h1>\n<ol>\n%s\n</ol>" % "\n".join(
        "<li>%s (%d)</li>" % (link(LIB, "/catalogue/%s.html" % x["id"],
                                   x["title"], here), x["year"]) for x in recs)
    S.add(LIB, "/catalogue/", tpl_lib(here, "New in the catalogue", body,
                                      Rng("lib-cat")),
          here.links, g("catalogue"), "nav")

    # Search results: /search/?q=TERM, ten hits from the records.
    for term in SEARCH_TERMS:
        r = Rng("lib-search", term)
        here = Page(LIB)
        hits = r.sample(recs, 10)
        total = r.between(10, 400)
        lis = "\n".join(
            "<li>%s<br>%s &middot; %d &middot; %s</li>" % (
                link(LIB, "/catalogue/%s.html" % h["id"], h["title"], here),
                E("%s %s" % h["authors"][0]), h["year"], h["shelf"])
            for h in hits)
        related = " ".join(link(LIB, "/search/?q=%s" % t, t, here)
                           for t in r.sample([x for x in SEARCH_TERMS
                                              if x != term], 4))
        body = ("<h1>Search results for &ldquo;%s&rdquo;</h1>\n<p>Showing 1 to"
                " 10 of %d results, sorted by relevance.</p>\n<ol>\n%s\n</ol>\n"
                "<p>Related searches: %s</p>" % (term, total, lis, related))
        S.add(LIB, "/search/?q=%s" % term,
              tpl_lib(here, "Search: " + term, body, Rng("lib-s-tpl", term)),
              here.links, g("search-" + term), "search")
    here = Page(LIB)
    body = ("<h1>Search the catalogue</h1>\n<p>Type a word in the box above."
            " Popular searches: %s</p>" % " ".join(
                link(LIB, "/search/?q=%s" % t, t, here)
                for t in SEARCH_TERMS[:12]))
    S.add(LIB, "/search/", tpl_lib(here, "Search", body, Rng("lib-s")),
          here.links, g("search"), "nav")

    # Opening hours: a weekly table per branch; four branches also have
    # next week's table, one row different (a holiday): class onerow.
    hours_links = []
    for bi, (b, name) in enumerate(BRANCHES):
        r = Rng("lib-hours", b)
        op = r.between(7, 10)
        cl = r.between(17, 23)
        rows = []
        for di, day in enumerate(WEEKDAYS):
            if di == 6 and r.chance(1, 2):
                rows.append([day, "closed", "", ""])
            elif di >= 5:
                rows.append([day, "%02d:00" % (op + 1), "%02d:00" % (cl - 4),
                             "no service desk"])
            else:
                rows.append([day, "%02d:%02d" % (op, r.pick([0, 30])),
                             "%02d:00" % cl, "%02d:00 to %02d:00" %
                             (op + 1, r.between(15, 18))])
        weeks = [(47, rows)]
        if bi < 4:
            alt = [list(x) for x in rows]
            k = r.below(5)
            alt[k] = [alt[k][0], "closed", "", "public holiday"]
            weeks.append((48, alt))
        for wk, rws in weeks:
            here = Page(LIB)
            tr = "\n".join("<tr><td>%s</td><td>%s</td><td>%s</td><td>%s</td>"
                           "</tr>" % tuple(x) for x in rws)
            body = ("<h1>%s: opening hours, week %d</h1>\n<table>\n<tr><th>Day"
                    "</th><th>Opens</th><th>Closes</th><th>Service desk</th>"
                    "</tr>\n%s\n</table>" % (name, wk, tr))
            path = "/hours/%s-week-%d.html" % (b, wk)
            S.add(LIB, path, tpl_lib(here, name + " hours", body,
                                     Rng("lib-h-tpl", b)),
                  here.links, g("hours-" + b),
                  "numeric" if wk == 47 else "onerow")
            hours_links.append((path, "%s, week %d" % (name, wk)))
    # Vacation hours: other times in every row, their own groups.
    for b, name in BRANCHES[:2]:
        r = Rng("lib-vac", b)
        here = Page(LIB)
        tr = "\n".join("<tr><td>%s</td><td>%s</td></tr>" % (
            day, "closed" if di >= 5 else "%02d:00 to %02d:00" %
            (r.between(9, 11), r.between(13, 16)))
            for di, day in enumerate(WEEKDAYS))
        body = ("<h1>%s: vacation opening hours</h1>\n<p>From %s to %s.</p>\n"
                "<table>\n<tr><th>Day</th><th>Open</th></tr>\n%s\n</table>" %
                (name, iso(2026, 12, 21), iso(2027, 1, 8), tr))
        path = "/hours/%s-vacation.html" % b
        S.add(LIB, path, tpl_lib(here, name + " vacation", body,
                                 Rng("lib-v-tpl", b)),
              here.links, g("vacation-" + b), "numeric")
        hours_links.append((path, "%s, vacation" % name))
    here = Page(LIB)
    body = "<h1>Opening hours</h1>\n<ul>\n%s\n</ul>" % "\n".join(
        "<li>%s</li>" % link(LIB, p, t, here) for p, t in hours_links)
    S.add(LIB, "/hours/", tpl_lib(here, "Opening hours", body,
                                  Rng("lib-h-idx")),
          here.links, g("hours"), "nav")

    # Branch contact pages: thin.
    for b, name in BRANCHES:
        r = Rng("lib-branch", b)
        here = Page(LIB)
        body = ("<h1>%s</h1>\n<p>%d %s Street, Uniton<br>Phone +49 555 %04d "
                "%03d</p>" % (name, r.between(2, 90), r.pick(LAST),
                              r.between(1000, 9999), r.between(100, 999)))
        S.add(LIB, "/contact/%s.html" % b,
              tpl_lib(here, name, body, Rng("lib-b-tpl", b)),
              here.links, g("contact-" + b), "thin")
    here = Page(LIB)
    body = "<h1>Branches</h1>\n<ul>\n%s\n</ul>" % "\n".join(
        "<li>%s</li>" % link(LIB, "/contact/%s.html" % b, n, here)
        for b, n in BRANCHES)
    S.add(LIB, "/contact/", tpl_lib(here, "Branches", body, Rng("lib-c")),
          here.links, g("contact"), "nav")

    # Guides in English and German.
    guides = W("borrowing printing theses databases")
    for gd in guides:
        for lang in ("en", "de"):
            r = Rng("lib-guide", gd, lang)
            here = Page(LIB)
            mk = sentence if lang == "en" else de_sentence
            paras = paragraphs(r, r.between(110, 200), mk)
            sw = link(LIB, "/%s/guide-%s.html" % ("de" if lang == "en" else
                                                  "en", gd),
                      "Deutsch" if lang == "en" else "English", here)
            head = ("Guide: " + gd) if lang == "en" else (
                "Leitfaden: " + r.pick(DE_NOUNS))
            body = "<h1>%s</h1>\n%s\n<p>%s</p>" % (E(head), "\n".join(
                "<p>%s</p>" % E(p) for p in paras), sw)
            S.add(LIB, "/%s/guide-%s.html" % (lang, gd),
                  tpl_lib(here, head, body, Rng("lib-g-tpl", gd, lang),
                          lang),
                  here.links, g("%s-guide-%s" % (lang, gd)), "lang")

    here = Page(LIB)
    r = Rng("lib-home")
    body = ("<h1>University Library</h1>\n<p>%s</p>\n<p>Popular searches: %s"
            "</p>\n<p>%s</p>\n<p>Guides: %s</p>" % (
                E(" ".join(words_of(r, 50))),
                " ".join(link(LIB, "/search/?q=%s" % t, t, here)
                         for t in SEARCH_TERMS),
                link(LIB, "/catalogue/", "New in the catalogue", here),
                " ".join(link(LIB, "/en/guide-%s.html" % x, x, here)
                         for x in guides)))
    S.add(LIB, "/", tpl_lib(here, "Home", body, Rng("lib-home-tpl")),
          here.links, g("home"), "nav")


# ------------------------------------------------------------ events.uni
EVENT_CATS = W("lecture concert exhibition sport workshop film reading "
               "fair")
EVENT_TAGS = W("free family english german online outdoor students staff "
               "alumni evening")
N_EVENTS = 120
EV_PER_PAGE = 12


def gen_events(S):
    g = lambda s: "events:" + s
    evs = []
    for i in range(1, N_EVENTS + 1):
        r = Rng("event", i)
        day = day_number(2026, 12, 31) - i * 3 - r.below(3)
        evs.append(dict(
            i=i, title=title_words(r, 3, 6), date=from_day_number(day),
            time="%02d:%02d" % (r.between(9, 20), r.pick([0, 15, 30])),
            place="%s, room %s%d.%02d" % (r.pick(["Main hall", "Aula",
                                                   "Building B", "Library",
                                                   "Sports centre",
                                                   "Concert hall"]),
                                           r.pick("ABCD"), r.between(0, 3),
                                           r.between(1, 60)),
            cat=r.pick(EVENT_CATS), tags=sorted(r.sample(EVENT_TAGS, 2)),
            text=paragraphs(r, r.between(40, 120)),
            share=(i % 3 == 0)))
    for e in evs:
        here = Page(EV)
        y, m, d = e["date"]
        share = ""
        if e["share"]:
            share = "<div class=\"share\">%s</div>" % link(
                EV, "/event/%d.html?utm_source=social&utm_medium=share" %
                e["i"], "Share this event", here)
        body = ("<div class=\"ev-title\">%s</div>\n<div class=\"ev-when\">%s, "
                "%s at %s</div>\n<div class=\"ev-where\">%s</div>\n%s\n<div "
                "class=\"ev-cat\">Category: %s &middot; Tags: %s</div>\n%s" % (
                    E(e["title"]), WEEKDAYS[weekday(y, m, d)],
                    long_date(y, m, d), e["time"], E(e["place"]),
                    "\n".join("<div class=\"txt\">%s</div>" % E(p)
                              for p in e["text"]),
                    link(EV, "/category/%s.html" % e["cat"], e["cat"], here),
                    ", ".join(link(EV, "/tag/%s.html" % t, t, here)
                              for t in e["tags"]), share))
        grp = g("event-%d" % e["i"])
        S.add(EV, "/event/%d.html" % e["i"],
              tpl_events(here, e["title"], body, Rng("ev-tpl", e["i"])),
              here.links, grp, "event")
        if e["share"]:
            S.label_only(EV, "/event/%d.html?utm_source=social&utm_medium="
                         "share" % e["i"], grp, "tracking")

    def rows(items, here):
        return "\n".join(
            "<div class=\"row\"><span class=\"d\">%s</span> <span class=\"t\">"
            "%s</span> %s <span class=\"p\">%s</span></div>" % (
                iso(*e["date"]), e["time"],
                link(EV, "/event/%d.html" % e["i"], e["title"], here),
                E(e["place"])) for e in items)

    # Listing pages without teasers: date, time, title, place.
    npages = N_EVENTS // EV_PER_PAGE
    for p in range(1, npages + 1):
        here = Page(EV)
        items = evs[(p - 1) * EV_PER_PAGE:p * EV_PER_PAGE]
        pager = " ".join(link(EV, "/" if q == 1 else "/list/page-%d.html" % q,
                              str(q), here) for q in range(1, npages + 1))
        body = ("<div class=\"h\">Upcoming and recent events, page %d</div>\n"
                "%s\n<div class=\"pager\">%s</div>" % (p, rows(items, here),
                                                       pager))
        path = "/" if p == 1 else "/list/page-%d.html" % p
        S.add(EV, path, tpl_events(here, "Events, page %d" % p, body,
                                   Rng("ev-list", p)),
              here.links, g("list-page-%d" % p), "titlelist")

    for kind, vals, key in (("category", EVENT_CATS, "cat"),
                            ("tag", EVENT_TAGS, "tags")):
        for v in vals:
            here = Page(EV)
            items = [e for e in evs if (e[key] == v if key == "cat"
                                        else v in e[key])][:10]
            body = "<div class=\"h\">%s: %s</div>\n%s" % (
                kind.capitalize(), v, rows(items, here))
            S.add(EV, "/%s/%s.html" % (kind, v),
                  tpl_events(here, "%s %s" % (kind, v), body,
                             Rng("ev-" + kind, v)),
                  here.links, g("%s-%s" % (kind, v)), "tag")

    # Calendar archive: a month grid per recent month.
    months = []
    for e in evs:
        ym = e["date"][:2]
        if ym not in months:
            months.append(ym)
    # The archive keeps seven months: older events are linked from their
    # listing page only (tag and category pages show the newest ten).
    months = sorted(months)[-7:]
    for y, m in months:
        here = Page(EV)
        mlen = MDAYS[m - 1] + (1 if m == 2 and y % 4 == 0 else 0)
        cells = [""] * weekday(y, m, 1)
        for d in range(1, mlen + 1):
            es = [e for e in evs if e["date"] == (y, m, d)]
            cells.append("%d%s" % (d, "".join(
                "<br>" + link(EV, "/event/%d.html" % e["i"], e["title"], here)
                for e in es)))
        while len(cells) % 7:
            cells.append("")
        trs = "\n".join("<tr>%s</tr>" % "".join("<td>%s</td>" % c
                                                for c in cells[k:k + 7])
                        for k in range(0, len(cells), 7))
        body = ("<div class=\"h\">%s %d</div>\n<table class=\"cal\">\n<tr>%s"
                "</tr>\n%s\n</table>" % (MONTHS[m - 1], y, "".join(
                    "<th>%s</th>" % w[:3] for w in WEEKDAYS), trs))
        S.add(EV, "/archive/%04d-%02d.html" % (y, m),
              tpl_events(here, "%s %d" % (MONTHS[m - 1], y), body,
                         Rng("ev-cal", y, m)),
              here.links, g("month-%04d-%02d" % (y, m)), "calendar")
    here = Page(EV)
    body = "<div class=\"h\">Calendar archive</div>\n%s" % "<br>\n".join(
        link(EV, "/archive/%04d-%02d.html" % (y, m),
             "%s %d" % (MONTHS[m - 1], y), here) for y, m in months)
    S.add(EV, "/archive/", tpl_events(here, "Archive", body,
                                      Rng("ev-arch")),
          here.links, g("archive"), "nav")
    here = Page(EV)
    body = ("<div class=\"h\">Submit an event</div>\n<div>Events office, room"
            " A0.04. Phone +49 555 3100 200. Mail events at uni.test.</div>")
    S.add(EV, "/contact.html", tpl_events(here, "Submit an event", body,
                                          Rng("ev-contact")),
          here.links, g("contact"), "thin")


# ------------------------------------------------------------- sport.uni
SPORTS = [("football", "Football"), ("basketball", "Basketball"),
          ("volleyball", "Volleyball"), ("hockey", "Hockey")]
CLUBS = W("""
Ravens Otters Falcons Lynx Herons Wolves Badgers Comets Pilots Rovers
Foxes Owls
""")


def gen_sport(S):
    g = lambda s: "sport:" + s
    ROUNDS = 9
    idx_links = {"results": [], "standings": [], "fixtures": []}
    for sp, spname in SPORTS:
        r = Rng("sport", sp)
        teams = ["%s %s" % (r.pick(PLACES), c) for c in r.sample(CLUBS, 12)]
        table = {t: [0, 0, 0, 0, 0, 0] for t in teams}
        hi = {"football": 5, "hockey": 6, "basketball": 110,
              "volleyball": 3}[sp]
        for rnd in range(1, ROUNDS + 1):
            order = r.shuffled(teams)
            games = []
            for k in range(0, 12, 2):
                h, a = order[k], order[k + 1]
                if sp == "basketball":
                    sh, sa = r.between(55, hi), r.between(55, hi)
                    if sh == sa:
                        sh += 1
                elif sp == "volleyball":
                    sh = 3
                    sa = r.below(3)
                    if r.chance(1, 2):
                        sh, sa = sa, sh
                else:
                    sh, sa = r.below(hi), r.below(hi)
                games.append([h, a, sh, sa, r.between(80, 2400)])
                for t, f, ag in ((h, sh, sa), (a, sa, sh)):
                    row = table[t]
                    row[0] += 1
                    row[1 + (0 if f > ag else 1 if f == ag else 2)] += 1
                    row[4] += f
                    row[5] += ag
            y, m, d = from_day_number(TODAY - (ROUNDS - rnd) * 7)
            versions = [("round-%d" % rnd, games, "numeric")]
            if rnd == ROUNDS and sp in ("football", "hockey"):
                # Provisional results, one score changed after a protest.
                prov = [list(x) for x in games]
                prov[2][3] += 1
                versions.append(("round-%d-provisional" % rnd, prov,
                                 "onerow"))
            for name, gs, cls in versions:
                here = Page(SP)
                tr = "\n".join(
                    "<tr><td>%s</td><td>%s</td><td align=\"center\">%d : %d"
                    "</td><td>%d</td></tr>" % (E(x[0]), E(x[1]), x[2], x[3],
                                               x[4]) for x in gs)
                body = ("<font size=\"4\"><b>%s results, round %d</b></font>"
                        "<br>%s%s\n<table border=\"1\" cellpadding=\"3\">\n<tr>"
                        "<th>Home</th><th>Away</th><th>Score</th><th>Attendance"
                        "</th></tr>\n%s\n</table>" % (
                            spname, rnd, long_date(y, m, d),
                            " (provisional)" if cls == "onerow" else "", tr))
                path = "/results/%s/%s.html" % (sp, name)
                S.add(SP, path, tpl_table(here, "%s round %d" % (spname, rnd),
                                          body, Rng("sp-r-tpl", sp, name),
                                          "sport"),
                      here.links, g("%s-round-%d" % (sp, rnd)), cls)
                idx_links["results"].append((path, "%s round %d%s" % (
                    spname, rnd, " (provisional)" if cls == "onerow" else ""),
                    ""))
        here = Page(SP)
        pts = {"football": (3, 1), "hockey": (2, 1), "basketball": (2, 0),
               "volleyball": (3, 0)}[sp]
        ranked = sorted(teams, key=lambda t: (
            -(table[t][1] * pts[0] + table[t][2] * pts[1]),
            -(table[t][4] - table[t][5]), t))
        tr = "\n".join(
            "<tr><td>%d</td><td>%s</td><td>%d</td><td>%d</td><td>%d</td><td>"
            "%d</td><td>%d:%d</td><td>%d</td></tr>" % (
                k + 1, E(t), table[t][0], table[t][1], table[t][2],
                table[t][3], table[t][4], table[t][5],
                table[t][1] * pts[0] + table[t][2] * pts[1])
            for k, t in enumerate(ranked))
        body = ("<font size=\"4\"><b>%s standings after round %d</b></font>\n"
                "<table border=\"1\">\n<tr><th>#</th><th>Team</th><th>P</th><th>"
                "W</th><th>D</th><th>L</th><th>Goals</th><th>Pts</th></tr>\n%s"
                "\n</table>" % (spname, ROUNDS, tr))
        path = "/standings/%s.html" % sp
        S.add(SP, path, tpl_table(here, spname + " standings", body,
                                  Rng("sp-s-tpl", sp), "sport"),
              here.links, g("standings-" + sp), "numeric")
        lead = ranked[0]
        idx_links["standings"].append((path, spname, ": %s lead with %d "
                                       "points, %s are last" % (
                                           lead, table[lead][1] * pts[0] +
                                           table[lead][2] * pts[1],
                                           ranked[-1])))
        here = Page(SP)
        rows = []
        for rnd in range(ROUNDS + 1, ROUNDS + 4):
            order = r.shuffled(teams)
            y, m, d = from_day_number(TODAY + (rnd - ROUNDS) * 7 -
                                      r.below(2))
            for k in range(0, 12, 2):
                rows.append("<tr><td>%s</td><td>%02d:%02d</td><td>%s</td><td>"
                            "%s</td><td>%d</td></tr>" % (
                                iso(y, m, d), r.between(10, 20),
                                r.pick([0, 30]), E(order[k]),
                                E(order[k + 1]), rnd))
        body = ("<font size=\"4\"><b>%s fixtures</b></font>\n<table border="
                "\"1\">\n<tr><th>Date</th><th>Time</th><th>Home</th><th>Away"
                "</th><th>Round</th></tr>\n%s\n</table>" % (spname,
                                                             "\n".join(rows)))
        path = "/fixtures/%s.html" % sp
        S.add(SP, path, tpl_table(here, spname + " fixtures", body,
                                  Rng("sp-f-tpl", sp), "sport"),
              here.links, g("fixtures-" + sp), "numeric")
        idx_links["fixtures"].append((path, spname, ": next %s against %s" %
                                      (order[0], order[1])))
    for sect, title in (("results", "Results"), ("standings", "Standings"),
                        ("fixtures", "Fixtures")):
        here = Page(SP)
        body = "<font size=\"4\"><b>%s</b></font>\n<ul>\n%s\n</ul>" % (
            title, "\n".join("<li>%s%s</li>" % (link(SP, p, t, here), E(x))
                             for p, t, x in idx_links[sect]))
        S.add(SP, "/%s/" % sect, tpl_table(here, title, body,
                                           Rng("sp-idx", sect), "sport"),
              here.links, g(sect), "nav")
    here = Page(SP)
    body = ("<font size=\"4\"><b>Contact</b></font><br>Sports centre "
            "reception, 7 Riverside Road<br>Phone +49 555 7070 000")
    S.add(SP, "/contact.html", tpl_table(here, "Contact", body,
                                         Rng("sp-contact"), "sport"),
          here.links, g("contact"), "thin")
    here = Page(SP)
    r = Rng("sp-home")
    body = ("<font size=\"4\"><b>Uniton Sport</b></font>\n<p>%s</p>\n<p>%s "
            "&middot; %s &middot; %s</p>" % (
                E(" ".join(words_of(r, 40))),
                link(SP, "/results/", "Latest results", here),
                link(SP, "/standings/", "League tables", here),
                link(SP, "/fixtures/", "Next games", here)))
    S.add(SP, "/", tpl_table(here, "Home", body, Rng("sp-home-tpl"),
                             "sport"),
          here.links, g("home"), "nav")


# ------------------------------------------------------------- checking
DUP_CLASSES = ("alias", "tracking", "print", "variant", "mirror", "onerow")


def check(S):
    """Every link leads to a page of the fixture, and every labelled URL
    is reachable from the home pages through pages a perfect crawler judges
    unique, whichever member of a group it fetches first. Members of a group
    that can come first (mirror, onerow) only pass on the links every member
    of the group has; print views and mobile variants are only linked from
    their article, and aliases and tracking URLs are the same bytes."""
    def served(u):
        if u in S.pages:
            return S.pages[u]
        base = u.split("?", 1)[0]
        if "?" in u and base in S.pages and "/search/" not in base:
            return S.pages[base]
        return None

    labelled = {k: (g, c) for k, g, c in S.labels}
    for k, (data, links) in S.pages.items():
        for t in links:
            if served(t) is None:
                raise SystemExit("gen-uni-site: %s links to missing %s" %
                                 (k, t))
            if t not in labelled:
                raise SystemExit("gen-uni-site: %s links to unlabelled %s" %
                                 (k, t))
    members = {}
    for k, gr, c in S.labels:
        members.setdefault(gr, []).append((k, c))
    follow = {}
    for gr, ms in members.items():
        racers = [k for k, c in ms if c not in ("print", "variant")]
        common = None
        for k in racers:
            ls = set(served(k)[1])
            common = ls if common is None else common & ls
        follow[gr] = common or set()

    def reach(blocked):
        """Labelled URLs reached when the page blocked is judged near."""
        reached = set()
        todo = ["//%s/" % h for h in HOSTS]
        while todo:
            u = todo.pop()
            if u in reached:
                continue
            reached.add(u)
            if u == blocked:
                continue
            gr = labelled[u][0]
            todo.extend(sorted(follow[gr] | (
                set(served(u)[1]) if labelled[u][1] in ("print", "variant")
                else set())))
        return reached

    reached = reach(None)
    missing = [k for k, _, _ in S.labels if k not in reached]
    if missing:
        raise SystemExit("gen-uni-site: not reachable through unique pages: "
                         "%s" % ", ".join(missing[:10]))
    # What one wrong near verdict on a listing page costs.
    lost = []
    for k, _, c in S.labels:
        if c in ("listing", "titlelist"):
            lost.append((k, len(reached) - len(reach(k))))
    return lost


# ---------------------------------------------------------------- output
def main():
    top = os.path.dirname(os.path.dirname(
        os.path.dirname(os.path.abspath(__file__))))
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        top, "tests", "fixtures")
    S = Site()
    arts = make_news()
    gen_www(S, arts)
    gen_cs(S, arts)
    gen_lib(S)
    gen_events(S)
    gen_sport(S)
    lost = check(S)

    for h in HOSTS:
        shutil.rmtree(os.path.join(out, "sites", h), ignore_errors=True)
    nbytes = 0
    written = []
    for key in S.order:
        name, query = file_of(key)
        if query:
            name += "?" + query
        if name in written:         # "/" and its alias "/index.html"
            continue
        written.append(name)
        path = os.path.join(out, "sites", *name.split("/"))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        data = S.pages[key][0]
        with open(path, "wb") as f:
            f.write(data)
        nbytes += len(data)
    with open(os.path.join(out, "labelled-uni.tsv"), "wb") as f:
        f.write(b"path\tgroup\tclass\n")
        for k, gr, c in S.labels:
            f.write(("%s\t%s\t%s\n" % (k, gr, c)).encode("utf-8"))

    counts = {}
    for _, _, c in S.labels:
        counts[c] = counts.get(c, 0) + 1
    groups = len(set(gr for _, gr, _ in S.labels))
    print("gen-uni-site: %d files, %d bytes; %d labels, %d groups" %
          (len(written), nbytes, len(S.labels), groups))
    for c in sorted(counts):
        print("  %-15s %4d" % (c, counts[c]))
    print("labelled URLs lost when one listing page is judged near:")
    for k, n in lost:
        print("  %-40s %4d" % (k, n))


if __name__ == "__main__":
    main()
