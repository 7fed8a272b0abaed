#!/usr/bin/env python3
"""Check the source tree's architecture rules (docs/architecture.md).

  - a folder includes only from itself and from the folders it may use;
  - no include cycle between modules (a module is a .c file and its .h);
  - SQLite is called only from storage/;
  - the repository root is the only include path (Makefile, fuzz build);
  - no source file is longer than MAX_LINES;
  - no code outside a method's own file branches on that method;
  - no C source cites an issue tracker's number;
  - crawler/state.h lists the folder's files, and each part of struct
    crawl is written only by the file its comment names.

Prints one line per check and closes with "N passed, N failed".
Run from the repository root: python3 scripts/make/check-layers.py
"""
import glob
import os
import re
import sys

# Who may include whom. Peers on one level (web, dedup, storage, archive) know
# nothing of each other.
MAY_USE = {
    "util": set(),
    "web": {"util"},
    "dedup": {"util"},
    "storage": {"util"},
    "archive": {"util"},
    "config": {"util", "web", "dedup"},
    "digest": {"util", "web", "dedup", "config"},
    "crawler": {"util", "web", "dedup", "storage", "archive", "config",
                "digest"},
    "cmd": {"util", "web", "dedup", "storage", "archive", "config",
            "digest", "crawler"},
}
MAX_LINES = 1000
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)

passed = 0
failed = 0


def check(ok, what, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print("ok   " + what)
    else:
        failed += 1
        print("FAIL " + what + (": " + detail if detail else ""))


def sources():
    for d in MAY_USE:
        for f in sorted(glob.glob(d + "/*.[ch]")):
            yield d, f


def includes(path):
    with open(path, encoding="utf-8", errors="replace") as fh:
        return INCLUDE.findall(fh.read())


# 1. Layers.
bad = []
for d, f in sources():
    for inc in includes(f):
        if "/" not in inc:
            bad.append("%s: \"%s\" names no folder" % (f, inc))
            continue
        to = inc.split("/")[0]
        if to != d and to not in MAY_USE[d]:
            bad.append("%s includes %s" % (f, inc))
        elif not os.path.exists(inc):
            bad.append("%s includes %s, which does not exist" % (f, inc))
check(not bad, "every include names a folder its layer may use",
      "; ".join(bad[:10]))

# 2. Cycles between modules.
def module(path):
    return os.path.splitext(path)[0]


edges = {}
for d, f in sources():
    m = module(f)
    for inc in includes(f):
        t = module(inc)
        if t != m:
            edges.setdefault(m, set()).add(t)
cycles = []
state = {}


def visit(m, stack):
    state[m] = 1
    stack.append(m)
    for t in sorted(edges.get(m, ())):
        if state.get(t) == 1:
            cycles.append(" -> ".join(stack[stack.index(t):] + [t]))
        elif t not in state:
            visit(t, stack)
    stack.pop()
    state[m] = 2


for m in sorted(edges):
    if m not in state:
        visit(m, [])
check(not cycles, "no include cycle between modules", "; ".join(cycles[:5]))

# 2b. The same rules on what the code calls: an object that uses a symbol
# another object defines depends on it, whatever the headers say (a shared
# header can hide a cycle of calls). Read from the built objects.
import subprocess

OBJ = "build/plain"
defined = {}
undefined = {}
for d, f in sources():
    if not f.endswith(".c") or f == "cmd/main.c":
        continue
    o = os.path.join(OBJ, module(f) + ".o")
    if not os.path.exists(o):
        continue
    out = subprocess.run(["nm", o], capture_output=True, text=True).stdout
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "TDBR":
            defined[parts[2]] = module(f)
        elif len(parts) == 2 and parts[0] == "U":
            undefined.setdefault(module(f), set()).add(parts[1])
calls = {}
for m, syms in undefined.items():
    for s_ in syms:
        t = defined.get(s_)
        if t is not None and t != m:
            calls.setdefault(m, set()).add(t)
if not defined:
    check(False, "calls follow the layers", "no objects in %s: run make" % OBJ)
else:
    bad = []
    for m, ts in sorted(calls.items()):
        for t in sorted(ts):
            fm, ft = m.split("/")[0], t.split("/")[0]
            if ft != fm and ft not in MAY_USE[fm]:
                bad.append("%s calls %s" % (m, t))
    check(not bad, "calls follow the layers", "; ".join(bad[:10]))
    edges, state, cycles = calls, {}, []
    for m in sorted(edges):
        if m not in state:
            visit(m, [])
    check(not cycles, "no call cycle between modules", "; ".join(cycles[:5]))

# 3. SQL only in storage/.
bad = []
for d, f in sources():
    if d == "storage":
        continue
    with open(f, encoding="utf-8", errors="replace") as fh:
        for n, line in enumerate(fh, 1):
            if re.search(r"\bsqlite3\w*", line):
                bad.append("%s:%d" % (f, n))
check(not bad, "SQLite is used only in storage/",
      "%d lines, first %s" % (len(bad), ", ".join(bad[:5])))

# 4. The root is the only include path.
bad = []
for f in ["Makefile", "scripts/make/fuzz.sh"]:
    with open(f) as fh:
        for n, line in enumerate(fh, 1):
            for flag in re.findall(r"-I\s*(\S+)", line):
                if flag.strip("\"'") != ".":
                    bad.append("%s:%d -I%s" % (f, n, flag))
check(not bad, "the root is the only include path", "; ".join(bad))

# 5. File length.
bad = []
for d, f in sources():
    with open(f, encoding="utf-8", errors="replace") as fh:
        n = sum(1 for _ in fh)
    if n > MAX_LINES:
        bad.append("%s (%d)" % (f, n))
check(not bad, "no source file over %d lines" % MAX_LINES, ", ".join(bad))

# 6. Each near-duplicate method is one file of dedup/ (its table of
# operations, dedup/method.h): no other code branches on one by name. The
# public header declares the methods' bits, and the store gives the methods
# columns of their own (pages.simhash, ...): crawler/fprow.c maps them.
METHOD_BIT = re.compile(r"\bDEDUP_(SIMHASH|SSDEEP|MINHASH|TDW)\b")
METHOD_BIT_MAY = {"dedup/dedup.h", "crawler/fprow.c"}
bad = []
for d, f in sources():
    if f in METHOD_BIT_MAY or re.match(r"dedup/method_\w+\.c$", f):
        continue
    with open(f, encoding="utf-8", errors="replace") as fh:
        for n, line in enumerate(fh, 1):
            if METHOD_BIT.search(line):
                bad.append("%s:%d" % (f, n))
check(not bad, "a near method is named only in its own file (dedup/method_*.c)",
      "%d lines, first %s" % (len(bad), ", ".join(bad[:5])))

# 7. No tracker numbers: the repository holds no tracker, so "issue 26"
# tells a reader nothing; a comment says the reason instead.
def issue_citations():
    cite = re.compile(r"\bissues?\s*#?\d", re.I)
    files = [f for _, f in sources()] + sorted(glob.glob("tests/*/*.[ch]"))
    bad = []
    for f in files:
        with open(f, encoding="utf-8", errors="replace") as fh:
            for n, line in enumerate(fh, 1):
                if cite.search(line):
                    bad.append("%s:%d" % (f, n))
    return bad


bad = issue_citations()
check(not bad, "no C source cites an issue number", ", ".join(bad[:5]))

# 8. The crawl's state (crawler/state.h): its file map lists the folder's
# files, and each member or group of struct crawl is written (assigned,
# incremented) only in the file its comment, or the block comment above
# it, names.
def check_crawl_state(path="crawler/state.h"):
    cfile = re.compile(r"crawler/\w+\.c")
    with open(path) as fh:
        h = fh.read()
    listed = set(re.findall(r"^ \*\s+(crawler/\w+\.c)\s", h.split("*/")[0],
                            re.M))
    files = set(glob.glob("crawler/*.c"))
    check(listed == files, "the file map in %s lists every crawler/*.c" % path,
          "not listed: %s; no such file: %s" % (
              " ".join(sorted(files - listed)) or "-",
              " ".join(sorted(listed - files)) or "-"))
    start = h.index("struct crawl {")
    lines = h[start:h.index("\n};", start)].splitlines()[1:]
    owner, block, group, depth, i = {}, None, None, 0, 0
    while i < len(lines):
        s, text = lines[i].strip(), ""
        if depth == 0 and ";" in s and not s.startswith("/*"):
            code, _, text = s.partition("/*")
            name = re.findall(r"(\w+)\s*(?:\[[^]]*\])?\s*;", code)[-1]
        if s.startswith("/*") or text:
            text = text or s
            while "*/" not in lines[i]:
                i += 1
                text += lines[i]
        m = cfile.search(text)
        if depth == 0 and s.startswith("/*"):
            block = m.group(0) if m else None
        elif depth == 0 and s.startswith("struct {"):
            depth, group = 1, block
        elif depth == 0 and ";" in s:
            owner[name] = m.group(0) if m else block
        elif depth > 0:
            depth += s.count("{") - s.count("}")
            m = re.match(r"\}\s*(\w+)\s*;", s)
            if depth == 0 and m:
                owner[m.group(1)] = group
        elif s == "":
            block = None
        i += 1
    bad = ["%s names no writer" % n for n, f in owner.items() if f is None]
    for f in sorted(files):
        with open(f, encoding="utf-8", errors="replace") as fh:
            code = re.sub(r"/\*.*?\*/", "", fh.read(), flags=re.S)
        for n, o in sorted(owner.items()):
            at = r"(?:\bc|->c)(?:->|\.)%s\b" % n
            if o != f and re.search(
                    at + r"(?:\s*(?:\.\w+|\[[^]\n]*\]))*\s*"
                    r"(?:[-+*/%&|^]?=(?!=)|\+\+|--)|(?:\+\+|--)\s*" + at,
                    code):
                bad.append("%s writes %s, %s's" % (f, n, o))
    check(owner and not bad, "each part of struct crawl is written by the "
          "file its comment names", "; ".join(bad[:10]))


check_crawl_state()

print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
