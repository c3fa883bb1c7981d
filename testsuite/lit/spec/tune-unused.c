// A tune parameter the code never uses is a warning, not an error: the file
// is still emitted.
// RUN: %kcc -O0 %s -o %t.out 2>&1 | FileCheck %s
// RUN: cmp %s %t.out
// CHECK: tune-unused.c:[[@LINE+7]]:18: warning: tune parameter 'UNROLL' is not used in the code
// CHECK-NOT: error
#pragma kcc entry scale
#pragma kcc param x in  f32[N]
#pragma kcc param y out f32[N]
#pragma kcc shape check N=17; N=64
#pragma kcc shape bench N=1048576
#pragma kcc tune UNROLL=1,2,4 BLOCK=64,128

#ifndef BLOCK
#define BLOCK 64
#endif

void scale(const float *x, float *y, int N)
{
	for (int i0 = 0; i0 < N; i0 += BLOCK)
		for (int i = i0; i < N && i < i0 + BLOCK; i++)
			y[i] = 2.0f * x[i];
}
