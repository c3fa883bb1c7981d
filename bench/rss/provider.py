#!/usr/bin/env python3
"""provider.py COUNTER_FILE — a cmd: provider for bench/rss/run: plans name
simd-vectorization; every implementation is testsuite/search/fixtures/
rowsum.simd.c with a distinct macro (not a comment: comments are normalised
away, and not a KCC_ name: the harness owns those), so each one is a new
candidate that verifies and is timed (the path a long search takes).
bench/rss/run counts the accepted ones from the report: a run whose
candidates were rejected measured nothing."""
import fcntl
import json
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
repo = os.path.dirname(os.path.dirname(here))
body = json.load(sys.stdin)
text = "\n".join(m.get("content", "") for m in body.get("messages", []))
with open(sys.argv[1], "a+") as f:
    fcntl.flock(f, fcntl.LOCK_EX)
    f.seek(0)
    n = len(f.read().splitlines())
    f.write("x\n")
if "# Task: plan" in text:
    sys.stdout.write(open(os.path.join(repo, "testsuite/search/fixtures/plan-simd.md")).read())
else:
    code = open(os.path.join(repo, "testsuite/search/fixtures/rowsum.simd.c")).read()
    sys.stdout.write("Done.\n\n```c\n#define RSS_VARIANT %d\n%s```\n" % (n, code))
