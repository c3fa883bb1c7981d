#!/bin/sh
# A cmd: provider that fails: reads its request, complains, exits 1.
cat > /dev/null
echo "model runner: out of memory" >&2
exit 1
