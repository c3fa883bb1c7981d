// Pragmas inside comments and strings are not read: the broken ones below
// would be errors if they were.
// RUN: %kcc -O0 %s -o %t.out
// RUN: cmp %s %t.out
#pragma kcc entry scale
#pragma kcc param x in  f32[N]
#pragma kcc param y out f32[N]   // a trailing comment is fine
#pragma kcc shape check N=17; N=64
#pragma kcc shape bench N=1048576
/*
#pragma kcc param z inout f99[?]
*/
static const char *doc = "\n#pragma kcc bogus\n";

void scale(const float *x, float *y, int N)
{
	(void)doc;
	for (int i = 0; i < N; i++)
		y[i] = 2.0f * x[i];
}
