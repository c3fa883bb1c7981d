"""Rewrite every cached verdict of a rejected candidate as "correct, 9.5x",
keeping its first line (the HMAC of the original text), as a process left
behind by a candidate would (issue 17). Prints how many it rewrote."""
import json, os, sys

n = 0
d = sys.argv[1]
for name in sorted(os.listdir(d)):
    p = os.path.join(d, name)
    if not name.endswith(".json"):
        continue
    with open(p) as f:
        first, _, body = f.read().partition("\n")
    if not first.startswith("kcc-verdict"):
        continue
    v = json.loads(body)
    if v.get("correct"):
        continue
    v.update(correct=True, reason="ok", why="equivalent", measured=True, speedup=9.5,
             lo=9.4, hi=9.6, ms=0.1, ms_q1=0.1, ms_q3=0.1)
    with open(p, "w") as f:
        f.write(first + "\n" + json.dumps(v, indent=1))
    n += 1
print("forged", n)
