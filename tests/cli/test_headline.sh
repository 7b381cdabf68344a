# test_headline.sh - the headline before each device's tables: span and busy % against the union of the raw GPU intervals, top categories against the category table, coverage against the coverage line, and each finding present exactly on the traces that have its condition (fixtures derived from eager_bf16.json at test time).
. tests/cli/lib.sh

python3 - "$PROFANA" "$TMP" <<'PY'
import json
import re
import subprocess
import sys
from decimal import Decimal

sys.path.insert(0, "tests/cli")
import raw
from raw import check

prof, tmp = sys.argv[1:3]
T = "testdata/traces/"
SHAPE_KEYS = ("Input Dims", "Input type", "Input Strides", "Concrete Inputs")


def run(*args):
    p = subprocess.run([prof, "--analysis", *args], capture_output=True, text=True)
    return p.returncode, p.stdout


# ---- fixtures: the same GPU work, lacking what a finding is about ----
base = json.load(open(T + "eager_bf16.json"))


def write(name, events=None, props=None):
    d = dict(base)
    d["traceEvents"] = events if events is not None else base["traceEvents"]
    if props is not None:
        d["deviceProperties"] = props
    path = "%s/%s" % (tmp, name)
    json.dump(d, open(path, "w"))
    return path


noshapes = json.loads(json.dumps(base["traceEvents"]))
for e in noshapes:
    if e.get("cat") == "cpu_op":
        for k in SHAPE_KEYS:
            e.get("args", {}).pop(k, None)
gpuonly = [e for e in base["traceEvents"]
           if e.get("cat") not in ("cpu_op", "cuda_runtime", "cuda_driver", "user_annotation", "python_function")]
# a part no table entry names, with an SM count and memory no entry has
unknown_props = [dict(p, name="Acme Accelerator X1", numSms=7, totalGlobalMem=3 * 2**30)
                 for p in base["deviceProperties"]]
fixtures = {
    "noshapes": write("noshapes.json", noshapes),
    "gpuonly": write("gpuonly.json", gpuonly),
    "unknown": write("unknown.json", props=unknown_props),
}

# (trace, extra options, what the trace lacks: the findings that come from the fixture)
cases = [(T + f, [], []) for f in ("eager_bf16.json", "eager_fp32.json", "cnn_fp32.json", "explicit_bf16.json",
                                   "compiled_bf16_b8.json", "steps_bf16.json")]
cases += [("testdata/w2026/%s.json.gz" % f, [], []) for f in ("int8_fp8_gemm", "fused_adamw", "kv_decode")]
cases += [(fixtures["noshapes"], [], ["no_shapes"]), (fixtures["gpuonly"], [], ["no_cpu"]),
          (fixtures["unknown"], [], ["unknown_device"]), (fixtures["unknown"], ["--device", "H100 SXM"], [])]


def raw_busy(path):
    """Per device: span (first start to last end) and the union of kernel, memcpy and memset
    intervals, in ns; the activities' count and summed duration."""
    iv = {}
    for e in raw.gpu_acts(raw.load(path)):
        s = raw.ns(e["ts"])
        iv.setdefault(raw.device(e), []).append((s, s + raw.ns(e["dur"])))
    return {dev: (min(s for s, _ in v), max(e for _, e in v), raw.union(v), len(v), sum(e - s for s, e in v))
            for dev, v in iv.items()}


GAP_BINS = ((0, 10000), (10000, 100000), (100000, 1000000), (1000000, 10000000), (10000000, 1 << 62))


def raw_gaps(path, dev):
    """The device's idle gaps (ns) between the union of its activity intervals."""
    iv = sorted((raw.ns(e["ts"]), raw.ns(e["ts"]) + raw.ns(e["dur"])) for e in raw.gpu_acts(raw.load(path))
                if raw.device(e) == dev)
    out, end = [], iv[0][1]
    for s, e in iv[1:]:
        if s > end:
            out.append(s - end)
        end = max(end, e)
    return out


def headline_block(text):
    """Per device, the lines from "Headline:" to the empty line after it."""
    blocks, cur = [], None
    for line in text.split("\n"):
        if line.startswith("Headline: "):
            cur = [line]
        elif cur is not None:
            if line == "":
                blocks.append(cur)
                cur = None
            else:
                cur.append(line)
    return blocks


def items(block):
    """The block's list items, continuation lines joined."""
    out = []
    for line in block[1:]:
        if line.startswith("- "):
            out.append(line[2:])
        else:
            out[-1] += " " + line.strip()
    return out


def category_table(text):
    """The rows of the text category table: (name, Time %)."""
    lines = text.split("\n")
    i = next(k for k, l in enumerate(lines) if l.startswith("Category ") and "Kernels" in l)
    rows = []
    for l in lines[i + 2:]:
        if not l.strip():
            break
        cells = [c.strip() for c in l.split("|")]
        rows.append((cells[0], cells[4]))
    return rows


for path, opts, lacks in cases:
    name = path.split("/")[-1] + ("".join(" " + o for o in opts))
    rc, js = run(path, "bf16", "--format", "json", *opts)
    rc2, txt = run(path, "bf16", *opts)
    if rc or rc2:
        check(name, "runs", False, "exit %d/%d" % (rc, rc2))
        continue
    doc = json.loads(js)
    blocks = headline_block(txt)
    want = raw_busy(path)
    check(name, "one headline per device", len(blocks) == len(doc["devices"]) == len(want),
          "%d blocks, %d devices" % (len(blocks), len(doc["devices"])))
    for dev, block in zip(doc["devices"], blocks):
        h = dev["headline"]
        start, end, busy, count, summed = want[dev["id"]]
        span = end - start
        busy_pct = 100 * Decimal(busy) / span
        tag = "%s dev %d" % (name, dev["id"])
        # span and busy % against the raw events
        check(tag, "JSON span_us = last end - first start (%.3f us)" % (span / 1e3),
              abs(h["span_us"] * 1e3 - span) < 1, h["span_us"])
        check(tag, "JSON busy_us = union of intervals (%.3f us)" % (busy / 1e3), abs(h["busy_us"] * 1e3 - busy) < 1,
              h["busy_us"])
        check(tag, "JSON busy_pct (%.4f)" % busy_pct, abs(Decimal(repr(h["busy_pct"])) - busy_pct) < Decimal("1e-6"),
              h["busy_pct"])
        check(tag, "JSON idle_pct = 100 - busy_pct", abs(h["idle_pct"] + h["busy_pct"] - 100) < 1e-9, h["idle_pct"])
        line = "Headline: span %.3f us, busy %.3f us (%.2f%%), idle %.3f us (%.2f%%)" % (
            Decimal(span) / 1000, Decimal(busy) / 1000, busy_pct, Decimal(span - busy) / 1000, 100 - busy_pct)
        check(tag, "text: " + line, block[0] == line, block[0])
        # at most 30 lines (three to four ranked findings of a few lines each), none wider than 100 columns
        check(tag, "at most 30 lines", len(block) <= 30, len(block))
        wide = [l for l in block if len(l) > 100]
        check(tag, "no line over 100 columns", not wide, wide)
        it = items(block)
        # a serving trace's phases item: the shares of the JSON's phases member (checked
        # against the raw events by test_phases.sh)
        ph = [x for x in it if x.startswith("phases of GPU time:")]
        it = [x for x in it if not x.startswith("phases of GPU time:")]
        if dev.get("phases"):
            p = dev["phases"]
            want = "phases of GPU time: prefill %.2f%%, decode %.2f%%, mixed %.2f%%, none %.2f%% (--phase)" % (
                p["prefill_pct"], p["decode_pct"], p["mixed_pct"], p["none_pct"])
            check(tag, "text: " + want, ph == [want], ph)
        else:
            check(tag, "no phases item without phases", not ph, ph)
        # the top categories are the first three rows of the category table
        cats = category_table(txt)[:3]
        tops = "top categories by GPU time: " + ", ".join("%s %s%%" % c for c in cats)
        check(tag, "text: " + tops, it[0] == tops, it[0])
        check(tag, "JSON top_categories = categories[:3]",
              [(c["category"], c["pct"]) for c in h["top_categories"]]
              == [(c["category"], c["pct"]) for c in dev["categories"][:3]], h["top_categories"])
        # coverage: the coverage line's figures
        # (the Coverage line wraps at the width, 100 for a pipe: its continuation lines joined)
        cov = re.search(r"^Coverage: bytes by formula for ([0-9.]+)% .*?FLOPs for ([0-9.]+)%",
                        re.sub(r"\n  (?=\S)", " ", txt), re.M | re.S)
        covs = "coverage: FLOPs known for %s%% of GPU time, bytes by formula for %s%%" % (cov.group(2), cov.group(1))
        check(tag, "text: " + covs, it[1] == covs, it[1])
        check(tag, "JSON flop_pct, bytes_pct = coverage's",
              (h["flop_pct"], h["bytes_pct"]) == (dev["coverage"]["flop_pct"], dev["coverage"]["bytes_pct"]),
              (h["flop_pct"], h["bytes_pct"]))
        # the idle gaps by length: counts and time against the raw union's gaps
        gaps = raw_gaps(path, dev["id"])
        bins = [sum(1 for g in gaps if lo <= g < hi) for lo, hi in GAP_BINS]
        check(tag, "JSON idle_gaps counts = the raw gaps by length %s" % bins,
              [b["count"] for b in h["idle_gaps"]] == bins, h["idle_gaps"])
        check(tag, "JSON idle_gaps time sums to idle_us",
              abs(sum(b["idle_us"] for b in h["idle_gaps"]) - h["idle_us"]) < 0.01 * len(gaps) + 0.001, h["idle_gaps"])
        # findings: the ranked ones by time (none over the span), then the notes on what the
        # trace lacks (from the fixture), which carry no time
        ranked = [f for f in h["findings"] if f["time_us"] is not None]
        notes = [f["kind"] for f in h["findings"] if f["time_us"] is None and "evidence" not in f]
        check(tag, "notes %s" % lacks, notes == lacks, notes)
        times = [f["time_us"] for f in ranked]
        check(tag, "ranked by time_us, none over the span", times == sorted(times, reverse=True) and
              all(t <= h["span_us"] * 1.0001 for t in times), times)
        shown = [x for x in it if any(x == f["text"] for f in h["findings"])]
        want = min(3, len(ranked)) + len(lacks)
        check(tag, "text: at least %d findings shown, each its JSON text" % want, len(shown) >= want, it)
        heavy = [f for f in h["findings"] if f["kind"] in ("headroom", "far_below_roofs")]
        check(tag, "the heaviest row's finding is shown", not dev["rows"] or (heavy and heavy[0]["text"] in it), it)
        for f in h["findings"]:
            t = f["text"]
            if f["kind"] == "no_shapes":
                check(tag, "no shapes: how to record them", "torch.profiler.profile(record_shapes=True)" in t, t)
            elif f["kind"] == "no_cpu":
                check(tag, "no CPU side: how to record it", "ProfilerActivity.CPU" in t and "record_shapes=True" in t, t)
            elif f["kind"] == "unknown_device":
                check(tag, "unknown device: --device and --device-file",
                      "--device NAME" in t and "--device-file FILE" in t and "Acme Accelerator X1" in t, t)
            elif f["kind"] in ("headroom", "far_below_roofs"):
                r = dev["rows"][0]
                check(tag, "heaviest row: names the first row", r["name"][:60] in t or r["name"][:69] in t, (r["name"], t))

# eager_bf16 is 80% idle: its headline says so first
rc, txt = run(T + "eager_bf16.json", "bf16")
b = headline_block(txt)[0]
check("eager_bf16", "the first finding follows the idle gaps by length",
      items(b)[2].startswith("idle gaps by length: ") and items(b)[3].startswith("launch_overhead: "), items(b))
check("eager_bf16", "the headline comes before the tables",
      txt.index("Headline: ") < txt.index("GPU activities: ") < txt.index("Kernel Name"), txt[:300])

# Markdown: the same block, a list that the empty line after it ends
rc, md = run(T + "eager_bf16.json", "bf16", "--format", "md")
lines = md.split("\n")
i = next(k for k, l in enumerate(lines) if l.startswith("Headline: "))
check("md", "the headline follows the device heading and an empty line",
      lines[i - 1] == "" and lines[i - 2].startswith("### Device 0"), lines[i - 2:i + 1])
check("md", "the block is the text block", headline_block(md)[0] == b, headline_block(md)[0])
PY
