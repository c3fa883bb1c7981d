// Scalars: an integer bound to a real value, a real value in an extent, and
// a return type kcc cannot compare are errors at their place.
// RUN: %exit 1 %kcc -O0 %s -o %t.out 2>&1 | FileCheck %s
// CHECK: bad-scalars.c:14:10: error: the entry 'f' returns 'struct R', which kcc cannot compare
// CHECK: note: return void or a number (compared like an output)
// CHECK: bad-scalars.c:10:25: error: integer parameter 'n' is bound to a real value in this check shape
#pragma kcc entry f
#pragma kcc param x in  f64[n]
#pragma kcc param y out f64[n]
#pragma kcc shape check n=10.5 a=2
#pragma kcc shape bench n=100 a=2.5

struct R { int ok; };
struct R f(int n, double a, const double *x, double *y)
{
	for (int i = 0; i < n; i++)
		y[i] = a * x[i];
	return (struct R){1};
}
