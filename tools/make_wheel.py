#!/usr/bin/env python3
"""make_wheel.py - writes dist/profana-VERSION-py3-none-PLATFORM.whl with Python's standard library alone (make wheel).

Usage: make_wheel.py BINARY LIB... OUTDIR. A wheel is a zip: the package python/profana/, the
binary and the shared libraries it was linked to find beside itself (rpath $ORIGIN) under
profana/bin/, and the .dist-info files (METADATA, WHEEL, entry_points.txt, RECORD with each
file's sha256). The version is the binary's own (profana --version); the platform tag is this
interpreter's (linux_x86_64). Entries are written in sorted order with a fixed date, so the same
inputs give the same bytes.
"""
import base64
import hashlib
import os
import subprocess
import sys
import sysconfig
import zipfile

DATE = (2026, 1, 1, 0, 0, 0)


def main(argv):
    if len(argv) < 3:
        sys.exit("usage: make_wheel.py BINARY LIB... OUTDIR")
    exe, libs, outdir = argv[0], argv[1:-1], argv[-1]
    version = subprocess.run([exe, "--version"], stdout=subprocess.PIPE, check=True, text=True).stdout.split()[-1]
    plat = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    tag = "py3-none-" + plat
    top = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    pkg = os.path.join(top, "python", "profana")
    dist_info = "profana-%s.dist-info" % version
    files = []  # (name in the wheel, bytes, executable)
    for name in sorted(os.listdir(pkg)):
        if name.endswith(".py"):
            files.append(("profana/" + name, open(os.path.join(pkg, name), "rb").read(), False))
    files.append(("profana/bin/profana", open(exe, "rb").read(), True))
    for lib in libs:
        files.append(("profana/bin/" + os.path.basename(lib), open(lib, "rb").read(), False))
    readme = open(os.path.join(top, "README.md"), encoding="utf-8").read()
    metadata = ("Metadata-Version: 2.1\nName: profana\nVersion: %s\n"
                "Summary: where GPU time goes in PyTorch profiler traces: FLOPs, bytes, percent of peak, waits\n"
                "License: see LICENSE\nRequires-Python: >=3.8\nProvides-Extra: pandas\n"
                "Requires-Dist: pandas; extra == \"pandas\"\n"
                "Description-Content-Type: text/markdown\n\n%s" % (version, readme))
    wheel = "Wheel-Version: 1.0\nGenerator: profana tools/make_wheel.py\nRoot-Is-Purelib: false\nTag: %s\n" % tag
    files.append((dist_info + "/METADATA", metadata.encode(), False))
    files.append((dist_info + "/WHEEL", wheel.encode(), False))
    files.append((dist_info + "/entry_points.txt", b"[console_scripts]\nprofana = profana._cli:main\n", False))
    files.append((dist_info + "/top_level.txt", b"profana\n", False))
    files.append((dist_info + "/LICENSE", open(os.path.join(top, "LICENSE"), "rb").read(), False))
    record = ""
    for name, data, _ in files:
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record += "%s,sha256=%s,%d\n" % (name, digest, len(data))
    record += dist_info + "/RECORD,,\n"
    files.append((dist_info + "/RECORD", record.encode(), False))
    os.makedirs(outdir, exist_ok=True)
    out = os.path.join(outdir, "profana-%s-%s.whl" % (version, tag))
    tmp = out + ".tmp"
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data, executable in files:
            info = zipfile.ZipInfo(name, DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = (0o100755 if executable else 0o100644) << 16
            z.writestr(info, data)
    os.replace(tmp, out)
    print(out)


if __name__ == "__main__":
    main(sys.argv[1:])
