#!/usr/bin/env python3
"""serve.py — a cmd: provider for kcc's search tests and GPU scripts.

    --llm='cmd:python3 testsuite/search/serve.py SCRIPT LOGDIR'

kcc writes an OpenAI chat-completions body on stdin; this prints the answer.
The stage is read from the prompt ("# Task: plan", "# Task: implement",
"# Task: repair"); SCRIPT (a text file) lists, per stage, the answers to
give in order, the last one repeating:

    plan: text:fixtures/plan-simd.md
    implement: code:fixtures/rowsum.simd.c
    implement: fail            # this request fails (exit 1)
    implement: interrupt code:FILE   # SIGINT to kcc, then answer
    repair: barrier=2 code:FILE      # answer once 2 repair requests arrived

`barrier=N` proves requests were sent together: the answer waits (20 s at
most, then the request fails) until N requests of its stage have arrived,
which a client that sends them one after the other never lets happen.

`code:PATH` answers with a short plan sentence and PATH's content in one
fenced block; `text:PATH` answers with PATH verbatim. Paths are relative to
SCRIPT's directory. Each request is appended to LOGDIR/requests.jsonl (a
test counts lines to prove that a rebuild made no request) with the stage,
the answer given and whether an API key was visible in the environment.
"""
import fcntl
import json
import os
import signal
import sys
import time


def load_script(path):
    stages = {}
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            stage, _, action = line.partition(":")
            stages.setdefault(stage.strip(), []).append(action.strip())
    return stages


def stage_of(body):
    text = "\n".join(m.get("content", "") for m in body.get("messages", [])
                     if m.get("role") == "user")
    for stage in ("plan", "implement", "repair"):
        if "# Task: " + stage in text:
            return stage, text
    return "other", text


def next_index(logdir, stage):
    """The n-th request of this stage, counted under a lock (kcc may run
    several requests at once)."""
    with open(os.path.join(logdir, "counter.lock"), "a+") as lk:
        fcntl.flock(lk, fcntl.LOCK_EX)
        path = os.path.join(logdir, stage + ".count")
        n = int(open(path).read()) if os.path.exists(path) else 0
        with open(path, "w") as f:
            f.write(str(n + 1))
        return n


def barrier(logdir, stage, words):
    for w in list(words):
        if w.startswith("barrier="):
            words.remove(w)
            want = int(w.split("=", 1)[1])
            path = os.path.join(logdir, stage + ".count")
            deadline = time.time() + 20
            while int(open(path).read() or 0) < want:
                if time.time() > deadline:
                    sys.stderr.write("serve.py: barrier: %d %s requests did not arrive "
                                     "together\n" % (want, stage))
                    return False
                time.sleep(0.05)
    return True


def answer(base, action):
    words = action.split()
    if "interrupt" in words:
        os.kill(os.getppid(), signal.SIGINT)
        words.remove("interrupt")
    action = " ".join(words)
    if action == "fail":
        return None
    kind, _, rel = action.partition(":")
    with open(os.path.join(base, rel)) as f:
        content = f.read()
    if kind == "text":
        return content
    fence = "cuda" if rel.endswith((".cu", ".cuh")) else "c"
    return "Here is the whole file with the plan applied.\n\n```%s\n%s```\n" % (fence, content)


def main():
    script, logdir = sys.argv[1], sys.argv[2]
    os.makedirs(logdir, exist_ok=True)
    body = json.load(sys.stdin)
    stage, text = stage_of(body)
    actions = load_script(script).get(stage) or ["fail"]
    n = next_index(logdir, stage)
    action = actions[min(n, len(actions) - 1)]
    keys = [k for k in os.environ if k.endswith("_API_KEY")]
    with open(os.path.join(logdir, "requests.jsonl"), "a") as f:
        f.write(json.dumps({"stage": stage, "n": n, "action": action,
                            "keys_visible": keys, "prompt": text}) + "\n")
    words = action.split()
    if not barrier(logdir, stage, words):
        return 1
    out = answer(os.path.dirname(os.path.abspath(script)), " ".join(words))
    if out is None:
        sys.stderr.write("serve.py: scripted failure (%s request %d)\n" % (stage, n))
        return 1
    sys.stdout.write(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
