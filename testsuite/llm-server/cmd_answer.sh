#!/bin/sh
# A cmd: provider for the tests: saves the request it got on stdin to $1
# and prints a fixed answer (a plan and a fenced C block).
cat > "$1"
printf 'Plan: unroll by 4.\n\n```c\nint f(void) { return 4; }\n```\n'
