/* A correct kernel whose spec claims far more work than it does: timed, it
 * would run faster than any unit of any cpu can go. */
#pragma kcc entry scale
#pragma kcc param x in f32[n]
#pragma kcc param y out f32[n]
#pragma kcc shape check n=100
#pragma kcc shape bench n=100000
#pragma kcc bytes 1000000*n

void scale(const float *x, float *y, int n)
{
	for (int i = 0; i < n; i++)
		y[i] = x[i] + x[i];
}
