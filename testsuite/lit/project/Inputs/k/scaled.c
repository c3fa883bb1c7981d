// A kernel that includes a header from another directory (Inputs/inc) and
// needs OFFSET defined: it builds only with the project's -I and -D.
#include "sub/scale.h"
#pragma kcc entry scaled
#pragma kcc param x in  f32[n]
#pragma kcc param y out f32[n]
#pragma kcc shape check n=17
#pragma kcc shape bench n=100000
void scaled(int n, const float *x, float *y)
{
	for (int i = 0; i < n; i++)
		y[i] = SCALE * x[i] + OFFSET;
}
