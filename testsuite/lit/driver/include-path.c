// -I and -D reach libclang, as they would reach gcc.
// RUN: rm -rf %t.inc && mkdir -p %t.inc && echo "#define SCALE 2.0f" > %t.inc/scale.h
// RUN: %exit 1 %kcc -O0 %s -o %t.out 2>&1 | FileCheck --check-prefix=NOINC %s
// RUN: %kcc -O0 -I %t.inc -DEXTRA=1 %s -o %t.out
// RUN: %kcc -O0 -I%t.inc -D EXTRA=1 %s -o %t.out
// RUN: cmp %s %t.out
// NOINC: error: 'scale.h' file not found
#include "scale.h"
#pragma kcc entry scale
#pragma kcc param x in  f32[N]
#pragma kcc param y out f32[N]
#pragma kcc shape check N=17
#pragma kcc shape bench N=1048576

void scale(const float *x, float *y, int N)
{
	for (int i = 0; i < N; i++)
		y[i] = SCALE * x[i] * EXTRA;
}
