// A name bound to a real value cannot size a buffer.
// RUN: %exit 1 %kcc -O0 %s -o %t.out 2>&1 | FileCheck %s
// CHECK: real-in-extent.c:[[@LINE+2]]:29: error: 'a' in the extent of 'x' is a real value at this shape; the extent of 'x' needs integers
#pragma kcc entry f
#pragma kcc param x in  f64[a*n]
#pragma kcc param y out f64[n]
#pragma kcc shape check n=10 a=2.5
#pragma kcc shape bench n=100 a=2.5

void f(int n, double a, const double *x, double *y)
{
	for (int i = 0; i < n; i++)
		y[i] = a * x[i];
}
