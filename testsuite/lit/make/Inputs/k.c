/* k.c — the make test's kernel: small, so -O0 and -O2 are quick. */
#include "scale.h"
#pragma kcc entry k
#pragma kcc param x in  f32[n]
#pragma kcc param y out f32[n]
#pragma kcc shape check n=17
#pragma kcc shape bench n=4096
void k(int n, const float *x, float *y)
{
	for (int i = 0; i < n; i++)
		y[i] = SCALE * x[i];
}
