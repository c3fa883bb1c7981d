#!/bin/sh
# Issue 11's check: a 30 s cpu reference measured with two busy loops beside it.
uptime
timeout 1500 sh -c 'while :; do :; done' & b1=$!
timeout 1500 sh -c 'while :; do :; done' & b2=$!
start=$(date +%s)
/work/main/build/kcc --check --bench --cache-dir=/tmp/slow/cache /tmp/slow/slow.c /tmp/slow/ikj.c
echo "exit $? after $(( $(date +%s) - start )) s"
kill $b1 $b2
uptime
