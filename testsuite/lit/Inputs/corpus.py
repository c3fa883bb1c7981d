# corpus.py — the lit test format of testsuite/lit/mutants/ (its
# lit.local.cfg says what the cases are). A module of its own so lit's
# worker processes can import the format.
import os
import re
import subprocess

import lit.Test
import lit.formats.base

repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))
kernels = os.path.join(repo, "testsuite", "kernels")
mutants = os.path.join(repo, "testsuite", "mutants")
RISCV64 = ("softmax", "gather", "transpose--", "rowsum--pairwise", "rowsum--stride-zero")
TIMED = ("bench-shape", "escaped", "implausible")
VERDICT = re.compile(r"^kcc: check: (equivalent|rejected: ([a-z-]+))", re.M)


def tag(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        head = f.read(512)
    m = re.search(r"ref=(\S+)\s+expect=([a-z|-]+)", head)
    return (m.group(1), m.group(2).split("|")) if m else (None, None)


class CorpusFormat(lit.formats.base.TestFormat):
    def cases(self):
        for name in sorted(os.listdir(mutants)):
            if name.endswith((".c", ".cu")):
                yield (name,), os.path.join(mutants, name)
        for name in sorted(os.listdir(kernels)):
            if ".fast." in name and name.endswith((".c", ".cu")):
                yield ("rewrites", name), os.path.join(kernels, name)
        for name in sorted(os.listdir(mutants)):
            if name.endswith(".c") and any(w in name for w in RISCV64):
                yield ("riscv64", name), os.path.join(mutants, name)
        for name in sorted(os.listdir(kernels)):
            if name.endswith(".fast.c") and any(w in name for w in RISCV64):
                yield ("riscv64", name), os.path.join(kernels, name)

    def getTestsInDirectory(self, testSuite, path_in_suite, litConfig, localConfig):
        if path_in_suite != ("mutants",):
            return
        for sub, path in self.cases():
            yield lit.Test.Test(testSuite, path_in_suite + sub, localConfig, file_path=path)

    def execute(self, test, litConfig):
        path = test.getFilePath()
        name = os.path.basename(path)
        riscv64 = test.path_in_suite[1] == "riscv64"
        if ".fast." in name:
            ref, expect = name.replace(".fast.", "."), ["ok"]
        else:
            ref, expect = tag(path)
            if not ref:
                return lit.Test.Result(lit.Test.FAIL, "no `kcc-mutant: ref=... expect=...` tag")
        if name.endswith(".cu") and "gpu" not in test.config.available_features:
            return lit.Test.Result(lit.Test.UNSUPPORTED, "a CUDA case needs a GPU")
        cmd = [os.path.join(litConfig.params["kcc_bin"], "kcc"), "--check"]
        if riscv64:
            cmd.append("--target=riscv64")
        if any(e in TIMED for e in expect):
            cmd.append("--bench")
        cmd += [os.path.join(kernels, ref), path]
        p = subprocess.run(cmd, capture_output=True, text=True, env=test.config.environment)
        found = VERDICT.findall(p.stdout)
        got = None
        if found:
            got = "ok" if found[-1][0] == "equivalent" else found[-1][1]
        want_rc = 0 if got == "ok" else 1
        ok = got in expect and p.returncode == want_rc
        out = "%s\nexpected %s, got %s (exit %d)\n--- stdout\n%s--- stderr\n%s" % (
            " ".join(cmd), "|".join(expect), got, p.returncode, p.stdout, p.stderr)
        return lit.Test.Result(lit.Test.PASS if ok else lit.Test.FAIL, out)

