# test_wheel.sh - the wheel and the Python API (issue 46 items 1-3): make wheel with Python's standard library alone, installed into a fresh venv with pip --no-index (profana on PATH, import profana, cJSON carried, zlib linked in); analyze/diff/ranks rows equal the CLI's --format json rows, to_pandas, profana.Error with the binary's message and status, the torch.profiler handler with a stand-in profiler; README's "From Python" example.
. tests/cli/lib.sh
set -u

# The wheel, built from the optimised build's objects into $TMP (its binary too: two runs of
# this test at once must not write one file).
if ! make --no-print-directory -s WHEEL_DIR="$TMP/dist" WHEEL_BIN="$TMP/bin/profana" wheel >"$TMP/make.out" 2>&1; then
    fail "wheel: make wheel" "$(tail -3 "$TMP/make.out")"
    exit 0
fi
VERSION=$("$PROFANA" --version | awk '{ print $2 }')
PLAT=$(python3 -c 'import sysconfig; print(sysconfig.get_platform().replace("-", "_").replace(".", "_"))')
WHL=$TMP/dist/profana-$VERSION-py3-none-$PLAT.whl
check_eq "wheel: make wheel writes profana-VERSION-py3-none-PLATFORM.whl" "$(ls "$TMP/dist")" "$(basename "$WHL")"

# Its contents read back by Python's zipfile: the files a wheel needs, each RECORD hash and size
# recomputed, the binary executable.
python3 - "$WHL" "$VERSION" <<'PY' || fail "wheel: the contents' check ran to its end" "exited $? (its traceback above)"
import base64, hashlib, sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
di = "profana-%s.dist-info/" % sys.argv[2]
names = set(z.namelist())
for need in ["METADATA", "WHEEL", "RECORD", "entry_points.txt"]:
    print(("PASS" if di + need in names else "FAIL") + " wheel: holds %s" % need)
for need in ["profana/__init__.py", "profana/bin/profana", "profana/bin/libcjson.so.1"]:
    print(("PASS" if need in names else "FAIL") + " wheel: holds %s" % need)
rec = [l.split(",") for l in z.read(di + "RECORD").decode().splitlines()]
bad = [n for n, h, s in rec if n != di + "RECORD" and
       (h != "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(z.read(n)).digest()).rstrip(b"=").decode() or int(s) != len(z.read(n)))]
print(("PASS" if not bad and len(rec) == len(names) else "FAIL") + " wheel: RECORD lists every file with its sha256 and size %s" % bad)
mode = z.getinfo("profana/bin/profana").external_attr >> 16
print(("PASS" if mode & 0o111 else "FAIL") + " wheel: the binary is executable (%o)" % mode)
wh = z.read(di + "WHEEL").decode()
print(("PASS" if "Root-Is-Purelib: false" in wh and "Tag: py3-none-" in wh else "FAIL") + " wheel: WHEEL names its tag, not purelib")
PY

# A fresh venv (Debian's python3-venv; pip from python3-pip, seen through the system site), the
# wheel installed without an index.
V=$TMP/venv
python3 -m venv --system-site-packages --without-pip "$V" >"$TMP/venv.out" 2>&1 ||
    fail "wheel: python3 -m venv" "$(tail -1 "$TMP/venv.out") (apt-get install python3-venv)"
"$V/bin/python" -m pip install -q --no-index --disable-pip-version-check "$WHL" >"$TMP/pip.out" 2>&1
check_eq "wheel: pip install --no-index into a fresh venv" "$?" 0
check_eq "wheel: profana on the venv's PATH runs the carried binary" \
    "$(PATH="$V/bin:$PATH" profana --version 2>&1)" "$("$PROFANA" --version)"
INST=$("$V/bin/python" -c 'import os, profana; print(os.path.dirname(profana.__file__))')
case $INST in "$V"/*) pass "wheel: the package is the venv's" ;; *) fail "wheel: the package is the venv's" "$INST" ;; esac
check_eq "wheel: cJSON found beside the binary, not in the system" \
    "$(ldd "$INST/bin/profana" | awk '$1 == "libcjson.so.1" { print $3 }')" "$INST/bin/libcjson.so.1"
check_eq "wheel: zlib linked in (no libz.so needed)" "$(ldd "$INST/bin/profana" | grep -c 'libz\.so')" 0

# The CLI's documents, the oracle of the API's (the API only parses them).
E=$TRACES/eager_bf16.json
M=testdata/multirank
for g in kernel op shape; do
    "$PROFANA" --analysis "$E" bf16 --group $g --format json --quiet >"$TMP/cli_$g.json"
done
"$PROFANA" --analysis testdata/peer/owlv2_mi300.json.gz bf16 --format json --quiet >"$TMP/cli_mi300.json" 2>/dev/null
"$PROFANA" --diff "$E" bf16 $TRACES/eager_fp16.json fp16 bf16 --group shape --format json --quiet >"$TMP/cli_diff.json"
"$PROFANA" --ranks $M/tp_collectives_bf16_rank0.json.gz $M/tp_collectives_bf16_rank1.json.gz bf16 --format json >"$TMP/cli_ranks.json"
"$PROFANA" --analysis nosuch.json bf16 >/dev/null 2>"$TMP/err_missing"
echo "status $?" >>"$TMP/err_missing"
"$PROFANA" --analysis "$E" bf17 >/dev/null 2>"$TMP/err_dtype"
echo "status $?" >>"$TMP/err_dtype"
"$PROFANA" --analysis "$E" bf16 --name_limt 3 >/dev/null 2>"$TMP/err_opt"
echo "status $?" >>"$TMP/err_opt"
gzip -c "$E" >"$TMP/eager.json.gz"

# a block that stops on an exception would lose its checks silently: its exit status is a check
PROFANA_BINARY= "$V/bin/python" - "$TMP" "$INST" <<'PY' || fail "python: the API's checks ran to their end" "exited $? (its traceback above)"
import contextlib, gzip, io, json, os, shutil, sys
tmp, inst = sys.argv[1], sys.argv[2]
os.environ.pop("PROFANA_BINARY", None)
import profana
import pandas

def check(name, ok, why=""):
    print(("PASS" if ok else "FAIL") + " python: " + name + ("" if ok else " (%s)" % (why,)))

check("the binary run is the wheel's", profana.binary() == os.path.join(inst, "bin", "profana"), profana.binary())
E = "testdata/traces/eager_bf16.json"
for g in ["kernel", "op", "shape"]:
    cli = json.load(open(tmp + "/cli_%s.json" % g))
    r = profana.analyze(E, "bf16", group=g)
    check("--group %s: rows equal the CLI's" % g, r.rows() == cli["devices"][0]["rows"] and len(r.rows()) > 3)
    check("--group %s: rows(device=0) the same" % g, r.rows(device=0) == cli["devices"][0]["rows"])
    check("--group %s: the whole document equals the CLI's" % g, r.json == cli)
    check("--group %s: headline and findings" % g, r.headline == cli["devices"][0]["headline"] and
          r.findings == cli["devices"][0]["headline"]["findings"] and len(r.findings) >= 1)
# to_pandas: one row a data row (the Total apart, so a sum counts each once), the keys as columns
cli = json.load(open(tmp + "/cli_kernel.json"))
df = profana.analyze(E, "bf16").to_pandas()
rows = cli["devices"][0]["rows"]
check("to_pandas: a row per data row, device first", len(df) == len(rows) and list(df.columns)[0] == "device"
      and set(df["device"]) == {0}, (len(df), list(df.columns)[:3]))
check("to_pandas: every key a column", set(rows[0]) <= set(df.columns))
check("to_pandas: total_us sums to the Total row's (no row counted twice)",
      abs(df["total_us"].sum() - cli["devices"][0]["total"]["total_us"]) < 1e-6 * cli["devices"][0]["total"]["total_us"],
      (df["total_us"].sum(), cli["devices"][0]["total"]["total_us"]))
check("to_pandas: names in the CLI's order", list(df["name"]) == [x["name"] for x in rows])
cats = profana.analyze(E, "bf16").to_pandas("categories")
check("to_pandas('categories')", list(cats["category"]) == [c["category"] for c in cli["devices"][0]["categories"]])
# a trace whose device is not 0: rows(device=2), to_pandas' device column
mi = json.load(open(tmp + "/cli_mi300.json"))
r = profana.analyze("testdata/peer/owlv2_mi300.json.gz", "bf16")
ids = [d["id"] for d in mi["devices"]]
check("device ids other than 0: rows(device=ID)", all(r.rows(device=i) == d["rows"] for i, d in zip(ids, mi["devices"])), ids)
check("device ids other than 0: to_pandas' device column",
      list(r.to_pandas()["device"]) == [d["id"] for d in mi["devices"] for _ in d["rows"]])
try:
    r.rows(device=99)
    check("rows(device=99) of a trace without it: KeyError", False, "no error")
except KeyError:
    check("rows(device=99) of a trace without it: KeyError", True)
# diff and ranks
d = profana.diff(E, "testdata/traces/eager_fp16.json", "bf16", "bf16", "fp16", group="shape")
cli = json.load(open(tmp + "/cli_diff.json"))
check("diff: the document equals the CLI's", d.json == cli)
check("diff: rows(device=0) the first pair's", d.rows(device=0) == d.rows() == cli["devices"][0]["rows"])
cli = json.load(open(tmp + "/cli_ranks.json"))
M = "testdata/multirank/"
rk = profana.ranks([M + "tp_collectives_bf16_rank0.json.gz", M + "tp_collectives_bf16_rank1.json.gz"], "bf16")
check("ranks: rows() are the ranks table", rk.rows() == cli["ranks"] and len(cli["ranks"]) == 2)
check("ranks: to_pandas('collectives')", len(rk.to_pandas("collectives")) == len(cli["collectives"]))
check("ranks: the document equals the CLI's", rk.json == cli)
# errors: the binary's one line and status
for case, call in [("missing", lambda: profana.analyze("nosuch.json", "bf16")),
                   ("dtype", lambda: profana.analyze(E, "bf17")),
                   ("opt", lambda: profana.analyze(E, "bf16", name_limt=3))]:
    lines = open(tmp + "/err_" + case).read().splitlines()
    want, status = lines[0], int(lines[-1].split()[1])
    try:
        call()
        check("Error (%s)" % case, False, "no error")
    except profana.Error as e:
        check("Error (%s): the binary's line and status %d" % (case, status), e.message == want and str(e) == want
              and e.status == status and status in (1, 2), (e.message, e.status, want))
# options: True a flag, a list comma-joined, False and None left out
r = profana.analyze(E, "bf16", group="op", top=3, wide=False, columns=None)
check("options: top=3 keeps 3 rows, rows_omitted from the CLI", len(r.rows()) == 3 and r.device()["rows_omitted"] > 0)

# The handler with a stand-in for torch.profiler.profile: export_chrome_trace(path) writes a gzip trace.
class StandIn:
    def export_chrome_trace(self, path):
        assert path.endswith(".json.gz")
        shutil.copyfile(tmp + "/eager.json.gz", path)

h = profana.trace_handler(tmp + "/traces", "bf16", worker_name="rank0")
out = io.StringIO()
with contextlib.redirect_stdout(out):
    m = h(StandIn())
files = sorted(os.listdir(tmp + "/traces"))
check("handler: the trace, the document and the summary beside it", len(files) == 3 and
      files[0].startswith("rank0.") and [f.split(".pt.trace")[1] for f in files] == [".json.gz", ".profana.json", ".summary.json"], files)
doc = json.load(open(os.path.join(tmp, "traces", files[1])))
cli = json.load(open(tmp + "/cli_kernel.json"))
check("handler: the document is the analysis of the trace", doc["devices"] == cli["devices"] and doc["schema"] == "profana/1")
dev = cli["devices"][0]
hl = dev["headline"]
check("handler: prints the headline", out.getvalue().startswith("profana: rank0.") and
      ("busy %s%%" % hl["busy_pct"]) in out.getvalue() and hl["findings"][0]["kind"] in out.getvalue(), out.getvalue())
check("handler: returns the metrics it keeps", m == h.metrics and h.result.json["devices"] == cli["devices"])
check("handler: flat, every name profana/...", all(k.startswith("profana/") and not isinstance(v, (dict, list))
                                                   for k, v in m.items()))
want = {"profana/busy_pct": hl["busy_pct"], "profana/span_us": hl["span_us"], "profana/idle_pct": hl["idle_pct"],
        "profana/flops_pct": dev["total"]["flops_pct"], "profana/gpu_time_us": dev["total"]["total_us"],
        "profana/top_finding": hl["findings"][0]["kind"]}
check("handler: figures as the document has them", all(m.get(k) == v for k, v in want.items()),
      {k: (m.get(k), v) for k, v in want.items()})
# the idle shares by hand from the three causes in us (they sum to the idle time)
ic = dev["idle_causes"]
hand = 100 * ic["host_wait_us"] / (ic["host_wait_us"] + ic["launch_latency_us"] + ic["unattributed_us"])
check("handler: profana/idle_host_wait_pct = host wait / idle by hand", abs(m["profana/idle_host_wait_pct"] - hand) < 1e-9,
      (m["profana/idle_host_wait_pct"], hand))
# a figure the document holds as null is left out, never 0: eager_bf16 has no communication
check("handler: a null figure (overlap without communication) left out", dev["breakdown"]["overlap_pct"] is None and
      "profana/communication_overlap_pct" not in m and None not in m.values())
# a profile of the CPU alone (torch.profiler with ProfilerActivity.CPU only; Debian's torch 1.13
# wrote such a trace, see docs/python.md): one line saying so, no metric, nothing raised
class CpuOnly:
    def export_chrome_trace(self, path):
        ev = [{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 10, "dur": 5,
               "args": {"External id": 1}}]
        with gzip.open(path, "wt") as f:
            json.dump({"traceEvents": ev}, f)

hc = profana.trace_handler(tmp + "/cpu_traces", "fp32", worker_name="cpu")
out = io.StringIO()
with contextlib.redirect_stdout(out):
    mc = hc(CpuOnly())
check("handler: a trace without GPU activity says so in one line", out.getvalue().startswith("profana: cpu.") and
      "no GPU activity" in out.getvalue() and out.getvalue().count("\n") == 1, out.getvalue())
check("handler: a trace without GPU activity: no metric (nothing known), the files written", mc == {} and
      len(os.listdir(tmp + "/cpu_traces")) == 3, (mc, os.listdir(tmp + "/cpu_traces")))
# its summary is one --ranks reads
r2 = profana.ranks([os.path.join(tmp, "traces", files[2])], "bf16")
check("handler: --ranks reads its summary", abs(r2.rows()[0]["busy_us"] - hl["busy_us"]) < 1e-6, r2.rows())
PY

# README's "From Python" section: its first python block runs in the venv from the tree's top,
# and the section keeps to 25 lines.
awk '/^## From Python/ { on = 1; next } on && /^## / { exit } on' README.md >"$TMP/frompy.md"
n=$(grep -c '' "$TMP/frompy.md")
[ "$n" -ge 5 ] && [ "$n" -le 25 ] && pass "README: From Python is $n lines (5-25)" || fail "README: From Python" "$n lines"
awk '/^```python$/ { on = 1; next } on && /^```$/ { exit } on' "$TMP/frompy.md" >"$TMP/frompy.py"
"$V/bin/python" "$TMP/frompy.py" >"$TMP/frompy.out" 2>&1
rc=$?
# on failure the example's last lines travel in the FAIL line (a CI run showed exit 1 once, on the
# ASan pass only, with nothing else to go on)
if [ "$rc" -eq 0 ] && grep -q . "$TMP/frompy.out"; then
    pass "README: From Python's example runs in the venv"
else
    fail "README: From Python's example runs in the venv" "exit $rc: $(tail -4 "$TMP/frompy.out" | tr '\n' '|')"
fi
