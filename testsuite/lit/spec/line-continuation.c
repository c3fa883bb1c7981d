// A pragma continued with a backslash is refused rather than half-read.
// RUN: %exit 1 %kcc -O0 %s -o %t.out 2>&1 | FileCheck %s
// CHECK: line-continuation.c:[[@LINE+3]]:32: error: line continuation in '#pragma kcc' is not supported
// CHECK: note: write one pragma per line
#pragma kcc entry scale
#pragma kcc param x in  f32[N] \
    // more
#pragma kcc param y out f32[N]
#pragma kcc shape check N=17
#pragma kcc shape bench N=1048576

void scale(const float *x, float *y, int N)
{
	for (int i = 0; i < N; i++)
		y[i] = 2.0f * x[i];
}
