// A failed run leaves an existing output file exactly as it was: OUT only
// ever holds a verified version.
// RUN: echo "previous verified version" > %t.out
// RUN: %exit 1 %kcc -O0 %s -o %t.out 2>&1 | FileCheck %s
// RUN: echo "previous verified version" | cmp - %t.out
// CHECK: error: unknown role 'ot'
#pragma kcc entry scale
#pragma kcc param x in  f32[N]
#pragma kcc param y ot f32[N]
#pragma kcc shape check N=17
#pragma kcc shape bench N=1048576

void scale(const float *x, float *y, int N)
{
	for (int i = 0; i < N; i++)
		y[i] = 2.0f * x[i];
}
