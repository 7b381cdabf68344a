# test_chart_layout.sh - the charts' and report's layout: roofline labels (shortened names) whose boxes never overlap, a label on every roof, breakdown legends by size, and report tables that scroll with the name column sticky and mark rows above 90% and 100% of a peak; read with Python's XML and HTML parsers.
# check: optimised (layout measured in Python over many charts; check-full runs it on both
# builds)
. tests/cli/lib.sh

python3 - "$PROFANA" "$TMP" <<'PY'
import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

sys.path.insert(0, "tests/cli")
from raw import check

prof, tmp = sys.argv[1:3]
NS = "{http://www.w3.org/2000/svg}"
# Estimated glyph width of the charts' sans-serif font, in em: DejaVu Sans averages about 0.55 em
# on lower-case names and digits; a label box runs from the cap height to the descender.
CHAR_EM = 0.58
TRACES = ["testdata/traces/%s.json" % t for t in ("eager_bf16", "eager_fp32", "cnn_fp32", "explicit_bf16",
                                                 "compiled_bf16_b8", "steps_bf16")]
TRACES += ["testdata/w2026/%s.json.gz" % t for t in ("moe_grouped_mm", "flex_attention", "rnn_fft")]


def run(*args):
    p = subprocess.run([prof, *args, "--quiet"], capture_output=True, text=True)
    return p.returncode


def label_boxes(root):
    """(text, class, x0, y0, x1, y1) of every horizontal label in a plot (rotated ones excluded)."""
    out = []
    size = float(root.get("font-size"))
    for panel in root.iter(NS + "g"):
        if panel.get("class") != "panel":
            continue
        dy = float(panel.get("data-dy"))
        for t in panel.iter(NS + "text"):
            if t.get("class") not in ("dot-label", "roof-label") or t.get("transform"):
                continue
            fs = float(t.get("font-size") or size)
            s = "".join(t.itertext())
            w = len(s) * fs * CHAR_EM
            x, y = float(t.get("x")), float(t.get("y")) + dy
            anchor = t.get("text-anchor")
            x0 = x - w if anchor == "end" else x - w / 2 if anchor == "middle" else x
            out.append((s, t.get("class"), x0, y - 0.8 * fs, x0 + w, y + 0.25 * fs))
    return out


def overlaps(boxes):
    return [(a[0], b[0]) for i, a in enumerate(boxes) for b in boxes[:i]
            if a[2] < b[4] and b[2] < a[4] and a[3] < b[5] and b[3] < a[5]]


n_labels = 0
for path in TRACES:
    for g in ("kernel", "op", "shape"):
        svg = "%s/r.svg" % tmp
        name = "%s --group %s" % (path.split("/")[-1], g)
        if run("--analysis", path, "bf16", "--group", g, "--plot", "roofline", svg):
            check(name, "roofline written", False, "exit status")
            continue
        root = ET.parse(svg).getroot()
        boxes = label_boxes(root)
        n_labels += len(boxes)
        bad = overlaps(boxes)
        check(name, "%d label boxes, no two overlap (%.2f em a character)" % (len(boxes), CHAR_EM), not bad, bad[:3])
        roofs = [l for l in root.iter(NS + "line") if l.get("class") == "roof compute"]
        roof_labels = [t for t in root.iter(NS + "text") if t.get("class") == "roof-label"]
        check(name, "every roof labelled (%d compute roofs and the memory roof)" % len(roofs),
              len(roof_labels) == len(roofs) + (1 if roofs else 0), len(roof_labels))
        if g != "kernel":
            continue
        # kernel labels are shortened: no return type, namespaces or argument list; each piece
        # left (the name on either side of "...", the functor in <>) is in the name of a dot
        names = [c.get("data-name") for c in root.iter(NS + "circle") if c.get("data-name")]
        for t in root.iter(NS + "text"):
            if t.get("class") != "dot-label":
                continue
            s = "".join(t.itertext())
            parts = [p for p in re.split(r"\.\.\.|<|>", s) if p]
            ok = (len(s) <= 36 and not s.startswith("void ") and "::" not in s and "(" not in s
                  and any(all(p in n for p in parts) for n in names))
            check(name, "label %s is a dot's shortened name" % s, ok, s)
check("roofline", "labels checked on every trace and grouping", n_labels > 100, n_labels)

# The y axis is bounded by the rows that hold the time (issue 47): it ends at the decade at or below the
# lowest of the heaviest dots that hold 99% of the dots' time (no more than 1.15 decades under it: the
# 0.15 keeps a dot off the frame), whatever the roofs; a lighter dot below it sits on the bottom edge and
# a note counts them; its top covers the highest dot and roof. The dots' rates are the JSON rows'
# TFLOP/s (data-y), not the axis's.
import math
for path in TRACES + ["testdata/peer/owlv2_h100.json.gz", "testdata/peer/owlv2_mi300.json.gz",
                      "testdata/w2026/int8_fp8_gemm.json.gz", "testdata/w2026/fused_adamw.json.gz"]:
    for g in ("kernel", "op"):
        svg = "%s/r.svg" % tmp
        name = "%s --group %s" % (path.split("/")[-1], g)
        run("--analysis", path, "bf16", "--group", g, "--plot", "roofline", svg)
        root = ET.parse(svg).getroot()
        for panel in root.iter(NS + "g"):
            if panel.get("class") != "plot" or panel.get("data-y0") is None:
                continue
            dots = sorted(((float(c.get("data-gpu-us")), float(c.get("data-y")), float(c.get("cy")))
                           for c in panel.iter(NS + "circle") if c.get("data-y")), key=lambda d: -d[0])
            if not dots:
                continue
            y0, y1 = float(panel.get("data-y0")), float(panel.get("data-y1"))
            bottom = float(panel.get("data-top")) + float(panel.get("data-height"))
            total, seen, held = sum(d[0] for d in dots), 0.0, []
            for us, y, cy in dots:
                if not held or seen < 0.99 * total:
                    held.append(y)
                seen += us
            low = math.log10(min(held))
            check(name, "y axis from 1e%d: the decade under the lowest dot holding the time (%.3g TFLOP/s)" % (y0, min(held)),
                  y0 <= low and low - y0 <= 1.15 + 1e-9, (y0, low))
            below = [cy for us, y, cy in dots if math.log10(y) < y0]
            check(name, "%d dots below the axis on its bottom edge" % len(below),
                  all(abs(cy - bottom) < 0.01 for cy in below), below[:3])
            notes = "".join("".join(t.itertext()) for t in root.iter(NS + "text") if t.get("class") == "note")
            check(name, "a note counts the dots below the axis", (not below) == ("On the bottom edge: %d " % len(below) not in notes), notes[:200])
            check(name, "y axis up to 1e%d: over the highest dot (%.3g)" % (y1, max(d[1] for d in dots)),
                  math.log10(max(d[1] for d in dots)) <= y1, y1)

# Every segment of a breakdown bar is labelled in the bar ("name 12.3%", or "12.3%" where only that
# fits) or listed with its share under the bar; one wide enough for its share is labelled. Checked
# on each trace and on the H100/MI300 pair, whose MI300 bar had an unlabelled 17.6% segment.
def bars(root):
    out = []
    kids = list(root)
    for i, e in enumerate(kids):
        if e.tag == NS + "g" and e.get("class") == "bar":
            segs = [(r.get("data-category"), float(r.get("data-pct")), float(r.get("x")), float(r.get("width")))
                    for r in e if r.get("class") == "seg"]
            labels = [(float(t.get("x")), "".join(t.itertext())) for t in e if t.get("class") == "seg-label"]
            lines = []
            for t in kids[i + 1:]:
                if t.tag == NS + "g":
                    break
                if t.get("class") == "pcts":
                    lines.append("".join(t.itertext()))
            out.append((e.get("data-label"), segs, labels, " ".join(lines)))
    return out


n_segs = 0
runs = [("--analysis", p, "bf16") for p in TRACES + ["testdata/peer/owlv2_mi300.json.gz"]]
runs.append(("--diff", "testdata/peer/owlv2_h100.json.gz", "h100", "testdata/peer/owlv2_mi300.json.gz", "mi300", "bf16"))
for args in runs:
    svg = "%s/b.svg" % tmp
    run(*args, "--plot", "breakdown", svg)
    for label, segs, labels, listed in bars(ET.parse(svg).getroot()):
        tag = "breakdown %s" % label[:40]
        for cat, pct, x, width in segs:
            n_segs += 1
            mine = [s for lx, s in labels if x <= lx < x + width]
            short = "%.1f%%" % pct
            fits = len(short) * 11 * 0.58 + 6 <= width
            ok = (mine in ([cat + " " + short], [short]) or (not mine and not fits)) and \
                 ("%s %.2f%%" % (cat, pct)) in listed
            check(tag, "%s %.2f%%: %s, and listed under the bar" % (cat, pct, mine[0] if mine else "too narrow for a label"),
                  ok, (mine, fits, listed[:120]))
check("breakdown", "segments checked", n_segs > 50, n_segs)


def legend(root):
    """The breakdown legend's labels, in order: each swatch's following text."""
    out, kids = [], list(root)
    for i, e in enumerate(kids):
        if e.tag == NS + "rect" and e.get("class") == "swatch":
            out.append("".join(kids[i + 1].itertext()))
    return out


def by_size(docs):
    tot = {}
    for d in docs:
        for dev in d["devices"]:
            for c in dev["categories"]:
                tot[c["category"]] = tot.get(c["category"], 0) + c["total_us"]
    return [c for c, _ in sorted(tot.items(), key=lambda kv: -kv[1])]


for path in TRACES:
    svg, js = "%s/b.svg" % tmp, "%s/b.json" % tmp
    run("--analysis", path, "bf16", "--plot", "breakdown", svg)
    doc = json.loads(subprocess.run([prof, "--analysis", path, "bf16", "--format", "json"], capture_output=True,
                                    text=True).stdout)
    want = by_size([doc]) + ["idle"]
    got = legend(ET.parse(svg).getroot())
    check(path.split("/")[-1], "breakdown legend by GPU time, largest first, idle last: %s" % want[:4], got == want, got)
# --diff: two bars, the legend by the time summed over both
a, b = "testdata/traces/compiled_pair_b8.json", "testdata/traces/compiled_pair_b16.json"
run("--diff", a, "b8", b, "b16", "bf16", "--plot", "breakdown", "%s/d.svg" % tmp)
docs = [json.loads(subprocess.run([prof, "--analysis", p, "bf16", "--format", "json"], capture_output=True,
                                  text=True).stdout) for p in (a, b)]
want = by_size(docs) + ["idle"]
got = legend(ET.parse("%s/d.svg" % tmp).getroot())
check("diff", "breakdown legend by the time of both runs: %s" % want[:4], got == want, got)


class Page(HTMLParser):
    """The report's tables: per table whether it sits in a div.scroll, its header cells' classes, and
    per body row its class, its cells' classes and texts."""

    def __init__(self):
        super().__init__()
        self.tables, self.divs, self.style, self.cell, self.in_style = [], [], "", None, False
        self.section = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "div":
            self.divs.append(a.get("class"))
        elif tag == "style":
            self.in_style = True
        elif tag == "table":
            self.tables.append({"scroll": "scroll" in self.divs, "head": [], "rows": []})
        elif tag in ("thead", "tbody", "tfoot"):
            self.section = tag
        elif tag == "tr" and self.tables and self.section in ("tbody", "tfoot"):
            self.tables[-1]["rows"].append({"class": a.get("class"), "cells": [], "section": self.section})
        elif tag in ("th", "td") and self.tables:
            self.cell = {"class": a.get("class"), "title": a.get("title"), "text": ""}
            if tag == "th":
                self.tables[-1]["head"].append(self.cell)
            else:
                self.tables[-1]["rows"][-1]["cells"].append(self.cell)

    def handle_endtag(self, tag):
        if tag == "div":
            self.divs.pop()
        elif tag == "style":
            self.in_style = False
        elif tag in ("th", "td"):
            self.cell = None

    def handle_data(self, data):
        if self.in_style:
            self.style += data
        elif self.cell is not None:
            self.cell["text"] += data


def report(*args):
    html = "%s/r.html" % tmp
    rc = run("--analysis", "testdata/traces/eager_bf16.json", "bf16", "--report", html, *args)
    p = Page()
    p.feed(open(html, encoding="utf-8").read())
    js = subprocess.run([prof, "--analysis", "testdata/traces/eager_bf16.json", "bf16", "--format", "json", *args],
                        capture_output=True, text=True).stdout
    return rc, p, json.loads(js), open(html, encoding="utf-8").read()


for args, what in (((), "H100 (the copies at 91.4% of DRAM's peak)"), (("--device", "T4"), "--device T4 (over peak)")):
    rc, page, doc, html = report(*args)
    tag = "report " + what
    check(tag, "written", rc == 0, rc)
    check(tag, "every table in a box that scrolls sideways",
          all(t["scroll"] for t in page.tables) and ".scroll{overflow-x:auto}" in page.style.replace(".chart,", ""),
          [t["scroll"] for t in page.tables])
    check(tag, "the name column is sticky", "th.name,td.name{position:sticky;left:0" in page.style, page.style[:200])
    rows_t = page.tables[0]
    check(tag, "rows table: the first header and every first cell are the name column",
          rows_t["head"][0]["class"] == "name" and all(r["cells"][0]["class"] == "name" for r in rows_t["rows"]),
          rows_t["head"][0])
    # marks against the JSON percentages: over above 100, suspect above 90
    pct = {}
    for r in doc["devices"][0]["rows"]:
        p = max(x for x in (r["flops_pct"], r["bw_pct"], -1) if x is not None)
        pct[r["name"]] = "over" if p > 100 else "suspect" if p > 90 else None
    body = [r for r in rows_t["rows"] if r["section"] == "tbody"]
    got = {r["cells"][0]["title"]: r["class"] for r in body}
    check(tag, "%d rows, marked exactly where a JSON percentage is above 90 (suspect) or 100 (over): %d over, %d suspect"
          % (len(body), list(pct.values()).count("over"), list(pct.values()).count("suspect")), got == pct,
          [(k, got.get(k), v) for k, v in pct.items() if got.get(k) != v][:3])
    check(tag, "the CSS colours marked rows", "tr.over td{background:" in page.style and "tr.suspect td{background:" in page.style,
          page.style[-300:])
    check(tag, "the headline before the rows table",
          0 <= html.find("Headline: span ") < html.find("<caption>Rows by GPU time</caption>"), html.find("Headline: "))
PY
