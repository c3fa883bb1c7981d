#!/usr/bin/env python3
"""accuracy.py KCC DIR — how many lines of `kcc --suggest-spec` are right on
the corpus in DIR (kernels in the style of a benchmark suite, each with the
spec a person would write in `// EXPECT:` lines).

A line is right when:
  entry        names the expected function;
  param NAME   has the expected role, element type and extent (extents are
               compared by value at random sizes, so n*m equals m*n);
  flops        equals the expected count at random sizes (same rule);
  shape check  binds every scalar of the entry, sizes as positive integers;
  shape bench  the same, and the original would run about 0.05-2 s there:
               expected flops at 1 GFLOP/s plus bytes at 5 GB/s.
Prints one line per spec line (ok/WRONG), the total, and exits 1 below the
required accuracy (--min, default 0.8).
"""
import os, random, re, subprocess, sys

def names(expr):
    return set(re.findall(r"[A-Za-z_]\w*", expr)) - {"min", "max"}

def value(expr, env):
    try:
        return eval(expr.replace("/", "//"), {"__builtins__": {}, "min": min, "max": max}, env)
    except Exception:
        return None

def same(a, b):
    ns = names(a) | names(b)
    rng = random.Random(7)
    for _ in range(3):
        env = {n: rng.randint(2, 60) for n in ns}
        va, vb = value(a, env), value(b, env)
        if va is None or va != vb:
            return False
    return True

def signature(text, entry):
    m = re.search(r"\b%s\s*\(" % re.escape(entry), text)
    i, depth = m.end(), 1
    while depth:
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        i += 1
    scal = {}
    for p in text[m.end():i - 1].split(","):
        p = p.strip()
        if "*" in p or "[" in p:
            continue
        name = re.findall(r"\w+", p)[-1]
        scal[name] = "real" if re.match(r"(const\s+)?(float|double)\b", p) else "int"
    return scal

SIZES = {"f64": 8, "f32": 4, "i32": 4, "i64": 8}

def shape_values(line):
    return dict(re.findall(r"(\w+)=(-?[\d.eE+-]+)", line))

def check_shape(line, scal, bench, exp):
    vals = shape_values(line)
    if set(vals) != set(scal):
        return False
    env = {}
    for n, kind in scal.items():
        v = vals[n]
        if kind == "int":
            if not re.fullmatch(r"\d+", v) or int(v) <= 0:
                return False
            env[n] = int(v)
    if not bench:
        return True
    flops = value(exp.get("flops", "0"), env) or 0
    nbytes = sum(SIZES[t] * (value(e, env) or 0) for (_, t, e) in exp["params"].values())
    t = flops / 1e9 + nbytes / 5e9
    return 0.05 <= t <= 2.0

def main():
    kcc, d = sys.argv[1], sys.argv[2]
    need = float(sys.argv[sys.argv.index("--min") + 1]) if "--min" in sys.argv else 0.8
    right = total = 0
    for f in sorted(os.listdir(d)):
        if not f.endswith(".c"):
            continue
        path = os.path.join(d, f)
        text = open(path).read()
        exp = {"params": {}}
        for line in re.findall(r"// EXPECT: #pragma kcc (.*)", text):
            w = line.split()
            if w[0] == "entry":
                exp["entry"] = w[1]
            elif w[0] == "param":
                t, e = re.match(r"(\w+)\[(.*)\]", w[3]).groups()
                exp["params"][w[1]] = (w[2], t, e)
            elif w[0] == "flops":
                exp["flops"] = line.split(None, 1)[1]
        out = subprocess.run([kcc, "--suggest-spec", path], capture_output=True, text=True).stdout
        got = {"params": {}}
        for line in re.findall(r"^#pragma kcc (.*?)(?:\s*//.*)?$", out, re.M):
            w = line.split()
            if w[0] == "entry":
                got["entry"] = w[1]
            elif w[0] == "param":
                m = re.match(r"(\w+|\?)\[(.*)\]", w[3])
                got["params"][w[1]] = (w[2], m.group(1), m.group(2)) if m else (w[2], "?", "?")
            elif w[0] in ("flops", "bytes"):
                got[w[0]] = line.split(None, 1)[1]
            elif w[0] == "shape":
                got[w[1]] = line
        scal = signature(text, exp["entry"])
        results = [("entry", got.get("entry") == exp["entry"])]
        for n, (role, t, e) in exp["params"].items():
            g = got["params"].get(n)
            results.append(("param " + n, bool(g) and g[0] == role and g[1] == t and
                            g[2] != "?" and same(g[2], e)))
        results.append(("flops", "flops" in got and same(got["flops"], exp["flops"])))
        results.append(("shape check", "check" in got and check_shape(got["check"], scal, False, exp)))
        results.append(("shape bench", "bench" in got and check_shape(got["bench"], scal, True, exp)))
        for what, ok in results:
            print("%-18s %-14s %s" % (f, what, "ok" if ok else "WRONG"))
        right += sum(ok for _, ok in results)
        total += len(results)
    acc = right / total if total else 0
    print("suggest-spec accuracy: %d/%d spec lines right (%.1f%%)" % (right, total, 100 * acc))
    return 0 if acc >= need else 1

if __name__ == "__main__":
    sys.exit(main())
