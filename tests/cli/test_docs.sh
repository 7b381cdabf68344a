# test_docs.sh - the documentation cites only what ships and shows only what runs: every relative link (and its #anchor) of README.md, docs/*.md and testdata/**/README.md resolves; every repo file name they, `--help`, `--man` and `--list-devices` cite exists in the tree; every example command of README.md (and each `$ profana` example of docs/*.md on testdata/) runs on tracked files alone, as on a fresh clone, and prints the lines it shows; `--help` fits 80 columns.
. tests/cli/lib.sh

# ---- what the binary cites ----
"$PROFANA" --help >"$TMP/help.txt" 2>&1
"$PROFANA" --man >"$TMP/man.txt" 2>&1
"$PROFANA" --list-devices >"$TMP/devices.txt" 2>&1
"$PROFANA" --list-devices --format csv >>"$TMP/devices.txt" 2>&1

check_eq "--help: no line over 79 characters" "$(awk 'length($0) > 79' "$TMP/help.txt")" ""
check_eq "--help: no trailing space" "$(grep -n ' $' "$TMP/help.txt")" ""
# an option whose name fills its column has its help on the next line, at the column
check_eq "--help: every option's help starts at column 34" \
    "$(awk '/^Options:/ { on = 1; next } on && /^$/ { exit } on && /^  -[^ ]*( [^ ]+)?  +[^ ]/ && (substr($0, 33, 1) != " " || substr($0, 34, 1) == " ") { print }' "$TMP/help.txt")" ""

# The repository's files as a fresh clone has them: git's index when there is one, else the tree.
if git ls-files >"$TMP/tracked" 2>/dev/null && [ -s "$TMP/tracked" ]; then
    # files added in this worktree but not committed yet count too (git add -N is not needed)
    git ls-files --others --exclude-standard >>"$TMP/tracked"
else
    find . -type f ! -path './.git/*' | sed 's|^\./||' >"$TMP/tracked"
fi

python3 - "$TMP" <<'PY'
import glob, os, re, sys
tmp = sys.argv[1]
tracked = set(l.rstrip("\n") for l in open(tmp + "/tracked"))
dirs = set()
for f in tracked:
    p = f
    while "/" in p:
        p = p.rsplit("/", 1)[0]
        dirs.add(p)
basenames = set(os.path.basename(f) for f in tracked)
top = set(f.split("/", 1)[0] for f in tracked)
fails = []
checked = {"link": 0, "anchor": 0, "file": 0}

def ok(name):
    print("PASS " + name)

def bad(name, why):
    fails.append(name)
    print("FAIL %s (%s)" % (name, why))

def exists(path):
    """A path of the tree (file or folder), '..' and '.' resolved; * and ? as in a shell."""
    path = os.path.normpath(path)
    if path.startswith(".."):
        return False
    if any(c in path for c in "*?"):
        rx = re.compile("^" + re.escape(path).replace(r"\*", "[^/]*").replace(r"\?", "[^/]") + "$")
        return any(rx.match(f) for f in tracked | dirs)
    return path in tracked or path in dirs or path == "."

def slug(heading):
    h = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return h.replace(" ", "-")

def anchors(path):
    out, fence = set(), False
    for line in open(path, encoding="utf-8"):
        if line.startswith("```"):
            fence = not fence
        elif not fence:
            m = re.match(r"^#+ (.*)", line)
            if m:
                out.add(slug(m.group(1)))
    return out

docs = ["README.md"] + sorted(glob.glob("docs/*.md")) + sorted(glob.glob("testdata/**/README.md", recursive=True))
docs = [d for d in docs if not d.startswith("docs/_incoming/")]

# 1. every relative link and its anchor
for doc in docs:
    text = open(doc, encoding="utf-8").read()
    here = os.path.dirname(doc)
    for m in re.finditer(r"\]\(([^)\s]+)\)", text):
        target = m.group(1)
        if re.match(r"^[a-z]+:", target):
            continue
        path, _, anchor = target.partition("#")
        dest = os.path.normpath(os.path.join(here, path)) if path else doc
        checked["link"] += 1
        if not exists(dest):
            bad("%s: link %s" % (doc, target), "no such file in the tree")
            continue
        if anchor:
            checked["anchor"] += 1
            if not dest.endswith(".md") or anchor not in anchors(dest):
                bad("%s: link %s" % (doc, target), "no heading with anchor #%s in %s" % (anchor, dest))

# 2. every repo file name cited, in the docs and in what the binary prints
URL = re.compile(r"(https?://\S+|\b[\w.-]+\.(com|org|io|net|ai|co|hu|jp|se|blog)/\S*|github\.com/\S+)")
# a path of another project, cited beside its repository's address
FOREIGN = re.compile(r"^[`\s]*(in|of) (https?://|the )")
PATH = re.compile(r"(?<![\w./$-])((?:\.\./)*[A-Za-z0-9_.*?-]+(?:/[A-Za-z0-9_.*?-]+)+/?|[A-Za-z0-9_*-]+\.(?:md|c|h|sh|py))(?![\w/-])")
sources = [(d, open(d, encoding="utf-8").read()) for d in docs]
sources += [("--help", open(tmp + "/help.txt").read()), ("--man", open(tmp + "/man.txt").read()),
            ("--list-devices", open(tmp + "/devices.txt").read())]
for name, text in sources:
    here = os.path.dirname(name) if name.endswith(".md") else ""
    for line in text.splitlines():
        # a link to another site: its text names that site's file (nccl-tests' PERFORMANCE.md)
        line = re.sub(r"\[[^\]]*\]\([a-z]+://[^)]*\)", " ", line)
        urls = [u.span() for u in URL.finditer(line)]
        for m in PATH.finditer(line):
            tok = m.group(1).rstrip(".")
            if any(a <= m.start() < b for a, b in urls) or FOREIGN.match(line[m.end():]):
                continue
            if "/" not in tok:
                # a bare file name of ours: some file of the tree has it
                if tok.endswith((".md", ".c", ".h")) or tok.startswith("test_"):
                    checked["file"] += 1
                    if not (tok in basenames or any(exists(d + "/" + tok) for d in dirs if "*" in tok)):
                        if not ("*" in tok and any(re.match("^" + re.escape(tok).replace(r"\*", ".*") + "$", b) for b in basenames)):
                            bad("%s cites %s" % (name, tok), "no file of that name in the tree")
                continue
            first = tok.split("/", 1)[0]
            if first == "..":
                if tok.startswith("../shared"):
                    # ../shared (beside the checkout) holds the optional public traces some tests
                    # add; a clone lacks it. Said of tests and sources, never needed by an
                    # example (checked below).
                    continue
                rel = os.path.normpath(os.path.join(here, tok))
                checked["file"] += 1
                if not exists(rel):
                    bad("%s cites %s" % (name, tok), "no such path in the tree (from %s)" % (here or "."))
                continue
            if first in top or (here and first in set(os.listdir(here))):
                checked["file"] += 1
                cand = [tok, os.path.join(here, tok)] if here else [tok]
                if not any(exists(c) for c in cand):
                    bad("%s cites %s" % (name, tok), "no such path in the tree")
            elif here and here != "docs" and not first.startswith(("$", "/")) and tok.endswith((".py", ".sh", ".md")):
                checked["file"] += 1
                if not exists(os.path.join(here, tok)):
                    bad("%s cites %s" % (name, tok), "no such path in the tree")
print(("PASS" if checked["link"] >= 50 else "FAIL") + " docs: %d relative links and %d anchors checked" % (checked["link"], checked["anchor"]))
print(("PASS" if checked["file"] >= 200 else "FAIL") + " docs: %d cited file names checked" % checked["file"])
if not fails:
    ok("docs: every link, anchor and cited file exists")
PY

# ---- the examples: README.md's commands, and docs/*.md's `$ profana` examples on testdata/ ----
python3 - "$TMP/examples" <<'PY'
import glob, re, sys
out = open(sys.argv[1], "w")
def blocks(doc):
    text = open(doc, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(text):
        m = re.match(r"^```(\S*)$", text[i])
        if m:
            j = i + 1
            while j < len(text) and not text[j].startswith("```"):
                j += 1
            yield m.group(1), text[i + 1:j]
            i = j
        i += 1
n = 0
for doc in ["README.md"] + sorted(glob.glob("docs/*.md")):
    for info, lines in blocks(doc):
        if info == "usage":
            continue
        for k, line in enumerate(lines):
            cmd = None
            if doc == "README.md":
                # a command, not a message (profana: error: ...)
                m = re.match(r"^(?:\$ )?(\./profana|profana|make demo)((?: -[^#]*)?)\s*(?:#.*)?$", line)
            else:
                m = re.match(r"^\$ (profana)\b(.*)$", line)
                if m and "testdata/" not in m.group(2):
                    m = None  # an example on files the reader makes (traces/rank0.json.gz): its own test runs it
            if not m:
                continue
            cmd = (m.group(1) + m.group(2)).split("#")[0].rstrip()
            shown = []
            if line.startswith("$ "):
                for s in lines[k + 1:]:
                    if s.startswith("$ "):
                        break
                    if s.strip() != "...":
                        shown.append(s)
            n += 1
            out.write("%s\t%s\t%s\n" % (doc, cmd, "\x1f".join(shown)))
out.close()
print(("PASS" if n >= 6 else "FAIL") + " docs: %d example commands found" % n)
PY
i=0
while IFS="$(printf '\t')" read -r doc cmd shown <&3; do
    i=$((i + 1))
    if [ "$cmd" = "make demo" ]; then
        # make demo's own command line, from the Makefile's recipe (make -n would still run the
        # recursive make that builds): $(DEMO_TRACE) replaced by its value
        trace=$(sed -n 's/^DEMO_TRACE *= *//p' Makefile)
        cmd=$(awk '/^demo:/ { on = 1; next } on && !/^\t/ { exit } on && /^\t\.\/profana / { sub(/^\t/, ""); print }' Makefile |
            sed "s|\$(DEMO_TRACE)|$trace|g" | head -n 1)
        [ -n "$cmd" ] || { fail "example $i: make demo" "make -n demo shows no ./profana command"; continue; }
    fi
    args=${cmd#* }
    # a fresh clone: every file the command reads is tracked (or untracked but not ignored)
    missing=""
    for a in $args; do
        case $a in
        *.json|*.json.gz|*/*)
            [ -e "$a" ] || continue # an output the example writes (roofline.svg) or a name it makes
            p=${a%/}
            grep -qx -- "$p" "$TMP/tracked" || grep -q -- "^$p/" "$TMP/tracked" || missing="$missing $a"
            ;;
        esac
        case $a in ../*) missing="$missing $a" ;; esac
    done
    check_eq "example $i ($doc): reads only files of the tree: $cmd" "$missing" ""
    # at the width the README examples are shown at (120); run from the tree's root (under valgrind the binary's path is relative to it), the files
    # it writes (the charts' .svg, the report's .html) moved into a scratch folder
    ex=$TMP/ex$i
    mkdir -p "$ex"
    run_args=""
    for a in $args; do
        case $a in *.svg | *.html) a=$ex/$a ;; esac
        run_args="$run_args $a"
    done
    # shellcheck disable=SC2086
    COLUMNS=120 "$PROFANA" $run_args >"$TMP/ex.out" 2>"$TMP/ex.err"
    st=$?
    check_eq "example $i ($doc): exits 0: $cmd" "$st" 0
    [ -s "$TMP/ex.out" ] || [ -n "$(ls "$ex")" ] || fail "example $i ($doc): prints or writes something" "nothing"
    for a in $args; do
        case $a in *.svg | *.html) check_eq "example $i: writes $a" "$(test -s "$ex/$a" && echo yes)" yes ;; esac
    done
    if [ -n "$shown" ]; then
        cat "$TMP/ex.out" "$TMP/ex.err" >"$TMP/ex.all"
        printf '%s' "$shown" | tr '\037' '\n' >"$TMP/ex.shown"
        echo >>"$TMP/ex.shown"
        nmiss=$(grep -c -v -x -F -f "$TMP/ex.all" "$TMP/ex.shown")
        check_eq "example $i ($doc): each line it shows is printed ($(wc -l <"$TMP/ex.shown" | tr -d ' ') lines)" \
            "$nmiss" 0
    fi
done 3<"$TMP/examples"
