// --dump-ir shows what kcc understood: entry, parameters with their spec,
// the helpers reachable from the entry (not the unreachable one), shapes
// with extents evaluated, tolerance, flops/bytes and tune lines.
// RUN: %kcc --dump-ir %s | FileCheck %s
// CHECK: "language": "c"
// CHECK: "entry": {
// CHECK-NEXT: "name": "hist"
// CHECK: "name": "vals"
// CHECK-NEXT: "c_type": "const int *"
// CHECK: "type": "i32"
// CHECK-NEXT: "role": "in"
// CHECK-NEXT: "extent": "N"
// CHECK-NEXT: "range": ["0", "NBINS"]
// CHECK: "name": "bins"
// CHECK: "type": "i64"
// CHECK-NEXT: "role": "out"
// CHECK: "name": "N"
// CHECK-NEXT: "c_type": "int"
// CHECK-NEXT: "kind": "scalar"
// CHECK: "functions": [{
// CHECK-NEXT: "name": "bump"
// CHECK-NEXT: "kind": "host"
// CHECK-NOT: "name": "unused_helper"
// CHECK: "shapes":
// CHECK: "values": {
// CHECK-NEXT: "N": 1
// CHECK-NEXT: "NBINS": 3
// CHECK: "extents": {
// CHECK-NEXT: "vals": 1
// CHECK-NEXT: "bins": 3
// CHECK: "bench": {
// CHECK: "extents": {
// CHECK-NEXT: "vals": 16777216
// CHECK: "tolerance": {
// CHECK-NEXT: "rtol": 0
// CHECK-NEXT: "atol": 0
// CHECK: "bytes": "4*N+8*NBINS"
// CHECK: "tune": [{
// CHECK-NEXT: "name": "UNROLL"
// CHECK-NEXT: "values": ["1", "2", "4"]
#include <stdint.h>

#pragma kcc entry hist
#pragma kcc param vals in  i32[N] range(0,NBINS)
#pragma kcc param bins out i64[NBINS]
#pragma kcc shape check N=1 NBINS=3; N=1000 NBINS=17
#pragma kcc shape bench N=16777216 NBINS=256
#pragma kcc tolerance atol=0 rtol=0
#pragma kcc bytes 4*N + 8*NBINS
#pragma kcc tune UNROLL=1,2,4

#ifndef UNROLL
#define UNROLL 1
#endif

static void unused_helper(void) {}

static void bump(int64_t *bins, int v) { bins[v]++; }

void hist(const int *vals, int64_t *bins, int N, int NBINS)
{
	for (int b = 0; b < NBINS; b++)
		bins[b] = 0;
#pragma GCC unroll UNROLL
	for (int i = 0; i < N; i++)
		bump(bins, vals[i]);
}
