// --suggest-spec infers a spec from the AST: const pointers are inputs,
// stored-to pointers outputs, extents from subscripts and loop bounds, the
// bench shape from the flops (about 0.3 s for the original), a flops line.
// It works on a file with no spec at all, and marks what it cannot infer.
// RUN: %kcc --suggest-spec %s | FileCheck %s
// CHECK: #pragma kcc entry softmax
// CHECK-NEXT: #pragma kcc param x in    f32[R*C]
// CHECK-NEXT: #pragma kcc param y out   f32[R*C]
// CHECK-NEXT: #pragma kcc shape check R={{[0-9]+}} C={{[0-9]+}}; R=64 C=64
// CHECK-NEXT: #pragma kcc shape bench R={{[0-9]+}}00 C={{[0-9]+}}00
// CHECK-NEXT: #pragma kcc flops 4*C*R
// CHECK-NEXT: #pragma kcc bytes 4*R*C+4*R*C
// The suggestion, pasted into the file, is a valid spec.
// RUN: %kcc --suggest-spec %s | grep '^#pragma' > %t.c
// RUN: cat %s >> %t.c
// RUN: %kcc -O0 %t.c -o %t.out.c
#include <math.h>

void softmax(const float *x, float *y, int R, int C)
{
	for (int r = 0; r < R; r++) {
		float m = -INFINITY, s = 0.0f;
		for (int c = 0; c < C; c++)
			m = fmaxf(m, x[r * C + c]);
		for (int c = 0; c < C; c++)
			s += expf(x[r * C + c] - m);
		for (int c = 0; c < C; c++)
			y[r * C + c] = expf(x[r * C + c] - m) / s;
	}
}
