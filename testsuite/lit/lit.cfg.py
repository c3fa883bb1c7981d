# lit configuration for kcc's driver tests: each .c/.cu/.test file here is a
# case whose RUN lines drive the real kcc binary and whose CHECK lines say what
# it must print (LLVM's FileCheck).
import os
import lit.formats

config.name = "kcc"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".c", ".cu", ".test"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(__file__)

kcc_bin = lit_config.params.get("kcc_bin")
llvm_bin = lit_config.params.get("llvm_bin", "/usr/lib/llvm-22/bin")
if not kcc_bin:
    lit_config.fatal("pass --param kcc_bin=<build dir>")
repo = os.path.dirname(os.path.dirname(config.test_source_root))
config.environment["PATH"] = os.pathsep.join(
    [kcc_bin, llvm_bin, config.environment.get("PATH", os.environ["PATH"])])
config.environment["NO_COLOR"] = "1"
for var in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS", "HOME", "TMPDIR"):
    if var in os.environ:
        config.environment[var] = os.environ[var]
config.substitutions.append(("%kcc", os.path.join(kcc_bin, "kcc")))
config.substitutions.append(("%repo", repo))
config.substitutions.append(("%inputs", os.path.join(config.test_source_root, "Inputs")))
if os.path.exists("/usr/local/cuda/bin/nvcc"):
    config.available_features.add("nvcc")
# "gpu": an NVIDIA GPU answers (never on CI): cases for machines without
# one say UNSUPPORTED: gpu, cases that run kernels on one REQUIRES: gpu.
import subprocess
try:
    if subprocess.run(["nvidia-smi", "-L"], capture_output=True, timeout=30).stdout.strip():
        config.available_features.add("gpu")
except (OSError, subprocess.SubprocessError):
    pass
config.substitutions.append(("%exit", os.path.join(config.test_source_root, "Inputs", "expect-exit")))
