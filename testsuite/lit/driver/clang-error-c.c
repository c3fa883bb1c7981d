// libclang's errors in the user's code are reported at their place, and
// nothing is written.
// RUN: %exit 1 %kcc -O0 %s -o %t.out 2>&1 | FileCheck %s
// RUN: test ! -e %t.out
// CHECK: clang-error-c.c:[[@LINE+12]]:10: error: use of undeclared identifier 'z'
// CHECK-NEXT: {{ *}}[[@LINE+11]] | y[i] = z * x[i];
#pragma kcc entry scale
#pragma kcc param x in  f32[N]
#pragma kcc param y out f32[N]
#pragma kcc shape check N=17
#pragma kcc shape bench N=1048576

void scale(const float *x, float *y, int N)
{
	for (int i = 0; i < N; i++)
	{
		y[i] = z * x[i];
	}
}
