// Spec error: a float scalar parameter cannot be bound by a shape.
// RUN: %exit 1 %kcc -O0 %s -o %t.out 2>&1 | FileCheck %s
// CHECK: float-scalar.c:[[@LINE+7]]:51: error: scalar parameter 'alpha' has type 'float'; shapes bind integers
#pragma kcc entry scale
#pragma kcc param x in  f32[N]
#pragma kcc param y out f32[N]
#pragma kcc shape check N=17
#pragma kcc shape bench N=1048576

void scale(const float *x, float *y, int N, float alpha)
{
	for (int i = 0; i < N; i++)
		y[i] = alpha * x[i];
}
