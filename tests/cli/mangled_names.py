#!/usr/bin/env python3
# mangled_names.py - every distinct mangled name (_Z...) that the traces under the given folders name, read with Python's JSON parser.
"""Usage: mangled_names.py DIR...

Prints each distinct event name starting with "_Z" (the Itanium C++ ABI's mangled names, as
roctracer leaves ROCm's kernels) of every .json and .json.gz trace under the folders, sorted,
one a line. Folders that do not exist are passed over.
"""
import gzip
import json
import os
import sys


def names(path):
    opener = gzip.open if path.endswith(".gz") else open
    try:
        with opener(path, "rt", encoding="utf-8", errors="replace") as f:
            doc = json.load(f)
    except (OSError, ValueError, EOFError):
        return
    events = doc.get("traceEvents", []) if isinstance(doc, dict) else doc
    if not isinstance(events, list):
        return
    for e in events:
        if isinstance(e, dict) and isinstance(e.get("name"), str) and e["name"].startswith("_Z"):
            yield e["name"]


def main():
    found = set()
    for top in sys.argv[1:]:
        for folder, _, files in os.walk(top):
            for f in files:
                if f.endswith(".json") or f.endswith(".json.gz"):
                    found.update(names(os.path.join(folder, f)))
    for n in sorted(found):
        if "\n" not in n:
            print(n)


main()
