#!/usr/bin/env python3
"""wall.py LIMIT CMD... — run CMD (its output passes through), then print
'wall: within LIMIT s' or 'wall: over LIMIT s (N s)'. For limits far above
what the case needs (a hang, not a slow machine, is what it catches)."""
import subprocess
import sys
import time

limit, cmd = float(sys.argv[1]), sys.argv[2:]
t0 = time.time()
subprocess.run(cmd)
dt = time.time() - t0
sys.stdout.flush()
print("wall: within %g s" % limit if dt <= limit else "wall: over %g s (%.0f s)" % (limit, dt))
