"""profana from Python: a thin wrapper over the profana binary's JSON (README.md, "From Python").

Every figure comes from the binary's ``--format json`` document (docs/schema/); nothing here
computes one. ``analyze``, ``diff`` and ``ranks`` run the binary and return a ``Result``;
``trace_handler`` is torch.profiler's ``on_trace_ready`` hook.
"""
import json
import os
import shutil
import socket
import subprocess
import time

__all__ = ["Error", "Result", "analyze", "diff", "ranks", "binary", "metrics", "trace_handler", "SCHEMA"]

# The schema version of the documents this wrapper reads (the binary's "schema" member).
SCHEMA = "profana/1"

_HERE = os.path.dirname(os.path.abspath(__file__))


class Error(Exception):
    """The binary failed: ``message`` is its one-line error (stderr), ``status`` its exit status
    (1 unreadable trace, 2 usage, 3 the --diff gate), ``argv`` the command line. A --diff whose
    gate failed (status 3) still carries its ``result``."""

    def __init__(self, message, status, argv, result=None):
        super().__init__(message)
        self.message = message
        self.status = status
        self.argv = argv
        self.result = result


def binary():
    """The binary run: $PROFANA_BINARY, else the one this package carries (the wheel's), else
    ``profana`` on PATH."""
    env = os.environ.get("PROFANA_BINARY")
    if env:
        return env
    inside = os.path.join(_HERE, "bin", "profana")
    if os.path.isfile(inside):
        return inside
    found = shutil.which("profana")
    if not found:
        raise Error("profana: no binary: set PROFANA_BINARY or install the wheel", 127, [])
    return found


def _flags(options):
    """keyword options as the command line's: top=5 -> --top 5, wide=True -> --wide, None and
    False left out, a list joined by commas (columns=["total_us", "pct"])."""
    out = []
    for key, value in options.items():
        if value is None or value is False:
            continue
        out.append("--" + key)
        if value is True:
            continue
        out.append(",".join(map(str, value)) if isinstance(value, (list, tuple)) else str(value))
    return out


def _run(args, json_out=True):
    argv = [binary()] + [str(a) for a in args] + (["--format", "json"] if json_out else [])
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    text = p.stdout.decode("utf-8", "replace")
    doc = None
    if json_out and text.strip():
        try:
            doc = json.loads(text)
        except ValueError:
            doc = None
    if p.returncode != 0:
        lines = [l for l in p.stderr.decode("utf-8", "replace").splitlines() if l.strip()]
        msg = lines[0] if lines else "profana: exit status %d" % p.returncode
        raise Error(msg, p.returncode, argv, Result(doc, argv) if doc is not None else None)
    if json_out and doc is None:
        raise Error("profana: the binary wrote no JSON document", p.returncode, argv)
    if json_out and doc.get("schema") != SCHEMA:
        raise Error("profana: a document of schema %r; this wrapper reads %s" % (doc.get("schema"), SCHEMA), 0, argv)
    return doc


class Result:
    """One document of the binary. ``json`` is the parsed document as written (docs/schema/)."""

    def __init__(self, doc, argv):
        self.json = doc
        self.argv = argv

    def __repr__(self):
        return "<profana.Result %s>" % " ".join(self.argv[1:3])

    def device(self, device=None):
        """The member of "devices" whose "id" is device; the first when None; for --diff, whose
        device pairs have no id, the pair at that index."""
        devs = self.json.get("devices") or []
        if device is None:
            if not devs:
                raise KeyError("the document has no devices")
            return devs[0]
        for i, d in enumerate(devs):
            if d.get("id", i) == device:
                return d
        raise KeyError("no device %r (the document has %s)" % (device, [d.get("id") for d in devs]))

    def rows(self, device=None, table="rows"):
        """The list of dicts of one table, as the binary wrote them: a device's "rows" (or
        "categories", "streams", "queue", "modules", "sequences", ...) for --analysis and --diff,
        the first device's when device is None; a top-level table of --ranks ("ranks", the
        default for "rows", "steps", "collectives", "stragglers")."""
        if "devices" in self.json and isinstance(self.json["devices"], list) and table != "devices":
            if table == "findings":
                return self.device(device)["headline"]["findings"]
            return self.device(device)[table]
        return self.json["ranks" if table == "rows" else table]

    def to_pandas(self, table="rows", device=None):
        """A pandas DataFrame of rows(device, table). With device None and a document of
        devices, every device's rows, with a first column "device" (its id)."""
        import pandas

        if device is None and isinstance(self.json.get("devices"), list) and table != "devices":
            frames = []
            for d in self.json["devices"]:
                f = pandas.DataFrame(self.rows(d.get("id"), table))
                f.insert(0, "device", d.get("id"))
                frames.append(f)
            return pandas.concat(frames, ignore_index=True) if frames else pandas.DataFrame()
        return pandas.DataFrame(self.rows(device, table))

    @property
    def headline(self):
        """The first device's headline (span, busy and idle, top categories, findings)."""
        return self.device()["headline"]

    @property
    def findings(self):
        """The first device's findings, ranked by the time a fix would recover."""
        return self.headline["findings"]


def analyze(path, dtype, group="kernel", **options):
    """profana --analysis PATH DTYPE --group GROUP [options] as a Result. Options are the
    command line's (top=10, step="all", device="H100", summary="rank0.summary.json", ...)."""
    argv = ["--analysis", path, dtype, "--group", group, "--quiet"] + _flags(options)
    doc = _run(argv)
    return Result(doc, [binary()] + argv)


def diff(a, b, dtype, name_a="a", name_b="b", **options):
    """profana --diff A NAME_A B NAME_B DTYPE [options]; a or b may be a list of runs."""
    side = lambda x: ",".join(map(str, x)) if isinstance(x, (list, tuple)) else x
    argv = ["--diff", side(a), name_a, side(b), name_b, dtype, "--quiet"] + _flags(options)
    return Result(_run(argv), [binary()] + argv)


def ranks(paths, dtype, **options):
    """profana --ranks PATH... DTYPE: one trace or --summary file per rank."""
    argv = ["--ranks"] + [str(p) for p in paths] + [dtype] + _flags(options)
    return Result(_run(argv), [binary()] + argv)


# Stable metric names (W&B, MLflow) -> where each lies in the first device of an --analysis
# document. A figure the document lacks or holds as null is left out, never written as 0.
METRICS = {
    "profana/span_us": ("headline", "span_us"),
    "profana/busy_us": ("headline", "busy_us"),
    "profana/busy_pct": ("headline", "busy_pct"),
    "profana/idle_pct": ("headline", "idle_pct"),
    "profana/flop_coverage_pct": ("headline", "flop_pct"),
    "profana/bytes_coverage_pct": ("headline", "bytes_pct"),
    "profana/gpu_time_us": ("total", "total_us"),
    "profana/tflops": ("total", "tflops"),
    "profana/flops_pct": ("total", "flops_pct"),
    "profana/bw_pct": ("total", "bw_pct"),
    "profana/compute_us": ("breakdown", "compute_us"),
    "profana/communication_exposed_us": ("breakdown", "communication_us"),
    "profana/communication_overlap_pct": ("breakdown", "overlap_pct"),
    "profana/idle_us": ("breakdown", "idle_us"),
    "profana/idle_host_wait_pct": ("idle_causes", "host_wait_pct"),
    "profana/idle_launch_latency_pct": ("idle_causes", "launch_latency_pct"),
    "profana/launch_delay_p50_us": ("launch", "delay_us_p50"),
    "profana/launch_delay_p99_us": ("launch", "delay_us_p99"),
}


def metrics(result):
    """A flat dict of the stable metric names (METRICS) of result's first device, and
    "profana/top_finding" (its kind) with "profana/top_finding_us" when there is one; empty
    for a trace without GPU activity (a profile of the CPU alone: no device, nothing known)."""
    if not result.json.get("devices"):
        return {}
    dev = result.device()
    out = {}
    for name, (part, key) in METRICS.items():
        value = (dev.get(part) or {}).get(key)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            out[name] = value
    found = (dev.get("headline") or {}).get("findings") or []
    if found:
        out["profana/top_finding"] = found[0]["kind"]
        if isinstance(found[0].get("time_us"), (int, float)):
            out["profana/top_finding_us"] = found[0]["time_us"]
    return out


def _headline_line(result, path):
    if not result.json.get("devices"):
        return "profana: %s: no GPU activity (no kernel, memcpy or memset events)" % os.path.basename(path)
    h = result.headline
    line = "profana: %s: busy %s%% of %s us" % (os.path.basename(path), h.get("busy_pct"), h.get("span_us"))
    if h.get("findings"):
        line += "; first finding %s: %s" % (h["findings"][0]["kind"], h["findings"][0]["text"])
    return line


def trace_handler(dir, dtype, worker_name=None, group="kernel", quiet=False, **options):
    """torch.profiler's on_trace_ready hook: profile(..., on_trace_ready=profana.trace_handler(
    "traces", "bf16")). Each call writes DIR/WORKER.TIME.pt.trace.json.gz (export_chrome_trace),
    runs analyze on it, writes the document beside it (.profana.json) and the rank summary
    (.summary.json, for --ranks), prints the headline unless quiet, and returns metrics(); the
    handler keeps the last in .metrics and the last Result in .result."""

    def handler(prof):
        os.makedirs(dir, exist_ok=True)
        name = worker_name or "%s_%d" % (socket.gethostname(), os.getpid())
        base = os.path.join(dir, "%s.%d.pt.trace" % (name, time.time_ns()))
        trace = base + ".json.gz"
        prof.export_chrome_trace(trace)
        result = analyze(trace, dtype, group=group, summary=base + ".summary.json", **options)
        with open(base + ".profana.json", "w") as f:
            json.dump(result.json, f)
            f.write("\n")
        if not quiet:
            print(_headline_line(result, trace), flush=True)
        handler.result = result
        handler.metrics = metrics(result)
        handler.trace = trace
        return handler.metrics

    handler.result = handler.metrics = handler.trace = None
    return handler
