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


for line in open(sys.argv[1]):
    name, path, label = line.rstrip("\n").split("\t")
    text = open(path, encoding="utf-8").read()
    try:
        doc = json.loads(text)
    except ValueError as e:
        print("FAIL schema: %s (not JSON: %s)" % (label, e))
        continue
    errors = sorted(validator(name).iter_errors(doc), key=lambda e: list(e.absolute_path))
    if not text.startswith(HEAD):
        print("FAIL schema: %s (does not open with %s: %r)" % (label, HEAD, text[:40]))
    elif errors:
        e = errors[0]
        print("FAIL schema: %s against %s (%d errors; at %s: %s)" % (label, name, len(errors),
              "/".join(map(str, e.absolute_path)) or "top", e.message[:200]))
    else:
        print("PASS schema: %s against %s" % (label, name))
