# roofline_oracle.py - every row with GPU time accounted for in the roofline: the SVG's data-gpu-us per panel against the GPU time per device summed from the raw events, and the memcpy marks of the bandwidth strip against the copies' recorded bytes.
import re
import sys
import xml.etree.ElementTree as ET
from decimal import Decimal

sys.path.insert(0, "tests/cli")
from raw import check, device, gpu_acts, load, ns

NS = "{http://www.w3.org/2000/svg}"
TOL = 0.005  # the 0.5%


def panels(svg):
    """(device id, [(class, attrs)] of every element with data-gpu-us, note text) per panel."""
    out = []
    for p in ET.parse(svg).getroot().iter(NS + "g"):
        if p.get("class") != "panel":
            continue
        title = "".join(next(t for t in p.iter(NS + "text") if t.get("class") == "title").itertext())
        dev = int(re.search(r"Device (-?\d+)", title).group(1))
        marks = [(e.get("class"), e.attrib) for e in p.iter() if e.get("data-gpu-us") is not None]
        notes = " ".join("".join(t.itertext()) for t in p.iter(NS + "text") if t.get("class") == "note")
        out.append((dev, marks, notes))
    return out


def main():
    """roofline_oracle.py TRACE NAME SVG [NAME SVG]...: one trace read once for its charts."""
    trace = sys.argv[1]
    acts = gpu_acts(load(trace))
    want = {}
    copies = {}  # (device, name) -> [bytes, ns]
    for e in acts:
        d = device(e)
        want[d] = want.get(d, 0) + ns(e["dur"])
        if e.get("cat") == "gpu_memcpy" and "bytes" in e["args"]:
            c = copies.setdefault((d, e["name"]), [0, 0, 0])
            c[0] += int(e["args"]["bytes"]) * (2 if "DtoD" in e["name"] else 1)  # a device copy reads and writes
            c[1] += ns(e["dur"])
            c[2] += 1
    for name, svg in zip(sys.argv[2::2], sys.argv[3::2]):
        check_svg(name, svg, want, copies)


def check_svg(name, svg, want, copies):
    got = panels(svg)
    check(name, "a panel per device with GPU time (%d)" % len(want), sorted(d for d, _, _ in got) == sorted(want),
          (sorted(d for d, _, _ in got), sorted(want)))
    for dev, marks, notes in got:
        total = sum(Decimal(a["data-gpu-us"]) for _, a in marks) * 1000
        w = want.get(dev, 0)
        check(name, "device %s: dots + strip (%d marks) hold the GPU time of the raw events (%.3f us)" % (dev, len(marks), w / 1e3),
              w > 0 and abs(float(total) - w) <= TOL * w, (float(total) / 1e3, w / 1e3))
        partial = [a for c, a in marks if "partial" in c]
        check(name, "device %s: each partial mark placed by a part of its time" % dev,
              all(0 < float(a["data-known-us"]) < float(a["data-gpu-us"]) for a in partial), partial[:1])
        dots_partial = [a for c, a in marks if c == "dot partial"]
        check(name, "device %s: a note for the %d partial dots" % (dev, len(dots_partial)),
              bool(dots_partial) == ("Dashed rings: %d groups" % len(dots_partial) in notes), notes[:160])
        for c, a in marks:  # whole memcpy marks: the recorded bytes over the copies' time
            k = (dev, a.get("data-name"))
            if c == "strip-dot" and k in copies and copies[k][1] > 0 and " " in k[1]:
                gbps = copies[k][0] / copies[k][1]
                check(name, "device %s: %s at %.2f GB/s (recorded bytes / time)" % (dev, k[1], gbps),
                      abs(float(a["data-gbps"]) - gbps) <= 1e-4 * gbps, a["data-gbps"])


main()
