# test_hidden.sh - columns a width leaves out are named (issue 47): a sweep over 60, 80, 100 and 120 columns of every command (--analysis with each --group, --waits, --steps, --by-category; --diff; --ranks; --list-devices) on bundled and TraceLens traces (every one with PF_SWEEP_ALL): no line over the width, under every table a "Hidden at W columns" line exactly when a column of the --wide table is missing, naming those columns; the --analysis rows table keeps its columns by a fixed priority; --diff keeps both totals and B/A whenever it shows a count; --steps --format csv without steps prints its header; --group shape keys show every tensor they show with the dims the trace records.
# check: optimised
. tests/cli/lib.sh

python3 - "$PROFANA" $PEER_TRACES <<'PY'
import os, re, subprocess, sys
from concurrent.futures import ThreadPoolExecutor
sys.path.insert(0, "tests/cli")
from raw import check

prof, peer = sys.argv[1], sys.argv[2:]
ALL = bool(peer)  # PF_SWEEP_ALL (make check-full): every bundled and public trace
T = "testdata/traces/"
GROUPS = ["kernel", "op", "shape", "module", "annotation", "sequence", "critical-path"]


def every_command(t):
    return [("%s --group %s" % (t, g), ["--analysis", t, "bf16", "--top", "8", "--group", g]) for g in GROUPS] + [
        (t + " --waits", ["--analysis", t, "bf16", "--top", "5", "--waits"]),
        (t + " --steps", ["--analysis", t, "bf16", "--steps"]),
        (t + " --by-category", ["--analysis", t, "bf16", "--top", "5", "--by-category"])]


def rows_groups(t):
    return [("%s --group %s" % (t, g), ["--analysis", t, "bf16", "--top", "8", "--group", g])
            for g in ("kernel", "op", "shape")] + [(t + " --steps", ["--analysis", t, "bf16", "--steps"])]


RUNS = every_command(T + "eager_bf16.json") + every_command("testdata/public/mi300_resnet_convs.json.gz")
for t in (T + "compiled_bf16_b8.json", T + "steps_bf16.json", T + "cnn_fp32.json", "testdata/diagnosis/launch_bound.json.gz"):
    RUNS += rows_groups(t)
RUNS += [
    ("diff bf16/fp16", ["--diff", T + "eager_bf16.json", "a", T + "eager_fp16.json", "b", "bf16", "--top", "5"]),
    ("diff b8/b16 op", ["--diff", T + "compiled_pair_b8.json", "b8", T + "compiled_pair_b16.json", "b16", "bf16",
                        "--top", "5", "--group", "op"]),
    ("diff b8/b16 shape", ["--diff", T + "compiled_pair_b8.json", "b8", T + "compiled_pair_b16.json", "b16", "bf16",
                           "--top", "5", "--group", "shape"]),
    ("ranks fsdp2", ["--ranks", "testdata/multirank/fsdp2_bf16_rank0.json.gz",
                     "testdata/multirank/fsdp2_bf16_rank1.json.gz", "bf16"]),
    ("list-devices", ["--list-devices"]),
]
if ALL:
    done = {r[1][1] for r in RUNS if r[1][0] == "--analysis"}
    more = sorted(os.path.join(d, f) for d in (T, "testdata/diagnosis/", "../shared/testdata/public/tracelens/")
                  if os.path.isdir(d) for f in os.listdir(d) if f.endswith((".json", ".json.gz")))
    for t in more + peer:
        if t not in done:
            RUNS += every_command(t)
    RUNS += [("diff h100/mi300 " + g, ["--diff", peer[0], "h100", peer[1], "mi300", "bf16", "--top", "5", "--group", g])
             for g in ("kernel", "op")]
    RUNS.append(("ranks tp", ["--ranks", "testdata/multirank/tp_collectives_bf16_rank0.json.gz",
                              "testdata/multirank/tp_collectives_bf16_rank1.json.gz", "bf16"]))

# the rows table's columns by priority (docs/analysis.md): a narrower width leaves out the last ones first
PRIORITY = ["Total (us)", "Time %", "FLOPS %", "BW %", "FLOPS % ach", "BW % ach", "Source", "TFLOP/s", "GB/s", "Count",
            "Launches", "CPU Total (us)", "Self CPU (us)", "Calls", "Bound", "Mean (us)", "Category", "GFLOP", "GB"]
PRIORITY_OP = ["Total (us)", "Count"] + [c for c in PRIORITY if c not in ("Total (us)", "Count")]


def run(args, width=None):
    env = dict(os.environ)
    env.pop("COLUMNS", None)
    if width:
        env["COLUMNS"] = str(width)
    return subprocess.run([prof, *args, "--quiet"] + ([] if width else ["--wide"]), capture_output=True,
                          text=True, env=env).stdout


def tables(out):
    """Each table: its header cells, its rows (a wrapped key's second line passed over), and the columns its
    "Hidden at W columns: ...; --wide shows every column." line names (between its header and the next
    table's, unwrapped), or None."""
    lines = out.split("\n")
    # a header over its rule (a table of no rows may show its name column alone)
    heads = [i for i in range(len(lines) - 1) if re.fullmatch(r"-{5,}", lines[i + 1]) and lines[i].strip()
             and not lines[i].startswith("-")]
    res = []
    for n, i in enumerate(heads):
        end = heads[n + 1] if n + 1 < len(heads) else len(lines)
        rows = []
        for l in lines[i + 2:end]:
            if " | " in l:
                rows.append([c.strip() for c in l.split(" | ")])
            elif not l.startswith("  "):
                break
        text = re.sub(r"\n  ", " ", "\n".join(lines[i + 2:end]))
        m = re.search(r"^Hidden at (\d+) columns: (.*); --wide shows every column\.$", text, re.M)
        res.append(([c.strip() for c in lines[i].split(" | ")], rows, m and (int(m.group(1)), m.group(2).split(", "))))
    return res


def sweep(item):
    name, args = item
    wide, out = tables(run(args)), []
    for width in (60, 80, 100, 120):
        text = run(args, width)
        long = [l for l in text.split("\n") if len(l) > width]
        out.append((name, "%d columns: no line over the width" % width, not long, long[:1]))
        got = tables(text)
        out.append((name, "%d columns: the tables of --wide (%d)" % (width, len(wide)), len(got) == len(wide),
                    [t[0][:2] for t in got]))
        for k, ((wh, wr, _), (gh, gr, hid)) in enumerate(zip(wide, got)):
            # a column of no values ('-' in every row) is passed over, not hidden
            empty = {h for c, h in enumerate(wh) if all(len(r) > c and r[c] == "-" for r in wr)}  # no rows: all
            missing = [c for c in wh[1:] if c not in gh[1:] and c not in empty]
            named = hid[1] if hid else []
            out.append((name, "%d columns: table %d (%s): a Hidden line exactly when a column is left out, naming "
                        "them (%d left out)" % (width, k, wh[0], len(missing)),
                        sorted(named) == sorted(missing) and (not hid or hid[0] == width), (missing, hid)))
            if k == 0 and args[0] == "--analysis" and "--steps" not in args and wh[0] in (
                    "Kernel Name", "Op", "Op (input shapes)"):
                order = [c for c in (PRIORITY_OP if wh[0] == "Op" else PRIORITY) if c in wh and c not in empty]
                shown = [c for c in order if c in gh]
                out.append((name, "%d columns: the rows table keeps its columns by priority (%d of %d)"
                            % (width, len(shown), len(order)), shown == order[:len(shown)], (shown, order)))
            if k == 0 and args[0] == "--diff":
                counts = [c for c in gh if c.endswith(" Count")]
                totals = [c for c in gh if c.endswith(" Total (us)")]
                out.append((name, "%d columns: a count shown only beside both totals and B/A" % width,
                            not counts or (len(totals) == 2 and "B/A" in gh), gh))
    return out


with ThreadPoolExecutor(4) as pool:
    for results in pool.map(sweep, RUNS):
        for r in results:
            check(*r)
PY

# --group shape keys (issue 47: 27 of 40 keys at 100 columns lost dimensions on a cuDNN attention trace):
# every tensor a fitted key shows ("[dims]dtype", or "Nx[dims]dtype" for N equal ones in a row) is one
# the trace records whole: its dims one of the raw events' "Input Dims" lists. At 60 columns the name
# column may be too narrow for one tensor, so 80, 100 and 120 are held to it.
python3 - "$PROFANA" <<'PY'
import os, re, subprocess, sys
sys.path.insert(0, "tests/cli")
from raw import check, load

prof = sys.argv[1]


def dims_text(v):
    return "[" + ",".join(dims_text(x) if isinstance(x, list) else str(x) for x in v) + "]"


for trace in ("testdata/traces/eager_bf16.json", "testdata/traces/compiled_bf16_b8.json"):
    recorded = set()
    for e in load(trace):
        for d in (e.get("args") or {}).get("Input Dims") or []:
            if isinstance(d, list):
                recorded.add(dims_text(d))
    for width in (80, 100, 120):
        env = dict(os.environ, COLUMNS=str(width))
        out = subprocess.run([prof, "--analysis", trace, "bf16", "--quiet", "--group", "shape", "--top", "40"],
                             capture_output=True, text=True, env=env).stdout.split("\n")
        head = next(i for i, l in enumerate(out) if l.startswith("Op (input shapes)"))
        keys = []
        for l in out[head + 2:]:
            if l.startswith("Total") or not l.strip():
                break
            name = l.split(" | ")[0].rstrip()  # a key's second line stands alone
            if name.startswith("  ") and keys:
                keys[-1] += name.strip()
            else:
                keys.append(name)
        lost = []
        for k in keys:
            # a tensor: dims, then a type name; one the trace records is taken out, and so are
            # tensor lists ("list[N]TensorList") and int or bool lists ("[1024]", "[True, True]",
            # followed by ',' or ')'): a bracket left over is a tensor cut inside its dims
            rest = re.sub(r"(?:\d+x)?(\[[-0-9, ]*\])(?=[a-zA-Z])",
                          lambda m: "" if m.group(1).replace(" ", "") in recorded else m.group(0), k)
            rest = re.sub(r"list\[\d+\]TensorList", "", rest)
            rest = re.sub(r"\[[-0-9a-zA-Z, ]*\](?=[,)]|$)", "", rest)
            if "[" in rest or "]" in rest:
                lost.append(k)
        check(trace, "--group shape at %d columns: every tensor shown has the dims the trace records (%d keys)"
              % (width, len(keys)), not lost and len(keys) == 40, lost[:2])
PY

# --steps at the sweep's widths (issue 47: a 100-character line at 80 columns on a trace without steps),
# and --steps --format csv on such a trace: its header alone on stdout, the sentence on stderr. The
# trace's lack of steps from the raw events.
nsteps=$(python3 -c '
import sys
sys.path.insert(0, "tests/cli")
from raw import load
print(sum(1 for e in load(sys.argv[1]) if str(e.get("name", "")).startswith("ProfilerStep#")))' "$TRACES/eager_bf16.json")
check_eq "eager_bf16.json: no ProfilerStep event in the raw events" "$nsteps" 0
for w in 60 80 100 120; do
    for f in eager_bf16 steps_bf16; do
        COLUMNS=$w "$PROFANA" --analysis "$TRACES/$f.json" bf16 --quiet --steps >"$TMP/s" 2>&1
        check_eq "--steps $f at $w columns: no line over the width" "$(awk -v w=$w 'length > w' "$TMP/s" | head -n 1)" ""
    done
done
"$PROFANA" --analysis "$TRACES/eager_bf16.json" bf16 --quiet --steps --format csv >"$TMP/c" 2>"$TMP/e"
check_eq "--steps --format csv without steps: the header alone" "$(cat "$TMP/c")" \
    "$("$PROFANA" --analysis "$TRACES/steps_bf16.json" bf16 --quiet --steps --format csv | head -n 1)"
check_grep "--steps --format csv without steps: the sentence on stderr" '^No ProfilerStep annotations' "$TMP/e"
