#!/usr/bin/env python3
"""report.py REPORT.json — one line per candidate of a kcc report, for
FileCheck: `ID parent=P OPTION VERDICT REASON [gain] [accepted] [tune=...]`,
then `chain ...`, `stop ...`, `calls N` and `duplicates N` when there are."""
import json
import sys

r = json.load(open(sys.argv[1]))
for c in r["candidates"]:
    words = [str(c["id"]), "parent=%d" % c["parent"], c["option"] or "original",
             c["verdict"], c["reason"]]
    if c["gain"]:
        words.append("gain")
    if c["accepted"]:
        words.append("accepted")
    if c["tune"]:
        words.append("tune=" + c["tune"].replace(" ", ","))
    if c["repairs"]:
        words.append("repair-of=%d" % c["repair_of"])
    if "duplicate_of" in c:
        words.append("duplicate-of=%d" % c["duplicate_of"])
    print(" ".join(words))
print("chain " + " ".join(str(i) for i in r["chain"]))
print("stop " + r["stop"])
print("calls %d" % r["llm"]["calls"])
if r["llm"].get("runs", 1) > 1:
    print("runs %d, this run %d calls" % (r["llm"]["runs"], r["llm"]["this_run"]["calls"]))
if r.get("duplicates"):
    print("duplicates %d" % r["duplicates"])
