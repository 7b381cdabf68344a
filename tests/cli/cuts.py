#!/usr/bin/env python3
# cuts.py - cuts a trace at random offsets and says, with Python's JSON parser, what profana must answer for each piece.
"""Usage: cuts.py TRACE OUTDIR N SEED

Writes OUTDIR/cut_K.json (the first OFFSET bytes of TRACE) for N offsets drawn with SEED and
prints one line per piece: "PATH OFFSET KIND EVENTS", where KIND is
  empty     the piece holds no JSON value yet      (exit 1, "byte N: empty file")
  error     cut before traceEvents' '['            (exit 1, "byte OFFSET: trace is cut off")
  inside    cut inside an element of traceEvents   (exit 0, warning "cut off inside an event")
  between   cut between elements, or after them    (exit 0, warning "cut off after the last ...")
  complete  only trailing whitespace is missing    (exit 0, no warning)
and EVENTS is the number of complete elements of traceEvents before the cut. The element
extents come from json.JSONDecoder.raw_decode, independent of profana's scanner.
"""
import json
import random
import sys


def ws(text, i):
    while i < len(text) and text[i] in " \t\r\n":
        i += 1
    return i


def element_extents(text):
    """The '[' of traceEvents and the [start, end) of each element (the traces hold one
    "traceEvents" key, at the top level)."""
    key = text.index('"traceEvents"')
    i = ws(text, key + len('"traceEvents"'))
    assert text[i] == ":"
    i = ws(text, i + 1)
    assert text[i] == "["
    bracket, extents = i, []
    dec = json.JSONDecoder()
    i = ws(text, i + 1)
    while text[i] != "]":
        _, end = dec.raw_decode(text, i)
        extents.append((i, end))
        i = ws(text, end)
        if text[i] == ",":
            i = ws(text, i + 1)
    return bracket, i, extents


def classify(text, first, bracket, close, extents, cut, last):
    if cut <= first:
        return "empty", 0
    if cut <= bracket:
        return "error", 0
    if cut > last:
        return "complete", len(extents)
    done = sum(1 for s, e in extents if e <= cut)
    inside = any(s < cut < e for s, e in extents)
    return ("inside" if inside else "between"), done


def main():
    path, outdir, n, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    raw = open(path, "rb").read()
    text = raw.decode("latin-1")  # one character per byte: offsets stay byte offsets
    first = ws(text, 0)
    bracket, close, extents = element_extents(text)
    last = len(text.rstrip(" \t\r\n"))  # everything up to the closing '}'
    rng = random.Random(seed)
    for k in range(n):
        cut = rng.randrange(1, len(raw))
        piece = "%s/cut_%d.json" % (outdir, k)
        with open(piece, "wb") as f:
            f.write(raw[:cut])
        kind, done = classify(text, first, bracket, close, extents, cut, last)
        print(piece, cut, kind, done)


if __name__ == "__main__":
    main()
