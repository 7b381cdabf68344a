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


def gpu_time(trace):
    """GPU time per device of the raw events."""
    want = {}
    for e in gpu_acts(load(trace)):
        want[device(e)] = want.get(device(e), 0) + ns(e["dur"])
    return want


def check_diff(name, trace_a, trace_b, svg):
    """--diff: one panel a device pair; each side's data-gpu-us against its own trace."""
    want = [gpu_time(trace_a), gpu_time(trace_b)]
    n = 0
    for p in ET.parse(svg).getroot().iter(NS + "g"):
        if p.get("class") != "panel":
            continue
        n += 1
        title = "".join(next(t for t in p.iter(NS + "text") if t.get("class") == "title").itertext())
        devs = [int(x) for x in re.findall(r"Device (-?\d+) \(", title)]
        check(name, "panel %r names both devices" % title[:60], len(devs) == 2, devs)
        marks = [e for e in p.iter() if e.get("data-gpu-us") is not None]
        for k, side in enumerate("ab"):
            got = sum(Decimal(e.get("data-gpu-us")) for e in marks if e.get("data-side") == side) * 1000
            w = want[k].get(devs[k], 0) if len(devs) == 2 else 0
            check(name, "side %s, device %s: its marks hold its GPU time of the raw events (%.3f us)" % (side.upper(), devs[k] if len(devs) == 2 else "?", w / 1e3),
                  w > 0 and abs(float(got) - w) <= TOL * w, (float(got) / 1e3, w / 1e3))
        check(name, "every mark names its side", all(e.get("data-side") in ("a", "b") for e in marks), "")
        arrows = [g for g in p.iter(NS + "g") if g.get("class") == "arrow"]
        check(name, "arrows from A to B drawn (%d)" % len(arrows), len(arrows) > 0, 0)
    check(name, "one panel a device pair", n == min(len(want[0]), len(want[1])), n)


def main():
    """roofline_oracle.py TRACE NAME SVG [NAME SVG]...: one trace read once for its charts;
    roofline_oracle.py --diff TRACE_A TRACE_B NAME SVG: a --diff's chart."""
    if sys.argv[1] == "--diff":
        check_diff(sys.argv[4], sys.argv[2], sys.argv[3], sys.argv[5])
        return
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
