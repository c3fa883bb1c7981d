// A float scalar is bound by the shapes like a size (alpha=1.5); a struct
// scalar cannot be and is an error at the parameter.
// RUN: %kcc -O0 %s -o %t.c && diff %s %t.c
// RUN: %kcc --check %s %s | FileCheck --check-prefix=OK %s
// OK: kcc: check: equivalent
// RUN: sed 's/float alpha)/struct S alpha)/; s/^void scale/struct S { float v; };\nvoid scale/; s/alpha \* x/alpha.v * x/' %s > %t-struct.c
// RUN: %exit 1 %kcc -O0 %t-struct.c -o %t.out 2>&1 | FileCheck --check-prefix=STRUCT %s
// STRUCT: error: scalar parameter 'alpha' has type 'struct S', which a shape cannot bind
#pragma kcc entry scale
#pragma kcc param x in  f32[N]
#pragma kcc param y out f32[N]
#pragma kcc shape check N=17 alpha=1.5; N=64 alpha=-0.25
#pragma kcc shape bench N=1048576 alpha=3

void scale(const float *x, float *y, int N, float alpha)
{
	for (int i = 0; i < N; i++)
		y[i] = alpha * x[i];
}
