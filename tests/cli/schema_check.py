# schema_check.py - validates profana's JSON documents against docs/schema/ with Debian's python3-jsonschema (test_schema.sh).
# Usage: schema_check.py LIST; each line of LIST is "SCHEMA<TAB>FILE<TAB>LABEL": the document in FILE
# against docs/schema/SCHEMA.schema.json. Prints a PASS or FAIL line per document. The schemas are
# written by hand from docs/; nothing here asks profana what a document should hold.
import json
import sys

import jsonschema

HEAD = '{"schema":"profana/1",'
validators = {}


def validator(name):
    if name not in validators:
        schema = json.load(open("docs/schema/%s.schema.json" % name))
        jsonschema.Draft202012Validator.check_schema(schema)
        validators[name] = jsonschema.Draft202012Validator(schema)
    return validators[name]


def documents(name, path):
    """The documents of a file: the whole text, or for ndjson each line (label suffix, text)."""
    text = open(path, encoding="utf-8").read()
    if name != "ndjson":
        yield "", text
        return
    lines = text.split("\n")
    if lines[-1] != "" or len(lines) < 2:
        yield "", "not one object a line ended by a newline"
    for i, line in enumerate(lines[:-1]):
        yield " line %d" % (i + 1), line


def check(name, path, label):
    """One PASS or FAIL line for the file: every document in it valid, or the first that is not."""
    n = 0
    for suffix, text in documents(name, path):
        n += 1
        why = problem(name, text)
        if why:
            print("FAIL schema: %s%s against %s (%s)" % (label, suffix, name, why))
            return
    print("PASS schema: %s against %s%s" % (label, name, " (%d lines)" % n if name == "ndjson" else ""))


def problem(name, text):
    """Why text is not a valid document of schema name; None when it is."""
    try:
        doc = json.loads(text)
    except ValueError as e:
        return "not JSON: %s" % e
    if not text.startswith(HEAD):
        return "does not open with %s: %r" % (HEAD, text[:40])
    errors = sorted(validator(name).iter_errors(doc), key=lambda e: list(e.absolute_path))
    if errors:
        e = errors[0]
        return "%d errors; at %s: %s" % (len(errors), "/".join(map(str, e.absolute_path)) or "top", e.message[:200])
    return None


for entry in open(sys.argv[1]):
    check(*entry.rstrip("\n").split("\t"))
