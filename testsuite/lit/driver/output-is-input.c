// kcc refuses to write over its input, even through another path to it.
// RUN: cp %s %t.c
// RUN: %exit 1 %kcc -O0 %t.c -o %t.c 2>&1 | FileCheck %s
// RUN: ln -sf %t.c %t.link.c
// RUN: %exit 1 %kcc -O0 %t.c -o %t.link.c 2>&1 | FileCheck %s
// RUN: cmp %s %t.c
// CHECK: error: output file '{{.*}}' is the input file
// CHECK: note: kcc never modifies its input
#pragma kcc entry scale
#pragma kcc param x in  f32[N]
#pragma kcc param y out f32[N]
#pragma kcc shape check N=17
#pragma kcc shape bench N=1048576

void scale(const float *x, float *y, int N)
{
	for (int i = 0; i < N; i++)
		y[i] = 2.0f * x[i];
}
