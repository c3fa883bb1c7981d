#!/usr/bin/env python3
"""term-when.py GLOB CMD... — run CMD, send it SIGTERM as soon as a path
matching GLOB exists (at most 120 s), wait for it and print how it ended:
'killed by SIGTERM' or 'exited N'. Lets a lit test kill kcc mid-run."""
import glob
import signal
import subprocess
import sys
import time

pattern, cmd = sys.argv[1], sys.argv[2:]
p = subprocess.Popen(cmd)
deadline = time.time() + 120
while time.time() < deadline and p.poll() is None and not glob.glob(pattern):
    time.sleep(0.05)
if p.poll() is None:
    time.sleep(0.2)
    p.send_signal(signal.SIGTERM)
rc = p.wait(timeout=60)
print("killed by SIGTERM" if rc == -signal.SIGTERM else "exited %d" % rc)
