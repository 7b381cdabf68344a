"""structure.py - the shape of src/ checked from the sources (tests/cli/test_structure.sh): no call circle among the files of a folder, file and function length caps, every .c in docs/HACKING.md's file map, every docs pointer resolves, no extern function without a caller outside its file.

Usage: python3 tests/cli/structure.py [ROOT]   (ROOT: the source tree, default .)
Prints "PASS name" / "FAIL name (why)" lines as the CLI tests do, and "info: ..." lines that
count nothing. The rules and their reasons: docs/HACKING.md, "Structure (tests)".
Python's standard library only; it reads the sources, never the objects, so a planted change is
seen without a rebuild.
"""
import glob
import os
import re
import sys

ROOT = sys.argv[1] if len(sys.argv) > 1 else "."
os.chdir(ROOT)

# ---- the caps ----
FILE_CAP = 800        # lines of one .c or .h of src/
FUNC_CAP = 100        # lines of one function, from its name's line to its closing brace (hard cap)
FUNC_NOTE = 40        # functions over this many lines are counted and listed as information

# Files of one job allowed over FILE_CAP, each with its own cap and the reason it is one job.
# A file of several jobs is split instead (issue 41); an entry's cap stops it growing unseen.
FILE_ALLOW = {
    "src/render/tabulate.c": (950, "the one table printer: text, CSV, JSON and Markdown of one "
                              "table model, the text fitted to a width; its parts share the "
                              "layout state and are read together"),
    "src/util/demangle.c": (1150, "the Itanium demangler: one recursive descent whose parts call "
                            "each other in a circle (type -> name -> template arguments -> type) "
                            "over one parser state; split, its files would call each other"),
}

# Externs whose only callers outside their file are tests: allowed (see the note on check f).
TEST_DIRS = ["tests/unit", "tests/fuzz", "tests/bench"]

fails = 0


def ok(name):
    print("PASS " + name)


def bad(name, why):
    global fails
    fails += 1
    print("FAIL %s (%s)" % (name, why))


def info(text):
    print("info: " + text)


# ---- reading C ----
def blank(m):
    """The match replaced by spaces, its newlines kept, so line numbers stay."""
    return re.sub(r"[^\n]", " ", m.group(0))


STRIP = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)


def strip_code(text):
    """Comments, strings and character literals blanked (line numbers kept)."""
    return STRIP.sub(lambda m: '""' + blank(m)[2:] if m.group(0)[0] in "\"'" else blank(m), text)


def strip_preproc(code):
    """Preprocessor lines (with their continuations) blanked."""
    out, cont = [], False
    for line in code.split("\n"):
        pp = cont or line.lstrip().startswith("#")
        cont = pp and line.rstrip().endswith("\\")
        out.append(" " * len(line) if pp else line)
    return "\n".join(out)


TOKEN = re.compile(r"[A-Za-z_]\w*|[{}();=,]")


def tokens(code):
    line = 1
    pos = 0
    for m in TOKEN.finditer(code):
        line += code.count("\n", pos, m.start())
        pos = m.start()
        yield m.group(0), line


def functions(code):
    """[(name, static, name's line, brace line, last line)] of the functions defined at file level."""
    toks = list(tokens(strip_preproc(code)))
    found, depth, decl, i = [], 0, [], 0
    while i < len(toks):
        t, ln = toks[i]
        if depth == 0 and t == "{":
            # a definition: ... NAME ( ... ) {   with no '=' in the declaration
            names = [x for x, _ in decl]
            if names and names[-1] == ")" and "=" not in names:
                d, j = 0, len(decl) - 1
                while j >= 0:
                    if decl[j][0] == ")":
                        d += 1
                    elif decl[j][0] == "(":
                        d -= 1
                        if d == 0:
                            break
                    j -= 1
                if j > 0 and re.match(r"[A-Za-z_]\w*$", decl[j - 1][0]):
                    name = decl[j - 1][0]
                    d, k = 0, i
                    while k < len(toks):
                        if toks[k][0] == "{":
                            d += 1
                        elif toks[k][0] == "}":
                            d -= 1
                            if d == 0:
                                break
                        k += 1
                    end = toks[min(k, len(toks) - 1)][1]
                    found.append((name, "static" in names, decl[j - 1][1], ln, end))
                    i, decl = k + 1, []
                    continue
            depth += 1
        elif t == "{":
            depth += 1
        elif t == "}":
            depth -= 1
            if depth == 0:
                decl = []
        elif depth == 0 and t == ";":
            decl = []
        elif depth == 0:
            decl.append((t, ln))
        i += 1
    return found


def idents(code):
    return set(re.findall(r"\b[A-Za-z_]\w*\b", code))


src_c = sorted(glob.glob("src/*.c") + glob.glob("src/*/*.c"))
src_all = sorted(src_c + glob.glob("src/*/*.h"))
text = {f: open(f, encoding="utf-8", errors="replace").read() for f in src_all}
code = {f: strip_code(text[f]) for f in src_all}
defs = {}          # name -> file, non-static functions of src/*.c
funcs = {}         # file -> functions()
for f in src_c:
    funcs[f] = functions(code[f])
    for name, static, _, _, _ in funcs[f]:
        if not static:
            defs.setdefault(name, f)
refs = {f: idents(code[f]) for f in src_c}
# A header calls what its static inline functions and macros call: for the externs check, the
# header stands for every file that includes it (its declarations are not calls).
for h in sorted(glob.glob("src/*/*.h") + glob.glob("include/profana/*.h")):
    hc = strip_code(open(h, encoding="utf-8", errors="replace").read())
    lines = hc.split("\n")
    body = [l for l in lines if l.lstrip().startswith("#define")]
    for _, _, first, _, end in functions(hc):
        body += lines[first - 1:end]
    refs[h] = idents("\n".join(body))
    # an X-macro list (PF_FORMULA(ID, pf_fn, word) lines): each line names a function that the
    # files expanding the list (the registry) call
    if "X-macro" in hc or "PF_FORMULA(" in hc:
        refs[h] |= idents("\n".join(l for l in lines if not l.lstrip().startswith("#define")))
folder = {f: os.path.dirname(f) for f in src_c}

# ---- a. no call circle among the files of one folder ----
edges = {f: set() for f in src_c}
for f in src_c:
    own = {n for n, _, _, _, _ in funcs[f]}
    for name in refs[f] - own:
        g = defs.get(name)
        if g and g != f and folder[g] == folder[f]:
            edges[f].add(g)


def find_cycle(nodes):
    state, path = {}, []

    def visit(f):
        state[f] = 1
        path.append(f)
        for g in sorted(edges[f]):
            if state.get(g) == 1:
                return path[path.index(g):] + [g]
            if g not in state:
                c = visit(g)
                if c:
                    return c
        path.pop()
        state[f] = 2
        return None

    for f in nodes:
        if f not in state:
            c = visit(f)
            if c:
                return c
    return None


n_edges = sum(len(e) for e in edges.values())
if n_edges >= 50:
    ok("circles: the call graph was read (%d edges between files of one folder)" % n_edges)
else:
    bad("circles: the call graph was read", "only %d edges" % n_edges)
for d in sorted(set(folder.values())):
    nodes = [f for f in src_c if folder[f] == d]
    c = find_cycle(nodes)
    if c:
        why = []
        for a, b in zip(c, c[1:]):
            called = sorted(n for n in refs[a] if defs.get(n) == b)
            why.append("%s -> %s (%s)" % (os.path.basename(a), os.path.basename(b), ", ".join(called[:3])))
        bad("circles: no call circle among the files of %s/" % d, "; ".join(why))
    else:
        ok("circles: no call circle among the files of %s/ (%d files)" % (d, len(nodes)))

# ---- b. file length ----
for f, (cap, why) in sorted(FILE_ALLOW.items()):
    if not os.path.exists(f):
        bad("length: the allowlisted %s exists" % f, "remove its entry from tests/cli/structure.py")
for f in src_all:
    n = text[f].count("\n")
    if f in FILE_ALLOW:
        cap = FILE_ALLOW[f][0]
        if n > cap:
            bad("length: %s at most %d lines (allowlisted: one job)" % (f, cap), "%d lines" % n)
        elif n <= FILE_CAP:
            bad("length: %s needs its allowlist entry" % f, "%d lines, within %d: remove the entry" % (n, FILE_CAP))
    elif n > FILE_CAP:
        bad("length: %s at most %d lines" % (f, FILE_CAP), "%d lines; split it by its jobs, or, one job, "
            "allowlist it with the reason in tests/cli/structure.py" % n)
ok("length: %d files of src/ read against %d lines (%d allowlisted)" % (len(src_all), FILE_CAP, len(FILE_ALLOW)))

# ---- c. function length ----
over_note = []
n_funcs = 0
for f in src_c:
    for name, _, first, _, end in funcs[f]:
        n_funcs += 1
        n = end - first + 1
        if n > FUNC_CAP:
            bad("length: %s in %s at most %d lines" % (name, f, FUNC_CAP), "%d lines" % n)
        if n > FUNC_NOTE:
            over_note.append((n, name, f))
if n_funcs >= 1000:
    ok("length: %d functions read against %d lines" % (n_funcs, FUNC_CAP))
else:
    bad("length: the functions were read", "only %d" % n_funcs)
info("%d functions over %d lines (not a failure; the longest first):" % (len(over_note), FUNC_NOTE))
for n, name, f in sorted(over_note, reverse=True):
    info("  %4d %s (%s)" % (n, name, f))

# ---- d. every .c of src/ in docs/HACKING.md's file map ----
def file_map():
    """The .c files the "Where things are" section's map names: a list item (or table row)
    starting with a path in backticks (`src/x/y.c`), or a bare name (`y.c`) under the last
    folder named before it (`src/x/`) in the section."""
    named, here, on = set(), None, False
    for line in open("docs/HACKING.md", encoding="utf-8"):
        if line.startswith("#"):
            on = line.strip("# \n") == "Where things are" or (on and line.startswith("###"))
            if not on:
                continue
        if not on:
            continue
        item = line.startswith("- ") or line.startswith("|")   # a list item or a table row
        for m in re.finditer(r"`([^`]+)`", line):
            t = m.group(1)
            if re.match(r"src/\w+/$", t):
                here = t
            elif item and re.match(r"src/[\w/]+\.c$", t):
                named.add(t)
            elif item and re.match(r"\w+\.c$", t) and here:
                named.add(here + t)
                break   # a line names one file: the one it starts with
    return named


named = file_map()
missing = [f for f in src_c if f not in named]
if missing:
    for f in missing:
        bad("map: %s in docs/HACKING.md's file map" % f, "add one line: the file and its job, under its folder")
else:
    ok("map: all %d .c files of src/ in docs/HACKING.md's file map" % len(src_c))
stale = sorted(f for f in named if f not in src_c)
if stale:
    bad("map: every .c of docs/HACKING.md's file map exists", ", ".join(stale))
else:
    ok("map: every .c of docs/HACKING.md's file map exists")


# ---- e. every docs pointer resolves ----
def slug(heading):
    h = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return h.replace(" ", "-")


def norm(s):
    return " ".join(s.replace("`", "").lower().split())


headings_of = {}


def headings(doc):
    if doc not in headings_of:
        hs, fence = [], False
        for line in open(doc, encoding="utf-8"):
            if line.startswith("```"):
                fence = not fence
            elif not fence:
                m = re.match(r"^#+ (.*)", line)
                if m:
                    hs.append(m.group(1).strip())
        headings_of[doc] = hs
    return headings_of[doc]


def section_ok(doc, section):
    """A section named by its heading's text, or the text's first words (case, backticks aside)."""
    s = norm(section)
    for h in headings(doc):
        h = norm(h)
        if h == s or (h.startswith(s) and not h[len(s)].isalnum()):
            return True
    return False


DOC = r"(?<![\w/.-])(README(?:\.md)?|docs/[\w-]+\.md)"
# NAME#anchor; NAME, "Section" / NAME "Section" (may run over a comment's lines);
# NAME: Section (to a ')', ';', '"', '*/' or the line's end)
P_ANCHOR = re.compile(DOC + r"#([\w-]+)")
P_QUOTED = re.compile(DOC + r',?\s+"([^"\\]+)"')
P_COLON = re.compile(DOC + r":[ \t]+([^);\"*\n]+?)[ \t]*(?:[);\"\n]|\*/|\.?$|\.\s)", re.M)
P_BARE = re.compile(r"(?<![\w/.])" + r"(docs/[\w-]+\.md)\b")

# The code's comments and strings: src/, include/ and the Makefile (the tests' prose is not read:
# their check names quote the docs' examples after a colon).
scan = sorted(src_all + glob.glob("include/profana/*.h") + ["Makefile"])
n_ptr = 0
dangling = []
for f in scan:
    raw = open(f, encoding="utf-8", errors="replace").read()
    # a comment's lines joined, for a quoted section that runs onto the next line
    joined = re.sub(r"\n[ \t]*(?:\*(?!/)|#|//)?[ \t]*", " ", raw)
    found = []
    for m in P_ANCHOR.finditer(raw):
        doc = "README.md" if m.group(1).startswith("README") else m.group(1)
        found.append((doc, "#" + m.group(2), raw.count("\n", 0, m.start()) + 1))
    for m in P_QUOTED.finditer(joined):
        doc = "README.md" if m.group(1).startswith("README") else m.group(1)
        found.append((doc, m.group(2), None))
    for m in P_COLON.finditer(raw):
        doc = "README.md" if m.group(1).startswith("README") else m.group(1)
        found.append((doc, m.group(2).rstrip(" .,"), raw.count("\n", 0, m.start()) + 1))
    for m in P_BARE.finditer(raw):
        found.append((m.group(1), None, raw.count("\n", 0, m.start()) + 1))
    for doc, sec, ln in found:
        n_ptr += 1
        where = "%s:%s" % (f, ln) if ln else f
        if not os.path.exists(doc):
            dangling.append("%s names %s, which does not exist" % (where, doc))
        elif sec is None:
            pass
        elif sec.startswith("#"):
            if sec[1:] not in {slug(h) for h in headings(doc)}:
                dangling.append("%s: %s%s has no such heading" % (where, doc, sec))
        elif not section_ok(doc, sec):
            dangling.append('%s: %s has no section "%s"' % (where, doc, sec))
if dangling:
    for d in dangling:
        bad("pointers: every docs pointer names a section that exists", d)
else:
    ok("pointers: all %d docs pointers of the code resolve" % n_ptr)
if n_ptr < 50:
    bad("pointers: the pointers were read", "only %d" % n_ptr)

# ---- f. no extern function without a caller outside its file ----
# A unit, fuzz or bench program counts as a caller: a function a test calls through its header
# is an interface with a contract the test holds it to (it cannot be static). Those called only
# by tests are listed as information.
test_refs = {}
for d in TEST_DIRS:
    for t in sorted(glob.glob(d + "/*.c")):
        test_refs[t] = idents(strip_code(open(t, encoding="utf-8", errors="replace").read()))
only_tests = []
n_ext = 0
for name, f in sorted(defs.items(), key=lambda x: (x[1], x[0])):
    if name == "main":
        continue
    n_ext += 1
    outside = [g for g in refs if g != f and name in refs[g]]
    if outside:
        continue
    tests = [t for t in test_refs if name in test_refs[t]]
    if tests:
        only_tests.append("%s (%s; %s)" % (name, f, ", ".join(os.path.basename(t) for t in tests[:2])))
    else:
        bad("externs: %s (%s) has a caller outside its file" % (name, f), "none in src/ or tests/: make it static")
ok("externs: %d extern functions of src/ checked for a caller outside their file" % n_ext)
info("%d externs called outside their file only by tests (allowed):" % len(only_tests))
for s in only_tests:
    info("  " + s)

sys.exit(1 if fails else 0)
