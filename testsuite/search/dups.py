#!/usr/bin/env python3
"""dups.py REPORT.json — the candidates of a kcc report as a sorted summary
for FileCheck, independent of the order concurrent answers arrived in:
`step S: REASON [duplicate-of-REASON] [repair-of-REASON]` (the reason of
the candidate named), after `duplicates N`, then `chain ...`. A duplicate
that names a candidate which is itself a duplicate, or one with another
verdict, is printed as `BAD ...`."""
import json
import sys

r = json.load(open(sys.argv[1]))
c = r["candidates"]
print("duplicates %d" % r.get("duplicates", 0))
lines = []
for k in c[1:]:
    words = [k["reason"]]
    if "duplicate_of" in k:
        d = c[k["duplicate_of"]]
        ok = "duplicate_of" not in d and d["reason"] == k["reason"] and d["id"] < k["id"]
        words.append(("duplicate-of-" if ok else "BAD duplicate-of-") + d["reason"])
    if k["repairs"]:
        words.append("repair-of-" + c[k["repair_of"]]["reason"])
    lines.append("step %d: %s" % (k["step"], " ".join(words)))
for l in sorted(lines):
    print(l)
print("chain " + " ".join(str(i) for i in r["chain"]))
